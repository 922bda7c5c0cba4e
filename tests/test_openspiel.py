"""OpenSpiel with chance (issue 25): the deal is a chance node, information-set resampling, the ISMCTS bot."""

from __future__ import annotations

import json

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")

from maester.env import openspiel_game  # noqa: E402,F401 - registers the game


def _game(**params):
    return pyspiel.load_game("python_maester", {"setup": "base-3p", "rounds": 1, "seed": 5, **params})


def test_the_declared_game_type_is_explicit_stochastic_and_the_docstring_says_so():
    game = _game()
    assert game.get_type().chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert game.max_chance_outcomes() == openspiel_game.DEALS
    assert "EXPLICIT_STOCHASTIC" in openspiel_game.__doc__ and "`DETERMINISTIC`" not in openspiel_game.__doc__


def _dealt(game, k=0):
    state = game.new_initial_state()
    assert state.is_chance_node() and len(state.chance_outcomes()) == openspiel_game.DEALS
    assert sum(p for _, p in state.chance_outcomes()) == pytest.approx(1.0)
    state.apply_action(k)
    return state


def test_every_deal_is_a_chance_outcome_and_hidden_from_the_players():
    game = _game()
    states = [_dealt(game, k) for k in (0, 1, 2)]
    decks = {json.dumps(s.engine.state.decks) for s in states}
    assert len(decks) == 3  # three deals
    assert json.dumps(_dealt(game, 1).engine.state.decks) == json.dumps(states[1].engine.state.decks)
    # no player can tell the deals apart before anything is drawn: the same information state
    p = states[0].current_player()
    assert len({s.information_state_string(p) for s in states if s.current_player() == p}) == 1
    assert states[0].history()[0] == 0 and "deal 0" in states[0].action_to_string(pyspiel.PlayerId.CHANCE, 0)


def _after_first_house_placed(game):
    state = _dealt(game, 7)
    first = state.current_player()
    while state.current_player() == first:
        state.apply_action(state.legal_actions()[-1])
    return state, first


def test_information_state_is_not_the_true_state_and_resampling_keeps_it():
    game = _game()
    state, first = _after_first_house_placed(game)
    me = state.current_player()
    info = state.information_state_string(me)
    truths = set()
    for k in range(6):
        world = state.resample_from_infostate(me, pyspiel.UniformProbabilitySampler(k, 0.0, 1.0))
        assert world.current_player() == me and world.legal_actions() == state.legal_actions()
        assert world.information_state_string(me) == info  # the player cannot tell the worlds apart
        truths.add(json.dumps({a: o["order"] for a, o in world.engine.state.orders.items()})
                   + json.dumps(world.engine.state.decks))
    assert len(truths) > 1  # ... but they differ: the first house's face-down orders and the decks are redrawn
    mine = {a: o for a, o in state.engine.state.orders.items() if o["house"] == state.houses[me]}
    assert all(world.engine.state.orders.get(a) == o for a, o in mine.items())
    assert info != state.information_state_string(first)


def test_openspiel_ismcts_bot_plays_a_whole_game():
    from open_spiel.python.algorithms import ismcts, mcts

    game = _game()
    rng = np.random.RandomState(3)
    bot = ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(1, rng), uct_c=2.0, max_simulations=4,
                           random_state=rng)
    state = game.new_initial_state()
    moves = 0
    while not state.is_terminal():
        if state.is_chance_node():
            action = rng.choice([a for a, _ in state.chance_outcomes()])
        elif state.current_player() == 0:
            action = bot.step(state)
            moves += 1
        else:
            action = state.legal_actions()[rng.randint(len(state.legal_actions()))]
        state.apply_action(action)
    assert moves >= 3 and sorted(state.returns()) == [-0.5, -0.5, 1.0]


def test_random_simulation_and_serialization_pass():
    game = _game()
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)
    state = _dealt(game, 3)
    for _ in range(4):
        state.apply_action(state.legal_actions()[0])
    again = pyspiel.deserialize_game_and_state(pyspiel.serialize_game_and_state(game, state))[1]
    assert again.observation_string(state.current_player()) == state.observation_string(state.current_player())
