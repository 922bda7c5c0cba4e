"""Mother of Dragons as one rules module: vassals, loyalty, the Iron Bank, its state and its effects
(docs/modules.md). Importing it registers `ModGame`, so `Game.class_for` and `Game.from_state` know it."""

from .game import ModGame, ModOptions, new_game

__all__ = ["ModGame", "ModOptions", "new_game"]
