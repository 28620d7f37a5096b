"""Hands that went astray, and the first lead: the evidence that an engine's cards are not the reference's.

The runner dealt the hands and chose the passes, so it can tell what an engine that passed
another way, kept the cards it passed, or ranks another club lowest would show:

- :func:`hands_astray`: a legal set that the hand the cards passed another way gives, at this
  play and at every play of the round before it (PASS-CYCLE); that of a hand that kept the
  cards it passed (PASS-SIMULTANEOUS); with a card already played (TRICK-ORDER);
- :func:`opening_rules`: a seat opening the round that holds the lowest club as another pass
  direction would place it (PASS-CYCLE), the lowest club of a deck without the lowest clubs
  (DECK-REMOVED), the dealer (DEAL-DEALER, for which the dealer has no privilege), else LEAD-OPEN;
- :func:`astray_citation`: an illegal card refused as one the seat does not hold, which it does
  not hold with the cards passed another way;
- :func:`citation_readings`: the hands gone astray an engine's citation would read as, should the
  round show them (a card the seat does not hold refused by a rule of the cards it holds: with the
  cards passed another way, or the cards it passed kept, it holds that card).

>>> from hearts_ref.deals import complete_deal
>>> from hearts_ref.round import start_round
>>> from hearts_ref.variants import Rules
>>> state = start_round(Rules(), complete_deal(Rules(), {2: "2C"}), direction="none")
>>> opening_rules(state, 0, dealer=0)
('DEAL-DEALER', 'LEAD-OPEN')
"""

from __future__ import annotations

from typing import Any

from hearts_ref.cards import CARDS, Suit
from hearts_ref.cardset import SUIT_MASKS, CardSet, lowest
from hearts_ref.errors import HeartsError
from hearts_ref.legality import Context, legal_plays, opening_leader
from hearts_ref.round import RoundState, exchange, start_round
from hearts_ref.variants import PASS_DIRECTIONS

__all__ = ["hands_astray", "opening_rules", "astray_citation", "citation_readings", "played_this_round"]

_CLUBS = SUIT_MASKS[Suit.CLUBS]


def played_this_round(state: RoundState) -> int:
    """The cards played so far in the round, by every seat."""
    played = 0
    for trick in state.tricks:
        for index in trick.indices:
            played |= 1 << index
    for index in state.trick:
        played |= 1 << index
    return played


def hands_astray(state: RoundState, engine: int, ctx: Context) -> tuple[str, ...]:
    """PASS-CYCLE, PASS-SIMULTANEOUS, TRICK-ORDER, DEAL-HANDS: the engine's legal set is that of another hand."""
    rules, seat = state.rules, state.to_play
    played = played_this_round(state)
    foreign = engine & ~state.hands[seat]
    if state.direction != "none":
        if any(_passed_that_way(state, direction, engine, ctx) for direction in _other_directions(state)):
            return ("PASS-CYCLE",)
        if foreign and engine == legal_plays(_kept_hand(state, seat, played), ctx, rules):
            return ("PASS-SIMULTANEOUS",)   # the cards passed away never left the hand
    if not foreign:
        return ()
    if foreign & played:
        return ("TRICK-ORDER",)   # a card played leaves the hand for the rest of the round
    return ("PASS-CYCLE",) if state.direction != "none" else ("DEAL-HANDS",)


def _round_plays(state: RoundState) -> list[int]:
    return [card for trick in state.tricks for card in trick.indices] + list(state.trick)


def _passed_that_way(state: RoundState, direction: str, engine: int, ctx: Context) -> bool:
    """PASS-CYCLE: whether the cards passed ``direction`` give the round's legal sets so far, and ``engine`` now.

    The round is replayed from both passes: every earlier play must have been legal with the
    same legal set (the engine showed the reference's), and the current one must be the engine's.
    """
    rules = state.rules
    try:
        hands = [exchange(state.dealt, state.passes, rules.pass_offset(d)) for d in (direction, state.direction)]
        mine, theirs = (start_round(rules, [CardSet.from_mask(h) for h in hs], direction="none") for hs in hands)
        for card in _round_plays(state):
            if mine.to_play != theirs.to_play or mine.legal != theirs.legal:
                return False
            mine, theirs = mine.play(CARDS[card]), theirs.play(CARDS[card])
    except HeartsError:
        return False
    return mine.to_play == state.to_play and engine == legal_plays(mine.hands[mine.to_play], ctx, rules)


def astray_citation(state: RoundState, card: int, cited: str, engine_legal: int) -> bool:
    """PASS-CYCLE: whether an engine refusing a card of the seat's hand as one it does not hold (TRICK-ORDER) holds
    the hand that the cards passed another way give the seat: the hand that gives the engine's legal set
    ``engine_legal``, every legal set of the round so far, and does not hold that card."""
    return cited == "TRICK-ORDER" and "PASS-CYCLE" in citation_readings(state, card, cited, engine_legal)


def citation_readings(state: RoundState, card: int, cited: str, engine_legal: int) -> tuple[str, ...]:
    """The hands gone astray (PASS-CYCLE, PASS-SIMULTANEOUS) that an engine refusing the illegal card ``card`` of the
    seat to move citing ``cited`` would be judging: hands in which the seat holds that card when the engine cites a
    rule of the cards a seat holds (any rule but TRICK-ORDER), or lacks it when the engine cites TRICK-ORDER, and
    which give the engine's legal set ``engine_legal`` (and, passed another way, every legal set of the round so
    far). A citation alone does not say the hands went astray (an engine may ask its rules in another order): the
    round must show it (:meth:`~.verdicts.Verdicts.record`)."""
    if state.direction == "none" or not cited:
        return ()
    rules, seat = state.rules, state.to_play
    played = played_this_round(state)
    holds = cited != "TRICK-ORDER"   # what the engine's citation says of the card
    if played >> card & 1 or bool(state.hands[seat] >> card & 1) == holds:
        return ()
    readings = []
    for direction in _other_directions(state):
        hand = exchange(state.dealt, state.passes, rules.pass_offset(direction))[seat] & ~played
        if bool(hand >> card & 1) == holds and _passed_that_way(state, direction, engine_legal, state.context):
            readings.append("PASS-CYCLE")
            break
    kept = _kept_hand(state, seat, played)
    if bool(kept >> card & 1) == holds and engine_legal == legal_plays(kept, state.context, rules):
        readings.append("PASS-SIMULTANEOUS")   # the cards passed away never left the hand
    return tuple(readings)


def _kept_hand(state: RoundState, seat: int, played: int) -> int:
    """PASS-SIMULTANEOUS: ``seat``'s hand had the cards it passed never left it (the cards it received added), less
    the cards ``played``."""
    received = exchange(state.dealt, state.passes, state.rules.pass_offset(state.direction))[seat] & ~state.dealt[seat]
    return (state.dealt[seat] | received) & ~played


def _other_directions(state: RoundState) -> list[str]:
    rules = state.rules
    return [d for d in PASS_DIRECTIONS if d != state.direction and not (d == "across" and rules.players % 2)]


# The first lead --------------------------------------------------------------------------------

def opening_rules(state: RoundState, leader: Any, dealer: int, engine_legal: int | None = None) -> tuple[str, ...]:
    """Return the rules behind an engine that has ``leader`` open the round instead of the reference's seat.

    ``engine_legal``, the engine's legal set for its leader, is the evidence when it is known:
    the lowest club in play, which that seat does not hold, says the hands went astray; no card
    at all, that the engine mistook the opening card or its holder (LEAD-OPEN), even when its
    leader is the dealer.
    """
    rules = state.rules
    if not isinstance(leader, int) or not 0 <= leader < rules.players:
        return ("LEAD-OPEN",)
    opening = 1 << rules.lowest_club.index
    if state.direction != "none" and engine_legal in (None, opening):
        for direction in _other_directions(state):
            if opening_leader(exchange(state.dealt, state.passes, rules.pass_offset(direction)), rules) == leader:
                return ("PASS-CYCLE", "LEAD-OPEN")
    clubs = state.hands[leader] & _CLUBS
    removed = len(rules.removed_cards)
    if removed and clubs and lowest(clubs) % 13 == removed and engine_legal in (None, clubs & -clubs):
        # the lowest club if the lowest clubs were the cards removed (or, when it is the dealer, the dealer leading)
        return ("DECK-REMOVED",) + (("DEAL-DEALER",) if leader == dealer else ()) + ("LEAD-OPEN",)
    if engine_legal == 0:
        # its leader may play nothing: the engine is wrong about the opening card or its holder (one that held it
        # before the pass, or a card not in play), not about the dealer, who would lead with a card it holds
        return ("LEAD-OPEN",)
    if leader == dealer:
        low = clubs & -clubs
        if low and engine_legal == low and rules.deck_mask & _CLUBS & (low - 1) == opening:
            # it opens with the club next above the lowest in play: the lowest club mistaken (a dealer that leads
            # holds that club as its lowest only now and then)
            return ("LEAD-OPEN", "DEAL-DEALER")
        return ("DEAL-DEALER", "LEAD-OPEN")   # the dealer has no privilege: it does not lead
    return ("LEAD-OPEN",)
