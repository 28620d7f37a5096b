"""A conformance report as JUnit XML, for CI systems: one testcase per case.

Failures carry the deviation and the replay command; a flaky case is a failure of type
``flaky``, with the steps at which its replays failed; a case the engine failed (a timeout, a
crash …) is an ``error`` typed by its verdict; skipped, expected-fail and abandoned
cases are ``skipped`` with their reason. An engine that could not be started, and a run that
was stopped before its end (``incomplete``), each add one testcase with an ``error``.
Characters XML 1.0 cannot hold are written as visible escapes.
"""

from __future__ import annotations

import json
import re
from typing import TYPE_CHECKING
from xml.etree import ElementTree

if TYPE_CHECKING:
    from hearts_ref.conformance.report import Report

__all__ = ["junit_xml"]

# What a failure's text carries of its case: a game's deviation, a vector's failed step, a perft deal's counts.
_FAILURE_DETAILS = ("deviation", "failure", "depth", "expected", "actual", "first_difference")


def junit_xml(report: Report, *, timings: bool = True) -> str:
    """Return the report as JUnit XML: one testcase per case, failures with the replay command.

    An engine that could not be started (``engine.error``) adds one testcase with an error, and
    so does a run stopped before its end (``incomplete``). ``timings=False`` writes every time as 0.
    """
    counts = report.summary()["counts"]
    suite = ElementTree.Element("testsuite", {
        "name": "hearts-ref conform", "tests": str(len(report.cases)), "failures": str(counts["failed"] + counts.get("flaky", 0)),
        "errors": str(counts["error"]), "skipped": str(counts["skipped"] + counts["expected-fail"] + counts["abandoned"]),
        "time": f"{report.seconds if timings else 0:.3f}"})
    for case in report.cases:
        kind, _, name = case.id.partition("/")
        element = ElementTree.SubElement(suite, "testcase", {
            "classname": f"hearts-ref.{kind}", "name": name or case.id,
            "time": f"{case.seconds if timings else 0:.6f}"})
        rules = ", ".join(case.rule_ids)
        if case.status in ("failed", "flaky"):   # a flaky finding is a deviation that does not always show
            failure = ElementTree.SubElement(element, "failure", {
                "message": f"{rules}: {case.reason}" if rules else case.reason,
                "type": "flaky" if case.status == "flaky" else case.rule_ids[0] if case.rule_ids else "error"})
            repro = case.details.get("reproduction") or {}
            replay = repro.get("command") if repro else case.details.get("replay")   # (a vector's, perft's: its own)
            failure.text = json.dumps({k: case.details[k] for k in _FAILURE_DETAILS if k in case.details}
                                      | ({"replay": replay} if replay else {})
                                      | ({"replays": repro["replays"]} if "replays" in repro else {}), indent=1)
        elif case.status == "error":   # the engine failed: an error, not a deviation from a rule
            verdict = case.reason.split(":", 1)[0] if ":" in case.reason else "engine-error"
            error = ElementTree.SubElement(element, "error", {
                "message": case.reason, "type": verdict if " " not in verdict else "engine-error"})
            repro = case.details.get("reproduction") or {}   # (the first case of its finding: shrunk)
            replays = ([f"replay (its minimal game): {repro['command']}"] if repro.get("command") else []) + (
                [f"replay (this game): {case.details['replay']}"] if case.details.get("replay") else [])
            error.text = "\n".join(replays) or None
        elif case.status in ("skipped", "abandoned"):
            ElementTree.SubElement(element, "skipped", {"message": case.reason})
        elif case.status == "expected-fail":
            ElementTree.SubElement(element, "skipped", {"message": f"expected failure ({rules}): {case.reason}"})
        elif case.status == "unexpected-pass":
            out = ElementTree.SubElement(element, "system-out")
            out.text = f"unexpected pass: declared as a known deviation ({case.reason})"
    start_failure = report.engine.get("error")
    if isinstance(start_failure, dict):     # the engine could not be started: an error, not a deviation
        _error(suite, "engine", "start", f"{start_failure.get('verdict')}: {start_failure.get('message')}",
               str(start_failure.get("verdict")), start_failure.get("stderr_tail") or None)
    if report.incomplete is not None:       # stopped by a signal: what is here was judged, the rest was not
        _error(suite, "run", "complete", f"incomplete: {report.incomplete['reason']}", "incomplete")
    root = ElementTree.Element("testsuites")
    root.append(suite)
    for element in root.iter():
        element.attrib = {name: _xml_text(value) for name, value in element.attrib.items()}
        if element.text:
            element.text = _xml_text(element.text)
    ElementTree.indent(root)
    return ElementTree.tostring(root, encoding="unicode", xml_declaration=True) + "\n"


def _error(suite: ElementTree.Element, classname: str, name: str, message: str, kind: str,
           text: str | None = None) -> None:
    """Put one testcase with an ``error`` first in the suite, and count it."""
    suite.set("tests", str(int(suite.get("tests", "0")) + 1))
    suite.set("errors", str(int(suite.get("errors", "0")) + 1))
    element = ElementTree.Element("testcase", {"classname": f"hearts-ref.{classname}", "name": name, "time": "0"})
    error = ElementTree.SubElement(element, "error", {"message": message, "type": kind})
    error.text = text
    suite.insert(0, element)


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
