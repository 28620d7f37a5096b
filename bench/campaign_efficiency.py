"""How much of what the engines allow a judged campaign keeps: engine alone, reference alone, campaign.

In one run, on rounds of the same shape (the rules of the campaign, a random pass direction,
random passes, uniformly random legal plays), it measures:

- ``engine alone``: the engine by its own means (OpenSpiel's ``pyspiel`` state, no adapter);
  with ``--engine stdio``, ``hearts-ref serve`` driven over the protocol without a judge;
- ``reference alone``: hearts-ref's immutable :class:`~hearts_ref.round.RoundState`;
- ``campaign``: :func:`~hearts_ref.conformance.runner.run_differential`, every step judged
  (in process, each round sent to OpenSpiel in one go and compared step by step:
  :mod:`hearts_ref.conformance.quick`); with ``--step-by-step`` also the campaign whose loop
  makes each move on its own, measured in the same run.

Playing one round on each engine one after the other takes ``1/E + 1/R`` seconds, so the
two engines allow ``1 / (1/E + 1/R)`` judged rounds per second; the *efficiency* is the
campaign's rounds/s divided by that. Run from the repository root:

    python bench/campaign_efficiency.py                      # OpenSpiel, in process
    python bench/campaign_efficiency.py --engine stdio       # hearts-ref serve, over stdio
    python bench/campaign_efficiency.py --profile            # where the campaign's time goes
    python bench/campaign_efficiency.py --step-by-step       # and the loop of one move at a time

Every figure is the best of ``--repeat`` runs of each part (a busy machine only slows a run
down), the parts run in turn, run after run; the load average at the start is printed with them.
In process, the efficiency is also given by CPU time (rounds per second of CPU this process
used), which other programs on a shared machine change far less than the elapsed time.
"""

from __future__ import annotations

import argparse
import cProfile
import os
import pstats
import random
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from hearts_ref import Rules, deal, start_round  # noqa: E402
from hearts_ref.conformance.policies import POLICY_NAMES  # noqa: E402
from hearts_ref.conformance.runner import run_differential  # noqa: E402
from hearts_ref.simulate import random_card, random_pass  # noqa: E402

DIRECTIONS = ("left", "right", "across", "none")


def reference_alone(rules: Rules, rounds: int, seed: int) -> float:
    """Rounds/s of the reference: deal, pass, play to the end, score."""
    rng = random.Random(seed)
    start = time.perf_counter()
    for _ in range(rounds):
        state = start_round(rules, deal(rules, rng=rng), direction=rng.choice(DIRECTIONS))
        while state.passing:
            state = state.choose_pass(state.to_move, random_pass(state, state.to_move, rng))
        while not state.is_over:
            state = state.play(random_card(state, rng))
        state.score()
    return rounds / (time.perf_counter() - start)


def openspiel_alone(rules: Rules, rounds: int, seed: int) -> float:
    """Rounds/s of OpenSpiel's hearts by itself: chance (direction, deal), passes and plays at random."""
    import pyspiel

    from hearts_ref.engines.openspiel import openspiel_parameters

    game = pyspiel.load_game("hearts", openspiel_parameters(rules))
    rng = random.Random(seed)
    deck = list(range(52))
    start = time.perf_counter()
    for _ in range(rounds):
        state = game.new_initial_state()
        state.apply_action(rng.randrange(4) if rules.pass_cards else 0)   # the pass direction
        rng.shuffle(deck)
        for action in deck:                                                # the deal, card by card
            state.apply_action(action)
        while not state.is_terminal():                                     # the passes, then the plays
            actions = state.legal_actions()
            state.apply_action(actions[int(rng.random() * len(actions))])
        state.returns()
    return rounds / (time.perf_counter() - start)


def _timed(alone: Any, rules: Rules, rounds: int, seed: int) -> tuple[float, float]:
    """Rounds/s of a part by itself (``alone``), and rounds per second of this process's CPU time."""
    cpu_start = time.process_time()
    rate = alone(rules, rounds, seed)
    return rate, rounds / (time.process_time() - cpu_start)


def serve_command() -> list[str]:
    return [sys.executable, "-m", "hearts_ref", "serve"]


def stdio_alone(rules: Rules, rounds: int, seed: int) -> float:
    """Rounds/s of ``hearts-ref serve`` driven over stdio, one command at a time, nothing compared."""
    from hearts_ref.engines.stdio import StdioEngine

    rng = random.Random(seed)
    played = 0
    with StdioEngine(serve_command(), cwd=ROOT) as engine:
        start = time.perf_counter()
        while played < rounds:
            engine.new_game(rules)
            step = engine.last_step
            number = 0
            while not step.observation.game_over and played < rounds:
                number += 1
                hands = deal(rules, rng=rng)
                step = engine.start_round_observed(hands, rules.pass_direction(number))
                while step.observation.phase == "pass":
                    seat = step.observation.to_move
                    step = engine.pass_observed(seat, random_pass(start_round(rules, hands), seat, rng))
                while step.observation.phase == "play":
                    legal = list(step.legal)
                    step = engine.play_observed(legal[int(rng.random() * len(legal))])
                played += 1
        return rounds / (time.perf_counter() - start)


def cpu_seconds(pid: int | None = None) -> float:
    """User plus system CPU time of this process, or of process ``pid`` (Linux /proc)."""
    if pid is None:
        return time.process_time()
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def campaign(engine: str, rules: Rules, games: int, seed: int, policies: tuple[str, ...],
             step_by_step: bool = False) -> tuple[int, float, str]:
    """Judged rounds and seconds of a differential campaign (no negative checks), and its CPU time per round.

    ``step_by_step``: OpenSpiel without its round in one call, so that the loop makes each move on its own.
    """
    if engine == "stdio":
        from hearts_ref.engines.stdio import StdioEngine

        judged = StdioEngine(serve_command(), cwd=ROOT)
    else:
        from hearts_ref.engines.openspiel import OpenSpielEngine

        class OneMoveAtATime(OpenSpielEngine):
            trace_round = None

        judged = OneMoveAtATime() if step_by_step else OpenSpielEngine()
    pid = getattr(judged, "pid", None)
    start, own, other = time.perf_counter(), cpu_seconds(), cpu_seconds(pid) if pid else 0.0
    report = run_differential(judged, rules, games, seed, policies=policies, shrink_budget=0, spec=engine)
    seconds = time.perf_counter() - start
    own, other = cpu_seconds() - own, (cpu_seconds(pid) - other if pid else 0.0)
    close = getattr(judged, "close", None)
    if close:
        close()
    failed = report.summary()["counts"]["failed"]
    if failed:
        raise SystemExit(f"the campaign found {failed} deviations: this benchmark needs a conforming engine")
    cpu = f"CPU per round: runner {own / report.rounds * 1e3:.2f} ms" + (
        f", engine program {other / report.rounds * 1e3:.2f} ms" if pid else "")
    return report.rounds, seconds, cpu


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--engine", choices=("openspiel", "stdio"), default="openspiel")
    parser.add_argument("--games", type=int, default=None, help="campaign games (default 2500 openspiel, 30 stdio)")
    parser.add_argument("--rounds", type=int, default=None, help="rounds of each engine alone (default 2500 / 300)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--policies", default="uniform",
                        help="the campaign's policies, comma-separated, or 'all' (default uniform)")
    parser.add_argument("--repeat", type=int, default=3, help="best of this many runs of each part")
    parser.add_argument("--profile", action="store_true", help="print where the campaign's time goes, by function")
    parser.add_argument("--step-by-step", action="store_true",
                        help="also measure the campaign whose loop makes each move on its own (in process)")
    args = parser.parse_args()
    stdio = args.engine == "stdio"
    policies = POLICY_NAMES if args.policies == "all" else tuple(args.policies.split(","))
    rules = Rules() if stdio else Rules.preset("openspiel")
    games = args.games or (30 if stdio else 2500)
    rounds = args.rounds or (300 if stdio else 2500)
    print(f"load average at start: {' '.join(f'{x:.2f}' for x in os.getloadavg())} on {os.cpu_count()} CPUs")
    if args.profile:
        profiler = cProfile.Profile()
        profiler.runcall(campaign, args.engine, rules, games, args.seed, policies)
        stats = pstats.Stats(profiler)
        total = sum(row[2] for row in stats.stats.values())
        print(f"{'own time':>9}  {'calls':>9}  function")
        for own, calls, (path, line, name) in sorted(((row[2], row[1], func) for func, row in stats.stats.items()),
                                                     reverse=True)[:25]:
            print(f"{100 * own / total:8.1f}%  {calls:9d}  {name} ({path.rsplit('/', 1)[-1]}:{line})")
        return 0
    alone = stdio_alone if stdio else openspiel_alone
    # The parts one after the other, run after run (a change of load then slows each part alike), each the best of
    # its runs; in process, also by the CPU time this process used (what other programs on the machine change least).
    engine_runs, reference_runs, runs = [], [], []
    for i in range(args.repeat):
        engine_runs.append(_timed(alone, rules, rounds, args.seed + i))
        reference_runs.append(_timed(reference_alone, rules, rounds, args.seed + i))
        cpu_start = time.process_time()
        runs.append(campaign(args.engine, rules, games, args.seed, policies) + (time.process_time() - cpu_start,))
    engine_rate = max(rate for rate, _ in engine_runs)
    reference_rate = max(rate for rate, _ in reference_runs)
    judged, seconds, cpu, _ = max(runs, key=lambda run: run[0] / run[1])
    judged_rate = judged / seconds
    allowed = 1 / (1 / engine_rate + 1 / reference_rate)
    if not stdio:
        allowed_cpu = 1 / (1 / max(rate for _, rate in engine_runs) + 1 / max(rate for _, rate in reference_runs))
        cpu_rate = max(run[0] / run[3] for run in runs)
    name = "hearts-ref serve (stdio)" if stdio else "OpenSpiel (pyspiel)"
    print(f"engine alone     {engine_rate:9.0f} rounds/s  {name}")
    print(f"reference alone  {reference_rate:9.0f} rounds/s  hearts-ref RoundState")
    print(f"one after other  {allowed:9.0f} rounds/s  1 / (1/engine + 1/reference)")
    print(f"campaign         {judged_rate:9.0f} rounds/s  {judged} judged rounds in {seconds:.2f} s, "
          f"policies {','.join(policies)}")
    print(f"efficiency       {judged_rate / allowed:9.2f}")
    if not stdio:
        print(f"  by CPU time    {cpu_rate / allowed_cpu:9.2f}  (campaign {cpu_rate:.0f} rounds per CPU second, "
              f"the engines one after the other {allowed_cpu:.0f})")
    print(f"                 {cpu}")
    if args.step_by_step and not stdio:
        runs = [campaign(args.engine, rules, games, args.seed, policies, step_by_step=True)
                for _ in range(args.repeat)]
        judged, seconds, cpu = max(runs, key=lambda run: run[0] / run[1])
        print(f"step by step     {judged / seconds:9.0f} rounds/s  efficiency {judged / seconds / allowed:.2f}, {cpu}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
