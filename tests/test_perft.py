"""Perft: counts worked out by hand on small positions, the committed files, the Engine path, the CLI,
and agreement with OpenSpiel's own Hearts (real pyspiel)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from hearts_ref import CardSet, Rules
from hearts_ref.cardset import POINT_CARDS_SET, SUIT_MASKS
from hearts_ref.engine import ReferenceEngine
from hearts_ref.errors import RecordError
from hearts_ref.perft import (
    divide, divide_engine, load_perft, perft, perft_counts, perft_engine, perft_from_json, perft_names,
)
from hearts_ref.round import start_round
from hearts_ref.vectors.lines import fill_deal
from hearts_ref.vectors.perft_deals import DEPTHS, perft_deals

ROOT = Path(__file__).resolve().parent.parent


def run_cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "hearts_ref", *args], capture_output=True, text=True, cwd=ROOT,
                          timeout=300)


def test_lead_open_perft_1_is_one_and_depth_2_is_the_followers_clubs():
    rules = Rules()
    hands = fill_deal(rules, {0: "2C", 1: "3C 9C KC"}, voids={1: "C"})
    state = start_round(rules, hands, direction="none")
    assert perft(state, 1) == 1                       # LEAD-OPEN: the 2♣ only
    assert perft(state, 2) == 3                       # FOLLOW-SUIT: seat 1's three clubs


def test_first_no_points_a_void_follower_counts_only_cards_without_points():
    deal = load_perft("void-in-clubs")
    seat1 = deal.hands[1]
    assert not seat1 & CardSet.from_mask(SUIT_MASKS[0])     # void in clubs
    assert deal.counts[1] == len(seat1 - POINT_CARDS_SET)   # FIRST-NO-POINTS: no Q♠, no heart


def test_first_exception_a_hand_of_point_cards_may_play_any_card():
    deal = load_perft("points-only")
    assert deal.counts[:2] == (1, 13)                  # FIRST-EXCEPTION: all 13 cards of seat 1
    assert load_perft("all-hearts").counts[2] == 4 * 13   # seat 2 (13 hearts) after seat 1's four clubs


def test_lead_open_any_club_divides_by_the_opener_clubs():
    deal = load_perft("any-club")
    clubs = deal.hands[2] & CardSet.from_mask(SUIT_MASKS[0])
    assert deal.counts[0] == len(clubs) and sorted(deal.divide) == sorted(str(c) for c in clubs)


def test_committed_files_name_every_deal_with_consistent_counts():
    assert perft_names() == sorted(d.name for d in perft_deals())
    for name in perft_names():
        deal = load_perft(name)
        assert len(deal.counts) == DEPTHS[name] and sum(deal.divide.values()) == deal.counts[-1]
        assert perft_counts(deal.start(), 6) == deal.counts[:6]


@pytest.mark.parametrize("name", ["shuffled", "queen-timing", "any-club", "three-players", "openspiel"])
def test_perft_through_the_engine_interface_equals_the_direct_count(name):
    deal = load_perft(name)
    depth = 5
    assert perft_engine(ReferenceEngine(), deal.rules, deal.hands, depth) == deal.counts[depth - 1]
    assert divide_engine(ReferenceEngine(), deal.rules, deal.hands, depth) == divide(deal.start(), depth)


def test_cli_perft_prints_the_count_and_divide_and_checks_the_file(tmp_path):
    result = run_cli("perft", "any-club", "--depth", "4", "--divide")
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    deal = load_perft("any-club")
    assert lines[-1] == f"perft any-club depth 4: {deal.counts[3]} (as recorded)"
    assert len(lines) == deal.counts[0] + 1 and lines[0].endswith(": 8")
    wrong = deal.to_json() | {"counts": [1, 1, 1]}
    path = tmp_path / "wrong.json"
    path.write_text(json.dumps(wrong))
    mismatch = run_cli("perft", str(path), "--depth", "2")
    assert mismatch.returncode == 1 and "(recorded: 1)" in mismatch.stdout
    unknown = run_cli("perft", "nosuch", "--depth", "2")
    assert unknown.returncode == 2 and "no perft deal 'nosuch'" in unknown.stderr
    assert "Traceback" not in unknown.stderr + mismatch.stderr


def test_cli_perft_on_an_engine_that_miscounts_names_the_first_position_and_rule_that_differ():
    """The replay line of a failed perft count in a campaign: the counts, and where the engine first differs."""
    result = run_cli("perft", "shuffled", "--depth", "8", "--engine", "python:tests.engines.planted:HeartsAlwaysPlayable")
    assert result.returncode == 1 and "(recorded: 4440)" in result.stdout
    assert "first difference after 2C 3C 5C 4C KC: legal plays differ" in result.stdout
    assert result.stdout.rstrip().endswith("[FOLLOW-SUIT]")
    agrees = run_cli("perft", "shuffled", "--depth", "8", "--engine", "reference")
    assert agrees.returncode == 0 and "first difference" not in agrees.stdout


@pytest.mark.parametrize("deal, depth, plays", [("shuffled", 99, 52), ("three-players", 52, 51)])
def test_invalid_perft_depth_beyond_the_round_exits_2_at_once(deal, depth, plays):
    result = subprocess.run([sys.executable, "-m", "hearts_ref", "perft", deal, "--depth", str(depth)],
                            capture_output=True, text=True, cwd=ROOT, timeout=60)   # it used to run forever
    assert result.returncode == 2 and result.stdout == ""
    assert f"--depth {depth} is more than the {plays} plays of a round from deal {deal}" in result.stderr
    assert "Traceback" not in result.stderr


@pytest.mark.parametrize("spec", [
    "python:tests.engines.python_engines:IgnoresFollowSuit",
    "python:tests.engines.python_engines:ignores_follow_suit",
    "python:tests.engines.python_engines:IGNORES_FOLLOW_SUIT",
    "tests.engines.python_engines:IgnoresFollowSuit",
    f"{sys.executable} -m hearts_ref serve --engine python:tests.engines.python_engines:IgnoresFollowSuit",
])
def test_cli_perft_takes_every_engine_spec_of_conform(spec):
    """The engine offers its whole hand to the follower (FOLLOW-SUIT ignored): 13 second plays, not 5."""
    result = run_cli("perft", "shuffled", "--depth", "2", "--engine", spec)
    assert result.returncode == 1, result.stdout + result.stderr
    count, first = result.stdout.splitlines()
    assert count == "perft shuffled depth 2: 13 (recorded: 5)"
    assert first.startswith("first difference after 2C: legal plays differ") and first.endswith("[FOLLOW-SUIT]")


def test_cli_perft_takes_openspiel_and_the_reference_as_engines():
    reference = run_cli("perft", "openspiel", "--depth", "3", "--engine", "reference")
    assert reference.returncode == 0 and "(as recorded)" in reference.stdout, reference.stderr
    pytest.importorskip("pyspiel")
    openspiel = run_cli("perft", "openspiel", "--depth", "3", "--engine", "openspiel")
    assert openspiel.returncode == 0, openspiel.stderr
    assert openspiel.stdout.strip() == f"perft openspiel depth 3: {load_perft('openspiel').counts[2]} (as recorded)"


def test_invalid_perft_file_says_why():
    with pytest.raises(RecordError, match="not a perft file"):
        perft_from_json({"format": "x"}, where="p.json")
    data = load_perft("shuffled").to_json() | {"counts": [1, -2]}
    with pytest.raises(RecordError, match="counts"):
        perft_from_json(data, where="p.json")


def test_openspiel_counts_the_same_sequences():
    """The benchmark deals every 4-player perft deal into OpenSpiel and stops if a count differs."""
    result = subprocess.run([sys.executable, "bench/perft_vs_openspiel.py", "--depth", "5", "--json"],
                            capture_output=True, text=True, cwd=ROOT, timeout=300)
    assert result.returncode == 0, result.stdout + result.stderr
    rows = json.loads(result.stdout)["rows"]
    assert {r["deal"] for r in rows} >= {"openspiel", "shuffled", "void-in-clubs", "points-only"}
    openspiel = next(r for r in rows if r["deal"] == "openspiel")
    assert openspiel["sequences"] == load_perft("openspiel").counts[4]



class RefusesThreeOfHearts(ReferenceEngine):
    """Refuses every deal in which seat 3 holds the 3♥, and every play of the 5♣, as an engine that misreads the rules
    would (the test below counts through it with ``--engine``)."""

    def start_round(self, hands, direction):
        from hearts_ref.engine import EngineRejection

        if len(hands) == 4 and CardSet.parse("3H").mask & hands[3].mask:
            raise EngineRejection("DECK-REMOVED: 3H is not in play")
        super().start_round(hands, direction)

    def play(self, card, seat=None):
        from hearts_ref.engine import EngineRejection

        if str(card) == "5C":
            raise EngineRejection("5C may not be played")
        super().play(card, seat)


def test_an_engine_that_refuses_a_legal_step_while_counting_is_a_deviation_named_by_the_rule_allowing_it(capsys):
    """A legal deal or play refused while counting: exit 1 (a deviation), not 2 (bad input); a deal refused names
    DEAL-HANDS (which deals it) and the rule the engine cited, a play the rule that allows it there."""
    from hearts_ref.cli import main
    from hearts_ref.conformance.report import Report
    from hearts_ref.conformance.suite_steps import run_perft_step

    assert "3H" in str(load_perft("shuffled").hands[3]) and "5C" in str(load_perft("three-players").hands[2])
    engine = "python:tests.test_perft:RefusesThreeOfHearts"
    assert main(["perft", "shuffled", "--depth", "2", "--engine", engine]) == 1
    assert ("the engine refused the deal: DECK-REMOVED: 3H is not in play [DEAL-HANDS, DECK-REMOVED]"
            in capsys.readouterr().out)
    report = Report({}, Rules().to_dict(), 0, 0, 0, [[1, 1]])
    run_perft_step(RefusesThreeOfHearts, report, (1, 1))
    cases = {case.id: case for case in report.cases}
    shuffled, three = cases["perft/shuffled"], cases["perft/three-players"]
    assert shuffled.status == "failed" and shuffled.rule_ids == ("DEAL-HANDS", "DECK-REMOVED"), shuffled
    assert three.status == "failed" and "play(5C)" in three.reason, three
    assert three.rule_ids and three.rule_ids[0] in ("FOLLOW-SUIT", "FOLLOW-VOID", "LEAD-OPEN", "LEAD-HEARTS"), three


@pytest.mark.parametrize("edit, why", [
    (lambda hands: hands[1].append(hands[0].pop()), "hands: DEAL-HANDS: seat 0 holds 12 cards, not 13"),
    (lambda hands: hands[1].__setitem__(0, hands[0][0]), "hands: DEAL-HANDS: seat 1 holds"),
])
def test_a_perft_file_whose_deal_the_rules_do_not_deal_is_refused_naming_the_file(tmp_path, edit, why):
    data = load_perft("shuffled").to_json()
    edit(data["hands"])
    path = tmp_path / "bad-deal.json"
    path.write_text(json.dumps(data))
    result = run_cli("perft", str(path), "--depth", "2")
    assert result.returncode == 2 and result.stdout == "" and "Traceback" not in result.stderr
    assert f"hearts-ref perft: error: {path}: {why}" in result.stderr
