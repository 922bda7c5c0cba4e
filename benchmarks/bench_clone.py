"""Cost of cloning a game against a JSON round trip of its state, measured side by side.

Plays random games and, at sampled decisions, times (interleaved, same position, same run):

- json: `json.loads(json.dumps(state))` of the game's state (the floor: copying the data alone);
- clone: `game.clone()` (an independent game at the same decision; it restarts when first used);
- used: `game.clone().state` (a clone made and then used: the restart down to its decision included);
- resume: `Game.from_state(rules, json.loads(text), check="trusted")` of the saved position's JSON text
  (parsing the document included; a position this process made, so its history is not rerun — a file from
  outside is proved by its history by default, docs/position.md);
- resume+gc: the same resume, the game dropped and then, timed with it, the young collection (`gc.collect(0)`)
  that walks it and gives its memory back (a game and its procedure's generators refer to each other: freeing
  it waits for the collector; the json round trip's timing includes freeing its copy too). The honest figure.

and prints the medians, and the ratios clone/json, used/json, resume/json and resume+gc/json: the median of each
position's own ratio and the middle half of them (goals of issue 23: clone at most 0.5x, resume at most 3x,
held against resume+gc). Every answer of the same games is timed too (`game.answer` alone, the agent's choice
left out): clone/decision is the median clone over the median decision (goal: at most 2), with the middle half
of the clones over that same median decision.

Every timing starts with an untimed `gc.collect(0)` (and so does the decision after a measured position): a
game (a used clone, a resumed one) holds reference cycles, so the memory of one thrown away is given back by a
later collection, which would otherwise fall inside whichever timing comes next (a json round trip or a resume
paying for the clones timed before it).

    python benchmarks/bench_clone.py                          # base-6p and mod-8p, 4 games each
    python benchmarks/bench_clone.py --setups mod-8p --games 10 --every 25
"""

from __future__ import annotations

import argparse
import gc
import json
import statistics
import time

from maester.interpreter.core.rules import Rules
from maester.interpreter.frontends.agents import RandomAgent
from maester.interpreter.mod import new_game
from maester.interpreter.procedures.game import Game


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--setups", nargs="+", default=["base-6p", "mod-8p"], help="setup ids")
    p.add_argument("--games", type=int, default=4, help="games per setup (default 4)")
    p.add_argument("--every", type=int, default=20, help="measure at every N-th decision (default 20)")
    p.add_argument("--repeat", type=int, default=3, help="timings per method and position (default 3)")
    p.add_argument("--clock", choices=sorted(CLOCKS), default="cpu",
                   help="cpu: this process's CPU time (default: the other jobs of a shared machine disturb it less); "
                        "wall: elapsed time")
    return p.parse_args(argv)


CLOCKS = {"cpu": time.process_time, "wall": time.perf_counter}
_clock = time.process_time
_overhead = 0.0  # what reading the clock twice costs (taken off every timing: a decision takes a few µs)


def _calibrate() -> float:
    reads = []
    for _ in range(2001):
        t0 = _clock()
        reads.append(_clock() - t0)
    return statistics.median(reads)


def _time(fn, repeat: int) -> float:
    best = float("inf")
    for _ in range(repeat):
        gc.collect(0)  # (untimed) the garbage of earlier timings is freed before this one, not during it
        t0 = _clock()
        fn()
        best = min(best, _clock() - t0)
    return max(best - _overhead, 1e-9)


def _resume(rules: Rules, text: str) -> Game:
    return Game.from_state(rules, json.loads(text), check="trusted")


def _resume_and_collect(rules: Rules, text: str) -> None:
    _resume(rules, text)  # the game dropped at once: the collection below walks it and frees it
    gc.collect(0)


def _middle_half(ratios: list[float]) -> tuple[float, float]:
    """The 25th and 75th percentiles of sorted ratios."""
    if len(ratios) < 4:
        return ratios[0], ratios[-1]
    q = statistics.quantiles(ratios, n=4)
    return q[0], q[2]


def main(argv: list[str] | None = None, rules: Rules | None = None) -> dict:
    global _clock, _overhead
    args = parse_args(argv)
    _clock = CLOCKS[args.clock]
    _overhead = _calibrate()
    rules = rules or Rules.default()
    results = {}
    print(f"{'setup':<10} {'positions':>9} {'json µs':>9} {'clone µs':>9} {'used µs':>8} {'resume µs':>10} "
          f"{'resume+gc µs':>12} {'decision µs':>11} {'clone/json':>10} {'used/json':>9} {'resume/json':>11} "
          f"{'resume+gc/json':>14} {'clone/decision':>14}")
    for setup in args.setups:
        js, cl, us, rs, rg, ds = [], [], [], [], [], []
        for seed in range(args.games):
            game = new_game(rules, setup, seed=seed)
            agents = {h: RandomAgent(seed + i) for i, h in enumerate(game.state.houses)}
            n = 0
            while game.decision is not None:
                if n % args.every == 0:
                    state = game.state.to_json()
                    doc = game.to_state()
                    text = json.dumps(doc)
                    # interleaved per position, so machine noise falls on all three alike
                    js.append(_time(lambda state=state: json.loads(json.dumps(state)), args.repeat))
                    cl.append(_time(game.clone, args.repeat))
                    us.append(_time(lambda game=game: game.clone().state, args.repeat))
                    rs.append(_time(lambda text=text: _resume(rules, text), args.repeat))
                    rg.append(_time(lambda text=text: _resume_and_collect(rules, text), args.repeat))
                answer = agents[game.decision.house].act(game, game.decision)
                if n % args.every == 0:
                    gc.collect(0)  # (untimed) the measurements' garbage is not this decision's
                t0 = _clock()
                game.answer(answer)
                ds.append(max(_clock() - t0 - _overhead, 1e-9))
                n += 1
        j, c, u, r, g, d = (statistics.median(x) * 1e6 for x in (js, cl, us, rs, rg, ds))
        # each position's own ratios (its timings were interleaved): the median and the middle half
        clone_r = sorted(a / b for a, b in zip(cl, js, strict=True))
        used_r = sorted(a / b for a, b in zip(us, js, strict=True))
        resume_r = sorted(a / b for a, b in zip(rs, js, strict=True))
        resume_gc_r = sorted(a / b for a, b in zip(rg, js, strict=True))
        # the decisions are single timings of different positions: the clones are compared with their median
        decision_r = sorted(x * 1e6 / d for x in cl)
        results[setup] = {"positions": len(js), "decisions": len(ds), "json_us": j, "clone_us": c, "used_us": u,
                          "resume_us": r, "resume_gc_us": g, "decision_us": d,
                          "clone_ratio": statistics.median(clone_r), "used_ratio": statistics.median(used_r),
                          "resume_ratio": statistics.median(resume_r),
                          "resume_gc_ratio": statistics.median(resume_gc_r),
                          "clone_decision_ratio": c / d,
                          "clone_spread": _middle_half(clone_r), "used_spread": _middle_half(used_r),
                          "resume_spread": _middle_half(resume_r), "resume_gc_spread": _middle_half(resume_gc_r),
                          "clone_decision_spread": _middle_half(decision_r)}
        rec = results[setup]
        print(f"{setup:<10} {len(js):>9} {j:>9.0f} {c:>9.0f} {u:>8.0f} {r:>10.0f} {g:>12.0f} {d:>11.0f} "
              f"{rec['clone_ratio']:>10.2f}x {rec['used_ratio']:>8.2f}x {rec['resume_ratio']:>10.2f}x "
              f"{rec['resume_gc_ratio']:>13.2f}x {rec['clone_decision_ratio']:>13.2f}x")
        print(f"{'':<10} middle half of the positions' ratios: clone {rec['clone_spread'][0]:.2f}-"
              f"{rec['clone_spread'][1]:.2f}x, used {rec['used_spread'][0]:.2f}-{rec['used_spread'][1]:.2f}x, "
              f"resume {rec['resume_spread'][0]:.2f}-{rec['resume_spread'][1]:.2f}x, "
              f"resume+gc {rec['resume_gc_spread'][0]:.2f}-{rec['resume_gc_spread'][1]:.2f}x, "
              f"clone/decision {rec['clone_decision_spread'][0]:.2f}-{rec['clone_decision_spread'][1]:.2f}x "
              f"(median of {len(ds)} decisions)")
    return results


if __name__ == "__main__":
    main()
