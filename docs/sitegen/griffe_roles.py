r"""A griffe extension for the API reference: the Sphinx roles of docstrings become code, linked where they can be.

hearts-ref's docstrings name other objects as Sphinx does (``:class:`~hearts_ref.engine.EngineRejection```),
which Markdown would show as it is written. Each role becomes inline code showing what Sphinx
shows (``~a.b.C`` as ``C``, ``a.b.C`` as ``a.b.C``), linked to the object's entry in the API
reference when the name resolves in the docstring's scope and the object has an entry there.

>>> print(convert_roles("Raises :class:`~hearts_ref.engine.EngineRejection`; see :func:`play`.", lambda name: None))
Raises `EngineRejection`; see `play`.
>>> print(convert_roles("The :attr:`~EngineFailure.verdict`.", lambda name: "hearts_ref.engines.failures." + name))
The <autoref identifier="hearts_ref.engines.failures.EngineFailure.verdict" optional><code>verdict</code></autoref>.
>>> print(convert_roles("```\nx = 1  # :func:`kept`\n```", lambda name: None))
```
x = 1  # :func:`kept`
```
"""

from __future__ import annotations

import html
import re
from collections.abc import Callable

import griffe

ROLE = re.compile(r":(?:py:)?(?:class|func|meth|attr|mod|data|exc|obj|const|type):`(?P<body>[^`]+)`")
_FENCE = re.compile(r"^[ \t]*(```|~~~).*?^[ \t]*\1[ \t]*$", re.S | re.M)


def shown_and_target(body: str) -> tuple[str, str]:
    """Return what a role shows and the name it refers to: ``~a.b.C`` shows ``C``, ``Text <a.b.C>`` shows ``Text``."""
    explicit = re.fullmatch(r"(?P<text>.+?)\s*<(?P<target>[^<>]+)>", body)
    if explicit:
        return explicit["text"], explicit["target"].lstrip("~")
    target = body.lstrip("~")
    shown = target.rsplit(".", 1)[-1] if body.startswith("~") else target.lstrip(".")
    return shown, target


def convert_roles(text: str, resolve: Callable[[str], str | None]) -> str:
    """Return ``text`` with each Sphinx role outside code fences as inline code, linked when ``resolve`` finds it."""
    def one(match: re.Match[str]) -> str:
        shown, target = shown_and_target(match["body"])
        path = resolve(target)
        if path is None:
            return f"`{shown}`"
        return f'<autoref identifier="{html.escape(path)}" optional><code>{html.escape(shown)}</code></autoref>'

    out, last = [], 0
    for fence in _FENCE.finditer(text):
        out += [ROLE.sub(one, text[last:fence.start()]), fence.group(0)]
        last = fence.end()
    out.append(ROLE.sub(one, text[last:]))
    return "".join(out)


def resolver(obj: griffe.Object) -> Callable[[str], str | None]:
    """Return how a name written in ``obj``'s docstring resolves to an object's path, or None."""
    def resolve(target: str) -> str | None:
        if target.startswith("."):   # relative to the package of the docstring's module
            dots = len(target) - len(target.lstrip("."))
            module = obj.module
            base = module.path if module.is_package else module.path.rpartition(".")[0]
            for _ in range(dots - 1):
                base = base.rpartition(".")[0]
            return f"{base}.{target.lstrip('.')}" if base else None
        head, _, rest = target.partition(".")
        try:
            path = obj.resolve(head)
        except (griffe.NameResolutionError, AttributeError):
            return target if "." in target and head in obj.modules_collection else None
        return f"{path}.{rest}" if rest else path
    return resolve


class SphinxRoles(griffe.Extension):
    """Turn the Sphinx roles of every docstring of a loaded package into code, linked where it resolves."""

    def on_package(self, *, pkg: griffe.Module, **kwargs) -> None:
        self._walk(pkg)

    def _walk(self, obj: griffe.Object) -> None:
        if obj.docstring is not None and ROLE.search(obj.docstring.value):
            obj.docstring.value = convert_roles(obj.docstring.value, resolver(obj))
        for member in obj.members.values():
            if not member.is_alias:
                self._walk(member)
