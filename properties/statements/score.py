"""The rules of scoring, the totals and the end of the game as formal statements (:mod:`properties.statements`)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from hearts_ref.variants import Rules
from properties.logic import (
    JACK_OF_DIAMONDS, all_of, any_of, at_least, bit, choose_number, equal, greater, holds_none, holds_only,
    negation, points_of, total,
)
from properties.statements.deal import cards_of, decks_of


# ---------------------------------------------------------------------------------------------
# Scoring
# ---------------------------------------------------------------------------------------------

HEART_POINTS, QUEEN_POINTS = 1, 13     # SCORE-POINTS: «1 point for each heart …; 13 points for the QS»
JACK_POINTS = -10                      # SCORE-JACK: «MUST add −10 to their round score»
NO_TRICK_POINTS = -5                   # SCORE-NO-TRICKS: «MUST add −5 to their round score»
MOON_POINTS = 26                       # SCORE-MOON: «every other player scores 26» / «the shooter scores −26»
DECK_POINTS = 26                       # SCORE-POINTS: «The card points of a round always sum to 26» (per deck)


def round_points(rules: Rules) -> int:
    """SCORE-POINTS: the card points of a round, 26 per deck played (52 with two decks: 26 hearts and two Q♠)."""
    return DECK_POINTS * decks_of(rules)


def moon_points(rules: Rules) -> int:
    """SCORE-MOON: what a moon is worth: the round's points, 26 per deck («every other player scores 26»; with two
    decks 52, disagreements.md D16: the source only speaks of one deck)."""
    return MOON_POINTS * decks_of(rules)


def score_points(rules: Rules, pile: Any) -> Any:
    """SCORE-POINTS: «1 point for each heart, from 2H to AH alike; 13 points for the QS; 0 for every other card» — with
    two decks each copy alike: every heart 1, each Q♠ 13.

    (The rule adds: «The card points of a round always sum to 26», per deck: a consequence the proofs check.)
    """
    named = cards_of(rules)
    worth = {i: HEART_POINTS for i in range(2 * 52) if named.hearts >> i & 1}
    worth.update({i: QUEEN_POINTS for i in range(2 * 52) if named.queen >> i & 1})
    return points_of(pile, worth)


def score_jack(rules: Rules, pile: Any) -> Any:
    """SCORE-JACK: «With jd_bonus = true, the player who won the trick containing the JD MUST add −10 to their round
    score. This applies in every round, also in a round in which a player shot the moon» — with two decks, for each J♦.
    """
    if not rules.jd_bonus:
        return 0
    if decks_of(rules) == 1:
        return choose_number(bit(pile, JACK_OF_DIAMONDS.bit_length() - 1), JACK_POINTS, 0)
    return points_of(pile, {i: JACK_POINTS for i in range(2 * 52) if cards_of(rules).jack >> i & 1})


def score_no_tricks(rules: Rules, pile: Any, moon_shot: Any) -> Any:
    """SCORE-NO-TRICKS: «each player who won no trick in the round MUST add −5 to their round score, except in a round
    in which SCORE-MOON changed the scores». A trick won puts its cards in the pile, so no trick is an empty pile.
    """
    if not rules.avoid_all_tricks_bonus:
        return 0
    return choose_number(all_of([holds_none(pile, cards_of(rules).every), negation(moon_shot)]), NO_TRICK_POINTS, 0)


def score_moon(rules: Rules, piles: Sequence[Any], seat: int) -> Any:
    """SCORE-MOON: the score that replaces the card points of ``seat`` (None when nobody shot the moon).

    «A player who won, in one round, all thirteen hearts and the QS … has shot the moon. If any other player took
    even one point card, nobody has shot the moon»; «"add": the shooter scores 0 and every other player scores 26»;
    «"subtract": the shooter scores −26 and every other player scores 0»; «"off": no replacement». With two decks
    the moon is every point card in play (all 26 hearts and both Q♠), worth 52 (:func:`moon_points`).
    """
    if rules.moon == "off":
        return None
    shooters = moon_shooters(rules, piles)
    mine = 0 if rules.moon == "add" else -moon_points(rules)
    others = moon_points(rules) if rules.moon == "add" else 0
    return choose_number(shooters[seat], mine, others)


def moon_shooters(rules: Rules, piles: Sequence[Any]) -> list[Any]:
    """SCORE-MOON: for each seat, whether it took every point card (nobody, with ``moon = "off"``)."""
    if rules.moon == "off":
        return [False for _ in piles]
    return [holds_all(pile, cards_of(rules).points) for pile in piles]


def holds_all(pile: Any, wanted: int) -> Any:
    """Whether the pile holds every card of the mask ``wanted``."""
    return holds_only(wanted, pile)


def round_scores(rules: Rules, piles: Sequence[Any]) -> list[Any]:
    """Each seat's round score from the cards it took, as the chapter states it: «the sum of their card points
    (SCORE-POINTS), changed by SCORE-MOON if someone shot the moon, plus the bonuses of SCORE-JACK and SCORE-NO-TRICKS
    where those variants are on»."""
    moon_shot = any_of(moon_shooters(rules, piles))
    scores = []
    for seat, pile in enumerate(piles):
        points = score_points(rules, pile)
        moon = score_moon(rules, piles, seat)
        if moon is not None:
            points = choose_number(moon_shot, moon, points)
        scores.append(total([points, score_jack(rules, pile), score_no_tricks(rules, pile, moon_shot)]))
    return scores


def raw_points(rules: Rules, pile: Any) -> Any:
    """A seat's points before the moon and the no-trick bonus: its card points and, with jd_bonus, the J♦'s −10."""
    return total([score_points(rules, pile), score_jack(rules, pile)])


# ---------------------------------------------------------------------------------------------
# Totals and the end of the game
# ---------------------------------------------------------------------------------------------

def score_total(rules: Rules, totals: Sequence[Any], scores: Sequence[Any], after: Sequence[Any]) -> Any:
    """SCORE-TOTAL: «Every player's total MUST be 0 at the start of the game. After each round, each player's round
    score MUST be added to their total.» ``totals`` before the round, ``after`` once it is scored."""
    return all_of(equal(a, total([t, s])) for t, s, a in zip(totals, scores, after))


def end_threshold(rules: Rules, totals: Sequence[Any], rounds: int) -> Any:
    """END-THRESHOLD: «The end condition holds when at least one player's total reaches end_threshold, compared by
    end_comparison …, or, when max_rounds is greater than 0, when max_rounds rounds have been played.»"""
    compare = at_least if rules.end_comparison == ">=" else greater
    reached = any_of(compare(t, rules.end_threshold) for t in totals)
    return True if rules.max_rounds and rounds >= rules.max_rounds else reached


def lowest_alone(totals: Sequence[Any]) -> Any:
    """Whether one player alone has the lowest total."""
    return any_of(all_of(greater(other, t) for j, other in enumerate(totals) if j != i) for i, t in enumerate(totals))


def win_tie(rules: Rules, totals: Sequence[Any], rounds: int) -> Any:
    """WIN-TIE: «With ties = "play-on", if the end condition … holds after a round but two or more players share the
    lowest total, the game MUST NOT end»; «The limit max_rounds is absolute». Whether the game ends."""
    return game_ends(rules, totals, rounds)


def game_ends(rules: Rules, totals: Sequence[Any], rounds: int) -> Any:
    """Whether the game ends after ``rounds`` rounds with these ``totals``: END-THRESHOLD, then WIN-TIE."""
    ends = end_threshold(rules, totals, rounds)
    if rules.ties == "shared" or (rules.max_rounds and rounds >= rules.max_rounds):
        return ends
    return all_of([ends, lowest_alone(totals)])


def win_lowest(rules: Rules, totals: Sequence[Any], seat: int) -> Any:
    """WIN-LOWEST: «the player with the lowest total MUST be declared the winner»; WIN-TIE: all who share it."""
    return all_of(at_least(other, totals[seat]) for other in totals)
