"""Parts of hand-written pages filled in at build time, so that they follow the repository.

A hand-written page marks a place with an HTML comment; the hook replaces it:

- ``<!-- include: README.md#Set-up -->``: that section of README.md (the set-up commands);
- ``<!-- include: tour -->``: the five-minute tour, with a real game played at build time and
  the commands that are available in this checkout;
- ``<!-- include: help:conform -->``: what ``hearts-ref conform --help`` prints, from the parser;
- ``<!-- include: conform-run:openspiel:must_break_hearts=false -->``: the console summary of the
  conformance run that ``docs/build.py`` recorded for that engine with that setting (the rows
  of the rules without a failure left out);
- ``<!-- include: run:minimal-python -->``: a run of ``hearts-ref`` made when the site is built
  (``sitegen.runs.RUNS``), as a console block; ``run-short:NAME`` leaves out the rows of the rules
  without a failure;
- ``<!-- include: file:examples/engines/minimal_engine.py -->``: a file of the repository, whole,
  as a code block.

>>> "hearts-ref" in fill("<!-- include: README.md#Set-up -->", "index.md")
True
>>> command_options("rules") >= {"--json", "--registry"}
True
>>> command_help("conform").splitlines()[0]
'$ hearts-ref conform --help'
"""

from __future__ import annotations

import argparse
import json
import re
from functools import cache, partial

from sitegen.common import DATA, ROOT, not_yet, outside_fences, read_json
from sitegen.drawings import sweep_chart, table
from sitegen.proofs_page import dealt_in
from sitegen.runs import console, output

__all__ = ["fill", "command_options", "command_help", "recorded_run", "readme_section", "tour", "repository_file"]

MARKER = re.compile(r"<!-- include: (?P<what>[^ ]+?) -->")


@cache
def command_options(name: str) -> frozenset[str]:
    """Return the options of ``hearts-ref <name>``; a command not yet written has none (a stub)."""
    command = _subcommand(name)
    if command is None:
        return frozenset()
    return frozenset(s for action in command._actions for s in action.option_strings if s not in ("-h", "--help"))


def _subcommand(name: str) -> argparse.ArgumentParser | None:
    from hearts_ref.cli import build_parser
    parser = build_parser()
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return sub.choices.get(name)


def command_help(name: str, *, width: int = 88) -> str:
    """Return ``hearts-ref <name> --help`` as a console block, formatted by the command's own parser at ``width``."""
    command = _subcommand(name)
    if command is None:
        raise ValueError(f"hearts-ref has no command {name!r}")
    command.formatter_class = partial(command.formatter_class, width=width)
    return f"$ hearts-ref {name} --help\n{command.format_help().rstrip()}"


def recorded_run(what: str) -> str:
    """Return the console summary of a recorded conformance run, ``ADAPTER:NAME=VALUE,…``, the rows without a
    failure left out, and where it was recorded."""
    from hearts_ref.conformance.report import Report
    from hearts_ref.conformance.summary import console_summary
    adapter, _, setting = what.partition(":")
    wanted = {name: json.loads(value) for name, _, value in (s.partition("=") for s in setting.split(",") if s)}
    data, missing = read_json(DATA / "conformance" / f"{adapter}.json")
    run = next((r for r in (data or {}).get("runs", []) if r.get("set") == wanted and r.get("report")), None)
    if run is None:
        return not_yet(f"No conformance run of `{adapter}` with `{setting or 'its preset'}` is recorded"
                       f"{f' ({missing})' if missing else ''}.",
                       "`python docs/build.py` records the runs; then this excerpt is drawn from them.")
    lines = console_summary(Report.from_dict(run["report"])).splitlines()
    table = next((i for i, line in enumerate(lines) if line.startswith("  rule ")), len(lines) - 1)
    end = next((i for i in range(table + 1, len(lines)) if not lines[i].strip()), len(lines))
    rows = lines[table + 1:end]
    failing = [row for row in rows if row.endswith("<--")]
    shown = lines[:table + 1] + failing + ["  …"] * (len(failing) < len(rows)) + lines[end:]
    command = run["command"].replace(" --json", "")
    return (f"```console\n$ {command}\n" + "\n".join(shown) + "\n```\n\n"
            f"*The summary printed by the run that `docs/build.py` recorded in "
            f"[`docs/data/conformance/{adapter}.json`](data/conformance/{adapter}.json)"
            f"{' on ' + run['started'][:10] if run.get('started') else ''}; the rows of the rules without a "
            f"failure are left out.*")


def readme_section(name: str) -> str:
    """Return the body of the section ``## name`` of README.md."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    match = re.search(rf"^## {re.escape(name)}\n(.*?)(?=^## |\Z)", text, re.S | re.M)
    if not match:
        raise ValueError(f"README.md has no section '## {name}'")
    return match.group(1).strip()


def _played_game() -> str:
    from hearts_ref.commands.play import transcript
    from hearts_ref.simulate import random_game
    from hearts_ref.variants import Rules
    lines = transcript(random_game(Rules(), seed=7), preset="seed000").splitlines()
    return "\n".join(lines[:20] + ["…"])


def tour() -> str:
    """Return the five-minute tour: play a game, prove the rules, check an engine."""
    out = ["### 1. Play a game\n",
           "Play a whole game with random legal choices under the default rules, and read it trick by trick:\n",
           f"```console\n$ hearts-ref play --seed 7\n{_played_game()}\n```\n",
           "(The first lines of that very game, played when this page was built.) Every choice goes through the "
           "rules of [the rules pages](rules/index.md); change them with `--preset` and `--set`, listed in the "
           "[variant registry](variants.md). `--json` prints the game record instead.\n",
           "### 2. Prove the rules\n"]
    if command_options("prove"):
        out.append("```sh\nhearts-ref prove --all\n```\n\nThe invariants, each proved or refuted with Z3 under every "
                   "preset; the [proofs page](proofs.md) shows a recorded run, with the counterexamples drawn.\n")
    else:
        out.append(not_yet("`hearts-ref prove` is not available in this version.",
                           "The [proofs page](proofs.md) will show a recorded run once it is."))
    out.append("### 3. Check an engine\n")
    if command_options("conform"):
        out.append("```sh\nhearts-ref conform --help\n```\n\nJudge your engine against the reference, in process, over "
                   "the stdio protocol, or OpenSpiel's `hearts`; the [conformance guide](conformance/index.md) "
                   "walks through it.\n")
    else:
        out.append(not_yet("`hearts-ref conform` is not available in this version.",
                           "The [conformance guide](conformance/index.md) already describes the Python interface "
                           "an engine implements."))
    return "\n".join(out)


LANGUAGES = {".py": "python", ".js": "javascript", ".json": "json", ".sh": "sh"}


def repository_file(path: str) -> str:
    """Return a file of the repository as a fenced code block titled with its path."""
    source = ROOT / path
    if not source.is_file():
        raise ValueError(f"no file {path} in the repository")
    text = source.read_text(encoding="utf-8").rstrip("\n")
    fence = "````" if "```" in text else "```"
    return f'{fence}{LANGUAGES.get(source.suffix, "text")} title="{path}"\n{text}\n{fence}'


def counterexample_drawing(name: str) -> str:
    """Return each distinct deal that the counterexamples of a ``prove --json`` run (``NAME-json``) reach, drawn on
    the table once, with the plays that lead to the stuck seat."""
    report = json.loads(output(f"{name}-json").stdout)
    seen, out = set(), []
    for result in report.get("results", []):
        for counterexample in result.get("counterexamples") or []:
            replay = counterexample.get("replay")
            if not isinstance(replay, dict) or not replay.get("hands"):
                continue
            key = (tuple(replay["hands"]), tuple(replay.get("plays") or ()))
            if key in seen:
                continue
            seen.add(key)
            invariants = sorted({r["invariant"] for r in report["results"] for c in r.get("counterexamples") or []
                                 if isinstance(c.get("replay"), dict) and tuple(c["replay"]["hands"]) == key[0]})
            hands, trick, leader = _table_after(result["changes"], replay)
            plays = len(replay.get("plays") or [])
            out.append(table(hands, trick, leader=leader, stuck=replay.get("stuck_seat"),
                             caption=f"The deal that refutes {', '.join(invariants)} under "
                                     f"<code>{result['rules']}</code>, dealt in {dealt_in(replay)}, after {plays} "
                                     f"play{'s' * (plays != 1)}: {counterexample.get('where', '')}."))
    return "\n\n".join(out) or not_yet("The run refuted nothing with a deal.", "")


def _table_after(changes: dict, replay: dict) -> tuple[list[str], list[str], int]:
    """Return the hands, the trick on the table and its leader once a replay's plays are made on the reference."""
    from hearts_ref import Card, CardSet, Rules, start_round
    state = start_round(Rules(**changes), tuple(CardSet.parse(h) for h in replay["hands"]), direction="none")
    for play in replay.get("plays") or []:
        state = state.play(Card.parse(play))
    return ([str(state.hand(seat)) for seat in range(len(replay["hands"]))],
            [str(card) for card in state.current_trick()], state.leader)


def sweep(adapter: str) -> str:
    """Return the chart of the conformance runs recorded for ``adapter``: per setting, its cases and deviations."""
    data, missing = read_json(DATA / "conformance" / f"{adapter}.json")
    if data is None:
        return not_yet(f"No conformance run of `{adapter}` is recorded ({missing}).", "`python docs/build.py` records them.")
    rows = []
    for run in data.get("runs", []):
        summary = (run.get("report") or {}).get("summary", {})
        setting = ", ".join(f"{k} = {json.dumps(v)}" for k, v in (run.get("set") or {}).items())
        rules = {rule: row["failed"] for rule, row in summary.get("rules", {}).items() if row.get("failed")}
        rows.append((setting or f"the {adapter} preset", summary.get("counts", {}), rules))
    chart = sweep_chart(rows, title=f"Conformance runs of {adapter}: cases and deviations per setting")
    return (f'<figure class="hr-chart-figure">{chart}<figcaption>The runs recorded in '
            f'<code>docs/data/conformance/{adapter}.json</code>: each setting on top of the <code>{adapter}</code> '
            "preset, its cases passed, failed and skipped, and the rules whose cases failed, with how many."
            "</figcaption></figure>")


def fill(markdown: str, page: str) -> str:
    """Return ``markdown`` with each include marker replaced by what it names, rule IDs linked and cards drawn."""
    def one(match: re.Match[str]) -> str:
        what = match["what"]
        if what == "tour":
            return tour()
        if what.startswith("conform-run:"):
            return recorded_run(what.removeprefix("conform-run:"))
        if what.startswith(("run:", "run-short:")):
            kind, _, name = what.partition(":")
            return console(name, shorten=kind == "run-short")
        if what.startswith("drawing:"):
            return counterexample_drawing(what.removeprefix("drawing:"))
        if what.startswith("chart:"):
            return sweep(what.removeprefix("chart:"))
        if what.startswith("file:"):
            return repository_file(what.removeprefix("file:"))
        if what.startswith("help:"):
            return f"```console\n{command_help(what.removeprefix('help:'))}\n```"
        if what.startswith("README.md#"):
            return readme_section(what.split("#", 1)[1])
        raise ValueError(f"{page}: unknown include marker {match.group(0)}")
    from sitegen.conformance_pages import link_case_ids
    from sitegen.rules_pages import spec_text
    return link_case_ids(outside_fences(MARKER.sub(one, markdown), lambda part: spec_text(part, page)), page)
