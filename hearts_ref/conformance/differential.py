"""Differential games: the same deal and the same choices on the reference and on an engine, to the end.

:func:`run_game` plays one game on both sides, in the order of the rules: each round is dealt
(DEAL-HANDS) with its pass direction (PASS-CYCLE), each seat chooses its pass (PASS-COUNT,
PASS-SIMULTANEOUS), the tricks are played (LEAD-*, FOLLOW-*, FIRST-*, TRICK-*), and the last
card scores the round (SCORE-*) and decides the end (END-THRESHOLD, WIN-*). Each decision is
made once, by a policy or a script, and applied to both; after every step the engine's
observation, and before every play its legal set, are judged (:mod:`.judge`).

A game plays on past a difference:

- a legal set that differs is a finding, and play goes on with a card both sides allow; a
  legal card the engine refuses is a finding, and another card is chosen; a game in which
  the engine allows none of the reference's cards ends there;
- an observation that differs is a finding, and each rule is judged from then on on the
  engine's own values (its points, its totals), until its phase or its seat to play leaves
  the reference's: then the game ends;
- each distinct finding (its kind and its rule) is kept once, where it first showed.

With ``stop_at_first`` the game ends at its first finding. An engine failure (a timeout, a
crash, a reply that is not an observation) ends the game as an error; an ``unsupported``
reply ends it as declined.

An engine that deals for itself (``Capabilities.deals``) is sent each round's direction and no
hands; the hands it reports are checked (DEAL-HANDS, DECK-REMOVED: a deal the rules forbid is
an ``illegal-deal`` finding, and the game ends there), given to the decider as the round's
deal, and played on the reference. Its plays are sent one at a time (a departure from a
forecast would replay the game, and the engine would deal other hands).

An engine that plays a whole round in one call (``trace_round``: OpenSpiel's adapter) is sent
a game's first round so, forecast, and the steps are compared all together (:mod:`.quick`);
where anything differs the round is played again step by step, and judged here; so is a round
sent whole to an engine program, unless its reply lines are an agreeing engine's (:mod:`.batch`).
Judging a step, keeping findings and stopping are :mod:`.verdicts`.

>>> from hearts_ref.engine import ReferenceEngine
>>> from hearts_ref.variants import Rules
>>> from hearts_ref.conformance.script import ListSource, ScriptDecider
>>> run = run_game(ReferenceEngine(), Rules(max_rounds=1), ScriptDecider(ListSource([])))
>>> run.findings, run.rounds, run.steps
([], 1, 53)
"""

from __future__ import annotations

import functools
import time
from collections.abc import Callable
from typing import Any

from hearts_ref.cards import Card
from hearts_ref.cardset import CardSet
from hearts_ref.engine import Engine, EngineRejection, Observation, observe_game
from hearts_ref.engines.failures import ENGINE_ERRORS, EngineUnsupported, restart_engine
from hearts_ref.errors import HeartsError
from hearts_ref.game import Game
from hearts_ref.round import RoundState
from hearts_ref.variants import Rules
from hearts_ref.conformance.diagnose import StepFacts, stale_lead
from hearts_ref.conformance.findings import Deviation, GameRun, failure_message
from hearts_ref.conformance.forecast import Forecast, rewinds
from hearts_ref.conformance.judge import TEXT, judge_legal, reference_observation, trick_points
from hearts_ref.conformance.link import link_for
from hearts_ref.conformance.quick import AGAIN, takes_rounds, whole_round
from hearts_ref.conformance.refusals import refused_deal_rules, refused_pass_rules, refused_play_rules
from hearts_ref.conformance.script import Decider
from hearts_ref.conformance.verdicts import FIRST, HANDS_ASTRAY, Verdicts

__all__ = ["Deviation", "GameRun", "Decider", "run_game", "expected_observation"]

expected_observation = reference_observation   # the reference's observation of a game (and its round)

_PASS_TRIES = 3   # passes offered to a seat whose engine refuses legal ones


def run_game(engine: Engine, rules: Rules, decider: Decider, *, negative: Any = None, stop_at_first: bool = False,
             max_steps: int | None = None, max_rounds: int | None = None, deadline: float | None = None,
             clock: Callable[[], float] = time.monotonic, again: Callable[[], Decider] | None = None) -> GameRun:
    """Play one game on the reference and ``engine`` with ``decider``'s choices; return what happened.

    ``negative``: a :class:`~hearts_ref.conformance.negative.NegativeChecks` that offers illegal
    moves first. ``max_steps``: stop (judged up to there) after this many steps; ``max_rounds``
    and ``deadline`` (a ``clock()`` time): stop before dealing a round past them. ``again``: makes
    the game's decider afresh (the same choices again); a first round sent in one go (:mod:`.quick`)
    is then forecast without a snapshot of the decider, and where it differs the game is played
    again from its start, step by step, with a decider made afresh.
    """
    table = _Table(engine, rules, decider, negative, stop_at_first, max_steps, again)
    stopped = table.play(max_rounds, deadline, clock)
    if stopped == AGAIN and again is not None:
        table = _Table(engine, rules, again(), negative, stop_at_first, max_steps)
        table.quick = False
        stopped = table.play(max_rounds, deadline, clock)
    if table.error is not None:
        restart_engine(engine)   # so that one failure fails one game, not every game after it
    return table.outcome("" if stopped == FIRST else stopped)


class _Table(Verdicts):
    """A game in progress on both sides: the reference's game and round, what the engine showed last, the findings
    (:class:`~.verdicts.Verdicts`: judging each step, keeping what it found, deciding when it stops)."""

    def __init__(self, engine: Engine, rules: Rules, decider: Decider, negative: Any, stop_at_first: bool,
                 max_steps: int | None, again: Callable[[], Decider] | None = None):
        super().__init__()
        self.engine, self.rules, self.decider, self.negative = engine, rules, decider, negative
        self.again = again   # makes the decider afresh: the quick round then needs no snapshot of it
        self.engine_deals = _deals(engine)
        forecasts = negative is None and rewinds(decider)
        # moves sent ahead only in a game played to its end: one stopped at a step limit (a shrink's candidate) would
        # send the engine moves past the limit, never judged, and one it ends on would end the next game's engine
        self.link = link_for(engine, lookahead=forecasts and not self.engine_deals and max_steps is None)
        # the first round in one go (.quick), played step by step only when it differs
        self.quick = (forecasts and not self.engine_deals and not self.link.lookahead and max_steps is None
                      and takes_rounds(engine))
        self.stop_at_first = stop_at_first
        self.limit = max_steps if max_steps is not None else 1 << 62
        self.game, self.seen = _new_game(rules)   # the reference's game, and what the engine showed last
        self.state: RoundState | None = None     # the reference's round in play; None once it is scored
        self.number = self.step = 0
        self.synced = True            # whether that is what the reference showed
        self.hands_known = True       # whether the engine's hands are the reference's (this round)
        self.forecast = Forecast(decider)     # a round's plays chosen ahead, for an engine that takes them so
        self.error: Deviation | None = None
        self.unsupported = False
        self._shown_at: RoundState | None = None   # the state whose trick and points ``_shown`` holds
        self._shown: tuple[tuple[str, ...], tuple[int, ...]] = ((), ())
        self._last: tuple[int, ...] | None = None
        self._points: tuple[Any, tuple[int, ...]] = (None, ())   # cards taken (by seat) and their points

    # The game, in the order of the rules -------------------------------------------------------

    def play(self, max_rounds: int | None, deadline: float | None, clock: Callable[[], float]) -> str:
        """Play the game to its end or until it must stop; return why it stopped (``""`` at its end)."""
        stopped = self.start()
        while not stopped and not self.game.over:
            number = len(self.game.results) + 1
            if max_rounds is not None and number > max_rounds:
                return f"round limit: stopped after {max_rounds} rounds"
            if deadline is not None and clock() > deadline:
                return f"time limit: stopped after {number - 1} rounds"
            stopped = self.deal(number) or self.passes() or self.tricks() or self.round_over()
        return stopped or ""

    def start(self) -> str | None:
        where = {"action": "new-game"}
        try:
            self.link.new_game(self.rules)
        except EngineRejection as error:
            return self.refused(Deviation("rejected-legal", (), 0, where,
                                          message=f"the engine refused the rules: {error}"))
        except EngineUnsupported as error:
            return self.declined(error)
        except ENGINE_ERRORS as error:
            return self.failed(where, (), failure_message("new_game()", error))
        return None

    def deal(self, number: int) -> str | None:
        """DEAL-HANDS: the round's hands to both sides; PASS-CYCLE: with the direction the decider chose."""
        decider = self.decider
        decider.round_starts.append(len(decider.script))
        self.number = number
        if self.engine_deals:   # the direction first: the engine deals when it is sent
            hands, direction = None, decider.direction(self.rules, number)
        else:
            hands = decider.deal(self.rules, number)
            direction = decider.direction(self.rules, number)
            self.begin_round(hands, direction)
            whole = whole_round(self, number, hands, direction)   # judged in one go (True), or the game again
            if whole:
                return None if whole is True else whole
        self.step += 1
        where = {"round": number, "action": "deal", "direction": direction}
        try:
            actual = self.link.deal(hands, direction)
        except EngineRejection as error:
            return self.refused(Deviation("rejected-legal", refused_deal_rules(self.rules, error), self.step, where,
                                          message=f"the engine refused the deal: {error}"))
        except EngineUnsupported as error:
            return self.declined(error)
        except ENGINE_ERRORS as error:
            return self.failed(where, refused_deal_rules(self.rules), failure_message("start_round()", error))
        if self.engine_deals:
            stopped = self.engine_deal(where, direction)
            if stopped:
                return stopped
        facts = StepFacts("deal", None, self.state, self.game, previous=self.seen)
        return self.judge(facts, self.observation(self.state), actual, where)

    def begin_round(self, hands: tuple[CardSet, ...], direction: str) -> None:
        """The reference's round dealt with ``hands`` (checked: DEAL-HANDS, DECK-REMOVED), and the decider told."""
        self.game = self.game.deal_round(hands, direction=direction)
        new_round = getattr(self.decider, "new_round", None)
        if new_round is not None:
            new_round(self.game)
        self.state, self.hands_known = self.game.round, True
        self._last = self.game.results[-1].score.scores if self.game.results else None

    def engine_deal(self, where: dict[str, Any], direction: str) -> str | None:
        """DEAL-HANDS, DECK-REMOVED: the hands an engine that deals for itself reports, checked and played."""
        hands = self.link.dealt
        if not isinstance(hands, (tuple, list)) or not all(isinstance(hand, CardSet) for hand in hands):
            return self.failed(where, ("DEAL-HANDS",), f"start_round() of an engine that deals returned "
                                                       f"{type(hands).__name__}, not the hands it dealt")
        where["hands"] = [str(hand) for hand in hands]
        try:
            self.begin_round(tuple(hands), direction)
        except HeartsError as error:
            rule = getattr(error, "rule_id", None) or str(error).split(":", 1)[0]
            self.record(Deviation("illegal-deal", (rule,), self.step, where,
                                  message=f"the engine dealt hands the rules forbid: {error}"))
            return "the engine dealt hands the rules forbid: its game left the reference's"
        taken = getattr(self.decider, "take_deal", None)
        if taken is not None:
            taken(self.rules, tuple(hands))
        return None

    def passes(self) -> str | None:
        """PASS-COUNT, PASS-SIMULTANEOUS: each seat chooses three cards, in the order the decider picks (seats
        choose in any order); they change hands once all have."""
        passer = getattr(self.decider, "passer", None)
        while self.state is not None and self.state.passing:   # (None: the round was judged in one go)
            planned = self.forecast.next_pass(self.state)   # the seat, its cards and the state after, forecast
            if planned is None:
                planned = (passer(self.state) if passer is not None else self.state.to_move), None, None
            stopped = self.pass_cards(*planned)
            if stopped:
                return stopped
        return None

    def pass_cards(self, seat: int, forecast: CardSet | None = None, after: RoundState | None = None) -> str | None:
        before = self.state
        if self.negative is not None:
            stopped = self.offer(lambda: self.negative.before_pass(self.engine, before, seat, self.seen, self.step,
                                                                   self.number))
            if stopped:
                return stopped
        self.step += 1
        for _ in range(_PASS_TRIES):
            cards = forecast if forecast is not None else self.decider.pass_cards(before, seat)
            where = {"round": self.number, "action": "pass", "seat": seat, "cards": str(cards)}
            try:
                actual = self.link.pass_cards(seat, cards)
                break
            except EngineRejection as error:
                stopped = self.record(Deviation("rejected-legal", refused_pass_rules(error), self.step, where,
                                                message=f"the engine refused the legal pass {cards}: {error}"))
                if stopped:
                    return stopped
                self.forecast.depart()
                forecast = after = None
            except EngineUnsupported as error:
                return self.declined(error)
            except ENGINE_ERRORS as error:
                return self.failed(where, ("PASS-COUNT",), failure_message(f"pass_cards({seat}, {cards})", error))
        else:
            return f"the engine refused {_PASS_TRIES} legal passes of seat {seat}"
        self.state = after or before.choose_pass(seat, cards)
        facts = StepFacts("pass", before, self.state, self.game, previous=self.seen)
        return self.judge(facts, self.observation(self.state), actual, where)

    def observation(self, state: RoundState) -> Observation:
        """The reference's observation with ``state`` as its round in play (:func:`~.judge.reference_observation`),
        its points taken worked out once for the cards taken (none are while the cards are passed)."""
        taken, points = self._points
        if state.taken is not taken:
            taken, points = self._points = state.taken, state.points_taken()
        return reference_observation(self.game, state, points)

    def tricks(self) -> str | None:
        """The tricks (LEAD-*, FOLLOW-*, FIRST-*, TRICK-*), one card at a time; the last one scores the round."""
        while self.state is not None:
            stopped = self.play_card(self.state)
            if stopped:
                return stopped
        return None

    def play_card(self, state: RoundState) -> str | None:
        if self.step >= self.limit:
            return "step limit"
        try:
            legal = self.link.legal()
        except EngineUnsupported as error:
            return self.declined(error)
        except ENGINE_ERRORS as error:
            return self.failed(_where(state, None, self.number), (), failure_message("legal_plays()", error))
        engine_legal = getattr(legal, "mask", None)
        if engine_legal != state.legal or self.seen.hearts_broken != state.context.hearts_broken:
            engine_legal = self.legal(state, legal)   # LEAD-*, FOLLOW-*, FIRST-*: the engine's legal set, judged
            if isinstance(engine_legal, str):
                return engine_legal
        allowed = state.legal & engine_legal
        if not state.legal:   # an unsound variant: the seat to move has no legal play
            return (f"the rules deadlock: seat {state.to_play} has no legal play in round {self.number}, trick "
                    f"{len(state.tricks) + 1} (hand {CardSet.from_mask(state.hands[state.to_play])})")
        if not allowed:
            return (f"the engine allows none of the cards the reference allows ({CardSet.from_mask(state.legal)}) "
                    f"in round {self.number}, trick {len(state.tricks) + 1}")
        if self.negative is not None and self.hands_known:
            stopped = self.offer(lambda: self.negative.before_play(self.engine, state, self.seen, engine_legal,
                                                                   self.step, self.number))
            if stopped:
                return stopped
        if self.link.lookahead and not self.link.ahead and not self.forecast:
            self.link.send_ahead(self.forecast.make(state, allowed))
        self.step += 1
        card, after = (self.forecast.plan and self.forecast.next(state, allowed)) or (self.decider.play(state, allowed), None)
        while True:
            try:
                actual = self.link.play(card, state.to_play)
                break
            except EngineRejection as error:
                stopped = self.record(Deviation(
                    "rejected-legal", refused_play_rules(state, card.index, error, self.seen.hearts_broken), self.step,
                    _where(state, card, self.number), message=f"the engine refused the legal play {card}: {error}"))
                allowed &= ~(1 << card.index)
                if stopped or not allowed:
                    return stopped or f"the engine refused every legal play of seat {state.to_play}"
                self.forecast.depart()
                card, after = self.decider.play(state, allowed), None
            except EngineUnsupported as error:
                return self.declined(error)
            except ENGINE_ERRORS as error:
                return self.failed(_where(state, card, self.number), refused_play_rules(state, card.index),
                                   failure_message(f"play({card})", error))
        return self.after_play(state, card, actual, after)

    def legal(self, state: RoundState, legal: Any) -> int | str:
        """LEAD-*, FOLLOW-*, FIRST-*: judge the engine's legal set ``legal``; return it as a mask (or why the game
        stops). The play loop comes here only when it is not the reference's, hearts broken as the engine shows."""
        mask = getattr(legal, "mask", None)
        if not isinstance(mask, int):
            return self.failed(_where(state, None, self.number), (), f"legal_plays() returned {legal!r}, not a CardSet")
        broken = self.seen.hearts_broken
        if self.hands_known and (mask != state.legal or broken != state.context.hearts_broken):
            found = tuple(f.rule_ids[0] for f in self.findings if f.kind == "legal-set" and f.rule_ids)
            finding = judge_legal(state, mask, broken, self.step + 1, _where(state, None, self.number), found)
            if finding is not None:
                if finding.rule_ids[0] in HANDS_ASTRAY:
                    self.hands_known = False
                signature = finding.signature()   # could a stale lead context (LEAD-WINNER) explain it?
                self.stale[signature] = self.stale.get(signature, True) and bool(stale_lead(state, mask, broken))
                stopped = self.record(finding)
                if stopped:
                    return stopped
        return mask

    def after_play(self, before: RoundState, card: Card, actual: Observation, after: RoundState | None) -> str | None:
        """Judge what the engine shows after a play: cheaply while it agrees with the reference."""
        rules = self.rules
        index = card.index
        if len(before.trick) == rules.players - 1 and len(before.tricks) == rules.hand_size - 1:
            # the last card: SCORE-* scores the round, SCORE-TOTAL adds it up, END-THRESHOLD decides
            self.game = self.game._replace(round=before).play(card)
            self.state = None
            facts = StepFacts("play", before, None, self.game, index, self.seen)
            return self.judge(facts, observe_game(self.game), actual, _where(before, card, self.number))
        after = self.state = after or before.play(card)
        trick, points = self.shown(before, after)
        if (self.synced and type(actual) is Observation and actual.to_move == after.to_play
                and actual.trick == trick
                and actual.hearts_broken == after.context.hearts_broken and actual.points_taken == points
                and actual.phase == "play" and actual.round_scores == self._last and actual.totals == self.game.totals
                and not actual.game_over and actual.winners == ()):
            self.seen = actual
            return None
        facts = StepFacts("play", before, after, self.game, index, self.seen)
        return self.judge(facts, reference_observation(self.game, after), actual, _where(before, card, self.number))

    def shown(self, before: RoundState, after: RoundState) -> tuple[tuple[str, ...], tuple[int, ...]]:
        """The trick (as text) and the points taken (SCORE-POINTS) the reference shows after ``before`` played into
        ``after``: from those it showed at ``before`` when they are at hand, so that only what the play changed is
        worked out (the card joins the trick; a trick taken adds to its winner's points)."""
        if self._shown_at is before:
            trick, points = self._shown
        else:
            trick, points = tuple(map(TEXT.__getitem__, before.trick)), before.points_taken()
        if after.trick:
            trick = trick + (TEXT[after.trick[-1]],)
        else:
            trick, points = (), trick_points(points, after, self.rules)
        self._shown_at, self._shown = after, (trick, points)
        return trick, points


@functools.lru_cache(maxsize=16)
def _new_game(rules: Rules) -> tuple[Game, Observation]:
    """A new game of ``rules`` and the reference's observation of it (both immutable: made once per rules)."""
    game = Game.new(rules)
    return game, reference_observation(game)


def _deals(engine: Engine) -> bool:
    """Whether the engine deals for itself (its capabilities say so; an engine that cannot say does not)."""
    try:
        return bool(getattr(engine.capabilities(), "deals", False))
    except ENGINE_ERRORS:
        return False


def _where(state: RoundState, card: Card | None, number: int) -> dict[str, Any]:
    where = {"round": number, "action": "play" if card is not None else "legal-plays",
             "trick": len(state.tricks) + 1, "seat": state.to_play}
    if card is not None:
        where["card"] = str(card)
    return where
