"""Cold compiles of the bundled content: this checkout against an older commit, side by side in one run.

The older commit (default c664a6b, the last one before the compile was made fast) is checked out into a
temporary `git worktree`; nothing is installed. Each compile runs in a fresh Python process whose import
path points `maester.*` at one tree (the editable install of this environment is switched off in that
process, and the process reports the file it imported, so the old code really runs). Processes of the two
trees alternate, round after round, to spread the machine's noise evenly; the median of each is reported.

Three numbers per tree:

- compile: `compile_paths(cache=False)` in the process: the bundle cache is off, so every file is checked,
  lowered and schema-validated again. Files parsed before come from the parse cache (keyed by their text),
  as they do for an author who changed one file; the old code has no such cache.
- first run: the same, with every cache of the new code empty (a fresh cache folder per process): the
  first compile on a new machine, or after the parser itself changed.
- process: the wall-clock time of the whole `compile` process (interpreter start, imports, compile).

    python benchmarks/bench_compile.py                      # 7 rounds against c664a6b
    python benchmarks/bench_compile.py --rounds 15 --baseline v0.1.0
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from trees import REPO, make_shim  # benchmarks/trees.py

DEFAULT_BASELINE = "c664a6b"

# Runs in the child process: import maester from the tree given on the command line, compile, report.
_CHILD = r"""
import json, sys, time
shim = sys.argv[1]
# the editable install of the running environment would win over the path: switch it off
sys.meta_path[:] = [f for f in sys.meta_path if "editable" not in type(f).__name__.lower()
                    and "editable" not in getattr(f, "__name__", "").lower()]
sys.path_hooks[:] = [h for h in sys.path_hooks if "editable" not in getattr(h, "__qualname__", "").lower()]
sys.path_importer_cache.clear()
sys.path.insert(0, shim)
t0 = time.perf_counter()
import maester.dsl.compile as c
t1 = time.perf_counter()
if len(sys.argv) > 2:  # a broken pack: report the errors, as `maester check --pack PACK` would
    from maester.dsl import CompileError
    try:
        c.compile_paths([c.default_content_dir(), sys.argv[2]], cache=False)
        messages = []
    except CompileError as e:
        messages = [d.format() for d in e.diagnostics]
    print(json.dumps({"file": c.__file__, "messages": messages}))
    raise SystemExit(0)
bundle = c.compile_paths(cache=False)
t2 = time.perf_counter()
print(json.dumps({"file": c.__file__, "import_s": t1 - t0, "compile_s": t2 - t1,
                  "cards": len(bundle.get("house_cards", {})), "sources": len(bundle.get("sources", []))}))
"""

# Broken packs compiled with the bundled content by both trees: the errors and messages must be the same.
BROKEN_PACKS = {
    "unknown key": 'house-card x "X" {\n  set base  house stark  strength 1\n  sword 1\n}\n',
    "syntax errors": 'house-card x "X" {\n  set base  house stark\n  strength [1,\n}\n'
                     'table t "T" {\n  row a [1 2]\n}\n',
    "unknown card in an effect": 'house-card x "X" {\n  set base  house stark  strength 1\n  when immediately '
                                 '{ choose c in [tywin-lanister] { take-from-discard(you, c) } }\n}\n',
    "duplicate id": 'house-card tywin-lannister "Tywin" {\n  set base  house lannister  strength 4\n}\n',
    "wrong value": 'house-card x "X" {\n  set base  house nobody  strength "four"\n}\n',
}


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--baseline", default=DEFAULT_BASELINE,
                   help=f"the commit to compare with (default {DEFAULT_BASELINE})")
    p.add_argument("--rounds", type=int, default=7, help="compiles of each kind per tree (default 7)")
    p.add_argument("--no-first-run", action="store_true", help="skip the empty-cache measurement")
    p.add_argument("--error-cases", type=int, default=None,
                   help="compare the errors of only the first N broken packs (default all; 0 skips the comparison)")
    return p.parse_args(argv)



def run_child(shim: Path, tree: Path, cache_home: Path, pack: Path | None = None) -> dict:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH",)}
    env["XDG_CACHE_HOME"] = str(cache_home)
    env["MAESTER_NO_CACHE"] = "1"  # belt and braces: older trees may not know compile_paths(cache=False)
    env["PYTHONDONTWRITEBYTECODE"] = "1"  # both trees import from their (already compiled or not) sources alike
    t0 = time.perf_counter()
    command = [sys.executable, "-c", _CHILD, str(shim)] + ([str(pack)] if pack is not None else [])
    proc = subprocess.run(command, capture_output=True, text=True, env=env)
    wall = time.perf_counter() - t0
    if proc.returncode != 0:
        raise SystemExit(f"compiling with {tree} failed:\n{proc.stderr.strip()}")
    result = json.loads(proc.stdout.strip().splitlines()[-1])
    imported = Path(result["file"]).resolve()
    if not imported.is_relative_to((shim / "maester").resolve()) and not imported.is_relative_to(tree.resolve()):
        raise SystemExit(f"the process compiled with {imported}, not with {tree}")
    result["process_s"] = wall
    return result


def compare_errors(cases: dict[str, str], old_shim: Path, old_tree: Path, new_shim: Path, tmp_path: Path
                   ) -> list[str]:
    """Compile each broken pack with both trees (new: caches warm, as after an edit); the names of those that differ."""
    differences = []
    for i, (name, text) in enumerate(cases.items()):
        pack = tmp_path / f"broken-{i}" / "pack"
        pack.mkdir(parents=True)
        (pack / "broken.mst").write_text(text, encoding="utf-8")
        old = run_child(old_shim, old_tree, tmp_path / "cache-old", pack)["messages"]
        for cache in ("cache-warm", "cache-warm"):  # twice: the second run reads what the first cached
            new = run_child(new_shim, REPO, tmp_path / cache, pack)["messages"]
            if new != old or not old:
                differences.append(name)
                break
    return differences


def checkout(commit: str, where: Path) -> Path:
    tree = where / "baseline"
    proc = subprocess.run(["git", "-C", str(REPO), "worktree", "add", "--detach", str(tree), commit],
                          capture_output=True, text=True)
    if proc.returncode != 0:
        raise SystemExit(f"cannot check out {commit}: {proc.stderr.strip()}")
    return tree


def remove_checkout(tree: Path) -> None:
    subprocess.run(["git", "-C", str(REPO), "worktree", "remove", "--force", str(tree)], capture_output=True)


def _median(rows: list[dict], key: str) -> float:
    return statistics.median(r[key] for r in rows)


def main(argv: list[str] | None = None) -> dict:
    args = parse_args(argv)
    if args.rounds < 1:
        raise SystemExit("--rounds must be at least 1")
    with tempfile.TemporaryDirectory(prefix="maester-bench-compile-") as tmp:
        tmp_path = Path(tmp)
        old_tree = checkout(args.baseline, tmp_path)
        try:
            old_shim = make_shim(old_tree, tmp_path / "shim-old")
            new_shim = make_shim(REPO, tmp_path / "shim-new")
            warm = tmp_path / "cache-warm"
            old_cache = tmp_path / "cache-old"
            run_child(new_shim, REPO, warm)  # fills the new code's parse caches, as any earlier run would have
            runs: dict[str, list[dict]] = {"old": [], "new": [], "first": []}
            for i in range(args.rounds):
                order = ["old", "new", "first"] if i % 2 == 0 else ["first", "new", "old"]
                for which in order:
                    if which == "first" and args.no_first_run:
                        continue
                    if which == "old":
                        runs["old"].append(run_child(old_shim, old_tree, old_cache))
                    elif which == "new":
                        runs["new"].append(run_child(new_shim, REPO, warm))
                    else:
                        runs["first"].append(run_child(new_shim, REPO, tmp_path / f"cache-empty-{i}"))
            cases = dict(list(BROKEN_PACKS.items())[:args.error_cases])  # [:None] is every case
            differences = compare_errors(cases, old_shim, old_tree, new_shim, tmp_path)
        finally:
            remove_checkout(old_tree)
    old, new, first = runs["old"], runs["new"], runs["first"]
    result = {
        "baseline": args.baseline, "rounds": args.rounds,
        "old_compile_s": _median(old, "compile_s"), "new_compile_s": _median(new, "compile_s"),
        "old_process_s": _median(old, "process_s"), "new_process_s": _median(new, "process_s"),
        "old_sources": old[0]["sources"], "new_sources": new[0]["sources"],
        "old_cards": old[0]["cards"], "new_cards": new[0]["cards"],
    }
    result["compile_ratio"] = result["old_compile_s"] / result["new_compile_s"]
    result["process_ratio"] = result["old_process_s"] / result["new_process_s"]
    result["error_cases"] = len(cases)
    result["error_differences"] = differences
    if first:
        result["first_compile_s"] = _median(first, "compile_s")
        result["first_process_s"] = _median(first, "process_s")
        result["first_ratio"] = result["old_compile_s"] / result["first_compile_s"]
    print(f"cold compile of the bundled content, median of {args.rounds} alternating rounds "
          f"(baseline {args.baseline}: {result['old_sources']} files, {result['old_cards']} house cards; "
          f"this tree: {result['new_sources']} files, {result['new_cards']} house cards)")
    print(f"{'':28} {'baseline':>10} {'this tree':>10} {'ratio':>7}")
    print(f"{'compile (bundle cache off)':28} {result['old_compile_s'] * 1000:8.0f}ms "
          f"{result['new_compile_s'] * 1000:8.0f}ms {result['compile_ratio']:6.1f}x")
    if first:
        print(f"{'compile, every cache empty':28} {result['old_compile_s'] * 1000:8.0f}ms "
              f"{result['first_compile_s'] * 1000:8.0f}ms {result['first_ratio']:6.1f}x")
    print(f"{'whole process':28} {result['old_process_s'] * 1000:8.0f}ms "
          f"{result['new_process_s'] * 1000:8.0f}ms {result['process_ratio']:6.1f}x")
    if cases:
        same = len(cases) - len(differences)
        print(f"errors and messages of {len(cases)} broken packs: {same} the same"
              + (f"; DIFFERENT: {', '.join(differences)}" if differences else ""))
    return result


if __name__ == "__main__":
    main(sys.argv[1:])
