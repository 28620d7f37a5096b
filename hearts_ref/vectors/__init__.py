"""Conformance vectors: JSON cases any engine can be checked against (``spec/vectors.md``)."""
