"""``hearts-ref conform``: not available yet."""

from __future__ import annotations

import argparse
import sys


def configure(parser: argparse.ArgumentParser) -> None:
    pass


def run(args: argparse.Namespace) -> int:
    print("hearts-ref conform: not available yet", file=sys.stderr)
    return 2
