"""The readable summary of a conformance report: counts, the table by rule ID, each finding with its replay.

:func:`summary_renderables` builds it as rich renderables (:mod:`hearts_ref.console` draws them on
a terminal, or as plain text lines in a pipe); :func:`console_summary` is that plain text. The
report itself, its JSON form and the merge of shards are in :mod:`.report`; its JUnit XML in
:mod:`.junit`.

>>> from hearts_ref.conformance.report import Case, Report
>>> report = Report(engine={"spec": "x", "name": "x"}, rules={}, seed=1, games=0)
>>> report.add(Case("differential/uniform/0", "differential", "passed"))
>>> console_summary(report).splitlines()[-1]
'  verdict: PASS'
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from hearts_ref.conformance.findings import flaky_text, shrink_label
from hearts_ref.conformance.report import FAILING, STATUSES, Case, Report
from hearts_ref.engines.health import ReplyTimes
from hearts_ref.variants import setting_text

__all__ = ["console_summary", "summary_renderables", "VERDICTS"]

# The words a run's verdict starts with (the glossary defines each).
VERDICTS = ("PASS", "FAIL", "NOTHING JUDGED", "GAMES NOT JUDGED", "ENGINE NOT STARTED")


def console_summary(report: Report) -> str:
    """Return the readable summary as plain text: what a pipe or a file receives (see :func:`summary_renderables`)."""
    from hearts_ref.console import render

    return render(*summary_renderables(report))


def summary_renderables(report: Report) -> list[Any]:
    """Return the readable summary: the counts, the table by rule ID, each finding with its replay command.

    As rich renderables (:mod:`hearts_ref.console` draws them on a terminal, or as plain text).
    Text that comes from the engine (its name, its messages) is shown with its control
    characters escaped.
    """
    from rich.text import Text

    from hearts_ref.console import Table, indented, printable

    summary = report.summary()
    counts = summary["counts"]
    engine = report.engine
    spec = engine.get("spec", "")
    named = engine.get("name") not in (None, "", "?")   # (an engine that could not be started told no name)
    changes = ", ".join(setting_text(k, v) for k, v in _changes(report.rules).items()) or "seed000 defaults"
    lines = [f"hearts-ref conform: {engine['name']} {engine.get('version', '')} ({spec})" if named else
             f"hearts-ref conform: {spec}",
             f"  rules: {changes}; "
             f"seed {report.seed}; shards {' '.join(f'{a}/{b}' for a, b in report.shards)}",
             f"  {summary['total']} cases: " + ", ".join(f"{counts[s]} {s}" for s in STATUSES if counts[s])
             + (f"  ({summary['rounds']} rounds, {report.seconds:.1f} s)" if _games(report) else
                f"  ({report.seconds:.1f} s, no game played)")]
    kinds: dict[str, dict[str, int]] = {}
    for case in report.cases:
        kinds.setdefault(case.kind, {}).setdefault(case.status, 0)
        kinds[case.kind][case.status] += 1
    for kind, by_status in kinds.items():
        lines.append(f"  {kind + 's:':<14} " + ", ".join(f"{n} {s}" for s, n in by_status.items())
                     + (_negatives_why(report) if kind == "negative" and by_status.get("failed") else ""))
    skipped: dict[str, list[str]] = {}   # the steps skipped, by reason: one line for the steps of one reason
    for step, state in report.steps.items():
        if state.get("status") == "skipped":
            skipped.setdefault(str(state.get("reason")), []).append(step)
        elif state.get("note"):
            lines.append(f"  {step}: {state['note']}")
    lines += [f"  {', '.join(steps)}: skipped ({reason})" for reason, steps in skipped.items()]
    lines += _skip_reasons(report, {step for steps in skipped.values() for step in steps})
    lines += _engine_health(report)
    stopped = [c for c in report.cases if c.details.get("stopped") and c.status in ("passed", "expected-fail")]
    if stopped:   # judged up to where they stopped: a deadlock of the rules (FIRST-NO-POINTS), or a limit
        games = sum(1 for c in report.cases if c.kind in ("differential", "negative"))
        why = Counter(str(case.details["stopped"]).split(":")[0] for case in stopped)
        lines.append(f"  {len(stopped)} of {games} games stopped early, judged up to there ("
                     + ", ".join(f"{reason}: {count}" for reason, count in why.items())
                     + f"); e.g. {stopped[0].id}: {stopped[0].details['stopped']}")
    parts: list[Any] = [Text(printable(line)) for line in lines]
    rows = [(rule, row) for rule, row in summary["rules"].items() if any(row.values())]
    if rows:
        table = Table("rule", "failed", "errors", "xfail", "passed", "checks ok", "checks bad", "cited", "")
        for column in table.columns[1:8]:
            column.justify = "right"
        for rule, row in rows:
            bad = row["failed"] or row["checks-failed"]   # a rule broken (an engine error breaks none: its column)
            table.add_row(rule, *(str(row[name]) for name in ("failed", "error", "expected-fail", "passed",
                                                              "checks-passed", "checks-failed", "checks-cited")),
                          "<--" if bad else "", style="bold red" if bad else None)
        parts += [Text(""), indented(table)]
    refused = sum(tally[0] for tally in report.checks.values())
    if refused and not any(tally[2] for tally in report.checks.values()):   # an easy 0 to miss in the table
        parts.append(Text(f"  the engine named no rule in its {refused} refusals of illegal moves (naming one is "
                          "optional; a rule it names is checked against the rule that forbids the move)"))
    if report.coverage.get("rounds"):   # (no round played: nothing to count)
        parts += _situations_table(report)
    tail: list[str] = []
    data_failures = [c for c in report.cases if c.status in FAILING and c.kind in ("vector", "perft")]
    if data_failures:
        tail += ["", "  failed vectors and perft counts (first 10; all in the JSON report):"]
        for case in data_failures[:10]:
            reason, *stderr = str(case.reason).split("\n")
            tail.append(f"  - {case.id}: {reason}")
            tail += [f"      {line}" for line in stderr]   # an engine's stderr, its last lines
            if case.details.get("replay"):   # (not "replay:", which the findings' minimal games below are led by)
                tail.append(f"    run alone: {case.details['replay']}")
    shrunk = [(case, repro) for case in report.cases for repro in _reproductions(case)]
    if shrunk:
        any_shrunk = any("skipped" not in (repro.get("search") or {}) for _, repro in shrunk)
        tail += ["", "  findings (shrunk):" if any_shrunk else "  findings:"]
        for case, repro in shrunk:
            shown = repro.get("deviation") or {}
            rule_ids = ", ".join(shown.get("rule_ids", case.rule_ids))
            message, *stderr = str(shown.get("message") or case.reason).split("\n")
            if shown.get("kind") == "engine-error":   # no rule broken: the rules of the step it failed at
                label = f"engine failure, at a step of {rule_ids}" if rule_ids else "engine failure"
            else:
                label = rule_ids or "engine error"
            tail.append(f"  - {label}: {message}")
            tail += [f"      {line}" for line in stderr]   # the engine's stderr, its last lines
            tricks = f"{repro.get('tricks')} trick(s)" + (" in the last" if (repro.get("rounds") or 0) > 1 else "")
            size = (f"{repro.get('rounds')} round(s), {tricks}, {repro.get('steps')} steps"
                    if repro.get("steps") else "none, it fails at the game's start (new_game)")
            found, cut = shrink_label(repro)
            tail.append(f"    case {case.id}; {found}: {size}"
                        + ("" if repro.get("first_difference", True) else "; not its game's first difference")
                        + ("; the shrink's budget ran out first" if cut else ""))
            replays = repro.get("replays")
            if isinstance(replays, dict) and not replays.get("same", True):
                tail.append(f"    {flaky_text(replays, repro.get('steps'))}")
            tail.append(f"    replay: {repro.get('command')}")
        others = sum(1 for c in report.cases if c.status in FAILING) - len({c.id for c, _ in shrunk})
        if others:
            tail.append(f"  ({others} more failing case(s) repeat these findings; see the JSON report)")
    if summary["unobserved_known_deviations"]:
        tail.append(f"  declared deviations not seen (unexpected pass): "
                    f"{', '.join(summary['unobserved_known_deviations'])}")
    parts += [Text(printable(line)) for line in tail]
    if report.incomplete is not None:
        parts.append(Text(f"  INCOMPLETE: {report.incomplete['reason']}; this report holds the cases judged before",
                          style="bold yellow"))
    code = report.exit_code()
    verdict = _verdict(report)
    passed = code == 0 and not verdict.startswith("NOTHING")
    parts.append(Text(f"  verdict: {verdict}" + (" (of an incomplete run)" if report.incomplete and report.cases else ""),
                      style="bold green" if passed else "bold red"))
    return parts


def _situations_table(report: Report) -> list[Any]:
    """The situations the games played through: each with the rounds (or game ends) that reached it."""
    from rich.text import Text

    from hearts_ref.console import Table, indented
    from hearts_ref.conformance.situations import situation_rows

    rows = situation_rows(report.situations, report.coverage, report.untargeted)
    if not rows:
        return []
    table = Table("situation", "reached", "")
    table.columns[1].justify = "right"
    for row in rows:
        note = "" if row["count"] else "not reached"
        if "untargeted" in row:
            note = "; ".join(filter(None, [note, f"could not be targeted: {row['untargeted']}"]))
        table.add_row(str(row["name"]), str(row["count"]), note)
    return [Text(""), Text(f"  situations played through ({report.coverage.get('rounds', 0)} rounds of the games played "
                           "to their end; each counted once per round that reached it):"), indented(table)]


def _skip_reasons(report: Report, steps_skipped: set[str]) -> list[str]:
    """Why cases were skipped, most cases first (those of a step skipped as a whole are said on its own line):
    ``skipped cases: 14 engine does not support players=3; 12 engine does not support players=5``."""
    reasons = Counter(case.reason or "no reason given" for case in report.cases
                      if case.status == "skipped" and case.kind not in steps_skipped)
    if not reasons:
        return []
    shown = [f"{n} {reason}" for reason, n in reasons.most_common(4)]
    more = len(reasons) - len(shown)
    return ["  skipped cases: " + "; ".join(shown) + (f"; and {more} other reason{'s' * (more != 1)}" if more else "")]


def _verdict(report: Report) -> str:
    if report.incomplete and not report.cases:
        return "NOTHING JUDGED: the run was stopped before its first case was judged"
    if report.not_started():
        return f"ENGINE NOT STARTED: {report.not_started()}"
    code = report.exit_code()
    if code == 1:
        errors = sum(1 for case in report.cases if case.status == "error")
        flaky = sum(1 for case in report.cases if case.status == "flaky")
        notes = ", ".join(filter(None, [f"{errors} engine error(s)" if errors else "",
                                        f"{flaky} flaky case(s): replayed, they did not fail the same way" if flaky
                                        else ""]))
        only_flaky = not any(case.status in ("failed", "error") for case in report.cases)
        return ("FAIL, flaky only" if only_flaky else "FAIL") + (f" ({notes})" if notes else "")
    if code == 2 and report.judged_nothing():
        return "NOTHING JUDGED: every case was skipped (see the reasons above)"
    if code == 2:
        return f"GAMES NOT JUDGED: every differential game was skipped ({report.games_not_judged()})"
    return "PASS"


def _reproductions(case: Case) -> list[dict[str, Any]]:
    """The reproductions a case carries: one per distinct finding first seen in it (and its engine failure)."""
    entries = list(case.details.get("findings") or ()) + ([case.details["error"]] if case.details.get("error") else [])
    found = [entry["reproduction"] for entry in entries if isinstance(entry, dict) and "reproduction" in entry]
    if not found and "reproduction" in case.details:
        found = [case.details["reproduction"]]
    return found


def _negatives_why(report: Report) -> str:
    """Why the games of negative checks failed: by their checks (an illegal move taken, or refused citing a rule that
    does not forbid it), or only by what the game's moves show, as a differential game fails (an illegal move the
    engine's legal set allows among them: it is not offered as a check)."""
    bad = sum(tally[1] for tally in report.checks.values())
    if bad:
        return f" ({bad} check(s) bad: see the rule table's 'checks bad')"
    offered = sum(tally[0] for tally in report.checks.values())
    if not offered:
        return (" (no illegal move was offered: these games failed on what their moves showed, as differential games "
                "do, before any check)")
    return (f" (no check bad: the {offered} illegal move(s) offered were all refused, none citing a wrong rule; "
            "these games failed on what their moves showed, as differential games do: an illegal move the engine's "
            "own legal set allows is not offered, its legal set is the finding)")


def _games(report: Report) -> bool:
    """Whether any case of the run is a game (differential or negative): else it has no rounds to count."""
    return any(case.kind in ("differential", "negative") for case in report.cases)


def _engine_health(report: Report) -> list[str]:
    """The summary's lines on the engine program itself: how fast it answered, and whether it was abandoned."""
    lines = []
    replies = report.engine.get("replies")
    if isinstance(replies, dict) and (replies.get("count") or replies.get("timeouts")):
        lines.append(f"  engine replies: {ReplyTimes.from_dict(replies).describe()}")
    abandoned = [case for case in report.cases if case.status == "abandoned"]
    if abandoned:
        lines.append(f"  engine {abandoned[0].reason}: {len(abandoned)} cases not run")
    return lines


def _changes(rules: dict[str, Any]) -> dict[str, Any]:
    from hearts_ref.variants import Rules
    try:
        return Rules.from_dict(dict(rules)).changes()
    except Exception:
        return dict(rules)
