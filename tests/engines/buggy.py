"""Engines with planted bugs: each is the reference engine with one rule broken.

The conformance tests check that the runner finds each bug, names the rule it breaks,
and shrinks the failing game to at most one round.
"""

from __future__ import annotations

import dataclasses

from hearts_ref.cards import Card
from hearts_ref.engine import EngineRejection, ReferenceEngine
from hearts_ref.legality import legal_plays
from hearts_ref.variants import Rules

__all__ = ["QueenBreaksHearts", "OffSuitWinner", "NoFirstTrickException", "MoonOff", "HeartsLedEarly",
           "TotalsForgotten", "StrictThreshold", "AcceptsIllegalPlays", "PLANTED"]


class _Misreads(ReferenceEngine):
    """The reference engine playing other rules than it was asked to."""

    changes: dict = {}

    def new_game(self, rules: Rules) -> None:
        super().new_game(dataclasses.replace(rules, **self.changes))


class QueenBreaksHearts(_Misreads):
    """BREAK-QUEEN: the queen of spades breaks hearts although the rules say it does not."""

    name = "buggy-queen-breaks-hearts"
    changes = {"qs_breaks_hearts": True}


class NoFirstTrickException(_Misreads):
    """FIRST-EXCEPTION forgotten: a hand of only point cards may not play one on the first trick."""

    name = "buggy-no-first-trick-exception"
    changes = {"first_trick_points": "forbidden"}


class MoonOff(_Misreads):
    """SCORE-MOON: the shooter keeps its 26 points and the others get nothing."""

    name = "buggy-moon-off"
    changes = {"moon": "off"}


class HeartsLedEarly(_Misreads):
    """LEAD-HEARTS: hearts may be led before they are broken."""

    name = "buggy-hearts-led-early"
    changes = {"must_break_hearts": False}


class StrictThreshold(_Misreads):
    """END-THRESHOLD: the game ends only above the threshold, not on it."""

    name = "buggy-strict-threshold"
    changes = {"end_comparison": ">"}


class OffSuitWinner(ReferenceEngine):
    """TRICK-WINNER: the highest rank wins the trick whatever its suit (the first played on equal ranks)."""

    name = "buggy-off-suit-winner"

    def play(self, card: Card) -> None:
        state = self._game().round
        completes = (state is not None and len(state.trick) == state.rules.players - 1
                     and not (state.first_trick and state.rules.extra_cards))   # one card from each seat
        super().play(card)
        after = self.game.round
        if not completes or after is None:
            return
        trick = state.trick + (card.index,)
        ranks = [c % 13 for c in trick]
        winner = (state.leader + ranks.index(max(ranks))) % state.rules.players
        right = after.leader
        if winner == right:
            return
        won = 0
        for c in trick:
            won |= 1 << c
        taken = list(after.taken)
        taken[right] &= ~won
        taken[winner] |= won
        self.game = self.game._replace(round=after._replace(
            leader=winner, to_play=winner, taken=tuple(taken),
            legal=legal_plays(after.hands[winner], after.context, after.rules)))


class TotalsForgotten(ReferenceEngine):
    """SCORE-TOTAL: the totals show only the last round's scores."""

    name = "buggy-totals-forgotten"

    def observe(self):
        observation = super().observe()
        if self.game.results:
            observation = dataclasses.replace(observation, totals=self.game.results[-1].score.scores)
        return observation


class AcceptsIllegalPlays(ReferenceEngine):
    """No rejection: an illegal play is silently ignored instead of refused."""

    name = "buggy-accepts-illegal-plays"

    def play(self, card: Card) -> None:
        try:
            super().play(card)
        except EngineRejection:
            pass


# Each planted bug and the rule ID the runner must name first.
PLANTED = {
    QueenBreaksHearts: "BREAK-QUEEN",
    OffSuitWinner: "TRICK-WINNER",
    NoFirstTrickException: "FIRST-EXCEPTION",
    MoonOff: "SCORE-MOON",
    HeartsLedEarly: "LEAD-HEARTS",
}
