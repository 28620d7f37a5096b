"""The engine as the play loop sees it: one move in, its observation out; a round's plays sent ahead.

:class:`EngineLink` turns each move of a differential game into the engine's calls: the
move, then ``observe()``; ``legal()`` asks for the legal set before a play. A play names the
seat that plays (TRICK-ORDER), passed on to an engine whose ``play`` takes it
(:func:`~hearts_ref.engine.takes_seat`) and dropped for one written for ``play(card)``. Refusals
(:class:`~hearts_ref.engine.EngineRejection`), declines and failures pass through as the
engine raised them, for the play loop to judge.

:class:`LookaheadLink` serves an engine that takes many plays at once (``play_many``: the
stdio client, which then saves a process switch per card). Before the first play of a round
the loop hands it the plays it forecasts for the whole round (the choices it would make if
the engine agreed at every step); the link sends them in one go, and each play the loop
then makes takes its reply from that batch. A play that departs from the forecast (the
engine refused a card, or its legal set led the loop to another) finds the engine already
past it: the link brings the engine back by replaying, from ``new_game``, every move it
accepted, and plays one move at a time for the rest of the game.

An engine that takes a whole round at once (``steps_many``) is sent its deal, passes and
plays together (:meth:`LookaheadLink.send_round`), the first of them as soon as they are
forecast (:meth:`LookaheadLink.sender`); when it can take its replies together
(``take_expected``), :meth:`LookaheadLink.take_round` takes them all, if each is the line
expected (:mod:`.batch`), as if each move had been made.

>>> from hearts_ref.engine import ReferenceEngine
>>> from hearts_ref.variants import Rules
>>> from hearts_ref.deals import deal
>>> link = link_for(ReferenceEngine())
>>> link.new_game(Rules())
>>> link.deal(deal(Rules(), seed=7), "none").to_move, str(link.legal())
(3, '2C')
>>> link.play(Card.parse("2C"), 3).to_move
0
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterator, Sequence
from typing import Any

from hearts_ref.cards import Card
from hearts_ref.cardset import CardSet
from hearts_ref.engine import Engine, EngineRejection, Observation, seated_play, takes_seat
from hearts_ref.variants import Rules

__all__ = ["EngineLink", "LookaheadLink", "ReplayMismatch", "link_for"]


class ReplayMismatch(Exception):
    """Replaying the game's moves on the engine did not bring it back: it refused a move it had taken."""


def link_for(engine: Engine, *, lookahead: bool = True) -> EngineLink:
    """The link for ``engine``: with lookahead when it takes plays together (``play_many``) and ``lookahead``."""
    if lookahead and callable(getattr(engine, "play_many", None)):
        return LookaheadLink(engine)
    return EngineLink(engine)


class EngineLink:
    """Each move is one call to the engine, then one ``observe()``."""

    lookahead = False
    rounds = False    # whether a whole round is sent at once (:meth:`LookaheadLink.send_round`)
    ahead: Any = ()   # moves sent ahead, not taken yet (none: this link sends one at a time)

    def __init__(self, engine: Engine):
        self.engine = engine
        self.seated = takes_seat(engine)       # whether the engine is told who plays
        self._play = seated_play(engine)

    def new_game(self, rules: Rules) -> None:
        self.engine.new_game(rules)

    def deal(self, hands: Sequence[CardSet] | None, direction: str) -> Observation:
        """DEAL-HANDS, PASS-CYCLE: start the round with these hands and this pass direction (see :meth:`dealt`)."""
        self.dealt = self.engine.start_round(hands, direction)
        return self.engine.observe()

    dealt: Any = None
    """What the engine's ``start_round`` returned last: the hands it dealt, from an engine that deals for itself."""

    def pass_cards(self, seat: int, cards: CardSet) -> Observation:
        """PASS-COUNT: ``seat`` chooses these three cards."""
        self.engine.pass_cards(seat, cards)
        return self.engine.observe()

    def legal(self) -> Any:
        """The engine's legal set for the seat to move (whatever it returns: the loop checks it)."""
        return self.engine.legal_plays()

    def play(self, card: Card, seat: int) -> Observation:
        """``seat``, the seat to move, plays ``card``."""
        self._play(card, seat)
        return self.engine.observe()

    def send_ahead(self, plays: Sequence[tuple[Card, int]]) -> None:
        """Nothing to do: this link plays one move at a time."""

    def sender(self, hands: Sequence[CardSet], direction: str) -> Any:
        """Nothing: this link sends no round ahead (see :meth:`LookaheadLink.sender`)."""
        return None


class LookaheadLink(EngineLink):
    """A round's moves sent to the engine at once; a departure from them replays the game."""

    def __init__(self, engine: Engine):
        super().__init__(engine)
        self.lookahead = True
        self.rounds = callable(getattr(engine, "steps_many", None))   # whether a whole round can be sent at once
        self.foresees = self.rounds and callable(getattr(engine, "take_expected", None))   # whether take_round may be tried
        self.seq: int | None = None                 # the seq of the round sent last, while its replies may be foreseen
        self.moves: list[tuple[str, Any]] = []      # every move the engine took since new_game
        self.ahead: deque[tuple[str, Any]] = deque()   # moves sent ahead (kind, move), not taken yet
        self.outcomes: Iterator[Any] = iter(())       # their replies, in order (read as they are taken)
        self.last: Any = None                       # the reply of the move just taken from the batch

    def new_game(self, rules: Rules) -> None:
        self.ahead.clear()
        self.outcomes = iter(())
        self.last = None
        self.lookahead = True
        self.moves = [("new_game", rules)]
        self.engine.new_game(rules)

    def deal(self, hands: Sequence[CardSet] | None, direction: str) -> Observation:
        move = (None if hands is None else tuple(hands), direction)
        taken = self._take("deal", move)
        if taken is not None:
            self.dealt = None
            return taken.observation
        observation = super().deal(hands, direction)
        self.moves.append(("deal", move))
        return observation

    def pass_cards(self, seat: int, cards: CardSet) -> Observation:
        taken = self._take("pass", (seat, cards))
        if taken is not None:
            return taken.observation
        observation = super().pass_cards(seat, cards)
        self.moves.append(("pass", (seat, cards)))
        return observation

    def legal(self) -> Any:
        if self.last is not None:   # the engine is further on: its legal set here came with the reply
            return self.last.legal
        return self.engine.legal_plays()

    def send_ahead(self, plays: Sequence[tuple[Card, int]]) -> None:
        """Send ``plays`` (the round's forecast plays: card and seat) in one go; their replies wait for the loop."""
        if not self.lookahead or self.ahead or not plays:
            return
        try:
            outcomes: list[Any] = list(self._play_many(list(plays)))
        except Exception as error:   # the failure belongs to the first play: the loop judges it there
            outcomes = [error]
        self.ahead = deque(move for move, _ in zip((("play", play) for play in plays), outcomes))
        self.outcomes = iter(outcomes)

    def send_round(self, hands: Sequence[CardSet], direction: str, passes: Sequence[tuple[int, CardSet]],
                   plays: Sequence[tuple[Card, int]]) -> bool:
        """Send a whole round in one go (its deal, the passes and the plays forecast: one round trip), when the
        engine takes one (``steps_many``); return whether it was sent. Each reply waits for its move."""
        if not self.lookahead or self.ahead or not self.rounds:
            return False
        moves = [("deal", (tuple(hands), direction))] + [("pass", p) for p in passes] + [("play", p) for p in plays]
        self.seq = None
        try:
            self.outcomes = iter(self.engine.steps_many(moves))
            if self.foresees:
                self.seq = self.engine.round_seq
        except Exception as error:   # the failure belongs to the first move: the loop judges it there
            self.outcomes = iter([error])
        self.ahead = deque(moves)
        return True

    def sender(self, hands: Sequence[CardSet], direction: str) -> Any:
        """What sends a round's moves on as they are forecast (``make_round``'s sink: the engine starts on the deal
        while the plays are still being chosen), for the :meth:`send_round` to come; None when the engine cannot
        take them early (``send_early``) or no round is to be sent."""
        send = getattr(self.engine, "send_early", None)
        if not self.foresees or not self.lookahead or self.ahead or send is None:
            return None
        return _Early(send, ("deal", (tuple(hands), direction)))

    def round_seq(self) -> int | None:
        """The seq of the round's first command, for an engine whose replies can be foreseen (``take_expected``): the round
        just sent (:meth:`send_round`), none of its replies taken yet; else None."""
        if self.seq is None or not self.ahead or self.ahead[0][0] != "deal":
            return None
        return self.seq

    def take_round(self, lines: Sequence[bytes]) -> Any:
        """Take every reply of the round sent when each is its line of ``lines`` (what the engine writes when it
        agrees with the reference at every step), as if each move had been made; return the last reply's step.

        Else return None and take nothing: the replies are left for the moves, in order, and the engine is not
        asked to foresee them again in this game (one that writes its replies otherwise is not slowed down)."""
        engine = self.engine
        if len(lines) != len(self.ahead) or not engine.take_expected(lines):
            self.foresees = False
            return None
        self.moves += self.ahead
        self.ahead.clear()
        self.outcomes = iter(())
        self.dealt = None
        self.last = engine.last_step
        return self.last

    def _play_many(self, plays: list[tuple[Card, int]]) -> Any:
        cards = [card for card, _ in plays]
        if not self.seated:
            return self.engine.play_many(cards)
        return self.engine.play_many(cards, [seat for _, seat in plays])

    def play(self, card: Card, seat: int) -> Observation:
        taken = self._take("play", (card, seat))
        if taken is not None:
            return taken.observation
        observation = super().play(card, seat)
        self.moves.append(("play", (card, seat)))
        return observation

    def _take(self, kind: str, move: Any) -> Any:
        """The reply to this move, sent ahead (raised when it was a refusal or a failure); or None, the engine brought
        back first if it had been sent other moves, when the move must be made now."""
        self.last = None
        if not self.ahead:
            return None
        forecast = self.ahead[0]
        if forecast != (kind, move):
            self._replay()   # the game departed from the forecast: the engine has been sent other moves
            return None
        self.ahead.popleft()
        outcome = next(self.outcomes, None)
        if outcome is None:   # no reply came for it (a failure before it ended the engine)
            self.ahead.clear()
            return None
        if isinstance(outcome, BaseException):
            if not isinstance(outcome, EngineRejection):   # a failure: the rest was not (or not all) answered
                self.ahead.clear()
            raise outcome
        self.last = outcome
        self.moves.append(forecast)
        return outcome

    def _replay(self) -> None:
        """Bring the engine back to the game's last move taken: a new game, then every move it took."""
        self.ahead.clear()
        self.outcomes = iter(())
        self.last = None
        self.lookahead = False
        engine = self.engine
        plays: list[tuple[Card, int]] = []
        for kind, move in self.moves:
            if kind != "play" and plays:
                self._replay_plays(plays)
                plays = []
            if kind == "new_game":
                engine.new_game(move)
            elif kind == "deal":
                engine.start_round(*move)
            elif kind == "pass":
                engine.pass_cards(*move)
            else:
                plays.append(move)
        if plays:
            self._replay_plays(plays)

    def _replay_plays(self, plays: list[tuple[Card, int]]) -> None:
        for (card, _), outcome in zip(plays, self._play_many(plays)):
            if isinstance(outcome, BaseException):
                raise ReplayMismatch(f"replaying the game, the engine refused {card}, which it had taken "
                                     f"before: {outcome}")


class _Early:
    """A sink for :meth:`~.forecast.Forecast.make_round`: the deal, then the moves forecast so far, sent on early."""

    def __init__(self, send: Any, deal: tuple[str, Any]):
        self.send = send
        self.deal: Any = [deal]    # (sent with the first moves)
        self.passes = self.plays = 0   # the passes and plays sent
        self.stopped = False

    def __call__(self, passes: Sequence[tuple[Any, ...]], plan: Sequence[tuple[Any, ...]]) -> None:
        if self.stopped:
            return
        moves = self.deal + [("pass", (seat, cards)) for _, seat, cards, _ in passes[self.passes:]] + [
            ("play", (card, before.to_play)) for before, card, _ in plan[self.plays:]]
        if not self.send(moves):   # (past the first window, or the engine cannot take them): the rest goes together
            self.stopped = True
            return
        self.deal, self.passes, self.plays = [], len(passes), len(plan)
