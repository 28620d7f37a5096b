"""The rules of the players, the deck, the deal and the pass as formal statements (:mod:`properties.statements`);
and the cards the statements name, of every deck played."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, NamedTuple

from hearts_ref.legality import Context
from hearts_ref.variants import Rules
from properties.logic import (
    ALL_CARDS, HEARTS, JACK_OF_DIAMONDS, POINT_CARDS, QUEEN_OF_SPADES, RANKS, SECOND_DECK_MARK, SUIT_LETTERS,
    all_of, card, equal, holds_only, in_decks, number_of, rank_of, same_cards, suit, union,
)

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


def cards_of_decks(decks: int) -> _Cards:
    """The cards the statements name, of ``decks`` decks (1 or 2)."""
    return _CARDS[decks]


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
