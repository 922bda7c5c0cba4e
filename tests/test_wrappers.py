"""Plug-in policies (module:factory), the Gymnasium single-agent and self-play wrappers, illegal actions as
PettingZoo's convention, and a smoke run of the MaskablePPO example (issue 25)."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

pytest.importorskip("gymnasium")

from maester.env import maester_v0  # noqa: E402
from maester.env.wrappers import SelfPlayEnv, SingleAgentEnv  # noqa: E402
from maester.interpreter.core.decisions import IllegalDecision  # noqa: E402
from maester.tools.cli import app  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
POLICY = str(ROOT / "examples" / "rl" / "simple_policy.py") + ":make_policy"
runner = CliRunner()


def _legal(env) -> int:
    return int(np.flatnonzero(env.action_masks())[0])


def test_single_agent_env_plays_a_seat_against_given_agents():
    env = SingleAgentEnv("base-3p", opponents="heuristic", rounds=1)
    obs, info = env.reset(seed=4)
    assert obs.shape == env.observation_space.shape and info["house"] in ("baratheon", "lannister", "stark")
    assert env.game.decision.house == info["house"] and info["action_mask"].sum() > 0
    done, steps = False, 0
    while not done:
        obs, reward, done, truncated, info = env.step(_legal(env))
        steps += 1
        assert env.observation_space.contains(obs)
    assert steps > 1 and reward == (1.0 if info["winner"] == info["house"] else -0.5)


def test_illegal_actions_raise_or_end_the_episode_with_a_penalty():
    env = SingleAgentEnv("base-3p", rounds=1)
    env.reset(seed=2)
    illegal = int(np.flatnonzero(~env.action_masks())[0])
    before = env.game.state.hash()
    with pytest.raises(IllegalDecision):
        env.step(illegal)
    assert env.game.state.hash() == before  # nothing changed
    env = SingleAgentEnv("base-3p", rounds=1, illegal_action="penalty", illegal_penalty=-2.0)
    env.reset(seed=2)
    _, reward, terminated, _, info = env.step(illegal)
    assert (reward, terminated, info["illegal_action"]) == (-2.0, True, illegal)


def test_stable_baselines3_check_env_passes():
    checker = pytest.importorskip("stable_baselines3.common.env_checker")
    checker.check_env(SingleAgentEnv("base-3p", rounds=1, illegal_action="penalty"))


def test_pettingzoo_illegal_action_convention():
    env = maester_v0.env(setup="base-3p", rounds=1, illegal_action="penalty")
    env.reset(seed=1)
    agent = env.agent_selection
    mask = env.observe(agent)["action_mask"]
    env.step(int(np.flatnonzero(mask == 0)[0]))
    assert all(env.terminations.values())
    assert env.rewards[agent] == -1.0 and all(r == 0.0 for a, r in env.rewards.items() if a != agent)
    for _ in env.agent_iter():
        env.step(None)
    assert env.agents == []


def test_self_play_env_uses_the_opponent_policy_it_is_given():
    calls = []

    class Last:
        def act(self, observation, action_mask, decision):
            calls.append(decision.house)
            return int(np.flatnonzero(action_mask)[-1])

    env = SelfPlayEnv("base-3p", rounds=1)
    env.set_opponent(Last())
    env.reset(seed=3)
    done = False
    while not done:
        _, _, done, _, info = env.step(_legal(env))
    assert calls and info["house"] not in calls


def test_a_plugin_policy_plays_in_simulate_and_tournament(tmp_path):
    r = runner.invoke(app, ["simulate", "-n", "2", "--rounds", "1", "--agents", f"heuristic,stark={POLICY}",
                            "--workers", "0", "-o", str(tmp_path)])
    assert r.exit_code == 0, r.output
    games = json.loads((tmp_path / "games.json").read_text())
    assert all(g["agents"]["stark"] == POLICY for g in games)
    r = runner.invoke(app, ["tournament", "--agents", f"{POLICY},heuristic", "--games", "3", "--rounds", "1",
                            "--workers", "0"])
    assert r.exit_code == 0, r.output
    assert "seat by seat" in r.output


def test_a_bad_plugin_is_a_clear_error(tmp_path):
    for spec, said in ((f"{ROOT}/nowhere.py:make", "no file"), (f"{ROOT}/examples/rl/simple_policy.py:nothing",
                                                                  "has no callable 'nothing'"),
                       ("no_such_module_x:make", "cannot import no_such_module_x")):
        r = runner.invoke(app, ["simulate", "-n", "1", "--agents", spec, "--workers", "0", "-o", str(tmp_path)])
        assert r.exit_code == 1 and said in r.output and "Traceback" not in r.output, r.output


def test_a_plugin_whose_factory_fails_is_one_error_naming_it(tmp_path):
    (tmp_path / "broken.py").write_text("def make(context):\n    raise FileNotFoundError('no model at m.zip')\n")
    r = runner.invoke(app, ["simulate", "-n", "1", "--rounds", "1", "--agents", f"heuristic,stark={tmp_path}/broken.py:make",
                            "--workers", "0", "-o", str(tmp_path / "out")])
    assert r.exit_code == 1 and "Traceback" not in r.output and "internal error" not in r.output, r.output
    assert "its factory failed for stark (FileNotFoundError: no model at m.zip)" in r.output


def test_the_maskable_ppo_example_runs_a_few_hundred_steps_and_its_model_plugs_in(tmp_path):
    pytest.importorskip("sb3_contrib", reason="sb3-contrib is not installed (pip install 'maester[rl]')")
    import importlib.util

    spec = importlib.util.spec_from_file_location("train_maskable_ppo", ROOT / "examples/rl/train_maskable_ppo.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    from maester.env.observe import Encoder
    from maester.env.position import rules_for

    names = [f.name for f in Encoder(rules_for(None), "base-3p").feature_names()]
    keep = mod.active_features("base-3p", games=2)
    assert 0 < len(keep) < len(names) and not any(names[i].startswith("dragons.") for i in keep)  # zeros in base
    model = mod.train(256, rounds=1, n_envs=2, n_steps=128, keep=keep)
    res = mod.evaluate(model, 3, rounds=1)
    assert res["games"] == 3 and 0 <= res["wins"] <= 3 and res["low"] - 1e-9 <= res["rate"] <= res["high"] + 1e-9
    assert sum(s["games"] for s in res["by_seat"].values()) == 3 and 0 <= res["heuristic"]["wins"] <= 3
    # the saved model plays through the command line's plug-in protocol, answering the kinds it learned
    mod.save(model, str(tmp_path / "ppo.zip"))
    r = runner.invoke(app, ["simulate", "-n", "1", "--rounds", "1", "--agents",
                            f"heuristic,stark={ROOT}/examples/rl/train_maskable_ppo.py:make_policy", "--workers", "0",
                            "-o", str(tmp_path / "sim"), "--format", "csv"], env={"MAESTER_PPO_MODEL":
                                                                               str(tmp_path / "ppo.zip")})
    assert r.exit_code == 0, r.output
    games = json.loads((tmp_path / "sim" / "games.json").read_text())
    assert games[0]["agents"]["stark"].endswith("train_maskable_ppo.py:make_policy")


def test_the_learner_may_leave_some_kinds_to_a_delegate_and_get_a_shaped_reward():
    env = SingleAgentEnv("base-3p", rounds=2, learner_kinds=("place-order", "support"), shaping=1.0)
    env.reset(seed=5)
    total, done = 0.0, False
    while not done:
        assert env.game.over or env.game.decision.kind in ("place-order", "support")
        _, reward, done, _, info = env.step(_legal(env))
        total += reward
    points = env.game.victory_table()
    margin = points[info["house"]] - max(v for h, v in points.items() if h != info["house"])
    start = SingleAgentEnv("base-3p", rounds=2, learner_kinds=("place-order", "support"), shaping=1.0)
    start.reset(seed=5, options={"house": info["house"]})
    final = 1.0 if info["winner"] == info["house"] else -0.5
    assert total == pytest.approx(final + margin - start._margin)


def test_a_policy_that_answers_none_leaves_the_decision_to_the_heuristic(tmp_path):
    (tmp_path / "defer.py").write_text("class P:\n    def act(self, o, m, d):\n        return None\n\n\n"
                                       "def make(context):\n    return P()\n")
    runs = {}
    for name, kind in (("deferred", f"{tmp_path / 'defer.py'}:make"), ("heuristic", "heuristic")):
        r = runner.invoke(app, ["simulate", "-n", "1", "--rounds", "1", "--agents", f"heuristic,stark={kind}",
                                "--workers", "0", "-o", str(tmp_path / name)])
        assert r.exit_code == 0, r.output
        runs[name] = json.loads((tmp_path / name / "games.json").read_text())[0]["state_hash"]
    assert runs["deferred"] == runs["heuristic"]  # the same seeds: the very same game


def test_a_vector_of_single_agent_envs_steps_together():
    from maester.env.wrappers import vector_env

    envs = vector_env(2, setup="base-3p", rounds=1)
    obs, infos = envs.reset(seed=[10, 20])
    assert obs.shape == (2, envs.single_observation_space.shape[0]) and infos["action_mask"].shape[0] == 2
    actions = [int(np.flatnonzero(m)[0]) for m in infos["action_mask"]]
    obs, rewards, terminated, truncated, infos = envs.step(actions)
    assert obs.shape[0] == 2 and rewards.shape == (2,)
    envs.close()
