"""Hypothesis properties over whole random games under every sound preset.

Checked on every game: the cards in play are conserved (DECK-CARDS, DECK-REMOVED), each
round's raw points sum to the variant's total (SCORE-POINTS, SCORE-JACK), the lowest club in
play opens (LEAD-OPEN), a legal play always exists, the game ends exactly after the round in
which the threshold is reached (END-THRESHOLD), and the winners hold the lowest total (WIN-LOWEST).
"""

from hypothesis import given, settings
from hypothesis import strategies as st

from hearts_ref import PRESETS, Rules
from hearts_ref.game import is_game_over
from hearts_ref.simulate import random_game
from hearts_ref.variants import EXPECTED_UNSOUND

SOUND_PRESETS = sorted(set(PRESETS) - set(EXPECTED_UNSOUND))


@st.composite
def sound_rules(draw):
    preset = draw(st.sampled_from(SOUND_PRESETS))
    players = draw(st.sampled_from([3, 4, 5, 6]))
    overrides = {"players": players, "jd_bonus": draw(st.booleans()), "moon": draw(st.sampled_from(["add", "subtract", "off"])),
                 "ties": draw(st.sampled_from(["shared", "play-on"])),
                 "end_threshold": draw(st.sampled_from([26, 50, 100]))}
    if players % 2:
        overrides["pass_cycle"] = "left-right-none"
    return Rules.preset(preset, **overrides)


@settings(max_examples=60)
@given(rules=sound_rules(), seed=st.integers(0, 10**6))
def test_whole_games_keep_the_invariants(rules, seed):
    game = random_game(rules, seed=seed)
    assert not game.deadlocked and game.over                              # a legal play always exists
    totals = [0] * rules.players
    for number, result in enumerate(game.results, 1):
        union = 0
        for hand in result.dealt:
            assert not union & hand
            union |= hand
        assert union == rules.deck_mask                                   # conserved at the deal
        played = [c for t in result.tricks for c in t.indices]
        assert len(played) == len(set(played)) and sum(1 << c for c in played) == rules.deck_mask
        assert played[0] == rules.lowest_club.index                        # LEAD-OPEN
        assert sum(result.score.points) == rules.points_per_round          # SCORE-POINTS
        totals = [t + s for t, s in zip(totals, result.score.scores)]
        assert is_game_over(tuple(totals), number, rules) == (number == len(game.results))   # END-THRESHOLD
    assert tuple(totals) == game.totals
    assert game.winners and all(game.totals[w] == min(game.totals) for w in game.winners)   # WIN-LOWEST
    if rules.ties == "play-on" and not rules.max_rounds:
        assert len(game.winners) == 1
