"""Card sets: an immutable set of cards stored as one integer (52 bits with one deck, 104 with two).

Bit ``i`` stands for the card of index ``i`` (see :mod:`hearts_ref.cards`); the second deck's
copies (DECK-CARDS, two decks) are bits 52-103, so a one-deck set is the same integer it always was. The
masks below (a suit, the hearts, the point cards) hold both decks' copies: ``hand & HEARTS`` is
a hand's hearts with one deck or two. The rules
are written over card sets (``hand & HEARTS``, ``hand & ~POINT_CARDS``), so one
rule is a few integer operations. :class:`CardSet` wraps the integer for the public
API: it reads like a ``frozenset`` of :class:`~hearts_ref.cards.Card`.

The same rule code also runs on a second backend, sets of 52 z3 Booleans
(:mod:`hearts_ref.symbolic`), for the proofs. What a rule needs beyond ``& | ~`` it
asks of an *algebra*: :data:`BITS` here, ``SYMBOLIC`` there.

>>> hand = CardSet.parse("2C QS 4H AH")
>>> str(hand & HEARTS_SET), len(hand), QUEEN_OF_SPADES in hand
('4H AH', 4, True)
>>> hand - HEARTS_SET
CardSet.parse('2C QS')
>>> two = CardSet.parse("JC#2 2C JC")
>>> str(two), len(two & SUIT_SETS[0])
('2C JC JC#2', 3)
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

from hearts_ref.cards import CARDS, COPY_OFFSET, JACK_OF_DIAMONDS, QUEEN_OF_SPADES, Card, Suit, parse_card
from hearts_ref.errors import InvalidCardError

__all__ = [
    "CardSet", "BITS", "Bits", "ALL_CARDS", "ONE_DECK", "SECOND_DECK", "SUIT_MASKS", "SUIT_SETS", "HEARTS", "QUEEN",
    "JACK_OF_DIAMONDS_BIT", "POINT_CARDS", "HEARTS_SET", "POINT_CARDS_SET", "lowest", "highest", "bits_of",
    "faces", "both_copies",
]

ONE_DECK = (1 << COPY_OFFSET) - 1            # DECK-CARDS: the 52 cards of the first deck
SECOND_DECK = ONE_DECK << COPY_OFFSET        # DECK-CARDS, two decks: their copies in the second deck
ALL_CARDS = ONE_DECK | SECOND_DECK           # every card identity, both decks


def both_copies(mask: int) -> int:
    """Return the cards of a one-deck ``mask`` together with their second deck's copies (DECK-CARDS, two decks)."""
    return mask | mask << COPY_OFFSET


def faces(mask: int) -> int:
    """Return the first deck's cards identical to those of ``mask``: each copy folded onto its face.

    >>> str(CardSet.from_mask(faces(CardSet.parse("JC#2 QS").mask)))
    'JC QS'
    """
    return (mask | mask >> COPY_OFFSET) & ONE_DECK


SUIT_MASKS = tuple(both_copies(((1 << 13) - 1) << (13 * suit)) for suit in Suit)
HEARTS = SUIT_MASKS[Suit.HEARTS]
QUEEN = both_copies(1 << QUEEN_OF_SPADES.index)
JACK_OF_DIAMONDS_BIT = both_copies(1 << JACK_OF_DIAMONDS.index)
POINT_CARDS = HEARTS | QUEEN   # SCORE-POINTS: the hearts and the queen of spades (of each deck in play)


def lowest(mask: int) -> int:
    """Return the index of the lowest card in a non-empty mask."""
    return (mask & -mask).bit_length() - 1


def highest(mask: int) -> int:
    """Return the index of the highest card in a non-empty mask."""
    return mask.bit_length() - 1


def bits_of(mask: int) -> Iterator[int]:
    """Yield the card indices of ``mask``, lowest first."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


class CardSet:
    """An immutable set of cards backed by an integer ``mask`` (52 bits; 104 with two decks).

    Supports ``& | ^ -`` with other card sets, ``in``, ``len``, iteration in index
    order (clubs 2..A, diamonds, spades, hearts; then the second deck's copies), equality and
    hashing. Its text lists each card beside its copy (``JC JC#2``).
    """

    __slots__ = ("mask",)
    mask: int

    def __init__(self, cards: Iterable[Card | str] | int = 0):
        if isinstance(cards, int):
            if not 0 <= cards <= ALL_CARDS:
                raise InvalidCardError(f"card set mask out of range: {cards:#x}")
            mask = cards
        else:
            mask = 0
            for card in cards:
                card = parse_card(card) if isinstance(card, str) else card
                if not isinstance(card, Card):
                    raise InvalidCardError(f"not a card: {card!r}")
                mask |= 1 << card.index
        object.__setattr__(self, "mask", mask)

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError("CardSet is immutable")

    @classmethod
    def parse(cls, text: str) -> CardSet:
        """Return the set of the cards written in ``text``, separated by spaces or commas.

        >>> CardSet.parse("QS, 2c 10h")
        CardSet.parse('2C QS 10H')
        """
        words = text.replace(",", " ").split()
        seen: set[Card] = set()
        for word in words:
            card = parse_card(word)
            if card in seen:
                raise InvalidCardError(f"card {card} appears twice in {text!r}")
            seen.add(card)
        return cls(seen)

    @classmethod
    def from_mask(cls, mask: int) -> CardSet:
        """Return the set whose bit ``i`` is set for each card index ``i`` in it."""
        result = object.__new__(cls)
        object.__setattr__(result, "mask", mask)
        return result

    def __contains__(self, card: object) -> bool:
        return isinstance(card, Card) and bool(self.mask >> card.index & 1)

    def __iter__(self) -> Iterator[Card]:
        return (CARDS[i] for i in bits_of(self.mask))

    def __len__(self) -> int:
        return self.mask.bit_count()

    def __bool__(self) -> bool:
        return self.mask != 0

    def __and__(self, other: CardSet) -> CardSet:
        return CardSet.from_mask(self.mask & other.mask)

    def __or__(self, other: CardSet) -> CardSet:
        return CardSet.from_mask(self.mask | other.mask)

    def __xor__(self, other: CardSet) -> CardSet:
        return CardSet.from_mask(self.mask ^ other.mask)

    def __sub__(self, other: CardSet) -> CardSet:
        return CardSet.from_mask(self.mask & ~other.mask)

    def __le__(self, other: CardSet) -> bool:
        return self.mask & ~other.mask == 0

    def __eq__(self, other: object) -> bool:
        return isinstance(other, CardSet) and self.mask == other.mask

    def __hash__(self) -> int:
        return hash(self.mask)

    def suit(self, suit: Suit) -> CardSet:
        """Return the cards of this set in ``suit``."""
        return CardSet.from_mask(self.mask & SUIT_MASKS[suit])

    def _in_reading_order(self) -> Iterator[Card]:
        """The cards by suit and rank, each copy beside its face (index order with one deck)."""
        if not self.mask >> COPY_OFFSET:
            return iter(self)
        return iter(sorted(self, key=lambda card: (card.index % COPY_OFFSET, card.index)))

    def __str__(self) -> str:
        return " ".join(str(card) for card in self._in_reading_order())

    def glyphs(self) -> str:
        """Return the cards as glyphs, for example ``2♣ Q♠``."""
        return " ".join(card.glyph for card in self._in_reading_order())

    def __repr__(self) -> str:
        return f"CardSet.parse({str(self)!r})"


HEARTS_SET = CardSet.from_mask(HEARTS)
POINT_CARDS_SET = CardSet.from_mask(POINT_CARDS)
SUIT_SETS = tuple(CardSet.from_mask(mask) for mask in SUIT_MASKS)


class Bits:
    """The card-set algebra of the engine: sets are plain ``int`` masks, conditions ``bool``.

    Rules written over card sets use ``& | ~`` directly and ask the algebra for the
    rest, so that the same code runs on z3 (``hearts_ref.symbolic.SYMBOLIC``):
    ``choose`` picks between two card sets, ``when`` between two numbers (a seat, points).

    >>> BITS.highest(0b1011), BITS.count(0b1011), BITS.when(BITS.is_empty(0), 13, 0)
    (8, 3, 13)
    """

    @staticmethod
    def is_empty(cards: int) -> bool:
        return cards == 0

    @staticmethod
    def non_empty(cards: int) -> bool:
        return cards != 0

    @staticmethod
    def choose(condition: bool, then: int, otherwise: int) -> int:
        return then if condition else otherwise

    @staticmethod
    def when(condition: bool, then: int, otherwise: int) -> int:
        return then if condition else otherwise

    @staticmethod
    def both(a: bool, b: bool) -> bool:
        return a and b

    @staticmethod
    def either(a: bool, b: bool) -> bool:
        return a or b

    @staticmethod
    def count(cards: int) -> int:
        return cards.bit_count()

    @staticmethod
    def highest(cards: int) -> int:
        """The set holding only the card of highest index in ``cards`` (empty if ``cards`` is)."""
        return 1 << (cards.bit_length() - 1) if cards else 0


BITS = Bits()
