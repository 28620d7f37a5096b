"""Targeted cases for seed 003's two decks with five or six players (``decks = 2``, ``even_out = "uneven"``).

104 cards, every card twice; the second deck's copies are written with ``#2`` (``JC#2``). The
first deck's 2♣ opens (LEAD-OPEN); of two identical cards in a trick the first played wins
(TRICK-WINNER, seed 003's Kalle and Pelle); each Q♠ scores 13, 52 points a round (SCORE-POINTS);
the moon takes every point card in play and is worth 52 (SCORE-MOON). Five players, dealer 0:
seats 1 to 4 are dealt 21 cards and play two to the first trick, seat 0 is dealt 20.
"""

from __future__ import annotations

import random

from hearts_ref.cardset import QUEEN, CardSet, bits_of
from hearts_ref.deals import complete_deal, deal
from hearts_ref.round import RoundState
from hearts_ref.variants import Rules
from hearts_ref.vectors.builder import CaseBuilder
from hearts_ref.vectors.lines import CatalogueError
from hearts_ref.vectors.model import Case

__all__ = ["decks_cases", "kalle_and_pelle", "FIVE", "SIX", "KALLE_PELLE"]

FIVE = {"players": 5, "pass_cycle": "left-right-none", "even_out": "uneven", "decks": 2, "pass_cards": False}
SIX = FIVE | {"players": 6}
# Seed 003's Kalle (seat 4) and Pelle (seat 1): the first trick is all clubs and seat 4 wins it with the 9♣#2;
# seat 4 (Kalle) leads the J♣, seat 0 plays the 10♣, seat 1 (Pelle) the J♣#2, seats 2 and 3 hold no club.
KALLE_PELLE = {0: "2C 3C 4C 5C 6C 7C 8C 9C 10C QC KC AC 10C#2 QC#2 KC#2 AC#2", 1: "2C#2 3C#2 JC#2",
               2: "4C#2 5C#2", 3: "6C#2 7C#2", 4: "8C#2 9C#2 JC"}
FIRST_TRICK = "2C 2C#2 3C#2 4C#2 5C#2 6C#2 7C#2 8C#2 9C#2"
# SCORE-MOON: seat 0 holds the top two faces of clubs, diamonds and spades and the top four of hearts, both copies.
MOON_HAND = "AC AC#2 KC KC#2 AD AD#2 KD KD#2 AS AS#2 KS KS#2 AH AH#2 KH KH#2 QH QH#2 JH JH#2"
# It leads its clubs, diamonds and spades first; then, holding only hearts, its hearts (LEAD-HEARTS).
MOON_LEADS = "AC#2 KC KC#2 AD AD#2 KD KD#2 AS AS#2 KS KS#2 AH AH#2 KH KH#2 QH QH#2 JH JH#2"


def _case(case_id: str, description: str, rule_ids: list[str], hands: dict[int, str] | None = None,
          players: int = 5) -> CaseBuilder:
    b = CaseBuilder(case_id, description, rule_ids, preset="seed000", **(FIVE if players == 5 else SIX))
    return b.deal(deal(b.rules, seed=f"vector:{case_id}") if hands is None else complete_deal(b.rules, hands))


def moon_deal(rules: Rules, seed: str) -> tuple[CardSet, ...]:
    """A five-player two-deck deal in which seat 0 (the dealer, 20 cards) holds :data:`MOON_HAND`, the rest shuffled."""
    shooter = CardSet.parse(MOON_HAND).mask
    rest = list(bits_of(rules.deck_mask & ~shooter))
    random.Random(seed).shuffle(rest)
    hands, sizes = [shooter], rules.dealt_sizes()
    for seat in range(1, rules.players):
        taken, rest = rest[:sizes[seat]], rest[sizes[seat]:]
        hands.append(sum(1 << c for c in taken))
    return tuple(CardSet.from_mask(h) for h in hands)


def _moon_line(b: CaseBuilder) -> CaseBuilder:
    """Seat 0 plays its A♣ to the first trick, then leads :data:`MOON_LEADS`; the others play their lowest legal card."""
    leads = iter(["AC", *MOON_LEADS.split()])
    while b.game.round is not None:
        state: RoundState = b.game.round
        if state.to_move == 0:
            b.play(next(leads))
        else:
            _lowest(b)
    return b


def _lowest(b: CaseBuilder, plays: int = 1) -> CaseBuilder:
    """The seats to move play their lowest legal card, ``plays`` times."""
    for _ in range(plays):
        b.play(str(next(iter(b.game.round.legal_plays()))))
    return b


def kalle_and_pelle() -> Case:
    """Seed 003's worked example: Kalle plays the J♣, Pelle the J♣ of the other deck later; Kalle wins the trick."""
    b = CaseBuilder("example.seed003.kalle-and-pelle", "Seed 003: Kalle (seat 4) leads the J♣, seat 0 plays the "
                    "10♣, Pelle (seat 1) the J♣#2 of the second deck, and the others discard; Kalle and Pelle have "
                    "the highest cards, but Kalle played his jack first and wins the trick.",
                    ["TRICK-WINNER", "DECK-CARDS"], kind="example", preset="seed000",
                    source="003_55c40f36fe5dfcd1.txt", **FIVE)
    b.deal(complete_deal(b.rules, KALLE_PELLE)).play(FIRST_TRICK).check(to_move=4).play("JC 10C JC#2")
    return _lowest(b, 2).check(to_move=4).build()


def decks_cases() -> list[Case]:
    """DECK-CARDS, DEAL-HANDS, TRICK-ORDER, LEAD-OPEN, TRICK-WINNER, SCORE-POINTS and SCORE-MOON with two decks."""
    cases = [_case("deck-cards.two-decks-five-players", "With decks=2 and 5 players the 104 cards of two decks are "
                   "dealt, every card twice (the second deck's copy written #2): seats 1 to 4, left of dealer 0, "
                   "hold 21 cards and seat 0 20; the 2♣ opens, the first trick holds 9 cards, the round has 20 "
                   "tricks and 52 points.", ["DECK-CARDS", "DEAL-HANDS", "TRICK-ORDER", "SCORE-POINTS"])
             .check(legal="2C").play_out().build()]
    b = _case("deal-hands.two-decks-six-players", "With decks=2 and 6 players seats 1 and 2, left of dealer 0, hold "
              "18 cards and the others 17; the first trick holds 8 cards and the round has 17 tricks.",
              ["DEAL-HANDS", "TRICK-ORDER", "DECK-CARDS"], players=6)
    cases.append(b.play_out().build())
    b = _case("lead-open.two-decks-the-first-decks-two-of-clubs", "With two decks the first deck's 2♣ opens: its "
              "holder, who also holds the 2♣#2, must lead the 2♣; the 2♣#2 is an ordinary club, not an opening "
              "lead.", ["LEAD-OPEN", "DECK-CARDS"], {3: "2C 2C#2 3C"})
    cases.append(b.check(to_move=3, legal="2C").reject_play("2C#2", "LEAD-OPEN").reject_play("3C", "LEAD-OPEN")
                 .play("2C").build())
    b = _case("trick-order.two-decks-nine-card-first-trick", "Five players with two decks: after the 2♣, seats 1, "
              "2, 3 and 4 each play two cards in turn, the second of the first card's suit, a first trick of 9 "
              "cards; a card of the next seat before a seat's second card is rejected.",
              ["TRICK-ORDER", "FIRST-TWO-CARDS"], {0: "2C 3C 4C 5C 6C 7C 8C 9C 10C JC QC KC AC", 1: "2C#2 3C#2",
                                                   2: "4C#2 5C#2", 3: "6C#2 7C#2", 4: "8C#2 9C#2"})
    b.play("2C").check(to_move=1, legal="2C#2 3C#2").play("2C#2").check(to_move=1, legal="3C#2")
    b.reject_play("4C#2", "TRICK-ORDER").play("3C#2").check(to_move=2)
    cases.append(b.play("4C#2 5C#2 6C#2 7C#2 8C#2 9C#2").check(to_move=4).build())
    reversed_copies = {seat: hand.replace("JC#2", "JX").replace("JC", "JC#2").replace("JX", "JC")
                       for seat, hand in KALLE_PELLE.items()}
    b = _case("trick-winner.identical-cards-second-deck-first", "The same trick with the copies swapped: seat 4 "
              "leads the J♣#2 and seat 1 plays the J♣ later; the copy played first wins, whichever deck it comes "
              "from: seat 4 leads again.", ["TRICK-WINNER"], reversed_copies)
    b.play(FIRST_TRICK).play("JC#2 10C JC")
    cases.append(_lowest(b, 2).check(to_move=4).build())
    b = _case("trick-winner.copy-is-no-higher-than-its-face", "The second deck's copy ranks as its face: after the "
              "first trick, seat 4 leads the J♣#2 and seat 0's A♣, played after it, wins.", ["TRICK-WINNER"],
              KALLE_PELLE | {4: "8C#2 9C#2 JC#2", 1: "2C#2 3C#2 JC"})
    b.play(FIRST_TRICK).play("JC#2 AC")
    cases.append(_lowest(b, 3).check(to_move=0).build())
    b = CaseBuilder("score-moon.two-decks-both-queens", "With two decks the moon takes every point card in play, "
                    "both decks' 26 hearts and both Q♠: seat 0 wins every trick and scores 0, every other seat 52.",
                    ["SCORE-MOON", "SCORE-POINTS", "DECK-CARDS"], preset="seed000", **FIVE)
    b.deal(moon_deal(b.rules, "vector:score-moon.two-decks-both-queens"))
    cases.append(_moon_line(b).check(moon=0, points=(52, 0, 0, 0, 0), scores=(0, 52, 52, 52, 52)).build())
    b = CaseBuilder("score-points.two-decks-52", "With two decks each Q♠ scores 13 and each heart 1: the round's "
                    "points sum to 52.", ["SCORE-POINTS"], preset="seed000", **FIVE)
    b.deal(deal(b.rules, seed="vector:score-points.two-decks-52"))
    cases.append(b.play_out(accept=_both_queens_apart).build())
    return cases


def _both_queens_apart(state: RoundState) -> bool:
    """A finished round without a moon in which two seats took a Q♠ each: 13 + 13 of the 52 points."""
    queens = [seat for seat, taken in enumerate(state.taken) if taken & QUEEN]
    if sum(state.score().points) != 52:
        raise CatalogueError("a two-deck round whose points do not sum to 52")
    return state.score().shooter is None and len(queens) == 2
