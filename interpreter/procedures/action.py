"""The Action Phase (R15–R18): raids, marches (with ship transport and combat), consolidate power,
clean up. Orders of each type are resolved one per house in turn, cycling in turn order (R15.2).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..core import control, cursor
from ..core.state import board_written
from . import moments
from .combat import STAGE_NAMES, Combat, _call_for_support, _eligible_supports, resolve_combat
from .mustering import muster

if TYPE_CHECKING:
    from .game import Game, Proc

NONE = "none"
DONE = "done"


# a turn's frame: the order it resolves, chosen before anything changes (the order may leave the board, e.g. a
# raid's or a consolidation's at once, a march's with its units when a card moves it)
TURN = cursor.frame_kind(
    "action.turn", "a house's turn of the Action Phase: the order it chose to resolve", "R15.2",
    area=("area", "the area of the order being resolved"),
    order=("order-token", "that order's token (order id), kept while the order leaves the board"))


def _cycle(g: Game, order_type: str, resolve) -> Proc:
    """Resolve every order of a type: each house in turn order resolves one, until none is left (R15.2).

    Each turn starts at a cursor (the pass, whose turn, whether anyone acted in this pass),
    so a restarted game goes on from the turn it stopped in; inside the turn, its frame (`TURN`) names the
    order being resolved, and the procedure resolving it goes on from its own frame."""
    st, at = g.state, cursor.ACTION_STEP.format(order_type)
    resume = cursor.resumed(st, at)
    # only the first turn visited can be a restarted one (its frame saved); after it no saved frame is left
    maybe_restarting = True
    # house -> its areas to resolve, read once and kept, from pass to pass, while the orders are those read (`seen`)
    # less the ones resolved: a turn most often only takes its own order off the board
    pending: dict[str, list[str]] | None = None
    seen: dict[str, dict] = {}
    while True:
        if resume is not None:
            houses, start, acted = list(resume["pass"]), resume["next"], resume["acted"]
            resume = None
        else:
            houses, start, acted = g.turn_order, 0, False
        for i in range(start, len(houses)):
            house = houses[i]
            if maybe_restarting and cursor.restarting(g):  # restarted inside this turn: its order was chosen
                turn = cursor.enter(g, TURN)
            else:
                maybe_restarting = False
                if pending is None:
                    pending, seen = _to_resolve_by_house(g, order_type), dict(st.orders)
                areas = pending.get(house)
                if not areas:
                    continue
                cursor.place(st, at, **{"pass": list(houses), "next": i, "acted": acted})
                # which goes first changes nothing only when no other house acts in between (R15.2)
                free = (order_type == "consolidate-power" and len(areas) > 1 and _independent(g, areas)
                        and not _others_to_act(g, house, order_type, areas))
                if free and g.skips(CONSOLIDATE_ORDER):
                    area = areas[0]  # no question: the house resolves them one after another, in area order
                else:  # (`g.choose` written out, here and below: no generator layer between a decision and the game)
                    area = areas[0] if len(areas) == 1 else (
                        yield g.ask(house, f"resolve-{order_type}", f"{house}: which {order_type} order to resolve?",
                                    areas, "R15.2", house=house, **({"skip": CONSOLIDATE_ORDER} if free else {})))
                turn = cursor.enter(g, TURN, area=area, order=st.orders[area]["order"])
            combats = g.combats
            if not moments.resuming(g):  # (a restart inside the abilities after the order: it is resolved)
                yield from resolve(g, house, turn["area"], turn["order"])
            yield from moments.after_order(g, house, turn["area"], order_type)
            cursor.leave(g, turn)
            acted = True
            # the turn may have added, removed or changed any order: the areas read still hold when its own order
            # left the board and every other order is the very one read (the orders' dicts are replaced, never
            # changed in place, but for a raid/support token kept, which is this turn's own order)
            done = turn["area"]
            if pending is not None and done not in st.orders and seen.pop(done, None) is not None \
                    and st.orders == seen:
                pending[house].remove(done)
            else:
                pending = None
            if g.combats != combats:  # a stop after this combat sees the turn over, no frame left (scenarios)
                g.reached(f"combat {g.combats}")
        if not acted:
            return


CONSOLIDATE_ORDER = "consolidate-order"  # the skip kind (core/skips.py)


def _others_to_act(g: Game, house: str, order_type: str, areas: list[str]) -> bool:
    """May another house's turn, coming between two of this house's orders, change what they do, or may the
    order in which this house resolves them change what another house's order does (R15.2)? Only ships in a sea
    link orders of the Consolidate Power step: a port yields nothing while an enemy ship holds its sea (R18.2.2),
    a muster puts a Ship only into a sea without enemy ships (R9.4). So it may when one side may change the ships
    of a sea (a muster, `_seas`) whose ships the other side depends on."""
    mine = [_seas(g, a, g.state.orders[a]) for a in areas]
    my_changes = [c for c, _ in mine]
    my_reads = frozenset().union(*(r for _, r in mine))
    for area, o in g.state.orders.items():
        if o["house"] == house or not g.resolves_in_step(o, order_type):
            continue
        changes, reads = _seas(g, area, o)
        if changes is None and my_reads or changes and changes & my_reads:
            return True  # its turn may change what one of this house's orders does
        if reads and any(c is None or c & reads for c in my_changes):
            return True  # which of this house's orders goes first may change what its order does
    return False


def _seas(g: Game, area: str, o: dict) -> tuple[frozenset[str] | None, frozenset[str]]:
    """The seas whose ships an order of the Consolidate Power step may change (None: any), and those whose
    ships change what it does."""
    rec = g.rules.order(o["order"])
    if rec["type"] != "consolidate-power" or rec.get("resolves_at") not in (None, "consolidate-power"):
        return g.seas_of_other_order(area, o)  # an order of a rules module (R18.4)
    here = g.board.area(area)
    if rec["star"] and here.is_land and g.castle_level(area) != "none":
        seas = frozenset(g.board.neighbours(area, "sea"))
        return seas, seas  # it may muster a Ship into a sea next to it without enemy ships (R18.3, R9.4)
    if here.is_port:
        return frozenset(), frozenset({here.port_sea})  # R18.2.2
    return frozenset(), frozenset()


def _to_resolve_by_house(g: Game, order_type: str) -> dict[str, list[str]]:
    """House -> the areas of its orders that resolve in this step, sorted, in one reading of the orders. Whether an
    order does depends only on its token and whether it was kept as a support (`Game.resolves_in_step`): looked
    up once per game."""
    # order type -> {token: resolves?} for orders not kept as a support, {(token, kept): resolves?} for those
    memo = g.__dict__.setdefault("_resolves_in_step", {}).setdefault(order_type, {})
    out: dict[str, list[str]] = {}
    for area, o in g.state.orders.items():
        key = o["order"] if len(o) == 2 else (o["order"], o.get("kept"))  # {"house", "order"}: not kept
        yes = memo.get(key)
        if yes is None:
            yes = memo[key] = g.resolves_in_step(o, order_type)
        if yes:
            house = o["house"]
            if house in out:
                out[house].append(area)
            else:
                out[house] = [area]
    for areas in out.values():
        areas.sort()
    return out


def _independent(g: Game, areas: list[str]) -> bool:
    """Do one house's orders of the Consolidate Power step resolve independently of their order? Plain Consolidate
    Power orders do (each gains its own power, R18.2), with at most one that asks a question (a special one in a
    castle area: power or muster, R18.3); so do orders that buy something but cannot buy anything even with all
    that power (R40.4, `consolidate_purchases`). Muster orders (R34.5) do not."""
    asking, most, banks = 0, g.state.houses[g.state.orders[areas[0]]["house"]].power, 0
    for area in areas:
        rec = g.rules.order(g.state.orders[area]["order"])
        a = g.board.area(area)
        if rec["type"] == "iron-bank":
            banks += 1
            continue
        if rec["type"] != "consolidate-power" or rec.get("resolves_at") not in (None, "consolidate-power"):
            return False
        most += 0 if a.is_sea else 1 if a.is_port else 1 + g.power_icons(area)  # at most what it can gain
        asking += bool(rec["star"] and a.is_land and g.castle_level(area) != "none")
    house = g.state.orders[areas[0]]["house"]
    start = g.state.houses[house].power
    if most - start > control.power_in_pool(g.state, house, g.power_total(house)):
        return False  # the pool may run out (R2.5.3): which order yields then depends on which goes first
    # a purchase may change what the other orders do (a castle that gains a level musters more, R41), so a buying
    # order leaves the order free only when it cannot buy anything, even with all that power
    return asking <= 1 and not (banks and any(g.consolidate_purchases(house, most)))


# ---- raids --------------------------------------------------------------------------------------

def raid_targets(g: Game, house: str, area: str) -> list[str]:
    """Adjacent enemy orders this raid may remove (R15.4, R15.5, R15.7)."""
    here = g.board.area(area)
    special = g.rules.order(g.state.orders[area]["order"])["star"]
    out = []
    for target in g.board.neighbours(area):
        t = g.board.area(target)
        if here.is_land and not t.is_land:
            continue  # R15.5.1
        if here.is_port and target != here.port_sea:
            continue  # R15.5.3
        if t.is_port and target not in g.board.neighbours(area, "port"):
            continue
        if t.is_port and here.is_land:
            continue  # R15.5.4
        order = g.state.orders.get(target)
        if order is None or not g.is_enemy(house, order["house"]):
            continue
        if g.can_raid(g.state.orders[area]["order"], order["order"], special):
            out.append(target)
    return sorted(out)


# the raid taken off the board before its target is chosen (R15.3): what it may still remove
RAID = cursor.frame_kind(
    "action.raid-target", "a raid order being resolved, already off the board: its target is asked", "R15.3",
    targets=("areas", "the areas of the enemy orders it may remove (besides none)"))


def resolve_raid(g: Game, house: str, area: str, token: str) -> Proc:
    if cursor.restarting(g):  # restarted at the target question: the raid left the board before it
        f = cursor.enter(g, RAID)
    else:
        if g.order_type(token) == "raid-or-support":  # R34.4: raid now, or support later
            use = yield from g.choose(house, "raid-or-support", f"{g.actor(house)}: use {house}'s token in "
                                      f"{area} as a raid or keep it as a support?", ["raid", "support"], "R34.4",
                                      area=area)
            if use == "support":
                g.state.orders[area]["kept"] = True
                g.emit("keep-support", "R34.4", f"{house}'s raid/support token in {area} stays as a support",
                       area=area)
                return
        targets = raid_targets(g, house, area)
        g.state.orders.pop(area)
        f = cursor.enter(g, RAID, targets=targets)
    options = [NONE, *f["targets"]]
    pick = options[0] if len(options) == 1 else (
        yield g.ask(house, "raid", f"{house}: raid from {area} into?", options, "R15.3", area=area))
    cursor.leave(g, f)
    if pick == NONE:
        g.emit("raid", "R15.3", f"{house}'s raid in {area} is removed without effect", house=house, area=area)
        return
    victim = g.state.orders.pop(pick)
    g.emit("raid", "R15.3", f"{house} raids from {area}: {victim['house']}'s {victim['order']} in {pick} is "
           "removed", house=house, area=pick)
    if g.pillages(victim["order"]):
        g.gain_power(house, 1, "R15.6", "pillage")
        g.discard_power(victim["house"], 1, "R15.6", "pillaged")


# ---- marches ------------------------------------------------------------------------------------

def _triggers_combat(g: Game, house: str, dest: str) -> bool:
    """Units of another house, another house's garrison, or a neutral force (R16.5)."""
    st = g.state
    army = st.units.get(dest)  # `st.house_in` inlined (asked for every march candidate)
    if army is not None and army["house"] != house:
        return True
    owner = st.garrison_owner.get(dest)
    if owner is not None and owner != house:
        return True
    return dest in st.neutral_forces


def _candidates(g: Game, house: str, origin: str, kind: str, planned: dict[str, int],
                combat_dest: str | None) -> list[str]:
    """Where one more unit of `kind` may go by the movement rules alone (R16.3–R16.5, R17, R24.4, R25.5)."""
    st = g.state
    rec = g.rules.unit_kinds[kind]
    if rec["domain"] == "land":
        if g.can_fly(kind):
            candidates = [a for a in g.board.fly_destinations() if a != origin]
        else:
            units = st.units  # ship transport: seas holding the house's ships (`st.house_in` inlined: a call less)
            candidates = g.board.land_destinations(
                origin, lambda s: (army := units.get(s)) is not None and army["house"] == house)
    else:
        candidates = g.board.sea_destinations(
            origin, lambda p: g.controller(p) == house and len(st.units_in(p)) + planned.get(p, 0) < 3)
    out = []
    blocked, may_enter = st.blocked, g.may_enter
    for dest in candidates:
        if dest in blocked or not may_enter(house, dest):
            continue
        if _triggers_combat(g, house, dest):
            if combat_dest not in (None, dest):
                continue  # one combat per march (R16.4.1)
            if g.board.area(dest).is_port:
                continue  # ships never enter an enemy port (R24.4)
        out.append(dest)
    return out


def _candidates_memo(g: Game, house: str, origin: str, kind: str, planned: dict[str, int],
                     combat_dest: str | None, memo: dict) -> list[str]:
    """`_candidates`, once per way of moving during one march decision: every kind moving the same way (by land,
    flying, by sea) has the same ones, and only ships depend on the units already planned (port room)."""
    rec = g.rules.unit_kinds[kind]
    if rec["domain"] == "land":
        key = ("candidates", "fly" if g.can_fly(kind) else "land", combat_dest, None)
    else:
        key = ("candidates", rec["domain"], combat_dest, frozenset(planned.items()))
    found = memo.get(key)
    if found is None:
        found = memo[key] = _candidates(g, house, origin, kind, planned, combat_dest)
    return found


def _fits(g: Game, house: str, planned: dict[str, int], memo: dict | None) -> bool:
    """`g.fits_supply(house, planned)`. With a memo, the house's unit counts are read once per march
    decision (nothing changes while its options are listed) instead of once per position tested."""
    if memo is None:
        return g.fits_supply(house, planned)
    counts = memo.get("unit-counts")
    if counts is None:
        counts = memo["unit-counts"] = control.unit_counts(g.state, house)
    # the armies after the moves depend only on each touched area's (units before, change): moves to different
    # empty areas, or of different kinds, are the same test
    key = ("fits", tuple(sorted([(counts.get(a, 0), n) for a, n in planned.items()])))
    fits = memo.get(key)
    if fits is None:
        fits = memo[key] = g.fits_supply(house, planned, counts)
    return fits


def _plan_fits(g: Game, house: str, origin: str, planned: dict[str, int], combat_dest: str | None,
               memo: dict | None = None) -> bool:
    """Do the positions after these moves respect the house's supply limits (R16.7)? An attack too weak for a
    neutral force does not happen and its units stay (R25.3): the march must fit that way too."""
    if not _fits(g, house, planned, memo):
        return False
    if combat_dest in g.state.neutral_forces and planned.get(combat_dest, 0) > 0:
        back = dict(planned)
        back[origin] = back.get(origin, 0) + back.pop(combat_dest)
        return _fits(g, house, back, memo)
    return True


def _after(planned: dict[str, int], origin: str, dest: str) -> dict[str, int]:
    out = dict(planned)
    out[origin] = out.get(origin, 0) - 1
    out[dest] = out.get(dest, 0) + 1
    return out


def _can_complete(g: Game, house: str, origin: str, planned: dict[str, int], left: dict[str, int],
                  combat_dest: str | None, memo: dict) -> bool:
    """Can the march, moving some of the units still `left`, end within the supply limits? Units move one at a
    time here, but the limits apply to the resulting positions only (R16.7)."""
    if _plan_fits(g, house, origin, planned, combat_dest, memo):
        return True  # the common case, answered before building a memo key
    # frozensets: equal exactly when the sorted item tuples are, without sorting at every step
    key = (frozenset(planned.items()), frozenset((k, n) for k, n in left.items() if n), combat_dest)
    if key not in memo:
        memo[key] = False  # guards against cycles; a state is decided once
        memo[key] = any(
            _can_complete(g, house, origin, _after(planned, origin, dest), {**left, kind: n - 1},
                          dest if _triggers_combat(g, house, dest) else combat_dest, memo)
            for kind, n in sorted(left.items()) if n > 0
            for dest in _candidates_memo(g, house, origin, kind, planned, combat_dest, memo))
    return memo[key]


def march_destinations(g: Game, house: str, origin: str, kind: str, planned: dict[str, int],
                       combat_dest: str | None, left: dict[str, int] | None = None,
                       memo: dict | None = None) -> list[str]:
    """Where one more unit of `kind` may go: the movement rules, and the march can still end within the supply
    limits, with the units still `left` (this one included) free to move too (R16.7)."""
    left = dict(left or {kind: 1})
    left[kind] = left.get(kind, 1) - 1
    memo = {} if memo is None else memo
    candidates = _candidates_memo(g, house, origin, kind, planned, combat_dest, memo)
    if not candidates:
        return []
    if _every_move_fits(g, house, origin, planned, candidates, memo):
        return list(candidates)
    # `_can_complete` first tests the position after the move alone (`_plan_fits`). Unless the move attacks a
    # neutral force (which tests a second position), that test depends only on the destination's units before
    # the move (the other areas are the same for every destination): it is made once per such count here
    counts, neutral = memo["unit-counts"], g.state.neutral_forces
    fits_with: dict[int, bool] = {}
    out = []
    for dest in candidates:
        target = dest if _triggers_combat(g, house, dest) else combat_dest
        if dest != origin and target not in neutral:
            before = counts.get(dest, 0) + planned.get(dest, 0)
            fits = fits_with.get(before)
            if fits is None:
                fits = fits_with[before] = _fits(g, house, _after(planned, origin, dest), memo)
            if fits:
                out.append(dest)
                continue
        if _can_complete(g, house, origin, _after(planned, origin, dest), left, target, memo):
            out.append(dest)
    return out


def _every_move_fits(g: Game, house: str, origin: str, planned: dict[str, int], candidates: list[str],
                     memo: dict) -> bool:
    """Does one more unit fit the supply limits wherever it goes among `candidates` (so each passes
    `_can_complete` at its first test)? One test of a position at least as large, area by area, as every one
    those tests make: the moves so far, one more unit in every candidate at once, and the origin as full as
    before the march (an attack on a neutral force may send its units back, R25.3). Smaller armies never fit
    worse (R8.3: armies and limits paired largest first), so when that position fits, each of them does."""
    key = ("every-move-fits", frozenset(planned.items()), tuple(candidates))
    fits = memo.get(key)
    if fits is None:
        extra = dict(planned)
        extra[origin] = 0
        for dest in candidates:
            extra[dest] = extra.get(dest, 0) + 1
        counts = memo.get("unit-counts")
        if counts is None:
            counts = memo["unit-counts"] = control.unit_counts(g.state, house)
        fits = memo[key] = g.fits_supply(house, extra, counts)
    return fits


def _neutral_force_reachable(g: Game, house: str, origin: str, area: str, moves: list[tuple[str, str]],
                             left: dict[str, int]) -> bool:
    """Could this march beat the neutral force in `area`: the units already sent there and every unit still
    free to go, the March order, and every adjacent Support order, whoever holds it (R25.2, R25.3)?"""
    st = g.state
    bonus = g.rules.order(st.orders[origin]["order"]).get("value") or 0
    c = Combat(house, "__neutral__", area, origin, [], bonus)
    kinds = [k for k, d in moves if d == area]
    kinds += [k for k, n in left.items() for _ in range(n) if g.rules.unit_kinds[k]["domain"] == "land"]
    total = bonus + sum(c.unit_strength(g, "", [k, False], house) for k in kinds)
    for sup in _eligible_supports(g, c):
        total += sum(c.unit_strength(g, "", u, house) for u in st.units_in(sup))
        total += g.support_value(st.orders[sup]["order"])
    return total >= st.neutral_forces[area]


# a march in progress: its moves, then what the march is doing (its frame's `stage`)
MOVES, LEAVE_POWER, NEUTRAL_FORCE, COMBAT, AFTER = MARCH_STAGES = ("moves", "leave-power", "neutral-force",
                                                                   "combat", "after")
MARCH = cursor.frame_kind(
    "action.march-order", "a march order being resolved (R16)", "R16",
    stage=("string", "what the march does now: moves (its units' moves are chosen), leave-power (whether to "
                     "leave a power token behind, R16.8), neutral-force (the attack on a neutral force, R25), "
                     "combat (its combat, kept in step.combat, R19), after (ships in ports change hands, R24.7)"),
    moves=("moves", "the moves chosen so far, [unit kind, destination area] each"),
    bonus=("int", "the March order's strength bonus, for its attack (R16.1.1)"),
    target=("area", "the area its units attack, once they left (a combat's is also in step.combat)"),
    attacking=("units", "the units attacking a neutral force, off the board meanwhile: [kind, routed] each"))


def _planned(g: Game, house: str, origin: str, moves: list[list[str]]) -> tuple[dict[str, int], str | None]:
    """The unit counts the moves change (area -> change) and the area they attack, if any."""
    planned: dict[str, int] = {}
    combat_dest = None
    for _, dest in moves:
        planned[origin] = planned.get(origin, 0) - 1
        planned[dest] = planned.get(dest, 0) + 1
        if _triggers_combat(g, house, dest):
            combat_dest = dest
    return planned, combat_dest


def resolve_march(g: Game, house: str, origin: str, token: str | None = None) -> Proc:
    st = g.state
    token = st.orders[origin]["order"] if token is None else token
    f = cursor.enter(g, MARCH, stage=MOVES, moves=[], bonus=g.rules.order(token).get("value") or 0)
    moves = f["moves"]  # the frame's own list: each move chosen is kept there at once
    planned: dict[str, int] = {}
    combat_dest = f.get("target")
    if f["stage"] in (MOVES, LEAVE_POWER):  # the board has not changed since the moves were chosen
        planned, combat_dest = _planned(g, house, origin, moves)
    # what the march's options are computed from (the board, the house's units, supply) does not change while its
    # moves are chosen (they are made together at `done`): one memo for all its decisions (`march_destinations`)
    memo: dict = {}
    # kind -> its units still free to move: the unrouted ones (routed units stay, R16.10) less those moved so far
    left: dict[str, int] = {}
    if f["stage"] == MOVES:
        for u in st.units_in(origin, house):
            if not u[1]:
                left[u[0]] = left.get(u[0], 0) + 1
        for kind, _ in moves:
            left[kind] -= 1
    while f["stage"] == MOVES:
        options = []
        for kind in sorted(k for k, n in left.items() if n > 0):
            for dest in march_destinations(g, house, origin, kind, planned, combat_dest, left, memo):
                if dest in st.neutral_forces and not _neutral_force_reachable(g, house, origin, dest, moves, left):
                    continue  # R25.2: hopeless even with every unit and every support
                options.append(f"{kind}:{dest}")
        # the march may stop once its positions fit the supply limits (R16.7)
        done = [DONE] if not moves or not options or _plan_fits(g, house, origin, planned, combat_dest, memo) else []
        options = [*done, *options]
        # (`g.choose` written out: no generator layer between this decision and the game)
        pick = options[0] if len(options) == 1 else (
            yield g.ask(house, "march", f"{house}: march from {origin} (move a unit, or done)", options, "R16.1",
                        area=origin, moves=[f"{k}:{d}" for k, d in moves]))
        if pick == DONE:
            f["stage"] = LEAVE_POWER
            break
        kind, dest = pick.split(":")
        moves.append([kind, dest])
        left[kind] -= 1
        planned[origin] = planned.get(origin, 0) - 1
        planned[dest] = planned.get(dest, 0) + 1
        if _triggers_combat(g, house, dest):
            combat_dest = dest
    if not moves:
        cursor.leave(g, f)
        st.orders.pop(origin, None)
        g.emit("march", "R16.2", f"{house} resolves its march in {origin} without moving", house=house, area=origin)
        return
    if f["stage"] == LEAVE_POWER:
        yield from _move_out(g, house, origin, f, combat_dest)
    if f["stage"] == NEUTRAL_FORCE:
        c = Combat(house, "", f["target"], origin, f["attacking"], f["bonus"])
        yield from _attack_neutral_force(g, c)
        f["stage"] = AFTER
    elif f["stage"] == COMBAT:
        if "combat" in st.step:  # restarted inside it: the whole combat is data in the cursor
            data = st.step["combat"]
            c, stage = Combat.from_json({k: v for k, v in data.items() if k != "stage"}), data["stage"]
        else:
            c, stage = _combat(g, house, origin, f), STAGE_NAMES[0]
        # the combat of the march (`resolve_combat` is not wrapped in a generator of its own: its decisions come up
        # through one layer less); a restarted game resumes it from the data its cursor holds (`step.combat`)
        g.embattled = c.area
        try:
            yield from resolve_combat(g, c, stage, frames=True)
        finally:
            g.embattled = None
        g.combats += 1
        f["stage"] = AFTER
    yield from _after_attack(g, house, origin)
    cursor.leave(g, f)


def _move_out(g: Game, house: str, origin: str, f: dict, combat_dest: str | None) -> Proc:
    """The march's units leave: a power token may stay behind (R16.8, R23.2), peaceful moves happen at once and
    the attackers wait off the board (R16.4.2). Sets the frame's next stage."""
    st = g.state
    moves = f["moves"]
    emptied = len(moves) == len(st.units_in(origin, house))
    a = g.board.area(origin)
    if (emptied and a.is_land and g.state.houses[house].power > 0 and origin not in st.power_tokens
            and a.home != house and g.may_hold_power(house)):
        leave = yield g.ask(house, "leave-power", f"{house}: leave a power token in {origin}?", ["yes", "no"],
                            "R16.8", area=origin)
        if leave == "yes":
            st.houses[house].power -= 1
            st.power_tokens[origin] = house
            board_written(origin)
            g.emit("power-token", "R23.2.1", f"{house} leaves a power token in {origin}", house=house, area=origin)
    elif emptied and a.is_land and a.home != house and origin not in st.power_tokens:
        g.area_left_unmarked(house, origin)
    attacking: list[list] = []
    for kind, dest in moves:
        idx = next(i for i, u in enumerate(st.units[origin]["units"]) if u[0] == kind and not u[1])
        unit = st.remove_unit(origin, idx)
        if dest == combat_dest:
            attacking.append(unit)
        else:
            _enter(g, house, dest, unit)
    # the march order stays until the combat is over (a house card may move it)
    moved = ", ".join(f"{k}->{d}" for k, d in moves)
    g.emit("march", "R16.1", f"{house} marches from {origin}: {moved}", house=house, area=origin)
    _abandoned_port(g, origin)
    g.units_arrived(house, [d for _, d in moves if d != combat_dest])
    if combat_dest is None:
        f["stage"] = AFTER
        return
    # the attackers are off the board: only the frame holds them until the attack takes them
    f["target"], f["attacking"] = combat_dest, attacking
    f["stage"] = NEUTRAL_FORCE if combat_dest in st.neutral_forces else COMBAT  # R25 is not a combat (R19)


def _combat(g: Game, house: str, origin: str, f: dict) -> Combat:
    """The combat a march starts, its attackers off the board in the frame (R19)."""
    st = g.state
    combat_dest = f["target"]
    attacking = f.pop("attacking")  # the combat holds them from now on (step.combat)
    # ship transport (R17) brought the attack unless only flying units made the trip (R38.4)
    transported = (g.board.area(combat_dest).is_land and not g.board.are_adjacent(origin, combat_dest)
                   and any(not g.can_fly(u[0]) for u in attacking))
    defender = st.house_in(combat_dest) or st.garrison_owner[combat_dest]
    return Combat(house, defender, combat_dest, origin, attacking, f["bonus"], transported)


def _after_attack(g: Game, house: str, origin: str) -> Proc:
    st = g.state
    st.orders.pop(origin, None) if st.orders.get(origin, {}).get("house") == house else None
    yield from port_consequences(g)  # R21.5.7
    g.after_march(house)
    g.check_victory()


def _abandoned_port(g: Game, land: str) -> None:
    """A march that leaves a land area controlled by nobody loses the ships in its port at once (R24.8)."""
    st = g.state
    port = g.board.port_of(land) if g.board.area(land).is_land else None
    if port and port in st.units and g.controller(land) is None:
        _destroy_port(g, port, "R24.8", f"nobody controls {land}")


def _destroy_port(g: Game, port: str, rule: str, why: str) -> None:
    ships = g.state.units.pop(port)
    board_written(port)
    g.state.orders.pop(port, None)
    g.emit("destroy", rule, f"{ships['house']}'s {len(ships['units'])} ship(s) in {port} are destroyed ({why})",
           house=ships["house"], area=port, kind=ships["units"][0][0], count=len(ships["units"]))


def port_consequences(g: Game) -> Proc:
    """Ships left in a port whose land area another house now controls: the new owner may replace any of them
    with its own unused ships, within its supply limits; the rest are destroyed (R24.7). In a port whose land
    area nobody controls, they are destroyed (R24.8)."""
    st = g.state
    for port in g.board.area_ids("port"):  # sorted ids, computed once per board
        army = st.units.get(port)
        if not army:
            continue  # (most ports: tested first, before looking up the port's land area)
        land = g.board.area(port).port_of
        if land is None:
            continue
        owner = g.controller(land)
        if owner == army["house"]:
            continue
        if owner is None:
            _destroy_port(g, port, "R24.8", f"nobody controls {land}")
            continue
        n, kind = len(army["units"]), army["units"][0][0]
        del st.units[port]  # the old owner's ships leave before the new owner's are counted
        board_written(port)
        room = min(n, g.available_units(owner, kind))
        options = [k for k in range(room + 1) if k == 0 or g.fits_supply(owner, {port: k})]
        st.units[port] = army
        board_written(port)
        take = yield from g.choose(owner, "replace-ships", f"{owner}: replace how many of {army['house']}'s "
                                   f"{n} ship(s) in {port} with your own?", options, "R24.7", area=port)
        _destroy_port(g, port, "R24.7", f"{owner} takes {land}")
        for _ in range(take):
            st.add_unit(port, owner, kind)
        if take:
            g.emit("replace-ships", "R24.7", f"{owner} replaces {take} of them with its own ship(s)", house=owner,
                   area=port, count=take)


def _enter(g: Game, house: str, dest: str, unit: list) -> None:
    st = g.state
    token = st.power_tokens.get(dest)
    if token is not None and token != house:
        del st.power_tokens[dest]  # R16.6
        board_written(dest)
        g.emit("power-token", "R16.6", f"{token}'s power token in {dest} returns to the pool", area=dest)
    st.add_unit(dest, house, unit[0], unit[1])
    g.take_area(dest, house)


def _attack_neutral_force(g: Game, c: Combat) -> Proc:
    """Strength (units, order, support) must reach the token's (R25.2, R25.3); no cards, no blade. The attackers
    are `c.attacking`, off the board (the march's frame keeps them until this is over)."""
    st = g.state
    house, area = c.attacker, c.area
    c.defender = "__neutral__"
    yield from _call_for_support(g, c)
    strength = c.initial(g, house)
    need = st.neutral_forces[area]
    if strength >= need:
        del st.neutral_forces[area]
        board_written(area)
        for u in c.attacking:
            _enter(g, house, area, u)
        g.emit("neutral-force", "R25.3", f"{house} ({strength}) defeats the neutral force in {area} ({need})",
               house=house, area=area)
        g.neutral_force_defeated(house, area)
        g.units_arrived(house, [area])
    else:
        for u in c.attacking:
            st.add_unit(c.origin, house, u[0], u[1])
        g.emit("neutral-force", "R25.3", f"{house} ({strength}) is too weak for the neutral force in {area} ({need}); "
               "the units stay", house=house, area=area)


# ---- consolidate power ----------------------------------------------------------------------------

# a special Consolidate Power order in a castle area, off the board, asks power or muster (R18.3)
CONSOLIDATE = cursor.frame_kind(
    "action.consolidate-order", "a special Consolidate Power order being resolved, already off the board: "
    "power or muster", "R18.3",
    how=("string", "the answer, power or muster ('' while asked); a muster is in progress after muster"))


def resolve_consolidate(g: Game, house: str, area: str) -> Proc:
    st = g.state
    a = g.board.area(area)
    if cursor.restarting(g):  # restarted at its question or inside its muster: the order is off the board
        f: dict | None = cursor.enter(g, CONSOLIDATE)
    else:
        rec = g.rules.order(st.orders.pop(area)["order"])
        special = rec["star"] and a.is_land and g.castle_level(area) != "none"
        f = cursor.enter(g, CONSOLIDATE, how="") if special else None
    if f is not None:
        if not f["how"]:
            f["how"] = yield from g.choose(house, "consolidate", f"{house}: special consolidate power in {area}: "
                                           "power or muster?", ["power", "muster"], "R18.3", area=area)
            if f["how"] == "muster":
                g.emit("consolidate", "R18.3", f"{house} musters in {area}", house=house, area=area)
        how = f["how"]
        if how == "muster":
            yield from muster(g, house, [area], "R18.3")
        cursor.leave(g, f)
        if how == "muster":
            return
    if a.is_sea:
        g.emit("consolidate", "R18.2.1", f"{house}'s consolidate power in the sea area {area} yields nothing",
               house=house, area=area)
        return
    if a.is_port and st.house_in(a.port_sea) not in (None, house):
        g.emit("consolidate", "R18.2.2", f"{house}'s consolidate power in {area} yields nothing: "
               f"{st.house_in(a.port_sea)} ships hold {a.port_sea}", house=house, area=area)
        return
    amount = 1 if a.is_port else 1 + g.power_icons(area)  # R18.2, R18.2.2
    g.gain_power(house, amount, "R18.2", f"consolidate power in {area}")


def _resolve_consolidate_step(g: Game, house: str, area: str, token: str) -> Proc:
    """Consolidate power orders, and orders that resolve at that time (a rules module's, R18.4)."""
    if g.order_type(token) == "consolidate-power":
        yield from resolve_consolidate(g, house, area)
    else:
        yield from g.resolve_other_order(house, area)


def resolve_special_order(g: Game, house: str, area: str) -> Proc:
    """Orders resolved in the consolidate power step that are not consolidate power (MoD)."""
    yield from g.resolve_other_order(house, area)


# ---- the phase ------------------------------------------------------------------------------------

ACTION_STEPS = (("raid", resolve_raid, "raids"), ("march", resolve_march, "marches"),
                ("consolidate-power", _resolve_consolidate_step, "consolidate-power"))


def action_phase(g: Game) -> Proc:
    st = g.state
    begun = cursor.within(st, "action")
    if not begun:
        g.emit("phase", "R15", f"round {st.round}: Action Phase")
    for order_type, resolve, stop in ACTION_STEPS:
        if begun and cursor.resumed(st, cursor.ACTION_STEP.format(order_type)) is None:
            continue  # a step done before the restart
        begun = False
        yield from _cycle(g, order_type, resolve)
        g.reached(stop)  # "consolidate-power": before the clean up, orders and routed units still on the board
    cursor.clear(st)
    # clean up (R18.5)
    st.orders = {}
    for area, army in st.units.items():
        units = army["units"]
        for i, u in enumerate(units):
            if u[1]:
                units[i] = [u[0], False]  # a new list: a unit is never changed in place (state.py)
                board_written(area)  # (observations read the routed units: env/incremental.py)
    st.blade_used = False
    st.raven_used = False
    g.emit("clean-up", "R18.5", "clean up: orders removed, routed units stand up, blade and raven refreshed")


# ---- the steps of the Action Phase (core/steps.py; docs/procedures.md) ---------------------------------------
from ..core.steps import ask, either, emit, hook, step, sub  # noqa: E402  (declarations only)

_M = "interpreter/procedures/action.py"
_TURN = ("Each house in turn order (the turn-order track) resolves one of its orders of this step's type, pass after "
         "pass, until a pass in which no house resolved one (R15.2). A house with no such order is passed over. "
         "The turn's order is chosen (and its token kept) before anything changes.")
step("action", "The Action Phase", "R15 R18.5",
     "The state's `phase` is `action`. The three steps resolve the orders in this order: raids, marches, "
     "Consolidate Power (with the orders a rules module resolves at that time). Then the clean up (R18.5): every "
     "order is removed from the board (no event per order), every routed unit stands up, the Valyrian Steel Blade "
     "and the Messenger Raven may be used again (`blade_used`, `raven_used` false); then victory is checked.",
     emit("phase", "R15", "once, first", times="1"),
     sub("action.raids", times="1"),
     sub("action.marches", times="1"),
     sub("action.consolidations", times="1"),
     emit("clean-up", "R18.5", "once, at the end of the phase", times="1"),
     module=_M)
step("action.raids", "The Raid step", "R15.2", _TURN, sub("action.raid-turn", times="*"), module=_M)
step("action.marches", "The March step", "R15.2", _TURN, sub("action.march-turn", times="*"), module=_M)
step("action.consolidations", "The Consolidate Power step", "R15.2 R18",
     _TURN + " Orders of this step: Consolidate Power orders and the orders whose `resolves_at` is "
     "`consolidate-power` (a rules module's orders).",
     sub("action.consolidate-turn", times="*"), module=_M)
_WHICH = ("the house's areas holding an order of the step's type (a raid/support token kept as a support is not a "
          "raid any more), sorted by id")
step("action.raid-turn", "A house resolves a raid", "R15.2",
     "",
     ask("resolve-raid", "R15.2", "the house", "at the start of its turn", _WHICH,
         "when the house has one such order (it is taken)"),
     sub("action.raid", times="1"), module=_M)
step("action.march-turn", "A house resolves a march", "R15.2",
     "",
     ask("resolve-march", "R15.2", "the house", "at the start of its turn", _WHICH,
         "when the house has one such order (it is taken)"),
     sub("action.march", times="1"), module=_M)
step("action.consolidate-turn", "A house resolves a Consolidate Power order", "R15.2",
     "",
     ask("resolve-consolidate-power", "R15.2", "the house", "at the start of its turn", _WHICH,
         "when the house has one such order, or when its orders resolve independently of their order and no "
         "other house's turn in between can change what they yield: only plain Consolidate Power orders, at most "
         "one of them special in a castle area (the only one that asks), and orders that buy something only when "
         "even all the power these orders could gain buys nothing; the pool of power tokens holds all they could "
         "gain (R2.5.3); and no order of another house left in the "
         "step is linked to them through the ships of a sea: one side may change them (a muster by a special "
         "Consolidate Power order in a castle area next to that sea, R9.4; an order a rules module adds to the "
         "step where the module says so, `seas_of_other_order`) and "
         "the other depends on them (a port's yield on its sea, R18.2.2; a muster on the seas next to it) "
         "(skip kind `consolidate-order`: the first area by id is taken)"),
     either([sub("action.consolidate", times="1")],
            [hook("action.other-order", "an order of a type the base procedures do not know, resolved in this "
                  "step (R18.4)")]),
     module=_M)
step("action.raid", "A Raid order", "R15.3-R15.7",
     "The targets are the adjacent areas holding an enemy's order this raid may remove (R15.4: a raid removes "
     "Support, Raid and Consolidate Power orders, a special raid also Defense orders, unless the target order "
     "names the raids that may remove it; R15.5: from land only land areas, from a port only its sea; a port is "
     "a target only from its sea; a rules module may make some houses not enemies, R34.4). The "
     "raid leaves the board before its target is asked. Removing a Consolidate Power order (or an order that "
     "says it gives power when raided) pillages: the raider gains 1 power, then the victim discards 1 (R15.6).",
     ask("raid-or-support", "R34.4", "the house (or who decides for it, R33.7)", "for a raid/support token",
         "`raid`, `support`"),
     either(
         [emit("keep-support", "R34.4", "answer `support`: the token stays as a support order", times="1")],
         [ask("raid", "R15.3", "the house", "after the raid left the board",
              "`none`, then the target areas sorted by id", "when there is no target (only `none`)"),
          emit("raid", "R15.3", "`area` the raided area (the raid's own area when the answer is `none`), "
               "`house` the raider", times="1"),
          emit("power", "R15.6", "pillage: the raider's gain, then the victim's loss", times="*")]),
     module=_M)
step("action.march", "A March order", "R16 R17 R24 R25",
     "Moves are chosen one unit at a time, kept in the march's frame, and carried out together when the house "
     "answers `done`. A unit of kind K may go to an area when (R16.3-R16.5, R17, R24.4, R25.5, R38): it is not "
     "routed (R16.10); land units go to adjacent land areas and to land areas next to a chain of seas holding the "
     "house's ships (ship transport); units of a kind that flies to any other land area; ships to adjacent "
     "seas and to adjacent ports of land areas the house controls with room (a port holds at most "
     "`port_capacity` ships, counting those already sent there); never into a blocked area nor one a rules module "
     "forbids the house (R34.3, R35.10); an area with another house's units or garrison, or a neutral "
     "force, starts the march's one combat: every unit entering such an area must go to the same area, and ships "
     "never enter an enemy port. A destination is offered only if some completion of the march (moving some of "
     "the units still free, this one included) ends within the house's supply limits (R16.7; for an attack on a "
     "neutral force, also with the attackers staying at home, R25.3). A neutral force is offered only if the "
     "units already sent there, every free land unit, the march bonus and every adjacent Support order "
     "(whoever holds it) could reach its strength (R25.2).",
     ask("march", "R16.1", "the house", "once per unit moved, then once more for `done` (the answers so far are "
         "in the decision's `info.moves`)",
         "`done` first when no unit has moved yet, or no move is left, or the moves so far fit the supply limits; "
         "then `KIND:AREA` for each movable unit kind (sorted by kind id) and each legal destination of it "
         "(sorted by area id)", "when only one answer is legal", times="*"),
     either(
         [emit("march", "R16.2", "no unit moved: the order is removed, `area` its area", times="1")],
         [sub("action.march-out", times="1"),
          either([], [sub("action.neutral-force", times="1")], [sub("combat", times="1")]),
          sub("action.ports", times="1"),
          hook("action.after-march", "after the march, its combat and the ports")]),
     module=_M,
     notes=("After the moves (and the attack), the march's order is removed from its area with no event if it is "
            "still there (a combat's Combat Clean Up has removed it already, with its event); then the ports, "
            "then a rules module's after-march step, then victory is checked.",))
step("action.march-out", "The marching units leave", "R16.1 R16.6 R16.8 R24.8",
     "When the march empties a land area that is not the house's home, holds no power token and the house has "
     "available power (and may hold power), the house may leave a power token there (R16.8); otherwise a rules "
     "module may mark it (R35.9). Then each move is made in the order chosen: a unit entering an area "
     "without combat returns any other house's power token there to its pool (R16.6) and takes the area; units "
     "moving into the combat area wait off the board (kept in the march's frame). The March order stays on the "
     "board until the combat is over. A port whose land area nobody controls any more loses its ships (R24.8).",
     ask("leave-power", "R16.8", "the house", "when the march empties such an area", "`yes`, `no`"),
     emit("power-token", "R23.2.1", "answer `yes`: `house`, `area`"),
     hook("action.area-left-unmarked", "an emptied land area the house did not mark"),
     emit("power-token", "R16.6", "an enemy power token in an area entered without combat returns to its pool: "
          "`area` only", times="*"),
     emit("march", "R16.1", "the moves are made: `area` the origin, `house`", times="1"),
     emit("destroy", "R24.8", "the ships of an abandoned port: `area` the port, `house`, `kind`, `count`"),
     hook("action.units-arrived", "units entered areas without combat (the moves just made)"),
     module=_M)
step("action.neutral-force", "An attack on a neutral force", "R25",
     "Not a combat (R19): support is called as in a combat, but only for the attacker (R25.2.4); no house cards, "
     "no blade, no Tides of Battle. The attacker's strength (its attacking units, the march bonus, its support) "
     "must reach the neutral force's. If it does, the neutral force is removed and the attackers enter the area; "
     "otherwise the attackers go back to the area they marched from.",
     sub("combat.support", times="1"),
     emit("power-token", "R16.6", "success: an enemy power token in the area returns to its pool", times="*"),
     emit("neutral-force", "R25.3", "`area`, `house` the attacker (success or failure)", times="1"),
     hook("action.neutral-force-defeated", "after a successful attack"),
     hook("action.units-arrived", "after a successful attack: the attackers entered the area"),
     module=_M)
step("action.ports", "Ports after a march", "R21.5.7 R24.7 R24.8",
     "After the march (and its combat), every port in area id order whose ships belong to another house than the "
     "controller of its land area: if nobody controls the land area the ships are destroyed (R24.8); otherwise "
     "the new controller may replace any number of them with its own unused ships of the same kind, within its "
     "supply limits, and the old ships are destroyed (R24.7).",
     ask("replace-ships", "R24.7", "the new controller of the port's land area", "for each such port",
         "the numbers 0 up to the ships there (at most its unused ships of that kind), each that fits its supply "
         "limits, ascending", "when only 0 is possible", times="*"),
     emit("destroy", "R24.7 R24.8", "the old ships: `area` the port, `house`, `kind`, `count`", times="*"),
     emit("replace-ships", "R24.7", "ships replaced: `area`, `house`, `count`", times="*"),
     module=_M)
step("action.consolidate", "A Consolidate Power order", "R18",
     "The order leaves the board first. A special Consolidate Power order in a land area with a castle or "
     "stronghold asks power or muster (R18.3). Otherwise (or answering `power`): in a sea area it yields nothing "
     "(R18.2.1); in a port whose sea holds another house's ships it yields nothing (R18.2.2); else the house "
     "gains 1 power in a port, 1 plus the area's power icons on land (R18.2).",
     ask("consolidate", "R18.3", "the house", "for a special order in a castle or stronghold area",
         "`power`, `muster`"),
     either(
         [emit("consolidate", "R18.3", "answer `muster`", times="1"), sub("mustering.muster", times="1")],
         [emit("consolidate", "R18.2.1 R18.2.2", "nothing is gained", times="1")],
         [emit("power", "R18.2", "the power gained", times="1")]),
     module=_M)
