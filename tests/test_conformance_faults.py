"""The conformance runner judges faulty engines case by case: one fault is one failure, never a crash of the run.

In-process engines with bugs (a wrong return type, ``sys.exit``), an engine program that
crashes once, an engine that declines a variant, one that cites the wrong rule, and one
without passing: each gets its own verdict and the rest of the run goes on.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from hearts_ref.cli import main
from hearts_ref.conformance.runner import run_conformance, run_differential
from hearts_ref.conformance.shrink import Budget
from hearts_ref.engines.load import load_engine
from hearts_ref.variants import Rules
from tests.engines import python_engines as faulty

ROOT = Path(__file__).resolve().parent.parent


def test_an_engine_program_that_crashes_once_fails_one_case_and_is_restarted(tmp_path):
    """FOLLOW-SUIT and the rest: after the crash the engine is started again and every later case passes."""
    engine = load_engine(f"{sys.executable} {ROOT / 'tests' / 'engines' / 'crash_once.py'} {tmp_path / 'flag'}")
    try:
        report = run_conformance(engine, Rules(), games=2, negative_games=0, shrink_budget=0)
    finally:
        engine.close()
    errors = [c for c in report.cases if c.status == "error"]
    assert (tmp_path / "flag").exists()
    assert len(errors) == 1 and errors[0].reason.startswith("crashed:"), [c.reason for c in errors]
    assert not any("not running" in c.reason for c in report.cases)
    assert sum(c.status == "passed" for c in report.cases) == len(report.cases) - 1


def test_an_engine_that_declines_a_variant_is_skipped_not_failed(capsys):
    report = run_conformance(faulty.DeclinesTheJack, Rules(jd_bonus=True), games=3, negative_games=1,
                             vectors=False)
    assert [c.status for c in report.cases] == ["skipped"] * 4
    assert all("the engine declined" in c.reason and "jd_bonus" in c.reason for c in report.cases)
    assert report.exit_code() == 2   # nothing was judged: not a PASS
    # Under the default rules the vectors that set jd_bonus are skipped with the engine's words.
    report = run_conformance(faulty.DeclinesTheJack, Rules(), games=1, negative_games=0)
    skipped = [c for c in report.cases if c.status == "skipped"]
    assert skipped and all("jd_bonus is not supported" in c.reason for c in skipped)
    assert not [c for c in report.cases if c.status == "failed"]


@pytest.mark.parametrize("engine, message", [
    (faulty.CapabilitiesAsDict, "capabilities() returned dict"),
    (faulty.ObservesNothing, "observe() returned NoneType"),
    (faulty.LegalAsText, "legal_plays() returned"),
    (faulty.ExitsDuringPlay, "SystemExit"),
])
def test_an_in_process_engine_with_a_bug_gets_a_verdict_and_the_run_goes_on(engine, message):
    report = run_conformance(engine, Rules(), games=2, negative_games=0, shrink_budget=0)
    reasons = " ".join(c.reason for c in report.cases) + " ".join(
        str(step.get("reason")) for step in report.steps.values())
    assert message in reasons
    assert len(report.cases) > 2 and report.exit_code() in (1, 2)


def test_one_engine_failure_at_steps_of_different_rules_is_one_finding_shrunk_once(capsys):
    """An engine failure breaks no rule: the same crash (in play, at every Q♠) is one finding by its cause, not one
    per rule of the step it happened at (a lead, a follow, a discard), and only its first case is shrunk."""
    report = run_differential(faulty.CrashesOnTheQueen, Rules(), 12, 1, shrink_budget=Budget(seconds=None, replays=60))
    errors = [c for c in report.cases if c.status == "error"]
    steps = {c.details["error"]["rule_ids"][0] for c in errors}
    assert len(errors) == 12 and len(steps) > 1, steps   # the queen is played at steps of several rules
    findings = report.summary()["findings"]
    assert [(f["kind"], f["cause"], f["cases"]) for f in findings] == [("engine-error", "RuntimeError: play", 12)]
    reproduced = [c for c in errors if "reproduction" in c.details["error"]]
    assert [c.id for c in reproduced] == [findings[0]["case"]]
    assert all(c.details["error"]["same_finding_as"] == reproduced[0].id for c in errors if c not in reproduced)


def test_an_illegal_move_refused_with_the_wrong_rule_is_a_deviation():
    report = run_differential(faulty.CitesTheWrongRule, Rules(), 0, 1, negative_games=4, shrink_budget=0)
    failed = [c for c in report.cases if c.status == "failed"]
    findings = [f for c in failed for f in c.details["findings"]]
    assert failed and all(f["kind"] == "wrong-rule" for f in findings)
    assert all(f["rule_ids"][-1] == "FOLLOW-SUIT" and "citing FOLLOW-SUIT" in f["message"] for f in findings)
    assert all(f["rule_ids"][0] not in ("FOLLOW-SUIT", "PASS-CYCLE") for f in findings)   # the rule it should cite


def test_an_engine_without_passing_is_judged_with_every_round_dealt_without_a_pass(capsys):
    report = run_differential(faulty.NoPassing, Rules(max_rounds=3), 3, 0)
    assert [c.status for c in report.cases] == ["passed"] * 3 and report.rounds == 9
    assert "direction none" in report.steps["differential"]["note"]
    assert main(["conform", "--engine", "python:tests.engines.python_engines:NoPassing", "--games", "2",
                 "--set", "max_rounds=2", "--no-vectors"]) == 0
    assert "every round is dealt with direction none" in capsys.readouterr().out


def test_a_game_under_a_huge_end_threshold_stops_at_the_round_limit(monkeypatch, capsys):
    from hearts_ref.conformance import runner
    monkeypatch.setattr(runner, "GAME_ROUND_LIMIT", 3)
    report = run_differential(faulty.ReferenceEngine, Rules(end_threshold=10**9), 2, 0)
    assert [c.status for c in report.cases] == ["passed"] * 2 and report.rounds == 6
    assert all(c.details["stopped"] == "round limit: stopped after 3 rounds" for c in report.cases)
    # and --time-limit also ends the game in progress, at its next round
    monkeypatch.setattr(runner, "GAME_ROUND_LIMIT", 10**6)
    assert main(["conform", "--engine", "python:hearts_ref.engine:ReferenceEngine", "--games", "1",
                 "--negative-games", "0", "--no-vectors", "--set", "end_threshold=1000000000",
                 "--time-limit", "0.5"]) == 0
    assert "(time limit: 1)" in capsys.readouterr().out


def test_a_python_engine_in_the_current_folder_is_found_by_the_installed_command(tmp_path):
    """As ``python -m`` does, ``--engine python:module:attr`` finds a module next to where it runs."""
    import shutil
    import subprocess
    (tmp_path / "my_engine.py").write_text("from hearts_ref.engine import ReferenceEngine as MyEngine\n",
                                           encoding="utf-8")
    command = shutil.which("hearts-ref")
    assert command, "hearts-ref is installed with the package"
    env = {k: v for k, v in __import__("os").environ.items() if k != "PYTHONPATH"}
    done = subprocess.run([command, "conform", "--engine", "python:my_engine:MyEngine", "--games", "1",
                           "--no-vectors", "--set", "max_rounds=1"], cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0 and "verdict: PASS" in done.stdout, done.stderr


def test_a_perft_count_the_engine_refused_to_deal_says_it_refused_the_deal_not_a_play():
    from hearts_ref.conformance.report import Report
    from hearts_ref.conformance.suite_steps import run_perft_step

    report = Report(engine={}, rules={}, seed=0, games=0)
    run_perft_step(faulty.RefusesThreePlayerDeals, report, (1, 1))
    refused = {c.id: c.reason for c in report.cases if c.status == "failed"}
    assert refused and all(" the engine refused the deal: DEAL-HANDS: three hands: bad deal" in reason
                           for reason in refused.values()), refused
    assert "perft/three-players" in refused and not any("play" in reason for reason in refused.values())


def test_an_in_process_engines_exception_says_where_its_own_code_raised_it():
    report = run_differential(faulty.ExplodesOnThirdPlay, Rules(), 1, 0, shrink_budget=0)
    reason = report.cases[0].reason
    source = Path(faulty.__file__).read_text().splitlines()
    line = next(n for n, text in enumerate(source, 1) if 'ZeroDivisionError("planted")' in text)
    assert reason.startswith("ZeroDivisionError: play(") and reason.endswith(f"python_engines.py:{line}, in play)"), \
        reason
