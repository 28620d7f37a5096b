"""GAME-ENDS: every game ends within a bound on its rounds, or a game that never ends is shown (placeholder)."""

from __future__ import annotations

from typing import Any

from hearts_ref.variants import Rules
from properties.catalogue import expected_outcome
from properties.results import ProofResult

__all__ = ["prove_game_ends"]


def prove_game_ends(rules: Rules, session: Any, label: str) -> ProofResult:
    return ProofResult("GAME-ENDS", label, "game", "error", expected_outcome("GAME-ENDS", rules), 0.0, 0,
                       detail="not written yet", changes=rules.changes())
