"""Situations: the branches of each rule that a random game rarely reaches, as predicates over the reference's play.

A differential game only tests what it plays through. Each :class:`Situation` names one
branch of one rule (its ``name`` starts with the rule ID): a leader holding only hearts while
they are unbroken (LEAD-HEARTS), a void hand of only point cards on the first trick
(FIRST-EXCEPTION), a moon spoiled by one heart (SCORE-MOON), a tie for the lowest total at
the end (WIN-TIE) … and applies only to the rules under which it can happen.

A situation is a predicate of one of three scopes, asked of the reference's own values:

- ``play``: a :class:`Moment`, one card played, with the seat's hand before it and the
  play's context, replayed from a finished round with the engine's own rule functions
  (:func:`~hearts_ref.round.exchange` for the pass, :func:`~hearts_ref.legality.breaks_hearts`
  for hearts broken: :func:`~.coverage.moments`);
- ``round``: a finished round (the cards each seat took, the pass direction, the deal);
- ``end``: the totals after a round (the game's end decided by :func:`~hearts_ref.game.is_game_over`).

A situation counts once per round in which it was reached (once per round end for the
``end`` scope): "5" means five different rounds.

>>> from hearts_ref.simulate import random_game
>>> from hearts_ref.variants import Rules
>>> from hearts_ref.conformance.coverage import round_situations   # a finished round's (the coverage)
>>> sorted(round_situations(random_game(Rules(), seed=2).results[0], Rules()))
['BREAK-DISCARD/heart-discarded', 'PASS-CYCLE/left']
>>> [s.name for s in applicable(Rules()) if s.rule_id == "WIN-TIE"]       # not every seat of four
['WIN-TIE/2-share', 'WIN-TIE/3-share']
>>> three = Rules(players=3, pass_cycle="left-right-none")
>>> [s.name for s in applicable(three) if s.rule_id == "WIN-TIE"]     # every seat of three
['WIN-TIE/2-share', 'WIN-TIE/3-share']
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import dataclass
from typing import NamedTuple

from hearts_ref.cards import Suit, suit_of
from hearts_ref.cardset import HEARTS, JACK_OF_DIAMONDS_BIT, POINT_CARDS, QUEEN, SUIT_MASKS
from hearts_ref.game import RoundResult, is_game_over
from hearts_ref.legality import Context
from hearts_ref.scoring import MOON_POINTS
from hearts_ref.variants import REMOVED_CARDS, Rules
from hearts_ref.conformance.script import direction_options

__all__ = ["Situation", "Moment", "SITUATIONS", "BY_NAME", "applicable", "situation_rows", "dealt_directions",
           "TIE_SIZES"]

_SPADES, _HEARTS = int(Suit.SPADES), int(Suit.HEARTS)
TIE_SIZES = (2, 3, 4)    # WIN-TIE: ties for the lowest total between this many seats
# Every card but the hearts, but the point cards: a predicate asks of the hand first, the cheapest test that
# rules most plays out (each is asked of every play while hearts are unbroken).
_NOT_HEARTS, _NOT_POINTS = ~HEARTS, ~POINT_CARDS


class Moment(NamedTuple):
    """One card played, as the reference saw it: the seat, its hand before the play, the context, the card."""

    seat: int
    hand: int
    context: Context
    card: int

    @property
    def void(self) -> bool:
        """Whether the seat follows a trick without holding the suit led."""
        return not self.context.leading and not self.hand & SUIT_MASKS[self.context.led_suit]

    @property
    def unbroken(self) -> bool:
        return not self.context.hearts_broken

    @property
    def later_lead(self) -> bool:
        """A lead after the first trick, hearts unbroken: where LEAD-HEARTS restricts the leader."""
        return self.context.leading and not self.context.first_trick and self.unbroken


@dataclass(frozen=True)
class Situation:
    """One branch of one rule: its name (the rule ID first), what it is, its scope and predicate, where it applies."""

    name: str
    text: str
    scope: str                                   # "play", "round" or "end"
    test: Callable[..., bool]
    applies: Callable[[Rules], bool] = lambda rules: True
    cards: int | None = None   # ``play`` scope: the cards whose play it can be (None: any card)
    plays: str | None = None   # ``play`` scope: the plays it can be: "first-trick", "later-lead" (None: any play)

    @property
    def rule_id(self) -> str:
        return self.name.split("/")[0]


def _lead_restricted(rules: Rules) -> bool:
    """LEAD-HEARTS restricts the leader: hearts must be broken before they are led."""
    return rules.must_break_hearts and rules.hearts_restriction == "lead"


def _heart_discard_allowed(rules: Rules) -> bool:
    """FOLLOW-VOID: a heart may be discarded while hearts are unbroken (not under seed 003's literal rule)."""
    return not (rules.must_break_hearts and rules.hearts_restriction == "discard")


def _rounds_to(rules: Rules, total: int) -> bool:
    """Whether a total can reach ``total`` within the round limit (a round gives a seat at most 26)."""
    return not rules.max_rounds or rules.max_rounds * MOON_POINTS >= total


def _first_void(m: Moment) -> bool:
    return m.context.first_trick and m.void


def _threshold_reached(totals: tuple[int, ...], rules: Rules) -> bool:
    """END-THRESHOLD: whether the totals reach the end threshold (whatever the ties)."""
    return is_game_over(totals, 0, dataclasses.replace(rules, ties="shared", max_rounds=0))


def _tie_planned(rules: Rules, k: int) -> bool:
    """WIN-TIE: whether games of ``rules`` are planned to end with ``k`` seats tied for the lowest total: fewer
    than every seat, or every seat of three (with more seats no search over rounds of known scores finds one)."""
    return k < rules.players or k == rules.players == 3


def _tie(k: int, shared: bool) -> Situation:
    lowest = lambda totals: totals.count(min(totals))   # noqa: E731
    if shared:
        return Situation(f"WIN-TIE/{k}-share", f"the game ended with {k} seats sharing the lowest total", "end",
                         lambda before, after, over, rules: over and lowest(after) == k,
                         lambda rules: rules.ties == "shared" and _tie_planned(rules, k))
    return Situation(f"WIN-TIE/{k}-play-on", f"the threshold was reached with {k} seats tied for the lowest total, "
                     "so the game went on", "end",
                     lambda before, after, over, rules: not over and lowest(after) == k and _threshold_reached(after, rules),
                     lambda rules: rules.ties == "play-on" and _tie_planned(rules, k))


def _direction(direction: str) -> Situation:
    return Situation(f"PASS-CYCLE/{direction}", f"a round passed {direction}" if direction != "none"
                     else "a round without a pass", "round", lambda result, taken, rules: result.direction == direction,
                     lambda rules: direction in direction_options(rules))


def dealt_directions(rules: Rules) -> set[str]:
    """PASS-CYCLE: the directions of the rounds a game under ``rules`` deals (within its round limit)."""
    rounds = range(1, (min(rules.max_rounds, 4) if rules.max_rounds else 4) + 1)
    return {rules.pass_direction(number) for number in rounds}


def _removed(players: int) -> Situation:
    cards = " ".join(REMOVED_CARDS[players])
    return Situation(f"DECK-REMOVED/{players}-players", f"a round of {players} players, dealt without {cards}", "round",
                     lambda result, taken, rules: rules.players == players and _dealt(result) == rules.deck_mask,
                     lambda rules: rules.players == players)


def _unfollowed(trick: tuple[int, ...]) -> bool:
    """TRICK-WINNER: no card after the lead is of the suit led."""
    led = suit_of(trick[0])
    return not any(suit_of(card) == led for card in trick[1:])


def _one_hand_of_clubs(rules: Rules) -> bool:
    """Whether one hand can hold every club in play (no other seat then can follow the first trick) in a round that
    plays out: not where hearts may not be discarded unbroken (FOLLOW-VOID under seed 003's literal rule), as the
    others, void in clubs, would have to do while every trick is led with a club and won by its leader."""
    fits = (SUIT_MASKS[Suit.CLUBS] & rules.deck_mask).bit_count() <= rules.hand_size
    return fits and _heart_discard_allowed(rules)


def _dealt(result: RoundResult) -> int:
    cards = 0
    for hand in result.dealt:
        cards |= hand
    return cards


def _shooter(taken: tuple[int, ...]) -> int | None:
    in_play = POINT_CARDS & _union(taken)
    return next((seat for seat, cards in enumerate(taken) if not in_play & ~cards), None)


def _union(taken: tuple[int, ...]) -> int:
    cards = 0
    for one in taken:
        cards |= one
    return cards


def _spoiled(taken: tuple[int, ...]) -> bool:
    """Every point card but one heart to one seat."""
    in_play = POINT_CARDS & _union(taken)
    for cards in taken:
        missing = in_play & ~cards
        if missing and not missing & (missing - 1) and missing & HEARTS:
            return True
    return False


SITUATIONS: tuple[Situation, ...] = (
    # 01 Setup
    *(_removed(players) for players in (3, 5, 6)),
    # 02 Passing
    *(_direction(direction) for direction in ("left", "right", "across", "none")),
    # 03 Leading
    Situation("LEAD-HEARTS/only-hearts", "a leader held only hearts while they were unbroken", "play",
              lambda m, rules: not m.hand & _NOT_HEARTS and m.later_lead, _lead_restricted, plays="later-lead"),
    Situation("LEAD-HEARTS/hearts-and-queen", "a leader held only hearts and the Q♠ while hearts were unbroken "
              "(can_lead_hearts_instead_of_qs decides whether a heart may be led)", "play",
              lambda m, rules: not m.hand & _NOT_POINTS and m.hand & QUEEN and m.hand & HEARTS and m.later_lead,
              _lead_restricted, plays="later-lead"),
    # 04 Following
    Situation("FIRST-EXCEPTION/only-points", "a seat void on the first trick held only point cards", "play",
              lambda m, rules: not m.hand & _NOT_POINTS and _first_void(m),
              lambda rules: rules.first_trick_points == "exception" and rules.hand_size <= (POINT_CARDS & rules.deck_mask).bit_count(),
              plays="first-trick"),
    Situation("FIRST-NO-POINTS/points-held", "a seat void on the first trick held point cards and other cards", "play",
              lambda m, rules: m.context.first_trick and m.hand & POINT_CARDS and m.hand & _NOT_POINTS and m.void,
              lambda rules: rules.first_trick_points != "allowed", plays="first-trick"),
    Situation("FIRST-NO-POINTS/point-discarded", "a point card was discarded on the first trick (allowed)", "play",
              lambda m, rules: (1 << m.card) & POINT_CARDS and _first_void(m),
              lambda rules: rules.first_trick_points == "allowed", cards=POINT_CARDS, plays="first-trick"),
    # 05 Hearts
    Situation("BREAK-QUEEN/queen-led", "the Q♠ was led while hearts were unbroken", "play",
              lambda m, rules: (1 << m.card) & QUEEN and m.context.leading and m.unbroken, cards=QUEEN),
    Situation("BREAK-QUEEN/queen-followed", "the Q♠ followed a spade lead while hearts were unbroken", "play",
              lambda m, rules: (1 << m.card) & QUEEN and m.context.led_suit == _SPADES and m.unbroken, cards=QUEEN),
    Situation("BREAK-QUEEN/queen-discarded", "the Q♠ was discarded while hearts were unbroken", "play",
              lambda m, rules: (1 << m.card) & QUEEN and m.void and m.unbroken, cards=QUEEN),
    Situation("BREAK-DISCARD/heart-led", "a heart was led while hearts were unbroken", "play",
              lambda m, rules: suit_of(m.card) == _HEARTS and m.context.leading and m.unbroken, cards=HEARTS),
    Situation("BREAK-DISCARD/heart-followed", "a heart followed a heart lead while hearts were unbroken", "play",
              lambda m, rules: suit_of(m.card) == _HEARTS and m.context.led_suit == _HEARTS and m.unbroken,
              lambda rules: rules.hearts_broken_by == "discard", cards=HEARTS),
    Situation("BREAK-DISCARD/heart-discarded", "a heart was discarded while hearts were unbroken", "play",
              lambda m, rules: suit_of(m.card) == _HEARTS and m.void and m.unbroken, _heart_discard_allowed, cards=HEARTS),
    # 06 Tricks
    Situation("TRICK-WINNER/first-trick-unfollowed", "no one followed the lowest club on the first trick (every "
              "other seat void in clubs): the leader took it", "round",
              lambda result, taken, rules: _unfollowed(result.tricks[0].indices), _one_hand_of_clubs),
    # 07 Scoring
    Situation("SCORE-MOON/moon", "a seat took every point card", "round",
              lambda result, taken, rules: _shooter(taken) is not None),
    Situation("SCORE-MOON/spoiled", "a seat took every point card but one heart", "round",
              lambda result, taken, rules: _spoiled(taken)),
    Situation("SCORE-JACK/moon-with-jack", "a seat took every point card and the J♦", "round",
              lambda result, taken, rules: any(not (POINT_CARDS | JACK_OF_DIAMONDS_BIT) & rules.deck_mask & ~cards for cards in taken),
              lambda rules: rules.jd_bonus),
    Situation("SCORE-NO-TRICKS/no-trick", "a seat took no trick", "round",
              lambda result, taken, rules: any(not cards for cards in taken)),
    # 08 End
    Situation("END-THRESHOLD/exact", "the highest total landed exactly on the end threshold", "end",
              lambda before, after, over, rules: max(after) == rules.end_threshold,
              lambda rules: _rounds_to(rules, rules.end_threshold)),
    *(_tie(k, shared) for shared in (True, False) for k in TIE_SIZES),
)

BY_NAME = {situation.name: situation for situation in SITUATIONS}


def applicable(rules: Rules, *, directions: set[str] | None = None) -> tuple[Situation, ...]:
    """The situations that can happen in games under ``rules``, in the order of the rules.

    ``directions``: the pass directions the games are dealt with, when not those of the cycle
    (:func:`dealt_directions`): every direction of the cycle for an engine that draws it, "none"
    for an engine that does not pass.
    """
    key = (rules, None if directions is None else frozenset(directions))
    if key not in _APPLICABLE:
        dealt = dealt_directions(rules) if directions is None else directions
        _APPLICABLE[key] = tuple(s for s in SITUATIONS
                                 if s.applies(rules) and (s.rule_id != "PASS-CYCLE" or s.name[11:] in dealt))
    return _APPLICABLE[key]


_APPLICABLE: dict[tuple[Rules, frozenset[str] | None], tuple[Situation, ...]] = {}   # kept per ruleset


def situation_rows(names: list[str], coverage: dict[str, int],
                   untargeted: dict[str, str] | None = None) -> list[dict[str, object]]:
    """The situations of a report: those of its rules (``names``) and any other it reached, each with its count,
    and for each one no targeted game could aim at, why (``untargeted``)."""
    listed = list(names) + sorted(name for name in coverage if name in BY_NAME and name not in names)
    why = untargeted or {}
    return [{"name": name, "rule_id": BY_NAME[name].rule_id, "text": BY_NAME[name].text,
             "count": int(coverage.get(name, 0)), **({"untargeted": why[name]} if name in why else {})}
            for name in listed if name in BY_NAME]
