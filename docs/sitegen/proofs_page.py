"""The proofs page, from a real run of ``hearts-ref prove --all --deep --json`` recorded in ``docs/data/``.

``docs/build.py`` runs the command and writes its output unchanged to ``docs/data/proofs.json``
and how it ran (command, date, duration, versions, exit code) to ``docs/data/proofs.run.json``.
The JSON's shape is documented in ``hearts_ref/commands/prove.py``: ``results`` holds one
object per invariant, preset and method, with its status, expectation, time and
counterexamples; ``combinations`` summarises every variant combination of the registry.

>>> data = {"results": [{"invariant": "POINTS-PER-ROUND", "statement": "26 per round",
...         "rule_ids": ["SCORE-POINTS"], "rules": "seed000", "method": "context", "status": "proved",
...         "expected": "proved", "seconds": 0.25, "counterexamples": []}]}
>>> [(r["invariant"], r["preset"], r["method"], r["status"], r["rules"]) for r in proof_results(data)]
[('POINTS-PER-ROUND', 'seed000', 'context', 'proved', ['SCORE-POINTS'])]
>>> "hr-card" in draw({"where": "first trick", "hand": "QS 2H",
...                    "replay": {"hands": ["2C 3C", "QS 2H"], "plays": ["2C"], "stuck_seat": 1}})
True
"""

from __future__ import annotations

import re
from typing import Any

from hearts_ref.variants import EXPECTED_UNSOUND
from sitegen.common import DATA, CARD_CODE, card_row, escape_cell, not_yet, read_json, rule_link, slug
from sitegen.drawings import table
from sitegen.rules_pages import rule_pages, spec_text

__all__ = ["proof_results", "catalogue", "proofs_page", "proofs_by_rule", "outcome", "draw", "invariant_anchor",
           "counterexample_anchor"]

PROOFS = DATA / "proofs.json"
RUN = DATA / "proofs.run.json"
ICONS = {"proved": ":material-check-circle:{ .hr-ok } proved", "refuted": ":material-close-circle:{ .hr-bad } refuted",
         "timed out": ":material-timer-sand:{ .hr-bad } timed out",
         "unconfirmed": ":material-help-circle:{ .hr-bad } unconfirmed",
         "vacuous": ":material-help-circle:{ .hr-bad } vacuous"}


# What the words of a counterexample mean; the parts of Inv are those of properties.induction.invariant_parts.
READING = """## Reading a counterexample {#reading-a-counterexample}

A *context* counterexample is a hand of the player to move and the context of the play (leading, or
following a suit; the first trick or a later one; hearts broken or not) in which that hand has no
legal play.

An *inductive* counterexample speaks of the state of a round as the inductive proof sees it:

- **the shape** of the state: "seat 1 follows ♣ (seat 0 led), first trick, hearts unbroken" names the
  seat to move, the leader of the current trick and the context of the play. The proof considers every
  shape: every leader, every place in the trick, every context.
- **Inv** is the *inductive invariant*: a property of a state that holds at the deal and that every
  legal play keeps, so that it holds in every state a round can reach. It has six parts:
    - *conservation*: every card in play is in exactly one place: a hand, the trick, or one seat's
      pile of taken cards;
    - *trick*: the seats that played before the one to move (from the leader, clockwise) have one card
      each on the trick, the others none;
    - *sizes* (the "size" part): each hand holds the hand size less the tricks finished, one card fewer
      once its card is on the trick;
    - *opening*: on the first trick, the leader holds the lowest club in play or has led an opening card;
    - *broken*: once hearts are broken, a heart (or the Q♠, where it breaks hearts) is among the cards
      played;
    - *led*: the player to move leads exactly when the trick is empty, and the trick's first card is
      of the suit led.
- "**(the size, trick, opening and context parts of Inv hold)**": the parts of Inv that decide whether
  a play is legal hold in the state (the context parts: *led* and *broken*). The other parts are not
  assumed.

Such a state satisfies those parts of the invariant, and the player to move has no legal play in
it; it need not be a state that a round can reach. The hand shown is the simplest of its size with
no legal play in that context (each highest card traded for a lower one while it stays stuck), as
for a context counterexample, whichever state z3 found. The **replay** shown next to it is what makes the
refutation real (for a context counterexample too): a bounded search finds a deal of a round with no pass (the
first in the pass cycle, dealt by its dealer: with uneven hands that says which seats hold the extra cards) and
legal plays after which the player to move holds the *same hand* in the *same context* (the suit
led, first trick or not, hearts broken or not) and has no legal play, and the engine confirms it.
That is a reachable bad state of the same kind, not the same state, so the two can differ in the
seat that is stuck, the cards already on the trick and the other hands: the state may have a card
on the trick that the replay never plays, or another seat stuck than the replay's. A counterexample in a context
that no round reaches, proved (the first trick with hearts broken, where no legal play of the first trick breaks
them: `properties.reach.hearts_stay_unbroken`), is marked so and is no counterexample: a claim refuted only
there is proved. One that no replay reaches and no proof rules out is marked as possibly unreachable, and a
refutation with no reached counterexample is *unconfirmed*.
"""


def proof_results(data: Any) -> list[dict[str, Any]]:
    """Return one dict per result of the run: invariant, statement, rules, preset, method, status, expected,
    seconds, shared_with, counterexamples."""
    results = data.get("results") if isinstance(data, dict) else None
    out = []
    for r in results if isinstance(results, list) else []:
        if not isinstance(r, dict) or not isinstance(r.get("status"), str):
            continue
        out.append({"invariant": str(r.get("invariant", "?")), "statement": str(r.get("statement", "")),
                    "rules": list(r.get("rule_ids") or []), "preset": str(r.get("rules", "—")),
                    "method": str(r.get("method", "")), "status": r["status"], "expected": r.get("expected"),
                    "seconds": r.get("seconds"), "shared_with": r.get("shared_with"),
                    "counterexamples": list(r.get("counterexamples") or []),
                    "argument": [str(a) for a in r.get("argument") or []],
                    "witness": r.get("witness") if isinstance(r.get("witness"), dict) else None})
    return out


def catalogue() -> list[dict[str, Any]]:
    """Return the invariants of ``properties.catalogue.INVARIANTS``: id, statement, rules."""
    from properties.catalogue import INVARIANTS

    return [{"invariant": i.id, "statement": i.statement, "rules": list(i.rules)} for i in INVARIANTS]


def invariant_anchor(invariant: str) -> str:
    """Return the anchor of an invariant on the proofs page: its ID when it is a plain word, else a slug."""
    return invariant if re.fullmatch(r"[A-Za-z][A-Za-z0-9_-]*", invariant) else "inv-" + slug(invariant)


def _cards(text: Any) -> list[str]:
    return re.findall(CARD_CODE, text if isinstance(text, str) else " ".join(map(str, text or [])))


def replay_table(replay: dict[str, Any]) -> str:
    """Return a replay drawn on the table as the trick in progress stands: each seat's hand as that trick began
    (its dealt cards less those played on earlier tricks), the trick's cards in the middle, the seat to move marked
    when it has no legal play; the earlier tricks' plays are given in the caption."""
    dealt = [set(_cards(hand)) for hand in replay.get("hands") or []]
    plays = _cards(replay.get("plays"))
    n = len(dealt) or 4
    earlier, trick = plays[:len(plays) - len(plays) % n], plays[len(plays) - len(plays) % n:]
    seat = replay.get("stuck_seat")
    leader = next((s for s, hand in enumerate(dealt) if trick and trick[0] in hand), seat if seat is not None else 0)
    hands = [" ".join(code for code in _cards(hand) if code not in earlier) for hand in replay.get("hands") or []]
    finding = replay.get("finding")
    then = (f"then seat {seat} is to move and {escape_cell(finding) if finding else 'has no legal play'}"
            if seat is not None else "")
    before = (f"after {len(earlier) // n} trick(s) played: {' '.join(escape_cell(c) for c in earlier)}; "
              if earlier else "")
    return table(hands, trick, leader=leader, stuck=None if finding else seat,
                 caption=f"Reached on the engine from a deal ({dealt_in(replay)}): {before}{then}.")


def dealt_in(replay: dict[str, Any]) -> str:
    """The round a replay's deal is dealt in: ``round 4, dealt by seat 3, no pass`` (``no pass`` when not recorded)."""
    if not isinstance(replay.get("round"), int) or not isinstance(replay.get("dealer"), int):
        return "no pass"
    return f"round {replay['round']}, dealt by seat {replay['dealer']}, no pass"


def _deal_key(replay: dict[str, Any]) -> tuple[Any, ...]:
    return (tuple(map(str, replay.get("hands") or [])), tuple(map(str, replay.get("plays") or [])),
            replay.get("stuck_seat"), replay.get("finding"))


def draw(counterexample: dict[str, Any], drawn: dict[tuple[Any, ...], tuple[str, str]] | None = None,
         here: tuple[str, str] = ("", "")) -> str:
    """Return a counterexample drawn as Markdown: the context, the hand, and the deal and plays that reach it.

    ``drawn`` maps each replay already drawn on the page to its anchor and title: such a replay is linked, not
    drawn again; this one is recorded there under ``here`` (its anchor and title).
    """
    out = []
    if counterexample.get("where"):
        out.append(f"- **where**: {escape_cell(counterexample['where'])}")
    if counterexample.get("hand"):
        out.append(f"- **hand of the player to move**: {card_row(_cards(counterexample['hand']))}")
    blocked = [b for b in counterexample.get("blocked_by") or [] if isinstance(b, dict) and b.get("rule")]
    if blocked:
        settings = ", ".join(escape_cell(str(s)) for s in counterexample.get("settings") or [])
        said = (f"{blocked[0]['rule']} forbids every card of the hand" if len(blocked) == 1 else
                "; ".join(f"{b['rule']} forbids {card_row(_cards(b.get('cards')))}" for b in blocked))
        out.append(f"- **blocked by**: {said}" + (f" ({settings})" if settings else ""))
    sets = counterexample.get("sets")
    for name, shown in (sets.items() if isinstance(sets, dict) else []):
        if not name.startswith("hand"):
            out.append(f"- **{escape_cell(name)}**: {card_row(_cards(shown))}")
    replay = counterexample.get("replay")
    if isinstance(replay, dict):
        key = _deal_key(replay)
        if drawn is not None and key in drawn:
            anchor, title = drawn[key]
            out.append(f"- **replay**: reached on the engine from the same deal and plays as [{title}](#{anchor}) "
                       f"({dealt_in(replay)}; the same hand in the same context).")
        else:
            if drawn is not None:
                drawn[key] = here
            out.append(f"- **replay: reached on the engine from this deal** ({dealt_in(replay)}; the same hand in the "
                       "same context):")
            out.append("\n" + replay_table(replay) + "\n")
    elif counterexample and not any("no round reaches" in note for note in counterexample.get("notes") or []):
        out.append("- not reached by the bounded search from a deal: it may be unreachable")
    for note in counterexample.get("notes") or []:
        out.append(f"- {escape_cell(note)}")
    return "\n".join(out)


def _verdict(result: dict[str, Any]) -> str:
    text = ICONS.get(result["status"], result["status"])
    expected = result["expected"]
    if expected is None and result["preset"] in EXPECTED_UNSOUND:
        expected = "refuted"
    if expected and expected != "n/a":
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
           "cards: a legal move always exists, the first trick cannot deadlock under FIRST-EXCEPTION, the "
           "holder of the lowest club opens, and each round's points add up. Every rule also has a formal "
           "statement written from its text ([the statements](#formal-statements)), and the `*-AS-STATED` proofs "
           "show that the engine computes exactly what they say: its legal plays, its rejections, its scores, its "
           "trick winner, hearts breaking, the pass, and what a play does to the round (the engine's own "
           "RoundState.play, run on symbolic cards). GAME-ENDS bounds the number of rounds of every game, or shows "
           "a game that never ends. Every proof first checks that its hypotheses can hold: a proof that "
           "says nothing is a failure. Presets that follow a source literally and can deadlock are *refuted*: "
           "the proof returns a concrete counterexample, drawn below.\n"]
    out[1] = spec_text(out[1], page)
    if data is None:
        out.append(not_yet(f"No recorded run of the proofs: {missing}.",
                           "Run `python docs/build.py` (it runs `hearts-ref prove --all --json` when the command "
                           "is available and records the run in `docs/data/`), then build the site again."))
    elif not results:
        out.append(not_yet("`docs/data/proofs.json` holds no result this page can read.",
                           "Record a run with `python docs/build.py` (the shape is documented in "
                           "`hearts_ref/commands/prove.py`)."))
    else:
        out.append(_run_line(read_json(RUN)[0]) + "The raw output: [proofs.json](data/proofs.json).\n")
        out.append("Methods: *context* proves the claim in every context of a play (leading or following, "
                   "the suit led, first trick, hearts broken) with the hand symbolic; *inductive* proves it "
                   "for every reachable state, by induction over the engine's own transition (RoundState.play); "
                   "*game* bounds the rounds of a game, or shows one without end. "
                   "A refutation is confirmed by replaying it on the engine from a deal.\n")
        out.append(_combinations(data.get("combinations")))
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
    if results:
        out.append(READING)
    out.append(_statements_section(page))
    deals: dict[tuple[Any, ...], tuple[str, str]] = {}
    for inv in invariants.values():
        out.append(_invariant_section(inv, page, deals))
    return "\n".join(out)


def _statements_section(page: str) -> str:
    """Every rule's formal statement in words, with the rule page where its predicate is shown beside the prose."""
    from properties.statements import STATEMENTS
    from sitegen.formal_statements import proved_by

    out = ["## Formal statements {#formal-statements}\n",
           "One predicate per rule ID, written from the rule's text in `properties/statements/` (never from "
           "the engine's functions); each rule's page shows its predicate's source.\n",
           "| rule | kind | statement | proved equal to the engine by |", "|---|---|---|---|"]
    for rule_id, statement in STATEMENTS.items():
        proofs = ", ".join(f"[{name}](#{invariant_anchor(name)})" for name in proved_by(rule_id))
        out.append(f"| {rule_link(rule_id, page, rule_pages())} | {statement.kind} | {escape_cell(statement.words)} "
                   f"| {proofs} |")
    return "\n".join(out) + "\n"


def _game_ends(result: dict[str, Any]) -> str:
    """A GAME-ENDS result drawn: the bound and its argument, or the never-ending cycle with its rounds."""
    if result["argument"]:
        first, *steps = result["argument"]
        return (f"**Under {escape_cell(result['preset'])}: {escape_cell(first)}.**\n\n"
                + "\n".join(f"{n}. {escape_cell(step)}" for n, step in enumerate(steps, 1)) + "\n")
    witness = result["witness"]
    if not witness:
        return ""
    out = [f"**Under {escape_cell(result['preset'])}: a game that never ends.** {escape_cell(witness.get('summary', ''))}"
           "\n"]
    for number, plan in enumerate(witness.get("cycle") or [], 1):
        winners = plan.get("trick_winners") or []
        out.append(f"- round {number} of the cycle (pass {escape_cell(plan.get('direction'))}): scores "
                   f"{escape_cell(plan.get('scores'))}; trick winners {escape_cell(winners)}")
        for seat, hand in enumerate(plan.get("dealt") or []):
            out.append(f"    - {card_row(re.findall(CARD_CODE, hand), label=f'seat {seat} dealt')}")
    return "\n".join(out) + "\n"


def _invariant_section(inv: dict[str, Any], page: str, deals: dict[tuple[Any, ...], tuple[str, str]]) -> str:
    """One invariant's section; ``deals`` holds the replays drawn so far on the page (each deal is drawn once)."""
    rules = ", ".join(rule_link(r, page, rule_pages()) for r in inv["rules"]) or "none named"
    out = [f"## {inv['invariant']} {{#{invariant_anchor(inv['invariant'])}}}\n",
           f"{escape_cell(inv['statement']) or '*No statement recorded.*'}\n", f"**Rules.** {rules}.\n"]
    if not inv["results"]:
        out.append("*Not run yet.*\n")
        return "\n".join(out)
    out.append("| preset | method | verdict | time |\n|---|---|---|---|")
    for r in inv["results"]:
        seconds = f"{r['seconds']:.2f} s" if isinstance(r["seconds"], (int, float)) else "—"
        shared = f" (same proof as {r['shared_with']})" if r.get("shared_with") else ""
        out.append(f"| {escape_cell(r['preset'])} | {r['method']} | {_verdict(r)}{shared} | {seconds} |")
    out.append("")
    for r in inv["results"]:
        if r["invariant"] == "GAME-ENDS" and not r.get("shared_with") and (r["argument"] or r["witness"]):
            out.append(_game_ends(r))
    shown = set()
    for r in inv["results"]:
        if r["counterexamples"] and (r["preset"], r["method"]) not in shown:
            shown.add((r["preset"], r["method"]))
            pictured = drawn_counterexamples(r)
            more = len(r["counterexamples"]) - len(pictured)
            also = f"\n\n*{more} more refuted context(s) in the raw output.*" if more > 0 else ""
            if r["method"] == "inductive":
                also += ("\n\n*The state's shape, Inv and why the replay's cards can differ from the state's: "
                         "[reading a counterexample](#reading-a-counterexample).*")
            for k, (anchor, counterexample) in enumerate(pictured):
                by = f", blocked by {blocking_rule(counterexample)}" if k else ""
                title = f"{inv['invariant']} under {escape_cell(r['preset'])} ({r['method']}{by})"
                out.append(f'<div class="hr-counterexample" id="{anchor}" markdown>\n\n**Counterexample under '
                           f'{escape_cell(r["preset"])} ({r["method"]}{by}).**\n\n'
                           f'{draw(counterexample, deals, (anchor, title))}{also if k == len(pictured) - 1 else ""}'
                           '\n\n</div>\n')
    return "\n".join(out)


def blocking_rule(counterexample: dict[str, Any]) -> str | None:
    """The first rule that leaves a counterexample's hand no play (its ``blocked_by``), if it says."""
    blocked = [b for b in counterexample.get("blocked_by") or [] if isinstance(b, dict) and b.get("rule")]
    return str(blocked[0]["rule"]) if blocked else None


def drawn_counterexamples(result: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    """The counterexamples of one result that the proofs page draws, with their anchors: the first, then the first
    replayed one of each other rule that blocks (so that each such rule's page can link one it concerns)."""
    base = counterexample_anchor(result["invariant"], result["preset"], result["method"])
    drawn: list[tuple[str, dict[str, Any]]] = []
    rules: set[str | None] = set()
    for k, counterexample in enumerate(result["counterexamples"]):
        rule = blocking_rule(counterexample)
        if k == 0 or (rule not in rules and rule is not None and counterexample.get("replay")):
            drawn.append((base if k == 0 else f"{base}-{slug(rule)}", counterexample))
            rules.add(rule)
    return drawn


def _combinations(summary: Any) -> str:
    """The table of every variant combination of the registry, per invariant."""
    if not isinstance(summary, dict):
        return ""
    games = (f" The game-level invariants, over {summary['game_combinations']} combinations of "
             f"{', '.join(f'`{p}`' for p in summary.get('game_parameters') or [])}."
             if summary.get("game_combinations") else "")
    out = [f"**Every variant combination.** {summary.get('combinations', '?')} combinations of "
           f"{', '.join(f'`{p}`' for p in summary.get('parameters') or [])}, proved per context in "
           f"{summary.get('seconds', 0):.1f} s; outcomes "
           + ("all as expected" if summary.get("all_expected") else "**not all as expected**") + f".{games}\n",
           "| invariant | distinct proofs | combinations by outcome | unexpected |", "|---|---|---|---|"]
    for invariant, row in (summary.get("invariants") or {}).items():
        outcomes = ", ".join(f"{n} {s}" for s, n in sorted((row.get("combinations") or {}).items()))
        out.append(f"| [{invariant}](#{invariant_anchor(invariant)}) | {row.get('distinct', '?')} | {outcomes} | "
                   f"{row.get('unexpected', 0)} |")
    return "\n".join(out) + "\n"


def counterexample_anchor(invariant: str, preset: str, method: str) -> str:
    """Return the anchor of the counterexample drawn for one invariant, preset and method on the proofs page."""
    return f"cx-{slug(invariant)}-{slug(preset)}-{slug(method)}"


STATUS_WORDS = {"n/a": "not applicable"}


def outcome(results: list[dict[str, Any]], rule_id: str | None = None) -> list[tuple[str, str | None]]:
    """Return one invariant's outcome under each preset, as Markdown pieces (words, target on the proofs page or None).

    Presets are grouped by outcome: ``proved under seed000, seed002; refuted under seed001 (counterexample
    on the proofs page)``. A preset whose methods disagree shows each method's status; one whose
    outcome is not the expected one says so. For the page of the rule ``rule_id``, the counterexample linked is
    one that rule blocks, where a preset has one (:func:`drawn_counterexamples`).

    >>> rows = [{"invariant": "X", "preset": p, "method": m, "status": s, "expected": e, "counterexamples": c}
    ...         for p, m, s, e, c in [("seed000", "context", "proved", "proved", []),
    ...                               ("seed001", "context", "refuted", "refuted", [{}]),
    ...                               ("seed001", "inductive", "refuted", "refuted", [{}]),
    ...                               ("seed002", "context", "proved", "refuted", [])]]
    >>> print("".join(words for words, _ in outcome(rows)))
    proved under seed000, seed002 (expected refuted under seed002); refuted under seed001, as their rules expect (counterexample on the proofs page)
    >>> outcome(rows)[-2][1]
    'proofs.md#cx-x-seed001-context'
    """
    by_preset: dict[str, dict[str, str]] = {}
    unexpected: dict[str, str] = {}
    foreseen: set[str] = set()   # presets whose outcome is the expected one
    for r in results:
        by_preset.setdefault(r["preset"], {})[r["method"]] = r["status"]
        expected = r.get("expected")
        if expected and expected != "n/a" and str(expected).lower() != r["status"]:
            unexpected.setdefault(r["preset"], str(expected))
        elif str(expected).lower() == r["status"]:
            foreseen.add(r["preset"])
    groups: dict[str, list[str]] = {}
    for preset, methods in by_preset.items():
        statuses = set(methods.values())
        label = (next(iter(statuses)) if len(statuses) == 1 else
                 ", ".join(f"{status} by the {method} proof" for method, status in methods.items()))
        groups.setdefault(STATUS_WORDS.get(label, label), []).append(preset)
    pieces: list[tuple[str, str | None]] = []
    for label, presets in groups.items():
        if pieces:
            pieces.append(("; ", None))
        pieces.append((f"{label} under {', '.join(presets)}", None))
        odd = [f"expected {unexpected[p]} under {p}" for p in presets if p in unexpected]
        if odd:
            pieces.append((f" ({'; '.join(odd)})", None))
        elif label == "refuted" and foreseen.issuperset(presets):   # a refutation these rules are known to allow
            pieces.append((", as their rules expect", None))
        shown = next((r for r in results if r["preset"] in presets and r["counterexamples"]), None)
        own = next((anchor for r in results if r["preset"] in presets and r["counterexamples"]
                    for anchor, c in drawn_counterexamples(r) if rule_id is not None and blocking_rule(c) == rule_id),
                   None)
        if shown is not None:
            target = "proofs.md#" + (own or counterexample_anchor(shown["invariant"], shown["preset"], shown["method"]))
            other = blocking_rule(shown["counterexamples"][0]) if rule_id is not None and own is None else None
            note = f", blocked by {other}" if other and other != rule_id else ""   # not this page's rule: said
            pieces += [(" (", None), ("counterexample on the proofs page", target), (f"{note})", None)]
    return pieces or [("not run yet", None)]


def proofs_by_rule() -> dict[str, list[tuple[Any, ...]]]:
    """Return, for each rule ID, the invariants that concern it as (text, target, outcome); key "" is the note
    when there are none.

    ``outcome`` is :func:`outcome` of the recorded run: the invariant's verdict under each preset, as pieces
    of Markdown with their targets.
    """
    data, _ = read_json(PROOFS)
    results = proof_results(data) if data is not None else []
    rules_of = {entry["invariant"]: entry["rules"] for entry in catalogue()}
    for result in results:
        rules_of.setdefault(result["invariant"], result["rules"])
    links: dict[str, list[tuple[Any, ...]]] = {}
    for invariant, rule_ids in rules_of.items():
        own = [r for r in results if r["invariant"] == invariant]
        for rule_id in rule_ids:
            links.setdefault(rule_id, []).append((invariant, f"proofs.md#{invariant_anchor(invariant)}",
                                                  outcome(own, rule_id) if data is not None else []))
    if data is None:
        links[""] = [("no run of the proofs is recorded yet", "proofs.md")]
    return links
