"""Train sb3-contrib's MaskablePPO on one seat of base-3p against the heuristic agents, on the CPU, then measure it.

    pip install torch==2.13.0 && pip install 'maester[rl]'     # a CPU build of torch first, then sb3-contrib
    python examples/rl/train_maskable_ppo.py --out ppo-base3p.zip          # the measured configuration (README.md)

The learner's seat is drawn at every game among the player houses (one policy for every seat); the other seats
are heuristic agents (`maester.env.wrappers.SingleAgentEnv`). The learner answers the decision kinds of `--kinds`
(`KIND_SETS`); the heuristic agent answers its other decisions. Rewards: +1 a win, -0.5 a loss at the end, plus a
potential-based shaping of `--shaping` per castle of margin over the best other house. Observations are scaled
by their documented ranges (`feature_names()`) to about 0-1, and only the features that vary in this setup are
kept (`active_features`: the Mother of Dragons section, for one, is all zeros in base-3p). Illegal actions cannot
happen (the mask), and would end the episode with a penalty.

The evaluation plays `--eval-games` new games (seeds never trained on), each deal once from every seat, and prints
the win rate with its Wilson 95% interval against the even share 1/3 — and, for comparison, what the heuristic
agent itself wins in the same games and seats (about the even share: it is the same agent as the others).

The saved model plugs into the command line through `make_policy` (the `module:factory` protocol, docs/agents.md):

    MAESTER_PPO_MODEL=ppo-base3p.zip maester tournament --setup base-3p --rounds 3 \\
        --agents examples/rl/train_maskable_ppo.py:make_policy,heuristic --games 90 --workers 0
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import time
from pathlib import Path

import gymnasium as gym
import numpy as np

from maester.env.position import make_game, player_houses, rules_for
from maester.env.stats import wilson
from maester.env.wrappers import SB3Policy, SingleAgentEnv

# the decision kinds the learner may make; its other ones are the heuristic agent's
KIND_SETS = {
    "orders": ("place-order",),
    "orders-marches": ("place-order", "march", "resolve-march", "leave-power"),
    "main": ("place-order", "march", "resolve-march", "leave-power", "house-card", "support", "influence-bid",
             "wildling-bid", "muster", "consolidate", "raid", "blade"),
    "cards-bids": ("place-order", "house-card", "support", "influence-bid", "wildling-bid", "leave-power", "raid",
                   "consolidate", "blade", "tides-redraw"),
}
MODEL_FORMAT = "maester-ppo-example/1"  # the .json beside a saved model: what make_policy needs to use it
DEFAULTS = {"kinds": "orders-marches", "rounds": 3, "shaping": 0.1, "timesteps": 30_000, "n_envs": 4,
            "n_steps": 512, "net": (64, 64), "epochs": 6, "lr": 3e-4}


def active_features(setup: str = "base-3p", games: int = 30, seed: int = 424_242) -> np.ndarray:
    """Indices of the features that vary in `games` games of heuristic agents (every house's view at every
    decision): the others are constant in this setup (Mother of Dragons parts in a base game, absent cards, ...).
    Deterministic: the same setup gives the same indices."""
    from maester.env.observe import Encoder, lean_view
    from maester.interpreter.frontends.agents import HeuristicAgent

    rules = rules_for(None)
    enc = Encoder(rules, setup)
    low, high = np.full(enc.size, np.inf, np.float32), np.full(enc.size, -np.inf, np.float32)
    for s in range(games):
        game = make_game(rules, setup, seed + s)
        crew = {h: HeuristicAgent(s * 1009 + i) for i, h in enumerate(sorted(game.state.houses))}
        while game.decision is not None:
            d = game.decision
            v = enc.encode(lean_view(game, d.house))
            low, high = np.minimum(low, v), np.maximum(high, v)
            game.answer(crew[d.house].act(game, d))
    return np.flatnonzero(high > low)


class Compact(gym.ObservationWrapper):
    """The observation scaled by each feature's documented range (about 0-1), the constant features dropped."""

    def __init__(self, env: SingleAgentEnv, keep: np.ndarray):
        super().__init__(env)
        self.keep = keep
        self.scale = scale_of(env.encoder)[keep]
        self.observation_space = gym.spaces.Box(-1.0, np.inf, (len(keep),), np.float32)

    def observation(self, observation):
        return observation[self.keep] * self.scale

    def action_masks(self) -> np.ndarray:
        return self.env.action_masks()


def scale_of(encoder) -> np.ndarray:
    return (1.0 / np.maximum(1.0, [f.high for f in encoder.feature_names()])).astype(np.float32)


def make_env(kinds: tuple[str, ...], keep: np.ndarray, rounds: int | None, seed: int, shaping: float,
             setup: str = "base-3p", opponents: str = "heuristic") -> Compact:
    env = SingleAgentEnv(setup, opponents=opponents, rounds=rounds, illegal_action="penalty", learner_kinds=kinds,
                         shaping=shaping)
    env.reset(seed=seed)
    return Compact(env, keep)


def train(timesteps: int, setup: str = "base-3p", rounds: int | None = DEFAULTS["rounds"], seed: int = 0,
          kinds: str = DEFAULTS["kinds"], shaping: float = DEFAULTS["shaping"], n_envs: int = DEFAULTS["n_envs"],
          n_steps: int = DEFAULTS["n_steps"], net: tuple[int, ...] = DEFAULTS["net"], epochs: int = DEFAULTS["epochs"],
          lr: float = DEFAULTS["lr"], keep: np.ndarray | None = None, verbose: int = 0):
    import torch
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.vec_env import DummyVecEnv

    torch.set_num_threads(1)  # one core: the machine is shared, and small networks gain nothing from more
    keep = active_features(setup) if keep is None else keep
    learned = KIND_SETS[kinds]
    # each copy plays its own seeds, far apart (a copy's later games take the seeds after its own)
    venv = DummyVecEnv([lambda k=k: make_env(learned, keep, rounds, seed * 1000 + k * 100_000, shaping, setup)
                        for k in range(n_envs)])
    model = MaskablePPO("MlpPolicy", venv, n_steps=n_steps, batch_size=min(256, n_steps * n_envs), n_epochs=epochs,
                        learning_rate=lr, gamma=0.999, ent_coef=0.01, policy_kwargs={"net_arch": list(net)},
                        seed=seed, verbose=verbose, device="cpu")
    model.learn(total_timesteps=timesteps)
    model.maester = {"setup": setup, "kinds": kinds, "keep": keep}
    return model


class Learned(SB3Policy):
    """The model (on compact observations) for the kinds it learned; None (the heuristic agent) for the others."""

    def __init__(self, model, kinds: tuple[str, ...], keep: np.ndarray, scale: np.ndarray,
                 deterministic: bool = True):
        super().__init__(model, deterministic)
        self.kinds, self.keep, self.scale = frozenset(kinds), keep, scale[keep]

    def act(self, observation, action_mask, decision=None):
        if decision is not None and decision.kind not in self.kinds:
            return None
        return super().act(observation[self.keep] * self.scale, action_mask, decision)


def evaluate(model, games: int, setup: str = "base-3p", rounds: int | None = DEFAULTS["rounds"],
             seed: int = 1_000_000) -> dict:
    """The model's greedy policy in new games (seeds it never trained on), each deal once from every seat; and the
    heuristic agent in the same seat of the same deal, for comparison."""
    meta = model.maester
    env = SingleAgentEnv(setup, opponents="heuristic", rounds=rounds, learner_kinds=KIND_SETS[meta["kinds"]])
    policy = Learned(model, KIND_SETS[meta["kinds"]], meta["keep"], scale_of(env.encoder))
    ref = SingleAgentEnv(setup, opponents="heuristic", rounds=rounds, learner_kinds=("none",))  # all heuristic
    players = player_houses(make_game(rules_for(None), setup, seed, rounds))
    wins, base, by_seat = 0, 0, {h: [0, 0] for h in players}
    for i in range(games):
        house = players[i % len(players)]
        obs, info = env.reset(seed=seed + i // len(players), options={"house": house})
        done = False
        while not done:
            action = policy.act(obs, info["action_mask"], None)
            obs, _, done, _, info = env.step(action)
        won = info["winner"] == house
        wins += won
        by_seat[house][0] += 1
        by_seat[house][1] += won
        # the same deal and seat with the heuristic agent in the learner's place
        _, info = ref.reset(seed=seed + i // len(players), options={"house": house})
        base += info["winner"] == house
    lo, hi = wilson(wins, games)
    b_lo, b_hi = wilson(base, games)
    return {"games": games, "wins": wins, "rate": wins / games, "low": lo, "high": hi,
            "by_seat": {h: {"games": g, "wins": w} for h, (g, w) in by_seat.items()},
            "heuristic": {"wins": base, "rate": base / games, "low": b_lo, "high": b_hi}}


def make_policy(context):
    """The `module:factory` plug-in: the model saved at $MAESTER_PPO_MODEL, playing greedily."""
    from sb3_contrib import MaskablePPO

    path = os.environ.get("MAESTER_PPO_MODEL")
    if not path or not os.path.exists(path):
        raise FileNotFoundError("set MAESTER_PPO_MODEL to a model saved by examples/rl/train_maskable_ppo.py")
    meta = json.loads(Path(path).with_suffix(".json").read_text())
    if meta.get("format") != MODEL_FORMAT:
        raise ValueError(f"{Path(path).with_suffix('.json')} is not a {MODEL_FORMAT} file (an earlier version of "
                         "this script wrote other fields): retrain the model")
    where = {f.name: i for i, f in enumerate(context.encoder.feature_names())}
    missing = [n for n in meta["features"] if n not in where]
    if missing or meta["setup"] != context.setup or meta["actions"] != context.action_table.digest:
        raise ValueError(f"{path} was trained on setup {meta['setup']} (action table {meta['actions']}), not on "
                         f"this one ({context.setup}, {context.action_table.digest}), or reads features this "
                         f"observation lacks ({', '.join(missing[:3]) or 'none'}): retrain it")
    keep = np.array([where[n] for n in meta["features"]])
    return Learned(MaskablePPO.load(path, device="cpu"), KIND_SETS[meta["kinds"]], keep, scale_of(context.encoder))


def save(model, path: str) -> None:
    """The model, and beside it (same name, .json) what a policy needs to use it: the setup, the kinds it answers
    and the features it reads, by name (so a model never reads a feature by a position that has moved)."""
    from maester.env.actions import ActionTable
    from maester.env.observe import Encoder

    model.save(path)
    meta, rules = model.maester, rules_for(None)
    names = Encoder(rules, meta["setup"]).feature_names()
    Path(path).with_suffix(".json").write_text(json.dumps(
        {"format": MODEL_FORMAT, "setup": meta["setup"], "actions": ActionTable(rules, meta["setup"]).digest,
         "kinds": meta["kinds"], "features": [names[i].name for i in meta["keep"]]}) + "\n")


def main(argv: list[str] | None = None) -> dict:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--timesteps", type=int, default=DEFAULTS["timesteps"])
    ap.add_argument("--setup", default="base-3p")
    ap.add_argument("--rounds", type=int, default=DEFAULTS["rounds"], help="games end after this round (0: all 10)")
    ap.add_argument("--kinds", choices=sorted(KIND_SETS), default=DEFAULTS["kinds"])
    ap.add_argument("--shaping", type=float, default=DEFAULTS["shaping"])
    ap.add_argument("--n-envs", type=int, default=DEFAULTS["n_envs"])
    ap.add_argument("--n-steps", type=int, default=DEFAULTS["n_steps"])
    ap.add_argument("--net", default=",".join(map(str, DEFAULTS["net"])))
    ap.add_argument("--epochs", type=int, default=DEFAULTS["epochs"])
    ap.add_argument("--lr", type=float, default=DEFAULTS["lr"])
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--eval-games", type=int, default=300)
    ap.add_argument("--out", default=None, help="save the model here (.zip, and its .json beside it)")
    args = ap.parse_args(argv)
    rounds = args.rounds or None
    t, cpu = time.perf_counter(), time.process_time()
    model = train(args.timesteps, args.setup, rounds, args.seed, args.kinds, args.shaping, args.n_envs, args.n_steps,
                  tuple(int(x) for x in args.net.split(",")), args.epochs, args.lr)
    trained, trained_cpu = time.perf_counter() - t, time.process_time() - cpu
    if args.out:
        save(model, args.out)
    res = evaluate(model, args.eval_games, args.setup, rounds) if args.eval_games else {}
    res.update(train_seconds=round(trained, 1), train_cpu_seconds=round(trained_cpu, 1), settings=vars(args),
               machine=f"{platform.processor() or platform.machine()}, {os.cpu_count()} cores")
    even = 1 / 3
    if res.get("games"):
        verdict = "beats" if res["low"] > even else "loses to" if res["high"] < even else "is not shown to beat"
        h = res["heuristic"]
        print(f"MaskablePPO ({args.kinds}) after {args.timesteps} steps ({trained:.0f} s, {trained_cpu:.0f} s CPU): "
              f"{res['wins']}/{res['games']} wins = {res['rate']:.1%} [{res['low']:.1%}, {res['high']:.1%}] against "
              f"heuristic agents (even share {even:.1%}): it {verdict} them. By seat: "
              + ", ".join(f"{k} {v['wins']}/{v['games']}" for k, v in res["by_seat"].items())
              + f". The heuristic agent in the same seats: {h['wins']}/{res['games']} = {h['rate']:.1%} "
              f"[{h['low']:.1%}, {h['high']:.1%}]")
    else:
        print(f"trained {args.timesteps} steps in {trained:.0f} s")
    return res


if __name__ == "__main__":
    main()
