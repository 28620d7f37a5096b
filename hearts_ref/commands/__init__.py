"""The subcommands of ``hearts-ref``: each module has ``configure(parser)`` and ``run(args) -> int``."""

from __future__ import annotations

import argparse

from hearts_ref.variants import DEFAULT_PRESET, PRESETS, Rules, parse_setting

__all__ = ["add_rules_arguments", "rules_from_args"]


def add_rules_arguments(parser: argparse.ArgumentParser) -> None:
    """Add ``--preset NAME`` and ``--set name=value`` (repeatable) to a subcommand."""
    parser.add_argument("--preset", default=DEFAULT_PRESET, choices=sorted(PRESETS), metavar="NAME",
                        help=f"rules preset: {', '.join(PRESETS)} (default {DEFAULT_PRESET})")
    parser.add_argument("--set", dest="settings", action="append", default=[], metavar="NAME=VALUE",
                        help="change one variant parameter (see 'hearts-ref rules --registry'); repeatable")


def rules_from_args(args: argparse.Namespace) -> Rules:
    """Return the rules chosen by ``--preset`` and ``--set``; a bad value raises RulesError."""
    overrides = dict(parse_setting(text) for text in args.settings)
    return Rules.preset(args.preset, **overrides)
