#!/usr/bin/env python3
"""An engine that answers a play with a line that is not JSON."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))   # the checkout, when run as a script
from tests.engines.faults import serve_with_fault, write  # noqa: E402


def garbage(reply: bytes) -> None:
    write(b"I would rather play the queen of spades\n")


if __name__ == "__main__":
    serve_with_fault(garbage)
