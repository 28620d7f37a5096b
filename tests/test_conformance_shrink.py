"""Shrinking: a finding of the end or the winners comes back in at most five rounds, the same on any machine."""

from __future__ import annotations

import pytest

from hearts_ref.conformance.runner import run_differential
from hearts_ref.conformance.shrink import Budget
from hearts_ref.conformance.short_games import round_pool, short_games
from hearts_ref.game import is_game_over
from hearts_ref.variants import Rules
from tests.engines.buggy import StrictThreshold
from tests.engines.planted import EndBeforeMoon, HighestWins

COUNTED = Budget(seconds=None, replays=60)   # counted in games replayed: no clock, no load


@pytest.mark.parametrize("engine, rule_id", [(StrictThreshold, "END-THRESHOLD"), (EndBeforeMoon, "END-THRESHOLD"),
                                             (HighestWins, "WIN-LOWEST")], ids=lambda e: getattr(e, "__name__", e))
def test_a_finding_of_the_end_shrinks_to_at_most_five_rounds(engine, rule_id):
    report = run_differential(engine, Rules(), 24, 0, shrink_budget=COUNTED, max_shrinks=1)
    failed = [case for case in report.cases if case.status == "failed"]
    assert failed and failed[0].rule_ids[0] == rule_id
    repro = failed[0].details["reproduction"]
    assert repro["first_difference"] and repro["rounds"] <= 5, (repro["rounds"], repro["search"])
    assert repro["search"]["replays"] <= COUNTED.replays


def test_a_counted_budget_shrinks_the_same_way_twice():
    runs = [run_differential(StrictThreshold, Rules(), 12, 0, shrink_budget=Budget(seconds=None, replays=25),
                             max_shrinks=1) for _ in range(2)]
    repros = [next(c for c in r.cases if "reproduction" in c.details).details["reproduction"] for r in runs]
    assert repros[0]["case"] == repros[1]["case"] and repros[0]["search"]["replays"] == 25


def test_short_games_end_in_each_way_within_five_rounds():
    """Under the defaults: a total exactly on the threshold, a tie for the lowest, a moon at the end, all in 4-5 rounds."""
    rules = Rules()
    games = short_games(rules)
    endings = [game.ending for game in games if game.over]
    assert any(ending[1] for ending in endings)            # a total exactly on the threshold
    assert any(ending[3] >= 2 for ending in endings)       # the lowest total shared
    assert any(ending[5] for ending in endings)            # the card points before the moon would decide otherwise
    for game in games:
        totals = (0,) * rules.players
        for number, played in enumerate(game.rounds, 1):
            totals = tuple(t + s for t, s in zip(totals, played.scores))
            assert is_game_over(totals, number, rules) == (game.over and number == len(game.rounds))
        assert len(game.rounds) <= 5
    moons = [r for r in round_pool(rules) if r.scores != r.points]
    assert {r.points.index(26) for r in moons} == {0, 1, 2, 3}   # a moon for every seat


def test_a_finding_shows_sooner_in_a_deal_a_swap_of_two_cards_away():
    """DEAL-HANDS: a J♦ counted without the variant shows at the first trick's end once the round is dealt so that
    the lowest cards take it there; its script alone shrinks only to the tenth trick."""
    from tests.engines.planted import JackAlwaysCounts

    report = run_differential(JackAlwaysCounts, Rules(), 20, 0, shrink_budget=Budget(seconds=None, replays=3000),
                              max_shrinks=1)
    repro = next(case for case in report.cases if "reproduction" in case.details).details["reproduction"]
    assert repro["deviation"]["rule_ids"][0] == "SCORE-JACK"
    assert (repro["rounds"], repro["tricks"], repro["steps"]) == (1, 1, 5), (repro["tricks"], repro["search"])
    assert any(play.endswith(":JD") for play in repro["game"][0]["plays"])


def test_an_engine_failure_shrinks_to_the_first_trick_under_the_first_trick_exception():
    """The crash at every Q♠ comes back as a game whose Q♠ falls on the first trick, right after the 2♣: from a hand
    of no club and only points (FIRST-EXCEPTION), in a deal a few swaps from the one played."""
    from hearts_ref.cardset import POINT_CARDS_SET, CardSet
    from tests.engines.python_engines import CrashesOnTheQueen

    report = run_differential(CrashesOnTheQueen, Rules(), 1, 0, shrink_budget=Budget(seconds=None, replays=5000))
    repro = report.cases[0].details["error"]["reproduction"]
    assert (repro["tricks"], repro["search"]["finished"]) == (1, True), repro["search"]
    where, (round_,) = repro["deviation"]["where"], repro["game"]
    assert (where["trick"], where["card"], round_["plays"]) == (1, "QS", [f"{(where['seat'] - 1) % 4}:2C"])
    hand = CardSet.parse(round_["hands"][where["seat"]])
    assert hand & POINT_CARDS_SET == hand, hand   # a hand of points only: the exception lets the Q♠ fall
