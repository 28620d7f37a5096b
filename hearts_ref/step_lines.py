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

from hearts_ref.cardset import CardSet, bits_of
from hearts_ref.engine import Observation
from hearts_ref.protocol import CARD_TEXT, cards_to_wire, encode

__all__ = ["QUOTED", "cards_text", "numbers_text", "sheet_text", "play_line", "step_line"]

QUOTED: tuple[str, ...] = tuple(f'"{text}"' for text in CARD_TEXT)   # a card's index -> its JSON string
_CARDS: dict[int, str] = {}   # card mask -> its JSON list's inside (a hand's legal sets often recur)


def cards_text(mask: int) -> str:
    """The inside of the JSON list of the cards in ``mask``, in card order: ``"2C","QS"``."""
    text = _CARDS.get(mask)
    if text is None:
        if len(_CARDS) > 4096:
            _CARDS.clear()
        text = _CARDS[mask] = ",".join(map(QUOTED.__getitem__, bits_of(mask)))
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
    (a card mask), as any step's reply is written (:func:`~hearts_ref.protocol.encode`), ``end`` after it."""
    line = encode({"seq": seq, "ok": True, "observation": observation.to_dict(),
                   "legal": cards_to_wire(CardSet.from_mask(legal))})
    return line if end == "\n" else line[:-1] + end.encode()
