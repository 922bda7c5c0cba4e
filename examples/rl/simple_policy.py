"""The smallest plug-in policy (the `module:factory` protocol of docs/agents.md): the legal action with the lowest
id (a bid of 0, the smallest count, the first word in the table's order).

    maester simulate -n 10 --rounds 2 --agents heuristic,stark=examples/rl/simple_policy.py:make_policy --workers 0
"""

from __future__ import annotations

import numpy as np


class LowestLegal:
    def __init__(self, context):
        self.context = context  # house, seed, setup, variant, action_table, encoder

    def act(self, observation: np.ndarray, action_mask: np.ndarray, decision) -> int:
        legal = np.flatnonzero(action_mask)
        return int(legal[0])  # ids start with the integers: a bid is 0, a count the smallest


def make_policy(context) -> LowestLegal:
    return LowestLegal(context)
