"""`hearts-ref prove`: the table, the JSON for the docs, the exit codes (0 as expected, 1 not, 2 bad arguments).

FIRST-NO-POINTS without FIRST-EXCEPTION (seed001) must come out refuted with a counterexample;
that is the expected outcome, so the run succeeds.
"""

import io
import json
import subprocess
import sys

import pytest

import properties.prove
from hearts_ref.cli import main
from hearts_ref.commands.prove import ProgressBar
from properties.results import table
from tests.test_cli import run
from tests.test_variants import ROOT


def test_prove_json_reports_every_invariant_with_a_replayed_counterexample():
    result = run("prove", "--preset", "seed001", "--preset", "seed000", "--json", "--timeout", "60")
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout)
    assert report["version"] == 1 and report["presets"] == ["seed001", "seed000"] and report["all_expected"]
    statuses = {(r["rules"], r["invariant"]): r["status"] for r in report["results"]}
    assert statuses["seed001", "FIRST-TRICK-NO-DEADLOCK"] == "refuted"
    assert statuses["seed000", "FIRST-TRICK-NO-DEADLOCK"] == "proved"
    refuted = next(r for r in report["results"] if r["rules"] == "seed001" and r["invariant"] == "LEGAL-MOVE-EXISTS")
    example = refuted["counterexamples"][0]
    assert example["hand"] == "QS 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH"
    assert example["replay"]["plays"][0] == "2C" and refuted["rule_ids"]
    assert "prove: " in result.stderr      # plain progress lines: stderr is not a terminal here


def test_prove_table_names_outcomes_times_and_the_counterexample(fast_tier):
    out = table(fast_tier)
    assert out.splitlines()[1].split() == ["invariant", "seed000", "seed001", "seed002", "seed003", "seed004",
                                           "openspiel"]
    assert "LEGAL-MOVE-EXISTS" in out and "refuted" in out and "proved" in out and "n/a" in out
    assert "=seed000" in out                      # the same proof, shared between presets
    assert "Q♠ 2♥ 3♥" in out and "no legal play" in out and f"OK: all {len(fast_tier)} outcomes as expected." in out
    assert "Game-level proofs" in out and "GAME-ENDS under seed000 (game): proved: every game ends within N = 16 " \
        "rounds" in out


@pytest.mark.parametrize("args, message", [
    (["--preset", "seed999"], "invalid choice"), (["--timeout", "0"], "more than 0 seconds"),
    (["--timeout", "soon"], "not a number"), (["--preset", "seed000", "--all"], "not allowed with"),
    (["--jobs", "0"], "whole number"),
])
def test_invalid_prove_arguments_exit_2_with_one_line(args, message):
    result = run("prove", *args)
    assert result.returncode == 2 and message in result.stderr
    assert "Traceback" not in result.stderr and len(result.stderr.strip().splitlines()) <= 3


def test_prove_exits_1_when_an_outcome_is_not_the_expected_one(monkeypatch, capsys):
    """If the rules led us to expect seed001 to be sound, its refutation would be a failure."""
    monkeypatch.setattr(properties.prove, "expected_outcome", lambda invariant, rules: "proved")
    assert main(["prove", "--preset", "seed001"]) == 1
    out = capsys.readouterr().out
    assert "FAILED" in out and "(expected proved)*" in out


class Terminal(io.StringIO):
    def isatty(self):
        return True


def test_progress_is_a_bar_on_a_terminal_and_plain_lines_otherwise():
    terminal, log = Terminal(), io.StringIO()
    bar, plain = ProgressBar(terminal), ProgressBar(log, every=3600)
    for done in (1, 2, 3):
        bar(done, 3, "seed000 OPENING-LEAD: proved")
        plain(done, 3, "seed000 OPENING-LEAD: proved")
    assert terminal.getvalue().count("\r[") == 3 and "3/3" in terminal.getvalue() and terminal.getvalue().endswith("\n")
    assert log.getvalue().splitlines() == ["prove: 1/3 seed000 OPENING-LEAD: proved",
                                           "prove: 3/3 seed000 OPENING-LEAD: proved"]


def test_prove_a_house_rule_is_refuted_with_a_counterexample_replayed():
    """A designer's house rule: no first-trick exception with four players (FIRST-NO-POINTS) is unsound."""
    result = subprocess.run([sys.executable, "-m", "hearts_ref", "prove", "--set", "first_trick_points=forbidden"],
                            capture_output=True, text=True, cwd=ROOT, timeout=300)
    assert result.returncode == 0, result.stdout + result.stderr   # refuted, as the catalogue expects
    assert "UNSOUND: refuted FIRST-TRICK-NO-DEADLOCK, LEGAL-MOVE-EXISTS" in result.stdout
    assert "then seat 1 is to move and has no legal play" in result.stdout


def test_prove_a_house_rule_with_three_players_is_sound():
    """Seventeen cards cannot all be point cards: three players need no first-trick exception."""
    result = subprocess.run([sys.executable, "-m", "hearts_ref", "prove", "--set", "first_trick_points=forbidden",
                             "--set", "players=3", "--set", "pass_cycle=left-right-none"],
                            capture_output=True, text=True, cwd=ROOT, timeout=300)
    assert result.returncode == 0 and "SOUND: every invariant proved." in result.stdout


@pytest.mark.parametrize("settings, label", [
    (["hearts_broken_by=any-heart"], "seed000 + hearts_broken_by=any-heart (= seed004)"),
    (["first_trick_points=allowed", "jd_bonus=yes"], "seed000 + first_trick_points=allowed, jd_bonus=true"),
])
def test_prove_a_house_rule_is_labelled_as_the_users_settings_not_as_a_preset(settings, label, capsys):
    argv = ["prove", "--timeout", "60"] + [arg for setting in settings for arg in ("--set", setting)]
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[1].split(None, 1) == ["invariant", label]
    assert main(argv + ["--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["presets"] == [label] and {r["rules"] for r in report["results"]} == {label}


def test_invalid_prove_set_with_all_exits_2():
    result = subprocess.run([sys.executable, "-m", "hearts_ref", "prove", "--all", "--set", "jd_bonus=true"],
                            capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert result.returncode == 2 and "--set changes one preset" in result.stderr
