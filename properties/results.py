"""Proof results, and their two forms: a console table and the JSON the docs are generated from.

One :class:`ProofResult` per invariant, rules (a preset or a variant combination) and
method (``context`` or ``inductive``): its status, the status the rules lead us to
expect, the time, the number of z3 queries, and for a refutation the counterexample.

>>> result = ProofResult("OPENING-LEAD", "seed000", "context", "proved", "proved", 0.012, 2)
>>> result.matches, result.cell()
(True, 'proved 0.01s')
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from properties.catalogue import BY_ID
from properties.counterexamples import Counterexample
from properties.findings import NO_ROUND_REACHES, proved_unreachable
from properties.solving import NOT_APPLICABLE, PROVED, REFUTED

__all__ = ["ProofResult", "all_match", "table", "report_renderables", "report_dict", "JSON_VERSION"]

JSON_VERSION = 1


@dataclass(frozen=True)
class ProofResult:
    """The outcome of proving one invariant under one set of rules by one method."""

    invariant: str
    rules: str                 # a preset name, or the variant values of a combination
    method: str                # "context" or "inductive"
    status: str                # proved, refuted, unconfirmed, timed out, error, n/a
    expected: str              # proved, refuted or n/a (properties.catalogue.expected_outcome)
    seconds: float
    queries: int               # the claims checked (each a z3 query, unless the same claim was asked before)
    counterexamples: tuple[Counterexample, ...] = ()   # one per refuted context; replayed ones first
    detail: str = ""
    changes: dict[str, Any] = field(default_factory=dict)   # the variant values that differ from the default
    shared_with: str = ""      # the rules whose proof this is too (same values of the invariant's parameters)
    argument: tuple[str, ...] = ()          # GAME-ENDS: the steps of the bound's proof, in words
    witness: dict[str, Any] | None = None   # GAME-ENDS: the game that never ends, replayed on the engine

    @property
    def counterexample(self) -> Counterexample | None:
        """The first counterexample (one confirmed on the engine, when there is one)."""
        return self.counterexamples[0] if self.counterexamples else None

    @property
    def blocking(self) -> tuple[str, ...]:
        """The rules that make the refutation: those that leave its stuck hands no play (of the counterexamples replayed
        on the engine, else of those no proof rules out), or those through which its game never ends (GAME-ENDS)."""
        if self.witness:
            return tuple(self.witness.get("rules") or ())
        examples = ([e for e in self.counterexamples if e.replay is not None]
                    or [e for e in self.counterexamples if not proved_unreachable(e)])
        return tuple(dict.fromkeys(rule for example in examples for rule, _ in example.blocked))

    @property
    def matches(self) -> bool:
        """Whether the outcome is the expected one (timed out, error and unconfirmed never are)."""
        return self.status == self.expected

    def cell(self) -> str:
        """The table cell: the status and the time; a star marks an outcome that was not expected."""
        mark = "" if self.matches else f" (expected {self.expected})*"
        if self.status == NOT_APPLICABLE:
            return "n/a" + mark
        if self.shared_with:
            return f"{self.status} ={self.shared_with}{mark}"
        return f"{self.status} {self.seconds:.2f}s{mark}"

    def to_dict(self) -> dict[str, Any]:
        invariant = BY_ID[self.invariant]
        return {"invariant": self.invariant, "statement": invariant.statement, "rule_ids": list(invariant.rules),
                "rules": self.rules, "changes": dict(self.changes), "method": self.method, "status": self.status,
                "expected": self.expected, "matches": self.matches, "seconds": round(self.seconds, 4),
                "queries": self.queries, "detail": self.detail, "shared_with": self.shared_with or None,
                "counterexamples": [example.to_dict() for example in self.counterexamples],
                "blocking": list(self.blocking) if self.status == REFUTED else [],
                "argument": list(self.argument), "witness": self.witness}


def all_match(results: Sequence[ProofResult]) -> bool:
    """Whether every result has its expected outcome."""
    return all(result.matches for result in results)


def report_renderables(results: Sequence[ProofResult], *, combinations: dict[str, Any] | None = None,
                       verdict: bool = False) -> list[Any]:
    """Return the console report as rich renderables: an invariant × rules table per method, the
    variant-combination summary, the counterexamples, whether every outcome is the expected one (not for ``verdict``,
    a house rule's run, which ends on its own verdict; see :mod:`hearts_ref.console`)."""
    from rich.text import Text

    from hearts_ref.console import Table

    parts: list[Any] = []
    for method in ("context", "game", "inductive"):
        chosen = [r for r in results if r.method == method]
        if not chosen:
            continue
        columns = list(dict.fromkeys(r.rules for r in chosen))
        cells = {(r.invariant, r.rules): r for r in chosen}
        title = {"context": "Per-context proofs", "game": "Game-level proofs (a bound on the rounds, or a game without "
                 "end)", "inductive": "Inductive proofs (every reachable state)"}[method]
        total = sum(r.seconds for r in chosen)
        grid = Table("invariant", *columns, title=title + ":",
                     caption=_caption(chosen, total),
                     caption_justify="left")
        for row in dict.fromkeys(r.invariant for r in chosen):
            grid.add_row(row, *(_cell(cells.get((row, column))) for column in columns))
        parts += [grid, Text("")]
    if combinations:
        parts.append(Text(combinations_text(combinations) + "\n"))
    blocks: dict[str, list[str]] = {}
    for r in results:
        if r.counterexamples and not r.shared_with:
            blocks.setdefault(_examples_text(r), []).append(r.rules)
    if blocks:
        parts.append(Text("Counterexamples:", style="bold"))
        parts += [Text(f"[{', '.join(dict.fromkeys(where))}] {text}") for text, where in blocks.items()]
        parts.append(Text(""))
    parts += [Text(f"{r.invariant} under {r.rules} ({r.method}): {r.status}: {r.detail}")
              for r in results if r.detail and (r.status not in (PROVED, NOT_APPLICABLE, REFUTED)
                                                or (r.status == PROVED and NO_ROUND_REACHES in r.detail
                                                    and not r.shared_with))]
    for r in results:
        if r.witness and not r.shared_with:
            parts.append(Text(f"{r.invariant} under {r.rules} ({r.method}): refuted: {r.witness['summary']}"))
        elif r.argument and not r.shared_with and r.status == PROVED:
            parts.append(Text(f"{r.invariant} under {r.rules} ({r.method}): proved: {r.argument[0]}"))
    wrong = [r for r in results if not r.matches]
    if combinations and not combinations["all_expected"]:
        parts.append(Text("FAILED: some variant combinations do not have the expected outcome.", style="bold red"))
    elif not verdict:   # (a house rule's run ends on its own verdict, SOUND, UNSOUND or NOT SETTLED, instead)
        parts.append(Text(f"FAILED: {len(wrong)} outcome(s) differ from what the rules lead us to expect (marked *)."
                          if wrong else f"OK: all {len(results)} outcomes as expected.",
                          style="bold red" if wrong else "bold green"))
    return parts


_STYLES = {PROVED: "green", REFUTED: "yellow", NOT_APPLICABLE: "dim"}


def _cell(result: ProofResult | None) -> Any:
    from rich.text import Text

    if result is None:
        return "—"
    return Text(result.cell(), style=_STYLES.get(result.status, "bold red") if result.matches else "bold red")


def table(results: Sequence[ProofResult], *, combinations: dict[str, Any] | None = None) -> str:
    """Return the console report as plain text (what a pipe or a file receives)."""
    from hearts_ref.console import render

    return render(*report_renderables(results, combinations=combinations))


def _examples_text(result: ProofResult) -> str:
    """The first counterexample in full, the other refuted contexts one line each."""
    first, *others = result.counterexamples
    lines = [f"({result.method}) " + first.text()]
    for example in others:
        how = "reached on the engine" if example.replay else (
            f"{NO_ROUND_REACHES} it (proved): not a counterexample" if proved_unreachable(example) else
            "not reached by the bounded search: it may be unreachable" if example.notes else "z3 model")
        lines.append(f"  also refuted: {example.where} — {how}")
    return "\n".join(lines)


def combinations_text(summary: dict[str, Any]) -> str:
    """The variant-combination summary in words."""
    lines = [f"Variant combinations of the registry: {summary['combinations']} "
             f"(every value of {', '.join(summary['parameters'])})"]
    for invariant, counts in summary["invariants"].items():
        parts = ", ".join(f"{n} {status}" for status, n in counts["combinations"].items())
        lines.append(f"  {invariant}: {parts} (over {counts['distinct']} distinct proofs; "
                     f"{'as expected' if counts['all_expected'] else 'NOT as expected'})")
    return "\n".join(lines)


def report_dict(results: Sequence[ProofResult], *, presets: Sequence[str], deep: bool, timeout: float,
                seconds: float, combinations: dict[str, Any] | None = None) -> dict[str, Any]:
    """Return the ``--json`` report (its shape is documented in :mod:`hearts_ref.commands.prove`)."""
    return {
        "version": JSON_VERSION,
        "presets": list(presets),
        "deep": deep,
        "timeout": timeout,
        "seconds": round(seconds, 3),
        "all_expected": all_match(results) and (combinations is None or combinations["all_expected"]),
        "invariants": [{"id": i.id, "statement": i.statement, "rule_ids": list(i.rules), "methods": list(i.methods)}
                       for i in BY_ID.values()],
        "results": [r.to_dict() for r in results],
        "combinations": combinations,
    }


def _caption(chosen: list, seconds: float) -> str:
    """A table's last line: its results, the z3 claims they checked (none for a game found and replayed on the
    engine alone), its time."""
    claims = sum(r.queries for r in chosen)
    return (f"{len(chosen)} result{'s' if len(chosen) != 1 else ''}"
            + (f", {claims} claim{'s' if claims != 1 else ''} checked by z3" if claims else "") + f", {seconds:.2f}s")
