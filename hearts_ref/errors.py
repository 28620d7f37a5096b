"""Errors: one base class, one subclass per kind of failure.

Every message names what failed, the offending value and, for a broken rule, its
rule ID first: ``FOLLOW-SUIT: must follow ♣ (hand holds 3♣ J♣), got Q♠``.
"""

from __future__ import annotations

__all__ = [
    "HeartsError", "InvalidCardError", "RulesError", "IllegalPlayError",
    "IllegalPassError", "RecordError",
]


class HeartsError(ValueError):
    """Base class of every error hearts-ref raises for bad input."""


class InvalidCardError(HeartsError):
    """A text or value that is not a card, or a card set that is not valid."""


class RulesError(HeartsError):
    """A variant value or combination that hearts-ref cannot play; names the field."""

    def __init__(self, message: str, *, field: str | None = None):
        super().__init__(message)
        self.field = field


class IllegalPlayError(HeartsError):
    """A play that breaks a rule; ``rule_id`` names the rule that rejects it."""

    def __init__(self, rule_id: str, message: str):
        super().__init__(f"{rule_id}: {message}")
        self.rule_id = rule_id


class IllegalPassError(IllegalPlayError):
    """A pass that breaks a passing rule (PASS-COUNT, PASS-SIMULTANEOUS, PASS-CYCLE)."""


class RecordError(HeartsError):
    """A game record or vector file that cannot be read; says where and why."""

    def __init__(self, message: str, *, where: str = ""):
        super().__init__(f"{where}: {message}" if where else message)
        self.where = where
