r"""A griffe extension for the API reference: doctest examples in docstrings are shown as code.

hearts-ref's docstrings carry doctests (CI runs them) without an "Examples:" heading; as
plain Markdown, ``>>> record["rounds"][0]`` would be read as quotes and links. This extension
wraps each run of doctest lines in a ``pycon`` code fence before the docstring is rendered.

>>> fence_doctests("Text.\n\n>>> 1 + 1\n2\n\nMore.").splitlines()
['Text.', '', '```pycon', '>>> 1 + 1', '2', '```', '', 'More.']
"""

from __future__ import annotations

import griffe


def fence_doctests(text: str) -> str:
    """Return ``text`` with each block of doctest lines (from ``>>>`` to the next blank line) fenced as pycon."""
    out: list[str] = []
    inside = False
    for line in text.splitlines():
        if not inside and line.lstrip().startswith(">>>"):
            out.append("```pycon")
            inside = True
        elif inside and not line.strip():
            out.append("```")
            inside = False
        out.append(line)
    if inside:
        out.append("```")
    return "\n".join(out)


class DoctestFences(griffe.Extension):
    """Fence the doctests of every docstring."""

    def on_instance(self, *, node, obj, agent, **kwargs) -> None:
        if obj.docstring is not None and ">>>" in obj.docstring.value:
            obj.docstring.value = fence_doctests(obj.docstring.value)
