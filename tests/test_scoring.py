"""SCORE-POINTS, SCORE-JACK, SCORE-NO-TRICKS, SCORE-MOON, SCORE-TOTAL: the sources' worked examples and more."""

import pytest

from hearts_ref import CardSet, Rules
from hearts_ref.game import is_game_over, winners
from hearts_ref.scoring import card_points, round_scores

ALL_POINTS = "QS 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH AH"


def taken(*texts: str) -> tuple[int, ...]:
    return tuple(CardSet.parse(t).mask for t in texts)


def test_score_points_worked_examples(worked_examples):
    for example in worked_examples["points"]:
        assert card_points(CardSet.parse(" ".join(example["cards"])).mask, Rules()) == example["points"], example


def test_score_points_hearts_one_each_queen_thirteen_total_26():
    assert card_points(CardSet.parse(ALL_POINTS).mask, Rules()) == 26
    assert card_points(CardSet.parse("2H").mask, Rules()) == card_points(CardSet.parse("AH").mask, Rules()) == 1


def test_score_jack_minus_ten_only_with_variant():
    assert card_points(CardSet.parse("JD 2H").mask, Rules()) == 1
    assert card_points(CardSet.parse("JD 2H").mask, Rules(jd_bonus=True)) == -9


def test_score_moon_add_worked_example_seed000(worked_examples):
    game = worked_examples["games"][0]
    totals = [0, 0, 0, 0]
    for r in game["rounds"]:
        if r["moon"] is None:
            hands = taken("2H 3H 4H", "QS 5H 6H 7H 8H", "9H 10H JH QH KH AH", "")
        else:
            hands = taken("", "", "", ALL_POINTS)
        score = round_scores(hands, Rules())
        assert list(score.points) == r["points"] and list(score.scores) == r["scores"]
        assert score.shooter == r["moon"]
        totals = [t + s for t, s in zip(totals, score.scores)]
    assert totals == game["totals"] == [29, 43, 32, 0]


def test_score_moon_needs_all_point_cards_not_all_tricks():
    score = round_scores(taken("2C 3C " + ALL_POINTS, "4C", "5C", "6C"), Rules())
    assert score.shooter == 0 and score.scores == (0, 26, 26, 26)


def test_score_moon_spoiled_by_one_heart():
    score = round_scores(taken("QS 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH AH", "2H", "", ""), Rules())
    assert score.shooter is None and score.scores == (25, 1, 0, 0)


def test_score_moon_subtract_and_off():
    hands = taken(ALL_POINTS, "", "", "")
    assert round_scores(hands, Rules(moon="subtract")).scores == (-26, 0, 0, 0)
    assert round_scores(hands, Rules(moon="off")).scores == (26, 0, 0, 0)


def test_score_moon_with_jack_of_diamonds_not_needed():
    hands = taken(ALL_POINTS, "JD", "", "")
    score = round_scores(hands, Rules(jd_bonus=True))
    assert score.shooter == 0 and score.points == (26, -10, 0, 0) and score.scores == (0, 16, 26, 26)


def test_score_no_tricks_bonus_not_in_a_moon_round():
    rules = Rules(avoid_all_tricks_bonus=True)
    assert round_scores(taken("2H 3C", "QS 4C", "5C", ""), rules).scores == (1, 13, 0, -5)
    assert round_scores(taken(ALL_POINTS + " 2C", "3C", "4C", ""), rules).scores == (0, 26, 26, 26)


@pytest.mark.parametrize("totals, comparison, ties, over", [
    ((100, 3, 4, 5), ">=", "shared", True), ((99, 3, 4, 5), ">=", "shared", False),
    ((100, 3, 4, 5), ">", "shared", False), ((101, 3, 4, 5), ">", "shared", True),
    ((100, 3, 3, 5), ">=", "shared", True), ((100, 3, 3, 5), ">=", "play-on", False),
    ((100, 2, 3, 5), ">=", "play-on", True),
])
def test_end_threshold_and_win_tie(totals, comparison, ties, over):
    """END-THRESHOLD with WIN-TIE: under play-on a tie for the lowest total means another round."""
    assert is_game_over(totals, 5, Rules(end_comparison=comparison, ties=ties)) is over


def test_end_threshold_max_rounds_and_custom_threshold():
    assert is_game_over((0, 0, 0, 26), 1, Rules.preset("openspiel"))
    assert is_game_over((50, 0, 0, 0), 3, Rules(end_threshold=50))


def test_win_lowest_and_win_tie_shared():
    assert winners((29, 43, 32, 0)) == (3,)
    assert winners((10, 43, 10, 20)) == (0, 2)
