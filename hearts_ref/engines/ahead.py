"""Moves sent ahead to an engine program: a whole round at once, its replies read as the runner takes them.

:class:`MovesAhead` is the part of :class:`~hearts_ref.engines.stdio.StdioEngine` that sends many
moves together (:meth:`~MovesAhead.steps_many`): the runner, which chooses every move from the
reference, sends a round's deal, passes and plays in one go, and the engine works them out
while the runner goes on. The moves can be sent as the runner chooses them
(:meth:`~MovesAhead.send_early`: the engine starts on the deal while the plays are still being
chosen), and the replies can be foreseen (:meth:`~MovesAhead.take_expected`): when every reply is,
byte for byte, the line the runner expected, they are taken all together, none of them read.
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Iterator, Sequence
from typing import Any

from hearts_ref.engine import EngineRejection
from hearts_ref.engines.channel import Command, move_command
from hearts_ref.engines.failures import EngineFailure, EngineTimeout
from hearts_ref.engines.replies import Step
from hearts_ref.protocol import step_from_line

__all__ = ["MovesAhead", "PIPELINE_WINDOW"]

PIPELINE_WINDOW = 64     # commands sent at once: a few KiB, never enough to fill a pipe
_SENT = object()         # what the replies of steps_many yield first, once the commands are sent


class MovesAhead:
    """Many moves sent together, their replies read in order as they are asked for (a mixin of ``StdioEngine``)."""

    timeout: float
    breaker: Any
    _channel: Any
    seat_in_play: bool
    _fresh: Any
    _unread: Iterator[Any] | None = None   # the replies of moves sent ahead, not all read yet
    _last_step: Any = None                 # carried by the last reply that changed the state (see last_step)
    _round_seq = 0                         # the seq of the first of the moves steps_many sent last
    _pending: Any = None                   # those moves' commands, while none of their replies is read
    _replay: Any = None                    # the replies take_expected read before a failure, for the moves
    _early: Any = None                     # moves sent early (send_early), not yet taken by steps_many

    def steps_many(self, moves: Sequence[tuple[str, Any]]) -> Iterator[Step | EngineRejection | EngineFailure]:
        """Make ``moves`` in order, sent together; yield each move's :class:`Step` or its refusal, in place, as its
        reply is read.

        A move is ``("deal", (hands, direction))``, ``("pass", (seat, cards))`` or ``("play", (card, seat))``:
        the runner can send a whole round at once (its deal, the passes and the plays it chose from the
        reference), one round trip instead of one per move, and judge each reply while the engine works
        out the next ones. A failure takes its move's place; one that ends the engine (a timeout, a
        crash, a broken reply) is the last outcome. Replies not asked for are read, and dropped, before
        the next command. The first moves may have been sent already (:meth:`send_early`).
        """
        early = self._early
        if early is not None and list(moves[:len(early[0])]) != early[0]:   # (a caller's bug: never)
            raise ValueError("steps_many must make the moves sent early first")
        self._early = None
        seated = self.seat_in_play
        commands = early[1] + [move_command(kind, move, seated=seated) for kind, move in moves[len(early[0]):]] \
            if early is not None else [move_command(kind, move, seated=seated) for kind, move in moves]
        if early is None:
            self._drain()
        self._fresh = None
        self._pending = self._replay = None
        replies = self._replies(commands, early)
        try:   # the first window is sent now: the engine works on it while the runner goes on
            sent = next(replies, _SENT)
        except EngineFailure as error:   # abandoned, or not running: raised to the first move
            replies = _raising(error)
        else:
            if sent is not _SENT:   # the send failed: its failure is the first outcome
                replies = itertools.chain((sent,), replies)
            elif len(commands) <= PIPELINE_WINDOW:   # all sent: their replies can be taken together
                self._pending = commands
        self._unread = replies
        return replies

    def send_early(self, moves: Sequence[tuple[str, Any]]) -> bool:
        """Send ``moves`` now, the first of the next :meth:`steps_many` (which must make them first, and more), while
        the runner chooses the rest; return whether they were sent. Nothing is sent while replies are unread, to an
        engine abandoned or not running, or past the first window of commands."""
        early = self._early
        done, commands = (early[0], early[1]) if early is not None else ([], [])
        if self._unread is not None or self.breaker.reason is not None or not self.running \
                or len(done) + len(moves) > PIPELINE_WINDOW or (early is not None and early[3] is not None):
            return False
        seated = self.seat_in_play
        new = [move_command(kind, move, seated=seated) for kind, move in moves]
        channel = self._running()
        error = None
        try:
            first = channel.send(new, self.timeout)
        except EngineFailure as failure:   # steps_many gives it to the first move
            first, error = channel.sent - len(new), failure
        self._early = (done + list(moves), commands + new, first if early is None else early[2], error)
        return error is None

    @property
    def round_seq(self) -> int:
        """The seq of the first command :meth:`steps_many` sent last."""
        return self._round_seq

    def take_expected(self, lines: Sequence[bytes]) -> bool:
        """Take the replies to the moves :meth:`steps_many` sent last, none read yet, when each is its line of
        ``lines`` (as read: without the newline), byte for byte; return whether they were taken.

        When one is not, nothing is taken: the replies read are put back, to be read for the moves as
        always. A failure reading them (a timeout, a crash) is given to the moves in its place, after the
        replies read before it, as when they are read one by one."""
        commands, self._pending = self._pending, None
        if commands is None or len(lines) != len(commands) or self._unread is None:
            return False
        channel = self._channel
        process, first, timeout = channel.process, self._round_seq, self.timeout
        read: list[bytes] = []
        waits = []
        clock = time.perf_counter
        sent = clock()
        try:
            while len(read) < len(lines):
                k = len(read)
                chunk = process.read_lines(timeout, f"{commands[k][0]!r} (seq {first + k})", len(lines) - k)
                waits.append((clock() - sent, len(chunk)))
                if chunk != lines[k:k + len(chunk)]:
                    process.unread(read + chunk)   # (read again for the moves, and timed then)
                    return False
                read += chunk
                sent = clock()
        except EngineFailure as error:   # (the engine is killed): the replies read, then the failure
            self._replay = self._replayed(read, error)
            _timed(channel, waits)
            if isinstance(error, EngineTimeout):   # a reply that never came: counted apart from the times
                channel.times.timed_out(timeout)
            return False
        finally:
            if read:
                channel.line = read[-1]
        _timed(channel, waits)
        self._last_step = read[-1]
        self._fresh = self.step_of(read[-1])
        self._unread = None
        return True

    def _replayed(self, read: list[bytes], error: EngineFailure) -> Iterator[Any]:
        """The outcomes of the replies ``read`` before the failure ``error``, then the failure, as :meth:`_replies`
        yields them."""
        for line in read:
            self._last_step = step = self.step_of(line)
            yield step
        self.breaker.failed(error)
        self._unread = None
        yield error

    @staticmethod
    def step_of(outcome: Any) -> Any:
        """The :class:`Step` a reply taken as its foreseen line says (any other outcome as it is)."""
        if type(outcome) is bytes:
            _, observation, legal = step_from_line(outcome)
            return Step(observation, legal)
        return outcome

    @property
    def last_step(self) -> Step | None:
        """The step carried by the last reply that changed the state."""
        step = self._last_step
        if type(step) is bytes:
            step = self._last_step = self.step_of(step)
        return step

    @last_step.setter
    def last_step(self, step: Step | None) -> None:
        self._last_step = step

    def _replies(self, commands: list[Command], early: Any = None) -> Iterator[Any]:
        """The outcomes of ``commands``, window by window, each counted by the breaker as a command sent alone is.

        It yields :data:`_SENT` first, once the first window is sent (:meth:`steps_many` takes it); ``early``: the
        first commands were sent already (:meth:`send_early`)."""
        outcome: Any = None
        if early is None:
            self.breaker.check()   # an abandoned engine: raised to the first move, as a command sent alone raises it
        for start in range(0, len(commands), PIPELINE_WINDOW):
            window = commands[start:start + PIPELINE_WINDOW]
            channel = self._running()
            try:
                if start or early is None:
                    first = channel.send(window, self.timeout)
                else:
                    _, done, first, error = early
                    if error is not None:
                        raise error
                    if len(window) > len(done):
                        channel.send(window[len(done):], self.timeout)
            except EngineFailure as error:   # it ended the engine: nothing more will come
                self.breaker.failed(error)
                self._unread = None
                yield error
                return
            if not start:
                self._round_seq = first
                yield _SENT
                if self._replay is not None:   # take_expected read some and met a failure
                    yield from self._replay
                    return
            read, failed = channel.replies(first, window, self.timeout), False
            while True:
                try:
                    outcome = next(read)
                except StopIteration:
                    break
                except EngineFailure as error:   # it ended the engine: nothing more will come
                    self.breaker.failed(error)
                    self._unread = None
                    yield error
                    return
                if type(outcome) is Step:
                    self._last_step = outcome
                elif isinstance(outcome, EngineFailure) and not failed:   # the first failure of a window counts
                    self.breaker.failed(outcome)
                    failed = True
                yield outcome
        self._unread = None
        if type(outcome) is Step:
            self._fresh = outcome

    def _drain(self, *, restart: bool = False) -> None:
        """Read, and drop, the replies of moves sent ahead that the runner did not ask for (those sent early too).

        A failure among them that ended the engine raises; with ``restart`` (before a new game) the engine is
        started again instead: it ended on a move of the last game that nobody judged (a game stopped at a step
        limit while its round was sent whole), which is not the new game's failure."""
        early, self._early = self._early, None
        if early is not None:   # (never taken by steps_many: the runner stopped before)
            self._unread = itertools.islice(self._replies(early[1], early), 1, None)
        unread, self._unread = self._unread, None
        if unread is not None:
            for outcome in unread:
                if isinstance(outcome, EngineFailure) and not self.running:
                    if not restart:
                        raise outcome
                    self.restart()
                    return

    def _running(self) -> Any:  # pragma: no cover  (StdioEngine's)
        raise NotImplementedError

    def restart(self) -> None:  # pragma: no cover  (StdioEngine's)
        raise NotImplementedError

    @property
    def running(self) -> bool:  # pragma: no cover  (StdioEngine's)
        raise NotImplementedError


def _raising(error: Exception) -> Iterator[Any]:
    """Replies that raise ``error`` at the first: those of moves that could not be sent."""
    raise error
    yield  # pragma: no cover  (a generator)


def _timed(channel: Any, waits: list[tuple[float, int]]) -> None:
    """The waits for the replies taken (each read: how long it waited, how many replies came) as the engine's."""
    for seconds, count in waits:
        channel.times.add_read(seconds, count)
