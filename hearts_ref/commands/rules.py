"""``hearts-ref rules``: the rule IDs with their titles, or the variant registry."""

from __future__ import annotations

import argparse
import json

from hearts_ref.spec import load_rules
from hearts_ref.variants import EXPECTED_UNSOUND, PARAMETERS, PRESETS, Rules

__all__ = ["configure", "run", "registry"]


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--json", action="store_true", help="print JSON instead of a table")
    parser.add_argument("--registry", action="store_true",
                        help="print the variant registry and presets (the content of spec/variants.json)")


def registry() -> dict:
    """Return the machine-readable variant registry: parameters and presets."""
    def allowed(p):
        if p.values is bool:
            return [False, True]
        if p.values is int:
            return {"type": "integer", "minimum": p.minimum}
        return list(p.values)
    return {
        "format": "hearts-ref-variants",
        "version": 1,
        "parameters": [{"name": p.name, "values": allowed(p), "default": p.default, "rules": list(p.rules),
                        "source": p.source, "doc": p.doc} for p in PARAMETERS],
        "presets": {name: {"values": Rules.preset(name).to_dict(), "changes": values,
                           "expected_sound": name not in EXPECTED_UNSOUND}
                    for name, values in PRESETS.items()},
    }


def run(args: argparse.Namespace) -> int:
    if args.registry:
        print(json.dumps(registry(), indent=2, ensure_ascii=False))
        return 0
    rules = load_rules()
    if args.json:
        print(json.dumps([{"id": r.id, "title": r.title, "chapter": r.chapter} for r in rules.values()],
                         indent=2, ensure_ascii=False))
        return 0
    width = max(len(r) for r in rules)
    for rule in rules.values():
        print(f"{rule.id:<{width}}  {rule.title}")
    return 0
