"""Supply (R8) and mustering (R9): adjusting the supply track, reconciling armies, raising units."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..core import control, cursor
from ..core.procedure_registry import procedure
from ..core.state import board_written

if TYPE_CHECKING:
    from .game import Game, Proc

DONE = "done"

MUSTER = cursor.frame_kind(
    "mustering.muster", "a house musters, area after area, until it is done or its points are spent", "R9",
    house=("house", "the house mustering"),
    areas=("areas", "the areas it musters in, in order"),
    next=("index:areas", "the area (0-based, in `areas`) mustering now"),
    points=("count", "the mustering points left in that area"))


@procedure("adjust-supply")
def adjust_supply(g: Game, rule: str = "R8.2") -> Proc:
    """Every house moves its supply token to its barrels (max 6), then reconciles in turn order."""
    top = g.rules.max_supply(g.state.game)
    for house in g.turn_order:  # every house adjusts, whoever decides for it (R35.12)
        hs = g.state.houses[house]
        new = min(top, g.barrel_count(house))
        if new != hs.supply:
            g.emit("supply", rule, f"{house} moves from supply {hs.supply} to {new}", house=house, supply=new)
        hs.supply = new
    yield from reconcile(g, g.turn_order, "R8.4")


@procedure("reconcile")
def reconcile(g: Game, houses: list[str], rule: str = "R8.4") -> Proc:
    """Houses over their supply limit destroy units of their choice until they fit (R8.4)."""
    for house in houses:
        while not g.fits_supply(house):
            options = sorted({f"{area}:{u[0]}" for area in g.state.areas_of(house)
                              if len(g.state.units[area]["units"]) >= 2 for u in g.state.units[area]["units"]})
            pick = yield from g.choose(g.actor(house), "reconcile",
                                       f"{house} is over its supply limit: destroy a unit", options, rule)
            area, kind = pick.split(":")
            idx = next(i for i, u in enumerate(g.state.units[area]["units"]) if u[0] == kind)
            g.destroy_unit(area, idx, rule, "over the supply limit")


_POINTS = {"castle": 1, "stronghold": 2}  # mustering points by castle level (R9.2)


def mustering_points(g: Game, area: str) -> int:
    return _POINTS.get(g.castle_level(area), 0)


@procedure("placement-areas")
def placement_areas(g: Game, house: str, kind: str, allowed: list[str] | None) -> list[str]:
    """Where a house may put a new unit outside mustering: areas it controls or holds units in (R41.1), or,
    when the effect names the areas (`allowed`), any of those without another house's units (R39.4)."""
    domain = g.rules.unit_kinds[kind]["domain"]
    out = []
    for a in g.board.areas:
        if a.id in g.state.blocked or (allowed is not None and a.id not in allowed):
            continue
        here = g.state.house_in(a.id)
        if here not in (None, house):
            continue
        if domain == "land" and not a.is_land:
            continue
        if domain == "sea" and a.is_land:
            continue
        if a.is_port and (g.controller(a.id) != house or len(g.state.units_in(a.id)) >= g.port_capacity):
            continue
        if allowed is None and here != house and not (a.is_land and g.controller(a.id) == house) and not a.is_port:
            continue
        if g.fits_supply(house, {a.id: 1}):
            out.append(a.id)
    return out


def house_units(g: Game, house: str) -> tuple[dict[str, int], dict[str, int]]:
    """The house's units counted by area (`control.unit_counts`) and by kind, from one reading of the board:
    what `muster_options` reads, kept up to date by `muster` as it raises units (nothing else moves meanwhile)."""
    counts: dict[str, int] = {}
    have: dict[str, int] = {}
    for where, army in g.state.units.items():
        if army["house"] == house:
            units = army["units"]
            counts[where] = len(units)
            for u in units:
                have[u[0]] = have.get(u[0], 0) + 1
    return counts, have


def muster_options(g: Game, house: str, area: str, points: int,
                   units: tuple[dict[str, int], dict[str, int]] | None = None) -> list[str]:
    """What the points left in `area` can still buy (R9.3–R9.7). `units`: the house's `house_units`, when the
    caller keeps them."""
    kinds = g.rules.unit_kinds
    options = []
    land = g.state.units_in(area, house)
    # one more unit in an area: the test depends only on the units already there, so it is made once per count
    # (and with the house's units read once)
    fits: dict[int, bool] = {}
    counts, have = units if units is not None else house_units(g, house)

    def fits_one_more(where: str) -> bool:
        there = counts.get(where, 0)
        if there not in fits:
            fits[there] = g.fits_supply(house, {where: 1}, counts)
        return fits[there]

    limits = g.rules.house(house)["unit_limits"]  # (`available_units`: the limit less the units by kind)
    for kind, rec, cost in _musterable(g):
        if limits.get(kind, 0) - have.get(kind, 0) <= 0:
            continue
        if rec["domain"] == "land":
            if cost <= points and fits_one_more(area):
                options.append(f"{kind}:{area}")
            base = rec.get("upgrade_from")
            if base and any(u[0] == base for u in land) and points >= cost - kinds[base]["muster_cost"]:
                options.append(f"upgrade:{base}:{kind}:{area}")
        elif cost <= points:
            for sea in ship_areas(g, house, area):
                if fits_one_more(sea):
                    options.append(f"{kind}:{sea}")
    return options


def _musterable(g: Game) -> list[tuple[str, dict, int]]:
    """(kind, record, muster cost) of every unit kind with a muster cost, sorted by id: read once per game."""
    found = g.__dict__.get("_musterable")
    if found is None:
        found = g._musterable = [(kind, rec, rec["muster_cost"]) for kind, rec in sorted(g.rules.unit_kinds.items())
                                 if rec.get("muster_cost") is not None]
    return found


def ship_areas(g: Game, house: str, area: str) -> list[str]:
    """Seas next to the area without enemy ships, and the area's own port (R9.4, R9.5, R24.5)."""
    out = []
    for sea in g.board.neighbours(area, "sea"):
        if g.state.house_in(sea) in (None, house) and sea not in g.state.blocked:
            out.append(sea)
    port = g.board.port_of(area)
    if port and port not in g.state.blocked and len(g.state.units_in(port)) < g.port_capacity and \
            g.state.house_in(port) in (None, house):
        out.append(port)
    return out


@procedure("muster")
def muster(g: Game, house: str, areas: list[str] | None, rule: str = "R9") -> Proc:
    """Muster in the given areas (default: every castle/stronghold area the house controls). The frame keeps the
    area mustering now and its points left: a restart asks the same next unit."""
    restart = cursor.restarting(g)
    if not restart:
        if areas is None:
            areas = g.muster_areas(house)
        if areas is None:
            areas = [a for a in control.controlled_areas(g.state, g.board, house) if mustering_points(g, a) > 0]
    f = cursor.enter(g, MUSTER, house=house, areas=list(areas or []), next=0, points=0)
    if f["house"] != house:  # the caller called another house's muster: it did not restart the same way
        raise AssertionError(f"restart took another path: {house} musters where the frame has {f['house']}")
    kinds = g.rules.unit_kinds
    areas, start = f["areas"], f["next"]
    units = house_units(g, house)  # kept up to date below: only this muster changes the house's units meanwhile
    counts, have = units
    for n in range(start, len(areas)):
        area = areas[n]
        if g.controller(area) != house:
            continue
        points = f["points"] if restart and n == start else mustering_points(g, area)
        f["next"] = n
        while points > 0:
            options = muster_options(g, house, area, points, units)
            if not options:
                break
            f["points"] = points
            pick = yield g.ask(house, "muster", f"{house}: muster in {area} ({points} point(s) left)",
                               [DONE, *options], rule, area=area, points=points)
            if pick == DONE:
                break
            parts = pick.split(":")
            if parts[0] == "upgrade":
                _, base, kind, where = parts
                idx = next(i for i, u in enumerate(g.state.units[where]["units"]) if u[0] == base)
                army = g.state.units[where]["units"]
                army[idx] = [kind, army[idx][1]]  # a new list: a unit is never changed in place (state.py)
                board_written(where)
                have[base] -= 1
                have[kind] = have.get(kind, 0) + 1
                points -= kinds[kind]["muster_cost"] - kinds[base]["muster_cost"]
                g.emit("muster", "R9.3.2", f"{house} upgrades a {base} to a {kind} in {where}", house=house,
                       area=where, kind=kind)
            else:
                kind, where = parts
                g.state.add_unit(where, house, kind)
                counts[where] = counts.get(where, 0) + 1
                have[kind] = have.get(kind, 0) + 1
                points -= kinds[kind]["muster_cost"]
                g.emit("muster", "R9.3.1", f"{house} musters a {kind} in {where}", house=house, area=where,
                       kind=kind)
        g.check_victory()
    cursor.leave(g, f)


# ---- the steps of supply and mustering (core/steps.py; docs/procedures.md) -------------------------------------
from ..core.steps import ask, emit, group, step, sub  # noqa: E402  (declarations only)

_M = "interpreter/procedures/mustering.py"
step("mustering.supply", "Adjust supply", "R8.2 R8.4",
     "Started by an effect. Every house in turn order moves its supply to the barrels of the areas it controls "
     "(at most the top of the supply track); then every house reconciles.",
     emit("supply", "R8.2", "a house's supply changes: `house`, `supply`", times="*"),
     sub("mustering.reconcile", times="1"),
     module=_M)
step("mustering.reconcile", "Reconcile armies", "R8.4",
     "Each house in turn order, while its armies do not fit its supply limits, destroys a unit of an army of two or "
     "more units.",
     group(ask("reconcile", "R8.4", "the house (or who decides for it, R33.7)", "while it does not fit",
               "`AREA:KIND` for each unit kind of each army of two or more units, each once, sorted",
               "when one answer is legal"),
           emit("destroy", "R8.4", "the unit destroyed: `house`, `area`, `kind`", times="1")),
     module=_M)
step("mustering.muster", "Muster", "R9",
     "The areas: those the effect or order names, else (unless a rules module restricts them, R35.13) every castle "
     "or stronghold area the house controls, in area id order. Area by area (an area the "
     "house does not control when its turn comes is skipped), while the area has mustering "
     "points left (1 for a castle, 2 for a stronghold, at the area's castle level), the house buys a unit "
     "or an upgrade or stops. Victory is checked after each area.",
     sub("mustering.unit", times="*"),
     module=_M)
step("mustering.unit", "Muster one unit", "R9.3",
     "",
     ask("muster", "", "the house", "while the area has points and something to buy",
         "`done`, then for each unit kind with a muster cost, sorted by id, with units left: `KIND:AREA` for a land "
         "unit the points pay for (if one more unit there fits supply), `upgrade:BASE:KIND:AREA` when a unit of "
         "the kind it upgrades from is there and the points pay the difference; for a ship, `KIND:SEA` for each "
         "adjacent sea without enemy ships and the area's port with room (sorted), if it fits supply. The decision "
         "cites the rule of what started the muster (R18.3, R34.5, or the card's window)",
         "never skipped while an option besides `done` exists (the area's mustering ends otherwise)", times="1"),
     emit("muster", "R9.3.1 R9.3.2", "a unit mustered (R9.3.1) or upgraded (R9.3.2): `house`, `area`, `kind`"),
     module=_M)
