"""TRICK-ORDER with a seat in ``play``, passes in any order (PASS-SIMULTANEOUS), and engines that deal (DEAL-HANDS).

The engine interface and the stdio protocol carry the seat that plays; an engine written for
``play(card)`` keeps working. The runner varies the order in which seats choose their passes,
offers illegal passes at every moment and plays out of turn, and judges an engine that deals
for itself on the deals it reports.
"""

from __future__ import annotations

import random
import sys
from collections import Counter

import pytest

from hearts_ref import Card, CardSet, Rules, deal
from hearts_ref.conformance.differential import run_game
from hearts_ref.conformance.negative import NegativeChecks
from hearts_ref.conformance.decider import PolicyDecider
from hearts_ref.conformance.policies import make_policy
from hearts_ref.conformance.script import ListSource, ScriptDecider
from hearts_ref.engine import EngineRejection, ReferenceEngine, seated_play, takes_seat
from hearts_ref.engines import StdioEngine
from hearts_ref.engines.failures import EngineProtocolError
from hearts_ref.round import start_round
from tests.engines.planted_turns import DealsTwelveToOneSeat, PlaysForAnySeat, ShufflingReference

SERVE = [sys.executable, "-m", "hearts_ref", "serve"]


class OldStyle(ReferenceEngine):
    """An engine written for the first interface: ``play(card)``, no seat."""

    def play(self, card):
        super().play(card)


def _started(engine, seed: int = 5):
    engine.new_game(Rules())
    engine.start_round(deal(Rules(), seed=seed), "none")
    return engine


# TRICK-ORDER: the seat in play --------------------------------------------------------------------

def test_takes_seat_reads_the_signature_and_an_adapter_says_what_its_engine_declared():
    class Varargs:
        def play(self, *args): ...

    assert takes_seat(ReferenceEngine()) and takes_seat(Varargs()) and not takes_seat(OldStyle())
    with StdioEngine(SERVE) as engine:
        assert takes_seat(engine) and engine.capabilities().play_seat
    with StdioEngine(SERVE + ["--engine", "python:tests.test_seats_and_deals:OldStyle"]) as engine:
        assert not takes_seat(engine)   # hearts-ref serve declares what the served engine's play takes


def test_trick_order_a_play_by_a_seat_not_to_move_is_refused_in_process_over_stdio_and_by_openspiel():
    engines = [ReferenceEngine(), StdioEngine(SERVE)]
    try:
        from hearts_ref.engines.openspiel import OpenSpielEngine
        engines.append(OpenSpielEngine())
    except ImportError:
        pass
    for engine in engines:
        engine.new_game(Rules.preset("openspiel") if "spiel" in engine.name else Rules())
        engine.start_round(deal(Rules(), seed=7), "none")
        seat = engine.observe().to_move
        with pytest.raises(EngineRejection) as refused:
            engine.play(Card.parse("2C"), (seat + 1) % 4)
        assert refused.value.rule_id == "TRICK-ORDER", (engine.name, refused.value)
        assert engine.observe().trick == ()              # refused: nothing changed
        engine.play(Card.parse("2C"), seat)
        assert engine.observe().trick == ("2C",)
        getattr(engine, "close", lambda: None)()


def test_an_engine_with_the_old_play_signature_is_judged_without_plays_out_of_turn():
    negative = NegativeChecks()
    run = run_game(OldStyle(), Rules(max_rounds=2), PolicyDecider(make_policy("uniform", random.Random(3))),
                   negative=negative)
    assert run.findings == [] and run.error is None and negative.counts["TRICK-ORDER"][1] == 0
    seated = NegativeChecks()
    run_game(ReferenceEngine(), Rules(max_rounds=2), PolicyDecider(make_policy("uniform", random.Random(3))),
             negative=seated)
    assert seated.counts["TRICK-ORDER"][0] > negative.counts["TRICK-ORDER"][0]   # the offers out of turn
    plays = []
    seated_play(type("Logs", (), {"play": lambda self, card: plays.append(card)})())(Card.parse("2C"), 3)
    assert plays == [Card.parse("2C")]


def test_a_play_out_of_turn_accepted_is_a_trick_order_finding():
    negative = NegativeChecks()
    run = run_game(PlaysForAnySeat(), Rules(max_rounds=1), PolicyDecider(make_policy("uniform", random.Random(1))),
                   negative=negative)
    [finding] = run.findings
    assert finding.kind == "accepted-illegal" and finding.rule_ids[0] == "TRICK-ORDER"
    assert finding.where["seat"] != finding.where["to_move"]


def test_the_stdio_client_sends_the_seat_only_to_an_engine_that_declared_play_seat():
    with StdioEngine(SERVE + ["--engine", "python:tests.test_seats_and_deals:OldStyle"]) as engine:
        _started(engine, seed=7)
        step = engine.play_observed(Card.parse("2C"), 0)   # seat 3 is to move; the seat is not sent, so it plays
        assert step.observation.trick == ("2C",)
    with StdioEngine(SERVE) as engine:
        _started(engine, seed=7)
        outcomes = engine.play_many([Card.parse("2C"), Card.parse("3C")], [3, 3])
        assert outcomes[0].observation.trick == ("2C",) and outcomes[1].rule_id == "TRICK-ORDER"


# PASS-SIMULTANEOUS: passes in any order -------------------------------------------------------------

def test_seats_choose_their_passes_in_varied_orders_and_a_script_replays_the_order():
    for i in range(12):   # the order is a choice of the script: a game replays with the same order
        first = run_game(ReferenceEngine(), Rules(max_rounds=3), PolicyDecider(make_policy("uniform", random.Random(i))))
        again = run_game(ReferenceEngine(), Rules(max_rounds=3), ScriptDecider(ListSource(first.script)))
        assert again.script == first.script and first.findings == []
    decider = PolicyDecider(make_policy("uniform", random.Random(0)))
    orders: Counter = Counter()
    for seed in range(48):
        state = start_round(Rules(), deal(Rules(), seed=seed), direction="left")
        order = []
        while state.passing:
            seat = decider.passer(state)
            order.append(seat)
            state = state.choose_pass(seat, decider.pass_cards(state, seat))
        orders[tuple(order)] += 1
    assert orders[(0, 1, 2, 3)] < 8 and len(orders) > 12, orders   # seat order is one order of 24


def test_negative_passes_are_offered_by_every_seat_and_after_others_chose():
    negative = NegativeChecks()
    run = run_game(ReferenceEngine(), Rules(max_rounds=4), PolicyDecider(make_policy("uniform", random.Random(2))),
                   negative=negative)
    assert run.findings == []
    # PASS-COUNT by each seat (two a seat a round), PASS-SIMULTANEOUS early and by a seat choosing again
    assert negative.counts["PASS-COUNT"][0] == 3 * 4 * 2 and negative.counts["PASS-SIMULTANEOUS"][0] >= 3 * 3


# DEAL-HANDS: engines that deal for themselves ----------------------------------------------------------

def test_an_engine_that_deals_for_itself_is_played_on_its_own_deals():
    engine = ShufflingReference(seed=4)
    run = run_game(engine, Rules(max_rounds=3), PolicyDecider(make_policy("uniform", random.Random(1)),
                                                              engine_deals=True))
    assert run.findings == [] and run.rounds == 3
    dealt = [result.dealt for result in run.game.results]
    assert dealt == [tuple(h.mask for h in d) for d in _deals(4, 3)]
    replay = run_game(ShufflingReference(seed=4), Rules(max_rounds=3), ScriptDecider(ListSource(run.script)))
    assert replay.script == run.script and replay.findings == []   # it deals the same again: the same game


def _deals(seed: int, rounds: int):
    rng = random.Random(seed)
    return [deal(Rules(), rng=rng, dealer=k % 4) for k in range(rounds)]


def test_a_deal_the_rules_forbid_is_an_illegal_deal_finding_naming_the_rule():
    run = run_game(DealsTwelveToOneSeat(), Rules(), PolicyDecider(make_policy("uniform", random.Random(1))))
    [finding] = run.findings
    assert finding.kind == "illegal-deal" and finding.rule_ids == ("DEAL-HANDS",)
    assert "14 cards" in finding.message and len(finding.where["hands"]) == 4


def test_the_stdio_client_reads_the_hands_a_dealing_engine_reports():
    spec = SERVE + ["--engine", "python:tests.engines.planted_turns:ShufflingReference"]
    with StdioEngine(spec) as engine:
        assert engine.capabilities().deals
        engine.new_game(Rules())
        hands = engine.start_round(None, "left")
        assert hands == _deals(0, 1)[0] and engine.observe().phase == "pass"
    with StdioEngine(SERVE) as engine:   # the reference does not deal: a start_round without hands is refused
        engine.new_game(Rules())
        with pytest.raises(EngineProtocolError, match="does not deal for itself"):
            engine.start_round(None, "none")
    assert all(isinstance(hand, CardSet) for hand in hands)
