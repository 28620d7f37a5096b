"""The invariant catalogue: what must hold in every game of Hearts, each with a stable ID.

Each :class:`Invariant` has an ID, a one-sentence statement, the rule IDs it concerns,
the variant parameters its truth can depend on, and the ways it is checked:
``context`` (proved with Z3 per play context, :mod:`properties.contexts`,
:mod:`properties.refinement`, :mod:`properties.transitions`), ``inductive`` (part of the
inductive proof over the engine's transition, :mod:`properties.induction`), ``game``
(proved over whole games: :mod:`properties.termination`) and ``engine`` (tested with
Hypothesis on whole games played by any engine, :mod:`properties.engine_properties`).

The ``*-AS-STATED`` invariants are the refinement proofs: the engine computes exactly
what the formal statements of the rules (:mod:`properties.statements`) say. Every rule ID
of ``spec/rules/`` is named by one of them.

Some variants are unsound on purpose: the sources' literal rules. Which outcome each
invariant must have under given rules is derived here, from the rules alone, by
:func:`expected_outcome`; the provers must agree, and a changed outcome fails the run.

>>> [invariant.id for invariant in INVARIANTS][:4]
['LEGAL-MOVE-EXISTS', 'FIRST-TRICK-NO-DEADLOCK', 'OPENING-LEAD', 'POINTS-PER-ROUND']
>>> from hearts_ref import Rules
>>> expected_outcome("FIRST-TRICK-NO-DEADLOCK", Rules.preset("seed001"))
'refuted'
>>> expected_outcome("GAME-ENDS", Rules(moon="subtract")), expected_outcome("GAME-ENDS", Rules())
('refuted', 'proved')
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from hearts_ref.variants import PARAMETERS, Rules
from properties import statements as said

__all__ = ["Invariant", "INVARIANTS", "BY_ID", "ROUND_PARAMETERS", "GAME_PARAMETERS", "expected_outcome",
           "not_applicable", "first_trick_can_deadlock", "void_hearts_can_deadlock", "expected_unsound", "rules_for",
           "lowest_round_sum"]

LEGALITY = ("players", "even_out", "first_trick_points", "can_lead_any_club", "must_break_hearts", "hearts_restriction",
            "can_lead_hearts_instead_of_qs")
SCORING = ("players", "even_out", "jd_bonus", "moon", "avoid_all_tricks_bonus")
BREAKING = ("players", "even_out", "hearts_broken_by", "qs_breaks_hearts")
GAME_END = ("players", "moon", "jd_bonus", "avoid_all_tricks_bonus", "end_threshold", "end_comparison", "max_rounds",
            "ties")
PLAY_RULES = ("LEAD-OPEN", "LEAD-HEARTS", "FOLLOW-SUIT", "FOLLOW-VOID", "FIRST-NO-POINTS", "FIRST-EXCEPTION",
              "FIRST-TWO-CARDS", "TRICK-ORDER")


@dataclass(frozen=True)
class Invariant:
    """One invariant: ``id``, ``statement``, the ``rules`` it concerns, how it is checked.

    ``parameters`` are the variant parameters the statement and its proof read; the
    others cannot change its outcome (a test checks this on the proof formulas), so a
    proof over every combination of these covers every combination of the registry.
    ``scope`` is ``round`` (combined over the round-level parameters) or ``game``.
    """

    id: str
    statement: str
    rules: tuple[str, ...]
    parameters: tuple[str, ...]
    methods: tuple[str, ...] = ("context", "inductive", "engine")
    scope: str = "round"


INVARIANTS: tuple[Invariant, ...] = (
    Invariant("LEGAL-MOVE-EXISTS",
              "In every state of a round the player to move has at least one legal play.",
              ("LEAD-OPEN", "LEAD-HEARTS", "FOLLOW-SUIT", "FOLLOW-VOID", "FIRST-NO-POINTS", "FIRST-EXCEPTION",
               "FIRST-TWO-CARDS"), LEGALITY),
    Invariant("FIRST-TRICK-NO-DEADLOCK",
              "On the first trick every follower has a legal play: under the first-trick exception a hand of "
              "only point cards may play one.",
              ("FIRST-NO-POINTS", "FIRST-EXCEPTION", "FOLLOW-VOID", "FOLLOW-SUIT", "FIRST-TWO-CARDS"),
              ("players", "even_out", "first_trick_points", "must_break_hearts", "hearts_restriction")),
    Invariant("OPENING-LEAD",
              "The holder of the lowest club in play leads the first trick, and that club is the only legal lead "
              "(under can_lead_any_club: it is a legal lead and every legal lead is a club).",
              ("LEAD-OPEN", "DECK-REMOVED"), ("players", "even_out", "can_lead_any_club")),
    Invariant("POINTS-PER-ROUND",
              "The raw points of a round sum to the variant's total P (26, or 16 with the J♦ bonus; twice that "
              "with two decks); the round scores sum to P (less 5 per player without a trick under the no-trick "
              "bonus), or after a moon to P + (players − 2) × M under moon=add and P − 2M under moon=subtract, M "
              "being the moon's worth (26, or 52 with two decks): 26, (players − 1) × 26 and −26 with the default "
              "points.",
              ("SCORE-POINTS", "SCORE-JACK", "SCORE-MOON", "SCORE-NO-TRICKS"), SCORING),
    Invariant("UNIQUE-TRICK-WINNER",
              "Every trick has exactly one winner, whoever leads it: the player of the highest card of the suit led "
              "(a card of another suit never wins).",
              ("TRICK-WINNER", "DECK-CARDS"), ("players", "even_out"), ("context", "engine")),
    Invariant("NO-EARLY-HEART-LEAD",
              "A heart is never led before hearts are broken unless the leader holds only hearts (only hearts and "
              "the Q♠, under can_lead_hearts_instead_of_qs).",
              ("LEAD-HEARTS", "BREAK-DISCARD"),
              ("players", "even_out", "must_break_hearts", "hearts_restriction", "can_lead_hearts_instead_of_qs"),
              ("context", "engine")),
    Invariant("PASSING-PRESERVES-DEAL",
              "After the pass every player holds as many cards as dealt, together exactly the cards in play: "
              "each gave the three cards chosen and received the three passed to them.",
              ("PASS-COUNT", "PASS-SIMULTANEOUS", "PASS-CYCLE", "DEAL-HANDS"), ("players", "even_out"),
              ("context", "engine")),
    Invariant("CARDS-CONSERVED",
              "Throughout a round every card in play is in exactly one place: a hand, the trick in progress, or the "
              "cards taken by one player.",
              ("DECK-CARDS", "DECK-REMOVED", "TRICK-ORDER"), ("players",), ("inductive", "engine")),
    Invariant("HEARTS-BREAK-ON-PLAY",
              "Hearts become broken only by playing a heart (or the Q♠, under qs_breaks_hearts), so once they "
              "are broken such a card is among the cards played.",
              ("BREAK-DISCARD", "BREAK-QUEEN"), BREAKING),
    Invariant("PLAYS-AS-STATED",
              "In every play context, for every hand and card, the engine's legal plays hold the card exactly when "
              "every play statement allows it: nothing forbidden is allowed, nothing allowed is forbidden.",
              PLAY_RULES, LEGALITY, ("context",)),
    Invariant("REJECTIONS-AS-STATED",
              "The engine's rejecting_rule names no rule exactly for the cards the statements allow, and otherwise "
              "a rule whose statement the card breaks.",
              PLAY_RULES, LEGALITY, ("context",)),
    Invariant("SCORES-AS-STATED",
              "However the cards in play are taken, the engine's points, round scores and moon shooter are those "
              "of the scoring statements.",
              ("SCORE-POINTS", "SCORE-JACK", "SCORE-NO-TRICKS", "SCORE-MOON"), SCORING, ("context", "engine")),
    Invariant("BREAKING-AS-STATED",
              "While hearts are unbroken, the engine says a play breaks them exactly when BREAK-DISCARD or "
              "BREAK-QUEEN says so.",
              ("BREAK-DISCARD", "BREAK-QUEEN"), BREAKING, ("context",)),
    Invariant("PLAY-STEPS-AS-STATED",
              "The engine's play, run on symbolic cards in every shape of a trick, moves the card, the turn, the "
              "trick and the lead as the step statements say, and a round dealt starts with the lowest club's holder.",
              ("TRICK-ORDER", "TRICK-WINNER", "LEAD-WINNER", "LEAD-OPEN", "BREAK-DISCARD", "BREAK-QUEEN"),
              ("players",), ("context",)),
    Invariant("PASSING-AS-STATED",
              "The engine accepts exactly the passes of three cards of the passer's hand, exchanges them as "
              "PASS-SIMULTANEOUS says, in the direction PASS-CYCLE gives each round.",
              ("PASS-COUNT", "PASS-SIMULTANEOUS", "PASS-CYCLE"), ("players", "even_out"), ("context",)),
    Invariant("SETUP-AS-STATED",
              "The players allowed, the deck, the cards removed, the deal and the dealer are as their statements say.",
              ("PLAYERS-COUNT", "DECK-CARDS", "DECK-REMOVED", "DEAL-HANDS", "DEAL-DEALER"), ("players", "even_out"),
              ("context",)),
    Invariant("TOTALS-ARE-SUMS",
              "Every total starts at 0 and each round's scores are added to it, so the totals are the sums of the "
              "round scores.",
              ("SCORE-TOTAL",), ("players",), ("context", "engine")),
    Invariant("GAME-END-AS-STATED",
              "From any totals the engine ends the game exactly when END-THRESHOLD and WIN-TIE say so, and names "
              "exactly the winners WIN-LOWEST and WIN-TIE name.",
              ("END-THRESHOLD", "WIN-LOWEST", "WIN-TIE"),
              ("players", "end_threshold", "end_comparison", "max_rounds", "ties"), ("context",), "game"),
    Invariant("ROUND-PLAYS-EVERY-CARD",
              "A round ends after exactly hand-size tricks, with every card dealt played once and taken by one player.",
              ("TRICK-ORDER", "DEAL-HANDS", "DECK-REMOVED"), ("players",), ("inductive", "engine")),
    Invariant("GAME-ENDS",
              "Every game ends within a number of rounds fixed by the rules, whatever is played; otherwise a game "
              "that never ends is shown.",
              ("END-THRESHOLD", "WIN-TIE", "SCORE-TOTAL", "SCORE-MOON", "SCORE-JACK", "SCORE-NO-TRICKS"), GAME_END,
              ("game",), "game"),
)

BY_ID = {invariant.id: invariant for invariant in INVARIANTS}


ROUND_PARAMETERS: tuple[str, ...] = tuple(p.name for p in PARAMETERS
                         if any(p.name in i.parameters for i in INVARIANTS if i.scope == "round"))
GAME_PARAMETERS: tuple[str, ...] = tuple(p.name for p in PARAMETERS
                        if any(p.name in i.parameters for i in INVARIANTS if i.scope == "game"))


def rules_for(values: dict[str, Any]) -> Rules | None:
    """Return the rules with these ``values`` and defaults elsewhere, made playable; None if they contradict.

    An odd number of players passes left, right, none; seed 003's discard restriction
    needs hearts broken by something other than a discard (a lead, when not given). Uneven hands
    (``even_out = "uneven"``) are proved with 3 players (one deck) and with 5 or 6 (seed 003's two decks,
    ``decks = 2``): with 4 they change nothing.
    """
    values = dict(values)
    if values.get("even_out") == "uneven" and values.get("players", 4) == 4:
        return None   # 4 players: the same game as "remove"
    if values.get("even_out") == "uneven" and values.get("players", 4) >= 5:
        values.setdefault("decks", 2)   # DECK-CARDS: seed 003's five or six players play two decks
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
    hands of at most 14 cards (4, 5 or 6 players; 3 players hold 17); with two decks of at most 28 (they hold
    17 to 21). Under seed 003's literal rule a hand of only hearts is stuck too (at most 13 cards, 26 with two decks).
    """
    size = said.hand_size(rules.players, said.decks_of(rules))
    named = said.cards_of(rules)
    if rules.first_trick_points == "forbidden":
        return size <= named.points.bit_count()
    return void_hearts_can_deadlock(rules) and size <= named.hearts.bit_count()


def lowest_round_sum(rules: Rules) -> int:
    """The least the round scores can sum to, from the scoring statements: a moon round, or one without a moon and
    with as many players as can be without a trick (all but one when the moon is off, else all but two: a player
    taking every trick takes every point card)."""
    jack = said.JACK_POINTS * said.decks_of(rules) if rules.jd_bonus else 0
    n = rules.players
    sums = []
    if rules.moon == "add":
        sums.append((n - 1) * said.moon_points(rules) + jack)
    elif rules.moon == "subtract":
        sums.append(-said.moon_points(rules) + jack)
    trickless = n - 1 if rules.moon == "off" else n - 2
    sums.append(said.round_points(rules) + jack + (said.NO_TRICK_POINTS * trickless if rules.avoid_all_tricks_bonus
                                                   else 0))
    return min(sums)


def not_applicable(invariant_id: str, rules: Rules) -> str | None:
    """Return why ``invariant_id`` says nothing under ``rules`` (a sentence), or None when it applies."""
    if invariant_id == "NO-EARLY-HEART-LEAD":
        if not rules.must_break_hearts:
            return "must_break_hearts is off: hearts may be led at any time"
        if rules.hearts_restriction != "lead":
            return "hearts_restriction='discard': unbroken hearts restrict discards, not leads"
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
    if invariant_id == "GAME-ENDS" and not rules.max_rounds:
        # END-THRESHOLD with a bound: the scores add a positive least sum each round; WIN-TIE "play-on": a tie kept
        # for ever; otherwise the totals can be kept below the threshold.
        return "refuted" if rules.ties == "play-on" or lowest_round_sum(rules) <= 0 else "proved"
    return "proved"


def expected_unsound(rules: Rules) -> bool:
    """Whether ``rules`` can deadlock a round: the combinations' counterpart of ``hearts_ref.variants.EXPECTED_UNSOUND``."""
    return expected_outcome("LEGAL-MOVE-EXISTS", rules) == "refuted"
