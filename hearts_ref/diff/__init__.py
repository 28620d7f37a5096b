"""What a house rule changes: two rulesets compared in play, proved equivalent or parted by the smallest game.

- :mod:`hearts_ref.diff.rulesets`: the two sides, written as on the command line;
- :mod:`hearts_ref.diff.semantics`: the rule functions compared (the engine's) and the rule IDs each side applies;
- :mod:`hearts_ref.diff.onestep`: z3 over the engine's rule code, per play context, for one-step differences;
- :mod:`hearts_ref.diff.reach`: a bounded search for a real round reaching one;
- :mod:`hearts_ref.diff.rounds` and :mod:`hearts_ref.diff.endgame`: rounds built to order, for scores and the end;
- :mod:`hearts_ref.diff.games`: a game replayed on the engine under both rulesets, up to where they part;
- :mod:`hearts_ref.diff.compare`: the comparison; :mod:`hearts_ref.diff.report` its transcript, JSON and records;
- :mod:`hearts_ref.diff.consequence`: where the sides part in hearts broken, the first play found that it changes;
- :mod:`hearts_ref.diff.matrix`: every preset against every other, and each parameter on its own.

>>> from hearts_ref import Rules
>>> from hearts_ref.diff import compare
>>> result = compare(Rules(), Rules.preset("seed004"))
>>> result.verdict, result.difference.kind, result.difference.part.play
('different', 'broken', 5)

The names below are imported when first used: a module that needs only rounds built to order
(:mod:`hearts_ref.diff.rounds`, the conformance runner's targeted games) does not load z3.
"""

import sys
import types
from importlib import import_module
from typing import Any

_WHERE = {"compare": "compare", "Comparer": "compare", "Comparison": "compare", "Difference": "compare",
          "EQUIVALENT": "compare", "DIFFERENT": "compare", "UNSETTLED": "compare", "Side": "rulesets",
          "parse_side": "rulesets", "comparison_dict": "report", "drawn": "report", "summary_line": "report"}
__all__ = list(_WHERE)


def __getattr__(name: str) -> Any:
    if name not in _WHERE:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(import_module(f"hearts_ref.diff.{_WHERE[name]}"), name)
    globals()[name] = value
    return value


class _Package(types.ModuleType):
    """This package: once a submodule is imported, the import system sets it as an attribute of its package; where
    the submodule has the name of a function listed above (``compare``), the name stays the function's."""

    def __setattr__(self, name: str, value: Any) -> None:
        if not (name in _WHERE and isinstance(value, types.ModuleType)):
            super().__setattr__(name, value)


sys.modules[__name__].__class__ = _Package
