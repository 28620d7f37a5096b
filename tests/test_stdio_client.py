"""StdioEngine against `hearts-ref serve`: the same game as the in-process reference at every step,
rejections with their rule, pipelined plays, refusals, and engine specs (load_engine)."""

from __future__ import annotations

import importlib.util
import json
import random
import sys
from pathlib import Path

import pytest

from hearts_ref import CARDS, Card, CardSet, Engine, EngineRejection, HeartsError, ReferenceEngine, Rules, deal
from hearts_ref.conformance.vectors import run_case
from hearts_ref.protocol import PROTOCOL_1_PARAMETERS
from hearts_ref.vectors import load_vectors
from hearts_ref.engines import (
    EngineInternalError, EngineProtocolError, EngineSpecError, EngineUnsupported, StdioEngine, Step, load_engine,
)

ROOT = Path(__file__).resolve().parent.parent
SERVE = [sys.executable, "-m", "hearts_ref", "serve"]


def served(*args: str) -> StdioEngine:
    return StdioEngine([*SERVE, *args], timeout=10, cwd=ROOT)


@pytest.fixture(scope="module")
def engine():
    with served() as engine:
        yield engine


def now(reference: ReferenceEngine) -> tuple:
    return reference.observe(), reference.legal_plays()


def differential_game(engine, rules: Rules, seed: int) -> int:
    """Play a whole game on ``engine`` and the reference, comparing at every step; return the steps."""
    rng = random.Random(seed)
    reference = ReferenceEngine()
    reference.new_game(rules)
    engine.new_game(rules)
    assert (engine.last_step.observation, engine.last_step.legal) == now(reference)
    steps, number = 0, 0
    while not reference.game.over:
        number += 1
        hands = deal(rules, rng=rng, dealer=(number - 1) % rules.players)
        step = engine.start_round_observed(hands, rules.pass_direction(number))
        reference.start_round(hands, rules.pass_direction(number))
        while True:
            assert (step.observation, step.legal) == now(reference), f"round {number}, step {steps}"
            steps += 1
            state = reference.game.round
            if state is None:
                break
            if state.passing:
                seat = state.to_move
                cards = CardSet(rng.sample(list(state.hand(seat)), 3))
                step = engine.pass_observed(seat, cards)
                reference.pass_cards(seat, cards)
            else:
                card = rng.choice(list(state.legal_plays()))
                step = engine.play_observed(card)
                reference.play(card)
    assert engine.observe() == reference.observe() and engine.observe().game_over
    return steps


def test_the_client_is_an_engine_named_by_the_handshake(engine):
    assert isinstance(engine, Engine)
    assert (engine.name, engine.version) == ("hearts-ref", "0.1.0")
    assert engine.capabilities() == ReferenceEngine().capabilities()


@pytest.mark.parametrize("rules, seed", [
    (Rules(), 1),
    (Rules.preset("openspiel", max_rounds=0, end_threshold=60), 2),
    (Rules(players=3, pass_cycle="left-right-none", jd_bonus=True, end_threshold=50), 3),
    (Rules(players=6, moon="subtract", end_threshold=40), 4),
    (Rules.preset("seed003", players=5, end_threshold=60), 5),     # two decks: copies written JC#2 (protocol 2)
    (Rules.preset("seed003", players=6, end_threshold=60), 6),
])
def test_a_whole_game_over_stdio_matches_the_reference_at_every_step(engine, rules, seed):
    assert differential_game(engine, rules, seed) > 50


def test_follow_suit_rejection_over_stdio_carries_the_rule_and_changes_nothing(engine):
    engine.new_game(Rules())
    hands = deal(Rules(), seed=5)
    engine.start_round(hands, "none")
    engine.play(Card.parse("2C"))
    before, legal = engine.observe(), engine.legal_plays()
    off_suit = next(card for card in hands[before.to_move] if card not in legal)
    with pytest.raises(EngineRejection) as caught:
        engine.play(off_suit)
    assert caught.value.rule_id == "FOLLOW-SUIT" and str(caught.value).count("FOLLOW-SUIT") == 1
    assert engine.observe() == before and engine.legal_plays() == legal


def test_pass_count_rejection_over_stdio(engine):
    engine.new_game(Rules())
    hands = deal(Rules(), seed=5)
    engine.start_round(hands, "left")
    with pytest.raises(EngineRejection) as caught:
        engine.pass_cards(0, CardSet(list(hands[0])[:4]))
    assert caught.value.rule_id == "PASS-COUNT"


def test_queries_right_after_a_step_cost_no_round_trip_but_after_a_refusal_they_ask(engine):
    engine.new_game(Rules())
    engine.start_round(deal(Rules(), seed=5), "none")
    sent = engine.commands_sent
    step = engine.play_observed(Card.parse("2C"))
    assert (engine.observe(), engine.legal_plays()) == step
    assert engine.commands_sent == sent + 1                      # one round trip for the whole step
    with pytest.raises(EngineRejection):
        engine.play(Card.parse("AH"))
    assert engine.observe() == step.observation                 # asked again: the refusal changed nothing
    assert engine.commands_sent == sent + 3


def test_without_cached_queries_every_query_asks_the_engine():
    with StdioEngine(SERVE, cwd=ROOT, cached_queries=False) as engine:
        engine.new_game(Rules())
        step = engine.start_round_observed(deal(Rules(), seed=5), "none")
        sent = engine.commands_sent
        assert (engine.observe(), engine.legal_plays()) == step
        assert engine.commands_sent == sent + 2


def test_play_many_gives_the_same_steps_as_one_round_trip_each(engine):
    rules = Rules()
    hands = deal(rules, seed=11)
    reference = ReferenceEngine()
    reference.new_game(rules)
    reference.start_round(hands, "none")
    cards, expected = [], []
    while reference.game.round is not None:
        card = CARDS[(reference.game.round.legal & -reference.game.round.legal).bit_length() - 1]
        reference.play(card)
        cards.append(card)
        expected.append(now(reference))
    engine.new_game(rules)
    engine.start_round(hands, "none")
    outcomes = engine.play_many(cards)
    assert [(o.observation, o.legal) for o in outcomes] == expected
    assert engine.last_step == outcomes[-1] and engine.last_step.observation.phase == "round-over"


def test_play_many_reports_a_rejection_in_place_and_stays_in_step(engine):
    engine.new_game(Rules())
    engine.start_round(deal(Rules(), seed=5), "none")
    outcomes = engine.play_many([Card.parse("2C"), Card.parse("AH"), Card.parse("AH")])
    assert isinstance(outcomes[0], Step)
    assert all(isinstance(o, EngineRejection) for o in outcomes[1:])
    assert engine.observe() == outcomes[0].observation        # the sequence numbers still match


def test_steps_many_plays_a_whole_round_in_one_write_with_the_steps_of_one_round_trip_each(engine):
    rules = Rules()
    hands = deal(rules, seed=12)
    reference = ReferenceEngine()
    reference.new_game(rules)
    reference.start_round(hands, "left")
    moves, expected = [("deal", (hands, "left"))], [now(reference)]
    for seat in range(4):   # PASS-COUNT: each seat passes its three lowest cards
        cards = CardSet.from_mask(sum(sorted(1 << c.index for c in reference.game.round.hand(seat))[:3]))
        reference.pass_cards(seat, cards)
        moves.append(("pass", (seat, cards)))
        expected.append(now(reference))
    while reference.game.round is not None:
        card = CARDS[(reference.game.round.legal & -reference.game.round.legal).bit_length() - 1]
        moves.append(("play", (card, reference.game.round.to_play)))
        reference.play(card)
        expected.append(now(reference))
    engine.new_game(rules)
    sent = engine.commands_sent
    outcomes = list(engine.steps_many(moves))
    assert [(o.observation, o.legal) for o in outcomes] == expected
    assert engine.commands_sent == sent + 1 + 4 + 52
    assert engine.last_step == outcomes[-1] and engine.observe().phase == "round-over"


def test_steps_many_gives_a_refusal_in_place_and_drops_the_replies_not_asked_for(engine):
    engine.new_game(Rules())
    hands = deal(Rules(), seed=5)
    outcomes = engine.steps_many([("deal", (hands, "none")), ("play", (Card.parse("AH"), None)),
                                  ("play", (Card.parse("2C"), None)), ("play", (Card.parse("2C"), None))])
    assert isinstance(next(outcomes), Step)
    refused = next(outcomes)
    assert isinstance(refused, EngineRejection) and refused.rule_id is not None   # the 2C leads (LEAD-OPEN)
    assert next(outcomes).observation.trick == ("2C",)
    # the last reply is not asked for: it is read and dropped before the next command, which stays in step
    observation = engine.observe()
    assert observation.trick == ("2C",) and observation.to_move is not None


def test_unsupported_variants_are_declared_and_refused_and_the_engine_goes_on():
    with served("--engine", "python:tests.engines.python_engines:FourPlayersOnly") as engine:
        capabilities = engine.capabilities()
        assert capabilities.unsupported == {"players": (3, 5, 6)}
        assert capabilities.known_deviations == ("SCORE-MOON",)
        with pytest.raises(EngineUnsupported) as caught:
            engine.new_game(Rules(players=5, pass_cycle="left-right-none"))
        assert caught.value.verdict == "unsupported" and "players=5" in str(caught.value)
        assert engine.running
        engine.new_game(Rules())


def test_an_internal_error_is_reported_and_the_engine_goes_on():
    with served("--engine", "python:tests.engines.python_engines:ExplodesOnThirdPlay") as engine:
        engine.new_game(Rules())
        step = engine.start_round_observed(deal(Rules(), seed=5), "none")
        with pytest.raises(EngineInternalError, match="ZeroDivisionError: planted") as caught:
            for _ in range(3):
                step = engine.play_observed(next(iter(step.legal)))
        assert caught.value.verdict == "internal-error"
        assert engine.running and engine.observe() == step.observation


def test_a_planted_follow_suit_bug_shows_as_a_different_legal_set_on_the_first_trick():
    with served("--engine", "python:tests.engines.python_engines:IgnoresFollowSuit") as engine:
        with pytest.raises(AssertionError, match=r"round 1, step 1\b"):
            differential_game(engine, Rules(pass_cards=False), 1)


# Protocol versions: 2 with hearts-ref serve, 1 unchanged with an engine that speaks only 1 ------------------

ENGINES = ROOT / "tests" / "engines"
VERSION_1_RULES = [name for name in Rules().to_dict() if name in PROTOCOL_1_PARAMETERS]


def test_serve_speaks_protocol_2_after_one_hello(engine):
    assert engine.protocol == 2 == engine.capabilities().protocol


def test_a_strict_protocol_1_engine_is_offered_1_after_refusing_2_and_sent_only_what_version_1_knew(tmp_path):
    log = tmp_path / "read.jsonl"
    with StdioEngine([sys.executable, str(ENGINES / "protocol1.py"), "--log", str(log)], timeout=10) as strict:
        assert (strict.protocol, strict.capabilities().protocol, strict.commands_sent) == (1, 1, 2)
        assert strict.breaker.reason is None and strict.running   # the refused offer is no failure
        assert differential_game(strict, Rules(end_threshold=40), 5) > 100
    sent = [json.loads(line) for line in log.read_text(encoding="utf-8").splitlines()]
    assert sent[:2] == [{"seq": 0, "cmd": "hello", "protocol": 2}, {"seq": 1, "cmd": "hello", "protocol": 1}]
    rules = next(command["rules"] for command in sent if command["cmd"] == "new_game")
    assert list(rules) == VERSION_1_RULES and Rules.from_dict(rules) == Rules(end_threshold=40)


def test_the_engine_written_from_the_version_1_page_answers_1_and_plays_as_before():
    with StdioEngine([sys.executable, str(ENGINES / "correct.py")], timeout=10) as correct:
        assert (correct.protocol, correct.commands_sent) == (1, 1)
        differential_game(correct, Rules(end_threshold=30), 6)
        # a parameter added after version 1 is sent to it when not at its default: seed 003's deal for three
        differential_game(correct, Rules.preset("seed003", players=3, end_threshold=30), 7)


TWO_DECKS = Rules.preset("seed003", players=5)
PROTOCOL_2_REASON = "a game with two decks (decks=2) needs protocol 2, which writes the second deck's cards as 'JC#2'"


def test_the_two_deck_vectors_pass_over_stdio_against_serve(engine):
    cases = [case for case in load_vectors() if case.rules.decks == 2]
    assert len(cases) >= 9
    results = [run_case(engine, case) for case in cases]
    assert [(r.case_id, r.status) for r in results if r.status != "passed"] == []


@pytest.mark.parametrize("script", ["protocol1.py", "correct.py"])
def test_a_protocol_1_engine_is_never_sent_a_two_deck_game_and_says_why(script):
    with StdioEngine([sys.executable, str(ENGINES / script)], timeout=10) as old:
        assert old.capabilities().cannot_play(TWO_DECKS).startswith(PROTOCOL_2_REASON)
        sent = old.commands_sent
        with pytest.raises(EngineUnsupported, match="needs protocol 2"):
            old.new_game(TWO_DECKS)
        assert old.commands_sent == sent and old.running        # nothing was sent
        case = next(case for case in load_vectors() if case.rules.decks == 2)
        result = run_case(old, case)
        assert result.status == "skipped" and PROTOCOL_2_REASON in result.reason
        old.new_game(Rules())                                   # and it plays one deck as before


def test_a_strict_protocol_1_engine_refusing_a_later_parameter_skips_the_game_and_goes_on():
    with StdioEngine([sys.executable, str(ENGINES / "protocol1.py")], timeout=10) as strict:
        with pytest.raises(EngineUnsupported, match=r"engine does not support even_out \(added after protocol 1"):
            strict.new_game(Rules.preset("seed003", players=3))
        assert strict.running and strict.breaker.reason is None
        differential_game(strict, Rules(end_threshold=30), 8)


def test_a_hello_reply_with_a_version_not_offered_is_a_protocol_error():
    script = ("import json, sys\nfor line in sys.stdin:\n    seq = json.loads(line)['seq']\n"
              "    print(json.dumps({'seq': seq, 'ok': True, 'protocol': 3, 'name': 'n', 'version': 'v'}), flush=True)")
    with pytest.raises(EngineProtocolError, match=r"engine speaks protocol 3; offered 2, this runner speaks 1 and 2"):
        StdioEngine([sys.executable, "-c", script], timeout=10)


def test_argv_must_be_a_list():
    with pytest.raises(HeartsError, match="non-empty list of arguments"):
        StdioEngine("python -m hearts_ref serve")


# Engine specs --------------------------------------------------------------------------------

def test_load_engine_python_spec_gives_an_in_process_engine():
    engine = load_engine("python:tests.engines.python_engines:FourPlayersOnly")
    assert isinstance(engine, ReferenceEngine) and engine.name == "four-players-only"


def test_load_engine_python_spec_takes_an_engine_object_a_class_or_a_factory():
    from tests.engines import python_engines
    as_object = load_engine("python:tests.engines.python_engines:IGNORES_FOLLOW_SUIT")
    assert as_object is python_engines.IGNORES_FOLLOW_SUIT                 # used as it is, not called
    from_class = load_engine("python:tests.engines.python_engines:IgnoresFollowSuit")
    from_factory = load_engine("python:tests.engines.python_engines:ignores_follow_suit")
    for engine in (from_class, from_factory):                              # a fresh instance each time
        assert type(engine) is python_engines.IgnoresFollowSuit and engine is not as_object
    assert load_engine("tests.engines.python_engines:IGNORES_FOLLOW_SUIT") is as_object


def test_load_engine_reference_is_the_reference_in_process():
    assert type(load_engine("reference")) is ReferenceEngine


def test_load_engine_plain_module_attr_is_a_python_spec_too():
    assert load_engine("tests.engines.python_engines:FourPlayersOnly").name == "four-players-only"
    from hearts_ref.engines.stdio import load_engine as from_stdio
    assert from_stdio is load_engine


def test_load_engine_command_spec_runs_the_command_without_a_shell():
    command = f"{sys.executable} -m hearts_ref serve --engine 'python:tests.engines.python_engines:FourPlayersOnly'"
    with load_engine(command, cwd=ROOT, timeout=10) as engine:
        assert isinstance(engine, StdioEngine) and engine.name == "four-players-only"
        assert engine.argv[-1] == "python:tests.engines.python_engines:FourPlayersOnly"   # quotes removed


@pytest.mark.parametrize("spec, message", [
    ("", "empty engine spec"),
    ("python:", "expected python:module:attr"),
    ("python:hearts_ref.cards:CARDS", "CARDS is not a class or a factory, nor an engine object (a tuple without name, version,"),
    ("python:hearts_ref.engine:observe_game", "observe_game() failed: TypeError"),
    ("python:hearts_ref.cards:Card", "Card() failed: TypeError"),
    ("python:hearts_ref.cards:Card.parse", "parse() failed: TypeError"),
    ("python:tests.engines.python_engines:Nope.x", "has no attribute 'Nope'"),
])
def test_load_engine_bad_specs_say_what_is_wrong(spec, message):
    with pytest.raises(EngineSpecError) as caught:
        load_engine(spec)
    assert message in str(caught.value)


def test_load_engine_openspiel_gives_the_adapter_or_says_it_is_missing():
    if importlib.util.find_spec("hearts_ref.engines.openspiel") is None:
        with pytest.raises(EngineSpecError, match="OpenSpiel adapter"):
            load_engine("openspiel")
    else:
        assert isinstance(load_engine("openspiel"), Engine)
