"""Real runs of ``hearts-ref`` whose output the site shows, made when the site is built.

Each run is a subprocess with its output piped (so the console prints plain text), started
as the build begins (:func:`start`) so that the runs go on while the pages are generated;
a page asks for its output with :func:`output`. A run's output is kept in the temporary
folder (``hearts-ref-docs-runs/``) under a key made of its command and the contents of every file that
can change what it prints (the package, the proofs, the examples, ``spec/``), so a build
after a change runs it again and a build without one reads it back.

>>> RUNS["house-rule-unsound"].args[:2]
('prove', '--set')
"""

from __future__ import annotations

import hashlib
import json
import re
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from sitegen.common import ROOT

__all__ = ["Run", "RUNS", "Output", "start", "output", "console", "short", "replay_token"]

CACHE = Path(tempfile.gettempdir()) / "hearts-ref-docs-runs"
ENGINES = ROOT / "examples" / "engines"
TIMEOUT = 300


@dataclass(frozen=True)
class Run:
    """A command line of ``hearts-ref`` and the folder it runs in; ``after`` names a run whose output it needs;
    ``says``: text its output must hold, because the page around it says so (the build fails when it does not)."""

    args: tuple[str, ...]
    cwd: Path = ROOT
    after: str | None = None
    says: str | None = None


@dataclass(frozen=True)
class Output:
    """What a run printed on stdout, and its exit code."""

    command: str
    stdout: str
    returncode: int


RUNS: dict[str, Run] = {
    "minimal-python": Run(("conform", "--engine", "python:minimal_engine:MinimalEngine", "--games", "12"), ENGINES),
    "queen-breaks-hearts": Run(("conform", "--engine", "python:buggy_engine:QueenBreaksHearts", "--games", "12",
                                "--shrink-time", "2"), ENGINES),
    "queen-breaks-hearts-replay": Run(("conform", "--engine", "python:buggy_engine:QueenBreaksHearts", "--replay",
                                       "{token}"), ENGINES, after="queen-breaks-hearts"),
    "house-rule-unsound": Run(("prove", "--set", "first_trick_points=forbidden"),
                              says="UNSOUND: refuted FIRST-TRICK-NO-DEADLOCK, LEGAL-MOVE-EXISTS"),
    "house-rule-unsound-json": Run(("prove", "--set", "first_trick_points=forbidden", "--json")),
    "house-rule-sound": Run(("prove", "--set", "jd_bonus=true", "--set", "qs_breaks_hearts=true"),
                            says="SOUND: every invariant proved."),
    "house-rule-endless": Run(("prove", "--set", "moon=subtract"), says="UNSOUND: refuted GAME-ENDS"),
}
_started: dict[str, subprocess.Popen] = {}


@cache
def _inputs_digest() -> str:
    digest = hashlib.sha256()
    for folder in ("hearts_ref", "properties", "examples", "spec"):
        for path in sorted((ROOT / folder).rglob("*")):
            # Not the caches a run leaves behind (``__pycache__``, ``.hypothesis``): they would change the key.
            parts = path.relative_to(ROOT).parts
            if path.is_file() and not any(part == "__pycache__" or part.startswith(".") for part in parts):
                digest.update(path.relative_to(ROOT).as_posix().encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()[:20]


def _command(name: str) -> tuple[str, ...]:
    run = RUNS[name]
    if run.after is None:
        return run.args
    token = replay_token(output(run.after).stdout)
    return tuple(arg.replace("{token}", token) for arg in run.args)


def _cache_file(name: str) -> Path:
    run = RUNS[name]
    key = json.dumps([name, str(ROOT), run.args, str(run.cwd.relative_to(ROOT)), _inputs_digest()])
    return CACHE / f"{name}-{hashlib.sha256(key.encode()).hexdigest()[:16]}.json"


def _launch(name: str) -> None:
    if name in _started or _cache_file(name).is_file():
        return
    _started[name] = subprocess.Popen([sys.executable, "-m", "hearts_ref", *_command(name)], cwd=RUNS[name].cwd,
                                      stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
                                      encoding="utf-8")


def start() -> None:
    """Start every run that is not in the cache (the runs that wait for another start when it is read)."""
    for name, run in RUNS.items():
        if run.after is None:
            _launch(name)


def output(name: str) -> Output:
    """Return the output of the run ``name``: from the cache, or from the process (waiting for it to end)."""
    path = _cache_file(name)
    if path.is_file():
        return _checked(name, Output(**json.loads(path.read_text(encoding="utf-8"))))
    _launch(name)
    process = _started.pop(name)
    stdout, _ = process.communicate(timeout=TIMEOUT)
    command = "hearts-ref " + " ".join(f'"{a}"' if " " in a else a for a in _command(name))
    result = Output(command, stdout, process.returncode)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(result.__dict__, ensure_ascii=False), encoding="utf-8")
    return _checked(name, result)


def _checked(name: str, result: Output) -> Output:
    """``result``, when it says what its page says it does (``Run.says``); else the build stops."""
    says = RUNS[name].says
    if says is not None and says not in result.stdout:
        raise RuntimeError(f"the run {name!r} ({result.command}) no longer prints {says!r}: "
                           "the page's text around it is out of date")
    return result


def replay_token(text: str) -> str:
    """Return the ``hr1:`` token of the first replay command in a conformance run's output."""
    for word in text.split():
        if word.startswith("hr1:"):
            return word
    raise ValueError("the run printed no replay command")


def short(text: str) -> list[str]:
    r"""Return a conformance summary's lines without the rows of rules that nothing failed, nor more than two
    failed vectors (each cut is marked ``…``).

    >>> short("  rule  failed\n  LEAD-OPEN  0  0  3  0  0\n  BREAK-QUEEN  3  0  1  0  0  <--\n\n  verdict: FAIL")
    ['  rule  failed', '  …', '  BREAK-QUEEN  3  0  1  0  0  <--', '', '  verdict: FAIL']
    """
    out: list[str] = []
    vectors = 0
    for line in text.splitlines():
        quiet_row = bool(re.match(r"^ +[A-Z]+(?:-[A-Z]+)+ +\d", line)) and not line.endswith("<--")
        vectors += line.startswith("  - vector/")
        if quiet_row or vectors > 2 and line.startswith(("  - vector/", "    replay: hearts-ref vectors")):
            if out[-1:] != ["  …"]:
                out.append("  …")
            continue
        out.append(line)
    return out


def console(name: str, *, shorten: bool = False) -> str:
    """Return a run as a console block: the command, what it printed (``shorten``-ed: see :func:`short`), and
    its exit code."""
    result = output(name)
    text = result.stdout.rstrip("\n")
    body = "\n".join(short(text) if shorten else text.splitlines())
    return f"```console\n$ {result.command}\n{body}\n$ echo $?\n{result.returncode}\n```\n"
