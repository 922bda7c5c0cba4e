"""Declared rules are played, or refused (issue 19): a setup that declares a Mother of Dragons part (the Iron Bank,
loyalty tokens, dragon strength rounds, vassals) under a rules set the module does not play would have it ignored
in play, so it does not compile: one located error per part."""

from __future__ import annotations

import pytest

from maester.dsl import CompileError, compile_paths
from maester.dsl.compile import default_content_dir

SETUP = """\
setup base-bank "Base with the Iron Bank" {
  game base  board base  players 3
  houses [stark, lannister, baratheon]
  power-tokens 5
  iron-bank
  loyalty-token harrenhal 1
  influence iron-throne [baratheon, lannister, stark]
  influence fiefdoms [lannister, stark, baratheon]
  influence kings-court [lannister, stark, baratheon]
  start stark winterfell { footman 1 }
  start lannister lannisport { footman 1 }
  start baratheon dragonstone { footman 1 }
}
"""


def test_a_mother_of_dragons_part_in_a_base_setup_is_refused(tmp_path):
    (tmp_path / "bank.mst").write_text(SETUP, encoding="utf-8")
    with pytest.raises(CompileError) as e:
        compile_paths([default_content_dir(), tmp_path])
    found = [d for d in e.value.diagnostics.errors if d.code == "part-not-played" and "variant" not in d.message]
    assert sorted(d.message.split(" declares ")[1].split(",")[0] for d in found) == ["loyalty tokens",
                                                                                     "the Iron Bank"]
    for d in found:
        assert (d.span.file.endswith("bank.mst"), d.span.line) == (True, 1)
        assert "its rules set 'base' does not play this part" in d.message
        assert "game mother-of-dragons" in d.hint


def test_the_same_parts_compile_under_mother_of_dragons(tmp_path):
    """The bundled Mother of Dragons setups declare them all and compile (the check names the rules set only)."""
    bundle = compile_paths([default_content_dir()])
    assert any(s.get("iron_bank") and s.get("loyalty_tokens") for s in bundle["setups"].values())
