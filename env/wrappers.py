"""Gymnasium single-agent wrappers: one learning seat, the other seats played by given agents (or by the learner's
own past self), for single-agent libraries (Stable-Baselines3, sb3-contrib's MaskablePPO, ...).

    from maester.env.wrappers import SingleAgentEnv
    env = SingleAgentEnv(setup="base-3p", opponents="heuristic", illegal_action="penalty")
    obs, info = env.reset(seed=1)
    obs, reward, terminated, truncated, info = env.step(int(info["action_mask"].nonzero()[0][0]))

- The learner's seat: `house` (a player house) or, by default, a seat drawn at every reset among the game's
  player houses (vassals never decide), so one policy learns every seat. `info["house"]` says which.
- Observations: the learner's observation vector (`maester_v1`'s `observation`; names: `feature_names()`), the
  legal actions in `info["action_mask"]` and `action_masks()` (what MaskablePPO asks for).
- The others: `opponents` is a built-in kind (`random`, `heuristic`, `search`, `isearch`), a `module:factory`
  plug-in (`maester.env.policy`), an engine agent (anything with `act(game, decision)`), or a dict house -> any
  of these. They answer between two steps of the learner, in the engine's order.
- Rewards: 0 until the end; then +1 if the learner's house won, -1/(n-1) if not (`maester_v0`'s rule).
- `learner_kinds` (optional): the decision kinds the learner answers; its other decisions are answered by
  `delegate` (default: the heuristic agent) — a smaller problem to learn first (orders, cards, bids, ...).
- `shaping` (default 0): adds `shaping × Δ(my castles − the most castles of another house)` at every step, a
  potential-based hint toward the end's reward (the sum over a game is `shaping ×` the final margin).
- Illegal actions: `illegal_action="raise"` (default) raises `IllegalDecision` and changes nothing;
  `"penalty"` follows PettingZoo's convention (`TerminateIllegalWrapper`): the episode ends at once and the
  learner gets `illegal_penalty` (default -1), so `stable_baselines3.common.env_checker.check_env` passes.

`vector_env(n, **kwargs)` runs n copies as one Gymnasium vector environment.

`SelfPlayEnv` is the same with the other seats played by a policy you set and refresh (`set_opponent`), e.g. a
frozen copy of the learner (`SB3Policy(model)`) updated every few thousand steps.
"""

from __future__ import annotations

from typing import Any

import gymnasium as gym
import numpy as np
from gymnasium import spaces

from maester.interpreter.core.decisions import IllegalDecision

from .actions import ActionTable
from .incremental import Observations
from .observe import Encoder
from .policy import PolicyAgent, PolicyContext, is_plugin
from .position import make_game, player_houses, returns, rules_for

ILLEGAL_MODES = ("raise", "penalty")


class SingleAgentEnv(gym.Env):
    metadata = {"render_modes": ["ansi"]}

    def __init__(self, setup: str = "base-3p", opponents: Any = "heuristic", house: str | None = None,
                 rounds: int | None = None, variant: str | None = None, tides_of_battle: bool = False,
                 illegal_action: str = "raise", illegal_penalty: float = -1.0, render_mode: str | None = None,
                 learner_kinds: tuple[str, ...] | None = None, delegate: Any = "heuristic", shaping: float = 0.0):
        if illegal_action not in ILLEGAL_MODES:
            raise ValueError(f"illegal_action must be one of {ILLEGAL_MODES}, not {illegal_action!r}")
        self.rules = rules_for(variant)
        self.rules.setup(setup)  # an unknown setup fails here, readably
        self.setup, self.variant, self.rounds, self.tides = setup, variant, rounds, tides_of_battle
        self.table = ActionTable(self.rules, setup)
        self.encoder = Encoder(self.rules, setup)
        self._observations = Observations(self.encoder)  # the learner's and the opponents' vectors, kept up to date
        self.opponents, self.fixed_house = opponents, house
        self.illegal_action, self.illegal_penalty = illegal_action, float(illegal_penalty)
        self.render_mode = render_mode
        self.learner_kinds = frozenset(learner_kinds) if learner_kinds else None
        self.delegate_spec, self.shaping = delegate, float(shaping)
        self._margin = 0.0
        self.observation_space = spaces.Box(-1.0, np.inf, (self.encoder.size,), np.float32)
        self.action_space = spaces.Discrete(len(self.table))
        self.game = None
        self.house: str | None = None
        self._crew: dict = {}
        self._seed = 0

    # ---- the others ---------------------------------------------------------------------------------------------
    def _agent(self, spec: Any, house: str, seed: int):
        if not isinstance(spec, str):
            return spec
        if is_plugin(spec):
            return PolicyAgent(spec, PolicyContext(house, seed, self.setup, self.variant, self.table, self.encoder))
        from .simulate import GameSpec, make_agent

        return make_agent(spec, seed, GameSpec(0, self.setup, seed, variant=self.variant), house, self.rules)

    def _make_crew(self, seed: int) -> dict:
        crew = {}
        for i, h in enumerate(sorted(self.game.state.houses)):
            if h == self.house:
                continue
            spec = self.opponents.get(h, "heuristic") if isinstance(self.opponents, dict) else self.opponents
            crew[h] = self._agent(spec, h, seed * 1009 + i)
        return crew

    def _advance(self) -> None:
        """Let the others (and the delegate, for the kinds the learner leaves) answer until the learner is asked
        or the game ends."""
        g = self.game
        while g.decision is not None:
            d = g.decision
            if d.house != self.house:
                g.answer(self._crew[d.house].act(g, d))
            elif self.learner_kinds is not None and d.kind not in self.learner_kinds:
                g.answer(self._delegate.act(g, d))
            else:
                return

    def _castle_margin(self) -> float:
        points = self.game.victory_table()
        mine = points.get(self.house, 0)
        return float(mine - max((v for h, v in points.items() if h != self.house), default=0))

    # ---- the Gymnasium protocol ---------------------------------------------------------------------------------
    def reset(self, *, seed: int | None = None, options: dict | None = None):
        super().reset(seed=seed)
        if seed is not None:
            self._seed = int(seed)
        game_seed, self._seed = self._seed, self._seed + 1
        self.game = make_game(self.rules, self.setup, game_seed, self.rounds, self.tides)
        players = player_houses(self.game)
        wanted = (options or {}).get("house", self.fixed_house)
        if wanted is not None and wanted not in players:
            raise ValueError(f"{wanted!r} is not a player house of this game (players: {', '.join(players)})")
        self.house = wanted or players[int(self.np_random.integers(len(players)))]
        self._crew = self._make_crew(game_seed)
        self._delegate = self._agent(self.delegate_spec, self.house, game_seed * 1009 + 997)
        self._advance()
        self._margin = self._castle_margin() if self.shaping else 0.0
        return self._obs(), self._info()

    def step(self, action):
        g = self.game
        d = g.decision
        a = int(action)
        value = self.table.values[a] if 0 <= a < len(self.table) else a
        if d is None or not d.is_legal(value):
            if self.illegal_action == "raise":
                raise IllegalDecision(d, value, f"action {a} is not legal for {self.house} now")
            info = self._info()
            info["illegal_action"] = a
            return self._obs(), self.illegal_penalty, True, False, info
        g.answer(value)
        self._advance()
        done = g.over
        reward = returns(g)[self.house] if done else 0.0
        if self.shaping:
            margin = self._castle_margin()
            reward += self.shaping * (margin - self._margin)
            self._margin = margin
        return self._obs(), float(reward), done, False, self._info()

    def action_masks(self) -> np.ndarray:
        """The legal actions now (for sb3-contrib's MaskablePPO): the learner's decision's answers."""
        mask = np.zeros(len(self.table), dtype=bool)
        d = self.game.decision if self.game is not None else None
        if d is not None and d.house == self.house:
            mask[self.table.ids_of(d.options, d)] = True
        return mask

    def _obs(self) -> np.ndarray:
        return self._observations.observe(self.game, self.house)

    def _info(self) -> dict:
        d = self.game.decision
        return {"house": self.house, "action_mask": self.action_masks().astype(np.int8),
                "decision": d.kind if d is not None else None, "winner": self.game.state.winner}

    def render(self):
        from .maester_v0 import render_text

        return render_text(self.game) if self.game is not None else None

    def feature_names(self) -> list:
        return self.encoder.feature_names()


class SB3Policy:
    """A trained sb3-contrib MaskablePPO (or any model with `predict(obs, action_masks=...)`) as a plug-in policy."""

    def __init__(self, model, deterministic: bool = True):
        self.model, self.deterministic = model, deterministic

    def act(self, observation: np.ndarray, action_mask: np.ndarray, decision=None) -> int:
        action, _ = self.model.predict(observation, action_masks=action_mask.astype(bool),
                                       deterministic=self.deterministic)
        return int(action)


class _PolicySeat:
    """An engine agent that asks the self-play env's current opponent policy."""

    def __init__(self, env: SelfPlayEnv):
        self.env = env

    def act(self, game, d):
        env = self.env
        if env.opponent is None:
            return env._fallback.act(game, d)
        obs = env._observations.observe(game, d.house)
        mask = np.zeros(len(env.table), dtype=np.int8)
        mask[env.table.ids_of(d.options, d)] = 1
        a = int(env.opponent.act(obs, mask, d))
        if not (0 <= a < len(env.table)) or not mask[a]:
            raise IllegalDecision(d, a, "the self-play opponent answered an illegal action id")
        return env.table.answer(a)


class SelfPlayEnv(SingleAgentEnv):
    """Every other seat is played by `opponent` (a policy: `act(observation, action_mask, decision) -> id`), which
    the training loop refreshes with `set_opponent` (e.g. `SB3Policy(model)` of a frozen copy). Until one is set,
    the others play `fallback` (default: the heuristic agent)."""

    def __init__(self, setup: str = "base-3p", fallback: str = "heuristic", **kwargs):
        super().__init__(setup, opponents=None, **kwargs)
        self.opponent = None
        self._fallback_kind = fallback

    def set_opponent(self, policy) -> None:
        self.opponent = policy

    def _make_crew(self, seed: int) -> dict:
        self._fallback = self._agent(self._fallback_kind, "", seed)
        seat = _PolicySeat(self)
        return {h: seat for h in self.game.state.houses if h != self.house}


def vector_env(n: int, asynchronous: bool = False, **kwargs):
    """`n` copies of `SingleAgentEnv(**kwargs)` as one Gymnasium vector environment (in this process, or one
    process each with `asynchronous`); the masks come stacked in `infos["action_mask"]`. Reset it with one seed
    per copy, far apart (`reset(seed=[0, 100000, ...])`): each copy's later games take the seeds after its own."""
    make = [lambda: SingleAgentEnv(**kwargs) for _ in range(n)]
    return gym.vector.AsyncVectorEnv(make) if asynchronous else gym.vector.SyncVectorEnv(make)
