#!/usr/bin/env python3
"""An engine that plays N - 1 games, then stops answering at its N-th ``new_game`` (and says so).

Arguments: a folder and N. When it stalls it writes ``stalled-<pid>`` into the folder, so that a
test knows the runner has judged exactly the games before and now waits on the engine.
"""

import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))   # the checkout, when run as a script
from tests.engines.faults import serve_with_fault  # noqa: E402


def stall(reply: bytes) -> None:
    (Path(sys.argv[1]) / f"stalled-{os.getpid()}").write_text("", encoding="utf-8")
    time.sleep(3600)


if __name__ == "__main__":
    serve_with_fault(stall, ["new_game", sys.argv[2]])
