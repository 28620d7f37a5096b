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

from properties.catalogue import BY_ID, INVARIANTS, Invariant, expected_outcome, expected_unsound
from properties.engine_properties import GameLog, PropertyViolation, check_engine, play_game
from properties.prove import run_catalogue
from properties.results import ProofResult, all_match
from properties.strategies import GamePlan, cards, deals, games, hands, rules, states

__all__ = [
    "BY_ID", "INVARIANTS", "Invariant", "expected_outcome", "expected_unsound",
    "run_catalogue", "ProofResult", "all_match",
    "cards", "hands", "deals", "rules", "states", "games", "GamePlan",
    "play_game", "check_engine", "PropertyViolation", "GameLog",
]
