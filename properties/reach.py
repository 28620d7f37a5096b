"""Which states of a round's first trick a real round reaches: z3 over the engine's own deal and first plays.

A refuted context claim (say, a seat with no legal play while following ♣ on the first trick
with hearts broken) is a counterexample only if a round can reach that context. The bounded
search of :mod:`properties.replay` may find no deal that does; for the first trick the question
is settled exactly here. Every state of the first trick is the deal followed by fewer plays
than the trick holds, and the passes only trade cards between hands of the sizes dealt
(PASSING-PRESERVES-DEAL), so a deal with no pass stands for every deal after the passes. So
the engine's :func:`~hearts_ref.round.dealt_state` is run on symbolic hands (any deal of the
cards in play, of the sizes dealt) and :meth:`~hearts_ref.round.RoundState.play` on ``k``
symbolic cards, ``k`` from 1 to the trick's size less one, every way its code can go
(:func:`~hearts_ref.symbolic.explore`; a path on which a play is refused is not a round). z3
then says whether some path ends with the seat to move in the context (and, for a stuck
claim, with no legal play): if none can, no round reaches it (proved, on the engine's own
code); if one can, its model is a deal and plays that do (a :class:`Replay`).

That search grows with the table (five plays to explore with six players, two decks), so the
proofs ask a smaller question first, :func:`hearts_stay_unbroken`: whether any legal play of
the first trick can break hearts (z3 on the engine's ``legal_plays`` and ``breaks_hearts``). If
none can, hearts are unbroken at the deal and after every play of the first trick, and no round
reaches the first trick with hearts broken. The tests tie that lemma to the search above: for
each preset, the two say the same.
"""

from __future__ import annotations

from typing import Any

import z3

from hearts_ref.deals import dealt_turn, turned
from hearts_ref.legality import Context, breaks_hearts, legal_plays
from hearts_ref.round import dealt_state
from hearts_ref.symbolic import SYMBOLIC, SymbolicCard, any_of, as_z3, explore
from hearts_ref.variants import Rules
from properties.counterexamples import Replay, replay_round
from properties.solving import PROVED, Prover, card_variables, exactly_one_place, one_card, subset

__all__ = ["UNREACHABLE", "REACHABLE", "first_trick_reach", "hearts_stay_unbroken"]

S = SYMBOLIC

UNREACHABLE = "unreachable"   # no deal and legal first-trick plays reach the context (proved)
REACHABLE = "reachable"       # z3 found a deal and plays that reach it: the replay
UNKNOWN = "unknown"           # not settled (not a first-trick context, a timeout, too many paths)


def hearts_stay_unbroken(rules: Rules, prover: Prover) -> bool:
    """Whether no legal play of the first trick breaks hearts (proved): then no round reaches the first trick with
    hearts broken. Asked of every context of the first trick with hearts unbroken (the lead, following the suit led,
    and with uneven hands a seat's second card), of any hand.

    Rules: FIRST-NO-POINTS, FIRST-EXCEPTION, FIRST-TWO-CARDS, BREAK-DISCARD, BREAK-QUEEN.
    """
    hand, card = card_variables("unbroken_hand", rules), card_variables("unbroken_card", rules)
    pairs = (None, 0, 1, 2, 3) if rules.extra_cards else (None,)
    contexts = [Context(True, None, True, False)] + [Context(False, 0, True, False, pair) for pair in pairs]
    for ctx in contexts:
        claim = [as_z3(one_card(card)), as_z3(subset(card, legal_plays(hand, ctx, rules, S)))]
        broken = breaks_hearts(card, ctx, rules, S)
        if isinstance(broken, bool):
            if broken:
                return False
            continue
        if prover.holds(tuple(claim), z3.Not(as_z3(broken))).status != PROVED:
            return False
    return True


def first_trick_reach(rules: Rules, ctx: Context, *, stuck: bool, timeout: float = 60.0) -> tuple[str, Replay | None]:
    """Whether a round reaches a seat to move on the first trick in ``ctx`` (with no legal play, when ``stuck``):
    :data:`UNREACHABLE` (proved), :data:`REACHABLE` with a deal and plays that do, or ``unknown``.

    Rules: DEAL-HANDS, LEAD-OPEN and every play rule, as the engine runs them.
    """
    if not ctx.first_trick or ctx.leading:   # leading the first trick is the deal itself; later tricks: not here
        return UNKNOWN, None
    n, extra = rules.players, rules.extra_cards
    settled = True
    for dealer in sorted({0} | (set(range(n)) if extra else set())):
        sizes = rules.dealt_sizes(dealer)
        for plays in range(1, n + extra):
            answer, replay = _reach(rules, ctx, sizes, plays, stuck, timeout)
            if answer == REACHABLE:
                return REACHABLE, replay
            settled = settled and answer == UNREACHABLE
    return (UNREACHABLE if settled else UNKNOWN), None


def _reach(rules: Rules, ctx: Context, sizes: tuple[int, ...], plays: int, stuck: bool,
           timeout: float) -> tuple[str, Replay | None]:
    """Whether the deal of ``sizes`` and ``plays`` plays of the first trick can end in ``ctx``."""
    dealt = [card_variables(f"reach_dealt{j}", rules) for j in range(rules.players)]
    cards = [card_variables(f"reach_play{j}", rules) for j in range(plays)]

    def first_trick() -> Any:
        state = dealt_state(rules, dealt, "none")
        for card in cards:
            state = state.play(SymbolicCard(card), S)
        return state

    try:
        paths = explore(first_trick, prune=True)
    except RuntimeError:   # more paths than explore allows: not settled here
        return UNKNOWN, None
    ends = []
    for path in paths:
        state = path.result
        if isinstance(state, Exception) or state.context != ctx or state.to_play < 0:
            continue
        ends.append((path.condition if not stuck else z3.And(as_z3(path.condition), as_z3(S.is_empty(state.legal))),
                     state.to_play))
    if not ends:
        return UNREACHABLE, None
    solver = z3.Solver()
    solver.set("timeout", int(timeout * 1000))
    solver.add(*exactly_one_place(dealt, rules.deck_mask))
    solver.add(*[as_z3(hand.count() == size) for hand, size in zip(dealt, sizes)])
    solver.add(*[as_z3(one_card(card)) for card in cards])
    solver.add(as_z3(any_of([as_z3(condition) for condition, _ in ends])))
    answer = solver.check()
    if answer == z3.unsat:
        return UNREACHABLE, None
    if answer != z3.sat:
        return UNKNOWN, None
    model = solver.model()
    hands = tuple(hand.evaluate(model) for hand in dealt)
    indices = tuple(card.evaluate(model).bit_length() - 1 for card in cards)
    seat = next(seat for condition, seat in ends if z3.is_true(model.eval(as_z3(condition), model_completion=True)))
    number, dealer = replay_round(rules)
    by = dealt_turn(rules, hands, dealer)   # DEAL-HANDS: turned so that a round with no pass deals them (the rules
    if by is None:                          # are the same at every seat)
        return UNKNOWN, None
    return REACHABLE, Replay(turned(hands, by), indices, (seat + by) % rules.players, round_number=number,
                             dealer=dealer)


