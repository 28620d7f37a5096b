"""A comparison for people and for tools: the drawn transcript of the smallest game, the JSON, the game records.

:func:`drawn` replays the difference on the engine under both rulesets and returns a
:class:`Drawn`: the game up to where the sides part and what each side then does, with the
rule each side applies, as plain text lines (cards as glyphs); and each side's game, played
on to the end of that round, as a game record (``spec/record.schema.json``) that
``hearts-ref referee`` accepts under that side's rules. :func:`comparison_dict` is the JSON.

>>> from hearts_ref import Rules
>>> from hearts_ref.diff.compare import compare
>>> result = compare(Rules(), Rules(first_trick_points="forbidden"))
>>> view = drawn(result, "seed000", "seed001-like")
>>> for line in view.lines[-4:]: print(line)
  -> play 2: seat 1 to play, holding Q♠ 2♥ 3♥ 4♥ 5♥ 6♥ 7♥ 8♥ 9♥ 10♥ J♥ Q♥ K♥ (following ♣ on the first trick, hearts unbroken)
     seed000: allows Q♠ 2♥ 3♥ 4♥ 5♥ 6♥ 7♥ 8♥ 9♥ 10♥ J♥ Q♥ K♥ (FIRST-NO-POINTS, FIRST-EXCEPTION: first_trick_points=exception)
     seed001-like: allows no card: FIRST-NO-POINTS leaves seat 1 no legal play (first_trick_points=forbidden)
Replayed on the reference engine under both rulesets: the sides part at play 2 of round 1 (the legal plays).
"""

from __future__ import annotations

from typing import Any, NamedTuple

from hearts_ref.cards import CARDS, Suit
from hearts_ref.cardset import CardSet
from hearts_ref.diff.compare import Comparison
from hearts_ref.diff.consequence import Consequence, consequence_of
from hearts_ref.diff.games import Part, Replayed, choose_parting_cards, engine_rules, finish, replay
from hearts_ref.diff.rounds import dealt_for
from hearts_ref.diff.rulesets import value_text
from hearts_ref.diff.semantics import OBSERVED, rules_for
from hearts_ref.game import Game
from hearts_ref.records import game_record
from hearts_ref.round import RoundState, start_round
from hearts_ref.variants import PARAMETERS, Rules

__all__ = ["Drawn", "drawn", "comparison_dict", "summary_line", "consequence_lines", "consequence_dict", "JSON_VERSION"]

JSON_VERSION = 1


class Drawn(NamedTuple):
    """A difference drawn: the transcript lines, each side's game record, and the rule IDs each side applies."""

    lines: tuple[str, ...]
    records: tuple[dict[str, Any], dict[str, Any]] | None
    applies: tuple[tuple[str, ...], tuple[str, ...]]
    shows: tuple[str, str]


def _glyphs(mask: int) -> str:
    return CardSet.from_mask(mask).glyphs() or "(none)"


def _values(rules: Rules, parameters: tuple[str, ...], kind: str) -> str:
    """The values of the parameters that govern ``kind`` (``first_trick_points=forbidden``)."""
    governing = set(rules_for(kind, parameters))
    relevant = [p.name for p in PARAMETERS if p.name in parameters and governing & set(p.rules)]
    return ", ".join(f"{name}={value_text(getattr(rules, name))}" for name in relevant or parameters)


def _context_text(state: RoundState) -> str:
    ctx = state.context
    trick = "the first trick" if ctx.first_trick else "a later trick"
    what = f"leading {trick}" if ctx.leading else f"following {Suit(ctx.led_suit).glyph} on {trick}"
    return f"{what}, hearts {'broken' if ctx.hearts_broken else 'unbroken'}"


def _round_lines(rules: Rules, number: int, hands: tuple[int, ...], plays: tuple[int, ...],
                 direction: str) -> tuple[list[str], RoundState]:
    """The deal, the passes and the tricks of one round up to ``plays``; the state after them (no pass)."""
    lines = [f"Round {number}: dealer seat {(number - 1) % rules.players}, pass {direction}"]
    dealt, passes = dealt_for(rules, hands, direction)
    for seat in range(rules.players):
        passed = f"; passes {_glyphs(passes[seat])}" if passes else ""
        lines.append(f"  seat {seat} is dealt {_glyphs(dealt[seat])}{passed}")
    if passes:
        lines += [f"  seat {seat} then holds {_glyphs(hand)}" for seat, hand in enumerate(hands)]
    state = start_round(rules, [CardSet.from_mask(h) for h in hands], direction="none")
    for number, card in enumerate(plays, 1):
        leader = state.leader
        state = state.play(CARDS[card])
        if not state.trick:   # a trick is complete
            trick = state.tricks[-1]
            lines.append(f"  trick {len(state.tricks):>2} ({_play_numbers(number, len(trick.cards))}): seat {leader} "
                         f"leads  {' '.join(c.glyph for c in trick.cards)}  -> seat {trick.winner}")
    if state.trick:
        lines.append(f"  trick {len(state.tricks) + 1:>2} ({_play_numbers(len(plays), len(state.trick))}): seat "
                     f"{state.leader} leads  {' '.join(c.glyph for c in state.current_trick())}")
    return lines, state


def _play_numbers(last: int, cards: int) -> str:
    """The numbers of a trick's plays in the round, its last play being ``last``: "plays 5–8", or "play 9"."""
    return f"play {last}" if cards == 1 else f"plays {last - cards + 1}–{last}"


class _SideView(NamedTuple):
    text: str
    applies: tuple[str, ...]


def _legal_sides(result: Comparison, replayed: Replayed) -> tuple[list[_SideView], tuple[int | None, int | None]]:
    """What each side allows where their legal sets differ, and the rule the engine names for what it forbids."""
    games = (replayed.game_a, replayed.game_b)
    cards = choose_parting_cards(*games)
    named = engine_rules(replayed)
    seat = games[0].round.to_play
    governing = rules_for("legal", result.parameters)
    views = []
    for side in (0, 1):
        game, rules, rule, other_card = games[side], (result.a, result.b)[side], named[side], cards[1 - side]
        values = _values(rules, result.parameters, "legal")
        if rule is None:
            views.append(_SideView(f"allows {_glyphs(game.round.legal)} ({', '.join(governing)}: {values})", governing))
            continue
        applies = (rule,) + tuple(r for r in governing if r != rule)
        if not game.round.legal:
            views.append(_SideView(f"allows no card: {rule} leaves seat {seat} no legal play ({values})", applies))
        else:
            views.append(_SideView(f"allows {_glyphs(game.round.legal)}; {rule} forbids {CARDS[other_card].glyph} "
                                   f"({values})", applies))
    return views, cards


def _after_sides(result: Comparison, replayed: Replayed) -> list[_SideView]:
    """What each side shows after the play (or the deal) where they part, with the rules that govern it."""
    part = replayed.part
    kind = part.kind
    governing = rules_for(kind, result.parameters)
    field = {"broken": "hearts_broken", "points": "points_taken", "scores": "round_scores", "end": "game_over",
             "pass": "pass_direction"}[kind]
    views = []
    for side in (0, 1):
        rules, game = (result.a, result.b)[side], (replayed.game_a, replayed.game_b)[side]
        value = part.values.get(field, (None, None))[side]
        totals = " ".join(map(str, game.totals))
        said = {
            "broken": lambda: "hearts are broken" if value else "hearts stay unbroken",
            "points": lambda: f"points taken {' '.join(map(str, value))}",
            "scores": lambda: f"round scores {' '.join(map(str, value))}, totals {totals}",
            "end": lambda: (f"the game is over (totals {totals}), won by "
                            f"{', '.join(f'seat {s}' for s in game.winners)}" if value
                            else f"the game goes on (totals {totals})"),
            "pass": lambda: f"round {part.round} passes {value}",
        }[kind]()
        views.append(_SideView(f"{said} ({', '.join(governing)}: {_values(rules, result.parameters, kind)})",
                               governing))
    return views


def drawn(result: Comparison, label_a: str, label_b: str) -> Drawn | None:
    """Replay the difference of ``result`` on the engine under both rulesets and draw it; None if there is none."""
    difference = result.difference
    if difference is None:
        return None
    if difference.script is None:   # the deal: no game both sides can play
        players = difference.part.values["players"]
        lines = (f"No deal is valid on both sides: {label_a} deals to {players[0]} players, {label_b} to "
                 f"{players[1]} (PLAYERS-COUNT, DECK-REMOVED).",)
        applies = rules_for("deal", result.parameters)
        return Drawn(lines, None, (applies, applies), (f"{players[0]} players", f"{players[1]} players"))
    replayed = replay(result.a, result.b, difference.script)
    part = replayed.part
    lines: list[str] = []
    totals = [0] * result.a.players
    for number, planned in enumerate(difference.script.rounds, 1):
        if number == part.round and part.kind == "pass":
            lines.append(f"Round {number}: dealer seat {(number - 1) % result.a.players}, the deal")
            lines += [f"  seat {seat} is dealt {_glyphs(hand)}" for seat, hand in enumerate(planned.hands)]
            break
        round_lines, state = _round_lines(result.a, number, planned.hands, planned.plays,
                                          result.a.pass_direction(number))
        lines += round_lines
        if state.is_over and not (number == part.round and part.kind in ("scores", "end")):
            score = state.score()
            totals = [t + s for t, s in zip(totals, score.scores)]
            moon = f" (seat {score.shooter} shot the moon)" if score.shooter is not None else ""
            lines.append(f"  scores {' '.join(map(str, score.scores))}{moon}; totals {' '.join(map(str, totals))}")
    if part.kind == "legal":
        views, cards = _legal_sides(result, replayed)
        state = replayed.game_a.round
        lines.append(f"  -> play {part.play}: seat {state.to_play} to play, holding "
                     f"{_glyphs(state.hands[state.to_play])} ({_context_text(state)})")
    else:
        views, cards = _after_sides(result, replayed), (None, None)
        if part.card is not None:
            lines.append(f"  -> play {part.play}: {CARDS[part.card].glyph}"
                         + (" ends the round" if part.kind in ("scores", "end") else ""))
    lines += [f"     {label}: {view.text}" for label, view in zip((label_a, label_b), views)]
    where = f"at play {part.play} of round {part.round}" if part.play else f"at the deal of round {part.round}"
    lines.append(f"Replayed on the reference engine under both rulesets: the sides part {where} "
                 f"({OBSERVED[part.kind]}).")
    records = _records(replayed.game_a, replayed.game_b, cards)
    return Drawn(tuple(lines), records, (views[0].applies, views[1].applies), (views[0].text, views[1].text))


def _consequence_sides(result: Comparison, found: Consequence) -> list[_SideView]:
    """What each side allows at the play a difference in hearts broken changes: the rule the engine names for the
    card it forbids (``found.rules``), and the BREAK-* rules and values that set hearts broken on each side."""
    games = (found.replayed.game_a, found.replayed.game_b)
    breaking = rules_for("broken", result.parameters)
    views = []
    for side in (0, 1):
        game, rules, rule = games[side], (result.a, result.b)[side], found.rules[side]
        broken = "hearts broken" if game.round.context.hearts_broken else "hearts unbroken"
        why = f"{broken}, {', '.join(breaking)}: {_values(rules, result.parameters, 'broken')}"
        if rule is None:
            views.append(_SideView(f"allows {_glyphs(game.round.legal)} ({why})", breaking))
        else:
            forbidden = games[1 - side].round.legal & ~game.round.legal   # what the other side allows, this one not
            forbids = f"no card: {rule} leaves seat {game.round.to_play} no legal play" if not game.round.legal else (
                f"{_glyphs(game.round.legal)}; {rule} forbids {_glyphs(forbidden)}")
            views.append(_SideView(f"allows {forbids} ({why})", (rule, *breaking)))
    return views


def consequence_lines(result: Comparison, found: Consequence, label_a: str, label_b: str) -> list[str]:
    """The first play found whose legal cards a difference in hearts broken changes (:mod:`.consequence`), drawn as
    the smallest game is: the round up to it, the play that broke hearts on one side only, what each side allows
    there."""
    planned = found.script.rounds[0]
    lines, _ = _round_lines(result.a, 1, planned.hands, planned.plays, result.a.pass_direction(1))
    state = found.replayed.game_a.round
    breaking = CARDS[planned.plays[found.broken_at - 1]]
    lines.append(f"  play {found.broken_at} ({breaking.glyph}) breaks hearts on one side only")
    lines.append(f"  -> play {found.part.play}: seat {state.to_play} to play, holding "
                 f"{_glyphs(state.hands[state.to_play])} ({_context_text(state).rsplit(', hearts', 1)[0]})")
    views = _consequence_sides(result, found)
    lines += [f"     {label}: {view.text}" for label, view in zip((label_a, label_b), views)]
    return lines


def consequence_dict(result: Comparison, found: Consequence | None, label_a: str,
                     label_b: str) -> dict[str, Any] | None:
    """The consequence as JSON-ready data (the shape is documented in ``hearts_ref/commands/diff.py``)."""
    if found is None:
        return None
    views = _consequence_sides(result, found)
    planned = found.script.rounds[0]
    return {"round": found.part.round, "play": found.part.play, "broken_at": found.broken_at,
            "broken_card": str(CARDS[planned.plays[found.broken_at - 1]]), "games": found.games,
            "soonest": found.soonest, "claim": found.claim,
            "bound": None if found.bound is None else {"play": found.bound.play, "status": found.bound.status,
                                                       "queries": found.bound.queries},
            "rules": list(found.rules), "values": {name: list(pair) for name, pair in found.part.values.items()},
            "a": {"applies": list(views[0].applies), "shows": views[0].text},
            "b": {"applies": list(views[1].applies), "shows": views[1].text},
            "game": [{"hands": [str(CardSet.from_mask(h)) for h in planned.hands],
                      "plays": [str(CARDS[c]) for c in planned.plays]}],
            "transcript": consequence_lines(result, found, label_a, label_b)}


def _records(game_a: Game, game_b: Game, cards: tuple[int | None, int | None]) -> tuple[dict, dict]:
    """Each side's game, played on to the end of the round where they part, as a game record."""
    return game_record(finish(game_a, cards[0])), game_record(finish(game_b, cards[1]))


def _part_dict(part: Part) -> dict[str, Any]:
    return {"kind": part.kind, "round": part.round, "play": part.play, "plays": part.plays,
            "card": None if part.card is None else str(CARDS[part.card]),
            "values": {name: list(pair) for name, pair in part.values.items()}}


def summary_line(result: Comparison) -> str:
    """One line: the verdict and, for a difference, where the sides part and the rules that govern it."""
    difference = result.difference
    if result.verdict == "equivalent":
        return "equivalent in play (proved)"
    if difference is None:
        return "not settled: " + "; ".join(result.open)
    where = ("at the deal, where no deal is valid on both sides" if difference.kind == "deal"
             else f"in round {difference.part.round} at the deal" if difference.part.play == 0
             else f"in round {difference.part.round} at play {difference.part.play}")
    rules = ", ".join(difference.rules)
    smallest = "" if difference.smallest else " (not proved smallest)"
    text = f"differs {where}: {OBSERVED[difference.kind]} ({rules}){smallest}"
    if result.in_play is not None:   # hearts broken restricts nothing on either side: does anything else differ?
        text += f"; hearts broken restricting no play on either side, {_in_play_text(result.in_play)}"
    return text


def _in_play_text(in_play: Comparison) -> str:
    """What the sides do once whether hearts are broken is set aside (:attr:`Comparison.in_play`)."""
    if in_play.verdict == "equivalent":
        return "they play alike (proved)"
    return "they are not settled in play" if in_play.difference is None else f"in play {summary_line(in_play)}"


def comparison_dict(result: Comparison, label_a: str, label_b: str, *, records: bool = True) -> dict[str, Any]:
    """The comparison as JSON-ready data (the shape is documented in ``hearts_ref/commands/diff.py``)."""
    data: dict[str, Any] = {
        "a": {"label": label_a, "changes": result.a.changes()}, "b": {"label": label_b, "changes": result.b.changes()},
        "differ_in": list(result.parameters), "verdict": result.verdict, "summary": summary_line(result),
        "seconds": round(result.seconds, 3), "difference": None,
        "proof": [{"part": p.name, "status": p.status, "covers": p.covers, "queries": p.queries} for p in result.proof],
        "open": list(result.open), "in_play": None,
        "consequence": consequence_dict(result, consequence_of(result), label_a, label_b),
    }
    if result.in_play is not None:   # the comparison with b breaking hearts as a does (no play restricted either way)
        data["in_play"] = comparison_dict(result.in_play, label_a, f"{label_b}, breaking hearts as {label_a}",
                                          records=False)
    difference = result.difference
    if difference is not None:
        view = drawn(result, label_a, label_b)
        data["difference"] = {
            **_part_dict(difference.part), "smallest": difference.smallest, "note": difference.note,
            "rules": list(difference.rules),
            "a": {"applies": list(view.applies[0]), "shows": view.shows[0]},
            "b": {"applies": list(view.applies[1]), "shows": view.shows[1]},
            "game": None if difference.script is None else [
                {"hands": [str(CardSet.from_mask(h)) for h in r.hands], "plays": [str(CARDS[c]) for c in r.plays]}
                for r in difference.script.rounds],
            "transcript": list(view.lines),
            "records": None if not records or view.records is None else {"a": view.records[0], "b": view.records[1]},
        }
    return data
