"""Targeted cases for seed 003's uneven deal with three players (``even_out = "uneven"``).

The player to the dealer's left (seat 1 with dealer 0) is dealt 18 cards and plays two to the
first trick, one after the other (DEAL-HANDS, TRICK-ORDER, FIRST-TWO-CARDS, TRICK-WINNER).
"""

from __future__ import annotations

from hearts_ref.deals import complete_deal, deal
from hearts_ref.vectors.builder import CaseBuilder
from hearts_ref.vectors.model import Case

__all__ = ["uneven_cases"]

THREE = {"players": 3, "pass_cycle": "left-right-none", "even_out": "uneven", "pass_cards": False}
HEARTS = "2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH AH"


def _case(case_id: str, description: str, rule_ids: list[str], hands: dict[int, str] | None = None) -> CaseBuilder:
    b = CaseBuilder(case_id, description, rule_ids, preset="seed000", **THREE)
    return b.deal(deal(b.rules, seed=f"vector:{case_id}") if hands is None else complete_deal(b.rules, hands))


def uneven_cases() -> list[Case]:
    """DEAL-HANDS, TRICK-ORDER, FIRST-TWO-CARDS, TRICK-WINNER with uneven hands."""
    cases = [_case("deal-hands.uneven-three-players", "With even_out=uneven and 3 players no card is removed: "
                   "seat 1, left of the dealer, is dealt 18 cards, the others 17; the 2♣ opens, the first trick "
                   "holds 4 cards and the round has 17 tricks.", ["DEAL-HANDS", "DECK-REMOVED", "TRICK-ORDER"])
             .check(legal="2C").play_out().build()]
    clubs = {0: "2C 3C 4C 5C 6C 7C 9C 10C JC", 1: "8C QC", 2: "KC AC"}
    b = _case("trick-order.two-cards-one-after-the-other", "The seat with the extra card plays its two cards at "
              "its turn, one after the other: after its 8♣ it plays again, its other club, and only then seat 2; "
              "a card of seat 2 before that is rejected.", ["TRICK-ORDER", "FIRST-TWO-CARDS"], clubs)
    b.play("2C").check(to_move=1, legal="8C QC").play("8C").check(to_move=1, legal="QC")
    cases.append(b.reject_play("KC", "TRICK-ORDER").play("QC").check(to_move=2).play("KC").check(to_move=2).build())
    b = _case("first-two-cards.void-discards-one-suit", "A void seat with the extra card discards two cards of one "
              "suit when it may: after the 5♦, the 8♠ is rejected and a diamond is due; no point card on the first "
              "trick.", ["FIRST-TWO-CARDS", "FIRST-NO-POINTS"], {0: "2C 3C 4C 5C 6C 7C 8C", 1: f"5D KD AD 8S QS {HEARTS}"})
    b.play("2C").check(to_move=1, legal="5D KD AD 8S").play("5D").check(to_move=1, legal="KD AD")
    cases.append(b.reject_play("8S", "FIRST-TWO-CARDS").play("KD").build())
    b = _case("first-two-cards.no-allowed-card-of-the-suit", "After the 8♠ the seat's only other spade is the Q♠, "
              "which the first trick forbids: the second card may then be any card allowed there.",
              ["FIRST-TWO-CARDS", "FIRST-NO-POINTS"], {0: "2C 3C 4C 5C 6C 7C 8C", 1: f"5D KD AD 8S QS {HEARTS}"})
    cases.append(b.play("2C", "8S").check(to_move=1, legal="5D KD AD").reject_play("QS", "FIRST-NO-POINTS")
                 .play("AD").build())
    b = _case("first-two-cards.one-club-follows-first", "A seat with the extra card and one club must follow "
              "with it (FOLLOW-SUIT comes first); its second card is then any card the first trick allows.",
              ["FIRST-TWO-CARDS", "FOLLOW-SUIT"], {0: "2C 3C 4C 5C 6C 7C 8C", 1: "9C 5D KD AD 8S QS 2H 3H 4H 5H 6H "
                                                   "7H 8H 9H 10H JH QH KH"})
    b.play("2C").check(to_move=1, legal="9C").reject_play("5D", "FOLLOW-SUIT").play("9C")
    cases.append(b.check(to_move=1, legal="5D KD AD 8S").play("5D").build())
    b = _case("trick-winner.either-of-two-cards", "Either of the two cards of the seat with the extra card may win "
              "the first trick: its A♣ beats the Q♣ played after it, and it leads the second trick.",
              ["TRICK-WINNER", "TRICK-ORDER"], {0: "2C 3C 4C 5C 6C 7C 8C 9C 10C", 1: "KC AC", 2: "JC QC"})
    cases.append(b.play("2C", "KC", "AC", "QC").check(to_move=1).build())
    return cases
