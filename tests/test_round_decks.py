"""Seed 003's game for five and six players: two decks (decks=2). DECK-CARDS, DEAL-HANDS, TRICK-ORDER,
LEAD-OPEN, TRICK-WINNER with identical cards (the first played wins), SCORE-POINTS (52 a round), SCORE-MOON."""

import subprocess
import sys

import pytest

from hearts_ref import Card, CardSet, Game, Rules, complete_deal, deal, start_round
from hearts_ref.cardset import ALL_CARDS, POINT_CARDS
from hearts_ref.errors import RulesError
from hearts_ref.round import trick_winner
from hearts_ref.scoring import card_points, round_scores
from hearts_ref.simulate import random_game
from tests.test_variants import ROOT

FIVE = Rules.preset("seed003", players=5)
SIX = Rules.preset("seed003", players=6)
CLUBS = " ".join(f"{rank}C" for rank in "2 3 4 5 6 7 8 9 10 J Q K A".split())


def plays(state, *cards: str):
    for card in cards:
        state = state.play(Card.parse(card))
    return state


def test_deck_cards_seed003_five_and_six_players_take_two_decks():
    assert FIVE.decks == SIX.decks == 2 and FIVE.even_out == "uneven"
    assert FIVE.deck_mask == SIX.deck_mask == ALL_CARDS and FIVE.removed_cards == ()
    assert (FIVE.hand_size, FIVE.extra_cards, SIX.hand_size, SIX.extra_cards) == (20, 4, 17, 2)
    assert FIVE.dealt_sizes(dealer=0) == (20, 21, 21, 21, 21)
    assert SIX.dealt_sizes(dealer=5) == (18, 18, 17, 17, 17, 17)
    assert str(FIVE.lowest_club) == "2C" and FIVE.points_per_round == 52
    assert Rules.from_dict({"preset": "seed003", "players": 6}) == SIX and SIX.to_dict()["decks"] == 2
    assert Rules.preset("seed003", players=3).decks == 1 and Rules().to_dict()["decks"] == 1


@pytest.mark.parametrize("rules, sizes", [(FIVE, [21, 21, 21, 21, 20]), (SIX, [18, 18, 17, 17, 17, 17])])
def test_deal_hands_two_decks_104_cards_one_at_a_time_from_the_dealers_left(rules, sizes):
    n = rules.players
    for dealer in range(n):
        hands = deal(rules, seed=11, dealer=dealer)
        assert [len(hands[(dealer + 1 + k) % n]) for k in range(n)] == sizes
        union = 0
        for hand in hands:
            assert not union & hand.mask
            union |= hand.mask
        assert union == ALL_CARDS
    assert deal(rules, seed=3) == deal(rules, seed=3) != deal(rules, seed=4)


def test_deal_hands_one_deck_deals_unchanged():
    """The 104-card table leaves the one-deck deals as they were (the same seed, the same cards)."""
    assert str(deal(Rules(), seed=7)[3]).startswith("2C")
    assert all(hand.mask < 1 << 52 for hand in deal(Rules(players=5, pass_cycle="left-right-none"), seed=1))


@pytest.mark.parametrize("rules, first", [(FIVE, 9), (SIX, 8)])
def test_trick_order_first_trick_nine_or_eight_cards_then_one_each(rules, first):
    for seed in range(3):
        game = random_game(rules, seed=seed)
        assert game.over and not game.deadlocked
        for result in game.results:
            assert len(result.tricks) == rules.hand_size
            assert len(result.tricks[0].cards) == first and str(result.tricks[0].cards[0]) == "2C"
            assert all(len(trick.cards) == rules.players for trick in result.tricks[1:])
            assert sum(len(trick.cards) for trick in result.tricks) == 104


def test_trick_order_five_players_four_seats_play_two_clubs_on_the_first_trick():
    hands = complete_deal(FIVE, {0: "2C 3C", 1: "4C 4C#2", 2: "5C 5C#2", 3: "6C 6C#2", 4: "7C 7C#2"})
    state = start_round(FIVE, hands, direction="none")
    assert state.to_move == 0 and str(state.legal_plays()) == "2C"
    state = plays(state, "2C", "4C", "4C#2", "5C", "5C#2", "6C", "6C#2", "7C#2", "7C")
    trick = state.tricks[0]
    assert trick.seats == (0, 1, 1, 2, 2, 3, 3, 4, 4) and trick.winner == 4 and state.to_move == 4


def test_lead_open_the_first_decks_two_of_clubs_opens():
    hands = complete_deal(FIVE, {3: "2C", 1: "2C#2"})
    state = start_round(FIVE, hands, direction="none")
    assert state.to_move == 3 and str(state.legal_plays()) == "2C"
    with pytest.raises(Exception, match="LEAD-OPEN"):
        start_round(FIVE, complete_deal(FIVE, {1: "2C 2C#2 3C"}), direction="none").play(Card.parse("3C"))


def test_trick_winner_kalle_and_pelle_identical_jacks_the_first_played_wins():
    """Seed 003: «det är Kalle som vinner rundan för han lade Klöver Knekt först» — whichever copy Kalle holds."""
    for kalle, pelle in (("JC", "JC#2"), ("JC#2", "JC")):
        trick = [1 << Card.parse(c).index for c in ("5C", kalle, "9C", pelle, "3H")]
        assert trick_winner(trick, 0, 2, 5, decks=2) == 3     # Kalle sits at position 1: seat 2 + 1
    # the second deck's copy is no higher than its face: the ace of the first deck beats J♣#2
    trick = [1 << Card.parse(c).index for c in ("JC#2", "AC", "KC#2", "2C", "AC#2")]
    assert trick_winner(trick, 0, 0, 5, decks=2) == 1
    trick = [1 << Card.parse(c).index for c in ("QS#2", "KH", "QS", "3S", "JS#2", "2S")]
    assert trick_winner(trick, 2, 4, 6, decks=2) == 4       # the leader's Q♠#2 came first
    seats = (0, 1, 1, 2, 2, 3, 3, 4, 4)                      # the first trick: either of a seat's cards wins
    trick = [1 << Card.parse(c).index for c in ("2C", "QC", "QC#2", "3C", "AC#2", "AC", "4C", "5C", "6C")]
    assert trick_winner(trick, 0, 0, 5, seats=seats, decks=2) == 2


def test_trick_winner_kalle_and_pelle_in_a_round():
    clubs = "2C 3C 4C 5C 6C 7C 8C 9C 10C QC KC AC 10C#2 QC#2 KC#2 AC#2"
    hands = complete_deal(FIVE, {0: clubs, 1: "2C#2 3C#2 JC#2", 2: "4C#2 5C#2", 3: "6C#2 7C#2", 4: "8C#2 9C#2 JC"})
    state = plays(start_round(FIVE, hands, direction="none"),
                  "2C", "2C#2", "3C#2", "4C#2", "5C#2", "6C#2", "7C#2", "8C#2", "9C#2")
    assert state.tricks[0].winner == 4 and state.to_move == 4
    state = plays(state, "JC", "10C", "JC#2")   # Kalle (seat 4) plays J♣, seat 0 10♣, then Pelle (seat 1) J♣#2
    for _ in range(2):                          # seats 2 and 3 hold no club now: they discard
        assert state.legal_plays() & CardSet.parse(clubs) == CardSet()
        state = state.play(next(iter(state.legal_plays())))
    assert state.tricks[1].winner == 4 and state.to_move == 4


def test_score_points_two_decks_52_a_round_two_queens_13_each():
    assert card_points(CardSet.parse("QS QS#2").mask, FIVE) == 26
    assert card_points(CardSet.parse("QS 2H 2H#2 AH#2").mask, FIVE) == 16
    jack = Rules.preset("seed003", players=5, jd_bonus=True)
    assert card_points(CardSet.parse("JD JD#2 QS").mask, jack) == -7 and jack.points_per_round == 32
    assert card_points(POINT_CARDS, FIVE) == 52 and card_points(POINT_CARDS & ((1 << 52) - 1), Rules()) == 26
    for seed in range(4):
        for result in random_game(SIX, seed=seed).results:
            assert sum(result.score.points) == 52


def test_score_moon_two_decks_takes_every_point_card_both_queens_worth_52():
    taken = (POINT_CARDS, ALL_CARDS & ~POINT_CARDS, 0, 0, 0)
    score = round_scores(taken, FIVE)
    assert score.shooter == 0 and score.points == (52, 0, 0, 0, 0) and score.scores == (0, 52, 52, 52, 52)
    subtract = round_scores(taken, Rules.preset("seed003", players=5, moon="subtract"))
    assert subtract.scores == (-52, 0, 0, 0, 0)
    one_queen_short = (POINT_CARDS & ~CardSet.parse("QS#2").mask, CardSet.parse("QS#2").mask, 0, 0, 0)
    short = round_scores(one_queen_short, FIVE)
    assert short.shooter is None and short.scores == (39, 13, 0, 0, 0)
    hearts_of_one_deck = POINT_CARDS & ((1 << 52) - 1)
    assert round_scores((hearts_of_one_deck, POINT_CARDS & ~hearts_of_one_deck, 0, 0, 0), FIVE).shooter is None


@pytest.mark.parametrize("rules", [FIVE, SIX, Rules.preset("seed003", players=5, moon="subtract", jd_bonus=True)])
def test_end_threshold_whole_two_deck_games_totals_are_sums_of_round_scores(rules):
    for seed in range(3):
        game = random_game(rules, seed=seed)
        assert game.over and not game.deadlocked and max(game.totals) >= rules.end_threshold
        sums = [sum(result.score.scores[seat] for result in game.results) for seat in range(rules.players)]
        assert list(game.totals) == sums


def test_game_seed003_five_players_plays_from_a_seed():
    game = Game.new(FIVE, seed=5)
    assert [len(game.round.hand(seat)) for seat in range(5)] == [20, 21, 21, 21, 21]


@pytest.mark.parametrize("values, field, words", [
    ({"players": 5, "decks": 1}, "decks", "set decks=2"),
    ({"players": 6, "even_out": "uneven", "decks": 1, "preset": "seed000", "pass_cycle": "left-right-none"},
     "decks", "set decks=2"),
    ({"players": 4, "decks": 2}, "decks", "5 or 6 players"),
    ({"players": 5, "even_out": "remove", "decks": 2}, "decks", "choose decks=1"),
    ({"players": 3, "decks": 2}, "decks", "choose decks=1"),
    ({"players": 5, "decks": 3}, "decks", "one of 1, 2"),
])
def test_invalid_decks_contradictory_combinations_name_the_fix(values, field, words):
    values = {"preset": "seed003"} | values
    with pytest.raises(RulesError) as caught:
        Rules.from_dict(values)
    assert caught.value.field == field and words in str(caught.value)


def test_invalid_five_players_uneven_by_hand_needs_two_decks():
    with pytest.raises(RulesError, match="no source describes"):
        Rules(players=5, pass_cycle="left-right-none", even_out="uneven")
    assert Rules(players=5, pass_cycle="left-right-none", even_out="uneven", decks=2).deck_mask == ALL_CARDS
    assert Rules.preset("seed003", players=5, even_out="remove").decks == 1


def test_seed003_five_players_on_the_command_line_plays_two_decks():
    result = subprocess.run([sys.executable, "-m", "hearts_ref", "play", "--preset", "seed003", "--set", "players=5",
                             "--seed", "4"], capture_output=True, text=True, cwd=ROOT, timeout=600)
    assert result.returncode == 0, result.stderr
    assert "decks=2" in result.stdout and "trick 20:" in result.stdout and "trick 21:" not in result.stdout
    assert "#2" in result.stdout
    refused = subprocess.run([sys.executable, "-m", "hearts_ref", "play", "--preset", "seed003", "--set", "players=5",
                              "--set", "decks=1"], capture_output=True, text=True, cwd=ROOT, timeout=600)
    assert refused.returncode == 2 and "Traceback" not in refused.stderr and "decks=2" in refused.stderr
