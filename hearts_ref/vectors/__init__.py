"""Conformance vectors: JSON cases any engine can be checked against (``spec/vectors.md``).

The public API: read the cases, run them on an engine, account for every case.

>>> from hearts_ref.engine import ReferenceEngine
>>> cases = load_vectors(default_vectors_dir() / "rules" / "06-tricks.json")
>>> [result.status for result in run_vectors(ReferenceEngine(), cases)]
['passed', 'passed']
"""

from hearts_ref.vectors.model import (
    FORMAT_VERSION, SUITE_VERSION, VECTORS_FORMAT, Case, Expect, FinalExpect, RoundCase, RoundExpect, Step,
)
from hearts_ref.vectors.reader import default_vectors_dir, load_vectors, read_vector_file
from hearts_ref.vectors.runner import STATUSES, CaseResult, Failure, run_case, run_vectors, summarize, unaccounted

__all__ = [
    "Case", "CaseResult", "Expect", "FORMAT_VERSION", "Failure", "FinalExpect", "RoundCase", "RoundExpect",
    "STATUSES", "SUITE_VERSION", "Step", "VECTORS_FORMAT", "default_vectors_dir", "load_vectors",
    "read_vector_file", "run_case", "run_vectors", "summarize", "unaccounted",
]
