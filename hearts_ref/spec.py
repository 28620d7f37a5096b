"""Reading ``spec/``: the rule chapters, their stable IDs and their text.

The rules are written once, in ``spec/rules/*.md``; this module finds that folder
(the source checkout, or the copy shipped inside the package) and parses it.

>>> rules = load_rules()
>>> rules["LEAD-OPEN"].chapter
'03-leading'
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path

__all__ = ["SpecRule", "spec_dir", "load_rules", "RULE_ID", "RULE_HEADING"]

RULE_ID = re.compile(r"^[A-Z]+(-[A-Z]+)+$")
RULE_HEADING = re.compile(r"^## ([A-Z]+(?:-[A-Z]+)+): (.+?)\s*$")


@dataclass(frozen=True)
class SpecRule:
    """One rule of the spec: its ID, title, chapter file and Markdown body."""

    id: str
    title: str
    chapter: str
    body: str

    def section(self, name: str) -> str:
        """Return the text of the ``**Name.**`` section of the body (empty if absent)."""
        match = re.search(rf"\*\*{re.escape(name)}\.\*\*(.*?)(?=\n\*\*[A-Z][a-z]+\.\*\*|\Z)", self.body, re.S)
        return match.group(1).strip() if match else ""


def spec_dir() -> Path:
    """Return the ``spec/`` folder: the checkout's when run from source, else the packaged copy."""
    here = Path(__file__).resolve().parent
    for candidate in (here.parent / "spec", here / "_spec"):
        if (candidate / "rules").is_dir():
            return candidate
    raise FileNotFoundError(f"spec/ not found next to {here} (a broken install?)")


@cache
def load_rules(folder: Path | None = None) -> dict[str, SpecRule]:
    """Return every rule of ``spec/rules/*.md`` by ID, in the order the chapters write them."""
    folder = folder or spec_dir()
    rules: dict[str, SpecRule] = {}
    for path in sorted((folder / "rules").glob("*.md")):
        current: list[str] | None = None
        head: tuple[str, str] | None = None
        for line in path.read_text(encoding="utf-8").splitlines() + ["# (end of chapter)"]:
            match = RULE_HEADING.match(line)
            if match or line.startswith("## ") or line.startswith("# "):
                if head is not None and current is not None:
                    rule_id, title = head
                    if rule_id in rules:
                        raise ValueError(f"{path.name}: rule {rule_id} is defined twice")
                    parts = re.findall(r"^\*\*([A-Z][a-z]+)\.\*\*", "\n".join(current), re.M)
                    twice = sorted({part for part in parts if parts.count(part) > 1})
                    if twice:   # section() reads the first: a second would be lost on the site and in the checks
                        raise ValueError(f"{path.name}: rule {rule_id} has more than one "
                                         + " and ".join(f"**{part}.**" for part in twice) + " part; write them as one")
                    rules[rule_id] = SpecRule(rule_id, title, path.stem, "\n".join(current).strip())
                head, current = (match.group(1), match.group(2)) if match else None, [] if match else None
            elif current is not None:
                current.append(line)
    return rules
