"""The static layers of a board picture, all from the bundle: the sea, the borders, the area markers below
the pieces, and the names and printed icons above them."""

from __future__ import annotations

from html import escape

from maester.interpreter.core.board import LAND, PORT, SEA

from .map_shapes import svg_path
from .render_style import (
    BORDER_COLOUR,
    CHANNEL_COLOUR,
    LAND_COLOUR,
    LINK_COLOUR,
    MARGIN,
    MARKER_RADIUS,
    OFF_BOARD,
    PORT_MARKER,
    REGION_EDGE,
    SEA_COLOUR,
    SEA_MARKER,
    Frame,
)


def static_layers(frame: Frame, title: str, label_scale: float = 1.0) -> tuple[str, str]:
    """The background, the regions, the sea links and the (invisible) area markers below the dynamic layer;
    the names and printed icons above it."""
    b, pos = frame.board, frame.positions
    out = [f'<rect class="off-board" x="0" y="0" width="{frame.map_width}" height="{frame.height}" '
           f'fill="{OFF_BOARD}"/>']
    if frame.essos_left is not None:
        out.append(f'<rect class="essos-board" x="{frame.essos_left}" y="{MARGIN // 2}" '
                   f'width="{frame.map_width - frame.essos_left - 10}" height="{frame.height - MARGIN}" rx="18" '
                   f'fill="{OFF_BOARD}" stroke="#8a7f66" stroke-dasharray="6 4"/>')
        out.append(f'<text class="board-title" x="{frame.essos_left + 14}" y="{MARGIN // 2 + 26}" '
                   f'font-size="20" fill="#34495e">Essos</text>')
    out.append(f'<text class="board-title" x="16" y="30" font-size="22" fill="#1b2631">{escape(title)}</text>')
    shapes = frame.shapes
    if shapes is not None:
        # each region once, as a shape the dynamic layer reuses to colour it by its controller
        out.append("<defs>" + "".join(f'<path id="shape-{a}" d="{svg_path(g)}" fill-rule="evenodd"/>'
                                       for a, g in sorted(shapes.regions.items()))
                   + '<pattern id="blocked-hatch" width="10" height="10" patternUnits="userSpaceOnUse" '
                     'patternTransform="rotate(45)"><rect width="10" height="10" fill="#b8b2a4"/>'
                     '<line x1="0" y1="0" x2="0" y2="10" stroke="#8a8478" stroke-width="4"/></pattern></defs>')
        out.append('<g id="coasts">' + "".join(
            f'<path class="outline" data-side="{side}" d="{svg_path(g)}" fill="{CHANNEL_COLOUR}" '
            f'stroke="{CHANNEL_COLOUR}" stroke-width="3" stroke-linejoin="round"/>'
            for side, g in sorted(shapes.outlines.items())) + "</g>")
        out.append('<g id="regions">')
        for area in b.areas:
            fill = {LAND: LAND_COLOUR, SEA: SEA_COLOUR, PORT: PORT_MARKER}[area.kind]
            out.append(f'<use href="#shape-{area.id}" class="region {area.kind}" data-area="{area.id}" '
                       f'fill="{fill}" stroke="{REGION_EDGE}" stroke-width="1.2" stroke-linejoin="round">'
                       f'<title>{escape(area.name)}</title></use>')
        out.append("</g>")
    out.append('<g id="borders">')
    for a, c in sorted(tuple(sorted(e)) for e in b.graph.edges):
        link = frozenset((a, c)) in b.links
        if shapes is not None and not link:
            continue  # the regions show the borders; only the sea links cross between the boards
        (x1, y1), (x2, y2) = pos[a], pos[c]
        style = (f'stroke="{LINK_COLOUR}" stroke-width="3" stroke-dasharray="10 6"' if link
                 else f'stroke="{BORDER_COLOUR}" stroke-width="2"')
        out.append(f'<line class="{"link" if link else "border"}" data-from="{a}" data-to="{c}" '
                   f'x1="{x1}" y1="{y1}" x2="{x2}" y2="{y2}" {style}/>')
    out.append('</g><g id="markers">')
    for area in b.areas:
        x, y = pos[area.id]
        r = MARKER_RADIUS[area.kind]
        if shapes is not None:  # where the pieces of the area go; the region is what is seen
            out.append(f'<circle class="marker {area.kind}" data-area="{area.id}" cx="{x}" cy="{y}" r="{r}" '
                       'fill="none" stroke="none"/>')
            continue
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
