"""``hearts-ref conform`` when the engine or the world misbehaves: reports that still parse, signals
that leave no engine behind, limits and output paths checked before a campaign starts."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from xml.etree import ElementTree

import jsonschema

from hearts_ref.cli import main
from hearts_ref.conformance.report import Case, Report, junit_xml

ROOT = Path(__file__).resolve().parent.parent
ENGINES = ROOT / "tests" / "engines"
SCHEMA = json.loads((ROOT / "spec" / "report.schema.json").read_text(encoding="utf-8"))


def engine_command(script: str, *args: str) -> str:
    return " ".join([sys.executable, str(ENGINES / script), *args])


# JUnit XML: every character XML 1.0 forbids is escaped -------------------------------------------

def test_junit_xml_parses_when_the_engine_colours_its_stderr(tmp_path, capsys):
    junit, report = tmp_path / "r.xml", tmp_path / "r.json"
    code = main(["conform", "--engine", engine_command("ansi_crash.py"), "--games", "2", "--no-vectors",
                 "--shrink-time", "0", "--junit", str(junit), "--report", str(report)])
    capsys.readouterr()
    assert code == 1
    failures = list(ElementTree.parse(junit).getroot().iter("failure"))   # raises if not well-formed
    assert failures and all("exited with code 3" in f.get("message") for f in failures)
    message = failures[0].get("message")
    assert r"\x1b[1;31mfatal:\x1b[0m the trick table is corrupt\x07 (at \x00\x1f)" in message, message
    assert not message.startswith(": ")          # no rule ID: the reason alone, not an empty list before it
    # The JSON report keeps the engine's words as written: JSON can carry them.
    reasons = [c["reason"] for c in json.loads(report.read_text(encoding="utf-8"))["cases"]]
    assert any("\x1b[1;31mfatal:\x1b[0m" in reason for reason in reasons)


def test_junit_xml_escapes_forbidden_characters_in_every_attribute_and_text():
    bad = "a\x00b\x07c\x1bd\x0be\ud800f\ufffeg"
    shown = r"a\x00b\x07c\x1bd\x0be\ud800f\ufffeg"
    report = Report(engine={"spec": "x", "name": "x"}, rules={}, seed=0, games=0)
    report.add(Case(f"differential/{bad}/0", "differential", "failed", (), f"failed {bad}",
                    details={"deviation": {"message": bad}}))
    report.add(Case(f"vector/{bad}", "vector", "skipped", (), f"skipped {bad}"))
    report.add(Case("vector/xfail", "vector", "expected-fail", ("LEAD-OPEN",), f"xfail {bad}"))
    report.add(Case("vector/upass", "vector", "unexpected-pass", (), f"upass {bad}\tkept\nkept"))
    text = junit_xml(report)
    text.encode("utf-8")                        # no lone surrogate left to break the file's encoding
    suite = ElementTree.fromstring(text).find("testsuite")
    cases = suite.findall("testcase")
    assert [c.get("name") for c in cases[:2]] == [f"{shown}/0", shown]
    assert cases[0].find("failure").get("message") == f"failed {shown}"
    assert cases[1].find("skipped").get("message") == f"skipped {shown}"
    assert cases[2].find("skipped").get("message") == f"expected failure (LEAD-OPEN): xfail {shown}"
    assert f"upass {shown}\tkept\nkept" in cases[3].find("system-out").text   # tab and newline stay
