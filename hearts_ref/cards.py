"""Cards: suits, ranks and the 52 cards of the deck (DECK-CARDS).

A card is identified by an index ``suit * 13 + rank``: clubs 0-12, diamonds 13-25,
spades 26-38, hearts 39-51, each suit from the two up to the ace. Card sets
(:mod:`hearts_ref.cardset`) are 52-bit integers over the same indices, so the suit
of a card is ``index // 13`` and, within one suit, a higher index is a higher rank.

>>> Card.parse("QS")
Card.parse('QS')
>>> str(Card.parse("10h")), Card.parse("T♥") == Card.parse("10H")
('10H', True)
>>> QUEEN_OF_SPADES.suit, QUEEN_OF_SPADES.rank
(<Suit.SPADES: 2>, <Rank.QUEEN: 10>)
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from hearts_ref.errors import InvalidCardError

__all__ = [
    "Suit", "Rank", "Card", "CARDS", "parse_card",
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
_TEXT = tuple(rank + suit for suit in "CDSH" for rank in _RANK_SYMBOLS)   # str(card), by index
_RANK_BY_TEXT = {text: Rank(i) for i, text in enumerate(_RANK_SYMBOLS)} | {"T": Rank.TEN}
_SUIT_BY_TEXT = {
    "C": Suit.CLUBS, "D": Suit.DIAMONDS, "S": Suit.SPADES, "H": Suit.HEARTS,
    "♣": Suit.CLUBS, "♦": Suit.DIAMONDS, "♠": Suit.SPADES, "♥": Suit.HEARTS,
    "♧": Suit.CLUBS, "♢": Suit.DIAMONDS, "♤": Suit.SPADES, "♡": Suit.HEARTS,
}


@dataclass(frozen=True, slots=True, order=True)
class Card:
    """One playing card; ``index`` is ``suit * 13 + rank``.

    Cards order by index: by suit (clubs, diamonds, spades, hearts), then by rank.
    """

    index: int

    @property
    def suit(self) -> Suit:
        return Suit(self.index // 13)

    @property
    def rank(self) -> Rank:
        return Rank(self.index % 13)

    @property
    def glyph(self) -> str:
        """The card as rank and suit symbol, for example ``Q♠``."""
        return self.rank.symbol + self.suit.glyph

    @classmethod
    def parse(cls, text: str) -> Card:
        """Return the card written as ``text``: rank then suit, ``"QS"``, ``"10H"``, ``"TH"``, ``"Q♠"``.

        Raises :class:`InvalidCardError` naming the text when it is not a card.
        """
        return parse_card(text)

    @classmethod
    def of(cls, rank: Rank, suit: Suit) -> Card:
        """Return the card of ``rank`` in ``suit``."""
        return CARDS[suit * 13 + rank]

    def __str__(self) -> str:
        return _TEXT[self.index]

    def __repr__(self) -> str:
        return f"Card.parse({str(self)!r})"


CARDS: tuple[Card, ...] = tuple(Card(i) for i in range(52))


def parse_card(text: str) -> Card:
    """Return the card written as ``text`` (see :meth:`Card.parse`).

    >>> parse_card("2c")
    Card.parse('2C')
    >>> parse_card("1X")
    Traceback (most recent call last):
    hearts_ref.errors.InvalidCardError: not a card: '1X' (rank must be one of 2-10, J, Q, K, A or T; suit one of C D S H or ♣ ♦ ♠ ♥)
    """
    if not isinstance(text, str):
        raise InvalidCardError(f"not a card: {text!r} (expected a string such as 'QS')")
    cleaned = text.strip().upper()
    rank = _RANK_BY_TEXT.get(cleaned[:-1])
    suit = _SUIT_BY_TEXT.get(cleaned[-1:])
    if rank is None or suit is None:
        raise InvalidCardError(
            f"not a card: {text!r} (rank must be one of 2-10, J, Q, K, A or T; "
            "suit one of C D S H or ♣ ♦ ♠ ♥)")
    return CARDS[suit * 13 + rank]


TWO_OF_CLUBS = Card.of(Rank.TWO, Suit.CLUBS)
THREE_OF_CLUBS = Card.of(Rank.THREE, Suit.CLUBS)
TEN_OF_CLUBS = Card.of(Rank.TEN, Suit.CLUBS)
QUEEN_OF_SPADES = Card.of(Rank.QUEEN, Suit.SPADES)
JACK_OF_DIAMONDS = Card.of(Rank.JACK, Suit.DIAMONDS)
