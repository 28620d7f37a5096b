"""The runner's shortcuts give what the general paths give: uniform play drawn and ranked at once, the reference's
observations with their points worked out once, a campaign's report the same either way."""

from __future__ import annotations

import json
import random

from hearts_ref.deals import deal
from hearts_ref.engine import ReferenceEngine
from hearts_ref.game import Game
from hearts_ref.simulate import play_round_choices, random_pass
from hearts_ref.variants import Rules
from hearts_ref.conformance import differential, runner
from hearts_ref.conformance.differential import run_game
from hearts_ref.conformance.judge import reference_observation
from hearts_ref.conformance.decider import PolicyDecider
from hearts_ref.conformance.policies import Policy, make_policy

THREE = Rules(players=3, pass_cycle="left-right-none")


class _Generic(Policy):
    """Uniform play through ``choose_play`` itself: the decider does not take its shortcut."""

    def choose_play(self, state, allowed):
        return super().choose_play(state, allowed)


def _report(monkeypatch, policy_class, rules, seed):
    monkeypatch.setattr(runner, "make_policy", lambda name, rng, index=0: (
        policy_class(rng) if name == "uniform" else make_policy(name, rng, index=index)))
    report = runner.run_differential(ReferenceEngine, rules, 12, seed, negative_games=3, shrink_budget=0)
    data = json.loads(report.dumps(timings=False))
    for case in data["cases"]:
        case.pop("seconds", None)
    return data


def test_uniform_play_is_the_policys_own_choice_and_rank():
    """The shortcut draws the same card with the same random number and writes the same rank in the script."""
    for rules in (Rules(), THREE, Rules.preset("openspiel")):
        for seed in range(6):
            quick, slow = (PolicyDecider(cls(random.Random(seed))) for cls in (Policy, _Generic))
            assert quick._uniform is not None and slow._uniform is None
            ran = [run_game(ReferenceEngine(), rules, decider) for decider in (quick, slow)]
            assert ran[0].script == ran[1].script and ran[0].steps == ran[1].steps > 50
            assert [r.score for r in ran[0].game.results] == [r.score for r in ran[1].game.results]


def test_a_campaign_reports_the_same_with_and_without_the_uniform_shortcut(monkeypatch):
    for rules, seed in ((Rules(), 3), (THREE, 5)):
        assert _report(monkeypatch, Policy, rules, seed) == _report(monkeypatch, _Generic, rules, seed)


def test_the_observations_of_the_deal_and_the_passes_are_the_references():
    """Their points taken are worked out once per cards taken: each observation is still reference_observation's."""
    rng = random.Random(4)
    for rules in (Rules(), THREE, Rules(jd_bonus=True)):
        table = differential._Table(ReferenceEngine(), rules, PolicyDecider(Policy(rng)), None, False, None)
        game = Game.new(rules)
        for number in range(1, 4):   # the later rounds show the last round's scores and the totals
            game = game.deal_round(deal(rules, rng=rng), direction=rules.pass_direction(number))
            table.game, state = game, game.round
            assert table.observation(state) == reference_observation(game, state)
            while state.passing:
                state = state.choose_pass(state.to_move, random_pass(state, state.to_move, rng))
                assert table.observation(state) == reference_observation(game, state)
            assert table.observation(state).phase == "play"
            game = play_round_choices(game._replace(round=state), rng)
        assert any(game.totals)
