"""What the board pictures are made of: sizes, colours, glyphs, and the frame (where every area sits).

Shared by the static board (render_board), the side panel (render_panel) and the position (render).
"""

from __future__ import annotations

from dataclasses import dataclass

from maester.dsl.diagnostics import Diagnostics, MaesterError
from maester.interpreter.core.board import LAND, PORT, SEA, Board

from .map_shapes import MapShapes, moved, shapes

# ---- sizes (map units; the content's `at X Y` are in the same units) -----------------------------------
MARKER_RADIUS = {LAND: 24, SEA: 24, PORT: 10}
MARGIN = 60
PANEL_WIDTH = 430
LABEL_GAP = 36  # from the marker's centre to its name

# ---- colours: declared once -----------------------------------------------------------------------------
HOUSE_COLOURS = {
    "stark": "#e8e8e8", "lannister": "#c0392b", "baratheon": "#f4d03f", "greyjoy": "#2f2f2f",
    "tyrell": "#2e8b57", "martell": "#e67e22", "arryn": "#5dade2", "targaryen": "#7d3c98",
}
FALLBACK_COLOURS = ("#8d6e63", "#16a085", "#d35400", "#34495e")
DARK_HOUSES_TEXT = "#ffffff"
SEA_COLOUR, ESSOS_SEA_COLOUR, LAND_COLOUR = "#a9cce3", "#b5d3e0", "#efe3c2"
OFF_BOARD, CHANNEL_COLOUR, REGION_EDGE = "#d8d2c0", "#4f7fa3", "#6b5a48"  # around the map, rivers, region rims
SEA_MARKER, PORT_MARKER, BORDER_COLOUR, LINK_COLOUR = "#7fb3d5", "#d6eaf8", "#7b6a58", "#1f5f9f"

# ---- glyphs: what the pieces are drawn as ---------------------------------------------------------------
UNIT_GLYPHS = {"footman": "F", "knight": "K", "ship": "S", "siege-engine": "E", "dragon": "D"}
ORDER_LETTERS = {"march": "M", "defense": "D", "support": "S", "raid": "R", "consolidate-power": "CP",
                 "iron-bank": "IB", "raid-or-support": "R/S", "defense-or-muster": "D/M"}

# who may see orders that lie face down: everyone (default), nobody, or one house
VIEW_ALL, VIEW_PUBLIC = None, "public"


def house_colour(house: str | None, houses: list[str]) -> str:
    if house is None:
        return LAND_COLOUR
    if house in HOUSE_COLOURS:
        return HOUSE_COLOURS[house]
    return FALLBACK_COLOURS[sorted(houses).index(house) % len(FALLBACK_COLOURS)] if house in houses else "#999999"


def blend(colour: str, under: str, share: float) -> str:
    """`colour` laid over `under` at `share` opacity (a region tinted by its controller, its nature showing)."""
    a = [int(colour[i:i + 2], 16) for i in (1, 3, 5)]
    b = [int(under[i:i + 2], 16) for i in (1, 3, 5)]
    return "#" + "".join(f"{round(x * share + y * (1 - share)):02x}" for x, y in zip(a, b, strict=True))


def text_colour(fill: str) -> str:
    r, g, b = (int(fill[i:i + 2], 16) for i in (1, 3, 5))
    return "#000000" if 0.299 * r + 0.587 * g + 0.114 * b > 140 else DARK_HOUSES_TEXT


def order_label(order: dict) -> str:
    """A token's face as printed: its letter, its modifier and a star (M+1, D+2★, CP★)."""
    letter = ORDER_LETTERS.get(order["type"], order["type"][:2].upper())
    value = order.get("value")
    mod = "" if value is None or order["type"] in ("consolidate-power", "iron-bank") else f"{value:+d}"
    if order["type"] == "support" and value == 0:
        mod = ""
    return f"{letter}{mod}{'★' if order.get('star') else ''}"


@dataclass(frozen=True)
class Frame:
    """Where things go: the board's areas and the picture's size."""

    board: Board
    positions: dict[str, tuple[int, int]]
    width: int
    height: int
    map_width: int
    essos_left: int | None  # x where the Essos side board starts, if the board has it
    shapes: MapShapes | None = None  # each area's region (tools/map_shapes.py)


def frame_of(board: Board) -> Frame:
    missing = [a.id for a in board.areas if not a.at]
    if missing:
        diags = Diagnostics()
        diags.error("no-geometry", f"board '{board.id}': {len(missing)} area(s) have no position "
                    f"({', '.join(missing[:5])}{'...' if len(missing) > 5 else ''})", None,
                    "give every area and port `at X Y` in its board file (see docs/dsl.md)")
        raise MaesterError(diags)
    # room on the left for the westernmost names (the content's x may start near 0)
    shift = max(0, 2 * MARGIN - min(int(a.at[0]) for a in board.areas))
    regions = moved(shapes(board, {a.id: (int(a.at[0]), int(a.at[1])) for a in board.areas}), shift, 0)
    # the pieces go where the map puts the area (its position, nudged where borders would have crossed)
    pos = {a: (round(x), round(y)) for a, (x, y) in regions.anchors.items()}
    right = max(x for x, _ in pos.values()) + MARGIN + 40
    bottom = max(y for _, y in pos.values()) + MARGIN
    essos = [pos[a.id][0] for a in board.areas if a.side == "essos"]
    essos_left = min(essos) - 70 if essos else None
    drawn = [g.bounds for g in regions.regions.values() if not g.is_empty]
    right = max(right, int(max((b[2] for b in drawn), default=0)) + 20)
    bottom = max(bottom, int(max((b[3] for b in drawn), default=0)) + 20)
    return Frame(board, pos, right + PANEL_WIDTH, max(bottom, 1100), right, essos_left, regions)
