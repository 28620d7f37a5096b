"""``hearts-ref conform``: reports that follow their schema, shards that merge, replays, exit codes."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from xml.etree import ElementTree

import jsonschema
import pytest

from hearts_ref.cli import main
from hearts_ref.conformance.report import Report, load_report, merge_reports
from hearts_ref.conformance.runner import run_conformance, run_differential
from hearts_ref.engine import ReferenceEngine
from hearts_ref.engines.load import load_engine
from hearts_ref.errors import HeartsError, RecordError
from hearts_ref.variants import Rules
from tests.engines.buggy import QueenBreaksHearts
from hearts_ref.conformance.shrink import Budget

SHRINK = Budget(seconds=None, replays=300)   # counted in games replayed: the same shrink on any machine

ROOT = Path(__file__).resolve().parent.parent
SCHEMA = json.loads((ROOT / "spec" / "report.schema.json").read_text(encoding="utf-8"))
REFERENCE = "python:hearts_ref.engine:ReferenceEngine"
BUGGY = "python:tests.engines.buggy:QueenBreaksHearts"


def _validate(report: dict) -> None:
    jsonschema.Draft202012Validator(SCHEMA).validate(report)


def test_report_schema_is_valid_and_fits_a_failing_report():
    jsonschema.Draft202012Validator.check_schema(SCHEMA)
    report = run_conformance(QueenBreaksHearts, Rules(), games=8, seed=2, shrink_budget=SHRINK, spec=BUGGY)
    data = json.loads(report.dumps())
    _validate(data)
    failed = [c for c in data["cases"] if c["status"] == "failed" and c["kind"] == "differential"]
    assert failed and "reproduction" in failed[0] and all("reproduction" in c or "same_finding_as" in c for c in failed)
    assert all(c["rule_ids"] == ["BREAK-QUEEN"] for c in failed)
    vectors = [c for c in data["cases"] if c["kind"] == "vector" and c["status"] == "failed"]
    assert vectors and all(c["reason"] and "failure" in c for c in vectors)   # each says where it went wrong
    assert any("hearts_broken" in c["reason"] for c in vectors)
    with pytest.raises(jsonschema.ValidationError):   # the schema does reject a wrong status
        _validate(data | {"cases": [failed[0] | {"status": "broken"}]})


def test_every_case_is_accounted_for_under_a_time_limit():
    report = run_conformance(ReferenceEngine, Rules(), games=40, seed=1, time_limit=0.0)
    counts = report.summary()["counts"]
    from hearts_ref.perft import perft_names
    from hearts_ref.vectors import load_vectors
    expected = len(load_vectors()) + len(perft_names()) + 40 + 10   # vectors, perft, games, negative games
    assert sum(counts.values()) == len(report.cases) == expected
    assert all(c.reason for c in report.cases if c.status == "skipped")
    assert any("time limit" in c.reason for c in report.cases)


def test_shards_merge_into_the_whole_campaign():
    rules = Rules(max_rounds=2)
    whole = run_differential(ReferenceEngine, rules, 9, 4, negative_games=3)
    parts = [run_differential(ReferenceEngine, rules, 9, 4, negative_games=3, shard=(k, 3)) for k in (1, 2, 3)]
    assert sorted(len(p.cases) for p in parts) == [4, 4, 4]
    merged = merge_reports(list(reversed(parts)))
    assert [c.id for c in merged.cases] == [c.id for c in whole.cases]     # in the order one process plays
    assert merged.shards == [[1, 1]] and merged.rounds == whole.rounds
    assert merged.checks == whole.checks
    assert merged.dumps(timings=False) == whole.dumps(timings=False)        # the same report, byte for byte
    _validate(merged.to_dict())
    with pytest.raises(RecordError):   # the same shard twice
        merge_reports([parts[0], parts[0]])
    with pytest.raises(RecordError):   # another campaign
        merge_reports([parts[0], run_differential(ReferenceEngine, rules, 9, 5, shard=(2, 3))])


def test_conform_writes_reports_and_exits_zero_on_the_reference(tmp_path, capsys):
    report, junit = tmp_path / "r.json", tmp_path / "r.xml"
    code = main(["conform", "--engine", REFERENCE, "--games", "6", "--set", "max_rounds=1",
                 "--report", str(report), "--junit", str(junit)])
    assert code == 0
    out = capsys.readouterr().out
    assert "verdict: PASS" in out and "vectors" in out
    data = json.loads(report.read_text(encoding="utf-8"))
    _validate(data)
    suite = ElementTree.parse(junit).getroot().find("testsuite")
    assert suite.get("tests") == str(len(data["cases"])) and suite.get("failures") == "0"


def test_conform_finds_a_bug_and_its_replay_command_reproduces_it(tmp_path, capsys):
    report, junit = tmp_path / "r.json", tmp_path / "r.xml"
    code = main(["conform", "--engine", BUGGY, "--games", "6", "--shrink-time", "2",
                 "--report", str(report), "--junit", str(junit)])
    out = capsys.readouterr().out
    assert code == 1 and "BREAK-QUEEN" in out and "verdict: FAIL" in out
    command = next(line.split("replay: ", 1)[1] for line in out.splitlines() if "replay: hearts-ref conform" in line)
    words = command.split()
    assert words[:4] == ["hearts-ref", "conform", "--engine", BUGGY]
    assert main(words[1:]) == 1
    replay = capsys.readouterr().out
    assert "BREAK-QUEEN" in replay and "plays:" in replay
    assert main(["conform", "--engine", REFERENCE] + words[4:]) == 0
    fixed = capsys.readouterr().out
    assert fixed.startswith("no deviation: the engine agrees with the reference at every step of the case's game, "
                            "played to its end (") and "BREAK-QUEEN" not in fixed
    failures = ElementTree.parse(junit).getroot().iter("failure")
    assert any("--replay hr1:" in (f.text or "") for f in failures)
    # A case of the JSON report, saved as a file, replays as well.
    case = next(c for c in json.loads(report.read_text(encoding="utf-8"))["cases"] if "reproduction" in c)
    (tmp_path / "case.json").write_text(json.dumps(case["reproduction"]["case"]), encoding="utf-8")
    assert main(["conform", "--engine", BUGGY, "--replay", str(tmp_path / "case.json")]) == 1


def test_conform_merge_command(tmp_path, capsys):
    paths = []
    for k in (1, 2):
        path = tmp_path / f"s{k}.json"
        assert main(["conform", "--engine", BUGGY, "--games", "4", "--shard", f"{k}/2", "--shrink-time", "0",
                     "--no-vectors", "--report", str(path)]) == 1
        paths.append(str(path))
    capsys.readouterr()
    assert main(["conform", "--merge", *paths, "--report", str(tmp_path / "all.json")]) == 1
    merged = load_report(str(tmp_path / "all.json"))
    assert merged.shards == [[1, 1]] and len(merged.cases) == 4 + 1


@pytest.mark.parametrize("argv, message", [
    (["conform"], "--engine SPEC is required"),
    (["conform", "--engine", REFERENCE, "--shard", "3/2"], "--shard"),
    (["conform", "--engine", "python:no_such_module:Engine"], "no module named"),
    (["conform", "--engine", "python:hearts_ref.cards:Card"], "Card() failed"),
    (["conform", "--engine", "python:hearts_ref.cards:TWO_OF_CLUBS"], "not a class or a factory"),
    (["conform", "--engine", "tests.engines.python_engines:CapabilitiesAsDict"],
     "capabilities() returned dict, not hearts_ref.engine.Capabilities"),   # as a hello with bad capabilities
    (["conform", "--engine", REFERENCE, "--replay", "hr1:xx"], "--replay"),
    (["conform", "--engine", REFERENCE, "--set", "moon=double"], "moon"),
    (["conform", "--merge", "/no/such/file.json"], "/no/such/file.json"),
])
def test_invalid_conform_input_exits_2_with_one_line(argv, message, capsys):
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1 and "Traceback" not in err


def test_report_round_trips_through_json():
    report = run_differential(QueenBreaksHearts, Rules(), 3, 0, shrink_budget=0)
    again = Report.from_dict(json.loads(report.dumps()))
    assert again.to_dict() == report.to_dict()


def _installed_plugin() -> bool:
    """Whether pytest finds the plugin by itself (an installed hearts-ref registers its entry point)."""
    from importlib.metadata import entry_points
    return any(ep.value == "hearts_ref.pytest_plugin" for ep in entry_points(group="pytest11"))


# As a user runs it: the installed entry point loads the plugin; from a bare checkout, -p loads it.
PLUGIN = ["-m", "pytest", *([] if _installed_plugin() else ["-p", "hearts_ref.pytest_plugin"]),
          "-p", "no:cacheprovider", "-q", "--hearts-games", "2", "--hearts-shrink-time", "0"]


def _pytest(tmp_path: Path, *args: str) -> subprocess.CompletedProcess:
    env = {"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"}
    return subprocess.run([sys.executable, *PLUGIN, *args, str(tmp_path)], capture_output=True, text=True,
                          cwd=tmp_path, env=env, timeout=300)


def _suite_size(games_per_policy: int = 2) -> int:
    from hearts_ref.perft import perft_names
    from hearts_ref.vectors import load_vectors
    from hearts_ref.conformance.policies import POLICY_NAMES

    games = len(POLICY_NAMES) * games_per_policy
    return len(load_vectors()) + len(perft_names()) + games + max(1, games_per_policy // 2)


def test_pytest_plugin_runs_every_case_as_its_own_item(tmp_path):
    passing = _pytest(tmp_path, "--hearts-engine", "hearts_ref.engine:ReferenceEngine", "--hearts-set",
                      "max_rounds=1")
    assert passing.returncode == 0, passing.stdout[-2000:]
    assert f"{_suite_size()} passed" in passing.stdout   # each vector, perft deal, game and negative game
    failing = _pytest(tmp_path, "--hearts-engine", "tests.engines.buggy:QueenBreaksHearts")
    assert failing.returncode == 1
    assert "hearts-ref::differential/moon/4" in failing.stdout and "BREAK-QUEEN" in failing.stdout
    assert "hearts-ref::vector/break-queen.queen-does-not-break" in failing.stdout
    assert "replay: hearts-ref conform --engine tests.engines.buggy:QueenBreaksHearts --replay hr1:" \
        in failing.stdout


def test_pytest_xdist_spreads_the_cases_over_its_workers(tmp_path):
    result = _pytest(tmp_path, "-n", "2", "-vv", "--hearts-engine", "hearts_ref.engine:ReferenceEngine",
                     "--hearts-set", "max_rounds=1")
    assert result.returncode == 0, result.stdout[-2000:]
    assert f"{_suite_size()} passed" in result.stdout
    ran = [line.split()[0] for line in result.stdout.splitlines() if " PASSED " in line and "hearts-ref::" in line]
    assert len(ran) == _suite_size() and set(ran) == {"[gw0]", "[gw1]"}, set(ran)


def test_pytest_plugin_adds_nothing_without_the_option_and_refuses_its_options_without_it(tmp_path):
    bare = [arg for arg in PLUGIN if not arg.startswith("--hearts-") and arg not in ("2", "0")]
    run = [sys.executable, *bare, str(tmp_path)]
    env = {"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"}
    result = subprocess.run(run, capture_output=True, text=True, cwd=tmp_path, env=env, timeout=300)
    assert result.returncode == 5 and "no tests ran" in result.stdout   # 5: nothing collected
    result = _pytest(tmp_path)   # --hearts-games and --hearts-shrink-time, and no engine (a CI variable unset)
    assert result.returncode == 4 and "ERROR: hearts-ref: --hearts-games, --hearts-shrink-time given without " \
                                      "--hearts-engine: name the engine to judge" in result.stderr, result.stderr


def test_conform_json_prints_the_report_itself(capsys):
    code = main(["conform", "--engine", REFERENCE, "--games", "2", "--set", "max_rounds=1", "--no-vectors",
                 "--json"])
    data = json.loads(capsys.readouterr().out)
    _validate(data)
    assert code == 0 and data["summary"]["counts"]["failed"] == 0 and data["cases"]


def _processes_with(variable: str) -> list[int]:
    """The processes whose environment holds ``variable`` (``NAME=value``), this one's excepted (Linux /proc)."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit() or int(entry.name) == os.getpid():
            continue
        try:
            environment = (entry / "environ").read_bytes().split(b"\0")
        except OSError:   # gone meanwhile, or not ours to read
            continue
        if variable.encode() in environment:
            found.append(int(entry.name))
    return found


@pytest.mark.parametrize("script, verdict", [("hang.py", "timeout"), ("crash.py", "crashed"),
                                             ("garbage.py", "protocol-error")])
def test_a_misbehaving_engine_gets_its_verdict_and_the_run_goes_on(script, verdict, tmp_path, capsys, monkeypatch):
    """Every game is judged: the engine is restarted after each failure, and no process is left behind."""
    report = tmp_path / "r.json"
    monkeypatch.setenv("HEARTS_REF_TEST_RUN", str(tmp_path))   # what this test starts inherits it, and only that
    command = f"{sys.executable} {ROOT / 'tests' / 'engines' / script}"
    code = main(["conform", "--engine", command, "--games", "3", "--negative-games", "0", "--no-vectors",
                 "--shrink-time", "0", "--timeout", "0.5" if script == "hang.py" else "10", "--report", str(report)])
    out = capsys.readouterr().out
    data = json.loads(report.read_text(encoding="utf-8"))
    assert code == 1 and f"{verdict}:" in out and "verdict: FAIL" in out
    games = [c for c in data["cases"] if c["kind"] == "differential"]
    assert len(games) == 3 and all(c["status"] == "error" and f"{verdict}:" in c["reason"] for c in games)
    assert data["summary"]["counts"]["error"] == 3 and data["summary"]["counts"]["failed"] == 0
    table = data["summary"]["rules"]   # an engine failure is in the errors column, never a rule's failure
    assert not any(row["failed"] for row in table.values()) and sum(row["error"] for row in table.values()) == 3
    assert _processes_with(f"HEARTS_REF_TEST_RUN={tmp_path}") == []   # the engines this test started, and theirs


def test_the_failure_of_an_engine_abandoned_since_is_reproduced_on_it(tmp_path, capsys):
    """Three crashes in a row abandon the engine; the crash found is still replayed on it (started again), and fails
    there the same way every time: it is not called flaky, nor left unshrunk."""
    report = tmp_path / "r.json"
    command = f"{sys.executable} {ROOT / 'tests' / 'engines' / 'crash.py'} play 5"
    code = main(["conform", "--engine", command, "--games", "5", "--negative-games", "0", "--no-vectors",
                 "--shrink-time", "2", "--report", str(report)])
    data = json.loads(report.read_text(encoding="utf-8"))
    statuses = [c["status"] for c in data["cases"]]
    assert code == 1 and statuses == ["error"] * 3 + ["abandoned"] * 2, statuses
    replays = data["cases"][0]["error"]["reproduction"]["replays"]
    assert replays["same"] and [run["finding"][0] for run in replays["runs"]] == ["engine-error"] * 3, replays
    # every reply counts, those of a round read in one go before the crash too (about ten a game, and its replays)
    assert data["engine"]["replies"]["count"] >= 50
    out = capsys.readouterr().out
    assert "flaky" not in out.lower()
    # no rule was broken: the console names the failure as the engine's, its stderr on lines of their own
    lines = out.splitlines()
    failure = next(k for k, line in enumerate(lines) if line.startswith("  - engine failure, at a step of "))
    assert "crashed:" in lines[failure] and "\\n" not in lines[failure]
    assert lines[failure + 1].strip() == "--- engine stderr (last lines) ---"


def test_a_replayed_crash_is_named_the_engines_and_shows_even_when_another_finding_was_named(tmp_path, capsys):
    """--replay of an engine failure says so, its stderr on lines of their own; a case that plays on to a finding
    that no longer shows still shows the game's first difference (exit 1), never "no deviation"."""
    command = f"{sys.executable} {ROOT / 'tests' / 'engines' / 'crash.py'} play 5"
    report = tmp_path / "r.json"
    assert main(["conform", "--engine", command, "--games", "1", "--negative-games", "0", "--no-vectors",
                 "--shrink-time", "1", "--report", str(report), "--junit", str(tmp_path / "j.xml")]) == 1
    capsys.readouterr()
    first = json.loads(report.read_text(encoding="utf-8"))["cases"][0]
    case = first["error"]["reproduction"]["case"]
    error = ElementTree.parse(tmp_path / "j.xml").getroot().find(".//error")   # the minimal game's replay first
    assert error.text.splitlines() == [f"replay (its minimal game): {first['error']['reproduction']['command']}",
                                       f"replay (this game): {first['replay']}"]
    for finding in (None, ["observation", "FOLLOW-VOID"]):
        (tmp_path / "case.json").write_text(json.dumps(case | ({"finding": finding} if finding else {})))
        assert main(["conform", "--engine", command, "--replay", str(tmp_path / "case.json")]) == 1, finding
        lines = capsys.readouterr().out.splitlines()
        failure = next(k for k, line in enumerate(lines) if line.startswith("engine failure at step "))
        assert "crashed: play(" in lines[failure] and "\\n" not in lines[failure]
        assert lines[failure + 1].strip() == "--- engine stderr (last lines) ---"
        assert any("which did not show" in line for line in lines) == (finding is not None)


def test_an_engine_program_that_crashes_is_shrunk_as_far_as_the_same_engine_in_process():
    """The crash at every Q♠ shrinks to the game it shrinks to in process (its candidates stopped at a step limit
    send no moves past it: the engine never ends on a move nobody judged, to fail the next candidate's new_game)."""
    from tests.engines.python_engines import CrashesOnTheQueen

    program = load_engine(f"{sys.executable} {ROOT / 'tests' / 'engines' / 'crash_queen.py'}")
    try:
        budget = Budget(seconds=None, replays=100)   # a crash restarts the program: each replay that shows it costs one
        shrunk = [run_differential(engine, Rules(), 1, 0, shrink_budget=budget).cases[0].details["error"]["reproduction"]
                  for engine in (CrashesOnTheQueen, program)]
    finally:
        program.close()
    assert [(r["tricks"], r["steps"], r["search"]["replays"]) for r in shrunk] == [(2, 9, 100)] * 2
    assert shrunk[0]["case"] == shrunk[1]["case"]


@pytest.mark.parametrize("change, says", [
    ({"version": 2}, "a case of version 2"),
    ({"script": [0, -1]}, "none below 0"),
    ({"script": [True, 0]}, "'script' must be a list of whole numbers"),
    ({"rules": {"players": 9}}, "rules: players: 9 is not allowed"),
    ({"rules": "QS"}, "'rules' must be an object"),
    ({"mode": "both"}, "'mode' must be 'differential' or 'negative'"),
    ({"finding": ["engine-error"]}, "'finding' must be [kind, rule] ([kind, cause] for an engine failure)"),
])
def test_a_broken_replay_case_is_refused_naming_the_file(change, says, tmp_path, capsys):
    case = {"format": "hearts-ref-conform-case", "version": 1, "rules": {}, "mode": "differential", "script": [0]}
    path = tmp_path / "case.json"
    path.write_text(json.dumps(case | change), encoding="utf-8")
    assert main(["conform", "--engine", REFERENCE, "--replay", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"hearts-ref conform: error: {path}: ") and says in err and err.count("\n") == 1, err


def test_a_replay_token_with_text_around_it(capsys):
    """A token with spaces around it is a token (not a file name); one with text after its end is refused."""
    from hearts_ref.conformance.outcomes import case_of
    from hearts_ref.conformance.script import encode_case

    token = encode_case(case_of(Rules(), [0], False))
    assert main(["conform", "--engine", REFERENCE, "--replay", f" {token} "]) == 0
    assert "no deviation" in capsys.readouterr().out
    assert main(["conform", "--engine", REFERENCE, "--replay", token + "xyz"]) == 2
    assert "not a replay token" in capsys.readouterr().err


def test_a_case_of_a_json_report_replays_and_a_whole_report_is_refused(tmp_path, capsys):
    report = run_conformance(QueenBreaksHearts, Rules(), games=6, seed=2, shrink_budget=SHRINK, vectors=False,
                             spec=BUGGY)
    data = json.loads(report.dumps())
    finding = next(c for c in data["cases"] if "reproduction" in c)
    (tmp_path / "finding.json").write_text(json.dumps(finding), encoding="utf-8")
    assert main(["conform", "--engine", BUGGY, "--replay", str(tmp_path / "finding.json")]) == 1
    assert "BREAK-QUEEN" in capsys.readouterr().out
    (tmp_path / "report.json").write_text(json.dumps(data), encoding="utf-8")
    assert main(["conform", "--engine", BUGGY, "--replay", str(tmp_path / "report.json")]) == 2
    err = capsys.readouterr().err
    assert "whole report" in err and finding["id"] in err and "Traceback" not in err


def test_invalid_replay_files_and_limits_exit_2_with_one_line(tmp_path, capsys):
    (tmp_path / "latin1.json").write_bytes("{\"format\": \"æ\"}".encode("latin-1"))
    cases = [(["--replay", str(tmp_path)], "is a folder"),
             (["--replay", str(tmp_path / "missing.json")], "no such file"),
             (["--replay", str(tmp_path / "latin1.json")], "not UTF-8"),
             (["--time-limit", "-1"], "--time-limit"),
             (["--time-limit", "0"], "--time-limit"),
             (["--shrink-time", "-1"], "--shrink-time")]
    for argv, message in cases:
        assert main(["conform", "--engine", REFERENCE, *argv]) == 2, argv
        err = capsys.readouterr().err
        assert message in err and err.count("\n") == 1 and "Traceback" not in err, (argv, err)


def test_merge_and_replay_word_the_errors_of_a_file_alike(tmp_path, capsys):
    """A file --merge cannot read gets the line --replay gives it (and every other reader): the file, then why."""
    (tmp_path / "latin1.json").write_bytes("{\"format\": \"\u00e6\"}".encode("latin-1"))
    (tmp_path / "cut.json").write_text('{"format": ', encoding="utf-8")
    for name, message in [(".", "cannot read the file: it is a folder"), ("missing.json", "cannot read the file: no such file"),
                          ("latin1.json", "byte 12: not UTF-8"), ("cut.json", "line 1 column 12: not valid JSON")]:
        path = str(tmp_path / name)
        said = []
        for argv in (["--merge", path], ["--engine", REFERENCE, "--replay", path]):
            assert main(["conform", *argv]) == 2, argv
            said.append(capsys.readouterr().err)
        assert said[0] == said[1] and message in said[0] and said[0].count("\n") == 1, (name, said)


def test_merge_refuses_a_shard_that_lacks_its_games_or_holds_another_shards(tmp_path, capsys):
    """A shard's report that lacks games of its shard (and is not marked incomplete), or holds a game twice or one of
    another shard, is not that shard's report: exit 2, nothing written."""
    paths = [tmp_path / f"s{k}.json" for k in (1, 2)]
    for k, path in enumerate(paths, 1):
        assert main(["conform", "--engine", REFERENCE, "--games", "4", "--negative-games", "2", "--shard", f"{k}/2",
                     "--no-vectors", "--report", str(path)]) == 0
    capsys.readouterr()
    whole = json.loads(paths[0].read_text(encoding="utf-8"))
    other = json.loads(paths[1].read_text(encoding="utf-8"))["cases"][0]   # differential game 1, of shard 2/2
    spoiled = {"lacks": [c for c in whole["cases"] if c["id"] != "differential/uniform/0"],
               "twice": whole["cases"] + whole["cases"][:1],
               "stray": whole["cases"] + [other]}
    says = {"lacks": "lacks 1 of its 2 differential games (the first: 0)", "twice": "twice: 0",
            "stray": "it does not play, or twice: 1"}
    for name, cases in spoiled.items():
        path = tmp_path / f"{name}.json"
        path.write_text(json.dumps(whole | {"cases": cases}), encoding="utf-8")
        assert main(["conform", "--merge", str(path), str(paths[1]), "--report", str(tmp_path / "all.json")]) == 2
        err = capsys.readouterr().err
        assert "the report of shard 1/2" in err and says[name] in err and err.count("\n") == 1, err
        assert not (tmp_path / "all.json").exists()
    # a report that claims a trillion games, merged alone: refused at once (the check's work is the cases')
    path = tmp_path / "claims.json"
    path.write_text(json.dumps(whole | {"games": 10**12, "shards": [[1, 1]]}), encoding="utf-8")
    assert main(["conform", "--merge", str(path)]) == 2
    assert "lacks 999999999998 of its 1000000000000 differential games (the first: 1)" in capsys.readouterr().err
    path.write_text(json.dumps(whole | {"shards": [[1, 10**12]]}), encoding="utf-8")   # or a trillion shards
    assert main(["conform", "--merge", str(path)]) == 2
    assert "shard 2/1000000000000, 3/1000000000000" in capsys.readouterr().err


def test_merge_with_an_engine_is_refused(tmp_path, capsys):
    assert main(["conform", "--merge", str(tmp_path / "a.json"), "--engine", REFERENCE]) == 2
    assert "--merge joins reports and plays nothing: drop --engine" in capsys.readouterr().err


def test_merge_refuses_a_campaign_with_a_missing_shard(tmp_path, capsys):
    path = tmp_path / "s1.json"
    assert main(["conform", "--engine", REFERENCE, "--games", "2", "--shard", "1/3", "--no-vectors",
                 "--report", str(path)]) == 0
    capsys.readouterr()
    assert main(["conform", "--merge", str(path)]) == 2
    err = capsys.readouterr().err
    assert "shard 2/3, 3/3 missing" in err and "Traceback" not in err


def test_games_stopped_by_a_deadlock_are_counted_in_the_summary(capsys):
    assert main(["conform", "--engine", REFERENCE, "--preset", "seed003", "--games", "12", "--no-vectors"]) == 0
    out = capsys.readouterr().out
    line = next(line for line in out.splitlines() if "games stopped early" in line)
    stopped = int(line.split()[0])
    assert 0 < stopped <= 15 and f"the rules deadlock: {stopped}" in line and "has no legal play" in line


def test_a_failed_vector_names_the_command_that_runs_it_alone(capsys):
    assert main(["conform", "--engine", BUGGY, "--games", "0", "--negative-games", "0"]) == 1
    out = capsys.readouterr().out
    replays = [line.split("run alone: ", 1)[1] for line in out.splitlines() if "run alone: hearts-ref vectors run" in line]
    assert replays and all(f"--engine {BUGGY} --case " in command for command in replays)
    assert not any(line.strip().startswith("replay: hearts-ref vectors") for line in out.splitlines())


def test_openspiel_named_without_open_spiel_installed_is_one_error_saying_what_to_install(monkeypatch, capsys):
    monkeypatch.setitem(sys.modules, "pyspiel", None)   # as on a machine without open-spiel: its import fails
    assert main(["conform", "--engine", "openspiel", "--games", "2"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err
    assert "OpenSpiel is not installed" in err and "pip install 'hearts-ref[openspiel]'" in err


@pytest.mark.parametrize("written", ["my_engines.py", "my_engines/__init__.py"])
def test_a_module_of_the_current_folder_named_without_its_attr_gets_the_hint(written, tmp_path, monkeypatch):
    (tmp_path / written).parent.mkdir(exist_ok=True)
    (tmp_path / written).write_text("from hearts_ref.engine import ReferenceEngine as MyEngine\n", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(sys, "path", list(sys.path))   # (the python: spec adds the current folder to it)
    monkeypatch.setattr(sys, "modules", dict(sys.modules))
    with pytest.raises(HeartsError, match=r"a Python engine is named MODULE:ATTR, for example my_engines:MyEngine"):
        load_engine("my_engines")
    assert load_engine("my_engines:MyEngine").name == "hearts-ref"   # and so named, it is found there


@pytest.mark.parametrize("spec, hint", [
    ("my_engine.py", "(my_engine.py is a file of the current folder, but a command without a / is looked up on PATH: "
                     "give ./my_engine.py, or a Python engine in it as my_engine:MyEngine)"),
    ("my_engine.py --fast", "give ./my_engine.py"),
    ("refrence", "(did you mean reference?)"),
    ("opnspiel", "(did you mean openspiel?)"),
])
def test_an_engine_command_that_does_not_start_says_what_was_likely_meant(spec, hint, tmp_path, monkeypatch):
    (tmp_path / "my_engine.py").write_text("print('an engine program')\n", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    with pytest.raises(HeartsError) as raised:
        load_engine(spec)
    assert str(raised.value).startswith("cannot start engine") and hint in str(raised.value), str(raised.value)


def test_the_merge_of_a_run_whose_engine_could_not_start_exits_and_reads_as_that_run(tmp_path, capsys):
    banner = f"{sys.executable} -c \"print('banner')\""
    report = tmp_path / "r.json"
    assert main(["conform", "--engine", banner, "--games", "2", "--report", str(report)]) == 2
    capsys.readouterr()
    assert main(["conform", "--merge", str(report), "--report", str(tmp_path / "all.json")]) == 2   # not 1
    out = capsys.readouterr().out
    assert out.startswith(f"hearts-ref conform: {banner}\n")   # no "?" for the name it never told
    assert out.count("could not be started") == 1   # the skipped steps in one line
    assert "verdict: ENGINE NOT STARTED: protocol-error: bad reply to 'hello' (seq 0): not JSON" in out
    assert "write a banner or log lines to stderr" in out   # the likely cause of a first line not JSON


def test_no_differential_games_asked_for_means_no_negative_games_by_default():
    from hearts_ref.conformance.runner import negative_games_for

    assert [negative_games_for(games, None) for games in (0, 1, 8, 100)] == [0, 1, 2, 25]
    assert negative_games_for(0, 3) == 3   # as asked


def test_junit_failures_of_vectors_and_perft_carry_what_failed_and_the_line_that_runs_them_alone(tmp_path, capsys):
    """A vector's failure names its wrong step and a perft deal's its counts, each with the command that runs that
    case alone; they were an empty ``{}``."""
    junit = tmp_path / "r.xml"
    code = main(["conform", "--engine", "python:tests.engines.planted:HeartsAlwaysPlayable", "--games", "0",
                 "--junit", str(junit)])
    capsys.readouterr()
    assert code == 1
    bodies = {case.get("classname"): json.loads(case.find("failure").text)
              for case in ElementTree.parse(junit).getroot().iter("testcase") if case.find("failure") is not None}
    vector, perft = bodies["hearts-ref.vector"], bodies["hearts-ref.perft"]
    assert vector["failure"]["field"] and "hearts-ref vectors run --engine" in vector["replay"]
    assert "--case " in vector["replay"]
    assert perft["expected"] != perft["actual"] and perft["first_difference"]
    assert perft["replay"].startswith("hearts-ref perft ") and f"--depth {perft['depth']}" in perft["replay"]


def test_an_engine_abandoned_in_the_vectors_still_plays_one_game_whose_crash_is_shrunk(tmp_path, capsys):
    """Three vectors crash in a row and abandon the engine before any game: the first game is played all the same
    (once), so the crash has a minimal game to replay; the games after it stay abandoned."""
    report = tmp_path / "r.json"
    command = f"{sys.executable} {ROOT / 'tests' / 'engines' / 'crash.py'} play 5"
    code = main(["conform", "--engine", command, "--games", "3", "--negative-games", "0", "--shrink-time", "2",
                 "--report", str(report)])
    capsys.readouterr()
    cases = json.loads(report.read_text(encoding="utf-8"))["cases"]
    assert code == 1 and [c["status"] for c in cases if c["kind"] == "vector"][:4] == ["error"] * 3 + ["abandoned"]
    games = [c for c in cases if c["kind"] == "differential"]
    assert [c["status"] for c in games] == ["error", "abandoned", "abandoned"]
    assert "crashed" in games[0]["reason"] and games[0]["error"]["reproduction"]["command"]


def test_a_finding_not_shrunk_is_not_called_minimal_and_says_why(capsys):
    """--shrink-time 0: the finding's game is kept as it was played up to its round, and the summary says so."""
    argv = ["conform", "--engine", "tests.engines.buggy:QueenBreaksHearts", "--games", "4", "--no-vectors"]
    assert main([*argv, "--shrink-time", "0"]) == 1
    text = capsys.readouterr().out
    assert "  findings:\n" in text and "findings (shrunk)" not in text and "minimal game" not in text
    assert "case differential/uniform/0; its game, not shrunk (no shrink budget): 1 round(s), 13 trick(s)" in text
    assert main([*argv, "--shrink-time", "0", "--json"]) == 1
    first = next(c for c in json.loads(capsys.readouterr().out)["cases"] if "reproduction" in c)
    assert first["reproduction"]["search"]["skipped"] == "not shrunk: no shrink budget"
    assert main([*argv, "--shrink-replays", "5000"]) == 1   # shrunk: the game is minimal, and called so
    text = capsys.readouterr().out
    assert "findings (shrunk):" in text and "case differential/uniform/0; minimal game: 1 round(s), 1 trick(s)" in text


def test_the_summary_says_why_cases_were_skipped_most_cases_first(capsys):
    """An engine that plays four players only: its vectors of other tables are skipped, and the summary says so by
    reason (the steps skipped as a whole have their own line), so that a NOTHING JUDGED or a skip count is explained."""
    code = main(["conform", "--engine", "python:tests.engines.python_engines:FourPlayersOnly", "--games", "1",
                 "--preset", "seed003", "--set", "players=3", "--quiet"])
    out = capsys.readouterr().out
    assert code == 2 and "verdict: GAMES NOT JUDGED" in out
    assert "  differential, negative: skipped (engine does not support players=3)\n" in out
    line = next(line for line in out.splitlines() if line.startswith("  skipped cases: "))
    assert line == ("  skipped cases: 12 engine does not support players=3; 12 engine does not support players=5; "
                    "4 engine does not support players=6")


def test_replay_commands_wait_for_the_engine_as_the_run_did(capsys, tmp_path):
    """A run with --timeout 2: each replay line gives --timeout 2 again (a replay of a slow engine would otherwise
    wait 5 s, or time out where the run did not), and vectors run and perft take the option too."""
    report_path = tmp_path / "r.json"
    code = main(["conform", "--engine", "python:tests.engines.planted:AceLow", "--games", "2", "--timeout", "2",
                 "--shrink-time", "0", "--quiet", "--report", str(report_path)])
    out = capsys.readouterr().out
    replays = [line.strip() for line in out.splitlines() if line.strip().startswith(("replay: hearts-ref",
                                                                                      "run alone: hearts-ref"))]
    assert code == 1 and replays and all(" --timeout 2 " in line for line in replays), replays
    assert load_report(report_path).engine["options"] == "--timeout 2"
    vector = next(line for line in replays if " vectors run " in line).removeprefix("run alone: hearts-ref ")
    import shlex
    assert main(shlex.split(vector)) == 1   # the vector still fails, with the option read
    capsys.readouterr()
    assert main(["perft", "shuffled", "--depth", "3", "--engine", "reference", "--timeout", "2"]) == 0


def test_a_declined_value_that_changes_nothing_under_the_rules_does_not_skip_them(capsys):
    """even_out = "uneven" with four players deals 13 each, as "remove" does: an engine that cannot deal uneven hands
    is judged under seed003's four-player game; with three players its games are skipped, with the reason."""
    code = main(["conform", "--engine", "python:tests.engines.python_engines:NoUnevenHands", "--preset", "seed003",
                 "--games", "2", "--quiet", "--json"])
    report = json.loads(capsys.readouterr().out)
    games = [c for c in report["cases"] if c["kind"] == "differential"]
    assert code == 0 and games and all(c["status"] == "passed" for c in games), [c["status"] for c in games]
    code = main(["conform", "--engine", "python:tests.engines.python_engines:NoUnevenHands", "--preset", "seed003",
                 "--set", "players=3", "--games", "2", "--quiet", "--json"])
    report = json.loads(capsys.readouterr().out)
    games = [c for c in report["cases"] if c["kind"] == "differential"]
    assert code == 2 and games and all(c["status"] == "skipped" for c in games)
    assert games[0]["reason"] == "engine does not support even_out='uneven'"
