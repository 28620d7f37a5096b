"""The stdio protocol's server side: `hearts-ref serve` answers every line, refuses bad ones with
the reason and goes on; its messages match the JSON Schemas in spec/protocol/."""

from __future__ import annotations

import io
import json
import random
import re
import subprocess
import sys
from pathlib import Path

import jsonschema
import pytest
from referencing import Registry, Resource

from hearts_ref import CARDS, PARAMETERS, CardSet, ReferenceEngine, Rules, deal
from hearts_ref.protocol import (
    PROTOCOL_1_PARAMETERS, WireError, capabilities_from_wire, step_from_line, cards_from_wire, cards_to_wire, encode,
    observation_from_wire,
)
from hearts_ref.engines.replies import read_reply
from hearts_ref.serve import FLUSH_EVERY, Server, serve
from tests.engines.python_engines import ExplodesOnThirdPlay, FourPlayersOnly

ROOT = Path(__file__).resolve().parent.parent
PROTOCOL = ROOT / "spec" / "protocol"


class PlainReference(ReferenceEngine):
    """The reference as any other Python engine: served on the server's ordinary path, not its fast one."""


def ask(server: Server, message: dict | bytes) -> dict:
    return server.answer(message if isinstance(message, bytes) else encode(message))


def started(engine=None, *, seed: int = 5, direction: str = "none") -> Server:
    server = Server(engine or ReferenceEngine())
    ask(server, {"seq": 0, "cmd": "hello", "protocol": 1})
    ask(server, {"seq": 1, "cmd": "new_game", "rules": Rules().to_dict()})
    hands = [cards_to_wire(hand) for hand in deal(Rules(), seed=seed)]
    reply = ask(server, {"seq": 2, "cmd": "start_round", "hands": hands, "direction": direction})
    assert reply["ok"], reply
    return server


def test_hello_names_the_engine_its_protocol_and_capabilities():
    reply = ask(Server(ReferenceEngine()), {"seq": 0, "cmd": "hello", "protocol": 1})
    assert reply == {"seq": 0, "ok": True, "protocol": 1, "name": "hearts-ref", "version": "0.1.0",
                     "capabilities": {"multi_round": True, "passing": True, "unsupported": {},
                                      "known_deviations": [], "deals": False, "play_seat": True}}


def test_step_replies_carry_the_observation_and_the_next_legal_set():
    server = started()
    reply = ask(server, {"seq": 3, "cmd": "play", "card": "2C"})
    assert reply["seq"] == 3 and reply["ok"] is True
    assert reply["observation"]["trick"] == ["2C"] and reply["observation"]["to_move"] == 1
    assert reply["legal"] == ask(server, {"seq": 4, "cmd": "legal"})["legal"]
    assert reply["observation"] == ask(server, {"seq": 5, "cmd": "observe"})["observation"]


def test_follow_suit_rejection_is_illegal_with_the_rule_and_changes_nothing():
    server = started()
    ask(server, {"seq": 3, "cmd": "play", "card": "2C"})
    before = ask(server, {"seq": 4, "cmd": "observe"})["observation"]
    legal = set(ask(server, {"seq": 5, "cmd": "legal"})["legal"])
    hand = deal(Rules(), seed=5)[1]
    off_suit = next(str(card) for card in hand if str(card) not in legal)
    reply = ask(server, {"seq": 6, "cmd": "play", "card": off_suit})
    assert reply["ok"] is False and reply["seq"] == 6
    assert reply["error"]["kind"] == "illegal" and reply["error"]["rule"] == "FOLLOW-SUIT"
    assert reply["error"]["message"].startswith("FOLLOW-SUIT: must follow")
    assert ask(server, {"seq": 7, "cmd": "observe"})["observation"] == before


def test_pass_count_rejection_names_its_rule():
    server = started(direction="left")
    hand = cards_to_wire(deal(Rules(), seed=5)[0])
    reply = ask(server, {"seq": 3, "cmd": "pass", "seat": 0, "cards": hand[:2]})
    assert reply["error"]["kind"] == "illegal" and reply["error"]["rule"] == "PASS-COUNT"


@pytest.mark.parametrize("line, message", [
    (b"play QS", "not JSON"),
    (b"", "not JSON"),
    (b"\xff\xfe{}", "not UTF-8"),
    (b"[1, 2]", "must be a JSON object, got list"),
    (b'{"cmd": "legal"}', "missing 'seq'"),
    (b'{"seq": "3", "cmd": "legal"}', "'seq' must be an integer"),
    (b'{"seq": true, "cmd": "legal"}', "'seq' must be an integer"),
    (b'{"seq": 3}', "missing 'cmd'"),
    (b'{"seq": 3, "cmd": "deal"}', "unknown command 'deal'"),
    (b'{"seq": 3, "cmd": "play"}', "missing 'card'"),
    (b'{"seq": 3, "cmd": "play", "card": "1X"}', "not a card: '1X'"),
    (b'{"seq": 3, "cmd": "play", "card": 12}', "not a card"),
    (b'{"seq": 3, "cmd": "play", "card": "JC#3"}', "play: 'card': not a card: 'JC#3' (the copy after # is 1 or 2"),
    (b'{"seq": 3, "cmd": "pass", "seat": 0, "cards": ["2C", "JC#3", "3C"]}', "pass: 'cards': not a card: 'JC#3'"),
    (b'{"seq": 3, "cmd": "pass", "seat": "0", "cards": []}', "'seat' must be an integer"),
    (b'{"seq": 3, "cmd": "pass", "seat": 0, "cards": "2C 3C 4C"}', "'cards' must be a list"),
    (b'{"seq": 3, "cmd": "pass", "seat": 0, "cards": ["2C", "2C", "3C"]}', "appears twice"),
    (b'{"seq": 3, "cmd": "start_round", "hands": [["2C"]], "direction": "up"}', "'direction' must be one of"),
    (b'{"seq": 3, "cmd": "start_round", "hands": "all", "direction": "left"}', "'hands' must be a list"),
    (b'{"seq": 3, "cmd": "new_game", "rules": {"moon": "double"}}', "moon: 'double' is not allowed"),
    (b'{"seq": 3, "cmd": "new_game"}', "missing 'rules'"),
    (b'{"seq": 3, "cmd": "hello"}', "missing 'protocol'"),
])
def test_bad_requests_are_refused_with_the_reason_and_the_server_goes_on(line, message):
    server = started()
    reply = server.answer(line)
    assert reply["ok"] is False and reply["error"]["kind"] == "bad-request"
    assert message in reply["error"]["message"], reply["error"]["message"]
    assert reply["seq"] == (3 if b'"seq": 3' in line else None)
    assert ask(server, {"seq": 4, "cmd": "play", "card": "2C"})["ok"] is True


def test_unsupported_protocol_version_and_variant_are_refused_as_unsupported():
    reply = ask(Server(ReferenceEngine()), {"seq": 0, "cmd": "hello", "protocol": 0})
    assert reply["error"]["kind"] == "unsupported" and "speaks 1 and 2" in reply["error"]["message"]
    server = Server(FourPlayersOnly())
    rules = Rules(players=3, pass_cycle="left-right-none").to_dict()
    reply = ask(server, {"seq": 1, "cmd": "new_game", "rules": rules})
    assert reply["error"] == {"kind": "unsupported", "message": "engine does not support players=3"}
    assert ask(server, {"seq": 2, "cmd": "new_game", "rules": Rules().to_dict()})["ok"] is True


@pytest.mark.parametrize("offered, answered", [(1, 1), (2, 2), (3, 2)])
def test_hello_answers_the_highest_version_both_speak(offered, answered):
    reply = ask(Server(ReferenceEngine()), {"seq": 0, "cmd": "hello", "protocol": offered})
    assert reply["ok"] is True and reply["protocol"] == answered


def test_an_unknown_variant_parameter_is_unsupported_naming_it_and_the_server_goes_on():
    server = started()
    reply = ask(server, {"seq": 3, "cmd": "new_game", "rules": {"colour": "red"}})
    assert reply["error"]["kind"] == "unsupported"
    assert reply["error"]["message"].startswith("unknown variant parameter 'colour' in 'rules'")
    assert ask(server, {"seq": 4, "cmd": "play", "card": "2C"})["ok"] is True   # the game in play goes on


def test_protocol_1_rules_without_the_later_parameters_are_played_with_their_defaults():
    server = Server(ReferenceEngine())
    assert ask(server, {"seq": 0, "cmd": "hello", "protocol": 1})["protocol"] == 1
    rules = {name: value for name, value in Rules().to_dict().items() if name in PROTOCOL_1_PARAMETERS}
    assert ask(server, {"seq": 1, "cmd": "new_game", "rules": rules})["ok"] is True
    assert server.engine.game.rules == Rules()


def test_an_engine_exception_is_an_internal_error_and_the_server_goes_on(capsys):
    server = started(ExplodesOnThirdPlay())
    replies = []
    for seq in range(3, 6):
        card = ask(server, {"seq": 100 + seq, "cmd": "legal"})["legal"][0]
        replies.append(ask(server, {"seq": seq, "cmd": "play", "card": card}))
    assert [reply["ok"] for reply in replies] == [True, True, False]
    assert replies[2]["error"] == {"kind": "internal", "message": "play: ZeroDivisionError: planted"}
    assert "ZeroDivisionError" in capsys.readouterr().err          # the traceback goes to stderr
    assert ask(server, {"seq": 6, "cmd": "observe"})["observation"]["trick"] == replies[1]["observation"]["trick"]


def test_serve_answers_each_line_in_order_skips_overlong_lines_and_stops_at_quit():
    lines = [encode({"seq": 0, "cmd": "hello", "protocol": 1}),
             b'{"seq": 1, "cmd": "observe", "padding": "' + b"x" * 300 + b'"}\n',
             b"garbage\n",
             encode({"seq": 2, "cmd": "quit"}),
             encode({"seq": 3, "cmd": "hello", "protocol": 1})]      # after quit: never read
    out = io.BytesIO()
    assert serve(ReferenceEngine(), io.BufferedReader(io.BytesIO(b"".join(lines))), out, max_line=200) == 0
    replies = [json.loads(line) for line in out.getvalue().splitlines()]
    assert [r["seq"] for r in replies] == [0, None, None, 2]
    assert replies[1]["error"]["message"] == "line longer than 200 bytes"
    assert replies[2]["error"]["message"].startswith("not JSON")


class Writes(io.BytesIO):
    """An output that remembers how many reply lines each flush sent."""

    def __init__(self) -> None:
        super().__init__()
        self.flushed: list[int] = []
        self._at = 0

    def flush(self) -> None:
        self.flushed.append(self.getvalue()[self._at:].count(b"\n"))
        self._at = len(self.getvalue())


def test_serve_writes_the_replies_of_a_batch_together_flush_every_at_most():
    """A runner that sends a round at once reads its replies together: each write wakes it up."""
    count = 2 * FLUSH_EVERY + 5
    lines = [encode({"seq": 0, "cmd": "hello", "protocol": 1})]
    lines += [encode({"seq": seq, "cmd": "observe"}) for seq in range(1, count)]
    out = Writes()
    serve(ReferenceEngine(), io.BufferedReader(io.BytesIO(b"".join(lines))), out)
    assert out.flushed == [FLUSH_EVERY, FLUSH_EVERY, 5]
    assert [json.loads(line)["seq"] for line in out.getvalue().splitlines()] == list(range(count))


def test_serve_answers_a_last_line_without_its_newline():
    out = io.BytesIO()
    serve(ReferenceEngine(), io.BufferedReader(io.BytesIO(b'{"seq": 0, "cmd": "hello", "protocol": 1}')), out)
    assert json.loads(out.getvalue())["name"] == "hearts-ref"


# The wire format's own checks ----------------------------------------------------------------

def test_cards_round_trip_and_duplicates_or_bad_texts_are_refused():
    every = CardSet(CARDS)
    assert cards_from_wire(cards_to_wire(every), field="x") == every
    assert cards_from_wire(["th", "Q♠"], field="x") == CardSet.parse("10H QS")
    for bad, message in ((["2C", "2C"], "appears twice"), (["2C", "ZZ"], "not a card"), ("2C", "must be a list"),
                         ([["2C"]], "not a card")):
        with pytest.raises(WireError, match=message):
            cards_from_wire(bad, field="x")


def test_a_second_deck_card_reads_as_its_own_card_and_a_third_copy_is_an_error_naming_the_field():
    assert cards_to_wire(CardSet.parse("JC#2 2C JC")) == ["2C", "JC", "JC#2"]
    assert cards_from_wire(["JC#2", "JC"], field="x") == CardSet.parse("JC JC#2")
    assert cards_from_wire(["jc#1", "qs#2"], field="x") == CardSet.parse("JC QS#2")   # lenient on input
    with pytest.raises(WireError, match="'x': card JC#2 appears twice"):
        cards_from_wire(["JC#2", "JC#2"], field="x")
    line = (b'{"seq":4,"ok":true,"observation":{"phase":"play","to_move":1,"trick":["JC#2"],"hearts_broken":false,'
            b'"points_taken":[0,0,0,0,0],"round_scores":null,"totals":[0,0,0,0,0],"game_over":false,"winners":[]},'
            b'"legal":["QC","QC#2"]}')
    seq, observation, legal = step_from_line(line)      # the fast reader reads copies as the strict one does
    assert observation.trick == ("JC#2",) and legal == CardSet.parse("QC QC#2")
    assert read_reply(line, 4, "'play' (seq 4)", steps=True) == (observation, legal)
    for bad, field in ((line.replace(b'"QC#2"', b'"QC#3"'), "'legal'"), (line.replace(b'"JC#2"', b'"JC#3"'),
                                                                         "'observation.trick'")):
        assert step_from_line(bad) is None
        with pytest.raises(WireError, match=f"{field}: not a card: .*the copy after # is 1 or 2"):
            read_reply(bad, 4, "'play' (seq 4)", steps=True)


def test_a_second_deck_card_in_a_one_deck_game_is_not_held_on_both_paths_of_serve():
    for path in ("fast", "ordinary"):
        server = started() if path == "fast" else started(PlainReference())
        reply = json.loads(server.reply_line(b'{"seq":3,"cmd":"play","card":"2C#2"}'))
        assert reply["error"]["rule"] == "TRICK-ORDER" and "does not hold 2♣#2" in reply["error"]["message"]
        assert json.loads(server.reply_line(b'{"seq":4,"cmd":"play","card":"2C"}'))["ok"] is True


def test_observation_types_are_checked_strictly_not_coerced():
    good = ReferenceEngine()
    good.new_game(Rules())
    data = good.observe().to_dict()
    assert observation_from_wire(data) == good.observe()
    for field, bad in (("hearts_broken", 0), ("to_move", "1"), ("to_move", True), ("totals", [0, 0, 0, "0"]),
                       ("totals", [0, 0, 0, False]), ("phase", "playing"), ("trick", ["2C", "XX"]),
                       ("round_scores", 3), ("winners", None)):
        with pytest.raises(WireError, match=f"observation.{field}"):
            observation_from_wire(data | {field: bad})
    with pytest.raises(WireError, match="missing 'observation.winners'"):
        observation_from_wire({k: v for k, v in data.items() if k != "winners"})


# The JSON Schemas --------------------------------------------------------------------------

def schemas() -> tuple[Registry, dict[str, dict]]:
    loaded = {p.name: json.loads(p.read_text(encoding="utf-8")) for p in PROTOCOL.glob("*.schema.json")}
    registry = Registry().with_resources((schema["$id"], Resource.from_contents(schema)) for schema in loaded.values())
    return registry, loaded


def recorded_session(rules: Rules = Rules(end_threshold=40), protocol: int = 1) -> list[tuple[dict, dict]]:
    """(command, reply) pairs of a whole game with refusals of every kind, from hearts-ref's server."""
    rng = random.Random(3)
    server = Server(ReferenceEngine())
    commands = [{"cmd": "hello", "protocol": protocol}, {"cmd": "new_game", "rules": rules.to_dict()}]
    pairs = []

    def send(command: dict) -> dict:
        command = {"seq": len(pairs), **command}
        pairs.append((command, server.answer(encode(command))))
        return pairs[-1][1]

    for command in commands:
        send(command)
    number = 0
    while not server.engine.game.over:
        number += 1
        hands = deal(rules, rng=rng, dealer=(number - 1) % rules.players)   # DEAL-DEALER
        reply = send({"cmd": "start_round", "hands": [cards_to_wire(h) for h in hands],
                      "direction": rules.pass_direction(number)})
        while reply["observation"]["phase"] == "pass":
            seat = reply["observation"]["to_move"]
            reply = send({"cmd": "pass", "seat": seat, "cards": cards_to_wire(CardSet(rng.sample(list(hands[seat]), 3)))})
        send({"cmd": "play", "card": "AH" if "AH" not in reply["legal"] else "2C"})     # refused: illegal
        to_move = reply["observation"]["to_move"]
        send({"cmd": "play", "card": reply["legal"][0], "seat": (to_move + 1) % rules.players})   # out of turn
        while reply["observation"]["phase"] == "play":
            seat = reply["observation"]["to_move"] if len(pairs) % 2 else None        # the seat named, or not
            reply = send({"cmd": "play", "card": rng.choice(reply["legal"])} | ({"seat": seat} if seat is not None else {}))
    send({"cmd": "legal"})
    send({"cmd": "observe"})
    send({"cmd": "new_game", "rules": rules.to_dict() | {"moon": "double"}})            # refused: bad-request
    send({"cmd": "quit"})
    return pairs


@pytest.mark.parametrize("rules, protocol", [(Rules(end_threshold=40), 1),
                                             (Rules.preset("seed003", players=5, end_threshold=40), 2)])
def test_every_message_of_a_whole_session_matches_its_schema(rules, protocol):
    registry, loaded = schemas()
    for schema in loaded.values():
        jsonschema.Draft202012Validator.check_schema(schema)
    validators = {name: jsonschema.Draft202012Validator(schema, registry=registry) for name, schema in loaded.items()}
    reply_schema = {"hello": "hello", "legal": "legal", "observe": "observe", "quit": "quit"}
    kinds = set()
    session = recorded_session(rules, protocol)
    assert session[0][1]["protocol"] == protocol
    assert (protocol == 2) == any("#2" in json.dumps(reply) for _, reply in session)   # copies with two decks only
    for command, reply in session:
        valid = validators[f"command.{command['cmd']}.schema.json"].is_valid(command)
        assert valid == (reply["ok"] or reply["error"]["kind"] != "bad-request"), (command, reply)
        name = "error" if not reply["ok"] else reply_schema.get(command["cmd"], "step")
        validators[f"reply.{name}.schema.json"].validate(reply)
        kinds.add(name if name != "error" else reply["error"]["kind"])
    assert kinds == {"hello", "step", "illegal", "legal", "observe", "bad-request", "quit"}


def test_an_engine_that_deals_answers_start_round_without_hands_as_the_schemas_say():
    from tests.engines.planted_turns import ShufflingReference
    registry, loaded = schemas()
    validators = {name: jsonschema.Draft202012Validator(schema, registry=registry) for name, schema in loaded.items()}
    server = Server(ShufflingReference())
    hello = ask(server, {"seq": 0, "cmd": "hello", "protocol": 1})
    assert hello["capabilities"]["deals"] is True
    ask(server, {"seq": 1, "cmd": "new_game", "rules": Rules().to_dict()})
    command = {"seq": 2, "cmd": "start_round", "direction": "left"}
    reply = ask(server, command)
    validators["command.start_round.schema.json"].validate(command)
    validators["reply.step.schema.json"].validate(reply)
    hands = [CardSet.parse(" ".join(hand)) for hand in reply["hands"]]
    assert sorted(map(len, hands)) == [13] * 4 and reply["observation"]["phase"] == "pass"
    refused = ask(started(), {"seq": 3, "cmd": "start_round", "direction": "none"})   # the reference does not deal
    assert refused["error"]["kind"] == "bad-request" and "hands" in refused["error"]["message"]


def test_the_schemas_reject_what_the_protocol_forbids():
    registry, loaded = schemas()
    step = jsonschema.Draft202012Validator(loaded["reply.step.schema.json"], registry=registry)
    _, reply = recorded_session()[1]
    step.validate(reply)
    for broken in (reply | {"seq": -1}, reply | {"legal": ["2C", "2C"]}, reply | {"legal": ["TH"]},
                   {k: v for k, v in reply.items() if k != "observation"},
                   reply | {"observation": reply["observation"] | {"hearts_broken": 0}}):
        with pytest.raises(jsonschema.ValidationError):
            step.validate(broken)


@pytest.mark.parametrize("capabilities, message", [
    ({"multiround": False}, "unknown field 'capabilities.multiround'; did you mean multi_round? known: multi_round, "),
    ({"unsupported": {"mon": ["add"]}}, "'capabilities.unsupported' names 'mon', not a variant parameter; did you "
                                        "mean moon?"),
])
def test_a_misspelt_capability_is_refused_with_the_closest_name_not_left_at_its_default(capabilities, message):
    """A hello whose "multiround": false was read as multi_round true judged the engine on games it cannot play."""
    with pytest.raises(WireError, match=re.escape(message)):
        capabilities_from_wire(capabilities)
    registry, loaded = schemas()
    hello = jsonschema.Draft202012Validator(loaded["definitions.schema.json"]["$defs"]["capabilities"],
                                            registry=registry)
    assert not hello.is_valid(capabilities) or "unsupported" in capabilities   # the schema refuses the field too
    assert capabilities_from_wire({"multi_round": False, "unsupported": {"moon": ["add"]}}).multi_round is False


@pytest.mark.parametrize("field, change", [
    ("legal", lambda reply: reply | {"legal": ["TH"]}),
    ("observation.trick", lambda reply: reply | {"observation": reply["observation"] | {"trick": ["th"]}}),
])
def test_an_engine_that_writes_a_ten_as_t_is_a_protocol_error_saying_what_to_write(field, change):
    """The schema's card pattern is "10"; hearts-ref reads "T" from people, not from an engine under judgment."""
    _, reply = recorded_session()[1]
    written = json.dumps(change(reply)).encode()
    with pytest.raises(WireError, match=re.escape(f"'{field}': ") + r"'(TH|th)' is not how the protocol writes 10H: "
                                        r'write "10H" \(a ten is 10, rank and suit in capitals\)'):
        read_reply(written, reply["seq"], "'play'", steps=True)
    assert cards_from_wire(["TH"], field="cards") == CardSet.parse("10H")   # a command typed by a person: read


def test_the_rules_schema_lists_exactly_the_variant_registry():
    rules = json.loads((PROTOCOL / "definitions.schema.json").read_text(encoding="utf-8"))["$defs"]["rules"]
    names = [p.name for p in PARAMETERS]
    # required: what protocol 1 always sends; the later parameters (sent to it only when not at their default) not
    assert rules["required"] == list(PROTOCOL_1_PARAMETERS) == [name for name in names if name in PROTOCOL_1_PARAMETERS]
    assert set(names) - set(PROTOCOL_1_PARAMETERS) == {"even_out", "decks"}   # sent to protocol 1 only off default
    assert list(rules["properties"]) == names
    for parameter in PARAMETERS:
        schema = rules["properties"][parameter.name]
        if isinstance(parameter.values, tuple):
            assert schema["enum"] == list(parameter.values), parameter.name
        else:
            assert schema["type"] == {int: "integer", bool: "boolean"}[parameter.values], parameter.name


# The command line ------------------------------------------------------------------------------

def run_serve(*args: str, stdin: bytes) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "hearts_ref", "serve", *args], input=stdin, capture_output=True,
                          cwd=ROOT, timeout=60)


def test_hearts_ref_serve_speaks_the_protocol_and_exits_at_end_of_input():
    result = run_serve(stdin=encode({"seq": 0, "cmd": "hello", "protocol": 1}) + b"oops\n")
    assert result.returncode == 0, result.stderr
    hello, oops = (json.loads(line) for line in result.stdout.splitlines())
    assert hello["name"] == "hearts-ref" and oops["error"]["kind"] == "bad-request"


def test_hearts_ref_serve_serves_a_python_engine():
    result = run_serve("--engine", "python:tests.engines.python_engines:FourPlayersOnly",
                       stdin=encode({"seq": 0, "cmd": "hello", "protocol": 1}))
    reply = json.loads(result.stdout)
    assert reply["name"] == "four-players-only"
    assert reply["capabilities"]["unsupported"] == {"players": [3, 5, 6]}


@pytest.mark.parametrize("spec, message", [
    ("python:no_such_module:Engine", "no module named 'no_such_module'"),
    ("python:hearts_ref.engine:NoSuchEngine", "has no attribute 'NoSuchEngine'"),
    ("python:hearts_ref.engine:Referenceengine", "has no attribute 'Referenceengine'; did you mean ReferenceEngine?"),
    ("python:hearts_ref.engine", "expected python:module:attr"),
    ("python:builtins:object", "is not an Engine (missing name, version"),
    ("'unbalanced", "No closing quotation"),
])
def test_hearts_ref_serve_with_a_bad_engine_spec_exits_2_with_one_line(spec, message):
    result = run_serve("--engine", spec, stdin=b"")
    assert result.returncode == 2
    err = result.stderr.decode()
    assert message in err and "Traceback" not in err and len(err.strip().splitlines()) == 1, err


def test_invalid_pass_before_any_round_is_an_illegal_command_not_an_internal_error():
    from hearts_ref.cardset import CardSet
    from hearts_ref.engine import EngineRejection, ReferenceEngine
    from hearts_ref.variants import Rules
    engine = ReferenceEngine()
    engine.new_game(Rules())
    with pytest.raises(EngineRejection, match="DEAL-HANDS: no round in play"):
        engine.pass_cards(0, CardSet.parse("2C 3C 4C"))


def test_serve_starts_without_the_console_nor_the_provers():
    """`hearts-ref serve` is started for every campaign over stdio: it loads neither rich (the console's) nor z3 nor
    Hypothesis, and still answers."""
    done = subprocess.run([sys.executable, "-X", "importtime", "-m", "hearts_ref", "serve"],
                          input=b'{"seq":0,"cmd":"hello","protocol":2}\n{"seq":1,"cmd":"quit"}\n',
                          capture_output=True, timeout=600, cwd=Path(__file__).resolve().parent.parent, check=True)
    loaded = {line.rsplit("|", 1)[-1].strip().split(".")[0] for line in done.stderr.decode().splitlines()
              if line.startswith("import time:")}
    assert "hearts_ref" in loaded and not loaded & {"rich", "z3", "hypothesis"}, sorted(loaded)
    assert json.loads(done.stdout.splitlines()[0])["ok"] is True
