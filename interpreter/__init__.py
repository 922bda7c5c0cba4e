"""The engine: rules procedure, state, decisions. Importing the package registers the rules modules
(Mother of Dragons), so `Game.class_for` and `Game.from_state` know every rules set."""

import os

if os.environ.get("MAESTER_COMPILED") == "1":  # opt-in: the Cython-built modules of unchanged sources, before any loads
    from .core.compiled_modules import install

    install()

from . import mod  # noqa: F401  (registers ModGame)
