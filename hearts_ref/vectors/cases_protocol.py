"""Targeted cases for the points an engine author asks about (``spec/protocol/README.md``): which rule
refuses what, when the rules give two.

- a deal while a round is still being played is refused by DEAL-HANDS, and a deal after the game
  is over by END-THRESHOLD;
- a heart discarded on the first trick under seed 003's rules, forbidden both by FIRST-NO-POINTS
  and FOLLOW-VOID, is refused by FIRST-NO-POINTS: the rules are asked in the order they are written.

Each case is filed, like every targeted case, by the chapter of its first rule ID.
"""

from __future__ import annotations

import dataclasses

from hearts_ref.deals import deal
from hearts_ref.vectors.cases_play import play_case
from hearts_ref.vectors.lines import fill_deal
from hearts_ref.vectors.model import Case, RoundCase

__all__ = ["protocol_cases"]


def _deal_mid_round() -> Case:
    """DEAL-HANDS: the next deal arrives while the first trick is being played."""
    b = play_case("deal-hands.deal-during-a-round-rejected", "A deal sent while a round is still being played (the "
                  "first trick under way) is refused by DEAL-HANDS, and the round goes on.", ["DEAL-HANDS"])
    hands = fill_deal(b.rules, {0: "2C"})
    case = b.deal(hands).play("2C").check(to_move=1).build()
    # The rejected deal comes after the unfinished round: the builder files rounds only once they are finished.
    b.deal_rejected(hands, "DEAL-HANDS")
    rejected = RoundCase(case.rounds[0].dealer, "none", hands, (), "DEAL-HANDS")
    return dataclasses.replace(case, rounds=case.rounds + (rejected,))


def protocol_cases() -> list[Case]:
    """DEAL-HANDS (mid-round), END-THRESHOLD (after the end), FIRST-NO-POINTS before FOLLOW-VOID."""
    cases = [_deal_mid_round()]
    b = play_case("end-threshold.no-deal-after-the-end", "Once the game is over (here after its one round, "
                  "max_rounds = 1) a further deal is refused by END-THRESHOLD.", ["END-THRESHOLD"], max_rounds=1)
    b.deal(deal(b.rules, seed="vector:after-the-end")).play_out().check(game_over=True)
    cases.append(b.deal_rejected(deal(b.rules, seed="vector:after-the-end:2"), "END-THRESHOLD").build())
    b = play_case("first-no-points.before-follow-void", "Under seed 003's rules a heart discarded on the first trick "
                  "by a player who holds other cards breaks two rules, FIRST-NO-POINTS and FOLLOW-VOID; the "
                  "refusal names FIRST-NO-POINTS, the rule written first.", ["FIRST-NO-POINTS", "FOLLOW-VOID"],
                  preset="seed003")
    b.deal(fill_deal(b.rules, {0: "2C", 1: "AH 5D"}, voids={1: "C"}))
    cases.append(b.play("2C").reject_play("AH", "FIRST-NO-POINTS").play("5D").build())
    return cases
