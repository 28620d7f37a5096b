"""Conformance reports: every case with its outcome, as JSON, JUnit XML and a console table.

A report (schema: ``spec/report.schema.json``) accounts for every case of a run: passed,
failed, error (the engine failed: a timeout, a crash, a broken reply), skipped (with the
reason), expected-fail (only deviations the engine declared in its capabilities) or
unexpected-pass (a declared deviation that did not show). A failed case carries its
findings: the rule IDs, the step, expected against actual, and for the first case of each
distinct finding a shrunk reproduction and the one-line command that replays it.

Shards of one campaign (``--shard K/N``) write reports that :func:`merge_reports` joins.

>>> report = Report(engine={"spec": "x", "name": "x"}, rules={}, seed=1, games=0)
>>> report.add(Case("differential/uniform/0", "differential", "passed"))
>>> report.summary()["counts"]["passed"], report.exit_code()
(1, 0)
"""

from __future__ import annotations

import json
import re
from collections import Counter
from dataclasses import dataclass, field
from typing import Any
from xml.etree import ElementTree

from hearts_ref.errors import RecordError
from hearts_ref.conformance.tally import distinct_findings, rule_table

__all__ = ["Case", "Report", "STATUSES", "REPORT_FORMAT", "merge_reports", "load_report", "junit_xml",
           "console_summary", "rule_table"]

REPORT_FORMAT = "hearts-ref-conform-report"
REPORT_VERSION = 1
STATUSES = ("passed", "failed", "error", "skipped", "expected-fail", "unexpected-pass")


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

    def to_dict(self) -> dict[str, Any]:
        data = {"id": self.id, "kind": self.kind, "status": self.status, "rule_ids": list(self.rule_ids),
                "reason": self.reason, "seconds": round(self.seconds, 6)}
        data.update(self.details)
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
    coverage: dict[str, int] = field(default_factory=dict)         # situations met (coverage.SITUATIONS)

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
        """1 when a case failed unexpectedly or the engine failed; 2 when nothing, or no game, was judged; else 0."""
        if any(case.status in ("failed", "error") for case in self.cases):
            return 1
        return 2 if self.judged_nothing() or self.games_not_judged() else 0

    def to_dict(self) -> dict[str, Any]:
        return {"format": REPORT_FORMAT, "version": REPORT_VERSION, "engine": self.engine, "rules": self.rules,
                "seed": self.seed, "games": self.games, "negative_games": self.negative_games,
                "shards": self.shards, "seconds": round(self.seconds, 3), "steps": self.steps,
                "known_deviations": self.known_deviations, "checks": self.checks,
                "coverage": dict(sorted(self.coverage.items())),
                "summary": self.summary(), "cases": [case.to_dict() for case in self.cases]}

    def dumps(self) -> str:
        return json.dumps(self.to_dict(), indent=1, ensure_ascii=False) + "\n"

    @classmethod
    def from_dict(cls, data: dict[str, Any], where: str = "report") -> Report:
        if not isinstance(data, dict) or data.get("format") != REPORT_FORMAT:
            raise RecordError(f"not a {REPORT_FORMAT!r} JSON object", where=where)
        try:
            return cls(data["engine"], data["rules"], int(data["seed"]), int(data["games"]),
                       int(data.get("negative_games", 0)), [list(s) for s in data.get("shards", [[1, 1]])],
                       [Case.from_dict(c) for c in data.get("cases", [])],
                       {k: list(v) for k, v in data.get("checks", {}).items()}, dict(data.get("steps", {})),
                       list(data.get("known_deviations", [])), float(data.get("seconds", 0.0)),
                       int(data.get("summary", {}).get("rounds", 0)), dict(data.get("coverage", {})))
        except (KeyError, TypeError, ValueError) as error:
            raise RecordError(f"malformed report ({error})", where=where) from None


def load_report(path: str) -> Report:
    """Return the report stored in the JSON file ``path``; RecordError says why it cannot be read."""
    try:
        with open(path, encoding="utf-8") as handle:
            data = json.load(handle)
    except OSError as error:
        raise RecordError(f"cannot read ({error.strerror})", where=path) from None
    except ValueError as error:
        raise RecordError(f"not JSON ({error})", where=path) from None
    return Report.from_dict(data, where=path)


def merge_reports(reports: list[Report]) -> Report:
    """Return one report from the shards of one campaign (same engine, rules, seed and games)."""
    if not reports:
        raise RecordError("nothing to merge", where="--merge")
    first = reports[0]
    merged = Report(first.engine, first.rules, first.seed, first.games, first.negative_games, [],
                    known_deviations=list(first.known_deviations))
    seen: dict[str, Case] = {}
    for report in reports:
        for name in ("rules", "seed", "games", "negative_games"):
            if getattr(report, name) != getattr(first, name):
                raise RecordError(f"cannot merge shards of different campaigns: {name} differs "
                                  f"({getattr(first, name)!r} and {getattr(report, name)!r})", where="--merge")
        if report.engine.get("spec") != first.engine.get("spec"):
            raise RecordError(f"cannot merge reports of different engines ({first.engine.get('spec')!r} and "
                              f"{report.engine.get('spec')!r})", where="--merge")
        for shard in report.shards:
            if shard in merged.shards:
                raise RecordError(f"shard {shard[0]}/{shard[1]} appears twice", where="--merge")
            merged.shards.append(shard)
        for case in report.cases:
            if case.id in seen:
                continue   # the vectors and skipped steps repeat in every shard
            seen[case.id] = case
            merged.add(case)
        merged.add_checks(report.checks)
        merged.add_coverage(report.coverage)
        for step, state in report.steps.items():
            merged.steps.setdefault(step, state)
        merged.seconds = max(merged.seconds, report.seconds)
        merged.rounds += report.rounds
    merged.shards.sort()
    splits = sorted({n for _, n in merged.shards})
    if len(splits) != 1:
        raise RecordError(f"cannot merge shards of different splits ({' and '.join(f'K/{n}' for n in splits)})",
                          where="--merge")
    (n,), present = splits, {tuple(shard) for shard in merged.shards}
    missing = [f"{k}/{n}" for k in range(1, n + 1) if (k, n) not in present]
    if missing:
        raise RecordError(f"shard {', '.join(missing)} missing: the merged campaign would be incomplete",
                          where="--merge")
    return merged


def console_summary(report: Report) -> str:
    """Return the readable summary: the counts, the table by rule ID, each finding with its replay command."""
    summary = report.summary()
    counts = summary["counts"]
    engine = report.engine
    lines = [f"hearts-ref conform: {engine.get('name', '?')} {engine.get('version', '')} ({engine.get('spec', '')})",
             f"  rules: {', '.join(f'{k}={v}' for k, v in _changes(report.rules).items()) or 'seed000 defaults'}; "
             f"seed {report.seed}; shards {' '.join(f'{a}/{b}' for a, b in report.shards)}",
             f"  {summary['total']} cases: " + ", ".join(f"{counts[s]} {s}" for s in STATUSES if counts[s])
             + f"  ({summary['rounds']} rounds, {report.seconds:.1f} s)"]
    kinds: dict[str, dict[str, int]] = {}
    for case in report.cases:
        kinds.setdefault(case.kind, {}).setdefault(case.status, 0)
        kinds[case.kind][case.status] += 1
    for kind, by_status in kinds.items():
        lines.append(f"  {kind + 's:':<14} " + ", ".join(f"{n} {s}" for s, n in by_status.items()))
    for step, state in report.steps.items():
        if state.get("status") == "skipped":
            lines.append(f"  {step}: skipped ({state.get('reason')})")
        elif state.get("note"):
            lines.append(f"  {step}: {state['note']}")
    stopped = [c for c in report.cases if c.details.get("stopped") and c.status in ("passed", "expected-fail")]
    if stopped:   # judged up to where they stopped: a deadlock of the rules (FIRST-NO-POINTS), or a limit
        games = sum(1 for c in report.cases if c.kind in ("differential", "negative"))
        why = Counter(str(case.details["stopped"]).split(":")[0] for case in stopped)
        lines.append(f"  {len(stopped)} of {games} games stopped early, judged up to there ("
                     + ", ".join(f"{reason}: {count}" for reason, count in why.items())
                     + f"); e.g. {stopped[0].id}: {stopped[0].details['stopped']}")
    if report.coverage:
        reached = ", ".join(f"{name} {count}" for name, count in sorted(report.coverage.items()) if name != "rounds")
        lines.append(f"  situations played through: {reached}")
    rows = [(rule, row) for rule, row in summary["rules"].items() if any(row.values())]
    if rows:
        lines += ["", f"  {'rule':<18} {'failed':>6} {'errors':>6} {'xfail':>6} {'passed':>6} {'checks ok':>9} "
                      f"{'checks bad':>10} {'cited':>6}"]
        for rule, row in rows:
            mark = "  <--" if row["failed"] or row["checks-failed"] or row["error"] else ""
            lines.append(f"  {rule:<18} {row['failed']:>6} {row['error']:>6} {row['expected-fail']:>6} "
                         f"{row['passed']:>6} {row['checks-passed']:>9} {row['checks-failed']:>10} "
                         f"{row['checks-cited']:>6}{mark}")
    data_failures = [c for c in report.cases if c.status in ("failed", "error") and c.kind in ("vector", "perft")]
    if data_failures:
        lines += ["", "  failed vectors and perft counts (first 10; all in the JSON report):"]
        for case in data_failures[:10]:
            lines.append(f"  - {case.id}: {case.reason}")
            if case.details.get("replay"):
                lines.append(f"    replay: {case.details['replay']}")
    shrunk = [(case, repro) for case in report.cases for repro in _reproductions(case)]
    if shrunk:
        lines += ["", "  findings (shrunk):"]
        for case, repro in shrunk:
            shown = repro.get("deviation") or {}
            rule_ids = shown.get("rule_ids", case.rule_ids)
            lines.append(f"  - {', '.join(rule_ids) or 'engine error'}: {shown.get('message') or case.reason}")
            lines.append(f"    case {case.id}; minimal game: {repro.get('rounds')} round(s), "
                         f"{repro.get('tricks')} trick(s), {repro.get('steps')} steps"
                         + ("" if repro.get("first_difference", True) else "; not its game's first difference"))
            lines.append(f"    replay: {repro.get('command')}")
        others = sum(1 for c in report.cases if c.status in ("failed", "error")) - len({c.id for c, _ in shrunk})
        if others:
            lines.append(f"  ({others} more failed case(s) repeat these findings; see the JSON report)")
    if summary["unobserved_known_deviations"]:
        lines.append(f"  declared deviations not seen (unexpected pass): "
                     f"{', '.join(summary['unobserved_known_deviations'])}")
    lines.append(f"  verdict: {_verdict(report)}")
    return "\n".join(lines) + "\n"


def _verdict(report: Report) -> str:
    code = report.exit_code()
    if code == 1:
        errors = sum(1 for case in report.cases if case.status == "error")
        return "FAIL" + (f" ({errors} engine error(s))" if errors else "")
    if code == 2 and report.judged_nothing():
        return "NOTHING JUDGED: every case was skipped (see the reasons above)"
    if code == 2:
        return f"GAMES NOT JUDGED: every differential game was skipped ({report.games_not_judged()})"
    return "PASS"


def _reproductions(case: Case) -> list[dict[str, Any]]:
    """The reproductions a case carries: one per distinct finding first seen in it (and its engine failure)."""
    entries = list(case.details.get("findings") or ()) + ([case.details["error"]] if case.details.get("error") else [])
    found = [entry["reproduction"] for entry in entries if isinstance(entry, dict) and "reproduction" in entry]
    if not found and "reproduction" in case.details:
        found = [case.details["reproduction"]]
    return found


def _changes(rules: dict[str, Any]) -> dict[str, Any]:
    from hearts_ref.variants import Rules
    try:
        return Rules.from_dict(dict(rules)).changes()
    except Exception:
        return dict(rules)


def junit_xml(report: Report) -> str:
    """Return the report as JUnit XML: one testcase per case, failures with the replay command.

    A case the engine failed (a timeout, a crash …) is an ``error`` typed by its verdict; an
    engine that could not be started (``engine.error``) adds one testcase with an error.
    """
    counts = report.summary()["counts"]
    suite = ElementTree.Element("testsuite", {
        "name": "hearts-ref conform", "tests": str(len(report.cases)), "failures": str(counts["failed"]),
        "errors": str(counts["error"]), "skipped": str(counts["skipped"] + counts["expected-fail"]),
        "time": f"{report.seconds:.3f}"})
    for case in report.cases:
        kind, _, name = case.id.partition("/")
        element = ElementTree.SubElement(suite, "testcase", {
            "classname": f"hearts-ref.{kind}", "name": name or case.id, "time": f"{case.seconds:.6f}"})
        rules = ", ".join(case.rule_ids)
        if case.status == "failed":
            failure = ElementTree.SubElement(element, "failure", {
                "message": f"{rules}: {case.reason}" if rules else case.reason,
                "type": case.rule_ids[0] if case.rule_ids else "error"})
            repro = case.details.get("reproduction") or {}
            failure.text = json.dumps({k: case.details[k] for k in ("deviation",) if k in case.details}
                                      | ({"replay": repro.get("command")} if repro else {}), indent=1)
        elif case.status == "error":   # the engine failed: an error, not a deviation from a rule
            verdict = case.reason.split(":", 1)[0] if ":" in case.reason else "engine-error"
            error = ElementTree.SubElement(element, "error", {
                "message": case.reason, "type": verdict if " " not in verdict else "engine-error"})
            repro = case.details.get("reproduction") or {}
            error.text = case.details.get("replay") or repro.get("command") or None
        elif case.status == "skipped":
            ElementTree.SubElement(element, "skipped", {"message": case.reason})
        elif case.status == "expected-fail":
            ElementTree.SubElement(element, "skipped", {"message": f"expected failure ({rules}): {case.reason}"})
        elif case.status == "unexpected-pass":
            out = ElementTree.SubElement(element, "system-out")
            out.text = f"unexpected pass: declared as a known deviation ({case.reason})"
    start_failure = report.engine.get("error")
    if isinstance(start_failure, dict):     # the engine could not be started: an error, not a deviation
        suite.set("tests", str(len(report.cases) + 1))
        suite.set("errors", str(counts["error"] + 1))
        element = ElementTree.Element("testcase", {"classname": "hearts-ref.engine", "name": "start", "time": "0"})
        error = ElementTree.SubElement(element, "error", {
            "message": f"{start_failure.get('verdict')}: {start_failure.get('message')}",
            "type": str(start_failure.get("verdict"))})
        error.text = start_failure.get("stderr_tail") or None
        suite.insert(0, element)
    root = ElementTree.Element("testsuites")
    root.append(suite)
    for element in root.iter():
        element.attrib = {name: _xml_text(value) for name, value in element.attrib.items()}
        if element.text:
            element.text = _xml_text(element.text)
    ElementTree.indent(root)
    return ElementTree.tostring(root, encoding="unicode", xml_declaration=True) + "\n"


# What XML 1.0 cannot hold, even as a character reference: the C0 controls but tab, newline and
# carriage return; lone surrogates; U+FFFE and U+FFFF.
_NOT_XML = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")


def _xml_text(text: str) -> str:
    r"""Return ``text`` with each character XML 1.0 forbids written as a visible escape.

    An engine's stderr or its messages may carry ANSI colours, a NUL or a bell: the file
    must still parse, and its reader still sees where they were.

    >>> print(_xml_text("\x1b[31mred\x1b[0m, a bell\x07, a NUL\x00"))
    \x1b[31mred\x1b[0m, a bell\x07, a NUL\x00
    """
    return _NOT_XML.sub(lambda match: ascii(match.group())[1:-1], text)
