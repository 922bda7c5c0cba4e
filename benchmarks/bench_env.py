"""The environment's step overhead against the engine, and engine speed against a previous release.

Measured side by side in one run, and printed as ratios:

1. **env step / engine**: the same random games (same seeds, same choices) played by calling the engine
   directly (`game.answer(option)`) and through `maester_v0` (`env.step(action id)` after reading the action
   mask, the way an agent must); also with a full observation (`env.last()`) at every step, of `maester_v1` (the
   complete public observation, the goal's line) and of `maester_v0` (its first three sections).
2. **engine now / engine at RELEASE**: complete random games per second of this checkout and of the release
   commit (default c664a6b) checked out beside it in a temporary git worktree, each run in a fresh child
   process, alternating, best of `--repeats`.

    python benchmarks/bench_env.py                       # 20 games of base-3p, release c664a6b
    python benchmarks/bench_env.py --games 50 --setup base-6p --no-release
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

from trees import IMPORT_TREE, REPO, checked_out, make_shim  # benchmarks/trees.py

RELEASE = "c664a6b"

# Run in a child process: import `maester` from the tree given in argv (never the installed one) and time
# complete random games of the engine. The same code runs for this checkout and for the release.
CHILD = IMPORT_TREE + r"""
import json, sys, time
rules = Rules.default()
setup, first, n = sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
t0 = time.process_time()
decisions = 0
for seed in range(first, first + n):
    g = new_game(rules, setup, seed=seed)
    agents = agents_for(g.state.houses, "random", seed=seed)
    while g.decision is not None:
        g.answer(agents[g.decision.house].act(g, g.decision))
    decisions += len(g.answers)
print(json.dumps({"games_per_s": n / (time.process_time() - t0), "decisions": decisions, "file": gm.__file__}))
"""


def parse_args(argv):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--games", type=int, default=20, help="games per measurement (default 20)")
    p.add_argument("--setup", default="base-3p", help="setup id (default base-3p)")
    p.add_argument("--seed", type=int, default=0, help="first seed")
    p.add_argument("--repeats", type=int, default=3, help="alternating runs of each loop, best kept (default 3)")
    p.add_argument("--release", default=RELEASE, help=f"the commit to compare the engine with (default {RELEASE})")
    p.add_argument("--no-release", action="store_true", help="skip the comparison with the release")
    return p.parse_args(argv)


def _choices(seed: int):
    from maester.interpreter.core.rng import Rng, seed_state

    holder = type("Holder", (), {})()
    holder.rng = seed_state(seed)
    return Rng(holder)


def engine_loop(rules, setup: str, seeds: range) -> tuple[float, int]:
    from maester.env.position import make_game

    t0, n = time.process_time(), 0
    for seed in seeds:
        g, pick = make_game(rules, setup, seed), _choices(seed)
        while g.decision is not None:
            opts = g.decision.options
            g.answer(opts[pick.below(len(opts))])
            n += 1
    return time.process_time() - t0, n


def env_loop(rules, setup: str, seeds: range, observe: bool, version: str = "v0") -> tuple[float, int]:
    from maester.env import maester_v0, maester_v1

    env = (maester_v1 if version == "v1" else maester_v0).env(setup=setup, rules=rules)
    table = env.action_table
    t0, n = time.process_time(), 0
    for seed in seeds:
        env.reset(seed=seed)
        pick = _choices(seed)
        while not env.game.over:
            agent = env.agent_selection
            mask = env.last()[0]["action_mask"] if observe else env.action_mask(agent)
            # the engine's option order, so both loops make the very same choices
            opts = env.game.decision.options
            action = table.id_of(opts[pick.below(len(opts))])
            if not mask[action]:
                raise SystemExit(f"the mask misses a legal answer ({opts})")
            env.step(action)
            n += 1
    return time.process_time() - t0, n



def child_games_per_s(shim: Path, setup: str, seed: int, games: int) -> dict:
    out = subprocess.run([sys.executable, "-c", CHILD, str(shim), setup, str(seed), str(games)], check=True,
                         capture_output=True, text=True, cwd=shim, env={**os.environ, "PYTHONHASHSEED": "0"})
    return json.loads(out.stdout.strip().splitlines()[-1])


def release_comparison(args) -> dict:
    with checked_out(args.release) as (old_tree, tmp):
        now_shim, old_shim = make_shim(REPO, tmp / "now"), make_shim(old_tree, tmp / "old")
        now, old = [], []
        for _ in range(args.repeats):  # alternate, so a busy moment hurts both sides alike
            now.append(child_games_per_s(now_shim, args.setup, args.seed, args.games))
            old.append(child_games_per_s(old_shim, args.setup, args.seed, args.games))
    best_now, best_old = max(r["games_per_s"] for r in now), max(r["games_per_s"] for r in old)
    ratios = [a["games_per_s"] / b["games_per_s"] for a, b in zip(now, old, strict=True)]
    return {"release": args.release, "now_games_per_s": best_now, "release_games_per_s": best_old,
            "ratio": statistics.median(ratios), "ratio_low": min(ratios), "ratio_high": max(ratios),
            "same_decisions": now[0]["decisions"] == old[0]["decisions"]}


def main(argv=None, rules=None) -> dict:
    args = parse_args(argv)
    from maester.env.position import rules_for

    rules = rules or rules_for(None)
    seeds = range(args.seed, args.seed + args.games)
    engine_loop(rules, args.setup, range(args.seed, args.seed + 1))  # warm caches on both sides
    for version in ("v0", "v1"):
        env_loop(rules, args.setup, range(args.seed, args.seed + 1), True, version)
    loops = {"engine": lambda: engine_loop(rules, args.setup, seeds),
             "step": lambda: env_loop(rules, args.setup, seeds, observe=False),
             "observe_v0": lambda: env_loop(rules, args.setup, seeds, observe=True, version="v0"),
             "observe": lambda: env_loop(rules, args.setup, seeds, observe=True, version="v1")}
    runs: dict[str, list] = {k: [] for k in loops}
    for _ in range(args.repeats):  # alternate the loops, keep each one's best: a busy moment hurts all alike
        for k, loop in loops.items():
            runs[k].append(loop())
    best = {k: min(v) for k, v in runs.items()}
    n = best["engine"][1]
    if any(b[1] != n for b in best.values()):
        raise SystemExit(f"the loops played different games ({ {k: b[1] for k, b in best.items()} } decisions)")
    # each repeat's own ratios (its loops ran back to back): the median and the spread
    ratios = {k: [s / e for (s, _), (e, _) in zip(runs[k], runs["engine"], strict=True)] for k in loops}
    step_r, obs_r, obs0_r = ratios["step"], ratios["observe"], ratios["observe_v0"]
    us = {k: 1e6 * b[0] / n for k, b in best.items()}
    result = {"setup": args.setup, "games": args.games, "decisions": n,
              "engine_us_per_decision": us["engine"], "env_us_per_step": us["step"],
              "env_observe_us_per_step": us["observe"], "env_observe_v0_us_per_step": us["observe_v0"],
              "step_ratio": statistics.median(step_r), "observe_ratio": statistics.median(obs_r),
              "observe_v0_ratio": statistics.median(obs0_r),
              "step_ratios": step_r, "observe_ratios": obs_r, "observe_v0_ratios": obs0_r}
    print(f"{args.games} random {args.setup} games, {n} decisions, the same choices in every loop "
          f"(CPU time, best of {args.repeats}; ratios: median of the {args.repeats} rounds, lowest-highest)")
    print(f"  engine directly:                     {us['engine']:8.1f} us/decision")
    print(f"  env.step (+ action mask):            {us['step']:8.1f} us/step   "
          f"ratio {result['step_ratio']:.2f}x ({min(step_r):.2f}-{max(step_r):.2f}x; goal <= 1.3x)")
    print(f"  env.step + env.last(), maester_v1:   {us['observe']:8.1f} us/step   "
          f"ratio {result['observe_ratio']:.2f}x ({min(obs_r):.2f}-{max(obs_r):.2f}x; goal <= 1.5x: the complete "
          "observation vector every step)")
    print(f"  env.step + env.last(), maester_v0:   {us['observe_v0']:8.1f} us/step   "
          f"ratio {result['observe_v0_ratio']:.2f}x ({min(obs0_r):.2f}-{max(obs0_r):.2f}x; v0's sections only)")
    known = subprocess.run(["git", "-C", str(REPO), "cat-file", "-e", f"{args.release}^{{commit}}"],
                           capture_output=True).returncode == 0
    if not args.no_release and not known:
        print(f"  engine against the release: commit {args.release} is not in this clone (a shallow clone?): skipped")
    elif not args.no_release:
        rel = release_comparison(args)
        result["release"] = rel
        print(f"  engine games per CPU second: now {rel['now_games_per_s']:.1f}, release {rel['release']} "
              f"{rel['release_games_per_s']:.1f}: ratio {rel['ratio']:.2f}x "
              f"({rel['ratio_low']:.2f}-{rel['ratio_high']:.2f}x over {args.repeats} paired runs)"
              f"{'' if rel['same_decisions'] else ' (the release plays other games: rules changed since)'}")
    return result


if __name__ == "__main__":
    main(sys.argv[1:])
