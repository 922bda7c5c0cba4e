"""`maester_v0`: A Game of Thrones: The Board Game as a PettingZoo AEC environment.

    from maester.env import maester_v0
    env = maester_v0.env(setup="base-3p", rounds=3)
    env.reset(seed=1)
    for house in env.agent_iter():
        obs, reward, terminated, truncated, info = env.last()
        action = None if terminated or truncated else env.action_space(house).sample(obs["action_mask"])
        env.step(action)

Agents
    The player houses of the game (`possible_agents`: every house of the setup, sorted; `agents`: the ones
    played after `reset`, vassals excluded). The agent to act is the house the engine asks (a vassal's
    commander answers for it). All agents stay until the game ends.

Seats
    A seat is a player: `env.seats()` is the house of each seat, seat 1 first — the houses a rules set's
    `assign-houses` drew for the seats (before the first decision in the example pack random-start-positions),
    or else the player houses in the setup's order — and `infos[house]["seat"]` says which seat plays a house.
    To seat policies by player rather than by house, give player N's policy the agent `env.seats()[N - 1]`.

Actions
    `Discrete(n)`, the same for every agent: the action table of the setup (`env.action_table`, see
    `maester.env.actions`), built from the bundle: id <-> answer value (`table.answer(id)`,
    `table.id_of(value)`). `action_mask` marks the legal answers of the pending decision for the house
    that decides (all zeros for the others). An illegal action raises `IllegalDecision` and changes nothing;
    with `illegal_action="penalty"` it follows PettingZoo's convention instead (`TerminateIllegalWrapper`):
    the game ends for every agent, the offender gets `illegal_penalty` (default -1) and the others 0.

Observations
    `Dict(observation=Box(0, inf, (size,), float32), action_mask=Box(0, 1, (n,), int8))`. `observation`
    is `Encoder.encode(view(game, house))` (layout in `maester.env.observe.Encoder`; computed by
    `maester.env.incremental.Observations`, which re-encodes only what changed since the last one), the house's
    information set only: others' orders face down until revealed, bids hidden until revealed, the
    opponent's house card until both are chosen, deck orders never, the top wildling card only to the
    house that looked. `env.view(house)` returns the same information as a plain dict.

Rewards
    0 until the end; then +1 for the winner and -1/(n-1) for every other player (zero-sum).

Options
    `setup` (a setup id of the bundle, default `base-3p`), `variant` (a content variant), `rounds`
    (a shorter game: end after this round, R26.2), `tides_of_battle`, `render_mode` (`"ansi"` returns the
    text, `"human"` prints it), `illegal_action` (`"raise"` or `"penalty"`) and `illegal_penalty`.

Versions
    v0 (maester 0.1): first version. v1 (`maester_v1`): the observation adds the public parts of
    `maester.env.features` after v0's sections (the combat in progress, the decision's context, Mother of
    Dragons, removed cards, seized tokens) and its Box starts at -1; actions and rewards are v0's. A change of
    the action table's shape, the encoding's layout or the rewards makes a new version (`maester_v2`); a new
    card or area changes the table of the bundle that has it (`env.action_table.digest` tells).
"""

from __future__ import annotations

import functools

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from maester.dsl.diagnostics import Diagnostics, MaesterError
from maester.interpreter.core.decisions import IllegalDecision
from maester.interpreter.effects.pregame import seats

from .actions import ActionTable
from .incremental import Observations
from .observe import Encoder, view
from .position import make_game, player_houses, returns, rules_for

__all__ = ["env", "raw_env"]


def env(**kwargs) -> raw_env:
    """The environment (unwrapped: it checks its actions itself)."""
    return raw_env(**kwargs)


class raw_env(AECEnv):  # noqa: N801 - PettingZoo's naming convention
    metadata = {"name": "maester_v0", "render_modes": ["human", "ansi"], "is_parallelizable": False}
    FULL_OBSERVATION = False  # v0's layout: board, houses, globals only (maester_v1 adds the public parts)

    def __init__(self, setup: str = "base-3p", variant: str | None = None, rounds: int | None = None,
                 tides_of_battle: bool = False, render_mode: str | None = None, rules=None,
                 illegal_action: str = "raise", illegal_penalty: float = -1.0):
        super().__init__()
        if illegal_action not in ("raise", "penalty"):
            raise ValueError(f"illegal_action must be 'raise' or 'penalty', not {illegal_action!r}")
        self.illegal_action, self.illegal_penalty = illegal_action, float(illegal_penalty)
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            diags = Diagnostics()
            diags.error("bad-render-mode", f"render_mode {render_mode!r} is not supported", None,
                        "use 'ansi' or 'human'")
            raise MaesterError(diags)
        self.rules = rules or rules_for(variant)
        self.rules.setup(setup)  # an unknown setup fails here, readably
        self.setup, self.rounds, self.tides_of_battle = setup, rounds, tides_of_battle
        self.render_mode = render_mode
        self.action_table = ActionTable(self.rules, setup)
        self.encoder = Encoder(self.rules, setup, parts=self.FULL_OBSERVATION)
        self._observations = Observations(self.encoder)  # each house's vector, re-encoded where the game changed
        low = -1.0 if self.FULL_OBSERVATION else 0.0  # v1: -1 is a March -1 order's bonus in a combat
        self.possible_agents = sorted(self.rules.setup(setup)["houses"])
        n = len(self.action_table)
        self._action_space = spaces.Discrete(n)
        self._observation_space = spaces.Dict({
            "observation": spaces.Box(low, np.inf, (self.encoder.size,), np.float32),
            "action_mask": spaces.Box(0, 1, (n,), np.int8),
        })
        self.state_space = spaces.Box(low, np.inf, (self.encoder.size,), np.float32)
        self._next_seed = 0
        self.game = None

    # spaces are fixed objects: the API test checks they are the same object at every call
    @functools.cache  # noqa: B019 - one env, a handful of agents
    def observation_space(self, agent):
        return self._observation_space

    @functools.cache  # noqa: B019
    def action_space(self, agent):
        return self._action_space

    # ---- the AEC protocol ------------------------------------------------------------------------
    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        if seed is not None:
            self._next_seed = int(seed)
        game_seed, self._next_seed = self._next_seed, self._next_seed + 1  # a reset without a seed: the next one
        self.game = make_game(self.rules, self.setup, game_seed, self.rounds, self.tides_of_battle,
                              (options or {}).get("houses"))
        self.agents = player_houses(self.game)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        self._seated = None  # the seats last told in `infos` (a draw before the game may change them)
        self._mask_cache: tuple[int, np.ndarray] | None = None
        self._tell_seats()
        self._select()

    def seats(self) -> list[str]:
        """The house of each seat (a player), seat 1 first: the houses `assign-houses` drew for the seats, or else
        the player houses in the setup's order. An agent is a house; the policy of player N plays `seats()[N-1]`
        (also `infos[house]["seat"]`)."""
        return seats(self.game)

    def _tell_seats(self) -> None:
        """`infos[house]["seat"]`: told at reset, and again when a draw gives the seats other houses."""
        order = seats(self.game)
        if order != self._seated:
            self._seated = order
            for n, house in enumerate(order, 1):
                if house in self.infos:
                    self.infos[house] = {**self.infos[house], "seat": n}

    def _select(self) -> None:
        d = self.game.decision
        if d is not None:
            if d.house not in self.terminations:  # a decision for a house nobody plays: a rules bug, said plainly
                raise AssertionError(f"decision #{d.number} ({d.kind}) is for {d.house}, not a player house")
            self.agent_selection = d.house
        else:
            self.agent_selection = self.agents[0] if self.agents else None

    def step(self, action) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            if self.agents:
                self._select_dead_or_first()
            return
        d = self.game.decision
        values = self.action_table.values
        value = values[action] if 0 <= action < len(values) else action
        self._cumulative_rewards[agent] = 0.0
        try:
            self.game.answer(value)  # checks the answer against the legal ones before anything changes
        except IllegalDecision:
            if self.illegal_action == "raise":
                raise IllegalDecision(d, value, f"action {int(action)} is not legal for {agent} now") from None
            self._end_for_illegal(agent, action)
            return
        drawn = self.game.state.modules.get("pregame", {}).get("seats")  # (cheap: most games draw nothing)
        if drawn and drawn != self._seated:
            self._tell_seats()
        if self.game.over:
            for a, r in returns(self.game).items():
                self.rewards[a] = r
                self.terminations[a] = True
            self._accumulate_rewards()
        self._select()
        if self.render_mode == "human":
            self.render()

    def _end_for_illegal(self, agent: str, action) -> None:
        """PettingZoo's convention for an illegal move: the game ends, the offender alone is penalised."""
        for a in self.agents:
            self.rewards[a] = self.illegal_penalty if a == agent else 0.0
            self.terminations[a] = True
        self.infos[agent] = {"illegal_action": int(action)}
        self._accumulate_rewards()

    def _select_dead_or_first(self) -> None:
        dead = [a for a in self.agents if self.terminations[a] or self.truncations[a]]
        self.agent_selection = dead[0] if dead else self.agents[0]

    def action_mask(self, agent: str) -> np.ndarray:
        d = self.game.decision
        if d is None or d.house != agent:
            return np.zeros(len(self.action_table), dtype=np.int8)
        if self._mask_cache is None or self._mask_cache[0] != d.number:
            mask = np.zeros(len(self.action_table), dtype=np.int8)
            mask[self.action_table.ids_of(d.options, d)] = 1
            mask.flags.writeable = False  # shared by the calls of one step: read-only, never copied
            self._mask_cache = (d.number, mask)
        return self._mask_cache[1]

    def observe(self, agent: str) -> dict:
        return {"observation": self._observations.observe(self.game, agent),
                "action_mask": self.action_mask(agent)}

    def view(self, agent: str) -> dict:
        """What `agent` may know, as a plain dict (`maester.env.observe.view`)."""
        return view(self.game, agent)

    def state(self) -> np.ndarray:
        """The global state for centralised critics: the position with no secret kept (`global_state.full_view`),
        encoded like the observations (`state_space`). For training only: it shows what the rules hide."""
        from .global_state import full_view

        return self.encoder.encode(full_view(self.game))

    # ---- text ----------------------------------------------------------------------------------------
    def render(self) -> str | None:
        if self.game is None:
            return None
        text = render_text(self.game)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        self.game = None


def render_text(game) -> str:
    """The position in a few lines: round, phase, tracks, houses, armies, and what is asked."""
    st = game.state
    lines = [f"round {st.round}, {st.phase} phase, wildling threat {st.wildling_threat}"]
    for track, order in st.tracks.items():
        lines.append(f"  {track}: {', '.join(order)}")
    points = game.victory_table()
    for h in sorted(st.houses):
        hs = st.houses[h]
        armies = ", ".join(f"{a} ({' '.join(u[0] for u in army['units'])})"
                           for a, army in sorted(st.units.items()) if army["house"] == h)
        lines.append(f"  {h}: {points.get(h, 0)} castles, power {hs.power}, supply {hs.supply}; {armies or 'no units'}")
    d = game.decision
    if d is not None:
        lines.append(f"  asks {d.house}: {d.prompt} ({len(d.options)} options)")
    elif st.winner:
        lines.append(f"  {st.winner} wins: {st.end_reason}")
    return "\n".join(lines)
