#!/usr/bin/env python3
"""A strict engine of protocol version 1: it refuses whatever version 1 did not have.

It answers like ``hearts-ref serve`` but, as the version-1 page said, refuses a ``hello`` for
another version as ``unsupported``; it refuses as ``bad-request`` a ``new_game`` whose ``rules``
hold a parameter version 1 did not know (its schema allowed no other) and any command with a
card copy number (``#``), which version 1's card pattern did not allow. ``--log PATH`` writes
every line it reads to PATH, so that a test can see exactly what it was sent.
"""

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from hearts_ref.engine import ReferenceEngine  # noqa: E402
from hearts_ref.protocol import encode  # noqa: E402
from hearts_ref.serve import Server  # noqa: E402

# The rules of version 1's new_game: the seventeen parameters it knew, written here as they were.
VERSION_1_RULES = {
    "players", "pass_cards", "pass_cycle", "first_trick_points", "can_lead_any_club", "hearts_broken_by",
    "qs_breaks_hearts", "must_break_hearts", "hearts_restriction", "can_lead_hearts_instead_of_qs", "moon",
    "jd_bonus", "avoid_all_tricks_bonus", "end_threshold", "end_comparison", "max_rounds", "ties",
}


def refusal(seq, kind, message):
    return encode({"seq": seq, "ok": False, "error": {"kind": kind, "message": message}})


def reply(server, line):
    request = json.loads(line)
    seq, command = request.get("seq"), request.get("cmd")
    if command == "hello" and request.get("protocol") != 1:
        return refusal(seq, "unsupported", f"protocol {request.get('protocol')} is not supported; this engine speaks 1")
    if command == "new_game" and set(request.get("rules", {})) - VERSION_1_RULES:
        return refusal(seq, "bad-request", f"unknown rules {sorted(set(request['rules']) - VERSION_1_RULES)}")
    if b"#" in line:
        return refusal(seq, "bad-request", "not a card: a card is rank then suit")
    return server.reply_line(line.rstrip(b"\n"))


def main():
    log = open(sys.argv[sys.argv.index("--log") + 1], "ab") if "--log" in sys.argv else None
    server = Server(ReferenceEngine())
    for line in sys.stdin.buffer:
        if log is not None:
            log.write(line)
            log.flush()
        sys.stdout.buffer.write(reply(server, line))
        sys.stdout.buffer.flush()
        if server.done:
            return


if __name__ == "__main__":
    main()
