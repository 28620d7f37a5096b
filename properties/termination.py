"""GAME-ENDS: every game ends within N rounds, whatever is played; or a game that never ends, replayed on the engine.

The bound, when the rules have one, is proved in four steps (``argument`` of the result):

1. z3, on the engine's ``score_terms``: however the cards of a round are taken, the round's
   scores sum to at least ``s`` (:func:`properties.catalogue.lowest_round_sum`, from the
   scoring statements);
2. TOTALS-ARE-SUMS: the totals after ``r`` rounds are the sums of the round scores, so
   they sum to at least ``r·s``;
3. arithmetic: while no total has reached the threshold ``T`` (every total at most ``T − 1``,
   or at most ``T`` when the comparison is ``>``), the ``n`` totals sum to at most
   ``n(T − 1)`` (or ``nT``); so once ``r·s`` exceeds that, after ``N = ⌊n(T − 1)/s⌋ + 1``
   rounds (``⌊nT/s⌋ + 1``), some total has reached it;
4. z3, on the engine's ``is_game_over`` run on symbolic totals: totals summing to at least
   ``N·s`` end the game (ties shared), and with ``max_rounds`` the game ends at that round.

Without a bound (``ties = "play-on"``, or a round whose scores can sum to 0 or less) the
refutation is a *cycle* of rounds, each played to a plan on the engine (:mod:`properties.witness`):
one seat shooting the moon every round under ``moon = "subtract"``; the seats in turn taking
every trick, or all but one; or two seats kept tied at the lowest total. The cycle is replayed
through the engine's ``Game`` for a few cycles: its rounds do not depend on the totals, so the
totals after each cycle change by the same amounts, and the check made on the first cycles
(no total rises over a cycle, or the lowest total stays shared) holds for ever.

>>> from hearts_ref import Rules
>>> threshold_bound(Rules())
16
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass
from typing import Any

import z3

from hearts_ref.cardset import CardSet
from hearts_ref.cards import CARDS
from hearts_ref.game import Game, is_game_over
from hearts_ref.scoring import score_terms
from hearts_ref.symbolic import SYMBOLIC, SymbolicNumber, all_of, as_z3, explore, implies, int_sum
from hearts_ref.variants import Rules
from properties.catalogue import expected_outcome, expected_unsound, lowest_round_sum
from properties.contexts import taken_piles
from properties.results import ProofResult
from properties.solving import PROVED, REFUTED, UNCONFIRMED, Claim, worst
from properties.witness import RoundPlan, planned_round

__all__ = ["prove_game_ends", "threshold_bound", "never_ending"]

CYCLES = 3   # how many times a never-ending cycle is replayed on the engine


def threshold_bound(rules: Rules) -> int | None:
    """N: the rounds after which some total has reached the threshold, whatever is played (None without one)."""
    least = lowest_round_sum(rules)
    if least <= 0:
        return None
    below = rules.end_threshold - 1 if rules.end_comparison == ">=" else rules.end_threshold
    return rules.players * below // least + 1


def _least_sum_claim(rules: Rules, least: int) -> Claim:
    taken, shared_out = taken_piles(rules)
    scores = score_terms(taken, rules, SYMBOLIC)[1]
    return Claim(f"however a round's cards are taken, its scores sum to at least {least}", tuple(shared_out),
                 int_sum(list(scores)) >= least, tuple((f"taken by seat {j}", t) for j, t in enumerate(taken)))


def _ends_claim(rules: Rules, rounds: int, least_total: int | None) -> Claim:
    """The engine's is_game_over after ``rounds`` rounds, for any totals (summing to at least ``least_total``)."""
    totals = tuple(SymbolicNumber(z3.Int(f"total{j}")) for j in range(rules.players))
    given = [] if least_total is None else [int_sum(list(totals)) >= least_total]
    goals = [implies(p.condition, False if p.raised else p.result is True)
             for p in explore(is_game_over, totals, rounds, rules, prune=True)]
    said = f"totals summing to at least {least_total}" if least_total is not None else "any totals"
    return Claim(f"after round {rounds}, {said}: the engine ends the game", tuple(given), all_of(goals))


def prove_game_ends(rules: Rules, session: Any, label: str) -> ProofResult:
    """GAME-ENDS under ``rules``: proved with a bound N on the rounds, or refuted by a never-ending game."""
    start = time.perf_counter()
    expected = expected_outcome("GAME-ENDS", rules)
    least = lowest_round_sum(rules)
    n, limit = rules.players, rules.end_threshold
    bound = threshold_bound(rules) if rules.ties == "shared" else None
    claims: list[Claim] = []
    argument: list[str] = []
    if bound is not None:
        below = limit - 1 if rules.end_comparison == ">=" else limit
        claims += [_least_sum_claim(rules, least), _ends_claim(rules, bound, bound * least)]
        argument += [f"every round's scores sum to at least s = {least} (z3, on the engine's score_terms, for every "
                     "way the cards can be taken)",
                     f"the totals are the sums of the round scores (TOTALS-ARE-SUMS), so after r rounds they sum to "
                     f"at least {least}·r",
                     f"while no total has reached {limit} ({rules.end_comparison}), the {n} totals sum to at most "
                     f"{n}·{below} = {n * below}; {least}·r > {n * below} once r ≥ ⌊{n * below}/{least}⌋ + 1 = "
                     f"{bound}: the threshold ends every game within {bound} rounds",
                     f"z3, on the engine's is_game_over: totals summing to at least {bound * least} end the game "
                     f"(ties {rules.ties})"]
    if rules.max_rounds:
        claims.append(_ends_claim(rules, rules.max_rounds, None))
        argument.append(f"z3, on the engine's is_game_over: after round max_rounds = {rules.max_rounds} the game ends, "
                        "whatever the totals (END-THRESHOLD: the limit is absolute)")
        bound = min(bound, rules.max_rounds) if bound is not None else rules.max_rounds
    if bound is not None:
        answers = [session.prover.check(c) for c in claims]
        status = worst(a.status for a in answers)
        detail = "" if status == PROVED else "; ".join(f"{c.label}: {a.status} {a.reason}"
                                                      for c, a in zip(claims, answers) if a.status != PROVED)
        sooner = "; a round that deadlocks stops it sooner (END-THRESHOLD)" if expected_unsound(rules) else ""
        argument.insert(0, f"every game ends within N = {bound} round{'s' if bound != 1 else ''}, whatever is played"
                           + sooner)
        return ProofResult("GAME-ENDS", label, "game", status, expected, time.perf_counter() - start, len(claims),
                           detail=detail, changes=rules.changes(), argument=tuple(argument))
    witness = never_ending(rules)
    status = REFUTED if witness and witness["confirmed"] else UNCONFIRMED
    detail = witness["summary"] if witness else "no never-ending game was found by the bounded search"
    return ProofResult("GAME-ENDS", label, "game", status, expected, time.perf_counter() - start, 0, detail=detail,
                       changes=rules.changes(), witness=witness)


# Never-ending games ---------------------------------------------------------------------------

def _any(scores: tuple[int, ...]) -> bool:
    return True


def _two_take_points(scores: tuple[int, ...]) -> bool:
    """Seats 0 and 1 both score above 0 (so no moon; the others, who take no trick, stay equal and lowest)."""
    return scores[0] > 0 and scores[1] > 0


def _two_tied(scores: tuple[int, ...]) -> bool:
    """Seats 1 and 2 score the same, more than 0 and less than seat 0 (three players: they stay tied and lowest)."""
    return scores[1] == scores[2] and 0 < scores[1] < scores[0]


@dataclass(frozen=True)
class _Scoring:
    """Accept a round whose seats ``first`` and ``second`` score ``scores`` (so that rotated rounds score alike)."""

    first: int
    second: int
    scores: tuple[int, int]

    def __call__(self, scores: tuple[int, ...]) -> bool:
        return (scores[self.first], scores[self.second]) == self.scores


def _rotated(rules: Rules, directions: list[str], cycle: int, wins: Any, given: Any) -> list[RoundPlan | None]:
    """A cycle of rounds in which the roles turn one seat a round, each round scoring as the first did."""
    first = planned_round(rules, directions[0], wins(0), _any, given=given(0), dealer=0)
    if first is None:
        return [None]
    roles = sorted(wins(0), key=lambda s: -wins(0)[s])
    pair = roles + roles[:1] if len(roles) == 1 else roles
    scoring = (first.scores[pair[0]], first.scores[pair[1]])
    n = rules.players
    return [first] + [planned_round(rules, directions[r], wins(r), _Scoring((pair[0] + r) % n, (pair[1] + r) % n,
                                                                            scoring), given=given(r), dealer=r)
                      for r in range(1, cycle)]


def _plans(rules: Rules) -> tuple[str, str, list[RoundPlan | None]] | None:
    """The kind of never-ending game, what it keeps, and one cycle of planned rounds (a round None when not found)."""
    n, size = rules.players, rules.hand_size
    period = 1 if not rules.pass_cards else (4 if rules.pass_cycle == "left-right-across-none" else 3)
    directions = [rules.pass_direction(r) for r in range(1, 10 * period * n + 1)]
    if rules.extra_cards:   # DEAL-HANDS: the extra cards follow the dealer, so a cycle is one of both
        period = period * n // math.gcd(period, n)
    if rules.moon == "subtract":
        return ("below", "seat 0 shoots the moon every round: its total falls, the others stay at 0",
                [planned_round(rules, directions[r], {0: size}, _any, dealer=r) for r in range(period)])
    if rules.ties == "play-on":
        if rules.moon == "off":
            return ("tie", f"seat 0 takes every trick: seats 1 to {n - 1} score alike and stay tied at the lowest total",
                    [planned_round(rules, directions[r], {0: size}, _any, dealer=r) for r in range(period)])
        if n >= 4:
            return ("tie", "seats 0 and 1 take every trick, both scoring: seats 2 and 3 take none and stay tied at the "
                    "lowest total", [planned_round(rules, directions[r], {0: size - 1, 1: 1}, _two_take_points,
                                               given={1: ("AH",)}, dealer=r) for r in range(period)])
        return ("tie", "seat 0 takes all but two tricks, seats 1 and 2 one each, scoring alike: they stay tied at the "
                "lowest total", [planned_round(rules, directions[r], {0: size - 2, 1: 1, 2: 1}, _two_tied,
                                               given={1: ("AD",), 2: ("AS",)}, avoid={1: "S", 2: "D"},
                                               dealer=r) for r in range(period)])
    if lowest_round_sum(rules) <= 0:
        cycle = period * n // math.gcd(period, n)
        if rules.moon == "off":
            return ("below", "the seats in turn take every trick: over a cycle every total falls",
                    _rotated(rules, directions, cycle, lambda r: {r % n: size}, lambda r: None))
        return ("below", "the seats in turn take all tricks but one, the next seat that one, each round scoring alike: "
                "over a cycle every total falls",
                _rotated(rules, directions, cycle, lambda r: {r % n: size - 1, (r + 1) % n: 1},
                         lambda r: {(r + 1) % n: ("AH",)}))
    return None


def _replay(rules: Rules, cycle: list[RoundPlan], cycles: int) -> tuple[list[tuple[int, ...]], str | None]:
    """Play the cycle ``cycles`` times through the engine's Game; return the totals after each round, or why not."""
    game = Game.new(rules)
    after: list[tuple[int, ...]] = []
    for _ in range(cycles):
        for plan in cycle:
            if game.over:
                return after, f"the game ended after round {len(game.results)}"
            try:
                game = game.deal_round(tuple(CardSet.from_mask(h) for h in plan.dealt), direction=plan.direction)
                for seat, passed in enumerate(plan.passes):
                    if passed:
                        game = game.choose_pass(seat, CardSet.from_mask(passed))
                for card in plan.plays:
                    game = game.play(CARDS[card])
            except Exception as error:   # noqa: BLE001 - the engine refused the planned round: said as it is
                return after, f"the engine refused the round: {error}"
            after.append(game.totals)
    return after, ("the game ended" if game.over else None)


def never_ending(rules: Rules) -> dict[str, Any] | None:
    """A never-ending game under ``rules``: its cycle of rounds, replayed on the engine, and why it never ends."""
    found = _plans(rules)
    if found is None:
        return None
    kind, keeps, plans = found
    if any(p is None for p in plans):
        return {"summary": f"{keeps}: no such round was found by the bounded search", "confirmed": False,
                "kind": kind, "cycle": []}
    cycle = [p for p in plans if p is not None]
    totals, trouble = _replay(rules, cycle, CYCLES)
    length = len(cycle)
    ok = trouble is None
    if ok and kind == "below":
        first, last = totals[length - 1], totals[2 * length - 1]
        ok = all(b - a <= 0 for a, b in zip(first, last)) and all(
            max(t) < rules.end_threshold for t in totals)
        reason = "the totals fall over each cycle and never reach the threshold"
    elif ok:
        low = [2, 3] if rules.players >= 4 and rules.moon != "off" else [1, 2]
        ok = all(t[low[0]] == t[low[1]] == min(t) and sorted(t).count(min(t)) >= 2 for t in totals)
        reason = "after every round the lowest total is shared"
    else:
        reason = trouble
    summary = (f"{keeps}; replayed on the engine for {CYCLES} cycles of {length} round(s): {reason}; totals "
               f"{', '.join(map(str, totals[length - 1::length]))} after each cycle")
    return {"summary": summary, "confirmed": ok, "kind": kind, "rules": list(through(rules, kind)),
            "cycle": [p.to_dict() for p in cycle], "totals": [list(t) for t in totals], "cycles": CYCLES}


def through(rules: Rules, kind: str) -> tuple[str, ...]:
    """The rules through which a game of ``kind`` never ends: a tie for the lowest total that WIN-TIE plays on from,
    or totals that never reach END-THRESHOLD because SCORE-MOON (``moon = "subtract"``) or a bonus (SCORE-JACK,
    SCORE-NO-TRICKS) takes points away; with ``moon = "off"`` a seat that takes every trick keeps its points and
    leaves the others their no-trick bonus, which a moon would cancel (SCORE-MOON).

    >>> through(Rules(moon="subtract"), "below"), through(Rules(ties="play-on"), "tie")
    (('SCORE-MOON', 'END-THRESHOLD'), ('WIN-TIE', 'END-THRESHOLD'))
    >>> through(Rules(moon="off", jd_bonus=True, avoid_all_tricks_bonus=True), "below")
    ('SCORE-JACK', 'SCORE-NO-TRICKS', 'SCORE-MOON', 'END-THRESHOLD')
    """
    if kind == "tie":
        return ("WIN-TIE", "END-THRESHOLD")
    if rules.moon == "subtract":
        return ("SCORE-MOON", "END-THRESHOLD")
    bonuses = (("SCORE-JACK", rules.jd_bonus), ("SCORE-NO-TRICKS", rules.avoid_all_tricks_bonus),
               ("SCORE-MOON", rules.moon == "off"))   # (the plan of a seat taking every trick: _plans)
    return tuple(rule for rule, on in bonuses if on) + ("END-THRESHOLD",)


_ = (as_z3,)
