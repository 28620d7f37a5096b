"""Shrinking a finding to a small game in which it is the first difference, and writing it down.

A game plays on past its differences, so a finding may show after others. Its reproduction
must start with it: :func:`shrink_game` first looks for a game whose *first* difference is
the finding (the finding's round alone; the game without each earlier round it does not
need; the failing game itself: :func:`first_difference_game`), then hands that game's
choice script (:mod:`.script`) to Hypothesis as a known failing example and lets its
shrinker look for the smallest script whose first difference is still that finding (the
same kind, the same rule broken): fewer steps first (the fewest rounds and tricks), then
lower choices (the lowest card, the lowest deal). It stops after a time budget and keeps
the smallest script seen. A finding that no game found within the budget shows first keeps
its whole game, marked as such (it then replays with play-on).

:func:`transcript` writes down a game as the reference played it beside the engine: the
hands, the passes and the plays.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from hearts_ref.cards import CARDS
from hearts_ref.cardset import CardSet
from hearts_ref.engine import Engine
from hearts_ref.game import Game
from hearts_ref.variants import Rules
from hearts_ref.conformance.differential import GameRun, run_game
from hearts_ref.conformance.negative import NegativeChecks
from hearts_ref.conformance.script import ListSource, ScriptDecider

__all__ = ["Shrunk", "shrink_game", "first_difference_game", "fewer_rounds", "replay_script", "transcript"]

Signature = tuple[str, str]


@dataclass(frozen=True)
class Shrunk:
    """The smallest game found whose first difference is the finding, and how the search went.

    ``first`` is False when no game was found in which the finding comes first: ``run`` is
    then the original game, played on past its earlier differences.
    """

    script: tuple[int, ...]
    run: GameRun        # the smallest failing game, as played
    examples: int
    seconds: float
    finished: bool      # False when the time budget ran out first
    first: bool = True

    def to_dict(self) -> dict[str, Any]:
        return {"examples": self.examples, "seconds": round(self.seconds, 3), "finished": self.finished,
                "first_difference": self.first}


def replay_script(engine: Engine, rules: Rules, script: Sequence[int], *, negative: bool, stop_at_first: bool = False,
                  per_round: int = 2) -> GameRun:
    """Play the game of ``script`` on ``engine`` and the reference; return what happened."""
    return run_game(engine, rules, ScriptDecider(ListSource(script)), stop_at_first=stop_at_first,
                    negative=NegativeChecks(per_round) if negative else None)


def _shortlex(script: Sequence[int]) -> tuple[int, tuple[int, ...]]:
    return len(script), tuple(script)


def _first_is(run: GameRun, target: Signature) -> bool:
    return run.deviation is not None and run.deviation.signature() == target


def _rounds(run: GameRun) -> list[list[int]]:
    script, starts = run.script, run.round_starts
    return [script[a:b] for a, b in zip(starts, starts[1:] + [len(script)])]


def _shows(run: GameRun, target: Signature, first: bool) -> bool:
    """Whether the game shows the finding ``target``: as its first difference, or (``first`` False) at all."""
    return _first_is(run, target) if first else run.finding(target) is not None


def fewer_rounds(engine: Engine, rules: Rules, failing: GameRun, target: Signature, *, first: bool, negative: bool,
                 in_time: Callable[[], bool]) -> GameRun | None:
    """Return a game of as few rounds as found that shows the finding ``target`` of ``failing`` (as its first
    difference when ``first``), or None if none does.

    Tried in turn: the finding's round alone; the rounds up to the finding's, without each
    earlier round it does not need; the failing game itself.
    """
    found = failing.finding(target)
    rounds = _rounds(failing)
    number = found.round if found is not None and found.round else len(rounds)
    best = failing if _shows(failing, target, first) else None
    if not 1 <= number <= len(rounds) or len(rounds) == 1 or not in_time():
        return best
    run = replay_script(engine, rules, rounds[number - 1], negative=negative, stop_at_first=first)
    if _shows(run, target, first):
        return run
    keep = list(range(number))
    for dropped in range(number - 1):
        if not in_time():
            break
        candidate = [k for k in keep if k != dropped]
        run = replay_script(engine, rules, [v for k in candidate for v in rounds[k]], negative=negative,
                            stop_at_first=first)
        if _shows(run, target, first):
            best, keep = run, candidate
    return best


def first_difference_game(engine: Engine, rules: Rules, failing: GameRun, target: Signature, *, negative: bool,
                          in_time: Callable[[], bool]) -> GameRun | None:
    """Return a game, of as few rounds as found, whose first difference is the finding ``target``, or None."""
    return fewer_rounds(engine, rules, failing, target, first=True, negative=negative, in_time=in_time)


def shrink_game(engine: Engine, rules: Rules, failing: GameRun, *, negative: bool, budget: float = 10.0,
                target: Signature | None = None, clock: Callable[[], float] = time.monotonic) -> Shrunk:
    """Return the smallest game found within ``budget`` seconds whose first difference is the finding ``target``.

    ``target`` is a finding's signature (its kind and rule); by default the failing game's first.
    A finding that no game tried shows first is shrunk as a game that shows it, played on.
    """
    start = clock()
    deadline = start + budget
    in_time = lambda: clock() < deadline   # noqa: E731
    target = target or failing.deviation.signature()
    seed = first_difference_game(engine, rules, failing, target, negative=negative, in_time=in_time)
    first = seed is not None
    if not first:
        seed = fewer_rounds(engine, rules, failing, target, first=False, negative=negative, in_time=in_time) \
            or failing
    return _hypothesis_shrink(engine, rules, seed, target, negative, first, deadline, start, budget, clock)


def _hypothesis_shrink(engine: Engine, rules: Rules, failing: GameRun, target: Signature, negative: bool,
                       first: bool, deadline: float, start: float, budget: float,
                       clock: Callable[[], float]) -> Shrunk:
    from hypothesis import HealthCheck, Phase, Verbosity, find, settings
    from hypothesis import strategies as st
    from hypothesis.database import InMemoryExampleDatabase
    from hypothesis.errors import NoSuchExample

    script = failing.script
    best: list[Any] = [tuple(script), failing]
    examples = [0]
    shown = failing.finding(target)
    limit = (shown.step if shown is not None else failing.steps) + rules.players   # a smaller game shows it no later
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
        decider = ScriptDecider(ListSource([], more=lambda count: draw(data, count)))
        run = run_game(engine, rules, decider, negative=NegativeChecks() if negative else None, max_steps=limit,
                       stop_at_first=first)
        if not _shows(run, target, first):
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
    return Shrunk(best[0], best[1], examples[0], seconds, seconds <= budget, first)


class _OutOfTime(Exception):
    """Raised inside the search when the budget is spent; Hypothesis lets it through."""


def transcript(game: Game | None) -> list[dict[str, Any]]:
    """Return a game as the reference played it (:attr:`GameRun.reference`): one entry per round, with the
    hands as dealt, the passes and the plays (``seat:card``) so far."""
    if game is None:
        return []
    rounds: list[dict[str, Any]] = []
    played = [(r.direction, r.dealt, r.passes, r.tricks, ()) for r in game.results]
    state = game.round
    if state is not None:
        played.append((state.direction, state.dealt, state.passes, state.tricks, state.trick))
    n = game.rules.players
    for number, (direction, dealt, passes, tricks, trick) in enumerate(played, 1):
        plays = [f"{t.seat_of(k, n)}:{card}" for t in tricks for k, card in enumerate(t.cards)]
        leader = state.leader if state is not None and number == len(played) else 0
        plays += [f"{(leader + k) % n}:{CARDS[index]}" for k, index in enumerate(trick)]
        rounds.append({"round": number, "direction": direction,
                       "hands": [str(CardSet.from_mask(hand)) for hand in dealt],
                       "passes": {str(seat): str(CardSet.from_mask(cards)) for seat, cards in enumerate(passes)
                                  if cards},
                       "plays": plays})
    return rounds
