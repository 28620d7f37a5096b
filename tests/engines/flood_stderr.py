#!/usr/bin/env python3
"""A correct engine that writes 64 KiB of log to stderr before every reply (more than a pipe holds).

A client that did not drain stderr would see it block before its first reply.
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))   # the checkout, when run as a script
from tests.engines.faults import serve_with_fault  # noqa: E402

replies = 0


def log() -> None:
    global replies
    replies += 1
    sys.stderr.write(f"reply {replies} is coming\n" + "." * 65000 + "\n" + f"reply {replies} sent\n")
    sys.stderr.flush()


if __name__ == "__main__":
    serve_with_fault(lambda reply: None, ["never"], before_reply=log)
