"""maester environments for agent research: PettingZoo (`maester_v0`), OpenSpiel (`openspiel_game`), search.

`from maester.env import maester_v0; env = maester_v0.env(setup="base-3p", rounds=3)`. The heavy
dependencies (pettingzoo, gymnasium, open_spiel) come with the `sim` extra: `pip install 'maester[sim]'`.
"""

from __future__ import annotations

import importlib


def __getattr__(name: str):
    # the environments load their frameworks only when asked for (the engine does not need them)
    if name in ("maester_v0", "openspiel_game", "search", "actions", "observe", "position"):
        return importlib.import_module(f"{__name__}.{name}")
    raise AttributeError(name)
