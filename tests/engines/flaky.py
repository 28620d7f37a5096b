"""An engine that refuses a legal card now and then: a flaky engine, whose failures do not reproduce.

:class:`RefusesNowAndThen` is the reference engine, but it refuses about one play in 50, drawn
from a random source of its own that no new game or fresh instance starts again (as a real
engine's unseeded random source, or state it leaks from one game to the next, would). Replayed,
its shrunk game fails at another step or not at all: the runner must report it ``flaky``, not
as a finding that reproduces. The source is seeded once per process, so a test run is the same
on any machine.
"""

from __future__ import annotations

import random

from hearts_ref.cards import Card
from hearts_ref.engine import EngineRejection, ReferenceEngine

ONE_IN = 50


class RefusesNowAndThen(ReferenceEngine):
    """FOLLOW-SUIT (as the runner reads it): about one play in 50 is refused, legal or not."""

    name = "flaky-refuses-now-and-then"
    chance = random.Random(ONE_IN)   # shared by every instance: a fresh engine does not start it again

    def play(self, card: Card) -> None:
        if self.chance.randrange(ONE_IN) == 0:
            raise EngineRejection(f"{card} may not be played now")
        super().play(card)
