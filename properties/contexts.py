"""The per-context proofs: each invariant as claims about the engine's rule functions on symbolic cards.

A play depends on a small concrete *context* (leading or following, the suit led, first
trick, hearts broken) and on the hand. For each context a :class:`Situation` says what
the hand can be (how many cards, which it must hold or cannot hold), and the claims
run the engine's own rule code — :func:`hearts_ref.legality.legal_plays`,
:func:`~hearts_ref.legality.breaks_hearts`, :func:`~hearts_ref.round.trick_winner`,
:func:`~hearts_ref.round.exchange`, :func:`~hearts_ref.scoring.score_terms` — on the z3
card-set algebra, with the hand (or the trick, or the taken cards) symbolic.

The expected values (26 points, the highest card wins …) are written here, from the
rules' text, independently of the engine code they check.

>>> from hearts_ref import Rules
>>> [s.describe() for s in situations(Rules())][:2]
['leading the first trick (13 cards, holding 2♣)', 'following ♣ on the first trick, hearts unbroken (13 cards)']
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, NamedTuple

import z3

from hearts_ref.cards import CARDS, Suit
from hearts_ref.cardset import HEARTS, POINT_CARDS, QUEEN, SUIT_MASKS
from hearts_ref.legality import Context, breaks_hearts, legal_plays, opening_leader
from hearts_ref.round import PASS_SIZE, exchange, trick_winner
from hearts_ref.scoring import MOON_POINTS, NO_TRICKS_BONUS, score_terms
from hearts_ref.symbolic import SYMBOLIC, SymbolicCardSet
from hearts_ref.variants import PASS_DIRECTIONS, Rules
from properties.solving import (
    as_z3, card_variables, count_split, count_union, exactly_one_place, one_place_count, same_cards, subset,
)

__all__ = ["Situation", "situations", "hand_claims", "Claim", "CLAIMS", "claims_for", "LegalityFunction",
           "expected_score_total"]

LegalityFunction = Callable[..., Any]
S = SYMBOLIC


class Situation(NamedTuple):
    """A play context and what it allows of the hand of the player to move."""

    ctx: Context
    min_cards: int
    max_cards: int
    holds: int = 0     # cards the hand must hold
    lacks: int = 0     # cards the hand cannot hold

    def describe(self) -> str:
        """The situation in words: ``following ♣ on the first trick, hearts unbroken (13 cards)``."""
        ctx = self.ctx
        what = "leading" if ctx.leading else f"following {Suit(ctx.led_suit).glyph}"
        when = " the first trick" if ctx.first_trick and ctx.leading else (
            " on the first trick" if ctx.first_trick else (" a later trick" if ctx.leading else " on a later trick"))
        broken = "" if ctx.first_trick and ctx.leading else (", hearts broken" if ctx.hearts_broken
                                                              else ", hearts unbroken")
        size = (f"{self.min_cards} cards" if self.min_cards == self.max_cards
                else f"{self.min_cards}–{self.max_cards} cards")
        holding = f", holding {' '.join(CARDS[i].glyph for i in range(52) if self.holds >> i & 1)}" \
            if self.holds else ""
        return f"{what}{when}{broken} ({size}{holding})"


def situations(rules: Rules) -> tuple[Situation, ...]:
    """Return every context a play can have under ``rules``, with the hands it allows.

    LEAD-OPEN: the first trick is led by the holder of the lowest club, with a club, so
    first-trick followers follow clubs and do not hold the lowest club; every hand then
    holds all its cards. Later hands hold 1 to ``hand_size`` − 1 cards.
    """
    size, low = rules.hand_size, 1 << rules.lowest_club.index
    found = [Situation(Context(True, None, True, False), size, size, holds=low)]
    found += [Situation(Context(False, Suit.CLUBS, True, broken), size, size, lacks=low) for broken in (False, True)]
    for broken in (False, True):
        found.append(Situation(Context(True, None, False, broken), 1, size - 1))
        found += [Situation(Context(False, suit, False, broken), 1, size - 1) for suit in Suit]
    return tuple(found)


def hand_claims(hand: SymbolicCardSet, situation: Situation) -> list[Any]:
    """The hypotheses that ``hand`` is a hand ``situation`` allows."""
    count = hand.count()
    claims = [count >= situation.min_cards, count <= situation.max_cards]
    if situation.holds:
        claims.append(subset(situation.holds, hand))
    if situation.lacks:
        claims.append(S.is_empty(hand & situation.lacks))
    return claims


@dataclass(frozen=True)
class Claim:
    """One claim of a per-context proof: ``hypotheses`` ⇒ ``goal``, with what to show of a refutation."""

    label: str
    hypotheses: tuple[Any, ...]
    goal: Any
    shown: tuple[tuple[str, SymbolicCardSet], ...] = ()
    situation: Situation | None = None      # set for claims that a hand in this situation can play
    hand: SymbolicCardSet | None = None


# Legality ------------------------------------------------------------------------------

def _can_play(rules: Rules, legality: LegalityFunction, chosen: list[Situation]) -> list[Claim]:
    hand = card_variables("hand", rules)
    return [Claim(s.describe(), tuple(hand_claims(hand, s)), S.non_empty(legality(hand, s.ctx, rules, S)),
                  (("hand", hand),), s, hand) for s in chosen]


def legal_move_exists(rules: Rules, legality: LegalityFunction) -> list[Claim]:
    """LEGAL-MOVE-EXISTS: in every situation, every hand it allows has a legal play."""
    return _can_play(rules, legality, list(situations(rules)))


def first_trick_no_deadlock(rules: Rules, legality: LegalityFunction) -> list[Claim]:
    """FIRST-TRICK-NO-DEADLOCK: every first-trick follower has a legal play."""
    return _can_play(rules, legality, [s for s in situations(rules) if s.ctx.first_trick and not s.ctx.leading])


def opening_lead(rules: Rules, legality: LegalityFunction) -> list[Claim]:
    """OPENING-LEAD: the opener's legal leads are its lowest club (or its clubs); the opener holds that club."""
    low = 1 << rules.lowest_club.index
    first_lead = situations(rules)[0]
    hand = card_variables("hand", rules)
    legal = legality(hand, first_lead.ctx, rules, S)
    clubs = SUIT_MASKS[Suit.CLUBS]
    wanted = (S.both(subset(low, legal), same_cards(legal, hand & clubs)) if rules.can_lead_any_club
              else same_cards(legal, low))
    hands = [card_variables(f"seat{seat}", rules) for seat in range(rules.players)]
    leader = opening_leader(hands, rules, S)
    holds = z3.Or([z3.And(leader == seat, S.non_empty(hands[seat] & low)) for seat in range(rules.players)])
    return [Claim(first_lead.describe(), tuple(hand_claims(hand, first_lead)), wanted, (("hand", hand),)),
            Claim("the deal: the seat that leads holds the lowest club",
                  tuple(exactly_one_place(hands, rules.deck_mask)), holds, tuple((f"seat {j}", h) for j, h in
                                                                                 enumerate(hands)))]


def no_early_heart_lead(rules: Rules, legality: LegalityFunction) -> list[Claim]:
    """NO-EARLY-HEART-LEAD: leading a heart while unbroken needs a hand of only hearts (or hearts and Q♠)."""
    allowed = HEARTS | (QUEEN if rules.can_lead_hearts_instead_of_qs else 0)
    hand = card_variables("hand", rules)
    claims = []
    for s in situations(rules):
        if s.ctx.leading and not s.ctx.first_trick and not s.ctx.hearts_broken:
            legal = legality(hand, s.ctx, rules, S)
            claims.append(Claim(s.describe(), tuple(hand_claims(hand, s)),
                                z3.Implies(S.non_empty(legal & HEARTS), subset(hand, allowed)), (("hand", hand),)))
    return claims


def hearts_break_on_play(rules: Rules, legality: LegalityFunction) -> list[Claim]:
    """HEARTS-BREAK-ON-PLAY: a card that breaks hearts is a heart, or the Q♠ under qs_breaks_hearts."""
    breakers = HEARTS | (QUEEN if rules.qs_breaks_hearts else 0)
    card = card_variables("card", rules)
    claims = []
    for s in situations(rules):
        if not s.ctx.hearts_broken:
            claims.append(Claim(s.describe(), (card.count() == 1,),
                                z3.Implies(breaks_hearts(card, s.ctx, rules, S), subset(card, breakers)),
                                (("card", card),)))
    return claims


# Tricks and passing ----------------------------------------------------------------------

def _not_beaten(card: SymbolicCardSet, other: SymbolicCardSet, suit_mask: int) -> list[Any]:
    """From the rules' text: ``other`` holds no card of the suit higher than ``card``'s (ranks rise with the index)."""
    ranks = [i for i in range(52) if suit_mask >> i & 1]
    return [z3.Not(z3.And(as_z3(card.bits[low]), as_z3(other.bits[high])))
            for low in ranks for high in ranks if high > low]


def unique_trick_winner(rules: Rules, legality: LegalityFunction) -> list[Claim]:
    """UNIQUE-TRICK-WINNER: whichever cards make a trick, the winner played the highest card of the suit led."""
    n = rules.players
    claims = []
    for suit in Suit:
        plays = [card_variables(f"play{j}", rules) for j in range(n)]
        in_suit = SUIT_MASKS[suit]
        hypotheses = [p.count() == 1 for p in plays] + [S.non_empty(plays[0] & in_suit)]
        hypotheses += [z3.AtMost(*[p.bits[i] for p in plays], 1) for i in range(52) if rules.deck_mask >> i & 1]
        winner = trick_winner(plays, suit, 0, n, S)
        cases = [z3.And(winner == seat, S.non_empty(plays[seat] & in_suit),
                        *[c for other in range(n) if other != seat for c in _not_beaten(plays[seat], plays[other],
                                                                                       in_suit)])
                 for seat in range(n)]
        claims.append(Claim(f"a trick led in {suit.glyph}", tuple(hypotheses), z3.Or(cases),
                            tuple((f"card of seat +{j}", p) for j, p in enumerate(plays))))
    return claims


def passing_preserves_deal(rules: Rules, legality: LegalityFunction) -> list[Claim]:
    """PASSING-PRESERVES-DEAL: the exchange keeps an equal deal of the cards in play, for every direction."""
    n, size = rules.players, rules.hand_size
    claims = []
    for direction in PASS_DIRECTIONS:
        if direction == "none" or (direction == "across" and n % 2):
            continue
        offset = rules.pass_offset(direction)
        hands = [card_variables(f"dealt{j}", rules) for j in range(n)]
        passes = [card_variables(f"pass{j}", rules) for j in range(n)]
        dealt = exactly_one_place(hands, rules.deck_mask) + [subset(p, h) for p, h in zip(passes, hands)]
        after = exchange(hands, passes, offset)
        shown = tuple((f"seat {j} after", h) for j, h in enumerate(after))
        claims.append(Claim(f"passing {direction}: every card in one hand", tuple(dealt),
                            z3.And(exactly_one_place(after, rules.deck_mask)), shown))
        # A lemma first: dealt hands are pairwise disjoint; the counting claims below assume only that.
        disjoint = [S.is_empty(hands[a] & hands[b]) for a in range(n) for b in range(a + 1, n)]
        claims.append(Claim(f"passing {direction}: dealt hands are disjoint", tuple(dealt), z3.And(disjoint), shown))
        for seat in range(n):
            giver = (seat - offset) % n
            received = passes[giver]
            kept, lemmas = count_split(hands[seat], passes[seat])
            union, more = count_union(kept, received)
            assert union.bits == after[seat].bits, "the exchange is written as (hand - passed) | received"
            hypotheses = [S.is_empty(hands[seat] & hands[giver]), subset(passes[seat], hands[seat]),
                          subset(received, hands[giver]), hands[seat].count() == size,
                          passes[seat].count() == PASS_SIZE, received.count() == PASS_SIZE]
            claims.append(Claim(f"passing {direction}: seat {seat} holds {size} cards with those received",
                                tuple(hypotheses + lemmas + more),
                                z3.And(after[seat].count() == size, subset(received, after[seat])), shown))
    return claims


# Scoring -------------------------------------------------------------------------------

def expected_score_total(rules: Rules, moon: bool, trickless: Any) -> Any:
    """SCORE-POINTS, SCORE-MOON, SCORE-NO-TRICKS, from the rules' text: what the round scores sum to."""
    total = rules.points_per_round
    if moon:
        return total + (rules.players - 2) * MOON_POINTS if rules.moon == "add" else total - 2 * MOON_POINTS
    return total + NO_TRICKS_BONUS * trickless if rules.avoid_all_tricks_bonus else total


def _taken_piles(rules: Rules) -> tuple[list[SymbolicCardSet], list[Any]]:
    taken = [card_variables(f"taken{j}", rules) for j in range(rules.players)]
    hypotheses = exactly_one_place(taken, rules.deck_mask) + one_place_count(taken, rules.deck_mask)
    return taken, hypotheses


def _shooters(taken: list[SymbolicCardSet], rules: Rules) -> list[Any]:
    """SCORE-MOON from the text: who took all thirteen hearts and the Q♠ (nobody when the moon is off)."""
    if rules.moon == "off":
        return [z3.BoolVal(False) for _ in taken]
    return [z3.And([pile.bits[i] for i in range(52) if POINT_CARDS >> i & 1]) for pile in taken]


def points_per_round(rules: Rules, legality: LegalityFunction) -> list[Claim]:
    """POINTS-PER-ROUND: however the cards in play are taken, points and scores sum as the rules say."""
    taken, hypotheses = _taken_piles(rules)
    points, scores = score_terms(taken, rules, S)
    someone = z3.Or(_shooters(taken, rules))
    trickless = z3.Sum([z3.If(S.is_empty(pile), 1, 0) for pile in taken])
    goal = z3.And(z3.Sum(points) == rules.points_per_round,
                  z3.Sum(scores) == z3.If(someone, expected_score_total(rules, True, 0),
                                          expected_score_total(rules, False, trickless)))
    return [Claim("the cards taken at the end of a round", tuple(hypotheses), goal,
                  tuple((f"taken by seat {j}", t) for j, t in enumerate(taken)))]


def moon_exactly_all_points(rules: Rules, legality: LegalityFunction) -> list[Claim]:
    """MOON-EXACTLY-ALL-POINTS: the moon changes the scores exactly when one player took every point card."""
    taken, hypotheses = _taken_piles(rules)
    points, scores = score_terms(taken, rules, S)
    shooters = _shooters(taken, rules)
    someone = z3.Or(shooters)
    goals = [z3.AtMost(*shooters, 1)]
    for seat, pile in enumerate(taken):
        raw = points[seat]
        if rules.moon == "add":
            moon_score = z3.If(shooters[seat], raw - MOON_POINTS, raw + MOON_POINTS)
        else:
            moon_score = z3.If(shooters[seat], raw - 2 * MOON_POINTS, raw)
        plain = raw + z3.If(S.is_empty(pile), NO_TRICKS_BONUS, 0) if rules.avoid_all_tricks_bonus else raw
        goals.append(scores[seat] == z3.If(someone, moon_score, plain))
    return [Claim("the cards taken at the end of a round", tuple(hypotheses), z3.And(goals),
                  tuple((f"taken by seat {j}", t) for j, t in enumerate(taken)))]


CLAIMS: dict[str, Callable[[Rules, LegalityFunction], list[Claim]]] = {
    "LEGAL-MOVE-EXISTS": legal_move_exists,
    "FIRST-TRICK-NO-DEADLOCK": first_trick_no_deadlock,
    "OPENING-LEAD": opening_lead,
    "POINTS-PER-ROUND": points_per_round,
    "UNIQUE-TRICK-WINNER": unique_trick_winner,
    "NO-EARLY-HEART-LEAD": no_early_heart_lead,
    "MOON-EXACTLY-ALL-POINTS": moon_exactly_all_points,
    "PASSING-PRESERVES-DEAL": passing_preserves_deal,
    "HEARTS-BREAK-ON-PLAY": hearts_break_on_play,
}


def claims_for(invariant_id: str, rules: Rules, legality: LegalityFunction = legal_plays) -> list[Claim]:
    """Return the per-context claims of ``invariant_id`` under ``rules``, with ``legality`` as the rule under test."""
    return CLAIMS[invariant_id](rules, legality)
