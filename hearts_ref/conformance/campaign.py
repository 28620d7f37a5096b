"""A campaign: ``hearts-ref conform``'s run, in one process or spread over worker processes.

With ``jobs=N`` the campaign's shard (the whole campaign, or ``--shard K/N`` of it) is split
again into N shards, each run by :func:`~hearts_ref.conformance.runner.run_conformance` in a
worker process with an engine of its own, and the workers' reports are merged
(:func:`~hearts_ref.conformance.report.merge_reports`) into the report one process writes:
the same cases in the same order, the same bytes when written without timings.

Workers are forked (started afresh when the parent runs threads) and die with the parent
(``PR_SET_PDEATHSIG``, set from the thread that waits for them); each engine program they
start dies with them (:mod:`hearts_ref.engines.keeper`). Stopped by a signal, the parent
asks the workers to stop, merges what they judged and hands it to ``started``, marked by
the caller as incomplete.
"""

from __future__ import annotations

import multiprocessing
import os
import signal
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, fields, replace
from multiprocessing.connection import Connection, wait
from typing import Any

from hearts_ref.conformance.report import Report, merge_reports
from hearts_ref.conformance.runner import Progress, load_engine, run_conformance
from hearts_ref.engine import Engine
from hearts_ref.engines.health import DEFAULT_LIMIT, ReplyTimes
from hearts_ref.engines.keeper import set_parent_death_signal
from hearts_ref.errors import HeartsError
from hearts_ref.variants import Rules

__all__ = ["Campaign", "run_campaign", "job_shards", "STOP_GRACE"]

STOP_GRACE = 10.0    # seconds the workers get to send what they judged once asked to stop


@dataclass(frozen=True)
class Campaign:
    """What ``hearts-ref conform`` runs: the engine, the rules, the games, the shard, and how many jobs."""

    spec: str
    rules: Rules
    games: int = 100
    seed: int = 0
    negative_games: int | None = None
    vectors: bool = True
    shard: tuple[int, int] = (1, 1)
    time_limit: float | None = None
    shrink_budget: Any = 10.0   # seconds to shrink each finding, or a shrink.Budget (seconds and replays)
    timeout: float = 5.0
    startup_timeout: float = 10.0
    abandon_after: int = DEFAULT_LIMIT
    jobs: int = 1
    stop_at_first: bool = False     # end each game at its first difference instead of playing on

    @property
    def engine_options(self) -> str:
        """The engine options of the run that differ from the defaults, as a replay command gives them again:
        ``--timeout 1``.

        >>> Campaign("./engine", Rules(), timeout=1.0).engine_options, Campaign("./engine", Rules()).engine_options
        ('--timeout 1', '')
        """
        defaults = {f.name: f.default for f in fields(self)}
        return " ".join(f"--{name.replace('_', '-')} {getattr(self, name):g}" for name in ("timeout", "startup_timeout")
                        if getattr(self, name) != defaults[name])

    def load_engine(self) -> Engine:
        return load_engine(self.spec, timeout=self.timeout, startup_timeout=self.startup_timeout,
                           abandon_after=self.abandon_after)


def job_shards(shard: tuple[int, int], jobs: int) -> list[tuple[int, int]]:
    """The shards that split ``shard`` into ``jobs``: shard K of N is shards K + N*j of N*jobs.

    >>> job_shards((1, 1), 2), job_shards((2, 3), 2)
    ([(1, 2), (2, 2)], [(2, 6), (5, 6)])
    """
    k, n = shard
    return [(k + n * j, n * jobs) for j in range(jobs)]


def run_campaign(campaign: Campaign, *, engine: Engine | None = None, progress: Progress | None = None,
                 started: Callable[[Report], None] | None = None) -> Report:
    """Run the campaign and return its report (with the engine program's reply times, if it has them).

    ``engine``: the engine already loaded (it is used in one process, and closed before the
    workers start with more jobs). ``started`` sees the report as soon as it exists (one
    process), or the merge of what the workers judged when a signal stops the campaign.
    """
    if campaign.jobs > 1:
        if engine is not None:
            _close(engine)
        return _run_jobs(campaign, progress, started)
    engine = engine if engine is not None else campaign.load_engine()
    reports: list[Report] = []

    def begin(report: Report) -> None:
        reports.append(report)
        if started is not None:
            started(report)

    try:
        return _run_one(campaign, engine, campaign.shard, progress, begin)
    finally:
        if reports:
            _add_reply_times(reports[0], engine)


def _run_one(campaign: Campaign, engine: Engine, shard: tuple[int, int], progress: Progress | None,
             started: Callable[[Report], None]) -> Report:
    report = run_conformance(engine, campaign.rules, games=campaign.games, seed=campaign.seed,
                             negative_games=campaign.negative_games, vectors=campaign.vectors, shard=shard,
                             time_limit=campaign.time_limit, shrink_budget=campaign.shrink_budget,
                             spec=campaign.spec, stop_at_first=campaign.stop_at_first, progress=progress,
                             started=started, engine_options=campaign.engine_options)
    _add_reply_times(report, engine)
    return report


def _add_reply_times(report: Report, engine: Engine) -> None:
    replies = getattr(engine, "replies", None)
    if isinstance(replies, ReplyTimes) and (replies.count or replies.timeouts):
        report.engine["replies"] = replies.to_dict()


def _close(engine: Engine) -> None:
    close = getattr(engine, "close", None)
    if callable(close):
        close()


class _Stop(BaseException):
    """Raised in a worker by SIGTERM: its parent asks it to stop and send what it judged."""


def _worker(campaign: Campaign, shard: tuple[int, int], link: Connection, parent: int, report_progress: bool) -> None:
    """One job: run ``shard`` of the campaign and send ``("report", report)`` (or ``("error", text)``)."""
    set_parent_death_signal(signal.SIGKILL)
    if os.getppid() != parent:              # the parent died before the line above
        os._exit(1)
    signal.signal(signal.SIGINT, signal.SIG_IGN)      # the terminal's ^C: the parent decides

    def stop(signum: int, frame: object) -> None:
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        raise _Stop()

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGHUP, signal.SIG_IGN)
    reports: list[Report] = []
    engine = None
    send = (lambda done, total, failed: link.send(("progress", shard, done, total, failed))) if report_progress \
        else None
    try:
        engine = campaign.load_engine()
        link.send(("report", _run_one(campaign, engine, shard, send, reports.append)))
    except _Stop:
        if reports:
            if engine is not None:
                _add_reply_times(reports[0], engine)
            link.send(("report", reports[0]))
    except HeartsError as error:
        link.send(("error", f"shard {shard[0]}/{shard[1]}: {error}"))
    finally:
        if engine is not None:
            _close(engine)
        link.close()


def _run_jobs(campaign: Campaign, progress: Progress | None, started: Callable[[Report], None] | None) -> Report:
    start = time.monotonic()
    # fork is quick and needs no import; with other threads running, a fork could copy a held lock
    context = multiprocessing.get_context("fork" if threading.active_count() == 1 else "spawn")
    shards = job_shards(campaign.shard, campaign.jobs)
    links, workers = {}, {}
    for shard in shards:
        here, there = context.Pipe(duplex=False)
        worker = context.Process(target=_worker, args=(replace(campaign, jobs=1), shard, there, os.getpid(),
                                                       progress is not None), name=f"hearts-ref-job-{shard[0]}")
        worker.start()
        there.close()
        links[here], workers[shard] = shard, worker
    reports: dict[tuple[int, int], Report] = {}
    counts: dict[tuple[int, int], tuple[int, int, int]] = {}
    try:
        _collect(links, workers, reports, counts, progress, deadline=None)
    except BaseException:
        for shard, worker in workers.items():
            if worker.is_alive() and shard not in reports:
                os.kill(worker.pid, signal.SIGTERM)
        try:
            _collect(links, workers, reports, counts, None, deadline=time.monotonic() + STOP_GRACE)
        except HeartsError:
            pass
        if reports and started is not None:
            started(_merged(campaign, reports, start, partial=True))
        raise
    finally:
        for worker in workers.values():
            worker.join(timeout=STOP_GRACE)
            if worker.is_alive():
                worker.kill()
                worker.join()
    return _merged(campaign, reports, start)


def _collect(links: dict[Connection, tuple[int, int]], workers: dict[tuple[int, int], Any],
             reports: dict[tuple[int, int], Report], counts: dict[tuple[int, int], tuple[int, int, int]],
             progress: Progress | None, deadline: float | None) -> None:
    """Read the workers' messages until each has sent its report (or ``deadline`` passes)."""
    waiting = [link for link, shard in links.items() if shard not in reports]
    while waiting:
        timeout = None if deadline is None else max(0.0, deadline - time.monotonic())
        ready = wait(waiting, timeout)
        if not ready:
            return
        for link in ready:
            shard = links[link]
            try:
                message = link.recv()
            except (EOFError, OSError):
                waiting.remove(link)
                if shard not in reports:
                    workers[shard].join(timeout=1)
                    raise HeartsError(f"the worker of shard {shard[0]}/{shard[1]} stopped without a report "
                                      f"(exit code {workers[shard].exitcode})") from None
                continue
            if message[0] == "progress":
                counts[shard] = message[2:]
                if progress is not None:
                    progress(*(sum(values) for values in zip(*counts.values())))
            elif message[0] == "error":
                raise HeartsError(message[1])
            else:
                reports[shard] = message[1]


def _merged(campaign: Campaign, reports: dict[tuple[int, int], Report], start: float, *,
            partial: bool = False) -> Report:
    """The workers' reports as one (``partial``: some may be missing, the campaign having been stopped)."""
    merged = merge_reports([reports[shard] for shard in sorted(reports)], of=campaign.shard, complete=not partial)
    merged.seconds = time.monotonic() - start
    return merged
