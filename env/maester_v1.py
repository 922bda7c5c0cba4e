"""`maester_v1`: `maester_v0` with the complete public observation (PettingZoo AEC environment).

    from maester.env import maester_v1
    env = maester_v1.env(setup="base-3p", rounds=3)

Everything is `maester_v0`'s (agents, actions, masks, rewards, options, `state()`), except the observation: v0's
sections (areas, houses, globals) followed by the parts of `maester.env.features` — the combat in progress
(area, sides, marching and defending units, supports, cards and Tides of Battle once revealed, ...), the pending
decision's context (area, order, card, vassal), every Mother of Dragons piece, removed cards and seized tokens —
each feature named (`env.encoder.feature_names()`; docs/agents.md). `Box(-1, inf)`: a March -1 order's bonus is -1.
"""

from __future__ import annotations

from .maester_v0 import raw_env as _raw_env_v0
from .maester_v0 import render_text  # noqa: F401 - the same text rendering

__all__ = ["env", "raw_env"]


class raw_env(_raw_env_v0):  # noqa: N801 - PettingZoo's naming convention
    metadata = {**_raw_env_v0.metadata, "name": "maester_v1"}
    FULL_OBSERVATION = True


def env(**kwargs) -> raw_env:
    """The environment (unwrapped: it checks its actions itself)."""
    return raw_env(**kwargs)
