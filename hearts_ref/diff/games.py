"""A game both sides play, replayed on the reference engine under each side's rules, up to where they part.

A :class:`Script` is what the search found: for each round the hands at the first lead and
the plays both sides make. :func:`replay` deals it to two :class:`~hearts_ref.game.Game` s,
one per side (passing as each side's PASS-CYCLE says, with the passes that lead to those
hands), and compares, before every play and after it, everything a player could see — the
legal plays and the engine's :class:`~hearts_ref.engine.Observation` (hearts broken, points
taken, round scores, totals, the end, the winners). The first difference is the
:class:`Part` where the sides part. :func:`finish` then plays each side on to the end of
that round (the card the other side forbids, then the lowest legal card) for its game record.

>>> from hearts_ref import Rules
>>> from hearts_ref.cardset import CardSet
>>> from hearts_ref.deals import complete_deal
>>> hands = tuple(h.mask for h in complete_deal(Rules(), {1: "QS 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH"}))
>>> part = replay(Rules(), Rules.preset("seed001"), Script((ScriptRound(hands, (0,)),))).part
>>> part.kind, part.round, part.play, part.values["legal"][1]
('legal', 1, 2, '')
"""

from __future__ import annotations

from typing import Any, NamedTuple

from hearts_ref.cards import CARDS
from hearts_ref.cardset import CardSet
from hearts_ref.diff.rounds import dealt_for
from hearts_ref.engine import observe_game
from hearts_ref.game import Game
from hearts_ref.legality import rejecting_rule
from hearts_ref.variants import Rules

__all__ = ["ScriptRound", "Script", "Part", "Replayed", "replay", "finish", "choose_parting_cards", "PRIORITY",
           "forbidding_rule", "engine_rules"]

# Which kind of difference a differing field shows, in the order they are reported.
PRIORITY = ("legal", "broken", "points", "scores", "end", "pass")
_KIND_OF_FIELD = {"hearts_broken": "broken", "points_taken": "points", "round_scores": "scores", "totals": "scores",
                  "game_over": "end", "winners": "end", "phase": "end", "to_move": "end", "trick": "end"}


class ScriptRound(NamedTuple):
    """One round of a script: the hands at the first lead (the deal, where the sides pass differently) and the
    plays both sides make in it."""

    hands: tuple[int, ...]
    plays: tuple[int, ...]


class Script(NamedTuple):
    """The rounds of a game both sides are to play, the last one up to where they part."""

    rounds: tuple[ScriptRound, ...]


class Part(NamedTuple):
    """Where the sides part: round and play number (0: at the deal), the kind, and what each side shows.

    ``values`` maps each differing field (``legal``, ``hearts_broken``, ``points_taken``,
    ``round_scores``, ``totals``, ``game_over``, ``winners``, ``pass_direction``) to the
    pair (side A, side B), as text or JSON values. ``card`` is the play that showed it (for a
    difference after a play). ``plays`` counts every play of the game before it, and this one.
    """

    kind: str
    round: int
    play: int
    plays: int
    values: dict[str, tuple[Any, Any]]
    card: int | None = None


class Replayed(NamedTuple):
    """The outcome of a replay: the part (None if the sides never part) and each side's game at that point."""

    part: Part | None
    game_a: Game
    game_b: Game


def _legal_text(game: Game) -> str:
    return str(game.round.legal_plays()) if game.round is not None else ""


def _compare(a: Game, b: Game) -> dict[str, tuple[Any, Any]]:
    seen_a, seen_b = observe_game(a).to_dict(), observe_game(b).to_dict()
    return {name: (seen_a[name], seen_b[name]) for name in seen_a if seen_a[name] != seen_b[name]}


def _kind(values: dict[str, tuple[Any, Any]]) -> str:
    kinds = {_KIND_OF_FIELD.get(name, name) for name in values}
    return next(kind for kind in PRIORITY if kind in kinds)


def replay(a: Rules, b: Rules, script: Script) -> Replayed:
    """Play ``script`` on the engine under ``a`` and under ``b``; return where they first part (or None)."""
    game_a, game_b = Game.new(a), Game.new(b)
    plays = 0
    for number, planned in enumerate(script.rounds, 1):
        direction_a, direction_b = a.pass_direction(number), b.pass_direction(number)
        if direction_a != direction_b:   # PASS-CYCLE: the hands of the script are the deal itself
            deal = tuple(CardSet.from_mask(h) for h in planned.hands)
            game_a, game_b = game_a.deal_round(deal), game_b.deal_round(deal)
            return Replayed(Part("pass", number, 0, plays, {"pass_direction": (direction_a, direction_b)}),
                            game_a, game_b)
        dealt, passes = dealt_for(a, planned.hands, direction_a)
        deal = tuple(CardSet.from_mask(h) for h in dealt)
        game_a, game_b = game_a.deal_round(deal), game_b.deal_round(deal)
        for seat, cards in enumerate(passes or ()):
            game_a = game_a.choose_pass(seat, CardSet.from_mask(cards))
            game_b = game_b.choose_pass(seat, CardSet.from_mask(cards))
        for index, card in enumerate(planned.plays, 1):
            if game_a.round.legal != game_b.round.legal:
                return Replayed(Part("legal", number, index, plays + index,
                                     {"legal": (_legal_text(game_a), _legal_text(game_b))}), game_a, game_b)
            game_a, game_b = game_a.play(CARDS[card]), game_b.play(CARDS[card])
            values = _compare(game_a, game_b)
            if values:
                return Replayed(Part(_kind(values), number, index, plays + index, values, card), game_a, game_b)
        plays += len(planned.plays)
        if game_a.round is not None and game_a.round.legal != game_b.round.legal:
            index = len(planned.plays) + 1
            return Replayed(Part("legal", number, index, plays + 1,
                                 {"legal": (_legal_text(game_a), _legal_text(game_b))}), game_a, game_b)
    return Replayed(None, game_a, game_b)


def choose_parting_cards(game_a: Game, game_b: Game) -> tuple[int | None, int | None]:
    """The card each side plays where their legal sets differ: one the other side forbids if there is one, else its
    lowest legal card; None for a side with no legal play."""
    legal_a, legal_b = game_a.round.legal, game_b.round.legal

    def pick(own: int, other: int) -> int | None:
        only = own & ~other
        chosen = only or own
        return (chosen & -chosen).bit_length() - 1 if chosen else None

    return pick(legal_a, legal_b), pick(legal_b, legal_a)


def finish(game: Game, first: int | None = None) -> Game:
    """Return ``game`` with its round played to the end (or to a deadlock): ``first``, then the lowest legal card."""
    if game.round is None:
        return game
    if game.round.passing:   # PASS-COUNT: the three lowest cards of each hand
        for seat in range(game.rules.players):
            lowest = list(game.round.hand(seat))[:3]
            game = game.choose_pass(seat, CardSet(lowest))
    number = len(game.results)
    if first is not None and not game.deadlocked:
        game = game.play(CARDS[first])
    while len(game.results) == number and not game.deadlocked and not game.over:
        legal = game.round.legal
        game = game.play(CARDS[(legal & -legal).bit_length() - 1])
    return game


def forbidding_rule(game: Game, card: int) -> str | None:
    """The rule that forbids ``card`` to the player to move in ``game`` (the engine's ``rejecting_rule``), or None."""
    state = game.round
    return rejecting_rule(state.hands[state.to_play], state.context, game.rules, 1 << card)


def engine_rules(replayed: Replayed) -> tuple[str | None, str | None]:
    """Where the legal sets differ, the rule the engine names on each side: the one that forbids the card the other
    side plays (``rejecting_rule``), or the one that leaves the player no legal play; None for a side that allows it."""
    games = (replayed.game_a, replayed.game_b)
    cards = choose_parting_cards(*games)
    named: list[str | None] = []
    for side in (0, 1):
        game, other = games[side], cards[1 - side]
        if not game.round.legal:
            named.append(game.round.deadlock_error().rule_id)
        elif other is not None and not game.round.legal >> other & 1:
            named.append(forbidding_rule(game, other))
        else:
            named.append(None)
    return named[0], named[1]
