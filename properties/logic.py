"""The small logic the formal statements are written in: cards as the rules write them, and sets of them.

:mod:`properties.statements` states every rule with these words and nothing of the
engine's: a card is named as the spec writes it (``card("QS")``), a suit is its thirteen
cards, and a statement says which cards a set *holds*. Each word works on concrete card
sets (``int`` masks: the answer is a ``bool`` or an ``int``) and on symbolic ones
(:class:`~hearts_ref.symbolic.SymbolicCardSet`: the answer is a z3 term), so the same
statement is checked on a game and proved by z3.

The words build terms with :mod:`hearts_ref.symbolic`'s connectives (``all_of``, ``any_of``,
``negation``), never with the card-set algebra the engine's rules use (``SYMBOLIC.is_empty``,
``count``…): a bug there shows up as a difference between the engine and its statement.

>>> holds_some(card("QS") | card("2H"), HEARTS), holds_only(card("QS"), HEARTS), number_of(HEARTS, HEARTS)
(True, False, 13)
>>> str(cards_in(suit("C") & ~card("2C"), "C")[:2])
"['AC', 'KC']"
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from hearts_ref.cards import parse_card
from hearts_ref.symbolic import (
    SymbolicCardSet, SymbolicNumber, all_of, any_of, as_z3, iff, implies, int_sum, negation, union_of,
)

__all__ = ["RANKS", "SUIT_LETTERS", "DECKS", "SECOND_DECK_MARK", "card", "suit", "copies", "in_decks", "identical", "HEARTS", "QUEEN_OF_SPADES", "JACK_OF_DIAMONDS", "POINT_CARDS",
           "ALL_CARDS", "rank_of", "cards_in", "bit", "holds_some", "holds_none", "holds_only", "is_one_of",
           "same_cards", "union",
           "number_of", "points_of", "choose_number", "at_least", "greater", "equal", "all_of", "any_of",
           "negation", "implies", "iff", "total"]

# DECK-CARDS: "the thirteen ranks A, K, Q, J, 10, 9, 8, 7, 6, 5, 4, 3, 2, in that order from highest to lowest".
RANKS = ("A", "K", "Q", "J", "10", "9", "8", "7", "6", "5", "4", "3", "2")
# DECK-CARDS: "four suits, clubs (C), diamonds (D), hearts (H) and spades (S)".
SUIT_LETTERS = ("C", "D", "H", "S")


def card(written: str) -> int:
    """The one-card set of the card written as the spec writes it: rank then suit letter (``"10H"``); a second deck's
    copy with ``#2`` after it (``"10H#2"``)."""
    return 1 << parse_card(written).index


# DECK-CARDS, two decks: «Det krävs 2 kortlekar om man är 5 spelare eller mer» — every card twice; the second deck's
# copy of a card is written with "#2" after it.
DECKS = (1, 2)
SECOND_DECK_MARK = "#2"


def copies(written: str, decks: int = 1) -> int:
    """The cards identical to the card written: itself, and with two decks its second deck's copy."""
    return card(written) | (card(written + SECOND_DECK_MARK) if decks == 2 else 0)


def in_decks(cards: int, decks: int) -> int:
    """The cards of a one-deck mask in each of ``decks`` decks: every copy of each."""
    if decks == 1:
        return cards
    return sum(copies(rank + letter, decks) for letter in SUIT_LETTERS for rank in RANKS if cards & card(rank + letter))


def suit(letter: str) -> int:
    """The thirteen cards of a suit, by its letter."""
    return sum(card(rank + letter) for rank in RANKS)


HEARTS = suit("H")
QUEEN_OF_SPADES = card("QS")
JACK_OF_DIAMONDS = card("JD")
POINT_CARDS = HEARTS | QUEEN_OF_SPADES     # spec/README.md, Terms: "the thirteen hearts and the QS"
ALL_CARDS = sum(suit(letter) for letter in SUIT_LETTERS)
_EVERY_CARD = in_decks(ALL_CARDS, 2)   # every card of up to two decks: a set holds no other


_RANK_OF = {card(rank + letter + mark).bit_length() - 1: position for letter in SUIT_LETTERS
            for position, rank in enumerate(RANKS) for mark in ("", SECOND_DECK_MARK)}
_IDENTICAL = {card(rank + letter + mark).bit_length() - 1: copies(rank + letter, 2) for letter in SUIT_LETTERS
              for rank in RANKS for mark in ("", SECOND_DECK_MARK)}


def rank_of(index: int) -> int:
    """How many ranks lie above the card of ``index`` in its suit: 0 for an ace, 12 for a two (either deck's)."""
    return _RANK_OF[index]


def identical(index: int) -> int:
    """The cards identical to the card of ``index``, itself included: its copies of both decks (same rank and suit)."""
    return _IDENTICAL[index]


def cards_in(cards: int, letter: str = "") -> list[str]:
    """The written cards of a concrete set, optionally of one suit, highest rank first."""
    letters = [letter] if letter else list(SUIT_LETTERS)
    return [rank + s for s in letters for rank in RANKS if cards & card(rank + s)]


def bit(cards: Any, index: int) -> Any:
    """Whether the set holds the card of ``index``: a bool, or a z3 Boolean for a symbolic set."""
    if isinstance(cards, SymbolicCardSet):
        return cards.contains(index)
    return bool(cards >> index & 1)


def _empty(cards: Any) -> Any:
    return cards.is_empty_bit() if isinstance(cards, SymbolicCardSet) else cards == 0


def holds_some(cards: Any, among: Any) -> Any:
    """Whether ``cards`` holds at least one card of ``among`` (a mask, or a set)."""
    return negation(_empty(cards & among))


def holds_none(cards: Any, among: Any) -> Any:
    """Whether ``cards`` holds no card of ``among``."""
    return _empty(cards & among)


def holds_only(cards: Any, allowed: Any) -> Any:
    """Whether every card of ``cards`` is in ``allowed`` (a mask, or a set)."""
    return _empty(cards & ~allowed) if isinstance(allowed, SymbolicCardSet) else _empty(cards & (_EVERY_CARD & ~allowed))


def is_one_of(one_card: Any, allowed: Any) -> Any:
    """Whether a one-card set is a card of ``allowed`` (the same as :func:`holds_only` for one card)."""
    return holds_only(one_card, allowed)


def same_cards(a: Any, b: Any) -> Any:
    """Whether two sets hold the same cards."""
    if isinstance(a, SymbolicCardSet):
        return a.same_as(b)
    if isinstance(b, SymbolicCardSet):
        return b.same_as(a)
    return a == b


def union(sets: Iterable[Any]) -> Any:
    """The cards held by any of the sets."""
    return union_of(sets)


def number_of(cards: Any, among: int) -> Any:
    """How many cards of the mask ``among`` the set holds: an int, or a z3 integer for a symbolic set."""
    return points_of(cards, {i: 1 for i in range(2 * 52) if among >> i & 1})


def points_of(cards: Any, worth: dict[int, int]) -> Any:
    """The sum of ``worth[i]`` over the cards ``i`` the set holds."""
    if not isinstance(cards, SymbolicCardSet):
        return sum(value for i, value in worth.items() if cards >> i & 1)
    return int_sum([choose_number(cards.contains(i), value, 0) for i, value in worth.items()])


def choose_number(condition: Any, then: Any, otherwise: Any) -> Any:
    """``then`` if ``condition`` else ``otherwise``, for numbers; a z3 term when the condition is symbolic."""
    if isinstance(condition, bool):
        return then if condition else otherwise
    import z3
    return z3.If(as_z3(condition), as_z3(then), as_z3(otherwise))


def _numbers(a: Any, b: Any) -> bool:
    return not isinstance(a, (SymbolicNumber,)) and not isinstance(b, SymbolicNumber) and \
        isinstance(a, int) and isinstance(b, int)


def at_least(a: Any, b: Any) -> Any:
    """``a >= b`` for numbers, a z3 term when either is symbolic."""
    return a >= b if _numbers(a, b) else as_z3(a) >= as_z3(b)


def greater(a: Any, b: Any) -> Any:
    """``a > b`` for numbers, a z3 term when either is symbolic."""
    return a > b if _numbers(a, b) else as_z3(a) > as_z3(b)


def equal(a: Any, b: Any) -> Any:
    """``a == b`` for numbers, a z3 term when either is symbolic."""
    return a == b if _numbers(a, b) else as_z3(a) == as_z3(b)


def total(numbers: Iterable[Any]) -> Any:
    """The sum of numbers: an int, or a z3 integer when one is symbolic."""
    numbers = list(numbers)
    if all(isinstance(x, int) for x in numbers):
        return sum(numbers)
    return int_sum(numbers)
