"""Every kind of content error gets one located, readable diagnostic — and no bundle.

Each case is a small broken file; the test asserts the exact code, file:line:col and message, so a
regression in what an author sees fails here.
"""

from __future__ import annotations

import json

import pytest

from maester.dsl import CompileError, compile_sources
from maester.dsl.compile import Source

# A tiny, valid world the broken snippets can refer to.
WORLD = """
unit-kind footman "Footman" { strength 1 domain land muster-cost 1 }
house stark "Stark" {
  home winterfell  expansion base
  starting-supply 1  starting-victory-points 2  power-tokens 20
  unit-limit footman 10
}
track iron-throne "Iron Throne" { dominance-token iron-throne "Iron Throne" }
board tiny "Tiny" {
  area winterfell "Winterfell" { land stronghold supply 1 power 1 home stark garrison 2 }
  area moat-cailin "Moat Cailin" { land castle }
  area bay-of-ice "Bay of Ice" { sea }
  port port-of-winterfell "Port of Winterfell" { of winterfell  on bay-of-ice }
  border winterfell moat-cailin
  border winterfell bay-of-ice
  border port-of-winterfell winterfell
  border port-of-winterfell bay-of-ice
}
card-set base "Base" { description "test" }
"""


def errors_of(text: str, world: str = WORLD) -> list:
    sources = [Source("world.mst", world), Source("broken.mst", text)]
    with pytest.raises(CompileError) as info:
        compile_sources(sources)
    return info.value.diagnostics.errors


def one_error(text: str, world: str = WORLD):
    errs = errors_of(text, world)
    assert len(errs) == 1, "\n".join(e.format() for e in errs)
    return errs[0]


def where(diag) -> str:
    return f"{diag.span.file}:{diag.span.line}:{diag.span.column}"


def test_world_alone_compiles():
    bundle = compile_sources([Source("world.mst", WORLD)])
    assert set(bundle["boards"]["tiny"]["areas"]) == {"winterfell", "moat-cailin", "bay-of-ice",
                                                      "port-of-winterfell"}


# ---- syntax --------------------------------------------------------------------------------------


def test_syntax_error_points_at_the_token_with_what_was_expected():
    e = one_error('house-card a "A" {\n  set base house stark strength 4\n  when immediately {\n    gain-power(you 2)\n  }\n}\n')
    assert e.code == "syntax"
    assert where(e) == "broken.mst:4:20"
    assert e.message == "unexpected '2'"
    assert "expected" in e.hint and "')'" in e.hint and "','" in e.hint
    text = e.format()
    assert "    gain-power(you 2)" in text and text.splitlines()[2].endswith("^")


def test_underscore_in_a_name_is_explained():
    e = one_error('house-card tywin_lannister "T" { set base house stark strength 4 }\n')
    assert (e.code, where(e)) == ("syntax", "broken.mst:1:17")
    assert e.message == "'_' is not allowed in names"
    assert e.hint == "names are kebab-case: use '-' between words"


def test_missing_closing_brace_reports_end_of_file():
    e = one_error('house-card a "A" {\n  set base house stark strength 4\n')
    assert e.code == "syntax"
    assert e.message == "unexpected end of file"
    assert "is a '}' missing?" in e.hint


def test_every_broken_line_of_a_file_is_reported():
    errs = errors_of('house-card a "A" {\n  strength = 4\n  swords 1\n  fortifications = 2\n}\n')
    assert [(e.code, e.span.line) for e in errs] == [("syntax", 2), ("syntax", 4)]


# ---- keys and values ------------------------------------------------------------------------------


def test_unknown_key_with_did_you_mean_and_exact_columns():
    e = one_error('house-card a "A" {\n  set base  house stark  strength 4  sword 2\n}\n')
    assert (e.code, where(e)) == ("unknown-key", "broken.mst:2:38")
    assert e.message == "unknown key 'sword' in house-card"
    assert e.hint.startswith("did you mean 'swords'?")
    assert e.format().splitlines()[2] == "  " + " " * 37 + "^^^^^"


def test_missing_required_key():
    e = one_error('house-card a "A" { set base  house stark }\n')
    assert e.code == "missing-key"
    assert e.message == "house-card 'a' needs 'strength'"
    assert e.hint == "add: strength <number>"


def test_value_of_the_wrong_kind():
    e = one_error('house-card a "A" { set base  house stark  strength four }\n')
    assert (e.code, where(e)) == ("wrong-value", "broken.mst:1:52")
    assert e.message == "'strength' expects a number, got the name 'four'"


def test_duplicate_key():
    e = one_error('house-card a "A" {\n  set base house stark strength 4\n  strength 3\n}\n')
    assert (e.code, where(e)) == ("duplicate-key", "broken.mst:3:3")
    assert e.message == "'strength' is given twice in house-card 'a'"
    assert e.hint == "the first is at broken.mst:2:24"


def test_unknown_declaration_kind():
    e = one_error('house-crad a "A" { }\n')
    assert (e.code, where(e)) == ("unknown-kind", "broken.mst:1:1")
    assert e.message == "unknown declaration 'house-crad'"
    assert e.hint.startswith("did you mean 'house-card'")


def test_duplicate_id_names_the_first_declaration():
    e = one_error('card-set base "Again" { }\n')
    assert (e.code, where(e)) == ("duplicate-id", "broken.mst:1:10")
    assert e.message == "card-set 'base' is declared twice"
    assert e.hint == "the first declaration is at world.mst:19:1"


def test_unknown_house_with_did_you_mean():
    e = one_error('house-card a "A" { set base  house strak  strength 4 }\n')
    assert (e.code, where(e)) == ("unknown-house", "broken.mst:1:36")
    assert e.message == "unknown house 'strak'"
    assert e.hint.startswith("did you mean 'stark'?")


# ---- effects --------------------------------------------------------------------------------------


def test_unknown_primitive_with_did_you_mean():
    e = one_error('house-card a "A" {\n  set base house stark strength 4\n  when immediately { gain-powr(you, 2) }\n}\n')
    assert (e.code, where(e)) == ("unknown-primitive", "broken.mst:3:22")
    assert e.message == "unknown effect primitive 'gain-powr'"
    assert e.hint.startswith("did you mean 'gain-power'")


def test_primitive_given_the_wrong_kind_of_argument():
    e = one_error('house-card a "A" {\n  set base house stark strength 4\n  when immediately { gain-power(winterfell, 2) }\n}\n')
    assert (e.code, where(e)) == ("wrong-type", "broken.mst:3:33")
    assert e.message == "'house' of gain-power expects a house; 'winterfell' is an area"


def test_number_where_a_condition_is_expected():
    e = one_error('house-card a "A" {\n  set base house stark strength 4\n  when immediately if power(you) { gain-power(you, 1) }\n}\n')
    assert (e.code, where(e)) == ("wrong-type", "broken.mst:3:23")
    assert e.message == "this expects a condition, got a number"


def test_unknown_area_in_an_effect():
    e = one_error('house-card a "A" {\n  set base house stark strength 4\n  when immediately { remove-order(moat-cailn) }\n}\n')
    assert (e.code, where(e)) == ("unknown-area", "broken.mst:3:35")
    assert e.message == "unknown area 'moat-cailn'"
    assert e.hint.startswith("did you mean 'moat-cailin'?")


def test_unknown_trigger():
    e = one_error('house-card a "A" {\n  set base house stark strength 4\n  when imediately { gain-power(you, 1) }\n}\n')
    assert (e.code, where(e)) == ("unknown-trigger", "broken.mst:3:8")
    assert e.message == "unknown trigger 'imediately' for a combat ability"
    assert e.hint.startswith("did you mean 'immediately'?")


def test_missing_and_unknown_arguments():
    errs = errors_of('house-card a "A" {\n  set base house stark strength 4\n  when immediately { gain-power(house: you, amout: 2) }\n}\n')
    assert [(e.code, e.message) for e in errs] == [
        ("unknown-argument", "'gain-power' has no parameter 'amout'"),
        ("missing-argument", "'gain-power' needs 'amount' (<number>)"),
    ]
    assert errs[0].hint.startswith("did you mean 'amount'?")


def test_combat_only_primitive_outside_combat():
    e = one_error('loan a "A" { effect { add-strength(buyer, 1) } }\n')
    assert (e.code, where(e)) == ("wrong-window", "broken.mst:1:23")
    assert e.message == "'add-strength' cannot be used in a loan effect"


def test_chooser_required_where_there_is_no_owner():
    e = one_error('westeros-card a "A" {\n  deck i\n  effect {\n    choose x in [winterfell] { remove-order(x) }\n  }\n}\n')
    assert (e.code, where(e)) == ("missing-chooser", "broken.mst:4:5")
    assert e.hint.startswith("add 'by HOUSE'")


def test_unknown_variable_lists_the_names_available():
    e = one_error('loan a "A" { effect { gain-power(buyr, 1) } }\n')
    assert e.code == "wrong-type" or e.code.startswith("unknown")
    assert "buyr" in e.message
    assert "did you mean 'buyer'?" in e.hint


# ---- the map --------------------------------------------------------------------------------------


def test_border_to_a_missing_area():
    e = one_error('board b "B" {\n  area x "X" { land }\n  border x nowhere\n}\n')
    assert (e.code, where(e)) == ("unknown-area", "broken.mst:3:12")
    assert e.message == "unknown area 'nowhere'"


def test_border_to_an_area_of_another_board():
    e = one_error('board b "B" {\n  area x "X" { land }\n  border x winterfell\n}\n')
    assert (e.code, where(e)) == ("border-missing-area", "broken.mst:3:3")
    assert e.message == "board 'b': border x – winterfell names 'winterfell', which is not on this board"


def test_port_that_does_not_open_on_exactly_one_land_and_one_sea():
    text = ('board b "B" {\n  area x "X" { land castle }\n  area s "S" { sea }\n  area t "T" { sea }\n'
            '  port p "P" { of x on s }\n  border p x\n  border p s\n  border p t\n  border x s\n}\n')
    e = one_error(text)
    assert (e.code, where(e)) == ("port-shape", "broken.mst:5:3")
    assert e.message == ("board 'b': port 'p' must border exactly one land area and one sea area; "
                         "it borders land ['x'], sea ['s', 't']")


def test_overlay_that_removes_what_is_not_there():
    e = one_error('overlay o "O" {\n  remove-border winterfell moat-cailin\n  remove-border moat-cailin bay-of-ice\n}\n'
                  'board b "B" { extends tiny  apply o }\n')
    assert (e.code, where(e)) == ("overlay-missing", "broken.mst:3:3")
    assert e.message == ("overlay 'o' (applied by board 'b') removes border moat-cailin – bay-of-ice, "
                         "which is not on the board")


def test_area_that_is_neither_land_nor_sea():
    e = one_error('board b "B" {\n  area x "X" { castle }\n}\n')
    assert (e.code, where(e)) == ("area-kind", "broken.mst:2:3")
    assert e.message == "area 'x' must be either 'land' or 'sea'"


# ---- all errors at once ---------------------------------------------------------------------------


def test_all_errors_of_a_run_are_reported_not_only_the_first():
    text = ('house-card a "A" { set base  house strak  strength 4 }\n'
            'house-card b "B" { set base  house stark  strength 4  sword 1 }\n'
            'house-card c "C" {\n  set base house stark strength 1\n  when immediately { gain-powr(you, 1) }\n}\n')
    codes = [e.code for e in errors_of(text)]
    assert codes == ["unknown-key", "unknown-house", "unknown-primitive"]


# ---- numbers, texts, files --------------------------------------------------------------------------


def test_negative_count_is_located_not_left_to_the_schema():
    e = one_error('house-card a "A" { set base  house stark  strength -2 }\n')
    assert (e.code, where(e)) == ("negative-value", "broken.mst:1:52")
    assert e.message == "'strength' cannot be negative (got -2)"


def test_absurdly_large_number():
    e = one_error('house-card a "A" { set base  house stark  strength 123456789012 }\n')
    assert (e.code, where(e)) == ("number-too-large", "broken.mst:1:52")


def test_unterminated_text():
    e = one_error('house-card a "A {\n  strength 1\n}\n')
    assert (e.code, where(e)) == ("syntax", "broken.mst:1:14")
    assert e.message == "unterminated text"


def test_board_that_extends_itself():
    e = one_error('board b "B" { extends b }\n')
    assert (e.code, where(e)) == ("board-cycle", "broken.mst:1:1")


def test_unknown_card_in_an_effect_with_did_you_mean():
    world = WORLD + 'house-card tywin-lannister "Tywin" { set base house stark strength 4 }\n'
    e = one_error('house-card a "A" {\n  set base house stark strength 1\n'
                  '  when immediately { choose c in [tywin-lanister] { take-from-discard(you, c) } }\n}\n', world)
    assert (e.code, where(e)) == ("unknown-card", "broken.mst:3:35")
    assert e.message == "unknown card 'tywin-lanister'"
    assert e.hint.startswith("did you mean 'tywin-lannister'?")


def test_schema_violation_points_at_the_declaration(bundle):
    from maester.dsl.diagnostics import Diagnostics
    from maester.dsl.validate import validate_bundle

    broken = json.loads(json.dumps(bundle))
    broken["house_cards"]["tywin-lannister"]["swords"] = "many"
    diags = Diagnostics()
    validate_bundle(broken, diags)
    (e,) = diags.errors
    assert e.code == "schema" and "/house_cards/tywin-lannister/swords" in e.message
    assert e.span.file.endswith("cards/base/lannister.mst") and e.span.line > 0
