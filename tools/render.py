"""Draw a position as SVG: the board laid out from the content's geometry (`at X Y`), and the tracks beside it.

The picture has three layers: a static one (sea, borders, area markers and names, all from the bundle), a
dynamic one (who controls what, units, orders, tokens, the side panel: all from the state) and the labels on
top. `render_svg` gives the whole picture; `render_parts` gives the static frame and the dynamic layer apart,
so `maester view` embeds the frame once and one dynamic layer per step.

Every drawn thing carries a class and data attributes (`data-area`, `data-house`, `data-order`...), so the
picture can be read back by tests and scripts, not only looked at.
"""

from __future__ import annotations

from dataclasses import dataclass
from html import escape

from maester.interpreter.board import LAND, PORT, SEA, Board
from maester.interpreter.game import Game
from maester.interpreter.mod import ModOptions, new_game
from maester.interpreter.rules import Rules
from maester.interpreter.state import GameState

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


def frame_of(board: Board) -> Frame:
    missing = [a.id for a in board.areas if not a.at]
    if missing:
        from maester.dsl.diagnostics import Diagnostics, MaesterError

        diags = Diagnostics()
        diags.error("no-geometry", f"board '{board.id}': {len(missing)} area(s) have no position "
                    f"({', '.join(missing[:5])}{'...' if len(missing) > 5 else ''})", None,
                    "give every area and port `at X Y` in its board file (see docs/dsl.md)")
        raise MaesterError(diags)
    # room on the left for the westernmost names (the content's x may start near 0)
    shift = max(0, 2 * MARGIN - min(int(a.at[0]) for a in board.areas))
    pos = {a.id: (int(a.at[0]) + shift, int(a.at[1])) for a in board.areas}
    right = max(x for x, _ in pos.values()) + MARGIN + 40
    bottom = max(y for _, y in pos.values()) + MARGIN
    essos = [pos[a.id][0] for a in board.areas if a.side == "essos"]
    essos_left = min(essos) - 70 if essos else None
    return Frame(board, pos, right + PANEL_WIDTH, max(bottom, 1100), right, essos_left)


# ---- the static layers --------------------------------------------------------------------------------
def _static(frame: Frame, title: str, label_scale: float = 1.0) -> tuple[str, str]:
    """The background, borders and area markers (below the dynamic layer) and the labels (above it)."""
    b, pos = frame.board, frame.positions
    out = [f'<rect class="sea-background" x="0" y="0" width="{frame.map_width}" height="{frame.height}" '
           f'fill="{SEA_COLOUR}"/>']
    if frame.essos_left is not None:
        out.append(f'<rect class="essos-board" x="{frame.essos_left}" y="{MARGIN // 2}" '
                   f'width="{frame.map_width - frame.essos_left - 10}" height="{frame.height - MARGIN}" rx="18" '
                   f'fill="{ESSOS_SEA_COLOUR}" stroke="#5d7b8a" stroke-dasharray="6 4"/>')
        out.append(f'<text class="board-title" x="{frame.essos_left + 14}" y="{MARGIN // 2 + 26}" '
                   f'font-size="20" fill="#34495e">Essos</text>')
    out.append(f'<text class="board-title" x="16" y="30" font-size="22" fill="#1b2631">{escape(title)}</text>')
    out.append('<g id="borders">')
    for a, c in sorted(tuple(sorted(e)) for e in b.graph.edges):
        (x1, y1), (x2, y2) = pos[a], pos[c]
        link = frozenset((a, c)) in b.links
        style = (f'stroke="{LINK_COLOUR}" stroke-width="3" stroke-dasharray="10 6"' if link
                 else f'stroke="{BORDER_COLOUR}" stroke-width="2"')
        out.append(f'<line class="{"link" if link else "border"}" data-from="{a}" data-to="{c}" '
                   f'x1="{x1}" y1="{y1}" x2="{x2}" y2="{y2}" {style}/>')
    out.append('</g><g id="markers">')
    for area in b.areas:
        x, y = pos[area.id]
        r = MARKER_RADIUS[area.kind]
        fill = {LAND: LAND_COLOUR, SEA: SEA_MARKER, PORT: PORT_MARKER}[area.kind]
        out.append(f'<circle class="marker {area.kind}" data-area="{area.id}" cx="{x}" cy="{y}" r="{r}" '
                   f'fill="{fill}" stroke="#4d4d4d" stroke-width="1.5"><title>{escape(area.name)}</title></circle>')
    out.append("</g>")
    labels = ['<g id="labels" font-family="DejaVu Sans, Arial, sans-serif" text-anchor="middle">']
    placed = _place_labels(frame, label_scale)
    for area in b.areas:
        x, y = pos[area.id]
        labels.extend(_icons(area, x, y))
        lx, ly, anchor, size = placed[area.id]
        name = "port" if area.is_port else escape(area.name)
        style = "font-style:italic" if area.is_sea else "font-weight:bold" if area.has_castle else ""
        where = (f'x="{lx:.0f}" y="{ly:.0f}" font-size="{size}" text-anchor="{anchor}" style="{style}"')
        # the halo is a text of its own: not every SVG renderer knows paint-order
        labels.append(f'<text class="halo" {where} stroke="#ffffff" stroke-width="3.5" fill="#ffffff" '
                      f'stroke-linejoin="round" aria-hidden="true">{name}</text>')
        labels.append(f'<text class="label" data-area="{area.id}" {where} fill="#1b1b1b">{name}</text>')
    labels.append("</g>")
    return "\n".join(out), "\n".join(labels)


def _place_labels(frame: Frame, scale: float) -> dict[str, tuple[float, float, str, float]]:
    """Each name below its marker, or above, right or left of it where that overlaps fewer markers and names.

    Greedy, in a fixed order (lands, seas, ports), on boxes estimated from the text length: the same board
    always gets the same picture."""
    pos, areas = frame.positions, frame.board.areas
    boxes = [(x - MARKER_RADIUS[a.kind], y - MARKER_RADIUS[a.kind], x + MARKER_RADIUS[a.kind],
              y + MARKER_RADIUS[a.kind]) for a in areas for x, y in [pos[a.id]]]
    out: dict[str, tuple[float, float, str, float]] = {}
    order = sorted(areas, key=lambda a: ({LAND: 0, SEA: 1, PORT: 2}[a.kind], a.id))
    for area in order:
        x, y = pos[area.id]
        r = MARKER_RADIUS[area.kind]
        size = round((10 if area.is_port else 12) * scale, 1)
        width = 0.6 * size * len("port" if area.is_port else area.name)
        gap = r + 2
        options = [(x, y + gap + size, "middle"), (x, y - gap - 3, "middle"),
                   (x + gap, y + size * 0.35, "start"), (x - gap, y + size * 0.35, "end")]

        scored = [(_overlap(_box(o, width, size), boxes, frame.map_width), i) for i, o in enumerate(options)]
        best = options[min(scored)[1]]
        boxes.append(_box(best, width, size))
        out[area.id] = (best[0], best[1], best[2], size)
    return out


Box = tuple[float, float, float, float]


def _box(option: tuple[float, float, str], width: float, size: float) -> Box:
    lx, ly, anchor = option
    left = lx - width / 2 if anchor == "middle" else lx if anchor == "start" else lx - width
    return (left, ly - size * 0.8, left + width, ly + size * 0.2)


def _overlap(box: Box, others: list[Box], right: float) -> float:
    total = 0.0
    for ox in others:
        w = min(box[2], ox[2]) - max(box[0], ox[0])
        h = min(box[3], ox[3]) - max(box[1], ox[1])
        if w > 0 and h > 0:
            total += w * h
    return total + (1e6 if box[0] < 0 or box[2] > right else 0.0)  # off the map: the last resort


def _icons(area, x: int, y: int) -> list[str]:
    """The printed icons, drawn: a tower on top for a castle (two for a stronghold), supply barrels (brown) and
    power crowns (gold) along the marker's foot."""
    out = []
    r = MARKER_RADIUS[area.kind]
    towers = {"castle": 1, "stronghold": 2}.get(area.castle, 0)
    for i in range(towers):
        tx = x - 6 * towers + 12 * i + 1
        out.append(f'<path class="icon {area.castle}" d="M{tx} {y - r + 9}v-10h2v2h2v-2h2v2h2v-2h2v10z" '
                   'fill="#5d4037" stroke="#fff" stroke-width="0.8"/>')
    icons = [("supply", "#8d5524")] * area.supply + [("power", "#d4ac0d")] * area.power
    left = x - (len(icons) - 1) * 5
    for i, (kind, colour) in enumerate(icons):
        ix = left + i * 10
        shape = (f'<circle cx="{ix}" cy="{y + r - 5}" r="4"' if kind == "supply"
                 else f'<path d="M{ix - 4} {y + r - 2}v-6l2 3l2-4l2 4l2-3v6z"')
        out.append(f'{shape} class="icon {kind}" fill="{colour}" stroke="#fff" stroke-width="0.8"/>')
    return out


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
    return house == viewer or game.state.commanders.get(house) == viewer


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
        if owner and area.is_land:
            out.append(f'<circle class="control" cx="{x}" cy="{y}" r="{r}" fill="{house_colour(owner, houses)}" '
                       f'stroke="#222" stroke-width="{3 if area.has_castle else 1.5}"/>')
        elif owner:
            out.append(f'<circle class="control" cx="{x}" cy="{y}" r="{r + 2}" fill="none" '
                       f'stroke="{house_colour(owner, houses)}" stroke-width="5"/>')
        if area.id in state.blocked:
            out.append(f'<path class="blocked" d="M{x - r} {y - r}L{x + r} {y + r}M{x + r} {y - r}L{x - r} {y + r}" '
                       'stroke="#000" stroke-width="4"/>')
        out.extend(_pieces(area, x, y, r, game, viewer, face_down, houses))
        out.append("</g>")
        pieces.append("".join(out))
    pieces.append("</g>")
    if combat:
        pieces.append(_combat(frame, combat, houses))
    pieces.extend(_panel(frame, game, caption, combat))
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
    loyalty = st.loyalty.get(area.id, 0)
    if loyalty:
        out.append(f'<g class="loyalty" data-count="{loyalty}"><circle cx="{x + r * 0.8:.1f}" cy="{y + r * 0.8:.1f}" '
                   f'r="8" fill="#f5b041" stroke="#7e5109" stroke-width="1.5"/><text x="{x + r * 0.8:.1f}" '
                   f'y="{y + r * 0.8 + 3.5:.1f}" font-size="10" text-anchor="middle">{loyalty}</text>'
                   f'<title>{loyalty} loyalty token(s)</title></g>')
    for i, imp in enumerate(st.improvements.get(area.id, [])):
        out.append(f'<text class="improvement" data-improvement="{escape(imp)}" x="{x}" '
                   f'y="{y + LABEL_GAP + 13 + 11 * i}" font-size="10" text-anchor="middle" fill="#6e2c00" '
                   f'stroke="#fff" stroke-width="2.5" paint-order="stroke">{escape(imp)}</text>')
    return out


def _panel(frame: Frame, game: Game, caption: str, combat: dict | None = None) -> list[str]:
    """Beside the board: round, wildlings, the influence tracks, supply, victory, power, tokens, the bank."""
    st, rules = game.state, game.rules
    houses = list(st.houses)
    x0, line = frame.map_width + 16, 24
    y = 36
    rows: list[str] = [f'<g id="panel" font-size="13"><rect x="{frame.map_width}" y="0" width="{PANEL_WIDTH}" '
                       f'height="{frame.height}" fill="#fbf8ef" stroke="#ccc"/>']

    def text(s: str, cls: str = "", size: int = 13, bold: bool = False, **data) -> None:
        nonlocal y
        extra = "".join(f' data-{k.replace("_", "-")}="{escape(str(v))}"' for k, v in data.items())
        weight = ' font-weight="bold"' if bold else ""
        rows.append(f'<text class="{cls}" x="{x0}" y="{y}" font-size="{size}"{weight}{extra}>{escape(s)}</text>')
        y += line if size <= 13 else line + 4

    def chips(items: list[tuple[str, str]], cls: str, **data) -> None:
        nonlocal y
        extra = "".join(f' data-{k}="{escape(str(v))}"' for k, v in data.items())
        rows.append(f'<g class="{cls}"{extra}>')
        for i, (house, note) in enumerate(items):
            cx = x0 + i * 50
            fill = house_colour(house, houses)
            rows.append(f'<g class="chip" data-house="{house}" data-position="{i + 1}"><rect x="{cx}" y="{y - 14}" '
                        f'width="46" height="20" rx="4" fill="{fill}" stroke="#000"/><text x="{cx + 23}" y="{y + 1}" '
                        f'font-size="10" text-anchor="middle" fill="{text_colour(fill)}">{escape(note)}</text>'
                        f'<title>{house}</title></g>')
        rows.append("</g>")
        y += line + 4

    text(caption, "caption", 12)
    text(f"Round {st.round} of {game.game_rec['max_rounds']} — {st.phase}", "round", 16, True, round=st.round)
    wt = game.game_rec.get("wildling_track") or []
    text(f"Wildling threat {st.wildling_threat}" + (f" of {max(wt)}" if wt else ""), "wildlings",
         threat=st.wildling_threat)
    if st.winner:
        text(f"Winner: {st.winner} ({st.end_reason or ''})", "winner", 14, True, house=st.winner)
    if combat:
        text(f"Combat in {frame.board.area(combat['area']).name}", "combat-title", 13, True, area=combat["area"])
        text(f"{combat['attacker']} attacks {combat['defender']}", "combat-sides", 12)
    if not st.turn_track:  # a log's first step: the rules have not set the game up yet
        text("before the setup: no house, track or unit yet", "setup", 12)
        rows.append("</g>")
        return rows
    for track in game.track_ids():
        token = game.token_of_track(track)
        holder = game.holder(token) if st.tracks.get(track) else "—"  # before the setup, no track is filled
        text(f"{rules.tracks[track]['name']} — {rules.tracks[track]['dominance_token']['name']}: {holder}",
             "track-title", 13, True, track=track, token=token, holder=holder)
        chips([(h, f"{i + 1} {h[:4]}") for i, h in enumerate(st.tracks.get(track, []))], "track", track=track)
    text("Supply, victory, power", "title", 13, True)
    for label, dx in (("house", 0), ("supply", 160), ("victory", 215), ("power", 275), ("cards", 325)):
        rows.append(f'<text class="table-head" x="{x0 + dx}" y="{y}" font-size="11" fill="#555">{label}</text>')
    y += 18
    for h in game.turn_order:
        hs = st.houses[h]
        vassal = " (vassal)" if game.is_vassal(h) else ""
        rows.append(f'<g class="house-row" data-house="{h}" data-supply="{hs.supply}" '
                    f'data-victory="{game.victory_points(h)}" data-power="{hs.power}">'
                    f'<rect x="{x0}" y="{y - 12}" width="12" height="12" fill="{house_colour(h, houses)}" '
                    f'stroke="#000"/><text x="{x0 + 18}" y="{y}" font-size="12">{escape(h + vassal)}</text>'
                    f'<text x="{x0 + 170}" y="{y}" font-size="12">{hs.supply}</text>'
                    f'<text x="{x0 + 225}" y="{y}" font-size="12">{game.victory_points(h)}</text>'
                    f'<text x="{x0 + 285}" y="{y}" font-size="12">{hs.power}</text>'
                    f'<text x="{x0 + 335}" y="{y}" font-size="12">{len(hs.hand)}</text></g>')
        y += 20
    y += 8
    if st.blade_used or st.raven_used:
        text("used this round: " + ", ".join(n for n, used in (("Valyrian Steel Blade", st.blade_used),
                                                               ("Messenger Raven", st.raven_used)) if used),
             "tokens-used", 12)
    if st.bank:
        costs = game.game_rec.get("loan_costs") or []
        text("Iron Bank", "title", 13, True)
        for i, loan in enumerate(st.bank):
            cost = costs[i] if i < len(costs) else "?"
            name = rules.bundle["loans"].get(loan, {}).get("name", loan) if loan else "(empty)"
            text(f"slot {i + 1} (cost {cost}): {name}", "bank-slot", 12, slot=i + 1, loan=loan or "")
        if st.loans:
            for h, loans in sorted(st.loans.items()):
                if loans:
                    text(f"{h}: {', '.join(loans)}", "loans", 11, house=h)
        if st.discount_holder:
            text(f"loan discount: {st.discount_holder}", "discount", 12, house=st.discount_holder)
    if st.dragon_strength or st.dragon_tokens:
        text(f"Dragon strength {st.dragon_strength}", "dragons", 12, strength=st.dragon_strength)
    if st.vassals:
        text("Vassals: " + ", ".join(f"{v}" + (f" (commanded by {st.commanders[v]})" if v in st.commanders else "")
                                     for v in st.vassals), "vassals", 11)
    rows.append(_legend(x0, max(y + 10, frame.height - 175)))
    rows.append("</g>")
    return rows


def _legend(x0: int, y: int) -> str:
    items = ["F footman  K knight  S ship  E siege engine  D dragon", "grey and turned: a routed unit",
             "white disc: an order face up; dark disc: face down", "gold-rimmed disc: a power token",
             "square: garrison (house colour), neutral force (grey)", "gold disc: loyalty tokens",
             "towers: castle (1), stronghold (2)", "brown dots: supply; gold crowns: power",
             "dashed blue lines: the Westeros-Essos sea links"]
    return "".join(f'<text class="legend" x="{x0}" y="{y + 18 * i}" font-size="11" fill="#555">{escape(s)}</text>'
                   for i, s in enumerate(items))


# ---- entry points ---------------------------------------------------------------------------------------
def svg_open(frame: Frame) -> str:
    return (f'<svg xmlns="http://www.w3.org/2000/svg" class="maester-board" data-board="{frame.board.id}" '
            f'width="{frame.width}" height="{frame.height}" viewBox="0 0 {frame.width} {frame.height}">')


def render_parts(rules: Rules, state: GameState, viewer: str | None = VIEW_ALL, face_down: bool = False,
                 caption: str = "", combat: dict | None = None) -> tuple[str, str, str]:
    """(frame below, dynamic layer, frame above): the SVG is `svg_open + below + dynamic + above + </svg>`."""
    board = rules.board(state.board)
    frame = frame_of(board)
    below, above = _static(frame, rules.bundle["boards"][board.id]["name"])
    layer = "\n".join(dynamic_pieces(frame, rules, state, viewer, face_down, caption, combat))
    return below, f"{DYNAMIC_OPEN}\n{layer}\n{DYNAMIC_CLOSE}", above


def render_svg(rules: Rules, state: GameState, viewer: str | None = VIEW_ALL, face_down: bool = False,
               caption: str = "", combat: dict | None = None) -> str:
    below, dynamic, above = render_parts(rules, state, viewer, face_down, caption, combat)
    frame = frame_of(rules.board(state.board))
    return f"{svg_open(frame)}\n{below}\n{dynamic}\n{above}\n</svg>\n"


def board_svg(rules: Rules, board_id: str, label_scale: float = 1.0) -> str:
    """The empty board (docs pictures): the static layers only; larger names for a picture shown small."""
    board = rules.board(board_id)
    frame = frame_of(board)
    below, above = _static(frame, rules.bundle["boards"][board_id]["name"], label_scale)
    return (f'<svg xmlns="http://www.w3.org/2000/svg" class="maester-board" data-board="{board_id}" '
            f'width="{frame.map_width}" height="{frame.height}" viewBox="0 0 {frame.map_width} {frame.height}">'
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
