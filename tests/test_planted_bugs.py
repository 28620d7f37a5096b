"""``hearts-ref conform`` on a planted bug of every rule: found, and the first rule named is the rule broken.

Every rule ID of spec/rules/ has at least one engine in ``tests/engines/planted.py`` that breaks
it and it alone, as an engine author gets it wrong. Each runs the default campaign (the vectors,
the perft counts, 100 differential games and 25 with negative checks; no shrinking, which the
runner's own tests cover): the bug must be found and the first finding must name its rule. And
no finding at all on engines without a bug: the reference over stdio, OpenSpiel under its preset.
"""

from __future__ import annotations

import json
import sys

import pytest

from hearts_ref.cli import main
from hearts_ref.spec import load_rules
from tests.engines.planted import MORE_PLANTED, PLANTED

ALL = list(PLANTED.items()) + list(MORE_PLANTED.items())


def _conform(capsys, *argv: str) -> tuple[int, dict]:
    code = main(["conform", *argv, "--shrink-time", "0", "--json"])
    return code, json.loads(capsys.readouterr().out)


def test_there_is_a_planted_bug_for_every_rule_of_the_spec():
    assert sorted(PLANTED.values()) == sorted(load_rules())
    assert all(engine.__doc__.startswith(f"{rule}: ") for engine, rule in ALL)   # each says what it breaks


@pytest.mark.parametrize("engine, rule_id", ALL, ids=[engine.__name__ for engine, _ in ALL])
def test_a_planted_bug_is_found_and_the_first_rule_named_is_its_rule(engine, rule_id, capsys):
    code, report = _conform(capsys, "--engine", f"python:tests.engines.planted:{engine.__name__}")
    findings = [f for f in report["summary"]["findings"] if not f["expected"]]
    assert code == 1 and findings, f"{engine.__name__} not found"
    assert findings[0]["rule_id"] == rule_id, findings
    assert report["summary"]["counts"]["error"] == 0   # a bug in the rules is a finding, not an engine failure
    named = {f["rule_id"] for f in findings}
    assert rule_id in named and len(named) <= 2, findings   # at most one other reading of an ambiguous position


def test_no_finding_on_the_reference_served_over_stdio(capsys):
    code, report = _conform(capsys, "--engine", f"{sys.executable} -m hearts_ref serve")
    assert report["summary"]["findings"] == [] and code == 0
    counts = report["summary"]["counts"]
    assert counts["failed"] == counts["error"] == 0 and counts["passed"] == len(report["cases"])


def test_no_finding_on_openspiel_under_its_preset(capsys):
    pytest.importorskip("pyspiel")
    code, report = _conform(capsys, "--engine", "openspiel", "--preset", "openspiel")
    assert report["summary"]["findings"] == [] and code == 0
    counts = report["summary"]["counts"]
    assert counts["failed"] == counts["error"] == 0 and counts["passed"] > 100
