"""Rounds per second: the reference engine against OpenSpiel's C++ Hearts, in one run, same loop shape.

Each side plays N full rounds: deal 52 cards at random, no passing, then uniformly random
legal plays until the round ends. Prints rounds/s of each and, last, the ratio
reference / OpenSpiel. Run: ``python bench/rounds_vs_openspiel.py [--rounds N] [--seed S]``.
"""

from __future__ import annotations

import argparse
import random
import time

from hearts_ref import Rules, deal, start_round
from hearts_ref.simulate import random_card


def reference_rounds(n: int, seed: int) -> float:
    rules = Rules(pass_cards=False)
    rng = random.Random(seed)
    start = time.perf_counter()
    for _ in range(n):
        state = start_round(rules, deal(rules, rng=rng))
        while not state.is_over:
            state = state.play(random_card(state, rng))
        state.score()
    return n / (time.perf_counter() - start)


def openspiel_rounds(n: int, seed: int) -> float:
    import pyspiel

    game = pyspiel.load_game("hearts", {"pass_cards": False})
    rng = random.Random(seed)
    start = time.perf_counter()
    for _ in range(n):
        state = game.new_initial_state()
        while state.is_chance_node():   # the pass direction (always "no pass" here), then the deal
            state.apply_action(rng.choice(state.chance_outcomes())[0])
        while not state.is_terminal():
            state.apply_action(rng.choice(state.legal_actions()))
        state.returns()
    return n / (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--repeat", type=int, default=3, help="best of this many runs, each side")
    args = parser.parse_args()
    ours = max(reference_rounds(args.rounds, args.seed + i) for i in range(args.repeat))
    theirs = max(openspiel_rounds(args.rounds, args.seed + i) for i in range(args.repeat))
    print(f"hearts-ref  {ours:10.0f} rounds/s")
    print(f"OpenSpiel   {theirs:10.0f} rounds/s")
    print(f"ratio       {ours / theirs:10.2f}x  (hearts-ref / OpenSpiel)")


if __name__ == "__main__":
    main()
