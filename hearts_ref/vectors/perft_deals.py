"""The perft deals: fixed deals chosen to stress the rules, and their counts from the reference.

Each deal names the rules it stresses: void suits on the first trick, hands of only hearts,
the Q♠ and the first trick, hands of only point cards, the opening lead, 3 and 5 players, 3 players with uneven hands,
5 players with two decks, OpenSpiel's rules. ``DEPTHS`` says how deep the committed counts go.
"""

from __future__ import annotations

from hearts_ref.deals import deal
from hearts_ref.perft import PerftDeal, perft_counts
from hearts_ref.variants import Rules
from hearts_ref.vectors.lines import fill_deal

__all__ = ["perft_deals", "counted", "DEPTHS"]

# How deep the committed counts go: as deep as the reference counts in well under a second.
DEPTHS = {"shuffled": 10, "void-in-clubs": 8, "all-hearts": 8, "points-only": 8, "queen-timing": 9, "any-club": 10,
          "openspiel": 10, "three-players": 8, "five-players": 11,
          "three-players-uneven": 8, "five-players-two-decks": 10}


def _deal(name: str, description: str, rule_ids: list[str], rules: Rules, hands, preset: str = "seed000") -> PerftDeal:
    return PerftDeal(name, description, tuple(rule_ids), preset, rules, tuple(hands))


def perft_deals() -> list[PerftDeal]:
    """Return the deals, without counts."""
    rules = Rules()
    openspiel = Rules.preset("openspiel")
    three = Rules.preset("seed002", players=3, pass_cycle="left-right-none")
    five = Rules.preset("seed002", players=5, pass_cycle="left-right-none")
    uneven = Rules(players=3, pass_cycle="left-right-none", even_out="uneven")
    two_decks = Rules(players=5, pass_cycle="left-right-none", even_out="uneven", decks=2)
    return [
        _deal("shuffled", "An ordinary shuffled deal under the default rules.",
              ["LEAD-OPEN", "FOLLOW-SUIT", "TRICK-WINNER", "LEAD-WINNER"], rules, deal(rules, seed="perft:shuffled")),
        _deal("void-in-clubs", "Seats 1 and 3 are void in clubs and hold the Q♠ and hearts: on the first trick they "
              "discard, but no point card.", ["FOLLOW-VOID", "FIRST-NO-POINTS"], rules,
              fill_deal(rules, {0: "2C", 1: "QS AH KH", 3: "QH JH"}, voids={1: "C", 3: "C"})),
        _deal("all-hearts", "Seat 2 holds all thirteen hearts: it may play any of them on the first trick, and "
              "may lead them before hearts are broken.", ["FIRST-EXCEPTION", "LEAD-HEARTS", "BREAK-DISCARD"], rules,
              fill_deal(rules, {0: "2C", 2: "2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH AH"})),
        _deal("points-only", "Seat 1 holds the Q♠ and twelve hearts, void in clubs: the first-trick exception "
              "lets it play any card.", ["FIRST-EXCEPTION", "FIRST-NO-POINTS", "BREAK-QUEEN"], rules,
              fill_deal(rules, {0: "2C", 1: "QS 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH"})),
        _deal("queen-timing", "Seat 3 holds the Q♠ guarded only by the A♠, void in clubs and diamonds: the queen "
              "may not go on the first trick but may on the second.", ["FIRST-NO-POINTS", "FOLLOW-VOID",
              "BREAK-QUEEN"], rules, fill_deal(rules, {0: "2C", 3: "QS AS"}, voids={3: "CDS"})),
        _deal("any-club", "With can_lead_any_club the opener may lead any of its clubs: the first level has one "
              "count per club.", ["LEAD-OPEN"], Rules(can_lead_any_club=True),
              fill_deal(rules, {2: "2C 6C 9C QC AC"})),
        _deal("openspiel", "A shuffled deal under OpenSpiel's rules (any heart and the Q♠ break hearts): the "
              "deal of the benchmark against OpenSpiel.", ["BREAK-DISCARD", "BREAK-QUEEN", "LEAD-HEARTS"],
              openspiel, deal(openspiel, seed="perft:openspiel"), preset="openspiel"),
        _deal("three-players", "Three players, 17 cards each, the 3♣ opens.", ["PLAYERS-COUNT", "DECK-REMOVED",
              "LEAD-OPEN"], three, deal(three, seed="perft:three"), preset="seed002"),
        _deal("five-players", "Five players, 10 cards each, the 3♣ opens.", ["PLAYERS-COUNT", "DECK-REMOVED",
              "LEAD-OPEN"], five, deal(five, seed="perft:five"), preset="seed002"),
        _deal("three-players-uneven", "Three players with seed 003's uneven deal: 18, 17 and 17 cards, the 2♣ "
              "opens, and seat 1 plays two cards to the first trick.", ["DEAL-HANDS", "TRICK-ORDER",
              "FIRST-TWO-CARDS"], uneven, deal(uneven, seed="perft:three-uneven")),
        _deal("five-players-two-decks", "Five players with seed 003's two decks: 104 cards, every card twice, 21 "
              "to seats 1 to 4 and 20 to the dealer; the first deck's 2♣ opens, the first trick holds 9 cards, and "
              "of two identical clubs the first played wins.", ["DECK-CARDS", "DEAL-HANDS", "TRICK-ORDER",
              "TRICK-WINNER", "LEAD-OPEN"], two_decks, deal(two_decks, seed="perft:five-two-decks")),
    ]


def counted(deal_: PerftDeal, depth: int | None = None) -> PerftDeal:
    """Return ``deal_`` with its counts for depths 1..``depth`` and the per-first-play counts at ``depth``."""
    depth = depth or DEPTHS[deal_.name]
    state = deal_.start()
    below = {card: perft_counts(state.play(card), depth - 1) for card in state.legal_plays()}
    counts = (len(below),) + tuple(sum(c[level] for c in below.values()) for level in range(depth - 1))
    per_play = {str(card): c[-1] if c else 1 for card, c in below.items()}
    return PerftDeal(deal_.name, deal_.description, deal_.rule_ids, deal_.preset, deal_.rules, deal_.hands,
                     counts, per_play)
