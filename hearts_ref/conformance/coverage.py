"""Edge coverage: how often a campaign's games reached the corners of the rules.

A differential game only tests what it plays through. This module counts, in the
reference's finished games, the situations the edge-seeking policies aim at, so a report
can say that the engine agreed with the reference *through* them: a moon shot and a moon
spoiled by one card (SCORE-MOON), a point card on the first trick (FIRST-EXCEPTION or the
variant that allows it), a heart led before hearts were broken (LEAD-HEARTS), the Q♠
led, a total landing exactly on the end threshold (END-THRESHOLD), a shared win
(WIN-TIE), a player without a trick (SCORE-NO-TRICKS), each pass direction (PASS-CYCLE).

>>> from hearts_ref.simulate import random_game
>>> from hearts_ref.variants import Rules
>>> tally = game_coverage(random_game(Rules(), seed=2))
>>> tally["rounds"] > 1, "pass left" in tally
(True, True)
"""

from __future__ import annotations

from collections import Counter

from hearts_ref.cards import QUEEN_OF_SPADES, Suit
from hearts_ref.cardset import POINT_CARDS
from hearts_ref.game import Game, RoundResult
from hearts_ref.legality import Context, breaks_hearts
from hearts_ref.variants import Rules

__all__ = ["game_coverage", "SITUATIONS"]

SITUATIONS = {
    "SCORE-MOON": "a seat took every point card",
    "moon spoiled": "a seat took every point card but one",
    "FIRST-NO-POINTS": "a point card was played on the first trick",
    "LEAD-HEARTS": "a heart was led before hearts were broken",
    "queen led": "the queen of spades was led",
    "SCORE-NO-TRICKS": "a seat took no trick",
    "END-THRESHOLD": "a total landed exactly on the end threshold",
    "WIN-TIE": "the game ended with a shared win",
}


def _round_coverage(result: RoundResult, rules: Rules, tally: Counter) -> None:
    tally[f"pass {result.direction}"] += 1
    taken = [0] * rules.players
    broken = False
    for number, trick in enumerate(result.tricks):
        first = number == 0
        lead = trick.indices[0]
        if lead // 13 == Suit.HEARTS and not broken:
            tally["LEAD-HEARTS"] += 1
        if lead == QUEEN_OF_SPADES.index and not first:
            tally["queen led"] += 1
        for position, card in enumerate(trick.indices):
            if first and (1 << card) & POINT_CARDS:
                tally["FIRST-NO-POINTS"] += 1
            ctx = Context(position == 0, None if position == 0 else lead // 13, first, broken)
            broken = broken or breaks_hearts(card, ctx, rules)
            taken[trick.winner] |= 1 << card
    most = max((cards & POINT_CARDS).bit_count() for cards in taken)
    if result.score.shooter is not None:
        tally["SCORE-MOON"] += 1
    elif most == POINT_CARDS.bit_count() - 1:
        tally["moon spoiled"] += 1
    if any(not cards for cards in taken):
        tally["SCORE-NO-TRICKS"] += 1


def game_coverage(game: Game) -> Counter:
    """Return the situations of :data:`SITUATIONS` (and the pass directions) met in a finished game."""
    tally: Counter = Counter()
    totals = [0] * game.rules.players
    for result in game.results:
        _round_coverage(result, game.rules, tally)
        totals = [t + s for t, s in zip(totals, result.score.scores)]
        if game.rules.end_threshold in totals:
            tally["END-THRESHOLD"] += 1
    tally["rounds"] += len(game.results)
    if len(game.winners) > 1:
        tally["WIN-TIE"] += 1
    return tally
