"""Proofs run in several processes give the report one process gives: the same results, in the same order."""

from __future__ import annotations

import os
import re
from dataclasses import asdict

import pytest

from properties.combinations import run_combinations
from properties.parallel import UnitError, default_jobs, in_background, run_units
from properties.prove import run_catalogue

pytestmark = pytest.mark.skipif(not hasattr(os, "fork"), reason="the units run in forked processes")


def _slow_first(value: int) -> tuple[int, int]:
    """A unit whose result names the process that computed it (the first unit finishes last)."""
    if value == 0:
        sum(range(2_000_000))
    return value * value, os.getpid()


def _fails(value: int) -> int:
    raise ValueError(f"unit {value} is broken")


def test_units_come_back_in_their_order_each_from_a_process_of_its_own():
    reported = []
    results = run_units(_slow_first, [0, 1, 2, 3], jobs=2, done=lambda unit, result: reported.append(unit))
    assert [square for square, _ in results] == [0, 1, 4, 9]
    assert reported == [0, 1, 2, 3]                   # the progress follows the units' order, not the finishing one
    assert os.getpid() not in {pid for _, pid in results} and len({pid for _, pid in results}) == 4


def test_one_job_runs_the_units_here():
    assert {pid for _, pid in run_units(_slow_first, [1, 2], jobs=1)} == {os.getpid()}
    assert default_jobs() >= 1


def _fails_late_first(value: int) -> int:
    """Unit 1 fails last: the failure reported must not depend on which process ends first."""
    if value == 1:
        sum(range(3_000_000))
    raise ValueError(f"unit {value} is broken")


def test_a_failing_unit_raises_with_its_traceback_and_stops_the_others():
    with pytest.raises(UnitError, match="unit 1 is broken"):
        run_units(_fails, [1, 2, 3], jobs=2)
    with pytest.raises(UnitError, match="unit 1 is broken"):    # the first in the units' order, not the first to end
        run_units(_fails_late_first, [1, 2, 3], jobs=2)
    waiting = in_background(_fails, 4)
    with pytest.raises(UnitError, match="unit 4 is broken"):
        waiting()


def _comparable(result) -> dict:
    found = asdict(result)
    found.pop("seconds")
    found["detail"] = re.sub(r"whole inductive proof [0-9.]+s", "", found["detail"])
    return found


def test_the_inductive_proofs_say_the_same_in_one_process_and_in_two():
    """seed001 is refuted in 24 shapes: the counterexamples (the simplest stuck hands) do not depend on the process."""
    one = run_catalogue(["seed001", "seed002"], deep=True, jobs=1)
    two = run_catalogue(["seed001", "seed002"], deep=True, jobs=2)
    assert [_comparable(r) for r in one] == [_comparable(r) for r in two]
    refuted = [r for r in two if r.method == "inductive" and r.status == "refuted"]
    assert refuted and all(c.replay is not None for r in refuted for c in r.counterexamples[:1])


def test_the_combinations_say_the_same_in_one_process_and_in_two():
    chosen = ["FIRST-TRICK-NO-DEADLOCK", "GAME-END-AS-STATED"]
    one, two = (run_combinations(invariants=chosen, jobs=jobs) for jobs in (1, 2))
    for summary in (one, two):
        summary.pop("seconds")
        for entry in summary["results"]:
            entry.pop("seconds")
    assert one == two and one["all_expected"]
    assert one["invariants"]["FIRST-TRICK-NO-DEADLOCK"]["combinations"].get("refuted")
