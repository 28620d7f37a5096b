"""What a house rule changes: two rulesets compared in play, proved equivalent or parted by the smallest game.

- :mod:`hearts_ref.diff.rulesets`: the two sides, written as on the command line;
- :mod:`hearts_ref.diff.semantics`: the rule functions compared (the engine's) and the rule IDs each side applies;
- :mod:`hearts_ref.diff.onestep`: z3 over the engine's rule code, per play context, for one-step differences;
- :mod:`hearts_ref.diff.reach`: a bounded search for a real round reaching one;
- :mod:`hearts_ref.diff.rounds` and :mod:`hearts_ref.diff.endgame`: rounds built to order, for scores and the end;
- :mod:`hearts_ref.diff.games`: a game replayed on the engine under both rulesets, up to where they part;
- :mod:`hearts_ref.diff.compare`: the comparison; :mod:`hearts_ref.diff.report` its transcript, JSON and records;
- :mod:`hearts_ref.diff.matrix`: every preset against every other, and each parameter on its own.

>>> from hearts_ref import Rules
>>> result = compare(Rules(), Rules.preset("seed004"))
>>> result.verdict, result.difference.kind, result.difference.part.play
('different', 'broken', 5)
"""

from hearts_ref.diff.compare import DIFFERENT, EQUIVALENT, UNSETTLED, Comparer, Comparison, Difference, compare
from hearts_ref.diff.report import comparison_dict, drawn, summary_line
from hearts_ref.diff.rulesets import Side, parse_side

__all__ = ["compare", "Comparer", "Comparison", "Difference", "EQUIVALENT", "DIFFERENT", "UNSETTLED",
           "Side", "parse_side", "comparison_dict", "drawn", "summary_line"]
