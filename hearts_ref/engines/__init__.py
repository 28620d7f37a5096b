"""Engines that hearts-ref can judge, behind the :class:`hearts_ref.engine.Engine` interface.

- :mod:`hearts_ref.engines.stdio`: any program speaking the JSON-lines protocol (``spec/protocol/``), over a
  :mod:`~hearts_ref.engines.channel` (numbered commands written together, their replies read in order);
- :func:`load_engine`: an engine from a command-line SPEC (``reference``, ``python:module:attr``, ``openspiel``, a command),
  the same for every subcommand;
- :mod:`hearts_ref.engines.failures`: the typed ways an engine fails (timeout, crash, protocol error);
- :mod:`hearts_ref.engines.health`: an engine program's reply times, and the circuit breaker that
  abandons one that keeps failing the same way;
- :mod:`hearts_ref.engines.keeper`: the process that makes sure nothing an engine starts outlives it.
"""

from hearts_ref.engines.failures import (
    EngineAbandoned, EngineCrashed, EngineFailure, EngineInternalError, EngineProtocolError, EngineStartError,
    EngineTimeout, EngineUnsupported, abandoned,
)
from hearts_ref.engines.load import EngineSpecError, load_engine

__all__ = [
    "EngineAbandoned", "EngineCrashed", "EngineFailure", "EngineInternalError", "EngineProtocolError",
    "EngineSpecError", "EngineStartError", "EngineTimeout", "EngineUnsupported", "StdioEngine", "Step", "abandoned",
    "load_engine",
]


def __getattr__(name: str) -> object:
    """The stdio client (``StdioEngine``, ``Step``), imported when first asked for: ``hearts-ref serve``, which imports
    this package to load an engine, starts without it (and the runner waits for its hello)."""
    if name in ("StdioEngine", "Step"):
        from hearts_ref.engines import stdio
        return getattr(stdio, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
