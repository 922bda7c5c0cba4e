"""Snapshots (core/snapshot.py): the copies behind checkpoints and clones are exact and share nothing."""

from __future__ import annotations

import pytest

from maester.interpreter.core import snapshot
from maester.interpreter.core.rules import Rules
from maester.interpreter.frontends.agents import agents_for
from maester.interpreter.mod import new_game


@pytest.fixture(scope="module")
def mid_game():
    g = new_game(Rules.default(), "mod-8p", seed=5)
    agents = agents_for(g.state.houses, "random", seed=5)
    for _ in range(200):
        g.answer(agents[g.decision.house].act(g, g.decision))
    return g


def test_copy_is_the_same_position(mid_game):
    st = mid_game.state
    copy = snapshot.copy(st)
    assert copy.to_json() == st.to_json()
    assert copy.hash() == st.hash()
    assert type(copy.houses["stark"]).__name__ == "HouseState"


def test_copy_shares_nothing(mid_game):
    st = mid_game.state
    before = st.hash()
    copy = snapshot.copy(st)
    area = next(iter(copy.units))
    copy.units[area]["units"][0][1] = not copy.units[area]["units"][0][1]
    copy.houses["stark"].hand.append("x")
    copy.modules["mother-of-dragons"]["vassals"].append("x")
    copy.decks[next(iter(copy.decks))].clear()
    copy.tracks[copy.turn_track].reverse()
    assert st.hash() == before


def test_a_value_json_cannot_hold_is_refused(mid_game):
    copy = snapshot.copy(mid_game.state)
    copy.step = {"at": "x", "odd": object()}
    with pytest.raises(ValueError):
        snapshot.dumps(copy)
