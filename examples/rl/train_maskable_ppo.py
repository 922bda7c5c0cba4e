"""Train sb3-contrib's MaskablePPO on one seat of base-3p against the heuristic agents, on the CPU, then measure it.

    pip install torch==2.13.0 && pip install 'maester[rl]'     # a CPU build of torch first, then sb3-contrib
    python examples/rl/train_maskable_ppo.py --timesteps 20000 --eval-games 90 --out ppo-base3p.zip

The learner's seat is drawn at every game among the player houses (one policy for every seat); the other seats
are heuristic agents (`maester.env.wrappers.SingleAgentEnv`). The learner makes its house's orders, house cards,
supports, bids, raids, consolidations and blade choices (`LEARNED`); the heuristic makes its other decisions
(marches, musters, retreats, ...).
Besides the end's reward (+1 a win, -0.5 a loss) a small potential-based shaping counts its castle margin over the
best other house. Illegal actions cannot happen (the mask), and would
end the episode with a penalty. The evaluation plays `--eval-games` new games (seeds never trained on), the learner
rotating over the seats, and prints its win rate with a Wilson 95% interval against the even share 1/3.

The saved model plugs into the command line through `make_policy` (the `module:factory` protocol, docs/agents.md):

    MAESTER_PPO_MODEL=ppo-base3p.zip maester tournament --setup base-3p --rounds 10 \\
        --agents examples/rl/train_maskable_ppo.py:make_policy,heuristic --games 60 --workers 0
"""

from __future__ import annotations

import argparse
import os
import time

import gymnasium as gym
import numpy as np

from maester.env.stats import wilson
from maester.env.wrappers import SB3Policy, SingleAgentEnv

# the decisions the learner makes; its other ones (marches, musters, retreats, ...) are the heuristic's
LEARNED = ("place-order", "house-card", "support", "influence-bid", "wildling-bid", "leave-power", "raid",
           "consolidate", "blade", "tides-redraw")
SHAPING = 0.1  # per castle of margin over the best other house (potential-based; see SingleAgentEnv)


def scale_of(encoder) -> np.ndarray:
    """Each feature divided by the top of its documented range (`feature_names()`), so every input is about 0-1."""
    return (1.0 / np.maximum(1.0, [f.high for f in encoder.feature_names()])).astype(np.float32)


class Scaled(gym.ObservationWrapper):
    def __init__(self, env: SingleAgentEnv):
        super().__init__(env)
        self.scale = scale_of(env.encoder)
        self.observation_space = gym.spaces.Box(-1.0, np.inf, env.observation_space.shape, np.float32)

    def observation(self, observation):
        return observation * self.scale

    def action_masks(self) -> np.ndarray:
        return self.env.action_masks()


def make_env(setup: str, rounds: int | None, seed: int, shaping: float = SHAPING) -> Scaled:
    env = SingleAgentEnv(setup, opponents="heuristic", rounds=rounds, illegal_action="penalty",
                         learner_kinds=LEARNED, shaping=shaping)
    env.reset(seed=seed)
    return Scaled(env)


def train(timesteps: int, setup: str = "base-3p", rounds: int | None = None, seed: int = 0, verbose: int = 0,
          n_steps: int = 1024):
    import torch
    from sb3_contrib import MaskablePPO

    torch.set_num_threads(1)  # one core: the machine is shared, and small networks gain nothing from more
    env = make_env(setup, rounds, seed)
    model = MaskablePPO("MlpPolicy", env, n_steps=n_steps, batch_size=min(256, n_steps), n_epochs=8,
                        learning_rate=3e-4,
                        gamma=0.999, ent_coef=0.01, policy_kwargs={"net_arch": [128, 128]}, seed=seed,
                        verbose=verbose, device="cpu")
    model.learn(total_timesteps=timesteps)
    return model


def evaluate(model, games: int, setup: str = "base-3p", rounds: int | None = None, seed: int = 1_000_000) -> dict:
    """Win rate of the model's greedy policy, rotating over the seats, on seeds it never trained on."""
    env = SingleAgentEnv(setup, opponents="heuristic", rounds=rounds, illegal_action="raise", learner_kinds=LEARNED)
    policy = _Learned(model, deterministic=True, scale=scale_of(env.encoder))
    wins = 0
    for i in range(games):
        env.reset(seed=seed + i // 3)  # each deal from each of the 3 seats
        from maester.env.position import player_houses

        house = player_houses(env.game)[i % 3]
        obs, info = env.reset(seed=seed + i // 3, options={"house": house})
        done = False
        while not done:
            action = policy.act(obs, info["action_mask"], None)
            obs, reward, done, _, info = env.step(action)
        wins += info["winner"] == house
    lo, hi = wilson(wins, games)
    return {"games": games, "wins": wins, "rate": wins / games, "low": lo, "high": hi}


class _Learned(SB3Policy):
    """The model (on scaled observations) for the kinds it learned; None (the heuristic agent) for the others."""

    def __init__(self, model, deterministic: bool = True, scale: np.ndarray | None = None):
        super().__init__(model, deterministic)
        self.scale = scale

    def act(self, observation, action_mask, decision=None):
        if decision is not None and decision.kind not in LEARNED:
            return None
        return super().act(observation * self.scale, action_mask, decision)


def make_policy(context):
    """The `module:factory` plug-in: the model saved at $MAESTER_PPO_MODEL, playing greedily."""
    from sb3_contrib import MaskablePPO

    path = os.environ.get("MAESTER_PPO_MODEL")
    if not path or not os.path.exists(path):
        raise FileNotFoundError("set MAESTER_PPO_MODEL to a model saved by examples/rl/train_maskable_ppo.py")
    return _Learned(MaskablePPO.load(path, device="cpu"), deterministic=True, scale=scale_of(context.encoder))


def main(argv: list[str] | None = None) -> dict:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--timesteps", type=int, default=20_000)
    ap.add_argument("--setup", default="base-3p")
    ap.add_argument("--rounds", type=int, default=None, help="shorter games (default: the full 10 rounds)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--eval-games", type=int, default=90)
    ap.add_argument("--out", default=None, help="save the model here (.zip)")
    args = ap.parse_args(argv)
    t = time.perf_counter()
    model = train(args.timesteps, args.setup, args.rounds, args.seed, verbose=0)
    trained = time.perf_counter() - t
    if args.out:
        model.save(args.out)
    res = evaluate(model, args.eval_games, args.setup, args.rounds) if args.eval_games else {}
    res["train_seconds"] = round(trained, 1)
    even = 1 / 3
    if res.get("games"):
        verdict = "beats" if res["low"] > even else "loses to" if res["high"] < even else "is not shown to beat"
        print(f"MaskablePPO after {args.timesteps} steps ({trained:.0f} s): {res['wins']}/{res['games']} wins = "
              f"{res['rate']:.1%} [{res['low']:.1%}, {res['high']:.1%}] against heuristic agents (even share "
              f"{even:.1%}): it {verdict} them")
    else:
        print(f"trained {args.timesteps} steps in {trained:.0f} s")
    return res


if __name__ == "__main__":
    np.set_printoptions(precision=3)
    main()
