"""``hearts-ref perft DEAL --depth N [--divide]``: count the legal play sequences from a fixed deal.

DEAL is the name of a deal of ``spec/perft/`` (``hearts-ref perft --list``) or the path of a perft
file. Prints the count at depth N (plays from the first lead) and, with ``--divide``, the count
per first play. When the file records the count for that depth, a difference exits 1; counted through an
engine (``--engine``), it also names the first position where the engine differs from the reference and the
rules it breaks there, as ``hearts-ref conform`` does.
"""

from __future__ import annotations

import argparse
import sys
import time
from contextlib import nullcontext
from typing import Any

from hearts_ref.commands import add_engine_timeouts, engine_timeouts
from hearts_ref.engine import EngineRejection
from hearts_ref.engines.load import SPEC_HELP, opened_engine
from hearts_ref.errors import HeartsError
from hearts_ref.perft import divide, divide_engine, load_perft, perft, perft_engine, perft_names

__all__ = ["configure", "run"]


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("deal", nargs="?", metavar="DEAL",
                        help="a deal name of spec/perft/ (see --list) or the path of a perft file")
    parser.add_argument("--depth", type=int, default=None, metavar="N",
                        help="plays from the first lead (default: the deepest count in the file)")
    parser.add_argument("--divide", action="store_true", help="also print the count per first play")
    parser.add_argument("--engine", default=None, metavar="SPEC",
                        help="count through an engine instead of the reference's own states (each position is "
                             f"reached by replaying its plays, so this is slow): {SPEC_HELP}")
    add_engine_timeouts(parser)
    parser.add_argument("--list", action="store_true", help="list the deals of spec/perft/ and their depths")
    parser.epilog = ("exit codes: 0 the count matches the file (or the file has none), 1 it differs (or the engine "
                     "refused a legal step), 2 bad input")


def run(args: argparse.Namespace) -> int:
    if args.list:
        for name in perft_names():
            deal = load_perft(name)
            print(f"{name:<16} depth 1..{len(deal.counts):<3} {deal.description}")
        return 0
    if not args.deal:
        raise HeartsError("give a DEAL (a name of spec/perft/ or a perft file), or --list")
    deal = load_perft(args.deal)
    depth = args.depth if args.depth is not None else len(deal.counts)
    if depth < 1:
        raise HeartsError(f"--depth must be at least 1, not {depth}")
    plays = sum(len(hand) for hand in deal.hands)   # the plays left in the round from this deal
    if depth > plays:
        raise HeartsError(f"--depth {depth} is more than the {plays} plays of a round from deal {deal.name} "
                          f"(depth 1..{plays}; {deal.name} records counts to depth {len(deal.counts)})")
    with opened_engine(args.engine, **engine_timeouts(args)) if args.engine else nullcontext() as engine:
        try:
            return _count(args, deal, depth, engine)
        except EngineRejection as error:   # a legal step refused: a deviation of the engine (exit 1), not bad input
            from hearts_ref.conformance.suite_steps import perft_refusal_rules

            print(f"perft {deal.name} depth {depth}: the engine refused {error} "
                  f"[{', '.join(perft_refusal_rules(deal, error))}]")
            return 1


def _count(args: argparse.Namespace, deal: Any, depth: int, engine: Any) -> int:
    """Count (or divide) to ``depth`` on the engine or the reference; print it, and where an engine differs."""
    start = time.perf_counter()
    if args.divide:
        counts = (divide_engine(engine, deal.rules, deal.hands, depth) if engine is not None
                  else divide(deal.start(), depth))
        for card, count in counts.items():
            print(f"{card}: {count}")
        total = sum(counts.values())
    else:
        total = (perft_engine(engine, deal.rules, deal.hands, depth) if engine is not None
                 else perft(deal.start(), depth))
    elapsed = time.perf_counter() - start
    expected = deal.counts[depth - 1] if depth <= len(deal.counts) else None
    verdict = "" if expected is None else (" (as recorded)" if expected == total else f" (recorded: {expected})")
    print(f"perft {deal.name} depth {depth}: {total}{verdict}")
    if engine is not None and expected is not None and expected != total:
        print(_first_difference(engine, deal, depth))
    print(f"{elapsed:.3f} s, {total / elapsed if elapsed else 0:.0f} sequences/s", file=sys.stderr)
    return 1 if expected is not None and expected != total else 0


def _first_difference(engine: object, deal: object, depth: int) -> str:
    """The first position where the engine differs from the reference on ``deal``, and the rules it breaks there (as
    ``hearts-ref conform`` names them for a perft count)."""
    from hearts_ref.conformance.suite_steps import perft_rules
    from hearts_ref.engines.failures import ENGINE_ERRORS, failure_text

    try:
        rules, where = perft_rules(engine, deal, depth)
    except ENGINE_ERRORS as error:
        return f"the first position that differs was not found: the engine failed ({failure_text(error)})"
    return f"first difference {where}" + (f" [{', '.join(rules)}]" if rules else "")
