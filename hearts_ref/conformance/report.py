"""Conformance reports: every case with its outcome, as JSON (JUnit XML: :mod:`.junit`; the console: :mod:`.summary`).

A report (schema: ``spec/report.schema.json``) accounts for every case of a run: passed,
failed, flaky (it failed, but its reproduction did not fail the same way on every replay: still
a deviation), error (the engine failed: a timeout, a crash, a broken reply), skipped (with the
reason), expected-fail (only deviations the engine declared in its capabilities),
unexpected-pass (a declared deviation that did not show) or abandoned (not run: the engine
failed the same way in too many games in a row; the reason says how). A failed case carries
its findings: the rule IDs, the step, expected against actual, and for the first case of each
distinct finding a shrunk reproduction and the one-line command that replays it.

Shards of one campaign (``--shard K/N``) write reports that :func:`merge_reports` joins
into the report one process would have written, case for case and in the same order;
written with ``timings=False`` (every measured duration 0, no reply times) the two are the
same bytes. A report marked ``incomplete`` holds what a run stopped by a signal had judged.

>>> report = Report(engine={"spec": "x", "name": "x"}, rules={}, seed=1, games=0)
>>> report.add(Case("differential/uniform/0", "differential", "passed"))
>>> report.summary()["counts"]["passed"], report.exit_code()
(1, 0)
"""

from __future__ import annotations

import copy
import itertools
import json
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from hearts_ref.conformance.junit import junit_xml
from hearts_ref.engines.health import ReplyTimes
from hearts_ref.errors import RecordError
from hearts_ref.reading import check_schema, read_json
from hearts_ref.conformance.findings import finding_key
from hearts_ref.conformance.tally import distinct_findings, rule_table

__all__ = ["Case", "Report", "STATUSES", "FAILING", "NOT_STARTED", "REPORT_FORMAT", "merge_reports", "load_report",
           "junit_xml", "rule_table"]

REPORT_FORMAT = "hearts-ref-conform-report"
REPORT_VERSION = 1
STATUSES = ("passed", "failed", "flaky", "error", "skipped", "expected-fail", "unexpected-pass", "abandoned")
FAILING = ("failed", "flaky", "error")   # the statuses that fail a run (exit code 1)
# The reason of every case of a run whose engine could not be started (exit code 2, as the run itself had)
NOT_STARTED = "the engine could not be started"


def _shrunk_untimed(data: dict[str, Any]) -> dict[str, Any]:
    """``data`` (a case, or one of its findings) with the time its reproduction's search took written as 0."""
    search = data.get("reproduction", {}).get("search", {})
    if "seconds" not in search:
        return data
    return data | {"reproduction": data["reproduction"] | {"search": search | {"seconds": 0}}}


@dataclass
class Case:
    """One case of a run: a vector, a perft count, a differential game, a game of negative checks."""

    id: str
    kind: str                       # "vector", "perft", "differential", "negative"
    status: str                     # one of STATUSES
    rule_ids: tuple[str, ...] = ()
    reason: str = ""                # why skipped, or what failed, in one line
    seconds: float = 0.0
    details: dict[str, Any] = field(default_factory=dict)

    def to_dict(self, *, timings: bool = True) -> dict[str, Any]:
        data = {"id": self.id, "kind": self.kind, "status": self.status, "rule_ids": list(self.rule_ids),
                "reason": self.reason, "seconds": round(self.seconds, 6) if timings else 0}
        data.update(self.details)
        if not timings:   # how long the shrinking took: of the case's reproduction and of each finding's
            data = _shrunk_untimed(data)
            if "findings" in data:
                data["findings"] = [_shrunk_untimed(finding) for finding in data["findings"]]
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Case:
        details = {k: v for k, v in data.items() if k not in ("id", "kind", "status", "rule_ids", "reason", "seconds")}
        return cls(data["id"], data["kind"], data["status"], tuple(data.get("rule_ids") or ()),
                   data.get("reason", ""), float(data.get("seconds", 0.0)), details)


@dataclass
class Report:
    """The outcome of a conformance run (or of merged shards)."""

    engine: dict[str, Any]
    rules: dict[str, Any]
    seed: int
    games: int
    negative_games: int = 0
    shards: list[list[int]] = field(default_factory=lambda: [[1, 1]])
    cases: list[Case] = field(default_factory=list)
    checks: dict[str, list[int]] = field(default_factory=dict)     # negative checks: rule -> [passed, failed, cited]
    steps: dict[str, dict[str, Any]] = field(default_factory=dict)  # vectors / differential / negative: ran or why not
    known_deviations: list[str] = field(default_factory=list)
    seconds: float = 0.0
    rounds: int = 0
    coverage: dict[str, int] = field(default_factory=dict)         # rounds that reached each situation, and rounds
    incomplete: dict[str, Any] | None = None                         # {"reason": ...}: stopped before its end
    situations: list[str] = field(default_factory=list)             # the situations of the games' rules (.situations)
    untargeted: dict[str, str] = field(default_factory=dict)        # situations no targeted game could aim at: why

    def add(self, case: Case) -> None:
        self.cases.append(case)

    def add_coverage(self, tally: dict[str, int]) -> None:
        for name, count in tally.items():
            self.coverage[name] = self.coverage.get(name, 0) + count

    def add_checks(self, counts: dict[str, list[int]]) -> None:
        for rule, counted in counts.items():
            tally = self.checks.setdefault(rule, [0, 0, 0])
            for k, count in enumerate(counted):
                tally[k] += count

    def summary(self) -> dict[str, Any]:
        """Return the counts by status, the rule-ID table, and the declared deviations that did not show."""
        counts = {status: 0 for status in STATUSES}
        for case in self.cases:
            counts[case.status] = counts.get(case.status, 0) + 1
        observed = {rule for case in self.cases if case.status == "expected-fail" for rule in case.rule_ids}
        observed |= {case.id for case in self.cases if case.status == "expected-fail"}
        ids = {case.id for case in self.cases}
        unobserved = [d for d in self.known_deviations if d not in observed and (d in ids or "/" not in d)]
        return {"counts": counts, "total": len(self.cases), "rules": rule_table(self),
                "findings": distinct_findings(self), "unobserved_known_deviations": unobserved,
                "rounds": self.rounds}

    def judged_nothing(self) -> bool:
        """Whether every case was skipped: the engine could not be judged under these rules at all."""
        return bool(self.cases) and all(case.status == "skipped" for case in self.cases)

    def games_not_judged(self) -> str:
        """Why no differential game was judged, when there were some to play and every one was skipped."""
        games = [case for case in self.cases if case.kind == "differential"]
        if games and all(case.status == "skipped" for case in games):
            return games[0].reason
        return ""

    def exit_code(self) -> int:
        """1 when a case failed unexpectedly (flaky too: a deviation that does not always show is one) or the engine
        failed; 2 when nothing, or no game, was judged (the engine could not be started, declined every case); else
        0."""
        failing = [case for case in self.cases if case.status in FAILING]
        if any(not case.reason.startswith(NOT_STARTED) for case in failing):
            return 1
        return 2 if failing or self.judged_nothing() or self.games_not_judged() else 0

    def not_started(self) -> str:
        """Why the engine could not be started, when that is why nothing was judged (else empty)."""
        error = self.engine.get("error")
        if isinstance(error, dict) and self.exit_code() == 2 and any(
                case.reason.startswith(NOT_STARTED) for case in self.cases):
            return f"{error.get('verdict')}: {error.get('message')}"
        return ""

    def to_dict(self, *, timings: bool = True) -> dict[str, Any]:
        """The report as JSON data; ``timings=False`` writes every duration as 0 and leaves out reply times."""
        engine = self.engine if timings else {k: v for k, v in self.engine.items() if k != "replies"}
        data = {"format": REPORT_FORMAT, "version": REPORT_VERSION, "engine": engine, "rules": self.rules,
                "seed": self.seed, "games": self.games, "negative_games": self.negative_games,
                "shards": self.shards, "seconds": round(self.seconds, 3) if timings else 0, "steps": self.steps,
                "known_deviations": self.known_deviations, "checks": dict(sorted(self.checks.items())),
                "coverage": dict(sorted(self.coverage.items())),
                "summary": self.summary(), "cases": [case.to_dict(timings=timings) for case in self.cases]}
        if self.incomplete is not None:
            data["incomplete"] = self.incomplete
        if self.situations:
            from hearts_ref.conformance.situations import situation_rows
            data["situations"] = situation_rows(self.situations, self.coverage, self.untargeted)
        return data

    def dumps(self, *, timings: bool = True) -> str:
        return json.dumps(self.to_dict(timings=timings), indent=1, ensure_ascii=False) + "\n"

    @classmethod
    def from_dict(cls, data: dict[str, Any], where: str = "report") -> Report:
        """The report ``data`` holds (as :meth:`to_dict` writes it); RecordError, naming the JSON path and why,
        unless it is as ``spec/report.schema.json`` says (a shard's report read back is input like any other)."""
        if not isinstance(data, dict) or data.get("format") != REPORT_FORMAT:
            raise RecordError(f"not a {REPORT_FORMAT!r} JSON object", where=where)
        check_schema(data, "report.schema.json", where=where)
        try:
            return cls(data["engine"], data["rules"], int(data["seed"]), int(data["games"]),
                       int(data.get("negative_games", 0)), [list(s) for s in data.get("shards", [[1, 1]])],
                       [Case.from_dict(c) for c in data.get("cases", [])],
                       {k: list(v) for k, v in data.get("checks", {}).items()}, dict(data.get("steps", {})),
                       list(data.get("known_deviations", [])), float(data.get("seconds", 0.0)),
                       int(data.get("summary", {}).get("rounds", 0)), dict(data.get("coverage", {})),
                       dict(data["incomplete"]) if data.get("incomplete") is not None else None,
                       [str(row["name"]) for row in data.get("situations", [])],
                       {str(row["name"]): str(row["untargeted"]) for row in data.get("situations", [])
                        if "untargeted" in row})
        except (KeyError, TypeError, ValueError) as error:
            raise RecordError(f"malformed report ({error})", where=where) from None


def load_report(path: str) -> Report:
    """Return the report stored in the JSON file ``path``; RecordError says why it cannot be read."""
    data = read_json(Path(path), where=path, limit=None)   # the file errors worded as for every file read
    return Report.from_dict(data, where=path)


def merge_reports(reports: list[Report], *, of: tuple[int, int] = (1, 1), complete: bool = True) -> Report:
    """Return one report from the shards of one campaign (same engine, rules, seed and games).

    The shards must make up shard ``of`` (by default the whole campaign) exactly: all ``K/N`` of
    one split, or, for ``of=(K, N)``, the shards ``K + N*j`` of ``N*J`` that split it again. The
    cases come in the order one process plays them (each kind dealt round-robin), and a finding
    seen in several shards keeps its reproduction on its first case only, the others pointing to
    it (``same_finding_as``), as one process would write them. ``complete=False`` lets shards be
    missing (the merge of a campaign stopped by a signal, marked ``incomplete``).
    """
    if not reports:
        raise RecordError("nothing to merge", where="--merge")
    first = reports[0]
    for report in reports:
        for name in ("rules", "seed", "games", "negative_games"):
            if getattr(report, name) != getattr(first, name):
                raise RecordError(f"cannot merge shards of different campaigns: {name} differs "
                                  f"({getattr(first, name)!r} and {getattr(report, name)!r})", where="--merge")
        if report.engine.get("spec") != first.engine.get("spec"):
            raise RecordError(f"cannot merge reports of different engines ({first.engine.get('spec')!r} and "
                              f"{report.engine.get('spec')!r})", where="--merge")
    ordered = sorted(reports, key=lambda report: sorted(map(tuple, report.shards)))
    _check_split([shard for report in ordered for shard in report.shards], of, complete)
    for report in ordered:
        _check_games(report, complete)
    merged = Report(dict(first.engine), first.rules, first.seed, first.games, first.negative_games, [list(of)],
                    known_deviations=list(first.known_deviations))
    replies = [ReplyTimes.from_dict(r.engine["replies"]) for r in ordered if isinstance(r.engine.get("replies"), dict)]
    if replies:
        for times in replies[1:]:
            replies[0].merge(times)
        merged.engine["replies"] = replies[0].to_dict()
    for case in _round_robin(ordered):
        merged.add(case)
    _one_reproduction_per_finding(merged.cases)
    for report in ordered:
        merged.add_checks(report.checks)
        merged.add_coverage(report.coverage)
        for step, state in report.steps.items():
            if step not in merged.steps:
                merged.steps[step] = dict(state)
            else:   # the vectors and perft deals each shard ran add up
                for counted in ("cases", "deals"):
                    if counted in state and counted in merged.steps[step]:
                        merged.steps[step][counted] += state[counted]
        merged.seconds = max(merged.seconds, report.seconds)
        merged.rounds += report.rounds
        merged.incomplete = merged.incomplete or report.incomplete
        merged.situations = merged.situations or list(report.situations)
        merged.untargeted = merged.untargeted or dict(report.untargeted)
    return merged


def _check_games(report: Report, complete: bool) -> None:
    """Raise RecordError unless a shard's report holds each game of its shards once, and no other: shard K/N plays
    the games numbered i with i % N == K - 1, of each kind (a stopped run's report, or any when not ``complete``,
    may hold fewer). The work is the cases', whatever the games the report claims."""
    shards = " + ".join(f"{k}/{n}" for k, n in report.shards)
    for kind, count in (("differential", report.games), ("negative", report.negative_games)):
        held = Counter(case.id.rsplit("/", 1)[-1] for case in report.cases if case.kind == kind)
        stray = sorted(number for number, times in held.items() if times > 1 or not number.isdigit()
                       or int(number) >= count or not any(int(number) % n == k - 1 for k, n in report.shards))
        if stray:
            raise RecordError(f"the report of shard {shards} holds {kind} games it does not play, or twice: "
                              f"{', '.join(stray[:5])}", where="--merge")
        wanted = sum(len(range(k - 1, count, n)) for k, n in report.shards)   # (one split: the shards are disjoint)
        if len(held) < wanted and complete and report.incomplete is None:
            # the first game not held: in each shard's games, among the first len(held) + 1
            first = min(i for k, n in report.shards for i in itertools.islice(range(k - 1, count, n), len(held) + 1)
                        if str(i) not in held)
            raise RecordError(f"the report of shard {shards} lacks {wanted - len(held)} of its {wanted} {kind} "
                              f"games (the first: {first}), and is not marked incomplete", where="--merge")


def _check_split(shards: list[list[int]], of: tuple[int, int], complete: bool) -> None:
    """Raise RecordError unless ``shards`` are exactly the shards of one split that make up shard ``of``."""
    seen: set[tuple[int, int]] = set()
    for k, n in shards:
        if (k, n) in seen:
            raise RecordError(f"shard {k}/{n} appears twice", where="--merge")
        seen.add((k, n))
    splits = sorted({n for _, n in seen})
    if len(splits) != 1:
        raise RecordError(f"cannot merge shards of different splits ({' and '.join(f'K/{n}' for n in splits)})",
                          where="--merge")
    (n,), (whole_k, whole_n) = splits, of
    if n % whole_n:
        raise RecordError(f"shards K/{n} cannot make up shard {whole_k}/{whole_n}", where="--merge")
    # shard whole_k/whole_n is made of the shards whole_k + whole_n * j of n (the work is the shards', not n's)
    strays = sorted((k, m) for k, m in seen if not (whole_k <= k <= n and (k - whole_k) % whole_n == 0))
    if strays:
        raise RecordError(f"shard {', '.join(f'{k}/{n}' for k, n in strays)} is not part of shard "
                          f"{whole_k}/{whole_n}", where="--merge")
    parts = n // whole_n
    if len(seen) < parts and complete:
        missing = [f"{k}/{n}" for j in itertools.islice(range(parts), len(seen) + 10)
                   for k in [whole_k + whole_n * j] if (k, n) not in seen][:10]
        more = f" and {parts - len(seen) - len(missing)} more" if parts - len(seen) > len(missing) else ""
        raise RecordError(f"shard {', '.join(missing)}{more} missing: the merged campaign would be incomplete",
                          where="--merge")


KIND_ORDER = ("vector", "perft", "differential", "negative")   # the order one process judges them in


def _round_robin(reports: list[Report]) -> list[Case]:
    """The cases of the shards, in ``K`` order, as one process plays them: case ``m`` of shard ``k`` of a
    kind is that kind's case ``m * N + k - 1``. A case ID seen twice is kept once."""
    kinds = list(KIND_ORDER) + [k for r in reports for k in dict.fromkeys(c.kind for c in r.cases)
                                if k not in KIND_ORDER]
    cases, seen = [], set()
    for kind in dict.fromkeys(kinds):
        lists = [[case for case in report.cases if case.kind == kind] for report in reports]
        for m in range(max(map(len, lists), default=0)):
            for shard_cases in lists:
                if m < len(shard_cases) and shard_cases[m].id not in seen:
                    seen.add(shard_cases[m].id)
                    case = shard_cases[m]
                    cases.append(Case(case.id, case.kind, case.status, case.rule_ids, case.reason, case.seconds,
                                      copy.deepcopy(case.details)))
    return cases


def _one_reproduction_per_finding(cases: list[Case]) -> None:
    """Keep the shrunk reproduction of each finding (its kind and first rule ID) on its first case only.

    Each shard shrank the first case of each finding it met; after the merge, a finding's first case
    keeps its reproduction and the later ones point at it (``same_finding_as``), as one process writes them.
    """
    first: dict[tuple[Any, Any], str] = {}
    for case in cases:
        if case.status not in FAILING:
            continue
        entries = [entry for entry in case.details.get("findings", []) if not entry.get("expected")]
        if isinstance(case.details.get("error"), dict):
            entries.append(case.details["error"])
        entries = [entry for entry in entries if {"reproduction", "same_finding_as"} & entry.keys()]
        if not entries:
            continue
        for entry in entries:
            signature = finding_key(entry.get("kind", ""), entry.get("rule_ids"), str(entry.get("message", "")))
            if signature not in first:
                first[signature] = entry.get("same_finding_as", case.id)
            else:
                entry.pop("reproduction", None)
                entry["same_finding_as"] = first[signature]
        shown = next((entry["reproduction"] for entry in entries if "reproduction" in entry), None)
        case.details.pop("reproduction", None)
        case.details.pop("same_finding_as", None)
        if shown is not None:
            case.details["reproduction"] = shown
        else:
            case.details["same_finding_as"] = entries[0]["same_finding_as"]
