"""`python_maester`: the game as an OpenSpiel Python game (pyspiel).

    import pyspiel
    from maester.env import openspiel_game  # registers the game
    game = pyspiel.load_game("python_maester", {"setup": "base-3p", "rounds": 3, "seed": 7})

Players are the player houses of the setup, sorted (player 0 is the first). Actions are the ids of the
setup's action table (`maester.env.actions`), legal actions the pending decision's answers. Returns are
terminal and zero-sum: +1 for the winner, -1/(n-1) for the others. Observation and information-state
strings and tensors are the house's view (`maester.env.observe`): nothing the rules hide is in them; the
information-state string adds the player's own past answers (perfect recall of its own play). The
information-state tensor is the observation tensor: the view already keeps the public memory of the game
(discards, tracks, last bids), and a fixed-size tensor cannot hold the whole history.

Chance. The engine draws every shuffle and every random pick from a generator whose state is part of the
game state (`state.rng`), inside the rules procedure (decks are shuffled at setup and reshuffled when they
run out, vassal cards are dealt at the moment a vassal fights, a Tides of Battle card is drawn within a
combat). Those draws are not decision points of the procedure, so chance is one explicit chance node at the
start: `new_initial_state()` is a chance node with `DEALS` equally likely outcomes, outcome k deals the game
from the engine seed `seed * DEALS + k` (the player houses in Mother of Dragons, every deck, and the generator
every later draw comes from). The game is declared `EXPLICIT_STOCHASTIC`: every play samples its own deal, and no
player sees the outcome (their views show deck sizes only). `resample_from_infostate(player, sampler)` gives a
state the player cannot tell from this one (`maester.env.search.determinize`: the others' unrevealed orders,
bids and house cards redrawn among their legal answers, every deck's unseen order and the engine's future draws
reshuffled, seeded from `sampler()`), which is what ISMCTS and other information-set algorithms ask for.
(`SAMPLED_STOCHASTIC` would need the game's RNG state through `GetRNGState`, which OpenSpiel does not forward to
Python games: its serialization and `random_sim_test` fail.)

Copies and serialization: a state is copied with `Game.clone` and pickled (OpenSpiel's serialization of
Python states) as the engine's position document (`Game.to_state`, JSON) plus its event log; deserializing
resumes that exact position.
"""

from __future__ import annotations

import functools
import json

import numpy as np
import pyspiel

from .actions import ActionTable
from .observe import Encoder, lean_view, view
from .position import make_game, player_houses, returns, rules_for

SHORT_NAME = "python_maester"
DEALS = 1024  # the outcomes of the chance node at the start: deal k is the engine seed `seed * DEALS + k`
DEFAULTS = {"setup": "base-3p", "variant": "", "rounds": 0, "seed": 0}


def _game_type() -> pyspiel.GameType:
    return pyspiel.GameType(
        short_name=SHORT_NAME, long_name="maester: A Game of Thrones: The Board Game",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,  # one chance node, the deal: see above
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM, reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=8, min_num_players=3,
        provides_information_state_string=True, provides_information_state_tensor=True,
        provides_observation_string=True, provides_observation_tensor=True,
        parameter_specification=dict(DEFAULTS))


@functools.lru_cache(maxsize=16)
def _kit(setup: str, variant: str | None) -> tuple:
    """Rules, action table and encoder of a setup, shared by every state (OpenSpiel copies a state's
    `__dict__`, so a state holds only plain names and looks these up)."""
    rules = rules_for(variant)
    return rules, ActionTable(rules, setup), Encoder(rules, setup)


class MaesterGame(pyspiel.Game):
    def __init__(self, params=None):
        params = {**DEFAULTS, **(params or {})}
        self.setup = str(params["setup"])
        self.variant = str(params["variant"]) or None
        self.rounds = int(params["rounds"]) or None
        self.seed = int(params["seed"])
        self.rules, self.table, self.encoder = _kit(self.setup, self.variant)
        setup = self.rules.setup(self.setup)
        players = setup["players"]
        rounds = self.rounds or self.rules.game(setup["game"])["max_rounds"]
        info = pyspiel.GameInfo(num_distinct_actions=len(self.table), max_chance_outcomes=DEALS, num_players=players,
                                min_utility=-1.0, max_utility=1.0, utility_sum=0.0,
                                max_game_length=2000 * rounds * players)  # a generous bound on decisions
        super().__init__(_game_type(), info, params)

    def new_initial_state(self) -> MaesterState:
        """The chance node of the deal (see the module docstring)."""
        return MaesterState(self)

    def make_py_observer(self, iig_obs_type=None, params=None) -> MaesterObserver:
        perfect_recall = bool(iig_obs_type and iig_obs_type.perfect_recall)
        return MaesterObserver(self, perfect_recall)


class MaesterState(pyspiel.State):
    def __init__(self, game: MaesterGame, engine=None, deciders: list[str] | None = None):
        super().__init__(game)
        self.setup, self.variant, self.seed, self.rounds = game.setup, game.variant, game.seed, game.rounds
        self.engine = engine  # None until the deal (the chance node); boxed: see _EngineBox
        self.houses = player_houses(engine) if engine is not None else []
        self.deciders = list(deciders or [])  # who gave each answer (for the information-state string)

    # ---- the pyspiel protocol
    def current_player(self) -> int:
        if self.engine is None:
            return pyspiel.PlayerId.CHANCE
        if self.engine.over:
            return pyspiel.PlayerId.TERMINAL
        return self.houses.index(self.engine.decision.house)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return [(k, 1.0 / DEALS) for k in range(DEALS)]

    def _legal_actions(self, player: int) -> list[int]:
        d = self.engine.decision if self.engine is not None else None
        if d is None or self.houses[player] != d.house:
            return []
        return sorted(self._table.ids_of(d.options, d))

    def _apply_action(self, action: int) -> None:
        if self.engine is None:  # the deal
            rules = _kit(self.setup, self.variant)[0]
            self.engine = make_game(rules, self.setup, self.seed * DEALS + int(action), self.rounds)
            self.houses = player_houses(self.engine)
            return
        house = self.engine.decision.house
        self.engine.answer(self._table.answer(action))
        self.deciders.append(house)

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"deal {action}"
        who = self.houses[player] if 0 <= player < len(self.houses) else "?"
        return f"{who}: {self._table.answer(action)!r}"

    @property
    def _table(self) -> ActionTable:
        return _kit(self.setup, self.variant)[1]

    def resample_from_infostate(self, player_id: int, probability_sampler) -> MaesterState:
        """A state `player_id` cannot tell from this one, drawn with `probability_sampler()` (a float in [0, 1))."""
        from maester.interpreter.core.rng import Rng, seed_state

        from .search import determinize

        class _Holder:
            rng = seed_state(int(probability_sampler() * (1 << 62)))

        if self.engine is None:
            return self.clone()
        engine = determinize(self.engine, self.houses[player_id], Rng(_Holder()))
        return MaesterState(self.get_game(), engine=engine, deciders=self.deciders)

    def is_terminal(self) -> bool:
        return self.engine is not None and self.engine.over

    def returns(self) -> list[float]:
        if self.engine is None:
            return [0.0] * self.get_game().num_players()
        r = returns(self.engine)
        return [r[h] for h in self.houses]

    def __str__(self) -> str:
        from .maester_v0 import render_text

        return render_text(self.engine) if self.engine is not None else "before the deal (chance node)"

    @property
    def engine(self):
        return self._box.game

    @engine.setter
    def engine(self, game) -> None:
        self._box = _EngineBox(game)


class _EngineBox:
    """The engine game inside a pyspiel state. OpenSpiel copies and pickles a Python state through its
    `__dict__`; a game in progress holds a running procedure (a generator), so the box copies it with
    `Game.clone` and pickles it as its position document (`Game.to_state`) plus the event log."""

    def __init__(self, game):
        self.game = game

    def __deepcopy__(self, memo) -> _EngineBox:
        return _EngineBox(self.game.clone() if self.game is not None else None)

    def __reduce__(self):
        g = self.game
        if g is None:
            return (_EngineBox, (None,))
        return (_unbox, (g.rules.bundle.get("applied_variant"), json.dumps(g.to_state()), json.dumps(g.events)))


def _unbox(variant: str | None, position: str, events: str) -> _EngineBox:
    from maester.interpreter.procedures.game import Game

    g = Game.from_state(rules_for(variant), json.loads(position))
    g.events, g._event_base = json.loads(events), 0  # the whole story, for the views
    return _EngineBox(g)


class MaesterObserver:
    """Observation (or, with perfect recall, information state) of one player: tensor and string."""

    def __init__(self, game: MaesterGame, perfect_recall: bool):
        self.game, self.perfect_recall = game, perfect_recall
        self.tensor = np.zeros(game.encoder.size, np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: MaesterState, player: int) -> None:
        if state.engine is None:  # before the deal: nothing is known yet
            self.tensor[:] = 0.0
            return
        self.tensor[:] = _kit(state.setup, state.variant)[2].encode(lean_view(state.engine, state.houses[player]))

    def string_from(self, state: MaesterState, player: int) -> str:
        if state.engine is None:
            return "before the deal"
        house = state.houses[player]
        v = view(state.engine, house)
        if self.perfect_recall:  # add the player's own answers so far
            v["my_answers"] = [a for a, who in zip(state.engine.answers, state.deciders, strict=True) if who == house]
        return json.dumps(v, sort_keys=True)


pyspiel.register_game(_game_type(), MaesterGame)
