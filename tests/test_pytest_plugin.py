"""The pytest plugin as an engine author meets it: one usage error for a bad option, a run that judged nothing
fails, the items counted and named as pytest's own, each failure's first line naming its rule or its cause."""

import subprocess
import sys
import textwrap
from pathlib import Path
from xml.etree import ElementTree

import pytest

from tests.test_conform_command import PLUGIN
from tests.test_variants import ROOT

_ENGINES = textwrap.dedent("""
    from hearts_ref.engine import EngineRejection, ReferenceEngine

    class Boom:
        def __init__(self):
            raise RuntimeError("config file missing")

    def number():
        return 3

    class NoCapabilities(ReferenceEngine):
        def capabilities(self):
            return None

    class ValueErrors(ReferenceEngine):   # refuses an illegal move with ValueError, not EngineRejection
        def play(self, card, seat=None):
            try:
                return super().play(card, seat)
            except EngineRejection:
                raise ValueError(f"illegal: {card}")

        def pass_cards(self, seat, cards):
            try:
                return super().pass_cards(seat, cards)
            except EngineRejection:
                raise ValueError(f"illegal: {cards}")
""")


def _pytest(tmp_path: Path, *args: str) -> subprocess.CompletedProcess:
    (tmp_path / "authors_engines.py").write_text(_ENGINES, encoding="utf-8")
    (tmp_path / "test_own.py").write_text("def test_own():\n    assert True\n", encoding="utf-8")
    env = {"PYTHONPATH": f"{ROOT}:{tmp_path}", "PATH": "/usr/bin:/bin", "COLUMNS": "400"}   # summaries whole
    return subprocess.run([sys.executable, *PLUGIN, "--hearts-games", "1", *args, str(tmp_path)],
                          capture_output=True, text=True, cwd=tmp_path, env=env, timeout=300)


@pytest.mark.parametrize("engine, options, says", [
    ("nosuch.engine:X", [], "no module named 'nosuch'"),
    ("", [], "--hearts-engine is empty: give reference"),
    ("authors_engines", [], "(a Python engine is named MODULE:ATTR, for example authors_engines:MyEngine)"),
    ("authors_engines:Boom", [], "Boom() failed: RuntimeError: config file missing"),
    ("authors_engines:number", [], "int is not an Engine"),
    ("authors_engines:NoCapabilities", [], "capabilities() returned NoneType, not hearts_ref.engine.Capabilities"),
    ("reference", ["--hearts-preset", "nosuch"], "unknown preset 'nosuch'"),
    ("reference", ["--hearts-set", "jd_bonus"], "setting 'jd_bonus' is not of the form name=value"),
    ("reference", ["--hearts-set", "players=3"], "needs an even number of players"),
    ("reference", ["--hearts-games", "-3"], "--hearts-games must be 0 or more, not -3"),
    ("reference", ["--hearts-shrink-replays", "-1"], "--hearts-shrink-replays must be 0 or more, not -1"),
])
def test_an_option_that_names_no_engine_or_no_rules_is_one_usage_error(engine, options, says, tmp_path):
    result = _pytest(tmp_path, "--hearts-engine", engine, *options)
    errors = [line for line in result.stderr.splitlines() if line.startswith("ERROR: ")]
    assert result.returncode == 4, result.stdout[-2000:] + result.stderr[-2000:]   # pytest's usage error
    assert len(errors) == 1 and errors[0].startswith("ERROR: hearts-ref: ") and says in errors[0], result.stderr
    assert "Traceback" not in result.stdout + result.stderr and "passed" not in result.stdout


def test_a_run_in_which_the_engine_declined_every_game_fails(tmp_path):
    """OpenSpiel plays four players only: under three, every game is skipped, and the run is not green."""
    for workers in ([], ["-n", "2"]):
        result = _pytest(tmp_path, "--hearts-engine", "openspiel", "--hearts-set", "players=3",
                         "--hearts-set", "pass_cycle=left-right-none", *workers)
        assert result.returncode == 1, result.stdout[-2000:]
        assert "hearts-ref: no game was judged, all 8 were skipped (engine does not support players=3): " \
               "the suite fails" in result.stdout
        assert " failed" not in result.stdout   # no item failed: the run does, for what it did not judge
    judged = _pytest(tmp_path, "--hearts-engine", "reference")
    assert judged.returncode == 0 and "no game was judged" not in judged.stdout


def test_the_documented_p_flag_works_installed_or_not_and_no_turns_the_plugin_off(tmp_path):
    """`-p hearts_ref.pytest_plugin` loads the plugin from a bare checkout, and changes nothing once the entry point
    loads it (under another name it crashed: "Plugin already registered"); `-p no:` with that name turns it off."""
    from tests.test_conform_command import _installed_plugin, _suite_size

    size = _suite_size(1) + 1
    flagged = _pytest(tmp_path, "-p", "hearts_ref.pytest_plugin", "--hearts-engine", "reference")
    assert flagged.returncode == 0 and f"{size} passed" in flagged.stdout, flagged.stdout[-500:] + flagged.stderr
    if _installed_plugin():
        off = _pytest(tmp_path, "-p", "no:hearts_ref.pytest_plugin", "--hearts-engine", "reference")
        assert off.returncode == 4 and "unrecognized arguments: --hearts-" in off.stderr, off.stderr


def test_the_items_are_counted_as_collected_and_named_for_junit(tmp_path):
    from tests.test_conform_command import _suite_size

    size = _suite_size(1) + 1   # and the project's own test
    collected = _pytest(tmp_path, "--hearts-engine", "reference", "--collect-only")
    assert f"{size} tests collected" in collected.stdout, collected.stdout[-500:]
    junit = tmp_path / "junit.xml"
    ran = _pytest(tmp_path, "--hearts-engine", "reference", "--junitxml", str(junit))
    assert ran.returncode == 0 and f"{size} passed" in ran.stdout
    classes = {case.get("classname") for case in ElementTree.parse(junit).getroot().iter("testcase")}
    assert classes == {"hearts-ref", "test_own"}   # not ".hearts-ref"


def test_the_item_that_shows_a_finding_shrunk_names_its_rule_first(tmp_path):
    result = _pytest(tmp_path, "--hearts-engine", "tests.engines.buggy:QueenBreaksHearts", "-rf")
    shrunk = [line for line in result.stdout.splitlines()
              if line.startswith("FAILED hearts-ref::differential/") and "deviates" in line]
    firsts = [line.split(" - ", 1)[1] for line in result.stdout.splitlines()
              if line.startswith("FAILED hearts-ref::differential/")]
    assert result.returncode == 1 and not shrunk and firsts
    assert all(first.startswith("BREAK-QUEEN") for first in firsts), firsts


def test_a_shrink_counted_in_replays_gives_the_same_game_run_after_run_and_says_when_it_was_cut_short(tmp_path):
    """--hearts-shrink-replays: the budget is games replayed, not seconds, so the smallest game found does not
    depend on the machine; three replays are not enough to reach the one-trick game, and the item says so."""
    shown = []
    for _ in range(2):
        result = _pytest(tmp_path, "--hearts-engine", "tests.engines.buggy:QueenBreaksHearts",
                         "--hearts-shrink-replays", "3", "--hearts-shrink-time", "600")   # three replays run out first
        shown.append([line for line in result.stdout.splitlines() if line.startswith("  first seen in ")
                      or line.startswith("  replay: hearts-ref conform")])
        assert result.returncode == 1
    assert shown[0] == shown[1] and len(shown[0]) == 2, shown
    assert shown[0][0].startswith("  first seen in differential/uniform/0; smallest game found: 1 round(s), ")
    assert shown[0][0].endswith("; the shrink's budget ran out first") and "1 trick(s)" not in shown[0][0]


def test_a_finding_not_shrunk_says_so_and_why(tmp_path):
    result = _pytest(tmp_path, "--hearts-engine", "tests.engines.buggy:QueenBreaksHearts")   # --hearts-shrink-time 0
    shown = [line for line in result.stdout.splitlines() if line.startswith("  first seen in ")]
    assert result.returncode == 1 and len(shown) == 1, result.stdout[-2000:]
    assert shown[0].startswith("  first seen in differential/uniform/0; its game, not shrunk (no shrink budget): ")


def test_an_engine_failure_of_one_cause_is_shrunk_once_and_named_by_its_cause(tmp_path):
    """Each negative game fails on a different card; the same cause is one finding, shown by one item."""
    result = _pytest(tmp_path, "--hearts-engine", "authors_engines:ValueErrors", "--hearts-games", "4", "-rf")
    games = [line.split(" - ", 1)[1] for line in result.stdout.splitlines()
             if line.startswith("FAILED hearts-ref::negative/")]
    assert result.returncode == 1 and len(games) == 2, result.stdout[-3000:]
    assert all(game.startswith("engine error at a step of PASS-COUNT: ValueError: an illegal move offered, "
                               "pass_cards(") for game in games), games
    shrunk = [line for line in result.stdout.splitlines() if line.startswith("  replay: hearts-ref conform --engine")]
    assert len(shrunk) == 1 and "the same finding as hearts-ref::negative/" in result.stdout   # the other's own game
