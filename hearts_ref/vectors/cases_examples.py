"""The worked examples of the source texts, each as a case played on a deal that reaches it.

The examples are the same as ``tests/data/worked_examples.json`` (a test checks that each one
has its case): two tricks, four sets of cards taken with their points, and a two-round game
with a moon. The source files are in ``spec/sources/``.
"""

from __future__ import annotations

import random

from hearts_ref.cardset import POINT_CARDS, CardSet
from hearts_ref.deals import deal
from hearts_ref.round import start_round

from hearts_ref.vectors.builder import CaseBuilder
from hearts_ref.vectors.cases_decks import kalle_and_pelle
from hearts_ref.vectors.cases_score import moon_deal
from hearts_ref.vectors.lines import CatalogueError, deal_before_passes, first_line, script_deal
from hearts_ref.vectors.model import Case

__all__ = ["example_cases", "SOURCES"]

SOURCES = {"000": "000_86f1b5f2688e3f2e.txt", "002": "002_3d1eaf95b780969b.txt", "004": "004_ef076abc39558e03.txt"}
SEVENTEEN = "3H 5H 9H AH QS"
ZERO_POINTS = "2C 3C 4C 5C 7D 8D 9D 10D 2S 3S 4S 5S AC AD AS KC"


def _example(case_id: str, description: str, rule_ids: list[str], source: str, preset: str = "seed000",
             **changes: object) -> CaseBuilder:
    return CaseBuilder(case_id, description, rule_ids, kind="example", preset=preset, source=SOURCES[source],
                       **({"pass_cards": False} | changes))


def _scripted(b: CaseBuilder, opener: int, tricks: list[str]) -> CaseBuilder:
    return b.deal(script_deal(b.rules, opener, tricks)).play(*tricks)


def _first_round(b: CaseBuilder) -> CaseBuilder:
    """Round 1 of seed 000's game: passing left, then points 3 17 6 0."""
    for attempt in range(40):
        hands = deal(b.rules, seed=f"vector:example-game:{attempt}", dealer=0)
        rng = random.Random(f"vector:example-game:{attempt}")
        passes = [CardSet(rng.sample(list(hand), 3)) for hand in hands]
        state = start_round(b.rules, hands, direction="left")
        for seat, cards in enumerate(passes):
            state = state.choose_pass(seat, cards)
        try:
            line = first_line(state, points=(3, 17, 6, 0), tries=2, budget=3000)
        except CatalogueError:
            continue
        b.deal(hands, direction="left")
        for seat, cards in enumerate(passes):
            b.pass_cards(seat, cards)
        return b.play(*line)
    raise CatalogueError("no deal found for seed 000's first round")


def example_cases() -> list[Case]:
    """Every worked example of the sources, in the order of tests/data/worked_examples.json."""
    cases = []
    b = _example("example.seed000.trick-worth-14", "Seed 000: not the first trick; 7♦ led, K♦, 4♥ and Q♠: the K♦ "
                 "takes 14 points, and the 4♥ discarded breaks hearts.",
                 ["TRICK-WINNER", "SCORE-POINTS", "BREAK-DISCARD", "BREAK-QUEEN"], "000")
    cases.append(_scripted(b, 3, ["2C AC 3C 4C", "7D KD 4H QS"]).check(points=(0, 14, 0, 0), hearts_broken=True)
                 .build())
    b = _example("example.seed004.trick-worth-1", "Seed 004: a trick after the first; 8♣ led, Q♣, 3♣ and 5♥: one "
                 "point to the Q♣, and hearts are broken.", ["TRICK-WINNER", "SCORE-POINTS", "BREAK-DISCARD"], "004",
                 preset="seed004")
    cases.append(_scripted(b, 3, ["2C AC 4C 6C", "8C QC 3C 5H"]).check(points=(0, 1, 0, 0), hearts_broken=True)
                 .build())
    b = _example("example.seed004.points-16", "Seed 004: 2♥ 7♥ K♥ and Q♠ taken are worth 16 points; here they "
                 "are one trick, won by the K♥.", ["SCORE-POINTS"], "004", preset="seed004")
    cases.append(_scripted(b, 0, ["2C 3C 4C AC", "5D 6D 3H 7D", "2H KH 7H QS"]).check(points=(0, 0, 1, 16))
                 .build())
    b = _example("example.seed000.points-17", "Seed 000: seat 1 takes the 3♥, then the Q♠ with the 5♥, then the "
                 "A♥ with the 9♥: 3♥ 5♥ 9♥ A♥ and Q♠ are 17 points.", ["SCORE-POINTS", "BREAK-DISCARD"], "000")
    _scripted(b, 0, ["2C 3C 4C AC", "KD 3H AD 2D", "AS QS 5H 2S", "AH 9H JC QC"]).check(points=(0, 17, 0, 0))
    if b.game.round.taken[1] & POINT_CARDS != CardSet.parse(SEVENTEEN).mask:
        raise CatalogueError("example.seed000.points-17: seat 1 has not taken exactly the example's point cards")
    cases.append(b.build())
    b = _example("example.seed000.points-0", "Seed 000: after four tricks seat 0 has taken 2♣ 3♣ 4♣ 5♣ K♣ A♣, "
                 "7♦ 8♦ 9♦ 10♦ A♦ and 2♠ 3♠ 4♠ 5♠ A♠: no hearts and no Q♠, so 0 points.", ["SCORE-POINTS"], "000")
    _scripted(b, 1, ["2C 3C 4C AC", "KC 5C 7D 2S", "AD 8D 9D 10D", "AS 3S 4S 5S"]).check(points=(0, 0, 0, 0))
    if b.game.round.taken[0] != CardSet.parse(ZERO_POINTS).mask:
        raise CatalogueError("example.seed000.points-0: seat 0 has not taken exactly the example's cards")
    cases.append(b.build())
    b = _example("example.seed002.ten-of-clubs", "Seed 002: the 10♣ scores nothing under these rules; seat 1 "
                 "takes it in the first trick and has 0 points.", ["SCORE-POINTS"], "002", preset="seed002")
    cases.append(_scripted(b, 0, ["2C 10C 5C 3C"]).check(points=(0, 0, 0, 0), to_move=1).build())
    b = _example("example.seed000.game-with-moon", "Seed 000's game: round 1 scores 3 17 6 0; in round 2 seat 3 "
                 "shoots the moon, the others score 26 each; totals 29 43 32 0.",
                 ["SCORE-MOON", "SCORE-TOTAL", "SCORE-POINTS", "PASS-CYCLE"], "000", pass_cards=True)
    _first_round(b).check(scores=(3, 17, 6, 0))
    dealt, passes = deal_before_passes(b.rules, moon_deal(b.rules, shooter=3), "right")
    b.deal(dealt, direction="right")
    for seat, cards in enumerate(passes):
        b.pass_cards(seat, cards)
    cases.append(b.play_out(points=(0, 0, 0, 26)).check(totals=(29, 43, 32, 0), moon=3).build())
    cases.append(kalle_and_pelle())   # seed 003, two decks: of two identical cards the first played wins
    return cases



