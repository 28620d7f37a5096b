"""Rounds judged from their reply lines in one go (conformance/batch.py): the same report as the step-by-step loop
gives, for an engine that agrees, one that leaves the reference in its second round, and one that writes its
replies otherwise; and the lines foreseen are the lines ``hearts-ref serve`` writes."""

from __future__ import annotations

import random
import sys
import time
from pathlib import Path

import pytest

from hearts_ref import CARDS, CardSet, ReferenceEngine, Rules, deal
from hearts_ref.cli import main
from hearts_ref.conformance import quick
from hearts_ref.conformance.batch import round_lines
from hearts_ref.conformance.link import LookaheadLink
from hearts_ref.engines import StdioEngine
from hearts_ref.step_lines import step_line

ROOT = Path(__file__).resolve().parent.parent
SERVE = f"{sys.executable} -m hearts_ref serve"
ENGINES = {
    "agrees": SERVE,
    "leaves in round 2": f"{SERVE} --engine python:tests.engines.late:MiscountsSecondRound",
    "writes otherwise": f"{sys.executable} {ROOT / 'tests' / 'engines' / 'spaced.py'}",
}


def conform(engine: str, path: Path) -> tuple[int, bytes]:
    code = main(["conform", "--engine", engine, "--games", "6", "--negative-games", "0", "--no-vectors",
                 "--shrink-time", "0", "--no-timings", "--quiet", "--report", str(path)])
    return code, path.read_bytes()


@pytest.mark.parametrize("name", list(ENGINES))
def test_the_report_is_the_step_by_step_loops(name, tmp_path, monkeypatch, capsys):
    taken = []
    take_round = LookaheadLink.take_round

    def counted(link, lines):
        step = take_round(link, lines)
        taken.append(step is not None)
        return step

    monkeypatch.setattr(LookaheadLink, "take_round", counted)
    judged = conform(ENGINES[name], tmp_path / "judged.json")
    monkeypatch.setattr(quick, "batch_round", lambda table: False)
    stepped = conform(ENGINES[name], tmp_path / "stepped.json")
    capsys.readouterr()
    assert judged == stepped
    if name == "agrees":
        assert judged[0] == 0 and taken and all(taken)
    elif name == "leaves in round 2":   # the first round of a game taken whole, the second not: found step by step
        assert judged[0] == 1 and b"TRICK-ORDER" in judged[1]
        assert True in taken and False in taken
    else:   # tried once a game, given up at the first line
        assert judged[0] == 0 and not any(taken) and len(taken) == 6


def test_the_lines_foreseen_are_the_lines_the_server_writes():
    rules = Rules()
    rng = random.Random(3)
    with StdioEngine(SERVE.split(), timeout=10, cwd=ROOT) as engine:
        engine.new_game(rules)
        reference = ReferenceEngine()
        reference.new_game(rules)
        for number in (1, 2):
            hands = deal(rules, rng=rng, dealer=number - 1)
            direction = rules.pass_direction(number)
            game = reference.game.deal_round(hands, direction=direction)
            state, passes, plan = game.round, [], []
            while state.passing:
                seat = state.to_move
                cards = CardSet.from_mask(sum(sorted(1 << c.index for c in state.hand(seat))[:3]))
                passes.append((state, seat, cards, state.choose_pass(seat, cards)))
                state = passes[-1][-1]
            while not state.is_over:
                card = CARDS[rng.choice([i for i in range(52) if state.legal >> i & 1])]
                plan.append((state, card, state.play(card)))
                state = plan[-1][-1]
            before, card, _ = plan[-1]
            scored = game._replace(round=before).play(card)
            moves = ([("deal", (hands, direction))] + [("pass", (seat, cards)) for _, seat, cards, _ in passes]
                     + [("play", (card, before.to_play)) for before, card, _ in plan])
            sent = engine.commands_sent
            engine.steps_many(moves)
            lines = round_lines(engine.round_seq, game, game.round, passes, plan, scored)
            assert engine.round_seq == sent and len(lines) == len(moves)
            assert engine.take_expected(lines)
            assert engine.last_step == engine.step_of(lines[-1]) and engine.last_step.observation.phase == "round-over"
            reference.game = scored   # the next round dealt after this one's score


def a_round(rules: Rules, seed: int) -> list[tuple[str, object]]:
    """A round's moves, the lowest legal card played at every step."""
    reference = ReferenceEngine()
    reference.new_game(rules)
    hands = deal(rules, seed=seed)
    reference.start_round(hands, "left")
    moves: list[tuple[str, object]] = [("deal", (hands, "left"))]
    while reference.game.round.passing:
        seat = reference.game.round.to_move
        cards = CardSet.from_mask(sum(sorted(1 << c.index for c in reference.game.round.hand(seat))[:3]))
        reference.pass_cards(seat, cards)
        moves.append(("pass", (seat, cards)))
    while reference.game.round is not None:
        state = reference.game.round
        card = CARDS[(state.legal & -state.legal).bit_length() - 1]
        moves.append(("play", (card, state.to_play)))
        reference.play(card)
    return moves


def test_moves_sent_early_give_the_replies_of_moves_sent_together():
    rules = Rules()
    moves = a_round(rules, 11)
    with StdioEngine(SERVE.split(), timeout=10, cwd=ROOT) as engine:
        engine.new_game(rules)
        together = [(o.observation, o.legal) for o in engine.steps_many(moves)]
        engine.new_game(rules)
        sent = engine.commands_sent
        assert engine.send_early(moves[:5]) and engine.send_early(moves[5:21])
        assert engine.commands_sent == sent + 21
        early = [(o.observation, o.legal) for o in engine.steps_many(moves)]
        assert early == together and engine.commands_sent == sent + len(moves)
        assert engine.round_seq == sent and engine.observe().phase == "round-over"


def test_moves_sent_early_and_never_taken_are_read_past_and_the_engine_stays_in_step():
    rules = Rules()
    moves = a_round(rules, 12)
    with StdioEngine(SERVE.split(), timeout=10, cwd=ROOT) as engine:
        engine.new_game(rules)
        assert engine.send_early(moves[:9])
        engine.new_game(rules)   # the runner stopped before sending the round: their replies are dropped
        assert engine.observe().phase == "round-over"
        assert not engine.send_early(moves[:70] * 2)   # past the first window: not sent
        assert engine.send_early(moves[:1])
        with pytest.raises(ValueError):
            engine.steps_many(moves[1:])
        assert [o.observation.phase for o in engine.steps_many(moves[:2])] == ["pass", "pass"]


def reference_lines(rules: Rules, moves: list[tuple[str, object]], first: int) -> list[bytes]:
    """The replies, as read, that an engine agreeing with the reference writes to ``moves`` from seq ``first``."""
    reference = ReferenceEngine()
    reference.new_game(rules)
    lines = []
    for seq, (kind, move) in enumerate(moves, first):
        if kind == "deal":
            reference.start_round(*move)
        elif kind == "pass":
            reference.pass_cards(*move)
        else:
            reference.play(*move)
        lines.append(step_line(seq, reference.observe(), reference.legal_plays().mask, ""))
    return lines


def outcomes(argv: list[str], moves: list[tuple[str, object]], change: int | None = None) -> list[tuple]:
    """What ``steps_many`` gives for ``moves`` on the engine ``argv``; with ``change``: after take_expected was offered
    the reference's lines, that one written otherwise."""
    def seen(outcome):
        return (outcome.observation, outcome.legal) if hasattr(outcome, "observation") else (type(outcome), str(outcome).splitlines()[0])

    with StdioEngine(argv, timeout=1, cwd=ROOT) as engine:
        engine.new_game(Rules())
        replies = engine.steps_many(moves)
        if change is not None:
            lines = reference_lines(Rules(), moves, engine.round_seq)
            lines[change] = lines[change].replace(b'"ok":true', b'"ok": true')
            assert not engine.take_expected(lines)
        return [seen(outcome) for outcome in replies]


# (hang.py run as a module: a test elsewhere looks for processes left behind by that script's path)
@pytest.mark.parametrize("argv", [SERVE.split(), [sys.executable, "-m", "tests.engines.hang", "play", "20"]],
                         ids=["a line otherwise", "a timeout"])
def test_replies_not_taken_are_the_moves_replies_as_always(argv):
    moves = a_round(Rules(), 13)
    plain = outcomes(argv, moves)
    offered = outcomes(argv, moves, change=30 if argv == SERVE.split() else 40)
    assert offered == plain
    assert len(plain) == (len(moves) if argv == SERVE.split() else 5 + 20)   # the 20th play's reply never comes


def test_a_crash_among_moves_sent_early_is_at_its_move_when_the_rest_cannot_be_written():
    """The engine exits at the 5th play of moves sent early; the rest of the round, written after it has exited,
    meets a closed pipe. The replies it wrote come first and the crash takes the place of the 5th play, as when
    the whole round was written before it ended: the step found does not depend on how fast the engine died."""
    moves = a_round(Rules(), 14)
    plays = [k for k, (kind, _) in enumerate(moves) if kind == "play"]
    argv = [sys.executable, str(ROOT / "tests" / "engines" / "crash.py"), "play", "5"]
    with StdioEngine(argv, timeout=10, cwd=ROOT) as engine:
        engine.new_game(Rules())
        assert engine.send_early(moves[:plays[8]])
        process = engine._channel.process
        for _ in range(500):   # until it has exited: the next write meets the closed pipe
            if process.exit_status() is not None:
                break
            time.sleep(0.01)
        got = list(engine.steps_many(moves))
    assert [type(outcome).__name__ for outcome in got] == ["Step"] * plays[4] + ["EngineCrashed"]
    assert f"while 'play' (seq {engine.round_seq + plays[4]}) was due" in str(got[-1])


def test_an_end_met_in_moves_never_taken_starts_the_engine_again_for_the_next_game():
    """A game that stops before the moves it sent ahead are taken (a finding with --stop-at-first): the engine
    exits on one of them, which nobody judges; the next game starts on the engine started again, not as a crash."""
    moves = a_round(Rules(), 14)
    argv = [sys.executable, str(ROOT / "tests" / "engines" / "crash.py"), "play", "5"]
    with StdioEngine(argv, timeout=10, cwd=ROOT) as engine:
        engine.new_game(Rules())
        first = engine.pid
        replies = engine.steps_many(moves)
        assert type(next(replies)).__name__ == "Step"   # the deal's reply taken, the rest never asked for
        engine.new_game(Rules())
        assert engine.pid != first and engine.observe().phase == "round-over"
