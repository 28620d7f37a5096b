"""Bad input on the wire: malformed engine replies (read by the runner's client) and malformed protocol lines
(read by ``hearts-ref serve``). Each ends in a precise error, never an exception of another kind; what the
fast paths read, they read exactly as the strict readers do.

Deterministic: derandomized, no example database. The default run tries a few hundred inputs per test;
``python bench/fuzz_at_scale.py`` runs the same judges on tens of thousands and prints the count.
"""

from __future__ import annotations

import io
import json
import random
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hearts_ref import CardSet, ReferenceEngine, Rules, deal
from hearts_ref.engine import EngineRejection, Observation
from hearts_ref.engines.failures import EngineFailure
from hearts_ref.engines.stdio import Step, read_reply
from hearts_ref.protocol import (
    CARD_TEXT, ERROR_KINDS, PHASES, WireError, cards_from_wire, cards_to_wire, decode, encode, encode_command,
    observation_from_wire, step_from_line,
)
from hearts_ref.serve import Server, serve
from tests.test_fuzz_readers import damaged, json_value, mutated

FUZZ = settings(deadline=None, derandomize=True, database=None, suppress_health_check=list(HealthCheck))
EXAMPLES = 150      # per test in the default run (bench/fuzz_at_scale.py: many more)


class PlainReference(ReferenceEngine):
    """The reference as any other Python engine: served on the server's ordinary path, not its fast one."""


def _mid_game() -> tuple[Any, list[bytes], list[bytes]]:
    """A game in its first trick after the pass, the commands that led there and the server's replies."""
    rules, rng = Rules(), random.Random(5)
    engine = ReferenceEngine()
    server = Server(engine)
    hands = deal(rules, seed=5)
    commands = [encode_command(0, "hello", {"protocol": 1}), encode_command(1, "new_game", {"rules": rules.to_dict()}),
                encode_command(2, "start_round", {"hands": [[str(c) for c in h] for h in hands], "direction": "left"})]
    replies = [server.reply_line(line) for line in commands]
    seq = 3
    while engine.game.round.passing:
        seat = engine.game.round.to_move
        line = encode_command(seq, "pass", {"seat": seat, "cards": [str(c) for c in list(hands[seat])[:3]]})
        commands.append(line)
        replies.append(server.reply_line(line))
        seq += 1
    for k in range(3):
        legal = list(engine.legal_plays())
        fields = {"card": str(legal[rng.randrange(len(legal))])}
        if k == 2:   # a play that names its seat, as the runner writes it to an engine that declares play_seat
            fields["seat"] = engine.game.round.to_play
        line = encode_command(seq, "play", fields)
        commands.append(line)
        replies.append(server.reply_line(line))
        seq += 1
    for command in ("legal", "observe"):
        commands.append(encode_command(seq, command, {}))
        seq += 1
    replies.append(server.reply_line(encode_command(seq, "play", {"card": "AH"})))   # a refusal: not held
    replies.append(encode({"seq": seq, "ok": False, "error": {"kind": "unsupported", "message": "no jack"}}))
    return engine.game, commands, replies


GAME, COMMANDS, REPLIES = _mid_game()
STEP_REPLIES = [line for line in REPLIES if b'"legal":' in line and b'"observation"' in line]
SEQ = 9


# Engine replies, as the runner's client reads them ---------------------------------------------------

def judge_reply(line: bytes, *, steps: bool = True) -> None:
    """The reply is read, or refused with one precise line; a fast read equals the strict one."""
    what = f"'play' (seq {SEQ})"
    try:
        outcome = read_reply(line, SEQ, what, steps=steps)
    except WireError as error:
        message = str(error)
        assert message.strip() and "\n" not in message and len(message) < 1000, message
    else:
        assert isinstance(outcome, (Step, dict, EngineRejection, EngineFailure)), outcome
        if isinstance(outcome, Step):
            assert isinstance(outcome.observation, Observation) and isinstance(outcome.legal, CardSet)
    fast = step_from_line(line)
    if fast is not None:
        reply = decode(line)
        assert fast == (reply["seq"], observation_from_wire(reply["observation"]),
                        cards_from_wire(reply["legal"], field="legal"))


def _renumbered(line: bytes) -> str:
    data = json.loads(line)
    data["seq"] = SEQ
    return json.dumps(data)


def _compact(data: Any) -> bytes:
    return (json.dumps(data, separators=(",", ":"), ensure_ascii=False) + "\n").encode()


card_texts = st.sampled_from(CARD_TEXT + ("TH", "1C", "QS ", "qs", "", "JC#3", "JC#1", "jc#2", "QS#", "#2", "10H#22"))
int_lists = st.lists(st.one_of(st.integers(-30, 130), st.sampled_from([10**20, True, 1.5, None])), max_size=6)


@st.composite
def step_replies(draw: Any) -> bytes:
    """A step reply written compactly in protocol order, as the fast reader expects, with odd values inside."""
    observation = {"phase": draw(st.sampled_from(PHASES + ("done", ""))),
                   "to_move": draw(st.one_of(st.none(), st.integers(-2, 6), st.booleans())),
                   "trick": draw(st.lists(card_texts, max_size=5)),
                   "hearts_broken": draw(st.one_of(st.booleans(), st.sampled_from([0, 1, None]))),
                   "points_taken": draw(int_lists), "round_scores": draw(st.one_of(st.none(), int_lists)),
                   "totals": draw(int_lists), "game_over": draw(st.booleans()), "winners": draw(int_lists)}
    if draw(st.booleans()):
        observation[draw(st.sampled_from(list(observation)))] = draw(json_value)
    reply = {"seq": draw(st.sampled_from([SEQ, SEQ, SEQ - 1, -1])), "ok": True, "observation": observation,
             "legal": draw(st.lists(card_texts, max_size=14))}
    return _compact(reply)


@settings(FUZZ, max_examples=EXAMPLES)
@given(line=st.one_of(mutated(_renumbered(STEP_REPLIES[-1])), mutated(_renumbered(REPLIES[-1]))))
def test_fuzz_reply_fields(line):
    judge_reply(line)


@settings(FUZZ, max_examples=EXAMPLES)
@given(line=st.one_of(*(damaged(_renumbered(reply)) for reply in (STEP_REPLIES[0], STEP_REPLIES[-1], REPLIES[-2]))))
def test_fuzz_reply_bytes(line):
    judge_reply(line)
    judge_reply(line, steps=False)


@settings(FUZZ, max_examples=EXAMPLES)
@given(line=step_replies())
def test_fuzz_compact_step_replies_read_alike_fast_and_strict(line):
    judge_reply(line)


def test_the_fast_reader_reads_every_reply_of_a_real_game():
    """Not a fuzz: that the fast path is taken at all (every step reply of the reference is compact)."""
    assert STEP_REPLIES and all(step_from_line(line) is not None for line in STEP_REPLIES)


# Protocol lines, as hearts-ref serve reads them ----------------------------------------------------

def judge_line(line: bytes) -> None:
    """One reply per line, never an internal error; the fast path writes exactly the ordinary path's bytes."""
    fast, plain = ReferenceEngine(), PlainReference()
    fast.game = plain.game = GAME
    reply = Server(fast).reply_line(line)
    assert reply == encode(Server(plain).answer(line))
    assert reply.endswith(b"\n") and reply.count(b"\n") == 1
    data = decode(reply)
    assert data["ok"] in (True, False) and (data["seq"] is None or type(data["seq"]) is int)
    if data["ok"] is False:
        error = data["error"]
        assert error["kind"] in ERROR_KINDS and error["kind"] != "internal", error   # internal: a bug of ours
        assert error["message"].strip(), error
    assert fast.game == plain.game      # the same state after it, whichever path answered


@settings(FUZZ, max_examples=EXAMPLES)
@given(line=st.one_of(*(mutated(command.decode()) for command in COMMANDS)))
def test_fuzz_command_fields(line):
    judge_line(line)


@settings(FUZZ, max_examples=EXAMPLES)
@given(line=st.one_of(*(damaged(command.decode()) for command in COMMANDS[-5:])))
def test_fuzz_command_bytes(line):
    judge_line(line)


@settings(FUZZ, max_examples=EXAMPLES)
@given(seq=st.integers(-5, 10**19), card=card_texts, crlf=st.booleans())
def test_fuzz_plays_on_the_servers_fast_path(seq, card, crlf):
    judge_line(f'{{"seq":{seq},"cmd":"play","card":"{card}"}}{chr(13) if crlf else ""}\n'.encode())


@settings(FUZZ, max_examples=EXAMPLES)
@given(seq=st.integers(-5, 10**19), card=card_texts, seat=st.one_of(st.integers(-2, 12), st.sampled_from(["01", "1.0"])),
       crlf=st.booleans())
def test_fuzz_plays_by_a_seat_on_the_servers_fast_path(seq, card, seat, crlf):
    judge_line(f'{{"seq":{seq},"cmd":"play","card":"{card}","seat":{seat}}}{chr(13) if crlf else ""}\n'.encode())


def test_a_play_by_the_seat_to_move_takes_the_fast_path_and_one_out_of_turn_is_refused_on_the_ordinary_one():
    """Not a fuzz: the seat costs the fast path nothing, and a seat not to move is refused citing TRICK-ORDER."""
    engine = ReferenceEngine()
    engine.game = GAME
    server = Server(engine)
    seat, card = GAME.round.to_play, str(next(iter(GAME.round.legal_plays())))
    assert server._fast.play(90, card, (seat + 1) % 4) is None and engine.game is GAME
    refusal = decode(server.reply_line(encode_command(90, "play", {"card": card, "seat": (seat + 1) % 4})))
    assert refusal["error"]["kind"] == "illegal" and refusal["error"]["rule"] == "TRICK-ORDER", refusal
    assert server._fast.play(91, card, seat) is not None
    assert GAME.round.hands[seat] >> CARD_TEXT.index(card) & 1 and not engine.game.round.hands[seat] >> CARD_TEXT.index(card) & 1


@settings(FUZZ, max_examples=EXAMPLES // 3)
@given(lines=st.lists(st.one_of(st.sampled_from(COMMANDS[:-2]), damaged(COMMANDS[4].decode()),
                                st.binary(max_size=40), st.just(b"x" * 700)), max_size=12), tail=st.booleans())
def test_fuzz_a_stream_gets_one_reply_per_line(lines, tail):
    pieces = [line.rstrip(b"\n").replace(b"\n", b" ") for line in lines if b"quit" not in line]
    data = b"\n".join(pieces) + (b"\n" if pieces and not tail else b"")
    out = io.BytesIO()
    assert serve(stdin=io.BufferedReader(io.BytesIO(data)), stdout=out, max_line=512) == 0
    expected = data.count(b"\n") + (1 if data and not data.endswith(b"\n") else 0)
    replies = out.getvalue().splitlines()
    assert len(replies) == expected
    assert all(decode(reply)["ok"] in (True, False) for reply in replies)


def test_games_of_other_sizes_one_after_another_read_alike_on_both_paths():
    """A new game starts from results equal to the last one's (no round yet): the fast path must not reuse
    the totals it encoded for the game before, of another number of players."""
    fast, plain = Server(ReferenceEngine()), Server(PlainReference())
    seq = 0
    for players in (3, 6, 4, 3):
        rules = Rules(players=players, pass_cards=False)
        hands = deal(rules, seed=players)
        lines = [encode_command(seq, "new_game", {"rules": rules.to_dict()}),
                 encode_command(seq + 1, "start_round", {"hands": [[str(c) for c in h] for h in hands],
                                                         "direction": "none"})]
        seq += 2
        for line in lines:
            assert fast.reply_line(line) == encode(plain.answer(line))
        for _ in range(2 * players):
            legal = list(plain.engine.legal_plays())
            line = encode_command(seq, "play", {"card": str(legal[0])})
            seq += 1
            reply = fast.reply_line(line)
            assert reply == encode(plain.answer(line))
            assert len(decode(reply)["observation"]["totals"]) == players


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 2**32), st.lists(st.tuples(st.integers(0, 4), st.integers(2, 4), st.sampled_from(
    ["as is", "lower case", "a card twice", "not held"])), min_size=1, max_size=6))
def test_passes_read_alike_on_both_paths(seed, passes):
    """A pass written as the runner writes it is made on the fast path: the same reply as the ordinary path's, a
    refusal (out of turn, a card not held, too few) and a card not written canonically included."""
    rng = random.Random(seed)
    fast, plain = Server(ReferenceEngine()), Server(PlainReference())
    rules = Rules()
    hands = deal(rules, rng=rng)
    lines = [encode_command(0, "new_game", {"rules": rules.to_dict()}),
             encode_command(1, "start_round", {"hands": [cards_to_wire(hand) for hand in hands], "direction": "left"})]
    for seq, (seat, count, how) in enumerate(passes, 2):
        held = cards_to_wire(hands[seat % 4])
        texts = rng.sample(held, count) if how != "not held" else ["2C", "3C", "4C"][:count]
        if how == "lower case":
            texts[0] = texts[0].lower()
        elif how == "a card twice":
            texts[-1] = texts[0]
        lines.append(encode_command(seq, "pass", {"seat": seat, "cards": texts}))
    for line in lines:
        assert fast.reply_line(line) == encode(plain.answer(line))
