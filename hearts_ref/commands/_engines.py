"""Choosing an engine on the command line: ``reference`` or a Python ``module:attribute``."""

from __future__ import annotations

import importlib

from hearts_ref.engine import Engine, ReferenceEngine
from hearts_ref.errors import HeartsError

__all__ = ["load_engine", "ENGINE_HELP"]

ENGINE_HELP = ("the engine to judge: 'reference' (hearts-ref itself, the default) or MODULE:ATTR naming an "
               "object of the hearts_ref.engine.Engine interface, or a class or function returning one")


def load_engine(spec: str) -> Engine:
    """Return the engine named by ``spec``; a name that does not resolve raises :class:`HeartsError`."""
    if spec in ("reference", "hearts-ref"):
        return ReferenceEngine()
    module_name, sep, attribute = spec.partition(":")
    if not sep or not module_name or not attribute:
        raise HeartsError(f"engine {spec!r}: expected 'reference' or MODULE:ATTR")
    try:
        target = getattr(importlib.import_module(module_name), attribute)
    except (ImportError, AttributeError) as error:
        raise HeartsError(f"engine {spec!r}: {error}") from None
    # a class, or a factory function, makes the engine; an object is the engine
    engine = target() if isinstance(target, type) or (callable(target) and not isinstance(target, Engine)) \
        else target
    if not isinstance(engine, Engine):
        raise HeartsError(f"engine {spec!r}: {type(engine).__name__} does not offer the Engine interface "
                          "(capabilities, new_game, start_round, pass_cards, legal_plays, play, observe)")
    return engine
