"""What the misbehaving test engines share: hearts-ref's own server with one planted fault.

Each engine script answers exactly like ``hearts-ref serve`` until the ``nth`` command
named ``command`` (from its arguments, default the 5th ``play``), and there calls its
fault with the reply it should have written. Run them with ``sys.executable``.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))   # the checkout: hearts_ref and tests

from hearts_ref.engine import ReferenceEngine  # noqa: E402
from hearts_ref.protocol import encode  # noqa: E402
from hearts_ref.serve import Server  # noqa: E402


def write(data: bytes) -> None:
    sys.stdout.buffer.write(data)
    sys.stdout.buffer.flush()


def serve_with_fault(fault: Callable[[bytes], None], argv: list[str] | None = None, *,
                     before_reply: Callable[[], None] | None = None) -> None:
    """Serve the reference engine; at the trigger, call ``fault(reply)`` instead of writing the reply.

    ``before_reply`` runs before every reply written (to log, for example).
    """
    argv = sys.argv[1:] if argv is None else argv
    command = argv[0] if argv else "play"
    nth = int(argv[1]) if len(argv) > 1 else 5
    server = Server(ReferenceEngine())
    seen = 0
    for line in sys.stdin.buffer:
        reply = encode(server.answer(line))
        try:
            name = json.loads(line).get("cmd")
        except ValueError:
            name = None
        if name == command:
            seen += 1
            if seen == nth:
                fault(reply)
                continue
        if before_reply is not None:
            before_reply()
        write(reply)
        if server.done:
            return
