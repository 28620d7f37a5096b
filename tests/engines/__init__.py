"""Engines with planted bugs, for testing that the conformance runner finds them."""
