"""The board queries written twice for speed give the answers of their reference in core/control.py:
Game.castle_counts (inlined `control.land_controllers`) and Game.fits_supply (`control.fits_supply` of
`control.unit_counts_with`), at every decision of random games of both editions."""

from __future__ import annotations

import random

import pytest

from maester.interpreter.core import control
from maester.interpreter.core.rules import Rules
from maester.interpreter.frontends.agents import agents_for
from maester.interpreter.mod import new_game


@pytest.fixture(scope="module")
def rules() -> Rules:
    return Rules.default()


def reference_castle_counts(g) -> dict[str, int]:
    """Castle counts by the reference: the controller of each castle area (R23), less castles lost (R42.3)
    (tests/test_counts.py compares the engine's kept counts with it too)."""
    counts = dict.fromkeys(g.state.houses, 0)
    lands = [a.id for a in g.board.areas if a.is_land and a.has_castle]
    for area, house in control.land_controllers(g.state, g.board, lands):
        if house in counts and g.castle_level(area) != "none":
            counts[house] += 1
    return counts


@pytest.mark.parametrize("setup", ["base-6p", "mod-8p"])
def test_fast_board_queries_match_the_reference(rules, setup):
    g = new_game(rules, setup, seed=7)
    agents = agents_for(g.state.houses, "random", seed=7)
    pick = random.Random(7)
    areas = [a.id for a in g.board.areas]
    checked = 0
    while g.decision is not None:
        st = g.state
        assert g.castle_counts() == reference_castle_counts(g)
        for house in st.houses:
            extra = {a: pick.choice([-2, -1, 1, 2, 3]) for a in pick.sample(areas, 3)}
            counts = control.unit_counts(st, house)
            limits = g.supply_limits(house)
            want = control.fits_supply(control.unit_counts_with(counts, extra), limits)
            assert g.fits_supply(house, extra) == want
            assert g.fits_supply(house) == control.fits_supply(list(counts.values()), limits)
        checked += 1
        g.answer(agents[g.decision.house].act(g, g.decision))
    assert checked > 300  # a whole game, every decision
