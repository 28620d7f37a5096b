"""The pytest plugin: ``pytest --hearts-engine module:attr`` runs the conformance suite on a Python engine."""

from __future__ import annotations

import pytest


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("hearts-ref")
    group.addoption("--hearts-engine", default=None, metavar="MODULE:ATTR",
                    help="judge this Python Hearts engine against hearts-ref")
