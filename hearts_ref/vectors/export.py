"""Exporting the conformance suite as one versioned package: the vectors, the perft files, the schemas,
the pages that explain them, a version file and checksums, to a folder or a zip file.

Layout (paths under the folder, or under ``hearts-ref-suite-<version>/`` in the zip):

- ``vectors/**.json``: the vector files of ``spec/vectors/``;
- ``perft/*.json``: the perft deals of ``spec/perft/``;
- ``schemas/``: ``vectors.schema.json``, ``report.schema.json``, ``record.schema.json`` and, under
  ``protocol/``, one schema per message of the stdio protocol;
- ``docs/vectors.md`` and ``docs/protocol.md``: the formats and the protocol;
- ``VERSION.json``: the suite's version, the file formats' versions, the protocol's, the rule IDs;
- ``SHA256SUMS``: the SHA-256 of every other file, in the format ``sha256sum -c`` reads.

The same suite gives the same bytes: files in path order, and in a zip a fixed date on every entry.

>>> files = suite_contents()
>>> "vectors/rules/01-setup.json" in files and "schemas/protocol/command.play.schema.json" in files
True
>>> json.loads(files["VERSION.json"])["suite"] == SUITE_VERSION
True
"""

from __future__ import annotations

import hashlib
import io
import json
import zipfile
from pathlib import Path

from hearts_ref.errors import HeartsError
from hearts_ref.perft import PERFT_FORMAT
from hearts_ref.protocol import PROTOCOL_VERSION
from hearts_ref.spec import load_rules, spec_dir
from hearts_ref.vectors.model import FORMAT_VERSION, SUITE_VERSION, VECTORS_FORMAT

__all__ = ["suite_contents", "export_suite", "archive_name", "zip_bytes"]

_DATE = (1980, 1, 1, 0, 0, 0)   # the earliest date a zip can hold: the same bytes on every export


def _files(spec: Path) -> dict[str, Path]:
    """Return the files of the suite by their path in the package."""
    found = {f"vectors/{p.relative_to(spec / 'vectors').as_posix()}": p for p in (spec / "vectors").rglob("*.json")}
    found |= {f"perft/{p.name}": p for p in (spec / "perft").glob("*.json")}
    found |= {f"schemas/{name}": spec / name for name in ("vectors.schema.json", "report.schema.json",
                                                          "record.schema.json")}
    found |= {f"schemas/protocol/{p.name}": p for p in (spec / "protocol").glob("*.schema.json")}
    found |= {"docs/vectors.md": spec / "vectors.md", "docs/protocol.md": spec / "protocol" / "README.md"}
    missing = sorted(path for path in found.values() if not path.is_file())
    if missing or not any(name.startswith("vectors/") for name in found):
        raise HeartsError(f"the suite is incomplete in {spec}: missing {', '.join(map(str, missing)) or 'vectors'}")
    return dict(sorted(found.items()))


def suite_contents(spec: Path | None = None) -> dict[str, bytes]:
    """Return every file of the package by its path: the suite's files, then ``VERSION.json`` and ``SHA256SUMS``."""
    from hearts_ref import __version__
    contents = {name: path.read_bytes() for name, path in _files(spec or spec_dir()).items()}
    version = {"format": "hearts-ref-suite", "suite": SUITE_VERSION, "vectors_format": FORMAT_VERSION,
               "perft_format": 1, "perft_format_name": PERFT_FORMAT, "vectors_format_name": VECTORS_FORMAT, "protocol": PROTOCOL_VERSION, "hearts_ref": __version__,
               "cases": sum(len(json.loads(data)["cases"]) for name, data in contents.items()
                            if name.startswith("vectors/")),
               "perft_deals": sum(name.startswith("perft/") for name in contents),
               "rule_ids": list(load_rules())}
    contents["VERSION.json"] = (json.dumps(version, indent=1) + "\n").encode()
    sums = "".join(f"{hashlib.sha256(data).hexdigest()}  {name}\n" for name, data in contents.items())
    contents["SHA256SUMS"] = sums.encode()
    return contents


def archive_name() -> str:
    """Return the name of the package: ``hearts-ref-suite-<version>``."""
    return f"hearts-ref-suite-{SUITE_VERSION}"


def zip_bytes(contents: dict[str, bytes]) -> bytes:
    """Return a zip of ``contents`` under one folder named after the suite, the same bytes for the same contents."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        for name, data in contents.items():
            entry = zipfile.ZipInfo(f"{archive_name()}/{name}", date_time=_DATE)
            entry.compress_type = zipfile.ZIP_DEFLATED
            entry.external_attr = 0o644 << 16
            archive.writestr(entry, data)
    return buffer.getvalue()


def export_suite(out: Path, *, spec: Path | None = None) -> list[str]:
    """Write the package to ``out``: a zip file when ``out`` ends in ``.zip``, else a folder; return its files.

    A folder that exists must be empty or hold an earlier export (a ``VERSION.json`` of the suite), whose
    files are then replaced; anything else is refused, so that an export never mixes with other files.
    """
    contents = suite_contents(spec)
    if out.suffix == ".zip":
        if out.is_dir():
            raise HeartsError(f"{out} is a folder; give a file name ending in .zip, or a folder without .zip")
        if not out.parent.is_dir():
            raise HeartsError(f"no folder {out.parent} to write {out.name} in")
        out.write_bytes(zip_bytes(contents))
        return list(contents)
    if out.exists() and not out.is_dir():
        raise HeartsError(f"{out} is a file, not a folder")
    if out.is_dir() and any(out.iterdir()) and not _earlier_export(out):
        raise HeartsError(f"{out} is not empty and holds no earlier export of the suite; choose an empty folder")
    for stale in sorted(out.rglob("*"), reverse=True) if out.is_dir() else []:
        stale.unlink() if stale.is_file() else stale.rmdir()
    for name, data in contents.items():
        path = out / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
    return list(contents)


def _earlier_export(folder: Path) -> bool:
    try:
        return json.loads((folder / "VERSION.json").read_text(encoding="utf-8")).get("format") == "hearts-ref-suite"
    except (OSError, ValueError, AttributeError):
        return False
