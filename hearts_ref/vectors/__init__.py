"""Conformance vectors: JSON cases any engine can be checked against (``spec/vectors.md``).

This package holds the suite's data and its builder: the cases as values (:mod:`.model`),
reading them (:mod:`.reader`) and generating them from the reference (:mod:`.generate`).
Running them on an engine is the conformance runner's job
(:mod:`hearts_ref.conformance.vectors`, which judges each step as the differential games
do); its functions are offered here too.

>>> from hearts_ref.engine import ReferenceEngine
>>> from hearts_ref.vectors import run_vectors
>>> cases = load_vectors(default_vectors_dir() / "rules" / "06-tricks.json")
>>> [result.status for result in run_vectors(ReferenceEngine(), cases)]
['passed', 'passed', 'passed', 'passed', 'passed', 'passed', 'passed']
"""

from typing import Any

from hearts_ref.vectors.model import (
    FORMAT_VERSION, SUITE_VERSION, VECTORS_FORMAT, Case, Expect, FinalExpect, RoundCase, RoundExpect, Step,
)
from hearts_ref.vectors.reader import default_vectors_dir, load_vectors, read_vector_file

__all__ = [
    "Case", "CaseResult", "Expect", "FORMAT_VERSION", "Failure", "FinalExpect", "RoundCase", "RoundExpect",
    "STATUSES", "SUITE_VERSION", "Step", "VECTORS_FORMAT", "default_vectors_dir", "load_vectors",
    "read_vector_file", "run_case", "run_vectors", "summarize", "unaccounted",
]

_RUNNING = ("CaseResult", "Failure", "STATUSES", "run_case", "run_vectors", "summarize", "unaccounted")


def __getattr__(name: str) -> Any:
    """The running functions, from :mod:`hearts_ref.conformance.vectors` (imported when first asked for)."""
    if name in _RUNNING:
        from hearts_ref.conformance import vectors

        return getattr(vectors, name)
    raise AttributeError(f"module 'hearts_ref.vectors' has no attribute {name!r}")
