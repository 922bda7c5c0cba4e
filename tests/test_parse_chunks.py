"""A large file parsed declaration by declaration gives the very tree of a whole-file parse, and an edit
reparses only the declaration it touches (dsl/parse_chunks.py: the language server's compile after typing)."""

from __future__ import annotations

import pytest

from maester.dsl.compile import default_content_dir, find_sources
from maester.dsl.diagnostics import Diagnostics
from maester.dsl.parse import parse_text
from maester.dsl.parse_chunks import Pieces, _moved, pieces

FILES = find_sources([default_content_dir()])


@pytest.mark.parametrize("path", FILES, ids=[p.name for p in FILES])
def test_pieces_give_the_whole_files_tree(path):
    text = path.read_text(encoding="utf-8")
    label = path.relative_to(default_content_dir().parent).as_posix()
    assert pieces(text) is not None
    assert Pieces().parse(text, label) == parse_text(text, label, Diagnostics())


def test_an_edit_reparses_only_the_declaration_it_touches():
    path = default_content_dir() / "setups" / "mother-of-dragons.mst"
    text = path.read_text(encoding="utf-8")
    parsed = Pieces()
    parsed.parse(text, "m.mst")
    whole = len(pieces(text))
    assert whole > 5 and parsed.parsed == whole
    edited = text.replace("power-tokens 7", "power-tokens 6", 1)  # one declaration changes
    assert parsed.parse(edited, "m.mst") == parse_text(edited, "m.mst", Diagnostics())
    assert parsed.parsed == whole + 1
    moved = "# a new first line\n" + text  # every declaration moves down a line: none is parsed again
    assert parsed.parse(moved, "m.mst") == parse_text(moved, "m.mst", Diagnostics())
    assert parsed.parsed == whole + 2  # the first piece (its text changed); the others only move


def test_a_syntax_error_is_left_to_the_whole_file_parse():
    text = (default_content_dir() / "setups" / "base.mst").read_text(encoding="utf-8")
    assert Pieces().parse(text.replace("players 3", "players [3", 1), "b.mst") is None


def test_a_comment_typed_between_declarations_reparses_nothing():
    text = (default_content_dir() / "setups" / "mother-of-dragons.mst").read_text(encoding="utf-8")
    parsed = Pieces()
    parsed.parse(text, "m.mst")
    before = parsed.parsed
    for typed in (text + "\n# a note\n", text + "\n\n   # indented\n\n", text.replace("\n}\n", "\n}\n# here\n", 1)):
        edited = parsed.parse(typed, "m.mst")
        assert edited == parse_text(typed, "m.mst", Diagnostics())
    assert parsed.parsed == before  # the declarations below the comment in the middle only move down


def test_known_only_gives_the_tree_only_when_every_piece_was_parsed_before():
    text = (default_content_dir() / "setups" / "base.mst").read_text(encoding="utf-8")
    parsed = Pieces()
    assert parsed.parse(text, "b.mst", known_only=True) is None and parsed.parsed == 0
    whole = parsed.parse(text, "b.mst")
    assert parsed.parse(text + "# note\n", "b.mst", known_only=True) == whole
    assert parsed.parse(text.replace("players 3", "players 4", 1), "b.mst", known_only=True) is None


@pytest.mark.parametrize("path", [p for p in FILES if len(p.read_text(encoding="utf-8")) >= 4000],
                         ids=lambda p: p.name)
def test_pieces_seeded_from_a_whole_file_parse_are_the_pieces_parse(path):
    """A file read whole (from the disk cache) seeds its pieces: the same trees as parsing each piece, and its
    first edit parses only the declaration it touches."""
    text = path.read_text(encoding="utf-8")
    whole = parse_text(text, "f.mst", Diagnostics())
    seeded = Pieces()
    seeded.seed(text, "f.mst", whole)
    assert seeded.parse(text, "f.mst", known_only=True) == whole and seeded.parsed == 0
    for (first, piece), item in zip(pieces(text), whole, strict=True):  # each seed is its piece's own tree
        assert _moved(parse_text(piece, "f.mst", Diagnostics()), first) == (item,)
    cut = text.rindex("\n}")
    edited = text[:cut] + "\n  bogus-key 3" + text[cut:]
    assert seeded.parse(edited, "f.mst") == parse_text(edited, "f.mst", Diagnostics())
    assert seeded.parsed == 1
