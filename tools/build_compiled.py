"""An opt-in compiled engine: the hot interpreter modules built with Cython, used only while their source is unchanged.

    python tools/build_compiled.py            # build what is missing (needs `pip install cython` and a C compiler)
    MAESTER_COMPILED=1 maester ...            # use the compiled modules whose source is unchanged, else the .py

The sources are compiled unchanged (Cython's pure-Python mode; annotations are not used as C types, so a value of
another type than its hint behaves as in Python). Each module is built into a cache folder
(`$MAESTER_COMPILED_DIR`, default `~/.cache/maester/compiled`) under a name holding the SHA-256 of the source it
was built from. With `MAESTER_COMPILED=1`, `maester.interpreter` puts `CompiledFinder`
(interpreter/core/compiled_modules.py) first on `sys.meta_path`: it hashes a module's .py when it is imported and
loads the compiled module of that hash, or the .py itself when there is none (one warning line on stderr per
process). So an edited source never runs stale compiled code, and without the variable nothing here runs: `pip
install -e .` stays pure Python and needs no compiler.
benchmarks/bench_compiled.py measures the gain (about 1.3-1.5x per decision, see benchmarks/README.md).

"""

from __future__ import annotations

import os
import shutil
import sys
import tempfile
from pathlib import Path

from maester.interpreter.core.compiled_modules import MODULES, SUFFIX, cache_dir, compiled_name, source_of

__all__ = ["MODULES", "SUFFIX", "build", "cache_dir", "compiled_name", "main", "source_of"]

# annotation_typing off: a hint is not a C type check (Python ignores hints, and so must the compiled code)
DIRECTIVES = {"language_level": 3, "annotation_typing": False}


def build(sources: dict[str, Path], cache: Path, jobs: int | None = None, quiet: bool = True) -> list[str]:
    """Compile each module (full name -> .py) whose current source has no cached build; returns the names built.

    The source is copied to a scratch folder first (no .c or build files in the tree), compiled under its full
    name (so classes keep their `__module__` and pickle as the .py's do), then moved into the cache.
    """
    from Cython.Build import cythonize  # (only here: the loader must not need Cython)
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
