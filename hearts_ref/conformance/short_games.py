"""Short games that end soon: rounds chosen for their scores, for findings about the totals, the end and the winners.

A finding about the end of the game (END-THRESHOLD, WIN-LOWEST, WIN-TIE) or the totals
(SCORE-TOTAL) needs a game of several rounds; a random game takes about ten to reach 100, and
deleting plays from it rarely makes it end sooner. So the shrinker (:mod:`.shrink`) also tries
games built of rounds that score a lot: deals whose plays, each the lowest legal card, give one
seat a moon (it holds every club and takes every trick) or many points, the round passing
nowhere. :func:`round_pool` plays such deals on the reference and keeps one per score sheet;
:func:`short_games` puts them together into games of at most five rounds, the shortest first,
one for each way a game can end: a total landing exactly on the threshold or past it, the
lowest total held by one, two, three or more seats, a moon in the last round, an end that the
card points before a moon would decide otherwise; and a game of one and of two rounds.

Each game is a choice script (:mod:`.script`): its deals, and past them every choice the
lowest (direction "none", the lowest card).

>>> from hearts_ref.variants import Rules
>>> games = short_games(Rules())
>>> min(len(game.rounds) for game in games if game.over), max(len(game.rounds) for game in games) <= 5
(4, True)
"""

from __future__ import annotations

import dataclasses
import functools
import itertools
from typing import NamedTuple

from hearts_ref.cards import CARDS
from hearts_ref.cardset import CardSet
from hearts_ref.deals import deal
from hearts_ref.game import is_game_over
from hearts_ref.round import start_round
from hearts_ref.variants import Rules
from hearts_ref.conformance.script import deal_code, direction_options, nth_card

__all__ = ["Round", "ShortGame", "round_pool", "short_games"]

MAX_ROUNDS = 5
_RANDOM_DEALS = 48     # seeded deals played besides the deals in card order
_ALPHABET = 24         # rounds a short game is built of
_LAYER = 400           # games of each length carried on to the next round


class Round(NamedTuple):
    """A round of a short game: its choices (the deal, then every choice the lowest), its points and scores."""

    script: tuple[int, ...]
    points: tuple[int, ...]
    scores: tuple[int, ...]


class ShortGame(NamedTuple):
    """A short game: its rounds, whether it ends after the last, and the way it ends (or goes on)."""

    rounds: tuple[Round, ...]
    over: bool
    ending: tuple

    @property
    def script(self) -> list[int]:
        return [value for played in self.rounds for value in played.script]


def _lowest_round(rules: Rules, hands: tuple[CardSet, ...]) -> Round | None:
    """The round of ``hands`` played with direction "none" and the lowest legal card each time (None on a deadlock)."""
    state = start_round(rules, hands, direction="none")
    choices = int(len(direction_options(rules)) > 1)
    while not state.is_over:
        if not state.legal:
            return None
        choices += state.legal.bit_count() > 1
        state = state.play(CARDS[nth_card(state.legal, 0)])
    score = state.score()
    return Round(tuple(deal_code(rules, hands)) + (0,) * choices, tuple(score.points), tuple(score.scores))


def _card_order_deals(rules: Rules) -> list[tuple[CardSet, ...]]:
    """The deck in card order cut into hands, given to the seats in each rotation and its reverse, each seat as many
    cards as DEAL-HANDS deals it in a game's first round (with uneven hands the extra cards are seat 1's onwards)."""
    n, sizes, deck = rules.players, rules.dealt_sizes(), list(CardSet.from_mask(rules.deck_mask))
    seatings = [[(b - k) % n for b in range(n)] for k in range(n)]    # the seat of each block, in card order
    seatings += [[(n - 1 + k - b) % n for b in range(n)] for k in range(n)]
    deals = []
    for seats in seatings:
        hands, start = [CardSet()] * n, 0
        for seat in seats:
            hands[seat] = CardSet(deck[start:start + sizes[seat]])
            start += sizes[seat]
        deals.append(tuple(hands))
    return deals


@functools.lru_cache(maxsize=16)
def round_pool(rules: Rules) -> tuple[Round, ...]:
    """Rounds with different score sheets: moons first, then the most points to one seat first."""
    hands = _card_order_deals(rules) + [deal(rules, seed=f"hearts-ref-short:{k}") for k in range(_RANDOM_DEALS)]
    seen: dict[tuple[int, ...], Round] = {}
    for dealt in hands:
        played = _lowest_round(rules, tuple(dealt))
        if played is not None and played.scores not in seen:
            seen[played.scores] = played
    return tuple(sorted(seen.values(), key=lambda r: (r.scores == r.points, -max(r.points), r.scores)))


def _ending(rules: Rules, before: tuple[int, ...], played: Round, after: tuple[int, ...], over: bool) -> tuple:
    """The way a game ends after ``played`` (or goes on): what a bug of the end or the winners may get wrong."""
    if not over:
        return ("goes on",)
    by_points = is_game_over(tuple(b + p for b, p in zip(before, played.points)), 1, _no_limit(rules))
    low = min(after)
    return ("ends", rules.end_threshold in after, max(after) > rules.end_threshold, after.count(low),
            played.scores != played.points, by_points != is_game_over(after, 1, _no_limit(rules)))


@functools.lru_cache(maxsize=16)
def _no_limit(rules: Rules) -> Rules:
    """The rules without a round limit: the end as the totals decide it."""
    return dataclasses.replace(rules, max_rounds=0) if rules.max_rounds else rules


@functools.lru_cache(maxsize=16)
def short_games(rules: Rules, *, most: int = MAX_ROUNDS) -> tuple[ShortGame, ...]:
    """Games of at most ``most`` rounds, the shortest first: one for each way of ending found, and one of one and
    of two rounds that go on."""
    alphabet = round_pool(rules)[:_ALPHABET]
    found: dict[tuple, ShortGame] = {}
    layer: list[tuple[tuple[int, ...], tuple[Round, ...]]] = [((0,) * rules.players, ())]
    for length in range(1, most + 1):
        following: dict[tuple[int, ...], tuple[Round, ...]] = {}
        for (totals, rounds), played in itertools.product(layer, alphabet):
            after = tuple(t + s for t, s in zip(totals, played.scores))
            over = is_game_over(after, length, rules)
            ending = _ending(rules, totals, played, after, over) + (() if over else (length,))
            if ending not in found and (over or length <= 2):
                found[ending] = ShortGame(rounds + (played,), over, ending)
            if not over and after not in following and len(following) < _LAYER:
                following[after] = rounds + (played,)
        layer = list(following.items())
    return tuple(sorted(found.values(), key=lambda game: len(game.rounds)))
