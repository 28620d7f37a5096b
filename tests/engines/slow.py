#!/usr/bin/env python3
"""A correct engine that takes its time: it waits the seconds given as its argument before every reply."""

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))   # the checkout, when run as a script
from tests.engines.faults import serve_with_fault, write  # noqa: E402

if __name__ == "__main__":
    pause = float(sys.argv[1]) if len(sys.argv) > 1 else 1.0
    serve_with_fault(write, ["no-such-command", "1"], before_reply=lambda: time.sleep(pause))
