"""The inductive proof runs the engine's own transition, RoundState.play, and proves (or refutes) every preset.

The symbolic states of properties.transitions are engine states whose card sets are z3
vectors; RoundState.play runs on them under explore. Here the same code runs on concrete
cards next to the engine: put a real state in place of the variables and the path whose
condition holds returns exactly the state the engine's play returns, and every reachable
state satisfies Inv. Rules: TRICK-ORDER, TRICK-WINNER, LEAD-WINNER, BREAK-DISCARD.
"""

import pytest
import z3
from hypothesis import given, settings
from hypothesis import strategies as st

from hearts_ref import CARDS, Rules
from hearts_ref.cardset import POINT_CARDS, QUEEN, bits_of
from hearts_ref.legality import legal_plays
from hearts_ref.symbolic import SymbolicCardSet, SymbolicNumber, as_z3
from properties import states
from properties.induction import PARTS, consequence_claims, invariant_parts, step_claims
from properties.prove import Session, prove_inductive
from properties.solving import IMPOSSIBLE, PROVED, REFUTED, VACUOUS, Claim, Prover
from properties.transitions import Shape, explored_play, shapes, symbolic_round, witness_of

from tests.test_properties_context import legality_without_first_exception


def substitute(term, pairs):
    result = z3.simplify(z3.substitute(as_z3(term), *pairs))
    return z3.is_true(result) if z3.is_bool(result) else result.as_long()


def concrete(value, pairs):
    if isinstance(value, SymbolicCardSet):
        return value.known if value.known is not None else substitute(value.term, pairs)
    if isinstance(value, SymbolicNumber):
        return substitute(value.term, pairs)
    return value


def pairs_of(state, card):
    return [(var, z3.BitVecVal(v, 52) if z3.is_bv(var) else z3.IntVal(v))
            for var, v in witness_of(None, (state, card), tricks=z3.Int("tricks"))]


@settings(max_examples=60)
@given(state=states(), data=st.data())
def test_the_explored_play_is_the_engines_play_on_a_real_state(state, data):
    """Put a real state in place of the variables: the path that holds returns the state the engine's play returns."""
    if state.phase != "play" or not state.legal:
        return
    card = data.draw(st.sampled_from(list(bits_of(state.legal))))
    shape = Shape(state.leader, len(state.trick), state.context)
    symbolic = symbolic_round(state.rules, shape)
    _, paths, hypotheses = explored_play(symbolic)
    pairs = pairs_of(state, card)
    assert all(substitute(h, pairs) for h in hypotheses)
    taken = [p for p in paths if substitute(p.condition, pairs)]
    assert len(taken) == 1, [p.conditions for p in taken]
    after, engine = taken[0].result, state.play(CARDS[card])
    assert [concrete(h, pairs) for h in after.hands] == list(engine.hands)
    assert [concrete(t, pairs) for t in after.taken] == list(engine.taken)
    assert concrete(after.to_play, pairs) == engine.to_play and concrete(after.leader, pairs) == engine.leader
    assert concrete(after.context.hearts_broken, pairs) == engine.context.hearts_broken


@settings(max_examples=60)
@given(state=states())
def test_every_reachable_state_satisfies_inv(state):
    if state.phase != "play" or state.rules.extra_cards:   # Inv: one card per seat per trick (not uneven hands)
        return
    shape = Shape(state.leader, len(state.trick), state.context)
    symbolic = symbolic_round(state.rules, shape)
    parts = invariant_parts(symbolic, z3.Int("tricks"))
    pairs = pairs_of(state, next(iter(bits_of(state.hands[state.to_play])), 0))
    assert {name: substitute(goal, pairs) for name, goal in parts.items()} == {name: True for name in PARTS}


@pytest.mark.deep
def test_inductive_proof_default_rules_every_invariant_proved():
    results = prove_inductive(Rules(), Session(timeout=120))
    assert {r.invariant: r.status for r in results} == {r.invariant: "proved" for r in results}
    assert {"LEGAL-MOVE-EXISTS", "CARDS-CONSERVED", "POINTS-PER-ROUND", "OPENING-LEAD",
            "ROUND-PLAYS-EVERY-CARD"} <= {r.invariant for r in results}


@pytest.mark.deep
def test_inductive_proof_seed001_refuted_on_the_first_trick_and_replayed():
    results = {r.invariant: r for r in prove_inductive(Rules.preset("seed001"), Session(timeout=120))}
    assert all(r.matches for r in results.values())
    example = results["FIRST-TRICK-NO-DEADLOCK"].counterexample
    assert example.context.first_trick and example.replay is not None


def test_the_inductive_exists_claims_run_the_legality_they_are_given():
    """Drop FIRST-EXCEPTION and Inv still holds, but a first-trick follower with only point cards has no play."""
    prover = Prover(timeout=60)
    rules = Rules()
    found = []
    for item in consequence_claims(rules):
        if item.kind != "exists" or not (item.shape.context.first_trick and item.shape.position == 1
                                         and item.shape.leader == 0 and not item.shape.context.hearts_broken):
            continue
        found.append((prover.check(item.claim).status, item))
    assert found and {status for status, _ in found} == {PROVED}
    # The same shape with the broken rule: the legal set of a hand of only point cards is empty.
    state = found[0][1].state
    from hearts_ref.symbolic import SYMBOLIC
    legal = legality_without_first_exception(state.hands[state.to_play], state.context, rules, SYMBOLIC)
    claim = found[0][1].claim
    broken = Claim(claim.label, claim.hypotheses, SYMBOLIC.non_empty(legal), claim.shown, hand=claim.hand)
    answer = prover.check(broken)
    assert answer.status == REFUTED
    hand = state.hands[state.to_play].evaluate(answer.model)
    assert hand & ~POINT_CARDS == 0 and hand.bit_count() == 13
    assert legal_plays(hand, state.context, rules) != 0   # the engine keeps the exception


def test_a_claim_whose_hypotheses_cannot_hold_is_vacuous_unless_declared_impossible():
    prover = Prover(timeout=30)
    card = SymbolicCardSet.variables("card")
    empty = as_z3(card.is_empty_bit())
    contradiction = (empty, z3.Not(empty))
    assert prover.check(Claim("nothing", contradiction, False)).status == VACUOUS
    assert prover.check(Claim("nothing", contradiction, False, impossible="no card is both")).status == IMPOSSIBLE
    assert prover.check(Claim("a card", (z3.Not(empty),), True, impossible="wrongly declared")).status == "error"


def test_the_step_claims_run_every_shape_of_a_play():
    """4 leaders × (3 leading contexts + 3 positions × 10 following contexts), each claimed for where the cards are,
    the context of the next play, and the sizes; the last card of a trick also for the end of the round."""
    rules = Rules()
    assert len(shapes(rules)) == 4 * (3 + 3 * 10)
    kinds = [item.claim.label.split(":")[0] for item in step_claims(rules)]
    assert kinds.count("the cards of Inv kept") == kinds.count("the context of Inv kept") == len(shapes(rules))
    assert kinds.count("sizes of Inv kept") + kinds.count("sizes of Inv kept and the round ends after 13 tricks") \
        == len(shapes(rules))
    assert kinds.count("sizes of Inv kept and the round ends after 13 tricks") == 4 * 10


def test_the_step_claims_have_real_states_as_witnesses():
    """Most shapes are met in real rounds, whose states satisfy the claims' hypotheses: the proofs say something."""
    with_witness = [item for item in step_claims(Rules()) if item.claim.witness]
    assert len(with_witness) > 150
    item = with_witness[0]
    pairs = [(var, z3.BitVecVal(v, 52) if z3.is_bv(var) else z3.IntVal(v)) for var, v in item.claim.witness]
    assert all(substitute(h, pairs) for h in item.claim.hypotheses)


_ = (QUEEN,)
