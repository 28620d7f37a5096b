"""Shrinking a failing game with Hypothesis, and writing it down as a reproduction.

A deviation found in a long game is hard to read. :func:`shrink_game` hands the game's
choice script (:mod:`.script`) to Hypothesis as a known failing example and lets its
shrinker look for the smallest script that still fails in the same way (the same kind
of deviation, the same first rule ID): fewer steps first (the fewest rounds and tricks),
then lower choices (the lowest card, the lowest deal). It stops after a time budget and
keeps the smallest failing script seen.

:func:`transcript` replays a script on the reference alone and returns the game up to a
step: the hands, the passes and the tricks.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from hearts_ref.cardset import CardSet
from hearts_ref.engine import Engine, ReferenceEngine
from hearts_ref.variants import Rules
from hearts_ref.conformance.differential import Deviation, GameRun, run_game
from hearts_ref.conformance.negative import NegativeChecks
from hearts_ref.conformance.script import ListSource, ScriptDecider

__all__ = ["Shrunk", "shrink_game", "drop_rounds", "replay_script", "transcript"]


@dataclass(frozen=True)
class Shrunk:
    """The smallest failing script found, its deviation, and how the search went."""

    script: tuple[int, ...]
    run: GameRun        # the smallest failing game, as played
    examples: int
    seconds: float
    finished: bool     # False when the time budget ran out first

    def to_dict(self) -> dict[str, Any]:
        return {"examples": self.examples, "seconds": round(self.seconds, 3), "finished": self.finished}


def replay_script(engine: Engine, rules: Rules, script: Sequence[int], *, negative: bool,
                  per_round: int = 2) -> GameRun:
    """Play the game of ``script`` on ``engine`` and the reference; return what happened."""
    return run_game(engine, rules, ScriptDecider(ListSource(script)),
                    negative=NegativeChecks(per_round) if negative else None)


def _shortlex(script: Sequence[int]) -> tuple[int, tuple[int, ...]]:
    return len(script), tuple(script)


def _fails_alike(run: GameRun, target: Deviation) -> bool:
    return run.deviation is not None and run.deviation.signature() == target.signature()


def drop_rounds(engine: Engine, rules: Rules, failing: GameRun, *, negative: bool,
                in_time: Callable[[], bool]) -> GameRun:
    """Return a game with fewer rounds that fails like ``failing``: the failing round alone if it
    still fails, else without each earlier round that it does not need (tried one by one)."""
    script, starts, target = failing.script, failing.round_starts, failing.deviation
    rounds = [script[a:b] for a, b in zip(starts, starts[1:] + [len(script)])]
    if len(rounds) < 2 or not in_time():
        return failing
    run = replay_script(engine, rules, rounds[-1], negative=negative)
    if _fails_alike(run, target):
        return run
    best, keep = failing, list(range(len(rounds)))
    for dropped in range(len(rounds) - 1):
        if not in_time():
            break
        candidate = [k for k in keep if k != dropped]
        run = replay_script(engine, rules, [value for k in candidate for value in rounds[k]], negative=negative)
        if _fails_alike(run, target):
            best, keep = run, candidate
    return best


def shrink_game(engine: Engine, rules: Rules, failing: GameRun, *, negative: bool, budget: float = 10.0,
                clock: Callable[[], float] = time.monotonic) -> Shrunk:
    """Return the smallest game found within ``budget`` seconds that fails like ``failing``.

    First whole rounds are dropped (:func:`drop_rounds`), then Hypothesis shrinks the choices.
    """
    from hypothesis import HealthCheck, Phase, Verbosity, find, settings
    from hypothesis import strategies as st
    from hypothesis.database import InMemoryExampleDatabase
    from hypothesis.errors import NoSuchExample

    start = clock()
    deadline = start + budget
    target = failing.deviation
    failing = drop_rounds(engine, rules, failing, negative=negative, in_time=lambda: clock() < deadline)
    script = failing.script
    best: list[Any] = [tuple(script), failing]
    examples = [0]
    limit = failing.deviation.step + rules.players   # a smaller game fails no later, give or take a trick
    integers: dict[int, Any] = {}

    def draw(data: Any, count: int) -> int:
        strategy = integers.get(count)
        if strategy is None:
            strategy = integers[count] = st.integers(0, count - 1)
        return data.draw(strategy)

    def fails(data: Any) -> bool:
        if clock() > deadline:
            raise _OutOfTime
        examples[0] += 1
        decider = ScriptDecider(lambda count: draw(data, count))
        run = run_game(engine, rules, decider, negative=NegativeChecks() if negative else None, max_steps=limit)
        if not _fails_alike(run, target):
            return False
        found = tuple(run.script)
        if _shortlex(found) <= _shortlex(best[0]):
            best[0], best[1] = found, run
        return True

    database = InMemoryExampleDatabase()
    key = b"hearts-ref-shrink"
    phases, seeded = [Phase.reuse, Phase.shrink], random.Random(0)   # the same shrink every run
    try:   # the failing game goes in as a known example; the secondary corpus is replayed, then shrunk
        from hypothesis.database import choices_to_bytes
        database.save(key + b".secondary", choices_to_bytes(tuple(script)))
    except ImportError:   # an older Hypothesis: it searches from scratch, and the original stays if it fails
        phases = [Phase.generate, Phase.shrink]
    config = settings(database=database, phases=phases, max_examples=200, deadline=None,
                      verbosity=Verbosity.quiet, suppress_health_check=list(HealthCheck))
    try:
        find(st.data(), fails, settings=config, database_key=key, random=seeded)
    except (NoSuchExample, _OutOfTime):
        pass
    except Exception:   # Hypothesis reports the budget's end as flakiness: the best script is kept
        pass
    seconds = clock() - start
    return Shrunk(best[0], best[1], examples[0], seconds, seconds <= budget)


class _OutOfTime(Exception):
    """Raised inside the search when the budget is spent; Hypothesis lets it through."""


class _Recorder(ReferenceEngine):
    """The reference engine, writing down every move it accepts."""

    def __init__(self) -> None:
        super().__init__()
        self.moves: list[tuple[str, Any]] = []

    def start_round(self, hands: Sequence[CardSet], direction: str) -> None:
        super().start_round(hands, direction)
        self.moves.append(("deal", (tuple(str(h) for h in hands), direction)))

    def pass_cards(self, seat: int, cards: CardSet) -> None:
        super().pass_cards(seat, cards)
        self.moves.append(("pass", (seat, str(cards))))

    def play(self, card: Any) -> None:
        seat = self._game().round.to_move
        super().play(card)
        self.moves.append(("play", (seat, str(card))))


def transcript(rules: Rules, script: Sequence[int], *, negative: bool, steps: int) -> list[dict[str, Any]]:
    """Return the game of ``script`` as the reference plays it, up to ``steps`` moves: one entry per round."""
    recorder = _Recorder()
    replay_script(recorder, rules, script, negative=negative)
    rounds: list[dict[str, Any]] = []
    for kind, value in recorder.moves[:steps]:
        if kind == "deal":
            hands, direction = value
            rounds.append({"round": len(rounds) + 1, "direction": direction, "hands": list(hands),
                           "passes": {}, "plays": []})
        elif kind == "pass":
            rounds[-1]["passes"][str(value[0])] = value[1]
        else:
            rounds[-1]["plays"].append(f"{value[0]}:{value[1]}")
    return rounds
