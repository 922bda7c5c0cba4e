"""Warm runs reuse what was found before, keyed by everything it depends on (issue 23 item 4):

- `maester check` of unchanged content prints the remembered result (summary and warnings) without loading the
  compiler or the engine (tools/check_cache.py);
- an engine command loads a compiled bundle that passed the load checks before without checking it again
  (dsl/passed_checks.py, `Rules.default`);
- a changed content file, a changed engine or a damaged cache entry is a miss, never an error or a stale answer.
(Times are in benchmarks/bench_start.py, never asserted here.)"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from maester.dsl import passed_checks
from maester.dsl.cache import cache_dir
from maester.dsl.diagnostics import Diagnostic, Diagnostics, Span
from maester.dsl.sources import default_content_dir
from maester.interpreter.core import bundle_check
from maester.interpreter.core.rules import Rules
from maester.tools import check_cache
from maester.tools.cli import app

PACK = '''variant long-winter "Long Winter" {
  description "Arryn holds 12 power."
  game mother-of-dragons
  patch house arryn { power-tokens 12 }
}
'''


@pytest.fixture
def cache_home(tmp_path, monkeypatch):
    """A private cache folder: no compiled bundle, no check result and no checked marker of the user's is read or
    written. The parse caches (syntax trees and parser tables, keyed by each file's text) are shared with the
    user's, so that a test does not parse the whole content again."""
    shared = cache_dir()
    home = tmp_path / "cache"
    (home / "maester").mkdir(parents=True)
    for entry in [shared / "parsed", *shared.glob("lark-tables-*.pickle")]:
        if entry.exists():
            (home / "maester" / entry.name).symlink_to(entry)
    monkeypatch.setenv("XDG_CACHE_HOME", str(home))
    monkeypatch.delenv("MAESTER_NO_CACHE", raising=False)
    return home / "maester"


@pytest.fixture
def pack(tmp_path) -> Path:
    folder = tmp_path / "pack"
    folder.mkdir()
    (folder / "variants.mst").write_text(PACK, encoding="utf-8")
    return folder


@pytest.fixture
def checks(monkeypatch) -> list[bool]:
    """Every run of the engine's load checks (`check_bundle`), with whether it checked the variants too."""
    calls: list[bool] = []
    real = bundle_check.check_bundle

    def spy(bundle, diags, label="bundle", variants=False):
        calls.append(variants)
        return real(bundle, diags, label, variants)

    monkeypatch.setattr(bundle_check, "check_bundle", spy)
    return calls


def _check_json(*args: str, env: dict | None = None) -> tuple[int, str]:
    run = subprocess.run([sys.executable, "-m", "maester.tools.cli", "check", "--json", *args], capture_output=True,
                         text=True, env=env)
    return run.returncode, run.stdout


# ---- maester check ---------------------------------------------------------------------------------------------

def test_a_warm_check_prints_the_remembered_result_without_the_compiler_or_the_engine(cache_home, pack):
    env = {**os.environ, "XDG_CACHE_HOME": str(cache_home.parent)}
    cold = _check_json("--pack", str(pack), env=env)
    assert cold[0] == 0 and json.loads(cold[1])["result"]["counts"]["variants"] == 6
    assert len(list((cache_home / "checks").glob("*.json"))) == 1
    assert _check_json("--pack", str(pack), env=env) == cold  # the very same document
    probe = ("import sys\nsys.argv = ['maester', 'check', '-q', '--pack', sys.argv[1]]\nfrom maester.tools.front "
             "import main\ntry:\n main()\nfinally:\n print(sorted(m for m in sys.modules if m.startswith(("
             "'maester.dsl.compile', 'maester.dsl.lint', 'maester.interpreter', 'lark'))), file=sys.stderr)")
    warm = subprocess.run([sys.executable, "-c", probe, str(pack)], capture_output=True, text=True, env=env)
    assert warm.returncode == 0 and warm.stderr.strip().splitlines()[-1] == "[]", warm.stderr


def test_a_changed_content_file_is_checked_again(cache_home, pack):
    runner = CliRunner()
    first = json.loads(runner.invoke(app, ["check", "--json", "--pack", str(pack)]).stdout)
    (pack / "variants.mst").write_text(PACK.replace("long-winter", "longer-winter"), encoding="utf-8")
    second = json.loads(runner.invoke(app, ["check", "--json", "--pack", str(pack)]).stdout)
    assert "long-winter" in first["result"]["ids"]["variants"]
    assert "longer-winter" in second["result"]["ids"]["variants"] and "long-winter" not in second["result"]["ids"][
        "variants"]
    assert len(list((cache_home / "checks").glob("*.json"))) == 2


def test_an_error_is_never_remembered(cache_home, pack):
    (pack / "variants.mst").write_text(PACK.replace("arryn", "nobody"), encoding="utf-8")
    runner = CliRunner()
    for _ in range(2):
        doc = json.loads(runner.invoke(app, ["check", "--json", "--pack", str(pack)]).stdout)
        assert doc["exit_code"] == 1 and any("nobody" in d["message"] for d in doc["diagnostics"])
    assert not list((cache_home / "checks").glob("*.json"))


def test_a_damaged_result_is_a_miss_never_an_error(cache_home, pack):
    runner = CliRunner()
    good = runner.invoke(app, ["check", "--json", "--pack", str(pack)]).stdout
    (entry,) = (cache_home / "checks").glob("*.json")
    for damage in ("", "{not json", json.dumps({"format": "maester-check-result", "version": 1}),
                   entry.read_text(encoding="utf-8").replace('"summary": {', '"summary": [{', 1)):
        entry.write_text(damage, encoding="utf-8")
        again = runner.invoke(app, ["check", "--json", "--pack", str(pack)])
        assert again.exit_code == 0 and again.stdout == good
        assert json.loads(entry.read_text(encoding="utf-8"))["summary"] == json.loads(good)["result"]  # rewritten


def test_remembered_diagnostics_come_back_exactly():
    diags = Diagnostics()
    diags.add_source("packs/x.mst", "house-card a {\n  strenght 3\n}\n")
    diags.warning("unknown-key", "unknown key 'strenght'", Span("packs/x.mst", 2, 3, 2, 11), "did you mean 'strength'?")
    diags.note("patched", "3 setups changed")
    records = json.loads(json.dumps([check_cache._record(d) for d in diags]))
    assert [check_cache._diagnostic(r) for r in records] == list(diags)
    assert isinstance(check_cache._diagnostic(records[0]), Diagnostic) and records[0]["source_line"] == "  strenght 3"


def test_the_check_key_holds_the_variant_and_the_load_checks_code(cache_home, monkeypatch):
    plain, content = check_cache.result_key(None, None)
    assert check_cache.result_key(None, "asos") != (plain, content) and check_cache.result_key(None, "asos")[1] == content
    monkeypatch.setattr(passed_checks, "checks_fingerprint", lambda: "another engine")
    monkeypatch.setattr(check_cache, "checks_fingerprint", passed_checks.checks_fingerprint)
    assert check_cache.result_key(None, None) != (plain, content)
    monkeypatch.setenv("MAESTER_NO_CACHE", "1")
    assert check_cache.result_key(None, None) == (None, None)


def test_the_load_checks_fingerprint_is_the_engine_code(tmp_path, monkeypatch):
    """A changed engine file (here a copy of the engine's core) changes the fingerprint every key holds."""
    engine = tmp_path / "interpreter"
    shutil.copytree(Path(bundle_check.__file__).parent, engine / "core", ignore=shutil.ignore_patterns("__pycache__"))
    monkeypatch.setattr(passed_checks, "_engine_folders", lambda: [engine])
    passed_checks.checks_fingerprint.cache_clear()
    try:
        before = passed_checks.checks_fingerprint()
        with (engine / "core" / "bundle_check.py").open("a", encoding="utf-8") as f:
            f.write("\n# a change of the checks\n")
        passed_checks.checks_fingerprint.cache_clear()
        assert passed_checks.checks_fingerprint() != before
    finally:
        passed_checks.checks_fingerprint.cache_clear()


# ---- engine commands: the checked bundle reused --------------------------------------------------------------

def test_an_engine_load_checks_a_compiled_bundle_once(cache_home, checks):
    Rules.default()
    assert checks == [False]  # checked as it is
    assert list((cache_home / "checked").glob("compiled-*"))
    Rules.default()
    Rules.default()
    assert checks == [False]  # then played unchecked
    Rules.default("asos")
    Rules.default("asos")
    assert checks == [False, False]  # a variant is checked once, as it plays


def test_after_maester_check_every_variant_loads_unchecked(cache_home, pack, checks):
    assert CliRunner().invoke(app, ["check", "-q", "--pack", str(pack)]).exit_code == 0
    assert checks == [True]  # the bundle and each of its variants
    for variant in (None, "long-winter", "asos", "targaryen-b"):
        rules = Rules.default(variant, [default_content_dir(), pack])
        assert rules.bundle.get("applied_variant") == variant
    assert checks == [True]


def test_a_changed_content_file_is_loaded_checked(cache_home, pack, checks):
    Rules.default("long-winter", [default_content_dir(), pack])
    Rules.default("long-winter", [default_content_dir(), pack])
    assert checks == [False]
    (pack / "variants.mst").write_text(PACK.replace("power-tokens 12", "power-tokens 13"), encoding="utf-8")
    rules = Rules.default("long-winter", [default_content_dir(), pack])
    assert checks == [False, False] and rules.bundle["houses"]["arryn"]["power_tokens"] == 13


def test_a_changed_engine_loads_checked(cache_home, checks, monkeypatch):
    Rules.default()
    Rules.default()
    assert checks == [False]
    monkeypatch.setattr(passed_checks, "checks_fingerprint", lambda: "the engine after an edit")
    Rules.default()
    assert checks == [False, False]


def test_without_the_cache_every_load_is_checked(cache_home, checks, monkeypatch):
    monkeypatch.setenv("MAESTER_NO_CACHE", "1")
    Rules.default()
    Rules.default()
    assert checks == [False, False] and not (cache_home / "checked").exists()


def test_the_compiled_bundle_cache_does_not_grow_forever(cache_home, pack):
    from maester.dsl.compile import KEEP_BUNDLES

    for i in range(2 * KEEP_BUNDLES + 1):
        old = cache_home / f"bundle-old{i:04}.json"
        old.write_text("{}", encoding="utf-8")
        os.utime(old, (1_000_000 + i, 1_000_000 + i))
    Rules.default(None, [default_content_dir(), pack])  # a miss: compiled, written, the oldest pruned
    kept = sorted(p.name for p in cache_home.glob("bundle-*.json"))
    assert len(kept) == KEEP_BUNDLES and "bundle-old0000.json" not in kept
    assert not any(name.startswith("bundle-old") and name < f"bundle-old{KEEP_BUNDLES + 2:04}" for name in kept)
