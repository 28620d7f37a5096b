"""What the shape of the play loop costs: four ways to play the same random rounds, against OpenSpiel.

The speed target of the reference (2.0x OpenSpiel's C++ Hearts in ``rounds_vs_openspiel.py``)
was set from an inline int-bitmask loop. This benchmark measures, in one run and on the
same deals and the same random choices, how much of that speed each design keeps:

- ``inline loop``: one function, hands in a list of ints, no state object (the 60-line loop);
- ``mutable object``: a state object changed in place by ``apply(card)``, OpenSpiel's shape;
- ``immutable object``: ``play(card)`` returns a new state tuple, the shape STYLE.md asks of
  the reference ("state is immutable"), with nothing else of the reference (no variants,
  no records, no checks beyond the legal mask);
- ``hearts-ref``: the reference engine itself.

The three stand-ins play the default rules without passing (hearts-ref's ``seed000`` with
``pass_cards=false``) and are not the reference: before timing, the benchmark checks that
each one plays exactly the rounds the reference plays (same deal, same random choice from
the same legal set, same points), so they do the same work. Prints rounds/s and the ratio
to OpenSpiel of each. Run: ``python bench/loop_shapes.py [--rounds N]``.
"""

from __future__ import annotations

import argparse
import random
import time
from typing import NamedTuple

from hearts_ref import Rules, deal, start_round
from hearts_ref.cards import CARDS
from hearts_ref.cardset import HEARTS, POINT_CARDS, QUEEN, SUIT_MASKS
from hearts_ref.simulate import random_card
from rounds_vs_openspiel import openspiel_rounds

RULES = Rules(pass_cards=False)
NOT_HEARTS, NOT_POINTS = ~HEARTS, ~POINT_CARDS


def legal(hand: int, trick_number: int, led: int | None, broken: bool) -> int:
    """The default legality, inline style: LEAD-OPEN, LEAD-HEARTS, FOLLOW-*, FIRST-*."""
    if led is None:
        if trick_number == 0:
            return hand & 1
        return hand if broken else (hand & NOT_HEARTS or hand)
    return hand & SUIT_MASKS[led] or ((hand & NOT_POINTS or hand) if trick_number == 0 else hand)


def pick(legal_mask: int, rng: random.Random) -> int:
    """The reference's uniform choice (``simulate.random_card``): the k-th lowest legal card."""
    for _ in range(int(rng.random() * legal_mask.bit_count())):
        legal_mask &= legal_mask - 1
    return (legal_mask & -legal_mask).bit_length() - 1


def points(taken: list[int] | tuple[int, ...]) -> tuple[int, ...]:
    raw = tuple((cards & HEARTS).bit_count() + 13 * (cards & QUEEN != 0) for cards in taken)
    return tuple(0 if p == 26 else 26 for p in raw) if 26 in raw else raw   # SCORE-MOON, add


def inline_loop(hands: list[int], rng: random.Random) -> tuple[int, ...]:
    leader = next(seat for seat in range(4) if hands[seat] & 1)
    taken, broken = [0, 0, 0, 0], False
    for trick_number in range(13):
        seat, led, played, best = leader, None, 0, -1
        for _ in range(4):
            card = pick(legal(hands[seat], trick_number, led, broken), rng)
            hands[seat] ^= 1 << card
            played |= 1 << card
            if led is None:
                led = card // 13
            elif card // 13 == 3 and led != 3:
                broken = True
            if card // 13 == led and card > best:
                best, leader = card, seat
            seat = (seat + 1) % 4
        taken[leader] |= played
    return points(taken)


class MutableRound:
    __slots__ = ("hands", "taken", "trick", "leader", "best", "tricks", "to_play", "broken", "legal")

    def __init__(self, hands: list[int]):
        self.hands, self.taken, self.trick, self.tricks, self.best, self.broken = hands, [0] * 4, [], 0, -1, False
        self.leader = self.to_play = next(seat for seat in range(4) if hands[seat] & 1)
        self.legal = 1

    def apply(self, card: int) -> None:
        if not self.legal >> card & 1:
            raise ValueError(card)
        seat, trick = self.to_play, self.trick
        self.hands[seat] ^= 1 << card
        if trick and card // 13 == 3 and trick[0] // 13 != 3:
            self.broken = True
        if not trick or card // 13 == trick[0] // 13 and card > self.best:
            self.best, self.leader = card, seat
        trick.append(card)
        if len(trick) < 4:
            self.to_play = (seat + 1) % 4
            self.legal = legal(self.hands[self.to_play], self.tricks, trick[0] // 13, self.broken)
            return
        for c in trick:
            self.taken[self.leader] |= 1 << c
        self.trick, self.tricks, self.best = [], self.tricks + 1, -1
        self.to_play = self.leader if self.tricks < 13 else -1
        self.legal = legal(self.hands[self.leader], self.tricks, None, self.broken) if self.tricks < 13 else 0


def mutable_object(hands: list[int], rng: random.Random) -> tuple[int, ...]:
    state = MutableRound(hands)
    while state.to_play >= 0:
        state.apply(pick(state.legal, rng))
    return points(state.taken)


class ImmutableRound(NamedTuple):
    hands: tuple[int, ...]
    taken: tuple[int, ...]
    trick: tuple[int, ...]
    leader: int
    tricks: tuple[tuple[int, ...], ...]
    to_play: int
    broken: bool
    legal: int

    def play(self, card: int) -> ImmutableRound:
        if not self.legal >> card & 1:
            raise ValueError(card)
        seat = self.to_play
        hands = self.hands[:seat] + (self.hands[seat] ^ 1 << card,) + self.hands[seat + 1:]
        trick = self.trick + (card,)
        led = trick[0] // 13
        broken = self.broken or (len(trick) > 1 and card // 13 == 3 and led != 3)
        if len(trick) < 4:
            seat = (seat + 1) % 4
            return _new(ImmutableRound, (hands, self.taken, trick, self.leader, self.tricks, seat, broken,
                                         legal(hands[seat], len(self.tricks), led, broken)))
        best = max(c for c in trick if c // 13 == led)
        winner = (self.leader + trick.index(best)) % 4
        won = (1 << trick[0]) | (1 << trick[1]) | (1 << trick[2]) | (1 << trick[3])
        taken = self.taken[:winner] + (self.taken[winner] | won,) + self.taken[winner + 1:]
        tricks = self.tricks + (trick,)
        if len(tricks) == 13:
            return _new(ImmutableRound, (hands, taken, (), winner, tricks, -1, broken, 0))
        return _new(ImmutableRound, (hands, taken, (), winner, tricks, winner, broken,
                                     legal(hands[winner], len(tricks), None, broken)))


_new = tuple.__new__


def immutable_object(hands: list[int], rng: random.Random) -> tuple[int, ...]:
    leader = next(seat for seat in range(4) if hands[seat] & 1)
    state = ImmutableRound(tuple(hands), (0,) * 4, (), leader, (), leader, False, 1)
    while state.to_play >= 0:
        state = state.play(pick(state.legal, rng))
    return points(state.taken)


def hearts_ref(hands: list[int], rng: random.Random) -> tuple[int, ...]:
    state = start_round(RULES, hands)
    while not state.is_over:
        state = state.play(random_card(state, rng))
    return state.score().points


SHAPES = {"inline loop": inline_loop, "mutable object": mutable_object,
          "immutable object": immutable_object, "hearts-ref": hearts_ref}


def rounds_per_second(play_round, n: int, seed: int) -> float:
    rng = random.Random(seed)
    start = time.perf_counter()
    for _ in range(n):
        play_round([hand.mask for hand in deal(RULES, rng=rng)], rng)
    return n / (time.perf_counter() - start)


def check_same_rounds(n: int = 200, seed: int = 99) -> None:
    """Each stand-in must play the reference's rounds exactly, or the timing compares different work."""
    for name, play_round in SHAPES.items():
        rng, reference_rng = random.Random(seed), random.Random(seed)
        for number in range(n):
            got = play_round([hand.mask for hand in deal(RULES, rng=rng)], rng)
            expected = hearts_ref([hand.mask for hand in deal(RULES, rng=reference_rng)], reference_rng)
            if got != expected:
                raise SystemExit(f"{name} plays round {number} differently: {got} != {expected}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--repeat", type=int, default=3, help="best of this many runs, each")
    args = parser.parse_args()
    check_same_rounds()
    theirs = max(openspiel_rounds(args.rounds, args.seed + i) for i in range(args.repeat))
    print(f"{'OpenSpiel':18} {theirs:8.0f} rounds/s")
    for name, play_round in SHAPES.items():
        ours = max(rounds_per_second(play_round, args.rounds, args.seed + i) for i in range(args.repeat))
        print(f"{name:18} {ours:8.0f} rounds/s  {ours / theirs:5.2f}x OpenSpiel")


if __name__ == "__main__":
    main()
