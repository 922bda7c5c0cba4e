"""The A Storm of Swords decks are content only: two variants deal them, and games play through with them."""

from __future__ import annotations

import pytest

from maester.interpreter.core.rules import Rules, apply_variant
from maester.interpreter.frontends.agents import agents_for
from maester.interpreter.mod import new_game

BASE_HOUSES = ("stark", "lannister", "baratheon", "greyjoy", "tyrell", "martell")


@pytest.mark.parametrize("variant, setup, others", [
    ("asos-base", "base-6p", {}),
    ("asos", "mod-8p", {"arryn": "mod-arryn", "targaryen": "mod-targaryen-a"}),
])
def test_asos_variants_deal_the_asos_decks_and_play(bundle, variant, setup, others):
    rules = Rules(apply_variant(bundle, variant))
    game = new_game(rules, setup, seed=5)
    sets = {h: {rules.bundle["house_cards"][c]["set"] for c in hs.hand} for h, hs in game.state.houses.items()}
    assert {h: sets[h] for h in BASE_HOUSES} == {h: {"asos"} for h in BASE_HOUSES}
    assert {h: sets[h] for h in others} == {h: {s} for h, s in others.items()}
    assert all(len(game.state.houses[h].hand) == 7 for h in BASE_HOUSES)
    game.play(agents_for(game.state.houses, "random", 5))
    assert game.over and game.state.winner in game.state.houses
