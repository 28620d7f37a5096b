#!/usr/bin/env python3
"""An engine that stops answering in the middle of a game, with a child process of its own.

It starts a sleeping child first and names its pid on stderr, so a test can check that
the whole process group is gone after the timeout.
"""

import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))   # the checkout, when run as a script
from tests.engines.faults import serve_with_fault  # noqa: E402


def hang(reply: bytes) -> None:
    time.sleep(3600)


if __name__ == "__main__":
    child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(3600)"])
    print(f"child pid {child.pid}", file=sys.stderr, flush=True)
    serve_with_fault(hang)
