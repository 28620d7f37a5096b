"""``hearts-ref diff A B``: what a house rule changes — two rulesets equivalent in play (proved), or the smallest
game in which they part.

Usage::

    hearts-ref diff A B [--json] [--records DIR] [--timeout S]
    hearts-ref diff --matrix [--json]

Each side is a ruleset written as a preset name and ``name=value`` settings, quoted as one
argument: ``hearts-ref diff seed000 "seed000 qs_breaks_hearts=true"``. Side B may be settings
alone, which change side A: ``hearts-ref diff openspiel ties=play-on``. ``--matrix`` compares
every preset with every other and each variant parameter with seed000 on its own (the data of
the docs page "What does a house rule change?").

The report says, for the two rulesets and for each parameter they differ in on its own,
either *equivalent in play* — proved: in no state a game can reach do the legal plays, whether
hearts are broken, the points taken, the round scores, the end of the game or a pass
direction differ, with what each part of the proof covers — or *different*, with the smallest
game that shows it (fewest rounds, then fewest plays), drawn: the hands, the tricks, the play
where the sides part and the rule each side applies there, as replayed on the reference engine
under both rulesets. ``--records DIR`` writes that game as each side plays it on to the end of
that round, ``DIR/a.json`` and ``DIR/b.json`` (``spec/record.schema.json``), for
``hearts-ref referee``. Sides that part first in whether hearts are broken, where that restricts
the plays (``must_break_hearts`` on both sides), are played on: the report adds the first play found
whose legal cards differ (played on from the smallest game, and the soonest of 400 rounds played
under both in step: :mod:`hearts_ref.diff.consequence`), with the play before which z3 proves no
round can differ (:mod:`hearts_ref.diff.soonest`): where the two meet, the play is proved the
soonest. ``--json`` prints:

.. code-block:: text

    {"version": 1,
     "a": {"label": "seed000", "changes": {}}, "b": {"label": "seed001", "changes": {...}},
     "differ_in": ["first_trick_points", "end_comparison"],
     "verdict": "equivalent" | "different" | "unsettled", "summary": "differs in round 1 at play 2: ...",
     "seconds": 1.2,
     "proof": [{"part": "the legal plays", "status": "same" | "proved" | "unsettled", "covers": "...",
                "queries": 0}, ...],             # for an equivalence: what was proved, over which states
     "open": [...],                              # why it is not settled, or why the game may not be the smallest
     "in_play": null | {the same shape},         # parted first in hearts broken, which restricts no play on either
                                                 # side (must_break_hearts = false): A against B breaking hearts as A
     "consequence": null | {"round": 1, "play": 5, "broken_at": 2,   # parted first in hearts broken, which
        "broken_card": "QS", "games": 0,                # restricts a play: the first play found whose legal cards
        "soonest": true, "claim": "proved the soonest: ...",   # differ, after play broken_at (broken_card) broke
        "bound": {"play": 5, "status": "proved", "queries": 1} | null,   # hearts on one side only; games: the
        "rules": ["LEAD-HEARTS", null], "values": {"legal": [...]},   # random rounds searched; bound: no play
        "a": {...}, "b": {...},                         # before bound.play can differ (z3); soonest: play is it
        "game": [{"hands": [...], "plays": [...]}], "transcript": [...]},
     "difference": null | {"kind": "legal" | "broken" | "points" | "scores" | "end" | "pass" | "deal",
        "round": 1, "play": 2, "plays": 2,        # where they part (play 0: the deal); plays in the game so far
        "card": "QS" | null, "values": {"legal": ["QS 2H ...", ""]},   # what each side shows there
        "smallest": true, "note": "", "rules": ["FIRST-NO-POINTS", "FIRST-EXCEPTION"],
        "a": {"applies": [...], "shows": "..."}, "b": {"applies": [...], "shows": "..."},
        "game": [{"hands": ["2C 3C ...", ...], "plays": ["2C", ...]}, ...],   # hands at the first lead, per round
        "transcript": ["Round 1: ...", ...],
        "records": {"a": {game record}, "b": {game record}} | null},
     "parameters": [{"parameters": ["first_trick_points"], "together": "", "values": {...},
                     "comparison": {the same shape, without records}}, ...]}

Exit codes: 0 equivalent (proved: the same in play and in what they show), 1 different (in play, or only
in what they show, such as when hearts count as broken, while ALIKE in play; or not settled: ``verdict``
says which), 2 bad input (an unknown preset or parameter names the closest valid ones).
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path
from typing import Any

from hearts_ref.commands import positive_seconds
from hearts_ref.diff.compare import EQUIVALENT, Comparer, Comparison
from hearts_ref.diff.matrix import breakdown, matrix
from hearts_ref.diff.consequence import Consequence, consequence_of, restricts_by_hearts_broken
from hearts_ref.diff.report import JSON_VERSION, comparison_dict, consequence_lines, drawn, summary_line
from hearts_ref.diff.rulesets import Side, differing, parse_side, value_text
from hearts_ref.errors import HeartsError
from hearts_ref.records import dumps

__all__ = ["configure", "run", "report_lines"]


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("sides", nargs="*", metavar="RULESET",
                        help='two rulesets A and B: a preset and settings, quoted ("seed000 qs_breaks_hearts=true"); '
                             "B may be settings alone, changing A")
    parser.add_argument("--matrix", action="store_true",
                        help="every preset against every other, and each parameter against seed000 on its own")
    parser.add_argument("--json", action="store_true", help="print the comparison as JSON (its shape: the docs' command-line reference)")
    parser.add_argument("--records", metavar="DIR",
                        help="write the smallest game as each side plays it, DIR/a.json and DIR/b.json")
    parser.add_argument("--timeout", type=lambda text: positive_seconds(text, 3600), default=30.0, metavar="S",
                        help="seconds per z3 query (default 30)")
    parser.epilog = ("exit codes: 0 equivalent (proved: the same in play and in what they show), 1 different (in "
                     "play, or only in what they show while alike in play) or not settled, 2 bad input "
                     "(an unknown preset or parameter names the closest ones); --matrix, an overview, exits 0 once "
                     "drawn")


def _records_folder(text: str) -> Path:
    folder = Path(text)
    if folder.exists() and not folder.is_dir():
        raise HeartsError(f"--records {text}: not a folder")
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise HeartsError(f"--records {text}: cannot make the folder ({error.strerror})") from None
    return folder


def run(args: argparse.Namespace) -> int:
    start = time.perf_counter()
    comparer = Comparer(timeout=args.timeout)
    if args.matrix:
        if args.sides or args.records:
            raise HeartsError("--matrix compares the presets; give no RULESET and no --records with it")
        data = matrix(comparer)
        print(json.dumps(data, ensure_ascii=False, indent=1) if args.json else "\n".join(_matrix_lines(data)))
        return 0
    if len(args.sides) != 2:
        raise HeartsError(f"give two rulesets A and B (got {len(args.sides)}), for example: "
                          'hearts-ref diff seed000 "seed000 qs_breaks_hearts=true"')
    side_a = parse_side(args.sides[0], name="ruleset A")
    side_b = parse_side(args.sides[1], base=side_a, name="ruleset B")
    folder = _records_folder(args.records) if args.records else None
    result = comparer.compare(side_a.rules, side_b.rules)
    rows = (breakdown(comparer, side_a.rules, side_b.rules, side_a.label, label_b=side_b.label)
            if len(result.parameters) > 1 else [])
    data = comparison_dict(result, side_a.label, side_b.label)
    found = consequence_of(result)
    written = _write_records(folder, data) if folder is not None else []
    if args.json:
        data = {"version": JSON_VERSION, **data, "parameters": rows}
        print(json.dumps(data, ensure_ascii=False, indent=1))
    else:
        lines = report_lines(result, side_a, side_b, data, rows, written, folder is not None, found)
        print("\n".join(lines + [f"{time.perf_counter() - start:.1f}s in all."]))
    return 0 if result.verdict == EQUIVALENT else 1


def _write_records(folder: Path, data: dict[str, Any]) -> list[Path]:
    difference = data["difference"]
    if difference is None or difference["records"] is None:
        return []
    paths = []
    for side in ("a", "b"):
        path = folder / f"{side}.json"
        try:
            path.write_text(dumps(difference["records"][side]), encoding="utf-8")
        except OSError as error:
            raise HeartsError(f"--records: cannot write {path} ({error.strerror})") from None
        paths.append(path)
    return paths


def _differ_text(side_a: Side, side_b: Side) -> str:
    names = differing(side_a.rules, side_b.rules)
    if not names:
        return "The two rulesets are the same: every parameter has the same value."
    pairs = ", ".join(f"{name} ({value_text(getattr(side_a.rules, name))} / {value_text(getattr(side_b.rules, name))})"
                      for name in names)
    return f"They differ in {pairs}."


def report_lines(result: Comparison, side_a: Side, side_b: Side, data: dict[str, Any], rows: list[dict[str, Any]],
                 written: list[Path], asked_records: bool, found: Consequence | None = None) -> list[str]:
    """The console report of one comparison; ``found``: the first play a difference in hearts broken changes."""
    lines = [f"hearts-ref diff: {side_a.label} against {side_b.label}", _differ_text(side_a, side_b), ""]
    difference = result.difference
    if result.verdict == EQUIVALENT:
        lines.append("EQUIVALENT in play (proved): in no state a game can reach do the legal plays, whether hearts "
                     "are broken, the points, the scores, the end of the game or a pass direction differ.")
        lines.append("What the proof covers:")
        lines += [f"  {part['part']}: {part['status']}" + (f" ({part['queries']} z3 queries)" if part["queries"] else "")
                  + f" — {part['covers']}" for part in data["proof"]]
    elif difference is None:
        lines.append("NOT SETTLED: neither proved equivalent nor shown different:")
        lines += [f"  {reason}" for reason in result.open]
    else:
        alike = result.in_play is not None and result.in_play.verdict == EQUIVALENT
        lines.append(("DIFFERENT in what they show, ALIKE in play: " if alike else "DIFFERENT: ")
                     + f"the sides part {summary_line(result).removeprefix('differs ')}.")
        if difference.kind == "deal":
            lines.append("No game can be played under both: they part before the first play.")
        else:
            lines.append("It is the smallest game (fewest rounds, then fewest plays): no earlier play can differ."
                         if difference.smallest else f"It may not be the smallest game: {difference.note}.")
        lines.append("")
        lines += drawn(result, side_a.label, side_b.label).lines
        lines.append("")
        lines += _records_lines(side_a, side_b, written, asked_records, data)
        if result.in_play is not None:
            lines += ["", *_in_play_lines(result.in_play, side_a, side_b)]
        if restricts_by_hearts_broken(result):
            lines += ["", *_consequence_lines(result, found, side_a, side_b)]
    if rows:
        lines += ["", "Each parameter on its own:"]
        for row in rows:
            comparison = row["comparison"]
            together = f" (together: {row['together']})" if row["together"] else ""
            lines.append(f"  {', '.join(row['parameters'])}: {comparison['a']['label']} against "
                         f"{comparison['b']['label']}: {comparison['summary']}{together}")
    return lines


def _consequence_lines(result: Comparison, found: Consequence | None, side_a: Side, side_b: Side) -> list[str]:
    """What the difference in hearts broken changes in play: the first play found whose legal cards differ."""
    if found is None:
        return ["What it changes in play: no round of those searched reaches a play whose legal cards differ."]
    rule = next(filter(None, found.rules), "the legal plays")
    return [f"What it changes in play: the first play found whose legal cards differ is play {found.part.play} of "
            f"round 1 ({rule}), after play {found.broken_at} broke hearts on one side only ({found.claim}). The round "
            "that reaches it (a deal of its own, not the smallest game's):",
            *consequence_lines(result, found, side_a.label, side_b.label)]


def _in_play_lines(in_play: Comparison, side_a: Side, side_b: Side) -> list[str]:
    """Sides that part in whether hearts are broken, which restricts no play on either (must_break_hearts = false):
    what the comparison of A with B breaking hearts as A does says of their play."""
    lines = [f"Hearts broken restricts no play under either ruleset (must_break_hearts = false): it is a state each "
             f"shows, nothing more. With it set aside ({side_b.label} breaking hearts as {side_a.label} does):"]
    if in_play.verdict == EQUIVALENT:
        return lines + ["  the sides play alike (proved): the same legal plays, points, scores, end of the game and "
                        "pass directions in every state a game can reach."]
    return lines + [f"  {summary_line(in_play)}."]


def _records_lines(side_a: Side, side_b: Side, written: list[Path], asked: bool, data: dict[str, Any]) -> list[str]:
    if data["difference"]["records"] is None:
        return ["No game record: no game is valid under both rulesets."]
    if written:
        return [f"Game records, each side played on to the end of that round: {written[0]} ({side_a.label}), "
                f"{written[1]} ({side_b.label}); check them with: hearts-ref referee {written[0]} {written[1]}"]
    return ["Game records: add --records DIR to write each side's game (DIR/a.json, DIR/b.json) "
            "for hearts-ref referee."] if not asked else []


def _matrix_lines(data: dict[str, Any]) -> list[str]:
    lines = ["hearts-ref diff --matrix: every preset against every other"]
    for pair in data["pairs"]:
        lines.append(f"  {pair['a']} against {pair['b']}: {pair['comparison']['summary']}")
    lines.append(f"Each parameter on its own, against {data['base']}:")
    for row in data["parameters"]:
        if "error" in row:
            lines.append(f"  {row['parameter']}={value_text(row['value'])}: {row['error']}")
            continue
        comparison = row["comparison"]
        together = (f" (with {', '.join(f'{n}={value_text(v)}' for n, v in row['with'].items())})"
                    if row["with"] else "")
        lines.append(f"  {row['parameter']}={value_text(row['value'])}{together}: {comparison['summary']}")
    lines.append("House rules a table argues about:")
    for example in data["examples"]:
        lines.append(f"  {example['question']} {example['a']} against {example['b']}: "
                     f"{example['comparison']['summary']}")
    lines.append(f"{data['seconds']}s in all.")
    return lines


