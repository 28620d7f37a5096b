"""How an engine program is doing: how long its replies take, and whether it is abandoned.

:class:`ReplyTimes` measures every reply (a histogram, so that the reports of shards merge);
:class:`Breaker` is the circuit breaker: an engine that fails the same way in ``limit``
games in a row (three timeouts, say) is *abandoned*. From then on every call raises
:class:`~hearts_ref.engines.failures.EngineAbandoned` at once, without waiting on the
program, and the runner reports the cases it did not run as ``abandoned``, with the reason.
A game that goes by without a failure starts the count again, so an engine that fails
now and then is judged to the end. Crashes and protocol errors cost a restart, not a wait:
they abandon an engine only while no game has gone by without a failure (an engine that
cannot play at all); once one has, a crash in one situation (at every moon, say, in the
vectors of the moon one after the other) leaves every other case judged. Timeouts and failed
starts, which cost their wait, count at any time.

>>> from hearts_ref.engines.failures import EngineTimeout
>>> breaker = Breaker(limit=3)
>>> for game in range(3):
...     breaker.new_game()
...     breaker.failed(EngineTimeout("engine gave no reply to 'play' (seq 9) within 1 s; killed it", timeout=1))
>>> print(breaker.reason)
abandoned after 3 timeouts in a row (the last: engine gave no reply to 'play' (seq 9) within 1 s; killed it)
>>> times = ReplyTimes()
>>> for seconds in (0.001, 0.002, 0.002, 1.5):
...     times.add(seconds)
>>> times.count, times.slowest, round(times.quantile(0.5), 4)
(4, 1.5, 0.0022)
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from hearts_ref.engines.failures import EngineAbandoned, EngineFailure

__all__ = ["Breaker", "ReplyTimes", "TRIPPING_VERDICTS", "CHEAP_VERDICTS", "DEFAULT_LIMIT"]

DEFAULT_LIMIT = 3
# The failures that count: those that cost a timeout or a restart. An ``internal`` reply (the
# engine reports its own bug and goes on) and an ``unsupported`` one (a skip) do not.
TRIPPING_VERDICTS = ("timeout", "crashed", "protocol-error", "not-started")
# Those that cost a restart only: they count until a game has gone by without a failure.
CHEAP_VERDICTS = ("crashed", "protocol-error")
_PLURALS = {"timeout": "timeouts", "crashed": "crashes", "protocol-error": "protocol errors",
            "not-started": "failed starts"}


class Breaker:
    """Counts an engine's failures of one kind in consecutive games; at ``limit`` (0: never) it trips."""

    def __init__(self, limit: int = DEFAULT_LIMIT):
        if limit < 0:
            raise ValueError(f"the breaker's limit must be 0 (never) or more, got {limit}")
        self.limit = limit
        self.reason: str | None = None     # why the engine was abandoned; None while it is not
        self._verdict = ""
        self._count = 0
        self._failed_this_game = False
        self._games = 0          # the games begun
        self._played = False     # whether a game has gone by without a failure

    def new_game(self) -> None:
        """A game begins: if the last one had no failure, the count starts again."""
        if not self._failed_this_game:
            self._verdict, self._count = "", 0
            self._played = self._played or self._games > 0
        self._failed_this_game = False
        self._games += 1

    def failed(self, error: EngineFailure) -> None:
        """Count ``error`` (if it is of a kind that trips) and trip when the limit is reached."""
        verdict = error.verdict
        if verdict not in TRIPPING_VERDICTS or self.reason is not None or self._failed_this_game:
            return                           # one failure a game: a failed restart after it is the same story
        if verdict in CHEAP_VERDICTS and self._played:
            return                           # an engine that plays, failing in some situations: judged to the end
        self._failed_this_game = True
        self._count = self._count + 1 if verdict == self._verdict else 1
        self._verdict = verdict
        if self.limit and self._count >= self.limit:
            self.reason = (f"abandoned after {self._count} {_PLURALS[verdict]} in a row "
                           f"(the last: {error.summary})")

    @property
    def verdict(self) -> str:
        """The kind of failure counted last (``timeout``, ``crashed`` …), ``""`` before any."""
        return self._verdict

    def check(self) -> None:
        """Raise :class:`EngineAbandoned` if the engine has been abandoned."""
        if self.reason is not None:
            raise EngineAbandoned(self.reason)

    @contextmanager
    def held(self) -> Iterator[None]:
        """Neither counting nor abandoning while the block runs (the findings of the games already played are
        reproduced on the engine: a finding that fails every time must fail there too); as it was afterwards."""
        saved = (self.limit, self.reason, self._verdict, self._count, self._failed_this_game, self._games, self._played)
        self.limit, self.reason = 0, None
        try:
            yield
        finally:
            (self.limit, self.reason, self._verdict, self._count, self._failed_this_game, self._games,
             self._played) = saved


class ReplyTimes:
    """How long an engine's replies took: count, total, slowest, and a histogram with 20 bins a decade; and the
    replies that never came (``timeouts``: the wait reached the timeout), which the times leave out."""

    BINS_PER_DECADE = 20

    def __init__(self) -> None:
        self.count = 0
        self.seconds = 0.0
        self.slowest = 0.0
        self.bins: Counter[int] = Counter()   # bin k holds the times in (10**((k-1)/20), 10**(k/20)]
        self.timeouts = 0
        self.timeout = 0.0   # the longest of the timeouts they reached

    def add(self, seconds: float) -> None:
        self.count += 1
        self.seconds += seconds
        if seconds > self.slowest:
            self.slowest = seconds
        self.bins[_bin(seconds)] += 1

    def add_read(self, seconds: float, replies: int) -> None:
        """Add ``replies`` that came in one read: the first waited ``seconds``, the others nothing more."""
        self.add(seconds)
        if replies > 1:
            self.count += replies - 1
            self.bins[_NO_WAIT_BIN] += replies - 1

    def timed_out(self, timeout: float) -> None:
        """A reply that did not come within ``timeout`` seconds: counted apart, not as a time."""
        self.timeouts += 1
        self.timeout = max(self.timeout, timeout)

    def quantile(self, q: float) -> float:
        """Return the upper bound of the bin that holds the ``q`` quantile (within 12 %), at most the slowest."""
        if not self.count:
            return 0.0
        rank, seen = q * self.count, 0
        for k in sorted(self.bins):
            seen += self.bins[k]
            if seen >= rank:
                return min(10 ** (k / self.BINS_PER_DECADE), self.slowest)
        return self.slowest

    def merge(self, other: ReplyTimes) -> None:
        self.count += other.count
        self.seconds += other.seconds
        self.slowest = max(self.slowest, other.slowest)
        self.bins.update(other.bins)
        self.timeouts += other.timeouts
        self.timeout = max(self.timeout, other.timeout)

    def to_dict(self) -> dict[str, Any]:
        return {"count": self.count, "seconds": round(self.seconds, 6), "median": round(self.quantile(0.5), 6),
                "p95": round(self.quantile(0.95), 6), "slowest": round(self.slowest, 6),
                "bins": {str(k): n for k, n in sorted(self.bins.items())}, "timeouts": self.timeouts,
                "timeout": self.timeout}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> ReplyTimes:
        times = cls()
        times.count, times.seconds = int(data.get("count", 0)), float(data.get("seconds", 0.0))
        times.slowest = float(data.get("slowest", 0.0))
        times.bins = Counter({int(k): int(n) for k, n in dict(data.get("bins", {})).items()})
        times.timeouts, times.timeout = int(data.get("timeouts", 0)), float(data.get("timeout", 0.0))
        return times

    def describe(self) -> str:
        """One line: how many replies, the median, the 95th percentile and the slowest; the replies that never came.

        >>> times = ReplyTimes()
        >>> times.add(0.004); times.timed_out(1.0); times.timed_out(1.0)
        >>> print(times.describe())
        1 reply in 0.0 s: median 4.0 ms, 95% within 4.0 ms, slowest 4.0 ms; 2 more never came (timeouts of 1.00 s)
        """
        line = (f"{self.count} {'reply' if self.count == 1 else 'replies'} in {self.seconds:.1f} s: "
                f"median {_duration(self.quantile(0.5))}, 95% within {_duration(self.quantile(0.95))}, "
                f"slowest {_duration(self.slowest)}")
        if not self.count:
            line = "no reply came"
        if self.timeouts:
            line += (f"; {self.timeouts} {'more ' if self.count else ''}never came "
                     f"(timeout{'s' if self.timeouts > 1 else ''} of {_duration(self.timeout)})")
        return line


def _bin(seconds: float) -> int:
    """The histogram bin of a reply time: bin k holds the times in (10**((k-1)/20), 10**(k/20)]."""
    return math.ceil(math.log10(max(seconds, 1e-7)) * ReplyTimes.BINS_PER_DECADE)


_NO_WAIT_BIN = _bin(0.0)


def _duration(seconds: float) -> str:
    """A reply time in words: ``40 µs``, ``2.5 ms``, ``304 ms``, ``1.50 s``.

    >>> [_duration(s) for s in (0.0, 0.00004, 0.0025, 0.3045, 1.5)]
    ['0 µs', '40 µs', '2.5 ms', '304 ms', '1.50 s']
    """
    if seconds < 0.001:
        return f"{seconds * 1e6:.0f} µs"
    if seconds < 1:
        milliseconds = seconds * 1000
        return f"{milliseconds:.1f} ms" if milliseconds < 100 else f"{milliseconds:.0f} ms"
    return f"{seconds:.2f} s"
