"""A running engine program: its pipes, a bounded tail of its stderr, and every process it starts.

:class:`EngineProcess` knows nothing of Hearts: it starts a command without a shell,
writes lines to it, reads reply lines with a deadline, and turns every way a program can
go wrong into a typed :class:`EngineFailure` (a timeout, an exit, half a line, a line too
long). The program runs under a :mod:`keeper <hearts_ref.engines.keeper>`, a small process
that ends the engine and everything it started (even what left its process group with
``setsid`` or a double fork) when the engine exits, when :meth:`EngineProcess.kill` is
called, and when the runner itself dies, SIGKILL included.
"""

from __future__ import annotations

import math
import os
import select
import shlex
import signal
import socket
import subprocess
import sys
import threading
import time
import weakref
from collections.abc import Mapping, Sequence
from pathlib import Path

from hearts_ref.engines.failures import EngineCrashed, EngineProtocolError, EngineStartError, EngineTimeout
from hearts_ref.protocol import MAX_LINE_BYTES, shorten

__all__ = ["EngineProcess", "StderrTail"]

EXIT_GRACE = 1.0          # seconds an engine gets to exit once its output has ended or after "quit"
MAX_POLL = 86400.0        # seconds one poll() waits at most; a longer deadline waits in steps
KEEPER = str(Path(__file__).with_name("keeper.py"))
KEEPER_START = 30.0       # seconds the keeper may take to start the engine and name its pid


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


def _end(popen: subprocess.Popen, link: socket.socket) -> None:
    """Close the keeper's socket, so that it ends the engine and all it started, then reap the keeper.

    A keeper that does not exit in time (it never should) is killed with its process group.
    """
    link.close()
    if popen.returncode is None:
        try:
            popen.wait(timeout=5)
        except subprocess.TimeoutExpired:
            try:
                os.killpg(popen.pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                pass
            popen.wait()


_LIVE: weakref.WeakSet[EngineProcess] = weakref.WeakSet()


def _forget_in_child() -> None:
    """In a child made by fork() (no exec), let go of the parent's keeper sockets, so that the
    parent's death still reads as the end of the stream in every keeper."""
    for process in list(_LIVE):
        process._finalizer.detach()
        process._link.close()
    _LIVE.clear()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_forget_in_child)


class EngineProcess:
    """An engine program started from ``argv`` (no shell) under a keeper, in a process group of its own."""

    def __init__(self, argv: Sequence[str], *, cwd: str | os.PathLike[str] | None = None,
                 env: Mapping[str, str] | None = None, max_line: int = MAX_LINE_BYTES,
                 stderr_limit: int = 64 * 1024):
        self.argv = tuple(argv)
        self.max_line = max_line
        link, keeper_end = socket.socketpair()
        try:
            self.popen = subprocess.Popen([sys.executable, "-I", "-S", KEEPER, str(keeper_end.fileno()), "--",
                                           *self.argv], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                          stderr=subprocess.PIPE, cwd=cwd, env=env, bufsize=0,
                                          start_new_session=True, pass_fds=(keeper_end.fileno(),))
        except (OSError, ValueError) as error:
            link.close()
            reason = getattr(error, "strerror", None) or str(error)
            raise EngineStartError(f"cannot start engine {shlex.join(self.argv)}: {reason}") from None
        finally:
            keeper_end.close()
        self._link = link
        self._finalizer = weakref.finalize(self, _end, self.popen, link)   # also runs at interpreter exit
        _LIVE.add(self)
        self.closed = False
        self._stderr = StderrTail(self.popen.stderr, limit=stderr_limit, name=f"engine-stderr-{self.popen.pid}")
        self.pid = self._started()
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
        self._heard = False   # whether anything at all came on the engine's stdout

    def _started(self) -> int:
        """Read the keeper's first line: the engine's pid, or why it could not be started."""
        words: list[str] = []
        self._link.settimeout(KEEPER_START)
        try:
            words = self._link.makefile("rb").readline().decode("utf-8", "replace").strip().split(maxsplit=2)
        except OSError:
            pass
        self._link.settimeout(None)
        if len(words) == 2 and words[0] == "pid" and words[1].isdigit():
            return int(words[1])
        self._close_pipes()
        reason = words[2] if len(words) == 3 and words[0] == "error" else "the engine's keeper did not start it"
        raise EngineStartError(f"cannot start engine {shlex.join(self.argv)}: {reason}",
                               stderr_tail=self.stderr_tail())

    # Talking -------------------------------------------------------------------------

    def send(self, data: bytes, timeout: float, what: str) -> None:
        """Write ``data`` (whole lines) to the engine's stdin within ``timeout`` seconds.

        An engine that closed its input but runs on raises :class:`EngineCrashed`; one that stopped
        reading its input while the pipe is full raises :class:`EngineTimeout`. One that has exited
        raises nothing here: the replies it wrote before it ended are read first, then its end, at
        the first command it did not answer (the same whether or not the commands after it were
        written before it ended, so a crash in a round sent at once is found at the same step every time).
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
                if self.wait_exit(EXIT_GRACE) is None:
                    raise self._ended(f"before reading {what}") from None
                return   # exited: its end is read after its replies (read_lines)

    def read_lines(self, timeout: float, what: str, limit: int = 1) -> list[bytes]:
        """Return the next lines the engine writes (without their ``\\n``): at least one, waited for at most
        ``timeout`` seconds, and as many of those already read with it as make ``limit``.

        Raises :class:`EngineTimeout`, :class:`EngineCrashed` (the output ended and the
        program exited) or :class:`EngineProtocolError` (half a line, a line too long);
        each of them kills the engine first. A line too long after the first waits for the next call.
        """
        buffer = self._buffer
        end = buffer.find(b"\n")
        if end < 0:
            end = self._wait_for_line(timeout, what)
        if end > self.max_line:
            raise self._too_long(what)
        last = buffer.rfind(b"\n") if limit > 1 else end
        lines = bytes(buffer[:last]).split(b"\n")   # a few KiB: the replies of a batch that are here already
        if len(lines) > limit:
            del lines[limit:]
        if last > self.max_line and max(map(len, lines)) > self.max_line:
            del lines[next(k for k, line in enumerate(lines) if len(line) > self.max_line):]
        del buffer[:sum(map(len, lines)) + len(lines)]
        return lines

    def unread(self, lines: list[bytes]) -> None:
        """Put ``lines`` (as :meth:`read_lines` returned them) back: the next reads return them again first."""
        self._buffer[0:0] = b"".join(line + b"\n" for line in lines)

    def _wait_for_line(self, timeout: float, what: str) -> int:
        """Read until the buffer holds a whole line; return where it ends (or raise, as :meth:`read_lines` says)."""
        buffer = self._buffer
        deadline = time.monotonic() + timeout
        end = -1
        while end < 0:
            if len(buffer) > self.max_line:
                raise self._too_long(what)
            if self._eof:
                raise self._ended(f"while {what} was due")
            try:
                chunk = os.read(self._stdout, 1 << 16)     # non-blocking: the reply is often there already
            except BlockingIOError:
                if _wait(self._poller, deadline):
                    continue
                self.kill()
                # nothing ever came on stdout: most often a reply left in the engine's output buffer
                silent = "" if self._heard else " (nothing came on its stdout: does it flush after each line?)"
                raise EngineTimeout(f"engine gave no reply to {what} within {timeout:g} s; killed it{silent}",
                                    timeout=timeout, stderr_tail=self.stderr_tail()) from None
            if not chunk:
                self._eof = True
                continue
            self._heard = True
            start = len(buffer)
            buffer += chunk
            end = buffer.find(b"\n", start)
        return end

    def _too_long(self, what: str) -> EngineProtocolError:
        head = bytes(self._buffer[:200])
        self.kill()
        return EngineProtocolError(f"engine wrote a line longer than {self.max_line} bytes as its reply to "
                                   f"{what}; killed it", line=shorten(head), stderr_tail=self.stderr_tail())

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
        """Return the engine's exit code if it has exited (negative: killed by that signal), else None.

        The keeper exits as the engine did, once it has ended everything the engine started.
        """
        return self.popen.poll()

    def wait_exit(self, timeout: float) -> int | None:
        """Wait up to ``timeout`` seconds for the engine to exit; return its exit code or None."""
        try:
            return self.popen.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            return None

    def kill(self) -> int | None:
        """End the engine and every process it started, reap them, close the pipes; return its exit code."""
        if not self.closed:
            self._finalizer.detach()
            _end(self.popen, self._link)
            self._close_pipes()
        return self.popen.returncode

    def _close_pipes(self) -> None:
        self.closed = True
        _LIVE.discard(self)
        if self._finalizer.alive:
            self._finalizer()
        for stream in (self.popen.stdin, self.popen.stdout):
            try:
                stream.close()
            except OSError:
                pass
        self._stderr.join(1.0)

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
