"""Rounds steered through the choices alone: the passes and plays that reach situations from hands dealt by the engine.

An engine that deals for itself (``Capabilities.deals``) takes no stacked deal: its targeted
games reach the situations only through the choices made on the hands it dealt. When its
round is dealt, :func:`steered_round` tries a few ways to pass and play those hands on the
reference, each a *style* around one seat, and keeps the one whose play reaches the most
of the situations aimed at (:func:`~hearts_ref.conformance.coverage.round_situations`):

================  ==========================================================================
pass ``feed``     the seat that passes to the chosen seat gives it its highest cards; the
                  chosen seat passes its lowest (a moon, a spoiled moon)
pass ``hearts``   the chosen seat is given hearts and passes its lowest other cards
                  (a leader left with only hearts, LEAD-HEARTS)
pass ``void``     every seat passes its shortest suit (a void on the first trick, discards)
play ``shoot``    the chosen seat wins every trick it can; the others play low, or feed it
                  their point cards when void
play ``dump``     every seat plays the Q♠ and its hearts when it may; the leaders lead
                  spades (the Q♠ followed), a suit the Q♠'s holder lacks (the Q♠
                  discarded) or hearts (a heart led or followed)
play ``duck``     the chosen seat plays low, the others high (a seat that takes no trick)
================  ==========================================================================

In a game of several rounds the round's scores count first: each try's scores are added to
the totals, and the try kept is the one that ends the game in the end situation the game aims
at (a tie for the lowest total, the threshold landed on exactly), else the one that brings the
totals nearest to it (:func:`~hearts_ref.conformance.endings.distance`). A situation that needs
the deal itself, a hand of only point cards, no choice reaches: it is :func:`untargeted`, with
the reason, and the report lists it.

>>> from hearts_ref.deals import deal
>>> from hearts_ref.variants import Rules
>>> hands = tuple(hand.mask for hand in deal(Rules(), seed=5))
>>> passes, plan = steered_round(Rules(), hands, "left", ("BREAK-QUEEN/queen-discarded",))
>>> "BREAK-QUEEN/queen-discarded" in reached(Rules(), plan)
True
>>> untargeted(Rules(), ["FIRST-EXCEPTION/only-points", "SCORE-MOON/moon"])
{'FIRST-EXCEPTION/only-points': 'needs a hand of only point cards, which only a constructed deal gives'}
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import NamedTuple

from hearts_ref.cards import suit_of
from hearts_ref.cardset import HEARTS, POINT_CARDS, QUEEN, SUIT_MASKS, bits_of, highest, lowest
from hearts_ref.diff.rounds import RoundPlan
from hearts_ref.game import is_game_over
from hearts_ref.round import PASS_SIZE, RoundState, exchange
from hearts_ref.variants import Rules
from hearts_ref.conformance.endings import distance
from hearts_ref.conformance.coverage import end_situations
from hearts_ref.conformance.situations import BY_NAME, applicable
from hearts_ref.conformance.targets import _leader, _played, _prefer, _wish, outcome, reached

__all__ = ["steered_round", "steered_aims", "steered_endings", "untargeted", "UNTARGETED", "Ending"]

SPADES = SUIT_MASKS[2]
_DEAL = "needs a hand of only point cards, which only a constructed deal gives"
# The situations no choice reaches from the engine's own deals, and why (by name, or by rule ID).
UNTARGETED = {"FIRST-EXCEPTION/only-points": _DEAL,
              "TRICK-WINNER/first-trick-unfollowed": "needs one hand of every club, which only a constructed deal gives"}
_EVERY_ROUND = ("PASS-CYCLE", "DECK-REMOVED")   # reached by every round dealt: no choice needed


def _reason(name: str) -> str | None:
    return UNTARGETED.get(name) or UNTARGETED.get(BY_NAME[name].rule_id)


def untargeted(rules: Rules, names: list[str]) -> dict[str, str]:
    """Of the situations ``names``, those the targeted games of an engine that deals cannot aim at, with the reason."""
    return {name: reason for name in names if name in BY_NAME and (reason := _reason(name)) is not None}


def steered_aims(rules: Rules) -> tuple[str, ...]:
    """The ``play`` and ``round`` situations of ``rules`` that steered rounds aim at, in the catalogue's order."""
    return tuple(s.name for s in applicable(rules)
                 if s.scope != "end" and s.rule_id not in _EVERY_ROUND and _reason(s.name) is None)


def steered_endings(rules: Rules) -> tuple[str, ...]:
    """The end situations of ``rules`` that steered games aim at, round after round, through the totals."""
    return tuple(s.name for s in applicable(rules) if s.scope == "end")


# Passes ------------------------------------------------------------------------------------

def _by_rank(mask: int, high: bool) -> list[int]:
    """The cards of ``mask`` by rank (then suit), highest first when ``high``."""
    return sorted(bits_of(mask), key=lambda c: (c % 13, suit_of(c), c), reverse=high)


def _some(cards: list[int], count: int = PASS_SIZE) -> int:
    return sum(1 << c for c in cards[:count])


def _passes(style: str, rules: Rules, hands: tuple[int, ...], seat: int, offset: int) -> tuple[int, ...]:
    """Each seat's pass under ``style`` around ``seat`` (which receives from the seat ``offset`` before it)."""
    n = rules.players
    giver = (seat - offset) % n
    chosen = []
    for s, hand in enumerate(hands):
        if style == "void":
            suits = sorted((k for k in range(4) if hand & SUIT_MASKS[k] & ~HEARTS),
                           key=lambda k: ((hand & SUIT_MASKS[k]).bit_count(), k))
            cards = [c for k in suits for c in _by_rank(hand & SUIT_MASKS[k], True)]
            chosen.append(_some(cards + _by_rank(hand & ~sum(1 << c for c in cards), False)))
        elif s == giver:
            wanted = hand & HEARTS if style == "hearts" else hand
            chosen.append(_some(_by_rank(wanted, True) + _by_rank(hand & ~wanted, True)))
        elif s == seat and style == "hearts":
            chosen.append(_some(_by_rank(hand & ~HEARTS, False) + _by_rank(hand & HEARTS, False)))
        else:
            chosen.append(_some(_by_rank(hand & ~POINT_CARDS, False) + _by_rank(hand & POINT_CARDS, False)))
    return tuple(chosen)


# Plays -------------------------------------------------------------------------------------

Wish = Callable[[RoundState, int], int]


def _void_of_queen(state: RoundState) -> int:
    """The suits (but hearts) that the seat holding the Q♠ no longer holds, as a mask: a lead it discards on."""
    holder = next((hand for hand in state.hands if hand & QUEEN), 0)
    return sum(SUIT_MASKS[k] for k in range(4) if holder and not holder & SUIT_MASKS[k]) & ~HEARTS


def _dump(lead: int | None) -> Wish:
    """Play the Q♠ and the highest heart whenever they are legal; lead ``lead`` (spades or hearts; None: a suit
    the Q♠'s holder is void in) low."""
    def wish(state: RoundState, legal: int) -> int:
        if not state.trick:
            led = _void_of_queen(state) if lead is None else lead
            return lowest(legal & led) if legal & led else lowest(legal & ~POINT_CARDS or legal)
        if legal & QUEEN:
            return highest(legal & QUEEN)
        return highest(legal & HEARTS) if legal & HEARTS else -1
    return wish


def _wishes(style: str, rules: Rules, seat: int) -> dict[int, Wish]:
    n = rules.players
    others = [s for s in range(n) if s != seat]
    if style == "shoot":
        return {seat: _leader}
    if style == "feed":
        return {seat: _leader, **{s: _prefer(QUEEN, HEARTS, high=True) for s in others}}
    if style == "duck":
        return {seat: lambda state, legal: lowest(legal), **{s: lambda state, legal: highest(legal) for s in others}}
    return {s: _dump({"dump-spades": SPADES, "dump-hearts": HEARTS}.get(style)) for s in range(n)}


# The tries, in order: (pass style, play style, which seat: the strongest, the one with most hearts, the weakest).
_TRIES = (("feed", "shoot", "strong"), ("feed", "feed", "strong"), ("hearts", "shoot", "hearts"),
          ("void", "dump-spades", "strong"), ("void", "dump-void", "strong"), ("void", "dump-hearts", "strong"),
          ("void", "duck", "weak"),
          ("hearts", "feed", "hearts"), ("void", "shoot", "strong"))


def _seats(hands: tuple[int, ...]) -> dict[str, int]:
    strength = [sum(c % 13 for c in bits_of(hand)) for hand in hands]
    n = len(hands)
    return {"strong": max(range(n), key=lambda s: strength[s]), "weak": min(range(n), key=lambda s: strength[s]),
            "hearts": max(range(n), key=lambda s: ((hands[s] & HEARTS).bit_count(), strength[s]))}


def _tries(rules: Rules, dealt: tuple[int, ...], direction: str) -> Iterator[tuple[tuple[int, ...] | None, RoundPlan]]:
    """Each try's passes (None without a pass) and the round it plays on the reference."""
    offset = rules.pass_offset(direction)
    seats = _seats(dealt)
    tried: set[tuple[tuple[int, ...], str, int]] = set()
    for pass_style, play_style, which in _TRIES:
        seat = seats[which]
        passes = _passes(pass_style, rules, dealt, seat, offset) if offset else None
        hands = tuple(exchange(dealt, passes, offset)) if passes is not None else dealt
        if (hands, play_style, seat) in tried:
            continue
        tried.add((hands, play_style, seat))
        wishes = _wishes(play_style, rules, seat)
        plan = _played(rules, list(hands), lambda state: _wish(state, wishes))
        if plan is not None:
            yield passes, plan


class Ending(NamedTuple):
    """Where the game stands when the round is dealt, and the end situation it is steered toward."""

    totals: tuple[int, ...]
    number: int        # the round's number
    aim: str           # an end situation (END-THRESHOLD, WIN-TIE)


def _end_score(rules: Rules, ending: Ending, scores: tuple[int, ...]) -> tuple[int, int]:
    """Whether the round's scores end the game in the situation aimed at; else how near they bring the totals."""
    after = tuple(t + s for t, s in zip(ending.totals, scores))
    over = is_game_over(after, ending.number, rules)
    if ending.aim in end_situations(ending.totals, after, over, rules):
        return 1, 0
    return 0, -distance(rules, ending.aim, after)


def steered_round(rules: Rules, dealt: tuple[int, ...], direction: str, aims: tuple[str, ...],
                  wanted: frozenset[str] = frozenset(), ending: Ending | None = None,
                  ) -> tuple[tuple[int, ...] | None, RoundPlan] | None:
    """The passes and plays, from the hands ``dealt``, whose round reaches the most of ``aims`` (then of
    ``wanted``); with an ``ending``, first the round whose scores end the game as it aims, then the one that
    brings the totals nearest to it. None when no try plays a whole round."""
    best, best_score = None, (-1, -1, 0, -1)
    for passes, plan in _tries(rules, dealt, direction):
        found, scores = outcome(rules, plan)
        end, near = _end_score(rules, ending, scores) if ending is not None else (0, 0)
        score = (end, len(found & set(aims)), len(found & wanted), near)
        if score > best_score:
            best, best_score = (passes, plan), score
        if ending is None and aims and score[1] == len(aims):
            break
    return best

