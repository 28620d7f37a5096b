"""Counting a report by rule ID and by finding: what failed, what erred, what was declared, what passed.

A case is charged to the rule each of its findings breaks (the first of its rule IDs), and
to no other (a seat to move after a trick of no points, which a wrong winner and a wrong lead
show alike, is charged to LEAD-WINNER when the run shows a wrong lead beyond doubt and never a
wrong winner: :func:`charged_rules`): a failed game to the rule of each undeclared finding, an
expected failure to the rules declared, an engine failure (a timeout, a crash, a broken reply)
to the *errors* column of the rule its step concerns. A passed vector or perft deal credits every rule it is
tagged with; a passed game, which exercises every rule, is counted in the totals only.
Negative checks count, per rule, the illegal moves refused, those not refused (or refused
badly), and those refused citing the rule (attribution is credited only when the engine
names a rule).

>>> from hearts_ref.conformance.report import Case, Report
>>> report = Report(engine={"spec": "x", "name": "x"}, rules={}, seed=0, games=1)
>>> report.add(Case("vector/a", "vector", "failed", ("LEAD-WINNER", "LEAD-HEARTS")))
>>> table = rule_table(report)
>>> table["LEAD-WINNER"]["failed"], table["LEAD-HEARTS"]["failed"]
(1, 0)
"""

from __future__ import annotations

from typing import Any

from hearts_ref.conformance.diagnose import ambiguous_winner, told_winner_rule
from hearts_ref.conformance.findings import finding_key
from hearts_ref.spec import load_rules

__all__ = ["rule_table", "distinct_findings", "charged_rules", "wrong_lead_shown", "ROW"]

ROW = ("passed", "failed", "error", "expected-fail", "checks-passed", "checks-failed", "checks-cited")


def _row(table: dict[str, dict[str, int]], rule: str) -> dict[str, int]:
    return table.setdefault(rule, dict.fromkeys(ROW, 0))


def wrong_lead_shown(report: Any) -> bool:
    """LEAD-WINNER beyond doubt: whether a case of the run shows the engine giving a trick's points to its winner and
    the lead to another seat, and none shows it giving a trick to the seat it has lead (TRICK-WINNER, DECK-CARDS)."""
    sure = set()
    for case in report.cases:
        failure = case.details.get("failure") or {}
        entries = [f for f in case.details.get("findings") or () if f.get("kind") == "observation"
                   and any(d.get("field") == "to_move" for d in f.get("differences") or ())]
        if case.kind == "vector" and case.status == "failed" and failure.get("field") == "to_move":
            entries.append({"rule_ids": list(case.rule_ids)})
        sure.update(told_winner_rule(entry.get("rule_ids") or ()) for entry in entries)
    return sure - {None} == {"LEAD-WINNER"}


def charged_rules(rule_ids: Any, wrong_lead: bool) -> list[str]:
    """A finding's rule IDs in the order it is charged: LEAD-WINNER first for a seat to move after a trick of no points
    (:func:`~.diagnose.ambiguous_winner`) when the run shows a wrong lead beyond doubt (``wrong_lead``)."""
    rule_ids = list(rule_ids or ())
    if wrong_lead and ambiguous_winner(rule_ids):
        return ["LEAD-WINNER"] + [rule for rule in rule_ids if rule != "LEAD-WINNER"]
    return rule_ids


def rule_table(report: Any) -> dict[str, dict[str, int]]:
    """Return, for each rule ID, the cases and checks that concern it, by outcome."""
    table: dict[str, dict[str, int]] = {}
    for rule in load_rules():
        _row(table, rule)
    lead = wrong_lead_shown(report)
    for case in report.cases:
        findings = case.details.get("findings")
        if findings:   # a game: each finding on the rule it breaks
            for finding in findings:
                if finding.get("rule_ids"):
                    _row(table, charged_rules(finding["rule_ids"], lead)[0])[
                        "expected-fail" if finding.get("expected") else "failed"] += 1
        elif case.kind in ("differential", "negative") and case.status == "passed":
            pass   # a passed game exercises every rule: counted in the totals, not per rule
        elif case.status in ("failed", "expected-fail", "error") and case.rule_ids:
            _row(table, charged_rules(case.rule_ids, lead)[0])[case.status] += 1
        elif case.status == "passed":
            for rule in case.rule_ids:
                _row(table, rule)["passed"] += 1
        error = case.details.get("error")
        charged = case.status == "error" and not findings   # already, above, as the case's own rule
        if error and error.get("rule_ids") and case.kind in ("differential", "negative") and not charged:
            _row(table, error["rule_ids"][0])["error"] += 1
    for rule, tally in report.checks.items():
        row = _row(table, rule)
        for column, count in zip(("checks-passed", "checks-failed", "checks-cited"), tally):
            row[column] += count
    return table


def distinct_findings(report: Any) -> list[dict[str, Any]]:
    """Return each distinct finding of the report (kind and rule), in the order first seen.

    Each says how many cases show it, the first case, whether the engine declared it, and
    whether its reproduction starts with it.
    """
    found: dict[tuple[str, str], dict[str, Any]] = {}
    lead = wrong_lead_shown(report)
    for case in report.cases:
        entries = list(case.details.get("findings") or ())
        if not entries and case.status in ("failed", "expected-fail") and case.kind in ("vector", "perft"):
            entries = [{"kind": case.kind, "rule_ids": list(case.rule_ids), "expected": case.status != "failed"}]
        if case.details.get("error") and case.kind in ("differential", "negative"):
            entries.append(case.details["error"] | {"expected": False})
        for entry in entries:
            kind, rule_ids = entry.get("kind", ""), charged_rules(entry.get("rule_ids"), lead) or [""]
            key = finding_key(kind, rule_ids, str(entry.get("message", "")))
            seen = found.get(key)
            if seen is None:
                reproduction = entry.get("reproduction") or {}
                found[key] = {"kind": kind, "rule_id": rule_ids[0], "expected": bool(entry.get("expected")),
                              "cases": 1, "case": case.id,
                              "first_difference": reproduction.get("first_difference") if reproduction else None}
                if kind == "engine-error":   # no rule broken: rule_id is that of the first step it failed at
                    found[key]["cause"] = key[1]
            else:
                seen["cases"] += 1
                if not seen["first_difference"] and entry.get("reproduction"):
                    seen["first_difference"] = entry["reproduction"].get("first_difference")
    return list(found.values())
