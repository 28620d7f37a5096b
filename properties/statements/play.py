"""The rules of playing a card, breaking hearts and taking tricks as formal statements (:mod:`properties.statements`)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, NamedTuple

from hearts_ref.legality import Context
from hearts_ref.variants import Rules
from properties.logic import (
    all_of, any_of, bit, card, choose_number, equal, holds_none, holds_only, holds_some, identical, iff, implies,
    is_one_of, negation, rank_of, same_cards, union,
)
from properties.statements.deal import SUIT_OF_CONTEXT, _led, cards_of, cards_of_decks, decks_of, holds_only_set


# ---------------------------------------------------------------------------------------------
# Playing a card
# ---------------------------------------------------------------------------------------------

def lowest_club(players: int, even_out: str = "remove") -> int:
    """LEAD-OPEN: «2C with 4 players, 3C with 3 or 5 players, and 4C with 6 players»; «with even_out = "uneven"
    nothing is removed and it is 2C» — with two decks the first deck's 2C (its copy 2C#2 leads nothing)."""
    if even_out == "uneven":
        return card("2C")
    return card({4: "2C", 3: "3C", 5: "3C", 6: "4C"}[players])


def lead_open(rules: Rules, hand: Any, ctx: Context, played: Any) -> Any:
    """LEAD-OPEN: the first trick's leader «MUST lead that card [the lowest club]; no other card is a legal lead».

    «can_lead_any_club = true: … MAY lead any club they hold.»
    """
    if not (ctx.leading and ctx.first_trick):
        return True
    return is_one_of(played, cards_of(rules).suits["C"] if rules.can_lead_any_club
                     else lowest_club(rules.players, rules.even_out))


def lead_winner(rules: Rules, before: Position, played: Any, after: Position, won: Any = None) -> Any:
    """LEAD-WINNER: «The player who won a trick (TRICK-WINNER) MUST lead the next trick»; «After the last trick of the
    round nobody leads».

    («That lead MAY be any card in their hand, subject only to LEAD-HEARTS»: no play statement of its own.)
    ``won(position)``, when given, says whether the card at ``position`` won the trick (default: :func:`wins`).
    """
    if len(before.trick) + 1 < rules.players:
        return True
    trick = before.trick + (played,)
    cards_left = any_of(holds_some(hand, cards_of(rules).every) for hand in after.hands)
    led = _led(before.context, rules) if not before.context.leading else None
    won = won or (lambda position: wins(trick, position, led, decks_of(rules)))
    return all_of(implies(won(position), all_of([
        equal(after.leader, (before.leader + position) % rules.players),
        equal(after.to_play, choose_number(cards_left, (before.leader + position) % rules.players, -1))]))
        for position in range(rules.players))


def lead_hearts(rules: Rules, hand: Any, ctx: Context, played: Any) -> Any:
    """LEAD-HEARTS: «While hearts are not broken, a leader MUST NOT lead a heart, unless every card in their hand is
    a heart».

    «must_break_hearts = false: this rule does not apply»; «hearts_restriction = "discard": this rule does not
    apply»; «can_lead_hearts_instead_of_qs = true: a leader whose hand holds only hearts and the QS MAY lead any
    card of their hand». (The first trick is led with a club: LEAD-OPEN.)
    """
    if not ctx.leading or ctx.first_trick or ctx.hearts_broken:
        return True
    if not rules.must_break_hearts or rules.hearts_restriction == "discard":
        return True
    named = cards_of(rules)
    exception = holds_only(hand, named.hearts | named.queen) if rules.can_lead_hearts_instead_of_qs \
        else holds_only(hand, named.hearts)
    return implies(is_one_of(played, named.hearts), exception)


def follow_suit(rules: Rules, hand: Any, ctx: Context, played: Any) -> Any:
    """FOLLOW-SUIT: «A player who holds at least one card of the led suit MUST play a card of that suit.»"""
    if ctx.leading:
        return True
    return implies(holds_some(hand, _led(ctx, rules)), is_one_of(played, _led(ctx, rules)))


def follow_void(rules: Rules, hand: Any, ctx: Context, played: Any) -> Any:
    """FOLLOW-VOID: a void player «MAY play any card»; «with hearts_restriction = "discard" and must_break_hearts =
    true, while hearts are not broken the player MUST NOT discard a heart. This restriction has no exception».
    """
    if ctx.leading or ctx.hearts_broken or not rules.must_break_hearts or rules.hearts_restriction != "discard":
        return True
    return implies(holds_none(hand, _led(ctx, rules)), negation(is_one_of(played, cards_of(rules).hearts)))


def first_no_points(rules: Rules, hand: Any, ctx: Context, played: Any) -> Any:
    """FIRST-NO-POINTS: «On the first trick of a round, a player who cannot follow suit MUST NOT play a point card
    (any heart, or the QS), except as FIRST-EXCEPTION allows.» «"allowed": this rule does not apply.»
    """
    if ctx.leading or not ctx.first_trick or rules.first_trick_points == "allowed":
        return True
    return implies(all_of([holds_none(hand, _led(ctx, rules)), is_one_of(played, cards_of(rules).points)]),
                   first_exception(rules, hand, ctx, played))


def first_exception(rules: Rules, hand: Any, ctx: Context, played: Any) -> Any:
    """FIRST-EXCEPTION: «With first_trick_points = "exception": on the first trick, a player who cannot follow suit
    and whose hand holds only point cards … MAY play any card of their hand.» (A permission: it lifts FIRST-NO-POINTS.)
    """
    if ctx.leading or not ctx.first_trick or rules.first_trick_points != "exception":
        return False
    return all_of([holds_none(hand, _led(ctx, rules)), holds_only(hand, cards_of(rules).points)])


def first_two_cards(rules: Rules, hand: Any, ctx: Context, played: Any) -> Any:
    """FIRST-TWO-CARDS: «the second card MUST be of the same suit as the first whenever the player holds a card of that
    suit that these rules allow. If they allow none, the second card MAY be any card they allow.»

    ``ctx.pair_suit`` is the suit of the player's first card, on its second; «these rules» are the other play rules.
    """
    if ctx.pair_suit is None:
        return True
    pair = cards_of(rules).suits[SUIT_OF_CONTEXT[ctx.pair_suit]]
    key = (rules, id(hand), ctx)   # what the hand may play of the suit does not depend on the card played
    if key not in _PAIRED:
        if len(_PAIRED) > 4096:
            _PAIRED.clear()
        others = [rule for rule in PLAY_RULES if rule != "FIRST-TWO-CARDS"]
        _PAIRED[key] = (hand, any_of(all_of([bit(hand, index)] + [allows(rule, rules, hand, ctx, 1 << index)
                                                                  for rule in others])
                                     for index in range(2 * 52) if pair >> index & 1))
    return implies(_PAIRED[key][1], is_one_of(played, pair))


_PAIRED: dict[tuple[Any, ...], tuple[Any, Any]] = {}   # (rules, hand's id, ctx) -> (the hand, kept alive; the answer)


def trick_order(rules: Rules, before: Position, played: Any, after: Position) -> Any:
    """TRICK-ORDER: «A player whose turn it is MUST play exactly one card from their hand»; «A card played leaves the
    hand for the rest of the round»; «the other players MUST play in turn clockwise, seat (s + 1) mod n after seat s,
    until every player has played exactly one card».

    The play statement (the card is one of the hand) is :func:`from_hand`; this is the step: the card
    leaves the hand and joins the trick, whose led suit is its first card's (FOLLOW-SUIT: «The led suit is
    the suit of the first card of the trick»), and the next seat clockwise plays until the trick is full.
    """
    seat = before.to_play
    left_hand = same_cards(after.hands[seat], before.hands[seat] & ~played)
    others_keep = all_of(same_set(after.hands[s], before.hands[s]) for s in range(rules.players) if s != seat)
    if len(before.trick) + 1 == rules.players:   # the trick is full: the next one is led (LEAD-WINNER)
        return all_of([left_hand, others_keep, equal(len(after.trick), 0), after.context.leading is True,
                       after.context.first_trick is False])
    first = before.trick[0] if before.trick else played
    led = after.context.led_suit
    return all_of([left_hand, others_keep, equal(after.to_play, (seat + 1) % rules.players),
                   equal(len(after.trick), len(before.trick) + 1), same_set(after.trick[-1], played),
                   equal(after.leader, before.leader), after.context.leading is False,
                   after.context.first_trick is before.context.first_trick,
                   led in (0, 1, 2, 3) and is_one_of(first, cards_of(rules).suits[SUIT_OF_CONTEXT[led]])])


def from_hand(rules: Rules, hand: Any, ctx: Context, played: Any) -> Any:
    """TRICK-ORDER, for one play: «A player whose turn it is MUST play exactly one card from their hand»."""
    return holds_only_set(played, hand)


def same_set(a: Any, b: Any) -> Any:
    """Whether two card sets hold the same cards."""
    return same_cards(a, b)


# The play rules, in the order the spec writes them; a play is legal when every one allows it.
PLAY_RULES = ("TRICK-ORDER", "LEAD-OPEN", "LEAD-HEARTS", "FOLLOW-SUIT", "FOLLOW-VOID", "FIRST-NO-POINTS",
              "FIRST-TWO-CARDS")


def allows(rule_id: str, rules: Rules, hand: Any, ctx: Context, played: Any) -> Any:
    """Whether rule ``rule_id`` (a play rule) allows playing ``played`` from ``hand`` in ``ctx``."""
    return PLAY_PREDICATES[rule_id](rules, hand, ctx, played)


# Each play rule's predicate (TRICK-ORDER's: the card is in the hand); the statements of the others are these.
PLAY_PREDICATES: dict[str, Callable[..., Any]] = {
    "TRICK-ORDER": from_hand, "LEAD-OPEN": lead_open, "LEAD-HEARTS": lead_hearts, "FOLLOW-SUIT": follow_suit,
    "FOLLOW-VOID": follow_void, "FIRST-NO-POINTS": first_no_points, "FIRST-TWO-CARDS": first_two_cards,
}


def allowed_plays(rules: Rules, hand: int, ctx: Context) -> int:
    """The cards of a concrete ``hand`` that every play statement allows (the legal set, as the rules state it)."""
    return sum(1 << i for i in range(2 * 52) if hand >> i & 1
               and all(allows(rule, rules, hand, ctx, 1 << i) for rule in PLAY_RULES))


# ---------------------------------------------------------------------------------------------
# Breaking hearts, tricks
# ---------------------------------------------------------------------------------------------

def break_discard(rules: Rules, ctx: Context, played: Any) -> Any:
    """BREAK-DISCARD: whether this play breaks hearts by ``hearts_broken_by``.

    «"discard" (default): … when a heart is discarded: played by a player who cannot follow suit, to a trick whose
    led suit is not hearts»; «"any-heart": … as soon as any heart is played»; «"lead": … as soon as a heart is led».
    """
    heart = is_one_of(played, cards_of(rules).hearts)
    if rules.hearts_broken_by == "any-heart":
        return heart
    if rules.hearts_broken_by == "lead":
        return heart if ctx.leading else False
    return heart if not ctx.leading and SUIT_OF_CONTEXT[ctx.led_suit] != "H" else False


def break_queen(rules: Rules, ctx: Context, played: Any) -> Any:
    """BREAK-QUEEN: «Playing the QS … MUST NOT by itself break hearts»; «qs_breaks_hearts = true: hearts become broken
    as soon as the QS is played in any way».
    """
    return is_one_of(played, cards_of(rules).queen) if rules.qs_breaks_hearts else False


def breaks_hearts_by(rules: Rules, ctx: Context, played: Any) -> Any:
    """Whether a play breaks hearts: BREAK-DISCARD or BREAK-QUEEN («Once broken, hearts stay broken»)."""
    return any_of([break_discard(rules, ctx, played), break_queen(rules, ctx, played)])


def trick_winners(rules: Rules, trick: Sequence[Any], leader: int) -> Any:
    """TRICK-WINNER: the seat that played «the highest-ranked card of the led suit», as a number (or a z3 term).

    ``trick`` are the one-card sets in play order from ``leader``; the led suit is the first card's.
    """
    n = len(trick)
    seat: Any = -1
    for position in range(n):
        seat = choose_number(wins(trick, position, None, decks_of(rules)), (leader + position) % rules.players, seat)
    return seat


def wins(trick: Sequence[Any], position: int, led: int | None = None, decks: int = 1) -> Any:
    """TRICK-WINNER: the card at ``position`` is of the led suit and no card of the led suit in the trick outranks it;
    with two decks, no card identical to it was played before it («Om två lika kort skulle läggas i en och samma runda
    (stick), så är det första kortet som lagts, som har högst värde»: of two identical cards the first played ranks
    higher).

    «A card of any other suit never wins, whatever its rank». The led suit is the first card's; ``led``, when
    given, is the mask of that suit (known to the caller), so only it is considered.
    """
    key = (tuple(id(c) for c in trick), position, led, decks)
    if key in _WINS:
        return _WINS[key][1]
    if len(_WINS) > 4096:
        _WINS.clear()
    played = union(trick)
    earlier = decks == 2 and position > 0
    before = union(trick[:position]) if earlier else 0
    cases = []
    for mask in ([led] if led is not None else list(cards_of_decks(decks).suits.values())):
        ranks = [i for i in range(2 * 52) if mask >> i & 1]
        unbeaten = [implies(bit(trick[position], i),
                            holds_none(played, sum(1 << j for j in ranks if rank_of(j) < rank_of(i))))
                    for i in ranks]
        if earlier:   # two decks: an identical card played earlier outranks it
            unbeaten += [implies(bit(trick[position], i), holds_none(before, identical(i))) for i in ranks]
        cases.append(all_of([holds_some(trick[0], mask), holds_some(trick[position], mask), *unbeaten]))
    _WINS[key] = (tuple(trick), any_of(cases))   # the trick is kept, so its ids stay its own
    return _WINS[key][1]


_WINS: dict[tuple[Any, ...], tuple[tuple[Any, ...], Any]] = {}


def trick_winner(rules: Rules, before: Position, played: Any, after: Position, won: Any = None) -> Any:
    """TRICK-WINNER: «the player who played the highest-ranked card of the led suit MUST win it»; «The winner takes all
    cards of the trick»; the other players' tricks stay as they were. ``won`` as for :func:`lead_winner`.
    """
    n = rules.players
    if len(before.trick) + 1 < n:
        return all_of(same_set(after.taken[s], before.taken[s]) for s in range(n))
    trick = before.trick + (played,)
    cards = union(trick)
    led = _led(before.context, rules) if not before.context.leading else None
    won = won or (lambda position: wins(trick, position, led, decks_of(rules)))
    claims = []
    for position in range(n):
        winner = (before.leader + position) % n
        takes = same_cards(after.taken[winner], union([before.taken[winner], cards]))
        others = all_of(same_set(after.taken[s], before.taken[s]) for s in range(n) if s != winner)
        claims.append(implies(won(position), all_of([takes, others])))
    return all_of(claims)


def hearts_after(rules: Rules, before: Position, played: Any, after: Position) -> Any:
    """BREAK-DISCARD and BREAK-QUEEN, as a step: «Once broken, hearts stay broken»; otherwise they break exactly when
    the play breaks them."""
    return iff(after.hearts_broken, any_of([before.hearts_broken, breaks_hearts_by(rules, before.context, played)]))


class Position(NamedTuple):
    """What the step statements read of a round: hands, piles taken, the trick, who leads and plays, hearts broken.

    ``trick`` holds the cards on the current trick as one-card sets, in play order from ``leader``;
    ``context`` is the play context of the seat to play (:class:`~hearts_ref.legality.Context`).
    """

    hands: tuple[Any, ...]
    taken: tuple[Any, ...]
    trick: tuple[Any, ...]
    leader: Any
    to_play: Any
    context: Context

    @property
    def hearts_broken(self) -> Any:
        return self.context.hearts_broken
