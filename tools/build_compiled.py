"""An opt-in compiled engine: the hot interpreter modules built with Cython, used only while their source is unchanged.

    python tools/build_compiled.py            # build what is missing (needs `pip install cython` and a C compiler)
    MAESTER_COMPILED=1 maester ...            # use the compiled modules whose source is unchanged, else the .py

The sources are compiled unchanged (Cython's pure-Python mode; annotations are not used as C types, so a value of
another type than its hint behaves as in Python). Each module is built into a cache folder
(`$MAESTER_COMPILED_DIR`, default `~/.cache/maester/compiled`) under a name holding the SHA-256 of the source it
was built from. With `MAESTER_COMPILED=1`, `maester.interpreter` puts `CompiledFinder` first on `sys.meta_path`:
it hashes a module's .py when it is imported and loads the compiled module of that hash, or the .py itself when
there is none (one warning line on stderr per process). So an edited source never runs stale compiled code, and
without the variable nothing here runs: `pip install -e .` stays pure Python and needs no compiler.
benchmarks/bench_compiled.py measures the gain (about 1.3-1.5x per decision, see benchmarks/README.md).

This file imports only the standard library at the top: the hook runs inside the engine's import.
"""

from __future__ import annotations

import hashlib
import importlib.machinery
import importlib.util
import os
import shutil
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
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

# annotation_typing off: a hint is not a C type check (Python ignores hints, and so must the compiled code)
DIRECTIVES = {"language_level": 3, "annotation_typing": False}


def cache_dir() -> Path:
    return Path(os.environ.get("MAESTER_COMPILED_DIR") or Path.home() / ".cache" / "maester" / "compiled")


def compiled_name(fullname: str, source: bytes) -> str:
    """The cached file of `fullname` built from `source`: another source, another name."""
    return f"{fullname}.{hashlib.sha256(source).hexdigest()[:24]}{SUFFIX}"


def source_of(fullname: str, root: Path = REPO) -> Path:
    """The .py of a `maester.interpreter...` module in the tree `root` (the repository maps `maester.x` to `x/`)."""
    return root.joinpath(*fullname.split(".")[1:]).with_suffix(".py")


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


def build(sources: dict[str, Path], cache: Path, jobs: int | None = None, quiet: bool = True) -> list[str]:
    """Compile each module (full name -> .py) whose current source has no cached build; returns the names built.

    The source is copied to a scratch folder first (no .c or build files in the tree), compiled under its full
    name (so classes keep their `__module__` and pickle as the .py's do), then moved into the cache.
    """
    from Cython.Build import cythonize  # (only here: the hook above must not need Cython)
    from setuptools import Distribution, Extension
    from setuptools.command.build_ext import build_ext

    cache.mkdir(parents=True, exist_ok=True)
    todo = {}
    for name, path in sources.items():
        text = path.read_bytes()
        if not (cache / compiled_name(name, text)).exists():
            todo[name] = text
    if not todo:
        return []
    with tempfile.TemporaryDirectory(prefix="maester-compile-") as tmp:
        tmp = Path(tmp)
        exts = []
        for name, text in todo.items():
            src = tmp / "src" / Path(*name.split(".")).with_suffix(".py")
            src.parent.mkdir(parents=True, exist_ok=True)
            src.write_bytes(text)  # the very bytes hashed: the cache name cannot describe another source
            exts.append(Extension(name, [str(src)]))
        exts = cythonize(exts, compiler_directives=DIRECTIVES, quiet=quiet, nthreads=jobs or os.cpu_count() or 1)
        cmd = build_ext(Distribution({"ext_modules": exts}))
        cmd.build_lib, cmd.build_temp = str(tmp / "lib"), str(tmp / "tmp")
        cmd.parallel = jobs or os.cpu_count() or 1
        cmd.ensure_finalized()
        cmd.run()
        for name, text in todo.items():
            out = tmp / "lib" / Path(*name.split(".")).with_suffix(SUFFIX)
            final = cache / compiled_name(name, text)
            shutil.move(out, final.with_suffix(".part"))
            os.replace(final.with_suffix(".part"), final)  # atomic: a reader never sees half a file
    return list(todo)


def main(argv: list[str] | None = None) -> int:
    import argparse

    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--cache", type=Path, default=None, help="the cache folder (default $MAESTER_COMPILED_DIR or "
                   "~/.cache/maester/compiled)")
    p.add_argument("--jobs", type=int, default=None, help="parallel C compilations (default: every core)")
    p.add_argument("--clean", action="store_true", help="first remove every cached build of this Python")
    args = p.parse_args(argv)
    cache = args.cache or cache_dir()
    if args.clean and cache.is_dir():
        for f in cache.glob(f"maester.*{SUFFIX}"):
            f.unlink()
    try:
        import Cython  # noqa: F401
    except ImportError:
        print("Cython is missing: pip install cython (or pip install -e '.[compiled]')", file=sys.stderr)
        return 1
    built = build({m: source_of(m) for m in MODULES}, cache, args.jobs, quiet=True)
    print(f"{len(built)} modules built, {len(MODULES) - len(built)} up to date, in {cache}; "
          "run with MAESTER_COMPILED=1 to use them")
    return 0


if __name__ == "__main__":
    sys.exit(main())
