"""``hearts-ref verify``, the main job: proofs, vectors, perft and a differential run over stdio."""

import json
import subprocess
import sys

import pytest

from hearts_ref.cli import main
from hearts_ref.commands import verify
from tests.test_variants import ROOT


def test_verify_passes_on_the_reference_with_one_verdict_line():
    result = subprocess.run([sys.executable, "-m", "hearts_ref", "verify", "--games", "6"], capture_output=True,
                            text=True, cwd=ROOT, timeout=600)
    assert result.returncode == 0, result.stdout + result.stderr
    verdict = result.stdout.strip().splitlines()[-1]
    assert verdict.startswith("hearts-ref verify: PASS: ")
    assert "proof outcomes as expected" in verdict and "vectors passed" in verdict
    assert "over stdio, 0 deviations" in verdict and "Traceback" not in result.stderr


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
    assert "FAIL perft" in out and "counted [1, 4]" in out and "hearts-ref verify: FAIL" in out


def test_verify_a_step_that_crashes_is_a_failure_not_a_traceback(capsys, monkeypatch):
    def broken(rules, args):
        raise RuntimeError("z3 is missing")
    monkeypatch.setitem(verify.STEPS, "proofs", broken)
    monkeypatch.setitem(verify.STEPS, "stdio", lambda rules, args: {"ok": True, "summary": "skipped here"})
    assert main(["verify"]) == 1
    assert "could not run: RuntimeError: z3 is missing" in capsys.readouterr().out


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
