"""A round judged in one go (.quick): the same report as step by step, for engines that agree and that do not."""

from __future__ import annotations

import json

import pytest

pytest.importorskip("pyspiel")

from hearts_ref import CardSet, Rules, deal   # noqa: E402
from hearts_ref.cards import CARDS   # noqa: E402
from hearts_ref.cardset import bits_of   # noqa: E402
from hearts_ref.conformance.runner import run_differential   # noqa: E402
from hearts_ref.conformance.shrink import Budget   # noqa: E402
from hearts_ref.engines.openspiel import OpenSpielEngine   # noqa: E402
from hearts_ref.round import start_round   # noqa: E402

OPENSPIEL = Rules.preset("openspiel")
SHRINK = Budget(seconds=None, replays=200)   # counted in replays: the same shrink on any machine


class StepByStep(OpenSpielEngine):
    """OpenSpiel's adapter without its round in one call: the play loop judges every step itself."""

    trace_round = None


class Counted(OpenSpielEngine):
    """OpenSpiel's adapter, counting the rounds it was sent in one call."""

    traced = 0

    def trace_round(self, *args, **kwargs):
        Counted.traced += 1
        return super().trace_round(*args, **kwargs)


def _report(engine, rules, games, seed, negative_games=0):
    """The report as JSON data, without the durations."""
    report = run_differential(engine, rules, games, seed, negative_games=negative_games, shrink_budget=SHRINK,
                              spec="openspiel")
    return json.loads(report.dumps(timings=False))


def _durations(data, path=""):
    """Every duration written in a report's data (a ``seconds`` that is not 0), with where it is."""
    if isinstance(data, dict):
        return [(f"{path}/{key}", value) for key, value in data.items() if key == "seconds" and value] + [
            found for key, value in data.items() for found in _durations(value, f"{path}/{key}")]
    if isinstance(data, list):
        return [found for k, value in enumerate(data) for found in _durations(value, f"{path}[{k}]")]
    return []


def test_a_report_without_timings_writes_no_duration():
    """Not the cases', nor the shrinks' of every finding: two runs compare byte for byte on any machine."""
    report = run_differential(OpenSpielEngine(jd_bonus=True), OPENSPIEL, 6, 3, shrink_budget=SHRINK, spec="openspiel")
    data = report.to_dict()
    assert any("/findings[0]/reproduction/search/seconds" in where for where, _ in _durations(data))
    assert _durations(json.loads(report.dumps(timings=False))) == []


@pytest.mark.parametrize("overrides", [{}, {"qs_breaks_hearts": False}, {"jd_bonus": True},
                                       {"can_lead_any_club": True}, {"must_break_hearts": False},
                                       {"no_pts_on_first_trick": False}])
def test_a_round_in_one_go_reports_what_step_by_step_does(overrides):
    """Every finding, its step, its first rule and its reproduction: byte for byte, all policies."""
    quick = _report(OpenSpielEngine(**overrides), OPENSPIEL, 24, 3, negative_games=4)
    slow = _report(StepByStep(**overrides), OPENSPIEL, 24, 3, negative_games=4)
    assert quick == slow
    failed = quick["summary"]["counts"]["failed"]
    assert (failed == 0) == (not overrides), failed


class WaitingAstray(OpenSpielEngine):
    """OpenSpiel's adapter showing the wrong seat to move once one pass is chosen (PASS-SIMULTANEOUS)."""

    def _waiting(self):
        seat = super()._waiting()
        return (seat + 1) % 4 if self._passed + len(self._pending) == 1 else seat


class WaitingAstrayStepByStep(WaitingAstray):
    trace_round = None


def test_a_seat_shown_wrong_between_passes_is_found_as_step_by_step_finds_it():
    """After a pass but the last the trace holds only the seat to move and hearts broken: enough to find this."""
    quick = _report(WaitingAstray(), OPENSPIEL, 12, 3)
    assert quick == _report(WaitingAstrayStepByStep(), OPENSPIEL, 12, 3)
    failed = [case for case in quick["cases"] if case["status"] == "failed"]
    passing = sum(1 for case in quick["cases"] if case["steps"] > 53)   # the games that passed cards
    assert passing and len(failed) == passing and all(case["rule_ids"][0] == "PASS-SIMULTANEOUS" for case in failed)


def test_each_game_of_a_campaign_is_sent_in_one_go_and_judged_to_its_last_step():
    Counted.traced = 0
    report = run_differential(Counted(), OPENSPIEL, 20, 5, shrink_budget=0)
    assert Counted.traced == 20 and report.summary()["counts"]["passed"] == 20 and report.rounds == 20
    assert all(c.details["steps"] == 53 + 4 * (c.details["steps"] > 53) for c in report.cases)   # every step
    assert sum(report.coverage.values()) > 20   # the games' situations counted, as step by step


def test_the_trace_shows_what_observe_shows_after_each_move():
    rules = OPENSPIEL
    hands = deal(rules, seed=11)
    state = start_round(rules, hands, direction="left")
    passes = []
    for seat in range(4):   # each seat passes its three lowest cards
        low = list(bits_of(state.hands[seat]))[:3]
        passes.append((seat, CardSet.from_mask(sum(1 << i for i in low))))
        state = state.choose_pass(seat, passes[-1][1])
    cards = []
    while not state.is_over:   # each seat plays its lowest legal card
        card = CARDS[next(bits_of(state.legal))]
        cards.append(card.index)
        state = state.play(card)
    engine = OpenSpielEngine()
    engine.new_game(rules)
    shown, trace, final = engine.trace_round(hands, "left", passes, cards)
    one = OpenSpielEngine()
    one.new_game(rules)
    one.start_round(hands, "left")
    observed = [one.observe()]
    for seat, chosen in passes:
        one.pass_cards(seat, chosen)
        observed.append(one.observe())
    assert shown == [observed[0], observed[-1]] and len(trace.legal) == 52 and len(trace.to_move) == 51
    assert trace.passing == [(o.to_move, o.hearts_broken) for o in observed[1:-1]] and len(trace.passing) == 3
    assert all((o.phase, o.trick, o.points_taken, o.round_scores, o.totals, o.game_over, o.winners)
               == ("pass", (), (0,) * 4, None, (0,) * 4, False, ()) for o in observed[1:-1])   # the rest, by its word
    readings = []
    for k, index in enumerate(cards):
        assert trace.legal[k] == one.legal_plays().mask
        one.play(CARDS[index])
        if k < 51:
            o = one.observe()
            assert (o.phase, o.round_scores, o.totals, o.game_over, o.winners) == ("play", None, (0,) * 4, False, ())
            assert (trace.to_move[k], trace.hearts_broken[k]) == (o.to_move, o.hearts_broken)
            size = trace.trick_sizes[k]
            assert o.trick == tuple(str(CARDS[i]) for i in cards[k + 1 - size:k + 1]) if size else o.trick == ()
            if k == 0 or size == 0:   # the points shown change only when a trick closes
                readings.append(o.points_taken)
            assert o.points_taken == readings[-1]
    assert trace.points == readings and len(readings) == 13
    assert final == one.observe() and final.game_over


def test_a_card_openspiel_does_not_allow_ends_the_trace_with_its_legal_cards():
    rules = OPENSPIEL
    hands = deal(rules, seed=4)
    engine = OpenSpielEngine()
    engine.new_game(rules)
    opener = next(seat for seat in range(4) if 0 in [c.index for c in hands[seat]])   # who holds 2C
    wrong = max(c.index for c in hands[opener])
    shown, trace, final = engine.trace_round(hands, "none", [], [wrong])
    assert len(shown) == 1 and final is None and trace.legal == [1 << 0]   # only the two of clubs may lead
    assert trace.to_move == trace.hearts_broken == []   # no card played


@pytest.mark.parametrize("stop", [1, 4, 5, 23, 48, 49, 51])
def test_a_trace_that_stops_early_leaves_the_engine_as_the_moves_alone_do(stop):
    """After the cards it took (a card not allowed ends a trace), the adapter shows and plays on as if each move had
    been sent alone: its trick, its points, its seat to move."""
    rules = OPENSPIEL
    hands = deal(rules, seed=stop)
    state = start_round(rules, hands, direction="none")
    cards = []
    for _ in range(stop):   # each seat plays its highest legal card
        card = CARDS[list(bits_of(state.legal))[-1]]
        cards.append(card.index)
        state = state.play(card)
    wrong = next(i for i in range(52) if not state.legal >> i & 1 and state.hands[state.to_play] >> i & 1) \
        if state.legal != state.hands[state.to_play] else None
    traced, alone = OpenSpielEngine(), OpenSpielEngine()
    for engine in (traced, alone):
        engine.new_game(rules)
    traced.trace_round(hands, "none", [], cards + ([wrong] if wrong is not None else []))
    alone.start_round(hands, "none")
    alone.observe()
    for index in cards:
        alone.legal_plays()
        alone.play(CARDS[index])
    assert traced.observe() == alone.observe() and traced.legal_plays() == alone.legal_plays()
    while not state.is_over:   # and both play on alike
        card = CARDS[next(bits_of(state.legal))]
        state = state.play(card)
        for engine in (traced, alone):
            engine.play(card)
        assert traced.observe() == alone.observe()
