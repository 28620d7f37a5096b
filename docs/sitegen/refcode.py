"""The code that cites a rule: functions, classes and statements of ``hearts_ref/`` read with ``ast``.

A piece of code cites a rule when its text (docstring, body or comments) holds the rule
ID as a whole word. The rule pages show these pieces, read from the source at build time.

>>> pieces = citing_code()["LEAD-OPEN"]
>>> any(p.name == "opening_leads" and p.path == "hearts_ref/legality.py" for p in pieces)
True
>>> "PASS_SIZE" in [p.name for p in citing_code()["PASS-COUNT"] if p.kind == "statement"]
True
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from sitegen.common import ROOT

__all__ = ["CodePiece", "citing_code", "tests_naming", "cited_ids", "IMPLEMENTED_BY", "implementing"]

_ID = re.compile(r"(?<![A-Za-z0-9_-])[A-Z]+(?:-[A-Z]+)+(?![A-Za-z0-9_-])")


@dataclass(frozen=True)
class CodePiece:
    """A function, a class's own lines, or a module-level statement, with the rule IDs it cites."""

    path: str       # relative to the repository root, with forward slashes
    name: str       # qualified name: "opening_leads", "RoundState.play", "PASS_SIZE"
    kind: str       # "function", "class" or "statement"
    start: int      # first line, 1-based
    end: int        # last line
    text: str
    cites: frozenset[str]


def cited_ids(text: str) -> frozenset[str]:
    """Return every rule-ID-like token in ``text``."""
    return frozenset(_ID.findall(text))


def _piece(path: str, lines: list[str], name: str, kind: str, start: int, end: int) -> CodePiece:
    while end > start and not lines[end - 1].strip():
        end -= 1
    text = "\n".join(lines[start - 1:end])
    return CodePiece(path, name, kind, start, end, text, cited_ids(text))


def _first_line(node: ast.AST) -> int:
    decorators = getattr(node, "decorator_list", [])
    return min([node.lineno] + [d.lineno for d in decorators])


def pieces_of(path: Path, root: Path = ROOT) -> list[CodePiece]:
    """Return the code pieces of one Python file: functions, methods, classes' own lines, statements."""
    source = path.read_text(encoding="utf-8")
    lines = source.splitlines()
    rel = path.relative_to(root).as_posix()
    tree = ast.parse(source)
    pieces: list[CodePiece] = []
    for index, node in enumerate(tree.body):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            pieces.append(_piece(rel, lines, node.name, "function", _first_line(node), node.end_lineno))
        elif isinstance(node, ast.ClassDef):
            methods = [n for n in node.body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))]
            own_end = _first_line(methods[0]) - 1 if methods else node.end_lineno
            pieces.append(_piece(rel, lines, node.name, "class", _first_line(node), own_end))
            for method in methods:
                pieces.append(_piece(rel, lines, f"{node.name}.{method.name}", "function",
                                     _first_line(method), method.end_lineno))
        elif index == 0 and isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant):
            continue   # the module docstring: it names the rules of the whole module
        elif not isinstance(node, (ast.Import, ast.ImportFrom)):
            pieces.extend(_statement_pieces(rel, lines, node))
    return pieces


def _statement_pieces(rel: str, lines: list[str], node: ast.stmt) -> list[CodePiece]:
    """Return a module-level statement as one piece, or a long table (tuple, list, dict) as one piece per entry."""
    targets = getattr(node, "targets", [getattr(node, "target", None)])
    name = next((t.id for t in targets if isinstance(t, ast.Name)), f"line {node.lineno}")
    value = getattr(node, "value", None)
    if node.end_lineno - node.lineno < 8 or not isinstance(value, (ast.Tuple, ast.List, ast.Set, ast.Dict)):
        return [_piece(rel, lines, name, "statement", node.lineno, node.end_lineno)]
    entries = value.values if isinstance(value, ast.Dict) else value.elts
    keys = value.keys if isinstance(value, ast.Dict) else [None] * len(entries)
    pieces = []
    for key, entry in zip(keys, entries):
        label = _label(key) or _label(entry.args[0] if isinstance(entry, ast.Call) and entry.args else None)
        pieces.append(_piece(rel, lines, f"{name}[{label!r}]" if label else name, "statement",
                             (key or entry).lineno, entry.end_lineno))
    return pieces


def _label(node: ast.AST | None) -> str | None:
    return node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) else None


@cache
def citing_code(package: str = "hearts_ref") -> dict[str, list[CodePiece]]:
    """Return, for each rule-ID-like token, the code pieces of ``package`` that cite it."""
    found: dict[str, list[CodePiece]] = {}
    for path in sorted((ROOT / package).rglob("*.py")):
        for piece in pieces_of(path):
            for rule_id in piece.cites:
                found.setdefault(rule_id, []).append(piece)
    return found


@cache
def all_tests() -> tuple[CodePiece, ...]:
    """Return every test function of ``tests/`` that exercises the rules (not the traceability and docs tests)."""
    skipped = ("test_traceability.py", "test_docs.py", "test_docs_browser.py")   # they check citations, not rules
    return tuple(piece for path in sorted((ROOT / "tests").glob("test_*.py")) if path.name not in skipped
                 for piece in pieces_of(path)
                 if piece.kind == "function" and piece.name.split(".")[-1].startswith("test_"))


def tests_naming(rule_id: str) -> list[str]:
    """Return the tests (``file::name``) citing ``rule_id`` in their body or by name (``test_lead_open_…``)."""
    snake = rule_id.lower().replace("-", "_")
    named = re.compile(rf"test_(?:invalid_)?{snake}(?:_|$)")
    return [f"{t.path}::{t.name}" for t in all_tests()
            if rule_id in t.cites or named.match(t.name.split(".")[-1])]


# The code that implements each rule, as ``path:name`` of the reference engine: what its rule page shows first.
# Every other piece of code that cites the rule is listed after it, folded away.
IMPLEMENTED_BY: dict[str, tuple[str, ...]] = {
    "PLAYERS-COUNT": ("variants.py:PARAMETERS['players']",), "DECK-CARDS": ("variants.py:Rules.deck_mask",),
    "DECK-REMOVED": ("variants.py:Rules.removed_cards",), "DEAL-HANDS": ("round.py:start_round",),
    "DEAL-DEALER": ("game.py:Game.dealer",), "PASS-COUNT": ("round.py:RoundState.choose_pass",),
    "PASS-SIMULTANEOUS": ("round.py:exchange",), "PASS-CYCLE": ("variants.py:Rules.pass_direction",),
    "LEAD-OPEN": ("legality.py:opening_leads",), "LEAD-WINNER": ("round.py:RoundState.play",),
    "LEAD-HEARTS": ("legality.py:hearts_leads",), "FOLLOW-SUIT": ("legality.py:follow_suit",),
    "FOLLOW-VOID": ("legality.py:void_discards",), "FIRST-NO-POINTS": ("legality.py:first_trick_discards",),
    "FIRST-EXCEPTION": ("legality.py:first_trick_discards",), "FIRST-TWO-CARDS": ("legality.py:first_two_cards",),
    "BREAK-DISCARD": ("legality.py:breaks_hearts",),
    "BREAK-QUEEN": ("legality.py:breaks_hearts",), "TRICK-ORDER": ("round.py:RoundState.play",),
    "TRICK-WINNER": ("tricks.py:trick_winner",), "SCORE-POINTS": ("scoring.py:card_points",),
    "SCORE-JACK": ("scoring.py:card_points",), "SCORE-NO-TRICKS": ("scoring.py:score_terms",),
    "SCORE-MOON": ("scoring.py:takes_the_moon", "scoring.py:score_terms"), "SCORE-TOTAL": ("game.py:Game._finish",),
    "END-THRESHOLD": ("game.py:is_game_over",), "WIN-LOWEST": ("game.py:winners",),
    "WIN-TIE": ("game.py:is_game_over", "game.py:winners"),
}


def implementing(rule_id: str) -> tuple[list[CodePiece], list[CodePiece]]:
    """Return the code that implements ``rule_id`` (``IMPLEMENTED_BY``) and the other code that cites it.

    >>> shown, others = implementing("FIRST-NO-POINTS")
    >>> [p.name for p in shown], len(others) > 10
    (['first_trick_discards'], True)
    """
    pieces = citing_code().get(rule_id, [])
    by_name = {f"{p.path.removeprefix('hearts_ref/')}:{p.name}": p for p in pieces}
    shown = [by_name[name] for name in IMPLEMENTED_BY.get(rule_id, ()) if name in by_name]
    return shown, [p for p in pieces if p not in shown]
