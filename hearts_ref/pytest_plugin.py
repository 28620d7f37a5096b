"""The pytest plugin: ``pytest --hearts-engine module:attr`` runs the conformance suite on a Python engine.

Installed with hearts-ref (the ``pytest11`` entry point), the plugin does nothing until
``--hearts-engine`` is given. Then it adds, to the project's own tests, one test item per
part of the suite, each judging the engine against hearts-ref's reference:

- ``hearts-ref::vectors`` — the conformance vectors and perft counts (skipped, with the
  reason, when this build has none);
- ``hearts-ref::differential[<policy>]`` — differential games with each policy (uniform,
  void-suits, hoard-hearts, moon, threshold, ties), every observable compared at every
  step; a failure shows the rule IDs, expected against actual, the shrunk game and the
  command that replays it;
- ``hearts-ref::negative`` — games in which the engine is offered illegal moves.

``module:attr`` names an engine class, a function returning an engine, or an engine
(:class:`hearts_ref.engine.Engine`); ``python:module:attr`` and ``openspiel`` work too.
Options: ``--hearts-preset NAME``, ``--hearts-set name=value`` (repeatable),
``--hearts-games N`` (per policy, default 20), ``--hearts-seed S``,
``--hearts-shrink-time S``. For example::

    pytest --hearts-engine mypackage.engine:MyEngine --hearts-preset seed000 --hearts-games 50

Without the entry point (running from a source checkout), add ``-p hearts_ref.pytest_plugin``.
"""

from __future__ import annotations

from typing import Any

import pytest

from hearts_ref.variants import DEFAULT_PRESET

_ENGINE_OPTION = "--hearts-engine"


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("hearts-ref")
    group.addoption(_ENGINE_OPTION, default=None, metavar="MODULE:ATTR",
                    help="judge this Python Hearts engine against hearts-ref")
    group.addoption("--hearts-preset", default=DEFAULT_PRESET, metavar="NAME",
                    help=f"rules preset (default {DEFAULT_PRESET})")
    group.addoption("--hearts-set", action="append", default=[], metavar="NAME=VALUE",
                    help="change one variant parameter; repeatable")
    group.addoption("--hearts-games", type=int, default=20, metavar="N",
                    help="differential games per policy (default 20)")
    group.addoption("--hearts-seed", type=int, default=0, metavar="S", help="campaign seed (default 0)")
    group.addoption("--hearts-shrink-time", type=float, default=10.0, metavar="S",
                    help="seconds to shrink each finding (default 10)")


def pytest_collection_modifyitems(session: pytest.Session, config: pytest.Config, items: list[pytest.Item]) -> None:
    spec = config.getoption(_ENGINE_OPTION)
    if not spec:
        return
    from hearts_ref.conformance.policies import POLICY_NAMES

    suite = HeartsSuite.from_parent(session, name="hearts-ref")
    items.append(ConformanceItem.from_parent(suite, name="vectors", part="vectors"))
    for policy in POLICY_NAMES:
        items.append(ConformanceItem.from_parent(suite, name=f"differential[{policy}]", part="differential",
                                                 policy=policy))
    items.append(ConformanceItem.from_parent(suite, name="negative", part="negative"))


class HeartsSuite(pytest.Collector):
    """The conformance suite's items, under one node named ``hearts-ref``."""

    def collect(self) -> list[pytest.Item]:   # the items are made by pytest_collection_modifyitems
        return []


class ConformanceFailure(Exception):
    """A part of the suite found deviations; the message describes them."""


class ConformanceItem(pytest.Item):
    """One part of the conformance suite, run on the engine named by ``--hearts-engine``."""

    def __init__(self, *, part: str, policy: str | None = None, **kwargs: Any):
        super().__init__(**kwargs)
        self.part = part
        self.policy = policy

    def _options(self) -> tuple[str, Any, int, int, float]:
        from hearts_ref.variants import Rules, parse_setting

        config = self.config
        overrides = dict(parse_setting(text) for text in config.getoption("--hearts-set"))
        rules = Rules.preset(config.getoption("--hearts-preset"), **overrides)
        return (config.getoption(_ENGINE_OPTION), rules, config.getoption("--hearts-games"),
                config.getoption("--hearts-seed"), config.getoption("--hearts-shrink-time"))

    def runtest(self) -> None:
        from hearts_ref.conformance.report import Report
        from hearts_ref.conformance.runner import load_engine, run_differential, run_perft_step, run_vectors_step

        from hearts_ref.errors import HeartsError

        try:
            spec, rules, games, seed, shrink = self._options()
            engine = load_engine(spec)
        except HeartsError as error:   # a bad option or engine: one line, no traceback
            pytest.fail(f"hearts-ref: {error}", pytrace=False)
        try:
            if self.part == "vectors":
                report = Report({"spec": spec, "name": engine.name}, rules.to_dict(), seed, 0)
                run_vectors_step(engine, report, (1, 1))
                run_perft_step(engine, report, (1, 1))
            elif self.part == "differential":
                report = run_differential(engine, rules, games, seed, policies=(self.policy,),
                                          shrink_budget=shrink, spec=spec)
            else:
                report = run_differential(engine, rules, 0, seed, negative_games=max(1, games // 2),
                                          shrink_budget=shrink, spec=spec)
        finally:
            close = getattr(engine, "close", None)
            if callable(close):
                close()
        skipped = [case for case in report.cases if case.status == "skipped"]
        if report.cases and len(skipped) == len(report.cases):
            pytest.skip(skipped[0].reason)
        failed = [case for case in report.cases if case.status in ("failed", "error")]   # an engine failure fails too
        if failed:
            raise ConformanceFailure(_describe(failed))

    def repr_failure(self, excinfo: pytest.ExceptionInfo[BaseException], style: Any = None) -> str:
        if isinstance(excinfo.value, ConformanceFailure):
            return str(excinfo.value)
        return super().repr_failure(excinfo)

    def reportinfo(self) -> tuple[str, int | None, str]:
        return "hearts-ref", None, f"hearts-ref::{self.name}"


def _describe(failed: list[Any]) -> str:
    """The failed cases as text: each finding with its rule IDs, its shrunk game and its replay command."""
    lines = [f"{len(failed)} case(s) deviate from hearts-ref's reference"]
    for case in failed:
        repro = case.details.get("reproduction")
        if repro is None:
            continue
        deviation = repro.get("deviation") or case.details.get("deviation") or {}
        lines.append(f"- {', '.join(case.rule_ids) or deviation.get('kind', 'error')}: {case.reason}")
        lines.append(f"  first seen in {case.id}; shrunk to {repro['rounds']} round(s), {repro['tricks']} "
                     f"trick(s): at {deviation.get('where')}")
        for played in repro.get("game", []):
            lines.append(f"  round {played['round']} (pass {played['direction']}): hands "
                         + " | ".join(played["hands"]))
            if played["passes"]:
                lines.append("    passes " + " | ".join(f"{s}: {c}" for s, c in played["passes"].items()))
            if played["plays"]:
                lines.append("    plays " + " ".join(played["plays"]))
        lines.append(f"  replay: {repro['command']}")
    others = [case.id for case in failed if "reproduction" not in case.details]
    if others:
        lines.append(f"({len(others)} more case(s) show the same findings: {', '.join(others[:5])}"
                     f"{' …' if len(others) > 5 else ''})")
    return "\n".join(lines)
