"""The Planning and Action Phase procedures restart from the state alone (interpreter/procedures/planning.py, action.py).

A position saved as JSON in the middle of an order placement, a Messenger Raven, a raid, a march (its moves,
its power token, its combat, its ports) or a special Consolidate Power order, continued by `Game.restarted`
with nothing but that state, asks the very decision pending with the progress its frames keep.
"""

from __future__ import annotations

import pytest

from maester.interpreter.core.rules import Rules
from maester.interpreter.frontends.agents import RandomAgent
from maester.interpreter.mod import ModOptions, new_game
from maester.interpreter.procedures.game import Game

from .restarts import Report, check_game, restart_here

# the decision kinds these procedures ask
KINDS = ("place-order", "messenger-raven", "wildling-top", "resolve-raid", "resolve-march",
         "resolve-consolidate-power", "raid", "raid-or-support", "march", "leave-power", "consolidate",
         "replace-ships")


@pytest.fixture(scope="module")
def rules() -> Rules:
    return Rules.default()


def _at(rules: Rules, setup: str, seed: int, number: int, tides: bool = False, rounds: int = 4) -> Game:
    """The game of tests/restarts.py's random agents at decision `number`."""
    game = new_game(rules, setup, seed=seed, options=ModOptions(tides_of_battle=tides, rounds=rounds))
    agents = {h: RandomAgent(seed * 31 + i) for i, h in enumerate(game.state.houses)}
    while game.decision.number < number:
        game.answer(agents[game.decision.house].act(game, game.decision))
    return game


def _restarted(rules: Rules, game: Game, events: bool = True) -> Game:
    again = restart_here(rules, game)
    assert again.decision.to_json() == game.decision.to_json()
    assert again.state.hash() == game.state.hash()
    if events:
        assert again.events == []  # nothing is emitted again on the way down to the decision
    return again


def test_an_order_placement_restarts_at_the_next_area(rules):
    game = _at(rules, "base-3p", 1, 1)
    again = _restarted(rules, game)
    assert again.state.frames == [{"at": "planning.phase", "stage": "orders"},
                                  {"at": "planning.house-orders", "next": 1}]
    assert (again.decision.house, again.decision.info) == ("baratheon", {"area": "kingswood"})
    assert again.state.orders == game.state.orders and len(again.state.orders) == 1  # dragonstone's, face down
    assert again.decision.options == ["consolidate-power", "defense-plus-one", "defense-plus-two", "march-minus-one",
                                      "march-plus-one", "raid", "special-consolidate-power", "special-raid",
                                      "support", "support-plus-one"]


def test_the_messenger_raven_restarts_after_the_orders(rules):
    game = _at(rules, "base-3p", 1, 9)
    again = _restarted(rules, game)
    assert again.state.frames == [{"at": "planning.phase", "stage": "raven"}]
    assert (again.decision.kind, again.decision.house) == ("messenger-raven", "lannister")
    assert again.decision.options[:3] == ["pass", "look-at-wildlings", "replace:lannisport:consolidate-power"]
    again.answer("pass")  # the raven's answer ends the phase: no order is asked again
    assert again.decision.kind != "place-order" and again.state.frames[:1] != [{"at": "planning.phase",
                                                                                 "stage": "raven"}]


def test_the_card_looked_at_is_kept_in_the_frame(rules):
    game = _at(rules, "base-6p", 3, 201)
    again = _restarted(rules, game)
    assert again.state.frames == [{"at": "planning.phase", "stage": "raven"},
                                  {"at": "planning.raven", "card": "silence-at-the-wall"}]
    assert again.state.raven_used and again.state.wildling_deck[0] == "silence-at-the-wall"
    again.answer("bottom")
    assert again.state.wildling_deck[-1] == "silence-at-the-wall"
    assert [e["type"] for e in again.events[:1]] == ["raven-bottom"]


def test_a_raid_off_the_board_restarts_at_its_target(rules):
    game = _at(rules, "base-4p", 2, 15)
    again = _restarted(rules, game)
    assert again.state.frames == [{"at": "action.turn", "area": "the-golden-sound", "order": "raid"},
                                  {"at": "action.raid-target", "targets": ["ironmans-bay"]}]
    assert "the-golden-sound" not in again.state.orders  # the raid left the board before its target is chosen
    assert (again.decision.house, again.decision.options) == ("lannister", ["none", "ironmans-bay"])


def test_a_march_restarts_with_its_moves_so_far(rules):
    game = _at(rules, "base-3p", 1, 14)
    again = _restarted(rules, game)
    assert again.state.frames == [
        {"at": "action.turn", "area": "lannisport", "order": "march-plus-one"},
        {"at": "action.march-order", "stage": "moves", "moves": [["knight", "riverrun"]], "bonus": 1}]
    assert again.decision.info == {"area": "lannisport", "moves": ["knight:riverrun"]}
    assert again.decision.options == ["done", "footman:riverrun", "footman:searoad-marches", "footman:stoney-sept"]


def test_a_march_restarts_at_its_power_token(rules):
    game = _at(rules, "base-3p", 1, 12)
    again = _restarted(rules, game)
    assert again.state.frames[1] == {"at": "action.march-order", "stage": "leave-power",
                                     "moves": [["footman", "dragonstone"]], "bonus": -1}
    assert (again.decision.kind, again.decision.info) == ("leave-power", {"area": "kingswood"})
    power = again.state.houses["baratheon"].power
    again.answer("yes")
    assert (again.state.power_tokens["kingswood"], again.state.houses["baratheon"].power) == ("baratheon", power - 1)
    assert again.state.units_in("dragonstone", "baratheon") == game.state.units_in("dragonstone", "baratheon") + \
        [["footman", False]]


def test_a_march_restarts_inside_its_combat_through_its_frame(rules):
    game = _at(rules, "base-3p", 1, 58)
    again = _restarted(rules, game, events=False)  # what a combat step emits again is combat.py's (its frames)
    assert again.state.frames[:2] == [
        {"at": "action.turn", "area": "shipbreaker-bay", "order": "march-minus-one"},
        {"at": "action.march-order", "stage": "combat", "bonus": -1, "target": "the-narrow-sea",
         "moves": [["ship", "port-of-dragonstone"], ["ship", "the-narrow-sea"]]}]
    combat = again.state.step["combat"]
    assert (combat["attacker"], combat["defender"], combat["area"], combat["attacking"]) == (
        "baratheon", "stark", "the-narrow-sea", [["ship", False]])
    assert again.decision.kind == "house-card"


def test_a_special_consolidate_power_restarts_at_its_question(rules):
    game = _at(rules, "base-4p", 2, 157)
    again = _restarted(rules, game)
    assert again.state.frames == [{"at": "action.turn", "area": "dragonstone", "order": "special-consolidate-power"},
                                  {"at": "action.consolidate-order", "how": ""}]
    assert "dragonstone" not in again.state.orders
    power = again.state.houses["baratheon"].power
    again.answer("power")
    assert again.state.houses["baratheon"].power > power and again.events[0]["type"] == "power"


def test_ships_in_a_port_taken_restart_at_their_question(rules):
    game = _at(rules, "base-6p", 9, 543, tides=True, rounds=8)
    again = _restarted(rules, game)
    assert [f["at"] for f in again.state.frames] == ["action.turn", "action.march-order"]
    assert again.state.frames[1]["stage"] == "after"
    assert (again.decision.kind, again.decision.house, again.decision.options) == ("replace-ships", "martell",
                                                                                  [0, 1])
    again.answer(1)
    assert again.state.units["port-of-storms-end"] == {"house": "martell", "units": [["ship", False]]}


def test_a_finished_planning_and_action_phase_leave_no_frame(rules):
    game = _at(rules, "base-3p", 1, 20)
    while game.state.phase != "westeros" and game.decision is not None:
        game.answer(RandomAgent(3).act(game, game.decision))
    assert game.state.phase == "westeros"
    assert [f["at"] for f in game.state.frames if f["at"].split(".")[0] in ("planning", "action")] == []


def test_every_decision_of_these_procedures_restarts_from_the_state_alone(rules):
    """The strict check of tests/restarts.py at every decision of a few games, for this module's decision kinds
    (base and MoD, 6 players, Tides of Battle on and off; 8 rounds for ships changing hands)."""
    total = Report()
    for setup, seed, tides, rounds in [("base-6p", 3, False, 4), ("base-6p", 9, True, 8),
                                       ("mod-6p-with-targaryen", 4, True, 4)]:
        total.add(check_game(rules, setup, seed, tides, rounds=rounds))
    assert {k: total.first[k] for k in KINDS if total.failed[k]} == {}
    # (which Consolidate Power order goes first is asked only when another house's turn may change its yield)
    assert set(KINDS) - {"resolve-consolidate-power"} <= {k for k in KINDS if total.checked[k]}
