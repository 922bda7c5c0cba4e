"""The opt-in compiled engine (tools/build_compiled.py): a compiled module runs only while its source is unchanged.

Each case runs in a child process (the hook acts on imports). The build cases need Cython and a C compiler and
are skipped without them; they compile one tiny module, not the engine.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import sysconfig
import textwrap

import pytest

from maester.tools.build_compiled import MODULES, SUFFIX, build, compiled_name, source_of

from .conftest import REPO

try:
    import Cython  # noqa: F401
    HAVE_CYTHON = True
except ImportError:
    HAVE_CYTHON = False
needs_compiler = pytest.mark.skipif(not HAVE_CYTHON or not shutil.which(sysconfig.get_config_var("CC").split()[0]),
                                    reason="needs Cython and a C compiler")


def _run(code: str, cwd, **env) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", textwrap.dedent(code)], capture_output=True, text=True, cwd=cwd,
                          env={**{k: v for k, v in os.environ.items() if k != "MAESTER_COMPILED"}, **env}, check=True)


def test_every_compiled_module_is_an_interpreter_source():
    assert len(MODULES) == len(set(MODULES)) == 35
    assert all(source_of(m).is_file() for m in MODULES)
    assert source_of("maester.interpreter.core.rng") == REPO / "interpreter" / "core" / "rng.py"


def test_the_cache_name_follows_the_source():
    a, b = compiled_name("maester.interpreter.core.rng", b"x = 1\n"), compiled_name("maester.interpreter.core.rng", b"x = 2\n")
    assert a != b and a.startswith("maester.interpreter.core.rng.") and a.endswith(SUFFIX)


def test_without_a_build_the_engine_runs_its_sources_and_says_so_once(tmp_path):
    out = _run("""
        import sys
        import maester.interpreter.procedures.game as gm
        finder = next(f for f in sys.meta_path if type(f).__name__ == "CompiledFinder")
        print(gm.__file__.endswith(".py"), finder.loaded)
    """, tmp_path, MAESTER_COMPILED="1", MAESTER_COMPILED_DIR=str(tmp_path / "empty"))
    assert out.stdout.split() == ["True", "[]"]
    assert len(out.stderr.splitlines()) == 1 and "running the .py" in out.stderr


def test_without_the_variable_there_is_no_hook(tmp_path):
    out = _run("""
        import sys
        import maester.interpreter
        print([type(f).__name__ for f in sys.meta_path if type(f).__name__ == "CompiledFinder"])
    """, tmp_path)
    assert out.stdout.split() == ["[]"] and out.stderr == ""


@needs_compiler
def test_a_compiled_module_is_loaded_only_while_its_source_is_unchanged(tmp_path):
    pkg = tmp_path / "tree" / "pk"
    pkg.mkdir(parents=True)
    (pkg / "__init__.py").write_text("")
    (pkg / "m.py").write_text("class K:\n    pass\n\ndef steps():\n    yield 1\n\nVALUE = 1\n")
    cache = tmp_path / "cache"
    assert build({"pk.m": pkg / "m.py"}, cache) == ["pk.m"]
    assert build({"pk.m": pkg / "m.py"}, cache) == []  # up to date: nothing built again
    check = f"""
        import sys
        sys.path.insert(0, {str(tmp_path / "tree")!r})
        from maester.interpreter.core.compiled_modules import install
        from pathlib import Path
        finder = install(["pk.m"], Path({str(cache)!r}))
        import pickle, pk.m as m
        print(m.VALUE, m.__file__.endswith(".py"), m.K.__module__, type(pickle.loads(pickle.dumps(m.K()))).__name__)
    """
    first = _run(check, tmp_path)
    assert first.stdout.split() == ["1", "False", "pk.m", "K"] and first.stderr == ""
    (pkg / "m.py").write_text("class K:\n    pass\n\nVALUE = 2\n")  # edited: the build is stale
    second = _run(check, tmp_path)
    assert second.stdout.split() == ["2", "True", "pk.m", "K"]
    assert len(second.stderr.splitlines()) == 1 and "pk.m" in second.stderr


@pytest.mark.slow  # builds every module of MODULES (minutes on a cold cache)
@needs_compiler
def test_bench_compiled_plays_the_same_games_compiled(capsys):
    from .test_benchmarks import load

    result = load("bench_compiled").main(["--setups", "mod-8p", "--games", "2", "--rounds", "0"])
    assert result["mod-8p"]["decisions"] > 0
    assert "identical games, 35 modules compiled" in capsys.readouterr().out


def test_a_module_is_stale_until_built_from_its_current_source(tmp_path):
    from maester.interpreter.core.compiled_modules import stale_modules

    first = MODULES[0]  # one module "built" (only the file's name is read: nothing is loaded)
    assert stale_modules(REPO, tmp_path) == MODULES
    (tmp_path / compiled_name(first, source_of(first, REPO).read_bytes())).write_bytes(b"")
    assert stale_modules(REPO, tmp_path) == MODULES[1:]
    (tmp_path / compiled_name(MODULES[1], b"an older source")).write_bytes(b"")
    assert stale_modules(REPO, tmp_path) == MODULES[1:]


def test_version_says_which_modules_would_run_compiled(tmp_path):
    """`maester version` with MAESTER_COMPILED=1 counts the modules built from their current source (none in an
    empty cache); without the variable it says nothing of it (and stays on its fast path)."""
    cmd = [sys.executable, "-c", "from maester.tools.front import main; main()", "version"]
    env = {k: v for k, v in os.environ.items() if k != "MAESTER_COMPILED"}
    compiled = {**env, "MAESTER_COMPILED": "1", "MAESTER_COMPILED_DIR": str(tmp_path)}
    on = subprocess.run([*cmd, "--json"], capture_output=True, text=True, env=compiled, check=True)
    assert json.loads(on.stdout)["result"]["compiled_engine"] == {"modules": 35, "stale": MODULES}
    text = subprocess.run(cmd, capture_output=True, text=True, env=compiled, check=True).stdout
    assert text.splitlines()[1] == ("engine: compiled, 0 of 35 modules built from their current source; run as Python: "
                                    "all (python tools/build_compiled.py builds them)")
    off = subprocess.run([*cmd, "--json"], capture_output=True, text=True, env=env, check=True)
    assert "compiled_engine" not in json.loads(off.stdout)["result"]
