"""`hearts-ref diff`: exit codes (0 equivalent, 1 different, 2 bad input), the transcript, the JSON, and game
records that `hearts-ref referee` accepts under each side's rules — and rejects, at the parting play with the rule
the other side applies, under the other side's."""

import json
import re

import jsonschema
import pytest

from hearts_ref.diff.rulesets import parse_side
from hearts_ref.errors import RulesError
from hearts_ref.record_reader import record_from_json
from hearts_ref.referee import referee
from hearts_ref.variants import Rules
from tests.test_cli import run
from tests.test_variants import ROOT

SCHEMA = json.loads((ROOT / "spec" / "record.schema.json").read_text(encoding="utf-8"))


def test_diff_of_two_presets_draws_the_smallest_game_and_each_parameter():
    result = run("diff", "seed000", "seed001")
    assert result.returncode == 1, result.stderr
    out = result.stdout
    assert 'They differ in first_trick_points (exception / forbidden), end_comparison (">=" / ">").' in out
    assert "DIFFERENT: the sides part in round 1 at play 2: the legal plays (FIRST-NO-POINTS" in out
    assert "It is the smallest game" in out and "  trick  1 (play 1): seat 0 leads  2♣\n  -> play 2: seat 1" in out
    assert "seed001: allows no card: FIRST-NO-POINTS leaves seat 1 no legal play" in out
    assert "Replayed on the reference engine under both rulesets" in out
    assert 'end_comparison: seed000 against seed000 end_comparison=">": differs in round 4 at play 52' in out
    assert "Traceback" not in out + result.stderr


def test_diff_of_a_difference_in_hearts_broken_says_the_first_play_it_changes():
    result = run("diff", "seed000", "seed004")
    assert result.returncode == 1, result.stderr
    out = result.stdout
    assert "DIFFERENT: the sides part in round 1 at play 5: whether hearts are broken" in out
    said = re.search(r"What it changes in play: the first play found whose legal cards differ is play (\d+) of round 1 "
                     r"\(LEAD-HEARTS\), after play (\d+) broke hearts on one side only \(the soonest found, "
                     r"not proved the soonest: z3 proves no play before play 9 can show different legal cards\)\. "
                     r"The round that reaches it \(a deal of its own, not the smallest game's\):", out)
    assert said and int(said[2]) < int(said[1]), out
    assert f"  -> play {said[1]}: seat " in out and "seed000: allows " in out and "LEAD-HEARTS forbids" in out
    # each trick line numbers its plays, and the play that broke hearts on one side is named by its number
    broken, first = int(said[2]), (int(said[2]) - 1) // 4 * 4 + 1
    assert re.search(rf"  trick +{first // 4 + 1} \(plays {first}–{first + 3}\): seat \d leads ", out), out
    assert re.search(rf"  play {broken} \(\S+\) breaks hearts on one side only\n  -> play {said[1]}: ", out), out
    assert "(hearts broken, BREAK-DISCARD: hearts_broken_by=any-heart)" in out


def test_diff_of_an_equivalent_pair_says_what_the_proof_covers_and_exits_0():
    result = run("diff", "openspiel", "ties=play-on")
    assert result.returncode == 0, result.stderr
    assert "openspiel against openspiel ties=play-on" in result.stdout
    assert "EQUIVALENT in play (proved)" in result.stdout and "after round 1, the last a game can reach" in result.stdout


def test_diff_json_and_records_pass_the_referee_under_their_own_rules(tmp_path):
    result = run("diff", "seed000", "seed000 qs_breaks_hearts=true", "--json", "--records", str(tmp_path))
    assert result.returncode == 1, result.stderr
    data = json.loads(result.stdout)
    difference = data["difference"]
    assert data["version"] == 1 and data["verdict"] == "different" and data["differ_in"] == ["qs_breaks_hearts"]
    assert (difference["kind"], difference["round"], difference["play"], difference["card"]) == ("broken", 1, 2, "QS")
    assert difference["rules"] == ["BREAK-QUEEN"] and difference["values"]["hearts_broken"] == [False, True]
    assert difference["game"][0]["plays"] == ["2C", "QS"] and difference["transcript"]
    consequence = data["consequence"]   # hearts broken restricts a lead here: the first play it changes
    assert consequence["rules"] == ["LEAD-HEARTS", None] and consequence["broken_card"] == "QS"
    assert consequence["broken_at"] < consequence["play"] == len(consequence["game"][0]["plays"]) + 1
    assert consequence["a"]["applies"] == ["LEAD-HEARTS", "BREAK-QUEEN"]
    # played on from the smallest game, it reaches the play z3 proves no round can come before
    assert consequence["soonest"] and consequence["bound"]["play"] == consequence["play"] == 5
    assert consequence["claim"].startswith("proved the soonest with z3") and consequence["games"] == 0
    for side in ("a", "b"):
        record = json.loads((tmp_path / f"{side}.json").read_text(encoding="utf-8"))
        assert record == difference["records"][side]
        jsonschema.validate(record, SCHEMA)
    checked = run("referee", str(tmp_path / "a.json"), str(tmp_path / "b.json"))
    assert checked.returncode == 0 and checked.stdout.count(": valid (1 round)") == 2, checked.stdout


@pytest.mark.parametrize("b, rule", [("seed001", "FIRST-NO-POINTS"), ("seed000 can_lead_any_club=true", "LEAD-OPEN"),
                                     ("seed000 must_break_hearts=false", "LEAD-HEARTS")])
def test_the_record_of_the_side_that_allows_a_card_breaks_the_other_sides_rule(b, rule):
    """Refereed under the other side's rules, a record fails at the parting play, naming the rule that side applies."""
    data = json.loads(run("diff", "seed000", b, "--json").stdout)
    difference = data["difference"]
    legal_a, legal_b = (set(text.split()) for text in difference["values"]["legal"])
    allowing = "a" if legal_a - legal_b else "b"          # the side that allows a card the other forbids
    other = parse_side(data["b" if allowing == "a" else "a"]["label"]).rules
    record = dict(difference["records"][allowing], rules=other.to_dict())
    verdict = referee(record_from_json(record))
    first = verdict.findings[0]
    assert first.rule_id == rule and first.illegal
    assert first.where == f"rounds[0].tricks[{(difference['play'] - 1) // 4}].cards[{(difference['play'] - 1) % 4}]"
    assert referee(record_from_json(difference["records"][allowing])).valid


def test_diff_matrix_text_lists_every_pair_and_parameter():
    result = run("diff", "--matrix")
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert sum(bool(re.match(r"^  \S+ against \S+: ", line)) for line in lines) == 15
    assert "  seed000 against seed004: differs in round 1 at play 5: whether hearts are broken (BREAK-DISCARD)" in lines
    assert any(line.startswith("  hearts_restriction=discard (with hearts_broken_by=any-heart): differs in round 1")
               for line in lines)
    assert any(line.startswith("  players=3 (with pass_cycle=left-right-none): differs at the deal") for line in lines)


@pytest.mark.parametrize("args, message", [
    (["seed04", "seed000"], "A: 'seed04' is not a preset or a setting; did you mean seed004?"),
    (["seed000", "seed000 qs_break_hearts=true"], "B: unknown variant parameter 'qs_break_hearts'; did you mean "
                                                  "qs_breaks_hearts"),
    (["seed000", "seed000 moon=double"], "B: moon: 'double' is not allowed; choose one of 'add', 'subtract', 'off'"),
    (["seed000", "seed000 jd_bonus"], "B: 'jd_bonus' needs a value"),
    (["seed000"], "give two rulesets A and B (got 1)"),
    (["seed000", "seed000 moon=off moon=add"], "moon is set twice"),
    (["seed000", "seed000 hearts_restriction=discard"], "hearts_restriction: 'discard' with hearts_broken_by='discard'"),
    (["--matrix", "seed000"], "--matrix compares the presets"),
    (["seed000", "seed001", "--records", "README.md"], "--records README.md: not a folder"),
    (["seed000", "seed001", "--timeout", "0"], "more than 0"),
])
def test_invalid_diff_input_exits_2_with_one_line_naming_the_closest(args, message):
    result = run("diff", *args)
    assert result.returncode == 2 and message in result.stderr, result.stderr
    assert "Traceback" not in result.stderr and len(result.stderr.strip().splitlines()) <= 3


def test_a_side_reads_back_from_its_label_and_settings_alone_change_side_a():
    a = parse_side("seed004 + jd_bonus=true, moon=subtract")
    assert a.rules == Rules.preset("seed004", jd_bonus=True, moon="subtract")
    assert parse_side(a.label).rules == a.rules and a.label == "seed004 jd_bonus=true moon=subtract"
    b = parse_side("moon=add", base=a)
    assert b.rules == Rules.preset("seed004", jd_bonus=True) and b.label == "seed004 jd_bonus=true moon=add"
    assert parse_side('seed000 end_comparison=">"').label == 'seed000 end_comparison=">"'
    with pytest.raises(RulesError, match="the preset comes first"):
        parse_side("jd_bonus=true seed000")


@pytest.mark.parametrize("text, says", [
    ("seed00", "did you mean seed000 or seed001 or seed002? "),             # the closest, in the presets' order
    ("seed001 seed002", "'seed002' is a second preset: a ruleset is one preset, then settings name=value"),
    ("seed000 seed000=moon", "'seed000' is a preset, not a variant parameter"),
    ("seed000 mooon=add", "unknown variant parameter 'mooon'; did you mean moon? (parameters: players,"),
    ("seed000 zzz=1", "unknown variant parameter 'zzz' (parameters: players,"),     # no stray "; ("
])
def test_a_mistyped_ruleset_is_told_the_closest_name(text, says):
    with pytest.raises(RulesError) as raised:
        parse_side(text)
    assert says in str(raised.value), str(raised.value)


def test_a_mistyped_setting_or_preset_of_any_command_is_told_the_closest_name():
    from hearts_ref.variants import parse_setting

    with pytest.raises(RulesError, match="unknown variant parameter 'mooon'; did you mean moon\\? known: players"):
        parse_setting("mooon=add")
    with pytest.raises(RulesError, match="unknown preset 'seed0004'; did you mean seed000 or seed004\\? choose"):
        Rules.preset("seed0004")
