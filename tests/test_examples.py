"""The example engines of ``examples/engines/``: the two minimal engines the conformance guide starts from pass
``hearts-ref conform`` on the default rules, run as the guide says; the engine with a planted bug fails it.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys

import pytest

from tests.docs_site import ROOT

ENGINES = ROOT / "examples" / "engines"
GUIDE = (ROOT / "docs" / "conformance" / "index.md").read_text(encoding="utf-8")


def conform(spec: str, *extra: str) -> tuple[int, dict]:
    """Run ``hearts-ref conform --engine SPEC --json`` from the examples folder, as the guide does."""
    process = subprocess.run([sys.executable, "-m", "hearts_ref", "conform", "--engine", spec, "--json", *extra],
                             cwd=ENGINES, capture_output=True, text=True, timeout=300)
    assert process.stdout, process.stderr[-2000:]
    return process.returncode, json.loads(process.stdout)


def _judged(report: dict) -> dict[str, int]:
    counts: dict[str, int] = {}
    for case in report["cases"]:
        counts[f"{case['kind']} {case['status']}"] = counts.get(f"{case['kind']} {case['status']}", 0) + 1
    return counts


@pytest.mark.parametrize("spec", [
    "python:minimal_engine:MinimalEngine",
    pytest.param("node minimal-engine.js", marks=pytest.mark.skipif(shutil.which("node") is None,
                                                                    reason="node is not installed")),
])
def test_a_minimal_engine_passes_conform_on_the_default_rules(spec):
    assert f"hearts-ref conform --engine {spec}" in GUIDE or f'hearts-ref conform --engine "{spec}"' in GUIDE
    code, report = conform(spec)
    counts = _judged(report)
    assert code == 0, [case for case in report["cases"] if case["status"] == "failed"][:3]
    assert counts.get("differential passed") == report["games"] == 100, counts
    assert counts.get("negative passed") == report["negative_games"] and counts.get("vector passed", 0) >= 40, counts
    assert report["summary"]["counts"]["failed"] == 0


def test_the_engine_with_a_planted_bug_fails_on_its_rule():
    code, report = conform("python:buggy_engine:QueenBreaksHearts", "--games", "6", "--shrink-time", "1")
    failed = [case for case in report["cases"] if case["status"] == "failed"]
    assert code == 1 and failed
    assert {case["rule_ids"][0] for case in failed} == {"BREAK-QUEEN"}
