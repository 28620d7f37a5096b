"""A finding that does not reproduce is reported flaky, with where each replay failed; one that does, never."""

from __future__ import annotations

import json
from pathlib import Path
from xml.etree import ElementTree

import jsonschema

from hearts_ref.conformance.outcomes import REPLAYS, replayed
from hearts_ref.conformance.report import junit_xml
from hearts_ref.conformance.summary import console_summary
from hearts_ref.conformance.runner import run_differential
from hearts_ref.conformance.shrink import Budget
from hearts_ref.engine import ReferenceEngine
from hearts_ref.variants import Rules
from tests.engines.flaky import RefusesNowAndThen
from tests.engines.planted import EndBeforeMoon, QueenOnFirstTrick

SCHEMA = json.loads((Path(__file__).resolve().parent.parent / "spec" / "report.schema.json").read_text("utf-8"))
BUDGET = Budget(seconds=None, replays=150)   # counted in games: the same shrink on any machine


def test_an_engine_that_refuses_now_and_then_is_reported_flaky():
    report = run_differential(RefusesNowAndThen, Rules(), 6, 0, shrink_budget=BUDGET)
    statuses = {case.status for case in report.cases}
    assert statuses == {"flaky"}, statuses
    repro = report.cases[0].details["reproduction"]
    runs = repro["replays"]["runs"]
    assert repro["replays"]["times"] == REPLAYS == len(runs) and not repro["replays"]["same"]
    assert any(run["step"] != repro["steps"] for run in runs)   # it failed elsewhere, or not at all
    assert report.exit_code() == 1   # a flaky finding is still a deviation
    summary = console_summary(report)
    assert "FLAKY: replayed 3 times" in summary and "verdict: FAIL, flaky only" in summary
    data = json.loads(report.dumps())
    jsonschema.Draft202012Validator(SCHEMA).validate(data)
    assert data["summary"]["counts"]["flaky"] == 6 and data["summary"]["counts"]["failed"] == 0
    suite = ElementTree.fromstring(junit_xml(report)).find("testsuite")
    assert suite.get("failures") == "6"
    assert {failure.get("type") for failure in suite.iter("failure")} == {"flaky"}


def test_a_deterministic_bug_is_not_flaky():
    """A bug of the rules fails at the same step on every replay, in a game of one round and in one of four."""
    for engine in (QueenOnFirstTrick, EndBeforeMoon):
        report = run_differential(engine, Rules(), 24 if engine is EndBeforeMoon else 6, 0,
                                  shrink_budget=Budget(seconds=None, replays=40), max_shrinks=1)
        failed = [case for case in report.cases if case.status in ("failed", "flaky")]
        assert failed and all(case.status == "failed" for case in failed), engine.__name__
        replays = failed[0].details["reproduction"]["replays"]
        assert replays["same"] and {run["step"] for run in replays["runs"]} == {failed[0].details["reproduction"]["steps"]}


def test_a_replay_that_shows_no_finding_is_not_the_same():
    reproduced = {"case": {"format": "hearts-ref-conform-case", "version": 1, "rules": {}, "mode": "differential",
                           "script": []}, "steps": 30}
    checked = replayed(ReferenceEngine(), None, Rules(), reproduced, ("rejected-legal", "FOLLOW-SUIT"), times=2)
    assert checked == {"times": 2, "same": False, "finding": ["rejected-legal", "FOLLOW-SUIT"],
                       "runs": [{"step": None, "finding": None}] * 2}


def test_the_summary_marks_broken_rules_only_and_shows_an_engines_stderr_on_lines_of_its_own():
    """An engine error breaks no rule: its rule's row counts it under errors without the <-- of a rule broken; the
    engine's stderr that comes with it is shown as lines, not as one line with \\n in it."""
    from hearts_ref.conformance.report import Case, Report

    report = Report(engine={"spec": "x", "name": "x"}, rules={}, seed=1, games=0)
    crash = "crashed: engine exited with code 3\n--- engine stderr (last lines) ---\nabout to crash"
    report.add(Case("vector/deal.one", "vector", "error", ("DEAL-HANDS",), crash))
    report.add(Case("vector/follow.one", "vector", "failed", ("FOLLOW-SUIT",), "legal: expected [2C], engine [3D]"))
    lines = console_summary(report).splitlines()
    rows = {line.split()[0]: line for line in lines if line.strip().startswith(("DEAL-HANDS", "FOLLOW-SUIT"))}
    assert rows["FOLLOW-SUIT"].endswith("<--") and not rows["DEAL-HANDS"].endswith("<--"), rows
    assert "  - vector/deal.one: crashed: engine exited with code 3" in lines and "      about to crash" in lines
    assert not any("\\n" in line for line in lines)


def test_the_summary_says_when_an_engine_named_no_rule_in_any_refusal():
    from hearts_ref.conformance.report import Report

    report = Report(engine={"spec": "x", "name": "x"}, rules={}, seed=1, games=0)
    report.add_checks({"FOLLOW-SUIT": [5, 0, 0], "LEAD-HEARTS": [2, 0, 0]})
    assert "the engine named no rule in its 7 refusals of illegal moves" in console_summary(report)
    report.add_checks({"LEAD-HEARTS": [1, 0, 1]})
    assert "named no rule" not in console_summary(report)
