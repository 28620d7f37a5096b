"""One trick: the seat of each card (TRICK-ORDER) and the seat that wins it (TRICK-WINNER).

A finished trick is a :class:`Trick`. :func:`first_trick_seats` says who plays each card of the first
trick when hands are uneven (a seat dealt an extra card plays two, FIRST-TWO-CARDS), and
:func:`trick_winner` who took the trick: the highest card of the suit led, and with two decks, of
two identical cards the one played first. Both run on either card-set algebra
(:data:`~hearts_ref.cardset.BITS`, and the proofs' ``hearts_ref.symbolic.SYMBOLIC``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, NamedTuple

from hearts_ref.cards import CARDS, Card
from hearts_ref.cardset import BITS, SUIT_MASKS, both_copies
from hearts_ref.variants import Rules

__all__ = ["Trick", "first_trick_seats", "trick_winner"]


class Trick(NamedTuple):
    """A finished trick: who led, the card indices in play order, who won it (TRICK-WINNER).

    ``seats`` is the seat of each card when a seat played two (TRICK-ORDER, uneven hands), else None.
    """

    leader: int
    indices: tuple[int, ...]
    winner: int
    seats: tuple[int, ...] | None = None

    @property
    def cards(self) -> tuple[Card, ...]:
        """The cards of the trick, in play order."""
        return tuple(CARDS[i] for i in self.indices)

    def seat_of(self, position: int, players: int) -> int:
        """Return the seat that played the card at ``position`` (TRICK-ORDER)."""
        if self.seats is not None:
            return self.seats[position]
        return (self.leader + position) % players


def first_trick_seats(dealt: Sequence[Any], leader: int, rules: Rules, ops: Any = BITS) -> tuple[int, ...]:
    """TRICK-ORDER: return the seat of each card of the first trick, in play order, when hands are uneven.

    Clockwise from ``leader``; a seat dealt an extra card (DEAL-HANDS) plays its two cards one after
    the other (FIRST-TWO-CARDS). On symbolic hands the size of a hand is a branch of the exploration.

    >>> from hearts_ref.cardset import CardSet
    >>> three = Rules(players=3, pass_cycle="left-right-none", even_out="uneven")
    >>> first_trick_seats([(1 << 17) - 1, (1 << 18) - 1, (1 << 17) - 1], 2, three)
    (2, 0, 1, 1)
    """
    seats: list[int] = []
    for step in range(rules.players):
        seat = (leader + step) % rules.players
        seats += [seat, seat] if ops.count(dealt[seat]) > rules.hand_size else [seat]
    return tuple(seats)


def trick_winner(plays: Sequence[Any], led_suit: int, leader: Any, players: int, ops: Any = BITS,
                 seats: Sequence[int] | None = None, decks: int = 1) -> Any:
    """TRICK-WINNER: return the seat that played the highest card of the suit led.

    ``plays`` are the trick's cards as one-card sets, in play order from ``leader``, or played by
    ``seats`` when given (the first trick with uneven hands, where a seat plays two cards); the
    suit led is part of the concrete context, as in :mod:`hearts_ref.legality`. A card of
    another suit never wins, and either of a seat's two cards may win it. With two ``decks`` the
    highest *face* wins, and of two identical cards the one played first (seed 003: Kalle's J♣
    before Pelle's). Runs on both card-set algebras.

    >>> from hearts_ref.cardset import CardSet
    >>> trick_winner([CardSet.parse(c).mask for c in ("2C", "KC", "AD", "5C")], 0, 3, 4)
    0
    >>> trick_winner([CardSet.parse(c).mask for c in ("5C", "JC", "9C", "JC#2", "3H")], 0, 0, 5, decks=2)
    1
    """
    played: Any = 0
    for cards in plays:
        played = played | cards
    when, is_empty = ops.when, ops.is_empty
    if decks == 1:
        best = ops.highest(played & SUIT_MASKS[led_suit])
        winner = leader
        for position in range(1, len(plays)):
            seat = (leader + position) % players if seats is None else seats[position]
            winner = when(is_empty(plays[position] & best), winner, seat)
        return winner
    # Two decks: ``best`` holds both copies of the highest face of the suit led; the first card of it wins.
    in_suit = played & SUIT_MASKS[led_suit]
    faces = _FACES[led_suit]
    best = faces[0]
    for face in faces[1:]:
        best = ops.choose(is_empty(in_suit & face), best, face)
    winner = leader
    for position in range(len(plays) - 1, 0, -1):   # from the last card back: an earlier copy overrides
        seat = (leader + position) % players if seats is None else seats[position]
        winner = when(is_empty(plays[position] & best), winner, seat)
    return when(is_empty(plays[0] & best), winner, leader)


# TRICK-WINNER with two decks: a face of each suit as the set of its two copies, from the two up.
_FACES = tuple(tuple(both_copies(1 << (suit * 13 + rank)) for rank in range(13)) for suit in range(4))
