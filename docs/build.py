"""Record the runs the site shows, then build the site.

    python docs/build.py                  # record the runs that are available, then mkdocs build --strict
    python docs/build.py --no-site        # record the runs only
    python docs/build.py --skip-proofs --skip-conformance --skip-house-rules   # build only (mkdocs build --strict)

1. The proofs: ``hearts-ref prove --all --json``, when this version has it. Its output is
   written unchanged to ``docs/data/proofs.json``, and how it ran (command, start, duration,
   exit code, versions, commit) to ``docs/data/proofs.run.json``.
2. The conformance runs of each engine recorded in ``docs/data/engines/`` (OpenSpiel's
   ``hearts``): ``hearts-ref conform`` under the engine's preset and under each other value of
   each of its parameters, when this version has the command. The verdicts (exit codes) and
   reports go to ``docs/data/conformance/<adapter>.json``; the variant matrix marks them.
3. What each house rule changes: ``hearts-ref diff --matrix --json``, written unchanged to
   ``docs/data/house_rules.json`` and how it ran to ``docs/data/house_rules.run.json``.
4. ``mkdocs build --strict``: the hook regenerates every page from spec/, the source and these files.

A step whose command is not available is skipped with a message, and the files it would
write are left as they are. Exit code: 0 when everything that ran succeeded, 1 otherwise.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import re
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "docs" / "data"
sys.path[:0] = [str(ROOT), str(ROOT / "docs")]

from hearts_ref.console import ProgressDisplay  # noqa: E402  (after the checkout is on the path)

# How the conformance runner is asked to judge an engine under a set of rules, as JSON.
# Adjust here if the runner's options differ; {adapter} is the engine's adapter name.
CONFORM_COMMAND = ["conform", "--engine", "{adapter}", "--json"]
PROVE_COMMAND = ["prove", "--all", "--deep", "--json"]
HOUSE_RULES_COMMAND = ["diff", "--matrix", "--json"]


def hearts_ref(args: list[str], *, timeout: float,
               progress: Any = None) -> tuple[subprocess.CompletedProcess, float, str]:
    """Run ``hearts-ref ARGS`` from the checkout; return the process, its duration and its start time.

    With ``progress`` (a :class:`hearts_ref.console.ProgressDisplay`), the command's own plain
    progress lines on stderr (``prove: 12/54 …``) move it as they arrive.
    """
    started = datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds")
    begin = time.monotonic()
    command = [sys.executable, "-m", "hearts_ref", *args]
    if progress is None:
        process = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=timeout)
        return process, time.monotonic() - begin, started
    with tempfile.TemporaryFile("w+", encoding="utf-8") as out:
        child = subprocess.Popen(command, cwd=ROOT, stdout=out, stderr=subprocess.PIPE, text=True)
        timer = threading.Timer(timeout, child.kill)
        timer.start()
        errors = []
        for line in child.stderr:
            errors.append(line)
            moved = PROGRESS_LINE.match(line)
            if moved:
                progress(int(moved["done"]), int(moved["total"]), moved["what"].strip())
        code = child.wait()
        timer.cancel()
        out.seek(0)
        process = subprocess.CompletedProcess(command, code, out.read(), "".join(errors))
    return process, time.monotonic() - begin, started


PROGRESS_LINE = re.compile(r"^[\w -]+: (?P<done>\d+)/(?P<total>\d+)(?P<what>.*)$")


def versions() -> dict[str, Any]:
    """Return the versions and the machine a run was recorded with."""
    import hearts_ref
    found: dict[str, Any] = {"hearts_ref": hearts_ref.__version__, "python": platform.python_version(),
                             "platform": f"{platform.system()} {platform.machine()}", "cpus": os.cpu_count()}
    try:
        import z3
        found["z3"] = z3.get_version_string()
    except ImportError:
        pass
    try:
        commit = subprocess.run(["git", "rev-parse", "--short=12", "HEAD"], cwd=ROOT, capture_output=True, text=True)
        if commit.returncode == 0:
            found["git_commit"] = commit.stdout.strip()
    except OSError:
        pass
    return found


def available(command: list[str]) -> bool:
    """Whether this version's ``hearts-ref`` has the subcommand with every option of ``command``."""
    from sitegen.includes import command_options
    options = command_options(command[0])
    return all(arg in options for arg in command[1:] if arg.startswith("--"))


def record_proofs(timeout: float, command: list[str] = PROVE_COMMAND, name: str = "proofs") -> bool:
    """Run the proofs (or another command whose JSON a page shows) and record them in ``docs/data/<name>.json``;
    return False when the run failed."""
    if not available(command):
        print(f"{name}: 'hearts-ref {' '.join(command)}' is not available in this version: skipped")
        return True
    print(f"{name}: running hearts-ref {' '.join(command)} …", flush=True)
    with ProgressDisplay(name, unit="proofs" if name == "proofs" else "steps") as progress:
        process, seconds, started = hearts_ref(command, timeout=timeout, progress=progress)
    try:
        json.loads(process.stdout)
    except ValueError:
        print(f"{name}: exit code {process.returncode}, output is not JSON; nothing recorded\n{process.stderr[-2000:]}")
        return False
    DATA.mkdir(parents=True, exist_ok=True)
    (DATA / f"{name}.json").write_text(process.stdout, encoding="utf-8")
    run = {"command": "hearts-ref " + " ".join(command), "started": started, "seconds": round(seconds, 1),
           "exit_code": process.returncode, **versions()}
    (DATA / f"{name}.run.json").write_text(json.dumps(run, indent=2) + "\n", encoding="utf-8")
    print(f"{name}: exit code {process.returncode} in {seconds:.1f} s, recorded in docs/data/{name}.json")
    return process.returncode in (0, 1)


def settings_of(engine: dict[str, Any]) -> list[dict[str, Any]]:
    """Return the settings to check an engine under: its preset, then each other value of each parameter."""
    settings = [{}]
    for row in engine["rows"]:
        for setting, value in (row.get("map") or {}).items():
            if json.loads(setting) != row["default"]:
                settings.append({row["parameter"]: value})
    return settings


def _set_text(name: str, value: Any) -> str:
    return f"{name}={json.dumps(value) if isinstance(value, bool) else value}"


def record_conformance(engine_file: Path, timeout: float) -> bool:
    """Run the conformance runner on one engine under each setting; record the verdicts."""
    engine = json.loads(engine_file.read_text(encoding="utf-8"))
    adapter = engine["adapter"]
    command = [part.format(adapter=adapter) for part in CONFORM_COMMAND]
    if not available(command):
        print(f"conformance: 'hearts-ref {' '.join(command)}' is not available in this version: skipped")
        return True
    runs, ok = [], True
    every = settings_of(engine)
    with ProgressDisplay(f"conformance of {adapter}", unit="runs") as progress:
        for done, settings in enumerate(every):
            runs.append(_conformance_run(command, adapter, settings, timeout))
            ok &= runs[-1]["exit_code"] in (0, 1) and runs[-1]["report"] is not None
            progress(done + 1, len(every), runs[-1]["command"].split(" --json ", 1)[-1])
    out = DATA / "conformance" / f"{adapter}.json"
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps({"engine": engine["engine"], "adapter": adapter, **versions(), "runs": runs},
                              indent=2) + "\n", encoding="utf-8")
    print(f"conformance: {len(runs)} runs recorded in {out.relative_to(ROOT)}")
    return ok


def _conformance_run(command: list[str], adapter: str, settings: dict[str, Any], timeout: float) -> dict[str, Any]:
    """Run the conformance runner once under the adapter's preset and ``settings``; return the recorded run."""
    args = command + ["--preset", adapter] + [a for k, v in settings.items() for a in ("--set", _set_text(k, v))]
    process, seconds, started = hearts_ref(args + ["--quiet"], timeout=timeout)
    try:
        report = json.loads(process.stdout)
    except ValueError:
        report = None
    return {"preset": adapter, "set": settings, "command": "hearts-ref " + " ".join(args),
            "started": started, "seconds": round(seconds, 1), "exit_code": process.returncode,
            "stderr": process.stderr[-2000:] if process.returncode not in (0, 1) else "", "report": report}


def build_site(site_dir: str | None) -> bool:
    """Run ``mkdocs build --strict``; return whether it passed."""
    args = [sys.executable, "-m", "mkdocs", "build", "--strict"] + (["--site-dir", site_dir] if site_dir else [])
    return subprocess.run(args, cwd=ROOT).returncode == 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Record the proofs and conformance runs, then build the site.")
    parser.add_argument("--skip-proofs", action="store_true", help="do not run the proofs")
    parser.add_argument("--skip-conformance", action="store_true", help="do not run the conformance runs")
    parser.add_argument("--skip-house-rules", action="store_true", help="do not run the house-rule comparisons")
    parser.add_argument("--no-site", action="store_true", help="record the runs only, do not build the site")
    parser.add_argument("--site-dir", help="where to build the site (default: mkdocs.yml's, site/)")
    parser.add_argument("--timeout", type=float, default=3600, help="seconds allowed to each run (default 3600)")
    args = parser.parse_args(argv)
    ok = True
    if not args.skip_proofs:
        ok &= record_proofs(args.timeout)
    if not args.skip_house_rules:
        ok &= record_proofs(args.timeout, HOUSE_RULES_COMMAND, "house_rules")
    if not args.skip_conformance:
        for engine_file in sorted((DATA / "engines").glob("*.json")):
            ok &= record_conformance(engine_file, args.timeout)
    if not args.no_site:
        ok &= build_site(args.site_dir)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
