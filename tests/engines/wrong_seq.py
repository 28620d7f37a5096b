#!/usr/bin/env python3
"""An engine that answers a play with the sequence number of the command before it (out of order)."""

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))   # the checkout, when run as a script
from tests.engines.faults import serve_with_fault, write  # noqa: E402


def stale(reply: bytes) -> None:
    message = json.loads(reply)
    message["seq"] -= 1
    write((json.dumps(message) + "\n").encode())


if __name__ == "__main__":
    serve_with_fault(stale)
