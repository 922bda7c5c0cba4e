"""Copies of a `GameState` inside one process: checkpoints, clones, agents' search.

The state is plain data (str, int, bool, None, lists and dicts of them; `HouseState` records), so `marshal`,
the C codec Python uses for its own code objects, copies it about twice as fast as `pickle` (no class lookups,
no memo of shared objects: the state shares none). A snapshot is bytes only this Python reads back: never
written to a file (a saved position holds the state as JSON, position.py). An object in the state (anything
but those builtin types) is refused with a ValueError here, as JSON would refuse it.
"""

from __future__ import annotations

import marshal

from .state import GameState, HouseState

_HOUSES = "houses"


def dumps(state: GameState) -> bytes:
    """The state as bytes (an immutable snapshot)."""
    return marshal.dumps(as_data(state))


def loads(blob: bytes) -> GameState:
    """A fresh state from a snapshot: it shares nothing with any other."""
    data = marshal.loads(blob)
    houses = {}
    for h, fields in data[_HOUSES].items():
        hs = houses[h] = HouseState.__new__(HouseState)
        hs.__dict__ = fields
    data[_HOUSES] = houses
    state = GameState.__new__(GameState)
    state.__dict__ = data
    return state


def copy(state: GameState) -> GameState:
    """An independent copy of the state."""
    return loads(dumps(state))


def as_data(state: GameState) -> dict:
    """The state as the dict `GameState.to_json` gives, but sharing the state's own values (read it, never change
    it): to compare a state with a JSON document without copying it."""
    data = vars(state).copy()
    data[_HOUSES] = {h: vars(hs) for h, hs in state.houses.items()}
    return data


def copy_data(data: dict) -> dict:
    """An independent copy of JSON data (a state document): raises ValueError for anything JSON cannot hold."""
    return marshal.loads(marshal.dumps(data))
