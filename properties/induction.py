"""The strong form: an inductive invariant over the engine's own transition, ``RoundState.play``.

A state of a round is the engine's :class:`~hearts_ref.round.RoundState` with every card set
symbolic (:func:`properties.transitions.symbolic_round`) and a concrete *shape*: who leads
the trick, how many cards it holds, the play context. The number of finished tricks is a
z3 integer ``T``. The invariant *Inv* has six parts (:func:`invariant_parts`). The proof shows

1. the deal ⇒ Inv, in the state ``dealt_state`` returns (the engine's own start of a round,
   explored: one path per seat that can hold the lowest club) (:func:`initial_claims`);
2. Inv ∧ a legal play ⇒ Inv after it, in every shape: the transition is ``RoundState.play``
   itself, run on a symbolic card under ``explore``, one path per way its code can go (the
   seat winning the trick, whether hearts break, whether the round ends) (:func:`step_claims`);
3. Inv ⇒ the player to move has a legal play, and the round ends exactly when ``hand_size``
   tricks are done, every card taken by one player (:func:`consequence_claims`).

So Inv holds in every reachable state, not only for plausible hand shapes, and the engine's
transition is the one proved: no model of it is written here. The per-card counting schemas
of :mod:`properties.solving` are proved first and their instances assumed.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any, NamedTuple

import z3

from hearts_ref.legality import Context
from hearts_ref.round import RoundState, dealt_state
from hearts_ref.symbolic import SYMBOLIC, all_of, any_of, as_z3, explore, implies, union_of
from hearts_ref.variants import Rules
from properties import statements as said
from properties.logic import HEARTS, QUEEN_OF_SPADES, suit
from properties.solving import Claim, card_variables, count_split, exactly_one_place, subset
from properties.transitions import LED, Shape, explored_play, real_states, shapes, symbolic_round, witness_of

__all__ = ["PARTS", "invariant_parts", "initial_claims", "step_claims", "consequence_claims", "all_claims",
           "inductive_results", "InductiveClaim"]

S = SYMBOLIC

# Each part of Inv, the invariant it stands for, and the parts of the state before a play it needs.
PARTS = {
    "conservation": ("CARDS-CONSERVED", ("conservation", "trick")),
    "trick": ("LEGAL-MOVE-EXISTS", ("trick",)),
    "opening": ("OPENING-LEAD", ("opening", "trick", "led")),
    "broken": ("HEARTS-BREAK-ON-PLAY", ("broken", "trick")),
    "led": ("LEGAL-MOVE-EXISTS", ("led", "trick")),
    "sizes": ("LEGAL-MOVE-EXISTS", ("sizes", "trick")),
}
# The parts about card sets only, proved together per shape: where the cards are, and the context of the next play.
CARD_PLACES = ("conservation", "trick", "opening")
CONTEXT_PARTS = ("led", "broken")


class InductiveClaim(NamedTuple):
    """One claim of the inductive proof, the invariant it serves, and what it is about."""

    invariant: str
    kind: str                   # "initial", "step", "exists", "end"
    claim: Claim
    shape: Shape | None = None
    state: Any = None


def invariant_parts(state: RoundState, tricks: Any, *, only: str | None = None) -> Any:
    """Return Inv's six parts for an engine ``state`` with ``tricks`` finished tricks, by name (or the part ``only``).

    conservation: every card in play is in exactly one hand, pile of taken cards, or place on the trick.
    trick: each card on the trick is one card.
    opening: on the first trick, the leader holds the lowest club or has led an opening card.
    broken: once hearts are broken, a heart (or the Q♠ if it breaks them) is among the cards played.
    led: the context leads exactly when the trick is empty, and the trick's first card is of the suit led.
    sizes: each hand holds ``hand_size`` − tricks cards, one fewer once its card is on the trick; the context
    is the first trick's exactly while no trick is done.
    """
    rules = state.rules
    n, size, k = rules.players, said.hand_size(rules.players), len(state.trick)
    trick = [c.cards for c in state.trick]
    ctx = state.context

    def conservation() -> Any:
        return all_of(exactly_one_place(list(state.hands) + list(state.taken) + trick, rules.deck_mask))

    def trick_part() -> Any:
        return all_of(_one(c) for c in trick)

    def sizes() -> Any:
        counts = [state.hands[(state.leader + j) % n].count() == size - tricks - (1 if j < k else 0) for j in range(n)]
        first = (tricks == 0) if ctx.first_trick is True else z3.Not(tricks == 0)
        return all_of(counts + [tricks >= 0, tricks <= size, first] + ([tricks < size] if k else []))

    def opening() -> Any:
        if ctx.first_trick is not True:
            return True
        low = said.lowest_club(n)
        if k == 0:
            return as_z3(S.non_empty(state.hands[state.leader] & low))
        opening_cards = suit("C") if rules.can_lead_any_club else low
        return as_z3(S.is_empty(trick[0] & ~opening_cards))

    def broken() -> Any:
        breakers = HEARTS | (QUEEN_OF_SPADES if rules.qs_breaks_hearts else 0)
        played = union_of(list(state.taken) + trick)
        return implies(ctx.hearts_broken, S.non_empty(played & breakers))

    def led() -> Any:
        suit_led = [] if ctx.leading else [as_z3(S.non_empty(trick[0] & suit(LED[ctx.led_suit])))]
        return all_of([ctx.leading is (k == 0), *suit_led])

    builders = {"conservation": conservation, "trick": trick_part, "sizes": sizes, "opening": opening,
                "broken": broken, "led": led}
    if only is not None:
        return builders[only]()
    return {name: build() for name, build in builders.items()}


def _one(cards: Any) -> Any:
    from properties.solving import one_card
    return one_card(cards)


def initial_claims(rules: Rules) -> list[InductiveClaim]:
    """DEAL-HANDS ⇒ Inv: any equal deal of the cards in play, started by the engine's ``dealt_state``."""
    n, size = rules.players, said.hand_size(rules.players)
    dealt = [card_variables(f"dealt{j}", rules) for j in range(n)]
    deal = exactly_one_place(dealt, rules.deck_mask) + [hand.count() == size for hand in dealt]
    goals = []
    for path in explore(dealt_state, rules, dealt, "none"):
        state = path.result
        right = False if path.raised else all_of(invariant_parts(state, 0).values())
        goals.append(implies(path.condition, right))
    claim = Claim("Inv holds at the deal", tuple(deal), all_of(goals),
                  tuple((f"seat {j}", h) for j, h in enumerate(dealt)))
    return [InductiveClaim("LEGAL-MOVE-EXISTS", "initial", claim)]


def step_claims(rules: Rules) -> Iterator[InductiveClaim]:
    """Inv ∧ a legal play ⇒ Inv after it: per shape and part, over every path of ``RoundState.play``."""
    n, size = rules.players, said.hand_size(rules.players)
    tricks = z3.Int("tricks")
    for shape in shapes(rules):
        state = symbolic_round(rules, shape)
        card, paths, hypotheses = explored_play(state)
        before = invariant_parts(state, tricks)
        mover = state.hands[state.to_play]
        counting = count_split(mover, card)[1]
        complete = len(state.trick) + 1 == n
        after_tricks = tricks + 1 if complete else tricks
        afters = [None if p.raised or not isinstance(p.result, RoundState) else
                  p.result._replace(leader=p.value(p.result.leader), to_play=p.value(p.result.to_play)) for p in paths]
        # Where the cards are (conservation, trick, opening): the same on every path but for the pile the winner
        # takes, and true whichever seat wins, so each path's goal is claimed with no condition at all (a stronger
        # claim, and one that does not depend on the rules for breaking hearts). Any card of the mover's hand is
        # taken past the engine's legality check (stronger than for legal cards), except on the first lead,
        # where the opening part needs the card to be a legal lead.
        legal = [] if shape.context.first_trick and shape.position == 0 else [hypotheses[1]]
        hand_card = [h for h in hypotheses if all(h is not x for x in legal)] + [subset(card, mover)]
        real = real_states(rules).get((shape.leader, shape.position, shape.context))
        witness = witness_of(state, real, tricks=tricks)
        for parts, name, conditioned in ((CARD_PLACES, "the cards", False), (CONTEXT_PARTS, "the context", True)):
            goals = [implies(p.condition if after is None or conditioned else True, False if after is None else
                             all_of(invariant_parts(after, after_tricks, only=part) for part in parts))
                     for p, after in zip(paths, afters)]
            needs = sorted({need for part in parts for need in PARTS[part][1]})
            yield InductiveClaim(PARTS[parts[0]][0], "step",
                                 Claim(f"{name} of Inv kept: {shape.describe(n)}", tuple(hand_card + [before[p] for p in needs]),
                                       all_of(goals), (("card", card),), witness=witness), shape, state)
        # The sizes: every path leaves the same hands, so its goal needs no condition; and the round ends (the
        # engine plays no more) exactly when the tricks done reach the hand size.
        goals = [False if after is None else invariant_parts(after, after_tricks, only="sizes") for after in afters]
        ended = [implies(p.condition_without_numbers(), (after.to_play == -1) == (after_tricks == size))
                 for p, after in zip(paths, afters) if after is not None] if complete else []
        given = [subset(card, mover), card.count() == 1] + counting + [before[p] for p in PARTS["sizes"][1]]
        label = f"sizes of Inv kept{' and the round ends after ' + str(size) + ' tricks' if complete else ''}"
        yield InductiveClaim("ROUND-PLAYS-EVERY-CARD" if complete else "LEGAL-MOVE-EXISTS", "step",
                             Claim(f"{label}: {shape.describe(n)}", tuple(given), all_of(goals + ended),
                                   (("card", card),), witness=witness), shape, state)


def consequence_claims(rules: Rules) -> Iterator[InductiveClaim]:
    """What Inv gives: a legal play exists in every shape, and the end of a round is a partition of the cards."""
    n, size = rules.players, said.hand_size(rules.players)
    tricks = z3.Int("tricks")
    for shape in shapes(rules):
        if shape.leader != 0 and shape.position == 0:
            continue
        state = symbolic_round(rules, shape)
        parts = invariant_parts(state, tricks)
        hypotheses = (parts["sizes"], parts["trick"], parts["opening"], parts["led"], tricks < size)
        invariant = "FIRST-TRICK-NO-DEADLOCK" if shape.context.first_trick and shape.position else "LEGAL-MOVE-EXISTS"
        claim = Claim(shape.describe(n), hypotheses, S.non_empty(state.legal), (("hand", state.hands[state.to_play]),),
                      hand=state.hands[state.to_play], data=shape, impossible=_impossible(rules, shape))
        yield InductiveClaim(invariant, "exists", claim, shape, state)
    end = symbolic_round(rules, Shape(0, 0, Context(True, None, False, True)), "end")
    parts = invariant_parts(end, size)
    claim = Claim("at the end of the round every card in play has been taken once",
                  (parts["conservation"], parts["sizes"], parts["trick"]),
                  all_of(exactly_one_place(list(end.taken), rules.deck_mask)
                         + [as_z3(S.is_empty(h)) for h in end.hands]))
    yield InductiveClaim("ROUND-PLAYS-EVERY-CARD", "end", claim)


def _impossible(rules: Rules, shape: Shape) -> str:
    """Why no state of Inv has this shape, when none does: hearts broken before any card of a round is played."""
    ctx = shape.context
    if ctx.first_trick and ctx.hearts_broken and shape.position == 0:
        return "hearts are unbroken at the start of every round (BREAK-DISCARD)"
    return ""


def lemma_claims(rules: Rules) -> list[InductiveClaim]:
    """The lemma the counting claims assume: in every context, the legal plays are cards of the hand."""
    hand = card_variables("hand", rules)
    found = []
    for shape in shapes(rules):
        if shape.leader == 0 and shape.position <= 1:
            ctx = shape.context
            from hearts_ref.legality import legal_plays
            claim = Claim(f"legal plays are cards of the hand ({shape.describe(rules.players)})", (),
                          subset(legal_plays(hand, ctx, rules, S), hand), (("hand", hand),))
            found.append(InductiveClaim("LEGAL-MOVE-EXISTS", "lemma", claim, shape))
    return found


def all_claims(rules: Rules) -> Iterator[InductiveClaim]:
    """Every claim of the inductive proof."""
    yield from lemma_claims(rules)
    yield from initial_claims(rules)
    yield from step_claims(rules)
    yield from consequence_claims(rules)


def inductive_results(rules: Rules, session: Any, label: str) -> list:
    """Prove the inductive invariant under ``rules``; return one result per invariant it establishes.

    Every initial and step claim must be proved for Inv to be inductive; if one is not, each
    result is an error naming it. Then an invariant is proved when its consequences are; a
    state where Inv holds and no play is legal refutes LEGAL-MOVE-EXISTS once it is replayed
    on the engine.
    """
    from properties.catalogue import INVARIANTS, expected_outcome
    from properties.findings import NO_ROUND_REACHES, confirm_stuck, proved_unreachable
    from properties.counterexamples import from_model
    from properties.results import ProofResult
    from properties.solving import ERROR, IMPOSSIBLE, PROVED, REFUTED, UNCONFIRMED, worst

    if rules.extra_cards:   # Inv counts one card from each seat per trick: the uneven first trick is not in it
        from properties.solving import NOT_APPLICABLE
        why = ("Inv models one card from each seat per trick; the uneven first trick (even_out = uneven) is proved "
               "per context only")
        return [ProofResult(i.id, label, "inductive", NOT_APPLICABLE, NOT_APPLICABLE, 0.0, 0, (), why, rules.changes())
                for i in INVARIANTS if "inductive" in i.methods]
    start = time.perf_counter()
    shared, own, seconds = [], {}, {}
    claims = all_claims(rules)
    while True:   # each claim's seconds count its making (the engine's play explored, Inv's parts) and its proof
        before = time.perf_counter()
        item = next(claims, None)
        if item is None:
            break
        answer = session.prover.check(item.claim)
        seconds[item.invariant] = seconds.get(item.invariant, 0.0) + time.perf_counter() - before
        if item.kind == "exists":
            for owner in [item.invariant] + (["LEGAL-MOVE-EXISTS"] if item.invariant == "FIRST-TRICK-NO-DEADLOCK" else []):
                own.setdefault(owner, []).append((item, answer))
        elif item.kind == "end":
            own.setdefault(item.invariant, []).append((item, answer))
        else:
            shared.append((item, answer))
    results = []
    for invariant in INVARIANTS:
        if "inductive" not in invariant.methods:
            continue
        mine = own.get(invariant.id, [])
        problems = [(i, a) for i, a in shared + [x for x in mine if x[0].kind != "exists"]
                    if a.status not in (PROVED, IMPOSSIBLE)]
        refuted = [(i, a) for i, a in mine if a.status == REFUTED and i.kind == "exists"]
        examples: tuple = ()
        impossible = [i.claim.label for i, a in mine + shared if a.status == IMPOSSIBLE]
        if session.schemas_status != PROVED:
            status, detail = ERROR, "the per-card lemma schemas are not proved"
        elif problems:
            item, answer = problems[0]
            status = ERROR if answer.status == REFUTED else worst(a.status for _, a in problems)
            detail = f"Inv is not shown inductive: {item.kind} claim {item.claim.label!r}: {answer.status} {answer.reason}"
        elif refuted:
            confirmed, unreached, unreachable = [], [], []
            for item, answer in refuted:
                where = f"{item.claim.label} (the size, trick, opening and context parts of Inv hold)"
                example = _simplest(from_model(invariant.id, where, item.claim.shown, answer.model,
                                               context=item.shape.context, hand=item.claim.hand), rules)
                found, reached = confirm_stuck(session, rules, example)
                (confirmed if reached else unreachable if proved_unreachable(found) else unreached).append(found)
            status = REFUTED if confirmed else UNCONFIRMED if unreached else PROVED
            examples = tuple(confirmed + unreached + unreachable) if status != PROVED else ()
            detail = f"{len(refuted)} shapes without a legal play"
            if status == PROVED:   # Inv is weaker than reachability there: every such shape is one no round reaches
                detail += f" in Inv, each one {NO_ROUND_REACHES} (proved)"
        else:
            status, detail = worst([PROVED] + [a.status for _, a in mine]), ""
        if impossible and invariant.id == "LEGAL-MOVE-EXISTS":
            detail = (detail + "; " if detail else "") + f"{len(impossible)} shape(s) declared impossible (hearts " \
                                                         "unbroken at the start of a round)"
        results.append(ProofResult(invariant.id, label, "inductive", status, expected_outcome(invariant.id, rules),
                                   seconds.get(invariant.id, 0.0), len(mine), examples, detail, rules.changes()))
    total = time.perf_counter() - start
    return [r._replace(detail=(r.detail + "; " if r.detail else "") + f"whole inductive proof {total:.1f}s")
            if r.invariant == "LEGAL-MOVE-EXISTS" and hasattr(r, "_replace") else
            _with_detail(r, f"whole inductive proof {total:.1f}s") if r.invariant == "LEGAL-MOVE-EXISTS" else r
            for r in results]


def _simplest(example: Any, rules: Rules) -> Any:
    """The refutation with the simplest stuck hand of its size (as the per-context proofs give it): the same hand
    whichever model z3 found, so the report does not depend on the order in which the proofs ran."""
    from hearts_ref import legality
    from properties.counterexamples import is_stuck, simplest_stuck_hand, stuck_counterexample
    size = example.hand.bit_count()
    hand = simplest_stuck_hand(example.hand, lambda mask: mask.bit_count() == size and not mask & ~rules.deck_mask,
                               is_stuck(legality.legal_plays, example.context, rules), rules)
    return stuck_counterexample(example.invariant, example.where, hand, example.context, rules)


def _with_detail(result: Any, more: str) -> Any:
    from dataclasses import replace
    return replace(result, detail=(result.detail + "; " if result.detail else "") + more)


_ = (any_of,)
