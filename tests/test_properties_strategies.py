"""The public strategies of properties: valid values, and failures that shrink to small, readable cases.

DEAL-HANDS: deals hold every card in play once, in equal hands; DECK-REMOVED: no removed card appears.
"""

import pytest
from hypothesis import find, given, settings
from hypothesis import strategies as st

from hearts_ref import Card, CardSet, Rules
from hearts_ref.cardset import QUEEN
from properties import GamePlan, cards, deals, games, hands, rules, states
from properties.catalogue import expected_unsound


@settings(max_examples=40)
@given(data=st.data(), chosen=rules())
def test_deal_hands_from_the_deals_strategy_are_a_valid_deal(data, chosen):
    deal = data.draw(deals(rules=chosen))
    assert len(deal) == chosen.players and [len(hand) for hand in deal] == list(chosen.dealt_sizes())   # DEAL-HANDS
    union = 0
    for hand in deal:
        assert not union & hand.mask
        union |= hand.mask
    assert union == chosen.deck_mask


def test_minimal_examples_are_readable():
    assert str(find(hands(min_size=3), lambda hand: True)) == "2C 3C 4C"
    assert find(cards(rules=Rules(players=3, pass_cycle="left-right-none")), lambda c: True) == Card.parse("3C")
    with_queen = find(hands(), lambda hand: QUEEN & hand.mask)
    assert len(with_queen) <= 3 and str(with_queen).endswith("QS")   # the queen, and at most the lowest cards
    assert find(rules(), lambda r: True) == Rules()
    assert find(games(), lambda plan: True) == GamePlan(Rules())
    first = find(deals(), lambda deal: True)
    assert [str(hand).split()[0] for hand in first] == ["2C", "2D", "2S", "2H"]


def test_a_failure_shrinks_to_a_small_state():
    """A state after the first trick shrinks to the first trick just played, in a deal in suit order."""
    state = find(states(rules=Rules()), lambda s: len(s.tricks) >= 1)
    assert len(state.tricks) == 1 and not state.trick and state.tricks[0].cards[0] == Card.parse("2C")


@settings(max_examples=200)
@given(sound=rules(sound=True), unsound=rules(sound=False))
def test_rules_strategy_sound_and_unsound(sound, unsound):
    assert not expected_unsound(sound) and expected_unsound(unsound)


def test_invalid_strategy_arguments_say_what_is_wrong():
    with pytest.raises(ValueError, match="max_size=13 < min_size=14"):
        hands(min_size=14)
    with pytest.raises(ValueError, match="unknown variant parameter"):
        rules(jack_bonus=True)


@settings(max_examples=30)
@given(state=states())
def test_states_are_reachable_rounds(state):
    held = sum(state.hands) | sum(state.taken) | sum(1 << c for c in state.trick)
    assert held == state.rules.deck_mask
    if state.to_play >= 0:
        assert CardSet.from_mask(state.legal) <= state.hand(state.to_play)
