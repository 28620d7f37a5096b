#!/usr/bin/env python3
"""hearts-ref's own server writing every reply as JSON with a space after each separator (``{"seq": 3, ...}``):
the replies ``hearts-ref serve`` gives, written otherwise."""

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))   # the checkout, when run as a script
from hearts_ref.engine import ReferenceEngine  # noqa: E402
from hearts_ref.serve import Server  # noqa: E402

if __name__ == "__main__":
    server = Server(ReferenceEngine())
    for line in sys.stdin.buffer:
        sys.stdout.write(json.dumps(server.answer(line)) + "\n")
        sys.stdout.flush()
        if server.done:
            break
