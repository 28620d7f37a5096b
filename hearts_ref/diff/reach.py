"""Reaching a one-step difference in a real round: a bounded search from a deal, on the reference engine.

A :class:`~hearts_ref.diff.onestep.Candidate` says: *a hand like this, in a context like this,
would show a difference*. :func:`reach` looks for a deal (no pass) and legal plays after
which the sides really part — the player to move has different legal sets on the two sides,
or a play breaks hearts on one side only, or a finished trick counts different points — at
as early a play as it can find.

The search plays the round under side A's rules on the engine (a
:class:`~hearts_ref.round.RoundState`) and asks side B's rule functions the same questions
at every step: until the sides part their states are the same, so this is the round both
play. The player who is to hold the candidate's hand is dealt it plus the cards it sheds on
the tricks before, and only ever sheds those; the other hands are dealt lowest first on the
first attempt (the most readable game), then from the highest clubs, then at random. Every
choice comes from ``random.Random(seed)``: the same call finds the same game.

>>> from hearts_ref import Rules
>>> from properties.solving import Prover
>>> from hearts_ref.diff.onestep import one_step
>>> a, b = Rules(), Rules.preset("seed001")
>>> found = reach(a, b, one_step(a, b, Prover(timeout=30)).candidates[0])
>>> found.kind, found.play, [str(CARDS[c]) for c in found.plays]
('legal', 2, ['2C'])
"""

from __future__ import annotations

import random
from typing import NamedTuple

from hearts_ref.cards import CARDS, Suit, suit_of
from hearts_ref.cardset import CardSet, bits_of
from hearts_ref.diff.onestep import Candidate
from hearts_ref.diff.semantics import ENGINE, Semantics
from hearts_ref.errors import HeartsError
from hearts_ref.round import RoundState, start_round
from hearts_ref.variants import Rules

__all__ = ["Parting", "reach", "parting_at"]


class Parting(NamedTuple):
    """Where a round parts: its deal (the hands at the first lead), the plays before, and the play where it shows.

    ``play`` is the number of that play in the round (1-based). For ``legal`` the sides offer
    different plays before it (``card`` is None); for ``broken`` and ``points`` the play
    ``card`` (legal on both sides) breaks hearts on one side only, or completes a trick whose
    points differ.
    """

    kind: str
    hands: tuple[int, ...]
    plays: tuple[int, ...]
    card: int | None
    play: int


def parting_at(state: RoundState, b: Rules, card: int | None = None, semantics: Semantics = ENGINE) -> str | None:
    """Whether the sides part at ``state`` (played under side A's rules): before its next play (``card`` None:
    the legal sets differ) or at the play ``card``; return the kind, or None."""
    hand, ctx = state.hands[state.to_play], state.context
    if card is None:
        return "legal" if semantics.legal_plays(hand, ctx, b) != state.legal else None
    a, bit = state.rules, 1 << card
    broken_a = ctx.hearts_broken or bool(semantics.breaks_hearts(bit, ctx, a))
    if broken_a != (ctx.hearts_broken or bool(semantics.breaks_hearts(bit, ctx, b))):
        return "broken"
    if len(state.trick) == a.players - 1:   # this play completes the trick: are its points the same?
        cards = bit
        for c in state.trick:
            cards |= 1 << c
        if semantics.card_points(cards, a) != semantics.card_points(cards, b):
            return "points"
    return None


class _Search:
    """One depth-first walk of the plays from one deal, keeping the earliest parting it finds."""

    def __init__(self, b: Rules, candidate: Candidate, seat: int, rng: random.Random, nodes: int,
                 limit: int, semantics: Semantics):
        self.b, self.candidate, self.seat, self.rng, self.semantics = b, candidate, seat, rng, semantics
        self.budget, self.limit = nodes, limit
        self.tricks_before = b.hand_size - candidate.size
        self.best: tuple[str, tuple[int, ...], int | None] | None = None

    def found(self, kind: str, plays: list[int], card: int | None) -> None:
        self.best = (kind, tuple(plays), card)
        self.limit = len(plays)   # from now on only an earlier parting is worth finding

    def walk(self, state: RoundState, plays: list[int]) -> None:
        self.budget -= 1
        if self.budget < 0 or state.to_play < 0 or len(plays) + 1 > self.limit:
            return
        done = len(state.tricks)
        if done > self.tricks_before or (state.hearts_broken and not self.candidate.situation.ctx.hearts_broken):
            return   # past the candidate's trick, or hearts broke and never mend (BREAK-DISCARD)
        kind = parting_at(state, self.b, semantics=self.semantics)
        if kind:
            return self.found(kind, plays, None)
        moves = state.legal
        if state.to_play == self.seat:
            if done < self.tricks_before:
                moves &= ~self.candidate.hand          # it only ever sheds its extra cards
            elif state.hands[self.seat] != self.candidate.hand or self.candidate.card is None:
                return                                  # its turn came in the wrong context
            else:
                moves &= 1 << self.candidate.card
        order = list(bits_of(moves))
        self.rng.shuffle(order)
        for card in order:
            kind = parting_at(state, self.b, card, self.semantics)
            if kind:
                return self.found(kind, plays, card)
            self.walk(state.play(CARDS[card]), plays + [card])
            if self.budget < 0:
                return


def _deal(rules: Rules, candidate: Candidate, attempt: int, rng: random.Random) -> tuple[int, list[int]] | None:
    """The seat to hold the candidate's hand, and every hand, for this attempt."""
    n, hand = rules.players, candidate.hand
    extras_needed = rules.hand_size - candidate.size
    rest = list(bits_of(rules.deck_mask & ~hand))
    if attempt == 0:
        seat = 0 if candidate.situation.ctx.leading and candidate.situation.ctx.first_trick else 1
        extras = rest[:extras_needed]
    elif attempt == 1:
        seat = rng.randrange(n)
        by_value = sorted(rest, key=lambda c: (suit_of(c) != Suit.CLUBS, -(c % 13)))   # the highest clubs first
        extras = by_value[:extras_needed]
    else:
        seat = rng.randrange(n)
        extras = rng.sample(rest, extras_needed)
    others = [c for c in rest if c not in extras]
    if attempt:
        rng.shuffle(others)
    masks = [0] * n
    masks[seat] = hand | sum(1 << c for c in extras)
    other_seats = [s for s in range(n) if s != seat]
    per = len(others) // len(other_seats)
    for k, card in enumerate(others):
        masks[other_seats[k // per if attempt == 0 else k % len(other_seats)]] |= 1 << card
    return seat, masks


def reach(a: Rules, b: Rules, candidate: Candidate, *, limit: int | None = None, seed: int = 0, attempts: int = 200,
          nodes: int = 3000, total: int = 60000, semantics: Semantics = ENGINE) -> Parting | None:
    """Return the earliest parting found from deals built around ``candidate`` (at play ``limit`` or sooner), or None."""
    rng = random.Random(seed)
    limit = limit or a.players * a.hand_size
    best: Parting | None = None
    for attempt in range(attempts):
        if total <= 0 or (best is not None and best.play <= candidate.earliest):
            break
        seat, masks = _deal(a, candidate, attempt, rng)
        try:
            state = start_round(a, [CardSet.from_mask(m) for m in masks], direction="none")
        except HeartsError:
            continue
        search = _Search(b, candidate, seat, rng, min(nodes, total), best.play - 1 if best else limit, semantics)
        search.walk(state, [])
        total -= min(nodes, total) - max(search.budget, 0)
        if search.best is not None:
            kind, plays, card = search.best
            best = Parting(kind, tuple(masks), plays, card, len(plays) + 1)
    return best
