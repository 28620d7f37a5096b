"""The OpenSpiel adapter: real pyspiel, judged by the conformance runner against the reference."""

from __future__ import annotations

import pytest

pyspiel = pytest.importorskip("pyspiel")

from hearts_ref import CardSet, Rules, deal   # noqa: E402
from hearts_ref.conformance.runner import run_differential   # noqa: E402
from hearts_ref.engine import EngineRejection, ReferenceEngine   # noqa: E402
from hearts_ref.engines.openspiel import (   # noqa: E402
    ACTION_OF_CARD, CARD_OF_ACTION, OpenSpielEngine, check_card_mapping, openspiel_parameters,
)
from hearts_ref.conformance.shrink import Budget   # noqa: E402

SHRINK = Budget(seconds=None, replays=300)   # counted in games replayed: the same shrink on any machine

OPENSPIEL = Rules.preset("openspiel")


def _struct_hands(engine: OpenSpielEngine) -> list[CardSet]:
    return [CardSet.parse(" ".join(hand).replace("T", "10")) for hand in engine.state.to_struct().hands]


def test_card_mapping_agrees_with_openspiel_names():
    check_card_mapping(pyspiel.load_game("hearts"))
    assert sorted(CARD_OF_ACTION) == list(range(52))
    assert all(CARD_OF_ACTION[ACTION_OF_CARD[i]] == i for i in range(52))


def test_deal_hands_reach_openspiel_unchanged():
    """DEAL-HANDS: the adapter's deal actions give each OpenSpiel seat exactly the hand given."""
    hands = deal(OPENSPIEL, seed=11)
    engine = OpenSpielEngine()
    engine.new_game(OPENSPIEL)
    engine.start_round(hands, "none")
    assert _struct_hands(engine) == list(hands)


@pytest.mark.parametrize("direction", ["left", "right", "across"])
def test_pass_cycle_directions_agree_with_the_reference(direction):
    """PASS-CYCLE: after the same passes, OpenSpiel's hands equal the reference's."""
    hands = deal(OPENSPIEL, seed=5)
    engine, reference = OpenSpielEngine(), ReferenceEngine()
    for e in (engine, reference):
        e.new_game(OPENSPIEL)
        e.start_round(hands, direction)
    for seat in (2, 0, 3, 1):   # PASS-SIMULTANEOUS: any order of choosing
        cards = CardSet(list(hands[seat])[:3])
        engine.pass_cards(seat, cards)
        reference.pass_cards(seat, cards)
        assert engine.observe() == reference.observe()
    assert _struct_hands(engine) == [reference.game.round.hand(s) for s in range(4)]
    assert engine.legal_plays() == reference.legal_plays()


def test_invalid_follow_suit_play_is_refused_and_changes_nothing():
    """FOLLOW-SUIT: an illegal card becomes an EngineRejection before pyspiel sees it."""
    engine = OpenSpielEngine()
    engine.new_game(OPENSPIEL)
    engine.start_round(deal(OPENSPIEL, seed=3), "none")
    engine.play(next(iter(engine.legal_plays())))   # the 2C
    before, legal = engine.observe(), engine.legal_plays()
    seat = before.to_move
    off_suit = next(c for c in engine.state.to_struct().hands[seat] if not c.endswith("C"))
    if legal.suit(0):   # the seat holds clubs: any other card is illegal
        with pytest.raises(EngineRejection):
            engine.play(CardSet.parse(off_suit.replace("T", "10")).__iter__().__next__())
    with pytest.raises(EngineRejection):   # a card the seat does not hold
        engine.play(CardSet.parse("2C").__iter__().__next__())
    assert engine.observe() == before and engine.legal_plays() == legal


def test_invalid_pass_count_and_second_round_are_refused():
    engine = OpenSpielEngine()
    engine.new_game(OPENSPIEL)
    hands = deal(OPENSPIEL, seed=9)
    engine.start_round(hands, "left")
    with pytest.raises(EngineRejection):   # PASS-COUNT: two cards
        engine.pass_cards(0, CardSet(list(hands[0])[:2]))
    with pytest.raises(EngineRejection):   # PASS-COUNT: a card of another seat
        engine.pass_cards(0, CardSet(list(hands[0])[:2] + list(hands[1])[:1]))
    with pytest.raises(EngineRejection):   # one round per game
        engine.start_round(hands, "none")


def test_parameters_and_declared_limits():
    params = openspiel_parameters(Rules.preset("openspiel", first_trick_points="allowed", jd_bonus=True))
    assert params["no_pts_on_first_trick"] is False and params["jd_bonus"] is True
    capabilities = OpenSpielEngine().capabilities()
    assert not capabilities.multi_round
    for change in ({"players": 5, "pass_cycle": "left-right-none"}, {"moon": "subtract"}, {"first_trick_points": "forbidden"},
                   {"hearts_broken_by": "discard", "qs_breaks_hearts": True}):
        rules = Rules.preset("openspiel", **change)
        assert capabilities.cannot_play(rules)
        with pytest.raises(EngineRejection):
            OpenSpielEngine().new_game(rules)
    assert capabilities.cannot_play(OPENSPIEL) is None
    assert capabilities.unsupported["decks"] == (2,)           # DECK-CARDS: one deck of 52 cards
    assert capabilities.cannot_play(Rules.preset("seed003", players=5))


@pytest.mark.parametrize("changes", [{}, {"jd_bonus": True, "avoid_all_tricks_bonus": True},
                                     {"can_lead_any_club": True, "can_lead_hearts_instead_of_qs": True,
                                      "qs_breaks_hearts": False},
                                     {"first_trick_points": "allowed", "pass_cards": False}])
def test_openspiel_agrees_with_the_reference_under_its_own_rules(changes):
    """Every observable at every step, all policies and pass directions, negative checks too."""
    report = run_differential(OpenSpielEngine, Rules.preset("openspiel", **changes), 60, 7, negative_games=12,
                              shrink_budget=SHRINK)
    counts = report.summary()["counts"]
    assert counts["passed"] == 72, [c.reason for c in report.cases if c.status != "passed"][:3]
    assert report.checks["FOLLOW-SUIT"][0] > 0 and report.checks["LEAD-HEARTS"][0] > 0


def test_openspiel_must_break_hearts_false_is_reported_as_break_discard():
    """OpenSpiel shows hearts broken from the deal when they need no breaking; the reference does not."""
    report = run_differential(OpenSpielEngine, Rules.preset("openspiel", must_break_hearts=False), 12, 1,
                              shrink_budget=SHRINK, spec="openspiel")
    failed = [c for c in report.cases if c.status == "failed"]
    assert len(failed) == 12 and {c.rule_ids[0] for c in failed} == {"BREAK-DISCARD"}
    repro = failed[0].details["reproduction"]
    assert repro["rounds"] == 1 and repro["steps"] == 1
    assert repro["deviation"]["differences"] == [{"field": "hearts_broken", "expected": False, "actual": True}]
    assert repro["command"].startswith("hearts-ref conform --engine openspiel --replay hr1:")


def test_openspiel_playing_other_rules_is_judged_with_rule_ids():
    """OpenSpiel asked for qs_breaks_hearts but playing without it: BREAK-QUEEN, shrunk to one round."""
    report = run_differential(lambda: OpenSpielEngine(qs_breaks_hearts=False), OPENSPIEL, 12, 2,
                              shrink_budget=SHRINK)
    failed = [c for c in report.cases if c.status == "failed"]
    assert failed and all(c.rule_ids[0] == "BREAK-QUEEN" for c in failed)
    assert failed[0].details["reproduction"]["rounds"] == 1


def test_openspiel_under_the_default_preset_is_skipped_with_the_reason():
    report = run_differential(OpenSpielEngine, Rules(), 3, 0)
    assert [c.status for c in report.cases] == ["skipped"] * 3
    assert "hearts_broken_by='discard'" in report.cases[0].reason
    assert report.judged_nothing() and report.exit_code() == 2   # not a PASS: nothing was checked
    # an engine of one round per game is judged with games of one round, without being asked to
    report = run_differential(OpenSpielEngine, Rules.preset("openspiel", max_rounds=0), 2, 0)
    assert [c.status for c in report.cases] == ["passed"] * 2 and report.exit_code() == 0
    assert "max_rounds=1" in report.steps["differential"]["note"] and report.rounds == 2
