"""Which rule to blame: the rule IDs behind a difference in a legal set, a refused step, a rejection.

A card an engine allows but the reference does not is blamed on the rule that forbids it
(:func:`~hearts_ref.legality.rejecting_rule`); a card the reference allows but the engine does
not, on the rule that allows it in that context.

>>> from hearts_ref.deals import complete_deal
>>> from hearts_ref.round import start_round
>>> from hearts_ref.variants import Rules
>>> state = start_round(Rules(), complete_deal(Rules(), {0: "2C"}), direction="none")
>>> legal_set_rules(state, CardSet.parse("2C"), CardSet.parse("2C 3C"))
('LEAD-OPEN',)
"""

from __future__ import annotations

import re

from hearts_ref.cards import Card
from hearts_ref.cardset import POINT_CARDS, SUIT_MASKS, CardSet
from hearts_ref.engine import EngineRejection
from hearts_ref.game import Game
from hearts_ref.legality import rejecting_rule
from hearts_ref.round import RoundState
from hearts_ref.spec import load_rules

__all__ = ["legal_set_rules", "allowing_rule", "step_rules", "named_rule"]

_PREFIX = re.compile(r"^([A-Z]+(?:-[A-Z]+)+):")


def allowing_rule(state: RoundState, card: Card) -> str:
    """Return the rule that allows ``card`` to the seat to move in ``state`` (the reference's view)."""
    ctx = state.context
    hand = state.hands[state.to_play]
    if ctx.leading:
        return "LEAD-OPEN" if ctx.first_trick else "LEAD-HEARTS"
    if hand & SUIT_MASKS[ctx.led_suit]:
        return "FOLLOW-SUIT"
    if ctx.first_trick and (1 << card.index) & POINT_CARDS:
        return "FIRST-EXCEPTION" if state.rules.first_trick_points == "exception" else "FIRST-NO-POINTS"
    return "FOLLOW-VOID"


def legal_set_rules(state: RoundState | None, expected: CardSet, actual: CardSet) -> tuple[str, ...]:
    """Return the rule IDs behind the difference between the ``expected`` and ``actual`` legal sets."""
    if state is None or state.to_play < 0:
        return ("TRICK-ORDER",)
    found: list[str] = []
    hand = state.hands[state.to_play]
    for card in actual - expected:
        rule = rejecting_rule(hand, state.context, state.rules, 1 << card.index) or "TRICK-ORDER"
        if rule not in found:
            found.append(rule)
    for card in expected - actual:
        rule = allowing_rule(state, card)
        if rule not in found:
            found.append(rule)
    return tuple(found)


def step_rules(game: Game, step: object) -> tuple[str, ...]:
    """Return the rules that allow a legal ``step`` (a :class:`~hearts_ref.vectors.model.Step`) in ``game``."""
    state = game.round
    if state is None or getattr(step, "kind", "") == "pass":
        return ("PASS-COUNT", "PASS-SIMULTANEOUS")
    if state.passing:
        return ("PASS-SIMULTANEOUS",)
    return (allowing_rule(state, step.card),)   # type: ignore[attr-defined]


def named_rule(error: EngineRejection) -> tuple[str, ...]:
    """Return the rule ID an engine's rejection names (its ``rule_id``, or its message's prefix), if it is one."""
    known = load_rules()
    if error.rule_id in known:
        return (error.rule_id,)
    match = _PREFIX.match(error.reason or "")
    return (match.group(1),) if match and match.group(1) in known else ()
