"""The Westeros Phase procedures restart from the state alone: a position saved part-way through influence
bidding, a tie, mustering or a wildling attack (also the one the draw starts) goes on, given only a JSON copy
of its state, with exactly the progress its frames keep — the bids given so far, the houses ranked so far, the
area mustering and its points left, the wildling card and its bidder.

The check here compares a restarted game with the game's own continuation (the decisions, states and events it
recorded), not with a clone: a clone is itself a restart from the state.
"""

from __future__ import annotations

import collections
import json
from dataclasses import replace

import pytest

from maester.env.observe import view
from maester.interpreter.core.rules import Rules
from maester.interpreter.core.state import GameState
from maester.interpreter.frontends.agents import RandomAgent
from maester.interpreter.mod import ModOptions, new_game
from maester.interpreter.procedures.game import Game

# the decision kinds the Westeros procedures ask (give-bid, asked inside the bidding by the MoD extension
# point, restarts once mod_loyalty's own frame is there)
KINDS = ("influence-bid", "break-tie", "wildling-bid", "muster", "reconcile")


@pytest.fixture(scope="module")
def rules() -> Rules:
    return Rules.default()


def _play(rules: Rules, setup: str, seed: int, rounds: int, upto: int | None = None) -> tuple[Game, list]:
    """A random game (agents seeded as in tests/restarts.py) played up to decision `upto` (or to its end);
    returns it with the record of each decision: [state JSON text, run counts, decision, events before, answer]."""
    game = new_game(rules, setup, seed=seed, options=ModOptions(rounds=rounds))
    agents = {h: RandomAgent(seed * 31 + i) for i, h in enumerate(game.state.houses)}
    record = []
    while game.decision is not None and (upto is None or len(record) < upto):
        d = game.decision
        answer = agents[d.house].act(game, d)
        record.append([json.dumps(game.state.to_json()), game.run_counts(), d.to_json(), len(game.events), answer])
        game.answer(answer)
    return game, record


def _restart(rules: Rules, game: Game) -> Game:
    state = GameState.from_json(json.loads(json.dumps(game.state.to_json())))
    return type(game).restarted(rules, state, replace(game.options), json.loads(json.dumps(game.run_counts())))


def _same_from_here(rules: Rules, game: Game, answers: int) -> None:
    """The game restarted from its state alone asks what the game asks, is in its state, emits nothing on the
    way and, over the next `answers` answers, goes on exactly as the game does."""
    again = _restart(rules, game)
    start = len(game.events)
    assert again.events == []
    agents = {h: RandomAgent(7 + i) for i, h in enumerate(game.state.houses)}
    for _ in range(answers + 1):
        assert again.decision.to_json() == game.decision.to_json()
        assert again.state.to_json() == game.state.to_json()
        assert again.events == game.events[start:]
        answer = agents[game.decision.house].act(game, game.decision)
        game.answer(answer)
        again.answer(answer)


def test_influence_bidding_restarts_with_the_bids_given_so_far(rules):
    game, _ = _play(rules, "base-4p", 2, 6, upto=71)
    assert game.state.frames[-1] == {"at": "bidding.influence", "track": 1, "stage": "bids", "bids": {"stark": 0},
                                     "revealed": {}, "ranked": {}, "order": []}
    again = _restart(rules, game)
    d = again.decision
    assert (d.house, d.kind, d.prompt, d.options) == ("greyjoy", "influence-bid",
                                                      "greyjoy: bid for the fiefdoms track (0–2)", [0, 1, 2])
    assert again.state.frames == game.state.frames and again.events == []
    # the bids given are hidden: no view shows frames, and no power has left a house before the reveal
    seen = view(game, "greyjoy")
    assert "frames" not in seen and "bidding.influence" not in json.dumps(seen)
    assert seen["houses"]["stark"]["power"] == game.state.houses["stark"].power
    _same_from_here(rules, game, 3)


def test_a_tie_restarts_after_the_houses_ranked_so_far(rules):
    game, _ = _play(rules, "base-3p", 1, 6, upto=91)
    assert game.state.frames[-1] == {"at": "bidding.influence", "track": 1, "stage": "rank",
                                     "bids": {"stark": 2, "lannister": 0, "baratheon": 0},
                                     "revealed": {"stark": 2, "lannister": 0, "baratheon": 0},
                                     "ranked": {"stark": 2, "lannister": 0, "baratheon": 0}, "order": ["stark"]}
    d = _restart(rules, game).decision
    assert (d.house, d.kind, d.options, d.info["tied"]) == ("stark", "break-tie", ["lannister", "baratheon"],
                                                            ["lannister", "baratheon"])
    assert d.prompt == "stark: who of lannister, baratheon (bid 0) goes first on the fiefdoms track?"
    _same_from_here(rules, game, 2)


def test_mustering_restarts_in_the_area_mustering_with_its_points_left(rules):
    game, _ = _play(rules, "base-3p", 1, 10, upto=24)
    assert game.state.frames[-1] == {"at": "mustering.muster", "house": "baratheon",
                                     "areas": ["crackclaw-point", "dragonstone"], "next": 1, "points": 1}
    d = _restart(rules, game).decision
    assert (d.house, d.kind, d.info["area"], d.info["points"]) == ("baratheon", "muster", "dragonstone", 1)
    assert d.options == ["done", "footman:dragonstone", "ship:port-of-dragonstone"]
    _same_from_here(rules, game, 2)


def test_the_wildling_attack_the_draw_starts_restarts_without_drawing_again(rules):
    game, _ = _play(rules, "base-3p", 2, 10, upto=241)
    assert game.state.step == {} and game.state.wildling_threat == 12
    assert game.state.frames == [
        {"at": "westeros.opening", "stage": "wildlings",
         "drawn": [["i", "a-throne-of-blades"], ["ii", "clash-of-kings"], ["iii", "rains-of-autumn"]]},
        {"at": "wildlings.advance"},
        {"at": "wildlings.attack", "strength": 12, "bids": {"baratheon": 1}, "card": None, "bidder": None,
         "part": 0}]
    again = _restart(rules, game)
    assert again.events == [] and again.state.decks == game.state.decks  # nothing drawn, nothing announced
    d = again.decision
    assert (d.house, d.kind, d.options) == ("lannister", "wildling-bid", [0, 1])
    _same_from_here(rules, game, 3)


def test_a_wildling_card_restarts_in_its_second_text_with_its_bidder(rules):
    game, _ = _play(rules, "base-3p", 1, 10, upto=281)
    attack = next(f for f in game.state.frames if f["at"] == "wildlings.attack")
    assert attack == {"at": "wildlings.attack", "strength": 8, "bids": {"baratheon": 0, "lannister": 0, "stark": 0},
                      "card": "the-horde-descends", "bidder": "lannister", "part": 1}
    d = _restart(rules, game).decision
    assert (d.house, d.kind, d.info["card"]) == ("baratheon", "destroy-unit", "the-horde-descends")
    _same_from_here(rules, game, 2)


def _restart_failures(rules: Rules, setup: str, seed: int, rounds: int) -> tuple[collections.Counter, list]:
    """At every Westeros Phase decision of a random game whose kind is one of KINDS: the game restarted from a
    JSON copy of the state then asks the decision the game asked, in the same state, and with the game's next 2
    answers emits its events and reaches its states. Returns the decisions checked by kind, and the failures."""
    game, record = _play(rules, setup, seed, rounds)
    checked, failures = collections.Counter(), []
    for n, (state, run, decision, events, _) in enumerate(record):
        if decision["kind"] not in KINDS or json.loads(state)["phase"] != "westeros":
            continue  # (mustering of a consolidate power order is the Action Phase's restart)
        checked[decision["kind"]] += 1
        again = type(game).restarted(rules, GameState.from_json(json.loads(state)), replace(game.options),
                                     json.loads(json.dumps(run)))
        for m in range(n, min(n + 3, len(record))):
            seen = [again.decision.to_json(), json.dumps(again.state.to_json()), again.events]
            if seen != [record[m][2], record[m][0], game.events[events:record[m][3]]]:
                failures.append(f"{setup} seed {seed} decision {n} ({decision['kind']}): differs {m - n} answers on")
                break
            if m < n + 2:
                again.answer(record[m][4])
    return checked, failures


@pytest.mark.parametrize("setup,seed", [("base-3p", 1), ("base-6p", 3), ("mod-4p-with-targaryen", 8),
                                        ("mod-7p-without-targaryen", 5)])
def test_every_westeros_decision_restarts_from_the_state_alone(rules, setup, seed):
    checked, failures = _restart_failures(rules, setup, seed, rounds=6)
    assert checked["influence-bid"] > 0 and checked["muster"] > 0 and sum(checked.values()) > 30
    assert failures == []
