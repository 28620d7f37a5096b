"""The generated reference pages and pictures of the site, read from the generators (no site build): the
command-line reference, the suite to download, the changelog, the glossary, the rule pages' code and links, the
disagreements' summary, the drawings and the chart.
"""

from __future__ import annotations

import hashlib
import json
import re
import sys

from hearts_ref.spec import load_rules
from hearts_ref.variants import PARAMETERS
from hearts_ref.vectors import SUITE_VERSION, load_vectors
from tests.docs_site import ROOT

sys.path.insert(0, str(ROOT / "docs"))

from sitegen import drawings, includes, reference_pages, refcode, spec_pages  # noqa: E402
from sitegen.pages import generated_pages  # noqa: E402

PAGES = generated_pages()
RULES = load_rules()


def test_the_command_line_page_gives_every_option_of_every_command_and_subcommand():
    page = PAGES["cli.md"]
    commands = reference_pages.commands()
    assert {"conform", "vectors export", "vectors run", "prove", "serve"} <= {words for words, _ in commands}
    for words, parser in commands:
        assert f"$ hearts-ref {words + ' ' if words else ''}--help\nusage: hearts-ref" in page, words
        options = {s for a in parser._actions for s in a.option_strings}
        assert all(option in page for option in options), (words, options)


def test_the_download_page_offers_the_zip_that_vectors_export_writes(tmp_path):
    from hearts_ref.vectors.export import export_suite
    name, data = reference_pages.suite_zip()
    export_suite(tmp_path / name)
    assert (tmp_path / name).read_bytes() == data and name == f"hearts-ref-suite-{SUITE_VERSION}.zip"
    page = PAGES[reference_pages.DOWNLOAD]
    assert f"(../downloads/{name})" in page and hashlib.sha256(data).hexdigest() in page
    assert f"`{SUITE_VERSION}`" in page


def test_the_changelog_records_the_suite_version_and_is_on_the_site():
    changelog = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    assert f"### Suite {SUITE_VERSION}" in changelog, "the suite's version changed without a changelog entry"
    cases = {case.id for case in load_vectors()}
    named = set(re.findall(r"`([a-z][a-z0-9-]*\.[a-z][a-z0-9.-]+)`", changelog)) - {"pyproject.toml"}
    assert named and named <= cases, named - cases
    assert "Suite 1.0.0" in PAGES["changelog.md"] and "(conformance/vectors.md#case-" in PAGES["changelog.md"]


def test_the_glossary_defines_seed_in_both_its_senses():
    glossary = (ROOT / "docs" / "glossary.md").read_text(encoding="utf-8")
    seed = glossary[glossary.index("**Seed** {#seed}"):glossary.index("**Variant**")]
    assert "a **source**" in seed and "a **random seed**" in seed and "**campaign seed**" in seed
    for term in ("source", "preset", "round", "trick", "deal", "finding", "campaign", "vector", "perft"):
        assert re.search(rf"\{{#{term}\}}", glossary), term


def test_the_glossary_gives_the_disagreements_their_whole_range():
    glossary = (ROOT / "docs" / "glossary.md").read_text(encoding="utf-8")
    entry = " ".join(glossary[glossary.index("**Disagreement** {#disagreement}"):].split("\n\n")[0].split())
    assert f"D1 to D{len(spec_pages.disagreements())}," in entry


def test_every_source_quote_of_a_rule_is_on_its_page():
    """A rule writes its parts once each (the reader refuses a second **Sources.**), so no quote is lost."""
    for rule in RULES.values():
        page = PAGES[f"rules/{rule.chapter}.md"]
        for quote in re.findall(r"«([^»]+)»", rule.section("Sources")):
            assert quote.split()[0] in page and " ".join(quote.split()[-2:]) in page, (rule.id, quote)
    setup = PAGES["rules/01-setup.md"]
    assert "Det krävs 2 kortlekar om man är 5 spelare eller mer" in setup   # DECK-CARDS, decks = 2


def test_rule_ids_are_linked_outside_code_only_a_code_span_over_two_lines_included():
    """Inline code may run over a line break in a paragraph (the house-rules page's JSON verdict): its rule IDs stay
    plain text there, and a stray backtick does not make code of the next paragraph."""
    from sitegen.common import link_rule_ids

    pages = {"SCORE-MOON": "rules/07-scoring.md", "DECK-CARDS": "rules/01-setup.md"}
    text = 'the `"verdict": {"sound": false,\n"by": {"GAME-ENDS": ["SCORE-MOON"]}}` line, by SCORE-MOON\n\na ` DECK-CARDS'
    linked = link_rule_ids(text, "house-rules.md", pages)
    assert '["SCORE-MOON"]' in linked and linked.count("](rules/") == 2, linked
    assert "by [SCORE-MOON](rules/07-scoring.md#SCORE-MOON)" in linked and "[DECK-CARDS](rules/01-setup.md#" in linked


def test_a_rule_with_a_part_written_twice_is_refused_by_the_spec_reader(tmp_path):
    import pytest

    (tmp_path / "rules").mkdir()
    (tmp_path / "rules" / "01-x.md").write_text("# X\n\n## DECK-CARDS: The deck\n\n**Rule.** One deck.\n\n"
                                                "**Sources.**\n\n- a\n\n**Sources.**\n\n- b\n", encoding="utf-8")
    with pytest.raises(ValueError, match=r"01-x.md: rule DECK-CARDS has more than one \*\*Sources\.\*\* part"):
        load_rules(tmp_path)


def test_each_rule_page_shows_the_implementing_code_first_and_folds_the_rest():
    assert set(refcode.IMPLEMENTED_BY) == set(RULES)
    for rule_id in RULES:
        shown, others = refcode.implementing(rule_id)
        assert len(shown) == len(refcode.IMPLEMENTED_BY[rule_id]), f"{rule_id}: {refcode.IMPLEMENTED_BY[rule_id]}"
    page = PAGES["rules/04-following.md"]
    section = page[page.index("{#FIRST-NO-POINTS}"):page.index("{#FIRST-EXCEPTION}")]
    opened = re.findall(r'^\?\?\?\+ abstract "`(\w+)`', section, re.M)
    assert opened == ["first_trick_discards"], opened
    assert re.search(r'\?\?\? note "Other code that cites FIRST-NO-POINTS \((\d+)\)"', section)
    assert "](../variants.md#first_trick_points)" in section and "](../disagreements.md#D3)" in section


def test_every_rule_links_its_parameters_and_disagreements_and_they_link_back():
    by_rule = spec_pages.disagreements_by_rule()
    variants, disagreements = PAGES["variants.md"], PAGES["disagreements.md"]
    for rule_id, rule in RULES.items():
        page = PAGES[f"rules/{rule.chapter}.md"]
        section = page[page.index(f"{{#{rule_id}}}"):]
        section = section[:section.find("\n## ", 1)]
        for parameter in (p for p in PARAMETERS if rule_id in p.rules):
            assert f"(../variants.md#{parameter.name})" in section, (rule_id, parameter.name)
        for _text, target in by_rule.get(rule_id, []):
            assert f"(../{target})" in section, (rule_id, target)
        if by_rule.get(rule_id) or any(rule_id in p.rules for p in PARAMETERS):
            assert f"#{rule_id})" in variants + disagreements, rule_id


def test_the_disagreements_page_begins_with_a_row_for_each_disagreement():
    page = PAGES["disagreements.md"]
    table = page[page.index("## Summary"):page.index("## D1:")]
    ids = re.findall(r"^\| \[(D\d+)\]\(#D\d+\) \|", table, re.M)
    assert ids == [f"D{n}" for n in range(1, len(spec_pages.disagreements()) + 1)] and len(ids) >= 14
    assert "[`first_trick_points`](variants.md#first_trick_points)" in table


def test_the_table_drawing_places_four_seats_clockwise_and_the_trick_by_seat():
    drawn = drawings.table(["2C 3C", "QS 2H", "2D 3D", "2S 3S"], ["3D", "3S"], leader=2, stuck=0)
    places = re.findall(r'hr-seat-(\w+)"><span class="hr-seat-name">seat (\d)', drawn)
    assert places == [("bottom", "0"), ("left", "1"), ("top", "2"), ("right", "3")]
    played = re.findall(r'hr-played"><span class="hr-seat-name">seat (\d)</span><span class="hr-card [^"]+" '
                        r'title="[^"]+">([^<]+)<', drawn)
    assert played == [("2", "3♦"), ("3", "3♠")]
    assert drawn.index("has no legal play") < drawn.index("seat 1")


def test_the_pass_cycle_is_drawn_with_each_rounds_direction():
    figure = PAGES["rules/02-passing.md"]
    section = figure[figure.index("{#PASS-CYCLE}"):]
    assert section.count("<svg") == 4 and section.index("<svg") < section.index("**Sources.**")
    left = drawings.pass_cycle_svg("left")
    ends = [tuple(map(float, m)) for m in re.findall(r'x2="([\d.]+)" y2="([\d.]+)"', left)]
    # From seat 0 (bottom) the arrow ends near seat 1 (left): passing left is to the next seat clockwise.
    assert ends[0][0] < 100 and drawings.pass_cycle_svg("none").count("<line") == 0


def test_the_openspiel_chart_has_a_bar_per_recorded_run_and_names_the_failing_rule():
    recorded = json.loads((ROOT / "docs" / "data" / "conformance" / "openspiel.json").read_text(encoding="utf-8"))
    chart = includes.sweep("openspiel")
    labels = re.findall(r'class="hr-chart-label">([^<]+)<', chart)
    assert len(labels) == len(recorded["runs"]) and "must_break_hearts = false" in labels
    failing = {rule for run in recorded["runs"] for rule, row in run["report"]["summary"]["rules"].items()
               if row["failed"]}
    assert all(f"{rule} " in chart for rule in failing) and chart.count("no deviation") == len(labels) - 1


def test_the_worked_examples_are_each_drawn_once():
    page = PAGES["conformance/vectors.md"]
    part = page[page.index("{#worked-examples}"):page.index("{#every-case}")]
    examples = [case for case in load_vectors() if case.kind == "example" and len(case.rounds) == 1]
    tables = re.findall(r'<figure class="hr-table.*?</figure>', part)
    assert len(tables) == len(examples) and len(set(tables)) == len(tables)
    hands, trick, leader = drawings.last_trick(next(c for c in examples if c.id == "example.seed004.trick-worth-1"))
    assert trick == ["8C", "QC", "3C", "5H"] and "8C" in hands[leader]


def test_the_glossary_and_the_runner_page_name_every_verdict_a_run_can_end_on():
    from hearts_ref.conformance.summary import VERDICTS

    glossary = (ROOT / "docs" / "glossary.md").read_text(encoding="utf-8")
    entry = " ".join(glossary[glossary.index("**Verdict** {#verdict}"):glossary.index("**Expected-fail**")].split())
    runner = " ".join((ROOT / "docs" / "conformance-runner.md").read_text(encoding="utf-8").split())
    for verdict in VERDICTS:
        assert verdict in entry and verdict in runner, verdict


def test_the_prove_json_example_gives_the_counts_of_the_recorded_run():
    """The `prove --json` shape on the command-line page gives numbers: those of the run the site records."""
    import hearts_ref.commands.prove as prove

    recorded = json.loads((ROOT / "docs" / "data" / "proofs.json").read_text(encoding="utf-8"))["combinations"]
    legal = recorded["invariants"]["LEGAL-MOVE-EXISTS"]
    example = prove.__doc__
    assert f'"combinations": {recorded["combinations"]},' in example
    assert f'"game_combinations": {recorded["game_combinations"]},' in example
    assert (f'"LEGAL-MOVE-EXISTS": {{"distinct": {legal["distinct"]}, "combinations": {{"proved": '
            f'{legal["combinations"]["proved"]}, "refuted": {legal["combinations"]["refuted"]}}}') in example


def test_a_rule_page_links_a_counterexample_that_rule_blocks_and_the_proofs_page_draws_it():
    """FOLLOW-VOID's page links LEGAL-MOVE-EXISTS's counterexample under seed003 in which FOLLOW-VOID leaves the hand
    no play (not seed001's, which FIRST-NO-POINTS blocks); every counterexample a rule page links is drawn."""
    from sitegen.proofs_page import proofs_by_rule

    links = proofs_by_rule()
    proofs = PAGES["proofs.md"]
    targets = {rule: {inv: [t for _, t in pieces if t] for inv, _, pieces in items} for rule, items in links.items()
               if rule}
    assert targets["FOLLOW-VOID"]["LEGAL-MOVE-EXISTS"] == ["proofs.md#cx-legal-move-exists-seed003-context-follow-void"]
    assert targets["FIRST-NO-POINTS"]["LEGAL-MOVE-EXISTS"] == ["proofs.md#cx-legal-move-exists-seed001-context"]
    said = {inv: "".join(words for words, _ in pieces) for inv, _, pieces in links["FOLLOW-VOID"]}
    assert "counterexample on the proofs page, blocked by FIRST-NO-POINTS)" in said["FIRST-TRICK-NO-DEADLOCK"]
    assert "blocked by" not in said["LEGAL-MOVE-EXISTS"]   # its own rule's: nothing to say
    drawn = proofs[proofs.index('id="cx-legal-move-exists-seed003-context-follow-void"'):]
    assert "blocked by</strong>" in drawn[:3000] or "**blocked by**: FOLLOW-VOID" in drawn[:3000]
    for by_invariant in targets.values():
        for target in (t for ts in by_invariant.values() for t in ts):
            assert f'id="{target.split("#", 1)[1]}"' in proofs, target
