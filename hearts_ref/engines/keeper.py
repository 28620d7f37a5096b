"""The keeper: a small process between the runner and an engine program, so that nothing outlives the engine.

The runner starts ``python -I -S keeper.py FD -- ENGINE ARGV...``; the keeper starts the engine
(its stdin, stdout and stderr are the runner's pipes, untouched) and then only watches. It ends
the engine and **every process the engine started** when one of these happens:

- the engine exits (its children go with it);
- the runner closes its end of the socket ``FD`` (:meth:`EngineProcess.kill
  <hearts_ref.engines.process.EngineProcess.kill>`), or the runner dies in any way, SIGKILL
  included: the kernel closes the runner's end, and the keeper reads the end of the stream;
- the keeper itself gets SIGTERM, SIGHUP or SIGINT.

Why this design (on Linux), rather than the alternatives:

- the keeper is a **child subreaper** (``prctl(PR_SET_CHILD_SUBREAPER)``): a process the engine
  starts that escapes its process group (``setsid``) and loses its parent (a double fork) is
  re-parented to the keeper instead of to init, so the keeper can always find it, as its child,
  and kill it. Direct children cannot have their PID reused before the keeper reaps them, so a
  kill never hits a stranger.
- a **parent-death signal** (``PR_SET_PDEATHSIG``) alone does not do: it is not inherited by the
  engine's own children, and it fires when the *thread* that forked dies, not the process (a
  runner that starts engines from a worker thread would lose them early). The keeper watches the
  runner through a socket instead, which only ends when the runner process does.
- a **PID namespace** needs privileges (or user namespaces) and renumbers the engine's processes,
  so an engine's own PIDs would mean nothing outside; a **cgroup** needs a writable cgroup file
  system and outlives a runner killed with SIGKILL. Neither is available everywhere.

Once it has started the engine, the keeper writes ``pid N`` on the socket (or ``error ERRNO
TEXT`` when the program cannot be started) and, when it ends, exits the way the engine did:
with its exit code, or killed by the same signal, so the runner reads the engine's own status.

This file is run with ``-I -S`` and imports only the standard library, so that it starts in a
few milliseconds whatever the environment. Without ``prctl`` (not Linux) it still kills the
engine's process group and every descendant it can see.
"""

from __future__ import annotations

import os
import select
import signal
import sys
import time

__all__ = ["prctl", "set_child_subreaper", "set_parent_death_signal", "main"]

PR_SET_PDEATHSIG = 1
PR_SET_CHILD_SUBREAPER = 36
CLEANUP_SECONDS = 5.0      # the keeper stops looking for stragglers after this long


def prctl(option: int, value: int) -> bool:
    """Call Linux's ``prctl(option, value)``; return whether it succeeded (False off Linux)."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        return libc.prctl(option, value, 0, 0, 0) == 0
    except (OSError, AttributeError):
        return False


def set_child_subreaper() -> bool:
    """Make this process the reaper of its orphaned descendants (Linux); return whether it worked."""
    return prctl(PR_SET_CHILD_SUBREAPER, 1)


def set_parent_death_signal(signum: int) -> bool:
    """Have the kernel send ``signum`` to this process when the thread that forked it ends (Linux)."""
    return prctl(PR_SET_PDEATHSIG, signum)


def _children() -> list[int]:
    """The PIDs whose parent is this process (read from /proc; empty where there is no /proc)."""
    me = os.getpid()
    found = []
    try:
        names = os.listdir("/proc")
    except OSError:
        return found
    for name in names:
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/stat", "rb") as handle:
                fields = handle.read().rsplit(b")", 1)[1].split()
        except (OSError, IndexError):
            continue
        if len(fields) > 1 and int(fields[1]) == me:
            found.append(int(name))
    return found


def _kill_everything(engine: int) -> int:
    """SIGKILL the engine's process group, then every child of the keeper until none is left; return
    the engine's wait status.

    The engine, not reaped yet, keeps its group ID reserved; each child killed makes its own
    children the keeper's, so the loop goes down the tree a generation at a time.
    """
    status = signal.SIGKILL                           # if it is never seen to exit: killed by the keeper
    try:
        os.killpg(engine, signal.SIGKILL)
    except OSError:
        pass
    deadline = time.monotonic() + CLEANUP_SECONDS
    while time.monotonic() < deadline:
        children = _children()
        for pid in children:
            try:
                if os.getpgid(pid) == pid:            # a group leader (setsid): its group goes too
                    os.killpg(pid, signal.SIGKILL)
                os.kill(pid, signal.SIGKILL)
            except OSError:
                pass
        try:
            while True:
                pid, code = os.waitpid(-1, os.WNOHANG)
                if not pid:
                    break
                if pid == engine:
                    status = code
        except ChildProcessError:
            return status                             # no child left at all
        if not children:
            time.sleep(0.001)
    return status


def _exit_like(status: int) -> None:
    """Exit with the engine's wait status: its exit code, or killed by its signal."""
    if os.WIFSIGNALED(status):
        signum = os.WTERMSIG(status)
        try:
            import resource
            resource.setrlimit(resource.RLIMIT_CORE, (0, 0))   # the engine's crash, not a core of ours
        except (ImportError, ValueError, OSError):
            pass
        signal.signal(signum, signal.SIG_DFL)
        signal.pthread_sigmask(signal.SIG_UNBLOCK, [signum])
        os.kill(os.getpid(), signum)
        time.sleep(1)
        os._exit(128 + signum)
    os._exit(os.WEXITSTATUS(status) if os.WIFEXITED(status) else 1)


def _engine_exited(engine: int) -> bool:
    """Whether the engine has exited; it is left unreaped, so its group ID stays reserved."""
    try:
        return os.waitid(os.P_PID, engine, os.WEXITED | os.WNOHANG | os.WNOWAIT) is not None
    except ChildProcessError:
        return True


def _reap_others(engine: int) -> None:
    """Reap the keeper's children that have exited by themselves, except the engine."""
    for pid in _children():
        if pid != engine:
            try:
                os.waitpid(pid, os.WNOHANG)
            except ChildProcessError:
                pass


def main(argv: list[str]) -> None:
    """``keeper.py FD -- COMMAND...``: start COMMAND, watch it and the socket FD, end it all, exit alike."""
    if len(argv) < 4 or argv[2] != "--" or not argv[1].isdigit():
        sys.stderr.write("usage: keeper.py FD -- COMMAND [ARGS...]\n")
        os._exit(2)
    link, command = int(argv[1]), argv[3:]
    os.set_inheritable(link, False)
    set_child_subreaper()
    wake_read, wake_write = os.pipe()
    os.set_blocking(wake_write, False)
    signal.set_wakeup_fd(wake_write)
    stop = []
    for signum in (signal.SIGTERM, signal.SIGHUP, signal.SIGINT):
        signal.signal(signum, lambda number, frame: stop.append(number))
    signal.signal(signal.SIGCHLD, lambda number, frame: None)
    try:
        engine = os.posix_spawnp(command[0], command, os.environ, setpgroup=0,   # a group of its own
                                 setsigdef=(signal.SIGPIPE, signal.SIGXFSZ))   # as Python found them
    except OSError as error:
        _tell(link, f"error {error.errno} {error.strerror or error}")
        os._exit(127)
    devnull = os.open(os.devnull, os.O_RDWR)          # the pipes are the engine's: let go of them
    for fd in (0, 1, 2):
        os.dup2(devnull, fd)
    poller = select.poll()
    poller.register(link, select.POLLIN)
    poller.register(wake_read, select.POLLIN)
    running = _tell(link, f"pid {engine}")            # a runner already gone: end it at once
    while running and not stop and not _engine_exited(engine):
        ready = dict(poller.poll())
        if wake_read in ready:
            os.read(wake_read, 4096)
            _reap_others(engine)
        if link in ready:
            try:
                running = bool(os.read(link, 4096))   # empty: the runner closed it, or died
            except OSError:
                running = False
    _exit_like(_kill_everything(engine))


def _tell(link: int, line: str) -> bool:
    """Write one line to the runner; return False if it is gone."""
    try:
        os.write(link, (line + "\n").encode("utf-8", "replace"))
        return True
    except OSError:
        return False

if __name__ == "__main__":
    main(sys.argv)
