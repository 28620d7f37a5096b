"""The pages drawn from the rest of ``spec/``: the disagreements, the variant registry, the sources."""

from __future__ import annotations

import json
import re

from hearts_ref.commands.rules import registry
from sitegen.common import SPEC, escape_cell, relative, rule_link
from sitegen.rules_pages import QUOTE, render_quotes, rule_pages, spec_text

__all__ = ["disagreements_page", "variants_page", "sources_page", "source_table", "disagreements", "summary_table",
           "disagreements_by_rule", "source_files"]

DISAGREEMENT = re.compile(r"^## (D\d+): (.+?)\s*$")


def disagreements() -> list[dict[str, str | list[str]]]:
    """Return each disagreement of ``spec/disagreements.md``: its ID, title, resolution, variant and rule IDs.

    >>> first = disagreements()[0]
    >>> first["id"], "BREAK-DISCARD" in first["rules"]
    ('D1', True)
    """
    text = (SPEC / "disagreements.md").read_text(encoding="utf-8")
    found = []
    for section in re.split(r"^(?=## )", text, flags=re.M)[1:]:
        heading, _, body = section.partition("\n")
        match = DISAGREEMENT.match(heading)
        if not match:
            continue
        parts = {name: (re.search(rf"^\*\*{name}\.\*\* (.+?)(?=\n\n|\Z)", body, re.S | re.M) or [None, ""])[1]
                 for name in ("Resolution", "Variant", "Rules")}
        found.append({"id": match[1], "title": match[2], "resolution": parts["Resolution"].replace("\n", " "),
                      "variant": parts["Variant"].replace("\n", " "),
                      "rules": re.findall(r"[A-Z]+(?:-[A-Z]+)+", parts["Rules"])})
    return found


def _first_sentence(text: str) -> str:
    match = re.match(r"(.+?\.)(?:\s+[A-Z(`]|\s*$)", text)
    return match[1] if match else text


def summary_table(page: str) -> str:
    """Return the table atop the disagreements page: each one, the resolution's first sentence, its parameters,
    its rules."""
    rows = ["| | disagreement | hearts-ref's resolution | parameters | rules |", "|---|---|---|---|---|"]
    for d in disagreements():
        known = {p["name"] for p in registry()["parameters"]}
        names = sorted(set(re.findall(r"`(\w+) = ", d["variant"])) & known, key=d["variant"].index)
        params = ", ".join(f"[`{n}`]({relative('variants.md#' + n, page)})" for n in names) or "—"
        rules = ", ".join(rule_link(r, page, rule_pages()) for r in d["rules"])
        rows.append(f"| [{d['id']}](#{d['id']}) | {escape_cell(d['title'])} | "
                    f"{escape_cell(spec_text(_first_sentence(d['resolution']), page))} | {params} | {rules} |")
    return "\n".join(rows) + "\n"


def disagreements_by_rule() -> dict[str, list[tuple[str, str]]]:
    """Return, for each rule ID, the disagreements that name it, as (``D<n>: title``, target)."""
    by_rule: dict[str, list[tuple[str, str]]] = {}
    for d in disagreements():
        for rule_id in d["rules"]:
            by_rule.setdefault(rule_id, []).append((f"{d['id']}: {d['title']}", f"disagreements.md#{d['id']}"))
    return by_rule


def disagreements_page() -> str:
    """Return the disagreements page from ``spec/disagreements.md``, a summary table first; each section is
    anchored ``#D<n>``."""
    page = "disagreements.md"
    text = (SPEC / "disagreements.md").read_text(encoding="utf-8")
    head, *sections = re.split(r"^(?=## )", text, flags=re.M)
    out = [spec_text(head.strip(), page), "\n*Generated from `spec/disagreements.md`.*\n",
           "## Summary {#summary}\n", summary_table(page)]
    for section in sections:
        heading, _, body = section.partition("\n")
        match = DISAGREEMENT.match(heading)
        if match:
            out.append(f"## {match[1]}: {match[2]} {{#{match[1]}}}\n")
        else:
            name = heading.removeprefix("## ").strip()
            out.append(f"## {name} {{#{re.sub(r'[^a-z0-9]+', '-', name.lower()).strip('-')}}}\n")
        out.append(render_quotes(body.strip(), page) + "\n")
    return "\n".join(out)


def _value(value) -> str:
    return json.dumps(value, ensure_ascii=False)


def _allowed(values) -> str:
    if isinstance(values, dict):
        return f"integer ≥ {values.get('minimum', 0)}"
    return ", ".join(f"`{_value(v)}`" for v in values)


def variants_page() -> str:
    """Return the variant registry page: every parameter, every preset, and a preset × parameter table."""
    page = "variants.md"
    data = registry()
    out = ["---\nhide:\n  - toc\n---\n", "# Variant registry\n",
           "Every rule that the sources disagree on, or that other engines vary, is a named parameter. "
           "A set of rules is the defaults (seed 000) with some parameters changed; a *preset* names such a set. "
           "Choose them on the command line with `--preset NAME` and `--set name=value`, or in Python with "
           "`Rules.preset(\"seed001\", jd_bonus=True)`.\n",
           "*Generated from `hearts-ref rules --registry` (the same data as `spec/variants.json`).*\n",
           "## Parameters\n",
           "| parameter | values | default | rules | source | what it does |", "|---|---|---|---|---|---|"]
    for p in data["parameters"]:
        rules = ", ".join(rule_link(r, page, rule_pages()) for r in p["rules"])
        out.append(f'| <span id="{p["name"]}"></span>`{p["name"]}` | {_allowed(p["values"])} | '
                   f'`{_value(p["default"])}` | {rules} | {escape_cell(p["source"])} | '
                   f'{escape_cell(spec_text(p["doc"], page))} |')
    out += ["\n## Presets\n",
            "A preset marked *expected unsound* follows its source literally even where that can leave a "
            "player with no legal card; the [proofs](proofs.md) refute it with a counterexample.\n"]
    sources = dict((num, (lang, what)) for num, _name, lang, what in source_table())
    for name, preset in data["presets"].items():
        changes = ", ".join(f"`{k} = {_value(v)}`" for k, v in preset["changes"].items()) or "none: the defaults"
        num = name.removeprefix("seed")
        origin = (f"Follows source [{num}]({relative('sources.md#source-' + num, page)}) ({sources[num][1]}). "
                  if num in sources else "")
        sound = "expected sound" if preset["expected_sound"] else "**expected unsound**"
        out.append(f"### {name} {{#preset-{name}}}\n\n{origin}Changes from the defaults: {changes}. "
                   f"{sound.capitalize() if sound[0] != '*' else sound}.\n")
    names = list(data["presets"])
    out += ["## Every preset, every parameter\n",
            "Values that differ from the default are in bold.\n",
            "| parameter | default | " + " | ".join(f"[{n}](#preset-{n})" for n in names) + " |",
            "|---|---|" + "---|" * len(names)]
    for p in data["parameters"]:
        cells = []
        for n in names:
            value = data["presets"][n]["values"][p["name"]]
            cells.append(f"**`{_value(value)}`**" if value != p["default"] else f"`{_value(value)}`")
        out.append(f'| [`{p["name"]}`](#{p["name"]}) | `{_value(p["default"])}` | ' + " | ".join(cells) + " |")
    return "\n".join(out) + "\n"


def source_table() -> list[tuple[str, str, str, str]]:
    """Return (number, file name, language, what it is) of each source text, from ``spec/README.md``."""
    row = re.compile(r"^\| `((\d{3})_[0-9a-f]{16}\.txt)` \| ([^|]+?) \| ([^|]+?) \|")
    table = []
    for line in (SPEC / "README.md").read_text(encoding="utf-8").splitlines():
        match = row.match(line)
        if match:
            table.append((match[2], match[1], match[3].strip(), match[4].strip()))
    return table


def sources_page() -> str:
    """Return the page of the five source texts, each anchored ``#source-<number>``, with how often it is quoted."""
    quotes: dict[str, int] = {}
    for path in list((SPEC / "rules").glob("*.md")) + [SPEC / "disagreements.md"]:
        for line in path.read_text(encoding="utf-8").splitlines():
            match = QUOTE.match(line.strip())
            if match:
                quotes[match["num"]] = quotes.get(match["num"], 0) + 1
    out = ["# The sources\n",
           "hearts-ref's rules are drawn from five public rule texts, cited by file name. Each rule quotes "
           "them word for word (a test checks every quote against the text), with an English translation.\n",
           "*Generated from `spec/README.md`.*\n"]
    out.append("Each text is kept in the repository as it was read, in `spec/sources/`, and on this site; the address "
               "it was published at is not recorded with it.\n")
    for num, name, lang, what in source_table():
        title = (SPEC / "sources" / name).read_text(encoding="utf-8").strip().splitlines()[0]
        title = title if len(title) <= 90 else title[:90].rsplit(" ", 1)[0] + " …"
        out.append(f"## {num} · {lang} {{#source-{num}}}\n\n{what}. It begins: «{title}»\n\n"
                   f"File `{name}`, [the whole text](sources/{name}). Quoted {quotes.get(num, 0)} times "
                   f"in the rules and the disagreements. Preset: [seed{num}](variants.md#preset-seed{num}).\n")
    return "\n".join(out)


def source_files() -> dict[str, bytes]:
    """Return the source texts as files of the site, by their path: ``sources/<file name>``."""
    return {f"sources/{name}": (SPEC / "sources" / name).read_bytes() for _, name, _, _ in source_table()}
