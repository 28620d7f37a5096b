#!/usr/bin/env python3
"""An engine that answers a play with an endless line: bytes without a newline, until killed."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))   # the checkout, when run as a script
from tests.engines.faults import serve_with_fault, write  # noqa: E402


def flood(reply: bytes) -> None:
    chunk = b"x" * 65536
    while True:
        write(chunk)


if __name__ == "__main__":
    serve_with_fault(flood)
