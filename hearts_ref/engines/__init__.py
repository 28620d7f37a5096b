"""Engines that hearts-ref can judge, behind the :class:`hearts_ref.engine.Engine` interface.

- :mod:`hearts_ref.engines.stdio`: any program speaking the JSON-lines protocol (``spec/protocol/``);
- :func:`load_engine`: an engine from a command-line SPEC (``reference``, ``python:module:attr``, ``openspiel``, a command),
  the same for every subcommand;
- :mod:`hearts_ref.engines.failures`: the typed ways an engine fails (timeout, crash, protocol error).
"""

from hearts_ref.engines.failures import (
    EngineCrashed, EngineFailure, EngineInternalError, EngineProtocolError, EngineStartError, EngineTimeout,
    EngineUnsupported,
)
from hearts_ref.engines.load import EngineSpecError, load_engine
from hearts_ref.engines.stdio import StdioEngine, Step

__all__ = [
    "EngineCrashed", "EngineFailure", "EngineInternalError", "EngineProtocolError", "EngineSpecError",
    "EngineStartError", "EngineTimeout", "EngineUnsupported", "StdioEngine", "Step", "load_engine",
]
