"""The procedure's cursor and the combat frame: a game restarts mid-phase from its state alone.

A position's resume point is the latest checkpoint; with the cursor (`GameState.step`) it lies at the
start of the current house's turn, order placement or Westeros card, or — inside a combat — at the combat
step in progress, with the whole combat as data. These tests check that the state alone continues the
game, that the cursor says where the game is, and that the schema and the engine declare the same places.
"""

from __future__ import annotations

import json

import pytest

from maester.interpreter.core import cursor
from maester.interpreter.core.rules import Rules
from maester.interpreter.core.state import GameState
from maester.interpreter.frontends.agents import RandomAgent
from maester.interpreter.mod import ModOptions, new_game
from maester.interpreter.procedures.combat import STAGE_NAMES, Combat
from maester.interpreter.procedures.game import Game

from . import restarts
from .conftest import REPO


@pytest.fixture(scope="module")
def rules() -> Rules:
    return Rules.default()


def _agents(game: Game, seed: int) -> dict:
    return {h: RandomAgent(seed + i) for i, h in enumerate(game.state.houses)}


def _from_state_alone(rules: Rules, game: Game, state: dict) -> Game:
    """A game started on a checkpoint's state only: no history, no answers rerun before it."""
    g = type(game)(rules, game.state.setup, seed=game.state.seed, options=game.options,
                   state=GameState.from_json(json.loads(json.dumps(state))))
    return g


def _play_until(game: Game, agents: dict, stop, limit: int = 5000) -> bool:
    for _ in range(limit):
        if game.decision is None:
            return False
        if stop(game):
            return True
        game.answer(agents[game.decision.house].act(game, game.decision))
    return False


@pytest.mark.parametrize("setup,seed,tides", [("base-4p", 5, False), ("mod-6p-with-targaryen", 1, True),
                                              ("mod-8p", 1, False)])
def test_every_checkpoint_is_a_phase_start_that_continues_the_game(rules, setup, seed, tides):
    """Checkpoints (what undo reruns from) are the starts of phases, with an empty cursor and no frame; each,
    given as a bare state to a new game, asks the same decisions and reaches the same states, and from some
    of them ends in the same final state."""
    game = new_game(rules, setup, seed=seed, options=ModOptions(tides_of_battle=tides, rounds=4))
    agents = _agents(game, seed)
    asked, hashes = [], []
    while game.decision is not None:
        asked.append(game.decision.to_json())
        hashes.append(game.state.hash())
        game.answer(agents[game.decision.house].act(game, game.decision))
    states = [c.state for c in game.checkpoints]
    assert all(s["step"] == {} and s["frames"] == [] for s in states)
    assert {s["phase"] for s in states} == {"westeros", "planning", "action"}
    assert len(game.checkpoints) >= 3 * 3  # three phases a round (no Westeros Phase in round 1)
    for k, cp in enumerate(game.checkpoints[1:]):
        if cp.run.get("later"):
            continue  # a citation kept for a later event lives in the run, not the state (tested below)
        g = _from_state_alone(rules, game, cp.state)
        to_the_end = k % 4 == 0
        for i in range(cp.answers, len(game.answers) if to_the_end else min(cp.answers + 12, len(game.answers))):
            got, want = g.decision.to_json(), asked[i]
            where = f"checkpoint at answer {cp.answers} ({cp.state['phase']}): decision {i}"
            assert (got["house"], got["kind"], got["options"]) == (want["house"], want["kind"], want["options"]), where
            assert g.state.hash() == hashes[i], where
            g.answer(game.answers[i])
        if to_the_end:
            assert g.decision is None and g.state.hash() == game.state.hash()


def test_inside_a_combat_the_saved_state_holds_the_combat(rules):
    """At the defender's house card choice the saved state alone holds the combat: attacker, defender,
    embattled area and the attacking units in `step.combat`, the attacker's card chosen (face down) in the
    combat's frame; the position goes on from it."""
    game = new_game(rules, "base-6p", seed=21)
    agents = _agents(game, 21)
    chosen = []
    found = _play_until(game, agents, lambda g: (
        g.decision.kind == "house-card" and not g.decision.info.get("card")
        and (chosen.append(g.decision.house) or len(chosen) >= 2) and chosen[-1] != chosen[-2]))
    assert found, "no combat in this game"
    doc = json.loads(json.dumps(game.to_state()))
    frame = doc["state"]["step"]["combat"]
    assert doc["state"]["step"]["at"] == "action.march"
    assert frame["stage"] == "house-cards" and frame["area"] == game.decision.info["area"]
    assert game.decision.house in (frame["attacker"], frame["defender"])
    assert frame["attacking"], "the attacking units wait off the board, in the combat"
    assert any(f["at"] == "combat.house-cards" for f in doc["state"]["frames"])
    again = Game.from_state(rules, doc)
    assert again.decision.to_json() == game.decision.to_json()


def test_the_action_cursor_names_the_turn(rules):
    game = new_game(rules, "base-4p", seed=3)
    agents = _agents(game, 3)
    assert _play_until(game, agents, lambda g: g.decision.kind == "march")
    step = game.state.step
    assert step["at"] == "action.march" and step["pass"][step["next"]] == game.decision.house
    assert set(step["pass"]) == set(game.state.houses)


def test_the_cursor_is_empty_between_phases_and_at_the_end(rules):
    game = new_game(rules, "base-3p", seed=4, options=ModOptions(rounds=2))
    agents = _agents(game, 4)
    while game.decision is not None:
        game.answer(agents[game.decision.house].act(game, game.decision))
    assert game.state.step == {}
    assert game.checkpoints[0].state["step"] == {}  # the start of the first Planning Phase


def test_a_combat_round_trips_through_json():
    c = Combat("lannister", "stark", "the-twins", "riverrun", [["knight", False]], 1, True)
    c.support = {"the-neck": "defender"}
    c.cards = {"lannister": "x", "stark": None}
    c.fired = {("x", 0), ("y", 2)}
    c.protected = {"stark"}
    c.protected_by = {"stark": ("y", "content/cards.mst:3:5")}
    c.returned = {"lannister": "z"}
    data = c.to_json()
    assert json.loads(json.dumps(data)) == data
    assert Combat.from_json(data) == c


def test_the_schema_declares_the_engine_places_and_combat_fields():
    schema = json.loads((REPO / "schemas" / "state.schema.json").read_text(encoding="utf-8"))
    alternatives = schema["properties"]["step"]["oneOf"]
    places = set()
    for alt in alternatives[1:]:
        at = alt["properties"]["at"]
        places |= {at["const"]} if "const" in at else set(at["enum"])
    assert places == set(cursor.PLACES)
    action = next(a for a in alternatives if "combat" in a.get("properties", {}))
    frame = action["properties"]["combat"]
    assert frame["properties"]["stage"]["enum"] == list(STAGE_NAMES)
    fields = set(Combat("a", "b", "c", "d", [], 0).to_json())
    assert set(frame["required"]) == fields | {"stage"} == set(frame["properties"])


def test_the_state_schema_lists_every_declared_frame():
    from maester.interpreter.frontends.state_schema import state_schema_text

    on_disk = (REPO / "schemas" / "state.schema.json").read_text(encoding="utf-8")
    assert on_disk == state_schema_text(on_disk), "schemas/state.schema.json is stale: run `maester schema --write`"
    frames = json.loads(on_disk)["properties"]["frames"]
    places = {item["properties"]["at"]["const"] for item in frames["items"].get("oneOf", [])}
    assert places == set(cursor.FRAMES)


@pytest.mark.parametrize("setup,seed,tides", restarts.GAMES)
def test_every_decision_restarts_from_the_state_alone(rules, setup, seed, tides):
    """At every decision of a random game, a new game given only a JSON copy of the state (and the run's
    counts) asks the identical decision, leaves the state as it was and, with the same next answers, emits
    the same events and reaches the same states (tests/restarts.py)."""
    report = restarts.check_game(rules, setup, seed, tides)
    assert sum(report.checked.values()) > 100, "too short a game to show anything"
    assert not report.failed, report.text()


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(40))
def test_every_decision_restarts_from_the_state_alone_in_many_games(rules, seed):
    setups = sorted(rules.bundle["setups"])
    setup = setups[seed % len(setups)]
    report = restarts.check_game(rules, setup, 100 + seed, seed % 2 == 1, rounds=10, every=3)
    assert not report.failed, report.text()
