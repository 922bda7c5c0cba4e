"""The opt-in compiled engine's loader: with MAESTER_COMPILED=1 a module of `MODULES` is loaded from its Cython build
(tools/build_compiled.py makes them) only while its .py is the very source it was built from; else the .py runs.

Standard library only, and imported by `maester.interpreter` before any engine module: it must not import one."""

from __future__ import annotations

import hashlib
import importlib.machinery
import importlib.util
import os
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
SUFFIX = importlib.machinery.EXTENSION_SUFFIXES[0]  # e.g. .cpython-311-x86_64-linux-gnu.so: one Python, one ABI

# The modules compiled: the engine's play (the validators, schema and format modules run once; schema_files reads
# its own __file__, which a cached module would not have)
MODULES = [f"maester.interpreter.{m}" for m in (
    "core.board", "core.control", "core.cursor", "core.decision_kinds", "core.decisions", "core.events",
    "core.extensions", "core.position", "core.procedure_registry", "core.rng", "core.rules", "core.skips",
    "core.snapshot", "core.state", "core.steps",
    "effects.evaluator", "effects.objective_exchange", "effects.objectives", "effects.pregame", "effects.primitives",
    "procedures.action", "procedures.combat", "procedures.game", "procedures.moments", "procedures.mustering",
    "procedures.phases", "procedures.planning", "procedures.victory", "procedures.westeros",
    "mod.bank", "mod.effects", "mod.game", "mod.loyalty", "mod.state", "mod.vassals")]

def cache_dir() -> Path:
    return Path(os.environ.get("MAESTER_COMPILED_DIR") or Path.home() / ".cache" / "maester" / "compiled")


def compiled_name(fullname: str, source: bytes) -> str:
    """The cached file of `fullname` built from `source`: another source, another name."""
    return f"{fullname}.{hashlib.sha256(source).hexdigest()[:24]}{SUFFIX}"


def source_of(fullname: str, root: Path = REPO) -> Path:
    """The .py of a `maester.interpreter...` module in the tree `root` (the repository maps `maester.x` to `x/`)."""
    return root.joinpath(*fullname.split(".")[1:]).with_suffix(".py")


def stale_modules(root: Path = REPO, cache: Path | None = None) -> list[str]:
    """The modules of MODULES with no compiled module for their current source (they would run as .py)."""
    cache = cache or cache_dir()
    return [m for m in MODULES if not (cache / compiled_name(m, source_of(m, root).read_bytes())).exists()]


class CompiledFinder:
    """Finds the compiled module of an unchanged source; else nothing, and the ordinary finders load the .py."""

    def __init__(self, modules: list[str], cache: Path) -> None:
        self.modules = set(modules)
        self.cache = cache
        self.warned = False
        self.loaded: list[str] = []  # (what was loaded compiled: the benchmark and the tests read it)

    def find_spec(self, fullname: str, path=None, target=None):
        if fullname not in self.modules:
            return None
        spec = importlib.machinery.PathFinder.find_spec(fullname, path)
        if spec is None or not (spec.origin or "").endswith(".py"):
            return None
        built = self.cache / compiled_name(fullname, Path(spec.origin).read_bytes())
        if not built.exists():
            if not self.warned:
                self.warned = True
                print(f"maester: MAESTER_COMPILED=1, but {fullname} (and maybe others) has no compiled module for its "
                      "current source: running the .py (python tools/build_compiled.py builds them)", file=sys.stderr)
            return None
        self.loaded.append(fullname)
        loader = importlib.machinery.ExtensionFileLoader(fullname, str(built))
        return importlib.util.spec_from_file_location(fullname, built, loader=loader)


def install(modules: list[str] | None = None, cache: Path | None = None) -> CompiledFinder:
    """Put the finder first on sys.meta_path (once); the modules already imported stay as they are."""
    for f in sys.meta_path:
        if isinstance(f, CompiledFinder):
            return f
    finder = CompiledFinder(MODULES if modules is None else modules, cache or cache_dir())
    sys.meta_path.insert(0, finder)
    return finder
