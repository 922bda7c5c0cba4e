"""Running the same benchmark code on this checkout and on an older commit beside it.

`checked_out(commit)` puts the commit in a temporary git worktree (removed afterwards); `make_shim(tree, into)`
makes a folder where `maester.<x>` is `tree/<x>` (the layout pyproject maps at install time); a child process
started with `python -c IMPORT_TREE + code SHIM ...` imports `maester` from that shim, never the installed
package, and finds the engine in either layout of the interpreter.
"""

from __future__ import annotations

import subprocess
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
PACKAGE_DIRS = ("dsl", "interpreter", "tools", "content", "schemas")

# the start of a child's code: `maester` from the shim in argv[1]; gm (the game module), agents_for, Rules and
# new_game bound whichever layout the tree has
IMPORT_TREE = r"""
import sys
sys.meta_path[:] = [f for f in sys.meta_path if not type(f).__module__.startswith("__editable__")]
sys.path_hooks[:] = [h for h in sys.path_hooks if "__editable__" not in getattr(h, "__module__", "")]
sys.path.insert(0, sys.argv[1])
for name in [m for m in sys.modules if m == "maester" or m.startswith("maester.")]:
    del sys.modules[name]
try:  # the interpreter's layer folders (since 2026-12); older trees keep every module at the top
    import maester.interpreter.procedures.game as gm
    from maester.interpreter.frontends.agents import agents_for
    from maester.interpreter.core.rules import Rules
except ImportError:
    import maester.interpreter.game as gm
    from maester.interpreter.agents import agents_for
    from maester.interpreter.rules import Rules
# this tree, not the installed package (or, with MAESTER_COMPILED=1, its build from this tree's very source)
assert gm.__file__.startswith(sys.argv[1]) or any(gm.__name__ in getattr(f, "loaded", ()) for f in sys.meta_path), \
    gm.__file__
from maester.interpreter.mod import new_game
"""


# what follows IMPORT_TREE (or another import of `maester`) in a child that plays random games: argv[2:] are the mode,
# the setup, the first seed and the number of games; `play`, `checked_games` and `timed_games` do the same work on
# every tree (bench_engine.py, bench_compiled.py)
GAMES = r"""
import hashlib, json, time
rules = Rules.default()
mode, setup, first, n = sys.argv[2], sys.argv[3], int(sys.argv[4]), int(sys.argv[5])

def play(seed):
    g = new_game(rules, setup, seed=seed)
    agents = agents_for(g.state.houses, "random", seed=seed)
    while g.decision is not None:
        g.answer(agents[g.decision.house].act(g, g.decision))
    return g

def checked_games():  # seed -> [final state hash, decisions, events, a hash of every event]
    out = {}
    for seed in range(first, first + n):
        g = play(seed)
        events = hashlib.sha256(json.dumps(g.events, sort_keys=True, default=list).encode()).hexdigest()[:16]
        out[seed] = [g.state.hash(), len(g.answers), g.event_count, events]
    return out

def timed_games():  # (wall seconds, CPU seconds, decisions) of the games, after a warm-up game (first calls, caches)
    play(first)
    t0, c0 = time.perf_counter(), time.process_time()
    decisions = sum(len(play(seed).answers) for seed in range(first, first + n))
    return time.perf_counter() - t0, time.process_time() - c0, decisions
"""

def make_shim(tree: Path, into: Path) -> Path:
    """A folder where `maester.<x>` is `tree/<x>`: on sys.path it makes `maester.*` that tree."""
    pkg = into / "maester"
    pkg.mkdir(parents=True)
    for d in PACKAGE_DIRS:
        (pkg / d).symlink_to(tree / d, target_is_directory=True)
    return into


@contextmanager
def checked_out(commit: str, prefix: str = "maester-bench-") -> Iterator[tuple[Path, Path]]:
    """(the commit's tree, a scratch folder), both removed afterwards."""
    with tempfile.TemporaryDirectory(prefix=prefix) as tmp:
        tmp = Path(tmp)
        tree = tmp / "baseline"
        subprocess.run(["git", "-C", str(REPO), "worktree", "add", "--detach", str(tree), commit],
                       check=True, capture_output=True)
        try:
            yield tree, tmp
        finally:
            subprocess.run(["git", "-C", str(REPO), "worktree", "remove", "--force", str(tree)],
                           check=False, capture_output=True)
