"""Deals: random deals from a seed (DEAL-HANDS) and deals completed from partial hands.

>>> from hearts_ref.variants import Rules
>>> hands = complete_deal(Rules(), {0: "AH KH QH", 3: "2C"})
>>> str(hands[0])
'3C 4C 5C 6C 7C 8C 9C 10C JC QC QH KH AH'
>>> str(hands[3])
'2C KS AS 2H 3H 4H 5H 6H 7H 8H 9H 10H JH'
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence

from hearts_ref.cardset import CardSet, bits_of
from hearts_ref.errors import InvalidCardError
from hearts_ref.variants import Rules

__all__ = ["deal", "complete_deal", "dealt_turn", "turned"]

# The cards in play by (players, even_out, decks): 52 or fewer with one deck, all 104 with two (DECK-CARDS).
_DECK_INDICES = {(n, even_out, decks): tuple(bits_of(Rules(players=n, pass_cycle="left-right-none", even_out=even_out,
                                                           decks=decks).deck_mask))
                 for n in (3, 4, 5, 6) for even_out in ("remove", "uneven") for decks in (1, 2)
                 if (decks == 2) == (n >= 5 and even_out == "uneven")}


def deal(rules: Rules, *, seed: int | str | None = None, rng: random.Random | None = None,
         dealer: int = 0) -> tuple[CardSet, ...]:
    """DEAL-HANDS: shuffle the cards in play and deal them one at a time, clockwise from the dealer's left.

    Give a ``seed`` or an explicit ``rng``; the same seed always gives the same deal. With uneven
    hands (``even_out = "uneven"``) the extra cards fall to the first seats dealt to.

    >>> [len(hand) for hand in deal(Rules(players=3, pass_cycle="left-right-none", even_out="uneven"), seed=1)]
    [17, 18, 17]
    """
    if rng is None:
        rng = random.Random(seed)
    cards = list(_DECK_INDICES[rules.players, rules.even_out, rules.decks])
    rng.shuffle(cards)
    n = rules.players
    hands = []
    for seat in range(n):   # the k-th card dealt goes to seat dealer + 1 + k, clockwise
        mask = 0
        for card in cards[(seat - dealer - 1) % n::n]:
            mask |= 1 << card
        hands.append(mask)
    return tuple(CardSet.from_mask(h) for h in hands)


def dealt_turn(rules: Rules, hands: Sequence[int], dealer: int = 0) -> int | None:
    """DEAL-HANDS: by how many seats clockwise ``hands`` (masks) must turn to be as ``dealer`` deals them, seat
    ``(s + turn) % n`` getting ``hands[s]`` (with uneven hands the extra cards go to the first seats from the dealer's
    left); None when no turn gives the sizes dealt. Every seat plays by the same rules, so a round turned so plays
    the same.

    >>> three = Rules(players=3, pass_cycle="left-right-none", even_out="uneven")
    >>> dealt_turn(three, [(1 << 18) - 1, (1 << 17) - 1, (1 << 17) - 1], dealer=0)   # seat 0's 18 cards go to seat 1
    1
    """
    n, sizes = rules.players, rules.dealt_sizes(dealer)
    return next((by for by in range(n) if all(hands[(s - by) % n].bit_count() == sizes[s] for s in range(n))), None)


def turned(hands: Sequence[int], by: int) -> tuple[int, ...]:
    """``hands`` turned ``by`` seats clockwise, as :func:`dealt_turn` counts: seat ``(s + by) % n`` gets ``hands[s]``.

    >>> turned((1, 2, 3), 1)
    (3, 1, 2)
    """
    n = len(hands)
    return tuple(hands[(s - by) % n] for s in range(n))


def complete_deal(rules: Rules, partial: Mapping[int, str | CardSet]) -> tuple[CardSet, ...]:
    """Return a full deal in which each seat of ``partial`` holds at least the cards given.

    The cards nobody was given are handed out lowest first, seat by seat, until every
    hand is full (DEAL-HANDS: with uneven hands, seat 1, to the left of dealer 0, gets the extra card).
    Handy for building the positions of tests and vectors.
    """
    n, sizes = rules.players, rules.dealt_sizes()
    masks = [0] * n
    used = 0
    for seat, cards in partial.items():
        mask = (CardSet.parse(cards) if isinstance(cards, str) else cards).mask
        if not 0 <= seat < n:
            raise InvalidCardError(f"DEAL-HANDS: no seat {seat} with {n} players")
        if mask & used or mask & ~rules.deck_mask or mask.bit_count() > sizes[seat]:
            raise InvalidCardError(f"DEAL-HANDS: seat {seat} cannot hold {CardSet.from_mask(mask)}")
        masks[seat] = mask
        used |= mask
    rest = iter(bits_of(rules.deck_mask & ~used))
    for seat in range(n):
        while masks[seat].bit_count() < sizes[seat]:
            masks[seat] |= 1 << next(rest)
    return tuple(CardSet.from_mask(m) for m in masks)
