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


class _Field:
    """An attribute of the view that is a key of the module's dict."""

    def __set_name__(self, owner: type, name: str) -> None:
        self.name = name

    def __get__(self, view: DragonsState, owner: type | None = None) -> Any:
        return view.data[self.name]

    def __set__(self, view: DragonsState, value: Any) -> None:
        view.data[self.name] = value


class DragonsState:
    """A typed view of the Mother of Dragons state dict (see `FIELDS` for what each holds)."""

    __slots__ = ("data",)
    loyalty: dict[str, int] = _Field()  # type: ignore[assignment]
    improvements: dict[str, list[str]] = _Field()  # type: ignore[assignment]
    dragon_strength: int = _Field()  # type: ignore[assignment]
    dragon_tokens: list[int] = _Field()  # type: ignore[assignment]
    vassals: list[str] = _Field()  # type: ignore[assignment]
    commanders: dict[str, str] = _Field()  # type: ignore[assignment]
    loyalty_points: dict[str, int] = _Field()  # type: ignore[assignment]
    lost_homes: list[str] = _Field()  # type: ignore[assignment]
    bank: list[str | None] = _Field()  # type: ignore[assignment]
    loan_deck: list[str] = _Field()  # type: ignore[assignment]
    loans: dict[str, list[str]] = _Field()  # type: ignore[assignment]
    discount_holder: str | None = _Field()  # type: ignore[assignment]
    leaving: list[str] = _Field()  # type: ignore[assignment]

    def __init__(self, data: dict) -> None:
        self.data = data

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


assert set(FIELDS) == {k for k, v in vars(DragonsState).items() if isinstance(v, _Field)}


class DragonsStateAccess:
    """Gives the Mother of Dragons game its state as `self.mod_state` (created at first use)."""

    state: GameState

    @property
    def mod_state(self) -> DragonsState:
        view: DragonsState | None = self.__dict__.get("_mod_view")
        data = self.state.modules.get(MODULE)
        if view is None or data is None or view.data is not data:  # a new or replaced state (undo, scenario)
            view = self.__dict__["_mod_view"] = DragonsState.of(self.state, create=True)
        return view

    def mod_data(self) -> dict:
        """The module's state dict itself (`mod_state.data`): for the hottest reads (is a house a vassal?),
        which a typed view's descriptor would slow down."""
        data = self.state.modules.get(MODULE)
        return data if data is not None else self.mod_state.data
