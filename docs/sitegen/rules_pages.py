"""The rule pages: one page per chapter of ``spec/rules/``, and the index of all rules.

Each rule is drawn with its ID as the anchor (``#LEAD-OPEN``, the ID itself), the
normative text, the source quotes with their translation, the examples with their
cards drawn, the reference code that cites it, and the proofs, vectors and tests
that concern it.
"""

from __future__ import annotations

import re
from pathlib import Path

from hearts_ref.spec import SpecRule, load_rules
from sitegen.common import SPEC, card_row, cards_in_text, link_rule_ids, relative
from sitegen.drawings import pass_cycle_figure
from sitegen.formal_statements import formal_statement
from sitegen.refcode import implementing, tests_naming

__all__ = ["rule_pages", "chapter_pages", "rules_index", "render_quotes", "spec_text"]

QUOTE = re.compile(r"^- `(?P<file>(?P<num>\d{3})_[0-9a-f]+\.txt)` \((?P<lang>[^)]+)\): «(?P<orig>.+?)» — "
                   r"\"(?P<tr>.+?)\"(?P<rest>.*)$")
SHOWN_TESTS = 8
# The rule pages come first in the site's search, before the pages that mention a rule (the API's, the vectors').
SEARCH_BOOST = "---\nsearch:\n  boost: 4\n---\n"
# Pictures drawn under a rule's text, by rule ID.
FIGURES = {"PASS-CYCLE": pass_cycle_figure}


def rule_pages() -> dict[str, str]:
    """Return the page (path under docs/) of every rule ID: ``rules/<chapter>.md``."""
    return {rule.id: f"rules/{rule.chapter}.md" for rule in load_rules().values()}


def spec_text(text: str, page: str) -> str:
    """Return spec Markdown made for the site: cards drawn, rule IDs and spec file names linked."""
    text = cards_in_text(link_rule_ids(text, page, rule_pages()))
    return re.sub(r"(?<![`/\w(\[])disagreements\.md(?![`\w)\]])", f"[disagreements]({relative('disagreements.md', page)})", text)


def render_quotes(text: str, page: str) -> str:
    """Return source quotation bullets as a list: source, language, original words, then the translation."""
    out = []
    for line in text.splitlines():
        match = QUOTE.match(line.strip())
        if match:
            source = f"[{match['num']}]({relative('sources.md#source-' + match['num'], page)})"
            rest = spec_text(match["rest"].strip(), page)
            out.append(f"- {source} · {match['lang']} · <span class=\"hr-original\">«{match['orig']}»</span>  \n"
                       f"  <span class=\"hr-translation\">\"{match['tr']}\"</span>{' ' + rest if rest else ''}")
        elif line.strip().startswith("- none:"):
            out.append("- *No source:* hearts-ref's own resolution (see the notes).")
        else:
            out.append(spec_text(line, page))
    return "\n".join(out)


def _chapter_head(path: Path) -> tuple[str, str]:
    """Return a chapter file's title and introductory paragraph."""
    lines = path.read_text(encoding="utf-8").split("\n## ", 1)[0].strip().splitlines()
    title = lines[0].removeprefix("# ").strip()
    return title, "\n".join(lines[1:]).strip()


def chapters() -> list[tuple[str, str, str]]:
    """Return (stem, title, introduction) for every chapter, in order."""
    return [(path.stem, *_chapter_head(path)) for path in sorted((SPEC / "rules").glob("*.md"))]


def _code_block(piece, *, open_: bool = False) -> str:
    """Return a collapsible block (open with ``open_``) with the source of one code piece, read at build time."""
    body = "\n".join("    " + line if line.strip() else "" for line in piece.text.splitlines())
    return (f'???{"+" if open_ else ""} abstract "`{piece.name}` · {piece.path}, lines {piece.start}–{piece.end}"\n\n'
            f'    ```python linenums="{piece.start}"\n{body}\n    ```\n')


def _links(title: str, links: dict, rule_id: str, page: str, none: str) -> str:
    """Return what lists a rule's proofs or vectors; ``links[""]``, when set, says why there are none yet.

    An item is (text, target) or (text, target, outcome), ``outcome`` being pieces of text each with
    a target or None (a proof's verdict under each preset): items with an outcome are a list, one per line.
    """
    items = links.get(rule_id, [])
    if not items:
        why = links.get("")
        return f"**{title}.** " + (f"[{why[0][0]}]({relative(why[0][1], page)})." if why else none) + "\n"
    if any(len(item) > 2 and item[2] for item in items):
        lines = []
        for text, target, *rest in items:
            pieces = rest[0] if rest else []
            told = "".join(f"[{words}]({relative(to, page)})" if to else words for words, to in pieces)
            lines.append(f"- [{text}]({relative(target, page)})" + (f": {told}." if told else "."))
        return f"**{title}.**\n\n" + "\n".join(lines) + "\n"
    shown = ", ".join(f"[{text}]({relative(target, page)})" for text, target, *_ in items[:24])
    more = f", and {len(items) - 24} more" if len(items) > 24 else ""
    return f"**{title}.** {shown}{more}.\n"


def _related(rule_id: str, page: str) -> str:
    """Return the variant parameters that change a rule and the disagreements that name it, linked."""
    from hearts_ref.variants import PARAMETERS
    from sitegen.spec_pages import disagreements_by_rule
    params = [f"[`{p.name}`]({relative('variants.md#' + p.name, page)})" for p in PARAMETERS if rule_id in p.rules]
    found = [f"[{text}]({relative(target, page)})" for text, target in disagreements_by_rule().get(rule_id, [])]
    return (f"**Variant parameters.** {', '.join(params) or 'none: every preset plays this rule the same way'}.  \n"
            f"**Disagreements.** {'; '.join(found) or 'none: the sources agree on it'}.\n")


def _reference_code(rule_id: str) -> str:
    """Return the code that implements a rule, shown open, then every other piece of code citing it, folded."""
    shown, others = implementing(rule_id)
    if not shown and not others:
        return f"**Reference code.** No code in `hearts_ref/` cites {rule_id}.\n"
    out = [f"**Reference code.** The code that implements {rule_id}, read from the source when this site was "
           "built:\n" if shown else f"**Reference code.** The code of `hearts_ref/` that cites {rule_id}:\n"]
    out += [_code_block(piece, open_=True) for piece in shown]
    if others:
        listed = "\n".join(f"    - `{p.name}` · {p.path}, lines {p.start}–{p.end}" for p in others)
        out.append(f'??? note "Other code that cites {rule_id} ({len(others)})"\n\n{listed}\n')
    return "\n".join(out)


def render_rule(rule: SpecRule, page: str, proofs: dict, vectors: dict) -> str:
    """Return the Markdown of one rule on its chapter page."""
    parts = [f"## {rule.id}: {rule.title} {{#{rule.id}}}\n",
             "**Rule.** " + spec_text(rule.section("Rule"), page) + "\n"]
    if rule.id in FIGURES:
        parts.append(FIGURES[rule.id]() + "\n")
    parts.append("**Sources.**\n\n" + render_quotes(rule.section("Sources"), page) + "\n")
    parts.append(formal_statement(rule.id, page))   # the rule as a predicate (properties/statements/)
    if rule.section("Examples"):
        parts.append('<div class="hr-examples" markdown>\n\n**Examples.**\n\n'
                     + spec_text(rule.section("Examples"), page) + "\n\n</div>\n")
    if rule.section("Notes"):
        parts.append("**Notes.** " + spec_text(rule.section("Notes"), page) + "\n")
    parts.append(_related(rule.id, page))
    parts.append(_reference_code(rule.id))
    parts.append(_links("Proofs", proofs, rule.id, page, "No proof names this rule."))
    parts.append(_links("Vectors", vectors, rule.id, page, "No vector names this rule."))
    tests = tests_naming(rule.id)
    if tests:
        listed = "\n".join(f"    - `{name}`" for name in tests)
        parts.append(f'??? note "Tests that cite {rule.id} ({len(tests)})"\n\n{listed}\n')
    return "\n".join(parts)


def chapter_pages(proofs: dict, vectors: dict) -> dict[str, str]:
    """Return the Markdown of every chapter page by its path under docs/.

    ``proofs`` and ``vectors`` map a rule ID to (link text, target) pairs; their key ``""``,
    when present, holds one pair that says why there are none yet (for example no recorded run).
    """
    by_chapter: dict[str, list[SpecRule]] = {}
    for rule in load_rules().values():
        by_chapter.setdefault(rule.chapter, []).append(rule)
    pages = {}
    for stem, title, intro in chapters():
        page = f"rules/{stem}.md"
        body = "\n".join(render_rule(rule, page, proofs, vectors) for rule in by_chapter.get(stem, []))
        pages[page] = (f"{SEARCH_BOOST}# {title}\n\n{spec_text(intro, page)}\n\n"
                       f"*Generated from `spec/rules/{stem}.md`; the anchor of each rule is its ID.*\n\n{body}")
    return pages


def _readme_section(name: str) -> str:
    text = (SPEC / "README.md").read_text(encoding="utf-8")
    match = re.search(rf"^## {re.escape(name)}\n(.*?)(?=^## |\Z)", text, re.S | re.M)
    return match.group(1).strip() if match else ""


def rules_index() -> str:
    """Return the index page of the rules: every chapter with its rules, the conventions and terms."""
    page = "rules/index.md"
    lines = ["# The rules\n",
             "hearts-ref's rules of Hearts, chapter by chapter. Every rule has a stable ID, which is also its "
             "anchor on this site: `rules/03-leading/#LEAD-OPEN`. The default rules are those of seed 000; "
             "where the sources differ, see [disagreements](../disagreements.md) and the "
             "[variant registry](../variants.md).\n"]
    rules = load_rules()
    for stem, title, _intro in chapters():
        lines.append(f"## [{title}]({stem}.md)\n")
        lines.append("| rule | title |\n|---|---|")
        lines.extend(f"| [{r.id}]({stem}.md#{r.id}) | {r.title} |" for r in rules.values() if r.chapter == stem)
        lines.append("")
    for name in ("Conventions", "Terms"):
        lines.append(f"## {name}\n\n{spec_text(_readme_section(name), page)}\n")
    lines.append("A row of cards such as " + card_row(["7D", "KD", "4H", "QS"])
                 + " is a trick or a hand; hearts and diamonds are red.\n")
    return "\n".join(lines)
