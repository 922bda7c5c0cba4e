"""The Mother of Dragons invariants of a state that comes from outside (an analysis position, a state to draw):
registered with core/state_check.py, which checks the base game's, when this module is imported.

Every id the module's procedures index by (a vassal, a commander, a loan, an area with loyalty) must be one of
the game, and the counts the rules bound stay within them: the vassals are the houses without a player (at
least as many as the setup has, more only after players left, R42.5), hold no power (R31.2), are commanded by
players (R33.3); loyalty tokens lie on land areas, no more than the game has (R37.4).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..core.state_check import MODULE_CHECKS
from .state import MODULE

if TYPE_CHECKING:
    from ..core.rules import Rules
    from ..core.state import GameState


def dragons_problems(rules: Rules, state: GameState, mod: Any) -> list[str]:
    if not isinstance(mod, dict):
        return [f"modules/{MODULE}: not an object"]
    bad: list[str] = []
    bundle = rules.bundle
    houses = state.houses
    areas = {a.id: a for a in rules.board(state.board).areas}
    at = f"modules/{MODULE}"
    vassals = list(mod.get("vassals") or [])
    if any(v not in houses for v in vassals) or len(set(vassals)) != len(vassals):
        bad.append(f"{at}/vassals: {vassals} are not houses of the game, each once")
    setup = bundle["setups"][state.setup]
    if len(set(vassals)) < (setup.get("vassals") or 0):
        bad.append(f"{at}/vassals: {len(set(vassals))} vassal(s); setup '{state.setup}' has {setup['vassals']}")
    if len(set(vassals)) >= len(houses):
        bad.append(f"{at}/vassals: every house a vassal")
    for v in vassals:
        if v in houses and houses[v].power:
            bad.append(f"houses/{v}/power: {houses[v].power}, but a vassal holds no power")
    for v, commander in (mod.get("commanders") or {}).items():
        if v not in vassals or commander not in houses or commander in vassals:
            bad.append(f"{at}/commanders/{v}: '{commander}' commanding '{v}' is not a player commanding a vassal")
    loyalty = mod.get("loyalty") or {}
    for area, n in loyalty.items():
        a = areas.get(area)
        if a is None or a.kind != "land":
            bad.append(f"{at}/loyalty/{area}: loyalty tokens off the land areas of the board")
        elif not isinstance(n, int) or n < 0:
            bad.append(f"{at}/loyalty/{area}: {n!r} is not a count of tokens")
    total = bundle["games"][state.game].get("loyalty_tokens")
    counted = sum(n for n in loyalty.values() if isinstance(n, int))
    if total is not None and counted > total:
        bad.append(f"{at}/loyalty: {counted} tokens on the board; the game has {total}")
    for h in [*(mod.get("loyalty_points") or {}), *(mod.get("leaving") or []), *(mod.get("loans") or {})]:
        if h not in houses:
            bad.append(f"{at}: '{h}' is not a house of the game")
    holder = mod.get("discount_holder")
    if holder is not None and holder not in houses:
        bad.append(f"{at}/discount_holder: '{holder}' is not a house of the game")
    for area in mod.get("lost_homes") or []:
        if area not in areas:
            bad.append(f"{at}/lost_homes: '{area}' is not an area of the board")
    loans = bundle.get("loans") or {}
    held = [*(mod.get("bank") or []), *(mod.get("loan_deck") or []),
            *(c for taken in (mod.get("loans") or {}).values() for c in (taken or []))]
    unknown = sorted({str(c) for c in held if c is not None and c not in loans})
    if unknown:
        bad.append(f"{at}: {', '.join(map(repr, unknown[:3]))} not loan cards")
    return bad


MODULE_CHECKS[MODULE] = dragons_problems
