"""Policies: how the differential games deal, pass and play, from uniform to edge-seeking.

Every policy picks among the reference's legal plays and passes, with its choices drawn
from one seeded ``random.Random``, so a game is reproducible from the campaign seed.
Uniform play rarely reaches the corners of the rules; the others steer toward them:

========================  ==================================================================
``uniform``               shuffled deals, random passes, every legal play equally likely
``void-suits``            deals and passes that void suits; discards points when void
                          (FOLLOW-VOID, FIRST-NO-POINTS, BREAK-DISCARD, BREAK-QUEEN)
``hoard-hearts``          hands heavy in point cards, hearts kept to the end
                          (LEAD-HEARTS, FIRST-EXCEPTION)
``moon``                  one seat takes every trick it can, the others feed it points
                          (SCORE-MOON and the moon spoiled by one heart)
``threshold``             points steered to the leading seat until its total sits on the
                          end threshold, one below or one above (END-THRESHOLD)
``ties``                  points steered to the lowest totals, so that totals tie
                          (WIN-TIE, WIN-LOWEST)
``targeted``              stacked deals and scripted plays that reach the situations of the
                          rules' catalogue (:mod:`.targeted`): every few games of a campaign
========================  ==================================================================

>>> import random
>>> from hearts_ref.variants import Rules
>>> policy = make_policy("void-suits", random.Random(1))
>>> hands = policy.deal(Rules(), 1)
>>> sorted(len(hand) for hand in hands)
[13, 13, 13, 13]
"""

from __future__ import annotations

import itertools
import random

from hearts_ref.cards import suit_of
from hearts_ref.cardset import POINT_CARDS, QUEEN, SUIT_MASKS, CardSet, bits_of, highest, lowest
from hearts_ref.deals import deal
from hearts_ref.game import Game
from hearts_ref.round import PASS_SIZE, RoundState
from hearts_ref.scoring import card_points
from hearts_ref.variants import Rules
from hearts_ref.conformance.script import nth_card

__all__ = ["Policy", "POLICY_NAMES", "RANDOM_POLICIES", "make_policy", "policy_for"]


def _pick(mask: int, rng: random.Random) -> int:
    """One card of a non-empty mask, each equally likely."""
    return nth_card(mask, int(rng.random() * mask.bit_count()))


def _deal_with(rules: Rules, rng: random.Random, seat: int, wanted: int, number: int) -> tuple[CardSet, ...]:
    """A deal of round ``number`` in which ``seat`` holds ``wanted`` (as many as fit) and the rest is shuffled: each
    seat as many cards as DEAL-HANDS deals it (with uneven hands, the extra cards the first seats' from the dealer's
    left)."""
    sizes = rules.dealt_sizes(dealer=(number - 1) % rules.players)
    size = sizes[seat]
    wanted &= rules.deck_mask
    chosen = list(bits_of(wanted))
    rng.shuffle(chosen)
    hand = 0
    for index in chosen[:size]:
        hand |= 1 << index
    rest = [i for i in bits_of(rules.deck_mask & ~hand)]
    rng.shuffle(rest)
    while hand.bit_count() < size:
        hand |= 1 << rest.pop()
    hands = [0] * rules.players
    hands[seat] = hand
    others = [s for s in range(rules.players) if s != seat]
    turn = (others[k % len(others)] for k in itertools.count())   # dealt round the others, each up to its size
    for index in rest:
        taker = next(turn)
        while hands[taker].bit_count() >= sizes[taker]:
            taker = next(turn)
        hands[taker] |= 1 << index
    return tuple(CardSet.from_mask(h) for h in hands)


class Policy:
    """Uniform play: shuffled deals, random passes, a random legal play. Subclasses steer."""

    name = "uniform"
    any_direction = False   # set by the decider: the policy draws the pass direction (an engine of one round)
    passing = True          # set by the decider: False for an engine that does not pass
    engine_deals = False    # set by the decider: the engine deals for itself, deal() is not asked

    def __init__(self, rng: random.Random):
        self.rng = rng

    def deal(self, rules: Rules, number: int) -> tuple[CardSet, ...]:
        """DEAL-HANDS: the hands of round ``number``."""
        return deal(rules, rng=self.rng, dealer=(number - 1) % rules.players)

    def direction(self, rules: Rules, options: tuple[str, ...]) -> str:
        """PASS-CYCLE: the direction, when the runner chooses it."""
        return self.rng.choice(options)

    def new_round(self, game: Game) -> None:
        """Plan the round that has just been dealt (who shoots, who takes points)."""

    def choose_pass(self, state: RoundState, seat: int) -> int:
        """PASS-COUNT: three cards of ``seat``'s hand, as a mask."""
        hand = state.hands[seat]
        chosen = 0
        for index in self.rng.sample(list(bits_of(hand)), PASS_SIZE):
            chosen |= 1 << index
        return chosen

    def choose_play(self, state: RoundState, allowed: int) -> int:
        """One of the cards ``allowed`` (the legal plays on both sides, a mask), as a card index."""
        return _pick(allowed, self.rng)


class VoidSuits(Policy):
    """Void suits through the deal and the pass; play the shortest suit; discard points when void."""

    name = "void-suits"

    def deal(self, rules: Rules, number: int) -> tuple[CardSet, ...]:
        if self.rng.random() < 0.5:
            return super().deal(rules, number)
        keep = list(range(4))
        for _ in range(self.rng.choice((1, 2))):
            keep.remove(self.rng.choice(keep))
        wanted = 0
        for suit in keep:
            wanted |= SUIT_MASKS[suit]
        return _deal_with(rules, self.rng, self.rng.randrange(rules.players), wanted, number)

    def choose_pass(self, state: RoundState, seat: int) -> int:
        hand = state.hands[seat]
        suits = sorted((s for s in range(4) if hand & SUIT_MASKS[s]),
                       key=lambda s: ((hand & SUIT_MASKS[s]).bit_count(), self.rng.random()))
        chosen = 0
        for suit in suits:
            for index in bits_of(hand & SUIT_MASKS[suit]):
                if chosen.bit_count() < PASS_SIZE:
                    chosen |= 1 << index
        return chosen

    def choose_play(self, state: RoundState, allowed: int) -> int:
        legal = allowed
        if self.rng.random() < 0.2:
            return _pick(legal, self.rng)
        if state.trick and not legal & SUIT_MASKS[suit_of(state.trick[0])]:
            points = legal & POINT_CARDS   # void: discard a point card when allowed
            if points:
                return highest(points)
        hand = state.hands[state.to_play]
        shortest = min((s for s in range(4) if legal & SUIT_MASKS[s]),
                       key=lambda s: (hand & SUIT_MASKS[s]).bit_count())
        return _pick(legal & SUIT_MASKS[shortest], self.rng)


class HoardHearts(Policy):
    """Hands heavy in point cards; pass other cards away; play hearts only when nothing else is legal."""

    name = "hoard-hearts"

    def deal(self, rules: Rules, number: int) -> tuple[CardSet, ...]:
        if self.rng.random() < 0.3:
            return super().deal(rules, number)
        return _deal_with(rules, self.rng, self.rng.randrange(rules.players), POINT_CARDS & rules.deck_mask,
                          number)

    def choose_pass(self, state: RoundState, seat: int) -> int:
        hand = state.hands[seat]
        others = list(bits_of(hand & ~POINT_CARDS))
        self.rng.shuffle(others)
        chosen = 0
        for index in others[:PASS_SIZE]:
            chosen |= 1 << index
        for index in bits_of(hand & ~chosen):
            if chosen.bit_count() < PASS_SIZE:
                chosen |= 1 << index
        return chosen

    def choose_play(self, state: RoundState, allowed: int) -> int:
        legal = allowed
        keep = legal & ~POINT_CARDS
        return _pick(keep or legal, self.rng)


class _Steering(Policy):
    """Plays that steer the points: seats that want points try to win tricks, the others dump on them."""

    noise = 0.1

    def __init__(self, rng: random.Random):
        super().__init__(rng)
        self.wants: tuple[bool, ...] = ()

    def want(self, state: RoundState, seat: int) -> bool:
        return self.wants[seat] if self.wants else False

    def choose_play(self, state: RoundState, allowed: int) -> int:
        legal = allowed
        if self.rng.random() < self.noise:
            return _pick(legal, self.rng)
        seat = state.to_play
        greedy = self.want(state, seat)
        if not state.trick:
            return highest(legal) if greedy else lowest(legal & ~POINT_CARDS or legal)
        led = SUIT_MASKS[suit_of(state.trick[0])]
        best = max(c for c in state.trick if (1 << c) & led)
        winner = (state.leader + state.trick.index(best)) % state.rules.players
        beating = legal & led & ~((1 << (best + 1)) - 1)
        if greedy:
            if beating:
                return highest(beating)
            return lowest(legal & ~POINT_CARDS or legal)
        if not legal & led:   # void: dump points, most of all on a seat that wants them
            points = legal & POINT_CARDS
            if points and (self.want(state, winner) or self.rng.random() < 0.5):
                return highest(points & QUEEN or points)
            return highest(legal)
        under = legal & ~beating
        return highest(under) if under else lowest(legal)


class Moon(_Steering):
    """One seat per round shoots the moon; the others feed it points."""

    name = "moon"

    def new_round(self, game: Game) -> None:
        shooter = self.rng.randrange(game.rules.players)
        self.wants = tuple(seat == shooter for seat in range(game.rules.players))
        self.noise = self.rng.choice((0.0, 0.02, 0.1))

    def choose_pass(self, state: RoundState, seat: int) -> int:
        hand = state.hands[seat]
        if not self.wants[seat]:
            return super().choose_pass(state, seat)
        # the shooter passes its lowest cards
        chosen = 0
        for index in sorted(bits_of(hand), key=lambda i: i % 13)[:PASS_SIZE]:
            chosen |= 1 << index
        return chosen


class Threshold(_Steering):
    """Steer points to the leading seat until its total sits on the end threshold (or one off it)."""

    name = "threshold"

    def new_round(self, game: Game) -> None:
        self.game = game
        self.offset = self.rng.choice((-1, 0, 0, 1))

    def want(self, state: RoundState, seat: int) -> bool:
        totals = self.game.totals
        target = self.game.rules.end_threshold + self.offset
        leader = max(range(len(totals)), key=lambda s: (totals[s], -s))
        if seat != leader:
            return False
        return totals[seat] + card_points(state.taken[seat], state.rules) < target


class Ties(_Steering):
    """Steer points to the seats with the lowest running score, so that totals tie."""

    name = "ties"

    def new_round(self, game: Game) -> None:
        self.game = game

    def want(self, state: RoundState, seat: int) -> bool:
        totals = self.game.totals
        scores = [totals[s] + card_points(state.taken[s], state.rules) for s in range(len(totals))]
        return scores[seat] == min(scores)


_POLICIES = {cls.name: cls for cls in (Policy, VoidSuits, HoardHearts, Moon, Threshold, Ties)}
RANDOM_POLICIES: tuple[str, ...] = tuple(_POLICIES)
TARGETED = "targeted"
POLICY_NAMES: tuple[str, ...] = RANDOM_POLICIES + (TARGETED,)


def make_policy(name: str, rng: random.Random, *, index: int = 0) -> Policy:
    """Return a fresh policy ``name`` (one of :data:`POLICY_NAMES`) drawing from ``rng``.

    ``index``: for ``targeted``, the game's number among the campaign's targeted games.
    """
    if name == TARGETED:
        from hearts_ref.conformance.targeted import Targeted

        return Targeted(rng, index)
    try:
        return _POLICIES[name](rng)
    except KeyError:
        raise ValueError(f"unknown policy {name!r}; choose one of {', '.join(POLICY_NAMES)}") from None


def policy_for(index: int, policies: tuple[str, ...] = POLICY_NAMES, every: int = 4) -> tuple[str, int]:
    """The policy of a campaign's game ``index``, and the game's number among the games of that policy.

    With ``targeted`` among ``policies``, every ``every``-th game is targeted; the others take the
    other policies in turn.

    >>> [policy_for(i)[0] for i in range(8)]
    ['uniform', 'void-suits', 'hoard-hearts', 'targeted', 'moon', 'threshold', 'ties', 'targeted']
    >>> policy_for(7), policy_for(3, ("uniform",))
    (('targeted', 1), ('uniform', 3))
    """
    others = tuple(name for name in policies if name != TARGETED)
    if TARGETED not in policies:
        return others[index % len(others)], index // len(others)
    if not others:
        return TARGETED, index
    if index % every == every - 1:
        return TARGETED, index // every
    played = index - index // every
    return others[played % len(others)], played // len(others)
