"""``hearts-ref conform`` on a planted bug of every rule: found, and the first rule named is the rule broken.

Every rule ID of spec/rules/ has at least one engine in ``tests/engines/planted.py`` that breaks
it and it alone, as an engine author gets it wrong. Each runs the default campaign (the vectors,
the perft counts, 100 differential games and 25 with negative checks; no shrinking, which the
runner's own tests cover): the bug must be found and the first finding must name its rule. And
no finding at all on engines without a bug: the reference over stdio, OpenSpiel under its preset.
"""

from __future__ import annotations

import json
import sys

import pytest

from hearts_ref.cli import main
from hearts_ref.spec import load_rules
from tests.engines.planted import MORE_PLANTED, PLANTED
from tests.engines.planted_turns import DEALING, TURNS

ALL = list(PLANTED.items()) + list(MORE_PLANTED.items())
# Bugs of whose turn it is (plays out of turn, passes in another order) and of engines that deal for themselves:
# each with the rules under which the runner can see it (a removed card needs a game with removed cards, an extra card
# dealt to the wrong seat a game with uneven hands).
_DEALT_UNDER = {"DealsARemovedCard": ("--set", "players=6"),
                "DealsFromTheDealer": ("--preset", "seed003", "--set", "players=3")}
OTHERS = [(engine, rule, ()) for engine, rule in TURNS.items()] + [
    (engine, rule, _DEALT_UNDER.get(engine.__name__, ())) for engine, rule in DEALING.items()]


# The other rule a finding of these bugs may name first, in a position that rule's bug would show the same:
# - a leader void in the suit just led may play anything, hearts too: a stale lead context (LEAD-WINNER) or
#   hearts led before they are broken (LEAD-HEARTS) give the same legal set;
# - the queen played into a trick and hearts not yet broken: BREAK-QUEEN broken at that moment, whatever the engine
#   does with a discarded heart (BREAK-DISCARD) at the trick's end;
# - the dealer leads with 4C in a six-player deal: the dealer leading (DEAL-DEALER) or 3C removed with 2C
#   (DECK-REMOVED, the reading named first there: the deal is that vector's); the dealer leads the club next above
#   the lowest in play (3C with four players): the dealer leading, or the holder of that club taken for the lowest
#   club's (LEAD-OPEN, the reading named first there: an engine that mistakes the lowest club always shows it).
# Anything else named first is a symptom of the bug named as a cause (a refusal judged on hands the engine passed
# another way, say), and fails.
AMBIGUOUS = {"StaleLeadContext": ("LEAD-HEARTS",), "BrokenAtTrickEnd": ("BREAK-QUEEN",),
             "DealerLeads": ("DECK-REMOVED", "LEAD-OPEN"),
             # a vector stops at its first difference, where the ace ranked low may explain the seat it has lead
             "PlaceInTrickWins": ("DECK-CARDS",)}


def _conform(capsys, *argv: str) -> tuple[int, dict]:
    code = main(["conform", *argv, "--shrink-time", "0", "--json"])
    return code, json.loads(capsys.readouterr().out)


def test_there_is_a_planted_bug_for_every_rule_of_the_spec():
    assert sorted(PLANTED.values()) == sorted(load_rules())
    assert all(engine.__doc__.startswith(f"{rule}: ") for engine, rule in ALL)   # each says what it breaks


@pytest.mark.parametrize("engine, rule_id", ALL, ids=[engine.__name__ for engine, _ in ALL])
def test_a_planted_bug_is_found_and_the_first_rule_named_is_its_rule(engine, rule_id, capsys):
    code, report = _conform(capsys, "--engine", f"python:tests.engines.planted:{engine.__name__}")
    findings = [f for f in report["summary"]["findings"] if not f["expected"]]
    assert code == 1 and findings, f"{engine.__name__} not found"
    assert findings[0]["rule_id"] == rule_id, findings
    assert report["summary"]["counts"]["error"] == 0   # a bug in the rules is a finding, not an engine failure
    assert report["summary"]["counts"]["flaky"] == 0   # it fails the same way on every replay
    named = {f["rule_id"] for f in findings}
    assert named <= {rule_id, *AMBIGUOUS.get(engine.__name__, ())}, findings   # no symptom named as a cause


@pytest.mark.parametrize("engine, rule_id, rules", OTHERS, ids=[engine.__name__ for engine, _, _ in OTHERS])
def test_a_planted_bug_of_turns_or_deals_is_found_and_named_first(engine, rule_id, rules, capsys):
    code, report = _conform(capsys, "--engine", f"python:tests.engines.planted_turns:{engine.__name__}", *rules)
    findings = [f for f in report["summary"]["findings"] if not f["expected"]]
    assert code == 1 and findings, f"{engine.__name__} not found"
    assert findings[0]["rule_id"] == rule_id and {f["rule_id"] for f in findings} == {rule_id}, findings
    assert report["summary"]["counts"]["error"] == 0


def test_an_engine_that_deals_for_itself_is_judged_on_its_own_deals_in_process_and_over_stdio(capsys):
    """The reference shuffling for itself: no finding; the vectors and perft (which need given hands) skipped, and
    the report says the deals were the engine's own."""
    for spec in ("python:tests.engines.planted_turns:ShufflingReference",
                 f"{sys.executable} -m hearts_ref serve --engine python:tests.engines.planted_turns:ShufflingReference"):
        code, report = _conform(capsys, "--engine", spec, "--games", "12")
        assert code == 0 and report["summary"]["findings"] == [], report["summary"]
        assert report["engine"]["capabilities"]["deals"] is True
        assert report["steps"]["vectors"]["status"] == report["steps"]["perft"]["status"] == "skipped"
        assert "every deal is the engine's own" in report["steps"]["differential"]["note"]
        assert report["summary"]["counts"]["passed"] == len(report["cases"]) == 15


def test_no_finding_on_the_reference_served_over_stdio(capsys):
    code, report = _conform(capsys, "--engine", f"{sys.executable} -m hearts_ref serve")
    assert report["summary"]["findings"] == [] and code == 0
    counts = report["summary"]["counts"]
    assert counts["failed"] == counts["error"] == 0 and counts["passed"] == len(report["cases"])
    assert report["engine"]["capabilities"]["play_seat"] is True   # so plays out of turn were offered, and refused
    assert report["checks"]["TRICK-ORDER"][0] > 0 and report["checks"]["TRICK-ORDER"][1] == 0


def test_no_finding_on_openspiel_under_its_preset(capsys):
    pytest.importorskip("pyspiel")
    code, report = _conform(capsys, "--engine", "openspiel", "--preset", "openspiel")
    assert report["summary"]["findings"] == [] and code == 0
    counts = report["summary"]["counts"]
    assert counts["failed"] == counts["error"] == 0 and counts["passed"] > 100


def test_trick_winner_last_copy_wins_is_found_in_seed003_two_deck_games_and_the_reference_is_not(capsys):
    """Seed 003 for five players (two decks): the engine that lets the later of two identical cards win is named
    TRICK-WINNER first, in the vectors and in the differential games; the reference itself passes these rules."""
    rules = ("--preset", "seed003", "--set", "players=5", "--games", "20")
    code, report = _conform(capsys, "--engine", "python:tests.engines.planted:LastCopyWins", *rules)
    findings = [f for f in report["summary"]["findings"] if not f["expected"]]
    assert code == 1 and findings[0]["rule_id"] == "TRICK-WINNER", findings
    # Every failed case, too: a later copy of an ace winning also looks like an ace ranked low (DECK-CARDS).
    failed = [c for c in report["cases"] if c["status"] == "failed"]
    assert failed and all(c["rule_ids"][0] == "TRICK-WINNER" for c in failed), [c["rule_ids"] for c in failed]
    assert {f["kind"] for f in findings if f["rule_id"] == "TRICK-WINNER"} >= {"vector", "observation"}
    code, report = _conform(capsys, "--engine", "python:hearts_ref.engine:ReferenceEngine", *rules)
    assert code == 0 and report["summary"]["findings"] == [], report["summary"]["findings"]


@pytest.mark.parametrize("engine, rule_id, rules", [
    ("JackSignTurned", "SCORE-JACK", ("--set", "jd_bonus=true")),   # off by 20: its points and the moon's scores
    ("NextClubOpens", "LEAD-OPEN", ()),   # the dealer holding that club too: the lowest club mistaken, not the dealer
    ("NextClubOpens", "LEAD-OPEN", ("--preset", "seed002", "--set", "players=3", "--set", "pass_cycle=left-right-none")),
    ("HolderBeforePassOpens", "LEAD-OPEN", ()),   # its leader the dealer too, with no card it may play
    ("TwoOfClubsAlwaysOpens", "LEAD-OPEN", ("--set", "players=3", "--set", "pass_cycle=left-right-none")),
    ("RightPassesLeftSaysWhy", "PASS-CYCLE", ()),   # its citing a card on its way the other way: PASS-CYCLE
    ("AceLow", "DECK-CARDS", ()),
])
def test_a_bug_whose_every_finding_is_named_by_its_rule(engine, rule_id, rules, capsys):
    """Every failed case names the bug's rule first: with 5 players the club next above the lowest (4C) is also what
    an engine that removes 2C 3C instead of 2C 2D opens with (DECK-REMOVED, read first on the vectors' own deals)."""
    code, report = _conform(capsys, "--engine", f"python:tests.engines.planted:{engine}", "--games", "60", *rules)
    findings = [f for f in report["summary"]["findings"] if not f["expected"]]
    assert code == 1 and findings[0]["rule_id"] == rule_id, findings
    failed = [c for c in report["cases"] if c["status"] == "failed"]
    named = [(c["id"], c["rule_ids"]) for c in failed if c["rule_ids"][0] != rule_id]
    assert failed and all(rules[0] == "DECK-REMOVED" and ("five" in case or "5-players" in case)
                          for case, rules in named), named


def test_a_wrong_winner_that_the_ace_ranked_low_would_explain_is_trick_winner_once_the_game_shows_the_ace_high(capsys):
    """TRICK-WINNER, DECK-CARDS: an engine that gives the trick to the seat numbered as the winning card's place in
    it sometimes has the seat lead that the ace ranked low would make win. A trick of the game that went to the ace
    (or to another card the ace ranked low would not make win) shows it ranks the ace high: every game's finding is
    then TRICK-WINNER first; a vector, stopped at its first difference, may still say DECK-CARDS first."""
    code, report = _conform(capsys, "--engine", "python:tests.engines.planted:PlaceInTrickWins", "--games", "60")
    findings = [f for f in report["summary"]["findings"] if not f["expected"]]
    assert code == 1 and findings[0]["rule_id"] == "TRICK-WINNER", findings
    games = [c for c in report["cases"] if c["status"] == "failed" and c["kind"] in ("differential", "negative")]
    named = [(c["id"], c["rule_ids"]) for c in games if c["rule_ids"][0] != "TRICK-WINNER"]
    assert len(games) > 60 and not named, named


def test_hearts_kept_broken_into_the_next_round_is_found_at_that_rounds_deal(capsys):
    """BREAK-DISCARD: hearts are unbroken at the start of every round. An engine whose flag outlives the round is
    found at the next deal, before any card: in the vectors' games and in the differential games alike."""
    code, report = _conform(capsys, "--engine", "python:tests.engines.planted:HeartsStayBroken", "--games", "6",
                            "--negative-games", "0")
    failed = [c for c in report["cases"] if c["status"] == "failed"]
    assert code == 1 and {c["kind"] for c in failed} == {"vector", "differential"}
    assert all(c["rule_ids"] == ["BREAK-DISCARD"] for c in failed), [c["rule_ids"] for c in failed]
    for case in failed:
        if case["kind"] == "vector":
            assert (case["failure"]["what"], case["failure"]["field"]) == (f"deal of round {case['failure']['round']}",
                                                                          "hearts_broken")
            assert case["failure"]["round"] >= 2
        else:
            where = case["findings"][0]["where"]
            assert where["action"] == "deal" and where["round"] >= 2
    assert sum(c["kind"] == "differential" for c in failed) == 6   # hearts are broken in some round of every game
