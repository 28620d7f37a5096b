"""The conformance runner: judge an engine against the reference."""
