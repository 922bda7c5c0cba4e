"""The Tides of Battle deck in the content matches game-content.yaml (R29.2)."""

from __future__ import annotations

import yaml

from .conftest import reference_file


def test_tides_of_battle_cards_match_the_reference(bundle):
    ref = yaml.safe_load(reference_file("game-content.yaml").read_text())["tides_of_battle"]
    ours = bundle["tides_cards"]
    assert set(ours) == {c["id"] for c in ref["cards"]}
    for c in ref["cards"]:
        mine = ours[c["id"]]
        got = (mine["strength"], mine["swords"] or 0, mine["fortifications"] or 0, mine["skulls"] or 0, mine["copies"])
        want = (c["combat_strength"], c["swords"], c["fortifications"], c["skulls"], c["copies"])
        assert got == want, c["id"]
    assert sum(c["copies"] for c in ours.values()) == ref["deck_size"] == 24
