"""OpenSpiel's ``hearts`` game behind the :class:`~hearts_ref.engine.Engine` interface.

OpenSpiel (``pip install open-spiel``, ``import pyspiel``) plays one round of four-player
Hearts. This adapter translates, and adds no rules of its own:

- cards: OpenSpiel's action ``a`` is the card of rank ``a // 4`` (two to ace) in suit
  ``a % 4``, its suits ordered clubs, diamonds, hearts, spades; :func:`check_card_mapping`
  compares the table with OpenSpiel's own ``action_to_string`` before the first game;
- the pass direction (PASS-CYCLE): OpenSpiel draws it as its first chance action
  (0 none, 1 left, 2 across, 3 right: the receiver is ``seat + action``); the adapter
  applies the direction hearts-ref chose;
- the deal (DEAL-HANDS): the 52 deal chance actions, the k-th card to seat ``k % 4``, so
  that OpenSpiel's hands equal the given ones;
- the pass (PASS-SIMULTANEOUS): OpenSpiel takes one card per action, seat 0 first; the
  adapter keeps each seat's choice until the seats before it have chosen;
- the variant parameters (:func:`openspiel_parameters`), and what OpenSpiel cannot play
  (:data:`UNSUPPORTED`, ``multi_round=False``).

The tables of cards, directions and parameters are in :mod:`.openspiel_map`.

Every play is checked against OpenSpiel's ``current_player()`` (a play by another seat is
refused citing TRICK-ORDER) and its ``legal_actions()`` first: an illegal one becomes an
:class:`~hearts_ref.engine.EngineRejection` and pyspiel never sees it. OpenSpiel deals by
chance nodes that the adapter sets from the runner's hands, so it does not deal for itself.

>>> from hearts_ref import Rules, deal
>>> engine = OpenSpielEngine()
>>> engine.new_game(Rules.preset("openspiel"))
>>> engine.start_round(deal(Rules(), seed=7), "none")
>>> observation = engine.observe()
>>> observation.phase, observation.to_move, str(engine.legal_plays())
('play', 3, '2C')
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import Any, NamedTuple

from hearts_ref.cards import CARDS, Card
from hearts_ref.cardset import CardSet
from hearts_ref.engine import Capabilities, EngineRejection, Observation
from hearts_ref.engines.openspiel_map import (
    ACTION_OF_CARD, BIT_OF_ACTION, CARD_OF_ACTION, DIRECTION_ACTIONS, OPENSPIEL_PARAMETERS, TEXT_OF_ACTION, UNSUPPORTED,
    actions_of, check_card_mapping, load_game, mask_of, openspiel_parameters,
)
from hearts_ref.round import trick_winner
from hearts_ref.scoring import card_points
from hearts_ref.variants import Rules

__all__ = ["OpenSpielEngine", "Trace", "MISSING", "openspiel_parameters", "check_card_mapping", "UNSUPPORTED",
           "OPENSPIEL_PARAMETERS", "ACTION_OF_CARD", "CARD_OF_ACTION", "DIRECTION_ACTIONS"]

# Why OpenSpielEngine() cannot be made without open-spiel installed (a ModuleNotFoundError).
MISSING = "OpenSpiel is not installed (no module named 'pyspiel'); install it with: pip install 'hearts-ref[openspiel]'"


class OpenSpielEngine:
    """OpenSpiel's ``hearts`` as an :class:`~hearts_ref.engine.Engine`.

    Keyword ``overrides`` are OpenSpiel game parameters that replace the ones mapped from
    the rules (``OpenSpielEngine(qs_breaks_hearts=True)``): a way to see how the runner
    reports an engine that plays other rules than it was asked to.
    """

    name = "open_spiel/hearts"
    version = "pyspiel"

    def __init__(self, **overrides: bool):
        unknown = sorted(set(overrides) - set(OPENSPIEL_PARAMETERS))
        if unknown:
            raise EngineRejection(f"unknown OpenSpiel hearts parameter(s) {', '.join(unknown)}; "
                                  f"known: {', '.join(OPENSPIEL_PARAMETERS)}")
        self.overrides = dict(overrides)
        self.rules: Rules | None = None
        self.game: Any = None
        self.state: Any = None
        self._pending: dict[int, CardSet] = {}
        self._dealt: tuple[int, ...] = ()
        self._passing = False
        self._passed = 0                 # the seats whose three cards OpenSpiel has taken
        self._played: list[int] = []     # the play actions applied, in order
        self._trick: tuple[str, ...] = ()  # the cards of the trick in progress, as OpenSpiel took them
        self._legal: tuple[int, int] = (-1, 0)   # (plays so far, OpenSpiel's legal cards then, as a mask)
        self._before_last: tuple[int, tuple[int, ...]] = (0, (0, 0, 0, 0))
        self._point_rules = Rules()
        try:
            import pyspiel
        except ImportError:   # one clear error at the start, not a failure in every game
            raise ModuleNotFoundError(MISSING, name="pyspiel") from None
        self.version = getattr(pyspiel, "__version__", "pyspiel")

    def capabilities(self) -> Capabilities:
        return _CAPABILITIES

    def new_game(self, rules: Rules) -> None:
        if rules is not self.rules or self.game is None:   # a campaign's games share their rules: set up once
            reason = self.capabilities().cannot_play(rules)
            if reason is not None:
                raise EngineRejection(f"OpenSpiel's hearts cannot play these rules: {reason}")
            parameters = openspiel_parameters(rules) | self.overrides
            # the card points OpenSpiel counts: its own jd_bonus, which an override may change
            self._point_rules = dataclasses.replace(rules, jd_bonus=parameters["jd_bonus"])
            self.game = load_game(parameters)
            self.rules = rules
        self.state = None

    def start_round(self, hands: Sequence[CardSet], direction: str) -> None:
        if self.game is None:
            raise EngineRejection("no game: call new_game first")
        if self.state is not None:
            raise EngineRejection("OpenSpiel's hearts plays one round per game (multi_round=false)")
        if direction not in DIRECTION_ACTIONS:
            raise EngineRejection(f"unknown pass direction {direction!r}")
        masks = tuple(hand.mask for hand in hands)
        seen = 0
        for mask in masks:
            seen |= mask
        if len(masks) != 4 or any(m.bit_count() != 13 for m in masks) or seen != (1 << 52) - 1:
            raise EngineRejection("OpenSpiel deals four hands of 13 cards covering the deck", "DEAL-HANDS")
        state = self.game.new_initial_state()
        action = DIRECTION_ACTIONS[direction]
        if action not in state.legal_actions():
            raise EngineRejection(f"OpenSpiel cannot pass {direction} with these parameters", "PASS-CYCLE")
        state.apply_action(action)
        # DEAL-HANDS: OpenSpiel gives the k-th card dealt to seat k % 4 (each hand's cards in index order).
        apply_action = state.apply_action
        for dealt in zip(*map(actions_of, masks)):
            for action in dealt:
                apply_action(action)
        self.state = state
        self._dealt = masks
        self._pending = {}
        self._passing = direction != "none"
        self._passed = 0
        self._played = []
        self._trick = ()
        self._legal = (-1, 0)
        self._points = (-1, _ZEROS)   # OpenSpiel's points, read again only when a trick closes

    def _started(self) -> Any:
        if self.state is None:
            raise EngineRejection("no round in play: call start_round first")
        return self.state

    def pass_cards(self, seat: int, cards: CardSet) -> None:
        self._started()
        if not self._passing:
            raise EngineRejection("no pass in this round", "PASS-CYCLE")
        if not 0 <= seat < 4 or seat in self._pending or seat < self.state.current_player():
            raise EngineRejection(f"seat {seat} cannot choose a pass now", "PASS-SIMULTANEOUS")
        if len(cards) != 3 or cards.mask & ~self._dealt[seat]:
            raise EngineRejection(f"seat {seat} must pass three of its own cards, got {cards}", "PASS-COUNT")
        self._pending[seat] = cards
        state = self.state
        # OpenSpiel takes the passes seat by seat, one card per action.
        current = state.current_player()
        while current in self._pending:
            chosen = self._pending.pop(current)
            legal = state.legal_actions()   # the seat's cards not chosen yet: its three distinct cards stay legal
            for action in actions_of(chosen.mask):
                if action not in legal:
                    raise EngineRejection(f"OpenSpiel refuses to pass {CARDS[CARD_OF_ACTION[action]]}", "PASS-COUNT")
                state.apply_action(action)
            self._passed += 1
            current = state.current_player()
        self._passing = self._passed < 4

    def legal_plays(self) -> CardSet:
        state = self.state
        if state is None or self._passing:
            return _NO_CARDS
        # (OpenSpiel has no legal action once the round is over: the mask is 0)
        mask = mask_of(state.legal_actions())
        self._legal = (len(self._played), mask)
        return CardSet.from_mask(mask)

    def play(self, card: Card, seat: int | None = None) -> None:
        state = self._started()
        if self._passing:
            raise EngineRejection("no card can be played while the cards are being passed")
        if seat is not None and seat != state.current_player():   # OpenSpiel plays for its current player
            raise EngineRejection(f"seat {seat} may not play now: it is seat {state.current_player()}'s turn",
                                  "TRICK-ORDER")
        asked, mask = self._legal   # OpenSpiel's legal cards, if asked since the last play
        if asked != len(self._played):
            mask = mask_of(state.legal_actions())
        self._apply(card.index, mask)

    def _apply(self, index: int, mask: int) -> None:
        """Play the card of index ``index``, OpenSpiel's legal cards being ``mask``; refused unless it is one."""
        state, played = self.state, self._played
        if not mask >> index & 1:
            raise EngineRejection(f"OpenSpiel does not allow {CARDS[index]} here" if not state.is_terminal()
                                  else "the round is over")
        action = ACTION_OF_CARD[index]
        if len(played) == 48:   # the last trick begins
            points = state.points
            self._before_last = (state.current_player(), (points(0), points(1), points(2), points(3)))
        state.apply_action(action)
        played.append(action)
        self._trick = self._trick + (TEXT_OF_ACTION[action],) if len(self._trick) < 4 else (TEXT_OF_ACTION[action],)

    def trace_round(self, hands: Sequence[CardSet], direction: str, passes: Sequence[tuple[int, CardSet]],
                    cards: Sequence[int]) -> tuple[list[Observation], Trace, Observation | None]:
        """Play a round's moves in one call (its deal, the passes, the cards by index, each by the seat to move) and
        return what OpenSpiel showed: its observation after the deal and after the last pass; what it showed after
        the other passes and around the cards (a :class:`Trace`: after each of those passes the seat to move and
        hearts broken, the rest the pass phase's with no trick and no points; before each card its legal cards,
        after each but the last the fields a play changes, the rest the play phase's, no round scores, totals at
        zero, the game not over); its observation after the last card. A refused move raises, as the move alone
        would; a card OpenSpiel does not allow ends the trace before it (its legal cards the last entry of
        ``legal``), as does a card the seat does not hold."""
        self.start_round(hands, direction)
        shown = [self.observe()]
        waiting: list[tuple[int, bool]] = []
        legal: list[int] = []
        seats: list[int] = []
        hearts: list[bool] = []
        readings: list[tuple[int, ...]] = []
        trace = Trace(legal, seats, hearts, readings, _TRICK_SIZES, waiting)
        last = len(passes) - 1
        for k, (seat, chosen) in enumerate(passes):
            self.pass_cards(seat, chosen)
            if k < last:   # a pass but the last: the seat to move and hearts broken, as observe() shows them
                waiting.append((self._waiting(), self.state.hearts_broken()))
        if passes:
            shown.append(self.observe())
        if self._passing:
            return shown, trace, None
        # The plays, as play() and play_view() make and show them, with their lookups bound once: OpenSpiel's legal
        # actions before each card, its seat to move and hearts broken after it, its points read again only when a
        # trick closes (the first card's too), as play_view() reads them.
        state, played, last = self.state, self._played, len(cards) - 1
        legal_actions, apply_action, current_player = state.legal_actions, state.apply_action, state.current_player
        hearts_broken, points, bit = state.hearts_broken, state.points, BIT_OF_ACTION
        allowed, seat_to_move, broken, note = legal.append, seats.append, hearts.append, played.append
        taken, scores = self._points
        if taken == 0:   # read when the cards were passed, before the first card: what it shows after it
            readings.append(scores)
        for k, index in enumerate(cards):
            mask = 0
            for action in legal_actions():   # (a loop of |= outdoes sum() on masks past 2**30)
                mask |= bit[action]
            allowed(mask)
            if not mask >> index & 1:
                break
            n = len(played) + 1
            if k == last or n == 49:   # the last trick: as play() keeps it for the round's points
                self._trick = tuple(TEXT_OF_ACTION[a] for a in played[(n - 1) // 4 * 4:])
                self._apply(index, mask)
                if k == last:
                    self._points = (taken, readings[-1] if readings else self._points[1])
                    return shown, trace, self.observe()
            else:
                action = ACTION_OF_CARD[index]
                apply_action(action)
                note(action)
            if taken != n // 4:   # a trick taken (or the first play): OpenSpiel's points read again
                taken = n // 4
                readings.append((points(0), points(1), points(2), points(3)))
            seat_to_move(current_player())
            broken(hearts_broken())
        n = len(played)
        self._trick = tuple(TEXT_OF_ACTION[a] for a in played[(n - 1) // 4 * 4:]) if n else ()
        self._points = (taken, readings[-1] if readings else self._points[1])
        return shown, trace, None

    def observe(self) -> Observation:
        state = self.state
        if state is None:
            return _BEFORE_ROUND
        if self._passing:
            return Observation("pass", self._waiting(), (), state.hearts_broken(), _ZEROS, None, _ZEROS, False, ())
        if len(self._played) == 52 and state.is_terminal():
            points = state.points
            scores = (points(0), points(1), points(2), points(3))
            returns = state.returns()
            best = max(returns)
            # Between rounds the interface shows no trick and hearts not broken (as observe_game does).
            return Observation("game-over", None, (), False, self._raw_points(state), scores, scores, True,
                               tuple(p for p in range(4) if returns[p] == best))
        return Observation("play", *self.play_view(), None, _ZEROS, False, ())

    def _waiting(self) -> int:
        """PASS-SIMULTANEOUS: the seat shown to move while the cards are passed, the lowest from OpenSpiel's current
        player on that has not chosen (else the lowest before it)."""
        pending, current = self._pending, self.state.current_player()
        if current >= 0 and current not in pending:
            return current
        waiting = next((seat for seat in range(max(current, 0), 4) if seat not in pending), None)
        return waiting if waiting is not None else min(set(range(4)) - set(pending) - set(range(current)))

    def play_view(self) -> tuple[int, tuple[str, ...], bool, tuple[int, ...]]:
        """What the observation shows in the play phase: the seat to move, the trick, hearts broken, the points."""
        state = self.state
        # The trick in progress: the plays OpenSpiel has taken since the last trick was complete.
        played = len(self._played)
        trick = self._trick if played % 4 else ()
        tricks = played // 4
        if self._points[0] != tricks:
            points = state.points
            self._points = (tricks, (points(0), points(1), points(2), points(3)))
        return state.current_player(), trick, state.hearts_broken(), self._points[1]

    def _raw_points(self, state: Any) -> tuple[int, ...]:
        """SCORE-POINTS before the moon and the bonuses, at the end of the round.

        OpenSpiel shows only the final scores then, so the adapter adds the last trick's card
        points to the points OpenSpiel showed before it, for the seat that won it (TRICK-WINNER,
        the one rule the adapter applies itself; OpenSpiel's own winner shows in its scores).
        """
        leader, before = self._before_last
        last = [1 << CARD_OF_ACTION[a] for a in self._played[-4:]]
        points = card_points(sum(last), self._point_rules)
        winner = trick_winner(last, (last[0].bit_length() - 1) // 13, leader, 4)
        return tuple(p + (points if seat == winner else 0) for seat, p in enumerate(before))


class Trace(NamedTuple):
    """What OpenSpiel showed around the moves of a round sent in one go (:meth:`OpenSpielEngine.trace_round`).

    ``legal``: its legal cards (a mask) before each card sent, as far as the trace went; after each card but the
    last, ``to_move`` (the seat to move) and ``hearts_broken``; ``points``: its points taken after the first card
    and after each trick closed but the last (the points it shows until the next trick closes); ``trick_sizes``:
    the cards of the trick it shows after each card but the last, which are the last that many cards played;
    ``passing``: after each pass but the last, the seat it shows to move and hearts broken.
    """

    legal: list[int]
    to_move: list[int]
    hearts_broken: list[bool]
    points: list[tuple[int, ...]]
    trick_sizes: tuple[int, ...]
    passing: list[tuple[int, bool]]


_ZEROS = (0, 0, 0, 0)
# What OpenSpiel's hearts can do: one round per game, passing, not the variants of UNSUPPORTED (asked once per game).
_CAPABILITIES = Capabilities(multi_round=False, passing=True, unsupported=dict(UNSUPPORTED))
_TRICK_SIZES = tuple(n % 4 for n in range(1, 52))   # the cards of the trick after each card of a round but the last
_NO_CARDS = CardSet()
_BEFORE_ROUND = Observation("round-over", None, (), False, _ZEROS, None, _ZEROS, False, ())

