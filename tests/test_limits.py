"""Content at the edges: every stated limit and every input that used to crash gives located errors only.

The cases are the tracebacks and unlocated errors fuzzing found (issue 14): a track without a dominance
token, a one-value `start`, an integer of thousands of digits, deep nesting in the parser and in the
schema check, a lone surrogate in a text, an empty house card, a schema violation in a wildling card,
and a long line repeating a key (once quadratic in memory).
"""

from __future__ import annotations

import pytest

from maester.dsl import CompileError, compile_sources
from maester.dsl.compile import Source
from maester.dsl.diagnostics import MAX_ITEMS, QUOTE_CHARS
from maester.dsl.limits import MAX_DEPTH, MAX_FILE_CHARS, MAX_LINE_CHARS, MAX_NUMBER_DIGITS, MAX_SYNTAX_ERRORS

from .test_errors import WORLD

CARD = 'house-card a "A" {\n  set base  house stark  strength 1\n  when after-winner-determination {\n%s\n  }\n}\n'


def errors_of(text: str, world: str = WORLD) -> list:
    with pytest.raises(CompileError) as info:
        compile_sources([Source("world.mst", world), Source("broken.mst", text)])
    errors = info.value.diagnostics.errors
    for e in errors:  # the promise: every error says file:line:col
        assert e.span is not None and e.span.line > 0 and e.span.column > 0, e.format()
    return errors


def codes_at(text: str, world: str = WORLD) -> list[tuple[str, str]]:
    return [(e.code, f"{e.span.file}:{e.span.line}:{e.span.column}") for e in errors_of(text, world)]


def test_a_track_without_a_dominance_token_is_a_missing_key():
    assert codes_at('track t "T" { ties "x" }\n') == [("missing-key", "broken.mst:1:15")]


def test_a_start_block_with_one_value():
    world = WORLD + ('game g "G" { victory-points 7 max-rounds 10 wildling-track [0, 2] wildling-start 0\n'
                     '  supply-limits s kings-court-stars s tracks [iron-throne] }\n')
    errors = errors_of('setup s "S" {\n  game g  board tiny  players 1  power-tokens 5  houses [stark]\n'
                       '  start stark { footman 1 }\n}\n', world)
    assert ("missing-value", "broken.mst:3:3") in [(e.code, f"{e.span.file}:{e.span.line}:{e.span.column}")
                                                    for e in errors]


def test_a_number_of_thousands_of_digits():
    (e,) = errors_of('house-card a "A" { set base house stark strength ' + "9" * 1500 + " }\n")
    assert (e.code, e.span.line, e.span.column) == ("number-too-large", 1, 50)
    assert e.message == "a number of 1500 digits is too large"
    assert f"at most {MAX_NUMBER_DIGITS} digits" in e.hint
    # past Python's 4,300-digit conversion limit the line is already too long
    (e,) = errors_of('house-card a "A" { set base house stark strength ' + "9" * 5000 + " }\n")
    assert e.code == "line-too-long"


def test_digits_inside_names_strings_and_comments_are_not_numbers():
    long = "1" * 40
    text = f'# {long}\nhouse-card a-{long} "{long}" {{ set base house stark strength 1 }}\n'
    bundle = compile_sources([Source("world.mst", WORLD), Source("ok.mst", text)])
    assert bundle["house_cards"][f"a-{long}"]["name"] == long


@pytest.mark.parametrize("body", [
    "if true {\n" * 300 + "}\n" * 300,  # once a RecursionError in the parser's tree transformer
    "if " + " + ".join(["1"] * 60) + " > 2 { }",  # once a RecursionError in the schema check
    "if true {\n" * 68 + "}\n" * 68,
    "if " + "not " * 300 + "true { }",
    "let x = " + "[" * 400 + "1" + "]" * 400,
])
def test_nesting_beyond_the_limit_is_one_located_error(body):
    (e,) = errors_of(CARD % body)
    assert e.code == "too-deep" and f"deeper than {MAX_DEPTH} levels" in e.message
    assert e.span.file == "broken.mst" and e.span.line >= 4


def test_nesting_within_the_limit_compiles():
    text = CARD % ("if true {\n" * 15 + "}\n" * 15 + "if " + " + ".join(["1"] * 30) + " > 2 { }")
    bundle = compile_sources([Source("world.mst", WORLD), Source("ok.mst", text)])
    assert bundle["house_cards"]["a"]["abilities"][0]["trigger"] == "after-winner-determination"


def test_a_lone_surrogate_escape_is_refused():
    (e,) = errors_of('house-card a "\\ud800" { set base house stark strength 1 }\n')
    assert (e.code, e.span.line, e.span.column) == ("bad-escape", 1, 14)
    assert "surrogate" in e.message


def test_escapes_decode_and_text_keeps_its_characters():
    text = 'house-card a "Tywin \\"the Lion\\" \\u00e9 é\\n" { set base house stark strength 1 }\n'
    bundle = compile_sources([Source("world.mst", WORLD), Source("ok.mst", text)])
    assert bundle["house_cards"]["a"]["name"] == 'Tywin "the Lion" é é\n'
    (e,) = errors_of('house-card a "bad \\x41" { set base house stark strength 1 }\n')
    assert e.code == "bad-escape" and "\\x" in e.message


def test_an_empty_house_card_is_located_at_its_declaration():
    errors = errors_of('house-card a "A" { }\n')
    assert {(e.code, e.span.line, e.span.column) for e in errors} == {("missing-key", 1, 1)}
    assert sorted(e.message for e in errors) == ["house-card 'a' needs 'house'", "house-card 'a' needs 'set'",
                                                 "house-card 'a' needs 'strength'"]


def test_a_schema_violation_of_a_wildling_card_points_at_its_content_line():
    errors = errors_of('\n\nwildling-card w "W" {\n  lowest-bidder { }\n  everyone-else { }\n}\n')
    assert [(e.code, e.span.file, e.span.line) for e in errors] == [("schema", "broken.mst", 3)]
    assert "night_watch_victory" in errors[0].message


def test_file_and_line_limits():
    (e,) = errors_of("# " + "x" * MAX_LINE_CHARS + "\n")
    assert (e.code, e.span.line, e.span.column) == ("line-too-long", 1, MAX_LINE_CHARS + 1)
    (e,) = errors_of("\n" * (MAX_FILE_CHARS + 1))
    assert (e.code, e.span.line) == ("file-too-large", 1)


def test_a_long_line_repeating_a_key_is_linear_and_bounded():
    """Once 24 GB of memory at 400 KB: every duplicate quoted the whole file's lines again."""
    line = "  " + " ".join(["strength 1"] * ((MAX_LINE_CHARS - 10) // 11))
    text = 'house-card a "A" {\n  set base  house stark\n' + "\n".join([line] * 40) + "\n}\n"
    with pytest.raises(CompileError) as info:
        compile_sources([Source("world.mst", WORLD), Source("broken.mst", text)])
    diags = info.value.diagnostics
    assert len(diags.errors) == MAX_ITEMS and diags.dropped["error"] > 5_000
    out = diags.format()
    assert out.endswith(f"... and {diags.dropped['error']:,} more errors not shown".replace(",", ""))
    assert max(len(x) for x in out.splitlines()) <= QUOTE_CHARS + 10


def test_a_file_of_garbage_stops_after_the_syntax_error_limit():
    errors = errors_of("}\n" * 10_000)
    assert len(errors) == MAX_SYNTAX_ERRORS + 1 and errors[-1].code == "too-many-errors"


def test_an_unreadable_file_does_not_hide_the_syntax_errors_of_the_others(tmp_path):
    from maester.dsl import compile_paths

    (tmp_path / "a.mst").write_bytes(b'house-card a "A\xff" { }\n')
    (tmp_path / "b.mst").write_text('house-card b "B" {\n  strength 1 +\n}\n')
    with pytest.raises(CompileError) as info:
        compile_paths([tmp_path], cache=False)
    found = [(e.code, e.span.file.rsplit("/", 1)[-1], e.span.line) for e in info.value.diagnostics.errors]
    assert found[:2] == [("not-utf8", "a.mst", 1), ("syntax", "b.mst", 2)]
