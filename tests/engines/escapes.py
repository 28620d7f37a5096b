#!/usr/bin/env python3
"""An engine whose children escape its process group: a double fork through setsid, and a new session.

Before it serves (as ``hearts-ref serve`` does) it leaves two sleepers behind it:

- a daemon: a child calls ``setsid`` and forks the sleeper, then exits at once, so the sleeper
  is in a session of its own and its parent is gone (it closes its standard streams first);
- a child started with ``start_new_session``, which keeps the engine's stderr open.

Neither is in the engine's process group, so killing that group does not reach them. Each
writes its pid as a file into the folder given as the first argument (``escaped-<pid>``), and
the engine its own (``engine-<pid>``), so that a test can check by PID that they are gone.
With ``hang`` as the second argument the engine then stops answering at its first
``new_game``, and does not even end when its input does.
"""

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))   # the checkout, when run as a script
from hearts_ref.serve import serve  # noqa: E402
from tests.engines.faults import serve_with_fault  # noqa: E402


def note(folder: Path, what: str = "escaped") -> None:
    (folder / f"{what}-{os.getpid()}").write_text("", encoding="utf-8")


def daemon(folder: Path) -> None:
    """The double fork: child -> setsid -> grandchild sleeps; the child exits before the engine answers."""
    child = os.fork()
    if child:
        os.waitpid(child, 0)              # the middle process is gone before the engine goes on
        return
    os.setsid()
    if os.fork():
        os._exit(0)
    devnull = os.open(os.devnull, os.O_RDWR)
    for fd in (0, 1, 2):
        os.dup2(devnull, fd)
    note(folder)
    time.sleep(3600)
    os._exit(0)


def hang(reply: bytes) -> None:
    signal.signal(signal.SIGHUP, signal.SIG_IGN)
    while True:
        time.sleep(3600)


if __name__ == "__main__":
    folder = Path(sys.argv[1])
    note(folder, "engine")
    daemon(folder)
    subprocess.Popen([sys.executable, "-c", f"import os, time; open(os.path.join({str(folder)!r}, "
                      "f'escaped-{os.getpid()}'), 'w').close(); time.sleep(3600)"],
                     stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, start_new_session=True)
    if sys.argv[2:] == ["hang"]:
        serve_with_fault(hang, ["new_game", "1"])
    else:
        sys.exit(serve())
