"""Every variant combination of the registry, proved per context, and the game-level ones per game combination.

The round-level parameters of :data:`hearts_ref.variants.PARAMETERS` — the union of the
round invariants' declared ``parameters`` — take every allowed value; the game-end
parameters (``end_comparison``, ``max_rounds``, ``ties``, ``end_threshold``) and the pass
cycle change no invariant of a round (passing is proved for every direction). The
game-level invariants (GAME-END-AS-STATED, GAME-ENDS) are proved for every *game*
combination: the scoring and game-end parameters, with the thresholds and round limits
of :data:`GAME_VALUES` (the default 100, and no limit or one round). Each invariant is
proved once per distinct value of its own parameters (its *projection*), and every full
combination takes the outcome of its projection; a test checks on the proof formulas
that the other parameters cannot change it.

>>> len(round_combinations()), len(game_combinations())
(11520, 384)
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Sequence
from functools import cache
from typing import Any

from hearts_ref.variants import PARAMETERS, Rules
from properties.catalogue import GAME_PARAMETERS, INVARIANTS, ROUND_PARAMETERS, expected_outcome, rules_for
from properties.prove import Progress, Session, prove_context, prove_game
from properties.results import ProofResult

__all__ = ["ROUND_PARAMETERS", "GAME_PARAMETERS", "GAME_VALUES", "round_combinations", "game_combinations",
           "rules_for", "projections", "run_combinations"]

# The integer parameters take these values in the game combinations: the registry's default, and a game of one round.
GAME_VALUES = {"end_threshold": (100,), "max_rounds": (0, 1)}


def _values(name: str) -> tuple[Any, ...]:
    if name in GAME_VALUES:
        return GAME_VALUES[name]
    parameter = next(p for p in PARAMETERS if p.name == name)
    return (False, True) if parameter.values is bool else tuple(parameter.values)


@cache
def round_combinations() -> tuple[Rules, ...]:
    """Every playable combination of the round-level parameters."""
    found = []
    for combo in itertools.product(*(_values(name) for name in ROUND_PARAMETERS)):
        rules = rules_for(dict(zip(ROUND_PARAMETERS, combo)))
        if rules is not None:
            found.append(rules)
    return tuple(found)


@cache
def game_combinations() -> tuple[Rules, ...]:
    """Every combination of the game-level parameters (the default play rules elsewhere)."""
    found = []
    for combo in itertools.product(*(_values(name) for name in GAME_PARAMETERS)):
        rules = rules_for(dict(zip(GAME_PARAMETERS, combo)))
        if rules is not None:
            found.append(rules)
    return tuple(found)


def projections(invariant_id: str) -> list[dict[str, Any]]:
    """Every combination of the values of ``invariant_id``'s own parameters."""
    names = next(i for i in INVARIANTS if i.id == invariant_id).parameters
    return [dict(zip(names, combo)) for combo in itertools.product(*(_values(name) for name in names))]


def run_combinations(*, timeout: float = 60.0, session: Session | None = None, progress: Progress | None = None,
                     invariants: Sequence[str] | None = None) -> dict[str, Any]:
    """Prove the per-context catalogue for every combination; return the summary for the report and the JSON."""
    session = session or Session(timeout=timeout)
    start = time.perf_counter()
    chosen = [i for i in INVARIANTS if ("context" in i.methods or "game" in i.methods)
              and (invariants is None or i.id in invariants)]
    todo = [(invariant, values) for invariant in chosen for values in projections(invariant.id)]
    proved: dict[tuple[str, tuple[Any, ...]], ProofResult] = {}
    for done, (invariant, values) in enumerate(todo, 1):
        rules = rules_for(values)
        if rules is None:
            continue
        label = ",".join(f"{k}={v}" for k, v in values.items())
        prove = prove_game if "game" in invariant.methods else prove_context
        result = prove(invariant.id, rules, session, label=label)
        proved[invariant.id, tuple(values.values())] = result
        if progress:
            progress(done, len(todo), f"combinations {invariant.id} {label}: {result.status}")
    summary: dict[str, Any] = {"combinations": len(round_combinations()), "parameters": list(ROUND_PARAMETERS),
                               "game_combinations": len(game_combinations()), "game_parameters": list(GAME_PARAMETERS),
                               "invariants": {}, "results": [], "unexpected": []}
    for invariant in chosen:
        counts: dict[str, int] = {}
        unexpected = 0
        combinations = game_combinations() if invariant.scope == "game" else round_combinations()
        for rules in combinations:
            result = proved[invariant.id, tuple(getattr(rules, p) for p in invariant.parameters)]
            counts[result.status] = counts.get(result.status, 0) + 1
            if result.status != expected_outcome(invariant.id, rules):
                unexpected += 1
                if len(summary["unexpected"]) < 20:
                    summary["unexpected"].append({"invariant": invariant.id, "rules": rules.changes(),
                                                  "status": result.status,
                                                  "expected": expected_outcome(invariant.id, rules)})
        summary["invariants"][invariant.id] = {
            "distinct": len(projections(invariant.id)), "combinations": dict(sorted(counts.items())),
            "all_expected": unexpected == 0, "unexpected": unexpected}
    for (invariant_id, _), result in proved.items():
        entry = {"invariant": invariant_id, "values": result.rules, "status": result.status,
                 "expected": result.expected, "seconds": round(result.seconds, 4)}
        if result.counterexample is not None:
            entry["counterexample"] = result.counterexample.to_dict()
        if result.argument:
            entry["argument"] = list(result.argument)
        if result.witness:
            entry["witness"] = {"summary": result.witness["summary"], "kind": result.witness.get("kind"),
                                "confirmed": result.witness.get("confirmed")}
        summary["results"].append(entry)
    summary["all_expected"] = all(v["all_expected"] for v in summary["invariants"].values())
    summary["seconds"] = round(time.perf_counter() - start, 3)
    return summary
