"""Games built to end as asked: a tie for the lowest total between k seats, the highest total on the threshold.

The end situations (END-THRESHOLD, WIN-TIE) need totals chosen round by round. This module
plans a whole game from rounds whose scores are known in advance: each seat's moon
(:func:`~hearts_ref.diff.rounds.moon_round`), with four players every split of the points
between two takers (:func:`~hearts_ref.diff.rounds.split_round`), and rounds in which one
seat ducks or plays at random, each at every rotation of the seats. Every round is scored by
the engine (:func:`~hearts_ref.diff.rounds.play_plan`), and the end by
:func:`~hearts_ref.game.is_game_over`: a greedy best-first search over the totals finds the
rounds after which the game reaches the situation, and not its end before. A game of one
round that must end as asked is looked for among rounds of random play.

>>> from hearts_ref.variants import Rules
>>> plans = ending_plans(Rules(), "WIN-TIE/3-share")
>>> len(plans) > 0
True
"""

from __future__ import annotations

import heapq
from collections.abc import Callable
from typing import NamedTuple

from hearts_ref.diff.rounds import RoundPlan, ducking_round, moon_round, play_plan, points_of, random_round, split_round
from hearts_ref.errors import HeartsError
from hearts_ref.game import is_game_over
from hearts_ref.scoring import round_scores
from hearts_ref.cardset import JACK_OF_DIAMONDS_BIT, ONE_DECK, POINT_CARDS
from hearts_ref.variants import Rules
from hearts_ref.conformance.situations import BY_NAME
from hearts_ref.conformance.targets import rotated

__all__ = ["Scored", "scored_rounds", "ending_plans", "ENDINGS", "distance"]

EXPANSIONS = 800       # totals expanded by one search, at most
_SAMPLES, _DUCKS = 8, 2
_CLUB = 1 << 12     # the A♣: a card no point


class Scored(NamedTuple):
    """A round decided in advance (``base`` with every seat moved ``rotation`` seats on) and the engine's scores."""

    base: RoundPlan
    rotation: int
    scores: tuple[int, ...]

    def plan(self, rules: Rules) -> RoundPlan:
        return rotated(rules, self.base, self.rotation)


def _moved(scores: tuple[int, ...], by: int) -> tuple[int, ...]:
    """The scores of a round whose seats all moved ``by`` seats on (scoring treats every seat alike)."""
    n = len(scores)
    return tuple(scores[(seat - by) % n] for seat in range(n))


_ROUNDS: dict[Rules, list[Scored]] = {}


def scored_rounds(rules: Rules) -> list[Scored]:
    """The rounds the search builds games from, one per distinct scores (kept per ruleset)."""
    if rules in _ROUNDS:
        return _ROUNDS[rules]
    n = rules.players
    played: list[RoundPlan] = []
    for build in [lambda: moon_round(rules, 0)] + [lambda s=s, d=d: ducking_round(rules, s, d) for s in range(n)
                                                    for d in range(_DUCKS)] + [lambda d=d: random_round(rules, d)
                                                                               for d in range(_SAMPLES)]:
        try:
            played.append(build())
        except HeartsError:
            pass
    found: dict[tuple[int, ...], Scored] = {}
    for plan in played:
        scores = round_scores(plan.taken, rules).scores
        for by in range(n):
            found.setdefault(_moved(scores, by), Scored(plan, by, _moved(scores, by)))
    if n == 4 and _legal(rules, split_round(rules, 0, 1, points_of(1, False))):
        for s, u, h, q in ((s, u, h, q) for s in range(4) for u in range(4) if s != u for q in (False, True)
                           for h in range(14) if (h, q) not in ((0, False), (13, True))):
            scores = round_scores(_split_taken(s, u, points_of(h, q)), rules).scores
            if scores not in found:
                found[scores] = Scored(split_round(rules, s, u, points_of(h, q)), 0, scores)
    _ROUNDS[rules] = list(found.values())
    return _ROUNDS[rules]


def _split_taken(s: int, u: int, to_u: int) -> tuple[int, ...]:
    """What a split round's seats take, as far as scoring reads it: ``u`` the points ``to_u`` (and clubs and
    diamonds), ``s`` the other point cards and the J♦, the two others no trick (see
    :func:`~hearts_ref.diff.rounds.split_round`)."""
    taken = [0] * 4
    taken[u] = to_u | _CLUB
    taken[s] = ((POINT_CARDS & ~to_u) | JACK_OF_DIAMONDS_BIT) & ONE_DECK | _CLUB << 1   # one deck, four players
    return tuple(taken)


def _legal(rules: Rules, plan: RoundPlan) -> bool:
    try:
        return play_plan(rules, plan).taken == plan.taken
    except HeartsError:
        return False


def _lowest_tied(totals: tuple[int, ...]) -> int:
    return totals.count(min(totals))


def _goal(rules: Rules, name: str) -> Callable[[tuple[int, ...], int, bool], bool]:
    situation = BY_NAME[name]
    return lambda totals, number, over: situation.test(totals, totals, over, rules)


def distance(rules: Rules, name: str, totals: tuple[int, ...]) -> int:
    """How far the totals are from the situation: the spread of the seats to tie, the highest total's distance
    to the threshold."""
    ordered = sorted(totals)
    k = int(name.split("/")[1].split("-")[0]) if name.startswith("WIN-TIE") else 1
    return (ordered[k - 1] - ordered[0]) * 2 + abs(rules.end_threshold - ordered[-1])


def _search(rules: Rules, name: str, budget: int) -> list[Scored] | None:
    rounds = scored_rounds(rules)
    goal = _goal(rules, name)
    start = (0,) * rules.players
    queue: list[tuple[int, int, tuple[int, ...], tuple[int, ...]]] = [(0, 0, start, ())]
    seen = {start}
    for _ in range(budget):
        if not queue:
            return None
        _, depth, totals, path = heapq.heappop(queue)
        number = depth + 1
        if rules.max_rounds and number > rules.max_rounds:
            continue
        for index, scored in enumerate(rounds):
            after = tuple(t + s for t, s in zip(totals, scored.scores))
            over = is_game_over(after, number, rules)
            if goal(after, number, over):
                return [rounds[i] for i in path + (index,)]
            if over or after in seen:
                continue
            seen.add(after)
            heapq.heappush(queue, (distance(rules, name, after), number, after, path + (index,)))
    return None


_SAMPLED = 3000   # rounds of random play tried for a game of one round that ends as asked


def _sampled(rules: Rules, name: str) -> list[Scored] | None:
    """A game of one round that reaches ``name``: found among rounds of random play (a tie between three seats
    after one round needs each of them to take the same points, which no built round gives)."""
    goal = _goal(rules, name)
    for seed in range(_SAMPLED):
        try:
            plan = random_round(rules, _SAMPLED + seed)
        except HeartsError:
            continue
        scores = round_scores(plan.taken, rules).scores
        if goal(scores, 1, is_game_over(scores, 1, rules)):
            return [Scored(plan, 0, scores)]
    return None


# The end situations, the most common bugs' first: two seats tied, then the threshold.
ENDINGS = ("WIN-TIE/2-share", "WIN-TIE/2-play-on", "END-THRESHOLD/exact") + tuple(
    f"WIN-TIE/{k}-{how}" for k in (3, 4) for how in ("share", "play-on"))
_PLANS: dict[tuple[Rules, str], tuple[RoundPlan, ...]] = {}


def ending_plans(rules: Rules, name: str) -> tuple[RoundPlan, ...]:
    """The rounds of a game that reaches the end situation ``name`` after its last round; empty when none is
    found. Kept per ruleset."""
    key = (rules, name)
    if key not in _PLANS:
        found = None
        if BY_NAME[name].applies(rules):
            found = _search(rules, name, EXPANSIONS)
            found = found or (_sampled(rules, name) if rules.max_rounds == 1 else None)
        plans = tuple(scored.plan(rules) for scored in found or ())
        expected = [scored.scores for scored in found or ()]
        _PLANS[key] = plans if all(play_plan(rules, plan).score().scores == scores
                                   for plan, scores in zip(plans, expected)) else ()
    return _PLANS[key]
