"""The text of a step reply (a move's observation and the next legal set), as ``hearts-ref serve`` writes it.

The server writes the reply to a play in the middle of a round from its round's state
(:func:`play_line`), and any other step's reply from the observation (:func:`step_line`: the
bytes :func:`~hearts_ref.protocol.encode` gives). The runner, which knows the reference's
steps ahead, can write the replies it expects of an engine that agrees, the same way, and
compare whole lines (:mod:`hearts_ref.conformance.batch`): a line equal to the one expected
says exactly what the reference says.

>>> from hearts_ref.engine import Observation
>>> seen = Observation("play", 1, ("2C",), False, (0, 0, 0, 0), None, (0, 0, 0, 0), False, ())
>>> step_line(4, seen, 1 << 1 | 1 << 10) == play_line(4, 1, '"2C"', False, "0,0,0,0", sheet_text(None, (0, 0, 0, 0)),
...                                                    cards_text(1 << 1 | 1 << 10))
True
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from hearts_ref.cardset import CardSet, bits_of
from hearts_ref.engine import Observation
from hearts_ref.protocol import CARD_TEXT, cards_to_wire, encode

__all__ = ["QUOTED", "cards_text", "numbers_text", "sheet_text", "play_line", "step_line"]

QUOTED: tuple[str, ...] = tuple(f'"{text}"' for text in CARD_TEXT)   # a card's index -> its JSON string
_QUOTED_TEXT = {text: f'"{text}"' for text in CARD_TEXT}
_CARDS: dict[int, str] = {}   # card mask -> its JSON list's inside (a hand's legal sets often recur)
_SUITS: dict[int, str] = {}   # 13 cards' bits and their place (13 cards a suit of a deck) -> their texts
_PHASES = frozenset(("pass", "play", "round-over", "game-over"))


def cards_text(mask: int) -> str:
    """The inside of the JSON list of the cards in ``mask``, in card order: ``"2C","QS"``.

    >>> cards_text(1 << 0 | 1 << 12 | 1 << 13 | 1 << 51) == ",".join(QUOTED[i] for i in (0, 12, 13, 51))
    True
    """
    text = _CARDS.get(mask)
    if text is None:
        if len(_CARDS) > 4096:
            _CARDS.clear()
        parts, place, rest = [], 0, mask
        while rest:   # 13 cards at a time, each run of 13 written once
            bits = rest & 0x1FFF
            if bits:
                key = place | bits
                run = _SUITS.get(key)
                if run is None:
                    run = _SUITS[key] = ",".join(QUOTED[place // 8192 + i] for i in bits_of(bits))
                parts.append(run)
            rest >>= 13
            place += 13 * 8192
        text = _CARDS[mask] = ",".join(parts)
    return text


def numbers_text(values: Sequence[int]) -> str:
    """The inside of the JSON list of ``values``: ``0,13,0,0``."""
    return ",".join(map(str, values))


def sheet_text(scores: Sequence[int] | None, totals: Sequence[int]) -> str:
    """The last round's scores (null before the first is scored) and the totals, as a play's reply writes them."""
    return ("null" if scores is None else f"[{numbers_text(scores)}]") + f',"totals":[{numbers_text(totals)}]'


def play_line(seq: int, to_move: int, trick: str, broken: bool, points: str, sheet: str, legal: str,
              end: str = "\n") -> bytes:
    """The reply to command ``seq``, a play after which the round goes on: ``to_move`` to play, the trick's cards
    (the inside of their JSON list), hearts broken, the points taken (:func:`numbers_text`), the :func:`sheet_text`
    and the next legal set (:func:`cards_text`); ``end``: after the line (a line read comes without its newline)."""
    return (f'{{"seq":{seq},"ok":true,"observation":{{"phase":"play","to_move":{to_move},'
            f'"trick":[{trick}],"hearts_broken":{"true" if broken else "false"},'
            f'"points_taken":[{points}],"round_scores":{sheet},"game_over":false,"winners":[]}},'
            f'"legal":[{legal}]}}{end}').encode()


def step_line(seq: int, observation: Observation, legal: int, end: str = "\n") -> bytes:
    """The reply to command ``seq``, a move after which the engine shows ``observation`` and the legal set ``legal``
    (a card mask), as any step's reply is written (the bytes of :func:`~hearts_ref.protocol.encode`), ``end`` after
    it. An observation of the reference's (its values of the types the protocol gives them) is written directly."""
    o = observation
    phase, to_move, trick, broken, points = o.phase, o.to_move, o.trick, o.hearts_broken, o.points_taken
    scores, totals, over, winners = o.round_scores, o.totals, o.game_over, o.winners
    if (phase in _PHASES and (to_move is None or type(to_move) is int) and type(broken) is bool
            and type(over) is bool and all(text in _QUOTED_TEXT for text in trick)
            and _ints(points) and (scores is None or _ints(scores)) and _ints(totals) and _ints(winners)):
        return (f'{{"seq":{seq},"ok":true,"observation":{{"phase":"{phase}",'
                f'"to_move":{"null" if to_move is None else to_move},'
                f'"trick":[{",".join(map(_QUOTED_TEXT.__getitem__, trick))}],'
                f'"hearts_broken":{"true" if broken else "false"},"points_taken":[{numbers_text(points)}],'
                f'"round_scores":{sheet_text(scores, totals)},"game_over":{"true" if over else "false"},'
                f'"winners":[{numbers_text(winners)}]}},"legal":[{cards_text(legal)}]}}{end}').encode()
    line = encode({"seq": seq, "ok": True, "observation": observation.to_dict(),
                   "legal": cards_to_wire(CardSet.from_mask(legal))})
    return line if end == "\n" else line[:-1] + end.encode()


def _ints(values: Any) -> bool:
    """Whether ``values`` is a tuple of ints (not bools), as the reference's observations hold them."""
    return type(values) is tuple and all(type(value) is int for value in values)
