"""Shrinking a finding to a small game in which it is the first difference, and writing it down.

A game plays on past its differences, so a finding may show after others. Its reproduction
must start with it: :func:`shrink_game` first looks for a game whose *first* difference is
the finding (the finding's round alone; the game without each earlier round it does not
need; the failing game itself: :func:`first_difference_game`; a game of fewer rounds built of
rounds that score a lot, :mod:`.short_games`, for a finding of the end), then shrinks that game's
choice script (:mod:`.script`) while its first difference is still that finding (the same
kind, the same rule broken): fewer choices first (runs of choices deleted: fewer rounds and
tricks), then lower ones (the lowest card, the lowest deal); then, for an engine that takes
its deals, it deals the finding's round a swap of two cards away and keeps a deal in which the
finding shows at an earlier step, and shrinks the choices again. It stops when its
:class:`Budget` is spent (seconds of the clock, or games replayed: a count that does not
depend on how busy the machine is) and keeps the smallest script seen. A finding that no
game tried shows first keeps a game that shows it, marked as such (it then replays with
play-on).

:func:`transcript` writes down a game as the reference played it beside the engine: the
hands, the passes and the plays.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from hearts_ref.cards import CARDS
from hearts_ref.cardset import CardSet, bits_of
from hearts_ref.engine import Engine
from hearts_ref.game import Game
from hearts_ref.variants import Rules
from hearts_ref.conformance.differential import GameRun, run_game
from hearts_ref.conformance.negative import NegativeChecks
from hearts_ref.conformance.script import ListSource, ScriptDecider, deal_code, deal_from
from hearts_ref.conformance.short_games import MAX_ROUNDS, short_games

__all__ = ["Budget", "Shrunk", "shrink_game", "first_difference_game", "fewer_rounds", "replay_script", "transcript"]

Signature = tuple[str, str]


@dataclass(frozen=True)
class Budget:
    """How far a shrink may go: ``seconds`` of the clock and ``replays`` games played, whichever runs out first.

    ``None`` is no limit of that kind. A budget counted in replays shrinks the same way on
    any machine, however loaded; the command line's ``--shrink-time`` is seconds.

    >>> Budget.of(2.5), Budget(seconds=None, replays=300).spent(10.0, 300)
    (Budget(seconds=2.5, replays=None), True)
    """

    seconds: float | None = 10.0
    replays: int | None = None

    @classmethod
    def of(cls, budget: float | Budget) -> Budget:
        """A budget as given: a :class:`Budget`, or a number of seconds."""
        return budget if isinstance(budget, Budget) else cls(seconds=float(budget))

    @property
    def empty(self) -> bool:
        """Whether nothing may be spent (no shrinking at all)."""
        return (self.seconds is not None and self.seconds <= 0) or (self.replays is not None and self.replays <= 0)

    def spent(self, seconds: float, replays: int) -> bool:
        """Whether a shrink that has taken ``seconds`` and played ``replays`` games must stop."""
        return (self.seconds is not None and seconds >= self.seconds) or \
            (self.replays is not None and replays >= self.replays)

    def within(self, seconds: float) -> Budget:
        """This budget, its seconds no more than ``seconds`` (the time a run has left)."""
        return Budget(seconds if self.seconds is None else min(self.seconds, seconds), self.replays)


class _Meter:
    """What a shrink has spent of its budget: the clock since it began, and the games it replayed."""

    def __init__(self, budget: Budget, clock: Callable[[], float]):
        self.budget, self.clock = budget, clock
        self.start = clock()
        self.replays = 0

    def seconds(self) -> float:
        return self.clock() - self.start

    def left(self) -> bool:
        return not self.budget.spent(self.seconds(), self.replays)

    def replay(self, engine: Engine, rules: Rules, script: Sequence[int], *, negative: bool,
               stop_at_first: bool) -> GameRun:
        self.replays += 1
        return replay_script(engine, rules, script, negative=negative, stop_at_first=stop_at_first)


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
    finished: bool      # False when the budget ran out first
    first: bool = True
    replays: int = 0    # games played while shrinking

    def to_dict(self) -> dict[str, Any]:
        return {"examples": self.examples, "replays": self.replays, "seconds": round(self.seconds, 3),
                "finished": self.finished, "first_difference": self.first}


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
                 meter: _Meter) -> GameRun | None:
    """Return a game of as few rounds as found that shows the finding ``target`` of ``failing`` (as its first
    difference when ``first``), or None if none does.

    Tried in turn: the finding's round alone; the rounds up to the finding's, without each
    earlier round it does not need; the failing game itself.
    """
    found = failing.finding(target)
    rounds = _rounds(failing)
    number = found.round if found is not None and found.round else len(rounds)
    best = failing if _shows(failing, target, first) else None
    if not 1 <= number <= len(rounds) or len(rounds) == 1 or not meter.left():
        return best
    run = meter.replay(engine, rules, rounds[number - 1], negative=negative, stop_at_first=first)
    if _shows(run, target, first):
        return run
    keep = list(range(number))
    for dropped in range(number - 1):
        if not meter.left():
            break
        candidate = [k for k in keep if k != dropped]
        run = meter.replay(engine, rules, [v for k in candidate for v in rounds[k]], negative=negative,
                           stop_at_first=first)
        if _shows(run, target, first):
            best, keep = run, candidate
    return best


def first_difference_game(engine: Engine, rules: Rules, failing: GameRun, target: Signature, *, negative: bool,
                          meter: _Meter) -> GameRun | None:
    """Return a game, of as few rounds as found, whose first difference is the finding ``target``, or None."""
    return fewer_rounds(engine, rules, failing, target, first=True, negative=negative, meter=meter)


def shorter_game(engine: Engine, rules: Rules, best: GameRun | None, target: Signature, *, negative: bool,
                 meter: _Meter) -> GameRun | None:
    """Return a short game (:mod:`.short_games`: rounds that score a lot) of fewer rounds than ``best`` whose first
    difference is the finding ``target``, or None: the shortest found, for a finding of the totals, the end or the
    winners, that a random game shows only after many rounds."""
    shown = best.finding(target) if best is not None else None
    rounds = (shown.round or best.rounds) if shown is not None else MAX_ROUNDS + 1
    if rounds <= 1:
        return None
    for game in short_games(rules):
        if len(game.rounds) >= rounds or not meter.left():
            break
        run = meter.replay(engine, rules, game.script, negative=negative, stop_at_first=True)
        if _first_is(run, target):
            return run
    return None


def shrink_game(engine: Engine, rules: Rules, failing: GameRun, *, negative: bool, budget: float | Budget = 10.0,
                target: Signature | None = None, clock: Callable[[], float] = time.monotonic) -> Shrunk:
    """Return the smallest game found within ``budget`` (a :class:`Budget`, or seconds) whose first difference
    is the finding ``target``.

    ``target`` is a finding's signature (its kind and rule); by default the failing game's first.
    A finding that no game tried shows first is shrunk as a game that shows it, played on.
    """
    meter = _Meter(Budget.of(budget), clock)
    target = target or failing.deviation.signature()
    seed = first_difference_game(engine, rules, failing, target, negative=negative, meter=meter)
    seed = shorter_game(engine, rules, seed, target, negative=negative, meter=meter) or seed
    first = seed is not None
    if not first:
        seed = fewer_rounds(engine, rules, failing, target, first=False, negative=negative, meter=meter) or failing
    return _smaller_script(engine, rules, seed, target, negative, first, meter)


def _smaller_script(engine: Engine, rules: Rules, failing: GameRun, target: Signature, negative: bool,
                    first: bool, meter: _Meter) -> Shrunk:
    """Shrink the failing game's script while it still shows the finding (first, when ``first``); return the
    smallest game found.

    First the script is made as small as it gets, fewest choices then lowest: runs of choices deleted, each choice
    lowered. Then the game is made to show the finding sooner: the finding's round dealt a swap of two cards away
    (DEAL-HANDS), for the engines that take their deals, and the script shrunk again, a game now smaller when it
    shows the finding at an earlier step, then as before. Each pass goes from the end of the script to its start,
    so a deletion that works keeps the positions still to try; the passes repeat until they find nothing smaller
    or the budget is spent.
    """
    best: list[Any] = [_trimmed(failing.script), failing, None]
    tries = [0]
    sooner = [False]   # the second phase: a game is smaller when it shows the finding at an earlier step
    shown = failing.finding(target)
    longest = shown.step if shown is not None else failing.steps

    def measure(run: GameRun, script: list[int]) -> tuple[int, ...]:
        shown = run.finding(target)
        step = shown.step if shown is not None else run.steps
        return (step, *_shortlex(script)) if sooner[0] else _shortlex(script)

    def better(candidate: list[int]) -> bool:
        """Whether ``candidate`` shows the finding and is smaller than the best; if so, it becomes the best."""
        if not meter.left() or candidate == best[0] or (not sooner[0] and _shortlex(candidate) >= best[2]):
            return False
        tries[0] += 1
        meter.replays += 1
        limit = (best[2][0] if sooner[0] else longest) + rules.players   # a smaller game shows it no later
        run = run_game(engine, rules, ScriptDecider(ListSource(candidate)), max_steps=limit, stop_at_first=first,
                       negative=NegativeChecks() if negative else None)
        if not _shows(run, target, first):
            return False
        found = _trimmed(run.script)
        size = measure(run, found)
        if size >= best[2]:
            return False
        best[:] = found, run, size
        return True

    def shrink_script() -> bool:
        """The deletion and lowering passes once; whether they found a smaller game."""
        improved = False
        for size in (16, 4, 1):   # fewer choices: a round's plays, a trick's, one
            position = len(best[0]) - size
            while position >= 0 and meter.left():
                script = best[0]
                improved |= better(script[:position] + script[position + size:])
                position = min(position, len(best[0])) - 1
        for position in range(len(best[0]) - 1, -1, -1):   # lower choices: the lowest card, the lowest deal
            script = best[0]
            if position >= len(script) or not script[position] or not meter.left():
                continue
            if better(script[:position] + [0] + script[position + 1:]):
                improved = True
                continue
            while best[0][position] > 1 and better(best[0][:position] + [best[0][position] // 2]
                                                   + best[0][position + 1:]):   # halved while it still shows
                improved = True
        return improved

    if shown is not None:
        best[2] = measure(failing, best[0])
        while shrink_script() and meter.left():
            pass
        sooner[0] = True
        best[2] = measure(best[1], best[0])
        swaps = not _deals(engine)
        while swaps and meter.left():
            improved = False
            for candidate in _swapped_deals(best, target, rules):
                if not meter.left():
                    break
                improved |= better(candidate)
            if not improved:
                break
            while shrink_script() and meter.left():
                pass
    return Shrunk(tuple(best[0]), best[1], tries[0], meter.seconds(), meter.left(), first, meter.replays)


def _deals(engine: Engine) -> bool:
    """Whether the engine deals for itself (its deals are not the script's to change)."""
    try:
        return bool(engine.capabilities().deals)
    except Exception:   # the game judged that already; here it only means no deal is tried
        return True


def _swapped_deals(best: list[Any], target: Signature, rules: Rules) -> Iterator[list[int]]:
    """DEAL-HANDS: the best game's script with the deal of the finding's round changed by a swap of two cards held
    in two hands, each pair of cards in turn, from the best game as it stands when the next is asked: the deals a
    swap away from the finding's, among which one may show it sooner."""
    n, deck = rules.players, list(bits_of(rules.deck_mask))
    seen: Any = None
    for x, a in enumerate(deck):
        for b in deck[x + 1:]:
            script, run = best[0], best[1]
            if run is not seen:   # the best game changed: its deal read again
                seen = run
                shown = run.finding(target)
                number = shown.round if shown is not None and shown.round else len(run.round_starts)
                if not 1 <= number <= len(run.round_starts):
                    return
                start = run.round_starts[number - 1]
                padded = list(script) + [0] * max(0, start + n - 1 - len(script))
                hands = [hand.mask for hand in deal_from(rules, ListSource(padded[start:start + n - 1]), number)]
                holder = {card: seat for seat, hand in enumerate(hands) for card in bits_of(hand)}
            i, j = holder[a], holder[b]
            if i == j:
                continue
            swapped = list(hands)
            swapped[i] ^= (1 << a) | (1 << b)
            swapped[j] ^= (1 << a) | (1 << b)
            yield padded[:start] + deal_code(rules, [CardSet.from_mask(h) for h in swapped]) + padded[start + n - 1:]


def _trimmed(script: Sequence[int]) -> list[int]:
    """A script without its trailing zeros, which past its end every choice is anyway."""
    values = list(script)
    while values and not values[-1]:
        values.pop()
    return values


def transcript(game: Game | None) -> list[dict[str, Any]]:
    """Return a game as the reference played it (:attr:`GameRun.reference`): one entry per round, with the
    hands as dealt, the passes and the plays (``seat:card``) so far; a finished round also with its scores and the
    totals after it (what END-THRESHOLD and WIN-* read)."""
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
    totals = [0] * n
    for entry, result in zip(rounds, game.results):
        totals = [t + s for t, s in zip(totals, result.score.scores)]
        entry["scores"], entry["totals"] = list(result.score.scores), totals
    return rounds
