"""Targeted cases, chapters 01 to 06 of spec/rules: the deal, passing, leading, following, hearts, tricks.

Every case says in its description what it shows. Unless a case is about passing, its rules
set ``pass_cards=false``, so the explicit deal is the hand each seat plays (PASS-CYCLE holds).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from hearts_ref.cards import Card
from hearts_ref.cardset import CardSet
from hearts_ref.deals import deal
from hearts_ref.variants import Rules
from hearts_ref.vectors.builder import CaseBuilder
from hearts_ref.vectors.lines import fill_deal, script_deal
from hearts_ref.vectors.model import Case

__all__ = ["setup_cases", "passing_cases", "leading_cases", "following_cases", "hearts_cases", "trick_cases",
           "play_case"]

TWELVE_HEARTS = "2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH"
ELEVEN_HEARTS = "2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH"
OPENING = "2C 3C 4C AC"   # seat 0 opens, seat 3 wins with the ace and leads the second trick


def play_case(case_id: str, description: str, rule_ids: list[str], *, preset: str = "seed000",
              **changes: Any) -> CaseBuilder:
    """Return a builder for a case about the play: no passing unless the changes say otherwise."""
    return CaseBuilder(case_id, description, rule_ids, preset=preset, **({"pass_cards": False} | changes))


def _scripted(b: CaseBuilder, tricks: list[str], *, opener: int = 0, extra: dict[int, str] | None = None,
              voids: dict[int, str] | None = None) -> CaseBuilder:
    return b.deal(script_deal(b.rules, opener, tricks, extra=extra, voids=voids)).play(*tricks)


def setup_cases() -> list[Case]:
    """PLAYERS-COUNT, DECK-CARDS, DECK-REMOVED, DEAL-HANDS, DEAL-DEALER."""
    cases = []
    for players, opener in ((3, "3C"), (6, "4C")):
        rules = Rules(players=players, pass_cycle="left-right-none")
        removed = " ".join(card.glyph for card in rules.removed_cards)
        b = play_case(f"players-count.{players}-players", f"With {players} players the deck loses {removed}; each "
                      f"seat holds {rules.hand_size} cards, {Card.parse(opener).glyph} opens and the round has "
                      f"{rules.hand_size} tricks.",
                      ["PLAYERS-COUNT", "DECK-REMOVED", "DEAL-HANDS"], preset="seed002", players=players,
                      pass_cycle="left-right-none")
        b.deal(deal(b.rules, seed=f"vector:{players}-players")).check(legal=opener).play_out()
        cases.append(b.build())
    b = play_case("deck-cards.ace-high", "Ranks run from the two up to the ace: the ace of clubs beats the king "
                  "and the ten, then the jack of diamonds beats the ten and the nine.", ["DECK-CARDS", "TRICK-WINNER"])
    _scripted(b, ["2C 10C AC KC", "9D 10D 5D JD"]).check(to_move=1)
    cases.append(b.build())
    rules3 = Rules(players=3, pass_cycle="left-right-none", pass_cards=False)
    b = play_case("deck-removed.three-of-clubs-opens", "With 3 players the 2♣ is out of the deck: the holder of "
                  "the 3♣ must open with it, and opening with the 4♣ is rejected.", ["DECK-REMOVED", "LEAD-OPEN"],
                  preset="seed002", players=3, pass_cycle="left-right-none")
    b.deal(fill_deal(rules3, {1: "3C 4C KH"})).check(to_move=1).reject_play("4C", "LEAD-OPEN").play("3C")
    cases.append(b.build())
    b = play_case("deck-removed.two-of-clubs-dealt-to-three", "A 3-player deal that includes the 2♣ (and leaves "
                  "out the 3♣) is refused.", ["DECK-REMOVED", "DEAL-HANDS"], preset="seed002", players=3,
                  pass_cycle="left-right-none")
    good = fill_deal(rules3, {0: "3C"})
    b.deal_rejected(((good[0] - CardSet.parse("3C")) | CardSet.parse("2C"), good[1], good[2]), "DECK-REMOVED")
    cases.append(b.build())
    for players, removed, kept in ((5, "2D", "3D"), (6, "3D", "4D")):   # a removed card for one still in play
        rules_n = Rules(players=players, pass_cycle="left-right-none", pass_cards=False)
        b = play_case(f"deck-removed.{players}-players-removed-card-dealt", f"A {players}-player deal that includes "
                      f"the removed {removed} (and leaves out the {kept}) is refused.", ["DECK-REMOVED", "DEAL-HANDS"],
                      preset="seed002", players=players, pass_cycle="left-right-none")
        good = fill_deal(rules_n, {0: kept})
        b.deal_rejected(((good[0] - CardSet.parse(kept)) | CardSet.parse(removed), *good[1:]), "DECK-REMOVED")
        cases.append(b.build())
    rules6 = Rules(players=6, pass_cycle="left-right-none", pass_cards=False)
    b = play_case("deck-removed.six-players-four-of-clubs-opens", "With 6 players 2♣ 2♦ 3♣ 3♦ are out: each seat "
                  "holds 8 cards and the 4♣ opens.", ["DECK-REMOVED", "PLAYERS-COUNT", "LEAD-OPEN"], preset="seed002",
                  players=6, pass_cycle="left-right-none")
    b.deal(fill_deal(rules6, {4: "4C 5C"})).check(to_move=4, legal="4C").reject_play("5C", "LEAD-OPEN").play("4C")
    cases.append(b.build())
    full = fill_deal(Rules(), {})
    b = play_case("deal-hands.short-hand-rejected", "A deal in which seat 0 holds 12 cards and seat 1 holds 14 is "
                  "refused: hands must be equal.", ["DEAL-HANDS"])
    moved = CardSet([next(iter(full[0]))])
    cases.append(b.deal_rejected((full[0] - moved, full[1] | moved, full[2], full[3]), "DEAL-HANDS").build())
    b = play_case("deal-hands.card-dealt-twice-rejected", "A deal in which one card is in two hands (and another "
                  "card in none) is refused.", ["DEAL-HANDS", "DECK-CARDS"])
    first, last = next(iter(full[0])), list(full[1])[-1]
    cases.append(b.deal_rejected((full[0], (full[1] - CardSet([last])) | CardSet([first]), full[2], full[3]),
                                 "DEAL-HANDS").build())
    b = CaseBuilder("deal-dealer.four-rounds", "Four rounds dealt by seats 0, 1, 2 and 3 in turn, passing left, "
                    "right, across and not at all, as the cycle says.", ["DEAL-DEALER", "PASS-CYCLE", "SCORE-TOTAL"])
    for number in range(4):
        b.deal(deal(b.rules, seed=f"vector:dealer:{number}", dealer=number))
        if number < 3:
            b.random_passes()
        b.play_out()
    cases.append(b.check(game_over=False).build())
    return cases


def passing_cases() -> list[Case]:
    """PASS-COUNT, PASS-SIMULTANEOUS, PASS-CYCLE."""
    rules = Rules()
    hands = fill_deal(rules, {0: "2C QS AH", 1: "3C 4C 5C 6C"})
    b = CaseBuilder("pass-count.exactly-three-any-cards", "Each seat passes exactly three of its own cards, and "
                    "any three may go, the 2♣ and Q♠ too; two cards, four cards or a card not held are rejected.",
                    ["PASS-COUNT", "PASS-CYCLE"])
    b.deal(hands, direction="left").pass_cards(0, "2C QS AH")
    b.reject_pass(1, "3C 4C", "PASS-COUNT").reject_pass(1, "3C 4C 5C 6C", "PASS-COUNT")
    b.reject_pass(1, "3C 4C 2C", "PASS-COUNT")
    for seat in (1, 2, 3):
        b.pass_cards(seat, CardSet(list(hands[seat])[-3:]))
    cases = [b.check(to_move=1, legal="2C").play("2C").build()]
    b = CaseBuilder("pass-simultaneous.cards-arrive-after-all-chose", "Seats choose in any order; a card passed "
                    "to seat 1 cannot be passed on before everyone has chosen, and no seat chooses twice.",
                    ["PASS-SIMULTANEOUS", "PASS-COUNT"])
    b.deal(hands, direction="left").pass_cards(0, "2C QS AH").reject_pass(1, "2C 3C 4C", "PASS-COUNT")
    b.reject_pass(0, CardSet(list(hands[0])[-3:]), "PASS-SIMULTANEOUS")
    for seat in (3, 2, 1):
        b.pass_cards(seat, CardSet(list(hands[seat])[:3]))
    cases.append(b.check(to_move=1, legal="2C").build())
    for direction, receiver in (("left", 1), ("right", 3), ("across", 2)):
        b = CaseBuilder(f"pass-cycle.{direction}", f"Passing {direction}, the 2♣ passed by seat 0 reaches seat "
                        f"{receiver}, who then opens with it.", ["PASS-CYCLE", "LEAD-OPEN"])
        b.deal(hands, direction=direction).pass_cards(0, "2C QS AH")
        for seat in (1, 2, 3):
            b.pass_cards(seat, CardSet(list(hands[seat])[-3:]))
        cases.append(b.check(to_move=receiver, legal="2C").play("2C").build())
    b = CaseBuilder("pass-cycle.no-pass-round", "In a round without passing (the fourth of the cycle) a pass is "
                    "rejected and the holder of the 2♣ opens at once.", ["PASS-CYCLE"])
    b.deal(hands, direction="none").reject_pass(0, "2C QS AH", "PASS-CYCLE")
    cases.append(b.check(to_move=0, legal="2C").play("2C").build())
    return cases


def leading_cases() -> list[Case]:
    """LEAD-OPEN, LEAD-WINNER, LEAD-HEARTS."""
    rules = Rules(pass_cards=False)
    cases = []
    b = play_case("lead-open.two-of-clubs-only", "The holder of the 2♣ opens the first trick with it; any other "
                  "card, even another club, is rejected.", ["LEAD-OPEN"])
    b.deal(fill_deal(rules, {2: "2C 5C AH"})).check(to_move=2, legal="2C")
    cases.append(b.reject_play("5C", "LEAD-OPEN").reject_play("AH", "LEAD-OPEN").play("2C").build())
    b = play_case("lead-open.any-club", "With can_lead_any_club the holder of the 2♣ may open with any club, but "
                  "not with another suit.", ["LEAD-OPEN"], can_lead_any_club=True)
    b.deal(fill_deal(b.rules, {2: "2C 5C KC 9D"}, voids={2: "C"}))
    cases.append(b.check(legal="2C 5C KC").reject_play("9D", "LEAD-OPEN").play("KC").build())
    b = play_case("lead-winner.winner-leads", "The winner of each trick leads the next: seat 2 after the first "
                  "trick, then seat 3.", ["LEAD-WINNER", "TRICK-WINNER"])
    b.deal(script_deal(b.rules, 0, ["2C 5C KC 3C", "4D 9D 2D 3D"]))
    cases.append(b.play("2C 5C KC 3C").check(to_move=2).play("4D 9D 2D 3D").check(to_move=3).build())
    b = play_case("lead-hearts.unbroken-heart-lead-rejected", "Before hearts are broken a leader who holds other "
                  "cards may not lead a heart.", ["LEAD-HEARTS"])
    _scripted(b, [OPENING], extra={3: "AH 5D"}).check(hearts_broken=False)
    cases.append(b.reject_play("AH", "LEAD-HEARTS").play("5D").build())
    b = play_case("lead-hearts.broken-heart-lead-allowed", "Once a heart has been discarded, hearts are broken and "
                  "the next leader may lead one.", ["LEAD-HEARTS", "BREAK-DISCARD"])
    _scripted(b, [OPENING, "KD 2D 5H 3D"], extra={3: "AH"}).check(hearts_broken=True, to_move=3)
    cases.append(b.play("AH").build())
    b = play_case("lead-hearts.queen-and-hearts-must-lead-queen", "A leader holding only the Q♠ and hearts, hearts "
                  "unbroken, must lead the Q♠.", ["LEAD-HEARTS", "BREAK-QUEEN"])
    _scripted(b, [OPENING], extra={3: f"QS {ELEVEN_HEARTS}"}).check(legal="QS")
    cases.append(b.reject_play("2H", "LEAD-HEARTS").play("QS").build())
    b = play_case("lead-hearts.queen-and-hearts-may-lead-heart", "With can_lead_hearts_instead_of_qs a leader "
                  "holding only the Q♠ and hearts may lead a heart before hearts are broken.", ["LEAD-HEARTS"],
                  can_lead_hearts_instead_of_qs=True)
    _scripted(b, [OPENING], extra={3: f"QS {ELEVEN_HEARTS}"}).check(legal=f"QS {ELEVEN_HEARTS}")
    cases.append(b.play("2H").build())
    b = play_case("lead-hearts.no-need-to-break", "With must_break_hearts=false a heart may be led on the second "
                  "trick by a leader who holds other suits.", ["LEAD-HEARTS"], must_break_hearts=False)
    _scripted(b, [OPENING], extra={3: "AH 5D"})
    cases.append(b.play("AH").build())
    return cases


def following_cases() -> list[Case]:
    """FOLLOW-SUIT, FOLLOW-VOID, FIRST-NO-POINTS, FIRST-EXCEPTION."""
    rules = Rules(pass_cards=False)
    cases = []
    b = play_case("follow-suit.any-card-of-the-suit", "A player holding the suit led must play a card of it, of "
                  "any rank; a card of another suit is rejected.", ["FOLLOW-SUIT"])
    _scripted(b, [OPENING], extra={0: "3D KD 8S", 3: "9D"}).play("9D")
    cases.append(b.reject_play("8S", "FOLLOW-SUIT").play("KD").build())
    b = play_case("follow-void.any-card-after-first-trick", "After the first trick a player void in the suit led "
                  "may play any card, the Q♠ and hearts included.", ["FOLLOW-VOID"])
    _scripted(b, [OPENING], extra={0: "QS AH", 3: "KC"}, voids={0: "C"}).play("KC").check(to_move=0, legal_is_hand=True)
    cases.append(b.play("QS").build())
    b = play_case("follow-void.no-heart-discard-before-broken", "Under seed 003's literal rule a void player may "
                  "not discard a heart before hearts are broken (by a heart led).", ["FOLLOW-VOID"], preset="seed003")
    _scripted(b, [OPENING], extra={0: "QS AH 5D", 3: "KC"}, voids={0: "C"}).play("KC").check(to_move=0)
    cases.append(b.reject_play("AH", "FOLLOW-VOID").play("QS").build())
    b = play_case("first-no-points.queen-and-hearts-rejected", "On the first trick a void player who holds other "
                  "cards may not play the Q♠ or a heart.", ["FIRST-NO-POINTS"])
    b.deal(fill_deal(rules, {0: "2C", 1: "QS AH KH 5D"}, voids={1: "C"})).play("2C")
    cases.append(b.reject_play("QS", "FIRST-NO-POINTS").reject_play("AH", "FIRST-NO-POINTS").play("5D").build())
    b = play_case("first-no-points.allowed", "With first_trick_points=allowed the Q♠ may be played on the first "
                  "trick by a void player; it does not break hearts.", ["FIRST-NO-POINTS", "BREAK-QUEEN"],
                  first_trick_points="allowed")
    b.deal(fill_deal(b.rules, {0: "2C", 1: "QS AH KH 5D"}, voids={1: "C"})).play("2C")
    cases.append(b.play("QS").check(hearts_broken=False).build())
    points_only = {0: "2C", 1: f"QS {TWELVE_HEARTS}"}
    b = play_case("first-exception.only-point-cards", "A void player holding only point cards may play one on the "
                  "first trick; the Q♠ played there does not break hearts.", ["FIRST-EXCEPTION", "BREAK-QUEEN"])
    b.deal(fill_deal(rules, points_only)).play("2C").check(legal=f"QS {TWELVE_HEARTS}")
    cases.append(b.play("QS").check(hearts_broken=False).build())
    b = play_case("first-no-points.no-exception-deadlock", "Under seed 001's rule (no exception) a void player "
                  "holding only the Q♠ and twelve hearts has no legal card on the first trick.",
                  ["FIRST-NO-POINTS", "FIRST-EXCEPTION"], preset="seed001")
    b.deal(fill_deal(b.rules, points_only)).play("2C").check(legal="")
    cases.append(b.reject_play("QS", "FIRST-NO-POINTS").reject_play("2H", "FIRST-NO-POINTS").build())
    return cases


def hearts_cases() -> list[Case]:
    """BREAK-DISCARD, BREAK-QUEEN."""
    cases = []
    only_hearts = {3: TWELVE_HEARTS}
    variants: list[tuple[str, str, dict[str, Any], bool]] = [
        ("break-discard.led-heart-does-not-break", "A heart led by a leader holding only hearts is not a discard: "
         "hearts stay unbroken.", {}, False),
        ("break-discard.any-heart-breaks", "With hearts_broken_by=any-heart (seed 004) the heart led by a leader "
         "holding only hearts breaks hearts.", {"hearts_broken_by": "any-heart"}, True),
    ]
    for case_id, text, changes, broken in variants:
        b = play_case(case_id, text, ["BREAK-DISCARD", "LEAD-HEARTS"], **changes)
        _scripted(b, [OPENING], extra=only_hearts).check(legal=TWELVE_HEARTS)
        cases.append(b.play("2H").check(hearts_broken=broken).build())
    b = play_case("break-discard.heart-discard-breaks", "A heart discarded on a trick of another suit breaks "
                  "hearts, for the rest of the round.", ["BREAK-DISCARD"])
    b.deal(script_deal(b.rules, 0, [OPENING, "KD 2D 3D 5H"])).play(OPENING, "KD 2D 3D").check(hearts_broken=False)
    cases.append(b.play("5H").check(hearts_broken=True).play_out().build())
    b = play_case("break-discard.discard-does-not-break-by-lead", "With hearts_broken_by=lead only a heart led "
                  "breaks hearts: a heart discarded on a trick of another suit leaves them unbroken.", ["BREAK-DISCARD"],
                  hearts_broken_by="lead")
    b.deal(script_deal(b.rules, 0, [OPENING, "KD 2D 3D 5H"])).play(OPENING, "KD 2D 3D", "5H")
    cases.append(b.check(hearts_broken=False).build())
    b = play_case("break-discard.heart-led-breaks", "Under seed 003's literal rules a heart may be led on the "
                  "second trick, hearts unbroken, and leading it breaks hearts.", ["BREAK-DISCARD", "LEAD-HEARTS"],
                  preset="seed003")
    _scripted(b, [OPENING], extra={3: "AH KH 5D"}).check(hearts_broken=False, legal_is_hand=True)
    cases.append(b.play("KH").check(hearts_broken=True).build())
    for case_id, text, changes, broken in (
            ("break-queen.queen-does-not-break", "The Q♠ discarded on a diamond trick does not break hearts: "
             "the next leader still may not lead a heart.", {}, False),
            ("break-queen.queen-breaks", "With qs_breaks_hearts (OpenSpiel's default) the Q♠ discarded breaks "
             "hearts, and the next leader may lead a heart.", {"qs_breaks_hearts": True}, True)):
        b = play_case(case_id, text, ["BREAK-QUEEN", "LEAD-HEARTS"], **changes)
        _scripted(b, [OPENING, "KD QS 2D 3D"], extra={3: "AH 5S"}).check(hearts_broken=broken, to_move=3)
        (b.play("AH") if broken else b.reject_play("AH", "LEAD-HEARTS").play("5S"))
        cases.append(b.build())
    return cases


def trick_cases() -> list[Case]:
    """TRICK-ORDER, TRICK-WINNER."""
    rules = Rules(pass_cards=False)
    b = play_case("trick-order.clockwise", "Play goes clockwise: after seat 0 opens, seat 1 plays; a card of seat "
                  "2, or the 2♣ played again, is rejected.", ["TRICK-ORDER"])
    b.deal(fill_deal(rules, {0: "2C", 2: "9C"})).play("2C").check(to_move=1)
    cases = [b.reject_play("9C", "TRICK-ORDER").reject_play("2C", "TRICK-ORDER").play_out().build()]
    b = play_case("trick-winner.off-suit-never-wins", "The highest card of the suit led wins: the A♠ discarded on "
                  "a diamond trick does not, the 5♦ does.", ["TRICK-WINNER"])
    cases.append(_scripted(b, [OPENING, "3D AS 5D 2D"]).check(to_move=1).build())
    return cases


CHAPTERS: list[Callable[[], list[Case]]] = [setup_cases, passing_cases, leading_cases, following_cases,
                                            hearts_cases, trick_cases]
