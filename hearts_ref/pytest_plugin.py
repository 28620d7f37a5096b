"""The pytest plugin: ``pytest --hearts-engine module:attr`` runs the conformance suite on a Python engine.

Installed with hearts-ref (the ``pytest11`` entry point), the plugin does nothing until
``--hearts-engine`` is given. Then it adds, to the project's own tests, one test item per
case of the suite, each judging the engine against hearts-ref's reference, so that
pytest-xdist (``pytest -n auto``) spreads them over its workers:

- ``hearts-ref::vector/<id>`` — each conformance vector, and ``hearts-ref::perft/<deal>`` each
  perft count;
- ``hearts-ref::differential/<policy>/<i>`` — each differential game (game ``i`` plays policy
  ``i mod 6``: uniform, void-suits, hoard-hearts, moon, threshold, ties), every observable
  compared at every step; a failure shows the rule IDs, expected against actual, the shrunk
  game and the command that replays it (a finding already shrunk by the same worker points
  to the item that shows it); a finding whose game, replayed on a fresh engine, does not fail
  the same way every time fails as *flaky*, with the step at which each replay failed;
- ``hearts-ref::negative/<policy>/<i>`` — each game in which the engine is offered illegal moves.

Each worker process starts the engine once, before collecting, and judges all its items with it.
Options that name no engine or no rules (an engine that cannot be imported or started, an
unknown preset or setting, an empty ``--hearts-engine``, the other options given without it)
are one usage error, pytest's exit code 4; a run in which the engine was judged in no game (it
declined every one: rules it does not play) fails, as ``hearts-ref conform`` does.

``module:attr`` names an engine class, a function returning an engine, or an engine
(:class:`hearts_ref.engine.Engine`); ``python:module:attr``, ``openspiel`` and an engine program's
command line (speaking the stdio protocol, in any language) work too, as with ``hearts-ref conform --engine``.
Options: ``--hearts-preset NAME``, ``--hearts-set name=value`` (repeatable),
``--hearts-games N`` (N per policy on average, default 20), ``--hearts-seed S``,
``--hearts-shrink-time S`` (default 10), ``--hearts-shrink-replays N`` (games each shrink may replay: the
same minimal games on any machine; then no time limit unless ``--hearts-shrink-time`` is given too). For example::

    pytest --hearts-engine mypackage.engine:MyEngine --hearts-preset seed000 --hearts-games 50

Without the entry point (running from a source checkout), add ``-p hearts_ref.pytest_plugin``.
"""

from __future__ import annotations

from typing import Any

import pytest

from hearts_ref.variants import DEFAULT_PRESET

_ENGINE_OPTION = "--hearts-engine"
# the other options and their defaults: given without the engine, they are a usage error
_DEFAULTS: dict[str, Any] = {"--hearts-preset": DEFAULT_PRESET, "--hearts-set": [], "--hearts-games": 20,
                             "--hearts-seed": 0, "--hearts-shrink-time": None,
                             "--hearts-shrink-replays": None}


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("hearts-ref")
    group.addoption(_ENGINE_OPTION, default=None, metavar="MODULE:ATTR",
                    help="judge this Python Hearts engine against hearts-ref")
    group.addoption("--hearts-preset", default=_DEFAULTS["--hearts-preset"], metavar="NAME",
                    help=f"rules preset (default {DEFAULT_PRESET})")
    group.addoption("--hearts-set", action="append", default=[], metavar="NAME=VALUE",
                    help="change one variant parameter; repeatable")
    group.addoption("--hearts-games", type=int, default=_DEFAULTS["--hearts-games"], metavar="N",
                    help=f"differential games: N per policy on average, N x {len(_policies())} in all (default 20), "
                         "and N/2 games (at least 1) that also offer illegal moves")
    group.addoption("--hearts-seed", type=int, default=_DEFAULTS["--hearts-seed"], metavar="S",
                    help="campaign seed (default 0)")
    group.addoption("--hearts-shrink-time", type=float, default=_DEFAULTS["--hearts-shrink-time"], metavar="S",
                    help="seconds to shrink each finding (default 10, or none with --hearts-shrink-replays)")
    group.addoption("--hearts-shrink-replays", type=int, default=_DEFAULTS["--hearts-shrink-replays"], metavar="N",
                    help="games each shrink may replay: the same minimal games on any machine and any load")


def _policies() -> tuple[str, ...]:
    from hearts_ref.conformance.policies import POLICY_NAMES

    return POLICY_NAMES


def pytest_configure(config: pytest.Config) -> None:
    """Check the options and start the engine once, before anything runs: a mistake in them is one usage error
    (pytest's exit code 4), not a failure of every item."""
    spec = config.getoption(_ENGINE_OPTION)
    if spec is None:
        given = [option for option, default in _DEFAULTS.items() if config.getoption(option) != default]
        if given:   # an engine option left out (a CI variable unset): the suite would silently not run
            raise pytest.UsageError(f"hearts-ref: {', '.join(given)} given without {_ENGINE_OPTION}: "
                                    "name the engine to judge")
        return
    from hearts_ref.engines.load import SPEC_HELP
    from hearts_ref.errors import HeartsError

    if not spec.strip():
        raise pytest.UsageError(f"hearts-ref: {_ENGINE_OPTION} is empty: give {SPEC_HELP}")
    if config.getoption("--hearts-games") < 0:
        raise pytest.UsageError(f"hearts-ref: --hearts-games must be 0 or more, not {config.getoption('--hearts-games')}")
    if (config.getoption("--hearts-shrink-time") or 0) < 0:
        raise pytest.UsageError("hearts-ref: --hearts-shrink-time must be 0 or more seconds")
    if (config.getoption("--hearts-shrink-replays") or 0) < 0:
        raise pytest.UsageError(f"hearts-ref: --hearts-shrink-replays must be 0 or more, "
                                f"not {config.getoption('--hearts-shrink-replays')}")
    from hearts_ref.conformance.runner import load_engine
    from hearts_ref.conformance.suite_steps import close_engine
    from hearts_ref.variants import Rules, parse_settings

    try:
        overrides = parse_settings(config.getoption("--hearts-set"))
        config.stash[_RULES] = Rules.preset(config.getoption("--hearts-preset"), **overrides)
        engine = load_engine(spec)
    except HeartsError as error:
        raise pytest.UsageError(f"hearts-ref: {error}") from None
    if getattr(config.option, "dist", "no") != "no" and not hasattr(config, "workerinput"):
        close_engine(engine)   # the controller of pytest-xdist judges nothing: each worker starts its own engine
    else:
        config.stash[_ENGINE] = engine


def pytest_collection_modifyitems(session: pytest.Session, config: pytest.Config, items: list[pytest.Item]) -> None:
    spec = config.getoption(_ENGINE_OPTION)
    if spec is None:
        return
    from hearts_ref.conformance.policies import POLICY_NAMES
    from hearts_ref.conformance.runner import planned_games
    from hearts_ref.perft import perft_names
    from hearts_ref.vectors import load_vectors

    games = config.getoption("--hearts-games") * len(POLICY_NAMES)
    negatives = max(1, config.getoption("--hearts-games") // 2)
    # (its node ID "hearts-ref", so that the items' are hearts-ref::vector/... and JUnit's class is "hearts-ref")
    suite = HeartsSuite.from_parent(session, name="hearts-ref", nodeid="hearts-ref")
    cases: list[tuple[str, Any]] = [(f"vector/{case.id}", case) for case in load_vectors()]
    cases += [(f"perft/{name}", (i + 1, len(perft_names()))) for i, name in enumerate(perft_names())]
    cases += [(case_id, (games, 0, i) if kind == "differential" else (0, negatives, i))
              for kind, i, _, case_id in planned_games(games, negatives, (1, 1), every=_targeted_every(config))]
    made = [ConformanceItem.from_parent(suite, name=name, case=case) for name, case in cases]
    items += made
    # counted as collected, as the items of a test file are ("collected 261 items")
    config.hook.pytest_collectreport(report=pytest.CollectReport(suite.nodeid, "passed", None, made))


def _targeted_every(config: pytest.Config) -> int:
    """Every how many games one is targeted under the rules of the options (checked by pytest_configure)."""
    from hearts_ref.conformance.targeted import targeted_every

    return targeted_every(config.stash[_RULES])


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    """Count the games judged (in the process that reports: pytest-xdist's controller, or the only one)."""
    if _counts is None or report.when != "call" or not report.nodeid.startswith(("hearts-ref::differential/",
                                                                                 "hearts-ref::negative/")):
        return
    _counts["games"] += 1
    if not report.skipped:
        _counts["judged"] += 1
    elif not _counts["why"]:
        why = report.longrepr[2] if isinstance(report.longrepr, tuple) else report.longrepr
        _counts["why"] = str(why).removeprefix("Skipped: ")


def pytest_sessionstart(session: pytest.Session) -> None:
    global _counts
    judging = session.config.getoption(_ENGINE_OPTION) is not None and not hasattr(session.config, "workerinput")
    _counts = {"games": 0, "judged": 0, "why": ""} if judging else None


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    """A suite that judged no game fails (as ``hearts-ref conform`` does): a green run must have checked the engine."""
    if _counts and _counts["games"] and not _counts["judged"] and exitstatus == pytest.ExitCode.OK:
        session.exitstatus = pytest.ExitCode.TESTS_FAILED


def pytest_terminal_summary(terminalreporter: Any, exitstatus: int, config: pytest.Config) -> None:
    if _counts and _counts["games"] and not _counts["judged"]:
        terminalreporter.write_line(f"hearts-ref: no game was judged, all {_counts['games']} were skipped "
                                    f"({_counts['why']}): the suite fails", red=True)


def pytest_unconfigure(config: pytest.Config) -> None:
    engine = config.stash.get(_ENGINE, None)
    if engine is not None:
        from hearts_ref.conformance.suite_steps import close_engine

        close_engine(engine)


_ENGINE = pytest.StashKey[Any]()         # this process's engine
_RULES = pytest.StashKey[Any]()          # the rules of the options
_SHRUNK = pytest.StashKey[dict]()        # finding signature -> the item whose failure shows it shrunk
_counts: dict[str, Any] | None = None    # this session's games reported: how many, how many judged, why one was skipped


class HeartsSuite(pytest.Collector):
    """The conformance suite's items, under one node named ``hearts-ref``."""

    def collect(self) -> list[pytest.Item]:   # the items are made by pytest_collection_modifyitems
        return []


class ConformanceFailure(Exception):
    """A case of the suite found a deviation; the message describes it."""


class ConformanceItem(pytest.Item):
    """One case of the conformance suite, run on the engine named by ``--hearts-engine``."""

    def __init__(self, *, case: Any, **kwargs: Any):
        super().__init__(**kwargs)
        self.case = case

    def runtest(self) -> None:
        config = self.config   # (the options were checked and the engine started by pytest_configure)
        spec, seed = config.getoption(_ENGINE_OPTION), config.getoption("--hearts-seed")
        case = _judge(self, config.stash[_ENGINE], spec, config.stash[_RULES], seed, _shrink_budget(config))
        if case.status in ("skipped", "abandoned"):
            pytest.skip(case.reason)
        if case.status == "expected-fail":
            pytest.xfail(case.reason)
        if case.status in ("failed", "flaky", "error"):   # an engine failure fails too, and a flaky finding
            raise ConformanceFailure(_describe([case]) if "reproduction" in case.details else _one_line(case))

    def repr_failure(self, excinfo: pytest.ExceptionInfo[BaseException], style: Any = None) -> str:
        if isinstance(excinfo.value, ConformanceFailure):
            return str(excinfo.value)
        return super().repr_failure(excinfo)

    def reportinfo(self) -> tuple[str, int | None, str]:
        return "hearts-ref", None, f"hearts-ref::{self.name}"


def _shrink_budget(config: pytest.Config) -> Any:
    """How far each shrink may go: --hearts-shrink-time seconds (10 by default), or --hearts-shrink-replays games."""
    from hearts_ref.conformance.shrink import Budget

    seconds, replays = config.getoption("--hearts-shrink-time"), config.getoption("--hearts-shrink-replays")
    if replays is None:
        return 10.0 if seconds is None else seconds
    return Budget(seconds=seconds, replays=replays)


def _judge(item: ConformanceItem, engine: Any, spec: str, rules: Any, seed: int, shrink: Any) -> Any:
    """Run the item's case and return it as a report :class:`~hearts_ref.conformance.report.Case`."""
    from hearts_ref.conformance.findings import finding_key
    from hearts_ref.conformance.report import Report
    from hearts_ref.conformance.runner import run_differential, run_perft_step, run_vectors_step

    kind = item.name.split("/", 1)[0]
    if kind == "vector":
        report = Report({"spec": spec, "name": str(getattr(engine, "name", "?"))}, rules.to_dict(), seed, 0)
        run_vectors_step(engine, report, (1, 1), cases=[item.case])
        return report.cases[0]
    if kind == "perft":
        report = Report({"spec": spec, "name": str(getattr(engine, "name", "?"))}, rules.to_dict(), seed, 0)
        run_perft_step(engine, report, item.case)
        return report.cases[0]
    games, negatives, index = item.case
    shard = (index + 1, games or negatives)

    def play(budget: Any) -> Any:
        report = run_differential(engine, rules, games, seed, negative_games=negatives, shard=shard,
                                  shrink_budget=budget, spec=spec)
        return report.cases[0]

    case = play(0)
    finding = case.details.get("deviation" if case.status == "failed" else "error")
    if case.status not in ("failed", "error") or not isinstance(finding, dict):
        return case
    # the same finding as the runner's (a deviation by its rule, an engine failure by its cause), shrunk once
    signature = finding_key(finding["kind"], finding["rule_ids"], finding.get("message", ""))
    shrunk = item.config.stash.setdefault(_SHRUNK, {})
    if signature in shrunk:    # this worker has shrunk the same finding already: point to it
        case.details["same_finding_as"] = shrunk[signature]
        case.details.pop("reproduction", None)
        return case
    shrunk[signature] = f"hearts-ref::{item.name}"
    return play(shrink)


def _one_line(case: Any) -> str:
    """A failed case without a reproduction here: a vector, a perft count, or a finding shown by another item."""
    lines = [f"{_head(case)}: {case.reason}"]
    if case.details.get("same_finding_as"):
        lines.append(f"the same finding as {case.details['same_finding_as']}, which shows it shrunk")
    if case.details.get("replay"):
        lines.append(f"replay: {case.details['replay']}")
    return "\n".join(lines)


def _head(case: Any) -> str:
    """What a failure is named by: the rules it breaks; an engine failure by its cause, then the rules of its step."""
    if case.status == "error":
        return "engine error" + (f" at a step of {', '.join(case.rule_ids)}" if case.rule_ids else "")
    from hearts_ref.conformance.diagnose import ambiguous_winner

    if ambiguous_winner(case.rule_ids):   # a trick of no points: the winner or the lead, it cannot tell
        return " or ".join(case.rule_ids)
    return ", ".join(case.rule_ids) or "engine error"


def _describe(failed: list[Any]) -> str:
    """The failed cases as text: each finding with its rule IDs, its shrunk game and its replay command."""
    from hearts_ref.conformance.findings import flaky_text, shrink_label

    lines = [f"{len(failed)} case(s) deviate from hearts-ref's reference"] if len(failed) > 1 else []
    for case in failed:
        repro = case.details.get("reproduction")
        if repro is None:
            continue
        deviation = repro.get("deviation") or case.details.get("deviation") or {}
        # the rule first, as every item's first line (pytest's short summary shows it)
        lines.append(f"{'- ' if len(failed) > 1 else ''}{_head(case)}: {case.reason}")
        found, cut = shrink_label(repro)
        tricks = f"{repro['tricks']} trick(s)" + (" in the last" if (repro.get("rounds") or 0) > 1 else "")
        lines.append(f"  first seen in {case.id}; {found}: "
                     f"{repro['rounds']} round(s), {tricks}: at {deviation.get('where')}"
                     + ("; the shrink's budget ran out first" if cut else ""))
        for played in repro.get("game", []):
            lines.append(f"  round {played['round']} (pass {played['direction']}): hands "
                         + " | ".join(played["hands"]))
            if played["passes"]:
                lines.append("    passes " + " | ".join(f"{s}: {c}" for s, c in played["passes"].items()))
            if played["plays"]:
                lines.append("    plays " + " ".join(played["plays"]))
        replays = repro.get("replays") or {}
        if replays and not replays.get("same", True):
            lines.append(f"  {flaky_text(replays, repro.get('steps'))}")
        lines.append(f"  replay: {repro['command']}")
    others = [case.id for case in failed if "reproduction" not in case.details]
    if others:
        lines.append(f"({len(others)} more case(s) show the same findings: {', '.join(others[:5])}"
                     f"{' …' if len(others) > 5 else ''})")
    return "\n".join(lines)
