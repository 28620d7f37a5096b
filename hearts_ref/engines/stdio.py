"""The client side of the stdio protocol: an engine in any language behind the :class:`Engine` interface.

:class:`StdioEngine` starts the engine's program (an argv list, no shell), shakes hands,
and turns each :class:`~hearts_ref.engine.Engine` method into one command and one reply
(``spec/protocol/README.md``). Replies that change the state carry the new observation and
the next legal set, so the runner's differential step is one round trip: :meth:`StdioEngine.play_observed`.
Many moves are sent together, a whole round at once, by :class:`~hearts_ref.engines.ahead.MovesAhead`.

Every way the engine can fail raises a typed :class:`~hearts_ref.engines.failures.EngineFailure`
and kills the engine with every process it started; :meth:`StdioEngine.restart` starts it
again for the next game. An engine that fails the same way in ``abandon_after`` games in a
row is abandoned (:class:`~hearts_ref.engines.health.Breaker`): :attr:`StdioEngine.abandoned`
says why, and every call raises at once. :attr:`StdioEngine.replies` measures every reply.

>>> import sys
>>> from hearts_ref import Rules, complete_deal, TWO_OF_CLUBS
>>> with StdioEngine([sys.executable, "-m", "hearts_ref", "serve"]) as engine:
...     engine.new_game(Rules())
...     engine.start_round(complete_deal(Rules(), {}), "none")
...     step = engine.play_observed(TWO_OF_CLUBS)
>>> engine.name, step.observation.trick, step.observation.to_move, len(step.legal)
('hearts-ref', ('2C',), 1, 13)
"""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Mapping, Sequence
from typing import Any

from hearts_ref.cards import Card
from hearts_ref.cardset import CardSet
from hearts_ref.engine import Capabilities, EngineRejection, Observation
from hearts_ref.engines.ahead import PIPELINE_WINDOW, MovesAhead
from hearts_ref.engines.channel import Channel, Command, move_command
from hearts_ref.engines.failures import EngineFailure, EngineProtocolError, EngineUnsupported
from hearts_ref.engines.health import DEFAULT_LIMIT, Breaker, ReplyTimes
from hearts_ref.engines.load import load_engine  # noqa: F401  (a command line -> StdioEngine; kept here too)
from hearts_ref.engines.process import EXIT_GRACE, EngineProcess
from hearts_ref.engines.replies import Step, read_reply  # noqa: F401  (read_reply: kept here too)
from hearts_ref.errors import HeartsError
from hearts_ref.engines.versions import handshake, later_parameters, new_game_outcome
from hearts_ref.protocol import (
    MAX_LINE_BYTES, PROTOCOL_VERSION, PROTOCOL_VERSIONS, WireError, capabilities_from_wire, cards_from_wire,
    observation_from_wire, rules_to_wire,
)
from hearts_ref.variants import Rules

__all__ = ["StdioEngine", "Step", "PIPELINE_WINDOW", "read_reply"]




class StdioEngine(MovesAhead):
    """An engine program speaking the JSON-lines protocol on its stdin and stdout.

    ``timeout`` bounds every reply; ``startup_timeout`` bounds the start and the handshake.
    :attr:`name`, :attr:`version` and :meth:`capabilities` come from the handshake.
    ``abandon_after``: the failures of one kind in consecutive games after which the engine
    is abandoned (0: never).

    With ``cached_queries`` (the default), :meth:`legal_plays` and :meth:`observe` right
    after a play, a pass or a new round answer from what that reply carried, without a
    round trip: so a runner that plays, observes and asks for the legal set makes one round
    trip per step. Any refusal, and any other command, makes the next query ask the engine.
    Not thread-safe: one caller at a time.
    """

    def __init__(self, argv: Sequence[str], *, timeout: float = 5.0, startup_timeout: float = 10.0,
                 cwd: str | os.PathLike[str] | None = None, env: Mapping[str, str] | None = None,
                 max_line: int = MAX_LINE_BYTES, cached_queries: bool = True, abandon_after: int = DEFAULT_LIMIT):
        if isinstance(argv, (str, bytes)) or not argv:
            raise HeartsError(f"StdioEngine needs the command as a non-empty list of arguments, got {argv!r} "
                              "(load_engine() splits a command line)")
        for name, value in (("timeout", timeout), ("startup_timeout", startup_timeout)):
            if not value > 0:       # nan too
                raise HeartsError(f"StdioEngine needs {name} to be more than 0 seconds, got {value!r}")
        self.argv = tuple(str(arg) for arg in argv)
        self.timeout = timeout
        self.startup_timeout = startup_timeout
        self.cwd = cwd
        self.env = env
        self.max_line = max_line
        self.cached_queries = cached_queries
        self.name = "?"
        self.version = "?"
        self.protocol = PROTOCOL_VERSION       # the version the hello agreed
        self._capabilities = Capabilities()
        self._process: EngineProcess | None = None
        self._channel: Channel | None = None   # the numbered commands and replies of this run of the program
        self._fresh: Step | None = None        # last_step, while no other command has been sent since
        self.breaker = Breaker(abandon_after)
        self.replies = ReplyTimes()            # how long each reply took, hello included
        self.start()

    # Life --------------------------------------------------------------------------------

    def start(self) -> None:
        """Start the program and shake hands (within ``startup_timeout``); a failure counts for the breaker."""
        try:
            self._start()
        except EngineFailure as error:
            self.breaker.failed(error)
            raise

    def _start(self) -> None:
        self._process = EngineProcess(self.argv, cwd=self.cwd, env=self.env, max_line=self.max_line)
        self._channel = Channel(self._process, self.replies)
        self._unread = self._early = None
        self.last_step = self._fresh = None
        try:
            offered, reply = handshake(self._running(), self.startup_timeout)
        except EngineFailure:
            self.kill()
            raise
        try:
            protocol = reply.get("protocol")
            if type(protocol) is not int or protocol not in PROTOCOL_VERSIONS or protocol > offered:
                raise WireError(f"engine speaks protocol {protocol!r}; offered {offered}, this runner speaks "
                                f"{' and '.join(map(str, PROTOCOL_VERSIONS))}")
            name, version = reply.get("name"), reply.get("version")
            if not isinstance(name, str) or not isinstance(version, str):
                raise WireError("the hello reply needs 'name' and 'version' strings")
            capabilities = capabilities_from_wire(reply.get("capabilities", {}))
        except WireError as error:
            raise self._broken(f"bad hello reply: {error}") from None
        self.name, self.version, self.protocol = name, version, protocol
        self._capabilities = dataclasses.replace(capabilities, protocol=protocol)

    def restart(self) -> None:
        """Kill the engine if it runs and start it again: for the next game after a failure.

        An abandoned engine is not started again.
        """
        self.kill()
        if self.breaker.reason is None:
            self.start()

    @property
    def abandoned(self) -> str | None:
        """Why the engine was abandoned (it failed the same way in too many games in a row), or None."""
        return self.breaker.reason

    def close(self) -> None:
        """Say ``quit``, give the engine a moment to exit, then end its whole process group."""
        process = self._process
        if process is None or process.closed:
            return
        try:
            self._call("quit", {}, timeout=min(self.timeout, EXIT_GRACE))
            process.wait_exit(EXIT_GRACE)
        except HeartsError:                  # a failure, or a refusal of quit: kill it all the same
            pass
        process.kill()

    def kill(self) -> None:
        """End the engine's process group now, without a word."""
        if self._process is not None:
            self._process.kill()

    def __enter__(self) -> StdioEngine:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    @property
    def pid(self) -> int | None:
        """The process ID of the engine's program (also its process group ID)."""
        return self._process.pid if self._process is not None else None

    @property
    def commands_sent(self) -> int:
        """How many commands this run of the engine has been sent (hello included): its round trips."""
        return self._channel.sent if self._channel is not None else 0

    @property
    def running(self) -> bool:
        return self._process is not None and not self._process.closed

    @property
    def returncode(self) -> int | None:
        return self._process.returncode if self._process is not None else None

    def stderr_tail(self, *, lines: int = 20) -> str:
        """The last lines the engine wrote on stderr."""
        return self._process.stderr_tail(lines=lines) if self._process is not None else ""

    @property
    def stderr_bytes(self) -> int:
        return self._process.stderr_bytes if self._process is not None else 0

    # The Engine interface -------------------------------------------------------------------

    def capabilities(self) -> Capabilities:
        return self._capabilities

    def new_game(self, rules: Rules) -> None:
        self.breaker.new_game()
        self._drain(restart=True)   # an end met in moves of the last game sent ahead, never judged: started again
        try:
            values = rules_to_wire(rules, self.protocol)
        except WireError as error:   # two decks to a protocol-1 engine: never sent (the runner skips such games)
            raise EngineUnsupported(f"engine cannot play these rules: {error}") from None
        later = later_parameters(values, self.protocol)
        if not later:
            self._step("new_game", {"rules": values})
            return
        self._drain()   # a protocol-1 engine sent a parameter added since: a refusal skips the game
        self.breaker.check()
        try:
            self.last_step = self._fresh = new_game_outcome(self._running(), values, later, self.timeout)
        except EngineFailure as error:
            self.breaker.failed(error)
            raise

    def start_round(self, hands: Sequence[CardSet] | None, direction: str) -> tuple[CardSet, ...] | None:
        if hands is None:
            return self.deal_observed(direction)[0]
        self.start_round_observed(hands, direction)
        return None

    def pass_cards(self, seat: int, cards: CardSet) -> None:
        self.pass_observed(seat, cards)

    def play(self, card: Card, seat: int | None = None) -> None:
        self.play_observed(card, seat)

    @property
    def seat_in_play(self) -> bool:
        """Whether ``play`` tells the engine the seat that plays: the engine declared ``play_seat`` in its hello."""
        return self._capabilities.play_seat

    def legal_plays(self) -> CardSet:
        if self._fresh is not None and self.cached_queries:
            return self._fresh.legal
        reply = self._call("legal", {})
        return self._parse(lambda: cards_from_wire(reply.get("legal"), field="legal", strict=True))

    def observe(self) -> Observation:
        if self._fresh is not None and self.cached_queries:
            return self._fresh.observation
        reply = self._call("observe", {})
        return self._parse(lambda: observation_from_wire(reply.get("observation")))

    # The fast path: one round trip per step ----------------------------------------------------

    def start_round_observed(self, hands: Sequence[CardSet], direction: str) -> Step:
        """Start a round; return the observation and legal set the reply carries."""
        return self._step(*move_command("deal", (hands, direction)))

    def deal_observed(self, direction: str) -> tuple[tuple[CardSet, ...], Step]:
        """Start a round the engine deals for itself (``capabilities.deals``): ``start_round`` without hands.

        Returns the hands the reply says were dealt, and its step; a reply without them is a protocol error.
        """
        reply = self._call("start_round", {"direction": direction})

        def read() -> tuple[tuple[CardSet, ...], Step]:
            hands = reply.get("hands")
            if type(hands) is not list:
                raise WireError("the reply to 'start_round' without hands needs 'hands': the hands dealt, "
                                "a card list per seat")
            dealt = tuple(cards_from_wire(hand, field=f"hands[{seat}]", strict=True) for seat, hand in enumerate(hands))
            return dealt, Step(observation_from_wire(reply.get("observation")),
                               cards_from_wire(reply.get("legal"), field="legal", strict=True))

        dealt, step = self._parse(read)
        self.last_step = self._fresh = step
        return dealt, step

    def pass_observed(self, seat: int, cards: CardSet) -> Step:
        """``seat`` passes ``cards``; return the observation and legal set the reply carries."""
        return self._step(*move_command("pass", (seat, cards)))

    def play_observed(self, card: Card, seat: int | None = None) -> Step:
        """``seat`` (None: the seat to move) plays ``card``; return the observation and legal set the reply carries.

        The seat is sent only to an engine that declared ``play_seat``.
        """
        return self._step(*move_command("play", (card, seat), seated=self.seat_in_play))

    def play_many(self, cards: Sequence[Card], seats: Sequence[int] | None = None) -> list[Step | EngineRejection]:
        """Play ``cards`` in order (by ``seats``, when given), sent together; return each card's :class:`Step` or
        :class:`EngineRejection`.

        The runner picks its cards from the reference, so it need not wait for each reply:
        sending a whole round's plays at once saves a process switch per card. Every card is
        sent even after a rejection; compare the outcomes in order and stop at the first
        difference (the later ones describe the engine's own diverged state).
        """
        outcomes: list[Step | EngineRejection] = []
        by = list(seats) if seats is not None else [None] * len(cards)
        for start in range(0, len(cards), PIPELINE_WINDOW):
            outcomes += self._exchange([move_command("play", (card, seat), seated=self.seat_in_play)
                                        for card, seat in zip(cards[start:start + PIPELINE_WINDOW],
                                                              by[start:start + PIPELINE_WINDOW])], steps=True)
        for outcome in reversed(outcomes):
            if isinstance(outcome, Step):
                self.last_step = outcome
                break
        if outcomes and isinstance(outcomes[-1], Step):
            self._fresh = outcomes[-1]
        return outcomes

    # Commands and replies ------------------------------------------------------------------

    def _step(self, command: str, fields: dict[str, Any]) -> Step:
        [outcome] = self._exchange([(command, fields)], steps=True)
        if isinstance(outcome, Exception):
            raise outcome
        self.last_step = self._fresh = outcome
        return outcome

    def _call(self, command: str, fields: dict[str, Any], *, timeout: float | None = None) -> dict[str, Any]:
        """Send one command and return its ``ok`` reply; a refusal or a failure raises."""
        [outcome] = self._exchange([(command, fields)], timeout=timeout)
        if isinstance(outcome, Exception):
            raise outcome
        return outcome

    def _exchange(self, commands: list[Command], *, timeout: float | None = None, steps: bool = False) -> list[Any]:
        """Send ``commands`` in one write and read their replies in order.

        Returns, per command, its ``ok`` reply (a :class:`Step` when ``steps``) or its
        :class:`EngineRejection`. A failure raises once every reply is read (so that the
        sequence numbers stay in step), or at once, killing the engine, when the replies
        themselves break the protocol. Every failure is counted by the breaker.
        """
        self._drain()   # (a failure it meets was counted when read)
        self.breaker.check()
        try:   # the replies to the commands of a game are timed (not the handshake, nor quit)
            outcomes = list(self._running().outcomes(commands, self.timeout if timeout is None else timeout,
                                                     steps=steps, timed=timeout is None))
            failure = next((outcome for outcome in outcomes if isinstance(outcome, EngineFailure)), None)
            if failure is not None:
                raise failure
        except EngineFailure as error:
            self.breaker.failed(error)
            raise
        return outcomes

    def _running(self) -> Channel:
        """The channel to the running program; the next command's replies are no longer the last step's."""
        process = self._process
        if process is None or process.closed or self._channel is None:
            raise EngineFailure(f"engine {self.argv[0]} is not running (it failed or was closed); "
                                "call restart() first")
        self._fresh = None
        return self._channel

    def _parse(self, parse):
        """Run ``parse`` on the reply just read; a malformed field is a protocol error."""
        try:
            return parse()
        except WireError as error:
            raise self._broken(f"{error} in the reply") from None

    def _broken(self, message: str) -> EngineProtocolError:
        """Kill the engine (its state is unknown now) and return the protocol error, with the line."""
        return self._channel.broken(message)
