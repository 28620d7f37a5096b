"""The outcome of a conformance vector on an engine: its status, and the first thing the engine got wrong.

>>> summarize([CaseResult("a", "passed", ()), CaseResult("b", "error", ())])["error"]
1
"""

from __future__ import annotations

import json

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from hearts_ref.cardset import CardSet
from hearts_ref.conformance.diagnose import UNTOLD, ambiguous_winner
from hearts_ref.vectors.model import Case

__all__ = ["Failure", "CaseResult", "STATUSES", "summarize", "unaccounted"]

STATUSES = ("passed", "failed", "error", "skipped", "expected-fail", "unexpected-pass")


@dataclass(frozen=True)
class Failure:
    """The first thing an engine got wrong in a case, and where."""

    round: int                   # 1-based round of the case
    step: int | None             # 0-based step of that round; None for the deal or the round's end
    what: str                    # the step in words, "deal of round 1", "end of round 2" …
    field: str                   # what differed: legal, to_move, rejection, accepted, totals … or engine-error
    expected: Any
    actual: Any
    rule_ids: tuple[str, ...]
    message: str = ""

    def text(self) -> str:
        """Return the failure in one line."""
        where = f"round {self.round}" + (f", step {self.step + 1}" if self.step is not None else "")
        rules = ", ".join(self.rule_ids) or "no rule ID"
        note = f" ({self.message})" if self.message else (f" ({UNTOLD})" if ambiguous_winner(self.rule_ids) else "")
        return (f"{where}: {self.what}: {self.field}: expected {_show(self.expected)}, engine {_show(self.actual)}"
                f" [{rules}]{note}")

    def to_dict(self) -> dict[str, Any]:
        return {"round": self.round, "step": self.step, "what": self.what, "field": self.field,
                "expected": _plain(self.expected), "actual": _plain(self.actual), "rule_ids": list(self.rule_ids),
                "message": self.message}


@dataclass(frozen=True)
class CaseResult:
    """The outcome of one case on one engine."""

    case_id: str
    status: str
    rule_ids: tuple[str, ...]
    reason: str = ""             # why skipped, why expected to fail, or a note
    failure: Failure | None = None
    file: str = ""

    @property
    def ok(self) -> bool:
        """Whether the outcome is not a failure (an unexpected pass is flagged, not failed)."""
        return self.status not in ("failed", "error")

    def to_dict(self) -> dict[str, Any]:
        return {"case": self.case_id, "status": self.status, "rule_ids": list(self.rule_ids), "reason": self.reason,
                "failure": None if self.failure is None else self.failure.to_dict(), "file": self.file}


def summarize(results: Sequence[CaseResult]) -> dict[str, int]:
    """Return how many results have each status (every status present, zero or not), and the total."""
    counts = Counter(r.status for r in results)
    return {status: counts.get(status, 0) for status in STATUSES} | {"total": len(results)}


def unaccounted(cases: Sequence[Case], results: Sequence[CaseResult]) -> list[str]:
    """Return the IDs of cases without exactly one result of a known status (empty when all are accounted for)."""
    seen = Counter(r.case_id for r in results if r.status in STATUSES and (r.status != "skipped" or r.reason))
    return [case.id for case in cases if seen.get(case.id) != 1]


def _show(value: Any) -> str:
    """A value as the findings of the games show it: a card set in brackets, the rest as the protocol writes it
    (JSON: a tuple as a list, true, false, null).

    >>> _show(False), _show("rejected by DEAL-HANDS"), _show((0, 13))
    ('false', '"rejected by DEAL-HANDS"', '[0, 13]')
    """
    if isinstance(value, CardSet):
        return f"[{value}]"
    return json.dumps(_plain(value), ensure_ascii=False)


def _plain(value: Any) -> Any:
    if isinstance(value, CardSet):
        return [str(c) for c in value]
    if isinstance(value, tuple):
        return list(value)
    return value
