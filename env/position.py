"""Games as values for the environments: make one, copy one, and the shared reward rule."""

from __future__ import annotations

from functools import lru_cache

from maester.interpreter.core.rules import Rules
from maester.interpreter.mod import ModOptions, new_game
from maester.interpreter.mod.state import DragonsState


@lru_cache(maxsize=8)
def rules_for(variant: str | None = None) -> Rules:
    """The bundled content with a variant applied, compiled once per process (environments are made often)."""
    return Rules.default(variant)


def make_game(rules: Rules, setup: str, seed: int, rounds: int | None = None, tides_of_battle: bool = False,
              houses: list[str] | None = None):
    return new_game(rules, setup, seed=seed,
                    options=ModOptions(tides_of_battle=tides_of_battle, rounds=rounds, player_houses=houses))


def clone(game):
    """An independent copy of a game in progress (same position, same pending decision)."""
    return game.clone()


def returns(game) -> dict[str, float]:
    """Zero-sum returns of a finished game: +1 to the winner, -1/(n-1) to each other player house."""
    players = player_houses(game)
    if not game.over or game.state.winner is None:
        return {h: 0.0 for h in players}
    loss = -1.0 / max(1, len(players) - 1)
    return {h: 1.0 if h == game.state.winner else loss for h in players}


def player_houses(game) -> list[str]:
    """The houses played by someone (vassals are not players), sorted."""
    return sorted(h for h in game.state.houses if h not in DragonsState.of(game.state).vassals)
