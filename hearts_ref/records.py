"""The game record: a whole game as JSON (schema: ``spec/record.schema.json``).

A record holds the rules, each round's deal, passes and tricks, the round scores,
the totals and the winners. Cards are written as text (``"QS"``, ``"10H"``). A game whose
rules deadlock (FIRST-NO-POINTS) also holds ``deadlock``: the round that stopped, its deal,
passes and plays up to the seat with no legal play, that seat, its hand and the rule; that
round has no scores, the totals are those of the rounds before it, and there are no winners.

>>> from hearts_ref.simulate import random_game
>>> from hearts_ref.variants import Rules
>>> record = game_record(random_game(Rules(), seed=1))
>>> record["format"], len(record["rounds"][0]["tricks"]), record["rounds"][0]["tricks"][0]["cards"][0]
('hearts-ref-game', 13, '2C')
"""

from __future__ import annotations

import json
from typing import Any

from hearts_ref.cards import CARDS
from hearts_ref.cardset import CardSet
from hearts_ref.errors import HeartsError
from hearts_ref.game import Game, RoundResult

__all__ = ["RECORD_FORMAT", "RECORD_VERSION", "game_record", "round_record", "deadlock_record", "dumps"]

RECORD_FORMAT = "hearts-ref-game"
RECORD_VERSION = 1


def _cards(mask: int) -> list[str]:
    return [str(card) for card in CardSet.from_mask(mask)]


def round_record(result: RoundResult) -> dict[str, Any]:
    """Return one finished round as a JSON-ready dict."""
    return {
        "number": result.number,
        "dealer": result.dealer,
        "pass_direction": result.direction,
        "hands": [_cards(mask) for mask in result.dealt],
        "passes": [_cards(mask) for mask in result.passes] if result.direction != "none" else None,
        "tricks": [{"leader": t.leader, "cards": [str(CARDS[i]) for i in t.indices], "winner": t.winner}
                   for t in result.tricks],
        "points": list(result.score.points),
        "scores": list(result.score.scores),
        "moon": result.score.shooter,
    }


def deadlock_record(game: Game) -> dict[str, Any]:
    """Return the round that deadlocked, up to the seat with no legal play, as a JSON-ready dict."""
    state = game.round
    if state is None or not state.deadlocked:
        raise HeartsError("FIRST-NO-POINTS: this game is not deadlocked: the seat to play has a legal play")
    number = len(game.results) + 1
    seat = state.to_play
    return {
        "number": number,
        "dealer": (number - 1) % game.rules.players,
        "pass_direction": state.direction,
        "hands": [_cards(mask) for mask in state.dealt],
        "passes": [_cards(mask) for mask in state.passes] if state.direction != "none" else None,
        "plays": [str(card) for trick in state.tricks for card in trick.cards]
                 + [str(card) for card in state.current_trick()],
        "seat": seat,
        "hand": _cards(state.hands[seat]),
        "rule": state.deadlock_error().rule_id,
    }


def game_record(game: Game) -> dict[str, Any]:
    """Return the record of ``game`` (finished or not: the finished rounds only, and the round that
    deadlocked if the rules deadlocked) as a JSON-ready dict."""
    record = {
        "format": RECORD_FORMAT,
        "version": RECORD_VERSION,
        "rules": game.rules.to_dict(),
        "seed": game.seed,
        "rounds": [round_record(result) for result in game.results],
        "totals": list(game.totals),
        "winners": list(game.winners),
    }
    if game.deadlocked:
        record["deadlock"] = deadlock_record(game)
    return record


def dumps(record: dict[str, Any]) -> str:
    """Return ``record`` as JSON text: one trick per line would be nicer, but stable keys matter more."""
    return json.dumps(record, indent=1, ensure_ascii=False) + "\n"
