"""The ``hearts-ref`` command line: one subcommand per job, each in ``hearts_ref/commands/``.

Exit codes, for every subcommand: 0 success, 1 a check found a deviation (a rule
broken, a proof with an unexpected outcome), 2 bad input (arguments, files), with one
clear line on stderr and never a traceback. Interrupted by SIGINT, SIGTERM or SIGHUP, a
command unwinds as it would from an error (so every engine program it started is killed)
and exits with 128 + the signal's number. A signal that was ignored when the command started
stays ignored, as the shell and ``nohup`` meant it: ``nohup hearts-ref conform ... &`` keeps
running after a hangup, and a script's background job ignores the terminal's ^C.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib
import signal
import sys
import threading
from collections.abc import Iterator, Sequence

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
    "diff": "what a house rule changes: two rulesets equivalent in play, or the smallest game where they part",
}


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:   # one clear line, exit 2
        self.exit(2, f"{self.prog}: error: {message}\n")


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """The command line's parser; with ``only``, just that command's options are read (its module imported), so
    that a command does not wait for the imports of the others (z3 and hypothesis for ``prove`` and ``diff``)."""
    parser = _Parser(prog="hearts-ref", description="The Hearts rules reference: play, prove, check engines.")
    # not required here: main() names an unrecognized option before it asks for a missing COMMAND
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    for name, help_text in COMMANDS.items():
        command = sub.add_parser(name, help=help_text, description=help_text)
        if only is None or name == only:
            module = importlib.import_module(f"hearts_ref.commands.{name}")
            module.configure(command)
            command.set_defaults(run=module.run)
    return parser


def _command_named(argv: Sequence[str]) -> str | None:
    """The command ``argv`` names, when its first word that is no option is one."""
    first = next((word for word in argv if not word.startswith("-")), None)
    return first if first in COMMANDS else None


class _Terminated(BaseException):
    """Raised in the main thread by SIGTERM or SIGHUP, to unwind like KeyboardInterrupt does for SIGINT."""

    def __init__(self, signum: int):
        super().__init__(signal.Signals(signum).name)
        self.signum = signum


@contextlib.contextmanager
def _terminate_by_unwinding() -> Iterator[None]:
    """Turn SIGTERM and SIGHUP into :class:`_Terminated` while the command runs, then restore the handlers.

    Only the first signal raises: a second one, arriving while the command cleans up after
    the first, is ignored, so the cleanup (killing engine programs) is not cut short.
    """
    if threading.current_thread() is not threading.main_thread():   # only the main thread may set handlers
        yield
        return
    raised = False

    def handler(signum: int, frame: object) -> None:
        nonlocal raised
        if not raised:
            raised = True
            raise _Terminated(signum)

    previous = {signum: signal.signal(signum, handler) for signum in (signal.SIGTERM, signal.SIGHUP)
                if signal.getsignal(signum) is not signal.SIG_IGN}       # nohup's SIGHUP stays ignored
    try:
        yield
    finally:
        for signum, action in previous.items():
            signal.signal(signum, action)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; return the exit code."""
    parser = build_parser(_command_named(sys.argv[1:] if argv is None else argv))
    args, unknown = parser.parse_known_args(argv)
    if unknown:   # named at the level it was given: "hearts-ref vectors: error: ..." for "hearts-ref vectors --bogus"
        prog = f"hearts-ref {args.command}" if args.command else "hearts-ref"
        parser.exit(2, f"{prog}: error: unrecognized arguments: {' '.join(unknown)}\n")
    if args.command is None:
        parser.error(f"give a COMMAND: {', '.join(COMMANDS)} (see hearts-ref --help)")
    try:
        with _terminate_by_unwinding():
            return int(args.run(args) or 0)
    except HeartsError as error:
        from hearts_ref.console import printable   # (rich, which console loads, only where a command needs it)

        print(printable(f"hearts-ref {args.command}: error: {error}", newlines=True), file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print(f"hearts-ref {args.command}: interrupted", file=sys.stderr)
        return 128 + signal.SIGINT
    except _Terminated as stop:
        print(f"hearts-ref {args.command}: terminated by {stop}", file=sys.stderr)
        return 128 + stop.signum
    except BrokenPipeError:
        return 0


if __name__ == "__main__":
    sys.exit(main())
