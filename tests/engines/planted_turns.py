"""Planted bugs of whose turn it is, and of engines that deal for themselves, each as an engine author gets it wrong.

The turn bugs need the runner to vary what it does: a play by a seat that is not to move
(an engine whose ``play`` takes a player), and passes chosen in another order than seat
order. The dealing bugs need an engine that deals for itself (``Capabilities(deals=True)``):
:class:`ShufflingReference` is the reference engine that shuffles and deals its own hands,
with no bug; the planted ones deal one seat twelve cards, a card that is removed, or the extra card to the dealer.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from hearts_ref.cards import Card
from hearts_ref.cardset import CardSet
from hearts_ref.deals import deal
from hearts_ref.engine import Capabilities, EngineRejection, Observation, ReferenceEngine
from hearts_ref.legality import legal_plays
from hearts_ref.variants import Rules


class PlaysForAnySeat(ReferenceEngine):
    """TRICK-ORDER: ``play(card, player)`` plays the card from that player's hand, legal for it, and never asks
    whether it is that player's turn."""

    name = "planted-plays-for-any-seat"

    def play(self, card: Card, seat: int | None = None) -> None:
        state = self.game.round if self.game is not None else None
        if seat is None or state is None or state.phase != "play" or seat == state.to_play:
            return super().play(card, seat)
        if not 0 <= seat < state.rules.players:
            raise EngineRejection(f"no player {seat}")
        moved = state._replace(to_play=seat, legal=legal_plays(state.hands[seat], state.context, state.rules))
        self.game = self.game._replace(round=moved)
        super().play(card)


class ToMoveCountsChoices(ReferenceEngine):
    """PASS-SIMULTANEOUS: while passing, the seat to move is taken to be the number of seats that have chosen, as
    if seats always chose in seat order."""

    name = "planted-to-move-counts-choices"

    def observe(self) -> Observation:
        seen = super().observe()
        state = self.game.round if self.game is not None else None
        if state is None or not state.passing:
            return seen
        return Observation(seen.phase, sum(1 for given in state.passes if given), seen.trick, seen.hearts_broken,
                           seen.points_taken, seen.round_scores, seen.totals, seen.game_over, seen.winners)


class PassCheckedAgainstNextSeat(ReferenceEngine):
    """PASS-COUNT: the three cards of a pass are checked against the hand of the seat expected to choose next
    (the lowest that has not chosen), not the hand of the seat that chooses."""

    name = "planted-pass-checked-against-next-seat"

    def pass_cards(self, seat: int, cards: CardSet) -> None:
        state = self.game.round if self.game is not None else None
        if state is not None and state.passing and 0 <= seat < state.rules.players and not state.passes[seat]:
            expected = state.to_move
            if len(cards) != 3 or cards.mask & ~state.hands[expected]:
                raise EngineRejection(f"seat {seat} must pass three of its own cards", "PASS-COUNT")
        super().pass_cards(seat, cards)


class ChoosesAgain(ReferenceEngine):
    """PASS-SIMULTANEOUS: a seat may change its pass until every seat has chosen; its second choice replaces
    the first."""

    name = "planted-chooses-again"

    def pass_cards(self, seat: int, cards: CardSet) -> None:
        state = self.game.round if self.game is not None else None
        if state is not None and state.passing and 0 <= seat < state.rules.players and state.passes[seat]:
            state = state._replace(passes=state.passes[:seat] + (0,) + state.passes[seat + 1:])
            self.game = self.game._replace(round=state)
        super().pass_cards(seat, cards)


# Engines that deal for themselves --------------------------------------------------------------

class ShufflingReference(ReferenceEngine):
    """The reference engine dealing for itself: it shuffles with its own seeded generator (no bug)."""

    name = "hearts-ref-shuffling"

    def __init__(self, seed: int = 0) -> None:
        super().__init__()
        self.rng = random.Random(seed)

    def capabilities(self) -> Capabilities:
        return Capabilities(deals=True, play_seat=True)

    def shuffle(self, rules: Rules) -> tuple[CardSet, ...]:
        """DEAL-HANDS: the hands of the next round, dealt by this engine."""
        return deal(rules, rng=self.rng, dealer=len(self._game().results) % rules.players)

    def start_round(self, hands: Sequence[CardSet] | None, direction: str) -> tuple[CardSet, ...] | None:
        if hands is not None:
            raise EngineRejection("this engine deals for itself: start_round takes no hands")
        dealt = self.shuffle(self._game().rules)
        self.play_deal(dealt, direction)
        return dealt

    def play_deal(self, hands: tuple[CardSet, ...], direction: str) -> None:
        """Start the round with the hands this engine dealt."""
        super().start_round(hands, direction)


class DealsTwelveToOneSeat(ShufflingReference):
    """DEAL-HANDS: the last seat is dealt one card short and the first seat one card too many, a count off by
    one in the dealing loop."""

    name = "planted-deals-twelve-to-one-seat"

    def shuffle(self, rules: Rules) -> tuple[CardSet, ...]:
        hands = list(super().shuffle(rules))
        moved = CardSet.from_mask(hands[-1].mask & -hands[-1].mask)   # the last seat's lowest card
        hands[-1], hands[0] = hands[-1] - moved, hands[0] | moved
        return tuple(hands)

    def play_deal(self, hands: tuple[CardSet, ...], direction: str) -> None:
        """This engine plays on with its own deal; the runner stops at a deal the rules refuse."""


class DealsARemovedCard(ShufflingReference):
    """DECK-REMOVED: with 3, 5 or 6 players the 2C is dealt as if nothing were removed, in place of another card."""

    name = "planted-deals-a-removed-card"

    def shuffle(self, rules: Rules) -> tuple[CardSet, ...]:
        hands = list(super().shuffle(rules))
        if rules.removed_cards:
            out = CardSet.from_mask(hands[0].mask & -hands[0].mask)
            hands[0] = (hands[0] - out) | CardSet.parse("2C")
        return tuple(hands)

    def play_deal(self, hands: tuple[CardSet, ...], direction: str) -> None:
        """This engine plays on with its own deal; the runner stops at a deal the rules refuse."""


class DealsFromTheDealer(ShufflingReference):
    """DEAL-HANDS: the deal begins with the dealer instead of the player to its left, so that with uneven hands the
    dealer gets the extra card (with even hands nothing shows: the deck is shuffled either way)."""

    name = "planted-deals-from-the-dealer"

    def shuffle(self, rules: Rules) -> tuple[CardSet, ...]:
        dealer = len(self._game().results) % rules.players
        return deal(rules, rng=self.rng, dealer=(dealer - 1) % rules.players)   # off by one seat

    def play_deal(self, hands: tuple[CardSet, ...], direction: str) -> None:
        """This engine plays on with its own deal; the runner stops at a deal the rules refuse."""


TURNS: dict[type, str] = {PlaysForAnySeat: "TRICK-ORDER", ToMoveCountsChoices: "PASS-SIMULTANEOUS",
                          PassCheckedAgainstNextSeat: "PASS-COUNT", ChoosesAgain: "PASS-SIMULTANEOUS"}
DEALING: dict[type, str] = {DealsTwelveToOneSeat: "DEAL-HANDS", DealsARemovedCard: "DECK-REMOVED",
                            DealsFromTheDealer: "DEAL-HANDS"}
