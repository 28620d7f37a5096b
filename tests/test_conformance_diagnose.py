"""Diagnosis by cause: the first rule ID of a finding is the rule broken, not a symptom of it.

Each test builds the position a real bug produces and checks the rule the runner names
first, against the symptom an earlier runner named: passes carried out one seat at a time
(PASS-SIMULTANEOUS, not PASS-COUNT), a moon counted on the hearts alone (SCORE-MOON, not
SCORE-POINTS), a pass cycle shifted by one (PASS-CYCLE, not LEAD-OPEN or FOLLOW-SUIT), a
leader's legal set from the previous trick (LEAD-WINNER, not LEAD-HEARTS).
"""

from __future__ import annotations

from hearts_ref import CardSet, Rules, complete_deal, deal
from hearts_ref.cards import CARDS, Card
from hearts_ref.conformance.diagnose import (
    StepFacts, in_rule_order, legal_rules, observation_rules, opening_rules,
)
from hearts_ref.conformance.astray import citation_readings
from hearts_ref.conformance.refusals import accepted_pass_rules
from hearts_ref.conformance.findings import Deviation, Difference
from hearts_ref.conformance.verdicts import Verdicts
from hearts_ref.conformance.judge import engine_relative, judge_observation, reference_observation
from hearts_ref.engine import Observation
from hearts_ref.game import Game, RoundResult
from hearts_ref.legality import Context, allowing_rule, legal_plays, rejecting_rule
from hearts_ref.round import Trick, start_round
from hearts_ref.scoring import round_scores
from hearts_ref.spec import load_rules


def mask(text: str) -> int:
    return CardSet.parse(text).mask


def card(text: str) -> int:
    return Card.parse(text).index


def test_allowing_rule_and_rejecting_rule_answer_for_every_card_of_every_context():
    """One judge: a card is allowed by exactly one rule when legal and forbidden by one when not."""
    rules = Rules()
    hand = mask("2C 9C QS 4H AH 7D")
    for ctx in (Context(True, None, True, False), Context(True, None, False, False), Context(True, None, False, True),
                Context(False, 0, True, False), Context(False, 1, True, False), Context(False, 1, False, False)):
        legal = legal_plays(hand, ctx, rules)
        for index in range(52):
            bit = 1 << index
            allowed, rejected = allowing_rule(hand, ctx, rules, bit), rejecting_rule(hand, ctx, rules, bit)
            assert (allowed is None) == bool(rejected) == (not legal & bit), (ctx, CARDS[index])
            assert allowed is None or allowed in load_rules()


def test_lead_winner_a_later_lead_of_a_club_rests_on_lead_winner_in_every_runner():
    """The same later lead of 3C: the vectors and the games both name LEAD-WINNER, never LEAD-HEARTS."""
    assert allowing_rule(mask("3C 4H"), Context(True, None, False, False), Rules(), mask("3C")) == "LEAD-WINNER"
    assert allowing_rule(mask("3C 4H"), Context(True, None, False, True), Rules(), mask("4H")) == "LEAD-HEARTS"


def _after_first_trick(hands: dict[int, str], plays: str):
    state = start_round(Rules(), complete_deal(Rules(), hands), direction="none")
    for text in plays.split():
        state = state.play(Card.parse(text))
    return state


def test_lead_winner_a_leader_judged_as_still_following_the_trick_it_won():
    state = _after_first_trick({0: "2C AC 3D KD 4H", 1: "3C", 2: "4C", 3: "5C 9C 7D 8S 6H"}, "2C 3C 4C 5C")
    assert state.to_play == 3 and state.context.leading
    hand = state.hands[3]
    stale = legal_plays(hand, Context(False, 0, False, False), Rules())   # clubs, as if following clubs
    assert stale != state.legal and legal_rules(state, stale) == ("LEAD-WINNER",)
    assert legal_rules(state, state.legal | (hand & mask("5H 6H 7H 8H 9H 10H JH QH KH AH 2H 3H 4H"))) \
        == ("LEAD-HEARTS",)   # a heart allowed while unbroken is LEAD-HEARTS's own outcome


def test_pass_cycle_a_legal_set_of_cards_passed_the_other_way_names_the_cycle():
    """The engine passed right where the runner said left: its follower's legal set is that of the hand
    the cards passed right give; the rule broken is PASS-CYCLE, not FOLLOW-SUIT."""
    rules = Rules()
    for seed in range(200):
        dealt = deal(rules, seed=seed)
        chosen = [CardSet(list(hand)[-3:]) for hand in dealt]   # every seat passes its three highest cards
        ways = {}
        for direction in ("left", "right"):
            state = start_round(rules, dealt, direction=direction)
            for seat, cards in enumerate(chosen):
                state = state.choose_pass(seat, cards)
            ways[direction] = state.play(CARDS[state.legal.bit_length() - 1]) if state.legal.bit_count() == 1 \
                else None
        left, right = ways["left"], ways["right"]
        if left is not None and right is not None and left.to_play == right.to_play and left.legal != right.legal \
                and not right.legal & ~left.hands[left.to_play]:   # no card the seat does not hold: subtle
            assert legal_rules(left, right.legal) == ("PASS-CYCLE",)
            return
    raise AssertionError("no deal of the 200 tried gives the position")


def test_pass_cycle_dealer_and_removed_cards_at_the_opening_lead():
    rules = Rules()
    hands = complete_deal(rules, {2: "2C", 0: "3C 4C"})
    state = start_round(rules, hands, direction="none")
    assert state.to_play == 2
    assert opening_rules(state, 0, 0) == ("DEAL-DEALER", "LEAD-OPEN")   # the dealer led
    assert opening_rules(state, 1, 0) == ("LEAD-OPEN",)
    five = Rules(players=5, pass_cycle="left-right-none")
    hands = complete_deal(five, {0: "3C", 4: "4C 9C"})
    state = start_round(five, hands, direction="none")
    assert opening_rules(state, 4, 0, mask("4C")) == ("DECK-REMOVED", "LEAD-OPEN")   # 2C 3C taken out
    assert opening_rules(state, 4, 0, mask("9C")) == ("LEAD-OPEN",)


def test_pass_simultaneous_a_pass_of_a_card_received_before_every_seat_chose():
    state = start_round(Rules(), complete_deal(Rules(), {0: "2C QS AH", 1: "3C 4C 5C"}), direction="left")
    state = state.choose_pass(0, CardSet.parse("2C QS AH"))
    assert accepted_pass_rules(state, 1, mask("2C 3C 4C")) == ("PASS-SIMULTANEOUS", "PASS-COUNT")
    assert accepted_pass_rules(state, 1, mask("3C 4C")) == ("PASS-COUNT",)
    assert accepted_pass_rules(state, 0, mask("3D 4D 5D")) == ("PASS-SIMULTANEOUS",)   # chose twice


def _passed(direction: str):
    """Seat 0 passes QD JD 10D, seat 1 (who holds the 2C) 3C 4C 5C, the others three low cards: the first lead."""
    rules = Rules()
    state = start_round(rules, complete_deal(rules, {0: "QD JD 10D", 1: "2C 3C 4C 5C", 2: "2D 3D 4D",
                                                    3: "5D 6D 7D"}), direction=direction)
    for seat, cards in enumerate(("QD JD 10D", "3C 4C 5C", "2D 3D 4D", "5D 6D 7D") if state.passing else ()):
        state = state.choose_pass(seat, CardSet.parse(cards))
    return state


def test_pass_cycle_a_citation_that_only_the_cards_passed_another_way_explain():
    """Passed right, seat 0's QD went to seat 3; an engine that passed left has it in seat 1's hand, and refuses
    it there as a lead other than the 2C (LEAD-OPEN), not as a card seat 1 does not hold (TRICK-ORDER)."""
    state = _passed("right")
    assert state.to_play == 1 and not state.hands[1] & mask("QD")
    assert citation_readings(state, card("QD"), "LEAD-OPEN", mask("2C")) == ("PASS-CYCLE",)
    assert citation_readings(state, card("QD"), "TRICK-ORDER", mask("2C")) == ()   # what the reference says
    assert citation_readings(state, card("KS"), "LEAD-OPEN", mask("2C")) == ()     # no pass gives seat 1 the KS
    # the 3C seat 1 passed: a hand that kept it (PASS-SIMULTANEOUS), or passed no cards at all (PASS-CYCLE, none)
    assert citation_readings(state, card("3C"), "LEAD-OPEN", mask("2C")) == ("PASS-CYCLE", "PASS-SIMULTANEOUS")
    assert citation_readings(state, card("QD"), "LEAD-OPEN", mask("2C 6D")) == ()  # not the legal set it shows
    assert citation_readings(_passed("none"), card("KS"), "LEAD-OPEN", mask("2C")) == ()


def test_a_refusal_is_put_down_to_hands_astray_only_when_its_round_shows_them():
    """The refusal's round shows the hands astray (a legal set of the hand passed another way): it is put down to
    PASS-CYCLE, and kept once with the like finding; in another round, or with no such finding, it keeps its
    rules."""
    def refusal(number: int, card_text: str = "QD") -> Deviation:
        return Deviation("wrong-rule", ("TRICK-ORDER", "LEAD-OPEN"), 10 * number, {"round": number, "seat": 1,
                         "card": card_text}, message="refused citing LEAD-OPEN", explained_by=("PASS-CYCLE",))

    verdicts = Verdicts()
    verdicts.record(refusal(1))
    verdicts.record(refusal(2, "3C"))
    assert [f.rule_ids[0] for f in verdicts.findings] == ["TRICK-ORDER"]   # once per kind and rule
    verdicts.findings.append(refusal(2, "3C"))                                # (as if kept apart)
    verdicts.record(Deviation("legal-set", ("PASS-CYCLE",), 25, {"round": 2}))
    first, second, astray = verdicts.findings
    assert first.rule_ids == ("TRICK-ORDER", "LEAD-OPEN") and first.round == 1
    assert second.rule_ids == ("PASS-CYCLE", "TRICK-ORDER", "LEAD-OPEN") and not second.explained_by
    assert second.message.endswith("in the engine's hands seat 1 holds 3C") and astray.kind == "legal-set"


def _game_after_round(tricks: list[tuple[int, str]]) -> Game:
    """A game whose first round is over, its tricks won as given: ``(winner, cards)``."""
    rules = Rules(pass_cards=False)
    taken = [0] * 4
    played = []
    for winner, cards in tricks:
        taken[winner] |= mask(cards)
        played.append(Trick(winner, tuple(c.index for c in CardSet.parse(cards)), winner))
    score = round_scores(tuple(taken), rules)
    result = RoundResult(1, 0, "none", (0, 0, 0, 0), (0, 0, 0, 0), tuple(played), score)
    return Game(rules, None, (result,), score.scores, None, False)


def test_score_moon_a_moon_counted_on_the_hearts_alone_is_named_score_moon():
    """Seat 0 took the thirteen hearts, seat 1 the Q♠: no moon. An engine scoring a moon for seat 0 breaks
    SCORE-MOON (a point rule would have changed the points, which are right)."""
    game = _game_after_round([(0, "2H 3H 4H 5H"), (0, "6H 7H 8H 9H"), (0, "10H JH QH KH"), (0, "AH 2C 3C 4C"),
                              (1, "QS 5C 6C 7C")] + [(2, "8C 9C 10C JC")] * 0)
    assert game.results[0].score.scores == (13, 13, 0, 0)
    facts = StepFacts("play", None, None, game, card("7C"))
    moon = Observation("round-over", None, (), False, (13, 13, 0, 0), (0, 26, 26, 26), (0, 26, 26, 26), False, ())
    assert observation_rules([Difference("round_scores", (13, 13, 0, 0), (0, 26, 26, 26))], facts, moon) \
        == ("SCORE-MOON",)
    bonus = Observation("round-over", None, (), False, (13, 13, 0, 0), (13, 13, -5, -5), (13, 13, -5, -5), False, ())
    assert observation_rules([Difference("round_scores", (13, 13, 0, 0), (13, 13, -5, -5))], facts, bonus) \
        == ("SCORE-NO-TRICKS",)


def test_win_tie_and_win_lowest_are_judged_on_the_engines_own_totals():
    game = Game.new(Rules(end_threshold=1, pass_cards=False))
    facts = StepFacts("play", None, None, game)
    tied = Observation("game-over", None, (), False, (0, 0, 0, 0), (5, 0, 0, 21), (5, 0, 0, 21), True, (1,))
    assert observation_rules([Difference("winners", (1, 2), (1,))], facts, tied) == ("WIN-TIE",)
    highest = Observation("game-over", None, (), False, (0, 0, 0, 0), (5, 0, 0, 21), (5, 0, 0, 21), True, (3,))
    assert observation_rules([Difference("winners", (1, 2), (3,))], facts, highest) == ("WIN-LOWEST",)
    short = Observation("game-over", None, (), False, (0, 0, 0), (5, 0, 0), (5, 0, 0), True, (1,))
    assert observation_rules([Difference("totals", (5, 0, 0, 21), (5, 0, 0))], facts, short) == ("PLAYERS-COUNT",)


def test_break_discard_a_consequence_is_not_a_new_finding_and_catching_up_is_no_deviation():
    """Hearts shown unbroken after a discard (BREAK-DISCARD) stay so: the next play, judged on the engine's
    own hearts broken, is no new finding; and showing them broken at the end of the trick is no deviation."""
    state = _after_first_trick({0: "2C 4H", 1: "3C", 2: "4C", 3: "5C"}, "2C")
    game = Game.new(Rules())._replace(round=state)
    wrong = reference_observation(game, state)
    # seat 1 follows with 3C: nothing breaks hearts; the engine shows them unbroken, as before
    after = state.play(Card.parse("3C"))
    facts = StepFacts("play", state, after, game, card("3C"), wrong)
    reference = reference_observation(game, after)
    assert judge_observation(facts, reference, reference, 2, {}) is None
    assert engine_relative(facts, reference, reference) == reference


def test_causes_come_in_the_order_of_the_rules():
    assert in_rule_order(["LEAD-HEARTS", "LEAD-WINNER", "LEAD-HEARTS", None, "PLAYERS-COUNT"]) == \
        ("PLAYERS-COUNT", "LEAD-WINNER", "LEAD-HEARTS")


def test_a_moon_is_judged_on_its_own_scores_not_on_the_points_the_engine_counted():
    """SCORE-MOON: the shooter of an engine that counts the Q♠ 10 took every point card and scores 0 under the
    rules, whatever it counted: the finding expects 0, not its 23 points less 26."""
    from hearts_ref.cardset import QUEEN
    from hearts_ref.conformance.differential import run_game
    from hearts_ref.conformance.script import ListSource, ScriptDecider
    from hearts_ref.conformance.short_games import short_games
    from tests.engines.planted import _ScoreSheet

    class QueenTen(_ScoreSheet):
        name = "queen-ten"

        def trick_points(self, cards: int) -> int:
            return super().trick_points(cards) - (3 if cards & QUEEN else 0)

        def round_score(self, taken, points):   # a moon only when the points come to 26
            return tuple(0 if p == 26 else 26 if 26 in points else p for p in points)

    rules = Rules()
    for game in short_games(rules):
        run = run_game(QueenTen(), rules, ScriptDecider(ListSource(game.script)))
        found = [f for f in run.findings if f.rule_ids and f.rule_ids[0] == "SCORE-MOON"]
        if found:
            scores = next(d for d in found[0].differences if d.field == "round_scores")
            shooter = scores.expected.index(0)
            assert sorted(scores.expected) == [0, 26, 26, 26] and scores.actual[shooter] == 23, scores
            return
    raise AssertionError("no short game has a moon")


def test_an_empty_legal_set_is_written_as_none_not_as_nothing():
    from hearts_ref.conformance.judge import describe

    line = describe((Difference("legal", CardSet.parse("2H JH"), CardSet.parse("")),))
    assert line == "legal: expected 2H JH, engine (none)"
    from hearts_ref.conformance.judge import judge_legal

    state = start_round(Rules(), complete_deal(Rules(), {0: "2C"}), direction="none")
    assert judge_legal(state, 0, False, 1, {}).message == "legal plays differ: expected 2C, engine (none)"


def _first_trick_of_points(seed: int = 3):
    """A game of the default rules played at random up to the play that completes its first trick of points: the
    game, the state before that play, its card, and the state after."""
    import random

    rng = random.Random(seed)
    game = Game.new(Rules(pass_cards=False)).deal_round(deal(Rules(), seed=seed), direction="none")
    state = game.round
    while True:
        index = rng.choice([i for i in range(52) if state.legal >> i & 1])
        after = state.play(CARDS[index])
        if not after.trick and after.taken != state.taken and after.points_taken() != state.points_taken():
            return game, state, index, after
        state = after


def test_lead_winner_or_trick_winner_the_points_of_the_trick_tell_a_wrong_lead_from_a_wrong_winner():
    """After a trick of points the engine has another seat lead: its points tell why. Given to the winner, the lead
    is wrong (LEAD-WINNER alone); given to the seat it has lead, the winner is (TRICK-WINNER, no LEAD-WINNER).
    After a trick of no points both read alike: the winner's rule first, then LEAD-WINNER (played on, see
    test_conformance_play_on)."""
    from dataclasses import replace

    from hearts_ref.conformance.diagnose import ambiguous_winner

    game, before, index, after = _first_trick_of_points()
    winner = after.to_play
    other = (winner + 1) % 4
    previous = reference_observation(game, before)
    shown = reference_observation(game, after)
    facts = StepFacts("play", before, after, game, index, previous)
    gained = [a - b for a, b in zip(shown.points_taken, previous.points_taken)]
    to_other = list(previous.points_taken)
    to_other[other] += gained[winner]
    moved = [Difference("to_move", winner, other)]
    lead = replace(shown, to_move=other)
    assert observation_rules(moved, facts, lead) == ("LEAD-WINNER",)
    won = replace(shown, to_move=other, points_taken=tuple(to_other))
    named = observation_rules(moved + [Difference("points_taken", shown.points_taken, won.points_taken)], facts, won)
    assert named[0] in ("TRICK-WINNER", "DECK-CARDS") and "LEAD-WINNER" not in named and not ambiguous_winner(named)
    # The first trick, of no points: the points cannot tell.
    state = start_round(Rules(), deal(Rules(), seed=3), direction="none")
    first = Game.new(Rules()).deal_round(deal(Rules(), seed=3), direction="none")
    for _ in range(3):
        state = state.play(CARDS[(state.legal & -state.legal).bit_length() - 1])
    last = (state.legal & -state.legal).bit_length() - 1
    closed = state.play(CARDS[last])
    assert closed.points_taken() == (0, 0, 0, 0)
    seat = next(s for s in range(4) if s != closed.to_play)
    facts = StepFacts("play", state, closed, first, last, reference_observation(first, state))
    named = observation_rules([Difference("to_move", closed.to_play, seat)], facts,
                              replace(reference_observation(first, closed), to_move=seat))
    assert ambiguous_winner(named) and named[-1] == "LEAD-WINNER"


def test_lead_winner_a_run_that_shows_a_wrong_lead_charges_the_seats_no_trick_of_points_could_tell_to_it():
    """A vector cannot play on: its seat to move after a trick of no points stays named TRICK-WINNER, LEAD-WINNER.
    The report charges it to LEAD-WINNER once another case shows a wrong lead beyond doubt and none a wrong winner;
    with a wrong winner shown too (two bugs, or one that cannot be told), it stays the winner's rule."""
    from hearts_ref.conformance.report import Case, Report

    def report(*sure: tuple[str, ...]) -> Report:
        made = Report(engine={"spec": "x", "name": "x"}, rules={}, seed=0, games=1)
        made.add(Case("vector/a", "vector", "failed", ("TRICK-WINNER", "LEAD-WINNER"),
                      details={"failure": {"field": "to_move", "rule_ids": ["TRICK-WINNER", "LEAD-WINNER"]}}))
        for k, rules in enumerate(sure):
            finding = {"kind": "observation", "rule_ids": list(rules), "expected": False,
                       "differences": [{"field": "to_move", "expected": 0, "actual": 1}]}
            made.add(Case(f"differential/uniform/{k}", "differential", "failed", rules,
                          details={"findings": [finding]}))
        return made

    alone = report()
    assert [f["rule_id"] for f in alone.summary()["findings"]] == ["TRICK-WINNER"]
    lead = report(("LEAD-WINNER",)).summary()
    assert [f["rule_id"] for f in lead["findings"]] == ["LEAD-WINNER", "LEAD-WINNER"]
    assert lead["rules"]["LEAD-WINNER"]["failed"] == 2 and lead["rules"]["TRICK-WINNER"]["failed"] == 0
    both = report(("LEAD-WINNER",), ("TRICK-WINNER",)).summary()
    assert both["rules"]["TRICK-WINNER"]["failed"] == 2 and both["rules"]["LEAD-WINNER"]["failed"] == 1
