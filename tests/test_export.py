"""``hearts-ref vectors export``: the suite as one versioned package, in a folder or a zip, with checksums."""

from __future__ import annotations

import hashlib
import io
import json
import subprocess
import sys
import zipfile

import pytest

from hearts_ref.errors import HeartsError
from hearts_ref.vectors import SUITE_VERSION
from hearts_ref.vectors.export import archive_name, export_suite, suite_contents
from tests.docs_site import ROOT


def _sums(text: str) -> dict[str, str]:
    return {line.split("  ", 1)[1]: line.split("  ", 1)[0] for line in text.splitlines()}


def test_the_package_holds_every_vector_perft_and_schema_file_as_committed():
    contents = suite_contents()
    spec = ROOT / "spec"
    expected = ({f"vectors/{p.relative_to(spec / 'vectors').as_posix()}" for p in (spec / "vectors").rglob("*.json")}
                | {f"perft/{p.name}" for p in (spec / "perft").glob("*.json")}
                | {f"schemas/protocol/{p.name}" for p in (spec / "protocol").glob("*.schema.json")})
    assert expected <= set(contents) and "schemas/vectors.schema.json" in contents
    assert contents["vectors/rules/02-passing.json"] == (spec / "vectors" / "rules" / "02-passing.json").read_bytes()
    version = json.loads(contents["VERSION.json"])
    assert version["suite"] == SUITE_VERSION and version["protocol"] == 2 and "FIRST-NO-POINTS" in version["rule_ids"]
    assert version["cases"] == sum(len(json.loads(contents[n])["cases"]) for n in contents if n.startswith("vectors/"))
    sums = _sums(contents["SHA256SUMS"].decode())
    assert set(sums) == set(contents) - {"SHA256SUMS"}
    assert all(hashlib.sha256(contents[name]).hexdigest() == digest for name, digest in sums.items())


def test_export_to_a_folder_and_to_a_zip_gives_the_same_files_and_the_same_bytes_each_time(tmp_path):
    process = subprocess.run([sys.executable, "-m", "hearts_ref", "vectors", "export", "--out", str(tmp_path / "s")],
                             cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert process.returncode == 0 and f"suite {SUITE_VERSION}" in process.stdout, process.stderr
    check = subprocess.run(["sha256sum", "-c", "SHA256SUMS"], cwd=tmp_path / "s", capture_output=True, text=True)
    assert check.returncode == 0 and "FAILED" not in check.stdout
    first, second = tmp_path / "a.zip", tmp_path / "b.zip"
    export_suite(first)
    export_suite(second)
    assert first.read_bytes() == second.read_bytes()
    with zipfile.ZipFile(io.BytesIO(first.read_bytes())) as archive:
        names = archive.namelist()
        assert all(name.startswith(archive_name() + "/") for name in names)
        inside = {name.split("/", 1)[1]: archive.read(name) for name in names}
    on_disk = {p.relative_to(tmp_path / "s").as_posix(): p.read_bytes() for p in (tmp_path / "s").rglob("*")
               if p.is_file()}
    assert inside == on_disk


def test_export_refuses_a_folder_holding_other_files_and_replaces_an_earlier_export(tmp_path):
    (tmp_path / "notes.txt").write_text("mine", encoding="utf-8")
    with pytest.raises(HeartsError, match="not empty"):
        export_suite(tmp_path)
    assert (tmp_path / "notes.txt").read_text(encoding="utf-8") == "mine"
    out = tmp_path / "suite"
    export_suite(out)
    (out / "vectors" / "old.json").write_text("{}", encoding="utf-8")
    export_suite(out)
    assert not (out / "vectors" / "old.json").exists() and (out / "SHA256SUMS").is_file()
    bad = subprocess.run([sys.executable, "-m", "hearts_ref", "vectors", "export", "--out", str(tmp_path)],
                         cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert bad.returncode == 2 and "not empty" in bad.stderr and "Traceback" not in bad.stderr
