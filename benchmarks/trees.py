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
assert gm.__file__.startswith(sys.argv[1]), gm.__file__  # this tree, not the installed package
from maester.interpreter.mod import new_game
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
