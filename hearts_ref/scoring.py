"""Scoring a round: points for cards taken, the moon, the bonuses (SCORE-*).

>>> from hearts_ref.cardset import CardSet
>>> from hearts_ref.variants import Rules
>>> card_points(CardSet.parse("2H 5H 9H KH QS").mask, Rules())   # four hearts and Q♠
17
>>> round_scores((CardSet.parse("2H 3H 4H").mask, 0, 0, 0), Rules()).scores
(3, 0, 0, 0)
"""

from __future__ import annotations

from typing import NamedTuple

from hearts_ref.cardset import HEARTS, JACK_OF_DIAMONDS_BIT, POINT_CARDS, QUEEN
from hearts_ref.variants import Rules

__all__ = ["card_points", "moon_shooter", "round_scores", "RoundScore",
           "MOON_POINTS", "NO_TRICKS_BONUS", "JACK_POINTS"]

MOON_POINTS = 26       # SCORE-MOON
JACK_POINTS = -10      # SCORE-JACK
NO_TRICKS_BONUS = -5   # SCORE-NO-TRICKS


class RoundScore(NamedTuple):
    """The outcome of one round: raw points per seat, the scores added to totals, the moon shooter."""

    points: tuple[int, ...]
    scores: tuple[int, ...]
    shooter: int | None


def card_points(cards: int, rules: Rules) -> int:
    """SCORE-POINTS: 1 per heart and 13 for the Q♠ among ``cards``; SCORE-JACK: -10 for the J♦."""
    points = (cards & HEARTS).bit_count() + (13 if cards & QUEEN else 0)
    if rules.jd_bonus and cards & JACK_OF_DIAMONDS_BIT:
        points += JACK_POINTS
    return points


def moon_shooter(taken: tuple[int, ...], rules: Rules) -> int | None:
    """SCORE-MOON: the seat that took every point card (not every trick), or None."""
    if rules.moon == "off":
        return None
    for seat, cards in enumerate(taken):
        if cards & POINT_CARDS == POINT_CARDS:
            return seat
    return None


def round_scores(taken: tuple[int, ...], rules: Rules) -> RoundScore:
    """Return the raw points and the round scores for the cards ``taken`` by each seat.

    Rules: SCORE-POINTS, SCORE-JACK, SCORE-MOON, SCORE-NO-TRICKS.
    """
    points = tuple(card_points(cards, rules) for cards in taken)
    shooter = moon_shooter(taken, rules)
    if shooter is None:
        scores = points
        if rules.avoid_all_tricks_bonus:   # SCORE-NO-TRICKS: took no trick at all
            scores = tuple(p + (NO_TRICKS_BONUS if not cards else 0) for p, cards in zip(points, taken))
    elif rules.moon == "add":              # the shooter's hearts and Q♠ count 0, others get 26
        scores = tuple(p - MOON_POINTS if seat == shooter else p + MOON_POINTS
                       for seat, p in enumerate(points))
    else:                                  # "subtract": 26 off the shooter's total
        scores = tuple(p - 2 * MOON_POINTS if seat == shooter else p for seat, p in enumerate(points))
    return RoundScore(points, scores, shooter)
