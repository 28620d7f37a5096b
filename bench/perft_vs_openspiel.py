"""Perft speed: hearts-ref's reference engine against OpenSpiel's C++ ``hearts``, on the same deals.

Both count the legal play sequences from the first lead of a fixed deal to a depth, counting the
last level from the legal move list (bulk counting), in one run of this script:

- hearts-ref: :func:`hearts_ref.perft.perft` over immutable :class:`~hearts_ref.round.RoundState` s;
- OpenSpiel: ``state.clone()`` and ``apply_action`` on ``pyspiel.load_game("hearts", {"pass_cards": False})``.

The deals are dealt in OpenSpiel by its chance actions: first the pass direction (only "No Pass"
without passing), then 52 deal actions, the k-th card going to player k % 4. OpenSpiel's card
index is ``rank * 4 + suit`` with suits C D H S; the mapping is checked against ``state.to_string()``
before anything is counted, and the two engines must agree on every count.

Usage: ``python bench/perft_vs_openspiel.py [--depth 9] [--deal NAME ...] [--json]``
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import pyspiel  # noqa: E402

from hearts_ref.cards import Card, Suit  # noqa: E402
from hearts_ref.perft import load_perft, perft, perft_names  # noqa: E402
from hearts_ref.round import start_round  # noqa: E402
from hearts_ref.variants import Rules  # noqa: E402

OPENSPIEL_SUITS = {Suit.CLUBS: 0, Suit.DIAMONDS: 1, Suit.HEARTS: 2, Suit.SPADES: 3}
RANK_LETTERS = "23456789TJQKA"


def openspiel_index(card: Card) -> int:
    """OpenSpiel's action for ``card``: rank * 4 + suit, suits in the order C D H S."""
    return int(card.rank) * 4 + OPENSPIEL_SUITS[card.suit]


def openspiel_deal(game: pyspiel.Game, hands: tuple) -> pyspiel.State:
    """Return OpenSpiel's state at the first lead with these hands (player k holds hands[k])."""
    state = game.new_initial_state()
    state.apply_action(state.legal_actions()[0])          # the pass direction: "No Pass"
    ordered = [list(hand) for hand in hands]
    for k in range(52):
        state.apply_action(openspiel_index(ordered[k % 4][k // 4]))
    return state


def check_mapping(state: pyspiel.State, hands: tuple) -> None:
    """Stop unless OpenSpiel's own picture of the deal shows exactly ``hands`` (N E S W = seats 0 1 2 3).

    The picture has North's four suit lines, then West and East side by side, then South's.
    """
    lines = state.to_string().splitlines()[2:14]
    seen: dict[int, set[str]] = {0: set(), 1: set(), 2: set(), 3: set()}
    for i, line in enumerate(lines):
        parts = re.findall(r"([SHDC]) *([AKQJT2-9]*)", line)
        seats = [0] if i < 4 else [3, 1] if i < 8 else [2]
        if len(parts) != len(seats):
            raise SystemExit(f"cannot read OpenSpiel's deal line {line!r}")
        for seat, (suit, ranks) in zip(seats, parts):
            seen[seat] |= {rank + suit for rank in ranks}
    for seat, hand in enumerate(hands):
        ours = {RANK_LETTERS[int(c.rank)] + c.suit.letter for c in hand}
        if ours != seen[seat]:
            raise SystemExit(f"card mapping check failed for seat {seat}: OpenSpiel shows {sorted(seen[seat])}, "
                             f"hearts-ref dealt {sorted(ours)}")


def openspiel_perft(state: pyspiel.State, depth: int) -> tuple[int, int]:
    """Return (sequences, states applied) of OpenSpiel's perft by clone and apply."""
    applied = 0

    def walk(st: pyspiel.State, d: int) -> int:
        nonlocal applied
        actions = st.legal_actions()
        if d == 1:
            return len(actions)
        total = 0
        for action in actions:
            child = st.clone()
            child.apply_action(action)
            applied += 1
            total += walk(child, d - 1)
        return total

    return walk(state, depth), applied


def timed(function, *args):
    start = time.perf_counter()
    value = function(*args)
    return value, max(time.perf_counter() - start, 1e-9)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--depth", type=int, default=9, help="plays from the first lead (default 9)")
    parser.add_argument("--deal", action="append", help="perft deals of spec/perft (default: every 4-player deal)")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args()
    game = pyspiel.load_game("hearts", {"pass_cards": False})
    rules = Rules.preset("openspiel")           # OpenSpiel's defaults: any heart and the Q♠ break hearts
    rows = []
    for name in args.deal or perft_names():
        deal = load_perft(name)
        if deal.rules.players != 4 or deal.rules.can_lead_any_club:
            continue
        hands = deal.hands
        os_state = openspiel_deal(game, hands)
        check_mapping(os_state, hands)
        ours_state = start_round(rules, hands, direction="none")
        ours, ours_time = timed(perft, ours_state, args.depth)
        (theirs, applied), theirs_time = timed(openspiel_perft, os_state, args.depth)
        if ours != theirs:
            raise SystemExit(f"{name}: perft({args.depth}) differs: hearts-ref {ours}, OpenSpiel {theirs}")
        rows.append({"deal": name, "depth": args.depth, "sequences": ours, "states_applied": applied,
                     "hearts_ref_s": ours_time, "openspiel_s": theirs_time,
                     "hearts_ref_per_s": round(ours / ours_time), "openspiel_per_s": round(theirs / theirs_time),
                     "hearts_ref_plays_per_s": round(applied / ours_time),
                     "openspiel_plays_per_s": round(applied / theirs_time)})
    total_ours = sum(r["hearts_ref_s"] for r in rows)
    total_theirs = sum(r["openspiel_s"] for r in rows)
    sequences = sum(r["sequences"] for r in rows)
    applied = sum(r["states_applied"] for r in rows)
    summary = {"sequences": sequences, "states_applied": applied,
               "hearts_ref_per_s": round(sequences / total_ours), "openspiel_per_s": round(sequences / total_theirs),
               "hearts_ref_plays_per_s": round(applied / total_ours),
               "openspiel_plays_per_s": round(applied / total_theirs), "ratio": round(total_theirs / total_ours, 2)}
    if args.json:
        for r in rows:
            r["hearts_ref_s"], r["openspiel_s"] = round(r["hearts_ref_s"], 4), round(r["openspiel_s"], 4)
        print(json.dumps({"rows": rows, "summary": summary}, indent=1))
        return 0
    print("sequences/s counts the leaves (the last level read from the legal list); plays/s the states built")
    print(f"{'deal':<14} {'depth':>5} {'sequences':>10} {'hearts-ref seq/s':>17} {'OpenSpiel seq/s':>16} "
          f"{'hearts-ref plays/s':>19} {'OpenSpiel plays/s':>18}")
    for r in rows:
        print(f"{r['deal']:<14} {r['depth']:>5} {r['sequences']:>10} {r['hearts_ref_per_s']:>17} "
              f"{r['openspiel_per_s']:>16} {r['hearts_ref_plays_per_s']:>19} {r['openspiel_plays_per_s']:>18}")
    print(f"all deals: {sequences} sequences, {applied} plays; hearts-ref {summary['hearts_ref_per_s']} seq/s "
          f"({summary['hearts_ref_plays_per_s']} plays/s), OpenSpiel {summary['openspiel_per_s']} seq/s "
          f"({summary['openspiel_plays_per_s']} plays/s); hearts-ref runs at {summary['ratio']}x OpenSpiel's "
          "speed; the counts are equal on every deal")
    return 0


if __name__ == "__main__":
    sys.exit(main())
