"""The conformance vectors as values: cases, rounds, steps and what must hold after each step.

The JSON form is described by ``spec/vectors.schema.json`` and ``spec/vectors.md``; each class
here writes its own JSON (``to_json``), and :mod:`hearts_ref.vectors.reader` reads it back.

>>> step = Step("play", 0, (Card.parse("2C"),), expect=Expect("play", 1, legal=CardSet.parse("3C 9C")))
>>> step.text()
'seat 0 plays 2C'
>>> step.to_json()
{'seat': 0, 'play': '2C', 'expect': {'phase': 'play', 'to_move': 1, 'legal': ['3C', '9C']}}
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from hearts_ref.cards import Card
from hearts_ref.cardset import CardSet
from hearts_ref.variants import Rules

__all__ = ["VECTORS_FORMAT", "FORMAT_VERSION", "SUITE_VERSION", "KINDS", "Expect", "Step", "RoundExpect",
           "RoundCase", "FinalExpect", "Case"]

VECTORS_FORMAT = "hearts-ref-vectors"
FORMAT_VERSION = 1
SUITE_VERSION = "1.4.0"   # raise it whenever a case is added, removed or changed
KINDS = ("rule", "example", "edge", "game")


def _cards(cards: CardSet | tuple[Card, ...]) -> list[str]:
    return [str(card) for card in cards]


@dataclass(frozen=True)
class Expect:
    """What must hold after a step. ``phase`` and ``to_move`` always; the rest when not None.

    ``legal`` is the legal set of the seat to move (play phase); ``trick_winner`` and
    ``points_taken`` are given when the step closes a trick (TRICK-WINNER, SCORE-POINTS).
    """

    phase: str
    to_move: int | None
    legal: CardSet | None = None
    hearts_broken: bool | None = None
    trick_winner: int | None = None
    points_taken: tuple[int, ...] | None = None

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"phase": self.phase, "to_move": self.to_move}
        if self.legal is not None:
            data["legal"] = _cards(self.legal)
        if self.hearts_broken is not None:
            data["hearts_broken"] = self.hearts_broken
        if self.trick_winner is not None:
            data["trick_winner"] = self.trick_winner
        if self.points_taken is not None:
            data["points_taken"] = list(self.points_taken)
        return data


@dataclass(frozen=True)
class Step:
    """One pass (three cards) or one play (one card) by ``seat``.

    A valid step has ``expect``; an invalid one has ``rejected_by``, the rule ID that
    rejects it, and must leave the state unchanged.
    """

    kind: str                        # "pass" or "play"
    seat: int
    cards: tuple[Card, ...]
    rejected_by: str | None = None
    expect: Expect | None = None

    @property
    def card(self) -> Card:
        """The card of a play."""
        return self.cards[0]

    def text(self) -> str:
        """Return the step in words: ``seat 2 plays QS``, ``seat 0 passes 2C QS AH``."""
        verb = "plays" if self.kind == "play" else "passes"
        return f"seat {self.seat} {verb} {' '.join(str(c) for c in self.cards)}"

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"seat": self.seat}
        data[self.kind] = str(self.card) if self.kind == "play" else _cards(self.cards)
        if self.rejected_by is not None:
            data["rejected_by"] = self.rejected_by
        if self.expect is not None:
            data["expect"] = self.expect.to_json()
        return data


@dataclass(frozen=True)
class RoundExpect:
    """The outcome of a finished round: raw points, round scores, the moon shooter, the totals after it."""

    points: tuple[int, ...]
    scores: tuple[int, ...]
    moon: int | None
    totals: tuple[int, ...]

    def to_json(self) -> dict[str, Any]:
        return {"points": list(self.points), "scores": list(self.scores), "moon": self.moon,
                "totals": list(self.totals)}


@dataclass(frozen=True)
class RoundCase:
    """One round of a case: the deal (or a deal that must be rejected), the steps, the outcome."""

    dealer: int
    direction: str
    hands: tuple[CardSet, ...]
    steps: tuple[Step, ...] = ()
    rejected_by: str | None = None
    result: RoundExpect | None = None

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"dealer": self.dealer, "pass_direction": self.direction,
                                "hands": [_cards(hand) for hand in self.hands]}
        if self.rejected_by is not None:
            data["rejected_by"] = self.rejected_by
        data["steps"] = [step.to_json() for step in self.steps]
        data["result"] = None if self.result is None else self.result.to_json()
        return data


@dataclass(frozen=True)
class FinalExpect:
    """The state of the game after the case's last step: totals, whether it is over, the winners."""

    totals: tuple[int, ...]
    game_over: bool
    winners: tuple[int, ...]

    def to_json(self) -> dict[str, Any]:
        return {"totals": list(self.totals), "game_over": self.game_over, "winners": list(self.winners)}


@dataclass(frozen=True)
class Case:
    """One conformance case: ID, what it shows, the rule IDs it exercises, the rules, the rounds, the end."""

    id: str
    description: str
    kind: str
    rule_ids: tuple[str, ...]
    preset: str | None
    rules: Rules
    rounds: tuple[RoundCase, ...]
    final: FinalExpect | None = None
    source: str | None = None
    file: str = ""                  # where it was read from (not part of the JSON)

    @property
    def steps(self) -> int:
        """The number of steps over all rounds."""
        return sum(len(r.steps) for r in self.rounds)

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "description": self.description, "kind": self.kind,
                "rule_ids": list(self.rule_ids), "source": self.source, "preset": self.preset,
                "variant": self.rules.to_dict(), "rounds": [r.to_json() for r in self.rounds],
                "final": None if self.final is None else self.final.to_json()}
