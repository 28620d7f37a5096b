"""The invariant catalogue: what must hold in every game of Hearts, each with a stable ID.

Each :class:`Invariant` has an ID, a one-sentence statement, the rule IDs it concerns,
the variant parameters its truth can depend on, and the ways it is checked:
``context`` (proved with Z3 per play context, :mod:`properties.contexts`), ``inductive``
(part of the inductive proof over the whole transition relation,
:mod:`properties.induction`) and ``engine`` (tested with Hypothesis on whole games
played by any engine, :mod:`properties.engine_properties`).

Some variants are unsound on purpose: the sources' literal rules. Which outcome each
invariant must have under given rules is derived here, from the rules alone, by
:func:`expected_outcome`; the provers must agree, and a changed outcome fails the run.

>>> [invariant.id for invariant in INVARIANTS][:4]
['LEGAL-MOVE-EXISTS', 'FIRST-TRICK-NO-DEADLOCK', 'OPENING-LEAD', 'POINTS-PER-ROUND']
>>> from hearts_ref import Rules
>>> expected_outcome("FIRST-TRICK-NO-DEADLOCK", Rules.preset("seed001"))
'refuted'
>>> expected_outcome("FIRST-TRICK-NO-DEADLOCK", Rules(players=3, pass_cycle="left-right-none",
...                                                   first_trick_points="forbidden"))
'proved'
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from hearts_ref.cardset import HEARTS, POINT_CARDS
from hearts_ref.variants import PARAMETERS, Rules

__all__ = ["Invariant", "INVARIANTS", "BY_ID", "ROUND_PARAMETERS", "expected_outcome", "not_applicable",
           "first_trick_can_deadlock", "void_hearts_can_deadlock", "expected_unsound", "rules_for"]

LEGALITY = ("players", "first_trick_points", "can_lead_any_club", "must_break_hearts", "hearts_restriction",
            "can_lead_hearts_instead_of_qs")
SCORING = ("players", "jd_bonus", "moon", "avoid_all_tricks_bonus")


@dataclass(frozen=True)
class Invariant:
    """One invariant: ``id``, ``statement``, the ``rules`` it concerns, how it is checked.

    ``parameters`` are the variant parameters the statement and its proof read; the
    others cannot change its outcome (a test checks this on the proof formulas), so a
    proof over every combination of these covers every combination of the registry.
    """

    id: str
    statement: str
    rules: tuple[str, ...]
    parameters: tuple[str, ...]
    methods: tuple[str, ...] = ("context", "inductive", "engine")


INVARIANTS: tuple[Invariant, ...] = (
    Invariant("LEGAL-MOVE-EXISTS",
              "In every state of a round the player to move has at least one legal play.",
              ("LEAD-OPEN", "LEAD-HEARTS", "FOLLOW-SUIT", "FOLLOW-VOID", "FIRST-NO-POINTS", "FIRST-EXCEPTION"),
              LEGALITY),
    Invariant("FIRST-TRICK-NO-DEADLOCK",
              "On the first trick every follower has a legal play: under the first-trick exception a hand of "
              "only point cards may play one.",
              ("FIRST-NO-POINTS", "FIRST-EXCEPTION", "FOLLOW-VOID", "FOLLOW-SUIT"),
              ("players", "first_trick_points", "must_break_hearts", "hearts_restriction")),
    Invariant("OPENING-LEAD",
              "The holder of the lowest club in play leads the first trick, and that club is the only legal lead "
              "(under can_lead_any_club: it is a legal lead and every legal lead is a club).",
              ("LEAD-OPEN", "DECK-REMOVED"), ("players", "can_lead_any_club")),
    Invariant("POINTS-PER-ROUND",
              "The raw points of a round sum to the variant's total P (26, or 16 with the J♦ bonus); the round "
              "scores sum to P (less 5 per player without a trick under the no-trick bonus), or after a moon to "
              "P + (players − 2) × 26 under moon=add and P − 52 under moon=subtract: 26, (players − 1) × 26 "
              "and −26 with the default points.",
              ("SCORE-POINTS", "SCORE-JACK", "SCORE-MOON", "SCORE-NO-TRICKS"), SCORING),
    Invariant("UNIQUE-TRICK-WINNER",
              "Every trick has exactly one winner, the player of the highest card of the suit led, who leads the "
              "next trick; a card of another suit never wins.",
              ("TRICK-WINNER", "LEAD-WINNER", "TRICK-ORDER"), ("players",), ("context", "engine")),
    Invariant("NO-EARLY-HEART-LEAD",
              "A heart is never led before hearts are broken unless the leader holds only hearts (only hearts and "
              "the Q♠, under can_lead_hearts_instead_of_qs).",
              ("LEAD-HEARTS", "BREAK-DISCARD"),
              ("players", "must_break_hearts", "hearts_restriction", "can_lead_hearts_instead_of_qs"),
              ("context", "engine")),
    Invariant("MOON-EXACTLY-ALL-POINTS",
              "A moon is scored exactly when one player takes every point card: then that player scores their "
              "points − 26 and every other player their points + 26 (moon=add), or the shooter their points − 52 "
              "(moon=subtract); otherwise the scores are the raw points.",
              ("SCORE-MOON", "SCORE-POINTS"), SCORING, ("context", "engine")),
    Invariant("PASSING-PRESERVES-DEAL",
              "After the pass every player holds as many cards as dealt, together exactly the cards in play: "
              "each gave the three cards chosen and received the three passed to them.",
              ("PASS-COUNT", "PASS-SIMULTANEOUS", "PASS-CYCLE", "DEAL-HANDS"), ("players",), ("context", "engine")),
    Invariant("CARDS-CONSERVED",
              "Throughout a round every card in play is in exactly one place: a hand, the trick in progress, or the "
              "cards taken by one player.",
              ("DECK-CARDS", "DECK-REMOVED", "TRICK-ORDER"), ("players",), ("inductive", "engine")),
    Invariant("HEARTS-BREAK-ON-PLAY",
              "Hearts become broken only by playing a heart (or the Q♠, under qs_breaks_hearts), so once they "
              "are broken such a card is among the cards played.",
              ("BREAK-DISCARD", "BREAK-QUEEN"), ("players", "hearts_broken_by", "qs_breaks_hearts")),
)

BY_ID = {invariant.id: invariant for invariant in INVARIANTS}

# How many point cards and hearts exist: a hand larger than that always holds another card.
_POINT_CARD_COUNT = POINT_CARDS.bit_count()
_HEART_COUNT = HEARTS.bit_count()


ROUND_PARAMETERS: tuple[str, ...] = tuple(p.name for p in PARAMETERS
                         if any(p.name in invariant.parameters for invariant in INVARIANTS))


def rules_for(values: dict[str, Any]) -> Rules | None:
    """Return the rules with these ``values`` and defaults elsewhere, made playable; None if they contradict.

    An odd number of players passes left, right, none; seed 003's discard restriction
    needs hearts broken by something other than a discard (a lead, when not given).
    """
    values = dict(values)
    if values.get("players", 4) % 2:
        values.setdefault("pass_cycle", "left-right-none")
    if values.get("hearts_restriction") == "discard":
        values.setdefault("hearts_broken_by", "lead")
    if values.get("hearts_restriction") == "discard" and values["hearts_broken_by"] == "discard":
        return None
    return Rules(**values)


def void_hearts_can_deadlock(rules: Rules) -> bool:
    """Whether seed 003's literal rule binds: no heart may be discarded until hearts are broken."""
    return rules.hearts_restriction == "discard" and rules.must_break_hearts


def first_trick_can_deadlock(rules: Rules) -> bool:
    """Whether some hand cannot play on the first trick: derived from the rules, not from a proof.

    Without the first-trick exception a hand of only point cards is stuck, which needs
    hands of at most 14 cards (4, 5 or 6 players; 3 players hold 17). Under seed 003's
    literal rule a hand of only hearts is stuck too (at most 13 cards).
    """
    if rules.first_trick_points == "forbidden":
        return rules.hand_size <= _POINT_CARD_COUNT
    return void_hearts_can_deadlock(rules) and rules.hand_size <= _HEART_COUNT


def not_applicable(invariant_id: str, rules: Rules) -> str | None:
    """Return why ``invariant_id`` says nothing under ``rules`` (a sentence), or None when it applies."""
    if invariant_id == "NO-EARLY-HEART-LEAD":
        if not rules.must_break_hearts:
            return "must_break_hearts is off: hearts may be led at any time"
        if rules.hearts_restriction != "lead":
            return "hearts_restriction='discard': unbroken hearts restrict discards, not leads"
    if invariant_id == "MOON-EXACTLY-ALL-POINTS" and rules.moon == "off":
        return "moon is off"
    return None


def expected_outcome(invariant_id: str, rules: Rules) -> str:
    """Return ``"proved"``, ``"refuted"`` or ``"n/a"``: what the provers must find for ``invariant_id`` under ``rules``."""
    if invariant_id not in BY_ID:
        raise KeyError(f"unknown invariant {invariant_id!r}; known: {', '.join(BY_ID)}")
    if not_applicable(invariant_id, rules):
        return "n/a"
    if invariant_id == "FIRST-TRICK-NO-DEADLOCK" and first_trick_can_deadlock(rules):
        return "refuted"
    if invariant_id == "LEGAL-MOVE-EXISTS" and (first_trick_can_deadlock(rules) or void_hearts_can_deadlock(rules)):
        return "refuted"
    return "proved"


def expected_unsound(rules: Rules) -> bool:
    """Whether ``rules`` can deadlock a round: the combinations' counterpart of ``hearts_ref.variants.EXPECTED_UNSOUND``."""
    return expected_outcome("LEGAL-MOVE-EXISTS", rules) == "refuted"
