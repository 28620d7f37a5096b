"""Reference pages generated from the repository: every command's options, the suite to download, the changelog.

- ``cli.md``: ``hearts-ref --help`` and every subcommand's ``--help`` (the subcommands of a subcommand
  too, such as ``vectors export``), formatted by the commands' own parsers when the site is built, and
  the shape of a command's ``--json`` output where its module draws one (:func:`json_shape`);
- ``conformance/download.md``: the versioned suite (``hearts-ref vectors export``) as a zip made at
  build time, with its version, its checksum and its files;
- ``changelog.md``: ``CHANGELOG.md``.

>>> "hearts-ref vectors export" in cli_page() and "--out PATH" in cli_page()
True
>>> '"verdict": "equivalent" | "different" | "unsettled"' in json_shape("diff"), json_shape("play")
(True, '')
"""

from __future__ import annotations

import argparse
import hashlib
import json
from functools import cache, partial

from sitegen.common import ROOT, outside_fences
from sitegen.rules_pages import spec_text

__all__ = ["commands", "help_text", "cli_page", "json_shape", "suite_zip", "download_page", "changelog_page", "DOWNLOAD"]

WIDTH = 88


def commands() -> list[tuple[str, argparse.ArgumentParser]]:
    """Return every command of ``hearts-ref`` as (its words after ``hearts-ref``, its parser), subcommands after
    their command: ``("", main)``, ``("conform", …)``, ``("vectors", …)``, ``("vectors export", …)`` …"""
    from hearts_ref.cli import build_parser

    def walk(words: str, parser: argparse.ArgumentParser) -> list[tuple[str, argparse.ArgumentParser]]:
        found = [(words, parser)]
        for action in parser._actions:
            if isinstance(action, argparse._SubParsersAction):
                for name, sub in action.choices.items():
                    found += walk(f"{words} {name}".strip(), sub)
        return found
    return walk("", build_parser())


def help_text(parser: argparse.ArgumentParser, words: str, *, width: int = WIDTH) -> str:
    """Return ``hearts-ref WORDS --help`` as the parser prints it at ``width`` columns, as a console block's text."""
    parser.formatter_class = partial(parser.formatter_class, width=width)
    return f"$ hearts-ref {words + ' ' if words else ''}--help\n{parser.format_help().rstrip()}"


def _anchor(words: str) -> str:
    return "cmd-" + (words.replace(" ", "-") or "hearts-ref")


def cli_page() -> str:
    """Return the command-line reference: one section per command, its help read from its parser."""
    from hearts_ref.cli import COMMANDS
    found = commands()
    out = ["# Command-line reference\n",
           "Every command of `hearts-ref` with all its options, as its `--help` prints them: read from the "
           "commands' own parsers when this site was built, so it matches this version. Every command exits 0 "
           "on success, 1 when a check found a deviation, 2 for bad input (one line on stderr saying where "
           "and why).\n",
           "| command | what it does |", "|---|---|"]
    out += [f"| [`hearts-ref {words}`](#{_anchor(words)}) | "
            f"{COMMANDS.get(words.split()[0], parser.description or '') if ' ' not in words else parser.description} |"
            for words, parser in found if words]
    for words, parser in found:
        title = f"hearts-ref {words}".strip()
        out += [f"\n## `{title}` {{#{_anchor(words)}}}\n", f"```console\n{help_text(parser, words)}\n```"]
        shape = json_shape(words)
        if shape:
            out += [f"\nWhat `{title} --json` prints:\n", f"```text\n{shape}\n```"]
    out.append("\nThe options `--preset NAME` and `--set name=value` take the presets and parameters of the "
               "[variant registry](variants.md); an engine `SPEC` is described on [the runner page]"
               "(conformance-runner.md).\n")
    return "\n".join(out)


def json_shape(words: str) -> str:
    """The shape of a command's ``--json`` output, as its module's docstring draws it (a ``.. code-block:: text``);
    "" when it draws none."""
    import importlib
    if not words or " " in words:
        return ""
    try:
        doc = importlib.import_module(f"hearts_ref.commands.{words}").__doc__ or ""
    except ImportError:
        return ""
    _, marker, rest = doc.partition(".. code-block:: text\n")
    if not marker:
        return ""
    block = []
    for line in rest.splitlines()[1:]:   # (the blank line after the directive)
        if line and not line.startswith("    "):
            break
        block.append(line[4:])
    return "\n".join(block).strip("\n")


@cache
def suite_zip() -> tuple[str, bytes]:
    """Return the file name and the bytes of the suite's zip, as ``hearts-ref vectors export`` writes it."""
    from hearts_ref.vectors.export import archive_name, suite_contents, zip_bytes
    return f"{archive_name()}.zip", zip_bytes(suite_contents())


DOWNLOAD = "conformance/download.md"


def download_page() -> str:
    """Return the page that offers the suite: version, checksum, what it holds, how to check and run it."""
    from hearts_ref.vectors.export import suite_contents
    name, data = suite_zip()
    contents = suite_contents()
    version = json.loads(contents["VERSION.json"])
    groups = {"vectors/": "vector files", "perft/": "perft deals", "schemas/": "JSON Schemas", "docs/": "pages"}
    counts = ", ".join(f"{sum(n.startswith(p) for n in contents)} {what}" for p, what in groups.items())
    return "\n".join([
        "# Download the conformance suite\n",
        "The conformance vectors, the perft deals and the schemas, as one versioned package that any engine "
        "can be checked against without hearts-ref: read the JSON files with any JSON library.\n",
        f'[:material-download: {name}](../downloads/{name}){{ .md-button .md-button--primary }}\n',
        "| | |", "|---|---|",
        f"| suite version | `{version['suite']}` (vector format {version['vectors_format']}, perft format "
        f"{version['perft_format']}, stdio protocol {version['protocol']}) |",
        f"| cases | {version['cases']} vector cases, {version['perft_deals']} perft deals, "
        f"{len(version['rule_ids'])} rule IDs |",
        f"| files | {counts}, `VERSION.json`, `SHA256SUMS` |",
        f"| SHA-256 of the zip | `{hashlib.sha256(data).hexdigest()}` |",
        f"| size | {len(data) / 1024:,.0f} KiB |\n",
        "The zip was made when this site was built, by the same code as:\n",
        f"```sh\nhearts-ref vectors export --out {name}      # or --out FOLDER for the files themselves\n"
        f"unzip {name} && cd {name.removesuffix('.zip')} && sha256sum -c SHA256SUMS\n```\n",
        "The suite's version follows semantic versioning (a new case raises the minor number, a changed or "
        "removed case the major one); the [changelog](../changelog.md) says what changed in each. The formats "
        "are on [Vectors and perft](vectors.md), the protocol on [the stdio protocol](protocol.md).\n"])


def changelog_page() -> str:
    """Return ``CHANGELOG.md`` as a page (its headings kept), rule IDs and case IDs linked."""
    from sitegen.conformance_pages import link_case_ids
    head, _, body = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8").partition("\n")
    page = "changelog.md"
    body = outside_fences(body, lambda part: spec_text(part, page))
    return f"{head}\n\n*Included from `CHANGELOG.md`.*\n" + link_case_ids(body, page)
