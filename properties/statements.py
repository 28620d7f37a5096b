"""The rules as formal statements: one predicate per rule ID of ``spec/rules/``, written from its text.

Each function below states one rule. It is written from the rule's normative prose (the
sentence it formalises is quoted in its docstring, the numbers come from that text), in
the words of :mod:`properties.logic`, and never calls the engine's rule functions: the
proofs (:mod:`properties.refinement`, :mod:`properties.transitions`) show that the engine
computes exactly what these say. A statement is a predicate over one play, one pass, one
trick, one round's score or the end of a game; it evaluates on concrete card sets (a
``bool``) and on symbolic ones (a z3 term).

The API, for any tool that wants the rules as predicates::

    STATEMENTS: dict[str, Statement]      # rule ID -> its statement, in the order of spec/rules/
    Statement.rule_id, .kind, .predicate, .words, .source, .signature

``kind`` says what the predicate is about and how it is called (:data:`KINDS`)::

    "setup"      predicate(rules, ...)                      the deck, the deal, the dealer
    "pass"       predicate(rules, direction, hands, passes, after, seat=...)   one pass, or the exchange
    "play"       predicate(rules, hand, ctx, card)  -> Bit  the rule allows this play
    "permission" predicate(rules, hand, ctx, card)  -> Bit  the rule's permission applies to this play
    "breaking"   predicate(rules, ctx, card) -> Bit         the rule makes this play break hearts
    "step"       predicate(rules, before, card, after) -> Bit   a play changes the round as the rule says
    "score"      predicate(rules, pile or piles, ...)       the rule's part of a round score (round_scores adds them)
    "game"       predicate(rules, ...)                      totals, the end of the game, the winners

``hand``, ``card`` and the piles are card sets (``card`` one card); ``ctx`` is a
:class:`~hearts_ref.legality.Context`; ``before`` and ``after`` are :class:`Position`.

>>> from hearts_ref import Context, Rules
>>> follow = STATEMENTS["FOLLOW-SUIT"]
>>> follow.kind, follow.predicate(Rules(), card("2D") | card("QS"), Context(False, 1, False, False), card("QS"))
('play', False)
>>> allowed_plays(Rules(), card("3H") | card("9H") | card("QS"), Context(True, None, False, False)) == card("QS")
True
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

from hearts_ref.legality import Context
from hearts_ref.variants import Rules
from properties.logic import (
    ALL_CARDS, HEARTS, JACK_OF_DIAMONDS, POINT_CARDS, QUEEN_OF_SPADES, RANKS, SECOND_DECK_MARK, SUIT_LETTERS, all_of,
    any_of, at_least, bit, card, choose_number, equal, greater, holds_none, holds_only, holds_some, identical, iff,
    implies, in_decks, is_one_of, negation, number_of, points_of, rank_of, same_cards, suit, total, union,
)

__all__ = ["Statement", "STATEMENTS", "KINDS", "Position", "PLAY_RULES", "allowed_plays", "allows",
           "lowest_club", "hand_size", "extra_cards", "largest_hand", "decks_of", "cards_of", "round_points",
           "moon_points", "recipient", "direction_of_round", "moon_shooters", "raw_points",
           "round_scores", "trick_winners", "wins", "hearts_after", "same_set", "holds_only_set", "breaks_hearts_by", "game_ends", "statement_of"]

KINDS = ("setup", "pass", "play", "permission", "breaking", "step", "score", "game")
SUITS = {letter: suit(letter) for letter in SUIT_LETTERS}
SUIT_OF_CONTEXT = ("C", "D", "S", "H")   # Context.led_suit counts the suits as the engine's Suit does


def decks_of(rules: Rules) -> int:
    """DECK-CARDS: how many decks are played, 1 or 2 («Det krävs 2 kortlekar om man är 5 spelare eller mer»)."""
    return rules.decks


class _Cards(NamedTuple):
    """The cards the statements name, of every deck played: each card once per deck (DECK-CARDS, two decks)."""

    suits: dict[str, int]
    hearts: int
    queen: int
    jack: int
    points: int
    every: int


_CARDS = {decks: _Cards({letter: in_decks(mask, decks) for letter, mask in SUITS.items()}, in_decks(HEARTS, decks),
                        in_decks(QUEEN_OF_SPADES, decks), in_decks(JACK_OF_DIAMONDS, decks),
                        in_decks(POINT_CARDS, decks), in_decks(ALL_CARDS, decks)) for decks in (1, 2)}


def cards_of(rules: Rules) -> _Cards:
    """The suits, hearts, Q♠, J♦, point cards and all the cards of the decks ``rules`` play."""
    return _CARDS[decks_of(rules)]


def _led(ctx: Context, rules: Rules) -> int:
    return cards_of(rules).suits[SUIT_OF_CONTEXT[ctx.led_suit]]


# ---------------------------------------------------------------------------------------------
# Players, deck and deal
# ---------------------------------------------------------------------------------------------

def players_count(players: Any) -> bool:
    """PLAYERS-COUNT: «The default is players = 4. players MAY be 3, 5 or 6; any other value MUST be rejected.»"""
    return type(players) is int and players in (3, 4, 5, 6)


def deck_cards(deck: Sequence[str], decks: int = 1) -> bool:
    """DECK-CARDS: «one standard deck of 52 cards and no jokers: four suits … each with the thirteen ranks»; with
    ``decks = 2`` every card twice, the second deck's copy written with ``#2``.

    ``deck`` is every card the game knows, written as the spec writes cards.
    """
    marks = ("", SECOND_DECK_MARK)[:decks]
    return sorted(deck) == sorted(rank + letter + mark for letter in SUIT_LETTERS for rank in RANKS for mark in marks)


def outranks(a: int, b: int) -> bool:
    """DECK-CARDS: «rank only compares cards of the same suit»; A high, 2 low. ``a``, ``b``: card indices."""
    suits = _CARDS[2].suits   # a card of either deck
    same_suit = any(1 << a & suits[s] and 1 << b & suits[s] for s in SUIT_LETTERS)
    return same_suit and rank_of(a) < rank_of(b)


# DECK-REMOVED: «with 4 players, none …; with 3 players, 2C …; with 5 players, 2C and 2D …;
# with 6 players, 2C, 2D, 3C and 3D».
REMOVED = {4: (), 3: ("2C",), 5: ("2C", "2D"), 6: ("2C", "2D", "3C", "3D")}


def deck_removed(players: int, in_play: int, even_out: str = "remove", decks: int = 1) -> bool:
    """DECK-REMOVED: the cards in play are the deck less the cards removed for this number of players;
    «"uneven": no card is removed»: one deck with 3 or 4 players, both decks with 5 or 6 (``decks = 2``, seed 003:
    «Det krävs 2 kortlekar om man är 5 spelare eller mer»); two decks only so."""
    if even_out == "uneven":
        return players in ((3, 4) if decks == 1 else (5, 6)) and in_play == in_decks(ALL_CARDS, decks)
    return decks == 1 and in_play == ALL_CARDS & ~sum(card(c) for c in REMOVED[players])


def hand_size(players: int, decks: int = 1) -> int:
    """DEAL-HANDS: «13 with 4 players, 17 with 3, 10 with 5, 8 with 6»; with two decks «five players 21/21/21/21/20,
    six 18/18/17/17/17/17»: 20 with 5, 17 with 6 (the hands without an extra card)."""
    if decks == 2:
        return {5: 20, 6: 17}[players]
    return {4: 13, 3: 17, 5: 10, 6: 8}[players]


def extra_cards(rules: Rules) -> int:
    """DEAL-HANDS: with ``even_out = "uneven"`` and 3 players «the player to the dealer's left … receives 18 cards and
    the other two 17»: one player has an extra card; with two decks four (21/21/21/21/20) or two (18/18/17/17/17/17);
    otherwise none (DECK-REMOVED evens the hands out)."""
    if rules.even_out != "uneven":
        return 0
    return {1: {3: 1}, 2: {5: 4, 6: 2}}[decks_of(rules)].get(rules.players, 0)


def largest_hand(rules: Rules) -> int:
    """DEAL-HANDS: the most cards a hand is dealt: the hand size, one more for a player with an extra card."""
    return hand_size(rules.players, decks_of(rules)) + (1 if extra_cards(rules) else 0)


def deal_hands(players: int, dealer: int, shuffled: Sequence[int], hands: Sequence[int], extra: int = 0,
               decks: int = 1) -> bool:
    """DEAL-HANDS: «the card at position i of the shuffled deck (counting from 0) goes to seat (dealer + 1 + i) mod n».

    ``shuffled`` is the deck in the order it was shuffled (card indices), ``hands`` the masks dealt; with ``extra``
    (:func:`extra_cards`) the ``extra`` first seats dealt to, from the dealer's left, receive one card more: «the
    player to the dealer's left, seat (dealer + 1) mod 3, receives 18 cards»; 21/21/21/21/20; 18/18/17/17/17/17.
    """
    expected = [0] * players
    for i, index in enumerate(shuffled):
        expected[(dealer + 1 + i) % players] |= 1 << index
    return list(hands) == expected and all(
        h.bit_count() == hand_size(players, decks) + ((seat - dealer - 1) % players < extra)
        for seat, h in enumerate(hands))


def deal_dealer(players: int, round_number: int, dealer: int) -> bool:
    """DEAL-DEALER: «round r (counting from 1) is dealt by seat (r − 1) mod n»."""
    return dealer == (round_number - 1) % players


# ---------------------------------------------------------------------------------------------
# Passing
# ---------------------------------------------------------------------------------------------

PASS_CARDS = 3   # PASS-COUNT: «exactly three distinct cards»


def pass_count(rules: Rules, hand: Any, passed: Any) -> Any:
    """PASS-COUNT: «each player MUST pass exactly three distinct cards from their own hand, as dealt»."""
    return all_of([equal(number_of(passed, in_decks(ALL_CARDS, 2)), PASS_CARDS), holds_only_set(passed, hand)])


def holds_only_set(cards: Any, within: Any) -> Any:
    """Whether every card of ``cards`` is in the set ``within`` (both may be symbolic)."""
    return holds_only(cards, within)


# PASS-CYCLE: «left, right, across, none, repeating from round 5» / «left, right, none, repeating from round 4».
CYCLES = {"left-right-across-none": ("left", "right", "across", "none"), "left-right-none": ("left", "right", "none")}


def direction_of_round(rules: Rules, round_number: int) -> str:
    """PASS-CYCLE: «element (r − 1) mod k of the pass cycle»; «pass_cards = false: no cards are passed in any round»."""
    if not rules.pass_cards:
        return "none"
    cycle = CYCLES[rules.pass_cycle]
    return cycle[(round_number - 1) % len(cycle)]


def recipient(rules: Rules, direction: str, seat: int) -> int:
    """PASS-CYCLE: «left, (s + 1) mod n …; right, (s − 1) mod n; across, (s + n/2) mod n; none, no cards change hands»."""
    n = rules.players
    return {"left": (seat + 1) % n, "right": (seat - 1) % n, "across": (seat + n // 2) % n, "none": seat}[direction]


def pass_cycle(rules: Rules, round_number: int, direction: str) -> bool:
    """PASS-CYCLE: round ``round_number`` passes in ``direction``; «across exists only with an even number of players»."""
    return direction == direction_of_round(rules, round_number) and not (direction == "across" and rules.players % 2)


def pass_simultaneous(rules: Rules, direction: str, hands: Sequence[Any], passes: Sequence[Any],
                      after: Sequence[Any]) -> Any:
    """PASS-SIMULTANEOUS: «each player's three cards leave their hand and are added to the hand of the recipient».

    Card by card: a seat holds a card after the pass exactly when it held it and did not pass
    it, or the seat that passes to it (PASS-CYCLE) passed it.
    """
    n = rules.players
    givers = {recipient(rules, direction, s): s for s in range(n)}
    return all_of(same_cards(after[t], union([hands[t] & ~passes[t], passes[givers[t]]])) for t in range(n))


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
    predicate = from_hand if rule_id == "TRICK-ORDER" else STATEMENTS[rule_id].predicate
    return predicate(rules, hand, ctx, played)


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
    for mask in ([led] if led is not None else list(_CARDS[decks].suits.values())):
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


# ---------------------------------------------------------------------------------------------
# Scoring
# ---------------------------------------------------------------------------------------------

HEART_POINTS, QUEEN_POINTS = 1, 13     # SCORE-POINTS: «1 point for each heart …; 13 points for the QS»
JACK_POINTS = -10                      # SCORE-JACK: «MUST add −10 to their round score»
NO_TRICK_POINTS = -5                   # SCORE-NO-TRICKS: «MUST add −5 to their round score»
MOON_POINTS = 26                       # SCORE-MOON: «every other player scores 26» / «the shooter scores −26»
DECK_POINTS = 26                       # SCORE-POINTS: «The card points of a round always sum to 26» (per deck)


def round_points(rules: Rules) -> int:
    """SCORE-POINTS: the card points of a round, 26 per deck played (52 with two decks: 26 hearts and two Q♠)."""
    return DECK_POINTS * decks_of(rules)


def moon_points(rules: Rules) -> int:
    """SCORE-MOON: what a moon is worth: the round's points, 26 per deck («every other player scores 26»; with two
    decks 52, DECKS.md: the source only speaks of one deck)."""
    return MOON_POINTS * decks_of(rules)


def score_points(rules: Rules, pile: Any) -> Any:
    """SCORE-POINTS: «1 point for each heart, from 2H to AH alike; 13 points for the QS; 0 for every other card» — with
    two decks each copy alike: every heart 1, each Q♠ 13.

    (The rule adds: «The card points of a round always sum to 26», per deck: a consequence the proofs check.)
    """
    named = cards_of(rules)
    worth = {i: HEART_POINTS for i in range(2 * 52) if named.hearts >> i & 1}
    worth.update({i: QUEEN_POINTS for i in range(2 * 52) if named.queen >> i & 1})
    return points_of(pile, worth)


def score_jack(rules: Rules, pile: Any) -> Any:
    """SCORE-JACK: «With jd_bonus = true, the player who won the trick containing the JD MUST add −10 to their round
    score. This applies in every round, also in a round in which a player shot the moon» — with two decks, for each J♦.
    """
    if not rules.jd_bonus:
        return 0
    if decks_of(rules) == 1:
        return choose_number(bit(pile, JACK_OF_DIAMONDS.bit_length() - 1), JACK_POINTS, 0)
    return points_of(pile, {i: JACK_POINTS for i in range(2 * 52) if cards_of(rules).jack >> i & 1})


def score_no_tricks(rules: Rules, pile: Any, moon_shot: Any) -> Any:
    """SCORE-NO-TRICKS: «each player who won no trick in the round MUST add −5 to their round score, except in a round
    in which SCORE-MOON changed the scores». A trick won puts its cards in the pile, so no trick is an empty pile.
    """
    if not rules.avoid_all_tricks_bonus:
        return 0
    return choose_number(all_of([holds_none(pile, cards_of(rules).every), negation(moon_shot)]), NO_TRICK_POINTS, 0)


def score_moon(rules: Rules, piles: Sequence[Any], seat: int) -> Any:
    """SCORE-MOON: the score that replaces the card points of ``seat`` (None when nobody shot the moon).

    «A player who won, in one round, all thirteen hearts and the QS … has shot the moon. If any other player took
    even one point card, nobody has shot the moon»; «"add": the shooter scores 0 and every other player scores 26»;
    «"subtract": the shooter scores −26 and every other player scores 0»; «"off": no replacement». With two decks
    the moon is every point card in play (all 26 hearts and both Q♠), worth 52 (:func:`moon_points`).
    """
    if rules.moon == "off":
        return None
    shooters = moon_shooters(rules, piles)
    mine = 0 if rules.moon == "add" else -moon_points(rules)
    others = moon_points(rules) if rules.moon == "add" else 0
    return choose_number(shooters[seat], mine, others)


def moon_shooters(rules: Rules, piles: Sequence[Any]) -> list[Any]:
    """SCORE-MOON: for each seat, whether it took every point card (nobody, with ``moon = "off"``)."""
    if rules.moon == "off":
        return [False for _ in piles]
    return [holds_all(pile, cards_of(rules).points) for pile in piles]


def holds_all(pile: Any, wanted: int) -> Any:
    """Whether the pile holds every card of the mask ``wanted``."""
    return holds_only(wanted, pile)


def round_scores(rules: Rules, piles: Sequence[Any]) -> list[Any]:
    """Each seat's round score from the cards it took, as the chapter states it: «the sum of their card points
    (SCORE-POINTS), changed by SCORE-MOON if someone shot the moon, plus the bonuses of SCORE-JACK and SCORE-NO-TRICKS
    where those variants are on»."""
    moon_shot = any_of(moon_shooters(rules, piles))
    scores = []
    for seat, pile in enumerate(piles):
        points = score_points(rules, pile)
        moon = score_moon(rules, piles, seat)
        if moon is not None:
            points = choose_number(moon_shot, moon, points)
        scores.append(total([points, score_jack(rules, pile), score_no_tricks(rules, pile, moon_shot)]))
    return scores


def raw_points(rules: Rules, pile: Any) -> Any:
    """A seat's points before the moon and the no-trick bonus: its card points and, with jd_bonus, the J♦'s −10."""
    return total([score_points(rules, pile), score_jack(rules, pile)])


# ---------------------------------------------------------------------------------------------
# Totals and the end of the game
# ---------------------------------------------------------------------------------------------

def score_total(rules: Rules, totals: Sequence[Any], scores: Sequence[Any], after: Sequence[Any]) -> Any:
    """SCORE-TOTAL: «Every player's total MUST be 0 at the start of the game. After each round, each player's round
    score MUST be added to their total.» ``totals`` before the round, ``after`` once it is scored."""
    return all_of(equal(a, total([t, s])) for t, s, a in zip(totals, scores, after))


def end_threshold(rules: Rules, totals: Sequence[Any], rounds: int) -> Any:
    """END-THRESHOLD: «The end condition holds when at least one player's total reaches end_threshold, compared by
    end_comparison …, or, when max_rounds is greater than 0, when max_rounds rounds have been played.»"""
    compare = at_least if rules.end_comparison == ">=" else greater
    reached = any_of(compare(t, rules.end_threshold) for t in totals)
    return True if rules.max_rounds and rounds >= rules.max_rounds else reached


def lowest_alone(totals: Sequence[Any]) -> Any:
    """Whether one player alone has the lowest total."""
    return any_of(all_of(greater(other, t) for j, other in enumerate(totals) if j != i) for i, t in enumerate(totals))


def win_tie(rules: Rules, totals: Sequence[Any], rounds: int) -> Any:
    """WIN-TIE: «With ties = "play-on", if the end condition … holds after a round but two or more players share the
    lowest total, the game MUST NOT end»; «The limit max_rounds is absolute». Whether the game ends."""
    return game_ends(rules, totals, rounds)


def game_ends(rules: Rules, totals: Sequence[Any], rounds: int) -> Any:
    """Whether the game ends after ``rounds`` rounds with these ``totals``: END-THRESHOLD, then WIN-TIE."""
    ends = end_threshold(rules, totals, rounds)
    if rules.ties == "shared" or (rules.max_rounds and rounds >= rules.max_rounds):
        return ends
    return all_of([ends, lowest_alone(totals)])


def win_lowest(rules: Rules, totals: Sequence[Any], seat: int) -> Any:
    """WIN-LOWEST: «the player with the lowest total MUST be declared the winner»; WIN-TIE: all who share it."""
    return all_of(at_least(other, totals[seat]) for other in totals)


@dataclass(frozen=True)
class Statement:
    """A rule's formal statement: its ID, what kind of thing it constrains, the predicate, and the predicate in words."""

    rule_id: str
    kind: str
    predicate: Callable[..., Any]
    words: str

    @property
    def source(self) -> str:
        """The predicate's source text, as written in this module."""
        return inspect.getsource(self.predicate)

    @property
    def signature(self) -> str:
        return f"{self.predicate.__name__}{inspect.signature(self.predicate)}"


STATEMENTS: dict[str, Statement] = {s.rule_id: s for s in (
    Statement("PLAYERS-COUNT", "setup", players_count, "the number of players is 3, 4, 5 or 6"),
    Statement("DECK-CARDS", "setup", deck_cards, "the deck is the 52 cards of four suits of thirteen ranks, A high"),
    Statement("DECK-REMOVED", "setup", deck_removed,
              "the cards in play are the deck less 2C (3 players), 2C 2D (5) or 2C 2D 3C 3D (6)"),
    Statement("DEAL-HANDS", "setup", deal_hands,
              "the i-th card of the shuffled deck goes to seat (dealer + 1 + i) mod n; hands of 13, 17, 10 or 8"),
    Statement("DEAL-DEALER", "setup", deal_dealer, "round r is dealt by seat (r − 1) mod n"),
    Statement("PASS-COUNT", "pass", pass_count, "a pass is exactly three cards of the passer's own hand as dealt"),
    Statement("PASS-SIMULTANEOUS", "pass", pass_simultaneous,
              "after the pass a seat holds a card exactly when it kept it or the seat passing to it passed it"),
    Statement("PASS-CYCLE", "pass", pass_cycle,
              "round r passes in direction (r − 1) mod k of the cycle: left s+1, right s−1, across s+n/2, none"),
    Statement("LEAD-OPEN", "play", lead_open, "the first lead is the lowest club in play (any club, with "
              "can_lead_any_club)"),
    Statement("LEAD-WINNER", "step", lead_winner, "the winner of a trick leads the next one; after the last, nobody"),
    Statement("LEAD-HEARTS", "play", lead_hearts, "while hearts are unbroken a heart is led only from a hand of only "
              "hearts (or hearts and the Q♠, with can_lead_hearts_instead_of_qs)"),
    Statement("FOLLOW-SUIT", "play", follow_suit, "a player holding the led suit plays the led suit"),
    Statement("FOLLOW-VOID", "play", follow_void, "a void player may discard anything, but no heart while unbroken "
              "under hearts_restriction = discard"),
    Statement("FIRST-NO-POINTS", "play", first_no_points,
              "on the first trick a void player plays no point card, unless FIRST-EXCEPTION applies"),
    Statement("FIRST-EXCEPTION", "permission", first_exception,
              "on the first trick a void player with only point cards may play any of them"),
    Statement("FIRST-TWO-CARDS", "play", first_two_cards, "on the first trick the second of a player's two cards is "
              "of its first card's suit when such a card is allowed"),
    Statement("BREAK-DISCARD", "breaking", break_discard,
              "hearts break when a heart is discarded (or any heart is played, or a heart is led)"),
    Statement("BREAK-QUEEN", "breaking", break_queen, "the Q♠ does not break hearts (it does, with qs_breaks_hearts)"),
    Statement("TRICK-ORDER", "step", trick_order,
              "a card played leaves the hand for the trick; then seat (s + 1) mod n plays, until the trick is full"),
    Statement("TRICK-WINNER", "step", trick_winner,
              "the highest card of the led suit wins the trick; its player takes every card of it"),
    Statement("SCORE-POINTS", "score", score_points, "a heart scores 1 and the Q♠ 13 to whoever took it"),
    Statement("SCORE-JACK", "score", score_jack, "with jd_bonus, whoever took the J♦ adds −10, moon or not"),
    Statement("SCORE-NO-TRICKS", "score", score_no_tricks,
              "with avoid_all_tricks_bonus, a player who won no trick adds −5, except after a moon"),
    Statement("SCORE-MOON", "score", score_moon, "whoever took all 13 hearts and the Q♠ shot the moon: 0 and 26 to "
              "the others (add), or −26 and 0 (subtract)"),
    Statement("SCORE-TOTAL", "game", score_total, "totals start at 0 and each round's scores are added to them"),
    Statement("END-THRESHOLD", "game", end_threshold, "the end condition: a total reaches the threshold (≥ or >), "
              "or max_rounds rounds are played"),
    Statement("WIN-LOWEST", "game", win_lowest, "the lowest total wins"),
    Statement("WIN-TIE", "game", win_tie, "a shared lowest total shares the win, or under play-on the game goes on"),
)}


def statement_of(rule_id: str) -> Statement:
    """The statement of ``rule_id``; KeyError naming the known IDs if there is none."""
    if rule_id not in STATEMENTS:
        raise KeyError(f"no statement for {rule_id!r}; known: {', '.join(STATEMENTS)}")
    return STATEMENTS[rule_id]
