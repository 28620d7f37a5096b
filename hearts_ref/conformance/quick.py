"""A round judged in one go: the engine plays the forecast round, and the loop goes step by step only if it differs.

Most rounds of a campaign find nothing. For an engine that can play a whole round in one
call (``trace_round``: OpenSpiel's adapter), :func:`quick_round` has the decider choose the
round's passes and plays ahead on the reference (:meth:`~.forecast.Forecast.make_round`, as
if the engine agreed at every step), sends them, and compares what the engine showed at each
step with what the reference shows there — the same comparisons the play loop makes, in the
same order, and as exact:

- after the deal (DEAL-HANDS, PASS-CYCLE) and after the last pass (PASS-*): the whole observation; after
  the other passes, the seat to move and hearts broken (PASS-SIMULTANEOUS), the rest being by the engine's
  word the pass phase's, no trick, no points, no round scores, totals at zero;
- before each play: the engine's legal set with the reference's (LEAD-*, FOLLOW-*, FIRST-*),
  hearts broken as the engine showed it with the reference's context;
- after each play but the last: the fields a play changes (the seat to move, the trick,
  hearts broken, the points: TRICK-*, BREAK-*, SCORE-POINTS); the others are, by the
  engine's word, the play phase's with no round scores, totals at zero and the game not
  over, which is what the reference shows in the first round of a game (the only one sent so);
- after the last play: the whole observation (SCORE-*, END-*, WIN-*).

When everything agrees the round is judged: the game moves on past it with nothing found. At
the first difference (or a refusal, or a failure) nothing of the round is kept: the engine
starts its game again (``new_game``), the decider goes back to where it was
(:meth:`~.forecast.Forecast.depart`), and the play loop plays the round step by step, so that
the finding, its step and its rule are those the step-by-step loop gives.
"""

from __future__ import annotations

from typing import Any

from hearts_ref.engine import Observation, observe_game
from hearts_ref.conformance.batch import batch_round
from hearts_ref.conformance.judge import pass_observations, trick_points

__all__ = ["quick_round", "takes_rounds", "whole_round", "AGAIN"]

# Why a game is played again from its start: its first round, sent in one go with no snapshot of the decider, differed.
AGAIN = "the first round differed, sent in one go: the game again from its start, step by step"


def whole_round(table: Any, number: int, hands: Any, direction: str) -> bool | str:
    """The round just dealt on ``table`` judged in one go where its engine takes it so: in one call (a game's
    first round, :func:`quick_round`), or sent whole to an engine program and judged from its reply lines
    (:func:`~.batch.batch_round`). Return True when it is judged, :data:`AGAIN` when the game must be played again
    from its start (no snapshot of the decider to go back to), False when the play loop judges it step by step."""
    if table.quick and number == 1:
        if quick_round(table, hands, direction):
            return True
        if table.again is not None:
            return AGAIN
    link = table.link
    if link.lookahead and link.rounds and not link.ahead:   # the whole round sent to the engine in one go
        early = link.sender(hands, direction)   # the moves sent on as they are forecast
        link.send_round(hands, direction, *table.forecast.make_round(table.state, early))
        return batch_round(table)   # every reply as the reference's would be written: judged at once
    return False


def takes_rounds(engine: Any) -> bool:
    """Whether ``engine`` plays a whole round in one call (``trace_round``)."""
    return callable(getattr(engine, "trace_round", None))


def quick_round(table: Any, hands: Any, direction: str) -> bool:
    """Judge the round just dealt on ``table``'s reference (a ``_Table`` of :mod:`.differential`) in one call to the
    engine; return True when it is judged (nothing differed: the table is past it), False when the round must be
    played step by step (the engine and the decider are back at the round's start; with no snapshot of the decider
    taken, ``table.again``, the game is played again from its start)."""
    game, forecast = table.game, table.forecast
    passes, cards = forecast.make_round(table.state, mark=table.again is None, indices=True)
    steps, plan = list(forecast.passes), list(forecast.plan)
    if not plan or not plan[-1][2].is_over:   # a round that does not play out (a deadlock): step by step
        return _back(table)
    try:
        shown, trace, final = table.engine.trace_round(hands, direction, passes, cards)
    except Exception:   # a refusal or a failure: the step-by-step loop judges it at its step
        return _back(table)
    passed = [step[-1] for step in steps]
    expected, taken = pass_observations(game, table.state, passed[-1:])   # after the deal, after the last pass
    if (len(shown) != len(expected) or any(type(seen) is not Observation for seen in shown) or shown != expected
            or type(final) is not Observation or any(game.totals) or game.results
            or shown[-1].hearts_broken != plan[0][0].context.hearts_broken):
        return _back(table)
    try:
        same = (trace.passing == [(after.to_move, after.context.hearts_broken) for after in passed[:-1]]
                and _same_plays(trace, plan, table.rules, taken))
    except (AttributeError, TypeError):   # not a trace: the step-by-step loop judges what the engine shows
        same = False
    if not same:
        return _back(table)
    scored = game.end_round(plan[-1][2])   # (the reference played the last card already)
    if final != observe_game(scored):
        return _back(table)
    forecast.keep()
    table.plays[table.number] = plan   # (the coverage reads the round's situations from its states)
    table.step += 1 + len(passes) + len(cards)
    table.game, table.state, table.seen, table.synced = scored, None, final, True
    return True


def _same_plays(trace: Any, plan: list[tuple[Any, Any, Any]], rules: Any, dealt: tuple[Any, Any]) -> bool:
    """Whether what the engine showed around the plays (a trace: :class:`~hearts_ref.engines.openspiel.Trace`) is
    what the reference shows: before each play its legal set; after each but the last the seat to move, hearts
    broken, the trick (its size: its cards are the last played), and the points taken, which change only when a
    trick closes (``dealt``: the cards taken at the deal and their points, the first play's when no card was taken
    since)."""
    played = plan[:-1]
    if (trace.legal != [before.legal for before, _, _ in plan]
            or trace.to_move != [after.to_play for _, _, after in played]
            or trace.hearts_broken != [after.context.hearts_broken for _, _, after in played]
            or list(trace.trick_sizes[:len(played)]) != [len(after.trick) for _, _, after in played]):
        return False
    first = plan[0][0]
    points = dealt[1] if first.taken is dealt[0] else first.points_taken()
    readings = [points]
    for _, _, after in played[3::4]:   # the plays that close a trick (the trick sizes are the engine's: 1, 2, 3, 0)
        points = trick_points(points, after, rules)
        readings.append(points)
    return trace.points == readings


def _back(table: Any) -> bool:
    """Undo a round tried in one go: the decider back to the round's start (when a snapshot was taken: else the game
    is played again with a decider made afresh, ``table.again``), the engine to its game's."""
    table.forecast.depart()
    try:
        table.engine.new_game(table.rules)
    except Exception:   # the step-by-step loop then meets the engine as it is, and judges that
        pass
    return False
