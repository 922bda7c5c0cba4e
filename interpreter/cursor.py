"""The procedure's cursor: where a phase stands between two of its steps, kept in the state (`GameState.step`).

A phase procedure sets the cursor at each point it can restart from and takes a checkpoint there (the
start of a house's turn in the Action Phase, of a house's order placement, of a Westeros card's
resolution). A procedure started on a state whose cursor is set skips what the cursor says is done and
goes on from there, so a game restarts mid-phase from its state alone. What happens *inside* a turn (a
march, its combat, an effect waiting on a choice) is not a cursor: a position inside a turn is its
turn's checkpoint plus the answers given since (see position.py). The cursor is empty at a phase's start.

Every place is declared here, with the counters it keeps (`PLACES`); schemas/state.schema.json describes
the same fields.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .state import GameState

WESTEROS_RESOLVE = "westeros.resolve"
PLANNING_ORDERS = "planning.orders"
ACTION_STEP = "action.{}"  # one per Action Phase step: action.raid, action.march, action.consolidate-power

# place -> what it means and its counters
PLACES: dict[str, str] = {
    WESTEROS_RESOLVE: "the Westeros cards are drawn (`drawn`: [deck, card] in drawing order) and the wildlings "
                      "have advanced; card `next` (0-based) is resolved next (R6.2.4)",
    PLANNING_ORDERS: "the houses place their orders in the order `pass`; house `next` (0-based) places next (R13.2)",
    ACTION_STEP.format("raid"): "Raid step: in this pass through the turn order (`pass`), house `next` resolves "
                                "next; `acted`: a house already resolved an order in this pass (R15.2)",
    ACTION_STEP.format("march"): "March step, counters as in the Raid step (R16)",
    ACTION_STEP.format("consolidate-power"): "Consolidate Power step, counters as in the Raid step (R18)",
}


def place(state: GameState, at: str, **counters) -> None:
    """Set the cursor (the caller then takes a checkpoint)."""
    assert at in PLACES, f"cursor place {at!r} is not declared in cursor.py"
    state.step = {"at": at, **counters}


def resumed(state: GameState, at: str) -> dict | None:
    """The cursor's counters if the procedure restarts at `at` (and clears nothing)."""
    return state.step if state.step.get("at") == at else None


def within(state: GameState, phase: str) -> bool:
    """Has the phase begun already (a restart inside it)?"""
    return str(state.step.get("at", "")).startswith(phase + ".")


def clear(state: GameState) -> None:
    state.step = {}
