#!/usr/bin/env python3
"""An engine whose reply to a play lacks a field of the observation (the totals)."""

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))   # the checkout, when run as a script
from tests.engines.faults import serve_with_fault, write  # noqa: E402


def without_totals(reply: bytes) -> None:
    message = json.loads(reply)
    del message["observation"]["totals"]
    write((json.dumps(message) + "\n").encode())


if __name__ == "__main__":
    serve_with_fault(without_totals)
