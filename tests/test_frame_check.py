"""An analysis position's procedures in progress (`step` and `frames`) are checked by their declared types.

Found by the positions campaign (tests/fuzz, seeds 201 and 202): a hand-edited frame or cursor naming what the
game does not hold — a deck id turned into a number in `westeros.opening.drawn` (cases 201:4483, 202:1873), a bid
of a house not in the game (202:11138), a non-house in the cursor's `pass` (201:5684) — passed the schema and the
rules' invariants, restarted, and stopped the game with an internal error decisions later. Every field of every
frame and cursor place now has a declared type (cursor.FIELD_TYPES: house, area, deck, card ids, counts, indexes,
lists and maps of them), checked when an analysis position is loaded (interpreter/core/frame_check.py).
"""

from __future__ import annotations

import copy
import json

import pytest

from maester.interpreter.core import cursor
from maester.interpreter.core.frame_check import frame_problems
from maester.interpreter.core.position import PositionError
from maester.interpreter.core.rules import Rules
from maester.interpreter.frontends.agents import agents_for
from maester.interpreter.mod import ModOptions, new_game
from maester.interpreter.procedures.game import Game


@pytest.fixture(scope="module")
def rules() -> Rules:
    return Rules.default()


def _play(rules: Rules, setup: str, seed: int, tides: bool = False, decisions: int = 100_000):
    """(game, JSON state) at every decision of a random game."""
    game = new_game(rules, setup, seed=seed, options=ModOptions(tides_of_battle=tides, rounds=4))
    agents = agents_for(game.state.houses, "random", seed=seed)
    for _ in range(decisions):
        if game.over:
            return
        yield game, game.state.to_json()
        game.answer(agents[game.decision.house].act(game, game.decision))


REAL_GAMES = [("base-3p", 1, False), ("base-6p", 3, True), ("mod-8p", 6, True), ("mod-4p-with-targaryen", 8, False)]


def test_no_false_alarm_at_any_decision_of_real_games(rules):
    """The cursor and frames real games go through pass the check (most kinds of frame are entered)."""
    seen: set[str] = set()
    for setup, seed, tides in REAL_GAMES:
        for _game, state in _play(rules, setup, seed, tides):
            assert frame_problems(rules, state) == [], (setup, state["step"], state["frames"])
            seen.update(f["at"] for f in state["frames"])
            if "combat" in state["step"]:
                seen.add("step.combat")
    assert {"westeros.opening", "bidding.influence", "combat.house-cards", "combat.retreat", "step.combat",
            "mustering.muster", "action.march-order", "mod.give-bids"} <= seen, sorted(seen)


def _position_at(rules: Rules, setup: str, seed: int, found) -> dict:
    """An analysis position (no history) of the first decision of a random game where `found(state)` holds."""
    for game, state in _play(rules, setup, seed):
        if found(state):
            doc = json.loads(json.dumps(game.to_state()))
            doc["history"], doc["checkpoints"] = {"answers": [], "actions": []}, []
            Game.analysis_position(rules, copy.deepcopy(doc))  # as saved: accepted
            return doc
    raise AssertionError("no such decision in the game")


def _has_frame(place: str):
    return lambda state: any(f["at"] == place for f in state["frames"])


def _refused(rules: Rules, doc: dict) -> str:
    with pytest.raises(PositionError) as info:
        Game.analysis_position(rules, doc)
    return str(info.value)


def test_a_deck_id_of_another_type_in_the_drawn_cards_is_refused(rules):
    """Cases 201:4483 and 202:1873: `drawn` held [1000000, card]; the game stopped at `deck.upper()`."""
    doc = _position_at(rules, "base-4p", 11, _has_frame("westeros.opening"))
    i = next(i for i, f in enumerate(doc["state"]["frames"]) if f["at"] == "westeros.opening")
    if not doc["state"]["frames"][i]["drawn"]:
        pytest.skip("the cards are not drawn at this decision")
    n = len(doc["state"]["frames"][i]["drawn"]) - 1
    doc["state"]["frames"][i]["drawn"][n][0] = 1000000  # not a string: the state schema says so
    assert f"/state/frames/{i}/drawn/{n}/0: 1000000 is not of type 'string'" in _refused(rules, doc)
    doc["state"]["frames"][i]["drawn"][n][0] = "v"  # a string, but no deck of the game
    assert f"/state/frames/{i}/drawn/{n}/0: 'v' is not a Westeros deck of the state (one of i, ii, iii)" \
        in _refused(rules, doc)


def test_a_bid_of_a_house_not_in_the_game_is_refused(rules):
    """Case 202:11138: a bid keyed `a` (no house) stopped the game with KeyError when the bids were paid."""
    doc = _position_at(rules, "base-3p", 1, _has_frame("bidding.influence"))
    i = next(i for i, f in enumerate(doc["state"]["frames"]) if f["at"] == "bidding.influence")
    doc["state"]["frames"][i]["bids"]["a"] = 1
    message = _refused(rules, doc)
    assert f"/state/frames/{i}/bids/a: the key 'a' is not a house of the game (one of baratheon, lannister, " \
           "stark)" in message


def test_a_non_house_in_the_cursor_pass_is_refused(rules):
    """Case 201:5684: `step.pass` held a leader's name; the game stopped with ValueError at the track lookup."""
    doc = _position_at(rules, "base-4p", 11, lambda s: s["step"].get("at") == cursor.PLANNING_ORDERS)
    doc["state"]["step"]["pass"][-1] = "eddard-stark"
    message = _refused(rules, doc)
    n = len(doc["state"]["step"]["pass"]) - 1
    assert f"/state/step/pass/{n}: 'eddard-stark' is not a house of the game" in message


def test_an_index_past_its_list_is_refused(rules):
    doc = _position_at(rules, "base-4p", 11, lambda s: s["step"].get("at") == cursor.PLANNING_ORDERS)
    doc["state"]["step"]["next"] = 9
    assert "/state/step/next: 9 is not an index into `pass` (0 to 4)" in _refused(rules, doc)


def test_the_combat_in_the_cursor_is_checked(rules):
    doc = _position_at(rules, "base-6p", 3, lambda s: "combat" in s["step"])
    doc["state"]["step"]["combat"]["origin"] = "winterfel"
    assert "/state/step/combat/origin: 'winterfel' is not an area of the board" in _refused(rules, doc)


def test_every_declared_type_word_has_a_shape_the_check_knows():
    """A type word added to cursor.FIELD_TYPES without a shape the checker walks would pass everything."""
    tags = {"json", "count", "id", "list", "or-null", "map", "pair", "record"}

    def walk(shape):
        assert shape[0] in tags, shape
        if shape[0] == "id":
            assert shape[1] in cursor.ID_KINDS
        if shape[0] in ("list", "or-null"):
            walk(shape[1])
        if shape[0] == "pair":
            walk(shape[1])
            walk(shape[2])
        if shape[0] == "map":
            assert shape[1] in cursor.ID_KINDS
            walk(shape[2])

    for shape in cursor.FIELD_TYPES.values():
        walk(shape)
    for fields in [*cursor.PLACE_FIELDS.values(), *cursor.RECORDS.values(),
                   *({n: w for n, (w, _) in k.fields.items()} for k in cursor.FRAMES.values())]:
        for name, word in fields.items():
            if word.startswith(cursor.INDEX):
                assert word[len(cursor.INDEX):] in fields, (name, word)
            else:
                assert word in cursor.FIELD_TYPES, (name, word)


@pytest.mark.parametrize(("pack", "setup", "until"), [
    ("draft-house-cards", "base-6p", lambda st: any(f["at"] == "pregame.draft-cards" for f in st["frames"])),
    ("a-dance-with-dragons", "adwd-6p", lambda st: bool(st["step"].get("combat", {}).get("unit_override"))),
])
def test_the_states_of_pack_games_follow_the_state_schema(pack, setup, until):
    """Two schema mistakes found with the typed frames: the house card draft's `pool` was declared an object but
    is a list, and a combat's `unit_override` keys (`AREA#INDEX`) did not match their own pattern, so a position
    saved during a draft or such a combat could not be resumed. Every state of the games up to there follows
    the state schema and the frame check."""
    from maester.dsl.compile import default_content_dir
    from maester.interpreter.core import formats

    from .conftest import REPO

    rules = Rules.default(pack, [default_content_dir(), REPO / "examples" / "packs" / pack])
    game = new_game(rules, setup, seed=2)
    agents = agents_for(game.state.houses, "random", 2)
    reached = False
    for _ in range(2000):
        state = game.state.to_json()
        assert formats.problems("state", state, limit=3) == [] and frame_problems(rules, state) == []
        reached = reached or until(state)
        if reached and not until(state) or game.over:
            break
        game.answer(agents[game.decision.house].act(game, game.decision))
    assert reached


def test_a_bid_given_but_not_paid_above_the_bidders_power_is_refused(rules):
    """Case 302:11516: a bid of the `bids` stage larger than its house's power passed as a count; paying it drove
    the house's power below 0 and the next bid had no legal answer (R10.2: 0 up to its available power)."""
    doc = _position_at(rules, "base-3p", 1, lambda s: any(f["at"] == "bidding.influence" and f["stage"] == "bids"
                                                          and f["bids"] for f in s["frames"]))
    i = next(i for i, f in enumerate(doc["state"]["frames"]) if f["at"] == "bidding.influence")
    house = next(iter(doc["state"]["frames"][i]["bids"]))
    power = doc["state"]["houses"][house]["power"]
    doc["state"]["frames"][i]["bids"][house] = power  # all of its power: a legal bid
    assert not frame_problems(rules, doc["state"])
    doc["state"]["frames"][i]["bids"][house] = power + 1
    assert f"/state/frames/{i}/bids/{house}: {power + 1} is not a bid within {house}'s power ({power}): bids are " \
           "paid when all are given (R10.2)" in _refused(rules, doc)
