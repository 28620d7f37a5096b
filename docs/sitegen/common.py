"""What every generated page shares: paths, card chips, links to rules, notes, data files.

>>> card_chip("7D")
'<span class="hr-card hr-red" title="seven of diamonds">7♦</span>'
>>> cards_in_text("Trick: `7D` `KD` `4H` `QS`, then `2C`.").count('class="hr-card ')
5
>>> link_rule_ids("See FIRST-EXCEPTION, not `FIRST-EXCEPTION`.", "rules/03-leading.md", {"FIRST-EXCEPTION": "rules/04-following.md"})
'See [FIRST-EXCEPTION](04-following.md#FIRST-EXCEPTION), not `FIRST-EXCEPTION`.'
"""

from __future__ import annotations

import json
import posixpath
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from hearts_ref.cards import Card, Suit
from hearts_ref.errors import InvalidCardError

ROOT = Path(__file__).resolve().parents[2]
SPEC = ROOT / "spec"
DATA = ROOT / "docs" / "data"

SUIT_GLYPHS = {Suit.CLUBS: "♣", Suit.DIAMONDS: "♦", Suit.HEARTS: "♥", Suit.SPADES: "♠"}
RED_SUITS = {Suit.DIAMONDS, Suit.HEARTS}
RANK_WORDS = {"A": "ace", "K": "king", "Q": "queen", "J": "jack", "10": "ten", "9": "nine", "8": "eight",
              "7": "seven", "6": "six", "5": "five", "4": "four", "3": "three", "2": "two"}
SUIT_WORDS = {Suit.CLUBS: "clubs", Suit.DIAMONDS: "diamonds", Suit.HEARTS: "hearts", Suit.SPADES: "spades"}

CARD_CODE = r"(?:10|[2-9TJQKA])[CDHS](?:#2)?"   # a second deck's copy: JC#2 (DECK-CARDS)
_CARD_RUN = re.compile(rf"`{CARD_CODE}`(?:[ \t]+`{CARD_CODE}`)*")
_BARE_CARD_RUN = re.compile(rf"(?<![\w`]){CARD_CODE}(?:[ ,]+{CARD_CODE})*(?![\w`])")
RULE_TOKEN = re.compile(r"(?<![A-Za-z0-9_`#/\[-])([A-Z]+(?:-[A-Z]+)+)(?![A-Za-z0-9_`\]-])")
_FENCE = re.compile(r"^[ \t]*(```|~~~).*?^[ \t]*\1[ \t]*$", re.S | re.M)
_CODE_SPAN = re.compile(r"(`+)(?:(?!\1)(?:.|\n(?!\s*\n)))+?\1")   # may span lines, not paragraphs


def parse_card(code: str) -> Card | None:
    """Return the card written ``code``, or None when it is not a card."""
    try:
        return Card.parse(code)
    except InvalidCardError:
        return None


def card_chip(code: str) -> str:
    """Return the HTML chip of one card: its rank and suit glyph, red for hearts and diamonds."""
    card = parse_card(code)
    if card is None:
        return f"<code>{code}</code>"
    rank = card.rank.symbol
    colour = "hr-red" if card.suit in RED_SUITS else "hr-black"
    copy = "#2" if card.copy == 2 else ""   # DECK-CARDS, two decks: the second deck's copy
    title = f"{RANK_WORDS[rank]} of {SUIT_WORDS[card.suit]}" + (" (second deck)" if copy else "")
    return f'<span class="hr-card {colour}" title="{title}">{rank}{SUIT_GLYPHS[card.suit]}{copy}</span>'


def card_row(codes: list[str] | tuple[str, ...], *, label: str = "") -> str:
    """Return a row of cards drawn as cards (used for example tricks, hands and counterexamples)."""
    chips = "".join(card_chip(code) for code in codes)
    caption = f'<span class="hr-row-label">{label}</span>' if label else ""
    return f'<span class="hr-cards">{caption}{chips or "<em>no cards</em>"}</span>'


def cards_in_text(text: str) -> str:
    """Return ``text`` with each backticked card code drawn as a chip; two or more in a row as a row of cards."""
    def draw(match: re.Match[str]) -> str:
        codes = re.findall(CARD_CODE, match.group(0))
        return card_row(codes) if len(codes) > 1 else card_chip(codes[0])
    return _CARD_RUN.sub(draw, text)


def outside_code(text: str, change) -> str:
    """Return ``text`` with ``change`` applied to the parts that are not inline code spans."""
    out, last = [], 0
    for span in _CODE_SPAN.finditer(text):
        out.append(change(text[last:span.start()]))
        out.append(span.group(0))
        last = span.end()
    out.append(change(text[last:]))
    return "".join(out)


def outside_fences(text: str, change) -> str:
    """Return ``text`` with ``change`` applied to the parts that are not fenced code blocks."""
    out, last = [], 0
    for fence in _FENCE.finditer(text):
        out += [change(text[last:fence.start()]), fence.group(0)]
        last = fence.end()
    out.append(change(text[last:]))
    return "".join(out)


def relative(target: str, page: str) -> str:
    """Return the link from the page ``page`` (a path under docs/) to ``target`` (path#anchor)."""
    path, _, anchor = target.partition("#")
    link = posixpath.relpath(path, posixpath.dirname(page) or ".") if path else ""
    return link + (f"#{anchor}" if anchor else "")


def link_rule_ids(text: str, page: str, rule_pages: dict[str, str]) -> str:
    """Return ``text`` with each bare rule ID (outside code) linked to its anchor on its chapter page."""
    def link(part: str) -> str:
        def one(match: re.Match[str]) -> str:
            rule_id = match.group(1)
            if rule_id not in rule_pages:
                return rule_id
            return f"[{rule_id}]({relative(rule_pages[rule_id] + '#' + rule_id, page)})"
        return RULE_TOKEN.sub(one, part)
    return outside_code(text, link)


def rule_link(rule_id: str, page: str, rule_pages: dict[str, str]) -> str:
    """Return a Markdown link to one rule, or the bare text when the rule does not exist."""
    if rule_id not in rule_pages:
        return f"`{rule_id}` (unknown rule)"
    return f"[{rule_id}]({relative(rule_pages[rule_id] + '#' + rule_id, page)})"


def slug(text: str) -> str:
    """Return a stable lower-case anchor for an ID that is not a rule ID (a vector case, a preset)."""
    return re.sub(r"[^a-z0-9]+", "-", str(text).lower()).strip("-") or "item"


def not_yet(what: str, how: str) -> str:
    """Return the plain note that a piece of the site is not available yet, and how it appears."""
    return f'!!! note "Not available yet"\n\n    {what}\n\n    {how}\n'


def read_json(path: Path) -> tuple[Any, str | None]:
    """Return the JSON in ``path`` and None, or None and why it could not be read."""
    name = path.relative_to(ROOT).as_posix() if path.is_relative_to(ROOT) else str(path)
    if not path.is_file():
        return None, f"`{name}` does not exist"
    try:
        return json.loads(path.read_text(encoding="utf-8")), None
    except (OSError, ValueError) as error:
        return None, f"`{name}` is not valid JSON ({error})"


def records(data: Any, *, having: tuple[str, ...]) -> Iterator[dict[str, Any]]:
    """Yield every dict nested in ``data`` that has all the keys ``having`` (shape-tolerant reading)."""
    if isinstance(data, dict):
        if all(key in data for key in having):
            yield data
            return
        for value in data.values():
            yield from records(value, having=having)
    elif isinstance(data, list):
        for value in data:
            yield from records(value, having=having)


def first(record: dict[str, Any], *keys: str, default: Any = None) -> Any:
    """Return the value of the first of ``keys`` present in ``record``."""
    for key in keys:
        if key in record and record[key] is not None:
            return record[key]
    return default


def rule_ids_of(record: dict[str, Any]) -> list[str]:
    """Return the rule IDs a record names under ``rules`` / ``rule_ids`` (a list or one string)."""
    value = first(record, "rules", "rule_ids", default=[])
    if isinstance(value, str):
        value = re.split(r"[\s,]+", value)
    return [str(v) for v in value if v]


def escape_cell(text: Any) -> str:
    """Return ``text`` fit for one Markdown table cell."""
    return str(text).replace("|", "\\|").replace("\n", " ")
