"""The JSON-lines stdio protocol: message encoding, card texts and strict field checks.

Both ends use this module: the server (:mod:`hearts_ref.serve`) to read commands and the
client (:mod:`hearts_ref.engines.stdio`) to read replies. The protocol itself is
specified in ``spec/protocol/README.md``, with one JSON Schema per message.

A message is one JSON object on one line, UTF-8, ending with ``\\n``:

>>> encode({"seq": 3, "cmd": "play", "card": "QS"})
b'{"seq":3,"cmd":"play","card":"QS"}\\n'
>>> decode(b'{"seq": 3, "ok": true}\\n')
{'seq': 3, 'ok': True}
>>> cards_to_wire(CardSet.parse("2C QS 10H"))
['2C', 'QS', '10H']
>>> cards_from_wire(["qs", "TH"], field="cards")
CardSet.parse('QS 10H')
>>> cards_to_wire(CardSet.parse("JC JC#2"))          # a second deck's copy (protocol 2, two decks)
['JC', 'JC#2']
>>> decode(b"play QS")
Traceback (most recent call last):
hearts_ref.protocol.WireError: not JSON: Expecting value at column 1: 'play QS'
"""

from __future__ import annotations

import json
import operator
import re
from typing import Any

from hearts_ref.cards import CARDS, Card, parse_card
from hearts_ref.cardset import CardSet
from hearts_ref.engine import Capabilities, Observation
from hearts_ref.errors import HeartsError, InvalidCardError
from hearts_ref.variants import PARAMETERS, Rules, suggest

__all__ = [
    "PROTOCOL_VERSION", "PROTOCOL_VERSIONS", "PROTOCOL_1_PARAMETERS", "rules_to_wire",
    "MAX_LINE_BYTES", "ERROR_KINDS", "COMMANDS", "PHASES", "WireError",
    "encode", "encode_command", "decode", "error_reply", "require", "card_from_wire", "cards_from_wire", "cards_to_wire",
    "observation_from_wire", "step_from_line", "capabilities_from_wire", "shorten", "unsupported_by_protocol",
]

PROTOCOL_VERSION = 2              # the highest version spoken here: the runner offers it in hello
PROTOCOL_VERSIONS = (1, 2)        # every version spoken here; an engine answers the one it speaks
# The variant parameters protocol 1 knew: its new_game sends these, and a later one only when it is not at its
# default (so a protocol-1 engine is sent exactly what it was always sent). Protocol 2 sends every parameter.
PROTOCOL_1_PARAMETERS = (
    "players", "pass_cards", "pass_cycle", "first_trick_points", "can_lead_any_club", "hearts_broken_by",
    "qs_breaks_hearts", "must_break_hearts", "hearts_restriction", "can_lead_hearts_instead_of_qs", "moon",
    "jd_bonus", "avoid_all_tricks_bonus", "end_threshold", "end_comparison", "max_rounds", "ties",
)
MAX_LINE_BYTES = 1 << 20          # a longer line is a protocol error (client) or a bad request (server)

# The kinds of a refusal ({"ok": false, "error": {"kind": ...}}).
ERROR_KINDS = ("illegal", "bad-request", "unsupported", "internal")

# The commands, in the order a game uses them; each names the fields it carries (optional ones too:
# start_round's hands, not sent to an engine that deals; play's seat, sent to one that declares play_seat).
COMMANDS: dict[str, tuple[str, ...]] = {
    "hello": ("protocol",),
    "new_game": ("rules",),
    "start_round": ("hands", "direction"),
    "pass": ("seat", "cards"),
    "legal": (),
    "play": ("card", "seat"),
    "observe": (),
    "quit": (),
}

PHASES = ("pass", "play", "round-over", "game-over")

CARD_TEXT: tuple[str, ...] = tuple(str(card) for card in CARDS)
_INDEX_OF_TEXT = {text: index for index, text in enumerate(CARD_TEXT)}
_BIT_OF_TEXT = {text: 1 << index for index, text in enumerate(CARD_TEXT)}
_TEXT_OF_BIT = {bit: text for text, bit in _BIT_OF_TEXT.items()}
_dumps = json.JSONEncoder(ensure_ascii=False, separators=(",", ":")).encode
_loads = json.loads


class WireError(HeartsError):
    """A message that does not follow the protocol; the text names the field and the bad value."""


def shorten(text: str | bytes, limit: int = 200) -> str:
    """Return ``text`` cut to ``limit`` characters, saying how long it was (for error messages).

    >>> shorten("x" * 300, 10)
    "'xxxxxxxxxx' … (300 characters)"
    """
    if isinstance(text, bytes):
        text = text.decode("utf-8", "replace")
    text = text.rstrip("\n")
    if len(text) <= limit:
        return repr(text)
    return f"{text[:limit]!r} … ({len(text)} characters)"


def _show(value: Any) -> str:
    """Return ``value`` as JSON text, cut to 60 characters (for error messages)."""
    text = json.dumps(value, ensure_ascii=False, default=repr)
    return text if len(text) <= 60 else text[:60] + " …"


def encode(message: dict[str, Any]) -> bytes:
    """Return ``message`` as one line of compact JSON, UTF-8, with its ``\\n``."""
    return (_dumps(message) + "\n").encode("utf-8")


def encode_command(seq: int, command: str, fields: dict[str, Any]) -> bytes:
    """Return the command line ``{"seq", "cmd", **fields}``: ``encode``'s bytes, a play written directly.

    >>> encode_command(7, "play", {"card": "10H"}) == encode({"seq": 7, "cmd": "play", "card": "10H"})
    True
    >>> encode_command(8, "play", {"card": "QS", "seat": 2})
    b'{"seq":8,"cmd":"play","card":"QS","seat":2}\\n'
    """
    if command == "play" and type(fields.get("card")) is str and fields["card"] in _INDEX_OF_TEXT:
        if len(fields) == 1:
            return f'{{"seq":{seq},"cmd":"play","card":"{fields["card"]}"}}\n'.encode()
        seat = fields.get("seat")
        if len(fields) == 2 and type(seat) is int and 0 <= seat < 10:
            return f'{{"seq":{seq},"cmd":"play","card":"{fields["card"]}","seat":{seat}}}\n'.encode()
    return encode({"seq": seq, "cmd": command, **fields})


def decode(line: bytes | str) -> dict[str, Any]:
    """Return the JSON object on ``line``; raise :class:`WireError` naming the problem and the line."""
    try:
        text = line.decode("utf-8") if type(line) is bytes else line
    except UnicodeDecodeError as error:
        raise WireError(f"not UTF-8 ({error.reason} at byte {error.start}): {shorten(line)}") from None
    try:
        message = _loads(text)
    except RecursionError:
        raise WireError(f"not JSON this parser can read: nested too deeply: {shorten(text)}") from None
    except ValueError as error:
        reason = getattr(error, "msg", str(error))
        where = f" at column {error.colno}" if isinstance(error, json.JSONDecodeError) else ""
        raise WireError(f"not JSON: {reason}{where}: {shorten(text)}") from None
    if not isinstance(message, dict):
        raise WireError(f"a message must be a JSON object, got {type(message).__name__}: {shorten(text)}")
    return message


def error_reply(seq: int | None, kind: str, message: str, rule: str | None = None) -> dict[str, Any]:
    """Return the refusal ``{"seq", "ok": false, "error": {"kind", "message", "rule"?}}``."""
    error: dict[str, Any] = {"kind": kind, "message": message}
    if rule:
        error["rule"] = rule
    return {"seq": seq, "ok": False, "error": error}


_TYPE_NAMES = {int: "an integer", str: "a string", bool: "true or false", list: "a list", dict: "an object"}


def require(message: dict[str, Any], name: str, kind: type, *, where: str = "") -> Any:
    """Return ``message[name]``, checking that it is there and of type ``kind`` (no bools for ints).

    >>> require({"seat": "1"}, "seat", int)
    Traceback (most recent call last):
    hearts_ref.protocol.WireError: 'seat' must be an integer, got "1"
    """
    label = f"{where}.{name}" if where else name
    if name not in message:
        raise WireError(f"missing {label!r}")
    value = message[name]
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        raise WireError(f"{label!r} must be {_TYPE_NAMES.get(kind, kind.__name__)}, got {_show(value)}")
    return value


def card_from_wire(value: Any, *, field: str, strict: bool = False) -> Card:
    """Return the card written as ``value`` ("QS", "10H"; also "TH", lower case, glyphs, unless ``strict``: what an
    engine writes is held to the protocol's own texts, as the schema's card pattern is).

    >>> card_from_wire("TH", field="legal")
    Card.parse('10H')
    >>> card_from_wire("TH", field="legal", strict=True)
    Traceback (most recent call last):
    hearts_ref.protocol.WireError: 'legal': 'TH' is not how the protocol writes 10H: write "10H" (a ten is 10, rank and suit in capitals)
    """
    index = _INDEX_OF_TEXT.get(value) if isinstance(value, str) else None
    if index is not None:
        return CARDS[index]
    try:
        card = parse_card(value)
    except InvalidCardError as error:
        raise WireError(f"{field!r}: {error}") from None
    if strict:
        raise WireError(f"{field!r}: {value!r} is not how the protocol writes {card}: write \"{card}\" (a ten is 10, "
                        "rank and suit in capitals)")
    return card


def cards_from_wire(value: Any, *, field: str, strict: bool = False) -> CardSet:
    """Return the set of the cards in the list ``value``; a card written twice is an error. ``strict``: as
    :func:`card_from_wire`."""
    if type(value) is list:
        try:   # the common case: canonical texts; the popcount is short exactly when a card repeats
            mask = sum(map(_BIT_OF_TEXT.__getitem__, value))
            if mask.bit_count() == len(value):
                return CardSet.from_mask(mask)
        except (KeyError, TypeError):
            pass
    if not isinstance(value, list):
        raise WireError(f"{field!r} must be a list of cards such as [\"2C\", \"QS\"], got {_show(value)}")
    mask = 0
    get = _INDEX_OF_TEXT.get
    for text in value:
        index = get(text) if isinstance(text, str) else None
        if index is None:
            index = card_from_wire(text, field=field, strict=strict).index
        bit = 1 << index
        if mask & bit:
            raise WireError(f"{field!r}: card {CARD_TEXT[index]} appears twice")
        mask |= bit
    return CardSet.from_mask(mask)


def cards_to_wire(cards: CardSet) -> list[str]:
    """Return the texts of ``cards``, in card order (clubs, diamonds, spades, hearts; 2 up to A)."""
    texts = []
    mask = cards.mask
    while mask:
        low = mask & -mask
        texts.append(_TEXT_OF_BIT[low])
        mask ^= low
    return texts


_OBSERVATION_FIELDS = ("phase", "to_move", "trick", "hearts_broken", "points_taken", "round_scores",
                       "totals", "game_over", "winners")
_observation_fields = operator.itemgetter(*_OBSERVATION_FIELDS)
_PHASES = frozenset(PHASES)
_INT = frozenset({int})


def _numbers(value: Any, name: str) -> tuple[int, ...]:
    """Return the list of integers ``value`` as a tuple (``true`` is not a number here)."""
    if type(value) is list and set(map(type, value)) <= _INT:
        return tuple(value)
    raise WireError(f"'observation.{name}' must be a list of integers, got {_show(value)}")


def observation_from_wire(data: Any) -> Observation:
    """Return the :class:`Observation` in ``data``, checking every field's type strictly.

    Nothing is coerced (``"hearts_broken": "yes"`` is an error, not ``True``), so that the
    runner compares what the engine said. Trick cards must be the protocol's own texts (``"10H"``, not ``"TH"``).
    Fields beyond the nine of the protocol are ignored.

    >>> reply = {"phase": "play", "to_move": 1, "trick": ["2C"], "hearts_broken": False,
    ...          "points_taken": [0, 0, 0, 0], "round_scores": None, "totals": [0, 0, 0, 0],
    ...          "game_over": False, "winners": []}
    >>> observation_from_wire(reply).trick
    ('2C',)
    >>> observation_from_wire(reply | {"game_over": 0})
    Traceback (most recent call last):
    hearts_ref.protocol.WireError: 'observation.game_over' must be true or false, got 0
    """
    if type(data) is not dict:
        raise WireError(f"'observation' must be an object, got {_show(data)}")
    try:
        phase, to_move, trick, broken, points, scores, totals, over, winners = _observation_fields(data)
    except KeyError as error:
        raise WireError(f"missing 'observation.{error.args[0]}'") from None
    if type(phase) is not str or phase not in _PHASES:
        raise WireError(f"'observation.phase' must be one of {', '.join(PHASES)}, got {_show(phase)}")
    if to_move is not None and type(to_move) is not int:
        raise WireError(f"'observation.to_move' must be a seat number or null, got {_show(to_move)}")
    if type(trick) is not list:
        raise WireError(f"'observation.trick' must be a list of cards, got {_show(trick)}")
    texts = tuple(text if type(text) is str and text in _INDEX_OF_TEXT
                  else str(card_from_wire(text, field="observation.trick", strict=True)) for text in trick)
    for name, value in (("hearts_broken", broken), ("game_over", over)):
        if type(value) is not bool:
            raise WireError(f"'observation.{name}' must be true or false, got {_show(value)}")
    return Observation(phase, to_move, texts, broken, _numbers(points, "points_taken"),
                       None if scores is None else _numbers(scores, "round_scores"),
                       _numbers(totals, "totals"), over, _numbers(winners, "winners"))


_INT_TEXT = rb"-?(?:0|[1-9][0-9]{0,17})"
_INTS = rb"\[(?:" + _INT_TEXT + rb"(?:," + _INT_TEXT + rb")*)?\]"
# A step reply's shape, its parts captured loosely (a card list as the text between its brackets, the score sheet
# as the text from "points_taken" to the observation's end), each part then read strictly.
_STEP_SHAPE = re.compile(
    rb'\{"seq":(0|[1-9][0-9]{0,17}),"ok":true,"observation":\{"phase":"(pass|play|round-over|game-over)",'
    rb'"to_move":(null|[0-9]),"trick":\[([^\]]*)\],"hearts_broken":(true|false),'
    rb'("points_taken":[^}]*)\},"legal":\[([^\]]*)\]\}\r?\n?')
_SHEET = re.compile(rb'"points_taken":(' + _INTS + rb'),"round_scores":(null|' + _INTS + rb'),"totals":('
                    + _INTS + rb'),"game_over":(true|false),"winners":(' + _INTS + rb')')
_PHASE_OF = {phase.encode(): phase for phase in PHASES}
_SEAT_OF = {b"null": None, **{str(seat).encode(): seat for seat in range(10)}}
_QUOTED_TEXT = {f'"{text}"'.encode(): text for text in CARD_TEXT}   # b'"QS"' -> "QS": canonical texts only
_QUOTED_BIT = {f'"{text}"'.encode(): 1 << index for index, text in enumerate(CARD_TEXT)}
_SHEETS: dict[bytes, Any] = {}   # score sheets read so far (one changes once a trick); forgotten past 4096
_LEGALS: dict[bytes, CardSet] = {}   # legal sets read so far (a hand's often recur); forgotten past 4096


def _ints(text: bytes) -> tuple[int, ...]:
    return tuple(map(int, text[1:-1].split(b","))) if len(text) > 2 else ()


def _sheet(text: bytes) -> tuple[Any, ...] | None:
    """The score sheet of a step reply (points taken, round scores, totals, game over, winners), or None."""
    sheet = _SHEETS.get(text, _SHEETS)
    if sheet is _SHEETS:
        match = _SHEET.fullmatch(text)
        if match is None:
            return None
        points, scores, totals, over, winners = match.groups()
        sheet = (_ints(points), None if scores == b"null" else _ints(scores), _ints(totals), over == b"true",
                 _ints(winners))
        if len(_SHEETS) >= 4096:
            _SHEETS.clear()
        _SHEETS[text] = sheet
    return sheet


def _trick(text: bytes) -> tuple[str, ...] | None:
    """The cards between a trick's brackets, ``text`` (canonical texts only), or None."""
    try:
        return tuple(map(_QUOTED_TEXT.__getitem__, text.split(b","))) if text else ()
    except KeyError:
        return None


def _legal(text: bytes) -> CardSet | None:
    """The set of the cards between a legal set's brackets, ``text`` (canonical texts, none twice), or None."""
    legal = _LEGALS.get(text)
    if legal is None:
        try:
            cards = text.split(b",") if text else []
            mask = sum(map(_QUOTED_BIT.__getitem__, cards))
        except KeyError:
            return None
        if mask.bit_count() != len(cards):
            return None
        if len(_LEGALS) >= 4096:
            _LEGALS.clear()
        legal = _LEGALS[text] = CardSet.from_mask(mask)
    return legal


def step_from_line(line: bytes) -> tuple[int, Observation, CardSet] | None:
    """Read a reply that changes the state, written compactly with its fields in protocol order (as
    ``hearts-ref serve`` writes them): return its ``seq``, observation and legal set.

    Returns None for any other line, which the strict reader (:func:`decode`,
    :func:`observation_from_wire`) then reads: this one accepts nothing the strict reader refuses,
    and reads what it accepts the same way. The score sheet, which changes once a trick, and the
    legal sets are read once and remembered.

    >>> line = (b'{"seq":4,"ok":true,"observation":{"phase":"play","to_move":1,"trick":["2C"],'
    ...         b'"hearts_broken":false,"points_taken":[0,0,0,0],"round_scores":null,"totals":[0,0,0,0],'
    ...         b'"game_over":false,"winners":[]},"legal":["3C","QS"]}')
    >>> seq, observation, legal = step_from_line(line)
    >>> seq, observation.trick, str(legal)
    (4, ('2C',), '3C QS')
    >>> step_from_line(line.replace(b'"QS"', b'"3C"')) is None    # a card twice: the strict reader says so
    True
    """
    match = _STEP_SHAPE.fullmatch(line)
    if match is None:
        return None
    seq, phase, to_move, trick, broken, sheet, legal = match.groups()
    trick, sheet, legal = _trick(trick), _sheet(sheet), _legal(legal)
    if trick is None or sheet is None or legal is None:
        return None
    points, scores, totals, over, winners = sheet
    observation = Observation(_PHASE_OF[phase], _SEAT_OF[to_move], trick, broken == b"true", points, scores,
                              totals, over, winners)
    return int(seq), observation, legal


def capabilities_from_wire(data: Any) -> Capabilities:
    """Return the :class:`Capabilities` in a hello reply, checking the types of its fields."""
    if not isinstance(data, dict):
        raise WireError(f"'capabilities' must be an object, got {_show(data)}")
    for name in data:   # a misspelt field would silently leave its default in force
        if name not in _CAPABILITIES:
            raise WireError(f"unknown field 'capabilities.{name}'; {suggest(str(name), list(_CAPABILITIES))}"
                            f"known: {', '.join(_CAPABILITIES)}")
    for name in ("multi_round", "passing", "deals", "play_seat"):
        if name in data:
            require(data, name, bool, where="capabilities")
    unsupported = data.get("unsupported", {})
    if not isinstance(unsupported, dict) or not all(isinstance(v, list) for v in unsupported.values()):
        raise WireError("'capabilities.unsupported' must map variant parameters to lists of values")
    for name in unsupported:
        if name not in _DEFAULTS:
            raise WireError(f"'capabilities.unsupported' names {name!r}, not a variant parameter; "
                            f"{suggest(str(name), list(_DEFAULTS))}see 'hearts-ref rules --registry'")
    deviations = data.get("known_deviations", [])
    if not isinstance(deviations, list) or not all(isinstance(v, str) for v in deviations):
        raise WireError("'capabilities.known_deviations' must be a list of strings")
    return Capabilities.from_dict(data)


_DEFAULTS = {parameter.name: parameter.default for parameter in PARAMETERS}
_CAPABILITIES = ("multi_round", "passing", "unsupported", "known_deviations", "deals", "play_seat")   # the hello's
_KNOWN_TO_1 = frozenset(PROTOCOL_1_PARAMETERS)


def unsupported_by_protocol(rules: Rules, protocol: int) -> str | None:
    """Why a game under ``rules`` cannot be played in ``protocol`` (a sentence), or None when it can."""
    return Capabilities(protocol=protocol).cannot_play(rules)


def rules_to_wire(rules: Rules, protocol: int = PROTOCOL_VERSION) -> dict[str, Any]:
    """The ``rules`` of ``new_game`` in ``protocol``: in 2, every variant value by name; in 1, the parameters
    protocol 1 knew, and a later one only when it is not at its default (what protocol 1 was always sent).

    Raises :class:`WireError` when the rules cannot be played in ``protocol`` (two decks in protocol 1).

    >>> sorted(set(rules_to_wire(Rules(), 2)) - set(rules_to_wire(Rules(), 1)))
    ['decks', 'even_out']
    >>> rules_to_wire(Rules.preset("seed003", players=5), 1)
    Traceback (most recent call last):
    hearts_ref.protocol.WireError: a game with two decks (decks=2) needs protocol 2, which writes the second deck's cards as 'JC#2' (DECK-CARDS); the engine speaks protocol 1
    >>> rules_to_wire(Rules.preset("seed003", players=3), 1)["even_out"]
    'uneven'
    """
    values = rules.to_dict()
    if protocol >= 2:
        return values
    reason = unsupported_by_protocol(rules, protocol)
    if reason:
        raise WireError(reason)
    return {name: value for name, value in values.items()
            if name in _KNOWN_TO_1 or value != _DEFAULTS[name] or type(value) is not type(_DEFAULTS[name])}
