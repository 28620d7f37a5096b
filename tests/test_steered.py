"""Targeted games of an engine that deals for itself: its deals steered through the passes and plays alone, and the
situations that need a constructed deal listed, with the reason, in the JSON report and on the console."""

from __future__ import annotations

import random
from collections import Counter

from hearts_ref import Rules, deal
from hearts_ref.conformance.differential import run_game
from hearts_ref.conformance.decider import PolicyDecider
from hearts_ref.conformance.policies import make_policy
from hearts_ref.conformance.report import Report, merge_reports
from hearts_ref.conformance.summary import console_summary
from hearts_ref.conformance.runner import run_differential
from hearts_ref.conformance.endings import distance
from hearts_ref.conformance.coverage import end_situations, game_situations
from hearts_ref.game import is_game_over
from hearts_ref.conformance.steered import UNTARGETED, Ending, _tries, steered_aims, steered_round, untargeted
from hearts_ref.conformance.targets import outcome, reached
from hearts_ref.reading import check_schema
from hearts_ref.engine import ReferenceEngine
from tests.engines.planted_turns import ShufflingReference

THREE = Rules(players=3, pass_cycle="left-right-none")


def test_a_steered_round_passes_the_dealt_cards_and_reaches_what_it_aims_at():
    rules = Rules()
    hit = Counter()
    for seed in range(12):
        dealt = tuple(hand.mask for hand in deal(rules, seed=seed))
        for aim in ("SCORE-MOON/moon", "BREAK-QUEEN/queen-discarded", "SCORE-NO-TRICKS/no-trick"):
            passes, plan = steered_round(rules, dealt, "left", (aim,))
            assert all(p.bit_count() == 3 and not p & ~hand for p, hand in zip(passes, dealt))
            # the hands at the first lead are the dealt ones after the pass: nothing is stacked
            assert sorted(plan.hands) == sorted((h & ~passes[s]) | passes[(s - 1) % 4] for s, h in enumerate(dealt))
            hit[aim] += aim in reached(rules, plan)
    assert hit["SCORE-MOON/moon"] >= 3 and hit["BREAK-QUEEN/queen-discarded"] >= 4
    assert hit["SCORE-NO-TRICKS/no-trick"] >= 10


def test_the_targeted_games_of_a_dealing_engine_play_the_steered_choices():
    """What the policy planned for each dealt round is what the game on the reference reached."""
    rules = Rules()
    for index in range(3):
        policy = make_policy("targeted", random.Random(index), index=index)
        run = run_game(ShufflingReference(seed=index), rules, PolicyDecider(policy, engine_deals=True))
        assert run.findings == [] and policy.planned
        played = set().union(*game_situations(run.game))
        assert policy.seen and policy.seen <= played


def test_steered_games_reach_the_rare_situations_far_more_often_than_uniform_play():
    """Each situation uniform play reaches in fewer than a tenth of its rounds, on the same engine's own deals."""
    for rules in (Rules(), THREE):
        counts = {policy: run_differential(ShufflingReference, rules, 12, 0, shrink_budget=0,
                                           policies=(policy,)).coverage for policy in ("uniform", "targeted")}
        uniform, targeted = counts["uniform"], counts["targeted"]
        rare = [name for name in steered_aims(rules) if uniform.get(name, 0) < uniform["rounds"] / 10]
        assert {"SCORE-MOON/moon", "LEAD-HEARTS/only-hearts", "BREAK-QUEEN/queen-discarded"} <= set(rare)
        low = {name: (uniform.get(name, 0), targeted.get(name, 0)) for name in rare
               if targeted.get(name, 0) < 3 * max(1, uniform.get(name, 0))}
        assert not low, (rules.players, low)


def test_toward_an_end_the_round_whose_scores_end_the_game_as_aimed_is_chosen():
    """Of the tries, one whose scores land the highest total exactly on the threshold is the one kept."""
    rules = Rules()
    exact = lambda totals, scores: "END-THRESHOLD/exact" in end_situations(   # noqa: E731
        totals, after := tuple(t + s for t, s in zip(totals, scores)), is_game_over(after, 5, rules), rules)
    steered = 0
    for seed in range(6):
        dealt = tuple(hand.mask for hand in deal(rules, seed=seed))
        tried = [outcome(rules, plan)[1] for _, plan in _tries(rules, dealt, "left")]
        scores = tried[-1]
        top = scores.index(max(scores))
        totals = tuple(rules.end_threshold - scores[top] if seat == top else 0 for seat in range(4))
        passes, plan = steered_round(rules, dealt, "left", ("SCORE-MOON/moon",),
                                     ending=Ending(totals, 5, "END-THRESHOLD/exact"))
        assert exact(totals, outcome(rules, plan)[1])
        steered += not all(exact(totals, other) for other in tried)
    assert steered >= 3      # the threshold was not landed on by every try: the choice made it
    assert distance(rules, "WIN-TIE/2-share", (0, 0, 5, 7)) < distance(rules, "WIN-TIE/2-share", (0, 3, 5, 7))


def test_the_report_lists_each_situation_a_dealing_engine_could_not_be_targeted_at_with_the_reason():
    rules = Rules()
    report = run_differential(ShufflingReference, rules, 4, 0, shrink_budget=0)
    assert report.untargeted == {name: UNTARGETED[name] for name in ("FIRST-EXCEPTION/only-points",
                                                                      "TRICK-WINNER/first-trick-unfollowed")}
    rows = {row["name"]: row for row in report.to_dict()["situations"]}
    assert "constructed deal" in rows["FIRST-EXCEPTION/only-points"]["untargeted"]
    assert "untargeted" not in rows["SCORE-MOON/moon"] and "untargeted" not in rows["WIN-TIE/2-share"]
    check_schema(report.to_dict(), "report.schema.json")
    again = Report.from_dict(report.to_dict())
    assert again.untargeted == report.untargeted and merge_reports([again]).untargeted == report.untargeted
    console = console_summary(report)
    assert "could not be targeted: needs a hand of only point cards" in console
    assert not run_differential(ReferenceEngine, rules, 4, 0, shrink_budget=0).untargeted   # its deals are stacked
    assert not run_differential(ShufflingReference, rules, 4, 0, shrink_budget=0, policies=("uniform",)).untargeted
    assert untargeted(THREE, ["FIRST-EXCEPTION/only-points", "WIN-TIE/2-share"]) == {
        "FIRST-EXCEPTION/only-points": UNTARGETED["FIRST-EXCEPTION/only-points"]}
