"""The proofs page, from a real run of ``hearts-ref prove --all --json`` recorded in ``docs/data/``.

``docs/build.py`` runs the command and writes its output unchanged to ``docs/data/proofs.json``
and how it ran (command, date, duration, versions, exit code) to ``docs/data/proofs.run.json``.
This page reads them if they exist. The reading is tolerant of the exact JSON shape: it
looks for objects with a verdict (``status``, ``result`` or ``verdict``) and takes the
invariant, its statement, its rule IDs and the preset from that object or the objects
around it, so a flat list of results and a list of invariants each with its results both work.

>>> data = {"invariants": [{"id": "POINTS-SUM", "statement": "26 per round", "rules": ["SCORE-POINTS"],
...         "results": [{"preset": "seed000", "status": "proved", "seconds": 0.25}]}]}
>>> [(r["invariant"], r["preset"], r["status"], r["rules"]) for r in proof_results(data)]
[('POINTS-SUM', 'seed000', 'proved', ['SCORE-POINTS'])]
>>> [(r["preset"], r["status"]) for r in proof_results({"id": "POINTS-SUM", "seed001": {"result": "Refuted"}})]
[('seed001', 'refuted')]
>>> "hr-card" in draw({"hands": [["QS", "2H"], "3C 4C"]})
True
"""

from __future__ import annotations

import json
import re
from typing import Any

from hearts_ref.spec import RULE_ID
from hearts_ref.variants import EXPECTED_UNSOUND, PRESETS
from sitegen.common import DATA, CARD_CODE, card_row, escape_cell, not_yet, read_json, rule_link, slug
from sitegen.rules_pages import rule_pages, spec_text

__all__ = ["proof_results", "catalogue", "proofs_page", "proofs_by_rule", "draw", "invariant_anchor"]

PROOFS = DATA / "proofs.json"
RUN = DATA / "proofs.run.json"
VERDICT_KEYS = ("status", "result", "verdict", "outcome")
TIME_KEYS = ("seconds", "time", "elapsed", "duration", "time_s")
WITNESS_KEYS = ("counterexample", "witness", "model")
ICONS = {"proved": ":material-check-circle:{ .hr-ok } proved", "refuted": ":material-close-circle:{ .hr-bad } refuted",
         "timeout": ":material-timer-sand:{ .hr-bad } timed out", "timed out": ":material-timer-sand:{ .hr-bad } timed out"}
_CARDS_ONLY = re.compile(rf"^\s*{CARD_CODE}(?:[\s,]+{CARD_CODE})*\s*$")


def _rule_list(value: Any) -> list[str] | None:
    if isinstance(value, str):
        value = re.split(r"[\s,]+", value)
    if isinstance(value, list) and all(isinstance(v, str) and RULE_ID.match(v) for v in value):
        return list(value)
    return None


def _context(node: dict[str, Any], ctx: dict[str, Any]) -> dict[str, Any]:
    here = dict(ctx)
    for key in ("invariant", "id"):
        if isinstance(node.get(key), str):
            here["invariant"] = node[key]
            break
    for key in ("statement", "description", "title", "doc"):
        if isinstance(node.get(key), str):
            here["statement"] = node[key]
            break
    for key in ("rules", "rule_ids"):
        rules = _rule_list(node.get(key))
        if rules is not None:
            here["rules"] = rules
    for key in ("preset", "variant", "variants", "rules_values"):
        if node.get(key) is not None:
            value = node[key]
            here["preset"] = value if isinstance(value, str) else json.dumps(value, sort_keys=True)
            break
    return here


def proof_results(data: Any, ctx: dict[str, Any] | None = None) -> list[dict[str, Any]]:
    """Return one dict per verdict found in ``data``: invariant, statement, rules, preset, status, seconds, counterexample."""
    ctx = ctx or {}
    found: list[dict[str, Any]] = []
    if isinstance(data, list):
        for item in data:
            found.extend(proof_results(item, ctx))
    elif isinstance(data, dict):
        here = _context(data, ctx)
        verdict = next((data[k] for k in VERDICT_KEYS if isinstance(data.get(k), str)), None)
        if verdict is not None:
            found.append({"invariant": here.get("invariant", "?"), "statement": here.get("statement", ""),
                          "rules": here.get("rules", []), "preset": here.get("preset", "—"),
                          "status": verdict.lower(), "expected": data.get("expected"),
                          "seconds": next((data[k] for k in TIME_KEYS if isinstance(data.get(k), (int, float))), None),
                          "counterexample": next((data[k] for k in WITNESS_KEYS if data.get(k)), None)})
        for key, value in data.items():
            if isinstance(value, (list, dict)) and key not in WITNESS_KEYS:
                # {"seed000": {"status": …}}: a preset's name as the key names the preset.
                found.extend(proof_results(value, {**here, "preset": key} if key in PRESETS else here))
    return found


def catalogue() -> list[dict[str, Any]]:
    """Return the invariants of ``properties.catalogue.INVARIANTS`` (id, statement, rules), or [] before it exists."""
    try:
        from properties.catalogue import INVARIANTS
    except ImportError:
        return []
    out = []
    for invariant in INVARIANTS:
        statement = next((getattr(invariant, k) for k in ("statement", "description", "title", "doc")
                          if isinstance(getattr(invariant, k, None), str)), "")
        rules = next((r for k in ("rules", "rule_ids") if (r := _rule_list(list(getattr(invariant, k, None) or [])))), [])
        out.append({"invariant": invariant.id, "statement": statement, "rules": rules})
    return out


def invariant_anchor(invariant: str) -> str:
    """Return the anchor of an invariant on the proofs page: its ID when it is a plain word, else a slug."""
    return invariant if re.fullmatch(r"[A-Za-z][A-Za-z0-9_-]*", invariant) else "inv-" + slug(invariant)


def draw(value: Any, label: str = "") -> str:
    """Return a counterexample drawn as Markdown: hands and tricks as rows of cards, the rest as a list."""
    if isinstance(value, str) and _CARDS_ONLY.match(value):
        return card_row(re.findall(CARD_CODE, value), label=label)
    if isinstance(value, list) and value and all(isinstance(v, str) and _CARDS_ONLY.match(v) for v in value):
        return card_row([c for v in value for c in re.findall(CARD_CODE, v)], label=label)
    if isinstance(value, list) and value and all(isinstance(v, (list, str)) for v in value):
        rows = [draw(v, f"seat {i}") for i, v in enumerate(value)]
        return (f"**{escape_cell(label)}**<br>" if label else "") + "<br>".join(rows)
    if isinstance(value, dict):
        items = [f"- {draw(v, str(k))}" if isinstance(v, (list, str)) and _drawable(v)
                 else f"- **{escape_cell(k)}**: {draw(v)}" for k, v in value.items()]
        return "\n".join(items)
    text = json.dumps(value, ensure_ascii=False) if not isinstance(value, str) else value
    return f"**{escape_cell(label)}**: `{text}`" if label else f"`{text}`"


def _drawable(value: Any) -> bool:
    if isinstance(value, str):
        return bool(_CARDS_ONLY.match(value))
    return bool(value) and all(isinstance(v, (list, str)) and (isinstance(v, list) or _CARDS_ONLY.match(v)) for v in value)


def _verdict(result: dict[str, Any]) -> str:
    text = ICONS.get(result["status"], result["status"])
    expected = result["expected"]
    if expected is None and result["preset"] in EXPECTED_UNSOUND:
        expected = "refuted"
    if expected:
        text += " (as expected)" if str(expected).lower() == result["status"] else f" (expected {expected})"
    return text


def _run_line(run: Any) -> str:
    if not isinstance(run, dict):
        return ""
    parts = [f"`{run['command']}`" if run.get("command") else "", f"on {run['started']}" if run.get("started") else "",
             f"in {run['seconds']:.1f} s" if isinstance(run.get("seconds"), (int, float)) else "",
             f"exit code {run['exit_code']}" if "exit_code" in run else ""]
    versions = ", ".join(f"{k} {run[k]}" for k in ("hearts_ref", "z3", "python", "git_commit", "platform") if run.get(k))
    return "Recorded run: " + " ".join(p for p in parts if p) + (f" ({versions})" if versions else "") + ".\n"


def proofs_page() -> str:
    """Return the proofs page: every invariant with its statement, rules, verdict per preset, and counterexamples."""
    page = "proofs.md"
    data, missing = read_json(PROOFS)
    results = proof_results(data) if data is not None else []
    out = ["# Proofs\n",
           "hearts-ref proves its rules sound with Z3, over the engine's own rule code evaluated on symbolic "
           "hands: a legal move always exists, the first trick cannot deadlock under FIRST-EXCEPTION, the "
           "holder of the lowest club opens, and each round's points add up. Presets that follow a source "
           "literally and can deadlock are *refuted*: the proof returns a concrete counterexample, drawn below.\n"]
    out[1] = spec_text(out[1], page)
    if data is None:
        out.append(not_yet(f"No recorded run of the proofs: {missing}.",
                           "Run `python docs/build.py` (it runs `hearts-ref prove --all --json` when the command "
                           "is available and records the run in `docs/data/`), then build the site again."))
    elif not results:
        out.append(not_yet("`docs/data/proofs.json` holds no verdict this page can read.",
                           "Each verdict should be an object with `status` (proved, refuted or timeout), "
                           "`preset`, `seconds`, and the invariant's `id`, `statement` and `rules`."))
    else:
        out.append(_run_line(read_json(RUN)[0]) + "The raw output: [proofs.json](data/proofs.json).\n")
    invariants: dict[str, dict[str, Any]] = {i["invariant"]: {**i, "results": []} for i in catalogue()}
    for result in results:
        entry = invariants.setdefault(result["invariant"], {"invariant": result["invariant"], "statement": "",
                                                            "rules": [], "results": []})
        entry["statement"] = entry["statement"] or result["statement"]
        entry["rules"] = entry["rules"] or result["rules"]
        entry["results"].append(result)
    if invariants:
        out.append("| invariant | rules | verdicts |\n|---|---|---|")
        for inv in invariants.values():
            counts: dict[str, int] = {}
            for r in inv["results"]:
                counts[r["status"]] = counts.get(r["status"], 0) + 1
            summary = ", ".join(f"{n} {s}" for s, n in sorted(counts.items())) or "not run yet"
            rules = ", ".join(rule_link(r, page, rule_pages()) for r in inv["rules"])
            out.append(f"| [{inv['invariant']}](#{invariant_anchor(inv['invariant'])}) | {rules} | {summary} |")
        out.append("")
    for inv in invariants.values():
        out.append(_invariant_section(inv, page))
    return "\n".join(out)


def _invariant_section(inv: dict[str, Any], page: str) -> str:
    rules = ", ".join(rule_link(r, page, rule_pages()) for r in inv["rules"]) or "none named"
    out = [f"## {inv['invariant']} {{#{invariant_anchor(inv['invariant'])}}}\n",
           f"{escape_cell(inv['statement']) or '*No statement recorded.*'}\n", f"**Rules.** {rules}.\n"]
    if not inv["results"]:
        out.append("*Not run yet.*\n")
        return "\n".join(out)
    out.append("| preset | verdict | time |\n|---|---|---|")
    for r in inv["results"]:
        seconds = f"{r['seconds']:.2f} s" if r["seconds"] is not None else "—"
        out.append(f"| {escape_cell(r['preset'])} | {_verdict(r)} | {seconds} |")
    out.append("")
    for r in inv["results"]:
        if r["counterexample"]:
            out.append(f'<div class="hr-counterexample" markdown>\n\n**Counterexample under {escape_cell(r["preset"])}.**\n\n'
                       f"{draw(r['counterexample'])}\n\n</div>\n")
    return "\n".join(out)


def proofs_by_rule() -> dict[str, list[tuple[str, str]]]:
    """Return, for each rule ID, the invariants that concern it as (text, target); key "" is the note when there are none."""
    data, _ = read_json(PROOFS)
    entries = catalogue() + (proof_results(data) if data is not None else [])
    links: dict[str, list[tuple[str, str]]] = {}
    for entry in entries:
        for rule_id in entry["rules"]:
            target = (entry["invariant"], f"proofs.md#{invariant_anchor(entry['invariant'])}")
            if target not in links.setdefault(rule_id, []):
                links[rule_id].append(target)
    if data is None:
        links[""] = [("no run of the proofs is recorded yet", "proofs.md")]
    return links
