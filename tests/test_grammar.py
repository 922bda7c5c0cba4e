"""The golden grammar check: no generated English says "a area" or "you is" — every card's text (the bundled
content, every example pack, every variant), conditions with "you" as their subject, and content error messages."""

from __future__ import annotations

from pathlib import Path

import pytest

from maester.dsl import MaesterError, compile_paths
from maester.dsl.compile import default_content_dir
from maester.dsl.english import English
from maester.dsl.english_grammar import article, fix_articles, grammar_problems

from .conftest import REPO

SECTIONS = ("house_cards", "westeros_cards", "wildling_cards", "loans", "tides_cards")
PACKS = sorted(p for p in (REPO / "examples" / "packs").iterdir() if p.is_dir())


def _card_texts(bundle: dict) -> dict[str, str]:
    english = English(bundle)
    return {cid: english.card(sec, rec) for sec in SECTIONS for cid, rec in bundle.get(sec, {}).items()}


def _problems(texts: dict[str, str]) -> dict[str, list[str]]:
    return {k: found for k, t in texts.items() if (found := grammar_problems(t))}


def test_the_check_finds_what_it_must():
    assert grammar_problems("if you is the defender, 'winterfell' is a area") == ["a area", "you is"]
    assert grammar_problems("an house, you has") == ["an house", "you has"]
    assert grammar_problems("you are an attacker in a sea area with a unit, a one-off and an order") == []
    assert article("area") == "an area" and article("unit") == "a unit" and article("house") == "a house"
    assert fix_articles("a area, an knight, a unit") == "an area, a knight, a unit"


def test_every_card_text_of_the_bundled_content_and_its_variants(bundle):
    from maester.interpreter.core.rules import apply_variant

    assert _problems(_card_texts(bundle)) == {}
    for v in sorted(bundle["variants"]):
        assert _problems(_card_texts(apply_variant(bundle, v))) == {}, v


@pytest.mark.parametrize("pack", PACKS, ids=[p.name for p in PACKS])
def test_every_card_text_of_the_example_packs(pack):
    assert _problems(_card_texts(compile_paths([default_content_dir(), pack]))) == {}


CONDITIONS = ["you == defender", "you != attacker", "defender == you", "opponent == defender",
              'is-defender(you) and is-kind(embattled-area, "sea")', "not is-attacker(you)",
              "you == attacker or you != defender"]


def test_conditions_with_you_as_their_subject(tmp_path):
    cards = "\n".join(f'house-card grammar-{i} "Grammar {i}" {{\n  set grammar-check  house stark  strength 1\n'
                      f"  when combat-strength if {c} {{\n    add-strength(you, 1)\n  }}\n}}\n"
                      for i, c in enumerate(CONDITIONS))
    (tmp_path / "cards.mst").write_text('card-set grammar-check "Grammar check" {\n  description "x"\n}\n' + cards)
    texts = {k: t for k, t in _card_texts(compile_paths([default_content_dir(), tmp_path])).items()
             if k.startswith("grammar-")}
    assert len(texts) == len(CONDITIONS)
    assert "if you are the defender, you get +1 combat strength" in texts["grammar-0"]
    assert "if you are not the attacker" in texts["grammar-1"]
    assert _problems(texts) == {}


# content errors whose messages name a kind of thing ("an area", "a house"), one per message shape
BAD_CONTENT = {
    "wrong-type": 'house-card g "G" {\n  set base house stark strength 4\n  when immediately { gain-power(winterfell, '
                  "2) }\n}\n",
    "derived-from-another-kind": 'house-card g "G" from winterfell {\n  set base house stark strength 4\n}\n',
    "unit-in-a-sea-area": 'setup s "S" from base-3p {\n  start stark the-shivering-sea { knight 1 }\n}\n',
}


@pytest.mark.parametrize("name", sorted(BAD_CONTENT))
def test_content_error_messages(name, tmp_path):
    (tmp_path / "bad.mst").write_text(BAD_CONTENT[name])
    with pytest.raises(MaesterError) as e:
        compile_paths([default_content_dir(), tmp_path])
    said = [t for d in e.value.diagnostics for t in (d.message, d.hint or "")]
    assert said and all(grammar_problems(t) == [] for t in said), said


def test_error_messages_of_the_fuzz_regressions():
    from maester.dsl import compile_sources
    from maester.dsl.compile import Source

    checked = 0
    for path in sorted((Path(__file__).parent / "fuzz" / "regressions" / "content").glob("*.mst")):
        try:
            compile_sources([Source(path.name, path.read_text(encoding="utf-8", errors="replace"))])
        except MaesterError as e:
            for d in e.diagnostics:
                checked += 1
                assert grammar_problems(d.message) == [] and grammar_problems(d.hint or "") == [], d.format()
    assert checked
