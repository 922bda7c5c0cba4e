"""The cost of the `isearch` agent per decision, in full base-6p games against heuristic agents, on one core.

Plays `--games` games (deal `--seed + i // 6`, isearch in seat `i % 6`, as `maester tournament` deals them) in
this process and times every decision the isearch agent makes — CPU time of this process (`time.process_time`,
what one core spends, whatever else the machine runs) and wall clock — mean, median, 95th percentile and maximum,
over all its decisions and over the searched ones. The strength is measured by the
tournament (docs/agents.md); this measures the time only.

    python benchmarks/bench_isearch.py --games 6
"""

from __future__ import annotations

import argparse
import json
import statistics
import time


def main(argv: list[str] | None = None) -> dict:
    from maester.env.isearch import InfoSetSearchAgent
    from maester.env.position import make_game, player_houses, rules_for
    from maester.env.search import SEARCHED
    from maester.interpreter.frontends.agents import HeuristicAgent

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=6)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--setup", default="base-6p")
    ap.add_argument("--rounds", type=int, default=None, help="shorter games (default: full games)")
    args = ap.parse_args(argv)
    rules = rules_for(None)
    every, searched, wall, wins = [], [], [], 0
    cpu0 = time.process_time()
    for i in range(args.games):
        seed = args.seed + i // 6
        game = make_game(rules, args.setup, seed, args.rounds)
        houses = sorted(game.state.houses)
        me = player_houses(game)[i % len(player_houses(game))]
        crew = {h: HeuristicAgent(seed * 1009 + k) for k, h in enumerate(houses)}
        crew[me] = InfoSetSearchAgent(seed * 1009 + houses.index(me))
        while game.decision is not None:
            d = game.decision
            t, c = time.perf_counter(), time.process_time()
            answer = crew[d.house].act(game, d)
            dt, wall_dt = time.process_time() - c, time.perf_counter() - t
            if d.house == me:
                every.append(dt)
                wall.append(wall_dt)
                if d.kind in SEARCHED and len(d.options) > 1:
                    searched.append(dt)
            game.answer(answer)
        wins += game.state.winner == me

    def summary(xs: list[float]) -> dict:
        xs = sorted(xs)
        return {"decisions": len(xs), "mean_ms": 1000 * statistics.fmean(xs), "median_ms": 1000 * xs[len(xs) // 2],
                "p95_ms": 1000 * xs[int(0.95 * (len(xs) - 1))], "max_ms": 1000 * xs[-1]}

    out = {"games": args.games, "isearch_wins": wins, "cpu_all": summary(every), "cpu_searched": summary(searched),
           "wall_all": summary(wall),
           "cpu_seconds": round(time.process_time() - cpu0, 1)}
    print(json.dumps(out, indent=1))
    return out


if __name__ == "__main__":
    main()
