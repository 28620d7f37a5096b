"""Every counterexample replays on the engine: a deal and legal plays reach it, and the engine is stuck.

Rules: FIRST-NO-POINTS, FIRST-EXCEPTION, FOLLOW-VOID, LEAD-OPEN (the replays open with the lowest club).
"""

import pytest

from hearts_ref import CARDS, CardSet, Context, ReferenceEngine, Rules
from hearts_ref.variants import EXPECTED_UNSOUND
from properties.catalogue import rules_for
from properties.prove import Session, prove_context
from properties.replay import confirm_on_engine, find_replay


def test_every_counterexample_of_the_unsound_presets_replays_on_the_engine(fast_tier):
    replayed = 0
    for result in fast_tier:
        assert result.counterexamples == () or result.rules in EXPECTED_UNSOUND
        for example in result.counterexamples:
            if example.replay is None:
                assert example.notes, "a counterexample without a replay says why"
                continue
            rules = Rules.preset(result.rules)
            assert confirm_on_engine(rules, example.replay, ReferenceEngine()) is None
            replay = example.replay
            left = replay.hands[replay.seat] & ~sum(1 << c for c in replay.plays)
            assert left == example.hand
            replayed += 1
    assert replayed >= 4


@pytest.mark.parametrize("values", [
    {"players": 5, "first_trick_points": "forbidden"},
    {"players": 6, "first_trick_points": "forbidden"},
    {"players": 3, "hearts_restriction": "discard", "hearts_broken_by": "any-heart"},
    {"players": 4, "hearts_restriction": "discard", "first_trick_points": "allowed"},
])
def test_follow_void_and_first_no_points_counterexamples_of_combinations_replay(values):
    rules = rules_for(values)
    result = prove_context("LEGAL-MOVE-EXISTS", rules, Session(timeout=60))
    assert result.status == "refuted" == result.expected
    example = result.counterexample
    assert example.replay is not None and confirm_on_engine(rules, example.replay) is None


def test_first_no_points_with_hearts_broken_on_the_first_trick_is_unreachable():
    """No heart can be played on the first trick without the exception, so hearts cannot be broken there."""
    hand = CardSet.parse("QS 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH").mask
    assert find_replay(Rules.preset("seed001"), hand, Context(False, 0, True, True)) is None
    assert find_replay(Rules.preset("seed001"), hand, Context(False, 0, True, False)) is not None


def test_confirm_on_engine_reports_an_engine_that_is_not_stuck():
    """The seed001 deadlock replayed under the default rules: FIRST-EXCEPTION lets the player discard."""
    hand = CardSet.parse("QS 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH").mask
    replay = find_replay(Rules.preset("seed001"), hand, Context(False, 0, True, False))
    assert "offers legal plays" in confirm_on_engine(Rules(), replay)


def test_replay_is_reproducible_from_its_seed_and_its_plays_are_legal():
    rules = rules_for({"players": 4, "hearts_restriction": "discard", "hearts_broken_by": "lead"})
    hand = CardSet.parse("2H 3H 4H 5H 6H 7H 8H 9H 10H JH").mask
    first = find_replay(rules, hand, Context(False, 1, False, False), seed=3)
    assert first == find_replay(rules, hand, Context(False, 1, False, False), seed=3)
    engine = ReferenceEngine()
    engine.new_game(rules)
    engine.start_round([CardSet.from_mask(h) for h in first.hands], "none")
    for card in first.plays:
        assert CARDS[card] in engine.legal_plays()
        engine.play(CARDS[card])
    assert not engine.legal_plays() and engine.observe().to_move == first.seat


def test_expected_unsound_presets_deadlock_on_the_engine_under_the_declared_rule(fast_tier):
    """hearts_ref.variants.EXPECTED_UNSOUND names the rule each unsound preset deadlocks on: a replay shows it."""
    from hearts_ref import DeadlockError, start_round

    for preset, rule_id in EXPECTED_UNSOUND.items():
        rules, raised, named = Rules.preset(preset), set(), set()
        for result in fast_tier:
            for example in (e for e in result.counterexamples if result.rules == preset and e.replay):
                state = start_round(rules, [CardSet.from_mask(h) for h in example.replay.hands])
                for card in example.replay.plays:
                    state = state.play(CARDS[card])
                with pytest.raises(DeadlockError) as error:
                    state.play(next(iter(state.hand(state.to_move))))
                raised.add(error.value.rule_id)
                named.update(rule for rule, _ in example.blocked)
        assert rule_id in raised and rule_id in named, (preset, raised, named)   # the counterexamples name it too


@pytest.mark.parametrize("players, sizes", [(5, [21, 21, 21, 21, 20]), (6, [18, 18, 17, 17, 17, 17])])
def test_seed003_two_decks_deadlocks_replay_from_a_deal_of_both_decks(players, sizes):
    """Seed 003 with five or six players (two decks, uneven hands, a discarded heart never allowed unbroken): the
    first trick can deadlock a hand of point cards of both decks, and the proof's counterexample is reached on the
    engine from a deal of all 104 cards, after the two cards of a seat dealt an extra one."""
    rules = Rules.preset("seed003", players=players)
    session = Session(timeout=60)
    for invariant in ("FIRST-TRICK-NO-DEADLOCK", "LEGAL-MOVE-EXISTS"):
        result = prove_context(invariant, rules, session)
        assert result.status == "refuted" == result.expected
        example = result.counterexample
        replay = example.replay
        assert replay is not None and confirm_on_engine(rules, replay, ReferenceEngine()) is None
        assert sum(replay.hands) == rules.deck_mask and rules.deck_mask >> 52   # both decks dealt
        assert sorted((h.bit_count() for h in replay.hands), reverse=True) == sizes
        assert example.hand >> 52, "the stuck hand holds a second deck's card"
        assert replay.hands[replay.seat] & ~sum(1 << c for c in replay.plays) == example.hand


@pytest.mark.parametrize("players", [5, 6])
def test_seed003_two_decks_game_ends_is_proved_and_its_refutations_replay(players):
    """GAME-ENDS with two decks: a bound on the rounds under seed 003 (52 points a round); a moon subtracting 52
    each round, or a tie kept under play-on, never ends, replayed on the engine from deals of both decks."""
    from properties.prove import prove_game
    session = Session(timeout=60)
    assert prove_game("GAME-ENDS", Rules.preset("seed003", players=players), session).status == "proved"
    for change in ({"moon": "subtract"}, {"ties": "play-on"}):
        result = prove_game("GAME-ENDS", Rules.preset("seed003", players=players, **change), session)
        assert result.status == "refuted" == result.expected
        assert result.witness["confirmed"], result.witness["summary"]


@pytest.mark.parametrize("preset, changes, dealt_in", [
    ("seed001", {}, (4, 3)),            # left, right, across, none
    ("seed003", {}, (3, 2)),            # left, right, none
    ("seed003", {"players": 3}, (3, 2)),   # round 3 is dealt by seat 2, and seat 0 holds the extra card
])
def test_a_replay_is_a_deal_of_a_round_with_no_pass_as_its_dealer_deals_it(preset, changes, dealt_in):
    """PASS-CYCLE, DEAL-DEALER, DEAL-HANDS: the round a replay names has no pass, and its hands are the sizes that
    round's dealer deals (with uneven hands, the extra card on the dealer's left)."""
    from hearts_ref import start_round
    rules = Rules.preset(preset, **changes)
    result = prove_context("LEGAL-MOVE-EXISTS", rules, Session(timeout=60))
    replay = result.counterexample.replay
    assert replay is not None and (replay.round_number, replay.dealer) == dealt_in
    assert rules.pass_direction(replay.round_number) == "none" and (replay.round_number - 1) % rules.players == replay.dealer
    start_round(rules, [CardSet.from_mask(h) for h in replay.hands], direction="none", dealer=replay.dealer)
    assert [h.bit_count() for h in replay.hands] == list(rules.dealt_sizes(replay.dealer))
    assert confirm_on_engine(rules, replay) is None
    assert f"in round {dealt_in[0]} (dealt by seat {dealt_in[1]}, no pass):" in replay.text()
    assert replay.to_dict()["round"] == dealt_in[0] and replay.to_dict()["dealer"] == dealt_in[1]


@pytest.mark.parametrize("players", [5, 6])
def test_a_replay_reaches_its_counterexamples_own_context_a_seats_second_card_included(players):
    """FIRST-TWO-CARDS: a context of a seat's second card (its first of the suit the context names) is reached by a
    seat dealt an extra card, after its first; the plain first-trick context, by a seat holding all it was dealt.
    Each replay ends in exactly its counterexample's context, and the first trick's are all found."""
    from hearts_ref import start_round
    rules = Rules.preset("seed003", players=players)
    result = prove_context("LEGAL-MOVE-EXISTS", rules, Session(timeout=60))
    first_trick = [e for e in result.counterexamples if e.context.first_trick and not e.context.hearts_broken]
    assert len(first_trick) == 5   # the plain one, and one per suit of a first card
    for example in result.counterexamples:
        replay = example.replay
        if replay is None:
            continue
        state = start_round(rules, [CardSet.from_mask(h) for h in replay.hands], direction="none", dealer=replay.dealer)
        for card in replay.plays:
            state = state.play(CARDS[card])
        assert state.context == example.context and state.to_play == replay.seat, example.where
        assert state.hands[replay.seat] == example.hand and not state.legal
        dealt = replay.hands[replay.seat].bit_count()
        assert dealt == rules.hand_size + 1 if example.context.pair_suit is not None else True
    reached = {e.context.pair_suit for e in first_trick if e.replay is not None}
    assert reached >= {None, 0, 1, 2}, reached   # a heart first is forbidden on the first trick (FIRST-NO-POINTS)
