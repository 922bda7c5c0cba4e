"""Games per second on 2 Ray workers against 1, measured side by side in one run.

Starts one local Ray cluster with 2 CPUs, warms both workers (each imports maester and compiles the
bundle once), then plays the same games (same specs, seeds `--seed`..) with at most 1 and then at most 2
games running at once, and prints games/s of each and their ratio (goal >= 1.8x on a 2-core machine). The
two runs must return identical records (the same games), which is checked. Ray's start-up is not timed.
As a control, the same games are also played by one and by two plain processes (multiprocessing, no Ray):
that ratio is what the machine allows at the moment (on a shared machine it can be far below 2).

    python benchmarks/bench_ray.py                   # 16 heuristic base-3p games per side
    python benchmarks/bench_ray.py --games 40 --setup base-6p --agents random
"""

from __future__ import annotations

import argparse
import sys
import time


def parse_args(argv):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--games", type=int, default=16, help="games per side (default 16)")
    p.add_argument("--setup", default="base-3p", help="setup id (default base-3p)")
    p.add_argument("--agents", default="heuristic", choices=["random", "heuristic"], help="agent of every house")
    p.add_argument("--seed", type=int, default=0, help="first seed")
    p.add_argument("--rounds", type=int, default=None, help="end games after this round")
    p.add_argument("--batch", type=int, default=None, help="games per Ray task (default: as `maester simulate`, "
                   "about 4 tasks a worker)")
    return p.parse_args(argv)


def plain_processes(specs: list) -> tuple[float, float]:
    """Games/s of the same games in one process and split over two (the machine's ceiling, no Ray)."""
    import multiprocessing as mp
    from dataclasses import asdict

    from maester.env.simulate import play_batch  # an importable function: spawned processes must find it

    docs = [asdict(s) for s in specs]
    play_batch(docs[:1])
    t0 = time.perf_counter()
    play_batch(docs)
    one = len(docs) / (time.perf_counter() - t0)
    with mp.get_context("spawn").Pool(2) as pool:
        pool.map(play_batch, [docs[:1], docs[1:2]])  # warm both processes
        t0 = time.perf_counter()
        pool.map(play_batch, [docs[0::2], docs[1::2]])
        two = len(docs) / (time.perf_counter() - t0)
    return one, two


def main(argv=None) -> dict:
    import ray

    from maester.env.simulate import GameSpec, run_games

    args = parse_args(argv)
    specs = [GameSpec(i, args.setup, args.seed + i, {}, args.agents, None, args.rounds) for i in range(args.games)]
    warm = [GameSpec(i, args.setup, 10_000 + i, {}, "random", None, 1) for i in range(4)]
    started = not ray.is_initialized()
    if started:
        # a private cluster, whatever else runs on the machine (as `maester simulate`)
        ray.init(address="local", num_cpus=2, include_dashboard=False, log_to_driver=False)
    try:
        run_games(warm, in_flight=2)
        timed = {}
        records = {}
        for workers in (1, 2):
            t0 = time.perf_counter()
            records[workers] = run_games(specs, in_flight=workers, batch=args.batch)
            timed[workers] = args.games / (time.perf_counter() - t0)
    finally:
        if started:
            ray.shutdown()
    if records[1] != records[2]:
        raise SystemExit("1 and 2 workers played different games")
    one, two = plain_processes(specs)
    result = {"games": args.games, "setup": args.setup, "one_worker_games_per_s": timed[1],
              "two_workers_games_per_s": timed[2], "ratio": timed[2] / timed[1],
              "plain_one_games_per_s": one, "plain_two_games_per_s": two, "plain_ratio": two / one,
              "ray_one_cost_per_game": one / timed[1]}
    print(f"{args.games} {args.agents} {args.setup} games per side, identical results on both")
    print(f"  1 Ray worker:  {timed[1]:7.2f} games/s")
    print(f"  2 Ray workers: {timed[2]:7.2f} games/s   ratio {result['ratio']:.2f}x (goal >= 1.8x)")
    print(f"  cost per game, 1 Ray worker / in this process: {result['ray_one_cost_per_game']:.2f}x (goal <= 1.2x)")
    print(f"  control, no Ray: 1 process {one:.2f}, 2 processes {two:.2f} games/s: ratio {result['plain_ratio']:.2f}x "
          "(what the machine allows now)")
    return result


if __name__ == "__main__":
    main(sys.argv[1:])
