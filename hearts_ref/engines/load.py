"""Engine specs: the one string that names an engine on the command line, turned into an :class:`Engine`.

Every subcommand that takes ``--engine SPEC`` (conform, serve, vectors run, perft) reads it here.
A SPEC is one of:

- ``reference``: hearts-ref's own :class:`~hearts_ref.engine.ReferenceEngine`, in process;
- ``python:module:attr``: an in-process Python engine; ``attr`` is an engine object (one with
  every member of the :class:`~hearts_ref.engine.Engine` interface), or a class or a factory
  called with no arguments that returns one (``python:hearts_ref.engine:ReferenceEngine``);
  plain ``module:attr`` (one word, dotted names only) means the same;
- ``openspiel``: OpenSpiel's ``hearts`` through the adapter ``hearts_ref.engines.openspiel``;
- anything else: a command line speaking the stdio protocol, split like a shell would
  (``"./my-engine --fast"``) but run without a shell.

>>> load_engine("python:hearts_ref.engine:ReferenceEngine").name
'hearts-ref'
>>> load_engine("reference").name
'hearts-ref'
>>> load_engine("python:hearts_ref.engine")
Traceback (most recent call last):
hearts_ref.engines.load.EngineSpecError: engine spec 'python:hearts_ref.engine': expected python:module:attr (for example python:my_engine:MyEngine)
"""

from __future__ import annotations

import importlib
import importlib.util
import os
import re
import shlex
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from hearts_ref.engine import Engine, ReferenceEngine
from hearts_ref.errors import HeartsError

__all__ = ["EngineSpecError", "load_engine", "opened_engine", "SPEC_HELP"]

SPEC_HELP = ("reference (hearts-ref itself), python:module:attr or module:attr (an in-process Python engine: "
             "an engine object, or a class or factory returning one), openspiel (OpenSpiel's hearts), "
             "or a command line speaking the stdio protocol (run without a shell)")

_MODULE_ATTR = re.compile(r"^[A-Za-z_][\w.]*:[A-Za-z_][\w.]*$")
_DOTTED = re.compile(r"^[A-Za-z_]\w*(\.[A-Za-z_]\w*)+$")   # my_package.engine: a module, not a program
_ENGINE_MEMBERS = ("name", "version", "capabilities", "new_game", "start_round", "pass_cards",
                   "legal_plays", "play", "observe")


class EngineSpecError(HeartsError):
    """An engine spec that names no usable engine; says which part is wrong."""


def load_engine(spec: str, **options: Any) -> Engine:
    """Return the engine named by ``spec`` (see the module docs).

    ``options`` are :class:`~hearts_ref.engines.stdio.StdioEngine`'s keywords (``timeout``,
    ``startup_timeout``, ``cwd``, ``env``); they apply to command lines only.
    """
    if not isinstance(spec, str) or not spec.strip():
        raise EngineSpecError(f"empty engine spec; give {SPEC_HELP}")
    spec = spec.strip()
    if spec == "reference":
        return ReferenceEngine()
    if spec.startswith("python:"):
        return _python_engine(spec)
    if _MODULE_ATTR.match(spec):
        return _python_engine("python:" + spec, given=spec)
    if spec == "openspiel":
        return _openspiel_engine()
    try:
        argv = shlex.split(spec)
    except ValueError as error:
        raise EngineSpecError(f"engine command {spec!r}: {error}") from None
    from hearts_ref.engines.stdio import StdioEngine
    try:
        return StdioEngine(argv, **options)
    except HeartsError as error:
        hint = _hint(argv[0]) if argv and "/" not in argv[0] else None
        if hint is not None and (len(argv) == 1 or not hint.startswith("a Python")):
            raise type(error)(f"{error} ({hint})") from None
        raise


def _hint(program: str) -> str | None:
    """What a program that did not start (looked up on PATH, having no /) was likely meant to be, or None."""
    from hearts_ref.variants import suggest

    if os.path.isfile(program):   # a file of the current folder: a command without a / is not looked for here
        module = program.removesuffix(".py")
        return (f"{program} is a file of the current folder, but a command without a / is looked up on PATH: give "
                f"./{program}" + (f", or a Python engine in it as {module}:MyEngine" if program.endswith(".py")
                                  and module.isidentifier() else ""))
    if _a_module(program):   # a module without its :attr
        return f"a Python engine is named MODULE:ATTR, for example {program}:MyEngine"
    return suggest(program, ["reference", "openspiel"]).strip() or None


def _a_module(name: str) -> bool:
    """Whether ``name`` reads as a Python module rather than a program: dotted (``my_package.engine``), a module or
    package of the current folder (``my_engines.py``, where ``python:`` specs look too), or one that can be imported
    from here."""
    if _DOTTED.match(name) or (name.isidentifier() and (os.path.isfile(name + ".py")
                                                         or os.path.isfile(os.path.join(name, "__init__.py")))):
        return True
    try:
        return name.isidentifier() and importlib.util.find_spec(name) is not None
    except (ImportError, ValueError):
        return False


@contextmanager
def opened_engine(spec: str, **options: Any) -> Iterator[Engine]:
    """Yield the engine named by ``spec`` (as :func:`load_engine`), closed afterwards if it has ``close()``."""
    engine = load_engine(spec, **options)
    try:
        yield engine
    finally:
        close = getattr(engine, "close", None)
        if callable(close):
            close()


def _python_engine(spec: str, given: str | None = None) -> Engine:
    """The engine of ``python:module:attr``; ``given``, the spec as the user wrote it (``module:attr``), for messages."""
    shown = spec if given is None else given
    parts = spec.split(":")
    if len(parts) != 3 or not all(parts[1:]):
        raise EngineSpecError(f"engine spec {shown!r}: expected python:module:attr "
                              "(for example python:my_engine:MyEngine)")
    _, module_name, attr = parts
    here = os.getcwd()
    if here not in sys.path and "" not in sys.path:   # as ``python -m`` does: modules of the current folder
        sys.path.append(here)
    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError as error:
        raise EngineSpecError(f"engine spec {shown!r}: no module named {error.name!r} (looked in the current "
                              "folder and on PYTHONPATH)") from None
    except Exception as error:
        raise EngineSpecError(f"engine spec {shown!r}: importing {module_name} failed: "
                              f"{type(error).__name__}: {error}") from None
    target: Any = module
    for name in attr.split("."):
        if not hasattr(target, name):
            from hearts_ref.variants import suggest

            close = suggest(name, [other for other in dir(target) if not other.startswith("_")])
            raise EngineSpecError(f"engine spec {shown!r}: {target.__name__ if hasattr(target, '__name__') else target!r} "
                                  f"has no attribute {name!r}" + (f"; {close.strip()}" if close else ""))
        target = getattr(target, name)
    # An engine object is used as it is; a class (even one with every member) or a factory is called.
    if not isinstance(target, type) and not _missing(target):
        return target
    if not callable(target):
        raise EngineSpecError(f"engine spec {shown!r}: {attr} is not a class or a factory, nor an engine object "
                              f"({'an' if type(target).__name__[0] in 'aeiou' else 'a'} {type(target).__name__} "
                              f"without {', '.join(_missing(target))})")
    try:
        engine = target()
    except Exception as error:
        raise EngineSpecError(f"engine spec {shown!r}: {attr}() failed: {type(error).__name__}: {error}") from None
    return _checked(engine, spec)


def _openspiel_engine() -> Engine:
    try:
        module = importlib.import_module("hearts_ref.engines.openspiel")
    except ModuleNotFoundError as error:
        if error.name == "hearts_ref.engines.openspiel":
            raise EngineSpecError("engine spec 'openspiel': the OpenSpiel adapter "
                                  "(hearts_ref.engines.openspiel) is not part of this installation") from None
        raise EngineSpecError(f"engine spec 'openspiel': OpenSpiel is not installed (no module named "
                              f"{error.name!r}); install it with: pip install 'hearts-ref[openspiel]'") from None
    adapter = getattr(module, "OpenSpielEngine", None)
    if adapter is None:
        raise EngineSpecError("engine spec 'openspiel': hearts_ref.engines.openspiel defines no OpenSpielEngine")
    try:
        engine = adapter()
    except ModuleNotFoundError as error:   # open-spiel itself missing: the adapter says what to install
        raise EngineSpecError(f"engine spec 'openspiel': {error}") from None
    return _checked(engine, "openspiel")


def _checked(engine: Any, spec: str) -> Engine:
    """Return ``engine`` if it has every member of the :class:`Engine` interface and says what it can do (its
    ``capabilities()``, read as the runner reads them); else say what is wrong, before any case is run (as an engine
    program's hello is checked)."""
    missing = _missing(engine)
    if missing:
        raise EngineSpecError(f"engine spec {spec!r}: {type(engine).__name__} is not an Engine "
                              f"(missing {', '.join(missing)})")
    from hearts_ref.conformance.runner import engine_capabilities

    _, problem = engine_capabilities(engine)
    if problem is not None:
        raise EngineSpecError(f"engine spec {spec!r}: {problem}")
    return engine


def _missing(engine: Any) -> list[str]:
    """The members of the :class:`Engine` interface that ``engine`` lacks."""
    return [name for name in _ENGINE_MEMBERS if not hasattr(engine, name)]
