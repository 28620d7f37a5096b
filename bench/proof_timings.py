"""How long the proof commands take, as whole processes: ``prove``, ``prove --all``, ``prove --deep``, ``verify``.

Runs each command ``--repeat`` times (default 2) with ``--quiet`` and prints, per command,
the best wall time, the processor time of that run (user + system, the processes it forked
included) and its exit code. ``--tree DIR`` (repeatable) times another checkout of
hearts-ref too (its ``hearts_ref`` package is put first on ``PYTHONPATH``), alternating
with this one run by run, so that a before/after comparison is made on the same machine
at the same time; on a shared machine compare the two, not the absolute figures.
``--jobs N`` passes that to every command (default: theirs, one process per core).
Run from the repository root:

    python bench/proof_timings.py [--repeat 3] [--only prove,deep] [--tree /tmp/before] [--jobs 1]
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(HERE))

from hearts_ref.console import Table, show   # noqa: E402

COMMANDS = {"prove": ["prove"], "all": ["prove", "--all"], "deep": ["prove", "--deep"], "verify": ["verify"]}
TARGETS = {"prove": 10.0, "all": 60.0, "deep": 30.0, "verify": 10.0}   # seconds of wall time, on two cores


def timed(tree: Path, argv: list[str]) -> tuple[float, float, int]:
    """Run ``python -m hearts_ref argv`` from ``tree``; return its wall seconds, processor seconds and exit code."""
    env = dict(os.environ, PYTHONPATH=str(tree) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "hearts_ref", *argv], cwd=tree, env=env,
                          stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu, done.returncode


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repeat", type=int, default=2, help="runs of each command per tree (the best is shown)")
    parser.add_argument("--only", default=",".join(COMMANDS), help=f"comma-separated, of {', '.join(COMMANDS)}")
    parser.add_argument("--tree", action="append", default=[], type=Path, help="another checkout to time as well")
    parser.add_argument("--jobs", type=int, default=None, help="--jobs for every command (default: theirs)")
    args = parser.parse_args()
    names = [name for name in args.only.split(",") if name]
    unknown = [name for name in names if name not in COMMANDS]
    if unknown or args.repeat < 1:
        parser.error(f"unknown command {', '.join(unknown)}" if unknown else "--repeat must be at least 1")
    trees = [HERE, *(tree.resolve() for tree in args.tree)]
    extra = ["--quiet"] + ([] if args.jobs is None else ["--jobs", str(args.jobs)])
    for name in names:   # a table per command, shown once it is timed
        table = Table("command", "tree", "best wall", "its CPU", "all walls", "exit", "target")
        runs: dict[Path, list[tuple[float, float, int]]] = {tree: [] for tree in trees}
        for _ in range(args.repeat):
            for tree in trees:
                runs[tree].append(timed(tree, COMMANDS[name] + extra))
        for tree in trees:
            best = min(runs[tree])
            table.add_row("hearts-ref " + " ".join(COMMANDS[name]), "this" if tree == HERE else str(tree),
                          f"{best[0]:.1f} s", f"{best[1]:.1f} s", " ".join(f"{w:.1f}" for w, _, _ in runs[tree]),
                          str(best[2]), f"≤ {TARGETS[name]:.0f} s")
        show(table)
        sys.stdout.flush()
    print(f"{os.cpu_count()} cores; load average {' '.join(f'{x:.1f}' for x in os.getloadavg())} at the end")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
