"""Copies of a `GameState` inside one process: checkpoints, clones, agents' search.

The state is plain data (str, int, bool, None, lists and dicts of them; `HouseState` records), so `marshal`,
the C codec Python uses for its own code objects, copies it about twice as fast as `pickle` (no class lookups,
no memo of shared objects: the state shares none). A snapshot is bytes only this Python reads back: never
written to a file (a saved position holds the state as JSON, position.py). An object in the state (anything
but those builtin types) is refused with a ValueError here, as JSON would refuse it.

`copy` (a clone's state) goes faster still by knowing the state's shape (schemas/state.schema.json): the strings
and numbers, which nothing can change, are shared, and only the containers are made anew, each by the cheapest
copy that shares no container (a dict of strings by `dict.copy`, an army by its own comprehension); the
free-form parts (the cursor, the frames, the modules' states) and any field not declared below go through
`marshal`. 40% cheaper than `marshal` of everything (benchmarks/bench_clone.py). A clone's copy (`Deferred`) shares
the units themselves, the `[kind, routed]` lists, which the rules never change in place (a unit changed is a new
list, state.py): each army's dict and list is new, so half the copy of the armies is saved.
"""

from __future__ import annotations

import marshal
from dataclasses import fields as dataclass_fields

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


# The shape of each field for `copy` (a field of GameState not named here is copied through marshal, whole):
_SHARED = ("game", "setup", "board", "seed", "rng", "round", "phase", "turn_track", "blade_used", "raven_used",
           "wildling_threat", "tides_of_battle", "winner", "end_reason")  # str, int, bool or None: immutable
_FLAT_DICTS = ("seized_tokens", "power_tokens", "garrisons", "garrison_owner", "neutral_forces")  # id -> str | int
_FLAT_LISTS = ("blocked", "wildling_deck", "forbidden_orders", "tides_deck")  # lists of ids
_LIST_DICTS = ("tracks", "decks")  # id -> list of ids
_ARMIES = "units"  # area -> {"house": id, "units": [[kind, routed], ...]}
_ORDERS = "orders"  # area -> {"house": id, "order": id, "kept"?: bool}
_HOUSE_LISTS = ("hand", "discards", "removed")  # HouseState's lists (its other fields are ints)
_DEEP = tuple(f.name for f in dataclass_fields(GameState)
              if f.name not in {*_SHARED, *_FLAT_DICTS, *_FLAT_LISTS, *_LIST_DICTS, _ARMIES, _ORDERS, _HOUSES})
# a new list field of HouseState would be shared by `copy`: it must be named above
assert {f.name for f in dataclass_fields(HouseState)} == {"power", "supply", "last_bid", *_HOUSE_LISTS}, \
    "snapshot.copy: HouseState's fields changed; say how to copy them (_HOUSE_LISTS)"


_FIELDS = tuple(f.name for f in dataclass_fields(GameState))  # a state document's keys, in order (`GameState.to_json`)
_FIELD_SET = frozenset(_FIELDS)
_HOUSE_FIELDS = tuple(f.name for f in dataclass_fields(HouseState))


def copy(state: GameState) -> GameState:
    """An independent copy of the state: equal to it and sharing no list or dict with it (strings and numbers, which
    cannot change, are shared)."""
    return _state(_copied(vars(state), _house_fields))


def copy_json(data: dict) -> GameState:
    """A state of its own from a state document (`GameState.to_json`): `GameState.from_json` of a copy, sharing no
    list or dict with `data`. A document with other keys than a state's is read by `GameState.from_json` (which
    fills the fields it lacks, refuses unknown ones)."""
    if not is_state_data(data):
        return copy(GameState.from_json(data))
    return _state(_copied(data, dict.copy))


def is_state_data(data: dict) -> bool:
    """Has this state document exactly a state's fields, in order (what `as_data` gives): then its snapshot is
    `marshal` of it as it is."""
    houses = data.get(_HOUSES)
    return tuple(data) == _FIELDS and isinstance(houses, dict) \
        and all(isinstance(h, dict) and tuple(h) == _HOUSE_FIELDS for h in houses.values())


def dumps_json(data: dict) -> bytes:
    """The snapshot of a state document (as `dumps(GameState.from_json(data))` gives)."""
    return marshal.dumps(data) if is_state_data(data) else dumps(GameState.from_json(data))


def _house_fields(house: HouseState) -> dict:
    return vars(house).copy()


def _copied(src: dict, record) -> dict:
    """A state's fields (`src`: its `__dict__`, or a state document) with every container made anew; `record`: a
    house's fields as a new dict (of a HouseState, or of its dict in a document)."""
    data, deep = _shaped(src, record)
    for name, value in zip(deep, marshal.loads(marshal.dumps(tuple(src[name] for name in deep))), strict=True):
        data[name] = value
    return data


def _shaped(src: dict, record, share_units: bool = False) -> tuple[dict, tuple[str, ...]]:
    """`_copied` but for the free-form fields, named in the tuple returned: in the dict they are still `src`'s
    own values, which the caller replaces. `share_units`: the `[kind, routed]` lists are shared (never changed in
    place: state.py), the armies' dicts and lists still new."""
    data = src.copy()  # the immutable fields as they are; every container is replaced below
    for name in _FLAT_DICTS:
        data[name] = src[name].copy()
    for name in _FLAT_LISTS:
        data[name] = src[name][:]
    for name in _LIST_DICTS:
        data[name] = {key: ids[:] for key, ids in src[name].items()}
    if share_units:
        data[_ARMIES] = {area: {"house": army["house"], "units": army["units"][:]}
                         for area, army in src[_ARMIES].items()}
    else:
        data[_ARMIES] = {area: {"house": army["house"], "units": [unit[:] for unit in army["units"]]}
                         for area, army in src[_ARMIES].items()}
    data[_ORDERS] = {area: order.copy() for area, order in src[_ORDERS].items()}
    houses = {}
    for h, hs in src[_HOUSES].items():
        values = record(hs)
        for name in _HOUSE_LISTS:
            values[name] = values[name][:]
        if len(values) != len(_HOUSE_FIELDS):  # an attribute besides the fields: copied whole, never shared
            values.update(marshal.loads(marshal.dumps({k: v for k, v in values.items() if k not in _HOUSE_FIELDS})))
        new = houses[h] = HouseState.__new__(HouseState)
        new.__dict__ = values
    data[_HOUSES] = houses
    # (an attribute set on a state besides its fields is copied whole too, as `dumps` would: never shared)
    return data, _DEEP if len(src) == len(_FIELDS) else (*_DEEP, *(k for k in src if k not in _FIELD_SET))


class Deferred:
    """A copy of a state whose free-form fields (the cursor, the frames, the modules' states) are kept as a
    `marshal` snapshot until the state is wanted (`state`): taking it costs the shaped copy (the units' own
    `[kind, routed]` lists shared: never changed in place, state.py) and `marshal.dumps` of those fields, reading it
    `marshal.loads` of them (a clone that is never played never reads its state, Game.clone)."""

    __slots__ = ("_data", "_deep", "_blob")

    def __init__(self, state: GameState):
        src = vars(state)
        self._data, self._deep = _shaped(src, _house_fields, share_units=True)
        self._blob = marshal.dumps(tuple(src[name] for name in self._deep))
        for name in self._deep:  # (the key stays in its place: the state document keeps its order)
            self._data[name] = None

    def again(self) -> Deferred:
        """Another copy of the same state (the snapshot's bytes shared: they never change)."""
        other = Deferred.__new__(Deferred)
        other._data, other._deep = _shaped(self._data, _house_fields, share_units=True)
        other._blob = self._blob
        return other

    def state(self) -> GameState:
        """The state (once: it is the caller's from then on)."""
        data = self._data
        for name, value in zip(self._deep, marshal.loads(self._blob), strict=True):
            data[name] = value
        return _state(data)


def _state(data: dict) -> GameState:
    state = GameState.__new__(GameState)
    state.__dict__ = data
    return state


def as_data(state: GameState) -> dict:
    """The state as the dict `GameState.to_json` gives, but sharing the state's own values (read it, never change
    it): to compare a state with a JSON document without copying it."""
    data = vars(state).copy()
    data[_HOUSES] = {h: vars(hs) for h, hs in state.houses.items()}
    return data


def copy_data(data: dict) -> dict:
    """An independent copy of JSON data (a state document): raises ValueError for anything JSON cannot hold."""
    return marshal.loads(marshal.dumps(data))
