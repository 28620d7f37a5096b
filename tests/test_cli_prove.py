"""`hearts-ref prove`: the table, the JSON for the docs, the exit codes (0 as expected, 1 not, 2 bad arguments).

FIRST-NO-POINTS without FIRST-EXCEPTION (seed001) must come out refuted with a counterexample;
that is the expected outcome, so the run succeeds.
"""

import io
import os
import json
import subprocess
import sys

import pytest

import properties.prove
from hearts_ref.cli import main
from hearts_ref.console import ProgressDisplay
from properties.catalogue import INVARIANTS
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
    (["--preset", "seed999"], "unknown preset 'seed999'; choose one of seed000, seed001"),
    (["--timeout", "0"], "more than 0 seconds"),
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


class Clock:
    """A clock the test moves by hand: the display must not read the machine's time."""

    def __init__(self, start: float):
        self.now = start

    def __call__(self) -> float:
        return self.now


@pytest.mark.parametrize("start", [0.0, 1e6])
def test_progress_in_a_pipe_is_plain_lines_paced_by_the_injected_clock(start):
    """The first and the last line always; between them at most one per period of the clock, from any start."""
    log, clock = io.StringIO(), Clock(start)
    progress = ProgressDisplay("prove", stream=log, every=2.0, clock=clock)
    for done, at in ((1, 0.0), (2, 0.5), (3, 2.5), (4, 3.0), (5, 3.1)):
        clock.now = start + at
        progress(done, 5, f"step {done}")
    progress.close()
    assert log.getvalue().splitlines() == ["prove: 1/5 step 1", "prove: 3/5 step 3", "prove: 5/5 step 5"]


def test_progress_on_a_terminal_is_a_bar_with_count_rate_and_time_left():
    terminal, clock = Terminal(), Clock(0.0)
    with ProgressDisplay("prove", stream=terminal, clock=clock, unit="proofs") as progress:
        for done in (1, 2, 3):
            clock.now = float(done)
            progress(done, 4, "seed000 OPENING-LEAD: proved")
    drawn = terminal.getvalue()
    assert "\x1b[" in drawn and "━" in drawn and "3/4" in drawn and "proofs/s" in drawn and "0:00:0" in drawn


def test_quiet_progress_prints_nothing():
    log, terminal = io.StringIO(), Terminal()
    for stream in (log, terminal):
        with ProgressDisplay("prove", stream=stream, quiet=True) as progress:
            progress(1, 2, "x")
            progress(2, 2, "y")
    assert log.getvalue() == "" and terminal.getvalue() == ""


def _in_a_terminal(argv: list[str]) -> tuple[int, str]:
    """Run ``argv`` with stdout and stderr on a pseudo-terminal; return the exit code and what it drew."""
    import fcntl
    import pty
    import select
    import struct
    import termios

    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 40, 120, 0, 0))
    process = subprocess.Popen(argv, stdin=slave, stdout=slave, stderr=slave, cwd=ROOT,
                               env={**os.environ, "TERM": "xterm-256color", "COLUMNS": "120"})
    os.close(slave)
    drawn = b""
    while True:
        ready, _, _ = select.select([master], [], [], 1.0)
        if ready:
            try:
                data = os.read(master, 65536)
            except OSError:   # the program ended and closed the terminal
                break
            if not data:
                break
            drawn += data
        elif process.poll() is not None:
            break
    os.close(master)
    return process.wait(timeout=300), drawn.decode("utf-8", "replace")


def test_prove_draws_a_bar_and_a_table_on_a_terminal_and_plain_text_in_a_pipe():
    argv = [sys.executable, "-m", "hearts_ref", "prove", "--preset", "seed000"]
    code, drawn = _in_a_terminal(argv)
    n = len([i for i in INVARIANTS if "context" in i.methods or "game" in i.methods])   # the fast tier, one preset
    assert code == 0 and "━" in drawn and f"{n}/{n}" in drawn and "\x1b[" in drawn   # the bar, in colour
    assert f"OK: all {n} outcomes as expected." in drawn and "─" in drawn           # the table, drawn
    piped = subprocess.run(argv, capture_output=True, text=True, cwd=ROOT, timeout=300)
    assert piped.returncode == 0 and "\x1b" not in piped.stdout + piped.stderr and "━" not in piped.stderr
    assert piped.stderr.splitlines()[-1] == f"prove: {n}/{n} seed000 GAME-ENDS: proved"
    lines = piped.stdout.splitlines()
    assert lines[:2] == ["Per-context proofs:", "invariant                seed000"]
    assert lines[2].split() == ["LEGAL-MOVE-EXISTS", "proved", lines[2].split()[2]]
    quiet = subprocess.run(argv + ["--quiet"], capture_output=True, text=True, cwd=ROOT, timeout=300)
    assert quiet.returncode == 0 and quiet.stderr == ""


def test_prove_a_house_rule_is_refuted_with_a_counterexample_replayed():
    """A designer's house rule: no first-trick exception with four players (FIRST-NO-POINTS) is unsound."""
    result = subprocess.run([sys.executable, "-m", "hearts_ref", "prove", "--set", "first_trick_points=forbidden"],
                            capture_output=True, text=True, cwd=ROOT, timeout=300)
    assert result.returncode == 1, result.stdout + result.stderr   # the exit code is the verdict: UNSOUND
    assert ('UNSOUND: refuted FIRST-TRICK-NO-DEADLOCK, LEGAL-MOVE-EXISTS, by FIRST-NO-POINTS (first_trick_points = '
            '"forbidden").') in result.stdout   # the rule that leaves the hand no play, and the value that makes it so
    assert 'blocked by: FIRST-NO-POINTS forbids every card of the hand (first_trick_points = "forbidden")' in result.stdout
    assert "then seat 1 is to move and has no legal play" in result.stdout
    assert "OK: all" not in result.stdout   # the run ends on its verdict, not on "all outcomes as expected"


def test_prove_a_house_rule_whose_game_never_ends_is_unsound_and_says_so_in_json():
    """moon=subtract with no round limit: the shooter's total falls every round, the others stay at 0 (GAME-ENDS)."""
    argv = [sys.executable, "-m", "hearts_ref", "prove", "--set", "moon=subtract", "--json", "--quiet"]
    result = subprocess.run(argv, capture_output=True, text=True, cwd=ROOT, timeout=300)
    report = json.loads(result.stdout)
    assert result.returncode == 1 and report["all_expected"]   # refuted as the catalogue predicts, and unsound
    assert report["verdict"] == {"sound": False, "refuted": ["GAME-ENDS"], "not_settled": [],
                                 "by": {"GAME-ENDS": ["SCORE-MOON", "END-THRESHOLD"]}}   # the moon takes points away
    bounded = subprocess.run(argv[:-2] + ["--set", "max_rounds=20", "--json", "--quiet"], capture_output=True,
                             text=True, cwd=ROOT, timeout=300)
    assert bounded.returncode == 0 and json.loads(bounded.stdout)["verdict"]["sound"] is True


@pytest.mark.parametrize("settings, verdict", [
    (["ties=play-on"], "UNSOUND: refuted GAME-ENDS, by WIN-TIE and END-THRESHOLD (ties = \"play-on\")."),
    (["players=3", "pass_cycle=left-right-none", "even_out=uneven", "hearts_restriction=discard",
      "hearts_broken_by=any-heart"],
     "UNSOUND: refuted LEGAL-MOVE-EXISTS, by FOLLOW-VOID (hearts_restriction = \"discard\")."),
])
def test_prove_names_the_rules_a_refutation_goes_through(settings, verdict, capsys):
    """The verdict names the rules that block, not only the invariant: a house-rule designer learns what to change."""
    assert main(["prove"] + [arg for setting in settings for arg in ("--set", setting)]) == 1
    assert verdict in capsys.readouterr().out


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


@pytest.mark.parametrize("command", [["prove"], ["play"], ["conform", "--engine", "reference"]])
def test_a_parameter_set_twice_is_refused_not_silently_the_last(command, capsys):
    assert main(command + ["--set", "moon=add", "--set", "moon=subtract"]) == 2
    assert capsys.readouterr().err.strip().endswith("moon is set twice (moon=add, moon=subtract)")
