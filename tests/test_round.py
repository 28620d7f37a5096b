"""DEAL-*, PASS-*, TRICK-*, BREAK-*: a round from the deal to the last trick."""

import pytest

from hearts_ref import (
    Card, CardSet, DeadlockError, Game, HeartsError, IllegalPassError, InvalidCardError, Rules,
    complete_deal, deal, start_round,
)
from hearts_ref.legality import Context, breaks_hearts


def test_deal_hands_same_seed_same_deal_and_all_cards_once():
    rules = Rules()
    a, b = deal(rules, seed=11), deal(rules, seed=11)
    assert a == b and a != deal(rules, seed=12)
    assert sum((h.mask for h in a), 0) == rules.deck_mask and all(len(h) == 13 for h in a)


@pytest.mark.parametrize("players", [3, 5, 6])
def test_deal_hands_other_player_counts_exclude_removed_cards(players):
    rules = Rules(players=players, pass_cycle="left-right-none")
    hands = deal(rules, seed=1)
    union = 0
    for h in hands:
        union |= h.mask
        assert len(h) == rules.hand_size
    assert union == rules.deck_mask and not any(c in h for c in rules.removed_cards for h in hands)


def test_invalid_deal_hands_wrong_size_duplicate_and_removed_card():
    rules = Rules()
    good = complete_deal(rules, {})
    with pytest.raises(HeartsError, match="DEAL-HANDS: 3 hands"):
        start_round(rules, good[:3])
    dup = (good[0], good[0], good[2], good[3])
    with pytest.raises(InvalidCardError, match="dealt to another seat"):
        start_round(rules, dup)
    short = (good[0] - CardSet.parse(str(next(iter(good[0])))),) + good[1:]
    with pytest.raises(HeartsError, match="holds 12 cards"):
        start_round(rules, short)
    rules3 = Rules(players=3, pass_cycle="left-right-none")
    with pytest.raises(InvalidCardError, match="DECK-REMOVED"):
        start_round(rules3, (CardSet.parse("2C 3C 4C 5C 6C 7C 8C 9C 10C JC QC KC AC 2D 3D 4D 5D"),
                             CardSet.parse("6D 7D 8D 9D 10D JD QD KD AD 2S 3S 4S 5S 6S 7S 8S 9S"),
                             CardSet.parse("10S JS QS KS AS 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH")))


def test_deal_dealer_rotates_clockwise():
    game = Game.new(Rules(), seed=5)
    assert game.dealer == 0
    from hearts_ref.simulate import play_round_choices
    import random
    game = play_round_choices(game, random.Random(1))
    assert game.round_number == 2 and game.dealer == 1 and game.results[0].dealer == 0


def test_score_total_end_round_scores_as_the_last_play_does():
    import random
    from hearts_ref.cards import CARDS
    from hearts_ref.simulate import random_card, random_pass
    game, rng = Game.new(Rules(), seed=9), random.Random(3)
    while game.round.passing:
        seat = game.round.to_move
        game = game.choose_pass(seat, random_pass(game.round, seat, rng))
    state = game.round
    while not (after := state.play(random_card(state, rng))).is_over:
        with pytest.raises(HeartsError, match="SCORE-TOTAL"):   # a round still in play is not scored
            game.end_round(after)
        state = after
    played = game._replace(round=state).play(CARDS[after.tricks[-1].indices[-1]])
    assert game.end_round(after) == played and played.round_number == 2 and played.results[-1].score == after.score()


def test_pass_simultaneous_nobody_receives_until_all_chose():
    rules = Rules()
    hands = complete_deal(rules, {})
    state = start_round(rules, hands, direction="left")
    assert state.phase == "pass" and state.legal_plays() == CardSet()
    chosen = [CardSet(list(h)[:3]) for h in hands]
    for seat in range(3):
        state = state.choose_pass(seat, chosen[seat])
        assert state.hand(1) == hands[1]   # seat 1 has received nothing yet
    state = state.choose_pass(3, chosen[3])
    assert state.phase == "play"
    for seat in range(4):   # PASS-CYCLE left: each seat receives from the seat on its right
        assert state.hand(seat) == (hands[seat] - chosen[seat]) | chosen[(seat - 1) % 4]


@pytest.mark.parametrize("direction, giver_offset", [("left", -1), ("right", 1), ("across", 2)])
def test_pass_cycle_directions(direction, giver_offset):
    rules = Rules()
    hands = complete_deal(rules, {})
    state = start_round(rules, hands, direction=direction)
    chosen = [CardSet(list(h)[-3:]) for h in hands]
    for seat in range(4):
        state = state.choose_pass(seat, chosen[seat])
    for seat in range(4):
        assert chosen[(seat + giver_offset) % 4] <= state.hand(seat)


def test_pass_count_any_card_even_two_of_clubs_and_queen():
    rules = Rules()
    hands = complete_deal(rules, {0: "2C QS AH"})
    state = start_round(rules, hands, direction="left")
    state = state.choose_pass(0, CardSet.parse("2C QS AH"))
    for seat in (1, 2, 3):
        state = state.choose_pass(seat, CardSet(list(hands[seat])[:3]))
    assert CardSet.parse("2C QS AH") <= state.hand(1) and state.to_move == 1


@pytest.mark.parametrize("cards, rule", [("2C 3C", "PASS-COUNT"), ("2C 3C 4C 5C", "PASS-COUNT"),
                                         ("2C 3C AH", "PASS-COUNT")])
def test_invalid_pass_count(cards, rule):
    rules = Rules()
    state = start_round(rules, complete_deal(rules, {0: "2C 3C 4C 5C"}), direction="left")
    with pytest.raises(IllegalPassError) as error:
        state.choose_pass(0, CardSet.parse(cards))
    assert error.value.rule_id == rule


def test_invalid_pass_twice_and_in_no_pass_round():
    rules = Rules()
    hands = complete_deal(rules, {0: "2C 3C 4C 5C"})
    state = start_round(rules, hands, direction="left").choose_pass(0, CardSet.parse("2C 3C 4C"))
    with pytest.raises(IllegalPassError, match="PASS-SIMULTANEOUS"):
        state.choose_pass(0, CardSet.parse("5C 6C 7C"))
    with pytest.raises(IllegalPassError, match="PASS-CYCLE"):
        start_round(rules, hands, direction="none").choose_pass(0, CardSet.parse("2C 3C 4C"))


def test_trick_winner_highest_of_suit_led_in_trick_order():
    rules = Rules()
    hands = complete_deal(rules, {0: "2C AS", 1: "KC", 2: "AD", 3: "5C"})
    state = start_round(rules, hands)
    for seat, card in [(0, "2C"), (1, "KC"), (2, "AD"), (3, "5C")]:
        assert state.to_move == seat
        state = state.play(Card.parse(card))
    trick = state.tricks[0]
    assert trick.winner == 1 and state.to_move == 1   # LEAD-WINNER; AD off-suit does not win
    assert [str(c) for c in trick.cards] == ["2C", "KC", "AD", "5C"]


@pytest.mark.parametrize("rules, ctx, card, broken", [
    (Rules(), Context(False, 1, False, False), "4H", True),            # discarded on diamonds
    (Rules(), Context(True, None, False, False), "4H", False),         # led under the only-hearts exception
    (Rules(), Context(False, 1, False, False), "QS", False),           # BREAK-QUEEN: does not break
    (Rules(qs_breaks_hearts=True), Context(False, 1, False, False), "QS", True),
    (Rules.preset("seed004"), Context(True, None, False, False), "4H", True),    # any heart played
    (Rules.preset("seed003"), Context(True, None, False, False), "4H", True),    # a heart led
    (Rules.preset("seed003"), Context(False, 1, False, False), "4H", False),
])
def test_break_discard_and_break_queen(rules, ctx, card, broken):
    assert breaks_hearts(1 << Card.parse(card).index, ctx, rules) is broken


def test_break_discard_worked_example_seed000(worked_examples):
    """Seed 000: not the first trick, ♦7 (Du), ♦K (Nora), ♥4 (Emil), ♠Q (Sara): Nora takes 14, hearts broken."""
    example = worked_examples["tricks"][0]
    rules = Rules()
    hands = complete_deal(rules, {0: "AC 7D", 1: "2C KD",
                                  2: "3C 4H 2S 3S 4S 5S 6S 7S 8S 9S 10S JS KS",
                                  3: "4C QS AS 2H 3H 5H 6H 7H 8H 9H 10H JH QH"})
    state = start_round(rules, hands)
    for card in ["2C", "3C", "4C", "AC"]:   # Du wins the first trick with the ace and leads
        state = state.play(Card.parse(card))
    assert state.to_move == 0 and not state.hearts_broken
    for card in example["cards"]:
        state = state.play(Card.parse(card))
    assert state.tricks[-1].winner == example["winner"] == 1
    assert state.points_taken()[1] == example["points"] == 14
    assert state.hearts_broken is example["hearts_broken"] is True


def test_deadlock_error_names_rule_under_unsound_variant():
    rules = Rules.preset("seed001")
    hands = complete_deal(rules, {0: "2C", 1: "QS 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH"})
    state = start_round(rules, hands).play(Card.parse("2C"))
    assert state.legal_plays() == CardSet()
    with pytest.raises(DeadlockError) as error:
        state.play(Card.parse("QS"))
    assert error.value.rule_id == "FIRST-NO-POINTS"


def test_trick_winner_worked_example_seed004(worked_examples):
    """Seed 004: a trick after the first, ♣8 ♣Q ♣3 ♥5: one point to the ♣Q player, hearts broken."""
    example = worked_examples["tricks"][1]
    rules = Rules()
    # Seat 0 wins the first trick with the ♣A, then leads the example's ♣8; seat 3 is void in clubs.
    hands = complete_deal(rules, {0: "AC 8C", 1: "2C QC", 2: "3C 4C", 3: "5C 5H 2S 3S 4S 5S 6S 7S 8S 9S 10S JS KS"})
    state = start_round(rules, hands)
    for card in ["2C", "4C", "5C", "AC"]:
        state = state.play(Card.parse(card))
    assert state.to_move == 0
    for card in example["cards"]:
        state = state.play(Card.parse(card))
    assert state.tricks[-1].winner == example["winner"] == 1
    assert state.points_taken()[1] == example["points"] == 1 and state.hearts_broken
