"""StdioEngine against misbehaving engines (tests/engines/): each failure gets its typed verdict,
the engine can be restarted and used again, and no process is left behind."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from hearts_ref import CardSet, Rules, deal
from hearts_ref.engines import (
    EngineCrashed, EngineFailure, EngineProtocolError, EngineStartError, EngineTimeout, StdioEngine,
)
from hearts_ref.engines.process import EngineProcess

ROOT = Path(__file__).resolve().parent.parent
ENGINES = ROOT / "tests" / "engines"


def launch(script: str, *args: str, timeout: float = 2.0, startup_timeout: float = 10.0, **options) -> StdioEngine:
    return StdioEngine([sys.executable, str(ENGINES / script), *args], timeout=timeout,
                       startup_timeout=startup_timeout, cwd=ROOT, **options)


def is_running(pid: int) -> bool:
    """Whether ``pid`` is a live process (a zombie waiting for its reaper counts as gone)."""
    try:
        status = Path(f"/proc/{pid}/stat").read_text()
    except (FileNotFoundError, ProcessLookupError):
        return False
    return status.rsplit(")", 1)[1].split()[0] not in ("Z", "X")


def assert_gone(pid: int) -> None:
    deadline = time.monotonic() + 30
    while is_running(pid) and time.monotonic() < deadline:   # a reparented grandchild dies asynchronously
        time.sleep(0.01)
    assert not is_running(pid), f"process {pid} is still running"


def with_default_stop_signals() -> None:
    """``preexec_fn`` for a runner a test will stop with a signal, so that it starts as on a terminal.

    A shell running a script in the background starts its commands with SIGINT ignored, ``nohup``
    ignores SIGHUP, and the ignoring is inherited through exec; the runner then rightly keeps
    running when they come. A test that sends them sets the dispositions it means to test.
    """
    for signum in (signal.SIGINT, signal.SIGHUP, signal.SIGTERM):
        signal.signal(signum, signal.SIG_DFL)


def play_until_failure(engine: StdioEngine, *, rounds: int = 1) -> int:
    """Drive a game through the Engine interface, choosing the lowest legal card; return the steps done."""
    rules = Rules()
    engine.new_game(rules)
    steps = 0
    for number in range(1, rounds + 1):
        step = engine.start_round_observed(deal(rules, seed=number), rules.pass_direction(number))
        while step.observation.phase == "pass":
            seat = step.observation.to_move
            hand = deal(rules, seed=number)[seat]
            step = engine.pass_observed(seat, CardSet(list(hand)[:3]))
            steps += 1
        while step.observation.phase == "play":
            step = engine.play_observed(next(iter(step.legal)))
            steps += 1
    return steps


def test_a_correct_minimal_engine_written_from_the_spec_plays_whole_rounds():
    with launch("correct.py") as engine:
        assert (engine.name, engine.version) == ("minimal", "1.0")
        assert play_until_failure(engine, rounds=2) == 2 * (4 + 52)
        assert engine.last_step.observation.phase == "round-over"
        assert sum(engine.last_step.observation.round_scores) in (26, 78)
        pid = engine.pid
    assert engine.returncode == 0          # it exited on "quit", before the group was killed
    assert_gone(pid)


def test_a_hanging_engine_times_out_and_its_whole_process_group_is_killed():
    engine = launch("hang.py", timeout=0.5)
    pid = engine.pid
    with pytest.raises(EngineTimeout) as caught:
        play_until_failure(engine)
    failure = caught.value
    assert failure.verdict == "timeout" and failure.timeout == 0.5
    assert "'play' (seq " in str(failure) and "within 0.5 s" in str(failure)
    child = int(re.search(r"child pid (\d+)", failure.stderr_tail).group(1))
    assert not engine.running
    assert_gone(pid)
    assert_gone(child)                     # the engine's own child died with the group


def test_a_crashing_engine_reports_its_exit_code_and_the_tail_of_its_stderr():
    engine = launch("crash.py")
    pid = engine.pid
    with pytest.raises(EngineCrashed) as caught:
        play_until_failure(engine)
    failure = caught.value
    assert failure.verdict == "crashed" and failure.returncode == 3
    assert failure.stderr_tail.splitlines()[-1] == "fatal: the trick table is corrupt"
    assert "engine log line 29" in failure.stderr_tail and "engine log line 0\n" not in failure.stderr_tail
    assert "exited with code 3" in str(failure)
    assert_gone(pid)


def test_an_engine_killed_by_a_signal_reports_the_negative_signal_number():
    engine = launch("crash.py", "play", "2", "signal")
    with pytest.raises(EngineCrashed) as caught:
        play_until_failure(engine)
    assert caught.value.returncode == -11            # SIGSEGV


@pytest.mark.parametrize("script, message, line", [
    ("garbage.py", "not JSON", "I would rather play the queen of spades"),
    ("half_line.py", "half a line", '{"seq":'),
    ("wrong_seq.py", "out of order", '"seq": '),
    ("missing_field.py", "bad reply to 'play' (seq 11): missing 'observation.totals'", '"observation": {"phase": "play"'),
])
def test_protocol_errors_name_the_problem_and_quote_the_offending_line(script, message, line):
    engine = launch(script)
    pid = engine.pid
    with pytest.raises(EngineProtocolError) as caught:
        play_until_failure(engine)
    failure = caught.value
    assert failure.verdict == "protocol-error"
    assert message in str(failure), str(failure)
    assert line in failure.line, failure.line
    assert "banner" not in str(failure)   # the hint about a banner only for the reply to hello
    assert ("write log lines to stderr" in str(failure)) == (message == "not JSON")   # a log line, most likely
    assert_gone(pid)


def test_a_half_line_is_quoted_as_written():
    engine = launch("half_line.py")
    with pytest.raises(EngineProtocolError) as caught:
        play_until_failure(engine)
    assert '"observation"' in caught.value.line and not caught.value.line.endswith("}'")
    assert "exit code 0" in str(caught.value)


def test_a_wrong_sequence_number_is_reported_with_both_numbers():
    engine = launch("wrong_seq.py")
    with pytest.raises(EngineProtocolError) as caught:
        play_until_failure(engine)
    seq = int(re.search(r"\(seq (\d+)\)", str(caught.value)).group(1))
    assert f"carries seq {seq - 1}" in str(caught.value)


def test_a_flood_on_stdout_is_cut_at_the_line_limit():
    engine = launch("flood_stdout.py", max_line=256 * 1024)
    pid = engine.pid
    with pytest.raises(EngineProtocolError) as caught:
        play_until_failure(engine)
    assert "longer than 262144 bytes" in str(caught.value)
    assert caught.value.line.startswith("'xxxx") and len(caught.value.line) < 300
    assert_gone(pid)


def test_a_flood_on_stderr_never_blocks_the_engine_and_only_a_bounded_tail_is_kept():
    with launch("flood_stderr.py") as engine:
        steps = play_until_failure(engine, rounds=2)
        assert steps == 2 * (4 + 52)
        assert engine.stderr_bytes > (steps + 2) * 65000        # every reply came after 64 KiB of log
        last = f"reply {steps + 4} sent"      # also hello, new_game and the two start_round
        deadline = time.monotonic() + 30
        while not engine.stderr_tail().endswith(last) and time.monotonic() < deadline:
            time.sleep(0.01)                   # the drain thread may be a write behind
        tail = engine.stderr_tail()
        assert len(tail) <= 4000 and tail.endswith(last), tail[-100:]


def test_a_slow_start_within_startup_timeout_is_fine_even_with_a_short_timeout(tmp_path):
    with launch("slow_start.py", "2", str(tmp_path / "pid"), timeout=1, startup_timeout=60) as engine:
        assert play_until_failure(engine) == 56


def test_a_start_slower_than_startup_timeout_times_out_and_leaves_nothing(tmp_path):
    pidfile = tmp_path / "pid"
    with pytest.raises(EngineTimeout) as caught:   # an hour's start: only the timeout can end this test
        launch("slow_start.py", "3600", str(pidfile), startup_timeout=0.5)
    assert "'hello' (seq 0)" in str(caught.value) and caught.value.timeout == 0.5
    # On a busy machine the engine may be killed before it even wrote its PID: look for its command line too.
    if pidfile.exists() and pidfile.read_text().strip():
        assert_gone(int(pidfile.read_text()))
    left = subprocess.run(["pgrep", "-f", str(pidfile)], capture_output=True, text=True)
    assert left.stdout == "", left.stdout


@pytest.mark.parametrize("script", ["hang.py", "crash.py", "garbage.py", "wrong_seq.py", "missing_field.py"])
def test_after_a_failure_the_engine_restarts_and_plays_again(script):
    engine = launch(script, timeout=0.5 if script == "hang.py" else 10)   # only a hang may run into the timeout
    first = engine.pid
    with pytest.raises(EngineFailure):
        play_until_failure(engine)
    with pytest.raises(EngineFailure, match="not running"):
        engine.observe()
    engine.restart()
    try:
        assert engine.running and engine.pid != first
        engine.new_game(Rules())                       # the fault waits for the 5th play: use the rest
        step = engine.start_round_observed(deal(Rules(), seed=9), "none")
        assert step.observation.phase == "play" and step.legal == CardSet.parse("2C")
        assert engine.observe() == step.observation
    finally:
        engine.close()
    assert_gone(first)


def test_an_engine_that_stops_reading_its_input_times_out_on_sending():
    process = EngineProcess([sys.executable, "-c", "import time; time.sleep(60)"])
    with pytest.raises(EngineTimeout, match="stopped reading its input"):
        process.send(b"x" * (1 << 20) + b"\n", 0.3, "'play' (seq 1)")      # more than a pipe holds
    assert process.closed
    assert_gone(process.pid)


def test_a_program_that_does_not_exist_is_a_start_error():
    with pytest.raises(EngineStartError) as caught:
        StdioEngine([str(ENGINES / "no-such-engine")])
    assert caught.value.verdict == "not-started" and "No such file" in str(caught.value)


def test_an_engine_nobody_closed_is_killed_when_the_interpreter_exits():
    """The engine hangs in new_game, so it never sees its stdin close: only the exit handler can end it."""
    script = (f"import sys, threading, time; sys.path.insert(0, {str(ROOT)!r})\n"
              "from hearts_ref import Rules\n"
              "from hearts_ref.engines import StdioEngine\n"
              f"engine = StdioEngine([sys.executable, {str(ENGINES / 'hang.py')!r}, 'new_game', '1'], timeout=60)\n"
              "threading.Thread(target=engine.new_game, args=(Rules(),), daemon=True).start()\n"
              "time.sleep(0.5)\n"
              "print(engine.pid, flush=True)\n")
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    assert_gone(int(result.stdout))


def test_close_ends_the_engine_even_when_it_ignores_quit():
    engine = launch("hang.py", "quit", "1")           # hangs instead of answering quit
    pid = engine.pid
    engine.close()
    assert not engine.running
    assert_gone(pid)


def test_an_engine_that_never_flushes_its_stdout_times_out_with_the_hint(tmp_path):
    """Its hello reply stays in its own output buffer: nothing ever comes, and the timeout says what to look at."""
    script = tmp_path / "unflushed.py"
    script.write_text('import sys\nsys.stdin.readline()\nsys.stdout.write(\'{"seq": 0, "ok": true}\\n\')\n'
                      'sys.stdin.readline()\n', encoding="utf-8")
    env = {key: value for key, value in os.environ.items() if key != "PYTHONUNBUFFERED"}
    with pytest.raises(EngineTimeout) as caught:
        StdioEngine([sys.executable, str(script)], startup_timeout=1, env=env)
    assert "; killed it (nothing came on its stdout: does it flush after each line?)" in str(caught.value)
    with pytest.raises(EngineTimeout) as caught:   # one that replied before it hung: no such hint
        play_until_failure(launch("hang.py", timeout=0.5))
    assert "; killed it\n" in str(caught.value) and "flush" not in str(caught.value)
