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
>>> from hearts_ref.conformance.policies import PolicyDecider, make_policy
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
from hearts_ref.round import RoundState

__all__ = ["Forecast"]


class Forecast:
    """The plays chosen ahead for the rest of a round, and how to take them back."""

    def __init__(self, decider: Any):
        self.decider = decider
        self.plan: deque[tuple[RoundState, Card, RoundState]] = deque()   # plays forecast and not made yet
        self.mark: Any = None                  # the decider as it was before the forecast
        self.made: list[RoundState] = []       # the states at which forecast plays were made

    def __bool__(self) -> bool:
        return bool(self.plan)

    def make(self, state: RoundState, allowed: int) -> list[tuple[Card, int]]:
        """Choose the plays from ``state`` to the end of the round, ``allowed`` the cards of the first; return them,
        each as its card and the seat that plays it."""
        decider = self.decider
        self.mark, self.made = decider.snapshot(), []
        plan = []
        while True:
            card = decider.play(state, allowed)
            after = state.play(card)
            plan.append((state, card, after))
            if after.is_over or not after.legal:
                break
            state, allowed = after, after.legal
        self.plan = deque(plan)
        return [(card, before.to_play) for before, card, _ in plan]

    def next(self, state: RoundState, allowed: int) -> tuple[Card, RoundState] | None:
        """The forecast play at ``state`` and the state after it, while the engine agrees (``allowed`` is the
        reference's whole legal set); else None, the forecast dropped."""
        if not self.plan:
            return None
        before, card, after = self.plan[0]
        if before is not state or allowed != state.legal:
            self.depart()
            return None
        self.plan.popleft()
        self.made.append(before)
        if not self.plan:
            self.mark, self.made = None, []
        return card, after

    def depart(self) -> None:
        """Drop the forecast: the decider goes back to it and makes again the choices played since."""
        if self.mark is None:
            return
        self.plan.clear()
        self.decider.restore(self.mark)
        for before in self.made:
            self.decider.play(before, before.legal)
        self.mark, self.made = None, []
