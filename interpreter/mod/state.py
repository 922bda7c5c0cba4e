"""The Mother of Dragons part of the position: `GameState.modules["mother-of-dragons"]`.

It is plain JSON data (so the state round-trips exactly); `DragonsState` is a typed view of it, whose
attributes read and write that dict. Only the Mother of Dragons module and the front ends that show its
pieces read it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..core.state import GameState

MODULE = "mother-of-dragons"  # the key of this module's state in GameState.modules

# every field, with a maker of its empty value, in the order the state JSON lists them
FIELDS: dict[str, Callable[[], Any]] = {
    "loyalty": dict,  # area -> loyalty tokens there (R37.4)
    "improvements": dict,  # area -> improvement and degradation marks (R41, R42.3)
    "dragon_strength": int,  # the strength of every dragon (R38.3)
    "dragon_tokens": list,  # rounds still holding a dragon strength token (R38.3.2)
    "vassals": list,  # houses without a player (R31.1)
    "commanders": dict,  # vassal -> the house commanding it this round (R33.3)
    "loyalty_points": dict,  # house -> loyalty tokens gained (R37.6)
    "lost_homes": list,  # home areas whose garrison may come back (R37.8)
    "bank": list,  # Iron Bank slots, oldest (cheapest) first; null: an empty slot (R40.2)
    "loan_deck": list,  # the loans not yet revealed, top first (R40.3)
    "loans": dict,  # house -> loans taken (R40.4)
    "discount_holder": lambda: None,  # the house holding the loan discount token (R40.7)
    "leaving": list,  # players who leave at the next round (R42.5)
}


def fresh() -> dict:
    """The module's state before its setup: every field empty."""
    return {name: make() for name, make in FIELDS.items()}


class DragonsState:
    """A typed view of the Mother of Dragons state dict (see `FIELDS` for what each holds). The dict itself is the
    view's `__dict__`: reading a field is a plain attribute read (at C speed: the module reads its state for
    nearly every decision) and writing one writes the state; no other attribute can be set."""

    loyalty: dict[str, int]
    improvements: dict[str, list[str]]
    dragon_strength: int
    dragon_tokens: list[int]
    vassals: list[str]
    commanders: dict[str, str]
    loyalty_points: dict[str, int]
    lost_homes: list[str]
    bank: list[str | None]
    loan_deck: list[str]
    loans: dict[str, list[str]]
    discount_holder: str | None
    leaving: list[str]

    def __init__(self, data: dict) -> None:
        object.__setattr__(self, "__dict__", data)

    def __setattr__(self, name: str, value: Any) -> None:
        if name not in FIELDS:  # the view's dict is the saved state: nothing else may land in it
            raise AttributeError(f"the {MODULE} state has no field '{name}' (mod/state.py FIELDS)")
        self.__dict__[name] = value

    @property
    def data(self) -> dict:
        """The module's state dict itself."""
        return self.__dict__

    @classmethod
    def of(cls, state: GameState, create: bool = False) -> DragonsState:
        """The module state of `state`. Without `create`, a state with none (a base game) gives an empty view
        that is not stored, so reading never changes the position."""
        data = state.modules.get(MODULE)
        if data is None:
            data = fresh()
            if create:
                state.modules[MODULE] = data
        return cls(data)


assert list(FIELDS) == list(DragonsState.__annotations__)


class DragonsStateAccess:
    """Gives the Mother of Dragons game its state as `self.mod_state` (created at first use)."""

    state: GameState

    @property
    def mod_state(self) -> DragonsState:
        view: DragonsState | None = self.__dict__.get("_mod_view")
        data = self.state.modules.get(MODULE)
        if view is None or data is None or view.__dict__ is not data:  # a new or replaced state (undo, scenario)
            view = self.__dict__["_mod_view"] = DragonsState.of(self.state, create=True)
        return view

    def mod_data(self) -> dict:
        """The module's state dict itself (`mod_state.data`): for the hottest reads (is a house a vassal?), without
        the checks of `mod_state`."""
        data = self.state.modules.get(MODULE)
        return data if data is not None else self.mod_state.__dict__
