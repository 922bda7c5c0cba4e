"""Draw a position as SVG: the board laid out from the content's geometry (`at X Y`), and the tracks beside it.

The picture has three layers: a static one (sea, borders, area markers and names, all from the bundle), a
dynamic one (who controls what, units, orders, tokens, the side panel: all from the state) and the labels on
top. `render_svg` gives the whole picture; `render_parts` gives the static frame and the dynamic layer apart,
so `maester view` embeds the frame once and one dynamic layer per step.

Every drawn thing carries a class and data attributes (`data-area`, `data-house`, `data-order`...), so the
picture can be read back by tests and scripts, not only looked at.
"""

from __future__ import annotations

from html import escape

from maester.interpreter.core.rules import Rules
from maester.interpreter.core.state import GameState
from maester.interpreter.mod import ModOptions, new_game
from maester.interpreter.mod.state import DragonsState
from maester.interpreter.procedures.game import Game

from .render_board import static_layers
from .render_panel import panel
from .render_style import (  # noqa: F401  (MARKER_RADIUS and the viewers are part of this module's interface)
    LAND_COLOUR,
    MARKER_RADIUS,
    REGION_EDGE,
    SEA_COLOUR,
    UNIT_GLYPHS,
    VIEW_ALL,
    VIEW_PUBLIC,
    Frame,
    blend,
    frame_of,
    house_colour,
    order_label,
    text_colour,
)


# ---- the dynamic layer ---------------------------------------------------------------------------------
def _game(rules: Rules, state: GameState) -> Game:
    """An engine view of the state (not started): control, victory and dominance come from the rules."""
    return new_game(rules, state.setup, seed=state.seed, state=state, start=False,
                    options=ModOptions(tides_of_battle=state.tides_of_battle))


def _visible(game: Game, house: str, viewer: str | None) -> bool:
    """Whether `viewer` sees this house's face-down orders: its own, and its vassals' this round (R34.1)."""
    if viewer is VIEW_ALL:
        return True
    if viewer == VIEW_PUBLIC:
        return False
    return house == viewer or DragonsState.of(game.state).commanders.get(house) == viewer


DYNAMIC_OPEN, DYNAMIC_CLOSE = '<g id="dynamic" font-family="DejaVu Sans, Arial, sans-serif">', "</g>"


def dynamic_pieces(frame: Frame, rules: Rules, state: GameState, viewer: str | None = VIEW_ALL,
                   face_down: bool = False, caption: str = "", combat: dict | None = None) -> list[str]:
    """The dynamic layer's content in pieces (one per area, one per panel row): joined, they are the layer.

    `maester view` keeps each distinct piece once, so a step costs a list of numbers, not a picture."""
    game = _game(rules, state)
    houses = list(state.houses)
    pos, b = frame.positions, frame.board
    pieces = ['<g id="areas">']
    for area in b.areas:
        out: list[str] = []
        x, y = pos[area.id]
        r = MARKER_RADIUS[area.kind]
        owner = game.controller(area.id)
        attrs = f'class="area {area.kind}" data-area="{area.id}"' + (f' data-controller="{owner}"' if owner else "")
        if area.id in state.blocked:
            attrs += ' data-blocked="true"'
        out.append(f"<g {attrs}>")
        if owner and frame.shapes is not None:
            tint = blend(house_colour(owner, houses), LAND_COLOUR if area.is_land else SEA_COLOUR,
                         0.6 if area.is_land else 0.4)
            out.append(f'<use href="#shape-{area.id}" class="control" fill="{tint}" stroke="{REGION_EDGE}" '
                       f'stroke-width="1.2" stroke-linejoin="round"/>')
        elif owner and area.is_land:
            out.append(f'<circle class="control" cx="{x}" cy="{y}" r="{r}" fill="{house_colour(owner, houses)}" '
                       f'stroke="#222" stroke-width="{3 if area.has_castle else 1.5}"/>')
        elif owner:
            out.append(f'<circle class="control" cx="{x}" cy="{y}" r="{r + 2}" fill="none" '
                       f'stroke="{house_colour(owner, houses)}" stroke-width="5"/>')
        if area.id in state.blocked and frame.shapes is not None:  # out of the game: greyed and hatched
            out.append(f'<use href="#shape-{area.id}" class="blocked" fill="url(#blocked-hatch)" '
                       f'stroke="{REGION_EDGE}" stroke-width="1.2"><title>out of this game</title></use>')
        elif area.id in state.blocked:
            out.append(f'<path class="blocked" d="M{x - r} {y - r}L{x + r} {y + r}M{x + r} {y - r}L{x - r} {y + r}" '
                       'stroke="#000" stroke-width="4"/>')
        out.extend(_pieces(area, x, y, r, game, viewer, face_down, houses))
        out.append("</g>")
        pieces.append("".join(out))
    pieces.append("</g>")
    if combat:
        pieces.append(_combat(frame, combat, houses))
    pieces.extend(panel(frame, game, caption, combat))
    return pieces


def _combat(frame: Frame, combat: dict, houses: list[str]) -> str:
    """The combat under way: an arrow from where the attack came, and the attacking army (off the board
    until the combat ends, R16.4.2) drawn above the embattled area."""
    (x1, y1), (x2, y2) = frame.positions[combat["origin"]], frame.positions[combat["area"]]
    fill = house_colour(combat["attacker"], houses)
    units = combat["units"]
    r = MARKER_RADIUS[frame.board.area(combat["area"]).kind]
    left = x2 - len(units) * 13 / 2 + 1
    chips = "".join(f'<g class="unit" data-kind="{k}"><rect x="{left + i * 13:.1f}" y="{y2 - r - 22}" width="11" '
                    f'height="14" rx="2" fill="{fill}" stroke="#c0392b" stroke-width="2"/><text '
                    f'x="{left + i * 13 + 5.5:.1f}" y="{y2 - r - 11}" font-size="10" text-anchor="middle" '
                    f'fill="{text_colour(fill)}">{UNIT_GLYPHS.get(k, k[:1].upper())}</text></g>'
                    for i, k in enumerate(units))
    return (f'<g class="combat" data-area="{combat["area"]}" data-attacker="{combat["attacker"]}" '
            f'data-defender="{combat["defender"]}"><line x1="{x1}" y1="{y1}" x2="{x2}" y2="{y2}" stroke="#c0392b" '
            f'stroke-width="5" stroke-dasharray="12 5" opacity="0.8"/><circle cx="{x2}" cy="{y2}" r="{r + 6}" '
            f'fill="none" stroke="#c0392b" stroke-width="4"/><g class="attackers" data-house="{combat["attacker"]}" '
            f'data-count="{len(units)}">{chips}</g><title>combat in {combat["area"]}: {combat["attacker"]} '
            f'attacks {combat["defender"]}</title></g>')


def _pieces(area, x: int, y: int, r: int, game: Game, viewer, face_down: bool, houses: list[str]) -> list[str]:
    st = game.state
    ms = DragonsState.of(st)
    out: list[str] = []
    army = st.units.get(area.id)
    if army and army["units"]:
        fill = house_colour(army["house"], houses)
        units = army["units"]
        width = 13
        left = x - (len(units) * width) / 2 + 1
        out.append(f'<g class="units" data-house="{army["house"]}" data-count="{len(units)}">')
        for i, (kind, routed) in enumerate(units):
            ux = left + i * width
            glyph = UNIT_GLYPHS.get(kind, kind[:1].upper())
            cls = "unit routed" if routed else "unit"
            rot = f' transform="rotate(90 {ux + 5.5:.1f} {y + 1})"' if routed else ""
            out.append(f'<g class="{cls}" data-kind="{kind}"{rot}><rect x="{ux:.1f}" y="{y - 6}" width="11" '
                       f'height="14" rx="2" fill="{"#9e9e9e" if routed else fill}" stroke="#000" stroke-width="1"/>'
                       f'<text x="{ux + 5.5:.1f}" y="{y + 5}" font-size="10" text-anchor="middle" '
                       f'fill="{text_colour(fill) if not routed else "#000"}">{glyph}</text>'
                       f'<title>{kind}{" (routed)" if routed else ""}</title></g>')
        out.append("</g>")
    order = st.orders.get(area.id)
    if order:
        ox, oy = x + r * 0.8, y - r * 0.85
        fill = house_colour(order["house"], houses)
        if face_down and not _visible(game, order["house"], viewer):
            out.append(f'<g class="order face-down" data-house="{order["house"]}"><circle cx="{ox:.1f}" '
                       f'cy="{oy:.1f}" r="11" fill="#3b3b3b" stroke="{fill}" stroke-width="3"/>'
                       f'<title>a face-down order of {order["house"]}</title></g>')
        else:
            rec = game.rules.order(order["order"])
            label = order_label(rec)
            out.append(f'<g class="order face-up" data-house="{order["house"]}" data-order="{order["order"]}">'
                       f'<circle cx="{ox:.1f}" cy="{oy:.1f}" r="12" fill="#fdfefe" stroke="{fill}" stroke-width="3"/>'
                       f'<text x="{ox:.1f}" y="{oy + 3.5:.1f}" font-size="{9 if len(label) > 3 else 10}" '
                       f'text-anchor="middle" font-weight="bold">{escape(label)}</text>'
                       f'<title>{escape(rec["name"])} ({order["house"]})</title></g>')
    if area.id in st.power_tokens:
        h = st.power_tokens[area.id]
        out.append(f'<circle class="power-token" data-house="{h}" cx="{x - r * 0.8:.1f}" cy="{y + r * 0.8:.1f}" '
                   f'r="7" fill="{house_colour(h, houses)}" stroke="#b7950b" stroke-width="2.5">'
                   f'<title>power token of {h}</title></circle>')
    tokens = []
    if area.id in st.garrisons:
        tokens.append(("garrison", st.garrisons[area.id], house_colour(st.garrison_owner.get(area.id), houses),
                       f'data-house="{st.garrison_owner.get(area.id, "")}"'))
    if area.id in st.neutral_forces:
        tokens.append(("neutral-force", st.neutral_forces[area.id], "#7f8c8d", ""))
    for i, (cls, strength, fill, extra) in enumerate(tokens):
        tx, ty = x - r * 0.85 - i * 20, y - r * 0.85
        out.append(f'<g class="{cls}" data-strength="{strength}" {extra}><rect x="{tx - 9:.1f}" y="{ty - 9:.1f}" '
                   f'width="18" height="18" rx="3" fill="{fill}" stroke="#000"/><text x="{tx:.1f}" y="{ty + 4:.1f}" '
                   f'font-size="11" text-anchor="middle" font-weight="bold" fill="{text_colour(fill)}">{strength}'
                   f'</text><title>{cls.replace("-", " ")} {strength}</title></g>')
    loyalty = ms.loyalty.get(area.id, 0)
    if loyalty:
        out.append(f'<g class="loyalty" data-count="{loyalty}"><circle cx="{x + r * 0.8:.1f}" cy="{y + r * 0.8:.1f}" '
                   f'r="8" fill="#f5b041" stroke="#7e5109" stroke-width="1.5"/><text x="{x + r * 0.8:.1f}" '
                   f'y="{y + r * 0.8 + 3.5:.1f}" font-size="10" text-anchor="middle">{loyalty}</text>'
                   f'<title>{loyalty} loyalty token(s)</title></g>')
    for i, imp in enumerate(ms.improvements.get(area.id, [])):  # beside the marker, on the right
        where = f'x="{x + r + 3}" y="{y - 6 + 11 * i}" font-size="10" text-anchor="start"'
        word = escape(imp if imp.startswith("no-") else f"+{imp}")  # a degradation reads "no-castle"
        out.append(f'<text class="halo" {where} stroke="#ffffff" stroke-width="3" fill="#ffffff">{word}'
                   f'</text><text class="improvement" data-improvement="{escape(imp)}" {where} fill="#6e2c00">'
                   f'{word}</text>')
    return out


# ---- entry points ---------------------------------------------------------------------------------------
def svg_open(frame: Frame) -> str:
    return (f'<svg xmlns="http://www.w3.org/2000/svg" class="maester-board" data-board="{frame.board.id}" '
            f'width="{frame.width}" height="{frame.height}" viewBox="0 0 {frame.width} {frame.height}">')


def render_parts(rules: Rules, state: GameState, viewer: str | None = VIEW_ALL, face_down: bool = False,
                 caption: str = "", combat: dict | None = None) -> tuple[str, str, str]:
    """(frame below, dynamic layer, frame above): the SVG is `svg_open + below + dynamic + above + </svg>`."""
    board = rules.board(state.board)
    frame = frame_of(board)
    below, above = static_layers(frame, rules.bundle["boards"][board.id]["name"])
    layer = "\n".join(dynamic_pieces(frame, rules, state, viewer, face_down, caption, combat))
    return below, f"{DYNAMIC_OPEN}\n{layer}\n{DYNAMIC_CLOSE}", above


def render_svg(rules: Rules, state: GameState, viewer: str | None = VIEW_ALL, face_down: bool = False,
               caption: str = "", combat: dict | None = None) -> str:
    below, dynamic, above = render_parts(rules, state, viewer, face_down, caption, combat)
    frame = frame_of(rules.board(state.board))
    return f"{svg_open(frame)}\n{below}\n{dynamic}\n{above}\n</svg>\n"


def board_svg(rules: Rules, board_id: str, label_scale: float = 1.0, side: str | None = None) -> str:
    """The empty board (docs pictures): the static layers only; larger names for a picture shown small.

    `side="essos"` shows only the Essos side board (a close-up: the whole board is wide)."""
    board = rules.board(board_id)
    frame = frame_of(board)
    below, above = static_layers(frame, rules.bundle["boards"][board_id]["name"], label_scale)
    x0, y0, width, height = 0, 0, frame.map_width, frame.height
    if side == "essos" and frame.essos_left is not None:
        ys = [frame.positions[a.id][1] for a in board.areas if a.side == "essos"]
        x0, y0 = frame.essos_left - 75, max(0, min(ys) - 110)  # room for the westernmost names and the title
        width, height = frame.map_width - x0, max(ys) + 90 - y0
    return (f'<svg xmlns="http://www.w3.org/2000/svg" class="maester-board" data-board="{board_id}" '
            f'width="{width}" height="{height}" viewBox="{x0} {y0} {width} {height}">'
            f"\n{below}\n{above}\n</svg>\n")


def svg_to_png(svg: str, scale: float = 1.0) -> bytes:
    """Draw the SVG with CairoSVG (it needs the system's Cairo library: a clear error without it)."""
    try:
        import cairosvg
    except (ImportError, OSError) as e:
        from maester.dsl.diagnostics import Diagnostics, MaesterError

        diags = Diagnostics()
        diags.error("no-png-renderer", f"cannot draw a PNG: {e}", None,
                    "install Cairo (apt-get install libcairo2, brew install cairo) or ask for SVG")
        raise MaesterError(diags) from None
    return cairosvg.svg2png(bytestring=svg.encode("utf-8"), scale=scale)
