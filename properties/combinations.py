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
(20160, 384)
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Sequence
from functools import cache
from typing import Any

from hearts_ref.variants import PARAMETERS, Rules
from properties.catalogue import BY_ID, GAME_PARAMETERS, INVARIANTS, ROUND_PARAMETERS, expected_outcome, rules_for
from properties.parallel import default_jobs, run_units
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
                     invariants: Sequence[str] | None = None, jobs: int | None = None) -> dict[str, Any]:
    """Prove the per-context catalogue for every combination; return the summary for the report and the JSON.

    The projections of one invariant for one number of players are a unit of work: with ``jobs`` > 1 (default:
    as many as there are cores) each is proved in a process of its own (:mod:`properties.parallel`), starting
    from ``session``; with one job, here, in ``session``. The results do not depend on ``jobs``.
    """
    session = session or Session(timeout=timeout)
    start = time.perf_counter()
    chosen = [i for i in INVARIANTS if ("context" in i.methods or "game" in i.methods)
              and (invariants is None or i.id in invariants)]
    units: dict[tuple[str, Any], list[dict[str, Any]]] = {}
    for invariant in chosen:
        for values in projections(invariant.id):
            if rules_for(values) is not None:
                units.setdefault((invariant.id, values.get("players")), []).append(values)
    todo = sum(len(projected) for projected in units.values())
    counted = [0]

    def finished(unit: tuple[Any, ...], results: list[ProofResult]) -> None:
        counted[0] += len(results)
        if progress:
            progress(counted[0], todo, f"combinations {unit[1]} {results[-1].rules}: {_statuses(results)}")
    found = run_units(_prove_unit, [(session, invariant_id, projected) for (invariant_id, _), projected
                                    in units.items()], jobs=jobs or default_jobs(), done=finished)
    proved: dict[tuple[str, tuple[Any, ...]], ProofResult] = {}
    for ((invariant_id, _), projected), results in zip(units.items(), found):
        for values, result in zip(projected, results):
            proved[invariant_id, tuple(values.values())] = result
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


def _prove_unit(unit: tuple[Session, str, list[dict[str, Any]]]) -> list[ProofResult]:
    """The results of one invariant for each of its projections ``values``, in the session."""
    session, invariant_id, projected = unit
    prove = prove_game if "game" in BY_ID[invariant_id].methods else prove_context
    return [prove(invariant_id, rules_for(values), session, label=",".join(f"{k}={v}" for k, v in values.items()))
            for values in projected]


def _statuses(results: list[ProofResult]) -> str:
    return ", ".join(sorted({r.status for r in results}))
