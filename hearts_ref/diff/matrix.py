"""Every preset against every other, and what each variant parameter changes on its own: the data of the docs page.

:func:`breakdown` compares, for each parameter two sides differ in, the first side with only that
parameter changed (:func:`~hearts_ref.diff.rulesets.single_changes`). :func:`matrix` is what
``hearts-ref diff --matrix --json`` prints and ``docs/build.py`` records in
``docs/data/house_rules.json``: each pair of presets with its verdict and smallest game, and
each value of each parameter compared with seed000, and a few house rules a table argues about
(:data:`EXAMPLES`), some of them equivalent in play.

>>> from hearts_ref.diff.compare import Comparer
>>> rows = breakdown(Comparer(), Rules(), Rules.preset("seed001"), "seed000")
>>> [(row["parameters"], row["comparison"]["verdict"]) for row in rows]
[(['first_trick_points'], 'different'), (['end_comparison'], 'different')]
"""

from __future__ import annotations

import itertools
import time
from typing import Any

from hearts_ref.diff.compare import Comparer
from hearts_ref.diff.report import JSON_VERSION, comparison_dict
from hearts_ref.diff.rulesets import change_from, other_values, parse_side, single_changes, value_text
from hearts_ref.errors import RulesError
from hearts_ref.variants import DEFAULT_PRESET, PARAMETERS, PRESETS, Rules

__all__ = ["breakdown", "matrix", "change_label", "EXAMPLES"]

# House rules a table argues about, each as the two sides compared (as the command line writes them).
EXAMPLES: tuple[tuple[str, str, str], ...] = (
    ("Does the Q♠ breaking hearts change anything when any heart breaks them too?",
     "seed004", "qs_breaks_hearts=true"),
    ("Under OpenSpiel's one round, does it matter how ties are settled?", "openspiel", "ties=play-on"),
    ("Under OpenSpiel's one round, does the pass cycle matter?", "openspiel", "pass_cycle=left-right-none"),
    ('Is "more than 100" the same as "101 or more"?', 'seed000 end_comparison=">"', "seed000 end_threshold=101"),
    ("Under seed 003's literal text (no heart discarded until one is led), does it matter which heart breaks "
     "hearts?", "seed003", "hearts_broken_by=any-heart"),
    ("With three players, does the first-trick exception ever apply?", "seed000 players=3 pass_cycle=left-right-none",
     "first_trick_points=forbidden"),
    ("If hearts need not be broken, does leading hearts instead of the Q♠ matter?", "seed000 must_break_hearts=false",
     "can_lead_hearts_instead_of_qs=true"),
)


def change_label(base_label: str, rules: Rules, parameters: tuple[str, ...]) -> str:
    """The label of ``base_label`` with ``parameters`` set as in ``rules``: ``seed000 qs_breaks_hearts=true`` (a
    setting of the label for one of them replaced, not kept beside it).

    >>> change_label("seed000 players=5 jd_bonus=true", Rules(), ("players",))
    'seed000 jd_bonus=true players=4'
    """
    kept = [word for word in base_label.split() if word.partition("=")[0] not in parameters]
    return " ".join(kept + [f"{name}={value_text(getattr(rules, name))}" for name in parameters])


def breakdown(comparer: Comparer, a: Rules, b: Rules, label_a: str, *, records: bool = False,
              label_b: str = "") -> list[dict[str, Any]]:
    """One row per parameter (or group of parameters that only change together) ``a`` and ``b`` differ in."""
    rows = []
    for change in single_changes(a, b):
        if change.before == a:
            before, after = label_a, change_label(label_a, change.after, change.parameters)
        else:   # only valid from b's side: b with a's value, against b
            before, after = change_label(label_b or "B", change.before, change.parameters), label_b or "B"
        result = comparer.compare(change.before, change.after)
        rows.append({"parameters": list(change.parameters), "together": change.reason,
                     "values": {name: [getattr(change.before, name), getattr(change.after, name)]
                                for name in change.parameters},
                     "comparison": comparison_dict(result, before, after, records=records)})
    return rows


def matrix(comparer: Comparer, *, presets: tuple[str, ...] = tuple(PRESETS), base: str = DEFAULT_PRESET,
           breakdowns: bool = True) -> dict[str, Any]:
    """Every pair of ``presets`` compared (with each pair's parameters one by one), and each value of each
    parameter compared with ``base`` on its own."""
    start = time.perf_counter()
    pairs = []
    for first, second in itertools.combinations(presets, 2):
        a, b = Rules.preset(first), Rules.preset(second)
        row = {"a": first, "b": second, "comparison": comparison_dict(comparer.compare(a, b), first, second,
                                                                      records=False)}
        if breakdowns and len(row["comparison"]["differ_in"]) > 1:
            row["parameters"] = breakdown(comparer, a, b, first, label_b=second)
        pairs.append(row)
    parameters = []
    rules = Rules.preset(base)
    for parameter in PARAMETERS:
        for value in other_values(parameter.name, rules):
            try:
                change = change_from(rules, parameter.name, value)
            except RulesError as error:
                parameters.append({"parameter": parameter.name, "value": value, "error": str(error)})
                continue
            result = comparer.compare(change.before, change.after)
            parameters.append({"parameter": parameter.name, "value": value,
                               "with": {n: getattr(change.after, n) for n in change.parameters if n != parameter.name},
                               "together": change.reason,
                               "comparison": comparison_dict(result, base, change_label(base, change.after,
                                                                                        change.parameters),
                                                             records=False)})
    examples = []
    for question, text_a, text_b in EXAMPLES:
        side_a = parse_side(text_a, name="A")
        side_b = parse_side(text_b, base=side_a, name="B")
        result = comparer.compare(side_a.rules, side_b.rules)
        examples.append({"question": question, "a": side_a.label, "b": side_b.label,
                         "comparison": comparison_dict(result, side_a.label, side_b.label, records=False)})
    return {"version": JSON_VERSION, "presets": list(presets), "base": base, "pairs": pairs,
            "parameters": parameters, "examples": examples, "seconds": round(time.perf_counter() - start, 1)}
