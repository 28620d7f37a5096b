#!/usr/bin/env python3
"""A minimal correct engine: the stdio protocol written from spec/protocol/README.md alone.

It uses hearts-ref's reference engine for the rules but none of its protocol code, so
it checks that the spec is enough to write an engine, and it shows how short one is.
"""

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from hearts_ref import Card, CardSet, EngineRejection, ReferenceEngine, Rules  # noqa: E402


def cards(texts):
    return CardSet(Card.parse(text) for text in texts)


def texts(card_set):
    return [str(card) for card in card_set]


def state(engine):
    return {"observation": engine.observe().to_dict(), "legal": texts(engine.legal_plays())}


def answer(engine, request):
    command = request["cmd"]
    if command == "hello":
        return {"protocol": 1, "name": "minimal", "version": "1.0",
                "capabilities": {"multi_round": True, "passing": True, "unsupported": {}, "known_deviations": [],
                                 "play_seat": True}}
    if command == "new_game":
        engine.new_game(Rules.from_dict(request["rules"]))
    elif command == "start_round":
        engine.start_round([cards(hand) for hand in request["hands"]], request["direction"])
    elif command == "pass":
        engine.pass_cards(request["seat"], cards(request["cards"]))
    elif command == "play":
        engine.play(Card.parse(request["card"]), request.get("seat"))
    elif command == "legal":
        return {"legal": texts(engine.legal_plays())}
    elif command == "observe":
        return {"observation": engine.observe().to_dict()}
    elif command == "quit":
        return {}
    else:
        raise KeyError(command)
    return state(engine)


def main():
    engine = ReferenceEngine()
    for line in sys.stdin:
        request = {}
        try:
            request = json.loads(line)
            reply = {"seq": request["seq"], "ok": True, **answer(engine, request)}
        except EngineRejection as rejection:
            reply = {"seq": request.get("seq"), "ok": False,
                     "error": {"kind": "illegal", "message": rejection.reason, "rule": rejection.rule_id}}
        except (ValueError, KeyError, TypeError) as error:
            reply = {"seq": request.get("seq") if isinstance(request, dict) else None, "ok": False,
                     "error": {"kind": "bad-request", "message": f"{type(error).__name__}: {error}"}}
        print(json.dumps(reply), flush=True)
        if request.get("cmd") == "quit":
            return


if __name__ == "__main__":
    main()
