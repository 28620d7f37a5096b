"""``hearts-ref conform`` when the engine or the world misbehaves: reports that still parse, signals
that leave no engine behind, limits and output paths checked before a campaign starts."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
import uuid
from pathlib import Path
from xml.etree import ElementTree

import jsonschema
import pytest

from hearts_ref.cli import main
from hearts_ref.conformance.report import Case, Report, junit_xml
from hearts_ref.errors import HeartsError
from tests.test_stdio_failures import assert_gone, with_default_stop_signals

ROOT = Path(__file__).resolve().parent.parent
ENGINES = ROOT / "tests" / "engines"
SCHEMA = json.loads((ROOT / "spec" / "report.schema.json").read_text(encoding="utf-8"))


def engine_command(script: str, *args: str) -> str:
    return " ".join([sys.executable, str(ENGINES / script), *args])


# JUnit XML: every character XML 1.0 forbids is escaped -------------------------------------------

def test_junit_xml_parses_when_the_engine_colours_its_stderr(tmp_path, capsys):
    junit, report = tmp_path / "r.xml", tmp_path / "r.json"
    code = main(["conform", "--engine", engine_command("ansi_crash.py"), "--games", "2", "--no-vectors",
                 "--shrink-time", "0", "--junit", str(junit), "--report", str(report)])
    console = capsys.readouterr()
    assert code == 1
    # The console shows the engine's words with their control characters escaped, never obeyed.
    assert "\x1b" not in console.out + console.err and "\x07" not in console.out and "\x00" not in console.out
    assert r"\x1b[1;31mfatal:\x1b[0m the trick table is corrupt\x07 (at \x00\x1f)" in console.out
    errors = list(ElementTree.parse(junit).getroot().iter("error"))   # raises if not well-formed
    assert errors and all("exited with code 3" in f.get("message") for f in errors)
    assert all(f.get("type") == "crashed" for f in errors)   # a crash is an error typed by its verdict
    message = errors[0].get("message")
    assert r"\x1b[1;31mfatal:\x1b[0m the trick table is corrupt\x07 (at \x00\x1f)" in message, message
    assert not message.startswith(": ")          # no rule ID: the reason alone, not an empty list before it
    # The JSON report keeps the engine's words as written: JSON can carry them.
    reasons = [c["reason"] for c in json.loads(report.read_text(encoding="utf-8"))["cases"]]
    assert any("\x1b[1;31mfatal:\x1b[0m" in reason for reason in reasons)


def test_junit_xml_escapes_forbidden_characters_in_every_attribute_and_text():
    bad = "a\x00b\x07c\x1bd\x0be\ud800f\ufffeg"
    shown = r"a\x00b\x07c\x1bd\x0be\ud800f\ufffeg"
    report = Report(engine={"spec": "x", "name": "x"}, rules={}, seed=0, games=0)
    report.add(Case(f"differential/{bad}/0", "differential", "failed", (), f"failed {bad}",
                    details={"deviation": {"message": bad}}))
    report.add(Case(f"vector/{bad}", "vector", "skipped", (), f"skipped {bad}"))
    report.add(Case("vector/xfail", "vector", "expected-fail", ("LEAD-OPEN",), f"xfail {bad}"))
    report.add(Case("vector/upass", "vector", "unexpected-pass", (), f"upass {bad}\tkept\nkept"))
    text = junit_xml(report)
    text.encode("utf-8")                        # no lone surrogate left to break the file's encoding
    suite = ElementTree.fromstring(text).find("testsuite")
    cases = suite.findall("testcase")
    assert [c.get("name") for c in cases[:2]] == [f"{shown}/0", shown]
    assert cases[0].find("failure").get("message") == f"failed {shown}"
    assert cases[1].find("skipped").get("message") == f"skipped {shown}"
    assert cases[2].find("skipped").get("message") == f"expected failure (LEAD-OPEN): xfail {shown}"
    assert f"upass {shown}\tkept\nkept" in cases[3].find("system-out").text   # tab and newline stay


# Signals: the runner unwinds and kills its engine, with the engine's own children ---------------

def _pids(*pgrep_args: str) -> list[int]:
    found = subprocess.run(["pgrep", *pgrep_args], capture_output=True, text=True)
    return [int(pid) for pid in found.stdout.split()]


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGHUP, signal.SIGINT])
def test_a_signalled_runner_kills_its_hung_engine_and_the_engines_children(signum):
    marker = f"hearts-ref-signal-test-{uuid.uuid4().hex}"      # in the engine's argv: how pgrep finds it
    runner = subprocess.Popen([sys.executable, "-m", "hearts_ref", "conform", "--engine",
                               engine_command("hang.py", "play", "5", marker), "--timeout", "60",
                               "--no-vectors", "--games", "4"],
                              cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                              preexec_fn=with_default_stop_signals)
    engine = child = None
    try:
        deadline = time.monotonic() + 120
        while child is None and time.monotonic() < deadline:
            engines = [pid for pid in _pids("-f", "--", marker) if pid != runner.pid]
            children = _pids("-P", str(engines[0])) if engines else []
            engine, child = (engines[0], children[0]) if children else (None, None)
            time.sleep(0.05)
        assert child is not None, "the engine never started its child"
        time.sleep(0.5)                          # the engine hangs on the 5th play; the runner waits on it
        assert runner.poll() is None
        runner.send_signal(signum)
        _, err = runner.communicate(timeout=120)
        assert runner.returncode == 128 + signum, err
        assert "Traceback" not in err and err.count("\n") == 1, err
        assert_gone(engine)
        assert_gone(child)                       # the engine's own child died with its process group
        assert [pid for pid in _pids("-f", "--", marker) if pid != runner.pid] == []
    finally:
        if runner.poll() is None:
            runner.kill()
            runner.wait()
        if engine is not None:
            try:
                os.killpg(engine, signal.SIGKILL)   # only if the test failed: leave nothing behind
            except ProcessLookupError:
                pass


# Engine timeouts: finite, more than 0, at most a day; checked before any engine starts ------------

@pytest.mark.parametrize("option", ["--timeout", "--startup-timeout"])
@pytest.mark.parametrize("value", ["inf", "nan", "1e10", "86400.5", "0", "-1"])
def test_invalid_engine_timeouts_exit_2_with_one_line_before_the_engine_starts(option, value, tmp_path, capsys):
    pidfile = tmp_path / "pid"
    engine = engine_command("slow_start.py", "0", str(pidfile))      # writes its pid as soon as it runs
    with pytest.raises(SystemExit) as exited:                         # argparse refuses it
        main(["conform", "--engine", engine, "--games", "1", "--no-vectors", f"{option}={value}"])
    assert exited.value.code == 2
    err = capsys.readouterr().err
    assert option in err and "at most 86400 seconds" in err and f"got {value}" in err, err
    assert err.count("\n") == 1 and "Traceback" not in err
    assert not pidfile.exists()


def test_the_longest_engine_timeouts_allowed_work(tmp_path, capsys):
    code = main(["conform", "--engine", engine_command("correct.py"), "--games", "2", "--no-vectors",
                 "--set", "max_rounds=1", "--timeout", "86400", "--startup-timeout", "86400"])
    out = capsys.readouterr().out
    assert code == 0 and "verdict: PASS" in out, out


def test_a_stdio_engine_waits_in_steps_for_a_timeout_longer_than_poll_can_take():
    from hearts_ref import Rules, deal
    from hearts_ref.engines import StdioEngine

    for timeout in (1e10, float("inf")):   # one poll() takes at most 2**31 - 1 milliseconds
        with StdioEngine([sys.executable, str(ENGINES / "correct.py")], timeout=timeout,
                         startup_timeout=timeout) as engine:
            engine.new_game(Rules())
            step = engine.start_round_observed(deal(Rules(), seed=1), "none")
            assert step.observation.phase == "play" and len(step.legal) == 1
    with pytest.raises(HeartsError, match="timeout to be more than 0 seconds, got nan"):
        StdioEngine([sys.executable, str(ENGINES / "correct.py")], timeout=float("nan"))


# Output files: checked before the campaign; a write that still fails keeps the summary ------------

@pytest.mark.parametrize("make_argv, problem", [
    (lambda tmp: ["--report", str(tmp / "no-such-folder" / "r.json")], "no such folder"),
    (lambda tmp: ["--junit", str(tmp)], "is a folder, not a file"),
    (lambda tmp: ["--report", str(tmp / "pid" / "r.json")], "is not a folder"),          # pid: a file
    (lambda tmp: ["--report", str(tmp / "r.out"), "--junit", str(tmp / "." / "r.out")], "name the same file"),
])
def test_an_output_file_that_cannot_be_written_exits_2_before_the_campaign(make_argv, problem, tmp_path, capsys):
    pidfile = tmp_path / "pid"
    pidfile.write_text("", encoding="utf-8")
    engine = engine_command("slow_start.py", "0", str(pidfile))      # writes its pid as soon as it runs
    assert main(["conform", "--engine", engine, "--games", "1", "--no-vectors", *make_argv(tmp_path)]) == 2
    captured = capsys.readouterr()
    assert problem in captured.err and captured.err.count("\n") == 1 and "Traceback" not in captured.err
    assert captured.out == "" and pidfile.read_text(encoding="utf-8") == ""     # the engine never started
    assert not (tmp_path / "r.out").exists()


def test_an_output_file_in_a_read_only_folder_exits_2_before_the_campaign(capsys):
    """/proc/sys takes no new file, even from root (who writes into a chmod 500 folder all the same)."""
    assert main(["conform", "--engine", "python:hearts_ref.engine:ReferenceEngine", "--games", "1",
                 "--no-vectors", "--junit", "/proc/sys/r.xml"]) == 2
    captured = capsys.readouterr()
    assert "not writable" in captured.err and captured.out == ""


def test_a_write_that_fails_after_the_run_prints_the_summary_then_the_error(tmp_path, capsys):
    junit = tmp_path / "r.xml"
    code = main(["conform", "--engine", "python:hearts_ref.engine:ReferenceEngine", "--games", "2",
                 "--no-vectors", "--set", "max_rounds=1",
                 "--report", "/dev/full", "--junit", str(junit)])     # /dev/full: writable, then "disk full"
    captured = capsys.readouterr()
    assert code == 2
    assert "verdict: PASS" in captured.out and "3 cases: 3 passed" in captured.out   # the run is not lost
    errors = [line for line in captured.err.splitlines() if not line.startswith("conform: ")]   # not progress
    assert len(errors) == 1 and "/dev/full: cannot write the --report file" in errors[0]
    assert ElementTree.parse(junit).getroot().find("testsuite").get("tests") == "3"   # the other file is written


def test_a_lone_surrogate_in_an_engine_message_reaches_every_output_without_a_traceback(tmp_path, capsys):
    report, junit = tmp_path / "r.json", tmp_path / "r.xml"
    code = main(["conform", "--engine", engine_command("odd_text.py"), "--games", "2", "--no-vectors",
                 "--shrink-time", "0", "--report", str(report), "--junit", str(junit)])
    out = capsys.readouterr().out
    assert code == 1 and "verdict: FAIL" in out and "lost" in out
    data = json.loads(report.read_text(encoding="utf-8"))               # UTF-8, and the JSON escape round-trips
    jsonschema.Draft202012Validator(SCHEMA).validate(data)
    assert any("lost \ud800 half a character, \x1b[31mred" in c["reason"] for c in data["cases"])
    messages = [f.get("message") for f in ElementTree.parse(junit).getroot().iter("error")]
    assert any(r"lost \ud800 half a character, \x1b[31mred\x1b[0m, \x00" in m for m in messages), messages


# An engine that cannot be started: exit 2, and the report files say so -----------------------------

def _start_failure_run(engine: str, tmp_path: Path, capsys, *extra: str) -> tuple[dict, ElementTree.Element, str]:
    report, junit = tmp_path / "r.json", tmp_path / "r.xml"
    assert main(["conform", "--engine", engine, "--report", str(report), "--junit", str(junit), *extra]) == 2
    captured = capsys.readouterr()
    assert "Traceback" not in captured.err and captured.out == ""
    data = json.loads(report.read_text(encoding="utf-8"))
    jsonschema.Draft202012Validator(SCHEMA).validate(data)
    return data, ElementTree.parse(junit).getroot().find("testsuite"), captured.err


def test_an_engine_that_cannot_be_run_still_gets_its_report_files(tmp_path, capsys):
    missing = str(tmp_path / "no-such-engine")
    data, suite, err = _start_failure_run(missing, tmp_path, capsys, "--games", "5")
    assert err.count("\n") == 1 and "cannot start engine" in err
    assert data["engine"]["spec"] == missing and data["engine"]["error"]["verdict"] == "not-started"
    assert "No such file" in data["engine"]["error"]["message"]
    assert data["summary"]["counts"]["error"] == len(data["cases"]) == 5 + 1     # the games and negative games
    assert all("the engine could not be started: not-started" in c["reason"] for c in data["cases"])
    assert {step: state["status"] for step, state in data["steps"].items()} == {
        "vectors": "skipped", "perft": "skipped", "differential": "skipped", "negative": "skipped"}
    assert Report.from_dict(data).exit_code() == 2     # read back (merged), it exits as the run did: not a pass
    assert (suite.get("tests"), suite.get("failures"), suite.get("errors")) == ("7", "0", "7")   # errors, not failures
    start = suite.find("testcase")
    assert (start.get("classname"), start.get("name")) == ("hearts-ref.engine", "start")
    assert start.find("error").get("type") == "not-started" and "No such file" in start.find("error").get("message")


def test_a_bad_handshake_is_reported_with_the_cases_the_run_would_have_played(tmp_path, capsys):
    argv = ["--games", "7", "--negative-games", "5", "--shard", "2/3", "--no-vectors", "--set", "max_rounds=1"]
    data, suite, err = _start_failure_run(engine_command("garbage.py", "hello", "1"), tmp_path, capsys, *argv)
    assert "bad reply to 'hello'" in err
    assert data["engine"]["error"]["verdict"] == "protocol-error" and data["shards"] == [[2, 3]]
    assert "vectors" not in data["steps"]
    # The same cases, by ID, as a run of a working engine with the same arguments.
    assert main(["conform", "--engine", "python:hearts_ref.engine:ReferenceEngine", *argv,
                 "--report", str(tmp_path / "ok.json")]) == 0
    capsys.readouterr()
    played = json.loads((tmp_path / "ok.json").read_text(encoding="utf-8"))
    assert [c["id"] for c in data["cases"]] == [c["id"] for c in played["cases"]] != []
    assert int(suite.get("errors")) == len(data["cases"]) + 1 and suite.get("failures") == "0"


def test_an_engine_that_dies_before_its_handshake_leaves_its_last_words_in_the_junit_error(tmp_path, capsys):
    data, suite, err = _start_failure_run(engine_command("crash.py", "hello", "1"), tmp_path, capsys,
                                          "--games", "1", "--no-vectors")
    assert data["engine"]["error"]["verdict"] == "crashed"
    assert "fatal: the trick table is corrupt" in data["engine"]["error"]["stderr_tail"]
    error = suite.find("testcase").find("error")
    assert "exited with code 3" in error.get("message") and "fatal: the trick table is corrupt" in error.text
    assert "fatal: the trick table is corrupt" in err     # the console shows the engine's last words as well


def test_a_start_failure_with_json_prints_the_report_and_without_outputs_writes_nothing(tmp_path, capsys):
    missing = str(tmp_path / "no-such-engine")
    assert main(["conform", "--engine", missing, "--games", "2", "--json"]) == 2
    captured = capsys.readouterr()
    assert json.loads(captured.out)["engine"]["error"]["verdict"] == "not-started"
    assert captured.err.count("\n") == 1
    assert main(["conform", "--engine", missing, "--games", "2"]) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and "cannot start engine" in captured.err
    assert sorted(p.name for p in tmp_path.iterdir()) == []
