"""The effect primitives only Mother of Dragons content uses: loyalty, improvements, dragons, vassals.

They are registered in the effects registry (`handler`, `query`) like every primitive, when this module is
imported (the package imports it), and read and write the module's state through `DragonsState`. Reading a
base game's state gives the empty view, so a query asked there answers as if no piece were out.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..core.state import board_written
from ..effects import _nothing, handler, query
from ..effects.evaluator import VOID_WHEN
from .state import DragonsState

if TYPE_CHECKING:
    from ..procedures.game import Game


def is_vassal(g: Game, house: str) -> bool:
    return house in DragonsState.of(g.state).vassals


def commander_of(g: Game, house: str) -> str:
    return DragonsState.of(g.state).commanders.get(house, house)


def add_loyalty(g: Game, area: str, n: int, rule: str) -> None:
    """Put `n` loyalty tokens in `area` (take them back when negative); when the supply of tokens runs out the
    placement is skipped (R37.5)."""
    loyalty = DragonsState.of(g.state, create=True).loyalty
    if n > 0:
        left = (g.game_rec.get("loyalty_tokens") or 0) - sum(loyalty.values())
        if n > left:
            g.emit("loyalty-skipped", "R37.5", f"no loyalty token left for {area}: the placement is skipped",
                   area=area)
            n = max(0, left)
    if n == 0:
        return
    loyalty[area] = loyalty.get(area, 0) + n
    if loyalty[area] <= 0:
        del loyalty[area]
    g.emit("loyalty", rule, f"{'+' if n > 0 else ''}{n} loyalty token(s) in {area}", area=area)
    if n > 0 and hasattr(g, "gain_loyalty_now"):  # gained at once in a loyalty house's area (R37.6.2)
        g.gain_loyalty_now()


@query("loyalty-areas")
def _loyalty_areas(g, sc, a):
    out = sorted(area for area, n in DragonsState.of(g.state).loyalty.items() if n > 0)
    kind = a.get("next-to")
    if kind:
        blocked, neighbours = g.state.blocked, g.board.neighbours
        if blocked:
            out = [x for x in out if any(y not in blocked for y in neighbours(x, kind))]
        else:  # nothing impassable: an area qualifies with any neighbour of the kind
            out = [x for x in out if neighbours(x, kind)]
    return out


query("player-houses")(lambda g, sc, a: [h for h in g.turn_order if not is_vassal(g, h)])
query("vassals")(lambda g, sc, a: [h for h in g.turn_order if is_vassal(g, h)])
query("is-vassal")(lambda g, sc, a: is_vassal(g, a["house"]))
query("commander")(lambda g, sc, a: commander_of(g, a["house"]))
query("has-dragon-token-left")(lambda g, sc, a: bool(DragonsState.of(g.state).dragon_tokens))


@handler("place-loyalty")
def _place_loyalty(g, sc, a, st):
    add_loyalty(g, a["area"], a.get("count", 1), sc.rule)
    return _nothing()


@handler("move-loyalty")
def _move_loyalty(g, sc, a, st):
    if DragonsState.of(g.state).loyalty.get(a["from"], 0) > 0:
        add_loyalty(g, a["from"], -1, sc.rule)
        add_loyalty(g, a["to"], 1, sc.rule)
    return _nothing()


# a move from an area without a token does nothing (e.g. undoing a move whose token was gained at once, R37.6.2):
# an optional effect that would only do that is not offered
VOID_WHEN["move-loyalty"] = lambda g, sc, a: DragonsState.of(g.state).loyalty.get(a["from"], 0) <= 0


@handler("improve")
def _improve(g, sc, a, st):
    DragonsState.of(g.state, create=True).improvements.setdefault(a["area"], []).append(a["improvement"])
    board_written(a["area"])  # (castle counts kept: a castle level may change, R42.3)
    g.emit("improve", sc.rule, f"{a['area']} gets a {a['improvement']} improvement", area=a["area"])
    return _nothing()


@handler("degrade")
def _degrade(g, sc, a, st):
    DragonsState.of(g.state, create=True).improvements.setdefault(a["area"], []).append(f"no-{a['icon']}")
    board_written(a["area"])  # (castle counts kept: a castle level may change, R42.3)
    g.emit("degrade", sc.rule, f"the {a['icon']} of {a['area']} is degraded", area=a["area"])
    return _nothing()


@handler("advance-dragon-strength")
def _advance_dragons(g, sc, a, st):
    # "any one token still on the round track" (R39.3): the furthest, so no earlier round loses its token;
    # with none left on the track there is nothing to move (R0.6)
    ms = DragonsState.of(g.state, create=True)
    if not ms.dragon_tokens:
        return _nothing()
    ms.dragon_tokens.remove(max(ms.dragon_tokens))
    ms.dragon_strength += 1
    g.emit("dragons", sc.rule, f"dragon strength is now {ms.dragon_strength}")
    return _nothing()
