"""Games that play on past a difference: every finding is found, named by its cause and reproduced on its own;
declared deviations hide nothing else; engine failures are errors; no run passes by judging nothing."""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path
from xml.etree import ElementTree

import pytest

from hearts_ref import Capabilities, Rules
from hearts_ref.cli import main
from hearts_ref.conformance.differential import run_game
from hearts_ref.conformance.decider import PolicyDecider
from hearts_ref.conformance.policies import RANDOM_POLICIES, make_policy
from hearts_ref.conformance.report import Report, junit_xml
from hearts_ref.conformance.negative import NegativeChecks
from hearts_ref.conformance.runner import game_decider, replay_case, run_conformance, run_differential
from hearts_ref.conformance.targeted import targeted_every
from hearts_ref.conformance.script import decode_case
from hearts_ref.conformance.suite_steps import run_perft_step
from hearts_ref.engine import EngineRejection, ReferenceEngine
from hearts_ref.engines.failures import EngineUnsupported
from hearts_ref.engines.stdio import StdioEngine
from tests.engines import planted
from hearts_ref.conformance.shrink import Budget

SHRINK = Budget(seconds=None, replays=300)   # counted in games replayed: the same shrink on any machine

ROOT = Path(__file__).resolve().parent.parent


def _game(engine, policy: str = "uniform", seed: int = 0, **options):
    decider = PolicyDecider(make_policy(policy, random.Random(f"play-on:{seed}")))
    return run_game(engine, Rules(), decider, **options)


def _findings(report: Report) -> dict[tuple[str, str], dict]:
    return {(f["kind"], f["rule_id"]): f for f in report.summary()["findings"]}


# Play on --------------------------------------------------------------------------------------

def test_lead_winner_a_legal_set_difference_plays_on_with_cards_both_sides_allow():
    """The stale lead context differs in every round; the game goes on to its end all the same."""
    run = _game(planted.StaleLeadContext())
    assert [f.signature() for f in run.findings] == [("legal-set", "LEAD-WINNER")]
    assert run.repeats[("legal-set", "LEAD-WINNER")] > 5 and run.stopped == "" and run.reference.over
    assert run.steps > 2 * 53 and run.findings[0].step < 20


def test_lead_winner_a_wrong_seat_leading_after_a_trick_plays_on_until_a_trick_of_points_tells_why():
    """The seat that led a trick leads the next one too, its winner taking the points: after a trick of no points
    that looks like a wrong winner as well (TRICK-WINNER); the game plays on with the engine's leader, and the first
    trick of points whose winner does not lead puts every such seat down to LEAD-WINNER."""
    run = _game(planted.LeaderLeadsAgain())
    assert [f.signature() for f in run.findings] == [("observation", "LEAD-WINNER")]
    assert run.stopped == "" and run.reference.over and run.repeats[("observation", "LEAD-WINNER")] > 5
    finding = run.findings[0]
    assert finding.rule_ids == ("LEAD-WINNER",) and "after tricks of no points" in finding.message
    assert "the engine gave it the trick's points" in finding.message
    # The same game stopped at its first difference (as a shrink replays it) is held back until a trick tells.
    first = _game(planted.LeaderLeadsAgain(), stop_at_first=True)
    assert [f.signature() for f in first.findings] == [("observation", "LEAD-WINNER")]
    assert first.findings[0].step == finding.step and first.steps < run.steps


@pytest.mark.parametrize("engine, rule", [(planted.OffSuitWinner, "TRICK-WINNER"), (planted.AceLow, "DECK-CARDS")])
def test_trick_winner_a_wrong_winner_plays_on_and_stays_the_winners_rule(engine, rule):
    """The engine gives the trick, points and all, to the seat it has lead: that is its winner's rule, never
    LEAD-WINNER, however far the game plays on."""
    run = _game(engine())
    assert run.findings and run.findings[0].rule_ids[0] == rule and run.stopped == "" and run.reference.over
    assert all("LEAD-WINNER" not in f.rule_ids for f in run.findings), [f.rule_ids for f in run.findings]


def test_score_total_an_observation_difference_is_judged_on_the_engines_own_totals():
    """From round 2 the totals always differ; the end and the winners are judged on the engine's totals."""
    run = _game(planted.TotalsForgotten(), "threshold")
    assert [f.signature() for f in run.findings] == [("observation", "SCORE-TOTAL")]
    assert run.rounds > 2 and run.repeats[("observation", "SCORE-TOTAL")] >= run.rounds - 3


def test_first_exception_the_engines_refusal_of_every_choice_ends_the_game():
    report = run_differential(planted.NoOnlyPointsException, Rules(), 60, 0, shrink_budget=0)
    failed = [c for c in report.cases if c.status == "failed"]
    assert failed and all(c.rule_ids == ("FIRST-EXCEPTION",) for c in failed)
    assert all("allows none of the cards the reference allows" in c.details["stopped"] for c in failed)


@pytest.mark.parametrize("engine, first, second", [
    (planted.HeartsAlwaysJackAlways, ("legal-set", "FOLLOW-SUIT"), ("observation", "SCORE-JACK")),
    (planted.StaleLeadEndBeforeMoon, ("legal-set", "LEAD-WINNER"), ("observation", "END-THRESHOLD")),
])
def test_a_second_bug_behind_a_first_one_is_found_named_and_reproduced(engine, first, second):
    report = run_differential(engine, Rules(), 60, 0, shrink_budget=SHRINK, max_shrinks=2, spec="SPEC")
    found = _findings(report)
    assert set(found) == {first, second} and not any(f["expected"] for f in found.values())
    case = next(c for c in report.cases if c.id == found[second]["case"])
    entry = next(e for e in case.details["findings"] if (e["kind"], e["rule_ids"][0]) == second)
    repro = entry["reproduction"]
    assert repro["deviation"]["rule_ids"][0] == second[1]
    # the reproduction replays to that finding on the engine; on the reference it shows nothing
    _, again = replay_case(engine(), repro["case"])
    assert again.finding(second) is not None
    _, clean = replay_case(ReferenceEngine(), repro["case"])
    assert clean.findings == [] and clean.error is None


def test_each_finding_of_a_single_bug_is_reproduced_as_its_games_first_difference():
    report = run_differential(planted.BrokenAtTrickEnd, Rules(), 12, 0, shrink_budget=SHRINK, spec="SPEC")
    case = next(c for c in report.cases if "reproduction" in c.details)
    repro = case.details["reproduction"]
    assert repro["first_difference"] and repro["rounds"] == 1 and "finding" not in repro["case"]
    _, again = replay_case(planted.BrokenAtTrickEnd(), decode_case(repro["token"]))
    assert again.deviation.signature() == ("observation", "BREAK-DISCARD") and len(again.findings) == 1


def test_pass_cycle_a_refusal_the_hands_passed_another_way_explain_is_put_down_to_it_in_game_and_replay():
    """An engine that passes left where the runner says right: a negative check offers the seat opening round 2 a
    card it does not hold, which it holds in the engine's hands, and the engine refuses it as a lead other than the
    2C (LEAD-OPEN). The round's legal sets show the hands astray a step later: the refusal is put down to
    PASS-CYCLE. Played to its first difference (a reproduction), the game goes on to that step, so that its first
    difference is named the same."""
    rules, capabilities = Rules(), planted.RightPassesLeft().capabilities()
    put_down = []
    for index in range(30):
        for stop_at_first in (False, True):
            decider = game_decider(0, "negative", index, capabilities, every=targeted_every(rules))
            run = run_game(planted.RightPassesLeft(), rules, decider, negative=NegativeChecks(),
                           stop_at_first=stop_at_first)
            assert all(f.rule_ids[0] == "PASS-CYCLE" for f in run.findings), run.findings
            first = run.deviation
            if "went astray" in first.message:
                put_down.append(stop_at_first)
                assert first.kind == "wrong-rule" and first.rule_ids[:2] == ("PASS-CYCLE", "TRICK-ORDER")
    assert put_down.count(True) == put_down.count(False) >= 1


def test_win_tie_known_deviations_mark_findings_as_expected_and_hide_nothing_else():
    """The engine declares its heart-breaking deviation; its tie bug, behind it in every game, still fails the run."""
    report = run_differential(planted.BrokenLateOneWinnerDeclared, Rules(), 60, 0, policies=("ties",),
                              shrink_budget=0)
    found = _findings(report)
    assert found[("observation", "BREAK-DISCARD")]["expected"] and not found[("observation", "WIN-TIE")]["expected"]
    statuses = {c.status for c in report.cases}
    assert statuses == {"expected-fail", "failed"} and report.exit_code() == 1
    assert all(c.rule_ids == ("BREAK-DISCARD", "WIN-TIE") for c in report.cases if c.status == "failed")
    table = report.summary()["rules"]
    assert table["WIN-TIE"]["failed"] > 0 and table["BREAK-DISCARD"]["failed"] == 0
    assert table["BREAK-DISCARD"]["expected-fail"] == 60


def test_stop_at_first_ends_each_game_at_its_first_difference():
    # the random policies: a targeted round (a moon, its hearts in one hand) shows the jack before the hearts
    report = run_differential(planted.HeartsAlwaysJackAlways, Rules(), 12, 0, shrink_budget=0, stop_at_first=True,
                              policies=RANDOM_POLICIES)
    assert all(len(c.details["findings"]) == 1 for c in report.cases)
    assert {c.rule_ids for c in report.cases} == {("FOLLOW-SUIT",)}
    assert main(["conform", "--engine", "python:tests.engines.planted:HeartsAlwaysJackAlways", "--games", "6",
                 "--no-vectors", "--shrink-time", "0", "--stop-at-first", "--json"]) == 1


@pytest.mark.parametrize("name", ["StaleLeadContext", "HeartsAlwaysJackAlways", "PassesOneAtATime", "AceLow"])
def test_plays_sent_together_over_stdio_are_judged_as_one_at_a_time(name):
    """The stdio client takes a round's plays at once; a departure from them replays the game; the verdicts,
    the rules, the steps and the scripts are the same as in process, one play at a time."""
    inproc = run_differential(getattr(planted, name), Rules(), 18, 0, negative_games=2, shrink_budget=0)
    engine = StdioEngine([sys.executable, "-m", "hearts_ref", "serve", "--engine",
                          f"python:tests.engines.planted:{name}"], timeout=30)
    try:
        stdio = run_differential(engine, Rules(), 18, 0, negative_games=2, shrink_budget=0)
    finally:
        engine.close()
    def key(report):
        return [(c.id, c.status, c.rule_ids, c.details["steps"], c.details.get("replay")) for c in report.cases]
    assert key(inproc) == key(stdio)
    assert any(c.status == "failed" for c in stdio.cases)


# Honest accounting ----------------------------------------------------------------------------

class _CrashesOnFivePlayers(ReferenceEngine):
    """Fails on every deal of five players: its table of removed cards has no row for five."""

    def start_round(self, hands, direction):
        if len(hands) == 5:
            raise KeyError(5)
        super().start_round(hands, direction)


def test_deck_removed_an_engine_that_crashes_on_removed_cards_is_an_error_not_a_failure(tmp_path):
    report = run_conformance(_CrashesOnFivePlayers, Rules(), games=0, negative_games=0)
    errors = [c for c in report.cases if c.status == "error"]
    vectors = [c for c in errors if c.kind == "vector"]
    # Five players with cards removed (seed 002) name DECK-REMOVED first (a legal deal: then DEAL-HANDS; a deal
    # holding a removed card, to be refused: DECK-REMOVED alone); with two decks (seed 003) nothing is removed, and
    # the deal of 104 cards names DEAL-HANDS.
    removed = [c for c in vectors if c.rule_ids[0] == "DECK-REMOVED" and c.rule_ids[1:] in ((), ("DEAL-HANDS",))]
    two_decks = [c for c in vectors if c.rule_ids[0] == "DEAL-HANDS" and "DECK-REMOVED" not in c.rule_ids]
    assert removed and two_decks and len(removed) + len(two_decks) == len(vectors)
    assert all(c.reason.startswith("KeyError: ") for c in errors) and not any(c.status == "failed" for c in report.cases)
    table = report.summary()["rules"]
    assert table["DECK-REMOVED"]["error"] == len(removed) and table["DECK-REMOVED"]["failed"] == 0
    suite = ElementTree.fromstring(junit_xml(report)).find("testsuite")
    assert suite.get("errors") == str(len(errors)) and suite.get("failures") == "0"
    assert {e.get("type") for e in suite.iter("error")} == {"KeyError"}
    assert report.exit_code() == 1 and "FAIL (" in main_summary(report)


def main_summary(report: Report) -> str:
    from hearts_ref.conformance.summary import console_summary
    return console_summary(report)


def test_a_failed_perft_deal_is_charged_to_the_rule_of_its_first_differing_position():
    for engine, rule in ((planted.CounterClockwise, "TRICK-ORDER"), (planted.AceLow, "DECK-CARDS"),
                         (planted.ShiftedCycle, "PASS-CYCLE")):
        report = Report({"spec": "x", "name": "x"}, {}, 0, 0)
        run_perft_step(engine, report, (1, 1))
        failed = [c for c in report.cases if c.status == "failed"]
        assert failed, engine
        assert all(c.rule_ids[0] == rule for c in failed), [(c.id, c.rule_ids) for c in failed]
        assert all("first difference" in c.reason for c in failed)
        # charged to that rule only, not to every rule the deal is tagged with
        table = report.summary()["rules"]
        assert sum(row["failed"] for row in table.values()) == len(failed)


class _NamesNoRule(ReferenceEngine):
    """Refuses illegal moves rightly, but never says which rule forbids them."""

    def play(self, card):
        try:
            super().play(card)
        except EngineRejection as error:
            raise EngineRejection(error.reason.split(": ", 1)[-1]) from None

    def pass_cards(self, seat, cards):
        try:
            super().pass_cards(seat, cards)
        except EngineRejection as error:
            raise EngineRejection(error.reason.split(": ", 1)[-1]) from None


def test_rule_attribution_is_credited_only_when_the_engine_cites_a_rule():
    silent = run_differential(_NamesNoRule, Rules(), 0, 0, negative_games=4)
    assert silent.exit_code() == 0 and sum(refused for refused, _, _ in silent.checks.values()) > 20
    assert all(cited == 0 for _, _, cited in silent.checks.values())
    citing = run_differential(ReferenceEngine, Rules(), 0, 0, negative_games=4)
    assert all(cited == refused > 0 for refused, _, cited in citing.checks.values())


def test_pass_simultaneous_a_card_received_before_every_seat_chose_is_offered_and_refused():
    report = run_differential(ReferenceEngine, Rules(), 0, 0, negative_games=2)
    refused, failed, cited = report.checks["PASS-SIMULTANEOUS"]
    assert refused > 0 and failed == 0 and cited == refused


# No traps -------------------------------------------------------------------------------------

class _OneRound(ReferenceEngine):
    name = "one-round"

    def capabilities(self) -> Capabilities:
        return Capabilities(multi_round=False)


def test_an_engine_of_one_round_per_game_is_judged_with_one_round_games_without_being_asked(capsys):
    assert main(["conform", "--engine", "python:tests.test_conformance_play_on:_OneRound", "--games", "6",
                 "--no-vectors"]) == 0
    out = capsys.readouterr().out
    assert "verdict: PASS" in out and "each game is one round (max_rounds=1)" in out and "(7 rounds" in out


class _CannotMoonAdd(ReferenceEngine):
    def capabilities(self) -> Capabilities:
        return Capabilities(unsupported={"moon": ("add",)})


def test_a_run_whose_games_were_all_skipped_is_not_a_pass_whatever_the_vectors_did(capsys):
    report = run_conformance(_CannotMoonAdd, Rules(), games=6)
    assert any(c.kind == "vector" and c.status == "passed" for c in report.cases)
    assert report.games_not_judged() and report.exit_code() == 2
    out = main_summary(report)
    assert "verdict: GAMES NOT JUDGED: every differential game was skipped (engine does not support moon='add')" in out


class _DeclinesOddDeals(ReferenceEngine):
    """Answers ``unsupported`` to a deal whose hands are not all of the same size (it cannot take one)."""

    def start_round(self, hands, direction):
        if len({len(hand) for hand in hands}) > 1:
            raise EngineUnsupported("hands of unequal sizes")
        super().start_round(hands, direction)


def test_deal_hands_an_unsupported_reply_skips_a_rejected_deal_vector_with_the_engines_words():
    from hearts_ref.conformance.vectors import run_case
    from hearts_ref.vectors import load_vectors

    case = next(c for c in load_vectors() if c.id == "deal-hands.short-hand-rejected")
    result = run_case(_DeclinesOddDeals(), case)
    assert result.status == "skipped" and "hands of unequal sizes" in result.reason


def test_pass_cycle_an_engine_that_follows_its_own_cycle_is_named_by_it_in_vectors_and_perft():
    report = run_conformance(planted.ShiftedCycle, Rules(), games=0, negative_games=0)
    failed = [c for c in report.cases if c.status == "failed"]
    assert failed and all(c.rule_ids[0] == "PASS-CYCLE" for c in failed), \
        sorted({c.rule_ids[0] for c in failed})
    perft = [c for c in failed if c.kind == "perft"]
    assert perft and all("counted 0" in c.reason and "phase: expected play, engine pass" in c.reason for c in perft)


def test_the_report_of_a_run_with_errors_and_findings_follows_the_schema(tmp_path):
    import jsonschema
    schema = json.loads((ROOT / "spec" / "report.schema.json").read_text(encoding="utf-8"))
    report = run_conformance(planted.HeartsAlwaysJackAlways, Rules(), games=6, shrink_budget=SHRINK)
    data = json.loads(report.dumps())
    jsonschema.Draft202012Validator(schema).validate(data)
    assert {(f["kind"], f["rule_id"]) for f in data["summary"]["findings"]} >= {("legal-set", "FOLLOW-SUIT")}
    assert Report.from_dict(data).to_dict() == report.to_dict()
