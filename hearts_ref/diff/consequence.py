"""What a difference in hearts broken changes in play: the first play whose legal cards it makes differ.

Two rulesets that part first in whether hearts are broken (the Q♠ breaking them on one side,
BREAK-QUEEN, say) play alike until a seat's legal cards depend on it: a lead after the first
trick while hearts are broken on one side only (LEAD-HEARTS), or a discard where unbroken
hearts may not be discarded. Where hearts broken restricts the plays on both sides
(``must_break_hearts``), :func:`first_changed_play` searches for that play: it plays
``games`` rounds on the reference engine under both rulesets in step (the same deal, the same
passes, the same plays, each drawn among the cards both sides allow by
:func:`~hearts_ref.simulate.random_card`, the first one that breaks hearts on one side only
played as soon as it can be), and keeps the round that reaches a play
whose legal cards differ soonest. Where the comparison gives its smallest game (the deal and
plays that part hearts broken soonest), :func:`first_changed_play` first walks the plays, depth
first, from that game's deal and from deals that swap a few cards between seats, the cards that
break hearts on one side only played first (:func:`_from_parting`), looking for the bound below.

:func:`~.soonest.soonest_legal_difference` proves with z3 a play before which no round can show
different legal cards; a consequence that reaches it is proved the soonest (``soonest``), and
one that does not says the bound. The search is deterministic (its rounds are dealt from fixed
seeds).

>>> from hearts_ref import Rules
>>> found = first_changed_play(Rules(), Rules(qs_breaks_hearts=True))
>>> found.part.kind, found.broken_at < found.part.play, found.rules, found.soonest
('legal', True, ('LEAD-HEARTS', None), False)
"""

from __future__ import annotations

import functools
import random
from typing import Any, NamedTuple

from hearts_ref.cards import CARDS
from hearts_ref.cardset import CardSet, bits_of
from hearts_ref.deals import deal
from hearts_ref.diff.games import Part, Replayed, Script, ScriptRound, engine_rules
from hearts_ref.diff.rounds import dealt_for
from hearts_ref.diff.soonest import Bound, soonest_legal_difference
from hearts_ref.errors import HeartsError
from hearts_ref.game import Game
from hearts_ref.legality import Context, breaks_hearts
from hearts_ref.simulate import random_card
from hearts_ref.variants import Rules

__all__ = ["Consequence", "first_changed_play", "consequence_of", "restricts_by_hearts_broken", "GAMES"]

GAMES = 400   # rounds searched: each about a millisecond on the engine under both rulesets


class Consequence(NamedTuple):
    """The first play found whose legal cards differ: the round both sides play up to it (``script``: the hands at
    the first lead and the plays before it), where (``part``, of kind ``legal``), the play after which hearts broken
    first differed (``broken_at``), the rule each side's engine names for the card it forbids (``rules``), the
    sides' games there (``replayed``), the random rounds searched (``games``: none once a round played on from the
    smallest game reaches the bound) and the bound z3 proves (``bound``)."""

    script: Script
    part: Part
    broken_at: int
    rules: tuple[str | None, str | None]
    replayed: Replayed
    games: int
    bound: Bound | None = None   # the play before which no round can differ (proved), when the comparison gives one

    @property
    def claim(self) -> str:
        """How sure the play is to be the soonest: proved, or the soonest searched with the bound proved, or neither."""
        if self.soonest:
            return "proved the soonest with z3: no round can show different legal cards before it"
        if self.bound is not None and self.bound.proved and self.bound.play is not None:
            return (f"the soonest found, not proved the soonest: z3 proves no play before play {self.bound.play} "
                    "can show different legal cards")
        return f"the soonest in {self.games} rounds searched, not proved the earliest"

    @property
    def soonest(self) -> bool:
        """Whether no round can show different legal cards before this one's play (it reaches the proved bound)."""
        return self.bound is not None and self.bound.proved and self.bound.play == self.part.play


def consequence_of(result: Any) -> Consequence | None:
    """For a comparison (:class:`~hearts_ref.diff.compare.Comparison`) whose sides part first in whether hearts are
    broken, where that restricts the plays on both sides (:func:`restricts_by_hearts_broken`): the first play found
    that it changes;
    else None (another difference, or hearts broken restricting nothing: :attr:`Comparison.in_play` says that)."""
    if not restricts_by_hearts_broken(result):
        return None
    difference = result.difference
    parted = difference.script.rounds[0] if difference.script and difference.part.round == 1 else None
    if parted is None or not difference.smallest:
        return first_changed_play(result.a, result.b)
    return first_changed_play(result.a, result.b, parted=(parted.hands, parted.plays))


def restricts_by_hearts_broken(result: Any) -> bool:
    """Whether a comparison's sides part first in hearts broken and it restricts the plays on both sides
    (``must_break_hearts`` on each): only then is a later difference in the legal cards hearts broken's doing (with
    it off on one side, that side leads hearts whatever is broken: the legal plays differ by ``must_break_hearts``)."""
    difference = result.difference
    return (difference is not None and difference.kind == "broken" and result.in_play is None
            and result.a.must_break_hearts and result.b.must_break_hearts)


@functools.lru_cache(maxsize=64)
def first_changed_play(a: Rules, b: Rules, *, games: int = GAMES,
                       parted: tuple[tuple[int, ...], tuple[int, ...]] | None = None) -> Consequence | None:
    """Search ``games`` first rounds for the soonest play whose legal cards differ between ``a`` and ``b`` (which
    agree on every legal set in the same context: they part through hearts broken); None when none reaches one.

    ``parted``: the smallest game's round (the hands at the first lead, the plays up to the one that parts hearts
    broken), no round parting sooner: the bound is proved (:mod:`.soonest`) and the round played on towards it."""
    best: tuple[int, int, tuple[int, ...], tuple[int, ...]] | None = None   # (play, broken at, hands, plays)
    direction = a.pass_direction(1)
    bound = None
    if parted is not None:
        bound = soonest_legal_difference(a, b, parted=len(parted[1]))
        if bound.proved and bound.play is not None:
            best = _from_parting(a, b, parted[0], direction, bound.play)
    searched = 0
    for number in range(games):
        if best is not None and bound is not None and best[0] == bound.play:
            break   # the soonest any round can reach
        searched += 1
        rng = random.Random(f"hearts-ref-diff:{number}")
        hands = tuple(hand.mask for hand in deal(a, rng=rng))   # the hands at the first lead
        found = _play_in_step(a, b, hands, direction, rng, None if best is None else best[0])
        if found is not None:
            best = (found[0], found[1], hands, found[2])
    if best is None:
        return None
    play, broken_at, hands, plays = best
    game_a, game_b = _dealt(a, b, hands, direction)
    for card in plays:
        game_a, game_b = game_a.play(CARDS[card]), game_b.play(CARDS[card])
    part = Part("legal", 1, play, play, {"legal": (str(game_a.round.legal_plays()), str(game_b.round.legal_plays()))})
    replayed = Replayed(part, game_a, game_b)
    return Consequence(Script((ScriptRound(hands, plays),)), part, broken_at, engine_rules(replayed), replayed,
                       searched, bound)


def _dealt(a: Rules, b: Rules, hands: tuple[int, ...], direction: str) -> tuple[Game, Game]:
    """Both sides' games with round 1 at its first lead holding ``hands``: dealt and passed as the smallest game's
    round is (:func:`~hearts_ref.diff.rounds.dealt_for`), so that it is drawn and replayed the same way."""
    dealt, passes = dealt_for(a, hands, direction)
    deal_hands = tuple(CardSet.from_mask(h) for h in dealt)
    game_a = Game.new(a).deal_round(deal_hands, direction=direction)
    game_b = Game.new(b).deal_round(deal_hands, direction=direction)
    for seat, cards in enumerate(passes or ()):
        passed = CardSet.from_mask(cards)
        game_a, game_b = game_a.choose_pass(seat, passed), game_b.choose_pass(seat, passed)
    return game_a, game_b


def _play_in_step(a: Rules, b: Rules, dealt: tuple[int, ...], direction: str, rng: random.Random,
                  bound: int | None) -> tuple[int, int, tuple[int, ...]] | None:
    """Play the round on both sides in step; return the number of the first play whose legal cards differ, the play
    after which hearts broken first differed, and the plays before it; None if the round ends (or passes
    ``bound``, the best found so far) first."""
    game_a, game_b = _dealt(a, b, dealt, direction)
    plays: list[int] = []
    broken_at = 0
    while game_a.round is not None and game_b.round is not None:
        if bound is not None and len(plays) + 1 >= bound:
            return None
        legal_a, legal_b = game_a.round.legal, game_b.round.legal
        if legal_a != legal_b:
            return (len(plays) + 1, broken_at, tuple(plays)) if broken_at else None
        if not legal_a:   # a deadlock on both sides alike
            return None
        card = _breaking(game_a.round.context, a, b, legal_a) if not broken_at else None
        if card is None:
            card = random_card(game_a.round, rng).index
        game_a, game_b = game_a.play(CARDS[card]), game_b.play(CARDS[card])
        plays.append(card)
        if not broken_at and _broken(game_a) != _broken(game_b):
            broken_at = len(plays)
    return None


def _broken(game: Game) -> bool:
    return game.round is not None and game.round.context.hearts_broken


def _breaking(context: Context, a: Rules, b: Rules, legal: int) -> int | None:
    """The lowest card of ``legal`` that breaks hearts on one side only (the engine's BREAK-* rule,
    :func:`~hearts_ref.legality.breaks_hearts`), if any."""
    return next((card for card in bits_of(legal) if _breaks_one_side(1 << card, context, a, b)), None)


def _breaks_one_side(played: int, context: Context, a: Rules, b: Rules) -> bool:
    return breaks_hearts(played, context, a) != breaks_hearts(played, context, b)


def _from_parting(a: Rules, b: Rules, hands: tuple[int, ...], direction: str, target: int, attempts: int = 150,
                  nodes: int = 300) -> tuple[int, int, tuple[int, ...], tuple[int, ...]] | None:
    """The soonest play whose legal cards differ found by walking the plays (:class:`_Walk`) from the smallest
    game's deal (``hands``, at the first lead) and from deals that swap one to three cards between two seats;
    ``target`` (the proved bound) ends the search. Returns (play, broken at, hands, plays), as
    :func:`_play_in_step` does, or None."""
    rng = random.Random("hearts-ref-diff:soonest")
    best = None
    for attempt in range(attempts):
        dealt = list(hands)
        for _ in range(attempt and 1 + attempt % 3):   # the smallest game's own deal first
            one, other = rng.sample(range(a.players), 2)
            x, y = rng.choice(list(bits_of(dealt[one]))), rng.choice(list(bits_of(dealt[other])))
            dealt[one] ^= (1 << x) | (1 << y)
            dealt[other] ^= (1 << x) | (1 << y)
        try:
            game_a, game_b = _dealt(a, b, tuple(dealt), direction)
        except HeartsError:   # (a deal the rules refuse: a pass that cannot be made)
            continue
        walk = _Walk(a, b, best[0] if best else a.players * a.hand_size + 1, nodes, rng)
        walk.walk(game_a, game_b, [], 0)
        if walk.best is not None:
            best = (walk.best[0], walk.best[1], tuple(dealt), walk.best[2])
            if best[0] <= target:
                break
    return best


class _Walk:
    """The plays from a round's first lead, depth first (``nodes`` at most), keeping the soonest play before
    ``limit`` whose legal cards differ once hearts broken has parted. Each seat plays the cards both sides allow in
    an order drawn from ``rng``, those that break hearts on one side only first while hearts broken has not parted
    (the smallest game's own plays are found so)."""

    def __init__(self, a: Rules, b: Rules, limit: int, nodes: int, rng: random.Random):
        self.a, self.b, self.limit, self.nodes, self.rng = a, b, limit, nodes, rng
        self.best: tuple[int, int, tuple[int, ...]] | None = None

    def walk(self, game_a: Game, game_b: Game, plays: list[int], broken_at: int) -> None:
        self.nodes -= 1
        play = len(plays) + 1
        if self.nodes < 0 or play >= self.limit or game_a.round is None or game_b.round is None:
            return
        legal_a, legal_b = game_a.round.legal, game_b.round.legal
        if legal_a != legal_b:
            if broken_at:
                self.best, self.limit = (play, broken_at, tuple(plays)), play
            return
        order = list(bits_of(legal_a))
        self.rng.shuffle(order)
        if not broken_at:
            context = game_a.round.context   # (a stable sort: the drawn order kept within each group)
            order.sort(key=lambda card: not _breaks_one_side(1 << card, context, self.a, self.b))
        for card in order:
            after_a, after_b = game_a.play(CARDS[card]), game_b.play(CARDS[card])
            parted = broken_at or (play if _broken(after_a) != _broken(after_b) else 0)
            self.walk(after_a, after_b, plays + [card], parted)
            if self.nodes < 0 or play + 1 >= self.limit:
                return
