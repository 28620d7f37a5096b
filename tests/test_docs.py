"""The documentation site: it builds with ``mkdocs build --strict``, every rule ID of spec/ has its
anchor, no page links to something missing, the docs cite existing rule IDs only, and the
generated pages read their data (the code, the recorded proofs, the vectors) as they should.
"""

from __future__ import annotations

import doctest
import html
import importlib
import inspect
import json
import re
import sys
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urlsplit

import pytest

from hearts_ref.spec import load_rules
from tests.docs_site import ROOT, build_site

sys.path.insert(0, str(ROOT / "docs"))

from sitegen import conformance_pages, matrix, proofs_page  # noqa: E402
from sitegen.pages import generated_pages  # noqa: E402

RULES = load_rules()
PREFIXES = sorted({rule_id.split("-")[0] for rule_id in RULES})
CITATION = re.compile(r"(?<![A-Za-z0-9_-])(?:" + "|".join(PREFIXES) + r")(?:-[A-Z]+)+(?![A-Za-z0-9_-])")
# Plausible misspellings of rule IDs, built at run time so that this file cites none.
MISSPELT_ANCHOR, MISSPELT_ID = "-".join(["LEAD", "HEART"]), "-".join(["LEAD", "QUEEN"])
SITEGEN = ["common", "refcode", "rules_pages", "spec_pages", "proofs_page", "conformance_pages", "matrix", "runs",
           "drawings", "reference_pages",
           "includes", "pages", "griffe_doctests", "griffe_roles"]


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    """The site, built once for this module with ``mkdocs build --strict``."""
    dest = tmp_path_factory.mktemp("site")
    process = build_site(dest)
    assert process.returncode == 0, f"mkdocs build --strict failed:\n{process.stderr[-4000:]}"
    return dest


class Page(HTMLParser):
    """The ids a page defines and the links it makes."""

    def __init__(self, text: str):
        super().__init__()
        self.ids: set[str] = set()
        self.links: list[str] = []
        self.feed(text)

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if attrs.get("id"):
            self.ids.add(attrs["id"])
        if tag == "a" and attrs.get("name"):
            self.ids.add(attrs["name"])
        for key in ("href", "src"):
            if attrs.get(key) and not (tag == "link" and attrs.get("rel") in ("canonical", "alternate")):
                self.links.append(attrs[key])


def parse_site(root: Path) -> dict[Path, Page]:
    return {path: Page(path.read_text(encoding="utf-8")) for path in root.rglob("*.html")}


def broken_links(root: Path) -> list[str]:
    """Return every internal link of the site whose file or anchor does not exist."""
    pages = parse_site(root)
    broken = []
    for path, page in pages.items():
        for link in page.links:
            parts = urlsplit(link)
            if parts.scheme or parts.netloc or link.startswith(("mailto:", "javascript:", "data:")):
                continue
            base = root if parts.path.startswith("/") else path.parent   # the 404 page links from the root
            target = (base / unquote(parts.path).lstrip("/")).resolve() if parts.path else path
            if target.is_dir():
                target = target / "index.html"
            if not target.exists():
                broken.append(f"{path.relative_to(root)}: {link} (no such file)")
            elif parts.fragment and target.suffix == ".html" and target in pages \
                    and unquote(parts.fragment) not in pages[target].ids:
                broken.append(f"{path.relative_to(root)}: {link} (no such anchor)")
    return broken


def text_of(path: Path) -> str:
    return html.unescape(re.sub(r"<[^>]+>", "", path.read_text(encoding="utf-8")))


def test_every_rule_id_has_an_anchor_on_its_chapter_page(site):
    pages = parse_site(site)
    for rule_id, rule in RULES.items():
        page = site / "rules" / rule.chapter / "index.html"
        assert page in pages, f"no page for chapter {rule.chapter}"
        assert rule_id in pages[page].ids, f"{rule_id} has no anchor #{rule_id} on rules/{rule.chapter}/"


def test_no_page_links_to_a_missing_page_or_anchor(site):
    assert not broken_links(site), "\n".join(broken_links(site)[:20])


def test_the_link_checker_catches_a_missing_anchor_and_file(tmp_path):
    (tmp_path / "a.html").write_text(f'<a href="b.html#LEAD-OPEN">x</a> <a href="b.html#{MISSPELT_ANCHOR}">y</a>'
                                     '<a href="c/">z</a>', encoding="utf-8")
    (tmp_path / "b.html").write_text('<h2 id="LEAD-OPEN">t</h2>', encoding="utf-8")
    assert broken_links(tmp_path) == [f"a.html: b.html#{MISSPELT_ANCHOR} (no such anchor)", "a.html: c/ (no such file)"]


def _unknown_citations(texts: dict[str, str]) -> dict[str, list[str]]:
    from tests.test_traceability import known_other_ids
    unknown: dict[str, list[str]] = {}
    for where, text in texts.items():
        for token in CITATION.findall(text):
            if token not in RULES and token not in known_other_ids():
                unknown.setdefault(token, []).append(where)
    return unknown


def test_docs_cite_only_existing_rule_ids():
    """The hand-written pages, the generators and every generated page cite rule IDs that exist."""
    sources = {str(p.relative_to(ROOT)): p.read_text(encoding="utf-8")
               for p in (ROOT / "docs").rglob("*") if p.suffix in (".md", ".py", ".json") and p.is_file()}
    generated = {f"generated {name}": text for name, text in generated_pages().items()}
    assert not _unknown_citations(sources | generated), _unknown_citations(sources | generated)
    assert _unknown_citations({"x": f"see {MISSPELT_ID}"}) == {MISSPELT_ID: ["x"]}


def test_a_rule_page_shows_text_sources_examples_code_and_tests(site):
    page = (site / "rules" / "03-leading" / "index.html").read_text(encoding="utf-8")
    section = page[page.index('id="LEAD-HEARTS"'):]
    assert "MUST NOT lead a heart" in section
    assert "«Hjerter kan først spilles ut når noen har kastet en hjerter" in section
    assert '"Hearts can only be led once someone has discarded a heart' in html.unescape(section)
    assert re.search(r'class="hr-card hr-red" title="three of hearts">3♥<', section)
    assert re.search(r'class="hr-card hr-black" title="queen of spades">Q♠<', section)
    assert "hearts_leads" in section and "hearts_ref/legality.py" in section
    assert "test_lead_hearts" in section or "tests/test_legality.py" in section
    opening = page[page.index('id="LEAD-OPEN"'):page.index('id="LEAD-WINNER"')]
    assert 'href="../01-setup/#DECK-REMOVED"' in opening
    assert "opening_leads" in opening and "lead_open" in opening


def test_the_code_under_a_rule_is_the_source_of_the_function():
    """The code shown for LEAD-OPEN is read from hearts_ref/legality.py, not copied: it equals the source."""
    from hearts_ref import legality
    from sitegen.refcode import citing_code
    piece = next(p for p in citing_code()["LEAD-OPEN"] if p.name == "opening_leads")
    lines, start = inspect.getsourcelines(legality.opening_leads)
    assert piece.text == "".join(lines).rstrip("\n") and piece.start == start
    markdown = generated_pages()["rules/03-leading.md"]
    assert f'```python linenums="{start}"' in markdown


@pytest.mark.parametrize("module", SITEGEN)
def test_site_generator_doctests(module):
    result = doctest.testmod(importlib.import_module(f"sitegen.{module}"))
    assert result.failed == 0 and (module in ("spec_pages", "rules_pages", "matrix") or result.attempted > 0)


def test_the_home_page_quick_start_is_the_readme_set_up(site):
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    setup = readme[readme.index("## Set-up"):readme.index("\n## ", readme.index("## Set-up") + 1)]
    commands = re.findall(r"```sh\n(.+?)\n```", setup, re.S)
    assert len(commands) >= 2
    home = text_of(site / "index.html")
    for command in commands:
        assert command in home, f"README set-up command missing from the home page: {command}"
    assert "hearts-ref play --seed 7" in home and "trick  1: seat" in home


def test_the_conformance_guide_examples_run():
    """Every Python block of the conformance guide runs as written (the adapter skeleton, the side-by-side check)."""
    guide = (ROOT / "docs" / "conformance" / "index.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```python\n(.*?)```", guide, re.S)
    assert len(blocks) >= 3
    # The side-by-side check says which call to replace by what it assigns, and the code still assigns it so.
    assert "Replace the first `ReferenceEngine()`, the one assigned to `mine`" in guide
    assert "mine, reference = ReferenceEngine(), ReferenceEngine()" in guide
    for block in blocks:
        exec(compile(block, "docs/conformance/index.md", "exec"), {})


SAMPLE_PROOFS = {"results": [
    {"invariant": "LEGAL-MOVE-EXISTS", "statement": "The player to move has a legal play.",
     "rule_ids": ["FIRST-NO-POINTS", "FIRST-EXCEPTION"], "rules": "seed000", "method": "context",
     "status": "proved", "expected": "proved", "seconds": 0.04, "counterexamples": []},
    {"invariant": "LEGAL-MOVE-EXISTS", "statement": "The player to move has a legal play.",
     "rule_ids": ["FIRST-NO-POINTS", "FIRST-EXCEPTION"], "rules": "seed001", "method": "context",
     "status": "refuted", "expected": "refuted", "seconds": 0.02,
     "counterexamples": [{"where": "following clubs on the first trick", "hand": "QS 2H 3H 4H 5H 6H",
                          "replay": {"hands": ["2C 3C", "QS 2H 3H 4H 5H 6H"], "plays": ["2C"], "stuck_seat": 1}}]}],
    "combinations": {"combinations": 12, "parameters": ["players"], "seconds": 1.5, "all_expected": True,
                     "invariants": {"LEGAL-MOVE-EXISTS": {"distinct": 3, "combinations": {"proved": 8, "refuted": 4},
                                                          "unexpected": 0}}}}


def test_the_proofs_page_draws_a_recorded_run(tmp_path, monkeypatch):
    monkeypatch.setattr(proofs_page, "PROOFS", tmp_path / "proofs.json")
    monkeypatch.setattr(proofs_page, "RUN", tmp_path / "proofs.run.json")
    assert "Not available yet" in proofs_page.proofs_page()
    assert proofs_page.proofs_by_rule()[""] == [("no run of the proofs is recorded yet", "proofs.md")]
    (tmp_path / "proofs.json").write_text(json.dumps(SAMPLE_PROOFS), encoding="utf-8")
    (tmp_path / "proofs.run.json").write_text(json.dumps({"command": "hearts-ref prove --all --json",
                                                          "seconds": 12.3, "exit_code": 0}), encoding="utf-8")
    page = proofs_page.proofs_page()
    assert "## LEGAL-MOVE-EXISTS {#LEGAL-MOVE-EXISTS}" in page
    assert "refuted (as expected)" in page and "| seed000 | context | :material-check-circle:" in page
    assert "Counterexample under seed001 (context)" in page and page.count('class="hr-card hr-red"') == 10
    assert "seat 1 is to move and has no legal play" in page and "8 proved, 4 refuted" in page
    assert "in 12.3 s" in page and "Not available yet" not in page
    links = proofs_page.proofs_by_rule()
    text, target, pieces = next(item for item in links["FIRST-EXCEPTION"] if item[0] == "LEGAL-MOVE-EXISTS")
    assert target == "proofs.md#LEGAL-MOVE-EXISTS" and "" not in links
    assert "".join(words for words, _ in pieces) == ("proved under seed000; refuted under seed001, as their "
                                                     "rules expect (counterexample on the proofs page)")
    assert ("counterexample on the proofs page", "proofs.md#cx-legal-move-exists-seed001-context") in pieces
    assert '<div class="hr-counterexample" id="cx-legal-move-exists-seed001-context" markdown>' in page


def test_the_proofs_page_draws_each_counterexample_deal_once(tmp_path, monkeypatch):
    """Two invariants refuted by the same replayed deal: the table is drawn under the first, the second links to it."""
    monkeypatch.setattr(proofs_page, "PROOFS", tmp_path / "proofs.json")
    monkeypatch.setattr(proofs_page, "RUN", tmp_path / "proofs.run.json")
    second = {**SAMPLE_PROOFS["results"][1], "invariant": "FIRST-TRICK-NO-DEADLOCK"}
    (tmp_path / "proofs.json").write_text(json.dumps({"results": SAMPLE_PROOFS["results"] + [second]}),
                                          encoding="utf-8")
    page = proofs_page.proofs_page()
    assert page.count('<figure class="hr-table') == 1 and page.count("hr-counterexample") == 2
    assert "from the same deal and plays as [LEGAL-MOVE-EXISTS under seed001 (context)]" \
           "(#cx-legal-move-exists-seed001-context)" in page
    drawn = page[page.index('<figure class="hr-table'):page.index("</figure>")]
    assert "to move: has no legal play" in drawn and "seat 1 is to move and has no legal play" in drawn


def test_a_rule_page_gives_the_outcome_of_each_proof_with_a_link(site):
    """FIRST-NO-POINTS lists its proofs with their verdict per preset (the recorded run), linked to the proofs page."""
    section = _rule_section(site, "FIRST-NO-POINTS")
    proofs = section[section.index("Proofs."):section.index("Vectors.")]
    assert re.search(r"LEGAL-MOVE-EXISTS: proved under seed000, seed002, seed004, openspiel; refuted under "
                     r"seed001, seed003, as their rules expect \(counterexample on the proofs page\)", proofs), proofs
    page = (site / "rules" / "04-following" / "index.html").read_text(encoding="utf-8")
    assert 'href="../../proofs/#cx-first-trick-no-deadlock-seed001-context"' in page
    assert 'href="../../proofs/#FIRST-TRICK-NO-DEADLOCK"' in page


def test_vectors_plug_into_the_rule_pages_when_present(tmp_path, monkeypatch):
    monkeypatch.setattr(conformance_pages, "VECTORS", tmp_path)
    assert conformance_pages.vectors_by_rule()[""][0][1] == "conformance/vectors.md"
    (tmp_path / "lead.json").write_text(json.dumps({"cases": [
        {"id": "lead-open/2c-only", "rules": ["LEAD-OPEN"], "description": "Only `2C` may open."}]}), encoding="utf-8")
    assert conformance_pages.vectors_by_rule() == {
        "LEAD-OPEN": [("lead-open/2c-only", "conformance/vectors.md#case-lead-open-2c-only")]}
    page = conformance_pages.vectors_page()
    assert '<span id="case-lead-open-2c-only"></span>' in page and "../rules/03-leading.md#LEAD-OPEN" in page


def _rule_section(site: Path, rule_id: str) -> str:
    """The text of one rule's section on its chapter page, from its heading to the next rule's."""
    page = (site / "rules" / RULES[rule_id].chapter / "index.html").read_text(encoding="utf-8")
    start = page.index(f'id="{rule_id}"')
    end = page.find("<h2 ", start)
    return html.unescape(re.sub(r"<[^>]+>", "", page[start:end if end >= 0 else len(page)]))


def test_every_vector_case_is_on_the_site_and_on_the_pages_of_its_rules(site):
    """Every case of spec/vectors/ (its subfolders too) has its anchor, and no rule a case names says it has none."""
    from hearts_ref.vectors import load_vectors
    cases = load_vectors()
    page = Page((site / "conformance" / "vectors" / "index.html").read_text(encoding="utf-8"))
    missing = [c.id for c in cases if conformance_pages.case_anchor(c.id) not in page.ids]
    assert not missing, f"{len(missing)} of {len(cases)} vector cases are not on the site: {missing[:10]}"
    named = sorted({rule_id for case in cases for rule_id in case.rule_ids})
    wrong = [rule_id for rule_id in named if "No vector names this rule" in _rule_section(site, rule_id)]
    assert not wrong, f"rule pages say no vector names these rules, which vectors name: {wrong}"
    follow = _rule_section(site, "FOLLOW-SUIT")
    assert "follow-suit.any-card-of-the-suit" in follow


def test_the_perft_table_shows_each_deal_with_its_rules_depth_and_counts(site):
    from hearts_ref.perft import load_perft, perft_names
    page = (site / "conformance" / "vectors" / "index.html").read_text(encoding="utf-8")
    table = page[page.index('id="perft"'):]
    rows = {m[1]: m[2] for m in re.finditer(r'<tr>\s*<td><span id="perft-([a-z0-9-]+)"></span>(.*?)</tr>', table, re.S)}
    assert sorted(rows) == perft_names() and "JSON data" not in table
    for name in perft_names():
        deal, cells = load_perft(name), [html.unescape(re.sub(r"<[^>]+>", "", c)).strip()
                                          for c in re.findall(r"<td>(.*?)</td>", rows[name], re.S)]
        assert cells[-2:] == [str(len(deal.counts)), ", ".join(f"{n:,}" for n in deal.counts)], (name, cells)
        assert deal.preset in cells[-3] and all(rule_id in cells[-4] for rule_id in deal.rule_ids), (name, cells)
        assert deal.description.split(":")[0].replace("`", "") in cells[-5].replace("`", ""), (name, cells)
    assert "can_lead_any_club = true" in rows["any-club"]


def _flat_sublists(text: str) -> list[str]:
    """Return the list items of ``text`` (outside code fences) indented by 1 to 3 spaces: Python-Markdown needs 4
    to nest a list, so such an item is drawn as an item of the outer list."""
    from sitegen.common import outside_fences
    found: list[str] = []
    outside_fences(text, lambda part: found.extend(re.findall(r"^ {1,3}(?:[-*+]|\d+\.) .*$", part, re.M)) or part)
    return found


def test_no_markdown_page_nests_a_list_by_less_than_four_spaces(site):
    sources = sorted((ROOT / "spec").rglob("*.md")) + sorted((ROOT / "docs").rglob("*.md")) + [ROOT / "README.md"]
    flat = {str(p.relative_to(ROOT)): _flat_sublists(p.read_text(encoding="utf-8")) for p in sources}
    assert not {k: v for k, v in flat.items() if v}, {k: v for k, v in flat.items() if v}
    assert _flat_sublists("- a:\n  - b\n\n```\n  - code\n```\n") == ["  - b"]
    page = (site / "conformance" / "vectors" / "index.html").read_text(encoding="utf-8")
    expect = page[page.index("<code>expect</code>: a valid step"):page.index("<code>rejected_by</code>: an invalid")]
    assert "<ul>" in expect and "<code>trick_winner</code>" in expect, "the fields of expect are not a nested list"


def test_no_page_runs_a_list_item_into_a_paragraph(site):
    """A list item Markdown did not see as one (after a block that left the list) shows as a line of a paragraph."""
    swallowed = [f"{path.relative_to(site)}: {m[0].strip()[:60]}" for path in sorted(site.rglob("*.html"))
                 for paragraph in re.findall(r"<p>(.*?)</p>", path.read_text(encoding="utf-8"), re.S)
                 for m in re.finditer(r"\n\s*(?:\d+\.|[-*+]) \S.*", paragraph)]
    assert not swallowed, swallowed
    runner = (site / "conformance-runner" / "index.html").read_text(encoding="utf-8")
    steps = runner[runner.index('id="what-runs"'):runner.index('id="reading-a-finding"')]
    assert steps.count("<li>") == 3 and steps.index("<table") < steps.index("Negative checks") < steps.index("</ol>")


def test_the_runner_page_gives_every_option_of_conform_help(site):
    from sitegen.includes import command_options
    page = text_of(site / "conformance-runner" / "index.html")
    options = command_options("conform")
    assert {"--timeout", "--startup-timeout", "--json", "--replay", "--merge"} <= options
    missing = sorted(option for option in options if not re.search(rf"{re.escape(option)}(?![\w-])", page))
    assert not missing, f"options of 'hearts-ref conform --help' missing from the runner page: {missing}"
    assert "$ hearts-ref conform --help\nusage: hearts-ref conform" in page
    assert '"format": "hearts-ref-conform-case"' in page


def test_the_variant_matrix_agrees_with_the_installed_openspiel_and_the_preset(site):
    page = (site / "matrix" / "index.html").read_text(encoding="utf-8")
    assert "no_pts_on_first_trick" in page and "OpenSpiel hearts" in page
    # The mark appears once, in the legend; anywhere else, a recorded value is wrong.
    assert page.count('title="disagrees with the installed engine or the preset"') == 1, \
        "a value recorded for OpenSpiel disagrees with the installed pyspiel or with the openspiel preset"


def test_the_variant_matrix_flags_a_wrongly_recorded_default():
    engine = json.loads((ROOT / "docs" / "data" / "engines" / "openspiel.json").read_text(encoding="utf-8"))
    pytest.importorskip("pyspiel", reason="open_spiel is not installed")
    for row in engine["rows"]:
        if row["parameter"] == "qs_breaks_hearts":
            row["default"], row["map"] = False, {"false": False, "true": True}
    installed, _ = matrix.installed_parameters(engine)
    row = next(r for r in matrix.engine_rows(engine, installed, []) if "qs_breaks_hearts" in r["parameter"])
    assert matrix.MISMATCH in row["engine"]


def test_the_variant_matrix_marks_a_deviation_only_on_the_values_the_failing_run_set(site):
    """Only the run with must_break_hearts=false failed: its cell is marked, not the defaults it shares with others."""
    from hearts_ref.variants import Rules
    engine = json.loads((ROOT / "docs" / "data" / "engines" / "openspiel.json").read_text(encoding="utf-8"))
    runs = [{"preset": "openspiel", "set": changes, "exit_code": code, "rules": Rules.preset("openspiel", **changes)}
            for changes, code in [({}, 0), ({"jd_bonus": True}, 0), ({"must_break_hearts": False}, 1)]]
    rows = {re.search(r"`(\w+)`", row["parameter"])[1]: row["engine"] for row in matrix.engine_rows(engine, None, runs)}
    marked = sorted(name for name, cell in rows.items() if matrix.DEVIATION in cell)
    assert marked == ["must_break_hearts"], marked
    cell = next(part for part in rows["must_break_hearts"].split("<br>") if matrix.DEVIATION in part)
    assert "⇒ `false`" in cell and matrix.VERIFIED not in cell
    assert matrix.VERIFIED in rows["players"] and matrix.VERIFIED in rows["jd_bonus"]
    page = (site / "matrix" / "index.html").read_text(encoding="utf-8")
    recorded = json.loads((ROOT / "docs" / "data" / "conformance" / "openspiel.json").read_text(encoding="utf-8"))
    set_by_failures = sum(len(run["set"]) for run in recorded["runs"] if run["exit_code"] == 1)
    table = page[page.index('class="hr-matrix"'):]
    table = table[:table.index("</table>")]
    assert table.count('title="a conformance run that set this value found a deviation"') == set_by_failures == 1


def test_no_page_shows_a_sphinx_role(site):
    """The API pages show ``:class:`~a.b.C``` as code ``C`` (linked where the object has an entry), not as written."""
    role = re.compile(r":(?:class|func|meth|attr|mod|data|exc):(?:<code>|`)")
    # Outside <pre>: the source listings show the docstrings as written.
    shown = {str(path.relative_to(site)): len(role.findall(re.sub(r"<pre\b.*?</pre>", "",
                                                                  path.read_text(encoding="utf-8"), flags=re.S)))
             for path in site.rglob("*.html")}
    assert not {k: v for k, v in shown.items() if v}, {k: v for k, v in shown.items() if v}
    failures = (site / "api" / "hearts_ref.engines.failures" / "index.html").read_text(encoding="utf-8")
    assert re.search(r'<a class="autorefs autorefs-internal"[^>]*href="../hearts_ref.engine/#hearts_ref.engine.'
                     r'EngineRejection"[^>]*><code>EngineRejection</code></a>', failures)
    assert "<code>verdict</code>" in failures and "~EngineFailure" not in failures


def test_the_openspiel_finding_shows_the_recorded_run_and_it_is_current(site):
    """The excerpt on the findings page is drawn from the recorded run, and the same command gives the same rows now."""
    import subprocess
    page = text_of(site / "openspiel-findings" / "index.html")
    excerpt = page[page.index("$ hearts-ref conform --engine openspiel"):page.index("verdict: FAIL")]
    shown = [line.strip() for line in excerpt.splitlines() if line.endswith("<--")]
    assert shown and all(line.startswith("BREAK-DISCARD") for line in shown), shown
    assert "findings (shrunk):" in excerpt and "docs/data/conformance/openspiel.json" in page
    pytest.importorskip("pyspiel", reason="open_spiel is not installed")
    command = excerpt.splitlines()[0].removeprefix("$ ").split()
    assert command[:2] == ["hearts-ref", "conform"]
    live = subprocess.run([sys.executable, "-m", "hearts_ref", *command[1:], "--quiet"], cwd=ROOT,
                          capture_output=True, text=True, timeout=600)
    assert live.returncode == 1, live.stderr
    now = [line.strip() for line in live.stdout.splitlines() if line.endswith("<--")]
    assert now == shown, f"the recorded run is out of date (python docs/build.py records it again): {now} != {shown}"


def test_the_report_outcomes_are_the_schemas_and_games_stopped_by_a_deadlock_are_explained(site):
    """The guide lists every status a case can have, and both pages say what a game stopped by a deadlock is."""
    schema = json.loads((ROOT / "spec" / "report.schema.json").read_text(encoding="utf-8"))
    statuses = schema["$defs"]["case"]["properties"]["status"]["enum"]
    assert "stopped" in schema["$defs"]["case"]["properties"]
    guide = (ROOT / "docs" / "conformance" / "index.md").read_text(encoding="utf-8")
    table = guide[guide.index("| outcome | meaning |"):]
    listed = re.findall(r"^\| ([a-z-]+) \|", table[:table.index("\n\n")], re.M)
    assert listed == ["outcome", *statuses], listed
    for page in ("conformance/index.html", "conformance-runner/index.html"):
        text = " ".join(text_of(site / page).split())
        assert "the rules deadlock" in text and "stopped field" in text, page
        assert re.search(r"neither a deviation|not a deviation", text) and "console summary" in text, page


def test_the_proofs_page_explains_the_shape_inv_and_the_replay_of_an_inductive_counterexample(site):
    """The shape and Inv are defined before the first counterexample that uses them; every part of Inv is named."""
    from properties.induction import PARTS
    page = (site / "proofs" / "index.html").read_text(encoding="utf-8")
    text = " ".join(text_of(site / "proofs" / "index.html").split())
    heading = text.index("Reading a counterexample¶")   # the section, not its entry in the table of contents
    reading = text[heading:]
    assert heading < text.index("seat 1 follows ♣ (seat 0 led)"), "the terms are used before they are explained"
    assert "names the seat to move, the leader of the current trick and the context of the play" in reading
    assert "Inv is the inductive invariant" in reading
    defined = reading[:reading.index("LEGAL-MOVE-EXISTS")]
    assert all(re.search(rf"\b{part}(:| \()", defined) for part in PARTS), sorted(PARTS)
    assert "need not be a state that a round can reach" in reading and "same hand in the same context" in reading
    block = page[page.index('id="cx-legal-move-exists-seed001-inductive"'):]
    block = block[:block.index("<h2")]    # to the next invariant's section (the drawn table holds divs of its own)
    assert 'href="#reading-a-counterexample"' in block and "seat 1 follows ♣ (seat 0 led)" in block



def test_a_run_that_no_longer_prints_what_its_page_says_stops_the_build(monkeypatch):
    """The house-rules page calls one run SOUND: if the run printed UNSOUND, the page would be wrong."""
    from sitegen import runs

    monkeypatch.setitem(runs.RUNS, "claimed", runs.Run(("prove",), says="SOUND: every invariant proved."))
    kept = runs.Output("hearts-ref prove", "…\nSOUND: every invariant proved.\n", 0)
    assert runs._checked("claimed", kept) is kept
    with pytest.raises(RuntimeError, match="no longer prints 'SOUND: every invariant proved.'"):
        runs._checked("claimed", runs.Output("hearts-ref prove", "UNSOUND: refuted GAME-ENDS\n", 1))
    assert all(runs.RUNS[name].says for name in ("house-rule-sound", "house-rule-unsound", "house-rule-endless"))
