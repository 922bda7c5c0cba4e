"""Rule procedures that card effects start, by the name of the primitive that starts them.

Effects (effects.py) are the layer below the rule procedures (planning, mustering, westeros...), yet some
primitives start a procedure: `muster`, `wildling-attack`, `bid-on-influence-tracks`. The rule modules
register those procedures here when they are imported (the game imports all of them), and effects look
them up by name, so no module of a lower layer imports one of a higher layer.
"""

from __future__ import annotations

from collections.abc import Callable

PROCEDURES: dict[str, Callable] = {}


def procedure(name: str) -> Callable[[Callable], Callable]:
    """Register a rule procedure (or a rule helper an effect needs) under `name`."""

    def register(fn: Callable) -> Callable:
        if name in PROCEDURES and PROCEDURES[name] is not fn:
            raise AssertionError(f"two rule procedures are registered as '{name}'")
        PROCEDURES[name] = fn
        return fn

    return register


def run_procedure(name: str) -> Callable:
    try:
        return PROCEDURES[name]
    except KeyError:
        raise AssertionError(f"no rule procedure '{name}' is registered (is its rule module imported?)") from None
