#!/usr/bin/env python3
"""An engine that takes SECONDS to start (before reading anything), then answers correctly.

``slow_start.py SECONDS PIDFILE``: it writes its pid to PIDFILE first, so a test can check
it is gone after a start that timed out.
"""

import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))   # the checkout, when run as a script
from tests.engines.faults import serve_with_fault  # noqa: E402

if __name__ == "__main__":
    seconds, pidfile = float(sys.argv[1]), sys.argv[2]
    with open(pidfile, "w") as out:
        out.write(str(os.getpid()))
    time.sleep(seconds)
    serve_with_fault(lambda reply: None, ["never"])
