"""A planted single-rule bug for every rule ID of spec/rules/, each the way an engine author gets it wrong.

Each engine is hearts-ref's reference engine with one rule broken, as a real implementation
breaks it: a constant 4 where the number of players belongs, the ace ranked low, the cards
passed as soon as each seat chooses, the leader's legal set worked out as if it were still
following the trick it just won, hearts broken only when the trick is collected, a moon
counted on the thirteen hearts, the end checked before the moon is applied, one winner where
the lowest total is shared … The conformance tests run ``hearts-ref conform`` on every one
and check that the bug is found and that the first rule named is the rule broken.

The score-sheet bugs (SCORE-*, END-*, WIN-*) share :class:`_ScoreSheet`, an engine that plays
the tricks as the reference does and keeps its own score sheet, one method per rule.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

from hearts_ref.cards import COPY_OFFSET, Card, suit_of
from hearts_ref.cardset import HEARTS, ONE_DECK, POINT_CARDS, QUEEN, SUIT_MASKS, CardSet, lowest
from hearts_ref.engine import Capabilities, EngineRejection, Observation, ReferenceEngine
from hearts_ref.game import is_game_over, winners
from hearts_ref.legality import Context, legal_plays
from hearts_ref.round import RoundState
from hearts_ref.scoring import card_points, round_scores
from hearts_ref.variants import Rules
from tests.engines.buggy import MoonOff, OffSuitWinner, QueenBreaksHearts, StrictThreshold, TotalsForgotten

CLUBS = SUIT_MASKS[0]


class _Misreads(ReferenceEngine):
    """The reference engine playing other rules than it was asked to."""

    changes: dict = {}

    def new_game(self, rules: Rules) -> None:
        super().new_game(dataclasses.replace(rules, **self.changes))


class _OwnLegality(ReferenceEngine):
    """The reference with its own legal sets: :meth:`allowed` decides, and plays are checked against it."""

    def allowed(self, state) -> int:
        return state.legal

    def legal_plays(self) -> CardSet:
        state = self.game.round if self.game is not None else None
        if state is None or state.phase != "play":
            return super().legal_plays()
        return CardSet.from_mask(self.allowed(state))

    def play(self, card: Card) -> None:
        state = self.game.round if self.game is not None else None
        if state is not None and state.phase == "play":
            mask = self.allowed(state)
            if not mask >> card.index & 1:
                raise EngineRejection(f"{card} may not be played now")
            self.game = self.game._replace(round=state._replace(legal=mask))
        super().play(card)


def _moved(state, seat: int) -> object:
    """The round with ``seat`` to play (its legal set recomputed)."""
    return state._replace(to_play=seat, legal=legal_plays(state.hands[seat], state.context, state.rules))


# 01 Setup -------------------------------------------------------------------------------------

class FourSeatScoreSheet(ReferenceEngine):
    """PLAYERS-COUNT: the score sheet has four columns whatever the number of players."""

    name = "planted-four-seat-score-sheet"

    def observe(self) -> Observation:
        seen = super().observe()
        four = lambda values: None if values is None else (tuple(values) + (0, 0, 0, 0))[:4]   # noqa: E731
        return dataclasses.replace(seen, points_taken=four(seen.points_taken), round_scores=four(seen.round_scores),
                                   totals=four(seen.totals))


class _AwardsTricks(ReferenceEngine):
    """A bug in who wins a trick of one card from each seat: :meth:`_winner` says who takes it (and leads next)."""

    def _winner(self, leader: int, trick: tuple[int, ...], players: int) -> int:
        raise NotImplementedError

    def play(self, card: Card) -> None:
        state = self.game.round
        completes = (state is not None and len(state.trick) == state.rules.players - 1
                     and not (state.first_trick and state.rules.extra_cards))   # one card from each seat
        super().play(card)
        after = self.game.round
        if not completes or after is None:
            return
        trick = state.trick + (card.index,)
        winner = self._winner(state.leader, trick, state.rules.players)
        if winner == after.leader:
            return
        won = sum(1 << c for c in trick)
        taken = list(after.taken)
        taken[after.leader] &= ~won
        taken[winner] |= won
        self.game = self.game._replace(round=_moved(after._replace(leader=winner, taken=tuple(taken)), winner))


class AceLow(_AwardsTricks):
    """DECK-CARDS: the ace ranks below the two when the trick is decided."""

    name = "planted-ace-low"

    def _winner(self, leader: int, trick: tuple[int, ...], players: int) -> int:
        led = suit_of(trick[0])
        rank = lambda c: (c % 13 + 1) % 13 if suit_of(c) == led else -1   # noqa: E731  (ace = 0)
        return (leader + max(range(len(trick)), key=lambda k: rank(trick[k]))) % players


class PlaceInTrickWins(_AwardsTricks):
    """TRICK-WINNER: the highest card of the suit led wins, but the trick goes to the seat numbered as that card's
    place in the trick (0 for the card led), not to the seat that played it."""

    name = "planted-place-in-trick-wins"

    def _winner(self, leader: int, trick: tuple[int, ...], players: int) -> int:
        led = suit_of(trick[0])
        return max(range(len(trick)), key=lambda k: trick[k] % 13 if suit_of(trick[k]) == led else -1)


class _AmendsTheDeal(ReferenceEngine):
    """A bug in the round as dealt: once the cards are dealt, and again once each pass is made, :meth:`_amend`
    changes the round in play."""

    def _amend(self) -> None:
        raise NotImplementedError

    def start_round(self, hands: Sequence[CardSet], direction: str) -> None:
        super().start_round(hands, direction)
        self._amend()

    def pass_cards(self, seat: int, cards: CardSet) -> None:
        super().pass_cards(seat, cards)
        self._amend()


class _OpensOwnWay(_AmendsTheDeal):
    """A bug in who opens the round: the round about to open is given the leader and the legal cards
    :meth:`_opener` says (None: as the reference opens it)."""

    def _opener(self, state: RoundState) -> tuple[int, int] | None:
        raise NotImplementedError

    def _amend(self) -> None:
        state = self.game.round
        if state is None or state.phase != "play" or state.tricks or state.trick:
            return
        opener = self._opener(state)
        if opener is not None:
            seat, legal = opener
            self.game = self.game._replace(round=state._replace(leader=seat, to_play=seat, legal=legal))


class WrongCardsRemoved(_OpensOwnWay):
    """DECK-REMOVED: with 5 or 6 players the lowest clubs are taken out (2C 3C, or 2C 3C 4C 5C) instead of the
    twos and threes of clubs and diamonds, so the engine opens with the 4C (6C) and trusts the deal as given."""

    name = "planted-wrong-cards-removed"

    def _opening_club(self, rules: Rules) -> int:
        removed = {3: 1, 4: 0, 5: 2, 6: 4}[rules.players]
        return 1 << removed   # the club of rank `removed`: 2C when nothing is removed

    def _opener(self, state: RoundState) -> tuple[int, int] | None:
        if state.rules.players < 5 or not state.rules.removed_cards:   # seed 003's two decks: nothing is removed
            return None
        club = self._opening_club(state.rules)
        return next(seat for seat, hand in enumerate(state.hands) if hand & club), club


class UncheckedDeal(ReferenceEngine):
    """DEAL-HANDS: the deal is taken as given; only the removed cards are checked, not that every hand has
    the same number of cards and no card is dealt twice."""

    name = "planted-unchecked-deal"

    def start_round(self, hands: Sequence[CardSet], direction: str) -> None:
        try:
            super().start_round(hands, direction)
        except EngineRejection as error:
            if not error.reason.startswith("DEAL-HANDS"):
                raise
            self.broken_deal = tuple(hands)   # played from as dealt; the reference cannot hold such a deal


class DealerLeads(_OpensOwnWay):
    """DEAL-DEALER: the dealer (seat 0, then clockwise) leads the first trick, with its lowest club."""

    name = "planted-dealer-leads"

    def _opener(self, state: RoundState) -> tuple[int, int]:
        dealer = len(self.game.results) % state.rules.players
        hand = state.hands[dealer]
        return dealer, 1 << lowest(hand & CLUBS) if hand & CLUBS else hand


class NextClubOpens(_OpensOwnWay):
    """LEAD-OPEN: the lowest club is mistaken for the next one in play: its holder opens the round with it."""

    name = "planted-next-club-opens"

    def _opener(self, state: RoundState) -> tuple[int, int]:
        clubs = state.rules.deck_mask & CLUBS & ~(1 << state.rules.lowest_club.index)
        opening = clubs & -clubs
        return next(seat for seat, hand in enumerate(state.hands) if hand & opening), opening


class HolderBeforePassOpens(_OpensOwnWay):
    """LEAD-OPEN: the seat that held the lowest club before the pass opens the round (the holder is found when the
    cards are dealt and not again once they are passed); it may play only that club, which it may have passed away."""

    name = "planted-holder-before-pass-opens"

    def _opener(self, state: RoundState) -> tuple[int, int]:
        opening = 1 << state.rules.lowest_club.index
        seat = next(seat for seat, hand in enumerate(state.dealt) if hand & opening)
        return seat, state.hands[seat] & opening


class TwoOfClubsAlwaysOpens(_OpensOwnWay):
    """LEAD-OPEN: the 2C opens the round whatever the cards removed; when it is out of play (3, 5 or 6 players) no
    hand holds it, and seat 0 is left to move with no card it may play."""

    name = "planted-two-of-clubs-always-opens"

    def _opener(self, state: RoundState) -> tuple[int, int] | None:
        if any(hand & 1 for hand in state.hands):   # (the 2C, card index 0, in play: the reference's opening)
            return None
        return 0, 0


# 02 Passing -----------------------------------------------------------------------------------

class AnyNumberPassed(ReferenceEngine):
    """PASS-COUNT: the cards chosen are checked to be the seat's own, but not counted."""

    name = "planted-any-number-passed"

    def pass_cards(self, seat: int, cards: CardSet) -> None:
        state = self.game.round if self.game is not None else None
        if state is not None and state.passing and len(cards) != 3 and not cards.mask & ~state.hands[seat]:
            return   # taken, and lost: the engine never counted them
        super().pass_cards(seat, cards)


class PassesOneAtATime(ReferenceEngine):
    """PASS-SIMULTANEOUS: each seat's three cards go to their receiver as soon as it has chosen them."""

    name = "planted-passes-one-at-a-time"

    def pass_cards(self, seat: int, cards: CardSet) -> None:
        state = self.game.round if self.game is not None else None
        if state is None or not state.passing:
            return super().pass_cards(seat, cards)
        n = state.rules.players
        if state.passes[seat] or len(cards) != 3 or cards.mask & ~state.hands[seat]:
            raise EngineRejection(f"seat {seat} cannot pass {cards}")
        receiver = (seat + state.rules.pass_offset(state.direction)) % n
        hands = list(state.hands)
        hands[seat] &= ~cards.mask
        hands[receiver] |= cards.mask
        passes = state.passes[:seat] + (cards.mask,) + state.passes[seat + 1:]
        state = state._replace(hands=tuple(hands), passes=passes)
        if all(passes):   # the cards have already changed hands: play begins
            state = state._replace(passing=False)._begin_play()
        self.game = self.game._replace(round=state)


class ShiftedCycle(ReferenceEngine):
    """PASS-CYCLE: the engine keeps its own pass cycle, one round ahead (round 1 passes right), whatever
    direction it is told."""

    name = "planted-shifted-cycle"

    def start_round(self, hands: Sequence[CardSet], direction: str) -> None:
        game = self._game()
        super().start_round(hands, game.rules.pass_direction(len(game.results) + 2))


class RightPassesLeft(ReferenceEngine):
    """PASS-CYCLE: a round that passes right passes left (the other directions as they should be)."""

    name = "planted-right-passes-left"

    def start_round(self, hands: Sequence[CardSet], direction: str) -> None:
        super().start_round(hands, "left" if direction == "right" else direction)


class RightPassesLeftSaysWhy(RightPassesLeft):
    """PASS-CYCLE: as :class:`RightPassesLeft`, and a pass of a card on its way to the seat (in the engine's own
    direction) is refused citing PASS-SIMULTANEOUS, as an engine that explains its refusals would."""

    name = "planted-right-passes-left-says-why"

    def pass_cards(self, seat: int, cards: CardSet) -> None:
        state = self.game.round
        if state is not None and state.passing:
            offset, n = state.rules.pass_offset(state.direction), state.rules.players   # its own (wrong) direction
            coming = 0
            for giver, given in enumerate(state.passes):
                if given and (giver + offset) % n == seat:
                    coming |= given
            if cards.mask & coming:
                raise EngineRejection(f"seat {seat} does not hold {CardSet.from_mask(cards.mask & coming)} yet: cards "
                                      "change hands only when every seat has chosen", "PASS-SIMULTANEOUS")
        super().pass_cards(seat, cards)


# 03 Leading -----------------------------------------------------------------------------------

class AnyClubOpens(_Misreads):
    """LEAD-OPEN: the holder of the lowest club may open with any club."""

    name = "planted-any-club-opens"
    changes = {"can_lead_any_club": True}


class StaleLeadContext(_OwnLegality):
    """LEAD-WINNER: the leader's legal set is worked out from the trick just won, as if still following it."""

    name = "planted-stale-lead-context"

    def allowed(self, state) -> int:
        ctx = state.context
        if not ctx.leading or ctx.first_trick:
            return state.legal
        previous = suit_of(state.tricks[-1].indices[0])
        return legal_plays(state.hands[state.to_play], Context(False, previous, False, ctx.hearts_broken), state.rules)


# 04 Following ---------------------------------------------------------------------------------

class HeartsAlwaysPlayable(_OwnLegality):
    """FOLLOW-SUIT: after the first trick a heart may be played even by a seat holding the suit led."""

    name = "planted-hearts-always-playable"

    def allowed(self, state) -> int:
        ctx, hand = state.context, state.hands[state.to_play]
        if ctx.leading or ctx.first_trick or not hand & SUIT_MASKS[ctx.led_suit]:
            return state.legal
        return state.legal | hand & HEARTS


class PointsNeverDiscarded(_OwnLegality):
    """FOLLOW-VOID: a void seat may not discard a point card while it holds another card, on every trick."""

    name = "planted-points-never-discarded"

    def allowed(self, state) -> int:
        ctx, hand = state.context, state.hands[state.to_play]
        if ctx.leading or ctx.first_trick or hand & SUIT_MASKS[ctx.led_suit]:
            return state.legal
        return state.legal & ~POINT_CARDS or state.legal


class QueenOnFirstTrick(_OwnLegality):
    """FIRST-NO-POINTS: the Q♠ is left out of the point cards kept off the first trick."""

    name = "planted-queen-on-first-trick"

    def allowed(self, state) -> int:
        ctx, hand = state.context, state.hands[state.to_play]
        if ctx.leading or not ctx.first_trick or hand & SUIT_MASKS[ctx.led_suit] or not hand & ~POINT_CARDS:
            return state.legal
        return state.legal | hand & QUEEN


class NoOnlyPointsException(_OwnLegality):
    """FIRST-EXCEPTION: a void seat holding only point cards may play none of them on the first trick."""

    name = "planted-no-only-points-exception"

    def allowed(self, state) -> int:
        ctx, hand = state.context, state.hands[state.to_play]
        if ctx.leading or not ctx.first_trick or hand & SUIT_MASKS[ctx.led_suit] or hand & ~POINT_CARDS:
            return state.legal
        return 0 if state.rules.first_trick_points == "exception" else state.legal


class SecondCardAnySuit(_OwnLegality):
    """FIRST-TWO-CARDS: the second of a seat's two first-trick cards may be any card the other rules allow."""

    name = "planted-second-card-any-suit"

    def allowed(self, state) -> int:
        ctx = state.context
        if ctx.pair_suit is None:
            return state.legal
        return legal_plays(state.hands[state.to_play], ctx._replace(pair_suit=None), state.rules)


class HeartsLedAnyTime(_OwnLegality):
    """LEAD-HEARTS: after the first trick any card may be led, hearts unbroken or not."""

    name = "planted-hearts-led-any-time"

    def allowed(self, state) -> int:
        ctx = state.context
        if not ctx.leading or ctx.first_trick or state.rules.hearts_restriction != "lead":
            return state.legal
        return state.hands[state.to_play]


# 05 Hearts ------------------------------------------------------------------------------------

class BrokenAtTrickEnd(ReferenceEngine):
    """BREAK-DISCARD: hearts count as broken only once the trick with the discarded heart is collected."""

    name = "planted-broken-at-trick-end"

    def start_round(self, hands: Sequence[CardSet], direction: str) -> None:
        super().start_round(hands, direction)
        self.shown_broken = False

    def play(self, card: Card) -> None:
        super().play(card)
        state = self.game.round
        if state is not None and not state.trick:
            self.shown_broken = state.hearts_broken

    def observe(self) -> Observation:
        seen = super().observe()
        if self.game.round is not None and seen.phase == "play":
            seen = dataclasses.replace(seen, hearts_broken=self.shown_broken)
        return seen


class HeartsStayBroken(_AmendsTheDeal):
    """BREAK-DISCARD: hearts once broken stay broken for the rest of the game: the flag belongs to the game and is
    cleared by ``new_game`` only, not at the start of each round."""

    name = "planted-hearts-stay-broken"

    def new_game(self, rules: Rules) -> None:
        super().new_game(rules)
        self.ever_broken = False

    def _amend(self) -> None:
        state = self.game.round
        if state is None or not self.ever_broken or state.hearts_broken:
            return
        state = state._replace(context=state.context._replace(hearts_broken=True))
        self.game = self.game._replace(round=_moved(state, state.to_play) if state.to_play >= 0 else state)

    def play(self, card: Card) -> None:
        super().play(card)
        state = self.game.round
        self.ever_broken = self.ever_broken or (state is not None and state.hearts_broken)
        self._amend()


# 06 Tricks ------------------------------------------------------------------------------------

class CounterClockwise(ReferenceEngine):
    """TRICK-ORDER: after the leader, play goes to the right (counter-clockwise)."""

    name = "planted-counter-clockwise"

    def play(self, card: Card) -> None:
        seat = self.game.round.to_play
        super().play(card)
        state = self.game.round
        if state is not None and state.trick:
            self.game = self.game._replace(round=_moved(state, (seat - 1) % state.rules.players))


class _AtTrickEnd(ReferenceEngine):
    """The reference's plays, with the round as the engine has it after each trick (:meth:`after_trick`)."""

    def after_trick(self, after):
        return after

    def play(self, card: Card) -> None:
        state = self.game.round
        before = len(state.tricks) if state is not None else -1
        super().play(card)
        after = self.game.round
        if after is not None and len(after.tricks) != before:   # a trick completed (and the round goes on)
            self.game = self.game._replace(round=self.after_trick(after))


class _OwnTrickWinner(_AtTrickEnd):
    """The reference's plays, with the engine's own winner of each trick (:meth:`winner_of`)."""

    def winner_of(self, trick, state) -> int:
        return trick.winner

    def after_trick(self, after):
        trick = after.tricks[-1]
        winner = self.winner_of(trick, after)
        if winner == trick.winner:
            return after
        won = sum(1 << c for c in trick.indices)
        taken = list(after.taken)
        taken[trick.winner] &= ~won
        taken[winner] |= won
        tricks = after.tricks[:-1] + (trick._replace(winner=winner),)
        return _moved(after._replace(leader=winner, taken=tuple(taken), tricks=tricks), winner)


class LastCopyWins(_OwnTrickWinner):
    """TRICK-WINNER: of two identical cards in a trick (two decks), the one played last wins, not the first."""

    name = "planted-last-copy-wins"

    def winner_of(self, trick, state) -> int:
        faces = [c % COPY_OFFSET for c in trick.indices]
        led = faces[0] // 13
        best = max(f for f in faces if f // 13 == led)
        positions = [k for k, f in enumerate(faces) if f == best]
        return trick.seat_of(positions[-1], state.rules.players)


class UnfollowedFirstTrick(_OwnTrickWinner):
    """TRICK-WINNER: a first trick that no one follows (every other seat void in clubs) goes to the seat after the
    leader, as if the highest club after the lead won it."""

    name = "planted-unfollowed-first-trick"

    def winner_of(self, trick, state) -> int:
        led = suit_of(trick.indices[0])
        if len(state.tricks) == 1 and not any(suit_of(c) == led for c in trick.indices[1:]):
            return trick.seat_of(1, state.rules.players)
        return trick.winner


class LeaderLeadsAgain(_AtTrickEnd):
    """LEAD-WINNER: the trick goes to its winner, points and all, but the seat that led it leads the next one too."""

    name = "planted-leader-leads-again"

    def after_trick(self, after):
        leader = after.tricks[-1].leader   # the winner keeps the trick; the lead stays where it was
        return after if leader == after.leader else _moved(after._replace(leader=leader), leader)

# 07 Scoring and 08 End: an engine with its own score sheet ----------------------------------

class _ScoreSheet(ReferenceEngine):
    """The reference's tricks, with the engine's own score sheet: each rule of the sheet is one method."""

    def new_game(self, rules: Rules) -> None:
        self.rules = rules
        self.without_jack = dataclasses.replace(rules, jd_bonus=False)
        self.with_jack = dataclasses.replace(rules, jd_bonus=True)
        super().new_game(dataclasses.replace(rules, end_threshold=10 ** 9, max_rounds=0))   # the sheet ends it
        self.totals = (0,) * rules.players
        self.scores: tuple[int, ...] | None = None
        self.points = (0,) * rules.players
        self.over = False
        self._counted: tuple = (None, self.points)   # the tricks counted last, and their points

    def start_round(self, hands: Sequence[CardSet], direction: str) -> None:
        if self.over:
            raise EngineRejection("END-THRESHOLD: the game is over")
        super().start_round(hands, direction)

    # the sheet's rules
    def trick_points(self, cards: int) -> int:
        """SCORE-POINTS (and SCORE-JACK): the points of one trick."""
        return card_points(cards, self.rules)

    def round_score(self, taken: tuple[int, ...], points: tuple[int, ...]) -> tuple[int, ...]:
        """SCORE-MOON, SCORE-NO-TRICKS: the round's scores from its points."""
        right = round_scores(taken, self.rules)
        if right.shooter is not None:   # a moon's scores are the same whatever the points were counted
            return right.scores
        return tuple(p + (s - r) for p, s, r in zip(points, right.scores, right.points))

    def add_up(self, totals: tuple[int, ...], scores: tuple[int, ...]) -> tuple[int, ...]:
        """SCORE-TOTAL."""
        return tuple(t + s for t, s in zip(totals, scores))

    def ends(self, before: tuple[int, ...], points: tuple[int, ...], totals: tuple[int, ...], rounds: int) -> bool:
        """END-THRESHOLD, WIN-TIE: whether the game ends after this round."""
        return is_game_over(totals, rounds, self.rules)

    def winners_of(self, totals: tuple[int, ...]) -> tuple[int, ...]:
        """WIN-LOWEST, WIN-TIE."""
        return winners(totals)

    def _tricks_points(self, tricks) -> tuple[int, ...]:
        points = [0] * self.rules.players
        for trick in tricks:
            points[trick.winner] += self.trick_points(sum(1 << c for c in trick.indices))
        return tuple(points)

    def play(self, card: Card) -> None:
        super().play(card)
        game = self.game
        if game.round is None:   # the round is over: score it on this engine's sheet
            result = game.results[-1]
            taken = [0] * self.rules.players
            for trick in result.tricks:
                taken[trick.winner] |= sum(1 << c for c in trick.indices)
            self.points = self._tricks_points(result.tricks)
            self.scores = self.round_score(tuple(taken), self.points)
            before, self.totals = self.totals, self.add_up(self.totals, self.scores)
            self.over = self.ends(before, self.points, self.totals, len(game.results))

    def observe(self) -> Observation:
        seen = super().observe()
        state = self.game.round
        if state is not None and self._counted[0] is not state.tricks:   # points change when a trick is taken
            self._counted = (state.tricks, self._tricks_points(state.tricks))
        points = self._counted[1] if state is not None else self.points
        over = self.over and state is None
        return dataclasses.replace(seen, phase="game-over" if over else seen.phase, points_taken=points,
                                   round_scores=self.scores, totals=self.totals, game_over=over,
                                   winners=self.winners_of(self.totals) if over else ())


class OnePointPerHeartTrick(_ScoreSheet):
    """SCORE-POINTS: a trick holding hearts costs one point, not one per heart."""

    name = "planted-one-point-per-heart-trick"

    def trick_points(self, cards: int) -> int:
        return (1 if cards & HEARTS else 0) + (13 if cards & QUEEN else 0) + \
            (card_points(cards, self.rules) - card_points(cards, self.without_jack))


class JackAlwaysCounts(_ScoreSheet):
    """SCORE-JACK: the J♦ scores −10 whatever ``jd_bonus`` says."""

    name = "planted-jack-always-counts"

    def trick_points(self, cards: int) -> int:
        return card_points(cards, self.with_jack)


class JackSignTurned(_ScoreSheet):
    """SCORE-JACK: the J♦ scores +10 instead of −10 (with ``jd_bonus``)."""

    name = "planted-jack-sign-turned"

    def trick_points(self, cards: int) -> int:
        return card_points(cards, self.without_jack) - (card_points(cards, self.rules) - card_points(cards, self.without_jack))


class NoTrickBonusAlways(_ScoreSheet):
    """SCORE-NO-TRICKS: a seat without a trick scores −5 whatever ``avoid_all_tricks_bonus`` says."""

    name = "planted-no-trick-bonus-always"

    def round_score(self, taken: tuple[int, ...], points: tuple[int, ...]) -> tuple[int, ...]:
        return round_scores(taken, dataclasses.replace(self.rules, avoid_all_tricks_bonus=True)).scores


class MoonOnHearts(_ScoreSheet):
    """SCORE-MOON: the moon is counted on the thirteen hearts, with or without the Q♠."""

    name = "planted-moon-on-hearts"

    def round_score(self, taken: tuple[int, ...], points: tuple[int, ...]) -> tuple[int, ...]:
        shooter = next((seat for seat, cards in enumerate(taken) if cards & HEARTS == HEARTS & ONE_DECK), None)
        if shooter is None or self.rules.moon == "off":
            return super().round_score(taken, points)
        jack = [p - card_points(cards, self.without_jack) for p, cards in zip(points, taken)]
        if self.rules.moon == "add":
            return tuple(j + (0 if seat == shooter else 26) for seat, j in enumerate(jack))
        return tuple(j - (26 if seat == shooter else 0) for seat, j in enumerate(jack))


class EndBeforeMoon(_ScoreSheet):
    """END-THRESHOLD: the end is checked on the card points, before the moon replaces them."""

    name = "planted-end-before-moon"

    def ends(self, before: tuple[int, ...], points: tuple[int, ...], totals: tuple[int, ...], rounds: int) -> bool:
        return is_game_over(tuple(t + p for t, p in zip(before, points)), rounds, self.rules)


class HighestWins(_ScoreSheet):
    """WIN-LOWEST: the highest total wins, as in most games."""

    name = "planted-highest-wins"

    def winners_of(self, totals: tuple[int, ...]) -> tuple[int, ...]:
        return tuple(seat for seat, total in enumerate(totals) if total == max(totals))


class OneWinner(_ScoreSheet):
    """WIN-TIE: one winner, the first seat with the lowest total, even when others share it."""

    name = "planted-one-winner"

    def winners_of(self, totals: tuple[int, ...]) -> tuple[int, ...]:
        return (totals.index(min(totals)),)


# Each planted bug and the rule ID the runner must name first: every rule of spec/rules/.
PLANTED: dict[type, str] = {
    FourSeatScoreSheet: "PLAYERS-COUNT",
    AceLow: "DECK-CARDS",
    WrongCardsRemoved: "DECK-REMOVED",
    UncheckedDeal: "DEAL-HANDS",
    DealerLeads: "DEAL-DEALER",
    AnyNumberPassed: "PASS-COUNT",
    PassesOneAtATime: "PASS-SIMULTANEOUS",
    ShiftedCycle: "PASS-CYCLE",
    AnyClubOpens: "LEAD-OPEN",
    StaleLeadContext: "LEAD-WINNER",
    HeartsLedAnyTime: "LEAD-HEARTS",
    HeartsAlwaysPlayable: "FOLLOW-SUIT",
    PointsNeverDiscarded: "FOLLOW-VOID",
    QueenOnFirstTrick: "FIRST-NO-POINTS",
    NoOnlyPointsException: "FIRST-EXCEPTION",
    SecondCardAnySuit: "FIRST-TWO-CARDS",
    BrokenAtTrickEnd: "BREAK-DISCARD",
    QueenBreaksHearts: "BREAK-QUEEN",
    CounterClockwise: "TRICK-ORDER",
    OffSuitWinner: "TRICK-WINNER",
    OnePointPerHeartTrick: "SCORE-POINTS",
    JackAlwaysCounts: "SCORE-JACK",
    NoTrickBonusAlways: "SCORE-NO-TRICKS",
    MoonOnHearts: "SCORE-MOON",
    TotalsForgotten: "SCORE-TOTAL",
    EndBeforeMoon: "END-THRESHOLD",
    HighestWins: "WIN-LOWEST",
    OneWinner: "WIN-TIE",
}

# More bugs of the same rules (the runner must name them just as well).
MORE_PLANTED: dict[type, str] = {MoonOff: "SCORE-MOON", StrictThreshold: "END-THRESHOLD", LastCopyWins: "TRICK-WINNER",
                                  RightPassesLeft: "PASS-CYCLE", UnfollowedFirstTrick: "TRICK-WINNER",
                                  LeaderLeadsAgain: "LEAD-WINNER", HeartsStayBroken: "BREAK-DISCARD",
                                  HolderBeforePassOpens: "LEAD-OPEN", PlaceInTrickWins: "TRICK-WINNER",
                                  RightPassesLeftSaysWhy: "PASS-CYCLE"}




# Two bugs in one engine: games play on past the first, so the second is found and named too. --------

class StaleLeadEndBeforeMoon(StaleLeadContext, EndBeforeMoon):
    """LEAD-WINNER in every round, and END-THRESHOLD when a moon decides the end."""

    name = "planted-stale-lead-end-before-moon"


class HeartsAlwaysJackAlways(HeartsAlwaysPlayable, JackAlwaysCounts):
    """FOLLOW-SUIT in every round, and SCORE-JACK whenever the J♦ is taken."""

    name = "planted-hearts-always-jack-always"


class BrokenLateOneWinnerDeclared(BrokenAtTrickEnd, OneWinner):
    """BREAK-DISCARD in almost every round, declared as a known deviation; WIN-TIE, not declared, at a tie."""

    name = "planted-broken-late-one-winner"

    def capabilities(self) -> Capabilities:
        return Capabilities(known_deviations=("BREAK-DISCARD",))
