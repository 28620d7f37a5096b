"""Campaigns: an engine that keeps failing is abandoned, a stopped run still writes what it judged, and the
campaign spread over worker processes or shards gives the report one process writes, byte for byte."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from xml.etree import ElementTree

import jsonschema
import pytest

from hearts_ref.cli import main
from hearts_ref.conformance.campaign import Campaign, job_shards, run_campaign
from hearts_ref.conformance.report import merge_reports
from hearts_ref.conformance.runner import run_conformance
from hearts_ref.engines import EngineAbandoned, EngineTimeout
from hearts_ref.engines.health import Breaker
from hearts_ref.errors import RecordError
from hearts_ref.variants import Rules
from tests.test_stdio_failures import assert_gone, with_default_stop_signals

ROOT = Path(__file__).resolve().parent.parent
ENGINES = ROOT / "tests" / "engines"
SCHEMA = json.loads((ROOT / "spec" / "report.schema.json").read_text(encoding="utf-8"))
BUGGY = "python:tests.engines.buggy:QueenBreaksHearts"
# an engine program that declines the jd_bonus vectors at new_game ('unsupported')
DECLINES_OVER_STDIO = f"{sys.executable} -m hearts_ref serve --engine python:tests.engines.python_engines:DeclinesTheJack"


def engine_command(script: str, *args: str) -> str:
    return " ".join([sys.executable, str(ENGINES / script), *args])


def timeout(text: str = "engine gave no reply to 'play' (seq 9) within 1 s; killed it") -> EngineTimeout:
    return EngineTimeout(text, timeout=1.0)


# The circuit breaker ----------------------------------------------------------------------------

def test_the_breaker_trips_after_the_same_failure_in_consecutive_games_only():
    breaker = Breaker(limit=3)
    for game in range(2):
        breaker.new_game()
        breaker.failed(timeout())
        breaker.failed(timeout())          # a failed restart in the same game counts once
    breaker.new_game()                      # a game without a failure: the count starts again
    breaker.new_game()
    for game in range(2):
        breaker.new_game()
        breaker.failed(timeout())
    assert breaker.reason is None
    breaker.new_game()
    breaker.failed(timeout("the third"))
    assert breaker.reason == "abandoned after 3 timeouts in a row (the last: the third)"
    with pytest.raises(EngineAbandoned, match="abandoned after 3 timeouts"):
        breaker.check()


def test_the_breaker_counts_one_kind_at_a_time_and_never_with_limit_0():
    from hearts_ref.engines.failures import EngineCrashed, EngineInternalError

    mixed, never = Breaker(limit=2), Breaker(limit=0)
    for error in (timeout(), EngineCrashed("engine exited with code 3", returncode=3), timeout(),
                  EngineInternalError("its own bug")):
        for breaker in (mixed, never):
            breaker.new_game()
            breaker.failed(error)
    assert mixed.reason is None and never.reason is None      # no two of one kind in a row; internal: not counted
    mixed.new_game()
    mixed.failed(timeout())
    assert mixed.reason is None                               # the internal error's game broke the run of timeouts
    mixed.new_game()
    mixed.failed(timeout())
    assert mixed.reason.startswith("abandoned after 2 timeouts")


def test_the_breaker_abandons_for_crashes_only_an_engine_that_has_not_played_a_game_through():
    """Crashes and protocol errors cost a restart: three in a row abandon an engine that has not yet gone through a
    game without a failure, but not one that has (it crashes in one situation: the three moon vectors in a row);
    timeouts still abandon it."""
    from hearts_ref.engines.failures import EngineCrashed, EngineProtocolError

    crash = EngineCrashed("engine exited with code 3", returncode=3)
    cannot, plays = Breaker(limit=3), Breaker(limit=3)
    plays.new_game()                       # one game through, no failure
    for breaker in (cannot, plays):
        for _ in range(4):
            breaker.new_game()
            breaker.failed(crash)
    assert cannot.reason.startswith("abandoned after 3 crashes in a row") and plays.reason is None
    for _ in range(3):
        plays.new_game()
        plays.failed(EngineProtocolError("bad reply to 'play' (seq 9): not JSON: 'debug'"))
    assert plays.reason is None
    for _ in range(3):
        plays.new_game()
        plays.failed(timeout())
    assert plays.reason.startswith("abandoned after 3 timeouts")


def test_a_hung_engine_is_abandoned_and_the_cases_left_are_reported_so(tmp_path, capsys):
    """The engine hangs in every game: three timeouts, then every case left is abandoned, at once."""
    report, junit = tmp_path / "r.json", tmp_path / "r.xml"
    code = main(["conform", "--engine", engine_command("hang.py", "new_game", "1"), "--games", "10",
                 "--timeout", "0.5", "--shrink-time", "0", "--report", str(report), "--junit", str(junit)])
    out = capsys.readouterr().out
    data = json.loads(report.read_text(encoding="utf-8"))
    jsonschema.Draft202012Validator(SCHEMA).validate(data)
    statuses = [c["status"] for c in data["cases"]]
    assert code == 1 and statuses[:3] == ["error"] * 3 and set(statuses[3:]) == {"abandoned"}
    assert all("timeout:" in c["reason"] for c in data["cases"][:3])
    reason = data["cases"][3]["reason"]
    assert reason.startswith("abandoned after 3 timeouts in a row (the last: engine gave no reply to 'new_game'")
    assert data["summary"]["counts"]["abandoned"] == len(statuses) - 3
    assert f"engine {reason}: {len(statuses) - 3} cases not run" in out
    suite = ElementTree.parse(junit).getroot().find("testsuite")
    assert suite.get("skipped") == str(len(statuses) - 3)
    assert [s.get("message") for s in suite.iter("skipped")] == [reason] * (len(statuses) - 3)


def test_with_abandon_after_0_every_case_is_tried(capsys):
    code = main(["conform", "--engine", engine_command("hang.py", "new_game", "1"), "--games", "4",
                 "--negative-games", "0", "--no-vectors", "--timeout", "0.3", "--abandon-after", "0",
                 "--shrink-time", "0", "--json"])
    data = json.loads(capsys.readouterr().out)
    assert code == 1 and [c["status"] for c in data["cases"]] == ["error"] * 4


def test_a_slow_but_correct_engine_is_judged_and_its_reply_times_reported(capsys):
    code = main(["conform", "--engine", engine_command("slow.py", "0.02"), "--games", "1", "--negative-games", "0",
                 "--no-vectors", "--set", "max_rounds=1", "--timeout", "5", "--json"])
    data = json.loads(capsys.readouterr().out)
    replies = data["engine"]["replies"]
    assert code == 0 and data["summary"]["counts"]["passed"] == 1
    assert replies["count"] >= 6 and 0.02 <= replies["median"] <= replies["p95"] <= replies["slowest"]
    assert replies["seconds"] >= 0.02 * replies["count"] and sum(replies["bins"].values()) == replies["count"]
    assert main(["conform", "--engine", engine_command("slow.py", "0.02"), "--games", "1", "--no-vectors",
                 "--negative-games", "0", "--set", "max_rounds=1"]) == 0
    line = next(line for line in capsys.readouterr().out.splitlines() if "engine replies:" in line)
    assert f"{replies['count']} replies" in line and "median" in line and "slowest" in line
    assert replies["timeouts"] == 0 and "never came" not in line


def test_replies_that_never_came_are_counted_apart_from_the_reply_times(capsys, tmp_path):
    # The engine stops answering at its fifth play: each game waits out the timeout once (and each replay of the
    # finding once more). Those waits are not reply times: the slowest stays far below the timeout.
    report = tmp_path / "report.json"
    code = main(["conform", "--engine", engine_command("hang.py", "play", "5"), "--games", "2", "--negative-games", "0",
                 "--no-vectors", "--timeout", "0.3", "--abandon-after", "0", "--shrink-time", "0",
                 "--report", str(report)])
    out = capsys.readouterr().out
    data = json.loads(report.read_text(encoding="utf-8"))
    replies = data["engine"]["replies"]
    jsonschema.Draft202012Validator(SCHEMA).validate(data)
    assert code == 1 and [c["status"] for c in data["cases"]] == ["error"] * 2
    assert replies["timeouts"] >= 2 and replies["timeout"] == 0.3
    assert replies["slowest"] < 0.3 and sum(replies["bins"].values()) == replies["count"] > 0
    line = next(line for line in out.splitlines() if "engine replies:" in line)
    assert line.endswith(f"; {replies['timeouts']} more never came (timeouts of 300 ms)")


# A run stopped by a signal -------------------------------------------------------------------------

@pytest.mark.parametrize("signum, jobs", [(signal.SIGTERM, 1), (signal.SIGINT, 1), (signal.SIGHUP, 1),
                                          (signal.SIGTERM, 2)])
def test_a_stopped_run_writes_what_it_judged_marked_incomplete(signum, jobs, tmp_path):
    """The engine stalls at its third game: two games judged per job, then the signal."""
    report, junit = tmp_path / "r.json", tmp_path / "r.xml"
    runner = subprocess.Popen([sys.executable, "-m", "hearts_ref", "conform", "--engine",
                               engine_command("stall.py", str(tmp_path), "3"), "--timeout", "600",
                               "--games", "20", "--negative-games", "0", "--set", "max_rounds=1", "--no-vectors",
                               "--jobs", str(jobs), "--report", str(report), "--junit", str(junit)],
                              cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                              preexec_fn=with_default_stop_signals)
    try:
        deadline = time.monotonic() + 120
        while len(list(tmp_path.glob("stalled-*"))) < jobs:
            assert time.monotonic() < deadline and runner.poll() is None, runner.communicate()
            time.sleep(0.02)
        runner.send_signal(signum)
        out, err = runner.communicate(timeout=120)
    finally:
        if runner.poll() is None:
            runner.kill()
            runner.wait()
    assert runner.returncode == 128 + signum, err
    said = [line for line in err.splitlines() if not line.startswith("conform: ")]   # progress lines aside
    assert "Traceback" not in err and len(said) == 1, err
    data = json.loads(report.read_text(encoding="utf-8"))
    jsonschema.Draft202012Validator(SCHEMA).validate(data)
    judged = len(data["cases"])
    assert judged == 2 * jobs and all(c["status"] == "passed" for c in data["cases"])
    assert data["incomplete"] == {"reason": f"stopped by {signal.Signals(signum).name} after {judged} cases"}
    assert "INCOMPLETE: stopped by" in out and "verdict: PASS (of an incomplete run)" in out
    suite = ElementTree.parse(junit).getroot().find("testsuite")
    assert (suite.get("tests"), suite.get("errors")) == (str(judged + 1), "1")
    assert suite.find("testcase").find("error").get("type") == "incomplete"
    for stalled in tmp_path.glob("stalled-*"):
        assert_gone(int(stalled.name.split("-")[1]))      # the stalled engines died with the run



def _as_nohup_in_the_background() -> None:
    """``preexec_fn``: the dispositions of ``nohup hearts-ref conform ... &`` run from a script."""
    signal.signal(signal.SIGHUP, signal.SIG_IGN)
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def test_signals_ignored_at_the_start_stay_ignored_by_the_runner(tmp_path):
    """A hangup and a ^C to the runner's group change nothing; SIGTERM then stops the run as usual."""
    report = tmp_path / "r.json"
    runner = subprocess.Popen([sys.executable, "-m", "hearts_ref", "conform", "--engine",
                               engine_command("stall.py", str(tmp_path), "3"), "--timeout", "600",
                               "--games", "20", "--negative-games", "0", "--set", "max_rounds=1", "--no-vectors",
                               "--report", str(report)],
                              cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                              preexec_fn=_as_nohup_in_the_background, start_new_session=True)
    try:
        deadline = time.monotonic() + 120
        while not list(tmp_path.glob("stalled-*")):
            assert time.monotonic() < deadline and runner.poll() is None, runner.communicate()
            time.sleep(0.02)
        os.killpg(runner.pid, signal.SIGHUP)               # as a closing terminal and ^C would
        os.killpg(runner.pid, signal.SIGINT)
        time.sleep(0.5)                                    # time for a wrongly kept handler to act
        assert runner.poll() is None
        runner.send_signal(signal.SIGTERM)
        out, err = runner.communicate(timeout=120)
    finally:
        if runner.poll() is None:
            runner.kill()
            runner.wait()
    assert runner.returncode == 128 + signal.SIGTERM, err
    data = json.loads(report.read_text(encoding="utf-8"))
    assert data["incomplete"] == {"reason": "stopped by SIGTERM after 2 cases"}
    assert [case["status"] for case in data["cases"]] == ["passed", "passed"]   # the engine lived on

# Jobs, shards and merges: one report ----------------------------------------------------------------

def test_job_shards_split_a_shard_again():
    assert job_shards((1, 1), 3) == [(1, 3), (2, 3), (3, 3)]
    indices = {k: {i for i in range(60) if i % n == k - 1} for k, n in job_shards((2, 3), 4)}
    assert set().union(*indices.values()) == {i for i in range(60) if i % 3 == 1}
    assert sum(map(len, indices.values())) == 20              # no game twice


@pytest.mark.parametrize("spec, extra", [("reference", ["--set", "max_rounds=2"]),
                                         (BUGGY, ["--shrink-time", "0"]),
                                         (BUGGY, ["--shrink-replays", "40"]),   # a shrink cut short at a count
                                         (DECLINES_OVER_STDIO, [])])   # vectors declined: the same reasons
def test_jobs_give_the_report_of_one_process_byte_for_byte(spec, extra, tmp_path, capsys):
    """The same bytes from one process and from two or three, whatever each worker's engine process has answered
    before (a skip's reason quotes the engine's answer, not the number of the command in that process)."""
    written = {}
    for jobs in (1, 2, 3):
        report, junit = tmp_path / f"r{jobs}.json", tmp_path / f"r{jobs}.xml"
        code = main(["conform", "--engine", spec, "--games", "14", "--no-timings", "--jobs", str(jobs),
                     "--report", str(report), "--junit", str(junit), *extra])
        written[jobs] = (code, report.read_bytes(), junit.read_bytes())
    capsys.readouterr()
    assert written[1] == written[2] == written[3]
    data = json.loads(written[1][1])
    assert data["shards"] == [[1, 1]] and data["seconds"] == 0 and len(data["cases"]) > 14
    if spec == DECLINES_OVER_STDIO:   # hearts-ref serve answers the engine's EngineUnsupported as 'unsupported'
        skipped = [c for c in data["cases"] if c["status"] == "skipped"]
        declined = "the engine declined (new game): 'new_game' answered unsupported: jd_bonus is not supported"
        assert skipped and all(c["reason"] == declined for c in skipped), [c["reason"] for c in skipped]
        assert data["summary"]["counts"]["error"] == 0
    if spec == BUGGY:   # one reproduction per finding, the other failing games pointing at it
        failed = [c for c in data["cases"] if c["status"] == "failed" and c["kind"] == "differential"]
        assert len([c for c in failed if "reproduction" in c]) == 1 and len(failed) > 2
        search = next(c for c in failed if "reproduction" in c)["reproduction"]["search"]
        if "--shrink-replays" in extra:   # the shrink stops at its count (or before, finished): the same on any machine
            assert search["replays"] <= 40 and (search["finished"] or search["replays"] == 40), search
        assert all(c.get("same_finding_as") == failed[0]["id"] for c in failed[1:])


def test_a_shard_run_in_jobs_merges_with_the_other_shards_into_the_whole(tmp_path, capsys):
    paths = []
    for k, jobs in ((1, 2), (2, 1), (3, 3)):
        path = tmp_path / f"s{k}.json"
        main(["conform", "--engine", BUGGY, "--games", "9", "--shard", f"{k}/3", "--jobs", str(jobs),
              "--shrink-time", "0", "--no-timings", "--report", str(path)])
        paths.append(str(path))
    main(["conform", "--engine", BUGGY, "--games", "9", "--shrink-time", "0", "--no-timings",
          "--report", str(tmp_path / "whole.json")])
    assert main(["conform", "--merge", *reversed(paths), "--no-timings", "--report", str(tmp_path / "all.json")]) == 1
    capsys.readouterr()
    assert (tmp_path / "all.json").read_bytes() == (tmp_path / "whole.json").read_bytes()


def test_merge_names_shards_that_do_not_make_up_the_whole():
    from tests.engines.buggy import QueenBreaksHearts

    parts = {shard: run_conformance(QueenBreaksHearts, Rules(), games=8, vectors=False, shrink_budget=0, spec=BUGGY,
                                    shard=shard) for shard in [(1, 2), (2, 2), (2, 4), (4, 4)]}
    merged = merge_reports([parts[(4, 4)], parts[(2, 4)]], of=(2, 2))      # shard 2/2, split again in two
    assert merged.dumps(timings=False) == parts[(2, 2)].dumps(timings=False)
    with pytest.raises(RecordError, match="shard 1/2 is not part of shard 2/2"):
        merge_reports([parts[(1, 2)], parts[(2, 2)]], of=(2, 2))
    with pytest.raises(RecordError, match="different splits"):
        merge_reports([parts[(1, 2)], parts[(2, 4)]], of=(2, 2))
    with pytest.raises(RecordError, match="shard 4/4 missing"):
        merge_reports([parts[(2, 4)]], of=(2, 2))


@pytest.mark.parametrize("spoil, says", [
    (lambda finding: finding.update(rule_ids=5), "findings[0].rule_ids: 5 is not of type 'array'"),
    (lambda finding: finding.update(message=["x"]), "findings[0].message: ['x'] is not of type 'string'"),
    (lambda finding: finding.update(kind=None), "findings[0].kind: null is not one of"),
])
def test_merge_names_the_case_whose_findings_are_malformed(spoil, says, tmp_path, capsys):
    """A report whose finding is not as the runner writes it (what tells findings apart is unreadable) is bad input:
    one line naming the file and the JSON path of what is wrong, exit code 2, no traceback."""
    from tests.engines.buggy import QueenBreaksHearts

    data = run_conformance(QueenBreaksHearts, Rules(), games=4, vectors=False, shrink_budget=0, spec=BUGGY).to_dict()
    k, case = next((k, case) for k, case in enumerate(data["cases"]) if case.get("findings"))
    spoil(case["findings"][0])
    path = tmp_path / "spoiled.json"
    path.write_text(json.dumps(data))
    assert main(["conform", "--merge", str(path), "--report", str(tmp_path / "merged.json")]) == 2
    err = capsys.readouterr().err
    assert f"{path}: cases[{k}].{says}" in err and "Traceback" not in err and len(err.splitlines()) == 1
    assert not (tmp_path / "merged.json").exists()


def test_run_campaign_in_jobs_from_python_gives_the_same_report():
    campaign = Campaign("reference", Rules(max_rounds=1), games=8, vectors=False)
    one = run_campaign(campaign)
    two = run_campaign(Campaign("reference", Rules(max_rounds=1), games=8, vectors=False, jobs=2))
    assert one.dumps(timings=False) == two.dumps(timings=False) and one.summary()["counts"]["passed"] == 10


def test_a_run_stopped_before_its_first_case_says_nothing_was_judged():
    """Not PASS: an incomplete report without a case judged nothing (and counts no situation)."""
    from hearts_ref.conformance.report import Case, Report
    from hearts_ref.conformance.summary import console_summary

    report = Report({"spec": "x", "name": "x", "version": "", "capabilities": {}}, Rules().to_dict(), 0, 10, 0,
                    [[1, 1]])
    report.incomplete = {"reason": "stopped by SIGTERM after 0 cases"}
    text = console_summary(report)
    assert "verdict: NOTHING JUDGED" in text and "PASS" not in text and "situations played through" not in text
    report.cases.append(Case("vector/x", "vector", "passed"))
    assert "verdict: PASS (of an incomplete run)" in console_summary(report)


def test_a_run_without_games_counts_no_rounds_but_says_so(capsys):
    # Only the vectors and the perft deals ran: "(0 rounds, …)" would read as games that played nothing.
    assert main(["conform", "--engine", "reference", "--games", "0"]) == 0
    counts = next(line for line in capsys.readouterr().out.splitlines() if " cases: " in line)
    assert counts.endswith(", no game played)") and "rounds" not in counts
    from hearts_ref.conformance.summary import console_summary
    from tests.engines.buggy import QueenBreaksHearts
    report = run_conformance(QueenBreaksHearts, Rules(), games=1, seed=0, vectors=False, shrink_budget=0)
    counts = next(line for line in console_summary(report).splitlines() if " cases: " in line)
    assert f"({report.rounds} rounds, " in counts and report.rounds > 0


@pytest.mark.parametrize("engine, why", [
    ("tests.engines.python_engines:CitesTheWrongRule", "check(s) bad: see the rule table's 'checks bad'"),
    ("tests.engines.planted:BrokenAtTrickEnd", "illegal move(s) offered were all refused, none citing a wrong rule; "
                                               "these games failed on what their moves showed"),
    ("tests.engines.planted:HeartsLedAnyTime", "legal set allows is not offered, its legal set is the finding"),
])
def test_the_console_says_why_the_games_of_negative_checks_failed(engine, why, capsys):
    """By their checks (an engine that cites the wrong rule in every refusal), or by what their moves show (hearts
    broken late, every refusal right; hearts led any time, which its legal sets show, not offered as checks): not a
    bare count that reads as illegal moves taken, nor one that reads as illegal moves refused."""
    assert main(["conform", "--engine", f"python:{engine}", "--games", "8", "--shrink-time", "0"]) == 1
    line = next(line for line in capsys.readouterr().out.splitlines() if line.startswith("  negatives:"))
    assert " failed (" in line and why in line, line
