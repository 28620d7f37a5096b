"""Engines served by ``hearts-ref serve --engine python:tests.engines.late:...`` that play the reference's game but
write it otherwise, or leave it late: for the runner's rounds judged from their reply lines in one go."""

from __future__ import annotations

import dataclasses

from hearts_ref import ReferenceEngine
from hearts_ref.engine import Observation


class MiscountsSecondRound(ReferenceEngine):
    """The reference, but in each game's second round it shows the fourth trick's second card as its first."""

    name = "miscounts-second-round"

    def observe(self) -> Observation:
        seen = super().observe()
        game = self.game
        state = game.round if game is not None else None
        if state is not None and len(game.results) == 1 and len(state.tricks) == 3 and len(seen.trick) == 2:
            return dataclasses.replace(seen, trick=seen.trick[::-1])
        return seen
