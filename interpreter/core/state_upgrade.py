"""Reading states saved by an older format as they were meant (docs/position.md, version history).

State format 4 (position version 4): the house card a house plays in a combat is held apart from its hand from
the moment it is chosen (R20.1.1); the combat in progress (`step.combat.cards`) says where it is. In format 3 the
card stayed in the hand until Combat Clean Up, so a state saved inside a combat holds it twice: the upgrade takes
it out of the hand. Every other state means the same in both formats.
"""

from __future__ import annotations

# position version -> the upgrade of a state of that version to the next one
OLDEST_READ = 3


def upgrade_state_v3(state: dict) -> dict:
    """A format 3 state as format 4 (in place; returned). A combat in progress lives in the cursor, `step.combat`,
    with `cards` (house -> card played, or null)."""
    combat = (state.get("step") or {}).get("combat") if isinstance(state.get("step"), dict) else None
    if not isinstance(combat, dict) or not isinstance(combat.get("cards"), dict):
        return state
    houses = state.get("houses") or {}
    for house, card in combat["cards"].items():
        hand = (houses.get(house) or {}).get("hand")
        if isinstance(hand, list) and card in hand:
            hand.remove(card)
    return state


def upgrade_position(doc: dict, version: int) -> dict:
    """A position document of an older version as the current one (in place): its state and checkpoints."""
    if version == 3:
        if isinstance(doc.get("state"), dict):
            upgrade_state_v3(doc["state"])
        for cp in doc.get("checkpoints") or []:
            if isinstance(cp, dict) and isinstance(cp.get("state"), dict):
                upgrade_state_v3(cp["state"])
        doc["version"] = 4
    return doc
