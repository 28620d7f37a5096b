"""mkdocs hooks: generate the pages of the site from spec/, the source and the recorded runs at build time.

``mkdocs build`` alone regenerates every page; nothing generated is written into docs/.
The generators are in ``docs/sitegen/``.
"""

from __future__ import annotations

import sys
from pathlib import Path

from mkdocs.structure.files import File

HERE = Path(__file__).resolve().parent
for path in (HERE, HERE.parent):
    if str(path) not in sys.path:
        sys.path.insert(0, str(path))

from sitegen.house_rules import pages as house_rule_pages  # noqa: E402
from sitegen.pages import generated_pages, nav_additions  # noqa: E402


def on_config(config):
    """Start the runs whose output the pages show; add the chapter and API pages to their sections of the navigation."""
    from sitegen.runs import start
    start()
    additions = nav_additions()
    for entry in config.nav or []:
        if isinstance(entry, dict):
            for title, children in entry.items():
                if title in additions and isinstance(children, list):
                    children.extend(additions[title])
    return config


def on_files(files, config):
    """Add every generated page and file (the suite's zip); a page of the same name in docs/ would be stale, so it
    is replaced."""
    from sitegen.reference_pages import suite_zip
    from sitegen.spec_pages import source_files
    name, data = suite_zip()
    pages = {**generated_pages(), **house_rule_pages(), f"downloads/{name}": data, **source_files()}
    for path, content in pages.items():
        existing = files.get_file_from_path(path)
        if existing is not None:
            files.remove(existing)
        files.append(File.generated(config, path, content=content))
    return files


def on_page_markdown(markdown, page, config, files):
    """Fill the include markers of hand-written pages (README sections, the tour); link their rule IDs."""
    from sitegen.includes import fill
    if page.file.generated_by:
        return markdown
    return fill(markdown, page.file.src_uri)


def on_page_content(html, page, config, files):
    """Make each API page the target of references to its module (``:mod:`hearts_ref.legality``` in a docstring).

    mkdocstrings registers every object it renders but not the module of a page whose root
    heading is hidden; the page's title carries the module's name as its anchor instead.
    """
    autorefs = config.plugins.get("autorefs")
    name = page.file.src_uri.removeprefix("api/").removesuffix(".md")
    if autorefs is not None and page.file.src_uri.startswith("api/") and name != "index":
        autorefs.register_anchor(page, name, name, title=name)
    return html
