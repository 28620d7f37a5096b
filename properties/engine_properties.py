"""The catalogue as properties of whole games played by any engine, through the engine interface only.

:func:`play_game` plays a :class:`~properties.strategies.GamePlan` on an
:class:`~hearts_ref.engine.Engine` (the reference, or a third-party engine behind an
adapter) and checks the invariants at every step from what the engine shows — its
legal plays and its :class:`~hearts_ref.engine.Observation` — against a record of the
cards kept here from the deal, the passes and the plays. The expected values come from
the rules' text (:mod:`properties.contexts`), never from the reference engine.
:func:`check_engine` runs it under Hypothesis, which shrinks a failure to a small game.

>>> from hearts_ref import ReferenceEngine, Rules
>>> from properties.strategies import GamePlan
>>> log = play_game(ReferenceEngine(), GamePlan(Rules(end_threshold=26)))
>>> log.rounds >= 1 and log.stuck is None
True
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from hypothesis import HealthCheck, assume, given, settings

from hearts_ref.cards import CARDS, Suit, suit_of
from hearts_ref.cardset import HEARTS, POINT_CARDS, QUEEN, SUIT_MASKS, CardSet, bits_of
from hearts_ref.engine import Engine
from hearts_ref.variants import Rules
from properties import statements as said
from properties.catalogue import expected_unsound, not_applicable
from properties.contexts import expected_score_total
from properties.strategies import GamePlan, games

__all__ = ["PropertyViolation", "GameLog", "play_game", "check_engine", "spec_points"]


class PropertyViolation(AssertionError):
    """An engine broke an invariant: ``invariant`` is its ID, the message says where and how."""

    def __init__(self, invariant: str, message: str):
        super().__init__(f"{invariant}: {message}")
        self.invariant = invariant


@dataclass(frozen=True)
class GameLog:
    """What a checked game did: rounds finished, cards played, and for unsound rules where a player was stuck."""

    rounds: int
    plays: int
    stuck: tuple[int, str] | None = None     # (seat, hand) of a player with no legal play, under unsound rules


def spec_points(cards: int, rules: Rules) -> int:
    """SCORE-POINTS and SCORE-JACK as the statements say: 1 a heart, 13 the Q♠, −10 the J♦ if it counts."""
    return said.raw_points(rules, cards)


def _expect(condition: bool, invariant: str, message: str) -> None:
    if not condition:
        raise PropertyViolation(invariant, message)


class _Round:
    """The cards as the rules move them: hands, the trick in progress, the cards each seat took."""

    def __init__(self, rules: Rules, hands: tuple[int, ...], *, passed: bool):
        self.rules = rules
        self.passed = passed
        self.hands = list(hands)
        self.trick: list[tuple[int, int]] = []          # (seat, card) in play order
        self.taken = [0] * rules.players
        self.played = 0
        self.tricks = 0
        self.totals: list[int] = [0] * rules.players
        # DEAL-HANDS: the seats dealt an extra card (uneven hands), each playing two cards to the first trick
        self.extra = {seat for seat, hand in enumerate(hands) if hand.bit_count() > said.hand_size(rules.players, said.decks_of(rules))}

    def next_seat(self) -> int | None:
        """TRICK-ORDER from the text: clockwise, and a seat with an extra card plays twice running on the first trick."""
        if not self.trick:
            return None
        last = self.trick[-1][0]
        if self.tricks == 0 and last in self.extra and [s for s, _ in self.trick].count(last) == 1:
            return last
        return (last + 1) % self.rules.players

    def trick_size(self) -> int:
        return self.rules.players + (len(self.extra) if self.tricks == 0 else 0)

    def check_conserved(self, where: str) -> None:
        seen = 0
        for cards in self.hands + self.taken + [sum(1 << c for _, c in self.trick)]:
            _expect(not seen & cards, "CARDS-CONSERVED", f"{where}: a card is in two places")
            seen |= cards
        _expect(seen == self.rules.deck_mask, "CARDS-CONSERVED", f"{where}: cards went missing")

    def trick_winner(self) -> int:
        """TRICK-WINNER from the text: the highest card of the suit led; of two identical cards (two decks) the first
        played."""
        led = SUIT_MASKS[suit_of(self.trick[0][1])]
        return max((card % 13, -position, seat) for position, (seat, card) in enumerate(self.trick)
                   if led >> card & 1)[2]


def _check_round_end(rules: Rules, record: _Round, observation: Any, where: str) -> None:
    points = [spec_points(cards, rules) for cards in record.taken]
    _expect(sum(observation.points_taken) == rules.points_per_round, "POINTS-PER-ROUND",
            f"{where}: the raw points {list(observation.points_taken)} sum to {sum(observation.points_taken)}, "
            f"not {rules.points_per_round}")
    _expect(list(observation.points_taken) == points, "POINTS-PER-ROUND",
            f"{where}: the engine counts {list(observation.points_taken)} for the cards taken, the rules {points}")
    shooters = [seat for seat, cards in enumerate(record.taken) if cards & POINT_CARDS == POINT_CARDS & rules.deck_mask]
    moon = bool(shooters) and rules.moon != "off"
    trickless = sum(1 for cards in record.taken if not cards)
    scores = list(observation.round_scores or ())
    total = expected_score_total(rules, moon, trickless)
    _expect(sum(scores) == total, "POINTS-PER-ROUND", f"{where}: the round scores {scores} sum to {sum(scores)}, "
                                                      f"not {total}")
    wanted = said.round_scores(rules, record.taken)
    _expect(scores == wanted, "SCORES-AS-STATED", f"{where}: scores {scores}, the rules give {wanted} "
                                                   f"({'a moon' if moon else 'no moon'})")
    size = said.hand_size(rules.players, said.decks_of(rules))
    _expect(record.tricks == size and not any(record.hands), "ROUND-PLAYS-EVERY-CARD",
            f"{where}: the round ended after {record.tricks} tricks of {size}, with "
            f"{sum(h.bit_count() for h in record.hands)} cards unplayed")
    record.totals = [t + s for t, s in zip(record.totals, scores)]
    _expect(list(observation.totals or ()) == record.totals, "TOTALS-ARE-SUMS",
            f"{where}: the engine's totals {list(observation.totals or ())}, the sums of the round scores "
            f"{record.totals}")


def _check_before_play(rules: Rules, record: _Round, seat: int, legal: int, observation: Any, where: str) -> None:
    hand = record.hands[seat]
    invariant = "PASSING-PRESERVES-DEAL" if record.passed and record.tricks == 0 else "CARDS-CONSERVED"
    _expect(legal & ~hand == 0, invariant,
            f"{where}: legal plays {CardSet.from_mask(legal & ~hand).glyphs()} are not in seat {seat}'s hand")
    _expect(list(observation.trick) == [str(CARDS[c]) for _, c in record.trick], "CARDS-CONSERVED",
            f"{where}: the engine shows the trick {list(observation.trick)}")
    first, leading = record.tricks == 0, not record.trick
    if first and leading:
        low = said.lowest_club(rules.players, rules.even_out)
        opening = (hand & SUIT_MASKS[Suit.CLUBS]) if rules.can_lead_any_club else low
        _expect(bool(hand & low) and legal == opening, "OPENING-LEAD",
                f"{where}: seat {seat} leads with legal plays {CardSet.from_mask(legal).glyphs() or '(none)'}, "
                f"holding {CardSet.from_mask(hand).glyphs()}")
    broken_seen = record.played & (HEARTS | (QUEEN if rules.qs_breaks_hearts else 0))
    _expect(not observation.hearts_broken or broken_seen, "HEARTS-BREAK-ON-PLAY",
            f"{where}: hearts are broken, but no heart has been played")
    if leading and not first and not observation.hearts_broken and not not_applicable("NO-EARLY-HEART-LEAD", rules):
        allowed = HEARTS | (QUEEN if rules.can_lead_hearts_instead_of_qs else 0)
        _expect(not legal & HEARTS or not hand & ~allowed, "NO-EARLY-HEART-LEAD",
                f"{where}: hearts unbroken, seat {seat} may lead {CardSet.from_mask(legal & HEARTS).glyphs()} "
                f"holding {CardSet.from_mask(hand).glyphs()}")


def play_game(engine: Engine, plan: GamePlan, *, max_rounds: int = 40) -> GameLog:
    """Play ``plan`` on ``engine`` and check the invariants at every step; raise :class:`PropertyViolation` at the first broken one.

    Checks LEGAL-MOVE-EXISTS, FIRST-TRICK-NO-DEADLOCK, OPENING-LEAD, POINTS-PER-ROUND,
    UNIQUE-TRICK-WINNER, NO-EARLY-HEART-LEAD, SCORES-AS-STATED, PASSING-PRESERVES-DEAL,
    CARDS-CONSERVED, HEARTS-BREAK-ON-PLAY, TOTALS-ARE-SUMS and ROUND-PLAYS-EVERY-CARD. Under rules that can
    deadlock, a player without a legal play ends the game (``GameLog.stuck``). A game
    still going after ``max_rounds`` rounds (ties played on) is stopped there; so is every
    game after one round on an engine without ``multi_round``, and an engine that cannot
    pass plays every round without a pass.
    """
    rules, n = plan.rules, plan.rules.players
    capabilities = engine.capabilities()
    engine.new_game(rules)
    passing = capabilities.passing
    if not capabilities.multi_round:
        max_rounds = 1
    choice, plays, number = 0, 0, 0
    totals = [0] * n
    while True:
        number += 1
        dealt = tuple(h.mask for h in plan.deal(number - 1))
        direction = rules.pass_direction(number) if passing else "none"
        engine.start_round([CardSet.from_mask(h) for h in dealt], direction)
        hands = dealt
        if direction != "none":
            passes = []
            for seat in range(n):
                ordered = list(bits_of(dealt[seat]))
                start = plan.choice(choice) % len(ordered)
                choice += 1
                chosen = sum(1 << c for c in (ordered[start:] + ordered[:start])[:said.PASS_CARDS])
                passes.append(chosen)
                engine.pass_cards(seat, CardSet.from_mask(chosen))
            offset = rules.pass_offset(direction)   # PASS-CYCLE: each seat gives to the seat `offset` clockwise
            hands = tuple((dealt[seat] & ~passes[seat]) | passes[(seat - offset) % n] for seat in range(n))
        record = _Round(rules, hands, passed=direction != "none")
        record.totals = totals
        record.check_conserved(f"round {number}, after the pass")
        while True:
            observation = engine.observe()
            if observation.phase != "play":
                break
            seat = observation.to_move
            where = f"round {number}, trick {record.tricks + 1}, seat {seat}"
            legal = engine.legal_plays().mask
            if not legal:
                if expected_unsound(rules):
                    return GameLog(number - 1, plays, (seat, str(CardSet.from_mask(record.hands[seat]))))
                invariant = "FIRST-TRICK-NO-DEADLOCK" if record.tricks == 0 and record.trick else "LEGAL-MOVE-EXISTS"
                raise PropertyViolation(invariant, f"{where}: no legal play holding "
                                                   f"{CardSet.from_mask(record.hands[seat]).glyphs()}")
            expected_seat = record.next_seat()
            _expect(expected_seat is None or seat == expected_seat, "UNIQUE-TRICK-WINNER",
                    f"{where}: seat {seat} is to move, but seat {expected_seat} is next in TRICK-ORDER")
            _check_before_play(rules, record, seat, legal, observation, where)
            options = list(bits_of(legal))
            card = options[plan.choice(choice) % len(options)]
            choice += 1
            engine.play(CARDS[card])
            plays += 1
            record.hands[seat] &= ~(1 << card)
            record.trick.append((seat, card))
            record.played |= 1 << card
            if len(record.trick) == record.trick_size():
                winner = record.trick_winner()
                record.taken[winner] |= sum(1 << c for _, c in record.trick)
                record.trick, record.tricks = [], record.tricks + 1
                after = engine.observe()
                if after.phase == "play":
                    _expect(after.to_move == winner, "UNIQUE-TRICK-WINNER",
                            f"{where}: seat {after.to_move} leads next, but seat {winner} won the trick")
                    points = [spec_points(cards, rules) for cards in record.taken]
                    _expect(list(after.points_taken) == points, "POINTS-PER-ROUND",
                            f"{where}: the engine shows points {list(after.points_taken)}, the cards taken give {points}")
            record.check_conserved(where)
        _check_round_end(rules, record, observation, f"round {number}")
        totals = record.totals
        if observation.game_over or number >= max_rounds:
            return GameLog(number, plays)


def check_engine(make_engine: Callable[[], Engine], *, rules: Rules | None = None, max_examples: int = 50,
                 derandomize: bool = True) -> None:
    """Play Hypothesis-generated games on fresh engines from ``make_engine``; raise the first violation, shrunk.

    Games under rules the engine declares it cannot play are skipped. With
    ``derandomize`` the run is the same every time (no example database).
    """
    @settings(max_examples=max_examples, derandomize=derandomize, database=None, deadline=None,
              suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
    @given(plan=games(rules=rules))
    def games_keep_the_invariants(plan: GamePlan) -> None:
        engine = make_engine()
        assume(engine.capabilities().cannot_play(plan.rules) is None)
        play_game(engine, plan)

    games_keep_the_invariants()
