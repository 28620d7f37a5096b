"""The command line: `hearts-ref play` and `hearts-ref rules`, run as real subprocesses."""

import json
import subprocess
import sys

import jsonschema
import pytest

from tests.test_variants import ROOT


def run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "hearts_ref", *args], capture_output=True, text=True,
                          cwd=ROOT, timeout=600)


def test_play_transcript_shows_tricks_scores_and_winners():
    result = run("play", "--seed", "4")
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert "Round 1: dealer seat 0, pass left" in out and "2♣" in out
    assert "trick 13:" in out and "totals" in out and "Game over after" in out
    assert "Traceback" not in out + result.stderr


def test_play_same_seed_same_game_and_json_record_matches_schema():
    first, second = run("play", "--seed", "9", "--json"), run("play", "--seed", "9", "--json")
    assert first.stdout == second.stdout
    record = json.loads(first.stdout)
    schema = json.loads((ROOT / "spec" / "record.schema.json").read_text(encoding="utf-8"))
    jsonschema.validate(record, schema)
    assert record["rounds"][0]["tricks"][0]["cards"][0] == "2C"
    assert sum(sum(r["points"]) for r in record["rounds"]) == 26 * len(record["rounds"])
    assert max(record["totals"]) >= 100 and record["winners"]


def test_play_a_game_that_would_not_end_soon_is_refused_in_one_line():
    """END-THRESHOLD out of reach (and no max_rounds): play stops after ROUND_LIMIT rounds, prints nothing of the game,
    says why in one line and exits 2; under max_rounds the same threshold ends the game."""
    from hearts_ref.commands.play import ROUND_LIMIT

    result = run("play", "--set", "end_threshold=99999999999")
    assert result.returncode == 2 and result.stdout == "" and result.stderr.count("\n") == 1, result.stderr
    assert f"had not ended after {ROUND_LIMIT} rounds" in result.stderr and "end_threshold=99999999999" in result.stderr
    capped = run("play", "--set", "end_threshold=99999999999", "--set", "max_rounds=3")
    assert capped.returncode == 0 and "Game over after 3 rounds" in capped.stdout


def test_play_preset_and_settings_change_the_rules():
    record = json.loads(run("play", "--preset", "seed004", "--set", "jd_bonus=true", "--set",
                            "end_threshold=30", "--json").stdout)
    assert record["rules"]["hearts_broken_by"] == "any-heart" and record["rules"]["jd_bonus"] is True
    assert all(sum(r["points"]) == 16 for r in record["rounds"])
    header = run("play", "--set", "players=3", "--set", "pass_cards=false").stdout.splitlines()[0]
    assert header.endswith("(players=3, pass_cards=false)")   # as --set takes them, not Python's False


@pytest.mark.parametrize("args, message", [
    (["play", "--set", "moon=double"], "moon: 'double' is not allowed"),
    (["play", "--set", "players=3"], "pass_cycle"),
    (["play", "--set", "nonsense"], "not of the form name=value"),
    (["play", "--preset", "nosuch"], "unknown preset 'nosuch'"),
    (["play", "--preset", "seed00"], "unknown preset 'seed00'; did you mean seed000 or seed001 or seed002?"),
    (["conform", "--engine", "reference", "--set", "moon=ad"], "did you mean add?"),
    (["play", "--seed", "x"], "invalid int value"),
    (["frobnicate"], "invalid choice"),
    (["play", "--set", 'players="4"'], 'players: "4" is in quotes, but players is a whole number'),
    (["--bogus"], "unrecognized arguments: --bogus"),
    (["--bogus", "play"], "unrecognized arguments: --bogus"),
    (["vectors", "--bogus"], "hearts-ref vectors: error: unrecognized arguments: --bogus"),
    (["vectors", "run", "--bogus"], "hearts-ref vectors: error: unrecognized arguments: --bogus"),
    (["vectors"], "hearts-ref vectors: error: give an ACTION: generate or run"),
    ([], "give a COMMAND: play, rules"),
])
def test_invalid_arguments_one_line_exit_2(args, message):
    result = run(*args)
    assert result.returncode == 2
    assert message in result.stderr and "Traceback" not in result.stderr
    assert len(result.stderr.strip().splitlines()) <= 2


def test_play_first_no_points_a_deadlock_prints_the_game_up_to_it_and_exits_1():
    """seed003's discard restriction (FOLLOW-VOID) deadlocks seed 18 in round 1: play stops there."""
    result = run("play", "--preset", "seed003", "--seed", "18")
    assert result.returncode == 1 and "Traceback" not in result.stderr
    lines = result.stdout.splitlines()
    assert "  trick  8: seat 1 leads  10♣  -> seat 2 holds 2♥ 6♥ 7♥ 9♥ K♥ A♥ and has no legal play" in lines
    assert lines[-2] == "  final      0     0     0     0"
    assert lines[-1].startswith("Game stopped in round 1: FOLLOW-VOID: seat 2 has no legal play")
    assert "no winners" in lines[-1] and "Winner" not in result.stdout
    assert result.stderr == ("hearts-ref play: the rules deadlock in round 1: FOLLOW-VOID: seat 2 has no legal play: "
                             "hand 2♥ 6♥ 7♥ 9♥ K♥ A♥, trick so far 10♣; these rules can deadlock\n")


def test_play_json_a_deadlocked_game_record_matches_the_schema():
    result = run("play", "--preset", "seed003", "--seed", "23", "--json")
    assert result.returncode == 1 and result.stderr.startswith("hearts-ref play: the rules deadlock in round 6: ")
    record = json.loads(result.stdout)
    schema = json.loads((ROOT / "spec" / "record.schema.json").read_text(encoding="utf-8"))
    jsonschema.validate(record, schema)
    deadlock = record["deadlock"]
    assert len(record["rounds"]) == 5 and deadlock["number"] == 6 and record["winners"] == []
    assert record["totals"] == [sum(r["scores"][seat] for r in record["rounds"]) for seat in range(4)]   # unchanged
    assert (deadlock["rule"], deadlock["seat"], deadlock["hand"]) == ("FOLLOW-VOID", 0, ["6H", "9H", "QH", "KH", "AH"])
    assert deadlock["plays"][0] == "2C" and deadlock["plays"][-2:] == ["8C", "AC"]


def test_play_set_accepts_a_string_in_double_quotes_as_the_spec_writes_it():
    quoted = run("play", "--seed", "3", "--set", 'moon="subtract"', "--set", 'hearts_broken_by = "any-heart"', "--json")
    bare = run("play", "--seed", "3", "--set", "moon=subtract", "--set", "hearts_broken_by=any-heart", "--json")
    assert quoted.returncode == 0, quoted.stderr
    assert json.loads(quoted.stdout)["rules"]["moon"] == "subtract"
    assert quoted.stdout == bare.stdout


def test_rules_lists_every_spec_rule():
    result = run("rules", "--json")
    rules = json.loads(result.stdout)
    ids = [r["id"] for r in rules]
    assert "LEAD-OPEN" in ids and "SCORE-MOON" in ids and len(ids) == len(set(ids)) >= 27
    table = run("rules").stdout
    assert table.splitlines()[0].split()[0] == ids[0]
