"""A whole game: rounds until the end condition, totals and winners (END-*, WIN-*).

>>> from hearts_ref.variants import Rules
>>> game = Game.new(Rules(), seed=1)
>>> game.round_number, game.round.direction, game.dealer
(1, 'left', 0)
"""

from __future__ import annotations

from typing import NamedTuple

from hearts_ref.cards import Card
from hearts_ref.cardset import CardSet
from hearts_ref.errors import HeartsError
from hearts_ref.deals import deal
from hearts_ref.round import RoundState, Trick, start_round
from hearts_ref.scoring import RoundScore
from hearts_ref.variants import Rules

__all__ = ["Game", "RoundResult", "is_game_over", "winners"]


class RoundResult(NamedTuple):
    """A finished round as it happened: the deal, the passes, the tricks and the score."""

    number: int
    dealer: int
    direction: str
    dealt: tuple[int, ...]
    passes: tuple[int, ...]
    tricks: tuple[Trick, ...]
    score: RoundScore


def is_game_over(totals: tuple[int, ...], rounds_played: int, rules: Rules) -> bool:
    """END-THRESHOLD and WIN-TIE: whether the game ends after a round leaving these ``totals``."""
    if rules.max_rounds and rounds_played >= rules.max_rounds:
        return True
    # END-THRESHOLD: some player's total has reached the threshold (passed it, under ">").
    if rules.end_comparison == ">=":
        reached = any(total >= rules.end_threshold for total in totals)
    else:
        reached = any(total > rules.end_threshold for total in totals)
    if not reached:
        return False
    # WIN-TIE: under "play-on" a tie for the lowest total means another round: the game ends only when one player's
    # total is below every other one.
    return rules.ties == "shared" or any(all(other > total for seat, other in enumerate(totals) if seat != lowest)
                                         for lowest, total in enumerate(totals))


def winners(totals: tuple[int, ...]) -> tuple[int, ...]:
    """WIN-LOWEST, WIN-TIE: the seats with the lowest total (all of them share the win)."""
    low = min(totals)
    return tuple(seat for seat, total in enumerate(totals) if total == low)


_new = tuple.__new__   # a named tuple built from its fields in order, without _make's checks


class Game(NamedTuple):
    """The state of a game. Immutable: every method returns a new game.

    With a ``seed`` each round is dealt from it; without one, :meth:`deal_round` takes
    explicit hands when a round is due (``game.round is None and not game.over``).
    """

    rules: Rules
    seed: int | str | None
    results: tuple[RoundResult, ...]
    totals: tuple[int, ...]
    round: RoundState | None
    over: bool

    @classmethod
    def new(cls, rules: Rules, *, seed: int | str | None = None) -> Game:
        """Return a new game; with a ``seed`` its first round is dealt already."""
        game = cls(rules, seed, (), (0,) * rules.players, None, False)
        return game.deal_round(deal(rules, seed=_round_seed(seed, 1), dealer=0)) if seed is not None else game

    @property
    def round_number(self) -> int:
        """The number of the round in play (1-based), or of the next one to deal."""
        return len(self.results) + (0 if self.over else 1)

    @property
    def dealer(self) -> int:
        """DEAL-DEALER: seat 0 deals the first round, then the deal passes clockwise."""
        return (self.round_number - 1) % self.rules.players

    @property
    def winners(self) -> tuple[int, ...]:
        """WIN-LOWEST: the winners of a finished game (empty while it goes on)."""
        return winners(self.totals) if self.over else ()

    @property
    def deadlocked(self) -> bool:
        """FIRST-NO-POINTS: the seat to play has no legal play. Play stops there: the round is not
        scored, no total changes, and the game ends without winners."""
        return self.round is not None and self.round.deadlocked

    def deal_round(self, hands: tuple[CardSet, ...], *, direction: str | None = None) -> Game:
        """Return the game with the next round started from these ``hands``.

        PASS-CYCLE sets the pass direction unless ``direction`` is given (an engine that
        draws it by chance, as OpenSpiel does, is judged with the direction it drew).
        """
        if self.over:
            raise HeartsError("END-THRESHOLD: the game is over; no more rounds are dealt")
        if self.round is not None:
            raise HeartsError(f"DEAL-HANDS: round {self.round_number} is still being played")
        number = len(self.results) + 1   # DEAL-DEALER: dealt by seat (number - 1) mod n
        state = start_round(self.rules, hands, direction=direction or self.rules.pass_direction(number),
                            dealer=(number - 1) % self.rules.players)
        return self._replace(round=state)

    def choose_pass(self, seat: int, cards: CardSet) -> Game:
        """Return the game after ``seat`` chooses the cards to pass (see :meth:`RoundState.choose_pass`)."""
        return self._replace(round=self._current().choose_pass(seat, cards))

    def play(self, card: Card) -> Game:
        """Return the game after the seat to move plays ``card``; a finished round is scored at once."""
        state = self._current().play(card)
        if not state.is_over:   # the game with its round in play moved on (what _replace(round=state) gives)
            return _new(Game, (self.rules, self.seed, self.results, self.totals, state, self.over))
        return self._finish(state)

    def end_round(self, state: RoundState) -> Game:
        """Return the game once its round has ended at ``state``, a state its round in play reached by its plays (a
        caller that has played them already does not play the last card again): scored as :meth:`play` scores it."""
        if not state.is_over:
            raise HeartsError("SCORE-TOTAL: the round is not over: it cannot be scored")
        return self._finish(state)

    def _current(self) -> RoundState:
        if self.round is None:
            raise HeartsError("DEAL-HANDS: no round in play" + (" (the game is over)" if self.over else ""))
        return self.round

    def _finish(self, state: RoundState) -> Game:
        """SCORE-TOTAL: add the round's scores to the totals; END-THRESHOLD: stop or deal again."""
        number = len(self.results) + 1
        score = state.score()
        result = RoundResult(number, (number - 1) % self.rules.players, state.direction, state.dealt,
                             state.passes, state.tricks, score)
        totals = tuple(t + s for t, s in zip(self.totals, score.scores))
        results = self.results + (result,)
        over = is_game_over(totals, len(results), self.rules)
        game = self._replace(results=results, totals=totals, round=None, over=over)
        if over or self.seed is None:
            return game
        return game.deal_round(deal(self.rules, seed=_round_seed(self.seed, number + 1),
                                    dealer=number % self.rules.players))


def _round_seed(seed: int | str | None, number: int) -> str:
    """Each round's deal comes from the game seed and the round number, so any round can be re-dealt."""
    return f"hearts-ref:{seed}:{number}"
