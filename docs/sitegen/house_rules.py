"""The page "What does a house rule change?", from a real run of ``hearts-ref diff --matrix --json``.

``docs/build.py`` runs the command and records its output unchanged in
``docs/data/house_rules.json``, and how it ran in ``docs/data/house_rules.run.json``; the page
is drawn from them at build time (the shape is documented in ``hearts_ref/commands/diff.py``):
the presets against each other (each cell linked to the smallest game of that pair), each
variant parameter on its own against seed000, and house rules a table argues about.

>>> data = {"presets": ["seed000", "seed004"], "base": "seed000", "parameters": [], "examples": [],
...         "pairs": [{"a": "seed000", "b": "seed004", "comparison": {"verdict": "different",
...                    "summary": "differs in round 1 at play 5", "differ_in": ["hearts_broken_by"],
...                    "difference": {"kind": "broken", "round": 1, "play": 5, "rules": ["BREAK-DISCARD"],
...                                   "smallest": True, "transcript": ["Round 1: ..."]}}}]}
>>> print(preset_matrix(data).splitlines()[2])
| **seed000** | — | [round 1, play 5](#pair-seed000-seed004): whether hearts are broken |
"""

from __future__ import annotations

from typing import Any

from sitegen.common import DATA, card_row, cards_in_text, escape_cell, link_rule_ids, not_yet, read_json, slug
from sitegen.rules_pages import rule_pages

__all__ = ["PAGE", "house_rules_page", "pages", "preset_matrix", "cell"]

PAGE = "house-rule-changes.md"
HOUSE_RULES = DATA / "house_rules.json"
RUN = DATA / "house_rules.run.json"
OBSERVED = {"deal": "the number of players", "pass": "the pass direction", "legal": "the legal plays",
            "broken": "whether hearts are broken", "points": "the points taken", "scores": "the round scores",
            "end": "whether the game is over"}

INTRO = """# What does a house rule change?

A table argues: does "the Q♠ breaks hearts" change anything when any heart breaks them anyway?
`hearts-ref diff A B` answers for any two rulesets, a preset and `name=value` settings each
(`hearts-ref diff seed000 "seed000 qs_breaks_hearts=true"`), in one of two ways:

- **equivalent in play**, proved: in no state a game can reach do the legal plays, whether hearts
  are broken, the points taken, the round scores, the end of the game or a pass direction differ;
- **different**, with the **smallest game** that shows it — fewest rounds, then fewest plays —
  replayed on the reference engine under both rulesets, and each side's game record for
  `hearts-ref referee`.

How it is found. The engine's own rule functions — `legal_plays`, `breaks_hearts`, `card_points`,
`score_terms` — run on the z3 card-set algebra with the hand symbolic, in every context of a play
(leading or following each suit, the first trick or a later one, hearts broken or not) and for
every hand of a size that context allows. A context no round can reach is left out only when z3
proves it (no legal first-trick play breaks hearts; every legal lead of a heart breaks them). A
one-step difference z3 finds is then searched for from real deals, so that only a game that reaches
it counts; a difference in the scores or the end is shown with rounds built to order. Each proof
part says which states it covers, and where the search cannot show that no smaller game exists,
the game is marked *not proved smallest*.

## What a proof of equivalence covers {#what-a-proof-covers}

Two rulesets are equivalent in play when, for every sequence of deals, passes and plays legal on
both sides, everything a player could see is the same on both sides at every step: the legal
plays of the player to move, whether hearts are broken, the points each player has taken, the
round scores and totals, whether the game is over and who won, and each round's pass direction.
By induction over the steps of a game it is enough that one step never differs from a state both
sides can reach, and the proof shows that in three parts:

1. **A play.** In every context of a play and for every hand of a size that context allows — a
   superset of the states a round can reach — the legal sets, whether a legal play breaks hearts,
   and the points of each card are equal (z3 proves it, or the two formulas are the same z3 terms
   because the sides agree on every parameter the rule code reads). Hands of a later trick lack the
   lowest club, which LEAD-OPEN plays on the first. A context is left out only when no round can
   reach it, and then for a proved reason: the first trick with hearts broken when no legal
   first-trick play breaks them; following a suit with hearts unbroken when every legal lead of that
   suit breaks them. Every state a round can reach can be reached in round 1, whatever the pass, up
   to turning the table: the hands at the first lead can be any deal of the sizes round 1 deals. With
   uneven hands the extra cards sit on the dealer's left, so a later round's state is a state of
   round 1 turned by as many seats as its dealer is from seat 0, and every seat plays by the same rules.
2. **The scores.** For every division of the cards in play into the piles the players take, the
   raw points and the round scores are equal.
3. **The end and the passes.** After every round a game can reach, for every total, the end of the
   game and the next round's pass direction are equal. END-THRESHOLD reads the totals only through
   the highest one and WIN-TIE only through whether the lowest is shared, so one total per class of
   highest total that the two thresholds make, with the lowest alone and shared, stands for all; the
   round number matters only against a round limit and in the pass cycles, which repeat every 12
   rounds.

The proof is about the engine's rule code (the functions the engine plays with). Each rule also
has a formal statement written from the prose, and the [proofs](proofs.md) show the engine equal to
those statements, so an equivalence of the code is one of the statements too. From Python the
comparison can also be run on a bundle of statements directly (`hearts_ref.diff.semantics`).
"""


def _pair_anchor(a: str, b: str) -> str:
    return f"pair-{slug(a)}-{slug(b)}"


def value_text(value: Any) -> str:
    """A variant value as a setting writes it (``true``, ``any-heart``, ``>=``)."""
    return str(value).lower() if isinstance(value, bool) else str(value)


def _parameter_anchor(row: dict[str, Any]) -> str:
    value = {">=": "ge", ">": "gt"}.get(row["value"], value_text(row["value"]))
    return f"param-{slug(row['parameter'])}-{slug(value)}"


def cell(comparison: dict[str, Any], anchor: str) -> str:
    """One matrix cell: ``equivalent``, or where the sides part, linked to the smallest game."""
    difference = comparison.get("difference")
    if comparison.get("verdict") == "equivalent":
        return f"[equivalent](#{anchor})"
    if not difference:
        return f"[not settled](#{anchor})"
    where = "the deal" if difference["kind"] == "deal" else (
        f"round {difference['round']}, the deal" if not difference["play"] else
        f"round {difference['round']}, play {difference['play']}")
    mark = "" if difference.get("smallest") else " (not proved smallest)"
    return f"[{where}](#{anchor}): {OBSERVED.get(difference['kind'], difference['kind'])}{mark}"


def preset_matrix(data: dict[str, Any]) -> str:
    """The presets against each other, each cell where the pair parts."""
    presets = data["presets"]
    found = {}
    for pair in data["pairs"]:
        anchor = _pair_anchor(pair["a"], pair["b"])
        found[pair["a"], pair["b"]] = found[pair["b"], pair["a"]] = cell(pair["comparison"], anchor)
    lines = ["| | " + " | ".join(presets) + " |", "|---" * (len(presets) + 1) + "|"]
    for row in presets:
        cells = ["—" if row == column else found.get((row, column), "not compared") for column in presets]
        lines.append(f"| **{row}** | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def _game(comparison: dict[str, Any], anchor: str, title: str, page: str) -> list[str]:
    """A section: the verdict, the rules, each parameter on its own, and the smallest game's transcript."""
    summary = comparison["summary"]
    out = [f"### {escape_cell(title)} {{#{anchor}}}\n",
           link_rule_ids(f"`{comparison['a']['label']}` against `{comparison['b']['label']}`: **{summary}**.", page,
                         rule_pages()) + "\n"]
    difference = comparison.get("difference")
    if difference:
        if difference.get("note"):
            out.append(f"Not proved smallest: {escape_cell(difference['note'])}.\n")
        out += _drawn(comparison, difference, page)
    if comparison.get("consequence"):
        out += _consequence(comparison, comparison["consequence"], page)
    proof = [] if difference else comparison.get("proof") or []
    for part in proof:
        out.append(f"- *{part['part']}*: {part['status']} — " + link_rule_ids(part["covers"], page, rule_pages()))
    for reason in comparison.get("open") or []:
        out.append(f"- open: {escape_cell(reason)}")
    out.append("")
    return out


def _drawn(comparison: dict[str, Any], difference: dict[str, Any], page: str) -> list[str]:
    """The round where the sides part drawn with cards — the hands at its first lead, the plays both sides make —
    what each side then shows, and the whole transcript (folded)."""
    out = []
    game = difference.get("game") or []
    if game:
        number = len(game)
        out.append(f"Round {number}, the hands at the first lead (after the pass), and the plays both sides make"
                   + (f" (rounds 1 to {number - 1} are in the transcript)" if number > 1 else "") + ":\n")
        out += [f"- {card_row(hand.split(), label=f'seat {seat}')}" for seat, hand in enumerate(game[-1]["hands"])]
        plays, players = game[-1]["plays"], len(game[-1]["hands"])
        if not plays:
            out.append("- no play: they part at the deal")
        elif len(plays) <= 3 * players:
            out += [f"- {card_row(plays[k:k + players], label=f'trick {k // players + 1}')}"
                    for k in range(0, len(plays), players)]
        else:
            out.append(f"- the {len(plays)} plays of the round: see the transcript")
        out.append("")
    return out + _sides_and_transcript(comparison, difference, page, "The transcript, as `hearts-ref diff` prints it")


def _sides_and_transcript(comparison: dict[str, Any], shown: dict[str, Any], page: str, title: str) -> list[str]:
    """What each side shows (``shown``: a difference or a consequence), then its transcript, folded under ``title``."""
    out = [f"- **{comparison[side]['label']}**: " + link_rule_ids(
        cards_in_text(escape_cell(shown.get(side, {}).get("shows", ""))), page, rule_pages()) for side in ("a", "b")]
    out.append("")
    out.append(f'??? abstract "{title}"\n')
    out.append("    ```text\n" + "\n".join(f"    {line}" for line in shown.get("transcript") or []) + "\n    ```\n")
    return out


def _consequence(comparison: dict[str, Any], found: dict[str, Any], page: str) -> list[str]:
    """Sides that part in whether hearts are broken, where that restricts a play: the first play found that it
    changes (``hearts-ref diff`` searches rounds played in step), what each side allows there, its transcript."""
    rule = next(filter(None, found["rules"]), "the legal plays")
    out = [link_rule_ids(f"What it changes in play: the first play found whose legal cards differ is **play "
                         f"{found['play']}** of round {found['round']} ({rule}), after play {found['broken_at']} "
                         f"({found['broken_card']}) broke hearts on one side only: {found['claim']}.", page,
                         rule_pages()) + "\n"]
    title = "The round that reaches it, as `hearts-ref diff` prints it"
    return out + _sides_and_transcript(comparison, found, page, title)


def _breakdown(rows: list[dict[str, Any]], page: str) -> list[str]:
    if not rows:
        return []
    out = ["Each parameter the pair differs in, on its own:\n"]
    for row in rows:
        comparison = row["comparison"]
        together = f" (with {', '.join(row['parameters'][1:])}: {row['together']})" if row.get("together") else ""
        out.append(f"- `{comparison['a']['label']}` against `{comparison['b']['label']}`: "
                   + link_rule_ids(comparison["summary"], page, rule_pages()) + escape_cell(together))
    return out + [""]


def _run_line(run: Any) -> str:
    if not isinstance(run, dict):
        return ""
    parts = [f"`{run['command']}`" if run.get("command") else "", f"on {run['started']}" if run.get("started") else "",
             f"in {run['seconds']:.1f} s" if isinstance(run.get("seconds"), (int, float)) else ""]
    versions = ", ".join(f"{k} {run[k]}" for k in ("hearts_ref", "z3", "python", "git_commit", "platform") if run.get(k))
    return "Recorded run: " + " ".join(p for p in parts if p) + (f" ({versions})" if versions else "") + ".\n"


def house_rules_page() -> str:
    """The whole page, from the recorded run (or a note saying how to record one)."""
    data, missing = read_json(HOUSE_RULES)
    out = [INTRO]
    if not isinstance(data, dict) or not isinstance(data.get("pairs"), list):
        out.append(not_yet(f"No recorded run of the comparisons: {missing or 'it holds no pairs'}.",
                           "Run `python docs/build.py` (it runs `hearts-ref diff --matrix --json` and records the "
                           "run in `docs/data/`), then build the site again."))
        return "\n".join(out)
    out.append(_run_line(read_json(RUN)[0]) + "The raw output: [house_rules.json](data/house_rules.json).\n")
    out += ["## The presets against each other\n",
            "Where each pair of presets first parts; the link leads to that smallest game.\n", preset_matrix(data), ""]
    out += [f"## Each parameter on its own, from {data['base']}\n",
            "| parameter | value | with | verdict |", "|---|---|---|---|"]
    for row in data["parameters"]:
        if "error" in row:
            out.append(f"| `{row['parameter']}` | `{value_text(row['value'])}` | | {escape_cell(row['error'])} |")
            continue
        partners = ", ".join(f"`{name}={value_text(value)}`" for name, value in (row.get("with") or {}).items())
        out.append(f"| `{row['parameter']}` | `{value_text(row['value'])}` | {partners} | "
                   f"{cell(row['comparison'], _parameter_anchor(row))} |")
    out.append("")
    if data.get("examples"):
        out += ["## House rules a table argues about\n"]
        for example in data["examples"]:
            anchor = "example-" + slug(example["question"])[:48]
            out.append(f"- {escape_cell(example['question'])} `{example['a']}` against `{example['b']}`: "
                       f"{cell(example['comparison'], anchor)}")
        out.append("")
        for example in data["examples"]:
            anchor = "example-" + slug(example["question"])[:48]
            out += _game(example["comparison"], anchor, example["question"], PAGE)
    out.append("## The smallest games of the presets\n")
    for pair in data["pairs"]:
        out += _game(pair["comparison"], _pair_anchor(pair["a"], pair["b"]), f"{pair['a']} against {pair['b']}", PAGE)
        out += _breakdown(pair.get("parameters") or [], PAGE)
    out.append("## The smallest game of each parameter\n")
    for row in data["parameters"]:
        if "comparison" in row:
            title = f"{row['parameter']} = {value_text(row['value'])}"
            out += _game(row["comparison"], _parameter_anchor(row), title, PAGE)
    return "\n".join(out)


def pages() -> dict[str, str]:
    """The generated pages of this module by their path under ``docs/``."""
    return {PAGE: house_rules_page()}
