"""Throughput of complete games: games/second, decisions/second, decisions per game.

Plays N complete games of one setup on one core (one process, one thread), seeds 0..N-1, each house
answered by a `random` or `heuristic` agent, and prints wall-clock numbers measured with
time.perf_counter. Compiling the bundled content is timed separately and not counted.

    python benchmarks/bench_games.py                       # 100 random base-6p games
    python benchmarks/bench_games.py --games 500 --setup base-4p --agents heuristic
"""

from __future__ import annotations

import argparse
import platform
import statistics
import sys
import time

from maester.interpreter.core.rules import Rules
from maester.interpreter.frontends.agents import agents_for
from maester.interpreter.mod import new_game


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--games", type=int, default=100, help="complete games to play (default 100)")
    p.add_argument("--setup", default="base-6p", help="setup id (default base-6p)")
    p.add_argument("--agents", choices=["random", "heuristic"], default="random", help="agent kind (default random)")
    p.add_argument("--seed", type=int, default=0, help="first seed (default 0); games use seed, seed+1, ...")
    return p.parse_args(argv)


def play_one(rules: Rules, setup: str, seed: int, kind: str) -> tuple[int, int, float]:
    """(decisions, events, seconds) of one complete game, agents' thinking included."""
    t0 = time.perf_counter()
    g = new_game(rules, setup, seed=seed)
    agents = agents_for(g.state.houses, kind, seed=seed)
    while g.decision is not None:
        d = g.decision
        g.answer(agents[d.house].act(g, d))
    elapsed = time.perf_counter() - t0
    if not g.over:
        raise RuntimeError(f"setup {setup}, seed {seed}: the game stopped before its end")
    return len(g.answers), len(g.events), elapsed


def main(argv: list[str] | None = None, rules: Rules | None = None) -> dict:
    args = parse_args(argv)
    if args.games < 1:
        raise SystemExit("--games must be at least 1")
    compile_s = 0.0
    if rules is None:
        t0 = time.perf_counter()
        rules = Rules.default()
        compile_s = time.perf_counter() - t0
    decisions, events, times = [], [], []
    t0 = time.perf_counter()
    for seed in range(args.seed, args.seed + args.games):
        d, e, s = play_one(rules, args.setup, seed, args.agents)
        decisions.append(d)
        events.append(e)
        times.append(s)
    total = time.perf_counter() - t0
    result = {
        "setup": args.setup, "agents": args.agents, "games": args.games, "seconds": total,
        "games_per_s": args.games / total, "decisions_per_s": sum(decisions) / total,
        "events_per_s": sum(events) / total, "mean_decisions": statistics.fmean(decisions),
        "mean_events": statistics.fmean(events), "median_game_ms": 1000 * statistics.median(times),
        "max_game_ms": 1000 * max(times), "compile_s": compile_s,
    }
    print(f"maester game throughput — Python {platform.python_version()} on {platform.machine()}, one core")
    if compile_s:
        print(f"  compile bundle:    {compile_s:8.2f} s (not counted below)")
    print(f"  setup / agents:    {args.setup} / {args.agents}, seeds {args.seed}..{args.seed + args.games - 1}")
    print(f"  games:             {args.games} in {total:.2f} s")
    print(f"  games/second:      {result['games_per_s']:10.2f}")
    print(f"  decisions/second:  {result['decisions_per_s']:10.0f}")
    print(f"  events/second:     {result['events_per_s']:10.0f}")
    print(f"  decisions/game:    {result['mean_decisions']:10.1f} (mean)")
    print(f"  events/game:       {result['mean_events']:10.1f} (mean)")
    print(f"  ms/game:           {result['median_game_ms']:10.1f} median, {result['max_game_ms']:.1f} max")
    return result


if __name__ == "__main__":
    main(sys.argv[1:])
