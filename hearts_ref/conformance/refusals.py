"""Which rules a refused or an accepted move concerns: the rule that allows a legal move the engine refused, then
the rule it cited; the rule that forbids an illegal move it accepted (a card received before every seat chose is
PASS-SIMULTANEOUS before PASS-COUNT).

>>> from hearts_ref.deals import complete_deal
>>> from hearts_ref.round import start_round
>>> state = start_round(Rules(), complete_deal(Rules(), {0: "2C 3C"}), direction="none")
>>> refused_play_rules(state, CardSet.parse("2C").mask.bit_length() - 1), accepted_play_rules(state, 1)
(('LEAD-OPEN',), ('LEAD-OPEN',))
"""

from __future__ import annotations

import re

from hearts_ref.cardset import CardSet
from hearts_ref.engine import EngineRejection
from hearts_ref.errors import IllegalPassError
from hearts_ref.legality import allowing_rule, rejecting_rule
from hearts_ref.round import RoundState
from hearts_ref.spec import load_rules
from hearts_ref.variants import Rules

__all__ = ["cited_rule", "refused_play_rules", "refused_pass_rules", "refused_deal_rules", "accepted_play_rules",
           "accepted_pass_rules"]

_PREFIX = re.compile(r"^([A-Z]+(?:-[A-Z]+)+):")


def cited_rule(error: EngineRejection) -> tuple[str, ...]:
    """Return the rule ID an engine's refusal cites (its ``rule_id``, or its message's prefix), if it is one."""
    known = load_rules()
    if error.rule_id in known:
        return (error.rule_id,)
    match = _PREFIX.match(error.reason or "")
    return (match.group(1),) if match and match.group(1) in known else ()


def _with_cited(ids: tuple[str, ...], error: EngineRejection | None) -> tuple[str, ...]:
    return tuple(dict.fromkeys(ids + (cited_rule(error) if error is not None else ())))


def refused_play_rules(state: RoundState, card: int, error: EngineRejection | None = None,
                       broken: bool | None = None) -> tuple[str, ...]:
    """The rule that allows the card ``card`` (an index) the engine refused, then the rule it cited."""
    ctx = state.context if broken is None else state.context._replace(hearts_broken=broken)
    rule = allowing_rule(state.hands[state.to_play], ctx, state.rules, 1 << card) or "TRICK-ORDER"
    return _with_cited((rule,), error)


def refused_pass_rules(error: EngineRejection | None = None) -> tuple[str, ...]:
    """PASS-COUNT allows any three cards of the seat's own hand; then the rule the engine cited."""
    return _with_cited(("PASS-COUNT",), error)


def refused_deal_rules(rules: Rules, error: EngineRejection | None = None) -> tuple[str, ...]:
    """DECK-REMOVED (when cards are removed) and DEAL-HANDS allow the deal; then the rule the engine cited."""
    return _with_cited((("DECK-REMOVED",) if rules.removed_cards else ()) + ("DEAL-HANDS",), error)


def accepted_play_rules(state: RoundState, card: int) -> tuple[str, ...]:
    """The rule that forbids the card ``card`` (an index) the engine accepted."""
    return (rejecting_rule(state.hands[state.to_play], state.context, state.rules, 1 << card) or "TRICK-ORDER",)


def accepted_pass_rules(state: RoundState, seat: int, cards: int) -> tuple[str, ...]:
    """The rule that forbids the pass of ``cards`` (a mask) by ``seat`` that the engine accepted.

    A card another seat has already passed to ``seat`` is one it holds only if the passes were
    carried out before every seat chose: PASS-SIMULTANEOUS, then PASS-COUNT.
    """
    offset = state.rules.pass_offset(state.direction) if state.passing else 0
    early = 0
    for giver, given in enumerate(state.passes):
        if given and offset and (giver + offset) % state.rules.players == seat:
            early |= given
    if cards & early:
        return ("PASS-SIMULTANEOUS", "PASS-COUNT")
    try:
        state.choose_pass(seat, CardSet.from_mask(cards))
    except IllegalPassError as error:
        return (error.rule_id,)
    return ("PASS-COUNT",)
