"""What reading OpenSpiel costs: its rounds replayed with and without reading what a judge must read.

A judged campaign in process (``campaign_efficiency.py``) compares, at every step of every
round, what OpenSpiel shows with what the reference shows: before each play its legal set,
after each play the seat to move and hearts broken, after each trick the points. This
benchmark replays on raw ``pyspiel`` the very rounds such a campaign plays (their deals,
passes and plays, recorded from a campaign first), in one run:

- ``moves``: the moves alone, OpenSpiel's legal actions asked before each play as a random
  player asks them (what ``engine alone`` of ``campaign_efficiency.py`` does);
- ``+ legal sets``: each legal set read as a set of cards (a bit mask of hearts-ref's card indices);
- ``+ seat to move``, ``+ hearts broken``, ``+ points``: the other fields read in turn;
- ``adapter``: hearts-ref's OpenSpiel adapter playing each round in one call (``trace_round``),
  which reads all of that and what the observations show after the deal and the passes.

The difference between ``moves`` and ``+ points`` is what reading OpenSpiel costs a judge before
it compares anything: part of the runner's share of a campaign, which no judge of every step
avoids. Every figure is the best of ``--repeat`` runs. Run from the repository root:

    python bench/openspiel_reading.py [--rounds N] [--repeat K]
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from hearts_ref import Rules  # noqa: E402
from hearts_ref.conformance.runner import run_differential  # noqa: E402
from hearts_ref.engines.openspiel import OpenSpielEngine  # noqa: E402
from hearts_ref.engines.openspiel_map import ACTION_OF_CARD, BIT_OF_ACTION, DIRECTION_ACTIONS, actions_of  # noqa: E402

READS = ("moves", "+ legal sets", "+ seat to move", "+ hearts broken", "+ points")


class Recorder(OpenSpielEngine):
    """OpenSpiel's adapter keeping every round it is sent in one call."""

    def __init__(self) -> None:
        super().__init__()
        self.rounds: list[tuple[Any, ...]] = []

    def trace_round(self, hands: Any, direction: str, passes: Any, cards: Any) -> Any:
        self.rounds.append((hands, direction, passes, cards))
        return super().trace_round(hands, direction, passes, cards)


def as_actions(sent: tuple[Any, ...]) -> tuple[int, list[int], list[int], list[int]]:
    """A round as OpenSpiel's actions: the pass direction, the deal card by card, the passes seat by seat, the plays."""
    hands, direction, passes, cards = sent
    dealt = [action for round_of_cards in zip(*(actions_of(hand.mask) for hand in hands)) for action in round_of_cards]
    passed = [action for _, chosen in sorted(passes, key=lambda p: p[0]) for action in actions_of(chosen.mask)]
    return DIRECTION_ACTIONS[direction], dealt, passed, [ACTION_OF_CARD[index] for index in cards]


def replay(game: Any, rounds: list[tuple[int, list[int], list[int], list[int]]], reads: int) -> float:
    """Seconds per round to replay ``rounds`` on ``game``, reading the first ``reads`` fields of :data:`READS` after
    the moves themselves."""
    bit = BIT_OF_ACTION.__getitem__
    start = time.perf_counter()
    for direction, dealt, passed, plays in rounds:
        state = game.new_initial_state()
        apply_action, legal_actions = state.apply_action, state.legal_actions
        current_player, hearts_broken, points = state.current_player, state.hearts_broken, state.points
        apply_action(direction)
        for action in dealt:
            apply_action(action)
        for action in passed:
            apply_action(action)
        legal, seats, broken, taken = [], [], [], []
        for n, action in enumerate(plays, 1):
            actions = legal_actions()
            if reads >= 1:
                legal.append(sum(map(bit, actions)))
            apply_action(action)
            if reads >= 2:
                seats.append(current_player())
            if reads >= 3:
                broken.append(hearts_broken())
            if reads >= 4 and n % 4 == 0:
                taken.append((points(0), points(1), points(2), points(3)))
        state.returns()
    return (time.perf_counter() - start) / len(rounds)


def adapter(rules: Rules, sent: list[tuple[Any, ...]]) -> float:
    engine = OpenSpielEngine()
    start = time.perf_counter()
    for round_sent in sent:
        engine.new_game(rules)
        engine.trace_round(*round_sent)
    return (time.perf_counter() - start) / len(sent)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=2500, help="rounds of the campaign recorded (default 2500)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--repeat", type=int, default=5, help="best of this many runs of each part")
    args = parser.parse_args()
    rules = Rules.preset("openspiel")
    recorder = Recorder()
    report = run_differential(recorder, rules, args.rounds, args.seed, policies=("uniform",), shrink_budget=0)
    if report.summary()["counts"]["failed"]:
        raise SystemExit("the campaign found deviations: this benchmark needs the rounds OpenSpiel agrees on")
    rounds = [as_actions(sent) for sent in recorder.rounds]
    game = recorder.game
    best = {name: float("inf") for name in (*READS, "adapter")}
    for _ in range(args.repeat):   # the parts in turn, run after run: a change of load slows each alike
        for reads, name in enumerate(READS):
            best[name] = min(best[name], replay(game, rounds, reads))
        best["adapter"] = min(best["adapter"], adapter(rules, recorder.rounds))
    print(f"{len(rounds)} rounds of a judged campaign under the openspiel preset, replayed on pyspiel")
    for name in (*READS, "adapter"):
        print(f"{name:<16} {best[name] * 1e3:7.3f} ms per round  (+{(best[name] - best['moves']) * 1e3:.3f})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
