"""The rules as formal statements: one predicate per rule ID of ``spec/rules/``, written from its text.

Each function below states one rule. It is written from the rule's normative prose (the
sentence it formalises is quoted in its docstring, the numbers come from that text), in
the words of :mod:`properties.logic`, and never calls the engine's rule functions: the
proofs (:mod:`properties.refinement`, :mod:`properties.transitions`) show that the engine
computes exactly what these say. A statement is a predicate over one play, one pass, one
trick, one round's score or the end of a game; it evaluates on concrete card sets (a
``bool``) and on symbolic ones (a z3 term).

The API, for any tool that wants the rules as predicates::

    STATEMENTS: dict[str, Statement]      # rule ID -> its statement, in the order of spec/rules/
    Statement.rule_id, .kind, .predicate, .words, .source, .path, .signature

``kind`` says what the predicate is about and how it is called (:data:`KINDS`)::

    "setup"      predicate(rules, ...)                      the deck, the deal, the dealer
    "pass"       predicate(rules, direction, hands, passes, after, seat=...)   one pass, or the exchange
    "play"       predicate(rules, hand, ctx, card)  -> Bit  the rule allows this play
    "permission" predicate(rules, hand, ctx, card)  -> Bit  the rule's permission applies to this play
    "breaking"   predicate(rules, ctx, card) -> Bit         the rule makes this play break hearts
    "step"       predicate(rules, before, card, after) -> Bit   a play changes the round as the rule says
    "score"      predicate(rules, pile or piles, ...)       the rule's part of a round score (round_scores adds them)
    "game"       predicate(rules, ...)                      totals, the end of the game, the winners

``hand``, ``card`` and the piles are card sets (``card`` one card); ``ctx`` is a
:class:`~hearts_ref.legality.Context`; ``before`` and ``after`` are :class:`Position`.

>>> from hearts_ref import Context, Rules
>>> from properties.logic import card
>>> follow = STATEMENTS["FOLLOW-SUIT"]
>>> follow.kind, follow.predicate(Rules(), card("2D") | card("QS"), Context(False, 1, False, False), card("QS"))
('play', False)
>>> allowed_plays(Rules(), card("3H") | card("9H") | card("QS"), Context(True, None, False, False)) == card("QS")
True
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from properties.statements.deal import (
    CYCLES, PASS_CARDS, REMOVED, SUIT_OF_CONTEXT, SUITS, cards_of, deal_dealer, deal_hands, deck_cards, deck_removed,
    decks_of, direction_of_round, extra_cards, hand_size, holds_only_set, largest_hand, pass_count, pass_cycle,
    pass_simultaneous, players_count, recipient,
)
from properties.statements.play import (
    PLAY_PREDICATES, PLAY_RULES, Position, allowed_plays, allows, break_discard, break_queen, breaks_hearts_by, first_exception,
    first_no_points, first_two_cards, follow_suit, follow_void, hearts_after, lead_hearts, lead_open, lead_winner,
    lowest_club, same_set, trick_order, trick_winner, trick_winners, wins,
)
from properties.statements.score import (
    DECK_POINTS, JACK_POINTS, MOON_POINTS, NO_TRICK_POINTS, end_threshold, game_ends, moon_points, moon_shooters,
    raw_points, round_points, round_scores, score_jack, score_moon, score_no_tricks, score_points, score_total,
    win_lowest, win_tie,
)

__all__ = ["Statement", "STATEMENTS", "KINDS", "Position", "PLAY_RULES", "allowed_plays", "allows", "lowest_club",
           "hand_size", "extra_cards", "largest_hand", "decks_of", "cards_of", "round_points", "moon_points",
           "recipient", "direction_of_round", "moon_shooters", "raw_points", "round_scores", "trick_winners", "wins",
           "hearts_after", "same_set", "holds_only_set", "breaks_hearts_by", "game_ends", "statement_of",
           "PLAY_PREDICATES", "PASS_CARDS", "CYCLES", "REMOVED", "SUITS", "SUIT_OF_CONTEXT", "DECK_POINTS",
           "MOON_POINTS", "JACK_POINTS", "NO_TRICK_POINTS"]

KINDS = ("setup", "pass", "play", "permission", "breaking", "step", "score", "game")


@dataclass(frozen=True)
class Statement:
    """A rule's formal statement: its ID, what kind of thing it constrains, the predicate, and the predicate in words."""

    rule_id: str
    kind: str
    predicate: Callable[..., Any]
    words: str

    @property
    def source(self) -> str:
        """The predicate's source text, as written."""
        return inspect.getsource(self.predicate)

    @property
    def path(self) -> str:
        """Where the predicate is written: its module's file, from the repository's root."""
        return self.predicate.__module__.replace(".", "/") + ".py"

    @property
    def signature(self) -> str:
        return f"{self.predicate.__name__}{inspect.signature(self.predicate)}"


STATEMENTS: dict[str, Statement] = {s.rule_id: s for s in (
    Statement("PLAYERS-COUNT", "setup", players_count, "the number of players is 3, 4, 5 or 6"),
    Statement("DECK-CARDS", "setup", deck_cards, "the deck is the 52 cards of four suits of thirteen ranks, A high (with two decks, each card twice: 104)"),
    Statement("DECK-REMOVED", "setup", deck_removed,
              "the cards in play are the deck less 2C (3 players), 2C 2D (5) or 2C 2D 3C 3D (6); with uneven hands "
              "none is removed"),
    Statement("DEAL-HANDS", "setup", deal_hands,
              "the i-th card of the shuffled deck goes to seat (dealer + 1 + i) mod n; hands of 13, 17, 10 or 8, or "
              "with uneven hands 18 and 17 (3 players), 21 and 20 (5, two decks) or 18 and 17 (6, two decks), the "
              "extra cards to the seats first from the dealer's left"),
    Statement("DEAL-DEALER", "setup", deal_dealer, "round r is dealt by seat (r − 1) mod n"),
    Statement("PASS-COUNT", "pass", pass_count, "a pass is exactly three cards of the passer's own hand as dealt"),
    Statement("PASS-SIMULTANEOUS", "pass", pass_simultaneous,
              "after the pass a seat holds a card exactly when it kept it or the seat passing to it passed it"),
    Statement("PASS-CYCLE", "pass", pass_cycle,
              "round r passes in direction (r − 1) mod k of the cycle: left s+1, right s−1, across s+n/2, none"),
    Statement("LEAD-OPEN", "play", lead_open, "the first lead is the lowest club in play (any club, with "
              "can_lead_any_club)"),
    Statement("LEAD-WINNER", "step", lead_winner, "the winner of a trick leads the next one; after the last, nobody"),
    Statement("LEAD-HEARTS", "play", lead_hearts, "while hearts are unbroken a heart is led only from a hand of only "
              "hearts (or hearts and the Q♠, with can_lead_hearts_instead_of_qs)"),
    Statement("FOLLOW-SUIT", "play", follow_suit, "a player holding the led suit plays the led suit"),
    Statement("FOLLOW-VOID", "play", follow_void, "a void player may discard anything, but no heart while unbroken "
              "under hearts_restriction = discard"),
    Statement("FIRST-NO-POINTS", "play", first_no_points,
              "on the first trick a void player plays no point card, unless FIRST-EXCEPTION applies"),
    Statement("FIRST-EXCEPTION", "permission", first_exception,
              "on the first trick a void player with only point cards may play any of them"),
    Statement("FIRST-TWO-CARDS", "play", first_two_cards, "on the first trick the second of a player's two cards is "
              "of its first card's suit when such a card is allowed"),
    Statement("BREAK-DISCARD", "breaking", break_discard,
              "hearts break when a heart is discarded (or any heart is played, or a heart is led)"),
    Statement("BREAK-QUEEN", "breaking", break_queen, "the Q♠ does not break hearts (it does, with qs_breaks_hearts)"),
    Statement("TRICK-ORDER", "step", trick_order,
              "a card played leaves the hand for the trick; then seat (s + 1) mod n plays, until the trick is full"),
    Statement("TRICK-WINNER", "step", trick_winner,
              "the highest card of the led suit wins the trick; its player takes every card of it"),
    Statement("SCORE-POINTS", "score", score_points, "a heart scores 1 and the Q♠ 13 to whoever took it"),
    Statement("SCORE-JACK", "score", score_jack, "with jd_bonus, whoever took the J♦ adds −10, moon or not"),
    Statement("SCORE-NO-TRICKS", "score", score_no_tricks,
              "with avoid_all_tricks_bonus, a player who won no trick adds −5, except in a round whose scores a moon "
              "changed (not under moon = off)"),
    Statement("SCORE-MOON", "score", score_moon, "whoever took all 13 hearts and the Q♠ shot the moon: 0 and 26 to "
              "the others (add), or −26 and 0 (subtract), or the card points stand (off); with two decks all 26 "
              "hearts and both Q♠, and 52"),
    Statement("SCORE-TOTAL", "game", score_total, "totals start at 0 and each round's scores are added to them"),
    Statement("END-THRESHOLD", "game", end_threshold, "the end condition: a total reaches the threshold (≥ or >), "
              "or max_rounds rounds are played"),
    Statement("WIN-LOWEST", "game", win_lowest, "the lowest total wins"),
    Statement("WIN-TIE", "game", win_tie, "a shared lowest total shares the win, or under play-on the game goes on"),
)}


def statement_of(rule_id: str) -> Statement:
    """The statement of ``rule_id``; KeyError naming the known IDs if there is none."""
    if rule_id not in STATEMENTS:
        raise KeyError(f"no statement for {rule_id!r}; known: {', '.join(STATEMENTS)}")
    return STATEMENTS[rule_id]
