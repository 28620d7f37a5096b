"""Pictures drawn when the site is built: a deal laid out on the table, the table and its pass cycle, and a chart
of a conformance sweep. Each returns HTML or inline SVG that needs no script and scales to the page.

>>> html = table(["2C 3C", "QS 2H", "2D 3D", "2S 3S"], ["2C"], leader=0, stuck=1)
>>> html.count('class="hr-card ') == 9 and "has no legal play" in html
True
>>> pass_cycle_svg("across").count("<line") == 4
True
"""

from __future__ import annotations

import html as escape
import math
import re
from typing import Any

from sitegen.common import CARD_CODE, card_chip, card_row

__all__ = ["table", "pass_cycle_svg", "pass_cycle_figure", "sweep_chart", "last_trick", "worked_examples"]

# Where each seat of four sits, seen from above: seat 0 at the bottom, then clockwise.
_PLACES = ("bottom", "left", "top", "right")


def _cards(text: Any) -> list[str]:
    return re.findall(CARD_CODE, text if isinstance(text, str) else " ".join(map(str, text or [])))


def table(hands: list[Any], plays: list[Any], *, leader: int, stuck: int | None = None, caption: str = "") -> str:
    """Return a deal drawn as the table: each seat's hand in its place (four players: seat 0 at the bottom, then
    clockwise), the cards played so far in the middle, the seat ``stuck`` marked."""
    n = len(hands)
    seats = []
    for seat, hand in enumerate(hands):
        place = _PLACES[seat] if n == 4 else "row"
        note = ' <span class="hr-stuck">to move: has no legal play</span>' if seat == stuck else ""
        seats.append(f'<div class="hr-seat hr-seat-{place}"><span class="hr-seat-name">seat {seat}</span>{note}'
                     f'{card_row(_cards(hand))}</div>')
    played = _cards(plays)
    trick = "".join(f'<span class="hr-played"><span class="hr-seat-name">seat {(leader + i) % n}</span>'
                    f'{card_chip(code)}</span>' for i, code in enumerate(played)) or "<em>no card played</em>"
    felt = f'<div class="hr-felt"><span class="hr-seat-name">played</span>{trick}</div>'
    layout = "hr-table-four" if n == 4 else "hr-table-list"
    note = f"<figcaption>{caption}</figcaption>" if caption else ""
    return f'<figure class="hr-table {layout}">{"".join(seats)}{felt}{note}</figure>'


_CENTRES = {0: (100, 172), 1: (28, 100), 2: (100, 28), 3: (172, 100)}
OFFSETS = {"left": 1, "right": 3, "across": 2, "none": 0}


def _arrow(start: tuple[float, float], end: tuple[float, float], shift: float) -> str:
    (x1, y1), (x2, y2) = start, end
    length = math.hypot(x2 - x1, y2 - y1)
    ux, uy = (x2 - x1) / length, (y2 - y1) / length
    px, py = -uy * shift, ux * shift          # to one side, so that two arrows between the same seats part
    a = (x1 + ux * 24 + px, y1 + uy * 24 + py)
    b = (x2 - ux * 27 + px, y2 - uy * 27 + py)
    return (f'<line x1="{a[0]:.1f}" y1="{a[1]:.1f}" x2="{b[0]:.1f}" y2="{b[1]:.1f}" class="hr-arrow" '
            f'marker-end="url(#hr-head)"/>')


def pass_cycle_svg(direction: str, *, title: str = "") -> str:
    """Return four seats around a table, seat 0 at the bottom, with an arrow from each seat to the seat it passes
    to in ``direction`` (none: no arrow)."""
    offset = OFFSETS[direction]
    parts = ['<svg class="hr-cycle" viewBox="0 0 200 200" role="img" xmlns="http://www.w3.org/2000/svg">',
             f"<title>{escape.escape(title or direction)}</title>",
             '<defs><marker id="hr-head" viewBox="0 0 10 10" refX="8" refY="5" markerWidth="7" markerHeight="7" '
             'orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" class="hr-arrow-head"/></marker></defs>',
             '<rect x="52" y="52" width="96" height="96" rx="18" class="hr-felt-svg"/>']
    for seat in range(4) if offset else []:
        parts.append(_arrow(_CENTRES[seat], _CENTRES[(seat + offset) % 4], 5 if offset == 2 else 0))
    if not offset:
        parts.append('<text x="100" y="104" class="hr-svg-note">no pass</text>')
    for seat, (x, y) in _CENTRES.items():
        parts.append(f'<circle cx="{x}" cy="{y}" r="19" class="hr-seat-svg"/>'
                     f'<text x="{x}" y="{y + 5}" class="hr-seat-label">{seat}</text>')
    return "".join(parts) + "</svg>"


def pass_cycle_figure() -> str:
    """Return the table and the pass cycle of four players: play goes clockwise, and each round's direction."""
    rounds = [("round 1", "left", "each seat passes to the next seat clockwise, s + 1"),
              ("round 2", "right", "to the seat before, s − 1"), ("round 3", "across", "to the seat opposite, s + 2"),
              ("round 4", "none", "no cards change hands"), ]
    cells = "".join(f'<div class="hr-cycle-step">{pass_cycle_svg(d, title=f"{r}: pass {d}")}'
                    f"<p><strong>{r}: {d}</strong><br>{why}</p></div>" for r, d, why in rounds)
    return ('<figure class="hr-cycle-figure"><div class="hr-cycle-steps">' + cells + "</div>"
            "<figcaption>The table seen from above, four players: seats 0 to 3 clockwise, so a trick is played "
            "0, 1, 2, 3 from seat 0. The pass cycle <code>left-right-across-none</code> (the default) then starts "
            "again with round 5 passing left; with 3 or 5 players there is no across, and the cycle "
            "<code>left-right-none</code> is used.</figcaption></figure>")


def sweep_chart(rows: list[tuple[str, dict[str, int], dict[str, int]]], *, title: str) -> str:
    """Return a chart of a sweep of conformance runs: for each setting (``label``), a bar of its cases passed,
    failed and skipped (``counts``), and the rules it found deviations of with their counts (``rules``)."""
    width, row_height, top = 420, 46, 26
    height = top + row_height * len(rows) + 22
    total = max((sum(c.get(k, 0) for k in ("passed", "failed", "skipped")) for _, c, _ in rows), default=1) or 1
    bar = 250
    out = [f'<svg class="hr-chart" viewBox="0 0 {width} {height}" role="img" xmlns="http://www.w3.org/2000/svg">',
           f"<title>{escape.escape(title)}</title>",
           f'<text x="0" y="14" class="hr-chart-head">cases of each run: '
           '<tspan class="hr-c-passed">■ passed</tspan> <tspan class="hr-c-failed">■ failed</tspan> '
           '<tspan class="hr-c-skipped">■ skipped</tspan></text>']
    for i, (label, counts, rules) in enumerate(rows):
        y = top + i * row_height
        out.append(f'<text x="0" y="{y + 12}" class="hr-chart-label">{escape.escape(label)}</text>')
        x = 0.0
        for kind in ("passed", "failed", "skipped"):
            w = bar * counts.get(kind, 0) / total
            if w:
                out.append(f'<rect x="{x:.1f}" y="{y + 18}" width="{w:.1f}" height="14" class="hr-c-{kind}">'
                           f"<title>{counts.get(kind, 0)} {kind}</title></rect>")
            x += w
        found = ", ".join(f"{rule} {count}" for rule, count in rules.items())
        out.append(f'<text x="{bar + 8}" y="{y + 30}" class="hr-chart-{"bad" if rules else "ok"}">'
                   f'{escape.escape(found or "no deviation")}</text>')
    return "".join(out) + "</svg>"


def last_trick(case: Any) -> tuple[list[str], list[str], int]:
    """Return the hands as the last trick of a case's first round began, that trick's cards, and its leader."""
    from hearts_ref import CardSet
    from hearts_ref.game import Game
    first = case.rounds[0]
    game = Game.new(case.rules).deal_round(first.hands, direction=first.direction)
    hands, trick, leader = [str(h) for h in first.hands], [], 0
    for step in (s for s in first.steps if s.rejected_by is None):
        if step.kind == "pass":
            game = game.choose_pass(step.seat, CardSet(step.cards))
            continue
        state = game.round
        if not state.trick:
            hands = [str(state.hand(seat)) for seat in range(case.rules.players)]
            trick, leader = [], state.leader
        trick.append(str(step.card))
        game = game.play(step.card)
    return hands, trick, leader


def worked_examples(cases: list[Any], page: str, link: Any) -> str:
    """Return the worked examples of the sources among ``cases`` (one round each), each drawn once: the hands as
    the trick it speaks of began, and that trick; ``link(case)`` gives the words that link the case."""
    out = []
    for case in cases:
        if case.kind != "example" or len(case.rounds) != 1:
            continue
        hands, trick, leader = last_trick(case)
        out.append(table(hands, trick, leader=leader, caption=f"{link(case)}: {escape.escape(case.description)}"))
    return "\n\n".join(out)
