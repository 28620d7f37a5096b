"""How hearts-ref's cards, pass directions and rules map to OpenSpiel's ``hearts`` game (:mod:`.openspiel`).

OpenSpiel's action ``a`` is the card of rank ``a // 4`` (two to ace) in suit ``a % 4``, its suits ordered
clubs, diamonds, hearts, spades (:func:`check_card_mapping` compares the table with OpenSpiel's own names);
its first chance action is the pass direction; its game parameters are the variant parameters it knows
(:func:`openspiel_parameters`), and :data:`UNSUPPORTED` what it cannot play.

>>> from hearts_ref.cards import CARDS
>>> str(CARDS[CARD_OF_ACTION[0]]), str(CARDS[CARD_OF_ACTION[51]]), [str(CARDS[CARD_OF_ACTION[a]]) for a in actions_of(0b111)]
('2C', 'AS', ['2C', '3C', '4C'])
"""

from __future__ import annotations

from typing import Any

from hearts_ref.cards import CARDS, Suit
from hearts_ref.variants import Rules

__all__ = ["CARD_OF_ACTION", "ACTION_OF_CARD", "BIT_OF_ACTION", "TEXT_OF_ACTION", "DIRECTION_ACTIONS",
           "OPENSPIEL_PARAMETERS", "UNSUPPORTED", "openspiel_parameters", "check_card_mapping", "load_game", "actions_of",
           "mask_of"]

# OpenSpiel's suit order within an action (a % 4) is clubs, diamonds, hearts, spades.
_OPENSPIEL_SUITS = (Suit.CLUBS, Suit.DIAMONDS, Suit.HEARTS, Suit.SPADES)
CARD_OF_ACTION: tuple[int, ...] = tuple(_OPENSPIEL_SUITS[a % 4] * 13 + a // 4 for a in range(52))
ACTION_OF_CARD: tuple[int, ...] = tuple(CARD_OF_ACTION.index(i) for i in range(52))
BIT_OF_ACTION: tuple[int, ...] = tuple(1 << i for i in CARD_OF_ACTION)   # an action's card, as a mask
TEXT_OF_ACTION: tuple[str, ...] = tuple(str(CARDS[i]) for i in CARD_OF_ACTION)   # an action's card, as text

# PASS-CYCLE: OpenSpiel's pass-direction chance outcomes; the receiver is (seat + action) % 4.
DIRECTION_ACTIONS = {"none": 0, "left": 1, "across": 2, "right": 3}

OPENSPIEL_PARAMETERS = ("pass_cards", "no_pts_on_first_trick", "can_lead_any_club", "jd_bonus",
                        "avoid_all_tricks_bonus", "must_break_hearts", "qs_breaks_hearts",
                        "can_lead_hearts_instead_of_qs")

# What OpenSpiel's hearts cannot play: four players only, one deck; a point card on the first trick is
# either allowed or forbidden-with-exception; any heart played breaks hearts; the moon always
# adds 26 to the others. One round only (multi_round=False).
UNSUPPORTED: dict[str, tuple[Any, ...]] = {
    "players": (3, 5, 6),
    "even_out": ("uneven",),   # one card per seat per trick; with 4 players the same game, declared all the same
    "decks": (2,),             # one deck of 52 cards
    "first_trick_points": ("forbidden",),
    "hearts_broken_by": ("discard", "lead"),
    "hearts_restriction": ("discard",),
    "moon": ("subtract", "off"),
}


def openspiel_parameters(rules: Rules) -> dict[str, bool]:
    """Return OpenSpiel's game parameters for ``rules`` (which it must be able to play).

    >>> openspiel_parameters(Rules.preset("openspiel"))["qs_breaks_hearts"]
    True
    """
    return {
        "pass_cards": rules.pass_cards,                                      # PASS-CYCLE
        "no_pts_on_first_trick": rules.first_trick_points == "exception",   # FIRST-NO-POINTS
        "can_lead_any_club": rules.can_lead_any_club,                       # LEAD-OPEN
        "jd_bonus": rules.jd_bonus,                                         # SCORE-JACK
        "avoid_all_tricks_bonus": rules.avoid_all_tricks_bonus,             # SCORE-NO-TRICKS
        "must_break_hearts": rules.must_break_hearts,                       # LEAD-HEARTS
        "qs_breaks_hearts": rules.qs_breaks_hearts,                         # BREAK-QUEEN
        "can_lead_hearts_instead_of_qs": rules.can_lead_hearts_instead_of_qs,
    }


def check_card_mapping(game: Any) -> None:
    """Raise AssertionError unless OpenSpiel names every action as the card the table maps it to."""
    state = game.new_initial_state()
    state.apply_action(0)
    for action in range(52):
        state.apply_action(action)
    for action in range(52):
        named = state.action_to_string(action).replace("T", "10")
        assert named == str(CARDS[CARD_OF_ACTION[action]]), (action, named)


_GAMES: dict[tuple[tuple[str, bool], ...], Any] = {}


def load_game(parameters: dict[str, bool]) -> Any:
    """OpenSpiel's hearts with these parameters, loaded once (its card names checked with the first)."""
    import pyspiel   # imported here: open-spiel is an optional dependency

    key = tuple(sorted(parameters.items()))
    game = _GAMES.get(key)
    if game is None:
        game = pyspiel.load_game("hearts", dict(parameters))
        if not _GAMES:
            check_card_mapping(game)
        _GAMES[key] = game
    return game


def mask_of(actions: Any) -> int:
    """The cards of OpenSpiel's ``actions``, as a mask."""
    mask = 0
    for action in actions:
        mask |= BIT_OF_ACTION[action]
    return mask


def actions_of(mask: int) -> tuple[int, ...]:
    """OpenSpiel's actions for the cards of ``mask``, in the order of the cards' indices (looked up 8 cards at a
    time: a deal asks this of every hand)."""
    return (_BYTE_ACTIONS[0][mask & 255] + _BYTE_ACTIONS[1][mask >> 8 & 255] + _BYTE_ACTIONS[2][mask >> 16 & 255]
            + _BYTE_ACTIONS[3][mask >> 24 & 255] + _BYTE_ACTIONS[4][mask >> 32 & 255]
            + _BYTE_ACTIONS[5][mask >> 40 & 255] + _BYTE_ACTIONS[6][mask >> 48 & 255])


# For the cards 8k to 8k+7 and each set of them (a byte of a mask): their OpenSpiel actions, in index order.
_BYTE_ACTIONS = tuple(tuple(tuple(ACTION_OF_CARD[base + i] for i in range(8) if byte >> i & 1 and base + i < 52)
                            for byte in range(256)) for base in range(0, 56, 8))
