"""The PettingZoo environment, the action table, the information-set views (no leaks) and OpenSpiel."""

from __future__ import annotations

import json

import numpy as np
import pytest

pytest.importorskip("pettingzoo")

from pettingzoo.test import api_test, seed_test  # noqa: E402

from maester.dsl.diagnostics import MaesterError  # noqa: E402
from maester.env import maester_v0  # noqa: E402
from maester.env.actions import ActionTable  # noqa: E402
from maester.env.observe import HIDDEN, view  # noqa: E402
from maester.env.position import make_game, rules_for  # noqa: E402
from maester.interpreter.frontends.agents import HeuristicAgent  # noqa: E402


def make_env():
    return maester_v0.env(setup="base-3p", rounds=2)


def test_api_test_passes():
    api_test(make_env(), num_cycles=300)


def test_api_test_passes_for_mother_of_dragons():
    api_test(maester_v0.env(setup="mod-4p-with-targaryen", rounds=1), num_cycles=200)


def test_seed_test_passes():
    seed_test(make_env, num_cycles=200)


def test_action_table_is_stable_and_covers_every_answer_of_random_games():
    rules = rules_for(None)
    a, b = ActionTable(rules, "base-3p"), ActionTable(rules, "base-3p")
    assert a.values == b.values and a.digest == b.digest
    assert a.answer(a.id_of("footman:riverrun")) == "footman:riverrun"
    assert a.id_of(3) != a.id_of("3") if "3" in a.values else a.answer(a.id_of(3)) == 3
    for setup in ("base-3p", "mod-4p-with-targaryen"):
        env = maester_v0.env(setup=setup, rounds=2, tides_of_battle=True)
        for seed in (1, 2):
            env.reset(seed=seed)
            for agent in env.agent_iter():
                obs, _, term, trunc, _ = env.last()
                env.step(None if term or trunc else env.action_space(agent).sample(obs["action_mask"]))
            assert env.game is not None and env.agents == []


def test_unknown_answer_is_a_clear_error():
    table = ActionTable(rules_for(None), "base-3p")
    with pytest.raises(MaesterError, match="'no-such-thing' has no action id"):
        table.id_of("no-such-thing")


def test_mask_is_the_legal_answers_of_the_house_asked_and_rewards_are_zero_sum():
    env = make_env()
    env.reset(seed=4)
    while env.agents:
        agent = env.agent_selection
        obs, _, term, trunc, _ = env.last()
        if term or trunc:
            env.step(None)
            continue
        d = env.game.decision
        legal = {env.action_table.answer(i) for i in np.flatnonzero(obs["action_mask"])}
        assert legal == set(d.options) and agent == d.house
        for other in env.agents:
            if other != agent:
                assert env.observe(other)["action_mask"].sum() == 0
        env.step(int(np.flatnonzero(obs["action_mask"])[0]))
        if env.game.over and env.agents:
            r = dict(env.rewards)
            assert sorted(r.values()) == [-0.5, -0.5, 1.0] and r[env.game.state.winner] == 1.0


def _play_until(game, kinds: set[str], agents):
    while game.decision is not None and game.decision.kind not in kinds:
        game.answer(agents[game.decision.house].act(game, game.decision))


def test_orders_of_others_are_hidden_until_the_reveal():
    game = make_game(rules_for(None), "base-3p", 5, rounds=2)
    agents = {h: HeuristicAgent(i) for i, h in enumerate(sorted(game.state.houses))}
    first = game.decision.house  # round 1 starts with the Planning Phase
    while game.decision.kind == "place-order" and game.decision.house == first:
        game.answer(agents[first].act(game, game.decision))
    assert game.decision.kind == "place-order" and game.decision.house != first
    placed = {a: o["order"] for a, o in game.state.orders.items()}
    assert placed  # the first house has placed face-down orders
    watcher = game.decision.house
    seen = view(game, watcher)["orders"]
    assert all(seen[a]["order"] == HIDDEN for a in placed)
    assert {a: o["order"] for a, o in view(game, first)["orders"].items()} == placed
    assert not any(v in json.dumps(view(game, watcher)["orders"]) for v in set(placed.values()))
    _play_until(game, {"messenger-raven", "resolve-raid", "resolve-march", "resolve-consolidate-power"}, agents)
    assert HIDDEN not in json.dumps(view(game, watcher)["orders"])


def test_a_bid_already_made_is_not_seen_by_the_next_bidder():
    rules = rules_for(None)
    for seed in range(1, 40):
        game = make_game(rules, "base-3p", seed, rounds=3)
        agents = {h: HeuristicAgent(i) for i, h in enumerate(sorted(game.state.houses))}
        _play_until(game, {"influence-bid", "wildling-bid"}, agents)
        if game.decision is None:
            continue
        first = game.decision.house
        game.answer(max(game.decision.options))  # a bid of everything: visible if it leaked anywhere
        if game.decision is None or game.decision.kind not in ("influence-bid", "wildling-bid"):
            continue
        nxt = game.decision.house
        v = view(game, nxt)
        assert v["houses"][first]["power"] == game.state.houses[first].power  # power drops only at the reveal
        assert "bids" not in json.dumps(v["secrets"])
        return
    pytest.fail("no two bids in a row in 40 games")


def test_the_wildling_card_is_seen_only_by_the_house_that_looked():
    rules = rules_for(None)
    for seed in range(1, 60):
        game = make_game(rules, "base-3p", seed, rounds=4)
        agents = {h: HeuristicAgent(i) for i, h in enumerate(sorted(game.state.houses))}
        _play_until(game, {"messenger-raven"}, agents)
        if game.decision is None:
            continue
        holder = game.decision.house
        game.answer("look-at-wildlings")
        game.answer("top")
        top = game.state.wildling_deck[0]
        assert view(game, holder)["wildling_top"] == top
        for other in game.state.houses:
            if other != holder:
                v = view(game, other)
                assert v["wildling_top"] is None and top not in json.dumps(v["secrets"])
                assert v["decision"] is None or "options" not in v["decision"] or v["decision"]["house"] == other
        return
    pytest.fail("no Messenger Raven decision in 60 games")


def test_observation_vector_depends_only_on_the_view():
    env = maester_v0.env(setup="mod-4p-with-targaryen", rounds=2)
    env.reset(seed=2)
    enc = env.encoder
    assert "round 1, planning phase" in env.render()
    steps = 0
    while not env.game.over:
        for agent in env.agents:
            vec = env.observe(agent)["observation"]
            assert vec.shape == (enc.size,) and vec.dtype == np.float32
            assert np.array_equal(vec, enc.encode(env.view(agent)))  # the fast path encodes the same view
        d = env.game.decision
        env.step(env.action_table.id_of(d.options[steps % len(d.options)]))
        steps += 1
    assert steps > 50


def test_openspiel_random_simulation_and_serialization():
    pyspiel = pytest.importorskip("pyspiel")
    from maester.env import openspiel_game  # noqa: F401 - registers the game

    game = pyspiel.load_game("python_maester", {"setup": "base-3p", "rounds": 1, "seed": 3})
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)
    state = game.new_initial_state()
    state.apply_action(0)  # the deal (a chance node)
    for _ in range(5):
        state.apply_action(state.legal_actions()[0])
    copy = state.clone()
    copy.apply_action(copy.legal_actions()[0])
    assert len(copy.history()) == len(state.history()) + 1
    p = state.current_player()
    info = state.information_state_string(p)
    assert json.loads(info)["my_answers"] is not None
    assert len(state.observation_tensor(p)) == game.observation_tensor_size()
    again = pyspiel.deserialize_game_and_state(pyspiel.serialize_game_and_state(game, state))[1]
    assert again.observation_string(p) == state.observation_string(p)


@pytest.mark.parametrize("kind", ["house-card", "influence-bid", "place-order"])
def test_the_next_house_sees_the_same_whatever_a_secret_answer_was(kind):
    """A secret answer (a house card, a bid, a face-down order) changes nothing the next house may see."""
    rules = rules_for(None)
    for seed in range(1, 80):
        game = make_game(rules, "base-3p", seed, rounds=4)
        agents = {h: HeuristicAgent(i) for i, h in enumerate(sorted(game.state.houses))}
        while game.decision is not None:
            d = game.decision
            if d.kind == kind and len(d.options) > 1:
                a, b = game.clone(), game.clone()
                a.answer(d.options[0])
                b.answer(d.options[-1])
                na, nb = a.decision, b.decision
                if na and nb and na.kind == kind and na.house == nb.house != d.house:
                    assert view(a, na.house) == view(b, nb.house)
                    assert na.options == nb.options
                    return
            game.answer(agents[d.house].act(game, d))
    pytest.fail(f"no two {kind} decisions of different houses in a row in 80 games")
