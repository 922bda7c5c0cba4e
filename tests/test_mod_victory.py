"""Mother of Dragons victory points and loyalty gains, checked at every decision of random games against the
rules read directly: the fast paths (tables read once per game, control read in one pass) must give what R37.1,
R35.11 and R37.6 say."""

from __future__ import annotations

import pytest

from maester.interpreter.core import control
from maester.interpreter.frontends.agents import agents_for
from maester.interpreter.mod import new_game
from maester.interpreter.mod.state import MODULE
from maester.interpreter.procedures import victory


@pytest.fixture(scope="module")
def rules():
    from maester.interpreter.core.rules import Rules

    return Rules.default()


def _expected_table(g) -> dict[str, int]:
    """Castles and strongholds a house controls (R23.7, lost castles not counted, R42.3), loyalty for a house
    that wins by it (R37.1), nothing for a vassal (R35.11): every area asked one by one."""
    data = g.state.modules[MODULE]
    table = {}
    for house in g.state.houses:
        if house in data["vassals"]:
            table[house] = 0
        elif g.rules.house(house).get("victory_by") == "loyalty":
            home = g.rules.house(house)["home"]
            printed = 1 if g.board.area(home).loyalty_token and g.controller(home) == house else 0
            table[house] = min(victory.threshold(g, house), data["loyalty_points"].get(house, 0) + printed)
        else:
            table[house] = sum(1 for a in g.board.areas if a.kind == "land" and g.castle_level(a.id) != "none"
                               and control.controller(g.state, g.board, a.id) == house)
    return table


@pytest.mark.parametrize("setup, seed", [("mod-8p", 3), ("mod-4p-with-targaryen", 4)])
def test_victory_points_and_loyalty_gains_follow_the_rules_at_every_decision(rules, setup, seed):
    g = new_game(rules, setup, seed=seed)
    agents = agents_for(g.state.houses, "random", seed=seed)
    loyal = [h for h in g.state.houses if rules.house(h).get("victory_by") == "loyalty"]
    while g.decision is not None:
        assert g.victory_table() == _expected_table(g)
        if g.embattled is None:  # tokens under a loyalty house's control are gained at once (R37.6)
            tokens = g.state.modules[MODULE]["loyalty"]
            assert not [a for a, n in tokens.items() if n > 0 and g.controller(a) in loyal]
        d = g.decision
        g.answer(agents[d.house].act(g, d))
    assert g.over and g.victory_table() == _expected_table(g)
    # the games do gain loyalty tokens: the check above was not idle
    assert loyal and any(e["type"] == "loyalty-gained" for e in g.events)
