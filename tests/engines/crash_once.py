#!/usr/bin/env python3
"""An engine that dies once: exit code 9 at its 30th ``play``, unless the flag file exists (then it writes it).

``crash_once.py FLAG``: started again after the crash, it finds the flag and plays correctly,
so a runner that restarts it sees one failure, not a failure in every case after it.
"""

import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))   # the checkout, when run as a script
from tests.engines.faults import serve_with_fault, write  # noqa: E402

def crash_once(reply: bytes) -> None:
    flag = Path(sys.argv[1])
    if flag.exists():
        write(reply)
        return
    flag.write_text("crashed", encoding="utf-8")
    print("fatal: out of cards", file=sys.stderr, flush=True)
    os._exit(9)


if __name__ == "__main__":
    serve_with_fault(crash_once, ["play", "30"])
