"""``hearts-ref verify``, the main job: proofs, vectors, perft and a differential run over stdio."""

import json
import subprocess
import sys

import pytest

from hearts_ref.cli import main
from hearts_ref.commands import verify
from properties.catalogue import INVARIANTS
from tests.test_variants import ROOT


def test_verify_passes_on_the_reference_with_one_verdict_line():
    result = subprocess.run([sys.executable, "-m", "hearts_ref", "verify", "--games", "6"], capture_output=True,
                            text=True, cwd=ROOT, timeout=600)
    assert result.returncode == 0, result.stdout + result.stderr
    first, verdict = result.stdout.strip().splitlines()[0], result.stdout.strip().splitlines()[-1]
    assert first == "hearts-ref verify: rules: every preset for the proofs, seed000 for the stdio games"
    assert verdict.startswith("hearts-ref verify: PASS: ")
    assert "proof outcomes as expected" in verdict and "vectors passed" in verdict
    assert "over stdio, 0 deviations" in verdict and "Traceback" not in result.stderr
    # the games counted are the games the progress counted: 6 differential and 1 with illegal moves offered
    assert "7 games (6 differential, 1 negative; " in verdict
    assert "verify stdio: 7/7 " in result.stderr.replace("\r", "\n")


def test_verify_json_reports_every_step(capsys, monkeypatch):
    monkeypatch.setitem(verify.STEPS, "proofs", lambda rules, args: {"ok": True, "summary": "skipped here"})
    assert main(["verify", "--games", "2", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["ok"] and set(data["steps"]) == {"proofs", "vectors", "perft", "stdio"}
    assert data["steps"]["vectors"]["counts"]["passed"] == data["steps"]["vectors"]["checked"]


def test_verify_fails_when_one_step_fails(capsys, monkeypatch):
    monkeypatch.setitem(verify.STEPS, "proofs", lambda rules, args: {"ok": True, "summary": "skipped here"})
    monkeypatch.setitem(verify.STEPS, "perft", lambda rules, args: {
        "ok": False, "summary": "0/1 perft deals", "failures": ["shuffled: expected [1, 5], counted [1, 4]"]})
    assert main(["verify", "--games", "2"]) == 1
    out = capsys.readouterr().out
    rows = [line.split()[:2] for line in out.splitlines()]
    assert ["perft", "FAIL"] in rows and ["vectors", "ok"] in rows          # the outcome table, one row a step
    assert "  perft: shuffled: expected [1, 5], counted [1, 4]" in out.splitlines()
    assert out.splitlines()[-1].startswith("hearts-ref verify: FAIL")


def test_verify_a_step_that_crashes_is_a_failure_not_a_traceback(capsys, monkeypatch):
    def broken(rules, args):
        raise RuntimeError("z3 is missing")
    monkeypatch.setitem(verify.STEPS, "proofs", broken)
    monkeypatch.setitem(verify.STEPS, "stdio", lambda rules, args: {"ok": True, "summary": "skipped here"})
    assert main(["verify"]) == 1
    assert "could not run: RuntimeError: z3 is missing" in capsys.readouterr().out


def _without_vectors_and_stdio(monkeypatch):
    for step in ("vectors", "perft", "stdio"):
        monkeypatch.setitem(verify.STEPS, step, lambda rules, args: {"ok": True, "summary": "skipped here"})


def test_verify_proves_the_house_rule_of_set_and_fails_when_it_can_deadlock(capsys, monkeypatch):
    """FIRST-NO-POINTS without FIRST-EXCEPTION deadlocks with four players: verify must not pass it."""
    _without_vectors_and_stdio(monkeypatch)
    assert main(["verify", "--set", "first_trick_points=forbidden"]) == 1
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "hearts-ref verify: rules: seed000 + first_trick_points=forbidden"
    proofs = next(line for line in lines if "proofs" in line)
    assert proofs.split()[:2] == ["proofs", "FAIL"]
    assert ("UNSOUND, refuted LEGAL-MOVE-EXISTS, FIRST-TRICK-NO-DEADLOCK: a round can deadlock, through "
            "FIRST-NO-POINTS (") in proofs   # the rule that leaves the hand no play
    assert "as expected" not in proofs   # a house rule has no expected outcomes: its verdict is its own
    assert any("hand: Q♠ 2♥ 3♥" in line for line in lines)            # the counterexample's hand
    assert lines[-1].startswith("hearts-ref verify: FAIL: seed000 + first_trick_points=forbidden: UNSOUND")


def test_verify_proves_only_the_rules_chosen_and_says_which(capsys, monkeypatch):
    _without_vectors_and_stdio(monkeypatch)
    assert main(["verify", "--preset", "seed004", "--set", "jd_bonus=true", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["rules"]["label"] == "seed004 + jd_bonus=true" and data["rules"]["values"]["jd_bonus"] is True
    proofs = data["steps"]["proofs"]
    assert proofs["ok"] and proofs["refuted"] == [] and proofs["summary"].startswith("seed004 + jd_bonus=true: SOUND")
    fast = [i for i in INVARIANTS if "context" in i.methods or "game" in i.methods]
    assert proofs["checked"] == len(fast)  # one set of rules, not every preset


def test_verify_a_preset_known_to_deadlock_passes_when_the_deadlock_is_found(capsys, monkeypatch):
    _without_vectors_and_stdio(monkeypatch)
    assert main(["verify", "--preset", "seed003"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("hearts-ref verify: rules: seed003\n")
    row = next(line for line in out.splitlines() if line.split()[:2] == ["proofs", "ok"])
    assert "seed003: unsound as expected of seed003 (FOLLOW-VOID), refuted LEGAL-MOVE-EXISTS" in row


def test_invalid_verify_arguments_exit_2(capsys):
    assert main(["verify", "--games", "0"]) == 2
    assert "--games must be at least 1" in capsys.readouterr().err


@pytest.mark.parametrize("value", ["-1", "0", "nan", "inf", "soon"])
def test_invalid_verify_timeout_exits_2_like_prove(value):
    result = subprocess.run([sys.executable, "-m", "hearts_ref", "verify", f"--timeout={value}"], capture_output=True,
                            text=True, cwd=ROOT, timeout=60)
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr.startswith("hearts-ref verify: error: argument --timeout: ")
    assert len(result.stderr.strip().splitlines()) == 1


def test_verify_says_a_house_rule_whose_game_never_ends_is_unsound_for_that_reason(capsys, monkeypatch):
    """moon=subtract deadlocks no round (LEGAL-MOVE-EXISTS is proved): it is the game that may never end."""
    _without_vectors_and_stdio(monkeypatch)
    assert main(["verify", "--set", "moon=subtract"]) == 1
    out = capsys.readouterr().out
    assert "UNSOUND, refuted GAME-ENDS: a game may never end, through SCORE-MOON, END-THRESHOLD (" in out
    assert "deadlock" not in out.split("\n")[2]
    assert "GAME-ENDS: seat 0 shoots the moon every round" in out   # the endless game, as the counterexample
