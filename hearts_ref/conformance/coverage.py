"""Edge coverage: how often a campaign's games reached the situations of :mod:`.situations`.

A differential game only tests what it plays through. This module counts, in the
reference's finished games, the situations of the rules' catalogue (a leader with only
hearts while they are unbroken, a moon spoiled by one heart, a tie for the lowest total …),
each once per round that reached it, so that a report can say the engine agreed with the
reference *through* them; and ``rounds``, the rounds counted. A round's ``play`` situations are
asked of its :func:`moments`, replayed from the finished round with the engine's own rule
functions, or read from the states the reference played it with (a round judged in one go);
its ``round`` and ``end`` situations of the round and the totals (:func:`round_situations`,
:func:`end_situations`).

>>> from hearts_ref.simulate import random_game
>>> from hearts_ref.variants import Rules
>>> tally = game_coverage(random_game(Rules(), seed=2))
>>> tally["rounds"] > 1, tally["PASS-CYCLE/left"] >= 1, tally["LEAD-HEARTS/only-hearts"] <= tally["rounds"]
(True, True, True)
"""

from __future__ import annotations

import functools
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any, NamedTuple

from hearts_ref.cards import suit_of
from hearts_ref.game import Game, RoundResult
from hearts_ref.legality import Context, breaks_hearts
from hearts_ref.round import exchange
from hearts_ref.variants import Rules
from hearts_ref.conformance.situations import SITUATIONS, Moment, Situation

__all__ = ["game_coverage", "game_situations", "round_situations", "end_situations", "moments"]


def game_coverage(game: Game, plays: dict[int, Sequence[tuple[Any, Any, Any]]] | None = None) -> Counter:
    """Return how many rounds of a finished game reached each situation, and ``rounds``: its rounds. ``plays``: the
    reference's plays of rounds judged in one go, by round number, read instead of replayed
    (:func:`round_situations`)."""
    tally: Counter = Counter()
    for reached in game_situations(game, plays):
        tally.update(reached)
    tally["rounds"] += len(game.results)
    return tally


def moments(result: RoundResult, rules: Rules, *, unbroken: bool = False) -> Iterator[Moment]:
    """Each play of a finished round, with the seat's hand before it and its context, in play order; with
    ``unbroken``, only those of the first trick and those while hearts are unbroken (up to the play that breaks them).

    The hands after the pass come from :func:`~hearts_ref.round.exchange` and hearts broken from
    :func:`~hearts_ref.legality.breaks_hearts`, the functions the engine plays with.
    """
    offset = rules.pass_offset(result.direction)
    hands = list(exchange(result.dealt, result.passes, offset) if offset else result.dealt)
    broken = False
    n = rules.players
    for number, trick in enumerate(result.tricks):
        if unbroken and broken and number:
            return
        first = number == 0
        indices = trick.indices
        led = suit_of(indices[0])
        seats = trick.seats   # the first trick with uneven hands: a seat may play two cards
        seat = trick.leader
        context = _context(True, None, first, broken)
        for position, card in enumerate(indices):
            if seats is not None:
                seat = seats[position]
            yield _new(Moment, (seat, hands[seat], context, card))
            played = 1 << card
            hands[seat] &= ~played
            if not broken and breaks_hearts(played, context, rules):
                broken = True
                if unbroken and not first:
                    return
            seat = (seat + 1) % n
            context = _context(False, led, first, broken)


_new = tuple.__new__
_CONTEXTS: dict[tuple[bool, int | None, bool, bool], Context] = {}   # the few contexts of a play, built once


def _context(leading: bool, led: int | None, first: bool, broken: bool) -> Context:
    key = (leading, led, first, broken)
    context = _CONTEXTS.get(key)
    if context is None:
        context = _CONTEXTS[key] = Context(leading, led, first, broken)
    return context


def _taken(result: RoundResult, players: int) -> tuple[int, ...]:
    taken = [0] * players
    for trick in result.tricks:
        for card in trick.indices:
            taken[trick.winner] |= 1 << card
    return tuple(taken)


_Named = tuple[tuple[str, Callable[..., bool]], ...]   # situations by name and predicate


class _Tests(NamedTuple):
    """The situations of a ruleset, as :func:`_tests` works them out."""

    by_kind: Any     # the play situations each play can be: [first trick][leading][card]
    every: _Named    # every play situation
    round: _Named
    end: _Named


def _scoped(scope: str, rules: Rules) -> _Named:
    """The names and predicates of the situations of ``scope`` that apply to ``rules``."""
    return tuple((s.name, s.test) for s in SITUATIONS if s.scope == scope and s.applies(rules))


def round_situations(result: RoundResult, rules: Rules, plays: Sequence[tuple[Any, Any, Any]] | None = None) -> set[str]:
    """The ``play`` and ``round`` situations that applies to ``rules`` reached in a finished round.

    ``plays``: the round's plays as the reference made them, each as the state before it, the card and the state
    after (a forecast round judged in one go: :mod:`.quick`); each play's seat, hand and context are then read from
    its state instead of replayed from ``result`` (:func:`moments`), and the cards taken from the last state.
    """
    return _round_situations(result, rules, plays, _tests(rules))


def _round_situations(result: RoundResult, rules: Rules, plays: Sequence[tuple[Any, Any, Any]] | None,
                      tests: _Tests) -> set[str]:
    by_kind, every, round_tests, _ = tests
    found: set[str] = set()
    if every and plays is None:
        _reached(moments(result, rules, unbroken=True), by_kind, len(every), rules, found)
    elif every:
        _reached_in_plays(plays, by_kind, len(every), rules, found)
    taken = _taken(result, rules.players) if plays is None else plays[-1][2].taken
    for name, test in round_tests:
        if test(result, taken, rules):
            found.add(name)
    return found


def _reached(walked: Iterable[Moment], by_kind: Any, left: int, rules: Rules, found: set[str]) -> None:
    """Add to ``found`` the play situations of the plays ``walked`` (:func:`moments`), ``left`` of them not reached
    yet: each is asked only of the plays it can be (:func:`_tests`)."""
    for moment in walked:
        context = moment.context
        for name, test in by_kind[context.first_trick][context.leading][moment.card]:
            if name not in found and test(moment, rules):
                found.add(name)
                left -= 1
        if not left:
            return


def _reached_in_plays(plays: Sequence[tuple[Any, Any, Any]], by_kind: Any, left: int, rules: Rules,
                      found: set[str]) -> None:
    """:func:`_reached` for the plays the reference made (each the state before it, the card, the state after): the
    moments :func:`moments` gives with ``unbroken``, read from the states, made only for plays a situation can be."""
    for before, card, _ in plays:
        context = before.context
        if context.hearts_broken and not context.first_trick:
            return
        index = card.index
        tests = by_kind[context.first_trick][context.leading][index]
        if tests:
            seat = before.to_play
            moment = _new(Moment, (seat, before.hands[seat], context, index))
            for name, test in tests:
                if name not in found and test(moment, rules):
                    found.add(name)
                    left -= 1
            if not left:
                return


@functools.lru_cache(maxsize=64)
def _tests(rules: Rules) -> _Tests:
    """The names and predicates of the situations of ``rules``, worked out once per rules (every round asks): the
    ``play`` situations for each kind of play (on the first trick or not, a lead or not: indexed by the two) by card
    played, those it can be (from their ``plays`` and ``cards``); all of them; the ``round`` and ``end`` ones."""
    scoped = tuple(s for s in SITUATIONS if s.scope == "play" and s.applies(rules))
    every = tuple((s.name, s.test) for s in scoped)

    def can_be(s: Situation, first: bool, leading: bool, card: int) -> bool:
        if s.plays == "first-trick" and not first or s.plays == "later-lead" and (first or not leading):
            return False
        return s.cards is None or bool(s.cards >> card & 1)

    by_kind = tuple(tuple(tuple(tuple((s.name, s.test) for s in scoped if can_be(s, first, leading, card))
                                for card in range(104))
                          for leading in (False, True)) for first in (False, True))   # [first][leading][card]
    return _Tests(by_kind, every, _scoped("round", rules), _scoped("end", rules))


def end_situations(before: tuple[int, ...], after: tuple[int, ...], over: bool, rules: Rules) -> set[str]:
    """The ``end`` situations reached by a round that took the totals from ``before`` to ``after``."""
    return _end_situations(before, after, over, rules, _tests(rules).end)


def _end_situations(before: tuple[int, ...], after: tuple[int, ...], over: bool, rules: Rules,
                    end_tests: _Named) -> set[str]:
    return {name for name, test in end_tests if test(before, after, over, rules)}


def game_situations(game: Game, plays: dict[int, Sequence[tuple[Any, Any, Any]]] | None = None) -> Iterator[set[str]]:
    """The situations each round of a game reached, round by round (its end with its last round); ``plays``: the
    reference's plays of some rounds, by round number (:func:`round_situations`)."""
    rules = game.rules
    tests = _tests(rules)   # (looked up once a game)
    totals = (0,) * rules.players
    planned = plays or {}
    for number, result in enumerate(game.results, 1):
        after = tuple(t + s for t, s in zip(totals, result.score.scores))
        over = number == len(game.results) and game.over
        reached = _round_situations(result, rules, planned.get(number), tests)
        yield reached | _end_situations(totals, after, over, rules, tests.end)
        totals = after
