"""The engine: rules procedure, state, decisions. Importing the package registers the rules modules
(Mother of Dragons), so `Game.class_for` and `Game.from_state` know every rules set."""

from . import mod  # noqa: F401  (registers ModGame)
