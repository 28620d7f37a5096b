"""Rounds built to reach situations: stacked hands and scripted plays, checked on the reference.

Each *recipe* deals a few seats the cards a situation needs (the rest shuffled among the
others), and gives each seat a wish for its plays; the round is played on the reference
with those wishes among its legal cards, and kept only if the reference's play reaches the
situations the recipe is for (:func:`~hearts_ref.conformance.coverage.round_situations`):

========================  =====================================================================
``lead-hearts``           a seat with the top clubs and the top hearts wins the first tricks
                          and is left with only hearts to lead (LEAD-HEARTS, BREAK-DISCARD);
                          it takes every trick: a moon (SCORE-MOON, SCORE-JACK, SCORE-NO-TRICKS)
``lead-queen``            the same with A♠ K♠ Q♠: only hearts and the Q♠ to lead, the Q♠ led
``first-trick``           a void seat of only point cards and one holding points and other cards
                          on the first trick (FIRST-EXCEPTION, FIRST-NO-POINTS), the Q♠ or a
                          heart discarded (BREAK-QUEEN, BREAK-DISCARD)
``follow-queen``          a spade led at trick 2, the Q♠ following it, a heart discarded on it
``discard-queen``         a diamond led at trick 2, the Q♠ discarded on it, then a heart
``all-clubs``             a seat holds every club: it leads the lowest and no one follows (TRICK-WINNER)
``spoiled``               one seat takes every point card but one heart: with four players
                          built (:func:`hearts_ref.diff.rounds.split_round`), with 3, 5 or 6
                          found among rounds in which one seat plays high and the others low
                          (:func:`searched_round`), its taker moved to the seat asked
========================  =====================================================================

What no recipe reaches under some rules is searched for once among rounds played by simple
styles, and kept (:func:`searched_round`). :func:`round_for` returns a round plan with the
hands at the first lead; :func:`hearts_ref.diff.rounds.dealt_for` turns it into a deal and
passes for any direction.

>>> import random
>>> from hearts_ref.variants import Rules
>>> plan = round_for(Rules(), "lead-hearts", random.Random(1), seat=2)
>>> "LEAD-HEARTS/only-hearts" in reached(Rules(), plan)
True
"""

from __future__ import annotations

import random
from collections.abc import Callable

from hearts_ref.cards import CARDS, Card
from hearts_ref.cardset import ONE_DECK, CardSet, bits_of, highest, lowest
from hearts_ref.cardset import HEARTS as _HEARTS, POINT_CARDS as _POINT_CARDS, QUEEN as _QUEEN, SUIT_MASKS as _SUITS
from hearts_ref.deals import deal
from hearts_ref.diff.rounds import SPLIT_PLAYERS, RoundPlan, move_seats, points_of, split_round
from hearts_ref.errors import HeartsError
from hearts_ref.game import RoundResult
from hearts_ref.round import RoundState, start_round
from hearts_ref.variants import Rules
from hearts_ref.conformance.coverage import round_situations
from hearts_ref.conformance.situations import BY_NAME

__all__ = ["RECIPES", "AIMS", "round_for", "reached", "outcome", "searched_round", "recipes_for", "recipe_aims", "rotated"]

Choose = Callable[[RoundState], int]
# The deals built here are one deck's: the first deck's cards (two decks add copies a deal completes with).
HEARTS, POINT_CARDS, QUEEN = _HEARTS & ONE_DECK, _POINT_CARDS & ONE_DECK, _QUEEN & ONE_DECK
SUIT_MASKS = tuple(mask & ONE_DECK for mask in _SUITS)
CLUBS, DIAMONDS, SPADES = SUIT_MASKS[0], SUIT_MASKS[1], SUIT_MASKS[2]
_TRIES = 12          # fills of a recipe tried before it is given up under these rules
_SEARCH = 400        # rounds played by simple styles to find what no recipe reaches


def _top(mask: int, count: int) -> int:
    """The ``count`` highest cards of ``mask``."""
    cards = sorted(bits_of(mask), reverse=True)[:max(count, 0)]
    return sum(1 << c for c in cards)


def _fill(rules: Rules, rng: random.Random, fixed: dict[int, int], avoid: dict[int, int]) -> list[int] | None:
    """A deal: the seats of ``fixed`` hold those cards and the rest is shuffled among the seats (never a card
    of ``avoid[seat]`` to ``seat``); None when the cards left cannot be placed so."""
    n, size = rules.players, rules.hand_size
    hands = [fixed.get(seat, 0) for seat in range(n)]
    rest = [c for c in bits_of(rules.deck_mask) if not any(h >> c & 1 for h in hands)]
    rng.shuffle(rest)
    rest.sort(key=lambda c: -sum(avoid.get(seat, 0) >> c & 1 for seat in range(n)))   # the hard cards first
    for card in rest:
        room = [seat for seat in range(n) if hands[seat].bit_count() < size and not avoid.get(seat, 0) >> card & 1]
        if not room:
            return None
        seat = rng.choice(room)
        hands[seat] |= 1 << card
    return hands


def _wish(state: RoundState, wishes: dict[int, Callable[[RoundState, int], int]]) -> int:
    """The card the seat to play wishes among its legal plays, or by default its lowest card that is no
    point card (its lowest card, if it holds only point cards)."""
    legal = state.legal
    wish = wishes.get(state.to_play)
    if wish is not None:
        card = wish(state, legal)
        if card >= 0 and legal >> card & 1:
            return card
    return lowest(legal & ~POINT_CARDS or legal)


def _prefer(*masks: int, high: bool = False) -> Callable[[RoundState, int], int]:
    """A wish: the first of ``masks`` that holds legal cards, its lowest (or highest) card."""
    def wish(state: RoundState, legal: int) -> int:
        for mask in masks:
            if legal & mask:
                return highest(legal & mask) if high else lowest(legal & mask)
        return -1
    return wish


def _leader(state: RoundState, legal: int) -> int:
    """Win every trick: lead the highest card that is no point card, then the Q♠, then the highest heart."""
    if state.trick:
        return highest(legal)
    return highest(legal & ~POINT_CARDS) if legal & ~POINT_CARDS else highest(legal & QUEEN or legal)


def _lead_hearts(rules: Rules, rng: random.Random, seat: int, queen: bool) -> tuple[list[int] | None, dict]:
    """LEAD-HEARTS: ``seat`` holds the top clubs (enough to win the tricks before its hearts), with ``queen``
    A♠ K♠ Q♠, and the top hearts; the others discard the Q♠ when they can."""
    size = rules.hand_size
    spades = _top(SPADES, 3) if queen else 0
    clubs = max(1, size - 13 - spades.bit_count())
    hand = _top(CLUBS & rules.deck_mask, clubs) | spades
    hand |= _top(HEARTS, size - hand.bit_count())
    others = {s: _prefer(QUEEN) for s in range(rules.players) if s != seat}
    return _fill(rules, rng, {seat: hand}, {}), {**others, seat: _leader}


def _first_trick(rules: Rules, rng: random.Random, seat: int) -> tuple[list[int] | None, dict]:
    """FIRST-EXCEPTION, FIRST-NO-POINTS: ``seat`` holds only point cards (when a hand can), the next seat
    is void in clubs with hearts and other cards; on the first trick they discard the Q♠ or a heart."""
    n, size = rules.players, rules.hand_size
    only_points = rules.first_trick_points == "exception" and size <= POINT_CARDS.bit_count()
    void = (seat + 1) % n
    fixed = {seat: QUEEN | _top(HEARTS, size - 1)} if only_points else {}
    spare = list(bits_of(HEARTS & ~fixed.get(seat, 0)))
    fixed[void] = sum(1 << c for c in rng.sample(spare, min(2, len(spare))))
    queen_first = _prefer(HEARTS) if rules.qs_breaks_hearts else _prefer(QUEEN, HEARTS)
    wishes = {seat: queen_first, void: _prefer(POINT_CARDS, high=True)} if only_points else {void: queen_first}
    return _fill(rules, rng, fixed, {void: CLUBS}), wishes


def _queen_at_trick_two(rules: Rules, rng: random.Random, seat: int, suit: int) -> tuple[list[int] | None, dict]:
    """BREAK-QUEEN: ``seat`` wins the first trick with A♣ and leads the two of ``suit`` (spades or diamonds);
    the next seat plays the Q♠ on it (following, or void in diamonds discarding it), the one after, void in
    ``suit``, discards a heart (BREAK-DISCARD)."""
    n = rules.players
    follower, discarder = (seat + 1) % n, (seat + 2) % n
    low = SUIT_MASKS[suit] & rules.deck_mask
    low &= -low
    fixed = {seat: _top(CLUBS, 1) | low, follower: QUEEN, discarder: 1 << Card.parse("2H").index}
    avoid = {seat: 1 << rules.lowest_club.index, discarder: SUIT_MASKS[suit]}
    if suit != 2:
        avoid[follower] = SUIT_MASKS[suit]
    wishes = {seat: lambda state, legal: highest(legal) if state.trick else lowest(legal & low or legal),
              follower: _prefer(QUEEN), discarder: _prefer(HEARTS)}
    return _fill(rules, rng, fixed, avoid), wishes


RECIPES: dict[str, Callable[[Rules, random.Random, int], tuple[list[int] | None, dict]]] = {
    "lead-hearts": lambda rules, rng, seat: _lead_hearts(rules, rng, seat, False),
    "lead-queen": lambda rules, rng, seat: _lead_hearts(rules, rng, seat, True),
    "first-trick": _first_trick,
    "follow-queen": lambda rules, rng, seat: _queen_at_trick_two(rules, rng, seat, 2),
    "discard-queen": lambda rules, rng, seat: _queen_at_trick_two(rules, rng, seat, 1),
    "all-clubs": lambda rules, rng, seat: (_fill(rules, rng, {seat: CLUBS & rules.deck_mask}, {}), {}),
}
# What each recipe is for: it is kept only if the reference's play reaches one of these.
AIMS = {
    "lead-hearts": ("LEAD-HEARTS/only-hearts", "BREAK-DISCARD/heart-led", "BREAK-DISCARD/heart-followed",
                    "BREAK-QUEEN/queen-discarded", "SCORE-MOON/moon", "SCORE-JACK/moon-with-jack",
                    "SCORE-NO-TRICKS/no-trick"),
    "lead-queen": ("LEAD-HEARTS/hearts-and-queen", "BREAK-QUEEN/queen-led", "LEAD-HEARTS/only-hearts",
                   "BREAK-DISCARD/heart-led", "SCORE-MOON/moon", "SCORE-NO-TRICKS/no-trick"),
    "first-trick": ("FIRST-EXCEPTION/only-points", "FIRST-NO-POINTS/points-held", "FIRST-NO-POINTS/point-discarded",
                    "BREAK-QUEEN/queen-discarded", "BREAK-DISCARD/heart-discarded"),
    "follow-queen": ("BREAK-QUEEN/queen-followed", "BREAK-DISCARD/heart-discarded"),
    "discard-queen": ("BREAK-QUEEN/queen-discarded", "BREAK-DISCARD/heart-discarded"),
    "all-clubs": ("TRICK-WINNER/first-trick-unfollowed",),
    "spoiled": ("SCORE-MOON/spoiled",),
}


_OUTCOMES: dict[tuple[Rules, RoundPlan], tuple[set[str], tuple[int, ...]]] = {}
_KEPT = 2000        # outcomes remembered, so that a round built and checked is not played again to use it


def _remember(rules: Rules, plan: RoundPlan, state: RoundState) -> tuple[set[str], tuple[int, ...]]:
    result = RoundResult(0, 0, "none", plan.hands, (0,) * rules.players, state.tricks, state.score())
    if len(_OUTCOMES) >= _KEPT:
        _OUTCOMES.clear()
    found = _OUTCOMES[rules, plan] = (set(round_situations(result, rules)), result.score.scores)
    return found


def _played(rules: Rules, hands: list[int], choose: Choose) -> RoundPlan | None:
    """The round played from ``hands`` (no pass) with ``choose``; None if it deadlocks or a hand is wrong."""
    try:
        state = start_round(rules, [CardSet.from_mask(h) for h in hands], direction="none")
    except HeartsError:
        return None
    plays = []
    while not state.is_over:
        if state.deadlocked:
            return None
        card = choose(state)
        plays.append(card)
        state = state.play(CARDS[card])
    plan = RoundPlan(tuple(hands), tuple(plays), state.taken)
    _remember(rules, plan, state)
    return plan


def outcome(rules: Rules, plan: RoundPlan) -> tuple[set[str], tuple[int, ...]]:
    """The ``play`` and ``round`` situations the round of ``plan`` reaches (played without a pass), and its scores."""
    if (rules, plan) in _OUTCOMES:
        return _OUTCOMES[rules, plan]
    state = start_round(rules, [CardSet.from_mask(h) for h in plan.hands], direction="none")
    for card in plan.plays:
        state = state.play(CARDS[card])
    return _remember(rules, plan, state)


def reached(rules: Rules, plan: RoundPlan) -> set[str]:
    """The ``play`` and ``round`` situations the round of ``plan`` reaches (played without a pass)."""
    return outcome(rules, plan)[0]


def recipes_for(rules: Rules) -> tuple[str, ...]:
    """The recipes that reach, under ``rules``, a situation they are for (each found once, and kept)."""
    names = list(RECIPES) + ["spoiled"]
    return tuple(name for name in names if recipe_aims(rules, name))


_AIMED: dict[tuple[Rules, str], frozenset[str]] = {}
_PROBES = 3


def recipe_aims(rules: Rules, recipe: str) -> frozenset[str]:
    """The situations ``recipe`` is for that it reaches under ``rules`` every time it was tried (at three seats)."""
    key = (rules, recipe)
    if key not in _AIMED:
        aims = frozenset(aim for aim in AIMS[recipe] if BY_NAME[aim].applies(rules))
        for probe in range(_PROBES):
            plan = _build(rules, recipe, random.Random(f"hearts-ref-targets:probe:{recipe}:{probe}"),
                          probe % rules.players, frozenset())
            aims &= reached(rules, plan) if plan is not None else frozenset()
        _AIMED[key] = aims
    return _AIMED[key]


def round_for(rules: Rules, recipe: str, rng: random.Random, *, seat: int) -> RoundPlan | None:
    """A round of ``recipe`` around ``seat``, checked to reach every situation it is for under ``rules``
    (:func:`recipe_aims`); None if no fill of it does."""
    aims = recipe_aims(rules, recipe)
    return _build(rules, recipe, rng, seat, aims) if aims else None


def _build(rules: Rules, recipe: str, rng: random.Random, seat: int, aims: frozenset[str]) -> RoundPlan | None:
    """A round of ``recipe`` reaching every one of ``aims`` (with no aims: any situation it is for)."""
    wanted = aims or frozenset(AIMS[recipe])
    for _ in range(_TRIES):
        if recipe == "spoiled":
            plan: RoundPlan | None = _spoiled(rules, rng, seat)
        else:
            hands, wishes = RECIPES[recipe](rules, rng, seat)
            plan = _played(rules, hands, lambda state: _wish(state, wishes)) if hands is not None else None
        try:
            found = reached(rules, plan) if plan is not None else set()
        except HeartsError:    # a built round these rules do not allow
            return None
        if (aims and aims <= found) or (not aims and wanted & found):
            return plan
    return None


def _spoiled(rules: Rules, rng: random.Random, seat: int) -> RoundPlan | None:
    """SCORE-MOON: a round in which ``seat`` takes every point card but one heart."""
    n = rules.players
    if n == SPLIT_PLAYERS:
        return split_round(rules, seat, rng.choice([s for s in range(n) if s != seat]), points_of(1, False))
    found = searched_round(rules, "SCORE-MOON/spoiled")
    if found is None:
        return None
    taker = max(range(n), key=lambda s: (found.taken[s] & POINT_CARDS).bit_count())
    return rotated(rules, found, seat - taker)


_STYLES = ("uniform", "shoot", "duck")
_FOUND: dict[tuple[Rules, str], RoundPlan | None] = {}


def searched_round(rules: Rules, name: str) -> RoundPlan | None:
    """A round that reaches situation ``name``, found once (and kept) among rounds played by simple styles:
    every legal card alike, one seat high and the others low, one seat low and the others high."""
    key = (rules, name)
    if key not in _FOUND:
        _FOUND[key] = None
        for attempt in range(_SEARCH):
            rng = random.Random(f"hearts-ref-targets:{name}:{attempt}")
            style, seat = _STYLES[attempt % 3], attempt % rules.players
            hands = [hand.mask for hand in deal(rules, rng=rng)]

            def choose(state: RoundState) -> int:
                legal = state.legal
                if style == "uniform":
                    return rng.choice(list(bits_of(legal)))
                high = (state.to_play == seat) == (style == "shoot")
                return highest(legal) if high else lowest(legal)

            plan = _played(rules, hands, choose)
            if plan is not None and name in reached(rules, plan):
                _FOUND[key] = plan
                break
    return _FOUND[key]


def rotated(rules: Rules, plan: RoundPlan, by: int) -> RoundPlan:
    """``plan`` with every seat's cards and tricks moved ``by`` seats clockwise."""
    n = rules.players
    return move_seats(rules, plan, {seat: (seat + by) % n for seat in range(n)}) if by % n else plan
