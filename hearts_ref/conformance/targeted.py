"""Targeted games: a campaign's games built to reach every situation of its rules, mixed among the random ones.

Every :func:`targeted_every`-th game of a campaign (every 4th, or 3rd with five roles or more;
every 2nd when a game is one round) plays the policy ``targeted``: its deals are stacked and its plays scripted so that
the game reaches chosen situations (:mod:`.situations`). Targeted game ``j`` of a campaign
takes the role ``j`` modulo the roles of its rules (:func:`roles`), so that every role comes
back every few targeted games, whatever the campaign seed (the seed shuffles the cards the
recipes leave free and picks the seats):

- ``rounds`` (games of several rounds): a round of each recipe of :mod:`.targets`, then, for
  any situation of a round they missed, a round found to reach it; the seats that take the
  most points are the seats with the lowest totals, so the game goes on;
- a recipe (games of one round): that recipe's round;
- an end situation (END-THRESHOLD, WIN-TIE): the rounds :mod:`.endings` planned for it.

With an engine that deals for itself, no deal is stacked: each round the engine dealt is
steered through the passes and plays alone (:mod:`.steered`), toward one situation in turn,
and its scores toward the end situation the game aims at.

Past its planned rounds, and wherever the engine does not allow the planned card, a
targeted game plays on as the uniform policy does. Every plan was checked on the reference;
the counts the report gives are the reference's own (:mod:`.coverage`).

>>> import random
>>> from hearts_ref.variants import Rules
>>> roles(Rules())
('WIN-TIE/2-share', 'END-THRESHOLD/exact', 'rounds', 'WIN-TIE/3-share')
>>> len(game_plan(Rules(), 0, random.Random(0)))   # a tie for the lowest total between two seats
4
"""

from __future__ import annotations

import random

from hearts_ref.cardset import CardSet
from hearts_ref.deals import dealt_turn
from hearts_ref.diff.rounds import RoundPlan, dealt_for
from hearts_ref.game import Game, is_game_over
from hearts_ref.round import RoundState
from hearts_ref.variants import Rules
from hearts_ref.conformance.endings import ENDINGS, ending_plans
from hearts_ref.conformance.policies import Policy
from hearts_ref.conformance.script import direction_options
from hearts_ref.conformance.situations import applicable
from hearts_ref.conformance.steered import Ending, steered_aims, steered_endings, steered_round
from hearts_ref.conformance.targets import outcome, reached, recipes_for, round_for, rotated, searched_round

__all__ = ["Targeted", "TARGETED", "targeted_every", "roles", "game_plan"]

TARGETED = "targeted"
_EVERY_ROUND = ("PASS-CYCLE", "DECK-REMOVED")   # reached by every round the rules deal: no round needed


def targeted_every(rules: Rules) -> int:
    """Every how many games of a campaign one is targeted: 4 (3 when its rules give five roles or more), or 2
    when each game is a single round; so that each role comes back at least six times in 100 games."""
    if rules.max_rounds == 1:
        return 2
    return 3 if len(roles(rules)) >= 5 else 4


def roles(rules: Rules) -> tuple[str, ...]:
    """What the targeted games of a campaign under ``rules`` aim at, in turn (kept per ruleset)."""
    if rules not in _ROLES:
        names = {s.name for s in applicable(rules)}
        ends = tuple(name for name in ENDINGS if name in names)
        rounds = recipes_for(rules) if rules.max_rounds == 1 else ("rounds",)
        _ROLES[rules] = ends[:2] + rounds + ends[2:]       # the first ends early: their bugs show in no other game
    return _ROLES[rules]


_ROLES: dict[Rules, tuple[str, ...]] = {}


def _round_situations(rules: Rules) -> set[str]:
    return {s.name for s in applicable(rules) if s.scope != "end" and s.rule_id not in _EVERY_ROUND}


def _rounds(rules: Rules, rng: random.Random) -> list[RoundPlan]:
    """A round of each recipe, then one for each situation they missed; stops where the game would end."""
    n = rules.players
    totals = (0,) * n
    plans: list[RoundPlan] = []
    seen: set[str] = set()

    def add(plan: RoundPlan | None) -> bool:
        nonlocal totals
        if plan is None:
            return True
        reached, scores = outcome(rules, plan)
        plans.append(plan)
        seen.update(reached)
        totals = tuple(t + s for t, s in zip(totals, scores))
        return not is_game_over(totals, len(plans), rules)

    for recipe in recipes_for(rules):
        # the recipe's main seat takes the most (a moon's shooter the least): the highest total plays it
        seat = max(range(n), key=lambda s: (totals[s], rng.random()))
        if not add(round_for(rules, recipe, rng, seat=seat)):
            return plans
    for name in sorted(_round_situations(rules) - seen):
        found = searched_round(rules, name)
        if found is not None and name not in seen and not add(rotated(rules, found, rng.randrange(n))):
            return plans
    return plans


def game_plan(rules: Rules, index: int, rng: random.Random) -> list[RoundPlan]:
    """The rounds targeted game ``index`` of a campaign plays, planned and checked on the reference."""
    every = roles(rules)
    role = every[index % len(every)]
    n = rules.players
    if role in ENDINGS:
        by = rng.randrange(n)
        plans = [rotated(rules, plan, by) for plan in ending_plans(rules, role)]
        if plans:
            return plans
        role = next(r for r in every if r not in ENDINGS)   # not found under these rules: rounds instead
    if role == "rounds":
        return _rounds(rules, rng)
    plan = round_for(rules, role, rng, seat=rng.randrange(n))
    return [plan] if plan is not None else []


class Targeted(Policy):
    """Plays a game planned by :func:`game_plan`: stacked deals, the passes that lead to them, scripted plays."""

    name = TARGETED

    def __init__(self, rng: random.Random, index: int = 0):
        super().__init__(rng)
        self.index = index
        self.plans: list[RoundPlan] | None = None
        self.planned: dict[int, tuple[RoundPlan, str, tuple[int, ...] | None]] = {}
        self.number = 0       # the round being dealt or played
        self.seen: set[str] = set()    # what the steered rounds of this game reached (an engine that deals)

    def _direction(self, rules: Rules, number: int) -> str:
        """PASS-CYCLE: the direction the decider will give this round (drawn in turn when it lets the policy)."""
        if not self.passing:
            return "none"
        if self.any_direction:
            options = direction_options(rules)
            return options[(self.index + number) % len(options)]
        return rules.pass_direction(number)

    def deal(self, rules: Rules, number: int) -> tuple[CardSet, ...]:
        if self.plans is None:
            self.plans = game_plan(rules, self.index, self.rng)
        self.number = number
        direction = self._direction(rules, number)
        if number > len(self.plans):
            return super().deal(rules, number)
        plan = self.plans[number - 1]
        plan = _for_dealer(rules, plan, number)
        if plan is None:   # (a plan no turn of the seats deals so)
            return super().deal(rules, number)
        dealt, passes = dealt_for(rules, plan.hands, direction)
        self.planned[number] = (plan, direction, passes)
        return tuple(CardSet.from_mask(hand) for hand in dealt)

    def direction(self, rules: Rules, options: tuple[str, ...]) -> str:
        chosen = self._direction(rules, self.number)
        return chosen if chosen in options else super().direction(rules, options)

    def new_round(self, game: Game) -> None:
        self.number = len(game.results) + 1
        if self.engine_deals and game.round is not None:   # the engine dealt: steered through the choices alone
            self._steer(game)

    def _steer(self, game: Game) -> None:
        """The passes and plays of a round the engine dealt (:func:`~.steered.steered_round`): toward the end
        situation of this game (one in turn, game by game), then one round situation in turn (round by round),
        then those this game has not reached yet."""
        state, rules = game.round, game.rules
        aims, ends = steered_aims(rules), steered_endings(rules)
        if not aims:
            return
        aim = aims[(self.index + self.number - 1) % len(aims)]
        ending = Ending(game.totals, self.number, ends[self.index % len(ends)]) if ends else None
        steered = steered_round(rules, state.dealt, state.direction, (aim,), frozenset(aims) - self.seen, ending)
        if steered is not None:
            passes, plan = steered
            self.seen |= reached(rules, plan)
            self.planned[self.number] = (plan, state.direction, passes)

    def _plan(self, state: RoundState) -> tuple[RoundPlan, str, tuple[int, ...] | None] | None:
        planned = self.planned.get(self.number)
        return planned if planned is not None and planned[1] == state.direction else None

    def choose_pass(self, state: RoundState, seat: int) -> int:
        planned = self._plan(state)
        if planned is not None and planned[2] is not None and not planned[2][seat] & ~state.hands[seat]:
            return planned[2][seat]
        return super().choose_pass(state, seat)

    def choose_play(self, state: RoundState, allowed: int) -> int:
        planned = self._plan(state)
        if planned is not None:
            position = len(state.tricks) * state.rules.players + len(state.trick)
            plays = planned[0].plays
            if position < len(plays) and allowed >> plays[position] & 1:
                return plays[position]
        return super().choose_play(state, allowed)


def _for_dealer(rules: Rules, plan: RoundPlan, number: int) -> RoundPlan | None:
    """DEAL-HANDS: ``plan`` as round ``number``'s dealer deals it. With uneven hands the extra cards are the first
    seats' from the dealer's left (DEAL-DEALER): a plan made with other sizes has its seats turned (the rules are
    the same at every seat); None when no turn gives the sizes dealt."""
    by = dealt_turn(rules, plan.hands, (number - 1) % rules.players)
    return None if by is None else rotated(rules, plan, by)
