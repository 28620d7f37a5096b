"""The variant matrix: hearts-ref's parameters beside those of other engines, with how each cell is known.

An engine's rules are recorded by hand in ``docs/data/engines/<adapter>.json`` from its
source (file and commit named there). At build time, each cell gains what could be
checked: the parameter names and defaults of the installed engine (for OpenSpiel, read
from ``pyspiel``), and the verdicts of the conformance runs that ``docs/build.py``
recorded in ``docs/data/conformance/<adapter>.json``. Only what was checked is shown.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from hearts_ref.errors import HeartsError
from hearts_ref.variants import PARAMETERS, PRESETS, Rules
from sitegen.common import DATA, not_yet, read_json
from sitegen.rules_pages import spec_text

__all__ = ["matrix_page", "installed_parameters", "engine_rows", "findings_page", "game_ends_section"]

# Material's icons, drawn as inline SVG (no emoji font needed), each with its meaning as a tooltip.
SOURCE = ':material-file-code-outline:{ title="read from the source" }'
INSTALLED = ':material-cog-outline:{ title="checked against the installed engine" }'
VERIFIED = ':material-check-decagram:{ .hr-ok title="verified by a conformance run" }'
DEVIATION = ':material-alert-circle:{ .hr-bad title="a conformance run that set this value found a deviation" }'
MISMATCH = ':material-alert:{ .hr-bad title="disagrees with the installed engine or the preset" }'


def installed_parameters(engine: dict[str, Any]) -> tuple[dict[str, Any] | None, str]:
    """Return the installed engine's parameter defaults (and number of players), and its version; None when absent."""
    game = engine.get("pyspiel_game")
    if not game:
        return None, ""
    try:
        import importlib.metadata
        import pyspiel
    except ImportError:
        return None, ""
    loaded = pyspiel.load_game(game)
    found = dict(loaded.get_parameters())
    found["(players)"] = loaded.num_players()
    try:
        version = importlib.metadata.version(engine.get("package", "open_spiel"))
    except importlib.metadata.PackageNotFoundError:
        version = "?"
    return found, version


def _runs(adapter: str) -> tuple[list[dict[str, Any]], str | None]:
    data, missing = read_json(DATA / "conformance" / f"{adapter}.json")
    if data is None:
        return [], missing
    runs = data.get("runs", []) if isinstance(data, dict) else []
    for run in runs:
        try:
            run["rules"] = Rules.preset(run.get("preset", "seed000"), **(run.get("set") or {}))
        except (HeartsError, TypeError):
            run["rules"] = None
    return [run for run in runs if run["rules"] is not None], None


def _evidence(name: str, value: Any, runs: list[dict[str, Any]], findings: str = "") -> str:
    """Return the conformance marks of one cell: verified by a run without deviation, or a deviation found.

    A run without deviation verifies every value it played under. A deviation is marked only on
    the values the failing run *set* on top of the preset: those are what it tried; the other
    values it shares with the runs that passed.
    """
    played = [run for run in runs if getattr(run["rules"], name) == value]
    marks = ""
    if any(run.get("exit_code") == 0 for run in played):
        marks += VERIFIED
    if any(run.get("exit_code") == 1 and name in (run.get("set") or {}) for run in played):
        marks += f"[{DEVIATION}]({findings})" if findings else DEVIATION
    return marks


def _setting(run: dict[str, Any]) -> str:
    """Return what a run set on top of its preset, in words."""
    changes = ", ".join(f"`{name} = {json.dumps(value)}`" for name, value in (run.get("set") or {}).items())
    return f"the run with {changes}" if changes else f"the run under the preset `{run.get('preset')}` itself"


def _show(value: Any) -> str:
    return f"`{json.dumps(value)}`"


def findings_page(adapter: str) -> str:
    """Return the page of the findings on an engine (``docs/<adapter>-findings.md``), or "" when it has none."""
    return f"{adapter}-findings.md" if (DATA.parent / f"{adapter}-findings.md").is_file() else ""


def engine_rows(engine: dict[str, Any], installed: dict[str, Any] | None,
                runs: list[dict[str, Any]]) -> list[dict[str, str]]:
    """Return the matrix rows of one engine: each hearts-ref parameter with the engine's settings and evidence."""
    findings = findings_page(engine["adapter"])
    preset = Rules.preset(engine["adapter"]) if engine["adapter"] in PRESETS else None
    recorded = {row["parameter"]: row for row in engine["rows"]}
    rows = []
    for parameter in PARAMETERS:
        row = recorded.get(parameter.name)
        ours = getattr(preset, parameter.name) if preset else None
        allowed = [False, True] if parameter.values is bool else (None if parameter.values is int else list(parameter.values))
        cells, offered, warnings = [], [], []
        if row is None:
            cells.append("not recorded")
        elif "openspiel" in row:
            for setting, value in row["map"].items():
                is_default = json.loads(setting) == row["default"]
                marks = SOURCE
                if installed is not None and row["openspiel"] in installed:
                    marks += INSTALLED
                    if is_default and installed[row["openspiel"]] != row["default"]:
                        warnings.append(f"{MISMATCH} the installed default is `{json.dumps(installed[row['openspiel']])}`")
                marks += _evidence(parameter.name, value, runs, findings)
                label = " (default)" if is_default else ""
                if not cells:
                    cells.append(f"`{row['openspiel']}`")
                cells.append(f"{setting}{label} ⇒ {_show(value)} {marks}")
                offered.append(value)
                if is_default and preset is not None and ours != value:
                    warnings.append(f"{MISMATCH} the `{engine['adapter']}` preset has {_show(ours)}")
        elif row.get("fixed") is None:
            cells.append("not applicable " + SOURCE)
        else:
            value, marks = row["fixed"], SOURCE
            if parameter.name == "players" and installed is not None:
                marks += INSTALLED
                if installed["(players)"] != value:
                    warnings.append(f"{MISMATCH} the installed game has {installed['(players)']} players")
            cells.append(f"always {_show(value)} {marks}{_evidence(parameter.name, value, runs, findings)}")
            offered.append(value)
            if preset is not None and ours != value:
                warnings.append(f"{MISMATCH} the `{engine['adapter']}` preset has {_show(ours)}")
        missing = [v for v in allowed if v not in offered] if allowed is not None and offered else []
        rows.append({"parameter": f"[`{parameter.name}`](variants.md#{parameter.name})",
                     "default": _show(parameter.default), "preset": _show(ours) if preset else "—",
                     "engine": "<br>".join(cells + warnings),
                     "cannot": ", ".join(_show(v) for v in missing) or ("—" if allowed is not None else "other values"),
                     "how": spec_text(row["how"], "matrix.md") if row else ""})
    return rows


def _engine_section(path: Path) -> str:
    engine, error = read_json(path)
    if error:
        return f'!!! warning "Could not read"\n\n    {error}\n'
    installed, version = installed_parameters(engine)
    runs, no_runs = _runs(engine["adapter"])
    src = engine["source"]
    out = [f"## {engine['engine']} {{#{engine['adapter']}}}\n",
           f"{SOURCE} Read from `{src['path']}` of `{src['repository']}` at commit `{src['commit'][:12]}` "
           f"({src['read']}).\n"]
    if installed is not None:
        out.append(f"{INSTALLED} Parameter names and defaults checked against the installed "
                   f"`{engine.get('package')}` {version} when this site was built.\n")
    if runs:
        passed = sum(1 for run in runs if run.get("exit_code") == 0)
        findings = findings_page(engine["adapter"])
        failed = [f"[{_setting(run)}]({findings})" if findings else _setting(run)
                  for run in runs if run.get("exit_code") == 1]
        found = (f" A deviation was found by {', '.join(failed)} ({DEVIATION} on the values it set"
                 f"{', and links to the findings' if findings else ''})." if failed else "")
        out.append(f"{VERIFIED} {len(runs)} conformance runs recorded by `docs/build.py`, {passed} without deviation: "
                   f"[{engine['adapter']}.json](data/conformance/{engine['adapter']}.json).{found}\n")
    else:
        out.append(not_yet(f"No conformance run of {engine['engine']} is recorded ({no_runs or 'no runs in the file'}),"
                           f" so no cell is marked {VERIFIED}.",
                           "`python docs/build.py` runs `hearts-ref conform` on this engine under each setting "
                           "when the command is available, and records the verdicts."))
    rows = engine_rows(engine, installed, runs)
    heads = ["parameter", "hearts-ref default", f"preset `{engine['adapter']}`", engine["engine"],
             f"values {engine['engine']} cannot play"]
    # Each cell repeats its column's name for narrow screens, where the table is drawn one parameter per block.
    label = [f'<span class="hr-label">{spec_text(head, "matrix.md")}: </span>' for head in heads]
    out += ['<div class="hr-matrix" markdown>\n', "| " + " | ".join(heads) + " |", "|---|---|---|---|---|"]
    out += [f"| {row['parameter']} | {label[1]}{row['default']} | {label[2]}{row['preset']} | "
            f"{label[3]}{row['engine']} | {label[4]}{row['cannot']} |" for row in rows]
    out += ["\n</div>\n", f"**Notes on {engine['engine']}.**\n"]
    out += [f"- {row['parameter']}: {row['how']}" for row in rows if row["how"]]
    return "\n".join(out) + "\n"


def game_ends_section() -> str:
    """Whether every game ends, from the recorded proofs (GAME-ENDS): the bound N of each preset, and the game-level
    settings under which some game never ends, by the kind of never-ending game shown."""
    data, missing = read_json(DATA / "proofs.json")
    results = [r for r in (data or {}).get("results") or [] if isinstance(r, dict) and r.get("invariant") == "GAME-ENDS"]
    if not results:
        return not_yet(f"No recorded GAME-ENDS proof ({missing or 'none in the run'}).",
                       "`python docs/build.py` records `hearts-ref prove --all --deep --json`.")
    out = ["## Does every game end? {#game-ends}\n",
           "GAME-ENDS, from the recorded proofs ([the argument and the games](proofs.md#GAME-ENDS)).\n",
           "| preset | every game ends |", "|---|---|"]
    for r in results:
        argument = r.get("argument") or []
        outcome = argument[0] if argument else (r.get("detail") or r.get("status", "?"))
        out.append(f"| `{r.get('rules')}` | {outcome} |")
    combos = ((data.get("combinations") or {}).get("results") or []) if isinstance(data, dict) else []
    kinds: dict[str, list[str]] = {}
    for entry in combos:
        witness = entry.get("witness") if entry.get("invariant") == "GAME-ENDS" else None
        if witness:
            kinds.setdefault(str(witness.get("summary", "")).split(";")[0], []).append(str(entry.get("values", "")))
    if kinds:
        out.append("\nSettings of the game-level parameters under which some game never ends, by the game shown:\n")
        out += [f"- {kind}: {len(values)} settings, such as `{values[0]}`" for kind, values in kinds.items()]
    return "\n".join(out) + "\n"


def matrix_page() -> str:
    """Return the variant matrix page: one table per engine recorded in ``docs/data/engines/``."""
    engines = sorted((DATA / "engines").glob("*.json"))
    out = ["---\nhide:\n  - toc\n---\n", "# Variant matrix\n",
           "How hearts-ref's variant parameters compare with other Hearts engines, and which of hearts-ref's "
           "values each engine can play. Only engines that hearts-ref actually checks are listed.\n",
           "**How each cell is known.**\n",
           f"- {SOURCE} read by hand from the engine's source (the file and commit are named);",
           f"- {INSTALLED} checked, when the site was built, against the installed engine's own parameter list;",
           f"- {VERIFIED} verified by a recorded conformance run under that setting, with no deviation;",
           f"- {DEVIATION} a recorded conformance run that set that value found a deviation;",
           f"- {MISMATCH} the recorded value disagrees with the installed engine or with hearts-ref's preset.\n"]
    if not engines:
        out.append(not_yet("No engine is recorded in `docs/data/engines/`.", "Add one JSON file per engine."))
    out += [_engine_section(path) for path in engines]
    out.append(game_ends_section())
    return "\n".join(out)
