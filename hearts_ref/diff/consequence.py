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
whose legal cards differ soonest. The search is deterministic (its rounds are dealt from
fixed seeds); it is not a proof that no earlier play can differ, and says so.

>>> from hearts_ref import Rules
>>> found = first_changed_play(Rules(), Rules(qs_breaks_hearts=True))
>>> found.part.kind, found.broken_at < found.part.play, found.rules
('legal', True, ('LEAD-HEARTS', None))
"""

from __future__ import annotations

import functools
import random
from typing import Any, NamedTuple

from hearts_ref.cards import CARDS
from hearts_ref.cardset import CardSet
from hearts_ref.deals import deal
from hearts_ref.diff.games import Part, Replayed, Script, ScriptRound, engine_rules
from hearts_ref.diff.rounds import dealt_for
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
    sides' games there (``replayed``) and the rounds searched (``games``)."""

    script: Script
    part: Part
    broken_at: int
    rules: tuple[str | None, str | None]
    replayed: Replayed
    games: int


def consequence_of(result: Any) -> Consequence | None:
    """For a comparison (:class:`~hearts_ref.diff.compare.Comparison`) whose sides part first in whether hearts are
    broken, where that restricts the plays on both sides (:func:`restricts_by_hearts_broken`): the first play found
    that it changes;
    else None (another difference, or hearts broken restricting nothing: :attr:`Comparison.in_play` says that)."""
    return first_changed_play(result.a, result.b) if restricts_by_hearts_broken(result) else None


def restricts_by_hearts_broken(result: Any) -> bool:
    """Whether a comparison's sides part first in hearts broken and it restricts the plays on both sides
    (``must_break_hearts`` on each): only then is a later difference in the legal cards hearts broken's doing (with
    it off on one side, that side leads hearts whatever is broken: the legal plays differ by ``must_break_hearts``)."""
    difference = result.difference
    return (difference is not None and difference.kind == "broken" and result.in_play is None
            and result.a.must_break_hearts and result.b.must_break_hearts)


@functools.lru_cache(maxsize=64)
def first_changed_play(a: Rules, b: Rules, *, games: int = GAMES) -> Consequence | None:
    """Search ``games`` first rounds for the soonest play whose legal cards differ between ``a`` and ``b`` (which
    agree on every legal set in the same context: they part through hearts broken); None when none reaches one."""
    best: tuple[int, int, tuple[int, ...], tuple[int, ...]] | None = None   # (play, broken at, hands, plays)
    direction = a.pass_direction(1)
    for number in range(games):
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
    return Consequence(Script((ScriptRound(hands, plays),)), part, broken_at, engine_rules(replayed), replayed, games)


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
    rest = legal
    while rest:
        played = rest & -rest
        if breaks_hearts(played, context, a) != breaks_hearts(played, context, b):
            return played.bit_length() - 1
        rest ^= played
    return None
