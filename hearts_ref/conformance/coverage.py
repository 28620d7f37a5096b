"""Edge coverage: how often a campaign's games reached the situations of :mod:`.situations`.

A differential game only tests what it plays through. This module counts, in the
reference's finished games, the situations of the rules' catalogue (a leader with only
hearts while they are unbroken, a moon spoiled by one heart, a tie for the lowest total …),
each once per round that reached it, so that a report can say the engine agreed with the
reference *through* them; and ``rounds``, the rounds counted.

>>> from hearts_ref.simulate import random_game
>>> from hearts_ref.variants import Rules
>>> tally = game_coverage(random_game(Rules(), seed=2))
>>> tally["rounds"] > 1, tally["PASS-CYCLE/left"] >= 1, tally["LEAD-HEARTS/only-hearts"] <= tally["rounds"]
(True, True, True)
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

from hearts_ref.game import Game
from hearts_ref.conformance.situations import game_situations

__all__ = ["game_coverage"]


def game_coverage(game: Game, plays: dict[int, Sequence[tuple[Any, Any, Any]]] | None = None) -> Counter:
    """Return how many rounds of a finished game reached each situation, and ``rounds``: its rounds. ``plays``: the
    reference's plays of rounds judged in one go, by round number, read instead of replayed
    (:func:`~.situations.round_situations`)."""
    tally: Counter = Counter()
    for reached in game_situations(game, plays):
        tally.update(reached)
    tally["rounds"] += len(game.results)
    return tally
