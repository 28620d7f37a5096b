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
