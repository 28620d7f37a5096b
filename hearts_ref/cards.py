"""Cards: suits, ranks and the 52 cards of a deck, in one or two copies (DECK-CARDS).

A card is identified by an index ``copy * 52 + suit * 13 + rank``: in the first deck clubs 0-12,
diamonds 13-25, spades 26-38, hearts 39-51, each suit from the two up to the ace; the second
deck's copies (DECK-CARDS: two decks with five or six players) are the same 52 cards again at 52-103. Card sets
(:mod:`hearts_ref.cardset`) are integers over the same indices, 52 bits with one deck. The suit of
a card is ``index // 13 & 3`` (``index % 52 // 13``), its rank ``index % 13``. A second deck's copy is written with
``#2`` after the card (``JC#2``); a card without a copy number is the first deck's.

>>> Card.parse("QS")
Card.parse('QS')
>>> str(Card.parse("10h")), Card.parse("T♥") == Card.parse("10H")
('10H', True)
>>> QUEEN_OF_SPADES.suit, QUEEN_OF_SPADES.rank
(<Suit.SPADES: 2>, <Rank.QUEEN: 10>)
>>> jack = Card.parse("JC#2")
>>> jack.index, jack.copy, jack.glyph, jack.face == Card.parse("JC")
(61, 2, 'J♣#2', True)
"""

from __future__ import annotations

import enum
from typing import Any
from dataclasses import dataclass

from hearts_ref.errors import InvalidCardError

__all__ = [
    "Suit", "Rank", "Card", "CARDS", "DECK", "COPY_OFFSET", "parse_card", "suit_of",
    "TWO_OF_CLUBS", "THREE_OF_CLUBS", "QUEEN_OF_SPADES", "JACK_OF_DIAMONDS", "TEN_OF_CLUBS",
]


class Suit(enum.IntEnum):
    """The four suits; none is trump (DECK-CARDS)."""

    CLUBS = 0
    DIAMONDS = 1
    SPADES = 2
    HEARTS = 3

    @property
    def letter(self) -> str:
        return "CDSH"[self]

    @property
    def glyph(self) -> str:
        return "♣♦♠♥"[self]


class Rank(enum.IntEnum):
    """Ranks from the two (lowest) to the ace (highest) (DECK-CARDS)."""

    TWO = 0
    THREE = 1
    FOUR = 2
    FIVE = 3
    SIX = 4
    SEVEN = 5
    EIGHT = 6
    NINE = 7
    TEN = 8
    JACK = 9
    QUEEN = 10
    KING = 11
    ACE = 12

    @property
    def symbol(self) -> str:
        return _RANK_SYMBOLS[self]


_RANK_SYMBOLS = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
COPY_OFFSET = 52   # DECK-CARDS, two decks: the index of a second deck's copy is its card's index + 52
_ONE_DECK_TEXT = tuple(rank + suit for suit in "CDSH" for rank in _RANK_SYMBOLS)
_TEXT = _ONE_DECK_TEXT + tuple(text + "#2" for text in _ONE_DECK_TEXT)   # str(card), by index

_RANK_BY_TEXT = {text: Rank(i) for i, text in enumerate(_RANK_SYMBOLS)} | {"T": Rank.TEN}
_SUIT_BY_TEXT = {
    "C": Suit.CLUBS, "D": Suit.DIAMONDS, "S": Suit.SPADES, "H": Suit.HEARTS,
    "♣": Suit.CLUBS, "♦": Suit.DIAMONDS, "♠": Suit.SPADES, "♥": Suit.HEARTS,
    "♧": Suit.CLUBS, "♢": Suit.DIAMONDS, "♤": Suit.SPADES, "♡": Suit.HEARTS,
}


@dataclass(frozen=True, slots=True, order=True)
class Card:
    """One playing card; ``index`` is ``copy * 52 + suit * 13 + rank`` (``copy`` 0 for the first deck).

    Cards order by index: the first deck's by suit (clubs, diamonds, spades, hearts), then by
    rank; then the second deck's copies in the same order.
    """

    index: int

    @property
    def suit(self) -> Suit:
        return Suit(self.index // 13 & 3)

    @property
    def rank(self) -> Rank:
        return Rank(self.index % 13)

    @property
    def copy(self) -> int:
        """DECK-CARDS, two decks: which deck the card comes from, 1 or 2 (always 1 with one deck)."""
        return 1 + self.index // COPY_OFFSET

    @property
    def face(self) -> Card:
        """The first deck's card of the same rank and suit: two cards are identical when their faces are."""
        return CARDS[self.index % COPY_OFFSET]

    @property
    def glyph(self) -> str:
        """The card as rank and suit symbol, for example ``Q♠`` (``Q♠#2`` for the second deck's copy)."""
        return self.rank.symbol + self.suit.glyph + ("#2" if self.index >= COPY_OFFSET else "")

    @classmethod
    def parse(cls, text: str) -> Card:
        """Return the card written as ``text``: rank then suit, ``"QS"``, ``"10H"``, ``"TH"``, ``"Q♠"``;
        a second deck's copy with ``#2`` after it, ``"QS#2"`` (``#1``, the first deck's, may be written).

        Raises :class:`InvalidCardError` naming the text when it is not a card.
        """
        return parse_card(text)

    @classmethod
    def of(cls, rank: Rank, suit: Suit, copy: int = 1) -> Card:
        """Return the card of ``rank`` in ``suit`` (from deck ``copy``, 1 or 2)."""
        return CARDS[(copy - 1) * COPY_OFFSET + suit * 13 + rank]

    def __str__(self) -> str:
        return _TEXT[self.index]

    def __repr__(self) -> str:
        return f"Card.parse({str(self)!r})"


CARDS: tuple[Card, ...] = tuple(Card(i) for i in range(2 * COPY_OFFSET))
"""Every card identity by index: the 52 cards of the first deck, then the second deck's copies (DECK-CARDS, two decks)."""
DECK: tuple[Card, ...] = CARDS[:COPY_OFFSET]
"""The 52 cards of one deck (DECK-CARDS)."""


def suit_of(index: Any) -> Any:
    """The suit of the card of ``index`` (of either deck), as a number: ``Suit(suit_of(i))``.

    Written as integer operations so that it also runs on a symbolic card (``hearts_ref.symbolic``).

    >>> suit_of(Card.parse("QS").index), suit_of(Card.parse("QS#2").index)
    (2, 2)
    """
    return index // 13 & 3


def parse_card(text: str) -> Card:
    """Return the card written as ``text`` (see :meth:`Card.parse`).

    >>> parse_card("2c")
    Card.parse('2C')
    >>> parse_card("jc#2")
    Card.parse('JC#2')
    >>> parse_card("1X")
    Traceback (most recent call last):
    hearts_ref.errors.InvalidCardError: not a card: '1X' (rank must be one of 2-10, J, Q, K, A or T; suit one of C D S H or ♣ ♦ ♠ ♥)
    >>> parse_card("JC#3")
    Traceback (most recent call last):
    hearts_ref.errors.InvalidCardError: not a card: 'JC#3' (the copy after # is 1 or 2: two decks at most, DECK-CARDS)
    """
    if not isinstance(text, str):
        raise InvalidCardError(f"not a card: {text!r} (expected a string such as 'QS')")
    cleaned = text.strip().upper()
    offset = 0
    if "#" in cleaned:
        cleaned, _, copy = cleaned.partition("#")
        if copy not in ("1", "2"):
            raise InvalidCardError(f"not a card: {text!r} (the copy after # is 1 or 2: two decks at most, DECK-CARDS)")
        offset = COPY_OFFSET if copy == "2" else 0
    rank = _RANK_BY_TEXT.get(cleaned[:-1])
    suit = _SUIT_BY_TEXT.get(cleaned[-1:])
    if rank is None or suit is None:
        raise InvalidCardError(
            f"not a card: {text!r} (rank must be one of 2-10, J, Q, K, A or T; "
            "suit one of C D S H or ♣ ♦ ♠ ♥)")
    return CARDS[offset + suit * 13 + rank]


TWO_OF_CLUBS = Card.of(Rank.TWO, Suit.CLUBS)
THREE_OF_CLUBS = Card.of(Rank.THREE, Suit.CLUBS)
TEN_OF_CLUBS = Card.of(Rank.TEN, Suit.CLUBS)
QUEEN_OF_SPADES = Card.of(Rank.QUEEN, Suit.SPADES)
JACK_OF_DIAMONDS = Card.of(Rank.JACK, Suit.DIAMONDS)
