"""The invariant catalogue: well-formed, tied to real rule IDs, and its expectations derived from the rules.

The expected outcomes of the presets must match ``hearts_ref.variants.EXPECTED_UNSOUND``
(seed001: FIRST-NO-POINTS, seed003: FOLLOW-VOID). Each invariant declares the variant
parameters its proof reads; the per-combination proofs rely on that, so it is checked
on the proof formulas themselves.
"""

import pytest
import z3
from hypothesis import given, settings

from hearts_ref import PRESETS, Rules
from hearts_ref.spec import load_rules
from hearts_ref.variants import EXPECTED_UNSOUND, PARAMETERS
from properties import rules
from properties.catalogue import (
    BY_ID, GAME_PARAMETERS, INVARIANTS, ROUND_PARAMETERS, expected_outcome, expected_unsound, lowest_round_sum,
    not_applicable, rules_for,
)
from properties.contexts import claims_for
from properties.solving import as_z3
from properties.statements import STATEMENTS

RULE_IDS = set(load_rules())
CONTEXT_INVARIANTS = [i.id for i in INVARIANTS if "context" in i.methods and i.scope == "round"]


def test_catalogue_ids_are_unique_and_name_the_four_requested_invariants():
    ids = [i.id for i in INVARIANTS]
    assert len(ids) == len(set(ids)) == len(BY_ID)
    assert {"LEGAL-MOVE-EXISTS", "FIRST-TRICK-NO-DEADLOCK", "OPENING-LEAD", "POINTS-PER-ROUND"} <= set(ids)
    assert not set(ids) & RULE_IDS, "an invariant ID must not look like a rule ID"


@pytest.mark.parametrize("invariant", INVARIANTS, ids=lambda i: i.id)
def test_each_invariant_cites_real_rules_and_registry_parameters(invariant):
    assert invariant.statement.endswith(".") and invariant.statement.count(". ") == 0, invariant.statement
    assert invariant.rules and set(invariant.rules) <= RULE_IDS, set(invariant.rules) - RULE_IDS
    assert set(invariant.parameters) <= {p.name for p in PARAMETERS}
    assert invariant.methods and set(invariant.methods) <= {"context", "inductive", "game", "engine"}
    assert invariant.scope in ("round", "game")


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_expected_outcomes_of_presets_match_expected_unsound(preset):
    rules = Rules.preset(preset)
    assert expected_unsound(rules) == (preset in EXPECTED_UNSOUND)
    if preset == "seed001":   # FIRST-NO-POINTS without the exception: the first trick deadlocks
        assert expected_outcome("FIRST-TRICK-NO-DEADLOCK", rules) == "refuted"
    if preset == "seed003":   # FOLLOW-VOID: no heart discarded while unbroken, on later tricks too
        assert expected_outcome("LEGAL-MOVE-EXISTS", rules) == "refuted"
        assert expected_outcome("NO-EARLY-HEART-LEAD", rules) == "n/a"


def test_first_no_points_without_exception_is_sound_only_with_three_players():
    """17 cards cannot all be point cards (14 exist); 13, 10 and 8 can."""
    for players, unsound in [(3, False), (4, True), (5, True), (6, True)]:
        rules = rules_for({"players": players, "first_trick_points": "forbidden"})
        assert (expected_outcome("FIRST-TRICK-NO-DEADLOCK", rules) == "refuted") is unsound, players


def test_invalid_expected_outcome_names_the_unknown_invariant():
    with pytest.raises(KeyError, match="LEGAL-MOVE-EXIST'"):
        expected_outcome("LEGAL-MOVE-EXIST", Rules())


def mixed(first: Rules, second: Rules, invariant_id: str) -> Rules | None:
    """``second``'s values, except ``first``'s for the invariant's declared parameters."""
    declared = BY_ID[invariant_id].parameters
    names = GAME_PARAMETERS if BY_ID[invariant_id].scope == "game" else ROUND_PARAMETERS
    return rules_for({name: getattr(first if name in declared else second, name) for name in names})


@pytest.mark.parametrize("invariant_id", [i.id for i in INVARIANTS])
@settings(max_examples=80)
@given(first=rules(), second=rules())
def test_expectations_read_only_the_declared_parameters(invariant_id, first, second):
    other = mixed(first, second, invariant_id)
    if other is not None:
        assert expected_outcome(invariant_id, first) == expected_outcome(invariant_id, other)
        assert bool(not_applicable(invariant_id, first)) == bool(not_applicable(invariant_id, other))


def same_formulas(a, b) -> bool:
    return len(a) == len(b) and all(
        x.label == y.label and z3.eq(as_z3(x.goal), as_z3(y.goal)) and len(x.hypotheses) == len(y.hypotheses)
        and all(z3.eq(as_z3(h), as_z3(k)) for h, k in zip(x.hypotheses, y.hypotheses)) for x, y in zip(a, b))


# Building some claims takes a while; they read only the number of players.
_EXAMPLES = {"PASSING-PRESERVES-DEAL": 1, "UNIQUE-TRICK-WINNER": 2, "PLAY-STEPS-AS-STATED": 1, "SETUP-AS-STATED": 2,
             "TOTALS-ARE-SUMS": 2}


@pytest.mark.parametrize("invariant_id", CONTEXT_INVARIANTS)
def test_declared_parameters_decide_the_proof_formulas(invariant_id):
    """Two combinations that agree on an invariant's parameters give the very same z3 claims."""
    @settings(max_examples=_EXAMPLES.get(invariant_id, 10), deadline=None)
    @given(first=rules(), second=rules())
    def check(first, second):
        other = mixed(first, second, invariant_id)
        if other is not None:
            assert same_formulas(claims_for(invariant_id, first), claims_for(invariant_id, other))

    check()


def test_the_formula_check_sees_a_parameter_that_matters():
    """If LEGAL-MOVE-EXISTS forgot to declare first_trick_points, the check above would catch it."""
    assert not same_formulas(claims_for("LEGAL-MOVE-EXISTS", Rules()),
                             claims_for("LEGAL-MOVE-EXISTS", Rules(first_trick_points="forbidden")))


def test_round_parameters_are_the_declared_ones_and_leave_out_the_game_end():
    assert set(ROUND_PARAMETERS) == {name for i in INVARIANTS if i.scope == "round" for name in i.parameters}
    assert not {"end_threshold", "end_comparison", "max_rounds", "ties"} & set(ROUND_PARAMETERS)
    assert {"end_threshold", "end_comparison", "max_rounds", "ties"} <= set(GAME_PARAMETERS)


def test_every_rule_id_has_a_statement_and_an_invariant_that_proves_it():
    """Each rule of spec/rules/ is stated formally, and a refinement claim (or GAME-ENDS) names it."""
    assert list(STATEMENTS) == list(RULE_IDS_IN_ORDER)
    proved = {rule for i in INVARIANTS if i.id.endswith("-AS-STATED") or i.id == "TOTALS-ARE-SUMS" for rule in i.rules}
    assert proved == set(RULE_IDS), set(RULE_IDS) - proved


RULE_IDS_IN_ORDER = list(load_rules())


def test_a_play_is_allowed_by_the_statements_of_the_play_rules_themselves():
    """allows() asks each play rule's own statement (TRICK-ORDER's: the card is in the hand), wherever it is written."""
    from properties.statements import PLAY_PREDICATES, PLAY_RULES
    assert list(PLAY_PREDICATES) == list(PLAY_RULES)
    assert all(PLAY_PREDICATES[rule] is STATEMENTS[rule].predicate for rule in PLAY_RULES if rule != "TRICK-ORDER")
    assert all(STATEMENTS[rule].path.startswith("properties/statements/") for rule in STATEMENTS)


@pytest.mark.parametrize("changes, outcome", [
    ({}, "proved"), ({"moon": "subtract"}, "refuted"), ({"ties": "play-on"}, "refuted"), ({"max_rounds": 1}, "proved"),
    ({"ties": "play-on", "max_rounds": 1}, "proved"),
    ({"players": 6, "jd_bonus": True, "avoid_all_tricks_bonus": True}, "refuted"),
    ({"players": 5, "jd_bonus": True, "avoid_all_tricks_bonus": True}, "proved"),
])
def test_game_ends_is_expected_refuted_exactly_without_a_bound(changes, outcome):
    """From the rules' text: a positive least round sum gives a bound; a sum of 0 or less, or play-on, does not."""
    rules = rules_for({"players": 4, **changes})
    assert expected_outcome("GAME-ENDS", rules) == outcome
    assert (lowest_round_sum(rules) > 0) == (outcome == "proved" or rules.ties == "play-on" or rules.max_rounds > 0)
