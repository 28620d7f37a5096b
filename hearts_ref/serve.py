"""The server side of the stdio protocol: any in-process :class:`Engine` answering JSON lines.

``hearts-ref serve`` runs :func:`serve` with the reference engine; ``--engine
python:module:attr`` serves another Python engine. Every line read gets exactly one
reply line; a malformed line or an unknown command gets a ``bad-request`` reply
naming the problem, and the server keeps going. See ``spec/protocol/README.md``.

>>> server = Server(ReferenceEngine())
>>> server.answer(b'{"seq": 0, "cmd": "hello", "protocol": 2}')["name"]
'hearts-ref'
>>> server.answer(b'{"seq": 1, "cmd": "deal"}')["error"]["message"]
"unknown command 'deal'; known: hello, new_game, start_round, pass, legal, play, observe, quit"
"""

from __future__ import annotations

import re
import sys
import traceback
from collections.abc import Callable
from typing import Any, BinaryIO

from hearts_ref.engine import Engine, EngineRejection, ReferenceEngine, takes_seat
from hearts_ref.engines.failures import EngineUnsupported
from hearts_ref.errors import IllegalPlayError, RulesError
from hearts_ref.cards import CARDS
from hearts_ref.cardset import CardSet
from hearts_ref.scoring import card_points
from hearts_ref.step_lines import QUOTED, cards_text, numbers_text, play_line, sheet_text, step_line
from hearts_ref.protocol import (
    CARD_TEXT, COMMANDS, MAX_LINE_BYTES, PROTOCOL_VERSION, PROTOCOL_VERSIONS, WireError, card_from_wire,
    cards_from_wire, cards_to_wire, decode, encode, error_reply, require, unsupported_by_protocol,
)
from hearts_ref.variants import PARAMETERS, PASS_DIRECTIONS, Rules

__all__ = ["Server", "serve", "FLUSH_EVERY"]

FLUSH_EVERY = 64    # replies written at once at most while more commands wait (a round's, PIPELINE_WINDOW: together)


class _Unsupported(Exception):
    """A request the engine understands but cannot play (a protocol version, a variant)."""


class Server:
    """Answers protocol messages by calling ``engine``; :attr:`done` turns true after ``quit``."""

    def __init__(self, engine: Engine):
        self.engine = engine
        self.done = False
        self.protocol = PROTOCOL_VERSION    # the version agreed in hello (the highest until then)
        # The reference itself (not a subclass, which may change what it observes): plays on a fast path.
        self._fast = _ReferenceReplies(engine) if type(engine) is ReferenceEngine else None
        self._seated = takes_seat(engine)   # whether the engine's play is told the seat (else a seat is not passed on)
        self._handlers: dict[str, Callable[[dict[str, Any]], dict[str, Any]]] = {
            "hello": self._hello, "new_game": self._new_game, "start_round": self._start_round,
            "pass": self._pass, "legal": self._legal, "play": self._play, "observe": self._observe,
            "quit": self._quit,
        }
        assert tuple(self._handlers) == tuple(COMMANDS), "one handler per command, in spec order"

    def answer(self, line: bytes | str) -> dict[str, Any]:
        """Return the reply to one line: ``{"seq", "ok": true, ...}`` or a refusal; never raises."""
        try:
            request = decode(line)
        except WireError as error:
            return error_reply(None, "bad-request", str(error))
        seq = request.get("seq")
        if type(seq) is not int:
            return error_reply(None, "bad-request", "missing 'seq': every command carries an integer 'seq'"
                               if seq is None else f"'seq' must be an integer, got {seq!r}")
        command = request.get("cmd")
        handler = self._handlers.get(command) if isinstance(command, str) else None
        if handler is None:
            return error_reply(seq, "bad-request", "missing 'cmd'" if command is None else
                               f"unknown command {command!r}; known: {', '.join(COMMANDS)}")
        try:
            return {"seq": seq, "ok": True, **handler(request)}
        except WireError as error:
            return error_reply(seq, "bad-request", f"{command}: {error}")
        except EngineRejection as error:
            return error_reply(seq, "illegal", error.reason, error.rule_id)
        except IllegalPlayError as error:     # an engine that raises the reference's own error type
            return error_reply(seq, "illegal", str(error), error.rule_id)
        except (_Unsupported, EngineUnsupported) as error:   # (an engine declining the rules at new_game, say)
            return error_reply(seq, "unsupported", str(error))
        except Exception as error:            # the engine's own bug: report it, keep serving
            traceback.print_exc(file=sys.stderr)
            return error_reply(seq, "internal", f"{command}: {type(error).__name__}: {error}")

    # One handler per command; each returns the fields of the reply after "seq" and "ok". --------

    def _hello(self, request: dict[str, Any]) -> dict[str, Any]:
        offered = require(request, "protocol", int)   # the highest version the runner speaks
        if offered < PROTOCOL_VERSIONS[0]:
            raise _Unsupported(f"protocol {offered} is not supported; this engine speaks "
                               f"{' and '.join(map(str, PROTOCOL_VERSIONS))}")
        self.protocol = min(offered, PROTOCOL_VERSION)   # the highest both speak
        engine = self.engine
        capabilities = engine.capabilities().to_dict()
        capabilities["play_seat"] = self._seated      # what play's signature says, whatever the engine declared
        return {"protocol": self.protocol, "name": str(engine.name), "version": str(engine.version),
                "capabilities": capabilities}

    def _new_game(self, request: dict[str, Any]) -> dict[str, Any]:
        values = require(request, "rules", dict)
        unknown = [name for name in values if name not in _PARAMETER_NAMES]
        if unknown:   # rules this engine does not know cannot be played (a later version's parameter)
            raise _Unsupported(f"unknown variant parameter {unknown[0]!r} in 'rules'; this engine knows "
                               f"{', '.join(_PARAMETER_NAMES)}")
        try:
            rules = Rules.from_dict(values)
        except RulesError as error:
            raise WireError(f"rules: {error}") from None
        reason = unsupported_by_protocol(rules, self.protocol) or self.engine.capabilities().cannot_play(rules)
        if reason:
            raise _Unsupported(reason)
        self.engine.new_game(rules)
        if self._fast is not None:
            self._fast.forget()
        return self._step()

    def _start_round(self, request: dict[str, Any]) -> dict[str, Any]:
        deals = "hands" not in request   # an engine that deals for itself is sent no hands, and says what it dealt
        cards = None if deals else [cards_from_wire(hand, field=f"hands[{seat}]")
                                    for seat, hand in enumerate(require(request, "hands", list))]
        direction = require(request, "direction", str)
        if direction not in PASS_DIRECTIONS:
            raise WireError(f"'direction' must be one of {', '.join(PASS_DIRECTIONS)}, got {direction!r}")
        if deals and not self.engine.capabilities().deals:
            raise WireError("missing 'hands': this engine does not deal for itself (capabilities.deals is false)")
        dealt = self.engine.start_round(cards, direction)
        if self._fast is not None:
            self._fast.forget()
        if not deals:
            return self._step()
        if not isinstance(dealt, (list, tuple)) or not all(isinstance(hand, CardSet) for hand in dealt):
            raise TypeError(f"start_round() of an engine that deals returned {type(dealt).__name__}, "
                            "not the hands it dealt (a card set per seat)")
        return {"hands": [cards_to_wire(hand) for hand in dealt], **self._step()}

    def _pass(self, request: dict[str, Any]) -> dict[str, Any]:
        seat = require(request, "seat", int)
        self.engine.pass_cards(seat, cards_from_wire(require(request, "cards", list), field="cards"))
        return self._step()

    def _legal(self, request: dict[str, Any]) -> dict[str, Any]:
        return {"legal": cards_to_wire(self.engine.legal_plays())}

    def _play(self, request: dict[str, Any]) -> dict[str, Any]:
        if "card" not in request:
            raise WireError("missing 'card'")
        card = card_from_wire(request["card"], field="card")
        seat = require(request, "seat", int) if "seat" in request else None
        if seat is not None and self._seated:
            self.engine.play(card, seat)
        else:
            self.engine.play(card)
        return self._step()

    def _observe(self, request: dict[str, Any]) -> dict[str, Any]:
        return {"observation": self.engine.observe().to_dict()}

    def _quit(self, request: dict[str, Any]) -> dict[str, Any]:
        self.done = True
        return {}

    def _step(self) -> dict[str, Any]:
        return _generic_step(self.engine)

    def reply_line(self, line: bytes) -> bytes:
        """Return the encoded reply to one line: ``encode(self.answer(line))``, the same bytes.

        Serving the reference itself, a ``play`` written as the runner writes it (compact
        JSON, keys in protocol order) is answered on a fast path: the card is played on the
        reference, and the reply is written from its round's state, the parts that change
        only once a trick or a round is over (points, scores, totals) kept encoded until
        they do. A ``pass`` so written is made and answered without the JSON reader and writer.
        Anything else, or anything that goes wrong, takes the ordinary path.
        """
        fast = self._fast
        if fast is not None:
            match = _PLAY_LINE.fullmatch(line)
            if match is not None:
                if (reply := fast.play(int(match[1]), match[2].decode(),
                                       None if match[3] is None else int(match[3]))) is not None:
                    return reply
            elif (match := _PASS_LINE.fullmatch(line)) is not None:
                if (reply := fast.pass_cards(int(match[1]), int(match[2]), match[3])) is not None:
                    return reply
        return encode(self.answer(line))


_PARAMETER_NAMES = ("preset", *(parameter.name for parameter in PARAMETERS))

# A play as the client writes it: {"seq":N,"cmd":"play","card":"QS"} (a second deck's copy "QS#2"), or with
# ,"seat":S after the card (N and S without leading zeros, as JSON wants).
_PLAY_LINE = re.compile(rb'\{"seq":(0|[1-9][0-9]{0,17}),"cmd":"play","card":"((?:10[CDSH]|[2-9JQKA][CDSH])(?:#2)?)"'
                        rb'(?:,"seat":([0-9]))?\}\r?\n?')
# A pass as the client writes it: {"seq":N,"cmd":"pass","seat":S,"cards":["2C","3C","4C"]}.
_PASS_LINE = re.compile(rb'\{"seq":(0|[1-9][0-9]{0,17}),"cmd":"pass","seat":([0-9]),"cards":\[([^\]]*)\]\}\r?\n?')
_INDEX = {text: index for index, text in enumerate(CARD_TEXT)}
_QUOTED_BIT = {f'"{text}"'.encode(): 1 << index for index, text in enumerate(CARD_TEXT)}


class _ReferenceReplies:
    """The fast path of :meth:`Server.reply_line` for :class:`ReferenceEngine`: plays answered from the state."""

    def __init__(self, engine: ReferenceEngine):
        self.engine = engine
        self._taken: Any = None            # the state's ``taken`` the points below were encoded for
        self._numbers: tuple[int, ...] = ()   # those points
        self._points = ""
        self._results: Any = None          # the game's results the scores and totals below were encoded for
        self._scores = ""

    def forget(self) -> None:
        """Drop what was encoded for the last game: a new game may start from equal (even identical) results."""
        self._taken = self._results = None
        self._points = self._scores = ""

    def pass_cards(self, seq: int, seat: int, cards: bytes) -> bytes | None:
        """``seat`` passes the cards written (quoted, comma-separated) in ``cards``; return the reply, or None (nothing
        passed) when the ordinary path must answer: a card not written canonically, twice, or a pass refused (the
        reference's game is left as it was, and the ordinary path refuses it the same way)."""
        try:
            bits = [_QUOTED_BIT[text] for text in cards.split(b",")] if cards else []
        except KeyError:
            return None
        mask = sum(bits)
        if mask.bit_count() != len(bits):
            return None
        engine = self.engine
        try:
            engine.pass_cards(seat, CardSet.from_mask(mask))
        except Exception:
            return None
        return step_line(seq, engine.observe(), engine.legal_plays().mask)

    def play(self, seq: int, text: str, seat: int | None = None) -> bytes | None:
        """``seat`` (None: the seat to move) plays the card ``text``; return the reply, or None (nothing played)
        when the ordinary path must answer."""
        engine = self.engine
        game = engine.game
        state = game.round if game is not None else None
        index = _INDEX[text]
        if state is None or state.to_play < 0 or not state.legal >> index & 1 or seat not in (None, state.to_play):
            return None                      # no round, an illegal card, or out of turn: refused on the ordinary path
        before = state
        engine.play(CARDS[index])
        game = engine.game
        state = game.round
        if state is None or state.to_play < 0:   # the round is over: the game scored it, the reply is the whole sheet
            return step_line(seq, engine.observe(), engine.legal_plays().mask)
        if state.taken is not self._taken:   # a trick was taken (SCORE-POINTS): its winner's points change
            if before.taken is self._taken:
                winner = state.leader
                points = self._numbers[:winner] + (card_points(state.taken[winner], state.rules),) + self._numbers[winner + 1:]
            else:
                points = state.points_taken()
            self._taken, self._numbers = state.taken, points
            self._points = numbers_text(points)
        if game.results is not self._results:
            self._results = game.results
            last = game.results[-1].score.scores if game.results else None
            self._scores = sheet_text(last, game.totals)
        return play_line(seq, state.to_play, ",".join(map(QUOTED.__getitem__, state.trick)),
                         state.context.hearts_broken, self._points, self._scores, cards_text(state.legal))


def _generic_step(engine: Engine) -> dict[str, Any]:
    """The observation and the next legal set, carried by every reply that changes the state."""
    return {"observation": engine.observe().to_dict(), "legal": cards_to_wire(engine.legal_plays())}


def serve(engine: Engine | None = None, stdin: BinaryIO | None = None, stdout: BinaryIO | None = None,
          *, max_line: int = MAX_LINE_BYTES) -> int:
    """Answer the commands read from ``stdin`` on ``stdout`` until ``quit`` or end of input; return 0.

    Replies are written in command order, and flushed whenever no further command is
    waiting, or :data:`FLUSH_EVERY` of them are ready: the replies to a batch of commands read
    together are written together (a runner that sends a round at once reads them all, and each
    write wakes it up).
    A line longer than ``max_line`` bytes is skipped to its end and refused as a bad request.
    """
    server = Server(engine if engine is not None else ReferenceEngine())
    stdin = stdin if stdin is not None else sys.stdin.buffer
    stdout = stdout if stdout is not None else sys.stdout.buffer
    too_long = encode(error_reply(None, "bad-request", f"line longer than {max_line} bytes"))
    pending = b""                         # the start of a line whose end has not come yet
    replies: list[bytes] = []
    skipping = False                      # inside a line that is too long

    def send() -> None:
        stdout.write(b"".join(replies))
        stdout.flush()
        replies.clear()

    while not server.done:
        chunk = stdin.read1(1 << 16)
        if not chunk:                     # a last line without its newline still gets a reply
            if skipping:
                replies.append(too_long)
            elif pending:
                replies.append(encode(server.answer(pending)))
            break
        *lines, pending = (pending + chunk).split(b"\n")
        for line in lines:
            if skipping or len(line) >= max_line:
                skipping = False
                replies.append(too_long)
            else:
                replies.append(server.reply_line(line))
            if server.done:
                break
            if len(replies) >= FLUSH_EVERY:
                send()
        if len(pending) > max_line:
            skipping, pending = True, b""
        if replies:                       # nothing more to answer now: send what is ready
            send()
    if replies:
        send()
    return 0
