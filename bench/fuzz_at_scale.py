"""Fuzzing at scale: the judges of the fuzz tests on tens of thousands of malformed inputs, and the count.

The tests (``tests/test_fuzz_protocol.py``, ``tests/test_fuzz_readers.py``) try a few hundred inputs
each so that the suite stays quick; this runs the same judges, with the same strategies,
derandomized and without an example database, on ``--examples`` inputs per kind:

- engine replies as the runner's client reads them (fields and bytes broken, compact step replies);
- protocol lines as ``hearts-ref serve`` reads them (fields and bytes broken, plays, whole streams);
- game records as the referee reads them (fields and bytes broken);
- shard reports as ``conform --merge`` reads them, and replay cases as ``conform --replay`` reads them
  (fields and bytes broken; a quarter of ``--examples`` each, each a whole merge or replay).

Every input must end in a precise error or be read cleanly; any other exception is counted as a
traceback and shown. Run: ``python bench/fuzz_at_scale.py [--examples N]``.
"""

from __future__ import annotations

import argparse
import sys
import time
import traceback
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from tests import test_fuzz_protocol as wire  # noqa: E402
from tests import test_fuzz_readers as files  # noqa: E402


def kinds():
    """(name, strategy, judge, share of --examples) for each kind of malformed input."""
    replies = [wire.STEP_REPLIES[0], wire.STEP_REPLIES[-1], wire.REPLIES[-1], wire.REPLIES[-2]]
    yield ("engine replies", st.one_of(*(wire.mutated(wire._renumbered(r)) for r in replies),
                                       *(wire.damaged(wire._renumbered(r)) for r in replies), wire.step_replies()),
           wire.judge_reply, 1)
    commands = [c.decode() for c in wire.COMMANDS]
    plays = st.builds(lambda seq, card: f'{{"seq":{seq},"cmd":"play","card":"{card}"}}\n'.encode(),
                      st.integers(-5, 10**19), wire.card_texts)
    yield ("protocol lines", st.one_of(*(wire.mutated(c) for c in commands), *(wire.damaged(c) for c in commands),
                                       plays), wire.judge_line, 1)
    yield ("game records", st.one_of(files.mutated(files.RECORD_TEXT), files.damaged(files.RECORD_TEXT),
                                     files.mutated(files.DEADLOCK_TEXT), files.damaged(files.DEADLOCK_TEXT)),
           files.judge_record, 1)
    report = files.shard_reports()[0]
    yield ("shard reports", st.one_of(files.mutated(report), files.damaged(report)), files.judge_report, 0.25)
    cases = files.replay_cases()
    yield ("replay cases", st.one_of(*(strategy(text) for text in cases for strategy in (files.mutated, files.damaged))),
           files.judge_replay, 0.25)


def run(name: str, strategy, judge, examples: int) -> tuple[int, int]:
    """Run ``judge`` on ``examples`` inputs; return (inputs judged, tracebacks)."""
    counted = [0, 0]

    @settings(max_examples=examples, deadline=None, derandomize=True, database=None,
              suppress_health_check=list(HealthCheck))
    @given(data=strategy)
    def fuzz(data):
        counted[0] += 1
        try:
            judge(data)
        except Exception:
            counted[1] += 1
            if counted[1] <= 3:
                print(f"--- {name}: {data[:200]!r}\n{traceback.format_exc()}", file=sys.stderr)

    fuzz()
    return counted[0], counted[1]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--examples", type=int, default=4000, help="inputs per kind (default 4000)")
    args = parser.parse_args()
    total = failures = 0
    for name, strategy, judge, share in kinds():
        start = time.perf_counter()
        judged, tracebacks = run(name, strategy, judge, max(1, int(args.examples * share)))
        total, failures = total + judged, failures + tracebacks
        print(f"{name:15} {judged:7d} inputs, {tracebacks} tracebacks  ({time.perf_counter() - start:.1f} s)")
    print(f"{'all':15} {total:7d} inputs, {failures} tracebacks")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
