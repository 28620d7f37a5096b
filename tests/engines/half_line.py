#!/usr/bin/env python3
"""An engine that writes half of its reply, without the newline, and exits."""

import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))   # the checkout, when run as a script
from tests.engines.faults import serve_with_fault, write  # noqa: E402


def half_line(reply: bytes) -> None:
    write(reply[:len(reply) // 2])
    os._exit(0)


if __name__ == "__main__":
    serve_with_fault(half_line)
