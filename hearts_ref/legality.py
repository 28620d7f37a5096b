"""Which cards may be played: the legality rules, written once over card sets.

Each function below is one rule, named after it, and works on either card-set
algebra: plain integer masks (:data:`~hearts_ref.cardset.BITS`, the engine) or vectors
of z3 Booleans (``hearts_ref.symbolic.SYMBOLIC``, the proofs). The *context* of a
play (leading or following, the suit led, first trick or not, hearts broken or not)
stays concrete, so ordinary ``if`` statements on it stay ordinary; a choice that
depends on the *hand* goes through ``ops.choose``.

>>> from hearts_ref.variants import Rules
>>> from hearts_ref.cardset import CardSet
>>> hand = CardSet.parse("3C JC QS 4H").mask
>>> str(CardSet.from_mask(legal_plays(hand, Context(False, 0, False, False), Rules())))
'3C JC'
>>> rejecting_rule(hand, Context(False, 0, False, False), Rules(), CardSet.parse("QS").mask)
'FOLLOW-SUIT'
>>> allowing_rule(hand, Context(False, 0, False, False), Rules(), CardSet.parse("JC").mask)
'FOLLOW-SUIT'
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, NamedTuple

from hearts_ref.cards import Suit
from hearts_ref.cardset import BITS, HEARTS, POINT_CARDS, QUEEN, SUIT_MASKS
from hearts_ref.variants import Rules

__all__ = ["Context", "legal_plays", "rejecting_rule", "allowing_rule", "opening_leads", "hearts_leads",
           "follow_suit", "void_discards", "first_trick_discards", "first_two_cards", "breaks_hearts", "opening_leader"]

CLUBS = SUIT_MASKS[Suit.CLUBS]
_HEARTS_SUIT = int(Suit.HEARTS)   # a plain int: compared on every play until hearts break


class Context(NamedTuple):
    """What a play depends on besides the hand: the concrete part of the state."""

    leading: bool
    led_suit: int | None
    first_trick: bool
    hearts_broken: bool
    pair_suit: int | None = None   # FIRST-TWO-CARDS: the suit of the first of a seat's two cards, on its second


def opening_leads(hand: Any, rules: Rules) -> Any:
    """LEAD-OPEN: the lowest club in play opens the first trick (any club with ``can_lead_any_club``)."""
    opening = CLUBS if rules.can_lead_any_club else 1 << rules.lowest_club.index
    return hand & opening


def hearts_leads(hand: Any, ctx: Context, rules: Rules, ops: Any = BITS) -> Any:
    """LEAD-HEARTS: no heart may be led before hearts are broken, unless the leader holds only hearts."""
    if ctx.hearts_broken or not rules.must_break_hearts or rules.hearts_restriction != "lead":
        return hand
    not_hearts = hand & ~HEARTS
    # can_lead_hearts_instead_of_qs: holding only hearts and the Q♠ frees the leader as well.
    others = hand & ~(HEARTS | QUEEN) if rules.can_lead_hearts_instead_of_qs else not_hearts
    return ops.choose(ops.is_empty(others), hand, not_hearts)


def follow_suit(hand: Any, led_suit: int) -> Any:
    """FOLLOW-SUIT: the cards of the suit led, which a player holding any must play."""
    return hand & SUIT_MASKS[led_suit]


def first_trick_discards(hand: Any, rules: Rules, ops: Any = BITS) -> Any:
    """FIRST-NO-POINTS: no point card on the first trick; FIRST-EXCEPTION: unless the hand holds only them."""
    if rules.first_trick_points == "allowed":
        return hand
    safe = hand & ~POINT_CARDS
    if rules.first_trick_points == "forbidden":
        return safe
    return ops.choose(ops.is_empty(safe), hand, safe)


def void_discards(hand: Any, ctx: Context, rules: Rules, ops: Any = BITS) -> Any:
    """FOLLOW-VOID: a player void in the suit led may play any card, within the first-trick rule."""
    discards = first_trick_discards(hand, rules, ops) if ctx.first_trick else hand
    # hearts_restriction="discard" (seed 003's literal text): no heart discarded while unbroken.
    if rules.hearts_restriction == "discard" and rules.must_break_hearts and not ctx.hearts_broken:
        discards = discards & ~HEARTS
    return discards


def first_two_cards(plays: Any, pair_suit: int, ops: Any = BITS) -> Any:
    """FIRST-TWO-CARDS: of the ``plays`` the other rules allow, the second of a seat's two cards on the first
    trick is of the suit of its first card (``pair_suit``) when one of them is; else any of them.

    >>> from hearts_ref.cardset import CardSet
    >>> str(CardSet.from_mask(first_two_cards(CardSet.parse("5D KD 8S").mask, 1)))
    '5D KD'
    >>> str(CardSet.from_mask(first_two_cards(CardSet.parse("8S 9S").mask, 1)))
    '8S 9S'
    """
    same = plays & SUIT_MASKS[pair_suit]
    return ops.choose(ops.is_empty(same), plays, same)


def legal_plays(hand: Any, ctx: Context, rules: Rules, ops: Any = BITS) -> Any:
    """Return the cards of ``hand`` that may be played in ``ctx`` under ``rules``.

    Rules: LEAD-OPEN, LEAD-HEARTS, FOLLOW-SUIT, FOLLOW-VOID, FIRST-NO-POINTS, FIRST-EXCEPTION, FIRST-TWO-CARDS.
    """
    if ctx.leading:
        if ctx.first_trick:
            return opening_leads(hand, rules)
        return hearts_leads(hand, ctx, rules, ops)
    same_suit = follow_suit(hand, ctx.led_suit)
    plays = ops.choose(ops.is_empty(same_suit), void_discards(hand, ctx, rules, ops), same_suit)
    if ctx.pair_suit is None:
        return plays
    return first_two_cards(plays, ctx.pair_suit, ops)


def rejecting_rule(hand: int, ctx: Context, rules: Rules, card: int) -> str | None:
    """Return the ID of the first rule that forbids playing ``card`` (a one-card mask), or None.

    The same rule functions as :func:`legal_plays`, asked in the order the rules are written.
    """
    if not hand & card:
        return "TRICK-ORDER"
    if ctx.leading:
        if ctx.first_trick:
            return None if opening_leads(hand, rules) & card else "LEAD-OPEN"
        return None if hearts_leads(hand, ctx, rules) & card else "LEAD-HEARTS"
    same_suit = follow_suit(hand, ctx.led_suit)
    if same_suit:
        rule = None if same_suit & card else "FOLLOW-SUIT"
    elif ctx.first_trick and not first_trick_discards(hand, rules) & card:
        rule = "FIRST-NO-POINTS"
    else:
        rule = None if void_discards(hand, ctx, rules) & card else "FOLLOW-VOID"
    if rule is None and ctx.pair_suit is not None and not legal_plays(hand, ctx, rules) & card:
        return "FIRST-TWO-CARDS"
    return rule


def allowing_rule(hand: int, ctx: Context, rules: Rules, card: int) -> str | None:
    """Return the ID of the rule that allows playing ``card`` (a one-card mask), or None if none does.

    The counterpart of :func:`rejecting_rule`, asked in the same order: the first lead of the
    round rests on LEAD-OPEN; a later lead on LEAD-HEARTS for a heart or the Q♠ (that rule says
    when they may be led) and on LEAD-WINNER for any other card; a card of the suit led on
    FOLLOW-SUIT; a point card discarded on the first trick on FIRST-EXCEPTION when the hand
    holds only point cards, else on FIRST-NO-POINTS (a variant that allows it); any other
    discard on FOLLOW-VOID; the second of two cards on the first trick, of its first card's suit
    but not of the suit led, on FIRST-TWO-CARDS.

    >>> from hearts_ref.cardset import CardSet
    >>> later_lead = Context(True, None, False, False)
    >>> allowing_rule(CardSet.parse("3C 4H").mask, later_lead, Rules(), CardSet.parse("3C").mask)
    'LEAD-WINNER'
    >>> allowing_rule(CardSet.parse("QS 4H").mask, Context(False, 0, True, False), Rules(), CardSet.parse("4H").mask)
    'FIRST-EXCEPTION'
    """
    if not legal_plays(hand, ctx, rules) & card:
        return None
    if ctx.leading:
        if ctx.first_trick:
            return "LEAD-OPEN"
        return "LEAD-HEARTS" if card & POINT_CARDS else "LEAD-WINNER"
    if follow_suit(hand, ctx.led_suit):
        return "FOLLOW-SUIT"
    if ctx.pair_suit is not None and card & SUIT_MASKS[ctx.pair_suit]:
        return "FIRST-TWO-CARDS"
    if ctx.first_trick and card & POINT_CARDS:
        only_points = rules.first_trick_points == "exception" and not hand & ~POINT_CARDS
        return "FIRST-EXCEPTION" if only_points else "FIRST-NO-POINTS"
    return "FOLLOW-VOID"


def breaks_hearts(played: Any, ctx: Context, rules: Rules, ops: Any = BITS) -> Any:
    """Return whether playing ``played`` (a one-card set) in ``ctx`` breaks hearts.

    Rules: BREAK-DISCARD (which heart breaks them, per ``hearts_broken_by``) and
    BREAK-QUEEN (the Q♠ only with ``qs_breaks_hearts``). A heart led under the
    LEAD-HEARTS only-hearts exception is no discard and does not break them by default.

    >>> from hearts_ref.cardset import CardSet
    >>> four_of_hearts = CardSet.parse("4H").mask
    >>> breaks_hearts(four_of_hearts, Context(False, 1, False, False), Rules())     # discarded on ♦
    True
    >>> breaks_hearts(four_of_hearts, Context(True, None, False, False), Rules())   # led
    False
    """
    breaking = QUEEN if rules.qs_breaks_hearts else 0
    if rules.hearts_broken_by == "any-heart":
        breaking |= HEARTS
    elif rules.hearts_broken_by == "discard":
        if not ctx.leading and ctx.led_suit != _HEARTS_SUIT:
            breaking |= HEARTS
    elif ctx.leading:   # "lead": seed 003's literal text, a heart led breaks them
        breaking |= HEARTS
    return ops.non_empty(played & breaking)


def opening_leader(hands: Sequence[Any], rules: Rules, ops: Any = BITS) -> Any:
    """LEAD-OPEN: return the seat whose hand holds the lowest club in play.

    >>> from hearts_ref.cardset import CardSet
    >>> opening_leader([CardSet.parse(h).mask for h in ("3C", "4C", "2C", "5C")], Rules())
    2
    """
    opening = 1 << rules.lowest_club.index
    leader: Any = 0
    for seat in range(1, len(hands)):
        leader = ops.when(ops.is_empty(hands[seat] & opening), leader, seat)
    return leader
