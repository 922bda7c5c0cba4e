"""A large file parsed declaration by declaration gives the very tree of a whole-file parse, and an edit
reparses only the declaration it touches (dsl/parse_chunks.py: the language server's compile after typing)."""

from __future__ import annotations

import pytest

from maester.dsl.compile import default_content_dir, find_sources
from maester.dsl.diagnostics import Diagnostics
from maester.dsl.parse import parse_text
from maester.dsl.parse_chunks import Pieces, pieces

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
