"""The fast compile: its caches and compiled validator change nothing an author sees, only how long it takes."""

from __future__ import annotations

import copy
import importlib.util
import subprocess
import sys

import pytest

from maester.dsl import validate
from maester.dsl.compile import Compiler, compile_sources, default_content_dir, read_sources
from maester.dsl.diagnostics import Diagnostics
from maester.dsl.parse import parse_text
from maester.dsl.parse_cache import ParseCache

from .conftest import REPO


@pytest.fixture
def cache_home(tmp_path, monkeypatch):
    """A private, empty cache folder, so tests neither read nor fill the user's."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.delenv("MAESTER_NO_PARSE_CACHE", raising=False)
    return tmp_path / "cache" / "maester"


def _messages(diags: Diagnostics) -> list[tuple]:
    return [(d.code, d.severity, d.message, d.span, d.hint) for d in diags]


# ---- the compiled schema validator -------------------------------------------------------------------


def _small(bundle: dict) -> dict:
    """The bundle with two records per section (the reference validator takes a second for the whole one)."""
    keep = {"house_cards": "tywin-lannister", "houses": "stark"}
    out = {}
    for section, value in bundle.items():
        if isinstance(value, dict) and section in keep:
            out[section] = {k: v for k, v in value.items() if k == keep[section] or k == next(iter(value))}
        elif isinstance(value, dict):
            out[section] = dict(list(value.items())[:1])
        else:
            out[section] = value
    return copy.deepcopy(out)


def _mutants(bundle: dict) -> dict[str, dict]:
    """Bundles with one mistake each, of the kinds the schema catches."""
    bundle = _small(bundle)
    assert validate.is_valid(bundle) and validate.bundle_validator().is_valid(bundle)
    out = {}

    def mutant(name, change):
        b = copy.deepcopy(bundle)
        change(b)
        out[name] = b

    mutant("wrong type", lambda b: b["house_cards"]["tywin-lannister"].__setitem__("swords", "many"))
    mutant("negative number", lambda b: b["house_cards"]["tywin-lannister"].__setitem__("strength", -1))
    mutant("missing field", lambda b: b["house_cards"]["tywin-lannister"].pop("strength"))
    mutant("extra field", lambda b: b["house_cards"]["tywin-lannister"].__setitem__("colour", "red"))
    mutant("bad format version", lambda b: b.__setitem__("format_version", "2.0.0"))
    mutant("bad id", lambda b: b["houses"].__setitem__("Not An Id", b["houses"]["stark"]))
    mutant("bad source hash", lambda b: b["sources"][0].__setitem__("sha256", "xyz"))
    mutant("unknown effect", lambda b: b["house_cards"]["tywin-lannister"]["abilities"][0]["body"].append(
        {"op": "no-such-primitive"}))
    mutant("two mistakes", lambda b: (b["house_cards"]["tywin-lannister"].__setitem__("swords", "many"),
                                      b["houses"]["stark"].pop("name")))
    return out


def test_the_compiled_validator_accepts_the_bundled_content(bundle):
    assert validate.fast_validator() is not None, "jsonschema_rs is a dependency: it must be installed"
    assert validate.is_valid(bundle)
    diags = Diagnostics()
    validate.validate_bundle(bundle, diags)
    assert not diags


def test_every_schema_mistake_is_caught_and_worded_as_the_reference_validator_words_it(bundle, monkeypatch):
    mutants = _mutants(bundle)
    fast = {}
    for name, broken in mutants.items():
        assert not validate.fast_validator().is_valid(broken), f"{name}: the compiled validator let it through"
        diags = Diagnostics()
        validate.validate_bundle(broken, diags)
        assert diags.errors, name
        fast[name] = _messages(diags)
    monkeypatch.setattr(validate, "fast_validator", lambda: None)  # the reference validator alone, as before
    for name, broken in mutants.items():
        diags = Diagnostics()
        validate.validate_bundle(broken, diags)
        assert _messages(diags) == fast[name], name
    assert any("/house_cards/tywin-lannister/swords" in m[2] for m in fast["wrong type"])


# ---- the parse cache --------------------------------------------------------------------------------


def test_a_cached_file_gives_the_very_tree_the_parser_gives(cache_home):
    path = default_content_dir() / "cards" / "base" / "stark.mst"
    text = path.read_text(encoding="utf-8")
    expected = parse_text(text, "cards/base/stark.mst", Diagnostics())
    first = ParseCache()
    assert first.parse(text, "cards/base/stark.mst", Diagnostics()) == expected
    assert (first.hits, first.misses) == (0, 1)
    assert first.parse(text, "cards/base/stark.mst", Diagnostics()) == expected  # from memory
    assert (first.hits, first.misses) == (1, 1)
    assert len(list((cache_home / "parsed").glob("*.pickle"))) == 1
    again = ParseCache()  # another process: from disk
    diags = Diagnostics()
    assert again.parse(text, "cards/base/stark.mst", diags) == expected
    assert (again.hits, again.misses) == (1, 0)
    assert diags.sources["cards/base/stark.mst"] == text  # messages can quote its lines
    # the label is part of the key: spans name the file
    other = again.parse(text, "elsewhere/stark.mst", Diagnostics())
    assert other[0].span.file == "elsewhere/stark.mst" and again.misses == 1


def test_a_file_with_syntax_errors_is_never_cached_and_reports_the_same_errors_every_time(cache_home):
    text = 'table t "T" {\n  row a [1, 2\n}\nhouse x {\n'
    cache = ParseCache()
    runs = []
    for _ in range(3):
        diags = Diagnostics()
        assert cache.parse(text, "broken.mst", diags) is None
        runs.append(_messages(diags))
    reference = Diagnostics()
    parse_text(text, "broken.mst", reference)
    assert runs == [_messages(reference)] * 3 and runs[0]
    assert cache.hits == 0 and not (cache_home / "parsed").exists()


def test_a_damaged_cache_entry_is_parsed_again(cache_home):
    text = 'table t "T" {\n  row a [1, 2]\n}\n'
    ParseCache().parse(text, "t.mst", Diagnostics())
    (entry,) = (cache_home / "parsed").glob("*.pickle")
    data = entry.read_bytes()
    entry.write_bytes(data[: len(data) // 2])
    cache = ParseCache()
    assert cache.parse(text, "t.mst", Diagnostics()) == parse_text(text, "t.mst", Diagnostics())
    assert cache.misses == 1


def test_the_parse_cache_can_be_switched_off(cache_home, monkeypatch):
    monkeypatch.setenv("MAESTER_NO_PARSE_CACHE", "1")
    cache = ParseCache()
    text = 'table t "T" {\n  row a [1, 2]\n}\n'
    cache.parse(text, "t.mst", Diagnostics())
    cache.parse(text, "t.mst", Diagnostics())
    assert cache.hits == 0 and not (cache_home / "parsed").exists()


def test_cached_and_fresh_parses_compile_to_the_same_bundle(cache_home):
    diags = Diagnostics()
    sources = read_sources([default_content_dir()], diags)
    fresh = compile_sources(sources, Diagnostics(), parse=parse_text)
    cache = ParseCache()
    first = compile_sources(sources, Diagnostics(), parse=cache.parse)
    second = compile_sources(sources, Diagnostics(), parse=cache.parse)
    assert cache.hits == len(sources) and cache.misses == len(sources)
    assert fresh == first == second


def test_errors_of_a_compile_are_the_same_with_warm_caches(cache_home):
    """An unknown key in a file next to cached ones: the same messages, cached or not."""
    sources = read_sources([default_content_dir()], Diagnostics())
    broken = next(s for s in sources if s.label.endswith("cards/base/greyjoy.mst"))
    broken.text = broken.text.replace("swords 1", "sword 1", 1)
    cache = ParseCache()
    results = []
    for parse in (parse_text, cache.parse, cache.parse):
        diags = Diagnostics()
        for s in sources:
            diags.add_source(s.label, s.text)
        Compiler(diags, parse).run(sources)
        results.append([d.format() for d in diags])
    assert results[0] == results[1] == results[2]
    assert len(results[0]) == 1 and "unknown key 'sword' in house-card" in results[0][0]


# ---- the benchmark ----------------------------------------------------------------------------------


def _has_commit(commit: str) -> bool:
    return subprocess.run(["git", "-C", str(REPO), "cat-file", "-e", f"{commit}^{{commit}}"],
                          capture_output=True).returncode == 0


def test_bench_compile_runs_the_old_and_the_new_code_side_by_side(capsys, monkeypatch):
    monkeypatch.syspath_prepend(str(REPO / "benchmarks"))  # as when it runs as a script: its helpers (trees.py)
    spec = importlib.util.spec_from_file_location("maester_bench_compile", REPO / "benchmarks" / "bench_compile.py")
    bench = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = bench
    spec.loader.exec_module(bench)
    if not _has_commit(bench.DEFAULT_BASELINE):
        pytest.skip(f"the baseline commit {bench.DEFAULT_BASELINE} is not in this clone (a shallow clone?)")
    result = bench.main(["--rounds", "1", "--no-first-run", "--error-cases", "2"])
    out = capsys.readouterr().out
    assert "compile (bundle cache off)" in out and "whole process" in out
    # the old code and the new one report the very same errors and messages for broken packs
    assert result["error_cases"] == 2 and result["error_differences"] == []
    assert "errors and messages of 2 broken packs: 2 the same" in out
    assert result["old_cards"] == result["new_cards"] == 161
    assert result["old_compile_s"] > 0 and result["new_compile_s"] > 0 and result["compile_ratio"] > 0
    with pytest.raises(SystemExit, match="cannot check out"):
        bench.main(["--rounds", "1", "--error-cases", "0", "--baseline", "no-such-commit-anywhere"])
