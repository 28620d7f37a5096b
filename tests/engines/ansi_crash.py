#!/usr/bin/env python3
"""An engine that dies in the middle of a game after colouring its stderr: ANSI escapes, a bell, a NUL.

Its last words reach the reports as the tail of its stderr; the JUnit XML must still parse.
"""

import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))   # the checkout, when run as a script
from tests.engines.faults import serve_with_fault  # noqa: E402


def crash(reply: bytes) -> None:
    sys.stderr.write("\x1b[1;31mfatal:\x1b[0m the trick table is corrupt\x07 (at \x00\x1f)\n")
    sys.stderr.flush()
    os._exit(3)


if __name__ == "__main__":
    serve_with_fault(crash, sys.argv[1:3])
