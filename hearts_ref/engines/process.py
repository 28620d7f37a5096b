"""A running engine program: its pipes, a bounded tail of its stderr, and its process group.

:class:`EngineProcess` knows nothing of Hearts: it starts a command without a shell in a
new process group, writes lines to it, reads reply lines with a deadline, and turns
every way a program can go wrong into a typed :class:`EngineFailure` (a timeout, an exit,
half a line, a line too long). Whatever happens, :meth:`EngineProcess.kill` ends the
whole group, and so does the interpreter's exit for a process nobody closed.
"""

from __future__ import annotations

import math
import os
import select
import shlex
import signal
import subprocess
import threading
import time
import weakref
from collections.abc import Mapping, Sequence

from hearts_ref.engines.failures import EngineCrashed, EngineProtocolError, EngineStartError, EngineTimeout
from hearts_ref.protocol import MAX_LINE_BYTES, shorten

__all__ = ["EngineProcess", "StderrTail"]

EXIT_GRACE = 1.0          # seconds an engine gets to exit once its output has ended or after "quit"
MAX_POLL = 86400.0        # seconds one poll() waits at most; a longer deadline waits in steps


class StderrTail:
    """Drains a stream on a thread and keeps only its last ``limit`` bytes, so a flood never blocks."""

    def __init__(self, stream, *, limit: int = 64 * 1024, name: str = "engine-stderr"):
        self._stream = stream
        self._limit = limit
        self._data = bytearray()
        self._lock = threading.Lock()
        self.total = 0                    # bytes read so far, kept or not
        self._thread = threading.Thread(target=self._drain, name=name, daemon=True)
        self._thread.start()

    def _drain(self) -> None:
        fd = self._stream.fileno()
        try:
            while chunk := os.read(fd, 1 << 16):
                with self._lock:
                    self.total += len(chunk)
                    self._data += chunk
                    if len(self._data) > self._limit:
                        del self._data[:len(self._data) - self._limit]
        except OSError:
            pass
        finally:
            self._stream.close()          # only this thread reads the stream, so only it closes it

    def join(self, timeout: float) -> None:
        self._thread.join(timeout)

    def text(self, *, lines: int = 20, chars: int = 4000) -> str:
        """Return the last ``lines`` lines kept (at most ``chars`` characters), decoded leniently."""
        with self._lock:
            data = bytes(self._data)
        kept = data.decode("utf-8", "replace").splitlines()[-lines:]
        return "\n".join(kept)[-chars:]


def _kill_group(popen: subprocess.Popen) -> None:
    """SIGKILL the engine's whole process group, then reap its leader.

    The leader is never reaped before this point, so its group ID cannot have been reused.
    """
    if popen.returncode is None:
        try:
            os.killpg(popen.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
        try:
            popen.wait(timeout=5)
        except subprocess.TimeoutExpired:
            pass


class EngineProcess:
    """An engine program started from ``argv`` (no shell) in its own process group."""

    def __init__(self, argv: Sequence[str], *, cwd: str | os.PathLike[str] | None = None,
                 env: Mapping[str, str] | None = None, max_line: int = MAX_LINE_BYTES,
                 stderr_limit: int = 64 * 1024):
        self.argv = tuple(argv)
        self.max_line = max_line
        try:
            self.popen = subprocess.Popen(self.argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                          stderr=subprocess.PIPE, cwd=cwd, env=env, bufsize=0,
                                          start_new_session=True)
        except (OSError, ValueError) as error:
            reason = getattr(error, "strerror", None) or str(error)
            raise EngineStartError(f"cannot start engine {shlex.join(self.argv)}: {reason}") from None
        self.pid = self.popen.pid
        self._finalizer = weakref.finalize(self, _kill_group, self.popen)   # also runs at interpreter exit
        self._stdin = self.popen.stdin
        self._stdin_fd = self._stdin.fileno()
        os.set_blocking(self._stdin_fd, False)
        self._writable = select.poll()
        self._writable.register(self._stdin_fd, select.POLLOUT)
        self._stdout = self.popen.stdout.fileno()
        os.set_blocking(self._stdout, False)
        self._poller = select.poll()
        self._poller.register(self._stdout, select.POLLIN)
        self._buffer = bytearray()
        self._eof = False
        self.closed = False
        self._stderr = StderrTail(self.popen.stderr, limit=stderr_limit, name=f"engine-stderr-{self.pid}")

    # Talking -------------------------------------------------------------------------

    def send(self, data: bytes, timeout: float, what: str) -> None:
        """Write ``data`` (whole lines) to the engine's stdin within ``timeout`` seconds.

        An engine that is gone raises :class:`EngineCrashed`; one that stopped reading its
        input while the pipe is full raises :class:`EngineTimeout`.
        """
        view = memoryview(data)
        deadline = time.monotonic() + timeout
        while view:
            try:
                view = view[os.write(self._stdin_fd, view):]
            except BlockingIOError:
                if _wait(self._writable, deadline):
                    continue
                self.kill()
                raise EngineTimeout(f"engine stopped reading its input: could not send {what} within "
                                    f"{timeout:g} s; killed it", timeout=timeout,
                                    stderr_tail=self.stderr_tail()) from None
            except (BrokenPipeError, ConnectionResetError):
                raise self._ended(f"before reading {what}") from None

    def read_line(self, timeout: float, what: str) -> bytes:
        """Return the next line the engine writes (with its ``\\n``), waiting at most ``timeout`` seconds.

        Raises :class:`EngineTimeout`, :class:`EngineCrashed` (the output ended and the
        program exited) or :class:`EngineProtocolError` (half a line, a line too long);
        each of them kills the engine first.
        """
        buffer = self._buffer
        end = buffer.find(b"\n")
        deadline = time.monotonic() + timeout
        while end < 0:
            if len(buffer) > self.max_line:
                break
            if self._eof:
                raise self._ended(f"while {what} was due")
            try:
                chunk = os.read(self._stdout, 1 << 16)     # non-blocking: the reply is often there already
            except BlockingIOError:
                if _wait(self._poller, deadline):
                    continue
                self.kill()
                raise EngineTimeout(f"engine gave no reply to {what} within {timeout:g} s; killed it",
                                    timeout=timeout, stderr_tail=self.stderr_tail()) from None
            if not chunk:
                self._eof = True
                continue
            start = len(buffer)
            buffer += chunk
            end = buffer.find(b"\n", start)
        if end > self.max_line or (end < 0 and len(buffer) > self.max_line):
            head = bytes(buffer[:200])
            self.kill()
            raise EngineProtocolError(f"engine wrote a line longer than {self.max_line} bytes as its reply to "
                                      f"{what}; killed it", line=shorten(head), stderr_tail=self.stderr_tail())
        line = bytes(buffer[:end + 1])
        del buffer[:end + 1]
        return line

    def _ended(self, when: str) -> EngineCrashed | EngineProtocolError:
        """The failure of an engine whose output ended: an exit, half a line, or a closed pipe."""
        code = self.wait_exit(EXIT_GRACE)
        partial = bytes(self._buffer)
        self.kill()
        tail = self.stderr_tail()
        if partial:
            return EngineProtocolError(f"engine wrote half a line, then its output ended {when} "
                                       f"(exit code {code})", line=shorten(partial), stderr_tail=tail)
        if code is None:
            return EngineCrashed(f"engine closed its pipes {when} but did not exit; killed it",
                                 returncode=None, stderr_tail=tail)
        return EngineCrashed(f"engine exited with code {code} {when}", returncode=code, stderr_tail=tail)

    # Its life ------------------------------------------------------------------------

    def exit_status(self) -> int | None:
        """Return the exit code if the engine has exited (negative: killed by that signal), else None.

        Uses ``WNOWAIT`` so the exited leader stays unreaped and its group ID reserved until :meth:`kill`.
        """
        if self.popen.returncode is not None:
            return self.popen.returncode
        try:
            info = os.waitid(os.P_PID, self.pid, os.WEXITED | os.WNOHANG | os.WNOWAIT)
        except ChildProcessError:
            return self.popen.poll()
        if info is None:
            return None
        return info.si_status if info.si_code == os.CLD_EXITED else -info.si_status

    def wait_exit(self, timeout: float) -> int | None:
        """Wait up to ``timeout`` seconds for the engine to exit; return its exit code or None."""
        deadline = time.monotonic() + timeout
        pause = 0.001
        while (code := self.exit_status()) is None and time.monotonic() < deadline:
            time.sleep(pause)
            pause = min(pause * 2, 0.05)
        return code

    def kill(self) -> int | None:
        """End the engine's whole process group, reap it, close the pipes; return its exit code."""
        if not self.closed:
            self.closed = True
            self._finalizer.detach()
            _kill_group(self.popen)
            self._poller.unregister(self._stdout)
            self._writable.unregister(self._stdin_fd)
            for stream in (self._stdin, self.popen.stdout):
                try:
                    stream.close()
                except OSError:
                    pass
            self._stderr.join(1.0)
        return self.popen.returncode

    @property
    def returncode(self) -> int | None:
        return self.popen.returncode

    def stderr_tail(self, *, lines: int = 20) -> str:
        """The last lines the engine wrote on stderr (a bounded tail; the rest is dropped)."""
        return self._stderr.text(lines=lines)

    @property
    def stderr_bytes(self) -> int:
        """How many bytes the engine has written on stderr in all."""
        return self._stderr.total


def _wait(poller: select.poll, deadline: float) -> bool:
    """Wait on ``poller`` until it is ready or ``deadline`` passes; return False once it has passed.

    One wait lasts at most :data:`MAX_POLL` seconds (poll takes a C int of milliseconds), so
    a far or infinite deadline waits in steps rather than overflowing.
    """
    remaining = deadline - time.monotonic()
    if remaining <= 0:
        return False
    poller.poll(math.ceil(min(remaining, MAX_POLL) * 1000))
    return True
