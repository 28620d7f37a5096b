"""Every generated page of the site by its path under ``docs/``, and the navigation entries they add.

>>> pages = generated_pages()
>>> "rules/03-leading.md" in pages and "{#LEAD-OPEN}" in pages["rules/03-leading.md"]
True
"""

from __future__ import annotations

from sitegen.common import ROOT
from sitegen.conformance_pages import protocol_page, vectors_by_rule, vectors_page
from sitegen.matrix import matrix_page
from sitegen.proofs_page import proofs_by_rule, proofs_page
from sitegen.reference_pages import DOWNLOAD, changelog_page, cli_page, download_page
from sitegen.rules_pages import chapter_pages, chapters, rules_index
from sitegen.spec_pages import disagreements_page, sources_page, variants_page

__all__ = ["generated_pages", "api_modules", "nav_additions"]

NOT_API = {"hearts_ref.cli", "hearts_ref.__main__", "hearts_ref.pytest_plugin"}


def api_modules() -> list[str]:
    """Return the public modules of ``hearts_ref`` (dotted names), the command modules and private ones left out."""
    names = []
    for path in sorted((ROOT / "hearts_ref").rglob("*.py")):
        parts = path.relative_to(ROOT).with_suffix("").parts
        if parts[-1] == "__init__":
            parts = parts[:-1]
        name = ".".join(parts)
        if name in NOT_API or "commands" in parts or any(p.startswith("_") for p in parts[1:]):
            continue
        names.append(name)
    return names


def _api_pages() -> dict[str, str]:
    # The heading's anchor is the module's name, so that a reference to the module in a docstring links here.
    lower = "---\nsearch:\n  boost: 0.5\n---\n"   # below the rules and guides that speak of the same names
    pages = {f"api/{name}.md": f"{lower}# `{name}` {{#{name}}}\n\n::: {name}\n" for name in api_modules()}
    listing = "\n".join(f"- [`{name}`]({name}.md)" for name in api_modules())
    pages["api/index.md"] = ("# API reference\n\nThe public modules of `hearts_ref`, from their docstrings. "
                             "Start with `hearts_ref` (the re-exported API), `hearts_ref.variants` (the rules as "
                             "a value) and `hearts_ref.engine` (the interface your engine implements).\n\n"
                             f"{listing}\n")
    return pages


def generated_pages() -> dict[str, str]:
    """Return the Markdown of every generated page by its path under ``docs/``."""
    pages = {"rules/index.md": rules_index(), **chapter_pages(proofs_by_rule(), vectors_by_rule()),
             "disagreements.md": disagreements_page(), "variants.md": variants_page(),
             "sources.md": sources_page(), "matrix.md": matrix_page(), "proofs.md": proofs_page(),
             "conformance/protocol.md": protocol_page(), "conformance/vectors.md": vectors_page(),
             "cli.md": cli_page(), DOWNLOAD: download_page(), "changelog.md": changelog_page()}
    pages.update(_api_pages())
    return pages


def nav_additions() -> dict[str, list]:
    """Return the navigation entries to add under the sections "The rules" and "API reference"."""
    return {"The rules": [{title: f"rules/{stem}.md"} for stem, title, _ in chapters()],
            "API reference": [{name: f"api/{name}.md"} for name in api_modules()]}
