"""One round: the deal, the pass, thirteen tricks (for four players) and the score.

A :class:`RoundState` is immutable: choosing a pass or playing a card returns a new
state. The round reads like the rules, in their order:

1. a deal (:mod:`hearts_ref.deals`, DEAL-HANDS) checked by :func:`start_round`;
2. :meth:`RoundState.choose_pass` (PASS-COUNT, PASS-SIMULTANEOUS, PASS-CYCLE);
3. :meth:`RoundState.play` (LEAD-*, FOLLOW-*, FIRST-*, BREAK-*, TRICK-*), checked by
   :meth:`RoundState.check_play`;
4. :meth:`RoundState.score` (SCORE-*).

>>> from hearts_ref.variants import Rules
>>> from hearts_ref.deals import deal
>>> state = start_round(Rules(), deal(Rules(), seed=7), direction="none")
>>> state.phase, state.to_move, str(state.legal_plays())
('play', 3, '2C')
>>> state = state.play(Card.parse("2C"))
>>> len(state.trick), state.to_move
(1, 0)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, NamedTuple

from hearts_ref.cards import CARDS, Card
from hearts_ref.cardset import BITS, CardSet
from hearts_ref.errors import HeartsError, IllegalPassError, IllegalPlayError, InvalidCardError
from hearts_ref.legality import Context, breaks_hearts, legal_plays, opening_leader, rejecting_rule
from hearts_ref.scoring import RoundScore, card_points, round_scores
from hearts_ref.tricks import Trick, first_trick_seats, trick_winner
from hearts_ref.variants import Rules

__all__ = ["RoundState", "Trick", "start_round", "dealt_state", "is_pass", "trick_winner", "first_trick_seats", "exchange",
           "DeadlockError", "PASS_SIZE"]

PASS_SIZE = 3   # PASS-COUNT


class DeadlockError(HeartsError):
    """The player to move has no legal play: the variant is unsound (see ``hearts-ref prove``)."""

    def __init__(self, rule_id: str, message: str):
        super().__init__(f"{rule_id}: {message}")
        self.rule_id = rule_id


def start_round(rules: Rules, hands: tuple[CardSet, ...] | list[CardSet], *, direction: str = "none",
                dealer: int | None = None) -> RoundState:
    """Return the state at the start of a round with these ``hands`` and pass ``direction``.

    Checks DECK-CARDS, DECK-REMOVED and DEAL-HANDS: one hand per player, equal sizes (with uneven
    hands, some one card larger: the deck check makes them as many as DEAL-HANDS deals; with a ``dealer``
    (DEAL-DEALER), the extra cards the first seats' from its left), no card twice, exactly the cards in play.
    """
    masks = tuple(_hand_mask(hand, seat) for seat, hand in enumerate(hands))
    if len(masks) != rules.players:
        raise HeartsError(f"DEAL-HANDS: {len(masks)} hands for {rules.players} players")
    sizes = rules.dealt_sizes(dealer) if dealer is not None and rules.extra_cards else None
    seen = 0
    for seat, mask in enumerate(masks):
        if mask & seen:
            raise InvalidCardError(f"DEAL-HANDS: seat {seat} holds {CardSet.from_mask(mask & seen)}, "
                                   "dealt to another seat too")
        if mask.bit_count() not in (rules.hand_size, rules.hand_size + (rules.extra_cards > 0)):
            raise HeartsError(f"DEAL-HANDS: seat {seat} holds {mask.bit_count()} cards, "
                              f"not {rules.hand_size}" + (" or one more" if rules.extra_cards else ""))
        if sizes is not None and mask.bit_count() != sizes[seat]:
            raise HeartsError(f"DEAL-HANDS: seat {seat} holds {mask.bit_count()} cards, not {sizes[seat]}: dealt from "
                              f"dealer {dealer}'s left, the extra " + ("card goes to seat " if rules.extra_cards == 1
                                                                         else "cards go to seats ")
                              + ", ".join(str((dealer + 1 + k) % rules.players) for k in range(rules.extra_cards)))
        seen |= mask
    if seen & ~rules.deck_mask:
        raise InvalidCardError(f"DECK-REMOVED: the hands hold {CardSet.from_mask(seen & ~rules.deck_mask)}, "
                               f"removed with {rules.players} players")
    if seen != rules.deck_mask:
        raise InvalidCardError(f"DEAL-HANDS: no hand holds {CardSet.from_mask(rules.deck_mask & ~seen)}: every card "
                               "in play is dealt")
    return dealt_state(rules, masks, direction)


def dealt_state(rules: Rules, hands: Sequence[Any], direction: str) -> RoundState:
    """Return the state of a round just dealt these ``hands`` (unchecked: :func:`start_round` checks them).

    PASS-CYCLE: the passes come first, unless ``direction`` is none; then LEAD-OPEN. Runs on
    both card-set algebras: the proofs start their rounds here, with symbolic hands.
    """
    passing = rules.pass_offset(direction) != 0
    state = RoundState(rules, tuple(hands), direction, (0,) * rules.players, tuple(hands), (0,) * rules.players,
                       (), 0, (), passing, -1, Context(True, None, True, False), 0)
    return state if passing else state._begin_play()


def is_pass(hand: Any, cards: Any, ops: Any = BITS) -> bool:
    """PASS-COUNT: whether ``cards`` are three cards of ``hand``.

    Plain Python over card sets: the proofs run it on symbolic cards under ``hearts_ref.symbolic.explore``.
    """
    return ops.count(cards) == PASS_SIZE and not cards & ~hand


def _hand_mask(hand: object, seat: int) -> int:
    if isinstance(hand, CardSet):
        return hand.mask
    if isinstance(hand, str):
        return CardSet.parse(hand).mask
    try:
        return CardSet(hand).mask  # type: ignore[arg-type]
    except TypeError:
        raise InvalidCardError(f"DEAL-HANDS: hand of seat {seat} is not a set of cards: {hand!r}") from None


class RoundState(NamedTuple):
    """The state of one round. Card sets are stored as masks; the methods speak in cards."""

    rules: Rules
    dealt: tuple[int, ...]          # the hands as dealt (DEAL-HANDS)
    direction: str                  # the pass direction of this round (PASS-CYCLE)
    passes: tuple[int, ...]         # the cards each seat chose to pass; 0 = not chosen yet
    hands: tuple[int, ...]          # the cards each seat holds now
    taken: tuple[int, ...]          # the cards each seat has taken in tricks
    trick: tuple[int, ...]          # the current trick's cards, in play order
    leader: int                     # the seat that leads the current trick
    tricks: tuple[Trick, ...]       # the finished tricks
    passing: bool                   # True while passes are still to be chosen
    to_play: int                    # the seat to play next; -1 while passing and when done
    context: Context                # what the next play depends on besides the hand
    legal: int                      # the legal plays of ``to_play``, as a mask

    # What the players see ------------------------------------------------------------

    @property
    def phase(self) -> str:
        """``"pass"``, ``"play"`` or ``"done"``."""
        if self.passing:
            return "pass"
        return "play" if self.to_play >= 0 else "done"

    @property
    def is_over(self) -> bool:
        """Whether every trick of the round has been played."""
        return self.to_play < 0 and not self.passing

    @property
    def to_move(self) -> int | None:
        """The seat to choose a pass or play a card (TRICK-ORDER); None when the round is done."""
        if self.passing:
            return next(seat for seat, cards in enumerate(self.passes) if not cards)
        return self.to_play if self.to_play >= 0 else None

    @property
    def deadlocked(self) -> bool:
        """FIRST-NO-POINTS: whether the seat to play has no legal play (only rules that can deadlock reach this)."""
        return self.to_play >= 0 and not self.legal

    @property
    def hearts_broken(self) -> bool:
        """BREAK-DISCARD: whether hearts are broken."""
        return self.context.hearts_broken

    @property
    def first_trick(self) -> bool:
        return not self.tricks

    def hand(self, seat: int) -> CardSet:
        """The cards ``seat`` holds now."""
        return CardSet.from_mask(self.hands[seat])

    def current_trick(self) -> tuple[Card, ...]:
        """The cards of the trick in progress, in play order."""
        return tuple(CARDS[i] for i in self.trick)

    def points_taken(self) -> tuple[int, ...]:
        """SCORE-POINTS: the raw points each seat has taken so far this round."""
        rules = self.rules
        return tuple([card_points(cards, rules) for cards in self.taken])

    # Passing ------------------------------------------------------------------------

    def choose_pass(self, seat: int, cards: CardSet) -> RoundState:
        """Return the state after ``seat`` chooses the three ``cards`` to pass.

        PASS-COUNT: exactly three of the seat's own cards. PASS-SIMULTANEOUS: nobody
        receives until every seat has chosen; the last choice exchanges them all.
        """
        if not self.passing:
            raise IllegalPassError("PASS-CYCLE", f"no pass in this round (direction {self.direction}, "
                                   f"phase {self.phase})")
        if not 0 <= seat < self.rules.players:
            raise IllegalPassError("PASS-COUNT", f"no seat {seat} with {self.rules.players} players")
        if self.passes[seat]:
            raise IllegalPassError("PASS-SIMULTANEOUS", f"seat {seat} has already chosen "
                                   f"{CardSet.from_mask(self.passes[seat])}")
        mask = cards.mask
        if not is_pass(self.hands[seat], mask):
            if mask.bit_count() != PASS_SIZE:
                raise IllegalPassError("PASS-COUNT", f"seat {seat} must pass exactly {PASS_SIZE} cards, got "
                                       f"{len(cards)} ({cards})")
            raise IllegalPassError("PASS-COUNT", f"seat {seat} does not hold "
                                   f"{CardSet.from_mask(mask & ~self.hands[seat])} (hand: {self.hand(seat)})")
        passes = self.passes[:seat] + (mask,) + self.passes[seat + 1:]
        state = self._replace(passes=passes)
        if all(passes):
            state = state._exchange()._begin_play()
        return state

    def _exchange(self) -> RoundState:
        """PASS-SIMULTANEOUS: every seat gives its chosen cards and receives its neighbour's at once."""
        hands = exchange(self.hands, self.passes, self.rules.pass_offset(self.direction))
        return self._replace(hands=hands, passing=False)

    def _begin_play(self) -> RoundState:
        """LEAD-OPEN: the holder of the lowest club in play leads the first trick."""
        leader = opening_leader(self.hands, self.rules)
        return self._replace(leader=leader, to_play=leader,
                             legal=legal_plays(self.hands[leader], self.context, self.rules))

    # Playing ------------------------------------------------------------------------

    def legal_mask(self) -> int:
        """The legal plays of the seat to move, as a mask (empty when not in the play phase)."""
        return self.legal

    def legal_plays(self) -> CardSet:
        """The cards the seat to move may play."""
        return CardSet.from_mask(self.legal)

    def check_play(self, card: Card) -> None:
        """Raise :class:`IllegalPlayError`, with the rule ID and the reason, unless ``card`` may be played."""
        if self.to_play < 0:
            raise IllegalPlayError("TRICK-ORDER", f"no card can be played in the {self.phase} phase")
        if not self.legal:
            raise self.deadlock_error()
        rule = rejecting_rule(self.hands[self.to_play], self.context, self.rules, 1 << card.index)
        if rule is not None:
            raise IllegalPlayError(rule, self._explain(rule, self.to_play, card, self.context))

    def check_turn(self, seat: int) -> None:
        """TRICK-ORDER: raise :class:`IllegalPlayError` unless ``seat`` is the seat to play (no play out of turn)."""
        if seat != self.to_play:
            who = f"it is seat {self.to_play}'s turn" if self.to_play >= 0 else f"no card is due in the {self.phase} phase"
            raise IllegalPlayError("TRICK-ORDER", f"seat {seat} may not play now: {who} (trick {len(self.tricks) + 1})")

    def is_legal(self, card: Card) -> bool:
        """Whether the seat to move may play ``card``."""
        return bool(self.legal >> card.index & 1)

    def play(self, card: Any, ops: Any = BITS) -> RoundState:
        """Return the state after the seat to move plays ``card``; checks it first.

        Rules: TRICK-ORDER (the card leaves the hand for the trick, the next seat clockwise plays),
        BREAK-DISCARD and BREAK-QUEEN (:func:`breaks_hearts`), TRICK-WINNER (:func:`trick_winner`; the
        winner takes the trick's cards), LEAD-WINNER (the winner leads the next trick). The round ends
        when the last trick leaves no card to play.

        ``ops`` is the card-set algebra of the rule functions. The proofs run this very method on the
        symbolic one (``ops=SYMBOLIC``, ``properties.transitions``), with hands and trick of z3 Booleans
        and a :class:`~hearts_ref.symbolic.SymbolicCard` for ``card``; there a card outside the legal
        plays is a branch their hypotheses rule out.
        """
        # The hot path of every game, kept lean: cards as indices, the state built as a plain tuple.
        card = card.index
        played = 1 << card
        if not self.legal & played:
            self.check_play(CARDS[card])
        rules = self.rules
        n = rules.players
        seat = self.to_play
        hands = self.hands[:seat] + (self.hands[seat] & ~played,) + self.hands[seat + 1:]
        ctx = self.context
        broken = ctx.hearts_broken or breaks_hearts(played, ctx, rules, ops)
        trick = self.trick + (card,)
        seats = None
        if ctx.first_trick and rules.extra_cards:   # TRICK-ORDER: a seat dealt an extra card plays two
            seats = first_trick_seats(self.dealt, self.leader, rules, ops)
        if len(trick) < (n if seats is None else len(seats)):   # TRICK-ORDER: the next seat clockwise plays
            led = card // 13 & 3 if ctx.leading else ctx.led_suit
            ctx = _FOLLOWING[led][ctx.first_trick][broken]
            if seats is None:
                seat = (seat + 1) % n
            elif seats[len(trick)] == seat:   # FIRST-TWO-CARDS: its second card, of its first card's suit
                ctx = ctx._replace(pair_suit=card // 13 & 3)
            else:
                seat = seats[len(trick)]
            return _new(RoundState, (rules, self.dealt, self.direction, self.passes, hands, self.taken, trick,
                                     self.leader, self.tricks, False, seat, ctx, legal_plays(hands[seat], ctx, rules, ops)))
        cards = [1 << c for c in trick]
        winner = trick_winner(cards, ctx.led_suit, self.leader, n, ops, seats, rules.decks)
        won = cards[0]
        for one in cards[1:]:
            won = won | one
        taken = self.taken[:winner] + (self.taken[winner] | won,) + self.taken[winner + 1:]
        tricks = self.tricks + (Trick(self.leader, trick, winner, seats),)
        ctx = _LEADING[broken]
        if not hands[winner]:   # the last trick: nobody leads, the round is scored
            return _new(RoundState, (rules, self.dealt, self.direction, self.passes, hands, taken, (),
                                     winner, tricks, False, -1, ctx, 0))
        # LEAD-WINNER: the winner leads the next trick.
        return _new(RoundState, (rules, self.dealt, self.direction, self.passes, hands, taken, (),
                                 winner, tricks, False, winner, ctx, legal_plays(hands[winner], ctx, rules, ops)))

    def score(self) -> RoundScore:
        """SCORE-POINTS, SCORE-MOON, SCORE-JACK, SCORE-NO-TRICKS: the score of a finished round."""
        if self.phase != "done":
            raise HeartsError(f"SCORE-POINTS: the round is not over ({len(self.tricks)} of "
                              f"{self.rules.hand_size} tricks played)")
        return round_scores(self.taken, self.rules)

    def _explain(self, rule: str, seat: int, card: Card, ctx: Context) -> str:
        hand = self.hand(seat)
        trick = " ".join(c.glyph for c in self.current_trick()) or "(empty)"
        legal = self.legal_plays().glyphs() or "(none)"
        where = f"seat {seat}, trick {len(self.tricks) + 1}, trick so far {trick}; legal: {legal}"
        reasons = {
            "TRICK-ORDER": f"seat {seat} does not hold {card.glyph}",
            "LEAD-OPEN": f"the first trick must be opened with {self.rules.lowest_club.glyph}"
                         + (" or another club" if self.rules.can_lead_any_club else "") + f", got {card.glyph}",
            "LEAD-HEARTS": f"hearts are not broken and the hand ({hand.glyphs()}) holds other cards, "
                           f"got {card.glyph}",
            "FOLLOW-SUIT": f"must follow {'♣♦♠♥'[ctx.led_suit or 0]} "
                           f"(hand holds {hand.suit(ctx.led_suit or 0).glyphs()}), got {card.glyph}",
            "FIRST-NO-POINTS": f"no point card on the first trick while the hand ({hand.glyphs()}) "
                               f"holds other cards, got {card.glyph}",
            "FOLLOW-VOID": f"no heart may be discarded before hearts are broken, got {card.glyph}",
            "FIRST-TWO-CARDS": f"the second card must be of the first card's suit, "
                               f"{'♣♦♠♥'[ctx.pair_suit or 0]}, while the hand ({hand.glyphs()}) holds one "
                               f"it may play, got {card.glyph}",
        }
        return f"{reasons[rule]} ({where})"

    def deadlock_error(self) -> DeadlockError:
        """Return the error that describes a deadlocked state: the rule, the seat, its hand, the trick so far."""
        ctx = self.context
        rule = "FIRST-NO-POINTS" if ctx.first_trick and not ctx.leading else (
            "FOLLOW-VOID" if not ctx.leading else "LEAD-HEARTS")
        return DeadlockError(rule, f"seat {self.to_move} has no legal play: hand {self.hand(self.to_move).glyphs()}, "
                                   f"trick so far {' '.join(c.glyph for c in self.current_trick())}; "
                                   "these rules can deadlock")


# The few contexts a play can have, built once: following (by suit led, first trick, broken) and leading.
_FOLLOWING = tuple(tuple(tuple(Context(False, suit, first, broken) for broken in (False, True))
                         for first in (False, True)) for suit in range(4))
_LEADING = (Context(True, None, False, False), Context(True, None, False, True))
_new = tuple.__new__


def exchange(hands: Sequence[Any], passes: Sequence[Any], offset: int) -> tuple[Any, ...]:
    """PASS-SIMULTANEOUS: return the hands after every seat gives its ``passes`` to the seat ``offset`` clockwise.

    Written with ``& | ~`` only, so it runs on both card-set algebras (the proofs check it).

    >>> exchange((0b0011, 0b1100), (0b0001, 0b0100), 1)
    (6, 9)
    """
    n = len(hands)
    return tuple((hands[seat] & ~passes[seat]) | passes[(seat - offset) % n] for seat in range(n))
