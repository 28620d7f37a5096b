"""``hearts-ref play``: play a whole game with random passes and random legal plays, and print it.

Under rules that can deadlock (FIRST-NO-POINTS) the game may stop where the seat to play has
no legal play: the transcript (or the record, with its ``deadlock``) shows the game up to
there, stderr says which rule left which seat with which hand, and the exit code is 1.
"""

from __future__ import annotations

import argparse
import sys

from hearts_ref.cards import CARDS
from hearts_ref.cardset import CardSet
from hearts_ref.commands import add_rules_arguments, rules_from_args
from hearts_ref.game import Game, RoundResult
from hearts_ref.records import dumps, game_record
from hearts_ref.round import Trick
from hearts_ref.scoring import card_points
from hearts_ref.simulate import random_game
from hearts_ref.variants import Rules, setting_text

__all__ = ["configure", "run", "transcript", "ROUND_LIMIT"]

# A game of play is printed whole: one that has not ended after this many rounds is not played on.
ROUND_LIMIT = 1000


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--seed", type=int, default=1, help="seed of the deals and the choices (default 1)")
    add_rules_arguments(parser)
    parser.add_argument("--json", action="store_true", help="print the game record (spec/record.schema.json)")
    parser.epilog = ("exit codes: 0 the game was played to its end, 1 the rules deadlocked it, 2 bad input (or rules "
                     f"under which the game had not ended after {ROUND_LIMIT} rounds)")


def run(args: argparse.Namespace) -> int:
    rules = rules_from_args(args)
    game = random_game(rules, seed=args.seed, round_limit=ROUND_LIMIT)
    if not game.over and not game.deadlocked:   # END-THRESHOLD not reached in any round soon, and no max_rounds
        print(f"hearts-ref play: error: the game had not ended after {ROUND_LIMIT} rounds (highest total "
              f"{max(game.totals)}, end_threshold={rules.end_threshold}); set max_rounds to play a game of fewer "
              f"rounds", file=sys.stderr)
        return 2
    print(dumps(game_record(game)) if args.json else transcript(game, preset=args.preset), end="")
    if game.deadlocked:   # FIRST-NO-POINTS: a problem with the rules, not with the input
        print(f"hearts-ref play: the rules deadlock in round {game.round_number}: {game.round.deadlock_error()}",
              file=sys.stderr)
        return 1
    return 0


def _seats(values: tuple[int, ...] | list[int]) -> str:
    return "  ".join(f"{v:>4}" for v in values)


def _deal_and_tricks(number: int, dealer: int, direction: str, dealt: tuple[int, ...], passes: tuple[int, ...],
                     tricks: tuple[Trick, ...], rules: Rules) -> list[str]:
    lines = [f"Round {number}: dealer seat {dealer}, pass {direction}"]
    for seat, hand in enumerate(dealt):
        lines.append(f"  seat {seat} holds  {CardSet.from_mask(hand).glyphs()}")
    if direction != "none":
        for seat, cards in enumerate(passes):
            lines.append(f"  seat {seat} passes {CardSet.from_mask(cards).glyphs()}")
    for number, trick in enumerate(tricks, 1):
        plays = ", ".join(f"{CARDS[c].glyph}" for c in trick.indices)
        points = card_points(sum(1 << i for i in trick.indices), rules)
        note = f" ({points} point{'s' if points != 1 else ''})" if points else ""
        lines.append(f"  trick {number:>2}: seat {trick.leader} leads  {plays}  -> seat {trick.winner}{note}")
    return lines


def _round_text(result: RoundResult, rules: Rules) -> list[str]:
    lines = _deal_and_tricks(result.number, result.dealer, result.direction, result.dealt, result.passes,
                             result.tricks, rules)
    score = result.score
    lines.append(f"  points  {_seats(score.points)}")
    moon = f"  (seat {score.shooter} shot the moon)" if score.shooter is not None else ""
    lines.append(f"  scores  {_seats(score.scores)}{moon}")
    return lines


def _deadlock_text(game: Game) -> list[str]:
    """The round that deadlocked (FIRST-NO-POINTS), up to the seat with no legal play."""
    state, number, rules = game.round, game.round_number, game.rules
    lines = _deal_and_tricks(number, game.dealer, state.direction, state.dealt, state.passes, state.tricks, rules)
    plays = ", ".join(card.glyph for card in state.current_trick())
    lines.append(f"  trick {len(state.tricks) + 1:>2}: seat {state.leader} leads  {plays}  -> seat {state.to_play} "
                 f"holds {state.hand(state.to_play).glyphs()} and has no legal play")
    return lines


def transcript(game: Game, *, preset: str = "") -> str:
    """Return a readable account of a finished game: deals, passes, tricks, scores, totals, winners
    (or, when the rules deadlock, the game up to the deadlock and no winners)."""
    rules = game.rules
    changes = ", ".join(setting_text(k, v) for k, v in rules.changes().items()) or "no changes"
    lines = [f"hearts-ref play: {rules.players} players, seed {game.seed}, preset {preset or '-'} ({changes})", ""]
    totals = [0] * rules.players
    header = "  seat    " + "  ".join(f"{s:>4}" for s in range(rules.players))
    for result in game.results:
        lines += _round_text(result, rules)
        totals = [t + s for t, s in zip(totals, result.score.scores)]
        lines.append(f"  totals  {_seats(totals)}")
        lines.append("")
    if game.deadlocked:
        lines += _deadlock_text(game)
        lines.append("")
    lines.append(header)
    lines.append(f"  final   {_seats(game.totals)}")
    if game.deadlocked:
        lines.append(f"Game stopped in round {game.round_number}: {game.round.deadlock_error()}. The round is not "
                     "scored, no total changes, and there are no winners.")
        return "\n".join(lines) + "\n"
    names = ", ".join(f"seat {s}" for s in game.winners)
    lines.append(f"Game over after {len(game.results)} round{'s' if len(game.results) != 1 else ''}. "
                 f"Winner{'s' if len(game.winners) > 1 else ''}: {names}.")
    return "\n".join(lines) + "\n"
