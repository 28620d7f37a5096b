"""Which rules a difference concerns: from what differs between the reference and an engine to rule IDs.

The runner stops at the first step where an engine's observation or legal set differs
from the reference's. What differs points at the rule:

- a card the engine allows and the reference forbids: the rule that rejects it
  (:func:`~hearts_ref.legality.rejecting_rule`); a card the engine forbids and the
  reference allows: the rule that permits it (:func:`permitting_rule`);
- ``to_move``: LEAD-OPEN at the first lead, TRICK-WINNER and LEAD-WINNER after a trick,
  TRICK-ORDER within one, PASS-SIMULTANEOUS while passing;
- ``hearts_broken``: BREAK-QUEEN after the Q♠, BREAK-DISCARD otherwise;
- points and scores: SCORE-POINTS, or the scoring rule whose variant would explain the
  engine's numbers (SCORE-MOON, SCORE-JACK, SCORE-NO-TRICKS); totals: SCORE-TOTAL;
- the end: END-THRESHOLD; the winners: WIN-LOWEST, or WIN-TIE when totals tie.

>>> from hearts_ref.legality import Context
>>> from hearts_ref.cardset import CardSet
>>> hand = CardSet.parse("3C 4H 5H").mask
>>> permitting_rule(hand, Context(False, 0, True, False), Rules(), CardSet.parse("3C").mask.bit_length() - 1)
'FOLLOW-SUIT'
"""

from __future__ import annotations

import dataclasses
from typing import Any, NamedTuple

from hearts_ref.cards import QUEEN_OF_SPADES
from hearts_ref.cardset import JACK_OF_DIAMONDS_BIT, POINT_CARDS, SUIT_MASKS, bits_of
from hearts_ref.engine import Observation
from hearts_ref.legality import Context, rejecting_rule
from hearts_ref.round import RoundState
from hearts_ref.scoring import round_scores
from hearts_ref.variants import Rules

__all__ = ["Difference", "observation_differences", "legal_rules", "permitting_rule", "observation_rules",
           "FIELDS"]

FIELDS = ("phase", "to_move", "trick", "hearts_broken", "points_taken", "round_scores", "totals",
          "game_over", "winners")
_PRIORITY = {name: k for k, name in enumerate(("to_move", "trick", "hearts_broken", "points_taken", "round_scores",
                                               "totals", "phase", "game_over", "winners"))}


class Difference(NamedTuple):
    """One observable that differs: its name, the reference's value, the engine's value."""

    field: str
    expected: Any
    actual: Any


def observation_differences(expected: Observation, actual: Observation) -> list[Difference]:
    """Return the fields in which ``actual`` differs from ``expected``, in :data:`FIELDS` order."""
    if not isinstance(actual, Observation):
        return [Difference("observation", expected.to_dict(), repr(actual))]
    return [Difference(name, getattr(expected, name), getattr(actual, name))
            for name in FIELDS if getattr(expected, name) != getattr(actual, name)]


def _unique(ids: list[str]) -> tuple[str, ...]:
    return tuple(dict.fromkeys(ids))


def permitting_rule(hand: int, ctx: Context, rules: Rules, index: int) -> str:
    """Return the rule that makes the card ``index`` a legal play in ``ctx`` (it must be one)."""
    bit = 1 << index
    if ctx.leading:
        if ctx.first_trick:
            return "LEAD-OPEN"
        return "LEAD-HEARTS" if bit & POINT_CARDS else "LEAD-WINNER"
    if hand & SUIT_MASKS[ctx.led_suit]:
        return "FOLLOW-SUIT"
    if ctx.first_trick and bit & POINT_CARDS:
        # FIRST-EXCEPTION frees a hand of only point cards; otherwise the variant allows points
        return "FIRST-EXCEPTION" if not hand & ~POINT_CARDS else "FIRST-NO-POINTS"
    return "FOLLOW-VOID"


def legal_rules(state: RoundState, engine_legal: int) -> tuple[str, ...]:
    """Return the rules concerned when the engine's legal set differs from the reference's."""
    hand = state.hands[state.to_play]
    ids = []
    for index in bits_of(engine_legal & ~state.legal):
        if not hand >> index & 1:   # a card the seat does not hold: the hands went astray
            ids.append("PASS-CYCLE" if state.direction != "none" else "DEAL-HANDS")
        else:
            ids.append(rejecting_rule(hand, state.context, state.rules, 1 << index) or "TRICK-ORDER")
    for index in bits_of(state.legal & ~engine_legal):
        ids.append(permitting_rule(hand, state.context, state.rules, index))
    return _unique(ids)


def _score_rules(taken: tuple[int, ...], rules: Rules, actual: Any) -> list[str]:
    """SCORE-*: the scoring rule whose other variant value would give the engine's scores."""
    alternatives = [("SCORE-MOON", {"moon": m}) for m in ("add", "subtract", "off") if m != rules.moon]
    alternatives += [("SCORE-JACK", {"jd_bonus": not rules.jd_bonus}),
                     ("SCORE-NO-TRICKS", {"avoid_all_tricks_bonus": not rules.avoid_all_tricks_bonus})]
    for rule_id, change in alternatives:
        other = dataclasses.replace(rules, **change)
        if actual is not None and tuple(actual) == round_scores(taken, other).scores:
            return [rule_id]
    score = round_scores(taken, rules)
    return ["SCORE-MOON"] if score.shooter is not None else ["SCORE-POINTS"]


def observation_rules(differences: list[Difference], *, action: str, before: RoundState | None,
                      after: RoundState | None, rules: Rules, last_card: int | None = None,
                      taken: tuple[int, ...] | None = None, totals: tuple[int, ...] = ()) -> tuple[str, ...]:
    """Return the rules concerned by these observation ``differences`` after ``action``.

    ``action`` is "deal", "pass" or "play"; ``before`` the reference's round state before
    the action (None before a deal), ``after`` the state after it (None when the round
    ended); ``last_card`` the card just played; ``taken`` the cards each seat took in the
    round just finished; ``totals`` the reference's totals after the action.
    """
    ids: list[str] = []
    trick_done = action == "play" and before is not None and len(before.trick) == rules.players - 1
    # Causes before consequences: a wrong score ends the game wrongly, not the other way round.
    for diff in sorted(differences, key=lambda d: _PRIORITY.get(d.field, len(_PRIORITY))):
        name = diff.field
        if name == "phase":
            if "game-over" in (diff.expected, diff.actual):
                ids.append("END-THRESHOLD")
            elif action == "deal":
                ids.append("PASS-CYCLE")
            elif action == "pass":
                ids.append("PASS-SIMULTANEOUS")
            else:
                ids.append("TRICK-ORDER")
        elif name == "to_move":
            if after is not None and after.passing:
                ids.append("PASS-SIMULTANEOUS")
            elif action in ("deal", "pass"):
                ids.append("LEAD-OPEN")
            elif trick_done:
                ids += ["TRICK-WINNER", "LEAD-WINNER"]
            else:
                ids.append("TRICK-ORDER")
        elif name == "trick":
            ids.append("TRICK-ORDER")
        elif name == "hearts_broken":
            ids.append("BREAK-QUEEN" if last_card == QUEEN_OF_SPADES.index else "BREAK-DISCARD")
        elif name == "points_taken":
            ids.append("SCORE-JACK" if rules.jd_bonus and _trick_has_jack(before, last_card) else "SCORE-POINTS")
            if trick_done:
                ids.append("TRICK-WINNER")
        elif name == "round_scores":
            ids += _score_rules(taken, rules, diff.actual) if taken is not None else ["SCORE-POINTS"]
        elif name == "totals":
            ids.append("SCORE-TOTAL")
        elif name == "game_over":
            ids.append("END-THRESHOLD")
            if rules.ties == "play-on" and totals and totals.count(min(totals)) > 1:
                ids.append("WIN-TIE")
        elif name == "winners":
            expected = diff.expected or ()
            ids.append("WIN-TIE" if len(expected) > 1 or len(diff.actual or ()) > 1 else "WIN-LOWEST")
        else:
            ids.append("TRICK-ORDER")
    return _unique(ids)


def _trick_has_jack(before: RoundState | None, last_card: int | None) -> bool:
    cards = list(before.trick) if before is not None else []
    if last_card is not None:
        cards.append(last_card)
    return any((1 << c) & JACK_OF_DIAMONDS_BIT for c in cards)

