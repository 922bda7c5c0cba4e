"""maester environments for agent research: PettingZoo (`maester_v1`; `maester_v0` the earlier observation),
OpenSpiel (`openspiel_game`), Gymnasium wrappers (`wrappers`), plug-in policies (`policy`), search agents.

`from maester.env import maester_v1; env = maester_v1.env(setup="base-3p", rounds=3)`. The heavy
dependencies (pettingzoo, gymnasium, open_spiel) come with the `sim` extra: `pip install 'maester[sim]'`.
"""

from __future__ import annotations

import importlib


def __getattr__(name: str):
    # the environments load their frameworks only when asked for (the engine does not need them)
    if name in ("maester_v0", "maester_v1", "openspiel_game", "search", "actions", "observe", "position", "features",
                "global_state", "policy", "seats", "tournament", "isearch", "wrappers"):
        return importlib.import_module(f"{__name__}.{name}")
    raise AttributeError(name)
