"""A round sent ahead judged from its reply lines in one go, for an engine program that writes them as the server does.

The play loop sends an engine program a whole round at once (:meth:`~.link.LookaheadLink.send_round`:
its deal, the passes and the plays forecast as if the engine agreed at every step). While
the engine works on it, :func:`batch_round` writes the line each reply would be if it said
exactly what the reference says there (:mod:`hearts_ref.step_lines`, the way ``hearts-ref
serve`` writes it), from the forecast:

- after the deal (DEAL-HANDS, PASS-CYCLE) and after each pass (PASS-*): the reference's
  observation, and its legal set (before the first play: LEAD-*, FIRST-*);
- after each play but the last: the seat to move, the trick, hearts broken, the points
  taken (TRICK-*, BREAK-*, SCORE-POINTS), the last round's scores and the totals, and the
  legal set of the next play (LEAD-*, FOLLOW-*, FIRST-*);
- after the last play: the scored game (SCORE-*, END-*, WIN-*).

When every reply is its line, byte for byte, the engine showed at every step what the
reference shows (the replies say nothing else), so the play loop would judge each step
agreed: the round is judged, the game moves on past it with nothing found. At the first
reply that is not its line nothing is taken: the replies read so far are left, read, for
the play loop, which judges the round step by step as always (so a difference is found at
its step, with its rule, whatever the engine's way of writing a reply).
"""

from __future__ import annotations

from typing import Any

from hearts_ref.engine import observe_game
from hearts_ref.step_lines import QUOTED, cards_text, numbers_text, play_line, sheet_text, step_line
from hearts_ref.conformance.judge import pass_observations, trick_points

__all__ = ["batch_round", "round_lines"]


def batch_round(table: Any) -> bool:
    """Judge the round just sent on ``table`` (a ``_Table`` of :mod:`.differential`) from its replies; return True
    when it is judged (the table is past it), False when the play loop must judge it step by step."""
    link, forecast = table.link, table.forecast
    seq = link.round_seq()
    passes, plan = list(forecast.passes), list(forecast.plan)
    if (seq is None or not plan or not plan[-1][2].is_over or not table.synced or not table.hands_known
            or table.step + 1 + len(passes) + len(plan) >= table.limit):
        return False
    before, card, _ = plan[-1]
    rules = table.rules
    if len(before.trick) != rules.players - 1 or len(before.tricks) != rules.hand_size - 1:
        return False   # the play loop scores the round at the card that ends its last trick, none other
    scored = table.game._replace(round=before).play(card)
    lines = round_lines(seq, table.game, table.state, passes, plan, scored)
    if lines is None or link.take_round(lines) is None:
        return False
    forecast.keep()
    table.step += 1 + len(passes) + len(plan)
    table.game, table.state, table.seen = scored, None, observe_game(scored)
    return True


def round_lines(seq: int, game: Any, dealt: Any, passes: list[tuple[Any, ...]], plan: list[tuple[Any, ...]],
                scored: Any) -> list[bytes] | None:
    """The reply lines (as read: without their newline), from command ``seq`` on, of an engine that agrees with the reference at every step of the round
    ``dealt`` in ``game``: its deal, ``passes`` and ``plan`` (as :class:`~.forecast.Forecast` holds them) and
    ``scored``, the game after its last play. None when the play loop would judge a step of it otherwise than by
    these lines: hearts broken before the first play not as its lead context says."""
    states = [dealt] + [step[-1] for step in passes]
    observed, _ = pass_observations(game, dealt, states[1:])
    lines = [step_line(seq + k, seen, state.legal, "") for k, (seen, state) in enumerate(zip(observed, states))]
    seq += len(states)
    seen, state = observed[-1], states[-1]
    first = plan[0][0]
    if first is not state or seen.hearts_broken != first.context.hearts_broken:
        return None
    rules = game.rules
    trick = ",".join(map(QUOTED.__getitem__, first.trick))
    numbers = seen.points_taken
    shown = numbers_text(numbers)
    last = game.results[-1].score.scores if game.results else None
    sheet = sheet_text(last, game.totals)
    for _, card, after in plan[:-1]:
        if after.trick:
            trick = f"{trick},{QUOTED[card.index]}" if trick else QUOTED[card.index]
        else:
            trick, numbers = "", trick_points(numbers, after, rules)
            shown = numbers_text(numbers)
        lines.append(play_line(seq, after.to_play, trick, after.context.hearts_broken, shown, sheet,
                               cards_text(after.legal), ""))
        seq += 1
    lines.append(step_line(seq, observe_game(scored), scored.round.legal if scored.round is not None else 0, ""))
    return lines
