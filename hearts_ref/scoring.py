"""Scoring a round: points for cards taken, the moon, the bonuses (SCORE-*).

>>> from hearts_ref.cardset import CardSet
>>> from hearts_ref.variants import Rules
>>> card_points(CardSet.parse("2H 5H 9H KH QS").mask, Rules())   # four hearts and Q♠
17
>>> round_scores((CardSet.parse("2H 3H 4H").mask, 0, 0, 0), Rules()).scores
(3, 0, 0, 0)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, NamedTuple

from hearts_ref.cardset import BITS, HEARTS, JACK_OF_DIAMONDS_BIT, POINT_CARDS, QUEEN
from hearts_ref.variants import Rules

__all__ = ["card_points", "takes_the_moon", "moon_shooter", "score_terms", "round_scores", "RoundScore",
           "MOON_POINTS", "NO_TRICKS_BONUS", "JACK_POINTS", "QUEEN_POINTS"]

MOON_POINTS = 26       # SCORE-MOON
QUEEN_POINTS = 13      # SCORE-POINTS
JACK_POINTS = -10      # SCORE-JACK
NO_TRICKS_BONUS = -5   # SCORE-NO-TRICKS


class RoundScore(NamedTuple):
    """The outcome of one round: raw points per seat, the scores added to totals, the moon shooter."""

    points: tuple[int, ...]
    scores: tuple[int, ...]
    shooter: int | None


def card_points(cards: Any, rules: Rules, ops: Any = BITS) -> Any:
    """Return the raw points of ``cards``: SCORE-POINTS, 1 per heart and 13 for the Q♠; SCORE-JACK, -10 for the J♦.

    With two decks each copy counts: 13 for each Q♠, -10 for each J♦. Runs on both card-set algebras
    (a z3 integer term on :data:`hearts_ref.symbolic.SYMBOLIC`).

    >>> from hearts_ref.cardset import CardSet
    >>> card_points(CardSet.parse("QS QS#2 2H 2H#2").mask, Rules.preset("seed003", players=5))
    28
    """
    if rules.decks == 2:
        points = ops.count(cards & HEARTS) + ops.count(cards & QUEEN) * QUEEN_POINTS
        if rules.jd_bonus:
            points = points + ops.count(cards & JACK_OF_DIAMONDS_BIT) * JACK_POINTS
        return points
    points = ops.count(cards & HEARTS) + ops.when(ops.is_empty(cards & QUEEN), 0, QUEEN_POINTS)
    if rules.jd_bonus:
        points = points + ops.when(ops.is_empty(cards & JACK_OF_DIAMONDS_BIT), 0, JACK_POINTS)
    return points


def takes_the_moon(cards: Any, rules: Rules, ops: Any = BITS) -> Any:
    """SCORE-MOON: return whether ``cards`` hold every point card in play (both decks' with two; never when ``moon``
    is off)."""
    if rules.moon == "off":
        return False
    return ops.is_empty(POINT_CARDS & rules.deck_mask & ~cards)   # the point cards in play


def moon_shooter(taken: tuple[int, ...], rules: Rules) -> int | None:
    """SCORE-MOON: the seat that took every point card (not every trick), or None."""
    return next((seat for seat, cards in enumerate(taken) if takes_the_moon(cards, rules)), None)


def score_terms(taken: Sequence[Any], rules: Rules, ops: Any = BITS) -> tuple[tuple[Any, ...], tuple[Any, ...]]:
    """Return the raw points and the round scores of each seat, for the cards ``taken`` by each.

    Rules: SCORE-POINTS, SCORE-JACK, SCORE-MOON, SCORE-NO-TRICKS. Runs on both card-set
    algebras, so the proofs sum the very scores the engine adds to the totals. The moon is worth
    the points of the point cards in play: 26 per deck.
    """
    moon_points = MOON_POINTS * rules.decks
    points = tuple(card_points(cards, rules, ops) for cards in taken)
    moon = tuple(takes_the_moon(cards, rules, ops) for cards in taken)
    someone: Any = False
    for shot in moon:
        someone = ops.either(someone, shot)
    scores = []
    for seat, cards in enumerate(taken):
        raw = points[seat]
        if rules.moon == "add":    # the shooter's hearts and Q♠ count 0, every other player gets 26 (52: two decks)
            after_moon = ops.when(moon[seat], raw - moon_points, raw + moon_points)
        else:                      # "subtract": 26 off the shooter's total (52: two decks)
            after_moon = ops.when(moon[seat], raw - 2 * moon_points, raw)
        plain = raw
        if rules.avoid_all_tricks_bonus:   # SCORE-NO-TRICKS: took no trick at all
            plain = raw + ops.when(ops.is_empty(cards), NO_TRICKS_BONUS, 0)
        scores.append(ops.when(someone, after_moon, plain))
    return points, tuple(scores)


def round_scores(taken: tuple[int, ...], rules: Rules) -> RoundScore:
    """Return the raw points and the round scores for the cards ``taken`` by each seat.

    Rules: SCORE-POINTS, SCORE-JACK, SCORE-MOON, SCORE-NO-TRICKS.
    """
    points, scores = score_terms(taken, rules)
    return RoundScore(points, scores, moon_shooter(taken, rules))
