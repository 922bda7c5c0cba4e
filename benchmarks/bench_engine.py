"""The engine against an earlier commit: the same random games, checked identical, then timed side by side.

    python benchmarks/bench_engine.py                              # base-6p and mod-8p against 6a11bb7
    python benchmarks/bench_engine.py --setups mod-8p --games 20 --rounds 7 --baseline c664a6b
    python benchmarks/bench_engine.py --check-only --games 20      # only the identical-games check

The commit `--baseline` is checked out beside the repository in a temporary `git worktree` (removed afterwards).
Both trees play the same seeds with one random agent per house, each in fresh child processes that import
`maester` from that tree only (as bench_env.py does):

1. **identical games**: for every seed, the final state hash, the number of decisions and of events, and a hash
   of every event (type, rule, text and data) must be the same on both trees, or the script stops and names
   the seeds that differ. Timing different games would compare different work.
2. **games per second**: `--rounds` rounds; in each, both trees play the same `--games` games on one core,
   in alternating order (now first in odd rounds), so a busy moment hurts both alike. Time is the child's CPU
   time (`time.process_time`, the games only: imports, the bundle and a warm-up game are not counted), which a
   machine shared with other jobs disturbs far less than wall-clock time. Each round gives one ratio; the
   report prints the median ratio and its spread (lowest and highest round).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

from trees import IMPORT_TREE, REPO, checked_out, make_shim  # benchmarks/trees.py

BASELINE = "6a11bb7"

# Run in a child process: import `maester` from the tree given in argv (never the installed one), then either
# report each game (mode "check") or time the games (mode "time"). The same code runs on both trees.
CHILD = IMPORT_TREE + r"""
import hashlib, json, sys, time
rules = Rules.default()
mode, setup, first, n = sys.argv[2], sys.argv[3], int(sys.argv[4]), int(sys.argv[5])

def play(seed):
    g = new_game(rules, setup, seed=seed)
    agents = agents_for(g.state.houses, "random", seed=seed)
    while g.decision is not None:
        g.answer(agents[g.decision.house].act(g, g.decision))
    return g

if mode == "check":
    out = {}
    for seed in range(first, first + n):
        g = play(seed)
        events = hashlib.sha256(json.dumps(g.events, sort_keys=True, default=list).encode()).hexdigest()[:16]
        out[seed] = [g.state.hash(), len(g.answers), g.event_count, events]
    print(json.dumps(out))
else:
    play(first)  # warm: first calls, caches
    t0, c0 = time.perf_counter(), time.process_time()
    decisions = 0
    for seed in range(first, first + n):
        decisions += len(play(seed).answers)
    print(json.dumps({"wall": time.perf_counter() - t0, "seconds": time.process_time() - c0,
                      "decisions": decisions}))
"""


def parse_args(argv):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--baseline", default=BASELINE, help=f"the commit to compare with (default {BASELINE})")
    p.add_argument("--setups", nargs="+", default=["base-6p", "mod-8p"], help="setup ids (default base-6p mod-8p)")
    p.add_argument("--games", type=int, default=20, help="games per setup and round (default 20)")
    p.add_argument("--rounds", type=int, default=5, help="paired timing rounds (default 5)")
    p.add_argument("--seed", type=int, default=0, help="first seed (default 0)")
    p.add_argument("--check-only", action="store_true", help="only check that both trees play the same games")
    return p.parse_args(argv)



def child(shim: Path, mode: str, setup: str, seed: int, games: int) -> dict:
    out = subprocess.run([sys.executable, "-c", CHILD, str(shim), mode, setup, str(seed), str(games)],
                         check=True, capture_output=True, text=True, cwd=shim,
                         env={**os.environ, "PYTHONHASHSEED": "0"})
    return json.loads(out.stdout.strip().splitlines()[-1])


def compare(args, now_shim: Path, old_shim: Path) -> dict:
    result: dict = {"baseline": args.baseline, "setups": {}}
    for setup in args.setups:
        now = child(now_shim, "check", setup, args.seed, args.games)
        old = child(old_shim, "check", setup, args.seed, args.games)
        differ = sorted(int(s) for s in now if now[s] != old.get(s))
        decisions = sum(v[1] for v in now.values())
        events = sum(v[2] for v in now.values())
        print(f"{setup}: {args.games} games, seeds {args.seed}..{args.seed + args.games - 1}, {decisions} decisions, "
              f"{events} events: " + ("identical on both trees (final state hash, decisions, events, event hash)"
                                      if not differ else f"DIFFERENT games for seeds {differ}"))
        if differ:
            raise SystemExit(f"{setup}: the trees play different games (seeds {differ}): nothing timed")
        result["setups"][setup] = {"decisions": decisions, "events": events}
        if args.check_only:
            continue
        ratios, now_s, old_s = [], [], []
        for r in range(args.rounds):  # alternate which tree goes first
            pair = [(now_shim, now_s), (old_shim, old_s)]
            for shim, into in (pair if r % 2 == 0 else pair[::-1]):
                into.append(child(shim, "time", setup, args.seed, args.games)["seconds"])
            ratios.append(old_s[-1] / now_s[-1])
        med = statistics.median(ratios)
        rec = {"now_games_per_s": args.games / statistics.median(now_s),
               "baseline_games_per_s": args.games / statistics.median(old_s),
               "now_us_per_decision": 1e6 * statistics.median(now_s) / decisions,
               "ratio": med, "ratio_low": min(ratios), "ratio_high": max(ratios)}
        result["setups"][setup].update(rec)
        print(f"  games per CPU second, one core, median of {args.rounds} paired rounds: "
              f"now {rec['now_games_per_s']:.1f}, "
              f"{args.baseline} {rec['baseline_games_per_s']:.1f}; ratio {med:.2f}x "
              f"(rounds {min(ratios):.2f}-{max(ratios):.2f}x); now {rec['now_us_per_decision']:.0f} us/decision")
    return result


def main(argv=None) -> dict:
    args = parse_args(argv)
    known = subprocess.run(["git", "-C", str(REPO), "cat-file", "-e", f"{args.baseline}^{{commit}}"],
                           capture_output=True).returncode == 0
    if not known:
        raise SystemExit(f"commit {args.baseline} is not in this clone (a shallow clone?)")
    with checked_out(args.baseline) as (old_tree, tmp):
        head = subprocess.run(["git", "-C", str(REPO), "rev-parse", "--short", "HEAD"], capture_output=True,
                              text=True).stdout.strip()
        print(f"this tree ({head}{', with uncommitted changes' if _dirty() else ''}) against {args.baseline}")
        return compare(args, make_shim(REPO, tmp / "now"), make_shim(old_tree, tmp / "old"))


def _dirty() -> bool:
    return bool(subprocess.run(["git", "-C", str(REPO), "status", "--porcelain", "--untracked-files=no"],
                               capture_output=True, text=True).stdout.strip())


if __name__ == "__main__":
    main(sys.argv[1:])
