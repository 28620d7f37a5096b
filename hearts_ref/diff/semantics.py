"""What a comparison runs and says: the rule functions of each side, and the rule IDs each side applies.

A comparison asks the same functions the engine plays with — on integer masks to replay a
game, on z3 Booleans to look for a one-step difference — bundled in :class:`Semantics`.
:data:`ENGINE` is the reference engine's own rule code. A formal statement per rule ID,
written from the spec's prose, plugs in as another bundle of the same shape (each function
taking the same arguments and running on both card-set algebras): pass it to
:class:`~hearts_ref.diff.compare.Comparer` (``Comparer(semantics=...)``) and the one-step
questions and the searches run on the statements, while every game found is still replayed
on the reference engine — a game that parts the sides under the statements but not on the
engine is reported (verdict ``unsettled``) as a disagreement between the two.

Which rule each side applies at the step where the sides part comes from the engine where
the engine says it — :func:`~hearts_ref.legality.rejecting_rule` for a card one side
forbids, :meth:`~hearts_ref.round.RoundState.deadlock_error` for a player left without a
play — and otherwise from the variant registry: the rule IDs of the parameters the sides
differ in that govern what was observed (:func:`rules_for`).

>>> from hearts_ref import Rules
>>> rules_for("legal", ("first_trick_points", "end_comparison"))
('FIRST-NO-POINTS', 'FIRST-EXCEPTION')
>>> rules_for("broken", ("qs_breaks_hearts",))
('BREAK-QUEEN',)
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from hearts_ref.game import is_game_over
from hearts_ref.legality import breaks_hearts, legal_plays
from hearts_ref.scoring import card_points, score_terms
from hearts_ref.variants import PARAMETERS, Rules

__all__ = ["Semantics", "ENGINE", "KINDS", "rules_for", "OBSERVED"]


@dataclass(frozen=True)
class Semantics:
    """The rule functions a comparison runs, each with the engine's signature.

    ``legal_plays(hand, ctx, rules, ops)``, ``breaks_hearts(card, ctx, rules, ops)``,
    ``card_points(cards, rules, ops)`` and ``score_terms(taken, rules, ops)`` run on both
    card-set algebras; ``game_over(totals, rounds_played, rules)`` and
    ``pass_direction(rules, round_number)`` on plain values.
    """

    legal_plays: Callable[..., Any] = legal_plays
    breaks_hearts: Callable[..., Any] = breaks_hearts
    card_points: Callable[..., Any] = card_points
    score_terms: Callable[..., Any] = score_terms
    game_over: Callable[[tuple[int, ...], int, Rules], bool] = is_game_over
    pass_direction: Callable[[Rules, int], str] = Rules.pass_direction


ENGINE = Semantics()
"""The reference engine's rule code: what every comparison runs unless told otherwise."""

# What the sides can be seen to differ in, each with the rule IDs that govern it.
KINDS: dict[str, tuple[str, ...]] = {
    "deal": ("PLAYERS-COUNT", "DECK-REMOVED", "DEAL-HANDS"),
    "pass": ("PASS-CYCLE",),
    "legal": ("LEAD-OPEN", "LEAD-HEARTS", "FOLLOW-SUIT", "FOLLOW-VOID", "FIRST-NO-POINTS", "FIRST-EXCEPTION"),
    "broken": ("BREAK-DISCARD", "BREAK-QUEEN"),
    "points": ("SCORE-POINTS", "SCORE-JACK"),
    "scores": ("SCORE-POINTS", "SCORE-JACK", "SCORE-MOON", "SCORE-NO-TRICKS"),
    "end": ("END-THRESHOLD", "WIN-TIE", "WIN-LOWEST"),
}
# The fields of the engine's observation (and the legal set) that show each kind.
OBSERVED: dict[str, str] = {
    "deal": "the number of players", "pass": "the pass direction", "legal": "the legal plays",
    "broken": "whether hearts are broken", "points": "the points taken", "scores": "the round scores",
    "end": "whether the game is over",
}


def rules_for(kind: str, parameters: tuple[str, ...]) -> tuple[str, ...]:
    """The rule IDs, in registry order, that the ``parameters`` change and that govern ``kind``."""
    governing = KINDS[kind]
    found: list[str] = []
    for parameter in PARAMETERS:
        if parameter.name in parameters:
            found += [rule for rule in parameter.rules if rule in governing and rule not in found]
    return tuple(found)
