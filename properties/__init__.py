"""properties: the invariant catalogue of hearts-ref, proved with Z3 and tested with Hypothesis.

- :mod:`properties.catalogue`: the invariants (``INVARIANTS``) and the outcome each must have under given rules;
- :mod:`properties.contexts` and :mod:`properties.induction`: the Z3 proofs over the engine's own rule code,
  per play context and over the whole transition relation;
- :mod:`properties.replay`: refutations replayed on an engine from a deal;
- :mod:`properties.prove` and :mod:`properties.combinations`: running the catalogue (``run_catalogue``);
- :mod:`properties.strategies` and :mod:`properties.engine_properties`: Hypothesis strategies and the
  invariants as properties of whole games played by any engine.

>>> from hypothesis import find
>>> from properties import INVARIANTS, cards
>>> len(INVARIANTS) >= 4, str(find(cards(), lambda card: card.suit == 3))
(True, '2H')
"""

from typing import Any

from properties.catalogue import BY_ID, INVARIANTS, Invariant, expected_outcome, expected_unsound
from properties.prove import run_catalogue
from properties.results import ProofResult, all_match

# The Hypothesis side is imported when first asked for: the proofs do not need it, and it costs a third of a
# second at every start of ``hearts-ref prove``.
_LAZY = {name: "properties.engine_properties" for name in ("GameLog", "PropertyViolation", "check_engine", "play_game")}
_LAZY |= {name: "properties.strategies" for name in ("GamePlan", "cards", "deals", "games", "hands", "rules", "states")}


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        import importlib
        value = getattr(importlib.import_module(_LAZY[name]), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module 'properties' has no attribute {name!r}")

__all__ = [
    "BY_ID", "INVARIANTS", "Invariant", "expected_outcome", "expected_unsound",
    "run_catalogue", "ProofResult", "all_match",
    "cards", "hands", "deals", "rules", "states", "games", "GamePlan",
    "play_game", "check_engine", "PropertyViolation", "GameLog",
]
