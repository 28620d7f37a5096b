"""The per-context proofs: each invariant as claims about the engine's rule functions on symbolic cards.

A play depends on a small concrete *context* (leading or following, the suit led, first
trick, hearts broken) and on the hand. For each context a :class:`Situation` says what
the hand can be (how many cards, which it must hold or cannot hold), and the claims
run the engine's own rule code — :func:`hearts_ref.legality.legal_plays`,
:func:`~hearts_ref.legality.breaks_hearts`, :func:`~hearts_ref.round.trick_winner`,
:func:`~hearts_ref.round.exchange`, :func:`~hearts_ref.scoring.score_terms` — on the z3
card-set algebra, with the hand (or the trick, or the taken cards) symbolic.

The expected values (26 points, the lowest club, the highest card of the led suit …) come
from the formal statements of the rules (:mod:`properties.statements`), never from the
engine code they check. The claims that the engine computes exactly the statements are
in :mod:`properties.refinement` and :mod:`properties.transitions`.

>>> from hearts_ref import Rules
>>> [s.describe() for s in situations(Rules())][:2]
['leading the first trick (13 cards, holding 2♣)', 'following ♣ on the first trick, hearts unbroken (13 cards)']
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NamedTuple

import z3

from hearts_ref.cards import CARDS, Suit
from hearts_ref.legality import Context, breaks_hearts, opening_leader
from hearts_ref.round import exchange, trick_winner
from hearts_ref.scoring import score_terms
from hearts_ref.symbolic import SYMBOLIC, SymbolicCardSet, all_of, any_of, as_z3, implies, int_sum
from hearts_ref.variants import PASS_DIRECTIONS, Rules
from properties import statements as said
from properties.solving import (
    Claim, card_variables, count_exchange, exactly_one_place, exactly_one_place_by_card, one_card,
    one_place_count, same_cards, subset,
)

__all__ = ["Situation", "situations", "hand_claims", "CLAIMS", "claims_for", "LegalityFunction",
           "expected_score_total", "taken_piles", "distinct_cards"]

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
        second = (f", the second card of a player with an extra card, whose first was a {Suit(ctx.pair_suit).glyph} "
                  "(FIRST-TWO-CARDS)" if ctx.pair_suit is not None else "")
        return f"{what}{when}{broken}{second} ({size}{holding})"


def situations(rules: Rules) -> tuple[Situation, ...]:
    """Return every context a play can have under ``rules``, with the hands it allows.

    LEAD-OPEN: the first trick is led by the holder of the lowest club, with a club, so
    first-trick followers follow clubs and do not hold the lowest club; every hand then
    holds all its cards. Later hands hold 1 to ``hand_size`` − 1 cards. With uneven hands a first-trick hand may
    hold one card more, and a seat with an extra card plays a second card after a first of any suit (with two decks
    several seats do, and a follower may follow any of them).
    """
    size, low = said.hand_size(rules.players, said.decks_of(rules)), said.lowest_club(rules.players, rules.even_out)
    largest = said.largest_hand(rules)   # DEAL-HANDS: a hand with an extra card holds one more on the first trick
    extra = said.extra_cards(rules)
    found = [Situation(Context(True, None, True, False), size, largest, holds=low)]
    found += [Situation(Context(False, Suit.CLUBS, True, broken), size, largest, lacks=low)
              for broken in (False, True)]
    if extra:   # FIRST-TWO-CARDS: the second card of the seat with the extra card, after a first card of each suit
        found += [Situation(Context(False, Suit.CLUBS, True, broken, pair), size, size, lacks=low)
                  for pair in Suit for broken in (False, True)]
    for broken in (False, True):
        found.append(Situation(Context(True, None, False, broken), 1, size - 1))
        found += [Situation(Context(False, s, False, broken), 1, size - 1) for s in Suit]
    return tuple(found)


def hand_claims(hand: SymbolicCardSet, situation: Situation) -> list[Any]:
    """The hypotheses that ``hand`` is a hand ``situation`` allows."""
    count = hand.count()
    claims = [count >= situation.min_cards, count <= situation.max_cards]
    if situation.holds:
        claims.append(subset(situation.holds, hand))
    if situation.lacks:
        claims.append(as_z3(S.is_empty(hand & situation.lacks)))
    return claims


def distinct_cards(cards: list[SymbolicCardSet], rules: Rules) -> list[Any]:
    """The hypotheses that each set is one card of the deck and no two are the same card."""
    return [one_card(c) for c in cards] + [(cards[a] & cards[b]).is_empty_bit()
                                          for a in range(len(cards)) for b in range(a + 1, len(cards))]


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
    low = said.lowest_club(rules.players, rules.even_out)
    first_lead = situations(rules)[0]
    hand = card_variables("hand", rules)
    legal = legality(hand, first_lead.ctx, rules, S)
    wanted = (all_of([subset(low, legal), same_cards(legal, hand & said.cards_of(rules).suits["C"])]) if rules.can_lead_any_club
              else same_cards(legal, low))
    hands = [card_variables(f"seat{seat}", rules) for seat in range(rules.players)]
    leader = as_z3(opening_leader(hands, rules, S))
    holds = any_of(all_of([leader == seat, as_z3(S.non_empty(hands[seat] & low))]) for seat in range(rules.players))
    return [Claim(first_lead.describe(), tuple(hand_claims(hand, first_lead)), wanted, (("hand", hand),)),
            Claim("the deal: the seat that leads holds the lowest club",
                  tuple(exactly_one_place(hands, rules.deck_mask)), holds,
                  tuple((f"seat {j}", h) for j, h in enumerate(hands)))]


def no_early_heart_lead(rules: Rules, legality: LegalityFunction) -> list[Claim]:
    """NO-EARLY-HEART-LEAD: leading a heart while unbroken needs a hand of only hearts (or hearts and Q♠)."""
    named = said.cards_of(rules)
    allowed = named.hearts | (named.queen if rules.can_lead_hearts_instead_of_qs else 0)
    hand = card_variables("hand", rules)
    claims = []
    for s in situations(rules):
        if s.ctx.leading and not s.ctx.first_trick and not s.ctx.hearts_broken:
            legal = legality(hand, s.ctx, rules, S)
            claims.append(Claim(s.describe(), tuple(hand_claims(hand, s)),
                                implies(S.non_empty(legal & named.hearts), subset(hand, allowed)), (("hand", hand),)))
    return claims


def hearts_break_on_play(rules: Rules, legality: LegalityFunction) -> list[Claim]:
    """HEARTS-BREAK-ON-PLAY: a card that breaks hearts is a heart, or the Q♠ under qs_breaks_hearts."""
    named = said.cards_of(rules)
    breakers = named.hearts | (named.queen if rules.qs_breaks_hearts else 0)
    card = card_variables("card", rules)
    claims = []
    for s in situations(rules):
        if not s.ctx.hearts_broken:
            claims.append(Claim(s.describe(), (one_card(card),),
                                implies(breaks_hearts(card, s.ctx, rules, S), subset(card, breakers)),
                                (("card", card),)))
    return claims


# Tricks and passing ----------------------------------------------------------------------

def _decks(rules: Rules) -> dict[str, int]:
    """``trick_winner``'s ``decks`` argument: given with two decks only (one deck calls it as it always did)."""
    return {"decks": 2} if rules.decks == 2 else {}


def unique_trick_winner(rules: Rules, legality: LegalityFunction) -> list[Claim]:
    """UNIQUE-TRICK-WINNER: whichever cards make a trick, whoever leads it, the winner is the seat TRICK-WINNER names.

    With two decks the leaders of a suit make one claim (one question for z3, which shares their work).
    """
    n, decks = rules.players, said.decks_of(rules)
    plays = [card_variables(f"play{j}", rules) for j in range(n)]
    claims = []
    named = said.cards_of(rules)
    for s in Suit:
        led = named.suits["CDSH"[s]]
        hypotheses = distinct_cards(plays, rules) + [as_z3(S.non_empty(plays[0] & led))]
        goals = []
        for leader in range(n):
            winner = as_z3(trick_winner(plays, s, leader, n, S, **_decks(rules)))
            cases = [implies(said.wins(plays, position, led, decks), winner == (leader + position) % n)
                     for position in range(n)]
            goals.append(all_of(cases + [any_of(said.wins(plays, p, led, decks) for p in range(n))]))
            if decks == 1:
                claims.append(Claim(f"a trick led in {s.glyph} by seat {leader}", tuple(hypotheses), goals[-1],
                                    tuple((f"card of seat {(leader + j) % n}", p) for j, p in enumerate(plays))))
        if decks == 2:
            claims.append(Claim(f"a trick led in {s.glyph} by any seat (two decks)", tuple(hypotheses), all_of(goals),
                                tuple((f"card {j + 1} played", p) for j, p in enumerate(plays))))
    return claims


def passing_preserves_deal(rules: Rules, legality: LegalityFunction) -> list[Claim]:
    """PASSING-PRESERVES-DEAL: the exchange keeps an equal deal of the cards in play, for every direction."""
    n, size = rules.players, said.hand_size(rules.players, said.decks_of(rules))
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
                            all_of(exactly_one_place(after, rules.deck_mask)), shown))
        for seat in range(n):
            giver = (seat - offset) % n
            received = passes[giver]
            union, lemmas = count_exchange(hands[seat], passes[seat], received)
            hypotheses = [hands[seat].count() == size, passes[seat].count() == said.PASS_CARDS,
                          received.count() == said.PASS_CARDS]
            claims.append(Claim(f"passing {direction}: seat {seat} keeps what it did not pass, with what it received",
                                (), all_of([same_cards(union, after[seat]), subset(received, after[seat])]), shown))
            # The per-card premises of the lemmas are what a deal gives (each pass within its hand, the hands
            # disjoint), so the claim assumes them rather than the whole deal: a smaller question, as strong.
            claims.append(Claim(f"passing {direction}: seat {seat} holds {size} cards",
                                tuple(hypotheses + lemmas), union.count() == size, shown))
    return claims


# Scoring -------------------------------------------------------------------------------

def expected_score_total(rules: Rules, moon: bool, trickless: Any) -> Any:
    """SCORE-POINTS, SCORE-JACK, SCORE-MOON, SCORE-NO-TRICKS, from the statements: what the round scores sum to."""
    points, decks = said.round_points(rules), said.decks_of(rules)
    total = points + (said.JACK_POINTS * decks if rules.jd_bonus else 0)   # SCORE-JACK: each J♦
    if moon:
        if rules.moon == "add":
            return total - points + (rules.players - 1) * said.moon_points(rules)
        return total - points - said.moon_points(rules)
    return total + said.NO_TRICK_POINTS * trickless if rules.avoid_all_tricks_bonus else total


def taken_piles(rules: Rules, name: str = "taken") -> tuple[list[SymbolicCardSet], list[Any]]:
    """Symbolic piles of taken cards, one per seat, and the hypotheses that they share out the cards in play."""
    taken = [card_variables(f"{name}{j}", rules) for j in range(rules.players)]
    hypotheses = exactly_one_place(taken, rules.deck_mask) + one_place_count(taken, rules.deck_mask)
    return taken, hypotheses


def points_per_round(rules: Rules, legality: LegalityFunction) -> list[Claim]:
    """POINTS-PER-ROUND: however the cards in play are taken, points and scores sum as the rules say."""
    taken, hypotheses = taken_piles(rules)
    points, scores = score_terms(taken, rules, S)
    someone = any_of(said.moon_shooters(rules, taken))
    trickless = int_sum([z3.If(as_z3(S.is_empty(pile)), 1, 0) for pile in taken])
    goal = all_of([int_sum(points) == expected_score_total(rules, False, 0),
                   int_sum(scores) == z3.If(as_z3(someone), expected_score_total(rules, True, 0),
                                            expected_score_total(rules, False, trickless))])
    return [Claim("the cards taken at the end of a round", tuple(hypotheses), goal,
                  tuple((f"taken by seat {j}", t) for j, t in enumerate(taken)))]


CLAIMS: dict[str, Callable[[Rules, LegalityFunction], list[Claim]]] = {
    "LEGAL-MOVE-EXISTS": legal_move_exists,
    "FIRST-TRICK-NO-DEADLOCK": first_trick_no_deadlock,
    "OPENING-LEAD": opening_lead,
    "POINTS-PER-ROUND": points_per_round,
    "UNIQUE-TRICK-WINNER": unique_trick_winner,
    "NO-EARLY-HEART-LEAD": no_early_heart_lead,
    "PASSING-PRESERVES-DEAL": passing_preserves_deal,
    "HEARTS-BREAK-ON-PLAY": hearts_break_on_play,
}


def claims_for(invariant_id: str, rules: Rules, legality: LegalityFunction | None = None) -> list[Claim]:
    """Return the per-context claims of ``invariant_id`` under ``rules``, with ``legality`` as the rule under test."""
    from properties.refinement import REFINEMENTS   # the statements' claims, made the same way
    from properties.transitions import play_steps_as_stated

    if legality is None:
        from hearts_ref import legality as module
        legality = module.legal_plays
    makers = {**CLAIMS, **REFINEMENTS, "PLAY-STEPS-AS-STATED": play_steps_as_stated}
    return makers[invariant_id](rules, legality)
