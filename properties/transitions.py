"""The engine's own transition on symbolic cards: ``RoundState.play`` and ``dealt_state``, explored path by path.

A round's state is built with every card set symbolic — the hands, the piles taken, the
cards on the trick (:class:`~hearts_ref.symbolic.SymbolicCard`) — and a concrete shape:
who leads the trick, how many cards it holds, and the play context (the suit led, first
trick, hearts broken). :func:`explored_play` runs the engine's ``RoundState.play`` on it,
with a symbolic card, under :func:`~hearts_ref.symbolic.explore`: each path is one way the
engine's code can go (which seat wins the trick, whether the card breaks hearts, whether
the round ends), with its condition and the state it returns.

:func:`play_steps_as_stated` claims, for every shape, that on every path the state after
the play is what the step statements say (TRICK-ORDER, TRICK-WINNER, LEAD-WINNER,
BREAK-DISCARD with BREAK-QUEEN), and that a round begins (``dealt_state``) with the holder
of the lowest club to play (LEAD-OPEN). :mod:`properties.induction` proves an inductive
invariant over the same explored transition.

>>> from hearts_ref import Context, Rules
>>> shape = Shape(0, 3, Context(False, 0, False, True))
>>> len(explored_play(symbolic_round(Rules(), shape))[1])     # 4 winners × ends the round or not
8
"""

from __future__ import annotations

import random
from functools import cache
from typing import Any, NamedTuple

import z3

from hearts_ref.cards import Suit
from hearts_ref.legality import Context, legal_plays
from hearts_ref.round import RoundState, dealt_state, trick_winner
from hearts_ref.symbolic import SYMBOLIC, Path, SymbolicCard, all_of, any_of, as_z3, explore, implies, negation
from hearts_ref.variants import Rules
from properties import statements as said
from properties.logic import suit
from properties.solving import Claim, card_variables, exactly_one_place, one_card
from properties.statements import Position

__all__ = ["Shape", "shapes", "symbolic_round", "explored_play", "position_of", "play_steps_as_stated",
           "canonical_rules", "legal_term"]

S = SYMBOLIC
LED = ("C", "D", "S", "H")


class Shape(NamedTuple):
    """The concrete part of a state before a play: who leads the trick, how many cards it holds, the context."""

    leader: int
    position: int
    context: Context

    def seat(self, players: int) -> int:
        return (self.leader + self.position) % players

    def describe(self, players: int) -> str:
        ctx = self.context
        what = "leads" if ctx.leading else f"follows {Suit(ctx.led_suit).glyph}"
        return (f"seat {self.seat(players)} {what} (seat {self.leader} led), "
                f"{'first' if ctx.first_trick else 'a later'} trick, hearts {'broken' if ctx.hearts_broken else 'unbroken'}")


def shapes(rules: Rules) -> list[Shape]:
    """Every shape of a state with a card to play: each leader, each position, each context it can have.

    The first trick is led with a club (LEAD-OPEN) before hearts can break (BREAK-DISCARD: unbroken at the start).
    """
    n = rules.players
    found = []
    for leader in range(n):
        found += [Shape(leader, 0, Context(True, None, first, broken))
                  for first, broken in ((True, False), (False, False), (False, True))]
        for position in range(1, n):
            found += [Shape(leader, position, Context(False, 0, True, broken)) for broken in (False, True)]
            found += [Shape(leader, position, Context(False, s, False, broken)) for s in Suit for broken in (False, True)]
    return found


def canonical_rules(players: int) -> Rules:
    """The default rules for ``players``: the transition claims read only the number of players."""
    return Rules(players=players, pass_cycle="left-right-none" if players % 2 else "left-right-across-none")


def symbolic_round(rules: Rules, shape: Shape, name: str = "") -> RoundState:
    """A state of ``shape`` with fresh variables for the hands, the piles taken and the cards on the trick.

    The variables are named from the leader (``hand+1`` is the hand of the seat after it), so that a rule
    that treats every seat alike gives the very same formulas whoever leads: z3 then answers them once.
    """
    n = rules.players
    hands = tuple(card_variables(f"{name}hand+{(s - shape.leader) % n}", rules) for s in range(n))
    taken = tuple(card_variables(f"{name}taken+{(s - shape.leader) % n}", rules) for s in range(n))
    trick = tuple(SymbolicCard(card_variables(f"{name}trick{j}", rules)) for j in range(shape.position))
    seat = shape.seat(n)
    legal = legal_plays(hands[seat], shape.context, rules, S)
    return RoundState(rules, hands, "none", (0,) * n, hands, taken, trick, shape.leader, (), False, seat,
                      shape.context, legal)


def legal_term(state: RoundState, card: Any) -> Any:
    """The condition ``RoundState.play`` tests for a legal card, built as the engine builds it (so z3 shares it)."""
    from hearts_ref.symbolic import negation
    return negation((state.legal & card).is_empty_bit())


def explored_play(state: RoundState, name: str = "card") -> tuple[Any, list[Path], list[Any]]:
    """Run ``state.play`` on a symbolic card under ``explore``: the card, the paths, and the hypotheses of the run.

    The hypotheses: the card is one card, on the legal plays (so the engine's check passes: that branch is
    assumed), distinct from the cards on the trick, whose first card is of the suit led.
    """
    rules, shape_ctx = state.rules, state.context
    card = card_variables(name, rules)
    trick = [c.cards for c in state.trick] + [card]
    legal = legal_term(state, card)
    hypotheses = [one_card(card), legal] + [one_card(c) for c in trick[:-1]]
    hypotheses += [(trick[a] & trick[b]).is_empty_bit() for a in range(len(trick)) for b in range(a + 1, len(trick))]
    if state.trick:
        hypotheses.append(as_z3(S.non_empty(trick[0] & suit(LED[shape_ctx.led_suit]))))
    if len(trick) == rules.players:   # the hands stay equal (the inductive proof shows it): all empty, or none
        after = [h & ~card if s == state.to_play else h for s, h in enumerate(state.hands)]
        empty = [as_z3(S.is_empty(h)) for h in after]
        hypotheses.append(any_of([all_of(empty), negation(any_of(empty))]))
    paths = explore(RoundState.play, state, SymbolicCard(card), S, assume=[legal])
    return card, paths, hypotheses


@cache
def real_states(rules: Rules) -> dict[tuple[Any, ...], tuple[RoundState, int]]:
    """A state of each shape met in real rounds (random deals and plays from fixed seeds), with a legal card: the
    witnesses that the claims' hypotheses can hold."""
    from hearts_ref.deals import deal
    from hearts_ref.simulate import random_card
    rng = random.Random(0)
    found: dict[tuple[Any, ...], tuple[RoundState, int]] = {}
    for seed in range(120):
        state = dealt_state(rules, [h.mask for h in deal(rules, seed=seed)], "none")
        while state.to_play >= 0 and state.legal:
            card = random_card(state, rng)
            found.setdefault(shape_key(state), (state, card.index))
            state = state.play(card)
    return found


def shape_key(state: RoundState) -> tuple[Any, ...]:
    return (state.leader, len(state.trick), state.context)


def witness_of(state: RoundState, real: tuple[RoundState, int] | None, name: str = "", card: str = "card",
               tricks: Any = None) -> tuple[tuple[Any, Any], ...]:
    """The (variable, value) pairs that put the real state ``real`` in place of the symbolic ``state``."""
    if real is None:
        return ()
    concrete, index = real
    n, leader = len(concrete.hands), concrete.leader
    pairs = [(z3.BitVec(f"{name}hand+{(s - leader) % n}", 52), h) for s, h in enumerate(concrete.hands)]
    pairs += [(z3.BitVec(f"{name}taken+{(s - leader) % n}", 52), t) for s, t in enumerate(concrete.taken)]
    pairs += [(z3.BitVec(f"{name}trick{j}", 52), 1 << c) for j, c in enumerate(concrete.trick)]
    pairs.append((z3.BitVec(card, 52), 1 << index))
    if tricks is not None:
        pairs.append((tricks, len(concrete.tricks)))
    return tuple(pairs)


def position_of(state: RoundState) -> Position:
    """What the step statements read of an engine state."""
    return Position(tuple(state.hands), tuple(state.taken), tuple(c.cards for c in state.trick), state.leader,
                    state.to_play, state.context)


def winner_is(state: RoundState, card: Any) -> Any:
    """Who won the trick ``card`` completes, as the engine's ``trick_winner`` says: UNIQUE-TRICK-WINNER proves that for
    every trick and leader this is the seat TRICK-WINNER names, so the step claims may use it (their queries stay small).
    """
    rules = state.rules
    if len(state.trick) + 1 < rules.players:
        return None
    trick = [c.cards for c in state.trick] + [card]
    winner = as_z3(trick_winner(trick, state.context.led_suit, state.leader, rules.players, S,
                                **({"decks": 2} if rules.decks == 2 else {})))
    won = [winner == (state.leader + position) % rules.players for position in range(rules.players)]
    return won.__getitem__


def _step_goal(rules: Rules, before: RoundState, card: Any, path: Path, won: Any) -> Any:
    if path.raised or not isinstance(path.result, RoundState):
        return False
    was, now = position_of(before), position_of(path.result)
    try:
        goals = [said.trick_order(rules, was, card, now), said.trick_winner(rules, was, card, now, won),
                 said.lead_winner(rules, was, card, now, won), said.hearts_after(rules, was, card, now)]
    except (TypeError, IndexError, ValueError, AttributeError):   # a malformed state after the play
        return False
    return all_of(goals)


def play_steps_as_stated(rules: Rules, legality: Any = None) -> list[Claim]:
    """PLAY-STEPS-AS-STATED: ``RoundState.play``, run on symbolic cards in every shape, changes the round as TRICK-ORDER,
    TRICK-WINNER, LEAD-WINNER, BREAK-DISCARD and BREAK-QUEEN say; ``dealt_state`` lets the holder of the lowest club
    lead (LEAD-OPEN). The rules are the default ones for the number of players (BREAKING-AS-STATED proves hearts
    breaking under every variant)."""
    rules = canonical_rules(rules.players)
    claims = []
    for shape in shapes(rules):
        state = symbolic_round(rules, shape)
        card, paths, hypotheses = explored_play(state)
        won = winner_is(state, card)
        goal = all_of(implies(p.condition, _step_goal(rules, state, card, p, won)) for p in paths)
        real = real_states(rules).get((shape.leader, shape.position, shape.context))
        claims.append(Claim(shape.describe(rules.players), tuple(hypotheses), goal,
                            (("card", card),) + tuple((f"hand of seat {s}", h) for s, h in enumerate(state.hands)),
                            witness=witness_of(state, real)))
    claims.append(_opening(rules))
    return claims


def _opening(rules: Rules) -> Claim:
    """LEAD-OPEN: a round dealt with no pass starts with the holder of the lowest club to lead the first trick."""
    n = rules.players
    hands = [card_variables(f"dealt{s}", rules) for s in range(n)]
    low = said.lowest_club(n)
    goals = []
    for path in explore(dealt_state, rules, hands, "none"):
        state = path.result
        right = False if path.raised else all_of([
            as_z3(S.non_empty(hands[state.to_play] & low)), state.leader == state.to_play,
            state.context == Context(True, None, True, False), not state.passing])
        goals.append(implies(path.condition, right))
    return Claim("a round dealt: the holder of the lowest club leads", tuple(exactly_one_place(hands, rules.deck_mask)),
                 all_of(goals), tuple((f"seat {s}", h) for s, h in enumerate(hands)))
