"""The conformance runner finds planted bugs, names their rules, shrinks them, and trusts the reference."""

from __future__ import annotations

import dataclasses
import random
from pathlib import Path

import pytest

from hearts_ref import CardSet, Rules, deal
from hearts_ref.conformance.diagnose import StepFacts, legal_rules, observation_rules
from hearts_ref.conformance.differential import run_game
from hearts_ref.conformance.findings import Difference
from hearts_ref.conformance.judge import reference_observation
from hearts_ref.conformance.decider import PolicyDecider
from hearts_ref.conformance.policies import POLICY_NAMES, make_policy
from hearts_ref.conformance.runner import replay_case, run_differential
from hearts_ref.conformance.script import (
    ListSource, ScriptDecider, decode_case, deal_code, deal_from, encode_case, subset_of, subset_rank,
)
from hearts_ref.engine import ReferenceEngine
from hearts_ref.errors import RecordError
from hearts_ref.game import Game
from hearts_ref.legality import Context, allowing_rule
from hearts_ref.round import start_round
from tests.engines.buggy import (
    PLANTED, AcceptsIllegalPlays, MoonOff, QueenBreaksHearts, TotalsForgotten,
)
from hearts_ref.conformance.shrink import Budget

SHRINK = Budget(seconds=None, replays=300)   # counted in games replayed: the same shrink on any machine

# --- scripts -----------------------------------------------------------------------------------


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_deal_hands_round_trip_through_the_script(players):
    """DEAL-HANDS: a deal written as choices is read back as the same deal."""
    rules = Rules(players=players, pass_cycle="left-right-none")
    for seed in range(5):
        hands = deal(rules, seed=seed)
        assert deal_from(rules, ListSource(deal_code(rules, hands))) == hands
    assert str(deal_from(rules, ListSource([]))[0]).startswith(str(rules.lowest_club))


def test_subset_ranks_are_a_bijection():
    mask = CardSet.parse("2C 5D 9S QS 4H AH").mask
    ranks = {subset_rank(mask, subset_of(mask, 3, r)) for r in range(20)}
    assert ranks == set(range(20))


def test_a_policy_game_replays_from_its_script():
    rules = Rules()
    for name in POLICY_NAMES:
        first = run_game(ReferenceEngine(), rules, PolicyDecider(make_policy(name, random.Random(name))))
        again = run_game(ReferenceEngine(), rules, ScriptDecider(ListSource(first.script)))
        assert again.script == first.script and again.steps == first.steps and again.rounds == first.rounds


def test_case_tokens_round_trip_and_bad_tokens_say_why():
    case = {"format": "hearts-ref-conform-case", "version": 1, "rules": {"jd_bonus": True},
            "mode": "differential", "script": [3, 0, 12]}
    assert decode_case(encode_case(case)) == case
    for bad in ("hr1:@@@", "{}", "[1]", '{"format": "hearts-ref-conform-case", "script": ["x"]}'):
        with pytest.raises(RecordError):
            decode_case(bad)

# --- the reference against itself -------------------------------------------------------------


@pytest.mark.parametrize("rules", [
    Rules(),
    Rules.preset("seed004", jd_bonus=True, avoid_all_tricks_bonus=True, moon="subtract"),
    Rules.preset("seed003"),
    Rules(players=3, pass_cycle="left-right-none", ties="play-on", end_threshold=60),
    Rules(players=6, can_lead_any_club=True, qs_breaks_hearts=True, end_comparison=">", end_threshold=50),
    Rules(players=5, pass_cycle="left-right-none", first_trick_points="allowed", must_break_hearts=False),
], ids=["seed000", "seed004-variants", "seed003", "three", "six", "five"])
def test_reference_against_itself_has_no_deviation(rules):
    """Every observable the runner computes incrementally equals observe_game, in every variant."""
    report = run_differential(ReferenceEngine, rules, 12, 3, negative_games=6)
    assert report.summary()["counts"]["passed"] == 18, [c.reason for c in report.cases if c.status != "passed"]
    assert report.rounds > 18 and report.exit_code() == 0
    assert sum(passed for passed, _, _ in report.checks.values()) > 0
    assert not any(failed for _, failed, _ in report.checks.values())
    assert all(cited == passed for passed, _, cited in report.checks.values())   # the reference names each rule

# --- planted bugs ------------------------------------------------------------------------------


@pytest.mark.parametrize("engine, rule_id", list(PLANTED.items()), ids=[e.__name__ for e in PLANTED])
def test_each_planted_bug_is_found_named_and_shrunk_to_one_round(engine, rule_id):
    report = run_differential(engine, Rules(), 24, 0, shrink_budget=SHRINK, max_shrinks=1, spec="SPEC")
    failed = [c for c in report.cases if c.status == "failed"]
    assert failed, f"{engine.__name__} not found"
    assert {c.rule_ids[0] for c in failed} == {rule_id}
    repro = failed[0].details["reproduction"]
    assert repro["rounds"] == 1 and repro["deviation"]["rule_ids"][0] == rule_id
    # The one-line replay reproduces it on the buggy engine, and the reference passes it.
    token = repro["command"].split("--replay ")[1]
    _, again = replay_case(engine(), decode_case(token))
    assert again.deviation is not None and again.deviation.rule_ids[0] == rule_id
    _, clean = replay_case(ReferenceEngine(), decode_case(token))
    assert clean.deviation is None


def test_score_total_bug_needs_two_rounds_and_is_named():
    report = run_differential(TotalsForgotten, Rules(), 6, 0, shrink_budget=SHRINK)
    failed = [c for c in report.cases if c.status == "failed"]
    assert failed and failed[0].rule_ids == ("SCORE-TOTAL",)
    assert failed[0].details["reproduction"]["rounds"] == 2


def test_moon_bug_is_named_before_its_consequences():
    """SCORE-MOON comes first, then the totals and the end that follow from it."""
    report = run_differential(MoonOff, Rules(max_rounds=1), 18, 0, shrink_budget=0, policies=("moon",))
    failed = [c for c in report.cases if c.status == "failed"]
    assert failed and all(c.rule_ids[0] == "SCORE-MOON" for c in failed)


def test_invalid_moves_accepted_are_negative_check_failures():
    report = run_differential(AcceptsIllegalPlays, Rules(), 0, 0, negative_games=3, shrink_budget=SHRINK)
    failed = [c for c in report.cases if c.status == "failed"]
    assert failed and failed[0].details["deviation"]["kind"] == "accepted-illegal"
    assert failed[0].rule_ids[0] in ("LEAD-OPEN", "FOLLOW-SUIT", "TRICK-ORDER")
    assert report.checks[failed[0].rule_ids[0]][1] >= 1


class _ForgetsOnRejection(ReferenceEngine):
    """Refuses illegal plays, but forgets the trick in progress when it does."""

    name = "forgets-on-rejection"

    def play(self, card):
        before = self.game
        try:
            super().play(card)
        except Exception:
            self.game = before._replace(round=before.round._replace(trick=()))
            raise


def test_a_rejection_that_changes_the_state_is_reported():
    report = run_differential(_ForgetsOnRejection, Rules(), 0, 0, negative_games=2, shrink_budget=0)
    failed = [c for c in report.cases if c.status == "failed"]
    assert failed and failed[0].details["deviation"]["kind"] == "state-changed"


def test_known_deviations_are_expected_failures():
    class Declared(QueenBreaksHearts):
        def capabilities(self):
            from hearts_ref.engine import Capabilities
            return Capabilities(known_deviations=("BREAK-QUEEN", "differential/uniform/0"))

    report = run_differential(Declared, Rules(), 6, 0, shrink_budget=0)
    statuses = {c.status for c in report.cases}
    assert statuses <= {"expected-fail", "passed"} and "expected-fail" in statuses
    assert report.exit_code() == 0

# --- which rule a difference concerns ----------------------------------------------------------


def test_legal_set_differences_name_the_rule():
    state = start_round(Rules(), deal(Rules(), seed=1), direction="none")
    state = state.play(next(iter(state.legal_plays())))
    hand = state.hands[state.to_play]
    extra = hand & ~state.legal   # the engine allowing every card of the hand
    assert legal_rules(state, state.legal | extra) == ("FOLLOW-SUIT",)
    assert legal_rules(state, 0) == ("FOLLOW-SUIT",)


def test_allowing_rules_of_the_first_trick():
    """FIRST-EXCEPTION frees a hand of only point cards; FIRST-NO-POINTS' variant allows points; LEAD-OPEN opens."""
    only_points = CardSet.parse("QS 2H 3H").mask
    ctx = Context(False, 0, True, False)
    assert allowing_rule(only_points, ctx, Rules(), CardSet.parse("2H").mask) == "FIRST-EXCEPTION"
    assert allowing_rule(CardSet.parse("2D 2H").mask, ctx, Rules(first_trick_points="allowed"),
                         CardSet.parse("2H").mask) == "FIRST-NO-POINTS"
    assert allowing_rule(CardSet.parse("2C 3C").mask, Context(True, None, True, False), Rules(),
                         CardSet.parse("2C").mask) == "LEAD-OPEN"
    assert allowing_rule(CardSet.parse("2C 3C").mask, Context(True, None, True, False), Rules(),
                         CardSet.parse("3C").mask) is None   # not allowed at all


def test_observation_differences_name_the_rule():
    game = Game.new(Rules()).deal_round(deal(Rules(), seed=3), direction="none")
    state = game.round
    queen, heart = CardSet.parse("QS").mask.bit_length() - 1, CardSet.parse("5H").mask.bit_length() - 1
    seen = reference_observation(game, state)

    def rules_of(differences, card):
        facts = StepFacts("play", state._replace(trick=(0,), context=Context(False, 0, False, False)), state, game,
                          card, seen)
        return observation_rules(differences, facts, seen)

    broken = [Difference("hearts_broken", False, True)]
    assert rules_of(broken, queen) == ("BREAK-QUEEN",)
    assert rules_of(broken, heart) == ("BREAK-DISCARD",)
    assert rules_of([Difference("trick", ("2C",), ())], heart) == ("TRICK-ORDER",)


class _Crashes(ReferenceEngine):
    """Fails inside legal_plays() on the fifth trick of a round."""

    name = "crashes"

    def legal_plays(self):
        if self.game.round is not None and len(self.game.round.tricks) == 4:
            raise RuntimeError("index out of range")
        return super().legal_plays()


def test_an_engine_that_fails_is_an_error_reported_not_fatal():
    report = run_differential(_Crashes, Rules(), 4, 0, negative_games=2, shrink_budget=SHRINK)
    errors = [c for c in report.cases if c.status == "error"]
    assert len(errors) == 6 and all(c.details["deviation"]["kind"] == "engine-error" for c in errors)
    assert errors[0].reason.startswith("RuntimeError: legal_plays(): index out of range (at ")   # and its line:
    source = Path(__file__).read_text().splitlines()
    line = next(n for n, text in enumerate(source, 1) if 'RuntimeError("index out of range")' in text)
    assert errors[0].reason.endswith(f"test_conformance_runner.py:{line}, in legal_plays)")
    assert errors[0].details["reproduction"]["rounds"] == 1 and report.exit_code() == 1
    assert report.summary()["counts"]["failed"] == 0   # a failure of the engine is no deviation from a rule


class _ListsNotTuples(ReferenceEngine):
    """Shows each sequence as a list: equal item by item to the reference's, and never == to it."""

    def observe(self):
        from hearts_ref.engine import Observation

        o = super().observe()
        return Observation(o.phase, o.to_move, list(o.trick), o.hearts_broken, list(o.points_taken),
                           o.round_scores, list(o.totals), o.game_over, list(o.winners))


class _LegalAsAList(ReferenceEngine):
    def legal_plays(self):
        return [str(card) for card in super().legal_plays()]


@pytest.mark.parametrize("engine, says, every", [
    (_ListsNotTuples, "observe() returned an Observation: its trick is a list, not a tuple", "observe() returned"),
    (_LegalAsAList, "legal_plays() returned ['2C'], not a CardSet", ", not a CardSet"),
])
def test_a_value_of_the_wrong_type_is_the_engines_error_alike_in_vectors_and_games(engine, says, every):
    """Not a rule's finding that reads 'expected [], engine []' (TRICK-ORDER), and not passed by the vectors."""
    from hearts_ref.conformance.runner import run_conformance

    report = run_conformance(engine, Rules(), games=2, negative_games=0, shrink_budget=0)
    games = [c for c in report.cases if c.kind == "differential"]
    vectors = [c for c in report.cases if c.kind == "vector" and c.status != "skipped"]
    assert games and all(c.status == "error" and says in c.reason for c in games), [c.reason for c in games]
    errors = [c for c in vectors if c.status == "error"]
    assert len(errors) > 90 and all(every in c.reason for c in errors)   # (a refused deal shows nothing)
    assert report.summary()["counts"]["failed"] == 0   # no rule named for it


class _OverAtADeadlock(ReferenceEngine):
    """Shows the game over at a deadlock, where the spec says the observation stays the play phase's."""

    def observe(self):
        seen = super().observe()
        if seen.phase == "play" and not self.legal_plays():
            return dataclasses.replace(seen, game_over=True)
        return seen


def test_a_deadlock_shown_as_the_game_over_names_the_deadlocks_rule_first_not_the_end():
    """FIRST-NO-POINTS says how a deadlock is shown; END-THRESHOLD, which the game_over field is otherwise about, is a
    symptom here."""
    report = run_differential(_OverAtADeadlock, Rules.preset("seed001"), 40, 1, shrink_budget=SHRINK)
    failed = [case for case in report.cases if case.status == "failed"]
    assert failed and all(case.rule_ids[0] == "FIRST-NO-POINTS" for case in failed), [c.rule_ids for c in failed]
    assert failed[0].reason == "game_over: expected false, engine true"


class _BrokenPastTheRound(ReferenceEngine):
    """Leaves hearts broken after the round's last trick, as they were before it."""

    def new_game(self, rules):
        super().new_game(rules)
        self.was_broken = False

    def observe(self):
        seen = super().observe()
        if seen.phase in ("round-over", "game-over") and self.was_broken:
            seen = dataclasses.replace(seen, hearts_broken=True)
        self.was_broken = seen.hearts_broken and seen.phase == "play"
        return seen


def test_hearts_left_broken_after_the_round_is_one_finding_whatever_the_last_card():
    """The last card being the Q♠ or another changes nothing: it is BREAK-DISCARD's round that is over (it was two
    findings, BREAK-QUEEN when the Q♠ came last)."""
    report = run_differential(_BrokenPastTheRound, Rules(), 30, 2, shrink_budget=0)
    findings = report.summary()["findings"]
    assert [f["rule_id"] for f in findings] == ["BREAK-DISCARD"], findings


def test_an_engine_failure_while_an_illegal_move_is_offered_is_no_bad_check_of_its_rule(capsys):
    """The engine raises its own error instead of refusing: an engine error at a step of LEAD-OPEN, which breaks no
    rule, so the check counts neither as refused well nor as failed, and the rule's row is not marked."""
    import json

    from hearts_ref.cli import main

    argv = ["conform", "--engine", "python:tests.engines.python_engines:IllegalMoveRaisesValueError", "--games", "0",
            "--negative-games", "3", "--no-vectors", "--shrink-time", "0"]
    assert main([*argv, "--json"]) == 1
    report = json.loads(capsys.readouterr().out)
    assert report["summary"]["counts"]["error"] == 3 and report["summary"]["counts"]["failed"] == 0
    assert all(bad == 0 for _, bad, _ in report["checks"].values()), report["checks"]
    assert report["checks"]["PASS-COUNT"][0] > 0   # the passes offered before were refused well, and counted
    main(argv)
    row = next(line for line in capsys.readouterr().out.splitlines() if line.lstrip().startswith("LEAD-OPEN"))
    assert row.split()[1:3] == ["0", "3"] and "<--" not in row, row   # 3 errors, 0 failed
