"""How fast the command line answers, as whole processes: `maester version` and the help pages against
`python -c pass`, and warm `maester check` and engine commands in CPU seconds (issue 23 item 4).

Every figure is the CPU time (user + system) of a whole child process, read from the operating system when the
child ends (`os.wait4`), over `--pairs` paired runs: the two commands of a pair run one after the other, in
alternating order, and each pair gives a ratio; it prints the median with the lowest and highest. One `--warmup`
run of each command comes first and is not counted: it fills the caches (compiled bundle, checked bundle, check
result, bytecode), so every counted run is warm, as a user's second run is.

By default the children write and read bytecode in a private folder (PYTHONPYCACHEPREFIX), as an installed
package has its .pyc files; `--no-bytecode` runs them as this environment says (PYTHONDONTWRITEBYTECODE=1 compiles
every module from source at every start). `--baseline COMMIT` also runs each command on that commit's tree (a
temporary git worktree beside this one, both trees started the same way) and prints baseline / this tree.

    python benchmarks/bench_start.py                       # 9 pairs per command
    python benchmarks/bench_start.py --pairs 15 --baseline 3ff4147
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

BASE = [sys.executable, "-c", "pass"]
MAESTER = str(Path(sys.executable).with_name("maester"))
DEFAULT_BASELINE = "3ff4147"  # the commit before the stored help pages, the check result and the checked bundle

# (label, maester's arguments, its exit code): measured against `python -c pass`
AGAINST_PYTHON = [
    ("maester version", ["version"], 0),
    ("maester --help", ["--help"], 0),
    ("maester check --help", ["check", "--help"], 0),
]
# warm commands, in CPU seconds (the goal of issue 23: a warm check within 0.25 s)
WARM = [
    ("maester check", ["check"], 0),
    ("maester check --variant asos -q", ["check", "--variant", "asos", "-q"], 0),
    ("maester play --stop-at 0 (engine load)", ["play", "--base", "-p", "3", "--stop-at", "0", "-q"], 0),
]
GOALS = {"maester version": "3x", "maester --help": "3x", "maester check": "0.25 s"}
# a child started the same way on either tree: `maester` from the folder in argv[1], then the front's main
LAUNCH = ("import sys\nsys.meta_path[:] = [f for f in sys.meta_path if not type(f).__module__.startswith("
          "'__editable__')]\nsys.path_hooks[:] = [h for h in sys.path_hooks if '__editable__' not in "
          "getattr(h, '__module__', '')]\nsys.path.insert(0, sys.argv[1])\nsys.argv = ['maester', *sys.argv[2:]]\n"
          "from maester.tools.front import main\nmain()")


@dataclass
class Figure:
    label: str
    times: list[float]  # CPU seconds of each counted run
    ratios: list[float]  # per pair, this / the other command (empty without one)

    @staticmethod
    def spread(values: list[float], unit: str = "") -> str:
        return (f"{statistics.median(values):.3f}{unit} ({min(values):.3f}-{max(values):.3f})" if unit else
                f"{statistics.median(values):.2f}x ({min(values):.2f}-{max(values):.2f}x)")


def cpu_seconds(command: list[str], env: dict, expected: int) -> float:
    """The CPU time of one whole run of `command` (its output thrown away); a wrong exit code stops the run."""
    proc = subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                            env=env)
    err = proc.stderr.read() if proc.stderr else b""
    _, status, usage = os.wait4(proc.pid, 0)
    proc.returncode = os.waitstatus_to_exitcode(status)
    if proc.returncode != expected:
        raise SystemExit(f"{' '.join(command)}: exit {proc.returncode}, expected {expected}\n{err.decode()[-2000:]}")
    return usage.ru_utime + usage.ru_stime


def paired(a: list[str], a_code: int, b: list[str] | None, b_code: int, env: dict, pairs: int,
           warmup: int) -> tuple[list[float], list[float], list[float]]:
    """`pairs` rounds of A and B (alternating which goes first): A's times, B's times, the ratios A/B."""
    for _ in range(warmup):
        cpu_seconds(a, env, a_code)
        if b is not None:
            cpu_seconds(b, env, b_code)
    times_a, times_b, ratios = [], [], []
    for i in range(pairs):
        if b is None:
            times_a.append(cpu_seconds(a, env, a_code))
            continue
        if i % 2:
            tb, ta = cpu_seconds(b, env, b_code), cpu_seconds(a, env, a_code)
        else:
            ta, tb = cpu_seconds(a, env, a_code), cpu_seconds(b, env, b_code)
        times_a.append(ta)
        times_b.append(tb)
        ratios.append(ta / tb)
    return times_a, times_b, ratios


def child_env(bytecode_folder: Path | None) -> dict:
    env = dict(os.environ)
    if bytecode_folder is not None:  # as an installed package: modules compiled once, read from .pyc after
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        env["PYTHONPYCACHEPREFIX"] = str(bytecode_folder)
    return env


def main(argv: list[str] | None = None) -> dict:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--pairs", type=int, default=9, help="counted paired runs per command (default 9)")
    p.add_argument("--warmup", type=int, default=1, help="uncounted runs of each command first (default 1)")
    p.add_argument("--no-bytecode", action="store_true", help="no .pyc: every start compiles the modules")
    p.add_argument("--baseline", nargs="?", const=DEFAULT_BASELINE, default=None,
                   help=f"also run every command on this commit's tree (default {DEFAULT_BASELINE})")
    p.add_argument("--only", nargs="*", default=None, help="only the commands whose label contains one of these")
    args = p.parse_args(argv)
    if args.pairs < 1 or args.warmup < 0:
        raise SystemExit("--pairs must be at least 1, --warmup at least 0")
    chosen = [c for c in [*AGAINST_PYTHON, *WARM] if args.only is None or any(o in c[0] for o in args.only)]
    result: dict = {"pairs": args.pairs, "bytecode": not args.no_bytecode, "commands": {}}
    with tempfile.TemporaryDirectory(prefix="maester-bench-start-") as tmp:
        env = child_env(None if args.no_bytecode else Path(tmp) / "pycache")
        print(f"whole processes, CPU seconds (user + system), {args.pairs} pairs after {args.warmup} warm-up run(s); "
              f"{'bytecode cached' if not args.no_bytecode else 'no bytecode (modules compiled at every start)'}")
        base_times: list[float] = []
        for label, cmd, code in chosen:
            if (label, cmd, code) in AGAINST_PYTHON:
                mine, base, ratios = paired([MAESTER, *cmd], code, BASE, 0, env, args.pairs, args.warmup)
                base_times += base
                row = {"cpu_s": statistics.median(mine), "ratio_to_python": statistics.median(ratios),
                       "ratio_min": min(ratios), "ratio_max": max(ratios)}
                print(f"  {label:42} {Figure.spread(mine, ' s')}   vs python -c pass: {Figure.spread(ratios)}"
                      + (f"   goal <= {GOALS[label]}" if label in GOALS else ""))
            else:
                mine, _, _ = paired([MAESTER, *cmd], code, None, 0, env, args.pairs, args.warmup)
                row = {"cpu_s": statistics.median(mine), "cpu_min": min(mine), "cpu_max": max(mine)}
                print(f"  {label:42} {Figure.spread(mine, ' s')}"
                      + (f"   goal <= {GOALS[label]}" if label in GOALS else ""))
            result["commands"][label] = row
        if base_times:
            result["python_cpu_s"] = statistics.median(base_times)
            print(f"  {'python -c pass':42} {Figure.spread(base_times, ' s')}")
        if args.baseline:
            result["baseline"] = against_baseline(args, chosen, env, Path(tmp))
    return result


def against_baseline(args, chosen, env: dict, tmp: Path) -> dict:
    """Each command on the baseline tree and on this one, started the same way, paired: baseline / this."""
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from trees import REPO, checked_out, make_shim

    out: dict = {"commit": args.baseline, "commands": {}}
    try:
        context = checked_out(args.baseline)
        tree, scratch = context.__enter__()
    except subprocess.CalledProcessError:
        raise SystemExit(f"cannot check out {args.baseline}: not a commit of this clone") from None
    try:
        old, new = make_shim(tree, scratch / "old"), make_shim(REPO, scratch / "new")
        print(f"against {args.baseline} (both trees started the same way; above 1: this tree is faster)")
        for label, cmd, code in chosen:
            this, then, ratios = paired([sys.executable, "-c", LAUNCH, str(new), *cmd], code,
                                        [sys.executable, "-c", LAUNCH, str(old), *cmd], code, env, args.pairs,
                                        args.warmup)
            speedup = [1 / r for r in ratios]
            out["commands"][label] = {"this_cpu_s": statistics.median(this), "baseline_cpu_s": statistics.median(then),
                                      "speedup": statistics.median(speedup), "speedup_min": min(speedup),
                                      "speedup_max": max(speedup)}
            print(f"  {label:42} {statistics.median(then):.3f} s -> {statistics.median(this):.3f} s: "
                  f"{Figure.spread(speedup)}")
    finally:
        context.__exit__(None, None, None)
    return out


if __name__ == "__main__":
    main(sys.argv[1:])
