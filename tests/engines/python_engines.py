"""In-process Python engines with planted faults, served by ``hearts-ref serve --engine python:...``."""

from __future__ import annotations

from hearts_ref import Capabilities, CardSet, ReferenceEngine


class FourPlayersOnly(ReferenceEngine):
    """Declares that it cannot play with 3, 5 or 6 players."""

    name = "four-players-only"

    def capabilities(self) -> Capabilities:
        return Capabilities(unsupported={"players": (3, 5, 6)}, known_deviations=("SCORE-MOON",))


class ExplodesOnThirdPlay(ReferenceEngine):
    """Raises ZeroDivisionError on the third play of each game: an internal error."""

    name = "explodes"

    def new_game(self, rules) -> None:
        super().new_game(rules)
        self.plays = 0

    def play(self, card) -> None:
        self.plays += 1
        if self.plays == 3:
            raise ZeroDivisionError("planted")
        super().play(card)


class IgnoresFollowSuit(ReferenceEngine):
    """A planted rules bug: while following, it offers the whole hand as legal (FOLLOW-SUIT ignored)."""

    name = "ignores-follow-suit"

    def legal_plays(self) -> CardSet:
        state = self.game.round if self.game is not None else None
        if state is None or state.phase != "play" or not state.trick:
            return super().legal_plays()
        return state.hand(state.to_move)


def ignores_follow_suit() -> IgnoresFollowSuit:
    """A factory: ``python:tests.engines.python_engines:ignores_follow_suit`` calls it for the engine."""
    return IgnoresFollowSuit()


# An engine object: ``python:tests.engines.python_engines:IGNORES_FOLLOW_SUIT`` is used as it is.
IGNORES_FOLLOW_SUIT = IgnoresFollowSuit()
