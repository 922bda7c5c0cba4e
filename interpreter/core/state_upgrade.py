"""Reading states saved by an older format as they were meant (docs/position.md, version history).

State format 4 (position version 4) changed two things. `end_reason` is a code (`victory-points`, `loyalty`,
`last-round`) where format 3 wrote an English sentence. And the house card a house plays in a combat is held
apart from its hand from the moment it is chosen (R20.1.1); the combat in progress (`step.combat.cards`) says
where it is. In format 3 the card stayed in the hand until Combat Clean Up, so a state saved inside a combat holds
it twice: the upgrade takes it out of the hand. Every other state means the same in both formats.
"""

from __future__ import annotations

OLDEST_READ = 3  # the oldest position version read

# format 3 wrote `end_reason` in English: the start of each sentence and the code it means
_V3_END_REASONS = (("controls ", "victory-points"), ("reaches ", None),
                   ("most castles and strongholds after the last round", "last-round"))


def _v3_end_reason(reason):
    """A format 3 state's English `end_reason` as its code; ValueError for a sentence format 3 never wrote."""
    if not isinstance(reason, str):
        return reason
    for start, code in _V3_END_REASONS:
        if reason.startswith(start):
            return code or ("loyalty" if reason.endswith("(loyalty)") else "victory-points")
    raise ValueError(f"the position's end reason {reason!r} is not one version 3 wrote")


def upgrade_state_v3(state: dict) -> dict:
    """A format 3 state as format 4 (in place; returned). A combat in progress lives in the cursor, `step.combat`,
    with `cards` (house -> card played, or null)."""
    if "end_reason" in state:
        state["end_reason"] = _v3_end_reason(state["end_reason"])
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
