"""The catalogue as Hypothesis properties of whole games, on the reference engine and on deliberately broken engines.

The properties see an engine only through ``hearts_ref.engine.Engine``. Each broken engine
below is the reference with one rule gotten wrong (LEAD-OPEN, TRICK-WINNER, SCORE-MOON,
BREAK-DISCARD, FOLLOW-SUIT); the properties must catch each one and name the invariant.
"""

import pytest

from hearts_ref import Capabilities, CardSet, Observation, ReferenceEngine, Rules
from hearts_ref.cardset import HEARTS
from properties import GamePlan, PropertyViolation, check_engine, play_game


def test_reference_engine_keeps_every_invariant_in_generated_games():
    check_engine(ReferenceEngine, max_examples=40)


def test_reference_engine_under_every_preset_default_plan():
    for preset in ("seed000", "seed002", "seed004", "openspiel"):
        log = play_game(ReferenceEngine(), GamePlan(Rules.preset(preset, end_threshold=26)))
        assert log.rounds >= 1 and log.stuck is None


class AnyOpeningLead(ReferenceEngine):
    """LEAD-OPEN forgotten: offers the whole hand on the first lead."""

    def legal_plays(self):
        legal, state = super().legal_plays(), self.game.round
        if state is not None and state.first_trick and not state.trick:
            return state.hand(state.to_move)
        return legal


class LowestCardWins(ReferenceEngine):
    """TRICK-WINNER backwards: reports the seat after the real winner as the next leader."""

    def observe(self):
        o = super().observe()
        state = self.game.round
        if o.phase == "play" and state is not None and state.tricks and not state.trick:
            return Observation(o.phase, (o.to_move + 1) % state.rules.players, o.trick, o.hearts_broken,
                               o.points_taken, o.round_scores, o.totals, o.game_over, o.winners)
        return o


class NoMoon(ReferenceEngine):
    """SCORE-MOON forgotten: the round scores are always the raw points."""

    def observe(self):
        o = super().observe()
        if o.phase != "play" and o.round_scores is not None:
            return Observation(o.phase, o.to_move, o.trick, o.hearts_broken, o.points_taken, o.points_taken,
                               o.totals, o.game_over, o.winners)
        return o


class EarlyBreak(ReferenceEngine):
    """BREAK-DISCARD wrong: hearts shown broken from the second trick on."""

    def observe(self):
        o = super().observe()
        state = self.game.round
        if o.phase == "play" and state is not None and state.tricks:
            return Observation(o.phase, o.to_move, o.trick, True, o.points_taken, o.round_scores, o.totals,
                               o.game_over, o.winners)
        return o


class HeartLeadsAnyTime(ReferenceEngine):
    """LEAD-HEARTS forgotten: a leader may always lead a heart."""

    def legal_plays(self):
        legal, state = super().legal_plays(), self.game.round
        if state is not None and state.phase == "play" and not state.trick and state.tricks:
            return legal | (state.hand(state.to_move) & CardSet.from_mask(HEARTS))
        return legal


@pytest.mark.parametrize("engine, invariant", [
    (AnyOpeningLead, "OPENING-LEAD"), (LowestCardWins, "UNIQUE-TRICK-WINNER"),
    (NoMoon, {"SCORES-AS-STATED", "POINTS-PER-ROUND"}), (EarlyBreak, "HEARTS-BREAK-ON-PLAY"),
    (HeartLeadsAnyTime, "NO-EARLY-HEART-LEAD"),
])
def test_a_broken_engine_is_caught_and_the_invariant_named(engine, invariant):
    with pytest.raises(PropertyViolation) as caught:
        check_engine(engine, max_examples=200)
    wanted = invariant if isinstance(invariant, set) else {invariant}
    assert caught.value.invariant in wanted, str(caught.value)


class TotalsForgotten(ReferenceEngine):
    """SCORE-TOTAL forgotten: the totals show the last round's scores only."""

    def observe(self):
        o = super().observe()
        if self.game.results and o.totals is not None:
            return Observation(o.phase, o.to_move, o.trick, o.hearts_broken, o.points_taken, o.round_scores,
                               self.game.results[-1].score.scores, o.game_over, o.winners)
        return o


def test_totals_are_sums_catches_totals_that_forget_earlier_rounds():
    with pytest.raises(PropertyViolation) as caught:
        play_game(TotalsForgotten(), GamePlan(Rules(end_threshold=60)))
    assert caught.value.invariant == "TOTALS-ARE-SUMS"


def test_unsound_rules_stop_where_a_player_is_stuck():
    """Seed 003's literal FOLLOW-VOID rule: a void player holding only hearts while unbroken has no play."""
    rules = Rules.preset("seed003", end_threshold=26)
    stuck = [play_game(ReferenceEngine(), GamePlan(rules, (seed,))).stuck for seed in range(40)]
    assert any(stuck)
    assert all(CardSet.parse(s[1]) <= CardSet.from_mask(HEARTS) for s in stuck if s)


class FourPlayersOneRound(ReferenceEngine):
    """An engine like OpenSpiel's: four players, one round, no pass."""

    def capabilities(self):
        return Capabilities(multi_round=False, passing=False, unsupported={"players": (3, 5, 6)})

    def start_round(self, hands, direction):
        assert self.game.rules.players == 4 and direction == "none" and not self.game.results
        super().start_round(hands, direction)


def test_engine_capabilities_are_respected_by_the_game_properties():
    check_engine(FourPlayersOneRound, max_examples=30)
    assert play_game(FourPlayersOneRound(), GamePlan(Rules())).rounds == 1
