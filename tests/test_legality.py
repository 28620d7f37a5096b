"""LEAD-*, FOLLOW-*, FIRST-*: the legality rules, on the pure functions and through a round."""

import pytest

from hearts_ref import Card, CardSet, IllegalPlayError, Rules, complete_deal, start_round
from hearts_ref.legality import Context, legal_plays, rejecting_rule

CLUBS, DIAMONDS, SPADES, HEARTS = range(4)
LEAD = Context(True, None, False, False)
LEAD_BROKEN = Context(True, None, False, True)


def legal(hand: str, ctx: Context, rules: Rules = Rules()) -> str:
    return str(CardSet.from_mask(legal_plays(CardSet.parse(hand).mask, ctx, rules)))


def reject(hand: str, ctx: Context, card: str, rules: Rules = Rules()):
    return rejecting_rule(CardSet.parse(hand).mask, ctx, rules, 1 << Card.parse(card).index)


# LEAD-OPEN ---------------------------------------------------------------------------

def test_lead_open_two_of_clubs_is_the_only_lead():
    assert legal("2C 5C AS QS 3H", Context(True, None, True, False)) == "2C"
    assert reject("2C 5C AS", Context(True, None, True, False), "5C") == "LEAD-OPEN"


def test_lead_open_any_club_variant():
    rules = Rules(can_lead_any_club=True)
    assert legal("2C 5C AS QS 3H", Context(True, None, True, False), rules) == "2C 5C"


def test_lead_open_holder_of_lowest_club_leads_after_deal_and_pass():
    hands = complete_deal(Rules(), {2: "2C"})
    state = start_round(Rules(), hands)
    assert state.to_move == 2 and str(state.legal_plays()) == "2C"
    rules3 = Rules(players=3, pass_cycle="left-right-none")
    state3 = start_round(rules3, complete_deal(rules3, {1: "3C"}))
    assert state3.to_move == 1 and str(state3.legal_plays()) == "3C"


def test_invalid_lead_open_other_card_message():
    state = start_round(Rules(), complete_deal(Rules(), {0: "2C 3C"}))
    with pytest.raises(IllegalPlayError) as error:
        state.play(Card.parse("3C"))
    assert error.value.rule_id == "LEAD-OPEN"
    assert "2♣" in str(error.value) and "3♣" in str(error.value)


# LEAD-WINNER and LEAD-HEARTS -----------------------------------------------------------

def test_lead_hearts_not_before_broken():
    assert legal("3C QS 4H AH", LEAD) == "3C QS"
    assert reject("3C QS 4H AH", LEAD, "4H") == "LEAD-HEARTS"


def test_lead_hearts_allowed_once_broken():
    assert legal("3C QS 4H AH", LEAD_BROKEN) == "3C QS 4H AH"


def test_lead_hearts_leader_with_only_hearts_may_lead_them():
    assert legal("4H 9H AH", LEAD) == "4H 9H AH"


def test_lead_hearts_only_hearts_and_queen_must_lead_queen():
    """Seed 000's FAQ: with only hearts and Q♠ left and hearts unbroken, open with the queen."""
    assert legal("QS 4H AH", LEAD) == "QS"
    assert reject("QS 4H AH", LEAD, "AH") == "LEAD-HEARTS"


def test_lead_hearts_instead_of_queen_variant():
    rules = Rules(can_lead_hearts_instead_of_qs=True)
    assert legal("QS 4H AH", LEAD, rules) == "QS 4H AH"
    assert legal("2S QS 4H AH", LEAD, rules) == "2S QS"


def test_lead_hearts_must_break_off():
    assert legal("3C 4H", LEAD, Rules(must_break_hearts=False)) == "3C 4H"


def test_lead_queen_may_be_led_like_any_spade_after_first_trick():
    assert "QS" in legal("2S QS 5D", LEAD)


# FOLLOW-SUIT, FOLLOW-VOID --------------------------------------------------------------

def test_follow_suit_any_rank_of_the_suit_led():
    assert legal("3C JC QS 4H", Context(False, CLUBS, False, False)) == "3C JC"


def test_invalid_follow_suit_names_rule_and_hand():
    assert reject("3C JC QS 4H", Context(False, CLUBS, False, False), "QS") == "FOLLOW-SUIT"


def test_follow_void_any_card_after_first_trick():
    assert legal("2D QS 4H", Context(False, CLUBS, False, False)) == "2D QS 4H"


def test_follow_void_seed003_literal_forbids_heart_discards_until_broken():
    rules = Rules.preset("seed003")
    assert legal("2D QS 4H", Context(False, CLUBS, False, False), rules) == "2D QS"
    assert reject("2D QS 4H", Context(False, CLUBS, False, False), "4H", rules) == "FOLLOW-VOID"
    assert legal("4H 5H", Context(False, CLUBS, False, False), rules) == ""   # the deadlock 003 allows
    assert legal("3C 4H", LEAD, rules) == "3C 4H"                            # but hearts may be led


# FIRST-NO-POINTS, FIRST-EXCEPTION ------------------------------------------------------

FIRST_FOLLOW = Context(False, CLUBS, True, False)


def test_first_no_points_void_in_clubs_must_discard_safe_card():
    assert legal("2D QS 4H", FIRST_FOLLOW) == "2D"
    assert reject("2D QS 4H", FIRST_FOLLOW, "QS") == "FIRST-NO-POINTS"
    assert reject("2D QS 4H", FIRST_FOLLOW, "4H") == "FIRST-NO-POINTS"


def test_first_no_points_jack_of_diamonds_is_not_a_point_card():
    assert legal("JD QS 4H", FIRST_FOLLOW, Rules(jd_bonus=True)) == "JD"


def test_first_exception_only_point_cards_may_play_one():
    assert legal("QS 2H 3H", FIRST_FOLLOW) == "QS 2H 3H"
    assert legal("2H 3H", FIRST_FOLLOW) == "2H 3H"


def test_first_no_points_forbidden_variant_has_no_exception():
    rules = Rules.preset("seed001")
    assert legal("QS 2H 3H", FIRST_FOLLOW, rules) == ""


def test_first_no_points_allowed_variant():
    assert legal("2D QS 4H", FIRST_FOLLOW, Rules(first_trick_points="allowed")) == "2D QS 4H"


def test_invalid_first_no_points_through_a_round():
    rules = Rules()
    hands = complete_deal(rules, {0: "2C", 1: "2D 3D 4D 5D 6D 7D 8D 9D 10D JD QD KD QS"})
    state = start_round(rules, hands).play(Card.parse("2C"))
    assert state.to_move == 1 and str(state.legal_plays()) == "2D 3D 4D 5D 6D 7D 8D 9D 10D JD QD KD"
    with pytest.raises(IllegalPlayError) as error:
        state.play(Card.parse("QS"))
    assert error.value.rule_id == "FIRST-NO-POINTS" and "Q♠" in str(error.value)


def test_invalid_trick_order_card_not_in_hand():
    state = start_round(Rules(), complete_deal(Rules(), {0: "2C"}))
    with pytest.raises(IllegalPlayError) as error:
        state.play(Card.parse("AH"))
    assert error.value.rule_id == "TRICK-ORDER"
