"""Rounds played to a plan: a search on the engine for a deal, passes and plays in which given seats win the tricks.

A never-ending game (GAME-ENDS) is a cycle of rounds each of whose outcome is planned:
one seat takes every trick, or all but one, or all but two... :func:`planned_round`
searches for such a round under the rules' own legality: it builds a deal in which the
seat that must win holds the top cards, hands out the rest, and walks the engine's legal
plays depth first, each seat winning no more tricks than the plan gives it; the round's
scores must pass ``accept``. With a pass, the deal is built so that the hands after the
pass are the planned ones (each seat passes three cards its recipient is to hold).
Every choice is reproducible: the fills are fixed orders and seeded shuffles.

>>> from hearts_ref import Rules
>>> plan = planned_round(Rules(moon="subtract"), "none", {0: 13}, lambda s: True)
>>> plan.scores
(-26, 0, 0, 0)
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, replace
from functools import cache
from typing import Any

from hearts_ref.cards import CARDS, suit_of
from hearts_ref.cardset import CardSet, bits_of
from hearts_ref.errors import HeartsError
from hearts_ref.round import RoundState, start_round
from hearts_ref.variants import Rules

__all__ = ["RoundPlan", "planned_round", "RANK_MAJOR"]

# The cards from the strongest down, rank by rank: every ace, then every king, … (index = suit * 13 + rank; with two
# decks each card is followed by its second deck's copy, index + 52, which one deck does not hold).
RANK_MAJOR = tuple(copy * 52 + suit * 13 + rank for rank in reversed(range(13)) for suit in range(4) for copy in (0, 1))


@dataclass(frozen=True)
class RoundPlan:
    """A round played to a plan: the hands dealt, the passes, the plays, and the round scores the engine gave."""

    direction: str
    dealt: tuple[int, ...]
    passes: tuple[int, ...]
    plays: tuple[int, ...]
    scores: tuple[int, ...]
    winners: tuple[int, ...]     # who won each trick

    def to_dict(self) -> dict[str, Any]:
        return {"direction": self.direction, "dealt": [str(CardSet.from_mask(h)) for h in self.dealt],
                "passes": [str(CardSet.from_mask(p)) for p in self.passes],
                "plays": [str(CARDS[c]) for c in self.plays], "scores": list(self.scores),
                "trick_winners": list(self.winners)}


def _deals(rules: Rules, wins: dict[int, int], given: dict[int, tuple[str, ...]],
           avoid: dict[int, str], dealer: int = 0) -> list[tuple[int, ...]]:
    """Hands to try: the seat winning most holds the strongest cards left, the seats in ``given`` their cards; the
    rest handed out in a few fixed and seeded orders, no seat of ``avoid`` getting a card of the suits named."""
    n, sizes = rules.players, rules.dealt_sizes(dealer)   # DEAL-HANDS: uneven hands, the extra cards to the first seats
    main = max(wins, key=wins.__getitem__)
    hands = [0] * n
    for seat, texts in given.items():
        for text in texts:
            hands[seat] |= CardSet.parse(text).mask
    used = sum(hands)
    strong = [c for c in RANK_MAJOR if rules.deck_mask >> c & 1 and not used >> c & 1]
    hands[main] |= sum(1 << c for c in strong[:sizes[main] - hands[main].bit_count()])
    rest = [c for c in strong if not sum(hands) >> c & 1]
    found = []
    for fill in range(6):
        order = list(rest) if fill < 2 else random.Random(fill).sample(rest, len(rest))
        if fill == 1:
            order.reverse()
        dealt = list(hands)
        k = 0
        for card in order:
            takers = [s for s in range(n) if dealt[s].bit_count() < sizes[s]
                      and "CDSH"[suit_of(card)] not in avoid.get(s, "")]
            if not takers:
                break
            dealt[takers[k % len(takers)]] |= 1 << card
            k += 1
        if all(h.bit_count() == sizes[s] for s, h in enumerate(dealt)):
            found.append(tuple(dealt))
    return found


def _order(state: RoundState, seat: int, moves: list[int], quota: int, main: bool) -> list[int]:
    """The plays to try first: the seat to win most plays high; a seat still to win a trick plays a card that wins
    it if it has one, else low; the others play low when they follow, and give up hearts first when they cannot."""
    if main:
        return sorted(moves, key=lambda c: -(c % 13))
    following = bool(state.trick)
    led = suit_of(state.trick[0]) if following else None
    best = max((c for c in state.trick if suit_of(c) == led), default=-1)

    def key(card: int) -> tuple[int, int]:
        if quota > 0 and following and suit_of(card) == led and card > best:   # a card that wins the trick
            return (-1, -card)
        if following and suit_of(card) != led:   # a discard: hearts first, then the Q♠, then the rest
            return (0 if suit_of(card) == 3 else 1 if card == 36 else 2, card % 13)
        return (3, card % 13)
    return sorted(moves, key=key)


def _dealt_for(rules: Rules, hands: tuple[int, ...], direction: str) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The hands to deal, and the passes, so that after the pass in ``direction`` the seats hold ``hands``."""
    n = rules.players
    offset = rules.pass_offset(direction)
    if not offset:
        return hands, (0,) * n
    passes = [sum(1 << c for c in list(bits_of(hands[(s + offset) % n]))[:3]) for s in range(n)]
    dealt = tuple((hands[s] & ~passes[(s - offset) % n]) | passes[s] for s in range(n))
    return dealt, tuple(passes)


def _search(state: RoundState, wins: dict[int, int], won: dict[int, int], plays: list[int],
            winners: list[int], budget: list[int], accept: Callable[[tuple[int, ...]], bool]) -> tuple[int, ...] | None:
    budget[0] -= 1
    if budget[0] < 0:
        return None
    if state.to_play < 0:
        scores = state.score().scores
        return scores if all(won.get(s, 0) == wins.get(s, 0) for s in range(state.rules.players)) and accept(scores) \
            else None
    seat = state.to_play
    main = max(wins, key=wins.__getitem__)
    moves = _order(state, seat, list(bits_of(state.legal)), wins.get(seat, 0) - won.get(seat, 0), seat == main)
    for card in moves:
        after = state.play(CARDS[card])
        plays.append(card)
        if len(after.tricks) > len(state.tricks):
            winner = after.tricks[-1].winner
            won[winner] = won.get(winner, 0) + 1
            winners.append(winner)
            if won[winner] <= wins.get(winner, 0):
                found = _search(after, wins, won, plays, winners, budget, accept)
                if found is not None:
                    return found
            won[winner] -= 1
            winners.pop()
        else:
            found = _search(after, wins, won, plays, winners, budget, accept)
            if found is not None:
                return found
        plays.pop()
    return None


@cache
def _planned(rules: Rules, direction: str, wins: tuple[tuple[int, int], ...], given: tuple[tuple[int, tuple[str, ...]], ...],
             avoid: tuple[tuple[int, str], ...], accept: Callable[[tuple[int, ...]], bool], nodes: int, dealer: int = 0) -> RoundPlan | None:
    wanted = dict(wins)
    for hands in _deals(rules, wanted, dict(given), dict(avoid), dealer):
        dealt, passes = _dealt_for(rules, hands, direction)
        try:
            state = start_round(rules, [CardSet.from_mask(h) for h in dealt], direction=direction)
            for seat in range(rules.players):
                if passes[seat]:
                    state = state.choose_pass(seat, CardSet.from_mask(passes[seat]))
        except HeartsError:
            continue
        plays: list[int] = []
        winners: list[int] = []
        scores = _search(state, wanted, {}, plays, winners, [nodes], accept)
        if scores is not None:
            return RoundPlan(direction, dealt, passes, tuple(plays), scores, tuple(winners))
    return None


def round_only(rules: Rules) -> Rules:
    """The rules as far as one round goes: the end of the game (threshold, comparison, rounds, ties) at its defaults,
    since a round is dealt, passed, played and scored alike under any (so the planned rounds are shared)."""
    default = Rules()
    return replace(rules, end_threshold=default.end_threshold, end_comparison=default.end_comparison,
                   max_rounds=default.max_rounds, ties=default.ties)


def planned_round(rules: Rules, direction: str, wins: dict[int, int], accept: Callable[[tuple[int, ...]], bool], *,
                  given: dict[int, tuple[str, ...]] | None = None, avoid: dict[int, str] | None = None,
                  nodes: int = 4000, dealer: int = 0) -> RoundPlan | None:
    """A round under ``rules`` passing in ``direction`` in which each seat wins exactly ``wins[seat]`` tricks (others
    none) and whose scores pass ``accept``; ``given`` deals some seats some cards first, ``avoid`` keeps suits (by
    letter) from some seats; ``dealer`` deals it (DEAL-DEALER: with uneven hands, the extra cards to the first seats
    from its left). None if the search fails."""
    return _planned(round_only(rules), direction, tuple(sorted(wins.items())), tuple(sorted((given or {}).items())),
                    tuple(sorted((avoid or {}).items())), accept, nodes, dealer % rules.players if rules.extra_cards else 0)
