"""Rounds per second of a differential loop over stdio against ``hearts-ref serve``.

The loop is the conformance runner's inner loop: the same random deals, passes and plays
go to the engine and to the in-process reference, and the observation and legal set in
each of the engine's replies is compared with the reference's at every step.

Every play names its seat, as the runner sends it to an engine that declares ``play_seat``
(``hearts-ref serve`` does).

- ``lockstep``: one round trip per step (``play_observed``), 57 round trips a round;
- ``interface``: the plain Engine interface, as a runner written for any engine calls it
  (``legal_plays()``, ``play()``, ``observe()`` per step): still one round trip per step;
- ``pipelined``: the round's plays are chosen on the reference and sent at once
  (``play_many``), replies compared in order; 6 round trips a round;
- ``rounds``: the whole round, its deal, passes and plays, chosen on the reference and sent
  at once (``steps_many``), each reply compared as it is read, while the engine works out
  the next (what the conformance runner does); 1 round trip a round.

    python bench/stdio_rounds.py                      # every mode, 1000 rounds each, 3 runs
    python bench/stdio_rounds.py --mode lockstep --profile client   # CPU profile of the runner side
    python bench/stdio_rounds.py --mode lockstep --profile server   # CPU profile of ``hearts-ref serve``

Besides wall-clock rounds/s it prints the CPU time per round of each side, which a busy
machine disturbs less, and the load average when the run started.
"""

from __future__ import annotations

import argparse
import cProfile
import os
import pstats
import random
import resource
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from hearts_ref import CARDS, CardSet, ReferenceEngine, Rules, deal  # noqa: E402
from hearts_ref.engines import StdioEngine, Step  # noqa: E402


def check(outcome: object, expected: tuple, where: str) -> None:
    """Stop unless the engine's step matches the reference's (observation, legal set)."""
    if not isinstance(outcome, Step) or (outcome.observation, outcome.legal) != expected:
        raise SystemExit(f"difference at {where}:\n  engine    {outcome}\n  reference {expected}")


def now(reference: ReferenceEngine) -> tuple:
    return reference.observe(), reference.legal_plays()


def pick(mask: int, rng: random.Random) -> int:
    """A uniformly random card index of a non-empty mask."""
    for _ in range(rng.randrange(mask.bit_count())):
        mask &= mask - 1
    return (mask & -mask).bit_length() - 1


def differential_rounds(engine: StdioEngine, rules: Rules, rounds: int, seed: int, *, mode: str) -> int:
    """Play ``rounds`` rounds on the engine and the reference side by side; return the round trips."""
    rng = random.Random(seed)
    reference = ReferenceEngine()
    played = trips = 0
    while played < rounds:
        reference.new_game(rules)
        engine.new_game(rules)
        check(engine.last_step, now(reference), "new_game")
        number = 0
        while not reference.game.over and played < rounds:
            number += 1
            hands = deal(rules, rng=rng, dealer=(number - 1) % rules.players)
            direction = rules.pass_direction(number)
            if mode == "rounds":
                trips += whole_round(engine, reference, hands, direction, rng, number)
                played += 1
                continue
            step = engine.start_round_observed(hands, direction)
            reference.start_round(hands, direction)
            check(step, now(reference), f"round {number} start")
            trips += 1
            while reference.game.round.passing:
                seat = reference.game.round.to_move
                cards = CardSet(rng.sample(list(reference.game.round.hand(seat)), 3))
                step = engine.pass_observed(seat, cards)
                reference.pass_cards(seat, cards)
                check(step, now(reference), f"round {number}, pass of seat {seat}")
                trips += 1
            if mode == "pipelined":
                plays, seats, expected = [], [], []
                while reference.game.round is not None:
                    card = CARDS[pick(reference.game.round.legal, rng)]
                    seats.append(reference.game.round.to_play)
                    reference.play(card)
                    plays.append(card)
                    expected.append(now(reference))
                for k, outcome in enumerate(engine.play_many(plays, seats)):
                    check(outcome, expected[k], f"round {number}, play {k + 1} ({plays[k]})")
                trips += 1
            elif mode == "interface":
                while reference.game.round is not None:
                    card = CARDS[pick(reference.game.round.legal, rng)]
                    if engine.legal_plays() != reference.legal_plays():
                        raise SystemExit(f"legal sets differ before {card}")
                    engine.play(card, reference.game.round.to_play)
                    reference.play(card)
                    if engine.observe() != reference.observe():
                        raise SystemExit(f"observations differ after {card}")
                    trips += 1
            else:
                while reference.game.round is not None:
                    card = CARDS[pick(reference.game.round.legal, rng)]
                    step = engine.play_observed(card, reference.game.round.to_play)
                    reference.play(card)
                    check(step, now(reference), f"round {number}, play {card}")
                    trips += 1
            played += 1
    return trips


def whole_round(engine: StdioEngine, reference: ReferenceEngine, hands: tuple[CardSet, ...], direction: str,
                rng: random.Random, number: int) -> int:
    """One round sent in one go (``steps_many``), each reply compared as it comes; return the round trips: 1."""
    reference.start_round(hands, direction)
    moves, expected = [("deal", (hands, direction))], [now(reference)]
    while reference.game.round.passing:
        seat = reference.game.round.to_move
        cards = CardSet(rng.sample(list(reference.game.round.hand(seat)), 3))
        reference.pass_cards(seat, cards)
        moves.append(("pass", (seat, cards)))
        expected.append(now(reference))
    while reference.game.round is not None:
        card = CARDS[pick(reference.game.round.legal, rng)]
        moves.append(("play", (card, reference.game.round.to_play)))
        reference.play(card)
        expected.append(now(reference))
    for k, outcome in enumerate(engine.steps_many(moves)):
        check(outcome, expected[k], f"round {number}, move {k + 1} ({moves[k][0]})")
    return 1


def cpu_seconds(pid: int) -> float:
    """User plus system CPU time of process ``pid`` so far (Linux /proc)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def own_cpu_seconds() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def measure(args: argparse.Namespace, mode: str, profile: str | None = None) -> tuple[float, float, float]:
    """Run once; return (rounds/s, runner CPU ms per round, server CPU ms per round)."""
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    argv = [sys.executable, "-m", "hearts_ref", "serve"]
    profile_file = None
    if profile == "server":
        profile_file = tempfile.NamedTemporaryFile(suffix=".prof", delete=False).name
        argv = [sys.executable, "-c", "import cProfile, time; from hearts_ref.cli import main; "
                "profiler = cProfile.Profile(time.process_time); profiler.runcall(main, ['serve']); "
                f"profiler.dump_stats({profile_file!r})"]
    with StdioEngine(argv, env=env, cwd=ROOT) as engine:
        profiler = cProfile.Profile(time.process_time) if profile == "client" else None
        server_start, own_start, start = cpu_seconds(engine.pid), own_cpu_seconds(), time.perf_counter()
        if profiler:
            profiler.enable()
        sent = engine.commands_sent
        trips = differential_rounds(engine, Rules(), args.rounds, args.seed, mode=mode)
        commands = engine.commands_sent - sent
        if profiler:
            profiler.disable()
        elapsed = time.perf_counter() - start
        own, server = own_cpu_seconds() - own_start, cpu_seconds(engine.pid) - server_start
    if profiler:
        pstats.Stats(profiler).sort_stats("tottime").print_stats(20)
    if profile_file:
        time.sleep(0.3)
        pstats.Stats(profile_file).sort_stats("tottime").print_stats(20)
    rate = args.rounds / elapsed
    print(f"  {mode:9}  {args.rounds} rounds, {commands} commands in {trips} round trips, "
          f"{elapsed:.2f} s: {rate:5.0f} rounds/s, {trips / elapsed:6.0f} round trips/s; CPU per round: "
          f"runner {own / args.rounds * 1e3:.2f} ms, server {server / args.rounds * 1e3:.2f} ms", flush=True)
    return rate, own / args.rounds * 1e3, server / args.rounds * 1e3


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=1000)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--mode", choices=("lockstep", "interface", "pipelined", "rounds", "all"), default="all")
    parser.add_argument("--profile", choices=("client", "server"), default=None,
                        help="print a CPU-time profile of one side (one run)")
    args = parser.parse_args()
    modes = ["lockstep", "interface", "pipelined", "rounds"] if args.mode == "all" else [args.mode]
    print(f"load average at start: {' '.join(f'{x:.2f}' for x in os.getloadavg())} on {os.cpu_count()} CPUs")
    if args.profile:
        measure(args, modes[0], args.profile)
        return 0
    for mode in modes:
        rates = [measure(args, mode)[0] for _ in range(args.runs)]
        print(f"{mode}: median {statistics.median(rates):.0f} rounds/s, "
              f"best {max(rates):.0f} rounds/s over {args.runs} runs")
    return 0


if __name__ == "__main__":
    sys.exit(main())
