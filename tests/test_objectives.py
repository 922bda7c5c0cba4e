"""Objectives (A Feast for Crows): the card kind with its condition, dealt and scored by primitives; hands are
secret in every view; the scenario plays to its end and restarts from the state alone."""

from __future__ import annotations

import pytest

from maester.dsl.compile import default_content_dir
from maester.env.observe import view
from maester.interpreter.core.rules import Rules
from maester.interpreter.frontends.agents import agents_for
from maester.interpreter.mod import ModOptions, new_game

from .conftest import REPO
from .pack_text import compile_pack_text as _diags
from .restarts import check_game

PACK = REPO / "examples" / "packs" / "a-feast-for-crows"


@pytest.fixture(scope="module")
def rules() -> Rules:
    return Rules.default("a-feast-for-crows", [default_content_dir(), PACK])


def test_the_scenario_plays_to_its_end_by_objective_points(rules):
    game = new_game(rules, "ffc-4p", seed=3)
    game.play(agents_for(game.state.houses, "random", 3))
    assert game.over and set(game.state.houses) == {"arryn", "baratheon", "lannister", "stark"}
    assert game.rules.house("arryn")["power_tokens"] == 19
    scored = [e for e in game.events if e["type"] == "objective-scored"]
    assert scored  # random players still meet some objectives (Lannister starts on its special one)
    for e in scored:  # each scoring gives the points printed for that house
        assert e["points"] == rules.bundle["objectives"][e["objective"]]["points"].get(e["house"], 0)
    raided = [e for e in game.events if e["type"] == "victory-points" and e.get("card") == "ironborn-raid"]
    points = {h: sum(e["points"] for e in scored if e["house"] == h) + sum(e["amount"] for e in raided
                                                                          if e["house"] == h)
              for h in game.state.houses}
    assert {h: game.victory_points(h) for h in game.state.houses} == points
    # seed 3: a house reaches 7 objective points, checked at the end of a round (END_REASONS)
    assert game.state.end_reason == "victory-points" and game.victory_points(game.state.winner) >= 7


def test_hands_are_secret_and_scored_objectives_public(rules):
    game = new_game(rules, "ffc-4p", seed=4, options=ModOptions(rounds=2))
    game.play(agents_for(game.state.houses, "random", 4))
    hands = game.state.modules["objectives"]["hands"]
    for house in game.state.houses:
        mine = view(game, house)["objectives"]
        assert mine["hand"] == sorted(hands[house]) and len(mine["hand"]) == 3
        assert mine["hand_sizes"] == {h: 3 for h in game.state.houses}
        other = next(h for h in game.state.houses if h != house)
        assert not set(view(game, other)["objectives"]["hand"]) & (set(hands[house]) - set(hands[other]))
        draws = [s for s in view(game, other)["secrets"] if s["type"] == "objectives"]
        assert all(e["house"] != house for e in game.events if e["type"] == "objectives" and "secret" in e
                   and e["n"] in {s["n"] for s in draws})


def test_objective_decisions_restart_from_the_state_alone(rules):
    report = check_game(rules, "ffc-4p", 5, False, rounds=2, ahead=2, every=5)
    assert report.checked["objective-return"]
    assert not sum(report.failed.values()), report.text()




@pytest.mark.parametrize(("text", "code", "line"), [
    ('objective o "O" {\n  points stark 1\n}\n', "objective-condition", 1),
    ('objective o "O" {\n  condition controls(house, winterfell)\n  condition true\n}\n', "objective-condition", 3),
    ('objective o "O" {\n  condition power(house)\n}\n', "wrong-type", 2),
    ('loan l "L" {\n  effect { condition true }\n}\n', "misplaced-condition", 2),
])
def test_a_wrong_objective_is_a_located_error(tmp_path, text, code, line):
    diags = _diags(tmp_path, text)
    found = [d for d in diags if d.code == code]
    assert found, [f"{d.code}: {d.message}" for d in diags]
    assert found[0].span.line == line


def _ffc_game_at_the_deal(rules, seed, top_of_deck_i):
    """A two-round A Feast for Crows game stopped at its first decision (the deal), deck I's top card chosen."""
    game = new_game(rules, "ffc-4p", seed=seed, options=ModOptions(rounds=2))
    assert game.decision.kind == "objective-return"
    deck = game.state.decks["i"]
    deck.remove(top_of_deck_i)
    deck.insert(0, top_of_deck_i)
    return game


def test_ironborn_raid_takes_a_point_from_each_house_with_two_scored_objectives(rules):
    """Ironborn Raid (deck I of A Feast for Crows): Lannister, with two objectives scored, drops one place on the
    victory track; Stark, with one, does not."""
    game = _ffc_game_at_the_deal(rules, 6, "ironborn-raid")
    part = game.state.modules["objectives"]
    part["scored"].update(lannister=[part["deck"].pop(), part["deck"].pop()], stark=[part["deck"].pop()])
    game.gain_victory_points("lannister", 3, "R26", "test")
    game.gain_victory_points("stark", 3, "R26", "test")
    game.play(agents_for(game.state.houses, "random", 6))
    raid = [e for e in game.events if e["type"] == "victory-points" and e.get("card") == "ironborn-raid"]
    assert [(e["house"], e["amount"]) for e in raid] == [("lannister", -1)]


@pytest.mark.parametrize(("seed", "card", "kinds"), [(5, "shifting-ambitions", {"objective-give", "objective-take"}),
                                                       (20, "new-information", {"objective-return"})])
def test_objectives_changing_hands_restart_from_the_state_alone(rules, seed, card, kinds):
    """Shifting Ambitions and New Information (deck I's top card of round 2 with these seeds) keep three objectives
    in each hand and ask their questions again from a saved state alone."""
    game = new_game(rules, "ffc-4p", seed=seed, options=ModOptions(rounds=2))
    assert game.state.decks["i"][0] == card
    game.play(agents_for(game.state.houses, "random", seed))
    assert any(e["type"] == "resolve-card" and e.get("card") == card for e in game.events)
    hands = game.state.modules["objectives"]["hands"]
    assert all(len(hands[h]) == 3 for h in game.state.houses)
    report = check_game(rules, "ffc-4p", seed, False, rounds=2, ahead=2, every=1)
    assert all(report.checked[k] for k in kinds), report.text()
    assert not sum(report.failed.values()), report.text()


def test_the_card_given_to_the_pool_is_secret_until_the_pool_is_shown(rules):
    """Shifting Ambitions (seed 5, round 2): each house sees only the card it put into the pool; the shuffled pool
    is then public, and so is each card taken from it."""
    game = new_game(rules, "ffc-4p", seed=5, options=ModOptions(rounds=2))
    game.play(agents_for(game.state.houses, "random", 5))
    given = [e for e in game.events if e["type"] == "objectives" and "into the pool" in e["text"]]
    assert [e["house"] for e in given] == ["baratheon", "lannister", "arryn", "stark"] and all(len(e["secret"]["cards"]) == 1 for e in given)
    shown = next(e for e in game.events if e["type"] == "objectives" and "shown" in e["text"])
    assert sorted(shown["cards"]) == sorted(e["secret"]["cards"][0] for e in given)
    taken = [e for e in game.events if e["type"] == "objectives" and "from the pool" in e["text"]]
    assert sorted(e["objective"] for e in taken) == sorted(shown["cards"])
    for house in game.state.houses:
        seen = {s["n"] for s in view(game, house)["secrets"] if s["type"] == "objectives"}
        assert {e["n"] for e in given if e["n"] in seen} == {e["n"] for e in given if e["house"] == house}
