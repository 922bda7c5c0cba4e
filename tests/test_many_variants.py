"""`check` is linear in the number of variants: each variant is checked for what it changes (dsl/reads.py), so a
pack of 1,000 variants costs about 1,000 small checks, finds a mistake in any one of them, and reports a mistake
they share once. (Its time is measured by benchmarks/bench_variants.py, never asserted here.)"""

from __future__ import annotations

import copy

import pytest

from maester.dsl import Diagnostics, compile_paths
from maester.dsl.compile import default_content_dir
from maester.interpreter.core.bundle_check import check_bundle

N = 1000


@pytest.fixture(scope="module")
def many(tmp_path_factory) -> dict:
    pack = tmp_path_factory.mktemp("many")
    (pack / "variants.mst").write_text("\n".join(
        f'variant v{i:04} "V {i}" {{\n  description "Arryn holds {10 + i % 10} power."\n  game mother-of-dragons\n'
        f"  patch house arryn {{ power-tokens {10 + i % 10} }}\n}}\n" for i in range(N)))
    return compile_paths([default_content_dir(), pack])


def test_a_thousand_variants_compile_and_check_with_linear_work(many, bundle, monkeypatch):
    monkeypatch.setenv("MAESTER_NO_CACHE", "1")  # count the checks themselves, not a remembered clean check
    assert len([v for v in many["variants"] if v.startswith("v")]) == N
    assert many["variants"]["v0007"]["patches"]["houses"]["arryn"]["power_tokens"] == 17
    base = check_bundle(bundle, Diagnostics())
    diags = Diagnostics()
    ran = check_bundle(many, diags, variants=True)
    assert not diags.errors
    # the bundle's checks once, then a handful per variant (those that read Arryn's power tokens), not all again
    assert base < ran <= base + 10 * (N + len(bundle["variants"])), (base, ran)


def test_a_mistake_in_one_variant_of_a_thousand_is_found_and_named(many, monkeypatch):
    monkeypatch.setenv("MAESTER_NO_CACHE", "1")
    broken = copy.deepcopy(many)
    broken["variants"]["v0537"]["patches"]["houses"]["arryn"]["unit_limits"]["trebuchet"] = 2
    diags = Diagnostics()
    check_bundle(broken, diags, variants=True)
    (error,) = diags.errors
    assert "(as variant 'v0537' plays it) at /variants/v0537/patches/houses/arryn/unit_limits/trebuchet" \
        in error.message and "unknown unit kind 'trebuchet'" in error.message


def test_a_clean_check_is_remembered_for_that_very_bundle_only(bundle, tmp_path, monkeypatch):
    """Engine commands reuse the checked bundle: a bundle that passed is not checked again, a changed one is."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    monkeypatch.delenv("MAESTER_NO_CACHE", raising=False)
    assert check_bundle(bundle, Diagnostics(), variants=True) > 0
    assert check_bundle(bundle, Diagnostics(), variants=True) == 0  # remembered
    assert check_bundle(bundle, Diagnostics()) == 0  # the variants' check covers the bundle's own
    broken = copy.deepcopy(bundle)
    broken["houses"]["arryn"]["unit_limits"]["trebuchet"] = 2
    diags = Diagnostics()
    assert check_bundle(broken, diags) > 0 and len(diags.errors) == 1  # another bundle: checked
    diags = Diagnostics()
    check_bundle(broken, diags)
    assert len(diags.errors) == 1  # a failed check is never remembered


def test_a_mistake_in_a_packs_setup_is_reported_once_whatever_plays_it(tmp_path):
    from maester.dsl import MaesterError

    variants = "".join(f'variant v{i} "V{i}" {{\n  description "v"\n  game base\n  setups [s3]\n'
                       f"  patch house {h} {{ power-tokens 19 }}\n}}\n"
                       for i, h in enumerate(("stark", "baratheon", "lannister")))
    (tmp_path / "pack.mst").write_text('setup s3 "S" from base-3p {\n  start stark the-shivering-sea { knight 1 }\n}\n'
                                       + variants)
    with pytest.raises(MaesterError) as e:
        compile_paths([default_content_dir(), tmp_path])
    (error,) = e.value.diagnostics.errors
    assert error.code == "unit-area" and error.span.file.endswith("pack.mst") and error.span.line == 2
