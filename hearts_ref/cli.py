"""The ``hearts-ref`` command line: one subcommand per job, each in ``hearts_ref/commands/``.

Exit codes, for every subcommand: 0 success, 1 a check found a deviation (a rule
broken, a proof with an unexpected outcome), 2 bad input (arguments, files), with one
clear line on stderr and never a traceback.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

from hearts_ref.errors import HeartsError

__all__ = ["main", "COMMANDS"]

# name -> one-line help; the module hearts_ref.commands.<name> defines configure(parser) and run(args).
COMMANDS = {
    "play": "play a whole game with random legal choices and print it",
    "rules": "list the rule IDs with their titles, or the variant registry",
    "prove": "prove or refute the invariants with Z3",
    "vectors": "generate or run the conformance vectors",
    "perft": "count legal play sequences from a fixed deal",
    "referee": "check recorded games against the rules",
    "serve": "run the reference engine over the JSON-lines stdio protocol",
    "conform": "judge an engine against the reference",
    "verify": "the main job: proofs, vectors and a differential run, one verdict",
}


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:   # one clear line, exit 2
        self.exit(2, f"{self.prog}: error: {message}\n")


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="hearts-ref", description="The Hearts rules reference: play, prove, check engines.")
    # not required here: main() names an unrecognized option before it asks for a missing COMMAND
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    for name, help_text in COMMANDS.items():
        module = importlib.import_module(f"hearts_ref.commands.{name}")
        command = sub.add_parser(name, help=help_text, description=help_text)
        module.configure(command)
        command.set_defaults(run=module.run)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; return the exit code."""
    parser = build_parser()
    args, unknown = parser.parse_known_args(argv)
    if unknown:
        parser.error(f"unrecognized arguments: {' '.join(unknown)}")
    if args.command is None:
        parser.error(f"give a COMMAND: {', '.join(COMMANDS)} (see hearts-ref --help)")
    try:
        return int(args.run(args) or 0)
    except HeartsError as error:
        print(f"hearts-ref {args.command}: error: {error}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print(f"hearts-ref {args.command}: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0


if __name__ == "__main__":
    sys.exit(main())
