"""The subcommands of ``hearts-ref``: each module has ``configure(parser)`` and ``run(args) -> int``."""

from __future__ import annotations

import argparse
import math
from collections.abc import Mapping
from typing import Any

from hearts_ref.variants import DEFAULT_PRESET, PARAMETERS, PRESETS, Rules, parse_settings, setting_text, suggest

__all__ = ["add_rules_arguments", "rules_from_args", "rules_label", "positive_seconds", "process_count", "preset_name",
           "add_engine_timeouts", "engine_timeouts", "MAX_ENGINE_TIMEOUT"]

MAX_ENGINE_TIMEOUT = 86400.0   # seconds: a day, for --timeout and --startup-timeout


def add_rules_arguments(parser: argparse.ArgumentParser, *, preset_default: str | None = DEFAULT_PRESET) -> None:
    """Add ``--preset NAME`` and ``--set name=value`` (repeatable) to a subcommand.

    ``preset_default=None`` leaves ``args.preset`` None when ``--preset`` is not given (for a
    subcommand that does something else then); :func:`rules_from_args` still reads it as the default.
    """
    parser.add_argument("--preset", default=preset_default, type=preset_name, metavar="NAME",
                        help=f"rules preset: {', '.join(PRESETS)} (default {DEFAULT_PRESET})")
    parser.add_argument("--set", dest="settings", action="append", default=[], metavar="NAME=VALUE",
                        help="change one variant parameter (see 'hearts-ref rules --registry'); repeatable")


def rules_from_args(args: argparse.Namespace) -> Rules:
    """Return the rules chosen by ``--preset`` and ``--set``; a bad value raises RulesError."""
    overrides = parse_settings(args.settings)
    return Rules.preset(args.preset or DEFAULT_PRESET, **overrides)


def preset_name(text: str) -> str:
    """Return ``text`` if it names a preset (an argparse ``type``); else say so, with the closest names."""
    if text in PRESETS:
        return text
    raise argparse.ArgumentTypeError(f"unknown preset {text!r}; {suggest(text, list(PRESETS))}"
                                     f"choose one of {', '.join(PRESETS)}")


def process_count(text: str) -> int:
    """Return ``text`` as a number of processes, a whole number >= 1 (an argparse ``type``); else say why."""
    if not text.isdigit() or int(text) < 1:
        raise argparse.ArgumentTypeError(f"the number of processes must be a whole number >= 1, got {text!r}")
    return int(text)


def add_engine_timeouts(parser: argparse.ArgumentParser) -> None:
    """Add ``--timeout S`` and ``--startup-timeout S``: how long an engine program may take to answer one command,
    and to start (the same options, and defaults, in every command that runs an engine)."""
    parser.add_argument("--timeout", type=_engine_seconds, default=5.0, metavar="S",
                        help="seconds an engine program may take to answer one command (default 5)")
    parser.add_argument("--startup-timeout", type=_engine_seconds, default=10.0, metavar="S",
                        help="seconds an engine program may take to start and answer the handshake (default 10)")


def engine_timeouts(args: argparse.Namespace) -> dict[str, float]:
    """The engine program's timeouts that :func:`add_engine_timeouts` read, as the engine loader takes them."""
    return {"timeout": args.timeout, "startup_timeout": args.startup_timeout}


def _engine_seconds(text: str) -> float:
    """Parse ``--timeout`` or ``--startup-timeout``: a number of seconds, more than 0, at most a day."""
    return positive_seconds(text, MAX_ENGINE_TIMEOUT)


def positive_seconds(text: str, maximum: float = math.inf) -> float:
    """Return ``text`` as a finite number of seconds above 0, and at most ``maximum`` (an argparse ``type``);
    else say why.

    >>> positive_seconds("2.5")
    2.5
    >>> positive_seconds("0")
    Traceback (most recent call last):
    argparse.ArgumentTypeError: the timeout must be more than 0 seconds (and finite), got 0
    """
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number of seconds: {text!r}") from None
    if not 0 < value < math.inf or value > maximum:   # also refuses nan
        limit = ("more than 0 seconds (and finite)" if maximum == math.inf
                 else f"more than 0 and at most {maximum:g} seconds")
        raise argparse.ArgumentTypeError(f"the timeout must be {limit}, got {text}")
    return value


def rules_label(preset: str, overrides: Mapping[str, Any]) -> str:
    """Return how a report names the rules of ``--preset`` and ``--set``: the preset, or the preset and the
    user's settings (a house rule), with the preset those rules equal if there is one.

    >>> rules_label("seed000", {}), rules_label("seed004", {"jd_bonus": True})
    ('seed000', 'seed004 + jd_bonus=true')
    >>> rules_label("seed000", {"hearts_broken_by": "any-heart"})
    'seed000 + hearts_broken_by=any-heart (= seed004)'
    >>> rules_label("seed003", {"players": 5})   # the preset's two decks come with five players
    'seed003 + players=5 (with decks=2)'
    """
    if not overrides:
        return preset
    rules, base = Rules.preset(preset, **overrides), Rules.preset(preset)
    settings = ", ".join(setting_text(name, value) for name, value in overrides.items())
    implied = [setting_text(p.name, getattr(rules, p.name)) for p in PARAMETERS
               if p.name not in overrides and getattr(rules, p.name) != getattr(base, p.name)]
    same = next((name for name in PRESETS if Rules.preset(name) == rules), None)
    return (f"{preset} + {settings}" + (f" (with {', '.join(implied)})" if implied else "")
            + (f" (= {same})" if same else ""))
