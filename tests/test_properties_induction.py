"""The inductive proof: its model of a round agrees with the engine, and it proves (or refutes) every preset.

The model (properties.induction) numbers seats from the trick's leader and moves cards with
the engine's own rule functions: legal_plays, breaks_hearts (BREAK-DISCARD, BREAK-QUEEN),
trick_winner (TRICK-WINNER, LEAD-WINNER). Here it runs on concrete cards next to the engine:
every reachable state satisfies Inv, and a step of the model is a step of the engine.
"""

import random

import pytest
import z3
from hypothesis import given, settings
from hypothesis import strategies as st

from hearts_ref import CARDS, Rules
from hearts_ref.cardset import BITS, POINT_CARDS, QUEEN, bits_of
from hearts_ref.legality import legal_plays
from hearts_ref.round import RoundState, trick_winner
from hearts_ref.symbolic import SYMBOLIC, SymbolicCardSet
from properties import states
from properties.induction import (
    Case, State, cases, consequence_claims, invariant_parts, lemma_claims, step, step_claims,
)
from properties.prove import Session, prove_inductive
from properties.solving import PROVED, REFUTED, Prover, as_z3

from tests.test_properties_context import legality_without_first_exception


def model_of(state: RoundState) -> State:
    """The engine's state as the proof models it: concrete card sets, seats counted from the leader."""
    n, k = state.rules.players, len(state.trick)
    seat = [(state.leader + j) % n for j in range(n)]
    constant = SymbolicCardSet.constant
    return State(tuple(constant(state.hands[s]) for s in seat), tuple(constant(state.taken[s]) for s in seat),
                 tuple(constant(1 << state.trick[j] if j < k else 0) for j in range(n)), k, len(state.tricks),
                 state.hearts_broken)


def masks(model: State) -> tuple:
    def mask(cards):
        return sum(int(bit) << i for i, bit in enumerate(cards.bits))
    return (tuple(map(mask, model.hands)), tuple(map(mask, model.taken)), tuple(map(mask, model.plays)),
            model.position, model.tricks, model.broken)


def holds(formula) -> bool:
    return z3.is_true(z3.simplify(as_z3(formula)))


@settings(max_examples=60)
@given(state=states(), data=st.data())
def test_every_reachable_state_satisfies_inv_and_the_model_steps_like_the_engine(state, data):
    model = model_of(state)
    parts = invariant_parts(model, state.rules)
    assert all(holds(goal) for goal in parts.values()), [name for name, goal in parts.items() if not holds(goal)]
    if state.phase != "play" or not state.legal:
        return
    card = data.draw(st.sampled_from(list(bits_of(state.legal))))
    after = state.play(CARDS[card])
    n, k = state.rules.players, len(state.trick)
    winner = None
    if k == n - 1:   # the last card: the trick's winner, counted from the leader (TRICK-WINNER)
        winner = (after.tricks[-1].winner - state.leader) % n
        plays = [c for c in model.plays[:k]] + [SymbolicCardSet.constant(1 << card)]
        assert trick_winner(plays, state.trick[0] // 13, 0, n, SYMBOLIC) == winner
    led = None if k == 0 else state.trick[0] // 13
    case = Case(k, led, not state.tricks, state.hearts_broken, winner)
    assert case.context == state.context
    moved = step(model, case, SymbolicCardSet.constant(1 << card), state.rules)
    assert masks(moved) == masks(model_of(after))


@pytest.mark.deep
def test_inductive_proof_default_rules_every_invariant_proved():
    results = prove_inductive(Rules(), Session(timeout=120))
    assert {r.invariant: r.status for r in results} == {r.invariant: "proved" for r in results}
    assert {"LEGAL-MOVE-EXISTS", "CARDS-CONSERVED", "POINTS-PER-ROUND", "OPENING-LEAD"} <= {r.invariant for r in results}


@pytest.mark.deep
def test_inductive_proof_seed001_refuted_on_the_first_trick_and_replayed():
    results = {r.invariant: r for r in prove_inductive(Rules.preset("seed001"), Session(timeout=120))}
    assert all(r.matches for r in results.values())
    example = results["FIRST-TRICK-NO-DEADLOCK"].counterexample
    assert example.context.first_trick and example.replay is not None


def test_inductive_proof_flips_under_a_broken_rule():
    """The inductive proof runs the legality it is given: drop FIRST-EXCEPTION and the first trick deadlocks."""
    results = {r.invariant: r for r in prove_inductive(
        Rules(), Session(timeout=60, legality=legality_without_first_exception, confirm=False))}
    assert results["FIRST-TRICK-NO-DEADLOCK"].status == results["LEGAL-MOVE-EXISTS"].status == REFUTED
    assert results["CARDS-CONSERVED"].status == PROVED
    example = results["FIRST-TRICK-NO-DEADLOCK"].counterexample
    assert example.context.first_trick and example.hand & ~POINT_CARDS == 0


def test_a_legality_that_plays_cards_not_in_the_hand_breaks_the_lemmas():
    """The step claims assume a legal play is a card of the hand; that lemma must be proved, and can fail."""
    def not_in_hand(hand, ctx, rules, ops=BITS):
        return legal_plays(hand, ctx, rules, ops) | QUEEN

    prover = Prover(timeout=60)
    assert {prover.check(c.hypotheses, c.goal).status for c in lemma_claims(Rules(), legal_plays)} == {PROVED}
    assert REFUTED in {prover.check(c.hypotheses, c.goal).status for c in lemma_claims(Rules(), not_in_hand)}


def test_step_claims_are_not_vacuous():
    """The hypotheses of a sample of step claims can all hold at once: each proof says something."""
    rng = random.Random(7)
    claims = [c for c in step_claims(Rules()) if not c.case.first_trick]
    for claim in rng.sample(claims, 12):
        solver = z3.Tactic("smt").solver()
        solver.set("timeout", 30000)
        solver.add(*[as_z3(h) for h in claim.hypotheses])
        assert solver.check() == z3.sat, claim.label


def test_inductive_cases_cover_every_play():
    """4 positions: 1 leading + 3 following × 4 suits, × first trick × broken; the last card × 4 winners."""
    found = list(cases(Rules()))
    assert len(found) == (1 + 2 * 4) * 4 + 4 * 4 * 4 and len(set(found)) == len(found)
    assert {c.winner for c in found if c.position == 3} == {0, 1, 2, 3}
    kinds = {claim.kind for claim in consequence_claims(Rules(), legal_plays)}
    assert kinds == {"cover", "exists", "end"}
