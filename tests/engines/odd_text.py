#!/usr/bin/env python3
"""An engine whose error message holds what JSON allows but text files do not: a lone surrogate,
an ANSI colour, a NUL. It refuses the 5th play with it, as an internal error."""

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))   # the checkout, when run as a script
from tests.engines.faults import serve_with_fault, write  # noqa: E402

MESSAGE = r"lost \ud800 half a character, \u001b[31mred\u001b[0m, \u0000"   # JSON escapes, as written


def refuse(reply: bytes) -> None:
    seq = json.loads(reply)["seq"]
    write(b'{"seq": %d, "ok": false, "error": {"kind": "internal", "message": "%s"}}\n' % (seq, MESSAGE.encode()))


if __name__ == "__main__":
    serve_with_fault(refuse, sys.argv[1:3])
