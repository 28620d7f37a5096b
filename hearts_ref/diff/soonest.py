"""The soonest play whose legal cards can differ once two rulesets part in hearts broken, proved with z3.

:mod:`.consequence` searches rounds for the first play whose legal cards differ after the
sides part in whether hearts are broken; a search finds *a* play, not the soonest one. This
module gives the bound a search cannot: a play number before which no round can show
different legal cards, proved play by play on the engine's own rule code
(:func:`~hearts_ref.legality.legal_plays` on the z3 card-set algebra, as :mod:`.onestep` asks it).

With one card per seat per trick, play ``q`` of a round is a lead when ``q - 1`` is a multiple
of the number of players, on trick ``(q - 1) // n + 1``, by a seat holding ``hand_size - (q - 1) // n``
cards. For each play from the first on, and for every context such a play can have
(:func:`~.onestep.play_situations`: the suit led, hearts broken), z3 is asked whether the two
sides' legal sets are the same for every hand of that size:

- up to the play where the sides first part (``parted``, the smallest game's: no round parts
  sooner, so before it hearts broken is the same on both sides), with hearts broken alike;
- after it, with hearts broken either way on each side.

The first play where z3 finds a hand whose legal sets differ is the bound: no round can show
different legal cards sooner. The contexts over-approximate the states a round reaches, so
the bound may come before any real round's play; when the search reaches it, its play is
proved the soonest.

>>> from hearts_ref import Rules
>>> bound = soonest_legal_difference(Rules(), Rules(qs_breaks_hearts=True), parted=2)
>>> bound.play, bound.proved      # the Q♠ discarded on the first trick, then the next lead
(5, True)
"""

from __future__ import annotations

import functools
from typing import NamedTuple

from hearts_ref.diff.onestep import Formulas, identical, play_situations
from hearts_ref.variants import Rules
from properties.solving import PROVED, REFUTED, Prover, same_cards

__all__ = ["Bound", "soonest_legal_difference"]

TIMEOUT = 30.0   # seconds per z3 query


class Bound(NamedTuple):
    """The soonest play whose legal cards can differ (``play``; None when none can), whether every play before it was
    proved to show the same legal cards on both sides (``status``: ``proved``, else why not), and the z3 queries."""

    play: int | None
    status: str
    queries: int
    reason: str = ""

    @property
    def proved(self) -> bool:
        return self.status == PROVED


@functools.lru_cache(maxsize=64)
def soonest_legal_difference(a: Rules, b: Rules, *, parted: int, timeout: float = TIMEOUT) -> Bound:
    """The soonest play at which ``a`` and ``b`` can show different legal cards, given that no round parts before
    play ``parted`` (in its legal cards, hearts broken or points: the smallest game's play)."""
    if a.players != b.players or a.hand_size != b.hand_size or a.extra_cards or b.extra_cards:
        return Bound(None, "unsettled", 0, "a trick of the first round is not one card per seat")
    n, prover, formulas = a.players, Prover(timeout=timeout), Formulas(a)
    chosen = play_situations(a, b)
    queries = 0
    for play in range(1, n * a.hand_size + 1):
        trick, place = divmod(play - 1, n)
        size = a.hand_size - trick
        for situation in chosen:
            ctx = situation.ctx
            if ctx.leading != (place == 0) or ctx.first_trick != (trick == 0) or not (
                    situation.min_cards <= size <= situation.max_cards):
                continue
            # before the sides part, hearts broken is the same on both; from then on, either way on each
            for broken in ((ctx.hearts_broken,) if play <= parted else (False, True)):
                legal_a = formulas.legal(ctx, a)
                legal_b = formulas.legal(ctx._replace(hearts_broken=broken), b)
                if identical(legal_a, legal_b):
                    continue
                queries += 1
                answer = prover.holds(formulas.hand_claims(situation) + [formulas.size(size)],
                                      same_cards(legal_a, legal_b))
                if answer.status == REFUTED:
                    return Bound(play, PROVED, queries)
                if answer.status != PROVED:
                    return Bound(None, "unsettled", queries,
                                 f"z3 {answer.status} on play {play}, {situation.describe()}")
    return Bound(None, PROVED, queries)
