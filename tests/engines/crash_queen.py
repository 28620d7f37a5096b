#!/usr/bin/env python3
"""An engine that dies whenever the Q♠ is played (exit code 3, a line on stderr): one crash, at steps of many rules."""

import json
import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))   # the checkout, when run as a script
from hearts_ref.engine import ReferenceEngine  # noqa: E402
from hearts_ref.protocol import encode  # noqa: E402
from hearts_ref.serve import Server  # noqa: E402

if __name__ == "__main__":
    server = Server(ReferenceEngine())
    for line in sys.stdin.buffer:
        try:
            command = json.loads(line)
        except ValueError:
            command = {}
        if isinstance(command, dict) and command.get("cmd") == "play" and command.get("card") == "QS":
            print("fatal: the queen of spades", file=sys.stderr, flush=True)
            os._exit(3)
        sys.stdout.buffer.write(encode(server.answer(line)))
        sys.stdout.buffer.flush()
        if server.done:
            break
