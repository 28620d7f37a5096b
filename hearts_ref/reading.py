"""Reading JSON input precisely: bytes to text, text to JSON, JSON against a schema of ``spec/``.

Game records, vector files and perft files are read by the same few functions, so every
malformed input ends in one :class:`~hearts_ref.errors.RecordError` that says *where*
(the file, a line and column, or a JSON path such as ``rounds[0].hands[2]``) and *why*.

>>> read_json(b'{"a": [1, 2,]}', where="x.json")
Traceback (most recent call last):
hearts_ref.errors.RecordError: x.json: line 1 column 13: not valid JSON (Expecting value)
>>> check_schema({"format": "hearts-ref-game"}, "record.schema.json", where="x.json")
Traceback (most recent call last):
hearts_ref.errors.RecordError: x.json: (top level): 'version' is a required property (schema: required)
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from hearts_ref.errors import RecordError
from hearts_ref.spec import spec_dir

if TYPE_CHECKING:    # imported where a schema is read: a run that checks no schema does not wait for it
    import jsonschema

__all__ = ["read_json", "check_schema", "json_path", "load_schema", "JsonReader", "json_kind", "MAX_INPUT_BYTES"]

MAX_INPUT_BYTES = 64 * 1024 * 1024   # no record or vector file comes near this


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON number")


def read_json(source: str | bytes | Path, *, where: str = "", limit: int | None = MAX_INPUT_BYTES) -> Any:
    """Return the JSON value of ``source``: a path, or the bytes or text of a file.

    Raises :class:`RecordError` for an unreadable file, text that is not UTF-8 (with the
    byte offset), JSON syntax (with line and column), ``NaN``/``Infinity``, numbers too long
    to convert, nesting too deep to read, and more than ``limit`` bytes (None: no limit, for
    a report, which grows with its campaign).
    """
    if isinstance(source, Path):
        where = where or str(source)
        try:
            source = source.read_bytes()
        except FileNotFoundError:
            raise RecordError("cannot read the file: no such file", where=where) from None
        except IsADirectoryError:
            raise RecordError("cannot read the file: it is a folder", where=where) from None
        except OSError as error:
            raise RecordError(f"cannot read the file ({error.strerror or error})", where=where) from None
    if isinstance(source, bytes):
        if limit is not None and len(source) > limit:
            raise RecordError(f"{len(source)} bytes is more than the {limit} accepted", where=where)
        try:
            source = source.decode("utf-8-sig")
        except UnicodeDecodeError as error:
            raise RecordError(f"byte {error.start}: not UTF-8 text ({error.reason})", where=where) from None
    try:
        return json.loads(source, parse_constant=_reject_constant)
    except json.JSONDecodeError as error:
        raise RecordError(f"line {error.lineno} column {error.colno}: not valid JSON ({error.msg})",
                          where=where) from None
    except RecursionError:
        raise RecordError("not valid JSON (nested too deeply to read)", where=where) from None
    except ValueError as error:   # NaN, Infinity, or an integer too long to convert
        why = "a number too long to read" if "integer string conversion" in str(error) else str(error)
        raise RecordError(f"not valid JSON ({why})", where=where) from None


def json_path(parts: Iterable[str | int]) -> str:
    """Return a readable JSON path: ``rounds[0].hands[2]`` (``(top level)`` for the root).

    >>> json_path(["rounds", 0, "tricks", 3, "cards"])
    'rounds[0].tricks[3].cards'
    """
    text = ""
    for part in parts:
        text += f"[{part}]" if isinstance(part, int) else (f".{part}" if text else str(part))
    return text or "(top level)"


@cache
def load_schema(name: str) -> jsonschema.protocols.Validator:
    """Return a validator for the schema ``spec/<name>`` (read once)."""
    import jsonschema

    schema = json.loads((spec_dir() / name).read_text(encoding="utf-8"))
    validator_class = jsonschema.validators.validator_for(schema)
    validator_class.check_schema(schema)
    return validator_class(schema)


def check_schema(data: Any, schema_name: str, *, where: str = "") -> None:
    """Raise :class:`RecordError` naming the JSON path and the schema rule if ``data`` breaks the schema.

    Of several errors the one the JSON Schema library ranks most relevant is reported.
    """
    import jsonschema

    validator = load_schema(schema_name)
    try:
        error = jsonschema.exceptions.best_match(validator.iter_errors(data))
    except RecursionError:
        raise RecordError("nested too deeply to check", where=where) from None
    if error is None:
        return
    message = error.message
    instance = error.instance
    if (instance is None or isinstance(instance, bool)) and message.startswith(repr(instance)):
        message = json.dumps(instance) + message[len(repr(instance)):]   # null, true: as the file writes them
    message = message if len(message) <= 200 else message[:197] + "..."
    schema_path = "/".join(str(p) for p in error.absolute_schema_path)
    raise RecordError(f"{json_path(error.absolute_path)}: {message} (schema: {schema_path})", where=where)


def json_kind(value: Any) -> str:
    """Return the JSON name of a value's type, for messages: ``an array``, ``null`` …"""
    if value is None:
        return "null"
    return {bool: "a boolean", int: "a number", float: "a number", str: "a string", list: "an array",
            dict: "an object"}.get(type(value), type(value).__name__)


class JsonReader:
    """Typed access to parsed JSON: each check raises :class:`RecordError` naming the JSON path and why.

    >>> JsonReader("x.json").integer(True, "rounds[0].dealer")
    Traceback (most recent call last):
    hearts_ref.errors.RecordError: x.json: rounds[0].dealer: expected a whole number, got a boolean
    """

    def __init__(self, where: str):
        self.where = where

    def error(self, path: str, why: str) -> RecordError:
        path = path or "(top level)"
        return RecordError(why, where=f"{self.where}: {path}" if self.where else path)

    def object(self, value: Any, path: str, *, required: tuple[str, ...], optional: tuple[str, ...] = ()) -> dict:
        if not isinstance(value, dict):
            raise self.error(path, f"expected an object, got {json_kind(value)}")
        for key in required:
            if key not in value:
                raise self.error(path, f"{key!r} is required")
        for key in value:
            if key not in required and key not in optional:
                raise self.error(path, f"unknown field {key[:40]!r}")
        return value

    def array(self, value: Any, path: str, *, least: int = 0, most: int | None = None) -> list:
        if not isinstance(value, list):
            raise self.error(path, f"expected an array, got {json_kind(value)}")
        if len(value) < least or (most is not None and len(value) > most):
            bound = f"{least} to {most}" if most is not None else f"at least {least}"
            raise self.error(path, f"{len(value)} items; expected {bound}")
        return value

    def text(self, value: Any, path: str, *, pattern: re.Pattern | None = None, choices: tuple = ()) -> str:
        if not isinstance(value, str):
            raise self.error(path, f"expected a string, got {json_kind(value)}")
        if pattern is not None and not pattern.match(value):
            raise self.error(path, f"{value[:80]!r} does not match {pattern.pattern}")
        if choices and value not in choices:
            raise self.error(path, f"{value[:80]!r} is not one of {', '.join(map(str, choices))}")
        return value

    def integer(self, value: Any, path: str, *, least: int | None = None, most: int | None = None) -> int:
        if not isinstance(value, int) or isinstance(value, bool):
            raise self.error(path, f"expected a whole number, got {json_kind(value)}")
        if (least is not None and value < least) or (most is not None and value > most):
            shown = str(value) if abs(value) < 10**12 else f"a {len(str(abs(value)))}-digit number"
            raise self.error(path, f"{shown} is out of range ({least} to {most})")
        return value

    def boolean(self, value: Any, path: str) -> bool:
        if not isinstance(value, bool):
            raise self.error(path, f"expected true or false, got {json_kind(value)}")
        return value

    def integers(self, value: Any, path: str) -> tuple[int, ...]:
        return tuple(self.integer(v, f"{path}[{k}]") for k, v in enumerate(self.array(value, path)))
