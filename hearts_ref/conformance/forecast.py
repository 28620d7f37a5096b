"""Forecasting a round's plays: the decider's choices made ahead, kept while the engine agrees.

An engine program that takes many plays at once (:class:`~.link.LookaheadLink`) is sent a
whole round's plays before the first of them: :meth:`Forecast.make` has the decider choose
them as if the engine agreed at every step, with the reference's state after each. The play
loop then takes each play from the forecast (:meth:`Forecast.next`) as long as the engine's
legal set is the reference's; when it is not, or a card is refused, the forecast is dropped
and the decider goes back to where it was and makes again the choices played since
(:meth:`Forecast.depart`), so that a game's choices are the same whether its plays were sent
one at a time or together.

>>> import random
>>> from hearts_ref.deals import deal
>>> from hearts_ref.round import start_round
>>> from hearts_ref.variants import Rules
>>> from hearts_ref.conformance.decider import PolicyDecider
>>> from hearts_ref.conformance.policies import make_policy
>>> decider = PolicyDecider(make_policy("uniform", random.Random(1)))
>>> state = start_round(Rules(), deal(Rules(), seed=1), direction="none")
>>> forecast = Forecast(decider)
>>> plays = forecast.make(state, state.legal)
>>> len(plays), plays[0], forecast.next(state, state.legal)[0]
(52, (Card.parse('2C'), 3), Card.parse('2C'))
"""

from __future__ import annotations

from collections import deque
from typing import Any

from hearts_ref.cards import Card
from hearts_ref.cardset import CardSet
from hearts_ref.round import RoundState

__all__ = ["Forecast", "rewinds"]


def rewinds(decider: Any) -> bool:
    """Whether ``decider`` can go back to where it was (``snapshot()``, ``restore()``), so that its choices can be made
    ahead: as it says (``rewinds``), else whether its ``snapshot()`` gives a place to come back to."""
    said = getattr(decider, "rewinds", None)
    if said is not None:
        return bool(said)
    return callable(getattr(decider, "snapshot", None)) and decider.snapshot() is not None


class Forecast:
    """The passes and plays chosen ahead for the rest of a round, and how to take them back."""

    def __init__(self, decider: Any):
        self.decider = decider
        self.passes: deque[tuple[RoundState, int, CardSet, RoundState]] = deque()   # passes forecast, not made yet
        self.plan: deque[tuple[RoundState, Card, RoundState]] = deque()   # plays forecast and not made yet
        self.mark: Any = None                  # the decider as it was before the forecast
        self.made: list[tuple[RoundState, int | None]] = []   # where forecast choices were made: (state, seat passing)

    def __bool__(self) -> bool:
        return bool(self.plan)

    def make(self, state: RoundState, allowed: int) -> list[tuple[Card, int]]:
        """Choose the plays from ``state`` to the end of the round, ``allowed`` the cards of the first; return them,
        each as its card and the seat that plays it."""
        self.mark, self.made = self.decider.snapshot(), []
        self._plan(state, allowed)
        return [(card, before.to_play) for before, card, _ in self.plan]

    def make_round(self, state: RoundState, sink: Any = None, *, mark: bool = True, indices: bool = False) -> tuple[
            list[tuple[int, CardSet]], list[Any]]:
        """Choose a round's passes (PASS-SIMULTANEOUS: the seats in the order the decider picks) and plays from its
        deal ``state``, as if the engine agreed at every step; return them: each pass as its seat and cards, each
        play as its card and seat. ``sink``: told the passes and the plays chosen so far once half the round's cards
        are chosen, to send them on while the rest is chosen. ``mark``: take a snapshot of the decider, to come back
        to (without one, the caller makes the decider afresh when the engine differs).
        ``indices``: each play as its card's index alone (what an engine that plays a round in one call is sent).
        """
        decider = self.decider
        self.mark, self.made = decider.snapshot() if mark else None, []
        passer = getattr(decider, "passer", None)
        passes = []
        while state.passing:
            seat = passer(state) if passer is not None else state.to_move
            cards = decider.pass_cards(state, seat)
            after = state.choose_pass(seat, cards)
            passes.append((state, seat, cards, after))
            state = after
        self.passes = deque(passes)
        half = sum(map(int.bit_count, state.hands)) // 2 if sink is not None else -1   # (the sink's cue)
        if state.to_play >= 0 and state.legal:
            self._plan(state, state.legal, sink, passes, half)
        else:
            self.plan = deque()
        if not passes and not self.plan:
            self.mark = None
        plan = self.plan
        plays = [card.index for _, card, _ in plan] if indices else [(card, before.to_play) for before, card, _ in plan]
        return [(seat, cards) for _, seat, cards, _ in passes], plays

    def _plan(self, state: RoundState, allowed: int, sink: Any = None, passes: Any = (), half: int = -1) -> None:
        """The plays from ``state`` to the end of the round, chosen by the decider: the plan."""
        choose, plan = self.decider.play, []
        add = plan.append
        while True:
            card = choose(state, allowed)
            after = state.play(card)
            add((state, card, after))
            if sink is not None and len(plan) == half:
                sink(passes, plan)
            allowed = after.legal
            if not allowed:   # the round is over (no seat to play has a legal set), or a deadlock
                break
            state = after
        self.plan = deque(plan)

    def next_pass(self, state: RoundState) -> tuple[int, CardSet, RoundState] | None:
        """The forecast pass at ``state``: the seat, its cards and the state after it; else None (none forecast)."""
        if not self.passes:
            return None
        before, seat, cards, after = self.passes[0]
        if before is not state:
            self.depart()
            return None
        self.passes.popleft()
        self._made(before, seat)
        return seat, cards, after

    def next(self, state: RoundState, allowed: int) -> tuple[Card, RoundState] | None:
        """The forecast play at ``state`` and the state after it, while the engine agrees (``allowed`` is the
        reference's whole legal set); else None, the forecast dropped."""
        if not self.plan:
            return None
        before, card, after = self.plan[0]
        if before is not state or allowed != state.legal:
            self.depart()
            return None
        plan = self.plan
        plan.popleft()
        self.made.append((before, None))
        if not plan and not self.passes:   # every choice forecast is made: nothing to take back
            self.mark, self.made = None, []
        return card, after

    def _made(self, before: RoundState, seat: int | None) -> None:
        self.made.append((before, seat))
        if not self.plan and not self.passes:   # every choice forecast is made: nothing to take back
            self.mark, self.made = None, []

    def keep(self) -> None:
        """Every choice forecast was made (the engine took the round in one go): nothing to take back."""
        self.plan.clear()
        self.passes.clear()
        self.mark, self.made = None, []

    def depart(self) -> None:
        """Drop the forecast: the decider goes back to it and makes again the choices made since."""
        if self.mark is None:
            return
        self.plan.clear()
        self.passes.clear()
        decider = self.decider
        decider.restore(self.mark)
        passer = getattr(decider, "passer", None)
        for before, seat in self.made:
            if seat is None:
                decider.play(before, before.legal)
                continue
            if passer is not None:
                passer(before)
            decider.pass_cards(before, seat)
        self.mark, self.made = None, []
