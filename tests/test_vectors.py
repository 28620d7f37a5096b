"""The conformance vectors: the committed suite is what the reference generates, covers every rule ID
and worked example, passes on the reference, and the runner judges deviating engines precisely."""

from __future__ import annotations

import dataclasses
import json
import subprocess
import sys
from pathlib import Path

import jsonschema
import pytest

from hearts_ref import Card, CardSet, Rules
from hearts_ref.engine import Capabilities, EngineRejection, ReferenceEngine
from hearts_ref.errors import RecordError
from hearts_ref.spec import load_rules
from hearts_ref.vectors.reader import default_vectors_dir, load_vectors, read_vector_file
from hearts_ref.conformance.vectors import run_case, run_vectors, summarize, unaccounted

ROOT = Path(__file__).resolve().parent.parent
SUITE = load_vectors()
CASES_BY_ID = {case.id: case for case in SUITE}
BY_ID = {case.id: case for case in SUITE}


def run_cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "hearts_ref", *args], capture_output=True, text=True, cwd=ROOT,
                          timeout=300)


# Deviating engines, as a third-party engine might be -----------------------------------------

class QueenBreaksEngine(ReferenceEngine):
    """Reads BREAK-QUEEN the wrong way round."""

    name = "queen-breaks"

    def new_game(self, rules: Rules) -> None:
        super().new_game(dataclasses.replace(rules, qs_breaks_hearts=not rules.qs_breaks_hearts))


class SilentEngine(ReferenceEngine):
    """Ignores an illegal play instead of refusing it."""

    def play(self, card: Card) -> None:
        if card in self.legal_plays():
            super().play(card)


class CrashingEngine(ReferenceEngine):
    """Fails with its own exception at the first play."""

    def play(self, card: Card) -> None:
        raise RuntimeError("index out of range")


class WrongRuleEngine(ReferenceEngine):
    """Refuses illegal plays, but always names TRICK-ORDER."""

    def play(self, card: Card) -> None:
        try:
            super().play(card)
        except EngineRejection as error:
            raise EngineRejection(error.reason, "TRICK-ORDER") from None


class FourPlayersOneRoundEngine(ReferenceEngine):
    """Like OpenSpiel: four players, one round per game, no passing; the queen breaks hearts."""

    def capabilities(self) -> Capabilities:
        return Capabilities(multi_round=False, passing=False, unsupported={"players": (3, 5, 6)},
                            known_deviations=("BREAK-QUEEN",))

    def new_game(self, rules: Rules) -> None:
        super().new_game(dataclasses.replace(rules, max_rounds=1, qs_breaks_hearts=True))


# The committed suite ----------------------------------------------------------------------------

def test_committed_vectors_and_perft_equal_a_fresh_generation(tmp_path):
    result = run_cli("vectors", "generate", "--out", str(tmp_path / "vectors"), "--perft-out",
                     str(tmp_path / "perft"), "--quiet")
    assert result.returncode == 0, result.stderr
    for name in ("vectors", "perft"):
        fresh = {p.relative_to(tmp_path / name): p.read_bytes() for p in (tmp_path / name).rglob("*.json")}
        committed = {p.relative_to(ROOT / "spec" / name): p.read_bytes() for p in (ROOT / "spec" / name).rglob("*.json")}
        assert sorted(fresh) == sorted(committed), f"spec/{name}: run 'hearts-ref vectors generate'"
        stale = [str(path) for path in fresh if fresh[path] != committed[path]]
        assert not stale, f"spec/{name} differs from a fresh generation: {stale}"


def test_committed_vector_files_match_the_schema():
    schema = json.loads((ROOT / "spec" / "vectors.schema.json").read_text(encoding="utf-8"))
    validator = jsonschema.Draft202012Validator(schema)
    files = sorted(default_vectors_dir().rglob("*.json"))
    assert len(files) >= 10
    for path in files:
        errors = list(validator.iter_errors(json.loads(path.read_text(encoding="utf-8"))))
        assert not errors, f"{path}: {errors[0].message}"


def test_every_rule_id_has_a_targeted_vector():
    targeted = {rule_id for case in SUITE if case.kind == "rule" for rule_id in case.rule_ids}
    missing = sorted(set(load_rules()) - targeted)
    assert not missing, f"rule IDs of spec/ without a targeted vector: {missing}"


def test_every_case_has_a_stable_id_a_description_and_known_rule_ids():
    known = set(load_rules())
    assert len(BY_ID) == len(SUITE)
    for case in SUITE:
        assert case.description.endswith(".") and len(case.description) > 20, case.id
        assert set(case.rule_ids) <= known, case.id


def test_the_listed_edge_cases_and_player_counts_are_present():
    for case_id in ("edge.leader-holds-only-hearts", "edge.first-trick-only-point-cards",
                    "edge.queen-offered-on-first-trick", "edge.moon-spoiled-by-one-heart",
                    "edge.moon-with-jack-of-diamonds", "edge.moon-past-threshold", "edge.tie-shared-at-100",
                    "edge.tie-play-on-at-100", "edge.3-players-game", "edge.5-players-game"):
        assert BY_ID[case_id].kind == "edge"
    tie = BY_ID["edge.tie-shared-at-100"].final
    assert tie.game_over and len(tie.winners) == 2
    play_on = BY_ID["edge.tie-play-on-at-100"]
    assert len(play_on.final.winners) == 1 and play_on.rules.ties == "play-on"
    spoiled = BY_ID["edge.moon-spoiled-by-one-heart"].rounds[0].result
    assert spoiled.moon is None and sorted(spoiled.points) == [0, 0, 1, 25]
    past = BY_ID["edge.moon-past-threshold"]
    assert past.rounds[-1].result.moon == 0 and past.final.game_over and past.final.winners == (0,)
    assert {BY_ID["edge.3-players-game"].rules.players, BY_ID["edge.5-players-game"].rules.players} == {3, 5}


def test_whole_games_under_every_sound_preset():
    from hearts_ref.variants import EXPECTED_UNSOUND, PRESETS
    games = [case for case in SUITE if case.kind == "game"]
    for preset in set(PRESETS) - set(EXPECTED_UNSOUND):
        mine = [case for case in games if case.preset == preset]
        assert len(mine) >= 3 and all(case.final.game_over for case in mine), preset
        assert all(case.rules == Rules.preset(preset) for case in mine)
    assert not any(case.preset in EXPECTED_UNSOUND for case in games)


def _plays(case):
    return [step for rnd in case.rounds for step in rnd.steps if step.kind == "play" and step.expect]


def test_every_worked_example_has_its_vector(worked_examples):
    examples = [case for case in SUITE if case.kind == "example"]
    for trick in worked_examples["tricks"]:
        cards = [Card.parse(c) for c in trick["cards"]]
        found = False
        for case in (c for c in examples if c.source == trick["source"]):
            plays = _plays(case)
            for i in range(len(plays) - 3):
                if [p.card for p in plays[i:i + 4]] == cards:
                    closing = plays[i + 3].expect
                    before = plays[i - 1].expect.points_taken if i else None
                    taken = [a - (b if before else 0) for a, b in zip(closing.points_taken, before or [0] * 4)]
                    found = closing.hearts_broken == trick["hearts_broken"] and max(taken) == trick["points"]
        assert found, f"no vector plays the trick {trick['cards']} of {trick['source']}"
    for points in worked_examples["points"]:
        mine = [c for c in examples if c.source == points["source"]
                and {Card.parse(x) for x in points["cards"]} <= {p.card for p in _plays(c)}
                and f"{points['points']} point" in c.description]
        assert mine, f"no vector for {points['cards']} = {points['points']} points ({points['source']})"
    for game in worked_examples["games"]:
        mine = [c for c in examples if c.source == game["source"] and len(c.rounds) == len(game["rounds"])
                and c.final.totals == tuple(game["totals"])
                and all(r.result.scores == tuple(g["scores"]) and r.result.moon == g["moon"]
                        for r, g in zip(c.rounds, game["rounds"]))]
        assert mine, f"no vector for the game of {game['source']}"


def test_suite_stays_small():
    size = sum(p.stat().st_size for p in (ROOT / "spec" / "vectors").rglob("*.json"))
    size += sum(p.stat().st_size for p in (ROOT / "spec" / "perft").rglob("*.json"))
    assert size < 4_000_000


# Running ------------------------------------------------------------------------------------------

def test_reference_passes_every_vector_and_every_case_is_accounted_for():
    results = run_vectors(ReferenceEngine(), SUITE)
    assert [r.case_id for r in results] == [c.id for c in SUITE]
    assert summarize(results)["passed"] == len(SUITE), [r.failure.text() for r in results if r.failure][:3]
    assert unaccounted(SUITE, results) == []


def test_unaccounted_catches_a_missing_or_doubled_result():
    results = run_vectors(ReferenceEngine(), SUITE[:3])
    assert unaccounted(SUITE[:3], results[:2]) == [SUITE[2].id]
    assert unaccounted(SUITE[:3], results + results[:1]) == [SUITE[0].id]


def test_break_queen_misread_fails_with_the_step_and_the_rule():
    result = run_case(QueenBreaksEngine(), BY_ID["break-queen.queen-does-not-break"])
    assert result.status == "failed"
    failure = result.failure
    assert failure.field == "hearts_broken" and failure.expected is False and failure.actual is True
    assert "BREAK-QUEEN" in failure.rule_ids and failure.what == "seat 0 plays QS" and failure.round == 1
    results = run_vectors(QueenBreaksEngine(), SUITE)
    assert summarize(results)["failed"] >= 10
    assert all("BREAK-QUEEN" in r.failure.rule_ids for r in results if r.status == "failed")


def test_a_legal_set_difference_names_the_rule_of_each_card():
    class NoExceptionEngine(ReferenceEngine):
        def new_game(self, rules):
            super().new_game(dataclasses.replace(rules, first_trick_points="forbidden"))
    failure = run_case(NoExceptionEngine(), BY_ID["first-exception.only-point-cards"]).failure
    assert failure.field == "legal" and failure.actual == CardSet()
    assert failure.rule_ids == ("FIRST-EXCEPTION",)


def test_an_illegal_play_accepted_is_a_failure_with_the_rejecting_rule():
    failure = run_case(SilentEngine(), BY_ID["first-no-points.queen-and-hearts-rejected"]).failure
    assert failure.field == "accepted" and failure.rule_ids == ("FIRST-NO-POINTS",)
    assert failure.what == "seat 1 plays QS"


def test_a_rejection_by_the_wrong_rule_is_a_failure():
    failure = run_case(WrongRuleEngine(), BY_ID["lead-hearts.unbroken-heart-lead-rejected"]).failure
    assert failure.field == "rejection" and failure.expected == "LEAD-HEARTS" and failure.actual == "TRICK-ORDER"


def test_an_engine_crash_is_an_error_not_an_exception():
    """A crash is the engine's failure, not a deviation from a rule: an error, charged to no rule."""
    result = run_case(CrashingEngine(), BY_ID["trick-winner.off-suit-never-wins"])
    assert result.status == "error" and result.failure.field == "engine-error" and result.failure.rule_ids == ()
    assert "RuntimeError: index out of range" in result.failure.actual


def test_skips_have_reasons_and_known_deviations_are_expected():
    results = {r.case_id: r for r in run_vectors(FourPlayersOneRoundEngine(), SUITE)}
    assert results["edge.3-players-game"].status == "skipped"
    assert "players=3" in results["edge.3-players-game"].reason
    assert "one round" in results["deal-dealer.four-rounds"].reason
    assert "does not pass" in results["pass-cycle.left"].reason
    assert results["break-queen.queen-does-not-break"].status == "expected-fail"
    assert results["break-queen.queen-breaks"].status == "unexpected-pass"
    assert results["lead-open.two-of-clubs-only"].status == "passed"
    assert results["score-moon.add"].status == "expected-fail"     # the failure blames BREAK-QUEEN
    assert all(r.reason for r in results.values() if r.status == "skipped")
    assert unaccounted(SUITE, list(results.values())) == []


def test_vectors_run_cli_reports_and_exits_by_outcome():
    ok = run_cli("vectors", "run")
    assert ok.returncode == 0, ok.stdout + ok.stderr
    assert f"{len(SUITE)} cases" in ok.stdout and f"{len(SUITE)} passed, 0 failed" in ok.stdout
    bad = run_cli("vectors", "run", "--engine", "tests.test_vectors:QueenBreaksEngine", "--case", "break-queen")
    assert bad.returncode == 1
    assert "failed          break-queen.queen-does-not-break: round 1, step 6" in bad.stdout
    assert "BREAK-QUEEN" in bad.stdout and "  case: " not in bad.stdout   # the deal drawn for a case run alone
    data = json.loads(run_cli("vectors", "run", "--json", "--case", "score-moon").stdout)
    assert data["summary"]["passed"] == 4 and data["unaccounted"] == []
    nosuch = run_cli("vectors", "run", "--engine", "nosuch:Engine")
    assert nosuch.returncode == 2 and "nosuch" in nosuch.stderr and "Traceback" not in nosuch.stderr


def test_a_case_run_alone_that_fails_shows_its_deal_and_its_steps_up_to_the_failure():
    one = run_cli("vectors", "run", "--engine", "tests.test_vectors:QueenBreaksEngine", "--case",
                  "break-queen.queen-does-not-break")
    assert one.returncode == 1
    shown = one.stdout.splitlines()
    start = next(k for k, line in enumerate(shown) if line.startswith("  case: "))
    case = CASES_BY_ID["break-queen.queen-does-not-break"]
    assert shown[start] == f"  case: {case.description}" and shown[start + 1].endswith("05-hearts.json")
    assert shown[start + 3:start + 7] == [f"    seat {seat}: {hand} (13 cards)" for seat, hand in
                                          enumerate(case.rounds[0].hands)]
    steps = shown[start + 7:start + 13]
    assert steps[0] == f"    step 1: {case.rounds[0].steps[0].text()}" and len(steps) == 6
    assert steps[-1].endswith("<-- the failure") and not any("<--" in line for line in steps[:-1])


# The same engine SPEC as conform and serve: an object, a class or a factory in process, a stdio
# command line, OpenSpiel. Each names an engine that ignores FOLLOW-SUIT, so a loader that fell back
# to the reference would pass.
IGNORES_FOLLOW_SUIT_SPECS = [
    "python:tests.engines.python_engines:IgnoresFollowSuit",
    "python:tests.engines.python_engines:ignores_follow_suit",
    "python:tests.engines.python_engines:IGNORES_FOLLOW_SUIT",
    "tests.engines.python_engines:IGNORES_FOLLOW_SUIT",
    f"{sys.executable} -m hearts_ref serve --engine python:tests.engines.python_engines:IgnoresFollowSuit",
]


@pytest.mark.parametrize("spec", IGNORES_FOLLOW_SUIT_SPECS)
def test_vectors_run_cli_takes_every_engine_spec_of_conform(spec):
    result = run_cli("vectors", "run", "--engine", spec, "--case", "follow-suit.any-card-of-the-suit")
    assert result.returncode == 1, result.stdout + result.stderr
    assert "failed          follow-suit.any-card-of-the-suit" in result.stdout and "[FOLLOW-SUIT]" in result.stdout
    assert "on ignores-follow-suit:" in result.stdout


@pytest.mark.parametrize("text, hint", [
    ("nosuchcase", "case IDs look like '"),
    ("score-mon", "did you mean 'score-moon'"),
    ("FOLLOW-SUIT", "did you mean 'follow-suit'"),      # a rule ID, where case IDs are lowercase
])
def test_invalid_vectors_run_case_that_names_no_case_exits_2(text, hint):
    result = run_cli("vectors", "run", "--case", "score-moon", "--case", text)
    assert result.returncode == 2 and result.stdout == ""
    assert f"--case {text!r}: no case named or containing it among the {len(SUITE)} cases" in result.stderr
    assert hint in result.stderr and len(result.stderr.strip().splitlines()) == 1


def test_vectors_run_cli_takes_openspiel_as_an_engine():
    pytest.importorskip("pyspiel")
    result = run_cli("vectors", "run", "--engine", "openspiel", "--case", "game.openspiel")
    assert result.returncode == 0, result.stdout + result.stderr
    assert "3 cases" in result.stdout and "on open_spiel/hearts: 3 passed" in result.stdout


# Reading ------------------------------------------------------------------------------------------

def _one_case_file() -> dict:
    data = json.loads((default_vectors_dir() / "rules" / "03-leading.json").read_text(encoding="utf-8"))
    data["cases"] = data["cases"][:1]
    return data


@pytest.mark.parametrize("change, where, why", [
    (lambda d: d["cases"][0].pop("description"), "cases[0]", "'description' is required"),
    (lambda d: d["cases"][0]["rule_ids"].append("LEAD-" + "HEART"), "cases[0].rule_ids[1]", "not a rule ID"),
    (lambda d: d["cases"][0]["rounds"][0]["hands"][0].append(d["cases"][0]["rounds"][0]["hands"][0][0]),
     "cases[0].rounds[0].hands[0]", "listed twice"),
    (lambda d: d["cases"][0]["rounds"][0]["steps"][2].update(seat=4), "cases[0].rounds[0].steps[2].seat",
     "seat 4 does not exist"),
    (lambda d: d["cases"][0]["rounds"][0]["steps"][2]["expect"].update(legal=["1X"]),
     "cases[0].rounds[0].steps[2].expect.legal[0]", "not a card"),
    (lambda d: d["cases"][0]["variant"].update(moon="double"), "cases[0].variant.moon", "not allowed"),
    (lambda d: d["cases"][0]["rounds"][0]["hands"][0].__setitem__(0, "JC#2"), "cases[0].rounds[0].hands[0][0]",
     "DECK-CARDS: 'JC#2' is a second deck's card, but these rules play one deck"),
    (lambda d: d["cases"][0]["rounds"][0]["steps"][0].update(play="2C#2"), "cases[0].rounds[0].steps[0].play[0]",
     "DECK-CARDS: '2C#2' is a second deck's card"),
    (lambda d: d["cases"][0]["rounds"][0]["steps"][2]["expect"].update(legal=["JC#3"]),
     "cases[0].rounds[0].steps[2].expect.legal[0]", "not a card: 'JC#3'"),
    (lambda d: d["cases"][0]["rounds"][0]["steps"][0].update(expect={"phase": "play", "to_move": 1}),
     "cases[0].rounds[0].steps[0]", "exactly one of 'expect'"),
])
def test_invalid_vector_file_says_where_and_why(change, where, why):
    data = _one_case_file()
    change(data)
    with pytest.raises(RecordError) as error:
        read_vector_file(json.dumps(data).encode(), where="v.json")
    assert error.value.where == f"v.json: {where}" and why in str(error.value)


def test_duplicate_case_ids_across_files_are_refused(tmp_path):
    text = json.dumps(_one_case_file())
    (tmp_path / "a.json").write_text(text)
    (tmp_path / "b.json").write_text(text)
    with pytest.raises(RecordError, match="is also in"):
        load_vectors(tmp_path)
