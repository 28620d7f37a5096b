"""Playing whole games with simple policies: random passes and uniformly random legal plays.

Every choice comes from an explicit ``random.Random``, so a game is reproducible from its seed.

>>> from hearts_ref.variants import Rules
>>> game = random_game(Rules(), seed=3)
>>> game.over, sum(r.score.points[0] + r.score.points[1] + r.score.points[2] + r.score.points[3]
...                for r in game.results) == 26 * len(game.results)
(True, True)
"""

from __future__ import annotations

import random
from collections.abc import Callable

from hearts_ref.cards import CARDS, Card
from hearts_ref.cardset import CardSet
from hearts_ref.game import Game
from hearts_ref.round import PASS_SIZE, RoundState
from hearts_ref.variants import Rules

__all__ = ["random_card", "random_pass", "random_game", "PlayPolicy", "PassPolicy"]

PlayPolicy = Callable[[RoundState, random.Random], Card]
PassPolicy = Callable[[RoundState, int, random.Random], CardSet]


def random_card(state: RoundState, rng: random.Random) -> Card:
    """Return a legal play of the seat to move, each equally likely."""
    legal = state.legal
    for _ in range(int(rng.random() * legal.bit_count())):
        legal &= legal - 1   # drop the lowest card
    return CARDS[(legal & -legal).bit_length() - 1]


def random_pass(state: RoundState, seat: int, rng: random.Random) -> CardSet:
    """Return three cards of ``seat``'s hand, each choice equally likely (PASS-COUNT)."""
    return CardSet(rng.sample(list(state.hand(seat)), PASS_SIZE))


def play_round_choices(game: Game, rng: random.Random, *, play: PlayPolicy = random_card,
                       choose_pass: PassPolicy = random_pass) -> Game:
    """Return the game after its current round is played to the end by the policies (or to a deadlock)."""
    number = len(game.results)
    while not game.over and not game.deadlocked and len(game.results) == number:
        state = game.round
        if state.passing:
            seat = state.to_move
            game = game.choose_pass(seat, choose_pass(state, seat, rng))
        else:
            game = game.play(play(state, rng))
    return game


def random_game(rules: Rules, *, seed: int, play: PlayPolicy = random_card,
                choose_pass: PassPolicy = random_pass, round_limit: int | None = None) -> Game:
    """Return a finished game dealt from ``seed``, with every choice made by the policies.

    The deals come from ``seed``; the choices from a second generator seeded from it. Under
    rules that can deadlock, the game returned may instead stop at the deadlock
    (``game.deadlocked``: FIRST-NO-POINTS), with the round in play and no winners. With
    ``round_limit``, a game not over after that many rounds is returned as it stands (an
    ``end_threshold`` no seat reaches soon, and no ``max_rounds``).
    """
    rng = random.Random(f"hearts-ref-policy:{seed}")
    game = Game.new(rules, seed=seed)
    while not game.over and not game.deadlocked and (round_limit is None or len(game.results) < round_limit):
        game = play_round_choices(game, rng, play=play, choose_pass=choose_pass)
    return game
