"""Differential games: the same deal and the same choices on the reference and on an engine.

:func:`run_game` deals each round to both, makes each decision once (a policy or a
script decides, from the reference's options) and applies it to both, and after every
step compares the engine's :class:`~hearts_ref.engine.Observation` with the reference's,
and before every play the legal sets. It stops at the first difference and describes
it as a :class:`Deviation` with the rule IDs it concerns (:mod:`.diagnose`).

The reference side runs the immutable :class:`~hearts_ref.round.RoundState` directly and
builds its observation incrementally (the points only change when a trick is taken);
judging :class:`~hearts_ref.engine.ReferenceEngine`, whose observations come from
:func:`~hearts_ref.engine.observe_game`, under many variants finds no difference
(``tests/test_conformance_runner.py``).

>>> from hearts_ref.engine import ReferenceEngine
>>> from hearts_ref.variants import Rules
>>> from hearts_ref.conformance.script import ListSource, ScriptDecider
>>> run = run_game(ReferenceEngine(), Rules(max_rounds=1), ScriptDecider(ListSource([])))
>>> run.deviation is None, run.rounds, run.steps
(True, 1, 53)
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

from hearts_ref.cards import CARDS, Card
from hearts_ref.cardset import CardSet
from hearts_ref.engine import Engine, EngineRejection, Observation, observe_game
from hearts_ref.engines.failures import ENGINE_ERRORS, EngineUnsupported, failure_text, restart_engine
from hearts_ref.game import Game
from hearts_ref.round import RoundState
from hearts_ref.scoring import card_points
from hearts_ref.conformance.diagnose import (
    Difference, legal_rules, observation_differences, observation_rules, permitting_rule,
)
from hearts_ref.variants import Rules

__all__ = ["Deviation", "GameRun", "Decider", "run_game", "expected_observation"]

_TEXT = tuple(str(card) for card in CARDS)


@dataclass(frozen=True)
class Deviation:
    """The first difference between an engine and the reference in one game.

    ``kind``: "observation", "legal-set", "rejected-legal" (the engine refused a legal
    move), "accepted-illegal", "wrong-rule" (an illegal move refused citing another rule than the
    reference's) and "state-changed" (negative checks), "engine-error".
    """

    kind: str
    rule_ids: tuple[str, ...]
    step: int
    where: dict[str, Any]
    differences: tuple[Difference, ...] = ()
    message: str = ""

    def signature(self) -> tuple[str, str]:
        """What makes two deviations the same finding: the kind and the first rule ID."""
        return (self.kind, self.rule_ids[0] if self.rule_ids else "")

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "rule_ids": list(self.rule_ids), "step": self.step, "where": self.where,
                "differences": [{"field": d.field, "expected": _plain(d.expected), "actual": _plain(d.actual)}
                                for d in self.differences],
                "message": self.message}


def _plain(value: Any) -> Any:
    if isinstance(value, tuple):
        return [_plain(v) for v in value]
    if isinstance(value, CardSet):
        return str(value)
    return value


@dataclass
class GameRun:
    """One differential game: its script, its first deviation (or None), its size, its negative checks."""

    script: list[int]
    deviation: Deviation | None
    steps: int
    rounds: int
    checks: dict[str, list[int]] = field(default_factory=dict)   # rule ID -> [passed, failed]
    stopped: str = ""   # why the game ended before its end without a deviation ("step limit", a deadlock)
    round_starts: list[int] = field(default_factory=list)   # where each round's choices begin in the script
    game: Game | None = None   # the reference's finished game, when the game was played to its end
    unsupported: bool = False   # stopped because the engine declined (an ``unsupported`` reply)


class Decider(Protocol):
    """Makes the decisions of a game (a policy or a script) and records them as a script."""

    script: list[int]
    round_starts: list[int]

    def deal(self, rules: Rules, number: int) -> tuple[CardSet, ...]: ...
    def direction(self, rules: Rules, number: int) -> str: ...
    def pass_cards(self, state: RoundState, seat: int) -> CardSet: ...
    def play(self, state: RoundState) -> Card: ...


def expected_observation(game: Game, state: RoundState | None = None) -> Observation:
    """Return the reference's observation of ``game`` with ``state`` as its round in play."""
    if state is None:
        return observe_game(game)
    last = game.results[-1].score.scores if game.results else None
    return Observation(state.phase, state.to_move, tuple(_TEXT[c] for c in state.trick), state.hearts_broken,
                       state.points_taken(), last, game.totals, False, ())


class _Stop(Exception):
    """Ends a game early: at a deviation, or (``deviation=None``) for the reason given."""

    def __init__(self, deviation: Deviation | None, reason: str = "", *, unsupported: bool = False):
        self.deviation = deviation
        self.reason = reason
        self.unsupported = unsupported


def _call(step: int, where: dict[str, Any], rule_ids: tuple[str, ...], method: Any, *args: Any) -> None:
    """Call an engine method with a legal move; a refusal or a crash is a deviation."""
    try:
        method(*args)
    except EngineRejection as error:
        named = (error.rule_id,) if error.rule_id and error.rule_id not in rule_ids else ()
        raise _Stop(Deviation("rejected-legal", rule_ids + named, step, where,
                              message=f"the engine refused a legal move: {error}")) from None
    except EngineUnsupported as error:   # the engine declines these rules: the game is skipped, not failed
        raise _Stop(None, f"the engine declined: {error}", unsupported=True) from None
    except ENGINE_ERRORS as error:   # the engine itself failed: report it, do not crash the runner
        raise _Stop(Deviation("engine-error", rule_ids, step, where,
                              message=failure_text(error))) from None


def _observe(engine: Engine, step: int, where: dict[str, Any]) -> Observation:
    try:
        return engine.observe()
    except ENGINE_ERRORS as error:
        raise _Stop(Deviation("engine-error", (), step, where,
                              message=f"observe() failed: {failure_text(error)}")) from None


def _taken(game: Game) -> tuple[int, ...]:
    taken = [0] * game.rules.players
    for trick in game.results[-1].tricks:
        for index in trick.indices:
            taken[trick.winner] |= 1 << index
    return tuple(taken)


def run_game(engine: Engine, rules: Rules, decider: Decider, *, negative: Any = None,
             max_steps: int | None = None, max_rounds: int | None = None,
             deadline: float | None = None, clock: Callable[[], float] = time.monotonic) -> GameRun:
    """Play one game on the reference and ``engine`` with ``decider``'s choices; return what happened.

    The decider chooses each round's pass direction too (PASS-CYCLE's, or any, for an
    engine that plays one round). ``negative``: a
    :class:`~hearts_ref.conformance.negative.NegativeChecks` that offers illegal moves first.
    ``max_steps``: stop (without a deviation) after this many steps; ``max_rounds`` and
    ``deadline`` (a ``clock()`` time): stop before dealing a round past them, so that a game
    under a huge ``end_threshold`` cannot run for ever.
    """
    step = 0
    rounds = 0
    where: dict[str, Any] = {"action": "new-game"}
    try:
        _call(0, where, (), engine.new_game, rules)
        game = Game.new(rules)
        while not game.over:
            number = len(game.results) + 1
            if max_rounds is not None and number > max_rounds:
                raise _Stop(None, f"round limit: stopped after {max_rounds} rounds")
            if deadline is not None and clock() > deadline:
                raise _Stop(None, f"time limit: stopped after {number - 1} rounds")
            rounds = number
            decider.round_starts.append(len(decider.script))
            hands = decider.deal(rules, number)
            direction = decider.direction(rules, number)
            game = game.deal_round(hands, direction=direction)
            new_round = getattr(decider, "new_round", None)
            if new_round is not None:
                new_round(game)
            step += 1
            where = {"round": number, "action": "deal", "direction": direction}
            _call(step, where, ("DEAL-HANDS",), engine.start_round, hands, direction)
            state = game.round
            _compare(engine, expected_observation(game, state), step, where, "deal", None, state, rules, game)
            while state.passing:
                seat = state.to_move
                if negative is not None:
                    negative.before_pass(engine, state, seat, expected_observation(game, state), step, number)
                cards = decider.pass_cards(state, seat)
                before, state = state, state.choose_pass(seat, cards)
                step += 1
                where = {"round": number, "action": "pass", "seat": seat, "cards": str(cards)}
                _call(step, where, ("PASS-COUNT",), engine.pass_cards, seat, cards)
                _compare(engine, expected_observation(game, state), step, where, "pass", before, state, rules, game)
            if negative is None and max_steps is None and hasattr(engine, "play_many"):
                game, step = _play_round_sent_together(engine, rules, decider, game, state, step, number)
            else:
                game, step = _play_round(engine, rules, decider, game, state, step, number, negative, max_steps)
    except _Stop as stop:
        counts = negative.counts if negative is not None else {}
        if stop.deviation is not None and stop.deviation.kind == "engine-error":
            restart_engine(engine)
        if stop.deviation is None:
            return GameRun(decider.script, None, step, rounds, counts, stop.reason, decider.round_starts,
                           unsupported=stop.unsupported)
        return GameRun(decider.script, stop.deviation, stop.deviation.step, rounds, counts, "", decider.round_starts)
    return GameRun(decider.script, None, step, rounds, negative.counts if negative is not None else {}, "",
                   decider.round_starts, game)


def _play_round(engine: Engine, rules: Rules, decider: Decider, game: Game, state: RoundState, step: int,
                number: int, negative: Any, max_steps: int | None) -> tuple[Game, int]:
    """The hot loop: every play of one round, compared step by step.

    The engine's observation is compared field by field with the reference's values; the
    reference's :class:`Observation` is only built when something differs.
    """
    last = game.results[-1].score.scores if game.results else None
    totals = game.totals
    taken = state.taken
    points = _points(taken, rules)
    final = rules.hand_size * rules.players
    played = 0
    text = _TEXT.__getitem__
    limit = max_steps if max_steps is not None else 1 << 62
    legal_plays, observe, play = engine.legal_plays, engine.observe, engine.play
    choose = decider.play
    while True:
        if step >= limit:
            raise _Stop(None, "step limit")
        try:
            actual_legal = legal_plays()
        except ENGINE_ERRORS as error:
            raise _Stop(Deviation("engine-error", (), step + 1, _play_where(state, None, number),
                                  message=f"legal_plays() failed: {failure_text(error)}")) from None
        if getattr(actual_legal, "mask", None) != state.legal:
            raise _Stop(_legal_deviation(state, actual_legal, step + 1, number))
        if not state.legal:   # an unsound variant: the seat to move has no legal play
            raise _Stop(None, f"the rules deadlock: seat {state.to_play} has no legal play in round {number}, "
                              f"trick {len(state.tricks) + 1} (hand {CardSet.from_mask(state.hands[state.to_play])})")
        if negative is not None:
            expected = Observation("play", state.to_play, tuple(map(text, state.trick)),
                                   state.context.hearts_broken, points, last, totals, False, ())
            negative.before_play(engine, state, expected, step, number)
        card = choose(state)
        played += 1
        step += 1
        before = state
        if played == final:   # the last card: the reference scores the round (SCORE-*, END-*)
            game = game._replace(round=state).play(card)
            _call_play(engine, card, state, step, number)
            _compare(engine, observe_game(game), step, _play_where(before, card, number), "play", before, None,
                     rules, game, card.index)
            return game, step
        state = state.play(card)
        try:
            play(card)
        except ENGINE_ERRORS as error:
            raise _Stop(_play_failure(error, card, before, step, number)) from None
        if state.taken is not taken:
            taken = state.taken
            points = _points(taken, rules)
        trick = tuple(map(text, state.trick))
        try:
            actual = observe()
            same = (actual.to_move == state.to_play and actual.trick == trick
                    and actual.hearts_broken == state.context.hearts_broken and actual.points_taken == points
                    and actual.phase == "play" and actual.round_scores == last and actual.totals == totals
                    and not actual.game_over and actual.winners == ())
        except ENGINE_ERRORS as error:
            raise _Stop(Deviation("engine-error", (), step, _play_where(before, card, number),
                                  message=f"observe() failed: {failure_text(error)}")) from None
        if not same:
            expected = Observation("play", state.to_play, trick, state.context.hearts_broken, points, last,
                                   totals, False, ())
            _compare(engine, expected, step, _play_where(before, card, number), "play", before, state, rules,
                     game, card.index, actual)


def _play_round_sent_together(engine: Any, rules: Rules, decider: Decider, game: Game, state: RoundState,
                              step: int, number: int) -> tuple[Game, int]:
    """The round's plays for an engine that takes them all at once (``play_many``, the stdio client).

    The choices come from the reference, so the whole round is decided first and sent in
    one go; each play's reply still carries the engine's observation and next legal set,
    compared in order exactly as :func:`_play_round` does, stopping at the first difference.
    """
    first_legal = engine.legal_plays()
    if getattr(first_legal, "mask", None) != state.legal:
        raise _Stop(_legal_deviation(state, first_legal, step + 1, number))
    befores, cards, marks = [], [], []
    final = game
    while True:
        if not state.legal:   # an unsound variant: compare what was played, then stop
            break
        card = decider.play(state)
        befores.append(state)
        cards.append(card)
        marks.append(len(decider.script))
        if len(cards) == rules.hand_size * rules.players:
            final = game._replace(round=state).play(card)
            break
        state = state.play(card)
    try:
        outcomes = engine.play_many(cards)
    except ENGINE_ERRORS as error:   # the engine failed (a timeout, a crash, nonsense): a deviation, not a crash
        raise _Stop(Deviation("engine-error", (), step + 1, _play_where(befores[0], cards[0], number),
                              message=f"while playing the round: {failure_text(error)}")) from None
    for k, (before, card, outcome) in enumerate(zip(befores, cards, outcomes)):
        step += 1
        if isinstance(outcome, Exception):
            del decider.script[marks[k]:]
            raise _Stop(_play_failure(outcome, card, before, step, number))
        last = k == len(cards) - 1 and final is not game
        after_game = final if last else game
        after = None if last else (befores[k + 1] if k + 1 < len(befores) else state)
        expected = observe_game(final) if last else expected_observation(game, after)
        if outcome.observation != expected:
            del decider.script[marks[k]:]
            _compare(engine, expected, step, _play_where(before, card, number), "play", before, after, rules,
                     after_game, card.index, outcome.observation)
        if not last and outcome.legal.mask != after.legal:
            del decider.script[marks[k]:]
            raise _Stop(_legal_deviation(after, outcome.legal, step + 1, number))
    if final is game:   # the reference has no legal play left: the rules deadlock
        raise _Stop(None, f"the rules deadlock: seat {state.to_play} has no legal play in round {number}, "
                          f"trick {len(state.tricks) + 1} (hand {CardSet.from_mask(state.hands[state.to_play])})")
    return final, step


def _points(taken: tuple[int, ...], rules: Rules) -> tuple[int, ...]:
    """SCORE-POINTS: the raw points of the cards each seat has taken (as RoundState.points_taken)."""
    return tuple([card_points(cards, rules) for cards in taken])


def _call_play(engine: Engine, card: Card, before: RoundState, step: int, number: int) -> None:
    try:
        engine.play(card)
    except ENGINE_ERRORS as error:
        raise _Stop(_play_failure(error, card, before, step, number)) from None


def _play_failure(error: Exception, card: Card, before: RoundState, step: int, number: int) -> Deviation:
    """The deviation of an engine that refused a legal play (or failed on it)."""
    where = _play_where(before, card, number)
    if isinstance(error, EngineRejection):
        rule = permitting_rule(before.hands[before.to_play], before.context, before.rules, card.index)
        named = (error.rule_id,) if error.rule_id and error.rule_id != rule else ()
        return Deviation("rejected-legal", (rule,) + named, step, where,
                         message=f"the engine refused the legal play {card}: {error}")
    return Deviation("engine-error", (), step, where, message=f"play({card}) failed: {failure_text(error)}")


def _play_where(state: RoundState, card: Card | None, number: int) -> dict[str, Any]:
    where = {"round": number, "action": "play" if card is not None else "legal-plays",
             "trick": len(state.tricks) + 1, "seat": state.to_play}
    if card is not None:
        where["card"] = str(card)
    return where


def _legal_deviation(state: RoundState, actual: Any, step: int, number: int) -> Deviation:
    where = {"round": number, "action": "legal-plays", "trick": len(state.tricks) + 1, "seat": state.to_play}
    mask = getattr(actual, "mask", None)
    if not isinstance(mask, int):
        return Deviation("engine-error", (), step, where, message=f"legal_plays() returned {actual!r}")
    expected = CardSet.from_mask(state.legal)
    return Deviation("legal-set", legal_rules(state, mask), step, where,
                     (Difference("legal", str(expected), str(actual)),),
                     f"legal plays differ: expected {expected}, engine {actual}")


def _compare(engine: Engine, expected: Observation, step: int, where: dict[str, Any], action: str,
             before: RoundState | None, after: RoundState | None, rules: Rules, game: Game,
             last_card: int | None = None, actual: Observation | None = None) -> None:
    """Raise :class:`_Stop` with the deviation when the engine's observation differs from ``expected``."""
    if actual is None:
        actual = _observe(engine, step, where)
    if actual == expected:
        return
    if not isinstance(actual, Observation):
        raise _Stop(Deviation("engine-error", (), step, where,
                              message=f"observe() returned {type(actual).__name__}, not an Observation"))
    differences = observation_differences(expected, actual)
    if not differences:
        return
    taken = _taken(game) if after is None and game.results else None
    ids = observation_rules(differences, action=action, before=before, after=after, rules=rules,
                            last_card=last_card, taken=taken, totals=game.totals)
    text = "; ".join(f"{d.field}: expected {_plain(d.expected)}, engine {_plain(d.actual)}" for d in differences)
    raise _Stop(Deviation("observation", ids, step, where, tuple(differences), text))
