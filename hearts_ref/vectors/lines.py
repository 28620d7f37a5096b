"""Building the positions of vector cases: deals with voids, deals from scripted tricks, lines of play.

These helpers only *construct* deals and play sequences; the reference then replays them and
decides what is legal, so a mistake here makes generation fail, never a wrong vector.

>>> from hearts_ref.variants import Rules
>>> hands = fill_deal(Rules(), {0: "2C AH"}, voids={1: "C"})
>>> "2C" in str(hands[0]), len(hands[1].suit(0))
(True, 0)
>>> hands = script_deal(Rules(), 0, ["2C 3C 4C AC"])   # seat 3 wins with the ace and leads next
>>> [Card.parse(c) in hands[seat] for seat, c in enumerate(["2C", "3C", "4C", "AC"])]
[True, True, True, True]
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from hearts_ref.cards import CARDS, Card, Suit, suit_of
from hearts_ref.cardset import SUIT_MASKS, CardSet, bits_of
from hearts_ref.round import RoundState, trick_winner
from hearts_ref.scoring import card_points
from hearts_ref.variants import Rules

__all__ = ["CatalogueError", "fill_deal", "script_deal", "deal_before_passes", "find_line", "first_line", "random_line",
           "raw_points"]


class CatalogueError(Exception):
    """A case of the catalogue cannot be built as written (a bug in the catalogue, not bad input)."""


def fill_deal(rules: Rules, partial: Mapping[int, str | CardSet], *,
              voids: Mapping[int, str] | None = None) -> tuple[CardSet, ...]:
    """Return a full deal in which each seat of ``partial`` holds those cards and no seat holds a void suit.

    ``voids`` maps a seat to suit letters (``"CD"``) it must not hold beyond its given cards.
    The other cards go round the table in index order, the most constrained suits first.
    """
    n, size = rules.players, rules.hand_size
    masks = [0] * n
    used = 0
    for seat, cards in partial.items():
        mask = (CardSet.parse(cards) if isinstance(cards, str) else cards).mask
        if mask & used or mask & ~rules.deck_mask or mask.bit_count() > size:
            raise CatalogueError(f"seat {seat} cannot hold {CardSet.from_mask(mask)}")
        masks[seat] |= mask
        used |= mask
    void_masks = [0] * n
    for seat, letters in (voids or {}).items():
        for letter in letters:
            void_masks[seat] |= SUIT_MASKS["CDSH".index(letter)]
    suits = sorted(Suit, key=lambda s: -sum(1 for m in void_masks if m & SUIT_MASKS[s]))
    turn = 0
    for suit in suits:
        for card in bits_of(rules.deck_mask & ~used & SUIT_MASKS[suit]):
            for k in range(n):
                seat = (turn + k) % n
                if masks[seat].bit_count() < size and not void_masks[seat] >> card & 1:
                    masks[seat] |= 1 << card
                    turn = seat + 1
                    break
            else:
                raise CatalogueError(f"no seat can take {CARDS[card]}: every seat with room is void in its suit")
    return tuple(CardSet.from_mask(m) for m in masks)


def script_deal(rules: Rules, opener: int, tricks: Sequence[str], *, voids: Mapping[int, str] | None = None,
                extra: Mapping[int, str] | None = None) -> tuple[CardSet, ...]:
    """Return a deal in which the scripted ``tricks`` can be played, ``opener`` leading the first.

    Each trick is the cards in play order; the seats follow from TRICK-ORDER and
    TRICK-WINNER. A seat that does not follow suit is made void in the suit led; ``extra``
    gives more cards to hold. The reference still judges every play of the script.
    """
    n = rules.players
    partial = {seat: 0 for seat in range(n)}
    void_letters = {seat: set((voids or {}).get(seat, "")) for seat in range(n)}
    leader = opener
    for text in tricks:
        cards = [Card.parse(word) for word in text.split()]
        if len(cards) != n:
            raise CatalogueError(f"trick {text!r} has {len(cards)} cards for {n} players")
        for position, card in enumerate(cards):
            seat = (leader + position) % n
            partial[seat] |= 1 << card.index
            if card.suit != cards[0].suit:
                void_letters[seat].add(cards[0].suit.letter)
        leader = trick_winner([1 << c.index for c in cards], suit_of(cards[0].index), leader, n, decks=rules.decks)
    for seat, text in (extra or {}).items():
        partial[seat] |= CardSet.parse(text).mask
    return fill_deal(rules, {s: CardSet.from_mask(m) for s, m in partial.items()},
                     voids={s: "".join(sorted(v)) for s, v in void_letters.items() if v})


_NO_JACK = Rules()


def raw_points(taken: int) -> int:
    """SCORE-POINTS without the jack of diamonds: 1 per heart, 13 for the Q♠."""
    return card_points(taken, _NO_JACK)


def find_line(state: RoundState, *, points: Sequence[int | None] | None = None, owners: Mapping[str, int] | None = None,
              accept: Callable[[RoundState], bool] | None = None, seed: int = 0,
              budget: int = 200_000) -> list[Card]:
    """Return plays that finish the round of ``state`` with these outcomes (depth-first search).

    ``points``: each seat's hearts and Q♠ points at the end (None: any); ``owners``: card text to the seat
    that must take it; ``accept``: any other test of the finished round. Plays are tried in
    an order shuffled from ``seed``; raises :class:`CatalogueError` after ``budget`` states.
    """
    owned = {Card.parse(text).index: seat for text, seat in (owners or {}).items()}
    count = 0

    def possible(st: RoundState) -> bool:
        for seat, taken in enumerate(st.taken):
            if points is not None and points[seat] is not None and raw_points(taken) > points[seat]:
                return False
            if any(taken >> card & 1 and owner != seat for card, owner in owned.items()):
                return False
        return True

    def search(st: RoundState, line: list[Card]) -> list[Card] | None:
        nonlocal count
        count += 1
        if count > budget:
            raise CatalogueError(f"no line found within {budget} states")
        if st.is_over:
            ok = (points is None or all(p is None or raw_points(t) == p for t, p in zip(st.taken, points))) \
                and (accept is None or accept(st))
            return line if ok else None
        cards = list(bits_of(st.legal))
        random.Random(f"{seed}:{len(st.tricks)}:{len(st.trick)}").shuffle(cards)
        for card in cards:
            after = st.play(CARDS[card])
            if not after.trick and not possible(after):   # a trick closed: who took what
                continue
            found = search(after, line + [CARDS[card]])
            if found is not None:
                return found
        return None

    found = search(state, [])
    if found is None:
        raise CatalogueError("no line of play reaches the requested outcome")
    return found


def first_line(state: RoundState, *, tries: int = 16, budget: int = 4000, **target: Any) -> list[Card]:
    """Return :func:`find_line` for the first of seeds 0, 1, … that finds a line within ``budget`` states."""
    for seed in range(tries):
        try:
            return find_line(state, seed=seed, budget=budget, **target)
        except CatalogueError:
            continue
    raise CatalogueError(f"no line for {target} with seeds 0 to {tries - 1}")


def random_line(state: RoundState, accept: Callable[[RoundState], bool], *, seed: str, tries: int = 2000) -> list[Card]:
    """Return random legal plays that finish the round of ``state`` so that ``accept`` holds.

    Play-outs are drawn from ``random.Random(f"{seed}:{k}")`` for k = 0, 1, …; the first
    accepted one is returned, so the result depends on ``seed`` only.
    """
    for k in range(tries):
        rng = random.Random(f"{seed}:{k}")
        st, line = state, []
        while not st.is_over:
            legal = list(bits_of(st.legal))
            card = CARDS[legal[rng.randrange(len(legal))]]
            st = st.play(card)
            line.append(card)
        if accept(st):
            return line
    raise CatalogueError(f"no accepted play-out in {tries} tries")


def deal_before_passes(rules: Rules, after: Sequence[CardSet], direction: str) -> tuple[tuple[CardSet, ...],
                                                                                        tuple[CardSet, ...]]:
    """Return ``(dealt, passes)`` such that passing ``passes`` in ``direction`` turns ``dealt`` into ``after``.

    Each seat passes the three lowest cards of the hand its receiver must end with (PASS-CYCLE),
    so a position designed for the play can be reached through a passing round.
    """
    n, offset = rules.players, rules.pass_offset(direction)
    given = [CardSet(list(after[(seat + offset) % n])[:3]) for seat in range(n)]
    dealt = tuple((after[seat] - given[(seat - offset) % n]) | given[seat] for seat in range(n))
    return dealt, tuple(given)
