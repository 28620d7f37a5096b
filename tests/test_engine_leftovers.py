"""No process an engine starts outlives it: not after ``setsid`` and a double fork, not when the runner
itself is killed with SIGKILL, not when the runner forks. Checked by PID (tests/engines/escapes.py
writes the PID of the engine and of each process that escapes its process group)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

from hearts_ref import Rules, deal
from hearts_ref.cli import main
from hearts_ref.engines import StdioEngine
from tests.test_stdio_failures import assert_gone, is_running

ROOT = Path(__file__).resolve().parent.parent
ESCAPES = ROOT / "tests" / "engines" / "escapes.py"


def pids(folder: Path, what: str) -> list[int]:
    return sorted(int(path.name.split("-")[1]) for path in folder.glob(f"{what}-*"))


def wait_for(folder: Path, *, engines: int, escaped: int, runner: subprocess.Popen | None = None) -> None:
    deadline = time.monotonic() + 60
    while len(pids(folder, "engine")) < engines or len(pids(folder, "escaped")) < escaped:
        assert time.monotonic() < deadline, "the engine never started its escapees"
        assert runner is None or runner.poll() is None, runner.communicate()
        time.sleep(0.02)


def assert_all_gone(folder: Path) -> None:
    everyone = pids(folder, "engine") + pids(folder, "escaped")
    for pid in everyone:
        assert_gone(pid)
    assert everyone


def test_the_escapees_really_escape_the_engines_process_group(tmp_path):
    """What the engine does: two processes outside its group and session (else the tests prove nothing)."""
    with StdioEngine([sys.executable, str(ESCAPES), str(tmp_path)], cwd=ROOT) as engine:
        wait_for(tmp_path, engines=1, escaped=2)
        for pid in pids(tmp_path, "escaped"):
            assert is_running(pid) and os.getpgid(pid) != os.getpgid(engine.pid) != os.getsid(pid) != os.getsid(engine.pid)
    assert_all_gone(tmp_path)


def test_a_campaign_leaves_no_process_behind(tmp_path, capsys):
    code = main(["conform", "--engine", f"{sys.executable} {ESCAPES} {tmp_path}", "--games", "3",
                 "--no-vectors", "--set", "max_rounds=1"])
    assert code == 0, capsys.readouterr()
    assert len(pids(tmp_path, "escaped")) == 2
    assert_all_gone(tmp_path)


def test_an_engine_that_fails_leaves_no_process_behind_at_each_restart(tmp_path, capsys):
    """A hung engine, timed out twice and restarted: three engines, six escapees, all gone."""
    code = main(["conform", "--engine", f"{sys.executable} {ESCAPES} {tmp_path} hang", "--games", "3",
                 "--negative-games", "0", "--no-vectors", "--timeout", "0.5", "--shrink-time", "0"])
    assert code == 1, capsys.readouterr()
    assert len(pids(tmp_path, "engine")) >= 3 and len(pids(tmp_path, "escaped")) >= 6
    assert_all_gone(tmp_path)


def test_a_runner_killed_with_sigkill_leaves_no_process_behind(tmp_path):
    runner = subprocess.Popen([sys.executable, "-m", "hearts_ref", "conform", "--engine",
                               f"{sys.executable} {ESCAPES} {tmp_path} hang", "--timeout", "600",
                               "--no-vectors", "--games", "2"],
                              cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    try:
        wait_for(tmp_path, engines=1, escaped=2, runner=runner)
        engine = pids(tmp_path, "engine")[0]
        assert is_running(engine)              # hung on new_game, and it ignores the end of its input
        runner.kill()
        runner.wait(timeout=120)
        assert_all_gone(tmp_path)
    finally:
        if runner.poll() is None:
            runner.kill()
            runner.wait()


def test_an_engine_started_from_a_thread_outlives_the_thread():
    """Why the keeper does not rely on PR_SET_PDEATHSIG: that signal follows the thread that forked."""
    engines: list[StdioEngine] = []
    thread = threading.Thread(target=lambda: engines.append(StdioEngine([sys.executable, "-m", "hearts_ref",
                                                                         "serve"], cwd=ROOT)))
    thread.start()
    thread.join()
    [engine] = engines
    try:
        time.sleep(0.2)
        engine.new_game(Rules())
        step = engine.start_round_observed(deal(Rules(), seed=1), "none")
        assert step.observation.phase == "play" and engine.running
    finally:
        engine.close()
    assert_gone(engine.pid)


def test_a_runner_that_forked_and_then_died_leaves_no_process_behind(tmp_path):
    """A child made by fork() (no exec) lets go of the keeper's socket, so the runner's death still counts."""
    script = (f"import os, sys, time; sys.path.insert(0, {str(ROOT)!r})\n"
              "from hearts_ref.engines import StdioEngine\n"
              f"engine = StdioEngine([sys.executable, {str(ESCAPES)!r}, {str(tmp_path)!r}])\n"
              "child = os.fork()\n"
              "if child == 0:\n"
              "    os.dup2(os.open(os.devnull, os.O_WRONLY), 1)\n"
              "    time.sleep(60)\n"
              "    os._exit(0)\n"
              "print(child, flush=True)\n"
              "os.kill(os.getpid(), 9)\n")
    runner = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, text=True)
    child = int(runner.stdout.readline())
    runner.wait(timeout=120)
    try:
        assert runner.returncode == -signal.SIGKILL
        assert is_running(child)               # the fork lives on, holding the parent's file descriptors
        assert_all_gone(tmp_path)
    finally:
        os.kill(child, signal.SIGKILL)
