"""The interpreter knows no card by name: the repository's own check (card ids and names from the bundle) and
the project's standing check in ../shared/tools both find nothing in the engine."""

from __future__ import annotations

import subprocess
import sys

from maester.tools.card_names import card_words, find_card_names

from .conftest import REPO, reference_file

ENGINE = [REPO / "interpreter"]


def test_engine_code_names_no_card(bundle):
    found = find_card_names(bundle, ENGINE)
    assert not found, "\n".join(map(str, found))


def test_the_check_sees_every_kind_of_card_and_finds_a_planted_name(bundle, tmp_path):
    words = card_words(bundle)
    kinds = {what.rsplit(" ", 1)[0] for what in words.values()}
    assert kinds == {"house card", "Westeros card", "wildling card", "loan", "Tides of Battle card"}
    assert words["tywin_lannister"] == "house card tywin-lannister"
    assert words["tywin lannister"].startswith("house card tywin-lannister")  # one name, several sets
    assert "supply" not in words  # a rule word, not evidence of a special case
    planted = tmp_path / "engine.py"
    planted.write_text('x = 1\nif card == "tywin-lannister":  # special case\n    pass\nsupply = 2\n')
    found = find_card_names(bundle, [planted])
    assert [(f.line, f.what) for f in found] == [(2, "house card tywin-lannister")]


def test_the_standing_check_of_the_project_agrees():
    tool = reference_file("rules.md").parent.parent / "tools" / "card-names-in-code"  # skips without ../shared
    result = subprocess.run([sys.executable, str(tool), str(REPO / "interpreter")], capture_output=True, text=True,
                            timeout=60)
    assert result.returncode == 0, result.stdout + result.stderr

