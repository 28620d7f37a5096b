"""The referee: recorded games replayed against the rules; each kind of mistake found with its rule ID."""

from __future__ import annotations

import copy
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from hearts_ref import Rules
from hearts_ref.errors import RecordError
from hearts_ref.record_reader import record_from_json
from hearts_ref.records import game_record
from hearts_ref.referee import referee
from hearts_ref.simulate import random_game
from hearts_ref.variants import EXPECTED_UNSOUND, PRESETS

ROOT = Path(__file__).resolve().parent.parent
GAME = game_record(random_game(Rules(), seed=21))


def run_cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "hearts_ref", *args], capture_output=True, text=True, cwd=ROOT,
                          timeout=600)


def judge(data: dict):
    return referee(record_from_json(data, validate_schema=True)).findings


def changed(edit) -> dict:
    data = copy.deepcopy(GAME)
    edit(data)
    return data


@pytest.mark.parametrize("preset", sorted(set(PRESETS) - set(EXPECTED_UNSOUND)))
def test_recorded_games_of_every_sound_preset_are_valid(preset):
    for seed in (1, 2):
        assert judge(game_record(random_game(Rules.preset(preset), seed=seed))) == ()


def test_follow_suit_a_card_of_another_suit_is_the_first_illegal_step():
    data = copy.deepcopy(GAME)
    rnd = data["rounds"][0]
    # find a trick where the second player followed suit and hold another suit: swap in that card
    for k, trick in enumerate(rnd["tricks"][1:], 1):
        led = trick["cards"][0][-1]
        seat = (trick["leader"] + 1) % 4
        if trick["cards"][1][-1] == led:
            later = [c for t in rnd["tricks"][k + 1:] for i, c in enumerate(t["cards"])
                     if (t["leader"] + i) % 4 == seat and c[-1] != led]
            if later:
                break
    else:
        pytest.fail("no trick to alter")
    other = later[0]
    for t in rnd["tricks"]:
        t["cards"] = [trick["cards"][1] if c == other else c for c in t["cards"]]
    followed = trick["cards"][1]
    trick["cards"][1] = other
    findings = judge(data)
    first = findings[0]
    assert first.rule_id == "FOLLOW-SUIT" and first.illegal
    assert first.where == f"rounds[0].tricks[{k}].cards[1]" and first.seat == seat and first.card == other
    assert followed in first.legal and first.trick_so_far == (trick["cards"][0],)
    assert first.round == 1 and first.trick == k + 1


def test_trick_order_a_play_out_of_turn():
    def edit(data):
        trick = data["rounds"][0]["tricks"][3]
        trick["cards"][1], trick["cards"][2] = trick["cards"][2], trick["cards"][1]
    first = judge(changed(edit))[0]
    trick = GAME["rounds"][0]["tricks"][3]
    assert (first.rule_id, first.where) == ("TRICK-ORDER", "rounds[0].tricks[3].cards[1]")
    assert first.card == trick["cards"][2] and first.seat == (trick["leader"] + 1) % 4


@pytest.mark.parametrize("k, rule", [(0, "LEAD-OPEN"), (5, "LEAD-WINNER")])
def test_a_wrong_leader_is_a_play_out_of_turn(k, rule):
    def edit(data):
        trick = data["rounds"][0]["tricks"][k]
        trick["leader"] = (trick["leader"] + 1) % 4
    (finding,) = judge(changed(edit))
    assert finding.rule_id == rule and finding.where == f"rounds[0].tricks[{k}].leader" and finding.illegal


@pytest.mark.parametrize("edit, rule, where", [
    (lambda d: d["rounds"][0]["tricks"][2].update(winner=(d["rounds"][0]["tricks"][2]["winner"] + 1) % 4),
     "TRICK-WINNER", "rounds[0].tricks[2].winner"),
    (lambda d: d["rounds"][1]["points"].__setitem__(0, d["rounds"][1]["points"][0] + 1), "SCORE-POINTS",
     "rounds[1].points"),
    (lambda d: d["rounds"][1]["scores"].__setitem__(2, 99), "SCORE-POINTS", "rounds[1].scores"),
    (lambda d: d["rounds"][1].update(moon=2), "SCORE-MOON", "rounds[1].moon"),
    (lambda d: d["rounds"][0].update(dealer=3), "DEAL-DEALER", "rounds[0].dealer"),
    (lambda d: d["totals"].__setitem__(1, d["totals"][1] - 1), "SCORE-TOTAL", "totals"),
    (lambda d: d.update(winners=[(d["winners"][0] + 1) % 4]), "WIN-LOWEST", "winners"),
])
def test_wrong_derived_fields_are_reported_with_their_rule(edit, rule, where):
    findings = judge(changed(edit))
    assert [(f.rule_id, f.where, f.illegal) for f in findings] == [(rule, where, False)]


@pytest.mark.parametrize("edit, rule", [
    (lambda d: d["rounds"][0]["hands"][0].__setitem__(0, d["rounds"][0]["hands"][1][0]), "DEAL-HANDS"),
    (lambda d: d["rounds"][0]["hands"][1].append(d["rounds"][0]["hands"][0].pop()), "DEAL-HANDS"),
    (lambda d: d["rounds"][0]["passes"].__setitem__(0, d["rounds"][0]["hands"][1][:3]), "PASS-COUNT"),
    (lambda d: d["rounds"][0].update(pass_direction="right"), "PASS-CYCLE"),
    (lambda d: d["rounds"][0]["tricks"].pop(), "TRICK-ORDER"),
    (lambda d: d["rounds"][0]["tricks"][4]["cards"].pop(), "TRICK-ORDER"),
])
def test_illegal_deals_passes_and_rounds_stop_the_replay(edit, rule):
    findings = judge(changed(edit))
    assert findings[-1].rule_id == rule and findings[-1].illegal and findings[-1].round == 1


def test_end_threshold_a_game_that_goes_on_after_its_end_or_names_winners_too_soon():
    longer = copy.deepcopy(GAME)
    longer["rounds"].append(copy.deepcopy(longer["rounds"][0]) | {"number": len(longer["rounds"]) + 1})
    assert judge(longer)[0].rule_id == "END-THRESHOLD"
    unfinished = copy.deepcopy(GAME)
    unfinished["rounds"] = unfinished["rounds"][:1]
    unfinished["totals"] = unfinished["rounds"][0]["scores"]
    assert [f.rule_id for f in judge(unfinished)] == ["END-THRESHOLD"]     # winners named, game not over
    unfinished["winners"] = []
    assert judge(unfinished) == ()                                          # a game in progress is valid


def test_cli_many_files_one_line_each_worst_exit_code(tmp_path):
    good = tmp_path / "good.json"
    good.write_text(json.dumps(GAME))
    bad = tmp_path / "bad.json"
    leader = (GAME["rounds"][0]["tricks"][5]["leader"] + 2) % 4
    bad.write_text(json.dumps(changed(lambda d: d["rounds"][0]["tricks"][5].update(leader=leader))))
    broken = tmp_path / "broken.json"
    broken.write_text('{"format": "hearts-ref-game",\n "version": 1,\n "rules": {}, "rounds": [1,]}')
    schema = tmp_path / "schema.json"
    schema.write_text(json.dumps(changed(lambda d: d["rounds"][0]["hands"][0].__setitem__(0, "1X"))))
    result = run_cli("referee", str(good), str(bad), str(broken), str(schema), str(tmp_path / "missing.json"))
    assert result.returncode == 2 and "Traceback" not in result.stdout + result.stderr
    out = result.stdout
    assert f"{good}: valid" in out
    assert f"{bad}: rounds[0].tricks[5].leader: LEAD-WINNER:" in out
    assert f"{broken}: malformed: line 3 column 28: not valid JSON" in out
    assert f"{schema}: malformed: rounds[0].hands[0][0]: '1X' does not match" in out and "(schema: " in out
    assert "missing.json: malformed: cannot read the file" in out
    assert run_cli("referee", str(good)).returncode == 0
    only_bad = run_cli("referee", str(good), str(bad), "--json")
    assert only_bad.returncode == 1
    reports = json.loads(only_bad.stdout)
    assert [r["status"] for r in reports] == ["valid", "invalid"]
    assert reports[1]["findings"][0]["rule_id"] == "LEAD-WINNER"


# FIRST-NO-POINTS: a game whose rules deadlock ends there, without winners ---------------------------

DEADLOCKED = game_record(random_game(Rules.preset("seed003"), seed=23))   # stops in round 6 (FOLLOW-VOID)


def deadlock_changed(edit) -> dict:
    data = copy.deepcopy(DEADLOCKED)
    edit(data)
    return data


def test_first_no_points_a_deadlocked_game_is_valid_and_the_deadlock_confirmed():
    assert len(DEADLOCKED["rounds"]) == 5 and DEADLOCKED["winners"] == []
    assert DEADLOCKED["totals"] == [sum(r["scores"][s] for r in DEADLOCKED["rounds"]) for s in range(4)]
    verdict = referee(record_from_json(DEADLOCKED, validate_schema=True))
    assert verdict.valid
    assert verdict.deadlock.startswith("round 6: FOLLOW-VOID: seat 0 has no legal play: hand 6♥ 9♥ Q♥ K♥ A♥")


@pytest.mark.parametrize("edit, rule, where, illegal", [
    # one play fewer: the seat said to be stuck is not yet to play, and the one who is can play
    (lambda d: d["deadlock"]["plays"].pop(), "FOLLOW-VOID", "deadlock", True),
    # two plays swapped: the second seat plays a card the third holds
    (lambda d: d["deadlock"].update(plays=[d["deadlock"]["plays"][i] for i in (0, 2, 1)] + d["deadlock"]["plays"][3:]),
     "TRICK-ORDER", "deadlock.plays[1]", True),
    (lambda d: d["deadlock"].update(seat=1), "FOLLOW-VOID", "deadlock.seat", False),
    (lambda d: d["deadlock"]["hand"].pop(), "FOLLOW-VOID", "deadlock.hand", False),
    (lambda d: d["deadlock"].update(rule="FIRST-NO-POINTS"), "FOLLOW-VOID", "deadlock.rule", False),
    (lambda d: d.update(winners=[3]), "FIRST-NO-POINTS", "winners", False),
    (lambda d: d["totals"].__setitem__(0, 0), "SCORE-TOTAL", "totals", False),
    (lambda d: d["deadlock"].update(pass_direction="left"), "PASS-CYCLE", "deadlock.pass_direction", True),
])
def test_a_deadlock_the_record_gets_wrong_is_reported_with_its_rule(edit, rule, where, illegal):
    findings = referee(record_from_json(deadlock_changed(edit), validate_schema=True)).findings
    assert [(f.rule_id, f.where, f.illegal) for f in findings][:1] == [(rule, where, illegal)]


def test_a_deadlock_under_rules_that_cannot_deadlock_is_not_confirmed():
    sound = deadlock_changed(lambda d: d.update(rules=Rules().to_dict()))
    sound["rounds"], sound["totals"] = [], [0, 0, 0, 0]
    sound["deadlock"]["number"], sound["deadlock"]["dealer"] = 1, 0
    findings = referee(record_from_json(sound, validate_schema=True)).findings
    assert findings and findings[0].illegal and not referee(record_from_json(sound)).valid


def test_end_threshold_a_deadlock_after_the_game_is_over_is_a_game_that_goes_on():
    over = copy.deepcopy(GAME)
    over["deadlock"] = copy.deepcopy(DEADLOCKED["deadlock"]) | {"number": len(GAME["rounds"]) + 1}
    findings = referee(record_from_json(over, validate_schema=True)).findings
    assert [(f.rule_id, f.where) for f in findings] == [("END-THRESHOLD", "deadlock")]


@pytest.mark.parametrize("edit, where, why", [
    (lambda d: d["deadlock"].update(rule="no rule"), "deadlock.rule", "is not a rule ID"),
    (lambda d: d["deadlock"]["plays"].append(d["deadlock"]["plays"][0]), "deadlock.plays", "played twice"),
    (lambda d: d["deadlock"].update(number=2), "deadlock.number", "round 2 where round 6 was expected"),
    (lambda d: d["deadlock"].pop("hand"), "deadlock", "'hand'"),
])
def test_invalid_deadlock_fields_are_malformed_records(edit, where, why):
    with pytest.raises(RecordError) as caught:
        record_from_json(deadlock_changed(edit), where="game.json")
    assert caught.value.where == f"game.json: {where}" and why in str(caught.value)
    with pytest.raises(RecordError):   # with the schema checked first, still malformed
        record_from_json(deadlock_changed(edit), where="game.json", validate_schema=True)


def test_cli_referee_confirms_the_deadlock_of_hearts_ref_play(tmp_path):
    played = run_cli("play", "--preset", "seed003", "--seed", "23", "--json")
    assert played.returncode == 1
    path = tmp_path / "deadlocked.json"
    path.write_text(played.stdout)
    result = run_cli("referee", str(path))
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout.strip() == (f"{path}: valid (5 rounds, then the rules deadlock in round 6: FOLLOW-VOID: "
                                     "seat 0 has no legal play: hand 6♥ 9♥ Q♥ K♥ A♥, trick so far 8♣ A♣; these rules "
                                     "can deadlock; the game ends without winners)")
    reports = json.loads(run_cli("referee", str(path), "--json").stdout)
    assert reports[0]["status"] == "valid" and reports[0]["deadlock"].startswith("round 6: FOLLOW-VOID")


# DECK-CARDS: a second deck's copy (JC#2) is a card of two-deck records only ----------------------------

@pytest.mark.parametrize("edit, where", [
    (lambda d: d["rounds"][0]["hands"][0].__setitem__(0, d["rounds"][0]["hands"][0][0] + "#2"), "rounds[0].hands[0][0]"),
    (lambda d: d["rounds"][1]["tricks"][2]["cards"].__setitem__(1, "QS#2"), "rounds[1].tricks[2].cards[1]"),
])
def test_a_second_deck_card_in_a_record_of_one_deck_is_a_precise_deck_cards_error(edit, where):
    for validate_schema in (False, True):   # the schema's card pattern allows #2: the reader says why not here
        with pytest.raises(RecordError) as caught:
            record_from_json(changed(edit), where="game.json", validate_schema=validate_schema)
        assert caught.value.where == f"game.json: {where}"
        assert str(caught.value).endswith("is a second deck's card, but these rules play one deck (decks = 1)")
        assert "DECK-CARDS" in str(caught.value)


def test_a_copy_number_other_than_2_is_not_a_card(tmp_path):
    bad = tmp_path / "copy3.json"
    bad.write_text(json.dumps(changed(lambda d: d["rounds"][0]["hands"][0].__setitem__(0, "JC#3"))))
    with pytest.raises(RecordError, match=r"not a card: 'JC#3'") as caught:
        record_from_json(json.loads(bad.read_text()), where="game.json")
    assert caught.value.where == "game.json: rounds[0].hands[0][0]"
    result = run_cli("referee", str(bad))
    assert result.returncode == 2 and "Traceback" not in result.stdout + result.stderr
    assert f"{bad}: malformed: rounds[0].hands[0][0]: 'JC#3' does not match" in result.stdout   # the schema's pattern


@pytest.mark.parametrize("players", [5, 6])
def test_two_deck_records_are_written_with_copies_read_and_judged_valid(players):
    for seed in (1, 2):
        record = game_record(random_game(Rules.preset("seed003", players=players), seed=seed))
        first = record["rounds"][0]
        assert record["rules"]["decks"] == 2 and sum(map(len, first["hands"])) == 104
        assert any(card.endswith("#2") for hand in first["hands"] for card in hand)
        assert len(first["tricks"][0]["cards"]) == {5: 9, 6: 8}[players]   # the extra cards (FIRST-TWO-CARDS)
        assert judge(record) == ()
    assert judge(_second_copy_wins(record, players)) and \
        {f.rule_id for f in judge(_second_copy_wins(record, players))} == {"TRICK-WINNER"}


def _second_copy_wins(record: dict, players: int) -> dict:
    """The record with one trick given to the seat that played the second of two identical cards (Kalle and Pelle:
    the first played wins, TRICK-WINNER), where that first card won it."""
    wrong = copy.deepcopy(record)
    for trick in (t for r in wrong["rounds"] for t in r["tricks"][1:]):   # after the first: one card a seat
        faces = [card.removesuffix("#2") for card in trick["cards"]]
        for k, face in enumerate(faces):
            if faces.count(face) == 2 and (trick["leader"] + k) % players == trick["winner"]:
                trick["winner"] = (trick["leader"] + faces.index(face, k + 1)) % players
                return wrong
    raise AssertionError("no trick won by the first of two identical cards")


def test_cli_referee_reads_the_two_deck_game_hearts_ref_play_prints(tmp_path):
    shown = run_cli("play", "--preset", "seed003", "--set", "players=5", "--seed", "3")
    assert shown.returncode == 0 and "Traceback" not in shown.stdout + shown.stderr
    assert "decks=2" in shown.stdout and re.search(r"[2-9JQKA0][♣♦♠♥]#2", shown.stdout)   # J♣#2, readable
    game = tmp_path / "two-decks.json"
    game.write_text(run_cli("play", "--preset", "seed003", "--set", "players=6", "--seed", "3", "--json").stdout)
    assert '#2"' in game.read_text(encoding="utf-8")
    result = run_cli("referee", str(game))
    assert result.returncode == 0 and f"{game}: valid" in result.stdout


def test_a_moon_recorded_under_moon_off_is_refused_for_that_reason_not_for_the_cards_taken():
    """Under moon = off the field is null whoever took the point cards; the finding must not say that nobody did."""
    data = game_record(random_game(Rules(moon="off"), seed=3))
    data["rounds"][0]["moon"] = 0
    findings = judge(data)
    assert [(f.rule_id, f.where) for f in findings] == [("SCORE-MOON", "rounds[0].moon")]
    assert findings[0].message == ("the record says seat 0 shot the moon; under moon = 'off' no round is scored as "
                                   "a moon (the field is null)")


# DEAL-HANDS with uneven hands: the extra card goes to the seat on the dealer's left ------------------------

def test_an_uneven_deal_with_the_extra_card_at_the_wrong_seat_for_its_dealer_is_a_deal_hands_error(tmp_path):
    rules = Rules.preset("seed003", players=3)
    record = game_record(random_game(rules, seed=4))
    assert [len(hand) for hand in record["rounds"][0]["hands"]] == [17, 18, 17]   # dealer 0: seat 1 has the extra
    assert judge(record) == ()
    wrong = copy.deepcopy(record)
    hands = wrong["rounds"][0]["hands"]
    hands[2].append(hands[1].pop())   # 17, 17, 18: as if seat 1 had dealt
    findings = judge(wrong)
    assert [(f.rule_id, f.where, f.illegal, f.round) for f in findings] == [("DEAL-HANDS", "rounds[0].hands", True, 1)]
    assert "dealer 0's left, the extra card goes to seat 1" in findings[0].message
    path = tmp_path / "extra-card.json"
    path.write_text(json.dumps(wrong))
    result = run_cli("referee", str(path))
    assert result.returncode == 1 and "DEAL-HANDS" in result.stdout and "Traceback" not in result.stderr


@pytest.mark.parametrize("edit, message", [
    (lambda d: d["totals"].append(0), "totals: 5 numbers for a 4-player game: one per seat"),
    (lambda d: d["rounds"][0]["scores"].pop(), "rounds[0].scores: 3 numbers for a 4-player game: one per seat"),
    (lambda d: d.update(winners=[4]), "winners[0]: 4 is not a seat of a 4-player game (seats 0 to 3)"),
    (lambda d: d["rules"].update(end_threshold=True), "rules.end_threshold: true is not allowed"),   # JSON's words
    (lambda d: d["rounds"][0]["tricks"][0].update(cards=None), "rounds[0].tricks[0].cards: null is not of type"),
])
def test_a_record_of_the_wrong_shape_is_malformed_and_says_so_in_the_files_own_words(tmp_path, edit, message):
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(changed(edit)))
    result = run_cli("referee", str(path))
    assert result.returncode == 2 and "Traceback" not in result.stdout + result.stderr
    assert f"{path}: malformed: {message}" in result.stdout, result.stdout
