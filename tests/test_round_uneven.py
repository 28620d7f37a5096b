"""Seed 003's uneven deal for three players (even_out="uneven"): DEAL-HANDS, TRICK-ORDER, FIRST-TWO-CARDS,
TRICK-WINNER with two cards from one seat; 5 or 6 players take two decks (tests/test_round_decks.py)."""

import random
import subprocess
import sys

import pytest

from hearts_ref import Card, CardSet, Game, HeartsError, Rules, complete_deal, deal, start_round
from hearts_ref.errors import IllegalPlayError, RulesError
from hearts_ref.simulate import play_round_choices, random_game
from tests.test_variants import ROOT

THREE = Rules(players=3, pass_cycle="left-right-none", even_out="uneven")
HEARTS = " ".join(f"{rank}H" for rank in "2 3 4 5 6 7 8 9 10 J Q K A".split())


def test_deal_hands_a_round_gives_the_extra_card_to_its_dealers_left_or_is_refused():
    """DEAL-HANDS with DEAL-DEALER: round 2 is dealt by seat 1, so seat 2 holds the 18th card; a round 2 dealt as
    round 1 is (seat 1 with 18) is refused, naming the seats; the runner's scripts decode each round so."""
    from hearts_ref.conformance.script import ListSource, deal_code, deal_from

    game = play_round_choices(Game.new(THREE).deal_round(deal(THREE, seed=8)), random.Random(1))
    assert len(game.results) == 1 and game.round is None
    second = deal(THREE, seed=9, dealer=1)
    assert [len(hand) for hand in second] == [17, 17, 18]
    assert len(game.deal_round(second).round.hand(2)) == 18
    refused = r"DEAL-HANDS: seat 1 holds 18 cards, not 17: dealt from dealer 1.s left, the extra card goes to seat 2$"
    with pytest.raises(HeartsError, match=refused):
        game.deal_round(deal(THREE, seed=9, dealer=0))
    for number in (1, 2, 3):
        hands = deal(THREE, seed=number, dealer=(number - 1) % 3)
        assert deal_from(THREE, ListSource(deal_code(THREE, hands)), number) == hands


def test_a_deal_lacking_a_card_is_named_so_and_one_holding_a_removed_card_so():
    hands = [hand.mask for hand in deal(THREE, seed=1)]   # seat 1 holds 18: without one, every size is allowed
    card = hands[1] & -hands[1]
    with pytest.raises(HeartsError, match=f"DEAL-HANDS: no hand holds {CardSet.from_mask(card)}"):
        start_round(THREE, [CardSet.from_mask(h & ~card) for h in hands])
    five = Rules(players=5, pass_cycle="left-right-none")
    hands = [hand.mask for hand in deal(five, seed=1)]
    card = hands[0] & -hands[0]
    removed = 1 << Card.parse("2D").index
    with pytest.raises(HeartsError, match="DECK-REMOVED: the hands hold 2D, removed with 5 players"):
        start_round(five, [CardSet.from_mask(hands[0] & ~card | removed)] + [CardSet.from_mask(h) for h in hands[1:]])


def opened(hands: dict[int, str]):
    """The state after the 2C is led, from hands completed lowest card first (seat 1 has the extra card)."""
    state = start_round(THREE, complete_deal(THREE, hands), direction="none")
    assert state.to_move == 0 and str(state.legal_plays()) == "2C"
    return state.play(Card.parse("2C"))


def plays(state, *cards: str):
    for card in cards:
        state = state.play(Card.parse(card))
    return state


def test_deal_hands_uneven_three_players_extra_card_to_the_dealers_left():
    assert THREE.removed_cards == () and THREE.hand_size == 17 and THREE.extra_cards == 1
    for dealer in range(3):
        hands = deal(THREE, seed=5, dealer=dealer)
        assert [len(hand) for hand in hands] == list(THREE.dealt_sizes(dealer))
        assert len(hands[(dealer + 1) % 3]) == 18
        assert sum(hand.mask for hand in hands) == (1 << 52) - 1
    game = Game.new(THREE, seed=2)
    assert game.dealer == 0 and len(game.round.hand(1)) == 18 and len(game.round.hand(0)) == 17


def test_invalid_deal_hands_uneven_sizes():
    good = complete_deal(THREE, {})
    with pytest.raises(HeartsError, match="DEAL-HANDS: seat 2 holds 16 cards, not 17 or one more"):
        moved = CardSet.from_mask(1 << next(iter(good[2])).index)
        start_round(THREE, (good[0] | moved, good[1], good[2] - moved))
    with pytest.raises(HeartsError, match="DEAL-HANDS: seat 1 holds 19 cards"):
        moved = CardSet.from_mask(1 << next(iter(good[2])).index)
        start_round(THREE, (good[0], good[1] | moved, good[2] - moved))
    with pytest.raises(HeartsError, match="holds 18 cards, not 17$"):   # without uneven hands, no extra card
        start_round(Rules(players=3, pass_cycle="left-right-none"), good)


def test_trick_order_extra_card_seat_plays_two_clubs_then_the_next_seat():
    state = opened({0: "2C 3C 4C 5C 6C 7C 9C 10C JC", 1: "8C QC", 2: "KC AC"})
    assert state.to_move == 1 and str(state.legal_plays()) == "8C QC"
    state = state.play(Card.parse("8C"))
    assert state.to_move == 1 and str(state.legal_plays()) == "QC"   # FIRST-TWO-CARDS: the other club
    state = state.play(Card.parse("QC"))
    assert state.to_move == 2 and str(state.legal_plays()) == "KC AC"
    state = state.play(Card.parse("KC"))
    trick = state.tricks[0]
    assert [str(c) for c in trick.cards] == ["2C", "8C", "QC", "KC"] and trick.seats == (0, 1, 1, 2)
    assert trick.winner == 2 and state.to_move == 2 and [len(state.hand(s)) for s in range(3)] == [16, 16, 16]
    assert [trick.seat_of(k, 3) for k in range(4)] == [0, 1, 1, 2]
    state = plays(state, "AC", "9C", "10D")      # TRICK-ORDER: one card each from the second trick on
    assert len(state.tricks) == 2 and state.tricks[1].seats is None and len(state.tricks[1].cards) == 3


def test_trick_winner_either_of_the_two_cards_wins():
    state = plays(opened({0: "2C 3C 4C 5C 6C 7C 8C 9C 10C", 1: "KC AC", 2: "JC QC"}), "KC", "AC", "QC")
    assert state.tricks[0].winner == 1 and state.to_move == 1


def test_first_two_cards_void_player_discards_two_of_one_suit_within_first_no_points():
    hands = {0: "2C 3C 4C 5C 6C 7C 8C", 1: "5D KD AD 8S QS " + HEARTS}
    state = opened(hands)
    assert state.to_move == 1 and str(state.legal_plays()) == "5D KD AD 8S"   # FIRST-NO-POINTS: no QS, no heart
    assert str(state.play(Card.parse("5D")).legal_plays()) == "KD AD"
    after_spade = state.play(Card.parse("8S"))
    assert after_spade.to_move == 1 and str(after_spade.legal_plays()) == "5D KD AD"   # the QS is no choice
    with pytest.raises(IllegalPlayError, match="FIRST-TWO-CARDS: the second card must be of the first card's suit, ♦"):
        state.play(Card.parse("5D")).play(Card.parse("8S"))


def test_first_two_cards_one_club_follows_then_any_allowed_card():
    state = opened({0: "2C 3C 4C 5C 6C 7C 8C", 1: "9C 5D KD AD 8S QS 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH"})
    assert str(state.legal_plays()) == "9C"                      # FOLLOW-SUIT comes first
    with pytest.raises(IllegalPlayError, match="FOLLOW-SUIT"):
        state.play(Card.parse("5D"))
    state = state.play(Card.parse("9C"))
    assert state.to_move == 1 and str(state.legal_plays()) == "5D KD AD 8S"


def test_first_two_cards_leader_with_the_extra_card_plays_its_second_card_at_once():
    rules = THREE
    hands = complete_deal(rules, {1: "2C 9C", 0: "3C 4C 5C 6C 7C 8C 10C JC QC KC AC"})
    state = start_round(rules, hands, direction="none")
    assert state.to_move == 1
    state = state.play(Card.parse("2C"))
    assert state.to_move == 1 and str(state.legal_plays()) == "9C"
    state = plays(state, "9C", "JS", "3C")    # seat 2 holds no club
    assert state.tricks[0].seats == (1, 1, 2, 0) and state.tricks[0].winner == 1


def test_score_points_uneven_games_count_26_and_end():
    for seed in range(12):
        game = random_game(THREE, seed=seed)
        assert game.over and not game.deadlocked
        for result in game.results:
            assert sum(result.score.points) == 26 and len(result.tricks) == 17
            first = result.tricks[0]
            assert len(first.cards) == 4 and first.seats.count((result.dealer + 1) % 3) == 2


def test_four_players_uneven_is_the_default_game():
    four = Rules(even_out="uneven")
    assert four.extra_cards == 0 and four.deck_mask == Rules().deck_mask
    assert random_game(four, seed=3).totals == random_game(Rules(), seed=3).totals


@pytest.mark.parametrize("players", [5, 6])
def test_even_out_uneven_with_five_or_six_players_is_the_two_deck_game(players):
    assert Rules.preset("seed003", players=players).decks == 2     # tests/test_round_decks.py plays it
    with pytest.raises(RulesError, match="no source describes") as caught:
        Rules(players=players, pass_cycle="left-right-none", even_out="uneven")
    assert caught.value.field == "decks" and "even_out='remove'" in str(caught.value)
    assert Rules.preset("seed003", players=players, even_out="remove").hand_size == (10 if players == 5 else 8)


def test_seed003_three_players_on_the_command_line_plays_seventeen_tricks():
    three = subprocess.run([sys.executable, "-m", "hearts_ref", "play", "--preset", "seed003", "--set", "players=3",
                            "--seed", "4"], capture_output=True, text=True, cwd=ROOT, timeout=600)
    assert three.returncode == 0, three.stderr
    assert "trick 17:" in three.stdout


def test_trick_order_referee_accepts_uneven_records_and_names_a_missing_second_card():
    from hearts_ref.record_reader import record_from_json
    from hearts_ref.records import game_record
    from hearts_ref.referee import referee
    data = game_record(random_game(THREE, seed=7))
    assert referee(record_from_json(data, validate_schema=True)).findings == ()
    first = data["rounds"][0]["tricks"][0]
    first["cards"] = first["cards"][:3]     # the extra card's second card left out
    findings = referee(record_from_json(data, validate_schema=True)).findings
    assert findings[0].rule_id == "TRICK-ORDER" and "a second card to the first trick" in findings[0].message


def test_trick_order_a_round_moved_to_other_seats_keeps_the_two_cards_together():
    from hearts_ref.diff.rounds import move_seats, play_plan, random_round
    plan = random_round(THREE, 4)
    moved = move_seats(THREE, plan, {0: 1, 1: 2, 2: 0})
    before, after = play_plan(THREE, plan), play_plan(THREE, moved)
    assert after.score().points == tuple(before.score().points[i] for i in (2, 0, 1))
    assert after.tricks[0].seats == tuple((seat + 1) % 3 for seat in before.tricks[0].seats)


def test_trick_order_conform_judges_the_reference_over_stdio_under_uneven_hands():
    result = subprocess.run([sys.executable, "-m", "hearts_ref", "conform", "--engine",
                             f"{sys.executable} -m hearts_ref serve", "--preset", "seed003", "--set", "players=3",
                             "--games", "2", "--jobs", "1", "--no-timings"],
                            capture_output=True, text=True, cwd=ROOT, timeout=600)
    assert result.returncode == 0, result.stderr
    assert "verdict: PASS" in result.stdout


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_trick_order_engine_properties_hold_in_uneven_games(seed):
    """The game-level invariants, checked from the rules' text at every step, over whole games with uneven hands."""
    from hearts_ref.engine import ReferenceEngine
    from properties.engine_properties import play_game
    from properties.strategies import GamePlan
    log = play_game(ReferenceEngine(), GamePlan(THREE, (seed,), (seed, 3, 1, 4, 1, 5)))
    assert log.stuck is None and log.rounds >= 1
