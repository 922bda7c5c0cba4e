"""The engine against an earlier commit: the same random games, checked identical, then timed side by side.

    python benchmarks/bench_engine.py                              # base-6p and mod-8p against 3ff4147 and 6a11bb7
    python benchmarks/bench_engine.py --setups mod-8p --games 20 --rounds 7 --baseline 3ff4147
    python benchmarks/bench_engine.py --check-only --games 20      # only the identical-games check
    python benchmarks/bench_engine.py --baseline 3ff4147 --same-games   # stop if the games differ
    python benchmarks/bench_engine.py --instructions --games 5 --rounds 0   # machine instructions (valgrind)
    python benchmarks/bench_engine.py --compiled --baseline 6a11bb7   # this tree compiled (Cython) against 6a11bb7

Each commit of `--baseline` (one or more) is checked out beside the repository in a temporary `git worktree`
(removed afterwards). Both trees play the same seeds with one random agent per house, each in fresh child
processes that import `maester` from that tree only (as bench_env.py does):

1. **identical games**: for every seed, the final state hash, the number of decisions and of events, and a hash
   of every event (type, rule, text and data) are compared. A baseline whose rules were the same must play
   the very same games (3ff4147: the commit this work started from); with `--same-games` the script stops and
   names the seeds that differ. An older commit whose rulings differ (6a11bb7) plays other
   games from the same seeds: the report says so, and its ratio per decision is the honest one (a game of more
   decisions costs more for reasons that are not the engine's speed).
2. **games per second**: `--rounds` rounds; in each, both trees play the same `--games` games on one core,
   in alternating order (now first in odd rounds), so a busy moment hurts both alike. Time is the child's CPU
   time (`time.process_time`, the games only: imports, the bundle and a warm-up game are not counted), which a
   machine shared with other jobs disturbs far less than wall-clock time. Each round gives one ratio per game
   and one per decision; the report prints the medians and their spread (lowest and highest round).
3. **instructions** (`--instructions`, needs valgrind): each tree plays the games once under
   `valgrind --tool=cachegrind --cache-sim=no`, and once with no game; the difference is the machine
   instructions the games took. It does not move with the machine's load (repeated runs agree within about
   3%), so it shows changes of a few percent that CPU time on a shared machine hides; it counts work, not time
   (memory stalls are not in it), so it complements the timed rounds rather than replaces them.

With `--compiled`, this tree's children run the opt-in compiled engine (`MAESTER_COMPILED=1`; the modules missing
from the cache are built first, as `python tools/build_compiled.py` does, and the run stops unless every module of
`MODULES` is loaded compiled) while the baseline runs from its .py files: the compiled engine against an older
pure-Python engine, measured in one run.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import statistics
import subprocess
import sys
from pathlib import Path

from trees import GAMES, IMPORT_TREE, REPO, checked_out, make_shim  # benchmarks/trees.py

BASELINES = ["3ff4147", "6a11bb7"]  # the start of issue 23's work (same games), the goal's reference

# Run in a child process: import `maester` from the tree given in argv (never the installed one), then either
# report each game (mode "check") or time the games (mode "time"). The same code runs on both trees.
CHILD = IMPORT_TREE + GAMES + r"""
if mode == "loaded":  # how many modules the compiled engine's loader loaded compiled
    print(json.dumps(sum(len(f.loaded) for f in sys.meta_path if type(f).__name__ == "CompiledFinder")))
elif mode == "count":  # (run under valgrind: the games only, no timing; n = 0 counts the rest of the process)
    print(json.dumps({"decisions": sum(len(play(seed).answers) for seed in range(first, first + n))}))
elif mode == "check":
    print(json.dumps(checked_games()))
else:
    wall, seconds, decisions = timed_games()
    print(json.dumps({"wall": wall, "seconds": seconds, "decisions": decisions}))
"""


def parse_args(argv):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--baseline", nargs="+", default=BASELINES,
                   help=f"the commits to compare with (default {' '.join(BASELINES)})")
    p.add_argument("--setups", nargs="+", default=["base-6p", "mod-8p"], help="setup ids (default base-6p mod-8p)")
    p.add_argument("--games", type=int, default=20, help="games per setup and round (default 20)")
    p.add_argument("--rounds", type=int, default=5, help="paired timing rounds (default 5)")
    p.add_argument("--seed", type=int, default=0, help="first seed (default 0)")
    p.add_argument("--check-only", action="store_true", help="only check that both trees play the same games")
    p.add_argument("--instructions", action="store_true",
                   help="also count the machine instructions of the games under valgrind (cachegrind)")
    p.add_argument("--compiled", action="store_true",
                   help="run this tree's engine compiled (MAESTER_COMPILED=1; builds what is missing, needs Cython)")
    p.add_argument("--same-games", action="store_true",
                   help="stop when a baseline plays different games (else: report them, and time per decision)")
    return p.parse_args(argv)



# the shims whose children run the compiled engine (`--compiled`: this tree's)
COMPILED_SHIMS: set[Path] = set()


def _env(shim: Path) -> dict:
    env = {k: v for k, v in os.environ.items() if k != "MAESTER_COMPILED"}
    return {**env, "PYTHONHASHSEED": "0", **({"MAESTER_COMPILED": "1"} if shim in COMPILED_SHIMS else {})}


def child(shim: Path, mode: str, setup: str, seed: int, games: int) -> dict:
    out = subprocess.run([sys.executable, "-c", CHILD, str(shim), mode, setup, str(seed), str(games)],
                         check=True, capture_output=True, text=True, cwd=shim, env=_env(shim))
    return json.loads(out.stdout.strip().splitlines()[-1])


def instructions(shims: list[Path], setup: str, seed: int, games: int) -> list[tuple[int, int]]:
    """(machine instructions, decisions) of the games in each tree: a run under cachegrind less one with no game
    (all started at once: the counts do not depend on the load). No bytecode is written, so both runs of a tree
    import the same way and the difference is the games alone."""
    def start(shim: Path, n: int) -> subprocess.Popen:
        return subprocess.Popen(["valgrind", "--tool=cachegrind", "--cache-sim=no", "--cachegrind-out-file=/dev/null",
                                 sys.executable, "-c", CHILD, str(shim), "count", setup, str(seed), str(n)],
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=shim,
                                env={**_env(shim), "PYTHONDONTWRITEBYTECODE": "1"})

    def read(p: subprocess.Popen) -> tuple[int, int]:
        out, err = p.communicate()
        refs = re.search(r"I\s+refs:\s+([\d,]+)", err)
        if p.returncode or refs is None:
            raise SystemExit(f"valgrind gave no instruction count:\n{err[-2000:]}")
        return int(refs.group(1).replace(",", "")), json.loads(out.strip().splitlines()[-1])["decisions"]

    runs = [(start(shim, games), start(shim, 0)) for shim in shims]
    out = []
    for with_games, without in runs:
        (total, decisions), (rest, _) = read(with_games), read(without)
        out.append((total - rest, decisions))
    return out


def compare(args, baseline: str, now_shim: Path, old_shim: Path) -> dict:
    result: dict = {"baseline": baseline, "setups": {}}
    for setup in args.setups:
        now = child(now_shim, "check", setup, args.seed, args.games)
        old = child(old_shim, "check", setup, args.seed, args.games)
        differ = sorted(int(s) for s in now if now[s] != old.get(s))
        decisions = sum(v[1] for v in now.values())
        events = sum(v[2] for v in now.values())
        old_decisions = sum(v[1] for v in old.values())
        print(f"{setup}: {args.games} games, seeds {args.seed}..{args.seed + args.games - 1}, {decisions} decisions, "
              f"{events} events: " + ("identical on both trees (final state hash, decisions, events, event hash)"
                                      if not differ else
                                      f"DIFFERENT games on {baseline} for {len(differ)} seeds ({old_decisions} "
                                      "decisions there): compare per decision"))
        if differ and args.same_games:
            raise SystemExit(f"{setup}: the trees play different games (seeds {differ}): nothing timed")
        result["setups"][setup] = {"decisions": decisions, "events": events, "identical": not differ,
                                   "baseline_decisions": old_decisions}
        if args.instructions:
            (now_i, now_d), (old_i, old_d) = instructions([now_shim, old_shim], setup, args.seed, args.games)
            rec = {"now_instructions": now_i, "baseline_instructions": old_i,
                   "instructions_ratio": old_i / now_i,
                   "instructions_ratio_per_decision": (old_i / old_d) / (now_i / now_d)}
            result["setups"][setup].update(rec)
            print(f"  machine instructions (cachegrind): now {now_i / 1e6:.0f}M ({now_i / now_d / 1e3:.0f}k per "
                  f"decision), {baseline} {old_i / 1e6:.0f}M ({old_i / old_d / 1e3:.0f}k per decision); ratio "
                  f"{rec['instructions_ratio']:.2f}x per game, {rec['instructions_ratio_per_decision']:.2f}x per "
                  "decision")
        if args.check_only or not args.rounds:
            continue
        ratios, per_decision, now_s, old_s = [], [], [], []
        for r in range(args.rounds):  # alternate which tree goes first
            pair = [(now_shim, now_s), (old_shim, old_s)]
            for shim, into in (pair if r % 2 == 0 else pair[::-1]):
                into.append(child(shim, "time", setup, args.seed, args.games)["seconds"])
            ratios.append(old_s[-1] / now_s[-1])
            per_decision.append((old_s[-1] / old_decisions) / (now_s[-1] / decisions))
        med, med_d = statistics.median(ratios), statistics.median(per_decision)
        rec = {"now_games_per_s": args.games / statistics.median(now_s),
               "baseline_games_per_s": args.games / statistics.median(old_s),
               "now_us_per_decision": 1e6 * statistics.median(now_s) / decisions,
               "baseline_us_per_decision": 1e6 * statistics.median(old_s) / old_decisions,
               "ratio": med, "ratio_low": min(ratios), "ratio_high": max(ratios),
               "ratio_per_decision": med_d, "ratio_per_decision_low": min(per_decision),
               "ratio_per_decision_high": max(per_decision)}
        result["setups"][setup].update(rec)
        print(f"  games per CPU second, one core, median of {args.rounds} paired rounds: "
              f"now {rec['now_games_per_s']:.1f}, "
              f"{baseline} {rec['baseline_games_per_s']:.1f}; ratio {med:.2f}x "
              f"(rounds {min(ratios):.2f}-{max(ratios):.2f}x)")
        print(f"  CPU time per decision: now {rec['now_us_per_decision']:.1f} us, {baseline} "
              f"{rec['baseline_us_per_decision']:.1f} us; ratio {med_d:.2f}x "
              f"(rounds {min(per_decision):.2f}-{max(per_decision):.2f}x)")
    return result


def main(argv=None) -> dict:
    """Compare with each baseline in turn; returns the first one's result, with `all` holding every one's."""
    args = parse_args(argv)
    for baseline in args.baseline:
        known = subprocess.run(["git", "-C", str(REPO), "cat-file", "-e", f"{baseline}^{{commit}}"],
                               capture_output=True).returncode == 0
        if not known:
            raise SystemExit(f"commit {baseline} is not in this clone (a shallow clone?)")
    head = subprocess.run(["git", "-C", str(REPO), "rev-parse", "--short", "HEAD"], capture_output=True,
                          text=True).stdout.strip()
    if args.compiled:
        _build_compiled()
    results = []
    for baseline in args.baseline:
        with checked_out(baseline) as (old_tree, tmp):
            now_shim = make_shim(REPO, tmp / "now")
            if args.compiled:
                COMPILED_SHIMS.add(now_shim)
                _expect_compiled(now_shim)
            print(f"this tree ({head}{', with uncommitted changes' if _dirty() else ''}"
                  f"{', compiled' if args.compiled else ''}) against {baseline}")
            results.append(compare(args, baseline, now_shim, make_shim(old_tree, tmp / "old")))
    return {**results[0], "all": results}


def _build_compiled() -> None:
    sys.path.insert(0, str(REPO.parent))  # (`maester` is the repository: its parent holds it as a package folder)
    from maester.tools.build_compiled import MODULES, build, cache_dir, source_of
    built = build({m: source_of(m, REPO) for m in MODULES}, cache_dir())
    print(f"compiled modules: {len(built)} built now, cache {cache_dir()}")


def _expect_compiled(shim: Path) -> None:
    from maester.interpreter.core.compiled_modules import MODULES
    loaded = child(shim, "loaded", "-", 0, 0)
    if loaded != len(MODULES):
        raise SystemExit(f"only {loaded} of {len(MODULES)} modules were loaded compiled: run tools/build_compiled.py")


def _dirty() -> bool:
    return bool(subprocess.run(["git", "-C", str(REPO), "status", "--porcelain", "--untracked-files=no"],
                               capture_output=True, text=True).stdout.strip())


if __name__ == "__main__":
    main(sys.argv[1:])
