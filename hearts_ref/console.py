"""The console: drawn with rich on a terminal, plain text in pipes, files and CI.

Every command prints through this module, so one output has two forms. On a terminal a
long job shows a progress bar (count, rate, time left) and tables are drawn with borders
and colour. Anywhere else (a pipe, a file, CI) the same content is plain lines: no ANSI
code, no box drawing, no line wrapped, progress as a line at most every few seconds, so
tests and logs can read it.

Text that comes from an engine (its messages, its stderr) goes through :func:`printable`
first, so an engine cannot move the cursor, colour the terminal or ring its bell.

>>> table = Table("rule", "failed", title="By rule")
>>> table.add_row("FOLLOW-SUIT", "2")
>>> print(render(table), end="")
By rule
rule         failed
FOLLOW-SUIT  2
>>> printable("red \\x1b[31mtext\\x07")
'red \\\\x1b[31mtext\\\\x07'
"""

from __future__ import annotations

import io
import sys
import time
import unicodedata
from collections.abc import Callable
from typing import Any, TextIO

from rich import box
from rich.console import Console, RenderableType
from rich.padding import Padding
from rich.progress import BarColumn, MofNCompleteColumn, Progress, ProgressColumn, Task, TextColumn
from rich.progress import TimeRemainingColumn
from rich.table import Table as _RichTable
from rich.text import Text

__all__ = ["Table", "indented", "ProgressDisplay", "console_for", "is_terminal", "render", "show", "printable"]

PLAIN_WIDTH = 1000   # columns of the plain console: wide enough that no table or line is ever wrapped


def is_terminal(stream: TextIO) -> bool:
    """Whether ``stream`` is an interactive terminal (a TTY), where output is drawn."""
    isatty = getattr(stream, "isatty", None)
    try:
        return bool(isatty and isatty())
    except ValueError:   # a closed stream
        return False


def console_for(stream: TextIO | None = None) -> Console:
    """Return a console writing to ``stream`` (default stdout): drawn on a terminal, plain otherwise.

    Markup is off: text is printed as it is, never read as ``[style]`` tags. Long lines are
    left to the terminal to wrap (soft wrap), so a replay command copies as one line.
    """
    stream = sys.stdout if stream is None else stream
    if is_terminal(stream):
        return Console(file=stream, markup=False, highlight=False, emoji=False, soft_wrap=True)
    return Console(file=stream, markup=False, highlight=False, emoji=False, force_terminal=False,
                   color_system=None, width=PLAIN_WIDTH, soft_wrap=True)


def Table(*columns: str, title: str | None = None, **options: Any) -> _RichTable:  # noqa: N802 (a factory)
    """Return a rich table with these column headers, in the house style (drawn per console by :func:`show`)."""
    return _RichTable(*columns, title=title, title_justify="left", box=box.SIMPLE_HEAD, header_style="bold",
                      title_style="bold", **options)


def indented(renderable: RenderableType, spaces: int = 2) -> Padding:
    """Return ``renderable`` indented by ``spaces`` columns."""
    return Padding(renderable, (0, 0, 0, spaces), expand=False)


def _plain(renderable: RenderableType) -> RenderableType:
    """The plain form of a table: no borders, two spaces between columns, cells never wrapped."""
    if isinstance(renderable, Padding):
        renderable.renderable = _plain(renderable.renderable)
    elif isinstance(renderable, _RichTable):
        renderable.box = None
        renderable.padding = (0, 2, 0, 0)
        renderable.pad_edge = False
        renderable.title_style = ""
        renderable.header_style = ""
        for column in renderable.columns:
            column.no_wrap = True
            column.overflow = "ignore"
    return renderable


def render(*renderables: RenderableType) -> str:
    """Return ``renderables`` as plain text: what a pipe or a file receives, each line without trailing spaces."""
    buffer = io.StringIO()
    console = console_for(buffer)
    for renderable in renderables:
        console.print(_plain(renderable))
    return "".join(line.rstrip() + "\n" for line in buffer.getvalue().splitlines())


def show(*renderables: RenderableType, stream: TextIO | None = None) -> None:
    """Print ``renderables`` on ``stream`` (default stdout): drawn on a terminal, plain text otherwise."""
    stream = sys.stdout if stream is None else stream
    if is_terminal(stream):
        console = console_for(stream)
        for renderable in renderables:
            console.print(renderable)
    else:
        stream.write(render(*renderables))
        stream.flush()


_ESCAPES = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}


def printable(text: str, *, newlines: bool = False) -> str:
    """Return ``text`` with every control or format character written as its escape (``\\x1b``, ``\\u202e``).

    For text from an engine: its ANSI codes, bells, NULs, bidirectional overrides and lone
    surrogates are shown, not obeyed. Ordinary letters, card glyphs and spaces stay, and with
    ``newlines`` the line breaks too (for a message of several lines).
    """
    if text.isprintable():
        return text
    out = []
    for char in text:
        if char.isprintable() or (newlines and char == "\n"):
            out.append(char)
        elif char in _ESCAPES:
            out.append(_ESCAPES[char])
        elif unicodedata.category(char) in ("Zs",):
            out.append(char)
        else:
            code = ord(char)
            out.append(f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}" if code < 0x10000 else f"\\U{code:08x}")
    return "".join(out)


class _RateColumn(ProgressColumn):
    """How many items a second the job gets through."""

    def __init__(self, unit: str):
        super().__init__()
        self.unit = unit

    def render(self, task: Task) -> Text:
        speed = task.finished_speed or task.speed
        return Text("" if speed is None else f"{speed:,.1f} {self.unit}/s")


class ProgressDisplay:
    """Progress of a long job on ``stream`` (default stderr), updated by calling it with ``(done, total, what)``.

    On a terminal: a rich bar with the count, the rate and the time left. Elsewhere: a plain
    line ``<label>: <done>/<total> <what>``, the first and the last always, the others at
    most one every ``every`` seconds of ``clock`` (the clock is injected so that tests do not
    depend on the time). With ``quiet`` nothing is shown. Use it as a context manager, or
    call :meth:`close` when the job ends.
    """

    def __init__(self, label: str, *, stream: TextIO | None = None, quiet: bool = False, every: float = 2.0,
                 clock: Callable[[], float] = time.monotonic, unit: str = "items"):
        self.label = label
        self.stream = sys.stderr if stream is None else stream
        self.quiet = quiet
        self.every = every
        self.clock = clock
        self._last: float | None = None       # when the last plain line was written; None before the first
        self._progress: Progress | None = None
        self._task: Any = None
        if not quiet and is_terminal(self.stream):
            self._progress = Progress(TextColumn(label), BarColumn(), MofNCompleteColumn(), _RateColumn(unit),
                                      TimeRemainingColumn(), TextColumn("{task.fields[what]}"),
                                      console=Console(file=self.stream, markup=False, highlight=False),
                                      get_time=clock, transient=False, redirect_stdout=False, redirect_stderr=False)

    def __call__(self, done: int, total: int, what: str = "") -> None:
        if self.quiet:
            return
        what = printable(what)
        if self._progress is not None:
            if self._task is None:
                self._progress.start()
                self._task = self._progress.add_task(self.label, total=total, what=what)
            self._progress.update(self._task, completed=done, total=total, what=what[:60])
            return
        now = self.clock()
        if self._last is not None and done < total and now - self._last < self.every:
            return
        self._last = now
        self.stream.write(f"{self.label}: {done}/{total}" + (f" {what}" if what else "") + "\n")
        self.stream.flush()

    def close(self) -> None:
        """End the display (on a terminal the finished bar stays, then a new line)."""
        if self._progress is not None and self._task is not None:
            self._progress.stop()
            self._task = None

    def __enter__(self) -> ProgressDisplay:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
