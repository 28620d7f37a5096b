"""Independent proofs run side by side in processes, their results given back in the order they were asked for.

:func:`run_units` calls one function on each of several *units* of work (the inductive proofs of
some presets, the variant combinations of one invariant for one number of players) and returns
the results in the units' order, whatever order the processes finish in. With ``jobs`` > 1 each
unit runs in a process of its own, forked from this one: it starts with what this process has
already found (the modules imported, the session's answers), and its results are sent back.
With one job, or where processes cannot be forked, the units run here, one after the other.

What a unit finds must not depend on what ran before it in the same process: the proofs say
the same, and their counterexamples are the simplest of their kind, not the first model z3
gives (which can change with the order in which the terms were made).

>>> run_units(abs, [-2, 3, -5], jobs=2)
[2, 3, 5]
"""

from __future__ import annotations

import os
import pickle
import signal
import sys
from collections.abc import Callable, Sequence
from multiprocessing import Pipe
from multiprocessing.connection import Connection, wait
from typing import Any, TypeVar

__all__ = ["default_jobs", "run_units", "in_background", "UnitError"]

Unit = TypeVar("Unit")


class UnitError(RuntimeError):
    """A unit of work failed in its process (the message holds its traceback)."""


def default_jobs() -> int:
    """The number of cores this process may run on."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:    # not on Linux
        return max(1, os.cpu_count() or 1)


def run_units(function: Callable[[Unit], Any], units: Sequence[Unit], *, jobs: int,
              done: Callable[[Unit, Any], None] | None = None) -> list[Any]:
    """Return ``[function(unit) for unit in units]``, with ``jobs`` > 1 each computed in a forked process, ``jobs``
    at a time.

    The results must pickle. ``done`` is called with each unit and its result, in the units' order, as
    soon as that result and those of the units before it are in (a progress display).
    """
    if jobs <= 1 or len(units) <= 1 or not hasattr(os, "fork"):
        results = []
        for unit in units:
            results.append(function(unit))
            if done:
                done(unit, results[-1])
        return results
    found: dict[int, Any] = {}
    failed: dict[int, UnitError] = {}
    running: dict[Connection, tuple[int, int]] = {}     # reader -> (the unit's index, the pid of its process)
    reported = 0
    waiting = list(range(len(units)))
    try:
        while waiting or running:
            while waiting and len(running) < jobs and not failed:
                index = waiting.pop(0)
                reader, pid = _start(function, units[index])
                running[reader] = (index, pid)
            for reader in wait(list(running)):
                index, pid = running.pop(reader)
                try:
                    found[index] = _result(reader, pid)
                except UnitError as error:
                    failed[index] = error
            while reported in found:
                if done:
                    done(units[reported], found[reported])
                reported += 1
            # A failure is the first unit's, in the units' order, whichever process ends first: the units
            # before it still running are waited for (one of them may fail too), those after it stopped.
            if failed and not any(index < min(failed) for index, _ in running.values()):
                raise failed[min(failed)]
    finally:
        for reader, (_, pid) in running.items():    # a unit failed, or the run was interrupted: stop the others
            reader.close()
            os.kill(pid, signal.SIGTERM)
            os.waitpid(pid, 0)
    return [found[i] for i in range(len(units))]


def in_background(function: Callable[[Unit], Any], unit: Unit) -> Callable[[], Any]:
    """Start ``function(unit)`` in a forked process; return what waits for its result and gives it (computed here,
    at once, where processes cannot be forked)."""
    if not hasattr(os, "fork"):
        value = function(unit)
        return lambda: value
    reader, pid = _start(function, unit)
    return lambda: _result(reader, pid)


def _start(function: Callable[[Any], Any], unit: Any) -> tuple[Connection, int]:
    reader, writer = Pipe(duplex=False)
    sys.stdout.flush()
    sys.stderr.flush()
    pid = os.fork()
    if pid == 0:   # the child: compute, send, and leave without running the parent's exit handlers
        status = 0
        try:
            reader.close()
            signal.signal(signal.SIGINT, signal.SIG_DFL)
            try:
                payload = pickle.dumps(("ok", function(unit)))
            except BaseException:     # the parent raises it, with the child's traceback
                import traceback
                payload = pickle.dumps(("error", traceback.format_exc()))
            writer.send_bytes(payload)
            writer.close()
        except BaseException:
            status = 1
        finally:
            os._exit(status)
    writer.close()
    return reader, pid


def _result(reader: Connection, pid: int) -> Any:
    try:
        kind, value = pickle.loads(reader.recv_bytes())
    except EOFError:
        kind, value = "error", "the process of a unit of work ended without a result"
    finally:
        reader.close()
        os.waitpid(pid, 0)
    if kind == "error":
        raise UnitError(value)
    return value
