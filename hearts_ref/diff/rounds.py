"""Whole rounds built to order: who takes which point cards, for differences that show in the scores or the end.

A difference in scoring or in the end of the game needs rounds whose scores are chosen:
a moon, 25 points to one player, exactly 22 to another. :func:`split_round` builds, for four
players, a round in which the point cards go where asked: two players take every trick,
the other two take none and discard every card they hold.

- The opener ``s`` holds 2♣ 2♦ 3♦ and 5♣–A♣; the second taker ``u`` holds 3♣ 4♣ and 4♦–A♦; the
  two discarders hold the spades and the hearts. Neither suit is ever led, so they never
  follow suit: each of their cards goes, as a discard, to whoever wins that trick.
- Trick 1: ``s`` leads 2♣ and ``u`` wins it with 4♣ (the discarders play spades, no points:
  FIRST-NO-POINTS). Tricks 2 to ``k``: ``u`` leads diamonds and wins. Trick ``k`` + 1: ``u``
  leads 3♣ and ``s`` wins it; from then on ``s`` leads clubs and wins every trick.
- The points asked for ``u`` are discarded on tricks 2 to ``k``, the others on ``s``'s tricks;
  the J♦ goes to ``u`` when ``u`` leads it, else to ``s`` when ``u`` discards it.

Every plan is replayed on the engine before it is used (:func:`play_plan`); rules under which
it is not legal (a heart may not be discarded while hearts are unbroken) have no such round.
:func:`dealt_for` turns the hands at the first lead into a deal and passes that lead to them.

>>> from hearts_ref import Rules
>>> plan = split_round(Rules(), 0, 1, CardSet.parse("QS 2H").mask)
>>> CardSet.from_mask(plan.taken[1]).glyphs()     # u: trick 1 (2♣ 4♣ and two spades), then tricks 2 and 3
'2♣ 4♣ 2♦ 3♦ 4♦ 5♦ 2♠ 3♠ 4♠ 5♠ Q♠ 2♥'
>>> play_plan(Rules(), plan).score().scores
(12, 14, 0, 0)
"""

from __future__ import annotations

import random
from typing import NamedTuple

from hearts_ref.cards import CARDS, JACK_OF_DIAMONDS, Card
from hearts_ref.cardset import HEARTS as _HEARTS, ONE_DECK, POINT_CARDS as _POINT_CARDS, QUEEN as _QUEEN, CardSet, bits_of
from hearts_ref.deals import deal
from hearts_ref.errors import HeartsError
from hearts_ref.round import PASS_SIZE, RoundState, start_round
from hearts_ref.variants import Rules

# The rounds built here are one deck's (four players): the first deck's cards only.
HEARTS, POINT_CARDS, QUEEN = _HEARTS & ONE_DECK, _POINT_CARDS & ONE_DECK, _QUEEN & ONE_DECK

__all__ = ["RoundPlan", "split_round", "moon_round", "random_round", "ducking_round", "move_seats", "play_plan", "dealt_for", "points_of",
           "SPLIT_PLAYERS"]

SPLIT_PLAYERS = 4


class RoundPlan(NamedTuple):
    """A round decided in advance: the hands at the first lead, every play in order, what each seat takes."""

    hands: tuple[int, ...]
    plays: tuple[int, ...]
    taken: tuple[int, ...]


def _mask(text: str) -> int:
    return CardSet.parse(text).mask


def _card(text: str) -> int:
    return Card.parse(text).index


def points_of(count_hearts: int, queen: bool) -> int:
    """The point cards ``u`` is to take: the lowest ``count_hearts`` hearts, and the Q♠ if ``queen``."""
    hearts = list(bits_of(HEARTS))[:count_hearts]
    return sum(1 << c for c in hearts) | (QUEEN if queen else 0)


def split_round(rules: Rules, s: int, u: int, to_u: int, *, jack_to_u: bool = False) -> RoundPlan:
    """Return the plan of a round in which seat ``u`` takes the point cards ``to_u`` and seat ``s`` (the opener)
    the others; the two other seats take no trick. Four players only."""
    if rules.players != SPLIT_PLAYERS or s == u or not 0 <= s < 4 or not 0 <= u < 4:
        raise HeartsError(f"DEAL-HANDS: a split round needs four players and two different seats, not {s} and {u}")
    to_u &= POINT_CARDS
    k = max(3, 1 + (to_u.bit_count() + 1) // 2)        # u wins tricks 1..k; 2(k-1) discards carry its points
    a, b = [seat for seat in range(4) if seat not in (s, u)]
    clubs_s = list(bits_of(_mask("5C 6C 7C 8C 9C 10C JC QC KC AC")))
    diamonds = [c for c in bits_of(_mask("4D 5D 6D 7D 8D 9D 10D JD QD KD AD")) if c != JACK_OF_DIAMONDS.index]
    jack = JACK_OF_DIAMONDS.index
    u_leads = ([jack] if jack_to_u else []) + diamonds
    u_leads, u_discards = u_leads[:k - 1], u_leads[k - 1:] + ([] if jack_to_u else [jack])
    fillers = list(bits_of(_mask("2S 3S 4S 5S 6S 7S 8S 9S 10S JS KS AS")))
    to_s = POINT_CARDS & ~to_u
    u_slots = list(bits_of(to_u)) + fillers[2:2 + 2 * (k - 1) - to_u.bit_count()]
    s_slots = list(bits_of(to_s)) + fillers[2 + 2 * (k - 1) - to_u.bit_count():]
    slots = fillers[:2] + u_slots + s_slots        # two per trick, for a and b in turn
    tricks: list[tuple[int, dict[int, int]]] = []    # (leader, the card of each seat)
    s_clubs = list(clubs_s)
    for number in range(13):
        discards = {a: slots[2 * number], b: slots[2 * number + 1]}
        if number == 0:                 # s opens with 2♣, u wins with 4♣
            tricks.append((s, {s: _card("2C"), u: _card("4C"), **discards}))
        elif number < k:                # u leads diamonds; s follows with 2♦ and 3♦, then discards clubs
            follow = _card("2D") if number == 1 else _card("3D") if number == 2 else s_clubs.pop(0)
            tricks.append((u, {u: u_leads[number - 1], s: follow, **discards}))
        elif number == k:               # u leads 3♣ and s wins it
            tricks.append((u, {u: _card("3C"), s: s_clubs.pop(0), **discards}))
        else:                           # s leads clubs; u discards diamonds
            tricks.append((s, {s: s_clubs.pop(0), u: u_discards.pop(0), **discards}))
    hands = [0] * 4
    plays: list[int] = []
    taken = [0] * 4
    for number, (leader, cards) in enumerate(tricks):
        for offset in range(4):
            seat = (leader + offset) % 4
            plays.append(cards[seat])
            hands[seat] |= 1 << cards[seat]
        taken[u if number < k else s] |= sum(1 << c for c in cards.values())
    return RoundPlan(tuple(hands), tuple(plays), tuple(taken))


def _played(rules: Rules, hands: list[int], choose) -> RoundPlan:
    """Play a round from ``hands`` (no pass), each card chosen by ``choose(state)``; raises on a deadlock."""
    state = start_round(rules, [CardSet.from_mask(h) for h in hands], direction="none")
    plays = []
    while not state.is_over:
        if state.deadlocked:
            raise state.deadlock_error()
        card = choose(state)
        plays.append(card)
        state = state.play(CARDS[card])
    return RoundPlan(tuple(hands), tuple(plays), state.taken)


def _lowest(mask: int) -> int:
    return (mask & -mask).bit_length() - 1


def moon_round(rules: Rules, shooter: int) -> RoundPlan:
    """Return a round in which ``shooter`` takes every trick (SCORE-MOON), for any number of players.

    The shooter holds A♥ and the highest clubs (then diamonds): it wins the first trick with its
    highest club, then leads A♥ as soon as that is legal and its highest card otherwise, and no
    one can beat it; the others hold the rest, dealt in turn, and play their lowest legal card.
    """
    n, size = rules.players, rules.hand_size
    ace = 1 << Card.parse("AH").index
    control = [c for suit in (0, 1) for c in reversed(list(bits_of(rules.deck_mask & (0x1FFF << 13 * suit))))]
    hands = [0] * n
    hands[shooter] = ace | sum(1 << c for c in control[:size - 1])
    others = [seat for seat in range(n) if seat != shooter]
    for k, card in enumerate(bits_of(rules.deck_mask & ~hands[shooter])):
        hands[others[k % len(others)]] |= 1 << card

    def choose(state: RoundState) -> int:
        legal = state.legal
        if state.to_play != shooter:
            return _lowest(legal)
        if state.trick or not legal & ace:
            return legal.bit_length() - 1            # its highest legal card
        return ace.bit_length() - 1

    return _played(rules, hands, choose)


def random_round(rules: Rules, seed: int) -> RoundPlan:
    """Return a round dealt from ``seed`` (no pass) and played with random legal cards; raises on a deadlock."""
    rng = random.Random(f"hearts-ref-diff:{seed}")
    hands = [hand.mask for hand in deal(rules, rng=rng)]
    return _played(rules, hands, lambda state: rng.choice(list(bits_of(state.legal))))


def ducking_round(rules: Rules, seat: int, seed: int) -> RoundPlan:
    """Return a round dealt from ``seed`` (no pass) in which ``seat`` plays its lowest legal card and the others
    their highest: ``seat`` mostly takes no trick (SCORE-NO-TRICKS), for any number of players."""
    rng = random.Random(f"hearts-ref-diff:duck:{seed}")
    hands = [hand.mask for hand in deal(rules, rng=rng)]
    return _played(rules, hands, lambda state: _lowest(state.legal) if state.to_play == seat
                   else state.legal.bit_length() - 1)


def move_seats(rules: Rules, plan: RoundPlan, seats: dict[int, int]) -> RoundPlan:
    """Return ``plan`` with seat ``i``'s cards and tricks given to seat ``seats[i]`` (each trick still played
    clockwise from its leader); the plan is not checked here (see :func:`play_plan`)."""
    n = rules.players
    state = start_round(rules, [CardSet.from_mask(h) for h in plan.hands], direction="none")
    plays: list[int] = []
    by_seat: dict[int, list[int]] = {}   # the trick's cards by new seat (two from a seat dealt an extra card)
    for card in plan.plays:
        leader = state.leader
        by_seat.setdefault(seats[state.to_play], []).append(card)
        state = state.play(CARDS[card])
        if not state.trick:   # the trick is complete: its cards in play order from the new leader
            plays += [c for k in range(n) for c in by_seat.get((seats[leader] + k) % n, [])]
            by_seat = {}
    moved = [0] * n
    taken = [0] * n
    for old, new in seats.items():
        moved[new], taken[new] = plan.hands[old], plan.taken[old]
    return RoundPlan(tuple(moved), tuple(plays), tuple(taken))


def play_plan(rules: Rules, plan: RoundPlan) -> RoundState:
    """Return the round state after every play of ``plan`` (no pass); raises if a play breaks the rules."""
    state = start_round(rules, [CardSet.from_mask(h) for h in plan.hands], direction="none")
    for card in plan.plays:
        state = state.play(CARDS[card])
    return state


def dealt_for(rules: Rules, hands: tuple[int, ...], direction: str) -> tuple[tuple[int, ...], tuple[int, ...] | None]:
    """Return a deal and the passes that lead to ``hands`` at the first lead, passing in ``direction``.

    Each seat passes the three lowest cards of the hand the receiver is to hold, so the cards
    that travel end where ``hands`` has them (PASS-SIMULTANEOUS).
    """
    offset = rules.pass_offset(direction)
    if not offset:
        return hands, None
    n = rules.players
    passes = tuple(sum(1 << c for c in list(bits_of(hands[(seat + offset) % n]))[:PASS_SIZE]) for seat in range(n))
    dealt = tuple((hands[seat] & ~passes[(seat - offset) % n]) | passes[seat] for seat in range(n))
    return dealt, passes
