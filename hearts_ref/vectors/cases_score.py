"""Targeted cases, chapters 07 and 08 of spec/rules: scoring, the end of the game and the winners.

Whole rounds are played by random legal plays, or by a line searched for an outcome (a moon,
a seat without tricks, a total exactly on the threshold, a tie).
"""

from __future__ import annotations

from collections.abc import Callable

from hearts_ref.cardset import CardSet
from hearts_ref.deals import deal
from hearts_ref.round import RoundState
from hearts_ref.variants import Rules
from hearts_ref.vectors.builder import CaseBuilder
from hearts_ref.vectors.cases_play import play_case
from hearts_ref.vectors.lines import fill_deal, raw_points
from hearts_ref.vectors.model import Case

__all__ = ["scoring_cases", "end_cases", "MOON_HAND", "moon_deal", "tie_for_lowest", "single_lowest"]

MOON_HAND = "AC KC QC AD KD QD AS KS QS AH KH QH JH"


def moon_deal(rules: Rules, shooter: int = 0) -> tuple[CardSet, ...]:
    """Return a deal in which ``shooter`` holds the top cards of every suit: a moon is within reach."""
    return fill_deal(rules, {shooter: MOON_HAND})


def tie_for_lowest(threshold: int, totals: tuple[int, ...] = (0, 0, 0, 0)) -> Callable[[RoundState], bool]:
    """A test of a finished round: someone reaches ``threshold`` and exactly two seats share the lowest total."""
    def accept(state: RoundState) -> bool:
        after = [t + s for t, s in zip(totals, state.score().scores)]
        return max(after) >= threshold and after.count(min(after)) == 2 and state.score().shooter is None
    return accept


def single_lowest(threshold: int, totals: tuple[int, ...] = (0, 0, 0, 0)) -> Callable[[RoundState], bool]:
    """A test of a finished round: someone reaches ``threshold`` and one seat alone has the lowest total."""
    def accept(state: RoundState) -> bool:
        after = [t + s for t, s in zip(totals, state.score().scores)]
        return max(after) >= threshold and after.count(min(after)) == 1 and state.score().shooter is None
    return accept


def _no_moon(state: RoundState) -> bool:
    return state.score().shooter is None


def scoring_cases() -> list[Case]:
    """SCORE-POINTS, SCORE-JACK, SCORE-NO-TRICKS, SCORE-MOON, SCORE-TOTAL."""
    rules = Rules(pass_cards=False)
    cases = []
    b = play_case("score-points.whole-round", "A whole round: each heart taken scores 1 and the Q♠ 13, and the "
                  "seats' points add up to 26.", ["SCORE-POINTS"])
    cases.append(b.deal(deal(rules, seed="vector:score-points")).play_out(accept=_no_moon).build())
    hearts_holder = fill_deal(rules, {2: "2H 3H 4H 5H 6H 7H 8H 9H"})
    b = play_case("score-points.taken-not-held", "Points come from cards taken in tricks, not cards held: seat 2 "
                  "is dealt eight hearts and ends the round with 0 points.", ["SCORE-POINTS"])
    b.deal(hearts_holder).play_out(accept=lambda st: raw_points(st.taken[2]) == 0 and _no_moon(st))
    cases.append(b.check(points=tuple(b.game.results[-1].score.points)).build())
    b = play_case("score-jack.minus-ten", "With the J♦ bonus the seat that takes the J♦ scores 10 less, so the "
                  "round's points add up to 16.", ["SCORE-JACK", "SCORE-POINTS"], jd_bonus=True)
    cases.append(b.deal(deal(rules, seed="vector:score-jack")).play_out(accept=_no_moon).build())
    b = play_case("score-no-tricks.minus-five", "With the no-tricks bonus a seat that takes no trick at all "
                  "scores 5 less.", ["SCORE-NO-TRICKS"], avoid_all_tricks_bonus=True)
    b.deal(deal(rules, seed="vector:no-tricks")).play_out(accept=lambda st: _no_moon(st) and 0 in st.taken)
    cases.append(b.build())
    for moon, text in (("add", "scores 0 and every other seat 26"),
                       ("subtract", "has 26 taken off and the others score 0"),
                       ("off", "simply scores the 26 points taken")):
        b = play_case(f"score-moon.{moon}", f"Seat 0 takes all 13 hearts and the Q♠: with moon={moon} it {text}.",
                      ["SCORE-MOON"], moon=moon)
        cases.append(b.deal(moon_deal(b.rules)).play_out(points=(26, 0, 0, 0)).build())
    b = CaseBuilder("score-total.two-rounds", "Round scores add up to running totals over two rounds, passing "
                    "left then right.", ["SCORE-TOTAL", "PASS-CYCLE"])
    for number in range(2):
        b.deal(deal(b.rules, seed=f"vector:total:{number}", dealer=number)).random_passes().play_out()
    cases.append(b.check(game_over=False).build())
    return cases


def end_cases() -> list[Case]:
    """END-THRESHOLD, WIN-LOWEST, WIN-TIE."""
    rules = Rules(pass_cards=False)
    start = deal(rules, seed="vector:end")
    cases = []
    exactly = lambda st: max(st.score().scores) == 13 and _no_moon(st)   # noqa: E731
    for comparison, over in ((">=", True), (">", False)):
        b = play_case(f"end-threshold.equal{'-or-more' if over else '-is-not-more'}",
                      f"With end_threshold=13 and end_comparison='{comparison}', a round leaving the highest total on "
                      f"exactly 13 {'ends' if over else 'does not end'} the game.", ["END-THRESHOLD"],
                      end_threshold=13, end_comparison=comparison)
        cases.append(b.deal(start).play_out(accept=exactly, seed="end-threshold").check(game_over=over).build())
    b = play_case("end-threshold.max-rounds", "Under the openspiel preset (max_rounds=1) the game ends after one "
                  "round whatever the totals.", ["END-THRESHOLD"], preset="openspiel")
    cases.append(b.deal(start).play_out().check(game_over=True).build())
    b = play_case("win-lowest.single-winner", "When the game ends the seat with the lowest total wins.",
                  ["WIN-LOWEST", "END-THRESHOLD"], end_threshold=13)
    cases.append(b.deal(start).play_out(accept=single_lowest(13)).check(game_over=True).build())
    b = play_case("win-tie.shared", "Two seats tie for the lowest total when the game ends: they share the win.",
                  ["WIN-TIE", "WIN-LOWEST"], end_threshold=13)
    b.deal(start).play_out(accept=tie_for_lowest(13), seed="win-tie")
    cases.append(b.check(game_over=True).build())
    b = play_case("win-tie.play-on", "With ties=play-on a tie for the lowest total at the threshold means another "
                  "round, until one seat alone is lowest.", ["WIN-TIE", "END-THRESHOLD"], end_threshold=13,
                  ties="play-on")
    b.deal(start).play_out(accept=tie_for_lowest(13), seed="win-tie").check(game_over=False)
    b.deal(deal(rules, seed="vector:end:2", dealer=1)).play_out(accept=single_lowest(13, b.game.totals))
    cases.append(b.check(game_over=True).build())
    return cases
