"""Bad input: the record reader (with the referee behind it), the vector reader (with the runner behind
it), ``conform --merge`` (a shard's report) and ``conform --replay`` (a case file) meet 11,400 generated inputs. Each must end in a RecordError
that says where and why (for a report, exit code 2 and one line), or read cleanly and then be judged without
an exception; what the readers accept the JSON Schemas accept too.

Inputs start from a real record, a real vector file, the real reports of two shards and a shrunk case, and are broken the
ways files get broken: truncated, bytes changed, non-UTF-8, wrong types, unknown and duplicated cards, wrong
hand sizes, plays swapped out of turn, fields dropped or added, huge numbers, deep nesting.
"""

from __future__ import annotations

import contextlib
import copy
import functools
import io
import json
import tempfile
from pathlib import Path
from typing import Any
from xml.etree import ElementTree

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from hearts_ref import Rules
from hearts_ref.cli import main
from hearts_ref.engine import ReferenceEngine
from hearts_ref.errors import RecordError
from hearts_ref.reading import check_schema
from hearts_ref.record_reader import read_record
from hearts_ref.records import dumps, game_record
from hearts_ref.referee import referee
from hearts_ref.simulate import random_game
from hearts_ref.vectors.generate import dumps_vectors
from hearts_ref.vectors.reader import load_vectors, read_vector_file
from hearts_ref.conformance.vectors import STATUSES, run_case

FUZZ = settings(deadline=None, derandomize=True, suppress_health_check=list(HealthCheck))

RECORD = game_record(random_game(Rules(max_rounds=2), seed=3))
RECORD_TEXT = dumps(RECORD)
DEADLOCK_TEXT = dumps(game_record(random_game(Rules.preset("seed003"), seed=18)))   # stops in round 1
SMALL_CASES = [c for c in load_vectors() if c.kind == "rule" and 0 < c.steps <= 10][:6]
VECTORS = json.loads(dumps_vectors("fuzz", SMALL_CASES))
VECTORS_TEXT = json.dumps(VECTORS)

CARDS_TEXT = ["2C", "QS", "10H", "TH", "AH", "JD", "1X", "qs", "Q♠", "10", "", "2C ", "ZZZ"]
HUGE = [10**30, -(10**30), 2**63, -1, 0, 1, 5, 6, 13, 52, 100]

json_leaf = st.one_of(st.none(), st.booleans(), st.sampled_from(HUGE), st.integers(-10, 60),
                      st.floats(allow_nan=False, allow_infinity=False), st.sampled_from(CARDS_TEXT),
                      st.text(max_size=8))
json_value = st.recursive(json_leaf, lambda inner: st.one_of(st.lists(inner, max_size=4),
                                                             st.dictionaries(st.text(max_size=6), inner, max_size=3)),
                          max_leaves=6)


@st.composite
def mutated(draw: Any, base: str) -> bytes:
    """One to three edits at random places of the JSON text ``base``: replace, delete, duplicate, swap,
    truncate, add."""
    data = json.loads(base)
    for _ in range(draw(st.integers(1, 3))):
        parent, key = None, None
        node = data
        while isinstance(node, (dict, list)) and node and draw(st.integers(0, 5)) > 0:
            keys = list(node) if isinstance(node, dict) else list(range(len(node)))
            parent, key = node, draw(st.sampled_from(keys))
            node = node[key]
        operation = draw(st.sampled_from(["replace", "delete", "duplicate", "swap", "truncate", "add"]))
        if parent is None:
            data = draw(json_value) if operation == "replace" else data
        elif operation == "replace":
            parent[key] = draw(json_value)
        elif operation == "delete":
            del parent[key]
        elif operation == "add" and isinstance(parent, dict):
            parent[draw(st.text(max_size=6))] = draw(json_value)
        elif isinstance(node, list) and node:
            i, j = draw(st.integers(0, len(node) - 1)), draw(st.integers(0, len(node) - 1))
            if operation == "duplicate":
                node.append(copy.deepcopy(node[i]))
            elif operation == "swap":
                node[i], node[j] = node[j], node[i]
            else:
                del node[i:]
    return json.dumps(data, ensure_ascii=False).encode("utf-8")


@st.composite
def damaged(draw: Any, text: str) -> bytes:
    """The file's bytes truncated, changed, made non-UTF-8, given a huge number or a deep nesting."""
    raw = text.encode("utf-8")
    kind = draw(st.sampled_from(["truncate", "flip", "non-utf8", "huge", "nest", "splice"]))
    at = draw(st.integers(0, len(raw)))
    if kind == "truncate":
        return raw[:at]
    if kind == "flip":
        return raw[:at] + bytes([draw(st.integers(0, 255))]) + raw[at + 1:]
    if kind == "non-utf8":
        return raw[:at] + draw(st.sampled_from([b"\xff", b"\xc3", b"\xed\xa0\x80", b"\x00"])) + raw[at:]
    if kind == "huge":
        return raw.replace(b"1", b"9" * draw(st.sampled_from([20, 400, 5000])), 1)
    if kind == "nest":
        depth = draw(st.sampled_from([10, 2000, 100_000]))
        return b"[" * depth + b"]" * draw(st.sampled_from([0, depth]))
    return raw[:at] + draw(st.binary(max_size=12)) + raw[at:]


def judge_record(raw: bytes, *, schema: bool = False) -> None:
    """Read (by hand, or with the schema too) and referee; with ``schema``, what the hand reader accepts
    must pass the JSON Schema as well."""
    try:
        record = read_record(raw, where="fuzz.json")
    except RecordError as error:
        assert error.where.startswith("fuzz.json") and str(error).strip(), error
        record = None
    if schema:
        if record is not None:
            check_schema(json.loads(raw.decode("utf-8-sig")), "record.schema.json", where="accepted")
        try:
            read_record(raw, where="fuzz.json", validate_schema=True)
        except RecordError as error:
            assert record is None and error.where.startswith("fuzz.json"), error
    if record is not None:
        verdict = referee(record)
        assert all(f.rule_id and f.where and f.message for f in verdict.findings)


def judge_vectors(raw: bytes, *, schema: bool = False) -> None:
    """Read and run every case on the reference; with ``schema``, as :func:`judge_record`."""
    try:
        cases = read_vector_file(raw, where="fuzz.json")
    except RecordError as error:
        assert error.where.startswith("fuzz.json") and str(error).strip(), error
        cases = None
    if schema:
        if cases is not None:
            check_schema(json.loads(raw.decode("utf-8-sig")), "vectors.schema.json", where="accepted")
        try:
            read_vector_file(raw, where="fuzz.json", validate_schema=True)
        except RecordError as error:
            assert cases is None and error.where.startswith("fuzz.json"), error
    for case in cases or ():
        result = run_case(ReferenceEngine(), case)
        assert result.status in STATUSES and (result.status != "failed" or result.failure is not None)


def test_the_bases_read_cleanly():
    assert referee(read_record(RECORD_TEXT)).valid and len(read_record(RECORD_TEXT).rounds) == 2
    assert referee(read_record(DEADLOCK_TEXT)).deadlock.startswith("round 1: FOLLOW-VOID")
    assert [r.status for r in map(lambda c: run_case(ReferenceEngine(), c), read_vector_file(VECTORS_TEXT))] == \
        ["passed"] * len(SMALL_CASES)


@settings(FUZZ, max_examples=3000)
@given(raw=mutated(RECORD_TEXT))
def test_fuzz_record_fields(raw):
    judge_record(raw)


@settings(FUZZ, max_examples=2000)
@given(raw=damaged(RECORD_TEXT))
def test_fuzz_record_bytes(raw):
    judge_record(raw)


@settings(FUZZ, max_examples=200)
@given(raw=st.one_of(mutated(RECORD_TEXT), damaged(RECORD_TEXT)))
def test_fuzz_record_with_schema(raw):
    judge_record(raw, schema=True)


@settings(FUZZ, max_examples=400)
@given(raw=st.one_of(mutated(DEADLOCK_TEXT), damaged(DEADLOCK_TEXT)))
def test_fuzz_deadlocked_record(raw):
    judge_record(raw, schema=True)


@settings(FUZZ, max_examples=3000)
@given(raw=mutated(VECTORS_TEXT))
def test_fuzz_vector_fields(raw):
    judge_vectors(raw)


@settings(FUZZ, max_examples=2000)
@given(raw=damaged(VECTORS_TEXT))
def test_fuzz_vector_bytes(raw):
    judge_vectors(raw)


@settings(FUZZ, max_examples=200)
@given(raw=st.one_of(mutated(VECTORS_TEXT), damaged(VECTORS_TEXT)))
def test_fuzz_vectors_with_schema(raw):
    judge_vectors(raw, schema=True)


@functools.cache
def shard_reports() -> tuple[str, str]:
    """The reports of the two shards of a campaign against an engine with a planted bug (vectors, perft deals,
    differential and negative games; findings with their reproductions), as ``--report`` writes them."""
    from hearts_ref.conformance.runner import run_conformance
    from tests.engines.buggy import QueenBreaksHearts

    return tuple(run_conformance(QueenBreaksHearts, Rules(), games=4, negative_games=1, shrink_budget=0.5,
                                 spec="python:tests.engines.buggy:QueenBreaksHearts", shard=shard).dumps()
                 for shard in ((1, 2), (2, 2)))


def judge_report(raw: bytes) -> None:
    """``conform --merge`` of a (broken) shard's report with the other, intact: a merged report and JUnit file that
    read back (exit 0 or 1), or exit 2 with one line naming the broken file (or what makes the two shards not
    merge), and nothing written."""
    with tempfile.TemporaryDirectory() as folder:
        broken, intact, merged, junit = (Path(folder) / name for name in ("1.json", "2.json", "all.json", "j.xml"))
        broken.write_bytes(raw)
        intact.write_text(shard_reports()[1], encoding="utf-8")
        out, err = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = main(["conform", "--merge", str(broken), str(intact), "--report", str(merged),
                         "--junit", str(junit)])
        if code == 2:
            lines = err.getvalue().splitlines()
            said = ("hearts-ref conform: error: ", f"{broken}: ", "--merge: ")   # the file, or what does not merge
            assert len(lines) == 1 and lines[0].startswith(said[0]), lines
            assert lines[0][len(said[0]):].startswith(said[1:]) and len(lines[0]) > 40, lines
            assert not merged.exists() and not junit.exists()
            return
        assert code in (0, 1), (code, err.getvalue())
        check_schema(json.loads(merged.read_text(encoding="utf-8")), "report.schema.json", where="merged")
        ElementTree.parse(junit)


def test_the_shard_reports_merge_cleanly():
    judge_report(shard_reports()[0].encode("utf-8"))


@settings(FUZZ, max_examples=300)
@given(raw=st.deferred(lambda: st.one_of(mutated(shard_reports()[0]), damaged(shard_reports()[0]))))
def test_fuzz_shard_reports(raw):
    judge_report(raw)


@functools.cache
def replay_cases() -> tuple[str, str]:
    """A shrunk finding's replay case, as a file holds it, and the report case it is the reproduction of."""
    report = json.loads(shard_reports()[0])
    case = next(case for case in report["cases"] if "reproduction" in case)
    return json.dumps(case["reproduction"]["case"]), json.dumps(case)


def judge_replay(raw: bytes) -> None:
    """``conform --replay FILE`` of a (broken) case: the game replayed (exit 0 or 1), or exit 2 with one line."""
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "case.json"
        path.write_bytes(raw)
        out, err = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = main(["conform", "--engine", "python:tests.engines.buggy:QueenBreaksHearts", "--replay", str(path)])
        assert code in (0, 1, 2), code
        if code == 2:
            lines = err.getvalue().splitlines()
            assert len(lines) == 1 and lines[0].startswith("hearts-ref conform: error: "), lines
        else:
            assert out.getvalue().strip(), "a replay says what happened"


def _case_with(**fields: Any) -> bytes:
    return json.dumps({"format": "hearts-ref-conform-case", "version": 1, "rules": {}, "mode": "differential",
                       "script": [0]} | fields).encode("utf-8")


@settings(FUZZ, max_examples=150)
@example(raw=_case_with(rules="Q♠"))
@example(raw=_case_with(rules=[1.5, "ZZZ", None]))
@example(raw=_case_with(mode="both"))
@example(raw=_case_with(finding=[{"kind": 1}, 2]))
@given(raw=st.deferred(lambda: st.one_of(*(strategy(text) for text in replay_cases() for strategy in (mutated, damaged)))))
def test_fuzz_replay_cases(raw):
    judge_replay(raw)
