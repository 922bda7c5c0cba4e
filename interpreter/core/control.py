"""Who controls what, victory points, armies and supply (R8, R23, R24.2, R26).

Pure functions of (state, board, rules): nothing here changes the state.
"""

from __future__ import annotations

from .board import LAND, PORT, SEA, Board
from .state import GameState


def home_of(board: Board, area: str) -> str | None:
    return board.area(area).home


def controller(state: GameState, board: Board, area: str) -> str | None:
    """The house controlling an area, or None (R23)."""
    try:
        kind, port_of, home = board.control_info[area]
    except KeyError:
        board.area(area)  # raises the unknown-area diagnostic
        raise
    if kind == PORT:
        return controller(state, board, port_of) if port_of else None  # R23.6
    army = state.units.get(area)
    if army and army["units"]:
        return army["house"]  # R23.1, R23.5
    if kind == SEA:
        return None
    if area in state.power_tokens:
        return state.power_tokens[area]  # R23.2
    if home and home in state.houses and area not in state.neutral_forces:
        return home  # R23.4.1: a home area with no other controller
    return None


def land_controllers(state: GameState, board: Board, areas) -> list[tuple[str, str]]:
    """(area, controlling house) of those of `areas` (land areas) that have a controller: `controller` for many
    areas in one pass (victory is counted after every march, muster and clean up), the same rules (R23)."""
    units, tokens, neutral, houses, info = (state.units, state.power_tokens, state.neutral_forces, state.houses,
                                            board.control_info)
    out = []
    for area in areas:
        army = units.get(area)
        if army and army["units"]:
            out.append((area, army["house"]))  # R23.1, R23.5
        elif area in tokens:
            out.append((area, tokens[area]))  # R23.2
        else:
            home = info[area][2]
            if home and home in houses and area not in neutral:
                out.append((area, home))  # R23.4.1
    return out


def controlled_areas(state: GameState, board: Board, house: str, kind: str | None = "land") -> list[str]:
    if kind == LAND:
        # a fast path (supply, mustering and power collection ask this for every house): a land area can be the
        # house's only if it holds its units or power token or is its home (R23), so only those are tested
        maybe = {a for a, army in state.units.items() if army["house"] == house}
        maybe.update([a for a, h in state.power_tokens.items() if h == house])
        maybe.update(board.home_lands(house))
        lands = board.area_id_set(LAND)
        return [a for a in sorted(maybe) if a in lands and controller(state, board, a) == house]
    return [a for a in board.area_ids(kind) if controller(state, board, a) == house]


def victory_points(state: GameState, board: Board, house: str) -> int:
    """Castle and stronghold areas controlled (R23.7, R26.1)."""
    return sum(1 for a in board.areas if a.is_land and a.has_castle and controller(state, board, a.id) == house)


def castle_counts(state: GameState, board: Board) -> dict[str, int]:
    counts = {h: 0 for h in state.houses}
    for a in board.areas:
        if a.is_land and a.has_castle:
            c = controller(state, board, a.id)
            if c in counts:
                counts[c] += 1
    return counts


def armies(state: GameState, house: str, extra: dict[str, int] | None = None) -> list[int]:
    """Army sizes of a house (areas with two or more of its units), largest first (R2.10.2, R8.6).

    `extra` maps areas to a change in unit count, to test a position before it happens.
    """
    counts = unit_counts(state, house)
    if extra:
        for area, n in extra.items():
            counts[area] = counts.get(area, 0) + n
    return sorted([n for n in counts.values() if n >= 2], reverse=True)


def unit_counts(state: GameState, house: str) -> dict[str, int]:
    """Area -> number of the house's units there (what `armies` starts from)."""
    return {area: len(army["units"]) for area, army in state.units.items() if army["house"] == house}


def unit_counts_with(counts: dict[str, int], extra: dict[str, int]) -> list[int]:
    """Unit counts per area (any order) after the changes `extra`, from counts read once with `unit_counts`:
    what `fits_supply` needs, for callers testing many positions of the same state."""
    sizes = [n + extra.get(area, 0) for area, n in counts.items()]
    sizes += [n for area, n in extra.items() if area not in counts]
    return sizes


def fits_supply(sizes: list[int], limits: list[int]) -> bool:
    """Are these armies within these limits? Pair both sorted largest first (R8.3, ruling: ref.)."""
    sizes = sorted([s for s in sizes if s >= 2], reverse=True)
    if len(sizes) > len(limits):
        return False
    limits = sorted(limits, reverse=True)
    return all(s <= lim for s, lim in zip(sizes, limits, strict=False))


def barrel_count(state: GameState, board: Board, house: str) -> int:
    """Supply barrels in the land areas a house controls (R8.2)."""
    return sum(board.area(a).supply for a in controlled_areas(state, board, house))


def power_in_pool(state: GameState, house: str, total: int) -> int:
    """The house's tokens in the Power Pool: what is neither available nor on the board (R2.5)."""
    return total - state.houses[house].power - state.power_on_board(house)


# ---- the definitions these functions compute (core/steps.py; docs/procedures.md) -------------------------------
from .steps import define  # noqa: E402  (declarations only)

_M = "interpreter/core/control.py"
define("control", "R23", "the house controlling an area: a port, the controller of its land area (R23.6); another "
       "area, the house of the units in it (R23.1); else none for a sea; else the house whose power token is in it "
       "(R23.2); else, for a home area of a house in the game and without a neutral force, that house (R23.4.1); "
       "else none. A house's controlled land areas are listed sorted by id.", _M)
define("armies and supply", "R8.3", "an army is two or more units of one house in one area. The house's armies fit "
       "its supply limits (the rules set's table row for its supply level) when, both sorted largest first, there "
       "are no more armies than limits and each army is at most the limit paired with it. A change tested in "
       "advance (a march, a retreat, a muster) adds its unit counts per area before the test.", _M)
define("power pool", "R2.5", "a house's tokens in the pool: its `power_tokens` less its available power and its "
       "power tokens on the board. A gain takes at most what is in the pool; a house that may not hold power "
       "(`may_hold_power`) gains none.", _M)
define("victory points", "R26.1", "the castles and strongholds a house controls: land areas printed with one, at "
       "their castle level now (an area that lost its castle does not count).", _M)
define("supply level", "R8.2", "the barrels (supply icons, at their level now) of the land areas a house "
       "controls, at most the top of the supply track.", _M)
