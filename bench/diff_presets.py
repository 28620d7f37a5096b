"""Whole-process timings of ``hearts-ref diff``: every pair of presets, and the docs' matrix.

Run from the repository root:

    python bench/diff_presets.py              # each pair of presets, then hearts-ref diff --matrix --json
    python bench/diff_presets.py --no-matrix  # the pairs only

Each figure is the wall time of one ``python -m hearts_ref diff ...`` process, with the CPU time
it used (user + system) beside it: on a shared, loaded machine the wall time is the CPU time
plus the waiting. The load average is printed before and after.
"""

from __future__ import annotations

import argparse
import itertools
import os
import resource
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from hearts_ref.variants import PRESETS   # noqa: E402


def timed(args: list[str]) -> tuple[float, float, int]:
    """Run ``hearts-ref ARGS``; return its wall time, its CPU time and its exit code."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    process = subprocess.run([sys.executable, "-m", "hearts_ref", *args], cwd=ROOT, capture_output=True, text=True)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu, process.returncode


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--no-matrix", action="store_true", help="time the pairs only")
    args = parser.parse_args()
    print(f"load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())} ({os.cpu_count()} cpus)")
    walls = []
    for a, b in itertools.combinations(PRESETS, 2):
        wall, cpu, code = timed(["diff", a, b])
        walls.append(wall)
        print(f"hearts-ref diff {a} {b}: {wall:.1f} s wall, {cpu:.1f} s cpu, exit {code}")
    print(f"pairs: longest {max(walls):.1f} s, mean {sum(walls) / len(walls):.1f} s wall")
    if not args.no_matrix:
        wall, cpu, code = timed(["diff", "--matrix", "--json"])
        print(f"hearts-ref diff --matrix --json: {wall:.1f} s wall, {cpu:.1f} s cpu, exit {code}")
    print(f"load average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
