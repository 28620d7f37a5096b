#!/usr/bin/env python3
"""An engine that dies in the middle of a game: exit code 3 after a few lines on stderr.

``crash.py play 5 signal`` kills itself with SIGSEGV instead.
"""

import os
import signal
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))   # the checkout, when run as a script
from tests.engines.faults import serve_with_fault  # noqa: E402


def crash(reply: bytes) -> None:
    for k in range(30):
        print(f"engine log line {k}", file=sys.stderr)
    print("fatal: the trick table is corrupt", file=sys.stderr, flush=True)
    if sys.argv[3:] == ["signal"]:
        os.kill(os.getpid(), signal.SIGSEGV)
    os._exit(3)


if __name__ == "__main__":
    serve_with_fault(crash, sys.argv[1:3])
