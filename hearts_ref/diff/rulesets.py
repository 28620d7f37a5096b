"""The two sides of a comparison: a ruleset named by a preset and settings, and the parameters the sides differ in.

A side is written as on the command line: a preset name, then ``name=value`` settings, separated by
spaces, commas or ``+`` (so the labels ``hearts-ref prove`` prints read back). The second side may
start with a setting: it then changes the first side's rules (``openspiel`` against ``ties=play-on``).
A mistake names the side, the word, and the closest valid names.

>>> a = parse_side("seed000")
>>> b = parse_side("seed000 qs_breaks_hearts=true", base=a)
>>> b.label, b.rules.qs_breaks_hearts, differing(a.rules, b.rules)
('seed000 qs_breaks_hearts=true', True, ('qs_breaks_hearts',))
>>> parse_side("ties=play-on", base=parse_side("openspiel")).label
'openspiel ties=play-on'
>>> parse_side("seed04")
Traceback (most recent call last):
hearts_ref.errors.RulesError: 'seed04' is not a preset or a setting; did you mean seed004? (presets: seed000, seed001, seed002, seed003, seed004, openspiel)
"""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass
from typing import Any

from hearts_ref.errors import RulesError
from hearts_ref.variants import DEFAULT_PRESET, PARAMETERS, PRESETS, Rules, parse_setting, suggest

__all__ = ["Side", "parse_side", "differing", "value_text", "settings_text", "single_changes", "Change",
           "change_from", "SAMPLE_VALUES", "other_values"]

_NAMES = [parameter.name for parameter in PARAMETERS]


@dataclass(frozen=True)
class Side:
    """One side of a comparison: how it was written (``label``), the preset it starts from, its settings, its rules."""

    label: str
    preset: str
    settings: tuple[tuple[str, Any], ...]
    rules: Rules


def value_text(value: Any) -> str:
    """A variant value as a setting writes it: ``true``, ``50``, ``any-heart``; in double quotes when it holds
    more than letters, digits and hyphens (``">"``), so that a label reads back and passes through a shell."""
    if isinstance(value, bool):
        return str(value).lower()
    text = str(value)
    return text if re.fullmatch(r"[A-Za-z0-9-]+", text) else f'"{text}"'


def settings_text(settings: tuple[tuple[str, Any], ...] | list[tuple[str, Any]]) -> str:
    """Settings as ``name=value`` words."""
    return " ".join(f"{name}={value_text(value)}" for name, value in settings)


def _setting(word: str, where: str) -> tuple[str, Any]:
    name = word.partition("=")[0].strip()
    if name in PRESETS:
        raise RulesError(f"{where}{name!r} is a preset, not a variant parameter: write it first, alone "
                         f"(parameters: {', '.join(_NAMES)})", field=name)
    if name not in _NAMES:
        hint = suggest(name, _NAMES)
        raise RulesError(f"{where}unknown variant parameter {name!r}{'; ' + hint.rstrip() if hint else ''} "
                         f"(parameters: {', '.join(_NAMES)})", field=name)
    try:
        return parse_setting(word)
    except RulesError as error:
        raise RulesError(f"{where}{error}", field=error.field) from None


def parse_side(text: str, *, base: Side | None = None, name: str = "") -> Side:
    """Return the side written ``text``: a preset and settings, or (with ``base``) settings that change ``base``.

    ``name`` ("ruleset A", "ruleset B") prefixes every error message. Raises :class:`RulesError` naming the
    bad word and the closest preset or parameter names.
    """
    where = f"{name}: " if name else ""
    words = [w for w in text.replace(",", " ").split() if w != "+"]
    if not words:
        raise RulesError(f"{where}empty ruleset; give a preset ({', '.join(PRESETS)}) and settings name=value")
    named = "=" not in words[0]   # the side names its preset
    if not named:
        preset, start = (base.preset, list(base.settings)) if base else (DEFAULT_PRESET, [])
    else:
        preset, start = words.pop(0), []
        if preset not in PRESETS:
            hint = suggest(preset, list(PRESETS))
            raise RulesError(f"{where}{preset!r} is not a preset or a setting{'; ' + hint if hint else ' '}"
                             f"(presets: {', '.join(PRESETS)})", field="preset")
    given: dict[str, Any] = {}
    for word in words:
        if word in _NAMES:
            allowed = next(p for p in PARAMETERS if p.name == word).describe_allowed()
            raise RulesError(f"{where}{word!r} needs a value: {word}=VALUE, the value {allowed}", field=word)
        if "=" not in word and word in PRESETS:
            why = "a second preset: a ruleset is one preset" if named else "a preset, and the preset comes first"
            raise RulesError(f"{where}{word!r} is {why}, then settings name=value", field=word)
        if "=" not in word:
            hint = suggest(word, list(PRESETS) + _NAMES)
            raise RulesError(f"{where}{word!r} is not a setting name=value (the preset comes first); {hint}".rstrip("; "),
                             field=word)
        key, value = _setting(word, where)
        if key in given:
            raise RulesError(f"{where}{key} is set twice ({key}={value_text(given[key])}, {word})", field=key)
        given[key] = value
    settings = tuple((k, v) for k, v in start if k not in given) + tuple(given.items())
    try:
        rules = Rules.preset(preset, **dict(settings))
    except RulesError as error:
        raise RulesError(f"{where}{error}", field=error.field) from None
    label = " ".join([preset, settings_text(settings)]).strip()
    return Side(label, preset, settings, rules)


def differing(a: Rules, b: Rules) -> tuple[str, ...]:
    """The variant parameters whose values differ between ``a`` and ``b``, in registry order."""
    return tuple(name for name in _NAMES if getattr(a, name) != getattr(b, name))


@dataclass(frozen=True)
class Change:
    """Some parameters of the comparison changed on their own: from ``before`` to ``after`` (both valid rules).

    ``parameters`` are the ones changed; more than one when the registry does not allow the
    first alone (``hearts_restriction="discard"`` needs ``hearts_broken_by`` other than "discard").
    ``reason`` says why they travel together.
    """

    parameters: tuple[str, ...]
    before: Rules
    after: Rules
    reason: str = ""


def _try(rules: Rules, values: dict[str, Any]) -> Rules | str:
    try:
        return Rules(**(rules.to_dict() | values))
    except RulesError as error:
        return str(error)


def single_changes(a: Rules, b: Rules) -> list[Change]:
    """One change per parameter the sides differ in: ``a`` with that value of ``b`` (or ``b`` with that value of
    ``a``, if only that is valid); a parameter the registry does not allow to change alone travels with the
    fewest others of the difference that make it valid.
    """
    names = differing(a, b)
    changes, covered = [], set()
    for name in names:
        if name in covered:
            continue
        moved = _try(a, {name: getattr(b, name)})
        if isinstance(moved, Rules):
            changes.append(Change((name,), a, moved))
            continue
        back = _try(b, {name: getattr(a, name)})
        if isinstance(back, Rules):
            changes.append(Change((name,), back, b))
            continue
        for size in range(1, len(names)):
            found = next((group for group in itertools.combinations([n for n in names if n != name], size)
                          if isinstance(_try(a, {n: getattr(b, n) for n in (name, *group)}), Rules)), None)
            if found:
                together = (name, *found)
                ordered = tuple(n for n in names if n in together)
                after = _try(a, {n: getattr(b, n) for n in ordered})
                changes.append(Change(ordered, a, after, f"alone: {moved}"))
                covered.update(ordered)
                break
    return changes


# A value to try for the parameters that take any whole number: seed 000's table (50) and OpenSpiel (one round).
SAMPLE_VALUES: dict[str, tuple[Any, ...]] = {"end_threshold": (50,), "max_rounds": (1,)}


def other_values(name: str, rules: Rules) -> tuple[Any, ...]:
    """The values of parameter ``name`` other than the one ``rules`` has (for whole numbers, the sample values)."""
    parameter = next(p for p in PARAMETERS if p.name == name)
    if parameter.values is bool:
        values: tuple[Any, ...] = (False, True)
    elif parameter.values is int:
        values = SAMPLE_VALUES.get(name, ())
    else:
        values = parameter.values
    return tuple(v for v in values if v != getattr(rules, name))


def change_from(rules: Rules, name: str, value: Any) -> Change:
    """``rules`` with ``name`` set to ``value``; if the registry does not allow that alone, with the first other
    parameter value that makes it valid — the parameters the registry's message names first, in its order, then in
    registry order — and the reason in :attr:`Change.reason`."""
    moved = _try(rules, {name: value})
    if isinstance(moved, Rules):
        return Change((name,), rules, moved)
    found = {n: re.search(rf"\b{n}\b", moved) for n in _NAMES if n != name}
    named = sorted((n for n, at in found.items() if at), key=lambda n: found[n].start())   # in the message's order
    for other in named + [n for n in _NAMES if n != name and n not in named]:
        for partner in other_values(other, rules):
            together = _try(rules, {name: value, other: partner})
            if isinstance(together, Rules):
                order = tuple(n for n in _NAMES if n in (name, other))
                return Change(order, rules, together, f"alone: {moved}")
    # Some values need two others (decks=2: five or six players and uneven hands): pairs of the parameters named.
    for first, second in itertools.combinations(named, 2):
        for one, two in itertools.product(other_values(first, rules), other_values(second, rules)):
            together = _try(rules, {name: value, first: one, second: two})
            if isinstance(together, Rules):
                order = tuple(n for n in _NAMES if n in (name, first, second))
                return Change(order, rules, together, f"alone: {moved}")
    raise RulesError(moved, field=name)
