"""The engine interface: what an engine offers so that hearts-ref can judge it, and the reference engine.

An engine is a stateful object with a few methods (:class:`Engine`). The conformance
runner drives it and the reference side by side and compares :class:`Observation` s.
Engines in other languages speak the same methods over the JSON-lines stdio protocol
(``spec/protocol/``); the adapters turn them into this interface.

>>> from hearts_ref import CardSet, Rules, complete_deal
>>> engine = ReferenceEngine()
>>> engine.new_game(Rules())
>>> engine.start_round(complete_deal(Rules(), {}), "none")
>>> str(engine.legal_plays()), engine.observe().to_move
('2C', 0)
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol, runtime_checkable

from hearts_ref.cards import Card
from hearts_ref.cardset import CardSet
from hearts_ref.errors import HeartsError, IllegalPlayError
from hearts_ref.game import Game
from hearts_ref.variants import PARAMETERS, Rules

__all__ = ["Capabilities", "Observation", "Engine", "EngineRejection", "ReferenceEngine", "observe_game",
           "observation_problem",
           "takes_seat", "seated_play"]


class EngineRejection(HeartsError):
    """An engine refused a pass or a play; ``reason`` is its own words, ``rule_id`` its rule if it names one."""

    def __init__(self, reason: str, rule_id: str | None = None):
        prefix = f"{rule_id}: " if rule_id and not reason.startswith(f"{rule_id}:") else ""
        super().__init__(prefix + reason)
        self.reason = reason
        self.rule_id = rule_id


@dataclass(frozen=True)
class Capabilities:
    """What an engine can do. The runner skips, with the reason, what an engine declares it cannot.

    Returned by :meth:`Engine.capabilities`; over the stdio protocol, the ``capabilities``
    object of the ``hello`` reply, with the same fields.

    Attributes:
        multi_round: False if the engine plays one round per game only; it is then judged on
            games of one round (``max_rounds = 1``) and on the vectors of one round.
        passing: False if the engine has no passing; its rounds are dealt with direction
            ``"none"`` and the cases that pass cards are skipped.
        unsupported: a variant parameter's name → the values the engine cannot play
            (``{"players": (3, 5, 6)}``); a case or game under rules with one of them is
            skipped, with that reason (:meth:`cannot_play`).
        known_deviations: rule IDs or vector case IDs where the engine knowingly differs from
            the reference; their failures are reported as *expected-fail*, and a listed case
            that passes as *unexpected-pass*.
        deals: True if the engine shuffles and deals for itself: :meth:`Engine.start_round` is
            then given no hands (``None``) and returns the hands it dealt, which the runner
            checks (DEAL-HANDS, DECK-REMOVED) and plays on the reference. The vectors and
            the perft counts, which need given hands, are skipped.
        play_seat: True if the engine is told the seat that plays and refuses a seat that is
            not to move (TRICK-ORDER). Over the stdio protocol the engine declares it in its
            hello, and ``play`` then carries ``seat``; in process it is read from the
            signature of :meth:`Engine.play` (:func:`takes_seat`), whatever this field says.
        protocol: the version of the stdio protocol the engine speaks (the one its hello agreed;
            in process, the highest). Two decks (``decks = 2``, DECK-CARDS) need protocol 2,
            which writes a second deck's cards as ``JC#2``: a protocol-1 engine cannot play them
            and their games are skipped, with that reason. Not a field of the hello's
            ``capabilities`` object (the hello's ``protocol`` is).
    """

    multi_round: bool = True
    passing: bool = True
    unsupported: dict[str, tuple[Any, ...]] = field(default_factory=dict)
    known_deviations: tuple[str, ...] = ()
    deals: bool = False
    play_seat: bool = False
    protocol: int = 2

    def cannot_play(self, rules: Rules) -> str | None:
        """Return why the engine cannot play ``rules`` (a sentence), or None when it can."""
        if self.protocol < 2 and rules.decks != 1:
            return (f"a game with two decks (decks=2) needs protocol 2, which writes the second deck's cards as "
                    f"'JC#2' (DECK-CARDS); the engine speaks protocol {self.protocol}")
        for name, values in self.unsupported.items():
            if getattr(rules, name) in values and not rules.changes_nothing(name):
                return f"engine does not support {name}={getattr(rules, name)!r}"
        return None

    def to_dict(self) -> dict[str, Any]:
        return {"multi_round": self.multi_round, "passing": self.passing,
                "unsupported": {k: list(v) for k, v in self.unsupported.items()},
                "known_deviations": list(self.known_deviations), "deals": self.deals, "play_seat": self.play_seat}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Capabilities:
        known = {p.name for p in PARAMETERS}
        unsupported = {k: tuple(v) for k, v in (data.get("unsupported") or {}).items() if k in known}
        return cls(bool(data.get("multi_round", True)), bool(data.get("passing", True)), unsupported,
                   tuple(data.get("known_deviations") or ()), bool(data.get("deals", False)),
                   bool(data.get("play_seat", False)))


@dataclass(frozen=True, init=False)
class Observation:
    """Everything a player could see, plus the score sheet: what the runner compares at every step.

    Returned by :meth:`Engine.observe`; over the stdio protocol, the ``observation`` object,
    with the same fields. Every field is compared with ``==`` to the reference's, so the types
    matter: cards are strings (``"2C"``, ``"10H"``, never :class:`~hearts_ref.cards.Card`
    objects), sequences are tuples of ints, seats are ints.

    Attributes:
        phase: ``"pass"`` (seats are choosing their passes), ``"play"`` (a card is due),
            ``"round-over"`` (no round in play: right after :meth:`Engine.new_game` and after
            each round but the last) or ``"game-over"``.
        to_move: the seat to play; while passing, the lowest seat that has not chosen yet;
            None in ``"round-over"`` and ``"game-over"``.
        trick: the cards of the trick in progress as strings, in play order (TRICK-ORDER);
            ``()`` between tricks and outside a round.
        hearts_broken: whether hearts are broken in the round in play (BREAK-DISCARD,
            BREAK-QUEEN); False as soon as the round's last trick is played, and outside a round.
        points_taken: the raw points each seat has taken in tricks this round, by seat
            (SCORE-POINTS; with ``jd_bonus`` the J♦'s −10 included, SCORE-JACK); after a round,
            that round's; zeros before the first.
        round_scores: the scores of the last finished round, after SCORE-MOON and
            SCORE-NO-TRICKS, by seat; None until the first round ends.
        totals: the running totals, by seat (SCORE-TOTAL).
        game_over: whether the game has ended (END-THRESHOLD, or ``max_rounds`` played); False at a
            deadlock (FIRST-NO-POINTS), which is shown as it is: the play phase, the stuck seat
            to move, no legal play, no winners.
        winners: the seats with the lowest total, in increasing seat order, once the game is
            over (WIN-LOWEST, WIN-TIE); ``()`` before.
    """

    phase: str                          # "pass", "play", "round-over" or "game-over"
    to_move: int | None
    trick: tuple[str, ...]              # the current trick's cards in play order ("2C", …)
    hearts_broken: bool
    points_taken: tuple[int, ...]       # raw points taken so far this round (SCORE-POINTS)
    round_scores: tuple[int, ...] | None   # the last finished round's scores (SCORE-MOON …)
    totals: tuple[int, ...]             # running totals (SCORE-TOTAL)
    game_over: bool                     # END-THRESHOLD
    winners: tuple[int, ...]            # WIN-LOWEST, WIN-TIE

    def __init__(self, phase: str, to_move: int | None, trick: tuple[str, ...], hearts_broken: bool,
                 points_taken: tuple[int, ...], round_scores: tuple[int, ...] | None, totals: tuple[int, ...],
                 game_over: bool, winners: tuple[int, ...]):
        # The fields set in one step (a frozen dataclass's own __init__ sets them one at a time):
        # the runner builds an observation at every step of every game.
        self.__dict__.update(phase=phase, to_move=to_move, trick=trick, hearts_broken=hearts_broken,
                             points_taken=points_taken, round_scores=round_scores, totals=totals,
                             game_over=game_over, winners=winners)

    def to_dict(self) -> dict[str, Any]:
        return {"phase": self.phase, "to_move": self.to_move, "trick": list(self.trick),
                "hearts_broken": self.hearts_broken, "points_taken": list(self.points_taken),
                "round_scores": None if self.round_scores is None else list(self.round_scores),
                "totals": list(self.totals), "game_over": self.game_over, "winners": list(self.winners)}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Observation:
        scores = data.get("round_scores")
        return cls(str(data["phase"]), data.get("to_move"), tuple(data.get("trick") or ()),
                   bool(data["hearts_broken"]), tuple(data["points_taken"]),
                   None if scores is None else tuple(scores), tuple(data["totals"]),
                   bool(data["game_over"]), tuple(data.get("winners") or ()))


_SEQUENCES = ("trick", "points_taken", "round_scores", "totals", "winners")   # tuples (round_scores may be None)


def observation_problem(observation: Observation) -> str:
    """What in ``observation`` can never equal the reference's, whatever the game, or ``""``: its fields are compared
    with ``==``, and a list never equals the tuple of its items, nor a ``Card`` the string that names it.

    >>> observation_problem(Observation("play", 0, [], False, (0,) * 4, None, (0,) * 4, False, ()))
    'its trick is a list, not a tuple'
    >>> from hearts_ref.cards import Card
    >>> observation_problem(Observation("play", 0, (Card.parse("2C"),), False, (0,) * 4, None, (0,) * 4, False, ()))
    "its trick holds Card.parse('2C') (a Card), not the card's name as a string ('2C')"
    """
    for name in _SEQUENCES:
        value = getattr(observation, name)
        if not isinstance(value, tuple) and not (value is None and name == "round_scores"):
            return f"its {name} is {'None' if value is None else 'a ' + type(value).__name__}, not a tuple"
    wrong = next((card for card in observation.trick if not isinstance(card, str)), None)
    if wrong is not None:
        return f"its trick holds {wrong!r} (a {type(wrong).__name__}), not the card's name as a string ('{wrong}')"
    if not isinstance(observation.phase, str):
        return f"its phase is a {type(observation.phase).__name__}, not a string"
    return ""


@runtime_checkable
class Engine(Protocol):
    """The in-process engine interface. Methods raise :class:`EngineRejection` to refuse a move."""

    name: str
    version: str

    def capabilities(self) -> Capabilities: ...

    def new_game(self, rules: Rules) -> None:
        """Forget everything and get ready for a game under ``rules`` (totals at zero)."""

    def start_round(self, hands: Sequence[CardSet] | None, direction: str) -> Sequence[CardSet] | None:
        """Start the next round with these hands (seat order) and pass direction.

        An engine that deals for itself (``Capabilities.deals``) is given ``None``: it deals,
        and returns the hands it dealt, one card set per seat in seat order.
        """

    def pass_cards(self, seat: int, cards: CardSet) -> None:
        """``seat`` chooses these three cards to pass."""

    def legal_plays(self) -> CardSet:
        """The cards the seat to move may play now (empty outside the play phase)."""

    def play(self, card: Card, seat: int | None = None) -> None:
        """``seat`` plays ``card``; refuse it (TRICK-ORDER) when ``seat`` is not to move. None: the seat to move.

        An engine whose ``play`` takes the card alone (``play(self, card)``, as written for the
        first version of this interface) keeps working: the runner reads the signature
        (:func:`takes_seat`) and then never offers a play by a seat that is not to move.
        """

    def observe(self) -> Observation:
        """The observable state now."""


_TAKES_SEAT: dict[Any, bool] = {}   # play's function -> whether it takes a seat after the card


def takes_seat(engine: Any) -> bool:
    """Whether ``engine.play`` is told the seat that plays (``play(card, seat)``), not the card alone.

    An adapter that knows says so with a ``seat_in_play`` attribute (the stdio client: what the
    engine's hello declared); otherwise ``play``'s signature decides: a second positional
    parameter, or ``*args``.

    >>> class Old:
    ...     def play(self, card): ...
    >>> takes_seat(Old()), takes_seat(ReferenceEngine())
    (False, True)
    """
    told = getattr(engine, "seat_in_play", None)
    if isinstance(told, bool):
        return told
    play = getattr(engine, "play", None)
    key = getattr(play, "__func__", play)
    known = _TAKES_SEAT.get(key)
    if known is None:
        try:
            parameters = list(inspect.signature(play).parameters.values())
        except (TypeError, ValueError):
            parameters = []
        positional = [p for p in parameters if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
        known = _TAKES_SEAT[key] = len(positional) >= 2 or any(p.kind == p.VAR_POSITIONAL for p in parameters)
    return known


def seated_play(engine: Any) -> Callable[[Card, int], None]:
    """Return ``play(card, seat)`` for ``engine``: its own ``play`` if it takes the seat, else one that drops it."""
    play = engine.play
    if takes_seat(engine):
        return play
    return lambda card, seat: play(card)


def observe_game(game: Game) -> Observation:
    """Return the :class:`Observation` of a reference :class:`~hearts_ref.game.Game`."""
    last = game.results[-1].score.scores if game.results else None
    state = game.round
    if state is None:
        n = game.rules.players
        return Observation("game-over" if game.over else "round-over", None, (), False,
                           game.results[-1].score.points if game.results else (0,) * n,
                           last, game.totals, game.over, game.winners)
    return Observation(state.phase, state.to_move, tuple(str(c) for c in state.current_trick()),
                       state.hearts_broken, state.points_taken(), last, game.totals, False, ())


class ReferenceEngine:
    """hearts-ref's own engine behind the :class:`Engine` interface."""

    name = "hearts-ref"
    version = "0.1.0"

    def __init__(self) -> None:
        self.game: Game | None = None

    def capabilities(self) -> Capabilities:
        return Capabilities(play_seat=True)

    def new_game(self, rules: Rules) -> None:
        self.game = Game.new(rules)

    def _game(self) -> Game:
        if self.game is None:
            raise EngineRejection("no game: call new_game first")
        return self.game

    def start_round(self, hands: Sequence[CardSet], direction: str) -> None:
        try:
            self.game = self._game().deal_round(tuple(hands), direction=direction)
        except HeartsError as error:
            raise EngineRejection(str(error), getattr(error, "rule_id", None)) from None

    def pass_cards(self, seat: int, cards: CardSet) -> None:
        try:
            self.game = self._game().choose_pass(seat, cards)
        except HeartsError as error:   # an illegal pass, or no round in play
            raise EngineRejection(str(error), getattr(error, "rule_id", None)) from None

    def legal_plays(self) -> CardSet:
        game = self._game()
        return game.round.legal_plays() if game.round is not None else CardSet()

    def play(self, card: Card, seat: int | None = None) -> None:
        try:
            game = self._game()
            if seat is not None and game.round is not None:
                game.round.check_turn(seat)   # TRICK-ORDER: no play out of turn
            self.game = game.play(card)
        except IllegalPlayError as error:
            raise EngineRejection(str(error), error.rule_id) from None
        except HeartsError as error:
            raise EngineRejection(str(error), getattr(error, "rule_id", None)) from None

    def observe(self) -> Observation:
        return observe_game(self._game())
