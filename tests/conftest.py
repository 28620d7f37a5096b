"""Shared helpers for the tests: building states from readable card text."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

from hearts_ref import CardSet, Rules, start_round

# Every run of the suite draws the same examples: derandomized, with no example database, so that a
# result never depends on an earlier run, on the machine or on the time (tests must pass on any machine).
settings.register_profile("ci", deadline=None, derandomize=True, database=None,
                          suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("ci")

DATA = Path(__file__).parent / "data"


def hands(*texts: str) -> tuple[CardSet, ...]:
    """Hands from text, one string per seat."""
    return tuple(CardSet.parse(t) for t in texts)


def four_hands_from_suits() -> tuple[CardSet, ...]:
    """Seat 0 all clubs, 1 all diamonds, 2 all spades, 3 all hearts."""
    return tuple(CardSet.from_mask(((1 << 13) - 1) << (13 * s)) for s in range(4))


def play_all(state, *cards: str):
    """Play these cards in order and return the new state."""
    for text in cards:
        state = state.play(CardSet.parse(text).__iter__().__next__())
    return state


@pytest.fixture
def worked_examples() -> dict:
    return json.loads((DATA / "worked_examples.json").read_text(encoding="utf-8"))


def fresh(rules: Rules, *texts: str, direction: str = "none"):
    return start_round(rules, hands(*texts), direction=direction)


def pytest_configure(config):
    config.addinivalue_line("markers", "deep: the inductive proofs over the whole transition relation (select with -m deep)")


@pytest.fixture(scope="session")
def fast_tier():
    """The per-context catalogue proved for every preset (the fast tier of hearts-ref prove)."""
    from properties import run_catalogue
    return run_catalogue(timeout=60)
