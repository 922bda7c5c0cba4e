"""The compiled engine (tools/build_compiled.py) against the pure-Python one: the same games, then paired CPU time.

    python benchmarks/bench_compiled.py                         # base-6p and mod-8p, 20 games, 5 paired rounds
    python benchmarks/bench_compiled.py --games 5 --rounds 0 --instructions   # machine instructions (valgrind)

Needs Cython and a C compiler: the modules missing from the cache are built first (as
`python tools/build_compiled.py` does). Both sides are child processes importing `maester` from this tree (as
bench_engine.py's do), one with `MAESTER_COMPILED=1` (and a check that every module of MODULES was loaded
compiled), one without. They must play identical games (final state hash, decisions, events, a hash of every
event); then `--rounds` rounds time both on the same games in alternating order, CPU time of the games only,
and print the median ratio per decision with its spread. `--instructions` counts the games' machine
instructions under cachegrind, as bench_engine.py does.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from trees import GAMES, IMPORT_TREE, REPO, make_shim  # benchmarks/trees.py

sys.path.insert(0, str(REPO.parent))  # (`maester` is the repository: its parent holds it as a package folder)

CHILD = IMPORT_TREE + r"""
compiled = sum(len(f.loaded) for f in sys.meta_path if type(f).__name__ == "CompiledFinder")
""" + GAMES + r"""
if mode == "count":
    print(json.dumps({"decisions": sum(len(play(seed).answers) for seed in range(first, first + n))}))
elif mode == "check":
    print(json.dumps({"compiled": compiled, "games": checked_games()}))
else:
    _, seconds, decisions = timed_games()
    print(json.dumps({"seconds": seconds, "decisions": decisions, "compiled": compiled}))
"""


def _env(compiled: bool) -> dict:
    env = {k: v for k, v in os.environ.items() if k != "MAESTER_COMPILED"}
    return {**env, "PYTHONHASHSEED": "0", **({"MAESTER_COMPILED": "1"} if compiled else {})}


def child(shim: Path, compiled: bool, mode: str, setup: str, seed: int, games: int) -> dict:
    out = subprocess.run([sys.executable, "-c", CHILD, str(shim), mode, setup, str(seed), str(games)], check=True,
                         capture_output=True, text=True, cwd=shim, env=_env(compiled))
    return json.loads(out.stdout.strip().splitlines()[-1])


def instructions(shim: Path, compiled: bool, setup: str, seed: int, games: int) -> tuple[int, int]:
    """(machine instructions, decisions) of the games: a run under cachegrind less one with no game."""
    def start(n: int) -> subprocess.Popen:
        return subprocess.Popen(["valgrind", "--tool=cachegrind", "--cache-sim=no", "--cachegrind-out-file=/dev/null",
                                 sys.executable, "-c", CHILD, str(shim), "count", setup, str(seed), str(n)],
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=shim,
                                env={**_env(compiled), "PYTHONDONTWRITEBYTECODE": "1"})

    counts = []
    for p in [start(games), start(0)]:
        out, err = p.communicate()
        refs = re.search(r"I\s+refs:\s+([\d,]+)", err)
        if p.returncode or refs is None:
            raise SystemExit(f"valgrind gave no instruction count:\n{err[-2000:]}")
        counts.append((int(refs.group(1).replace(",", "")), json.loads(out.strip().splitlines()[-1])["decisions"]))
    return counts[0][0] - counts[1][0], counts[0][1]


def main(argv: list[str] | None = None) -> dict:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--setups", nargs="+", default=["base-6p", "mod-8p"])
    p.add_argument("--games", type=int, default=20)
    p.add_argument("--rounds", type=int, default=5)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--instructions", action="store_true", help="also count machine instructions (valgrind)")
    args = p.parse_args(argv)

    from maester.tools.build_compiled import MODULES, build, cache_dir, source_of
    built = build({m: source_of(m, REPO) for m in MODULES}, cache_dir())
    print(f"compiled modules: {len(built)} built now, cache {cache_dir()}")
    result: dict = {}
    with tempfile.TemporaryDirectory(prefix="maester-bench-compiled-") as tmp:
        shim = make_shim(REPO, Path(tmp))
        for setup in args.setups:
            pure = child(shim, False, "check", setup, args.seed, args.games)
            comp = child(shim, True, "check", setup, args.seed, args.games)
            if comp["compiled"] != len(MODULES):
                raise SystemExit(f"only {comp['compiled']} of {len(MODULES)} modules were loaded compiled")
            differ = sorted(int(s) for s in pure["games"] if pure["games"][s] != comp["games"][s])
            if differ:
                raise SystemExit(f"{setup}: the compiled engine plays other games (seeds {differ})")
            decisions = sum(v[1] for v in pure["games"].values())
            print(f"{setup}: {args.games} games, {decisions} decisions: identical games, {len(MODULES)} modules "
                  "compiled")
            rec: dict = {"decisions": decisions}
            if args.instructions:
                (pi, pd), (ci, cd) = (instructions(shim, c, setup, args.seed, args.games) for c in (False, True))
                rec["instructions_ratio_per_decision"] = (pi / pd) / (ci / cd)
                print(f"  machine instructions (cachegrind): pure {pi / pd / 1e3:.0f}k per decision, compiled "
                      f"{ci / cd / 1e3:.0f}k; ratio {rec['instructions_ratio_per_decision']:.2f}x")
            if args.rounds:
                ratios, pure_s, comp_s = [], [], []
                for r in range(args.rounds):  # alternate which goes first
                    pair = [(False, pure_s), (True, comp_s)]
                    for compiled, into in (pair if r % 2 == 0 else pair[::-1]):
                        out = child(shim, compiled, "time", setup, args.seed, args.games)
                        into.append(out["seconds"] / out["decisions"])
                    ratios.append(pure_s[-1] / comp_s[-1])
                rec.update(ratio_per_decision=statistics.median(ratios), low=min(ratios), high=max(ratios),
                           pure_us=1e6 * statistics.median(pure_s), compiled_us=1e6 * statistics.median(comp_s))
                print(f"  CPU time per decision, median of {args.rounds} paired rounds: pure {rec['pure_us']:.1f} us, "
                      f"compiled {rec['compiled_us']:.1f} us; ratio {rec['ratio_per_decision']:.2f}x "
                      f"(rounds {rec['low']:.2f}-{rec['high']:.2f}x)")
            result[setup] = rec
    return result


if __name__ == "__main__":
    main()
