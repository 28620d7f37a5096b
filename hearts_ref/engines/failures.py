"""How an engine can fail, as opposed to refusing a move: one exception per verdict.

An engine that *refuses* a play or a pass raises :class:`~hearts_ref.engine.EngineRejection`
(the rules decide whether it was right to). An engine that *fails* (hangs, dies, talks
nonsense) raises an :class:`EngineFailure`; its :attr:`~EngineFailure.verdict` is the word
the runner's reports use.

>>> failure = EngineCrashed("engine exited with code 3", returncode=3, stderr_tail="boom")
>>> failure.verdict, failure.returncode, isinstance(failure, HeartsError)
('crashed', 3, True)
"""

from __future__ import annotations

import os
import sysconfig
from collections.abc import Iterator
from contextlib import contextmanager

from hearts_ref.errors import HeartsError

__all__ = [
    "EngineFailure", "EngineStartError", "EngineTimeout", "EngineCrashed", "EngineProtocolError",
    "EngineUnsupported", "EngineInternalError", "EngineAbandoned", "ENGINE_ERRORS", "restart_engine",
    "failure_text", "raised_at", "abandoned", "reproducing",
]

# What an engine's own bug can raise: any exception, and SystemExit from an in-process engine
# that calls sys.exit(). Never KeyboardInterrupt: that stops the run.
ENGINE_ERRORS = (Exception, SystemExit)


def failure_text(error: BaseException) -> str:
    """An engine's failure in words, led by its typed verdict (timeout, crashed, protocol-error …) or its type; an
    exception of an in-process engine ends with where the engine's own code raised it (``(at my_engine.py:57, in
    play)``), its innermost line outside hearts-ref and the standard library."""
    verdict = getattr(error, "verdict", None)
    if verdict:
        return f"{verdict}: {error}"
    where = raised_at(error)
    return f"{type(error).__name__}: {error}" + (f" (at {where})" if where else "")


_OWN = (os.path.dirname(os.path.dirname(os.path.abspath(__file__))) + os.sep,   # hearts_ref itself
        sysconfig.get_paths()["stdlib"] + os.sep, "<")                          # the standard library, <frozen …>


def raised_at(error: BaseException) -> str | None:
    """Where an in-process engine's code raised ``error``: ``file:line, in function`` of the innermost frame of its
    traceback outside hearts-ref and the standard library (the file relative to the current folder when in it)."""
    found = None
    tb = error.__traceback__
    while tb is not None:
        code = tb.tb_frame.f_code
        if not code.co_filename.startswith(_OWN):
            found = (code.co_filename, tb.tb_lineno, code.co_name)
        tb = tb.tb_next
    if found is None:
        return None
    path, line, name = found
    here = os.getcwd() + os.sep
    return f"{path.removeprefix(here)}:{line}, in {name}"


def restart_engine(engine: object) -> None:
    """After an engine failed, start it afresh if it can (an engine program can), so the run goes on.

    An engine that cannot restart, or fails to, is left as it is: the next case then
    reports the engine's state as its own failure.
    """
    restart = getattr(engine, "restart", None)
    if callable(restart):
        try:
            restart()
        except ENGINE_ERRORS:
            pass


@contextmanager
def reproducing(engine: object) -> Iterator[None]:
    """While the findings of a run are reproduced (shrunk and replayed) on ``engine``: its circuit breaker held,
    and an abandoned engine started again, so that a failure that shows every time shows in its replays too."""
    breaker = getattr(engine, "breaker", None)
    held = getattr(breaker, "held", None)
    if not callable(held):
        yield
        return
    was_abandoned = abandoned(engine) is not None
    with held():
        if was_abandoned:
            restart_engine(engine)
        yield


def abandoned(engine: object) -> str | None:
    """Why the runner has given up on ``engine`` (its circuit breaker tripped), or None while it has not.

    The remaining cases of the run are reported ``abandoned`` with this reason, and not run.
    """
    reason = getattr(engine, "abandoned", None)
    return reason if isinstance(reason, str) else None


class EngineFailure(HeartsError):
    """An engine that could not be judged on a move: it failed. ``verdict`` names how."""

    verdict = "failed"

    def __init__(self, message: str, *, stderr_tail: str = ""):
        super().__init__(message + (f"\n--- engine stderr (last lines) ---\n{stderr_tail}" if stderr_tail else ""))
        self.summary = message
        self.stderr_tail = stderr_tail


class EngineStartError(EngineFailure):
    """The engine's program could not be started at all (no such file, not executable)."""

    verdict = "not-started"


class EngineTimeout(EngineFailure):
    """The engine did not answer within the time allowed (``startup_timeout`` for the handshake)."""

    verdict = "timeout"

    def __init__(self, message: str, *, timeout: float, stderr_tail: str = ""):
        super().__init__(message, stderr_tail=stderr_tail)
        self.timeout = timeout


class EngineCrashed(EngineFailure):
    """The engine exited while a reply was due; ``returncode`` is its exit code (negative: a signal)."""

    verdict = "crashed"

    def __init__(self, message: str, *, returncode: int | None, stderr_tail: str = ""):
        super().__init__(message, stderr_tail=stderr_tail)
        self.returncode = returncode


class EngineProtocolError(EngineFailure):
    """The engine broke the protocol; ``line`` is the offending output, shortened."""

    verdict = "protocol-error"

    def __init__(self, message: str, *, line: str = "", stderr_tail: str = ""):
        super().__init__(message, stderr_tail=stderr_tail)
        self.line = line


class EngineUnsupported(EngineFailure):
    """The engine declined, with an ``unsupported`` reply: a protocol version or a variant it cannot play."""

    verdict = "unsupported"


class EngineInternalError(EngineFailure):
    """The engine reported its own internal error (an ``internal`` reply) and keeps running."""

    verdict = "internal-error"


class EngineAbandoned(EngineFailure):
    """The engine failed the same way in too many games in a row; it is not asked anything any more."""

    verdict = "abandoned"
