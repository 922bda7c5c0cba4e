"""A setup's `house [a, b] { ... }` block: the same starting values for several houses, compiled exactly as if
each house were written out; located errors for an unknown house, a house not of the setup, a house listed twice."""

from __future__ import annotations

from maester.dsl.compile import compile_paths, default_content_dir
from maester.dsl.fmt import format_text

from .pack_text import compile_pack_text

LISTED = '''setup my-6p "Mine" from base-6p {
  house [stark, lannister, tyrell] { supply 3  power 7  garrison-bonus 1 }
  house [greyjoy] { power-token the-stony-shore  add-units pyke { footman 1 } }
}
'''
WRITTEN_OUT = '''setup my-6p "Mine" from base-6p {
  house stark { supply 3  power 7  garrison-bonus 1 }
  house lannister { supply 3  power 7  garrison-bonus 1 }
  house tyrell { supply 3  power 7  garrison-bonus 1 }
  house greyjoy { power-token the-stony-shore  add-units pyke { footman 1 } }
}
'''


def _setup(tmp_path, name: str, text: str) -> dict:
    (tmp_path / name).mkdir()
    (tmp_path / name / "x.mst").write_text(text, encoding="utf-8")
    rec = compile_paths([default_content_dir(), tmp_path / name], cache=False)["setups"]["my-6p"]
    rec.pop("source")  # where it is written: the two files differ in lines
    return rec


def test_a_house_list_compiles_to_the_same_setup_as_each_house_written_out(tmp_path):
    listed, written = _setup(tmp_path, "listed", LISTED), _setup(tmp_path, "written", WRITTEN_OUT)
    assert listed == written
    assert listed["starting_supply"] == {"lannister": 3, "stark": 3, "tyrell": 3}
    assert listed["starting_power"] == {"lannister": 7, "stark": 7, "tyrell": 7}
    # base-6p's home garrisons are 2; the bonus strengthens only the listed houses' homes
    assert (listed["garrisons"]["winterfell"], listed["garrisons"]["lannisport"], listed["garrisons"]["highgarden"],
            listed["garrisons"]["pyke"]) == (3, 3, 3, 2)
    assert listed["starting_power_tokens"] == {"the-stony-shore": "greyjoy"}


def test_an_unknown_house_in_the_list_is_a_located_error(tmp_path):
    diags = compile_pack_text(tmp_path, 'setup my-6p "Mine" from base-6p {\n'
                              '  house [stark, lanister] { supply 3 }\n}\n')
    [e] = diags.errors
    assert (e.code, e.span.line, e.span.column) == ("unknown-house", 2, 17)
    assert e.hint == "did you mean 'lannister'?"


def test_a_house_not_of_the_setup_or_listed_twice_is_a_located_error(tmp_path):
    diags = compile_pack_text(tmp_path, 'setup my-6p "Mine" from base-6p {\n'
                              '  house [stark, targaryen] { supply 3 }\n'
                              '  house [tyrell, martell, tyrell] { supply 2 }\n  house [] { supply 1 }\n}\n')
    got = sorted((e.code, e.span.line, e.span.column) for e in diags.errors)
    assert got == [("wrong-value", 4, 9)]  # the empty list is the checker's; the rest wait for a checked setup
    diags = compile_pack_text(tmp_path, 'setup my-6p "Mine" from base-6p {\n'
                              '  house [stark, targaryen] { supply 3 }\n'
                              '  house [tyrell, martell, tyrell] { supply 2 }\n}\n')
    got = sorted((e.code, e.span.line, e.span.column) for e in diags.errors)
    assert got == [("house-listed-twice", 3, 27), ("house-not-in-setup", 2, 17)]


def test_a_derived_setup_adds_its_house_blocks_after_its_parents(tmp_path):
    derived = LISTED + ('setup my2-6p "Mine 2" from my-6p {\n  house [stark, lannister, tyrell] { supply 1 }\n'
                        '  house stark { power 9 }\n}\n')
    (tmp_path / "p").mkdir()
    (tmp_path / "p" / "x.mst").write_text(derived, encoding="utf-8")
    rec = compile_paths([default_content_dir(), tmp_path / "p"], cache=False)["setups"]["my2-6p"]
    # house blocks are applied in order, the parent's first: a later value of the same house wins
    assert rec["starting_supply"] == {"lannister": 1, "stark": 1, "tyrell": 1}
    assert rec["starting_power"] == {"lannister": 7, "stark": 9, "tyrell": 7}
    assert rec["garrisons"]["winterfell"] == 3


def test_fmt_keeps_a_house_list():
    text = format_text('setup my-6p "Mine" from base-6p {\n  house [stark,lannister]{supply 3}\n}\n')
    assert 'house [stark, lannister] { supply 3 }' in text
    assert format_text(text) == text
