"""Generating the vector suite: every case of the catalogue, written to ``spec/vectors/`` byte for byte
the same on every run.

Layout (paths under the output folder):

- ``rules/<chapter>.json``: the targeted cases, by the chapter of their first rule ID;
- ``examples.json``: the worked examples of the sources;
- ``edge.json``: the edge cases;
- ``games/<preset>.json``: whole random games under each sound preset.

and the perft deals, one file each, in ``spec/perft/<name>.json``.

>>> print(dumps_vectors("Demo", []), end="")
{"format": "hearts-ref-vectors", "version": 1, "suite": "1.4.0", "title": "Demo", "cases": []}
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from hearts_ref.perft import PerftDeal
from hearts_ref.spec import load_rules, spec_dir
from hearts_ref.vectors.cases_edge import edge_cases, game_cases
from hearts_ref.vectors.cases_examples import example_cases
from hearts_ref.vectors.cases_play import CHAPTERS
from hearts_ref.vectors.cases_decks import decks_cases
from hearts_ref.vectors.cases_uneven import uneven_cases
from hearts_ref.vectors.cases_protocol import protocol_cases
from hearts_ref.vectors.cases_score import end_cases, scoring_cases
from hearts_ref.vectors.model import FORMAT_VERSION, SUITE_VERSION, VECTORS_FORMAT, Case
from hearts_ref.vectors.perft_deals import counted, perft_deals

__all__ = ["suite_files", "dumps_vectors", "format_json", "write_suite", "all_cases", "write_perft", "dumps_perft"]

_INLINE_KEYS = {"variant", "expect", "result", "final", "rule_ids", "counts", "divide"}
_WIDTH = 110


def format_json(value: Any, indent: int = 0, key: str | None = None) -> str:
    """Return ``value`` as JSON: short values, steps and a few known keys on one line, the rest indented."""
    compact = json.dumps(value, ensure_ascii=False, separators=(", ", ": "))
    is_step = isinstance(value, dict) and "seat" in value and ("play" in value or "pass" in value)
    if not isinstance(value, (dict, list)) or key in _INLINE_KEYS or is_step or len(compact) + indent <= _WIDTH:
        return compact
    pad = " " * (indent + 1)
    if isinstance(value, list):
        items = [pad + format_json(item, indent + 1) for item in value]
        return "[\n" + ",\n".join(items) + "\n" + " " * indent + "]"
    items = [f"{pad}{json.dumps(k, ensure_ascii=False)}: {format_json(v, indent + 1, k)}" for k, v in value.items()]
    return "{\n" + ",\n".join(items) + "\n" + " " * indent + "}"


def dumps_vectors(title: str, cases: list[Case]) -> str:
    """Return the text of one vector file holding ``cases``."""
    data = {"format": VECTORS_FORMAT, "version": FORMAT_VERSION, "suite": SUITE_VERSION, "title": title,
            "cases": [case.to_json() for case in cases]}
    return format_json(data) + "\n"


def _rule_files() -> dict[str, tuple[str, list[Case]]]:
    chapters = {rule.id: rule.chapter for rule in load_rules().values()}
    titles = {rule.chapter: rule.chapter.split("-", 1)[1] for rule in load_rules().values()}
    targeted: list[Case] = []
    for make in [*CHAPTERS, uneven_cases, decks_cases, scoring_cases, end_cases, protocol_cases]:
        targeted += make()
    files: dict[str, tuple[str, list[Case]]] = {}
    for case in targeted:
        chapter = chapters[case.rule_ids[0]]
        title = f"Targeted cases, chapter {chapter}: {titles[chapter]}"
        files.setdefault(f"rules/{chapter}.json", (title, []))[1].append(case)
    return files


def suite_files() -> dict[str, tuple[str, list[Case]]]:
    """Return the suite: relative path -> (title, cases), in path order."""
    files = _rule_files()
    files["examples.json"] = ("The worked examples of the source texts", example_cases())
    files["edge.json"] = ("Edge cases", edge_cases())
    for preset, cases in game_cases().items():
        files[f"games/{preset}.json"] = (f"Whole random games under preset {preset}", cases)
    return dict(sorted(files.items()))


def all_cases() -> list[Case]:
    """Return every case of the suite, in file order."""
    return [case for _, cases in suite_files().values() for case in cases]


def write_suite(out: Path | None = None, *, progress: Callable[[str], None] | None = None) -> list[Path]:
    """Write the suite under ``out`` (``spec/vectors/`` by default); return the files written.

    Vector files of ``out`` that the suite no longer has are removed, so a regeneration
    leaves exactly the suite.
    """
    out = out or spec_dir() / "vectors"
    written = []
    for relative, (title, cases) in suite_files().items():
        path = out / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(dumps_vectors(title, cases), encoding="utf-8", newline="\n")
        written.append(path)
        if progress:
            progress(f"{path}: {len(cases)} cases")
    for stale in sorted(set(out.rglob("*.json")) - set(written)):
        stale.unlink()
    return written


def dumps_perft(deal: PerftDeal) -> str:
    """Return the text of one perft file."""
    return format_json(deal.to_json()) + "\n"


def write_perft(out: Path | None = None, *, progress: Callable[[str], None] | None = None) -> list[Path]:
    """Write one file per perft deal, with its counts, under ``out`` (``spec/perft/`` by default)."""
    out = out or spec_dir() / "perft"
    out.mkdir(parents=True, exist_ok=True)
    written = []
    for deal in perft_deals():
        path = out / f"{deal.name}.json"
        full = counted(deal)
        path.write_text(dumps_perft(full), encoding="utf-8", newline="\n")
        written.append(path)
        if progress:
            progress(f"{path}: depth {len(full.counts)}, {full.counts[-1]} sequences")
    for stale in sorted(set(out.glob("*.json")) - set(written)):
        stale.unlink()
    return written
