"""The decider of a campaign's game: a policy's choices, made on the reference and recorded as a script.

A :class:`PolicyDecider` asks its policy (:mod:`.policies`) for the round's deal, the pass
direction, each seat's pass and each play, always among the reference's legal moves, and
writes every choice into the game's script (:mod:`.script`), so that any game of a campaign
can be replayed, and shrunk, from its script alone.

>>> import random
>>> from hearts_ref.variants import Rules
>>> from hearts_ref.conformance.policies import make_policy
>>> decider = PolicyDecider(make_policy("uniform", random.Random(1)))
>>> hands = decider.deal(Rules(), 1)
>>> decider.direction(Rules(), 1), len(decider.script)    # the deal (a choice per hand but the last), the direction
('left', 4)
"""

from __future__ import annotations

from typing import Any

from hearts_ref.cards import CARDS, Card
from hearts_ref.cardset import CardSet
from hearts_ref.game import Game
from hearts_ref.round import RoundState
from hearts_ref.variants import Rules
from hearts_ref.conformance.policies import Policy
from hearts_ref.conformance.script import deal_code, direction_options, rank_in, subset_rank, waiting_seats

__all__ = ["PolicyDecider"]


class PolicyDecider:
    """Makes every decision of a game with a policy, and records it as a script (:mod:`.script`).

    The pass direction follows PASS-CYCLE, or with ``any_direction`` (for an engine that
    plays one round) the policy draws it; with ``passing=False`` (an engine without passing)
    every round is dealt with direction "none". Seats choose their passes in an order drawn
    from the round's deal (:meth:`passer`), each the pass the policy chose for it in seat order.

    ``engine_deals``: the engine deals for itself (its capabilities say so); the runner then
    takes its hands (:meth:`take_deal`) and :meth:`deal` is not asked: a deal generator reads
    this flag to know that the situations it would construct by dealing cannot be reached so.
    """

    def __init__(self, policy: Policy, *, any_direction: bool = False, passing: bool = True,
                 engine_deals: bool = False):
        self.policy = policy
        self.any_direction = policy.any_direction = any_direction
        self.passing = policy.passing = passing
        self.engine_deals = policy.engine_deals = engine_deals
        self._script: list[int] = []   # the choices made so far (a deal's places filled when the script is read)
        self._deals: list[tuple[int, Rules, tuple[CardSet, ...]]] = []   # deals not written yet: place, rules, hands
        self.round_starts: list[int] = []
        self._passes: dict[int, int] = {}   # the round's passes, chosen in seat order, not yet made
        # a policy that plays uniformly (Policy's own choose_play): its draw, to choose without calling it
        uniform = getattr(policy.choose_play, "__func__", None) is Policy.choose_play   # (its draw, to play uniformly)
        self._uniform = policy.rng.random if uniform else None

    @property
    def script(self) -> list[int]:
        """The choices made so far, as a script (:mod:`.script`); its deals are written (:func:`~.script.deal_code`)
        when it is first read, as most games' scripts never are (only a finding's game is replayed)."""
        if self._deals:
            script = self._script
            for place, rules, hands in self._deals:
                script[place:place + len(hands) - 1] = deal_code(rules, hands)
            self._deals = []
        return self._script

    def _record_deal(self, rules: Rules, hands: tuple[CardSet, ...]) -> None:
        """DEAL-HANDS: a deal into the script, written when the script is read (one choice per hand but the last)."""
        self._deals.append((len(self._script), rules, hands))
        self._script.extend([0] * (len(hands) - 1))

    def deal(self, rules: Rules, number: int) -> tuple[CardSet, ...]:
        hands = self.policy.deal(rules, number)
        self._record_deal(rules, hands)
        return hands

    def direction(self, rules: Rules, number: int) -> str:
        options = direction_options(rules)
        if not self.passing:
            chosen = "none"
        elif self.any_direction:
            chosen = self.policy.direction(rules, options)
        else:
            chosen = rules.pass_direction(number)
        if len(options) > 1:
            self._script.append(options.index(chosen))
        return chosen

    def take_deal(self, rules: Rules, hands: tuple[CardSet, ...]) -> None:
        """DEAL-HANDS: the hands an engine that deals for itself dealt, recorded as the round's deal."""
        self._record_deal(rules, hands)

    def new_round(self, game: Game) -> None:
        self.policy.new_round(game)
        self._passes = {}

    def passer(self, state: RoundState) -> int:
        """PASS-SIMULTANEOUS: the seat that chooses next, in an order drawn from the deal (not from the policy's
        random numbers, so that each seat's pass is the one the policy chose for it)."""
        waiting = waiting_seats(state)
        if len(waiting) == 1:
            return waiting[0]
        if not self._passes and len(waiting) == state.rules.players:
            self._passes = {seat: self.policy.choose_pass(state, seat) for seat in waiting}
        mix = (state.dealt[0] * 0x9E3779B97F4A7C15 >> (8 * len(waiting) + 3)) ^ state.dealt[1]
        k = mix % len(waiting)
        self._script.append(k)
        return waiting[k]

    def pass_cards(self, state: RoundState, seat: int) -> CardSet:
        chosen = self._passes.pop(seat, None)
        if chosen is None:   # not planned (a pass chosen again after a refusal): drawn now
            chosen = self.policy.choose_pass(state, seat)
        self._script.append(subset_rank(state.hands[seat], chosen))
        return CardSet.from_mask(chosen)

    def play(self, state: RoundState, allowed: int) -> Card:
        """The policy's choice among the cards ``allowed``, recorded by its index in the reference's legal plays."""
        legal = state.legal
        if self._uniform is not None:   # uniform play: the card drawn as _pick draws it, its rank the draw itself
            rank = int(self._uniform() * allowed.bit_count())
            chosen = allowed
            for _ in range(rank):   # nth_card(allowed, rank), the hot path of every campaign
                chosen &= chosen - 1
            index = (chosen & -chosen).bit_length() - 1
            if legal & (legal - 1):
                self._script.append(rank if allowed == legal else rank_in(legal, index))
            return CARDS[index]
        index = self.policy.choose_play(state, allowed)
        if legal & (legal - 1):
            self._script.append(rank_in(legal, index))
        return CARDS[index]

    rewinds = True   # snapshot() always gives a place to come back to (forecast.rewinds)

    def snapshot(self) -> Any:
        """Where the choices stand: the policy's random state and the script's length."""
        return self.policy.rng.getstate(), len(self._script)

    def restore(self, mark: Any) -> None:
        state, length = mark
        self.policy.rng.setstate(state)
        del self._script[length:]
        self._deals = [deal for deal in self._deals if deal[0] < length]
