"""Hypothesis strategies for Hearts: cards, hands, deals, rules, round states and whole games.

Every strategy shrinks toward something small and readable: the lowest cards, the
default rules, a deal in suit order, the lowest legal card at every choice.

>>> from hypothesis import find
>>> str(find(hands(min_size=2), lambda hand: True))
'2C 3C'
>>> find(rules(), lambda r: True) == Rules()
True
>>> [str(hand) for hand in find(deals(), lambda d: True)][0]
'2C 3C 4C 5C 6C 7C 8C 9C 10C JC QC KC AC'
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from hypothesis import strategies as st

from hearts_ref.cards import CARDS, Card
from hearts_ref.cardset import CardSet, bits_of
from hearts_ref.deals import deal
from hearts_ref.round import RoundState, start_round
from hearts_ref.variants import PARAMETERS, Rules
from properties.catalogue import ROUND_PARAMETERS, expected_unsound, rules_for

__all__ = ["cards", "hands", "deals", "rules", "states", "games", "GamePlan"]

# Game-end values worth drawing, the default first (so they shrink to it): short games keep tests fast.
_GAME_END = {"end_threshold": (100, 26, 50), "end_comparison": (">=", ">"), "max_rounds": (0, 1),
             "ties": ("shared", "play-on")}


def _deck(rules: Rules | None) -> list[Card]:
    return [CARDS[i] for i in bits_of((rules or Rules()).deck_mask)]


def cards(*, rules: Rules | None = None) -> st.SearchStrategy[Card]:
    """A card in play under ``rules`` (default: all 52); shrinks toward the lowest, 2♣."""
    return st.sampled_from(_deck(rules))


def hands(*, rules: Rules | None = None, min_size: int = 0, max_size: int | None = None) -> st.SearchStrategy[CardSet]:
    """A set of ``min_size`` to ``max_size`` cards in play (default: up to a hand); shrinks toward fewer, lower cards."""
    size = (rules or Rules()).hand_size if max_size is None else max_size
    if min_size > size:
        raise ValueError(f"Cannot have max_size={size} < min_size={min_size}")
    return st.sets(cards(rules=rules), min_size=min_size, max_size=size).map(CardSet)


def deals(*, rules: Rules | None = None) -> st.SearchStrategy[tuple[CardSet, ...]]:
    """A deal of every card in play into equal hands (with uneven hands, seat 1's one card larger), seat by seat.

    Shrinks toward the cards in order: seat 0 the lowest (all the clubs with four players), seat 1 the next.
    """
    rules = rules or Rules()
    sizes = rules.dealt_sizes()
    starts = [sum(sizes[:seat]) for seat in range(rules.players + 1)]
    return st.permutations(_deck(rules)).map(
        lambda order: tuple(CardSet(order[starts[seat]:starts[seat + 1]]) for seat in range(rules.players)))


def _choices(name: str) -> tuple[Any, ...]:
    parameter = next(p for p in PARAMETERS if p.name == name)
    values = _GAME_END.get(name) or ((False, True) if parameter.values is bool else tuple(parameter.values))
    return (parameter.default,) + tuple(v for v in values if v != parameter.default)


@st.composite
def _rules(draw: Any, sound: bool | None, fixed: dict[str, Any]) -> Rules:
    values = {name: fixed[name] if name in fixed else draw(st.sampled_from(_choices(name)))
              for name in (*ROUND_PARAMETERS, "pass_cards", *_GAME_END)}
    if values["players"] % 2:
        values["pass_cycle"] = "left-right-none"
    if values["players"] != 3:   # uneven hands are proved with 3 players (4: the same game; 5 or 6: refused)
        values["even_out"] = "remove"
    if values["hearts_restriction"] == "discard" and values["hearts_broken_by"] == "discard":
        values["hearts_broken_by"] = "lead"
    chosen = rules_for(values)
    if sound is True and expected_unsound(chosen):
        values.update(hearts_restriction="lead", first_trick_points="exception")
        chosen = rules_for(values)
    elif sound is False and not expected_unsound(chosen):
        values.update(first_trick_points="forbidden", players=max(values["players"], 4), even_out="remove")
        chosen = rules_for(values)
    return chosen


def rules(*, sound: bool | None = None, **fixed: Any) -> st.SearchStrategy[Rules]:
    """Rules from the registry: every round-level parameter and the game-end ones drawn; shrinks toward the defaults.

    ``sound=True`` gives only rules that cannot deadlock (``sound=False`` only rules that
    can, see :func:`properties.catalogue.expected_unsound`); keyword arguments fix values.
    """
    unknown = set(fixed) - {p.name for p in PARAMETERS}
    if unknown:
        raise ValueError(f"unknown variant parameter(s) {sorted(unknown)}; known: {[p.name for p in PARAMETERS]}")
    return _rules(sound, fixed)


@st.composite
def _states(draw: Any, given: Rules | None) -> RoundState:
    chosen = given if given is not None else draw(rules())
    state = start_round(chosen, draw(deals(rules=chosen)), direction="none")
    count = draw(st.integers(0, chosen.players * chosen.hand_size))
    for choice in draw(st.lists(st.integers(0, 12), min_size=count, max_size=count)):
        if state.phase != "play" or not state.legal:
            break
        legal = list(bits_of(state.legal))
        state = state.play(CARDS[legal[choice % len(legal)]])
    return state


def states(*, rules: Rules | None = None) -> st.SearchStrategy[RoundState]:
    """A round of the reference engine in progress: a deal (no pass), then legal plays, each an index into the legal set.

    Shrinks toward the deal itself and the lowest legal card at every play. Under rules
    that can deadlock the round may stop where the player to move has no legal play.
    """
    return _states(rules)


@dataclass(frozen=True)
class GamePlan:
    """A whole game to play on any engine: the rules, each round's deal seed, and every choice made.

    Round ``r`` (from 0) is dealt by ``hearts_ref.deals.deal`` from the seed
    ``deal_seeds[r % len] + r`` (``r`` when empty), so rounds differ, by its dealer (DEAL-DEALER: seat
    ``r`` mod n, from whose left the cards are dealt); the ``i``-th choice
    (a pass or a play) is ``choices[i % len]`` (0 when empty), taken modulo the number of
    options: 0 passes the three lowest cards and plays the lowest legal card.
    """

    rules: Rules
    deal_seeds: tuple[int, ...] = ()
    choices: tuple[int, ...] = ()

    def deal(self, round_index: int) -> tuple[CardSet, ...]:
        base = self.deal_seeds[round_index % len(self.deal_seeds)] if self.deal_seeds else 0
        return deal(self.rules, seed=base + round_index, dealer=round_index % self.rules.players)

    def choice(self, index: int) -> int:
        return self.choices[index % len(self.choices)] if self.choices else 0


def games(*, rules: Rules | st.SearchStrategy[Rules] | None = None) -> st.SearchStrategy[GamePlan]:
    """A :class:`GamePlan`: rules (default: sound rules from :func:`rules`), deal seeds and choices.

    Shrinks toward the default rules, deal seed 0 and always the lowest card.
    """
    chosen = rules if isinstance(rules, st.SearchStrategy) else (
        st.just(rules) if rules is not None else globals()["rules"](sound=True))
    return st.builds(GamePlan, chosen, st.lists(st.integers(0, 2**32 - 1), max_size=8).map(tuple),
                     st.lists(st.integers(0, 51), max_size=64).map(tuple))
