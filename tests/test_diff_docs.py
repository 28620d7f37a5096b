"""The docs page "What does a house rule change?": drawn from the recorded run of `hearts-ref diff --matrix --json`,
which covers every pair of presets and every parameter of the registry, and still says what the code says."""

import doctest
import json
import sys

import pytest

from hearts_ref.diff.compare import Comparer
from hearts_ref.diff.report import comparison_dict
from hearts_ref.variants import PARAMETERS, PRESETS, Rules
from tests.test_variants import ROOT

sys.path.insert(0, str(ROOT / "docs"))

from sitegen import house_rules  # noqa: E402

RECORDED = json.loads(house_rules.HOUSE_RULES.read_text(encoding="utf-8"))


def test_the_generator_doctests_pass():
    failures, _ = doctest.testmod(house_rules, verbose=False)
    assert failures == 0


def test_the_recorded_run_covers_every_pair_of_presets_and_every_parameter():
    pairs = {(pair["a"], pair["b"]) for pair in RECORDED["pairs"]}
    assert len(pairs) == len(PRESETS) * (len(PRESETS) - 1) // 2 and set(RECORDED["presets"]) == set(PRESETS)
    assert {row["parameter"] for row in RECORDED["parameters"]} == {p.name for p in PARAMETERS}
    assert all("comparison" in row for row in RECORDED["parameters"]), "every value can be compared (with a partner)"


@pytest.mark.parametrize("a, b", [("seed000", "seed004"), ("seed001", "seed002")])
def test_the_recorded_run_still_says_what_the_code_says(a, b):
    """A pair recomputed now gives the recorded verdict and smallest game: re-record with python docs/build.py."""
    recorded = next(pair["comparison"] for pair in RECORDED["pairs"] if (pair["a"], pair["b"]) == (a, b))
    now = comparison_dict(Comparer().compare(Rules.preset(a), Rules.preset(b)), a, b, records=False)
    for key in ("verdict", "summary", "differ_in"):
        assert now[key] == recorded[key], key
    assert now["difference"]["transcript"] == recorded["difference"]["transcript"]
    assert now["consequence"] == recorded["consequence"]   # the first play a difference in hearts broken changes


def test_the_page_draws_the_matrix_each_parameter_and_the_games():
    page = house_rules.house_rules_page()
    assert page.startswith("# What does a house rule change?")
    assert "| **seed000** | — | [round 1, play 2](#pair-seed000-seed001): the legal plays |" in page
    assert "[round 1, play 5](#pair-seed000-seed004): whether hearts are broken" in page
    assert "| `moon` | `subtract` |  | [round 1, play 52](#param-moon-subtract): the round scores |" in page
    assert "| `end_comparison` | `>` |  | [round 4, play 52](#param-end-comparison-gt)" in page
    assert "{#param-end-comparison-gt}" in page and "{#pair-seed000-seed001}" in page
    assert "`openspiel` against `openspiel ties=play-on`: [equivalent](#example-" in page
    assert "seed001: allows no card: FIRST-NO-POINTS leaves seat 1 no legal play" in page
    assert "[BREAK-QUEEN](rules/05-hearts.md#BREAK-QUEEN)" in page
    assert ("What it changes in play: the first play found whose legal cards differ is **play 13** of round 1 "
            "([LEAD-HEARTS](rules/03-leading.md#LEAD-HEARTS)), after play 9 ") in page


def test_the_page_says_how_to_record_a_run_when_there_is_none(tmp_path, monkeypatch):
    monkeypatch.setattr(house_rules, "HOUSE_RULES", tmp_path / "house_rules.json")
    page = house_rules.house_rules_page()
    assert "Not available yet" in page and "python docs/build.py" in page and "## The presets" not in page


def test_the_page_cites_only_existing_rule_ids_and_is_in_the_navigation():
    from tests.test_docs import _unknown_citations
    assert not _unknown_citations({"house-rule-changes.md": house_rules.house_rules_page()})
    assert "  - What does a house rule change?: house-rule-changes.md" in (ROOT / "mkdocs.yml").read_text(encoding="utf-8")


def test_the_docs_hook_adds_the_page_to_the_site():
    """The hook's on_files adds the generated page (tests/test_docs.py builds the whole site and checks its links)."""
    import importlib.util

    from mkdocs.config import load_config
    from mkdocs.structure.files import Files

    spec = importlib.util.spec_from_file_location("docs_hooks", ROOT / "docs" / "hooks.py")
    hooks = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(hooks)
    config = load_config(str(ROOT / "mkdocs.yml"))
    config.plugins._current_plugin = "docs/hooks.py"   # what mkdocs sets while it runs a hook
    files = hooks.on_files(Files([]), config)
    page = files.get_file_from_path(house_rules.PAGE)
    assert page is not None and page.content_string.startswith("# What does a house rule change?")
