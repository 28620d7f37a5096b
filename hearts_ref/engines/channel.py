"""The numbered exchange with an engine program: commands written together, their replies read in order.

A :class:`Channel` numbers every command it sends (``seq``, from 0 for each run of the
program), writes a batch of them in one write, and reads their replies in command order:
each reply is judged by :func:`~hearts_ref.engines.replies.read_reply` (a compact step reply
by the fast reader), and the time the runner waited for it is added to the engine's
:class:`~hearts_ref.engines.health.ReplyTimes` (of replies that came together, in one read,
the first waited; the others waited for nothing more). A reply that breaks the protocol kills the program:
its state is unknown now; the :class:`~hearts_ref.engines.failures.EngineProtocolError`
quotes the line.

The channel knows the protocol's messages but not the game: the client
(:class:`~hearts_ref.engines.stdio.StdioEngine`) decides what to send and what each outcome means.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

from hearts_ref.engines.failures import EngineProtocolError, EngineTimeout
from hearts_ref.engines.health import ReplyTimes
from hearts_ref.engines.process import EngineProcess
from hearts_ref.engines.replies import Step, read_reply
from hearts_ref.protocol import CARD_TEXT, WireError, cards_to_wire, encode_command, shorten, step_from_line

__all__ = ["Channel", "Command", "move_command"]

Command = tuple[str, dict[str, Any]]   # a command's name and its fields (all but "seq" and "cmd")
# A reply not JSON: most often a banner (the first) or a log line, which belong on stderr.
_BANNER_HINT = " (stdout carries the protocol's replies and nothing else: write a banner or log lines to stderr)"
_LOG_HINT = " (stdout carries the protocol's replies and nothing else: write log lines to stderr)"


def move_command(kind: str, move: Any, *, seated: bool = False) -> Command:
    """The command that makes a move: ``("deal", (hands, direction))``, ``("pass", (seat, cards))`` or
    ``("play", (card, seat))``; a play names its seat only to an engine that is told it (``seated``).

    >>> from hearts_ref.cards import Card
    >>> move_command("play", (Card.parse("QS"), 2), seated=True)
    ('play', {'card': 'QS', 'seat': 2})
    """
    if kind == "play":
        card, seat = move
        return "play", ({"card": CARD_TEXT[card.index]} if seat is None or not seated
                        else {"card": CARD_TEXT[card.index], "seat": seat})
    if kind == "pass":
        seat, cards = move
        return "pass", {"seat": seat, "cards": cards_to_wire(cards)}
    hands, direction = move
    return "start_round", {"hands": [cards_to_wire(hand) for hand in hands], "direction": direction}


class Channel:
    """Numbered commands to ``process`` and their replies; the replies' waits go to ``times``."""

    def __init__(self, process: EngineProcess, times: ReplyTimes):
        self.process = process
        self.times = times
        self.sent = 0          # the commands sent so far: the next one's seq
        self.line = b""        # the last line read, quoted by protocol errors

    def send(self, commands: list[Command], timeout: float) -> int:
        """Write ``commands`` in one write, numbered from the next seq; return the first one's seq."""
        first = self.sent
        self.sent += len(commands)
        self.process.send(b"".join(encode_command(seq, command, fields)
                                   for seq, (command, fields) in enumerate(commands, first)),
                          timeout, f"{commands[0][0]!r} (seq {first})")
        return first

    def outcomes(self, commands: list[Command], timeout: float, *, steps: bool = True,
                 timed: bool = True, bad_requests: bool = False) -> Iterator[Any]:
        """Send ``commands``; yield each reply's outcome as it is read.

        An outcome is the ``ok`` reply's fields (a :class:`Step` when ``steps``) or a refusal
        (:class:`~hearts_ref.engine.EngineRejection`, :class:`~hearts_ref.engines.failures.EngineFailure`),
        not raised. A failure that ends the program (a timeout, a crash, a reply that breaks
        the protocol) raises. ``timed``: the waits count as the engine's reply times (not
        those of the handshake, nor of ``quit``). ``bad_requests``: a ``bad-request`` refusal is an
        outcome too (its :class:`~hearts_ref.engines.failures.EngineProtocolError`), not a failure that
        ends the program (a protocol-1 engine refusing a parameter added since).
        """
        first = self.send(commands, timeout)
        yield from self.replies(first, commands, timeout, steps=steps, timed=timed, bad_requests=bad_requests)

    def replies(self, first: int, commands: list[Command], timeout: float, *, steps: bool = True,
                timed: bool = True, bad_requests: bool = False) -> Iterator[Any]:
        """The outcomes of ``commands``, sent from seq ``first`` (:meth:`send`), as :meth:`outcomes` yields them."""
        process, read = self.process, self._read
        seq, end = first, first + len(commands)
        add = self.times.add_read if timed else _untimed
        clock = time.perf_counter
        sent = clock()
        while seq < end:
            try:
                lines = process.read_lines(timeout, _what(commands[seq - first][0], seq), end - seq)
            except EngineTimeout:
                if timed:   # a reply that never came: counted apart from the times
                    self.times.timed_out(timeout)
                raise
            add(clock() - sent, len(lines))
            for line in lines:
                self.line = line
                fast = step_from_line(line) if steps else None
                if fast is not None and fast[0] == seq:
                    outcome = Step(fast[1], fast[2])
                else:
                    outcome = read(line, seq, commands[seq - first][0], steps, bad_requests)
                seq += 1
                yield outcome
            sent = clock()   # the time the runner spends on the replies is not the engine's

    def _read(self, line: bytes, seq: int, command: str, steps: bool, bad_requests: bool = False) -> Any:
        """The outcome of ``line``, the reply to command ``seq``; one that breaks the protocol raises."""
        what = _what(command, seq)
        try:
            outcome = read_reply(line, seq, what, steps=steps, command=command)
        except WireError as error:
            hint = (_BANNER_HINT if seq == 0 else _LOG_HINT) if str(error).startswith("not JSON") else ""
            raise self.broken(f"bad reply to {what}: {error}{hint}") from None
        if isinstance(outcome, EngineProtocolError) and not bad_requests:
            raise self.broken(outcome.summary)
        return outcome

    def broken(self, message: str) -> EngineProtocolError:
        """Kill the program (its state is unknown now); return the protocol error, quoting the last line read."""
        process = self.process
        process.kill()
        return EngineProtocolError(f"{message}; killed the engine", line=shorten(self.line),
                                   stderr_tail=process.stderr_tail())


def _untimed(seconds: float, replies: int) -> None:
    """Where the waits for the handshake and for ``quit`` go: nowhere."""


def _what(command: str, seq: int) -> str:
    """A command in words, for messages: ``'play' (seq 9)``."""
    return f"{command!r} (seq {seq})"
