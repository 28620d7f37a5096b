"""Differences at the scale of rounds: the scores of a round, the end of the game, the pass direction.

Once the rounds themselves play alike, the sides can still part when a round is scored
(SCORE-MOON, SCORE-NO-TRICKS), when the game ends (END-THRESHOLD, WIN-TIE) or when a later
round passes (PASS-CYCLE).

- :func:`end_question` compares the end of the game and the next round's pass direction at
  every round number a game can reach, for totals at and around each side's threshold, with
  the lowest total alone and shared. END-THRESHOLD reads the totals only through the highest
  one and WIN-TIE only through whether the lowest is shared (a test holds the engine to this),
  so these totals stand for every total: agreement on them is agreement everywhere.
- Where they disagree, :func:`search_end` looks for the fewest rounds that get there, over
  rounds whose scores are built to order (:func:`hearts_ref.diff.rounds.split_round`, every
  pair of takers and every share of the points); :func:`score_bound` (z3, over every division
  of the cards) bounds what one round can give a player, so no game reaches a total sooner
  than the bound allows — when the search meets that bound, the round count is the smallest.

>>> from hearts_ref import Rules
>>> question = end_question(Rules(), Rules(end_comparison=">"))
>>> question.status, question.first
('refuted', (1, 'end', (100, 99, 99, 98)))
"""

from __future__ import annotations

from typing import NamedTuple

import z3

from hearts_ref.diff.rounds import (
    SPLIT_PLAYERS, RoundPlan, ducking_round, move_seats, moon_round, play_plan, points_of, random_round, split_round,
)
from hearts_ref.diff.semantics import ENGINE, Semantics
from hearts_ref.errors import HeartsError
from hearts_ref.scoring import round_scores
from hearts_ref.symbolic import SYMBOLIC, as_z3
from hearts_ref.variants import Rules
from properties.solving import PROVED, REFUTED, Prover, card_variables, exactly_one_place, one_place_count

__all__ = ["EndQuestion", "end_question", "representative_totals", "Outcome", "round_outcomes", "score_bound",
           "EndFound", "search_end", "PERIOD", "outcomes_of"]

PERIOD = 12          # PASS-CYCLE: the cycles have 4 and 3 rounds, so the pair repeats every 12


def representative_totals(a: Rules, b: Rules) -> list[tuple[int, ...]]:
    """Totals that stand for every total: for each class of highest total the two thresholds make, its lowest
    member (the first class: just below the lowest threshold), with the lowest total alone and shared."""
    bounds = sorted({t + d for t in (a.end_threshold, b.end_threshold) for d in (0, 1)})
    n = a.players
    totals = []
    for top in [bounds[0] - 1] + bounds:
        totals.append((top,) + (top - 1,) * (n - 2) + (top - 2,))   # the lowest alone
        totals.append((top,) + (top - 1,) * (n - 1))                 # the lowest shared
    return totals


class EndQuestion(NamedTuple):
    """Whether the end and the pass direction agree at every reachable round: ``proved`` or ``refuted``, the
    rounds looked at, and the disagreements as (round, kind, totals): ``end`` after that round with those totals,
    ``pass`` at its start."""

    status: str
    rounds: int
    disagreements: tuple[tuple[int, str, tuple[int, ...]], ...]
    lowest: int = 0      # the highest total of the lowest representatives (a class unbounded below)
    last: bool = False   # no game goes on after round ``rounds``

    @property
    def first(self) -> tuple[int, str, tuple[int, ...]] | None:
        return self.disagreements[0] if self.disagreements else None


def end_question(a: Rules, b: Rules, semantics: Semantics = ENGINE) -> EndQuestion:
    """Compare the end (after each round) and the pass direction (of each next round) of ``a`` and ``b``.

    Looked at: every round up to the larger round limit and one pass cycle beyond; a round
    after which no total lets both sides go on is the last one a game can reach.
    """
    limit = max(a.max_rounds, b.max_rounds) + PERIOD
    found: list[tuple[int, str, tuple[int, ...]]] = []
    reps = representative_totals(a, b)
    rounds = 0
    for number in range(1, limit + 1):
        rounds = number
        goes_on = False
        for totals in reps:
            over_a, over_b = semantics.game_over(totals, number, a), semantics.game_over(totals, number, b)
            if over_a != over_b:
                found.append((number, "end", totals))
            goes_on |= not over_a and not over_b
        if not goes_on:
            return EndQuestion(REFUTED if found else PROVED, rounds, tuple(found), reps[0][0], True)
        if semantics.pass_direction(a, number + 1) != semantics.pass_direction(b, number + 1):
            found.append((number + 1, "pass", ()))
    return EndQuestion(REFUTED if found else PROVED, rounds, tuple(found), reps[0][0])


class Outcome(NamedTuple):
    """A round whose scores are known in advance: how it is built (``recipe``), its plan and its scores.

    ``recipe`` is ``("moon", s)`` (:func:`~hearts_ref.diff.rounds.moon_round`), ``("split", s, u, to_u,
    jack_to_u)`` (:func:`~hearts_ref.diff.rounds.split_round`), ``("duck", seat, seed)``
    (:func:`~hearts_ref.diff.rounds.ducking_round`) or ``("sample", seed)``
    (:func:`~hearts_ref.diff.rounds.random_round`).
    """

    recipe: tuple
    plan: RoundPlan
    scores: tuple[int, ...]

    def placed(self, rules: Rules, seats: list[int]) -> RoundPlan:
        """The same round with the cards of seat ``i`` given to seat ``seats[i]``."""
        if self.recipe[0] in ("sample", "duck"):
            return move_seats(rules, self.plan, dict(enumerate(seats)))
        return _build(rules, self.recipe, seats)


def _build(rules: Rules, recipe: tuple, seats: list[int]) -> RoundPlan:
    if recipe[0] == "moon":
        return moon_round(rules, seats[recipe[1]])
    if recipe[0] == "duck":
        return move_seats(rules, ducking_round(rules, recipe[1], recipe[2]), dict(enumerate(seats)))
    if recipe[0] == "split":
        _, s, u, to_u, jack = recipe
        return split_round(rules, seats[s], seats[u], to_u, jack_to_u=jack)
    return random_round(rules, recipe[1])


SAMPLES = 24   # rounds of random play added to the built ones (they give other scores, for any number of players)
DUCKS = 3      # rounds per seat in which that seat plays low and the others high (it takes no trick, mostly)


def round_outcomes(rules: Rules) -> list[Outcome]:
    """Rounds built to order and legal under ``rules``, one per distinct scores: each seat's moon first, then (four
    players) every split of the points between two takers, then rounds in which one seat ducks every trick, then
    rounds of random play."""
    recipes: list[tuple] = [("moon", s) for s in range(rules.players)]
    if rules.players == SPLIT_PLAYERS:
        recipes += [("split", s, u, points_of(hearts, queen), jack)
                    for hearts in range(14) for queen in (False, True) for s in range(4) for u in range(4) if s != u
                    for jack in ((False, True) if rules.jd_bonus else (False,))]
    recipes += [("duck", seat, seed) for seat in range(rules.players) for seed in range(DUCKS)]
    recipes += [("sample", seed) for seed in range(SAMPLES)]
    found: dict[tuple[int, ...], Outcome] = {}
    for recipe in recipes:
        try:
            plan = _build(rules, recipe, list(range(rules.players)))
            if play_plan(rules, plan).taken != plan.taken:
                continue
        except HeartsError:
            continue
        scores = round_scores(plan.taken, rules).scores
        found.setdefault(scores, Outcome(recipe, plan, scores))
    return list(found.values())


def score_bound(rules: Rules, prover: Prover, start: int, semantics: Semantics = ENGINE) -> int | None:
    """The most one player can score in a round, proved with z3 over every division of the cards (from ``start``,
    a score some round reaches); None if z3 does not settle it."""
    taken = [card_variables(f"taken{seat}", rules) for seat in range(rules.players)]
    scores = [as_z3(score) for score in semantics.score_terms(taken, rules, SYMBOLIC)[1]]
    hypotheses = exactly_one_place(taken, rules.deck_mask) + one_place_count(taken, rules.deck_mask)
    bound = start
    for _ in range(8):
        answer = prover.holds(hypotheses, z3.And([score <= bound for score in scores]))
        if answer.status == PROVED:
            return bound
        if answer.status != REFUTED:
            return None
        bound = max(answer.model.eval(score, model_completion=True).as_long() for score in scores)
    return None


class EndFound(NamedTuple):
    """The fewest rounds found to a difference in the end or a pass: the kind, the round it shows in, the
    rounds played up to it, and whether that is the fewest possible (with the bound on a round's score used)."""

    kind: str
    round: int
    rounds: tuple[RoundPlan, ...]
    smallest: bool
    bound: int | None


_OUTCOMES: dict[Rules, list[Outcome]] = {}


def outcomes_of(rules: Rules) -> list[Outcome]:
    """:func:`round_outcomes`, remembered per ruleset (they depend on it only)."""
    if rules not in _OUTCOMES:
        _OUTCOMES[rules] = round_outcomes(rules)
    return _OUTCOMES[rules]


def _advance(totals: tuple[int, ...], scores: tuple[int, ...]) -> tuple[int, ...]:
    return tuple(t + s for t, s in zip(totals, scores))


def _realize(rules: Rules, chain: list[Outcome]) -> tuple[RoundPlan, ...] | None:
    """The rounds of a chain found on sorted totals, moved to the seats of a real game (None if one cannot be)."""
    actual: tuple[int, ...] = (0,) * rules.players
    plans = []
    for outcome in chain:
        seats = sorted(range(rules.players), key=lambda seat: actual[seat])   # sorted position -> seat
        plan = outcome.placed(rules, seats)
        try:
            scores = play_plan(rules, plan).score().scores
        except HeartsError:
            return None
        plans.append(plan)
        actual = _advance(actual, scores)
    return tuple(plans)


def _lower_bound(question: EndQuestion, bound: int | None) -> int:
    """The first round at which a disagreement can be reached when a total grows by at most ``bound`` a round.

    A disagreement about the end needs a highest total of its class: the class of the lowest
    representative has no least member, the others do (the representative itself).
    """
    for number, kind, totals in question.disagreements:
        if kind == "pass" or bound is None or totals[0] == question.lowest or totals[0] <= number * bound:
            return number
    return question.rounds


class _Dive:
    """A depth-first search for totals that part the sides after ``depth`` rounds, each distinct totals once."""

    def __init__(self, a: Rules, b: Rules, outcomes: list[Outcome], semantics: Semantics, budget: int):
        self.a, self.b, self.outcomes, self.semantics, self.budget = a, b, outcomes, semantics, budget

    def run(self, depth: int, kind: str, floor_total: int | None, bound: int | None) -> list[Outcome] | None:
        """Outcomes of ``depth`` rounds after which the end differs (``end``), or both sides go on (``pass``);
        a branch whose highest total cannot reach ``floor_total`` in the rounds left is cut."""
        self.depth, self.kind, self.floor_total, self.bound = depth, kind, floor_total, bound
        self.seen: set[tuple[int, tuple[int, ...]]] = set()
        return self._walk((0,) * self.a.players, 0, [])

    def _walk(self, totals: tuple[int, ...], played: int, chain: list[Outcome]) -> list[Outcome] | None:
        number = played + 1
        left = self.depth - number
        for outcome in self.outcomes:
            self.budget -= 1
            if self.budget < 0:
                return None
            after = _advance(totals, outcome.scores)
            over_a = self.semantics.game_over(after, number, self.a)
            over_b = self.semantics.game_over(after, number, self.b)
            if left == 0:
                if (over_a != over_b) if self.kind == "end" else not (over_a or over_b):
                    return chain + [outcome]
                continue
            if over_a or over_b:
                continue
            if self.floor_total is not None and self.bound is not None and \
                    max(after) + left * self.bound < self.floor_total:
                continue
            key = (number, tuple(sorted(after)))
            if key in self.seen:
                continue
            self.seen.add(key)
            found = self._walk(tuple(sorted(after)), number, chain + [outcome])
            if found is not None:
                return found
        return None


NODES = 400000   # outcomes tried by the search over rounds, in all


def search_end(a: Rules, b: Rules, question: EndQuestion, prover: Prover,
               semantics: Semantics = ENGINE) -> EndFound | None:
    """Return the fewest rounds of built rounds after which the end differs (or at whose next start the pass
    direction does), or None when no built game gets there within the rounds looked at.

    The rounds are tried from the proved lower bound on: a pass difference at the start of round
    ``r`` (after ``r`` − 1 rounds) before an end difference after round ``r``.
    """
    outcomes = sorted(outcomes_of(a), key=lambda o: -max(o.scores))   # the biggest gains first
    if not outcomes or question.first is None:
        return None
    bound = score_bound(a, prover, max(max(o.scores) for o in outcomes), semantics)
    floor = _lower_bound(question, bound)
    dive = _Dive(a, b, outcomes, semantics, NODES)
    for number in range(max(floor, 1), question.rounds + 2):
        targets = [("pass", number - 1, None)] if any(d[:2] == (number, "pass") for d in question.disagreements) else []
        ends = [d[2][0] for d in question.disagreements if d[:2] == (number, "end")]
        if ends:
            lowest = None if question.lowest in ends else min(ends)
            targets.append(("end", number, lowest))
        for kind, depth, floor_total in targets:
            if depth < 1:
                continue
            chain = dive.run(depth, kind, floor_total, bound)
            plans = _realize(a, chain) if chain is not None else None
            if plans is not None:
                return EndFound(kind, number, plans, number <= floor and dive.budget >= 0, bound)
        if dive.budget < 0:
            return None
    return None
