"""``hearts-ref serve``: the reference engine (or any Python engine) over the JSON-lines stdio protocol.

Reads one command per line on stdin and writes one reply per line on stdout until
``quit`` or the end of input (``spec/protocol/README.md``). Logs go to stderr.
"""

from __future__ import annotations

import argparse

from hearts_ref.engine import ReferenceEngine
from hearts_ref.engines.load import SPEC_HELP, load_engine
from hearts_ref.serve import serve

__all__ = ["configure", "run"]


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--engine", metavar="SPEC", default=None,
                        help=f"serve this engine instead of the reference: {SPEC_HELP}")


def run(args: argparse.Namespace) -> int:
    engine = load_engine(args.engine) if args.engine else ReferenceEngine()
    try:
        return serve(engine)
    finally:
        close = getattr(engine, "close", None)
        if callable(close):
            close()
