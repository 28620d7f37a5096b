"""The conformance reference pages: the stdio protocol and the vector and perft formats, with every vector case.

They include ``spec/protocol/README.md`` and ``spec/vectors.md`` when present, and list
the cases of every ``*.json`` file under ``spec/vectors/`` and the deals of ``spec/perft/``; before those
exist, the pages say so.

>>> print(include_markdown("# Title\\n\\nSee [the vectors](../vectors.md) and FOLLOW-SUIT.\\n\\n```\\nFOLLOW-SUIT\\n```",
...                        "conformance/protocol.md", "spec/protocol/README.md"))
## Title
<BLANKLINE>
See [the vectors](vectors.md) and [FOLLOW-SUIT](../rules/04-following.md#FOLLOW-SUIT).
<BLANKLINE>
```
FOLLOW-SUIT
```
"""

from __future__ import annotations

import json
import posixpath
import re
from typing import Any

from sitegen.common import (SPEC, escape_cell, first, not_yet, outside_fences, read_json, records, relative,
                            rule_ids_of, rule_link, slug)
from sitegen.rules_pages import rule_pages, spec_text

__all__ = ["include_markdown", "protocol_page", "vectors_page", "vector_cases", "vectors_by_rule", "link_case_ids"]

PROTOCOL = SPEC / "protocol" / "README.md"
VECTORS_DOC = SPEC / "vectors.md"
VECTORS = SPEC / "vectors"
PERFT = SPEC / "perft"
# Files of spec/ that the site shows, by their path in the repository.
ON_SITE = {"spec/vectors.md": "conformance/vectors.md", "spec/protocol/README.md": "conformance/protocol.md",
           "spec/disagreements.md": "disagreements.md", "spec/variants.json": "variants.md",
           "spec/README.md": "rules/index.md"}
_LINK = re.compile(r"(?<!!)\[([^\]]+)\]\(([^)\s]+)\)")


def _rewrite_links(text: str, page: str, source: str) -> str:
    """Point links of an included spec file at the site's pages; other repository files become plain text."""
    def one(match: re.Match[str]) -> str:
        label, target = match.groups()
        if re.match(r"^[a-z]+:|^#", target):
            return match.group(0)
        path, _, anchor = target.partition("#")
        repo_path = posixpath.normpath(posixpath.join(posixpath.dirname(source), path))
        if repo_path.startswith("spec/rules/") and repo_path.endswith(".md"):
            site = "rules/" + posixpath.basename(repo_path)
        else:
            site = ON_SITE.get(repo_path)
        if site is None:
            return f"{label} (`{repo_path}`)"
        return f"[{label}]({relative(site + ('#' + anchor if anchor else ''), page)})"
    return _LINK.sub(one, text)


def include_markdown(text: str, page: str, source: str) -> str:
    """Return a spec Markdown file made part of a page: headings one level down, links and rule IDs fixed, code kept."""
    def prose(part: str) -> str:
        part = re.sub(r"^(#+) ", r"#\1 ", part, flags=re.M)
        return spec_text(_rewrite_links(part, page, source), page)
    return outside_fences(text, prose)


def link_case_ids(text: str, page: str) -> str:
    """Return ``text`` with each vector case ID written as code (outside fences) linked to its row on the vectors page."""
    known = {str(case["id"]) for _name, case in vector_cases()[0]}

    def link(part: str) -> str:
        return re.sub(r"(?<![\[\w])`([a-z0-9-]+\.[a-z0-9.-]+)`",
                      lambda m: (f"[`{m[1]}`]({relative('conformance/vectors.md#' + case_anchor(m[1]), page)})"
                                 if m[1] in known else m[0]), part)
    return outside_fences(text, link)


def protocol_page() -> str:
    """Return the protocol reference: ``spec/protocol/README.md`` when present, its vector case IDs linked."""
    head = "# The stdio protocol\n\n"
    if not PROTOCOL.is_file():
        return head + not_yet("The JSON-lines stdio protocol is not specified yet (`spec/protocol/README.md` "
                              "does not exist).", "Once it lands, this page includes it.")
    page = "conformance/protocol.md"
    body = include_markdown(PROTOCOL.read_text(encoding="utf-8"), page, "spec/protocol/README.md")
    return head + "*Included from `spec/protocol/README.md`.*\n\n" + link_case_ids(body, page)


def vector_cases() -> tuple[list[tuple[str, dict[str, Any]]], list[str]]:
    """Return every vector case as (file, case) and the problems met while reading ``spec/vectors/``.

    The files are read as ``hearts_ref.vectors.load_vectors`` reads them: every ``*.json`` under
    the folder, its subfolders included, sorted by path; ``file`` is the path under ``spec/vectors/``.
    """
    cases, problems = [], []
    for path in sorted(VECTORS.rglob("*.json")) if VECTORS.is_dir() else []:
        name = path.relative_to(VECTORS).as_posix()
        data, error = read_json(path)
        if error:
            problems.append(error)
            continue
        found = [c for c in records(data, having=("id",)) if rule_ids_of(c)]
        if not found and not path.name.endswith("schema.json"):
            problems.append(f"`spec/vectors/{name}` holds no case with an `id` and `rules`")
        cases += [(name, case) for case in found]
    return cases, problems


def case_anchor(case_id: str) -> str:
    """Return the anchor of a vector case on the vectors page."""
    return "case-" + slug(case_id)


def vectors_by_rule() -> dict[str, list[tuple[str, str]]]:
    """Return, for each rule ID, the vector cases that exercise it as (text, target); key "" when there are no vectors."""
    cases, _ = vector_cases()
    links: dict[str, list[tuple[str, str]]] = {}
    for _name, case in cases:
        for rule_id in rule_ids_of(case):
            links.setdefault(rule_id, []).append((str(case["id"]), f"conformance/vectors.md#{case_anchor(str(case['id']))}"))
    if not cases:
        links[""] = [("no conformance vectors yet", "conformance/vectors.md")]
    return links


def _preset_changes(deal: Any, page: str) -> str:
    """Return the preset of a perft deal, linked, and the values its variant changes from it."""
    from hearts_ref.variants import Rules
    base = Rules.preset(deal.preset).to_dict()
    changes = [f"`{k} = {json.dumps(v)}`" for k, v in deal.rules.to_dict().items() if base.get(k) != v]
    link = f"[{deal.preset}]({relative('variants.md#preset-' + deal.preset, page)})"
    return link + (" with " + ", ".join(changes) if changes else "")


def _perft_lines(page: str) -> list[str]:
    """Return the table of the perft deals: what each shows, its rules, its preset, its depth and its counts."""
    from hearts_ref.errors import RecordError
    from hearts_ref.perft import load_perft
    files = sorted(PERFT.glob("*.json")) if PERFT.is_dir() else []
    if not files:
        return [not_yet("No perft data yet (`spec/perft/` is empty or missing).",
                        "Once it lands, this page lists its deals.")]
    lines = ["Each deal of `spec/perft/`, with the number of legal play sequences from its first lead to each "
             "depth (`counts`, depth 1 first); `hearts-ref perft NAME` checks them.\n",
             "| deal | what it shows | rules | preset | depth | counts |", "|---|---|---|---|---|---|"]
    for path in files:
        try:
            deal = load_perft(path)
        except RecordError as error:
            lines.append(f"| `{path.name}` | could not be read: {escape_cell(error)} | | | | |")
            continue
        rules = ", ".join(rule_link(r, page, rule_pages()) for r in deal.rule_ids)
        what = deal.description
        if deal.divide and len(deal.divide) > 1:
            what += (f" At depth {len(deal.counts)}, by first play: "
                     + ", ".join(f"`{card}` {count:,}" for card, count in deal.divide.items()) + ".")
        what = spec_text(what, page)
        counts = ", ".join(f"{count:,}" for count in deal.counts)
        lines.append(f'| <span id="perft-{slug(deal.name)}"></span>`{deal.name}` | {escape_cell(what)} | {rules} | '
                     f"{_preset_changes(deal, page)} | {len(deal.counts)} | {counts} |")
    return lines + [""]


def _drawn_examples(page: str) -> str:
    from hearts_ref.vectors import load_vectors
    from sitegen.drawings import worked_examples
    return worked_examples(load_vectors(), page, lambda case: f'<a href="#{case_anchor(case.id)}"><code>{case.id}</code></a>')


def vectors_page() -> str:
    """Return the vectors and perft page: the format (``spec/vectors.md``), every case with its rules, the perft files."""
    page = "conformance/vectors.md"
    out = ["# Vectors and perft\n"]
    if VECTORS_DOC.is_file():
        out += ["*The format, included from `spec/vectors.md`.*\n",
                include_markdown(VECTORS_DOC.read_text(encoding="utf-8"), page, "spec/vectors.md"), ""]
    else:
        out.append(not_yet("The vector format is not documented yet (`spec/vectors.md` does not exist).",
                           "Once it lands, this page includes it."))
    out += ["## The worked examples, drawn {#worked-examples}\n",
            "The worked examples of the source texts, each as the table looked when the trick it speaks of began: "
            "every hand, and that trick's cards in the middle (seat 0 at the bottom, clockwise).\n",
            _drawn_examples(page), ""]
    out.append("## Every case {#every-case}\n")
    cases, problems = vector_cases()
    out += [f"!!! warning \"Could not read\"\n\n    {p}\n" for p in problems]
    if not cases:
        out.append(not_yet("No conformance vectors yet (`spec/vectors/*.json`).", "Once they land, every case is "
                           "listed here with the rules it exercises, and each rule page links to its cases."))
    by_file: dict[str, list[dict[str, Any]]] = {}
    for name, case in cases:
        by_file.setdefault(name, []).append(case)
    for name, file_cases in by_file.items():
        out += [f"### `{name}` {{#file-{slug(name)}}}\n", f"{len(file_cases)} cases.\n",
                "| case | rules | description |", "|---|---|---|"]
        for case in file_cases:
            rules = ", ".join(rule_link(r, page, rule_pages()) for r in rule_ids_of(case))
            text = first(case, "description", "title", "name", "doc", default="")
            out.append(f'| <span id="{case_anchor(str(case["id"]))}"></span>`{escape_cell(case["id"])}` | {rules} | '
                       f"{escape_cell(spec_text(str(text), page))} |")
        out.append("")
    out += ["## Perft {#perft}\n", *_perft_lines(page)]
    return "\n".join(out)
