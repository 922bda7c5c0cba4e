"""How a house wins, as the rules set declares it (R26): what the victory track counts, each house's threshold,
when a house reaching it wins, and the ranking after the last round.

The rules set's keys (bundle `games`): `victory_points` (the threshold), `victory_thresholds` (house -> its own
threshold), `victory_count` (castles | points | castles-and-points), `victory_check` (at-once | end-of-round |
end-of-game) and `tiebreakers` (the ranking, `TIEBREAKERS` of game.py). Points that effects give
(`gain-victory-points`) are kept in `state.modules["victory"]["points"]` (absent while nobody has any, so a game
that never gives points has the state it always had).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .game import Game

STATE_KEY = "victory"
AT_ONCE, END_OF_ROUND, END_OF_GAME = "at-once", "end-of-round", "end-of-game"
CASTLES, POINTS, BOTH = "castles", "points", "castles-and-points"


def count(g: Game) -> str:
    return g.game_rec.get("victory_count") or CASTLES


def when(g: Game) -> str:
    return g.game_rec.get("victory_check") or AT_ONCE


def threshold(g: Game, house: str) -> int:
    """The victory points `house` wins at (R26.1; its own threshold when the rules set gives one)."""
    return (g.game_rec.get("victory_thresholds") or {}).get(house, g.game_rec["victory_points"])


def lowest_threshold(g: Game) -> int:
    """The smallest of the houses' thresholds: below it nobody wins (read once per game, the rules set is fixed)."""
    low = g.__dict__.get("_lowest_threshold")
    if low is None:
        if not g.state.houses:
            return 0
        low = g._lowest_threshold = min(threshold(g, h) for h in g.state.houses)
    return low


def points(g: Game, house: str) -> int:
    """The points effects gave `house` (gain-victory-points)."""
    return g.state.modules.get(STATE_KEY, {}).get("points", {}).get(house, 0)


def gain(g: Game, house: str, amount: int, rule: str, why: str = "") -> None:
    """Effects give (or take, with a negative amount) victory points; a house never goes below 0."""
    if house not in g.state.houses or not amount:
        return
    table = g.state.modules.setdefault(STATE_KEY, {}).setdefault("points", {})
    new = max(0, table.get(house, 0) + amount)
    table[house] = new
    g.emit("victory-points", rule, f"{house} {'gains' if amount > 0 else 'loses'} {abs(amount)} victory point"
           f"{'s' if abs(amount) != 1 else ''} (now {new}){(' (' + why + ')') if why else ''}",
           house=house, amount=amount, points=new)


def totals(g: Game, table: dict[str, int]) -> dict[str, int]:
    """The victory track from the castles (or loyalty) table, with the points effects gave, as the rules set
    counts them."""
    how = count(g)
    if how == CASTLES:
        return table
    if how == POINTS:
        return {h: points(g, h) for h in table}
    return {h: n + points(g, h) for h, n in table.items()}


def reached(g: Game, table: dict[str, int], may_win) -> list[str]:
    """The houses at or over their threshold now, in turn order."""
    return [h for h in g.turn_order if may_win(h) and table.get(h, 0) >= threshold(g, h)]


def check_now(g: Game, at_round_end: bool) -> bool:
    """Is a threshold victory decided at this check? At once: every check; at the end of a round: only there."""
    mode = when(g)
    return mode == AT_ONCE or (mode == END_OF_ROUND and at_round_end)
