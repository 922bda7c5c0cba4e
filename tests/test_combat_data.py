"""The combat in progress as data (`Combat.to_json`, kept in the state's cursor at every decision inside a combat
step): its fields in their declared order, sets as sorted lists, and read back (`Combat.from_json`) to the same
data, sharing nothing with it."""

from __future__ import annotations

import json
from dataclasses import fields

import pytest

from maester.interpreter.core.rules import Rules
from maester.interpreter.frontends.agents import RandomAgent
from maester.interpreter.mod import new_game
from maester.interpreter.procedures.combat import Combat


@pytest.fixture(scope="module")
def rules():
    return Rules.default()


def test_the_combat_data_round_trips_in_field_order(rules):
    names = ["stage", *(f.name for f in fields(Combat))]
    seen = 0
    for setup, seed in (("mod-8p", 3), ("base-6p", 2)):
        game = new_game(rules, setup, seed=seed)
        agents = {h: RandomAgent(seed + i) for i, h in enumerate(game.state.houses)}
        while game.decision is not None and game.decision_count < 400:
            data = game.state.step.get("combat")
            if data is not None:
                seen += 1
                assert list(data) == names
                assert json.loads(json.dumps(data)) == data  # plain JSON values (no set, no tuple)
                combat = Combat.from_json({k: v for k, v in data.items() if k != "stage"})
                again = combat.to_json()
                assert again == {k: v for k, v in data.items() if k != "stage"} and list(again) == names[1:]
                combat.attacking.append(["footman", False])  # the data read back is the combat's own
                combat.cards["nobody"] = "x"
                assert again != combat.to_json() and "nobody" not in data["cards"]
            game.answer(agents[game.decision.house].act(game, game.decision))
    assert seen >= 5, "no combat decision was reached: the test lost its point"
