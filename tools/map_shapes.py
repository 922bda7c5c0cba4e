"""The board as a map: a filled region per area, made from the content's positions and borders alone.

No shape is stored in the content: any board a variant defines draws the same way. The construction, per side of
the board (Westeros, Essos; the sea links between them are drawn as lines, not shared coasts):

1. untangle: where two straight borders cross, nudge the fewest positions the least until none do (greedy and
   deterministic: the same board always gives the same map);
2. the star: each area owns the half of each of its borders nearest to it, so two bordering areas meet at the
   border's middle;
3. the stars, sampled densely, are the sites of a Voronoi diagram; an area's region is the union of the cells of
   its sites, clipped to the outline of the side (the stars thickened);
4. where two areas that do not border still touch, a thin channel is cut between them (it reads as a river or a
   strait, which is what keeps such areas apart on the printed board).

`tests/test_map_shapes.py` checks the result on every board: two regions share a boundary of positive length if
and only if their areas border, and no two regions overlap.
"""

from __future__ import annotations

import hashlib
import json
import math
import os
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import numpy as np
import shapely
from shapely.geometry import LineString, MultiPoint, Point, Polygon
from shapely.geometry.base import BaseGeometry

from maester.interpreter.core.board import Board

LAYOUT_VERSION = 1  # bump when the untangling changes: the cached layouts are then recomputed
SPACING = 5.0  # map units between the sampled sites of a star
OUTLINE = 58.0  # how far the outline of a side reaches past its stars
CHANNEL = 3.5  # half the width of the channel cut between areas that touch without bordering
MIN_SHARED = 1.0  # a shared boundary shorter than this is a touch at a point, not a border
NUDGE_STEPS = (4.0, 10.0, 24.0)
NUDGE_ROUNDS = 12
BEND_GRID, BEND_REACH, BEND_ROUNDS = 20.0, 120.0, 24
CLEARANCE = 30.0  # a border should pass this far from a third area's position (its pieces sit there)
PIECE_GAP = 14.0  # two areas' halves of borders should stay this far apart (closer, their regions interleave)
MOVE_COST = 400.0  # a nudge's cost: its squared length over this


@dataclass(frozen=True)
class MapShapes:
    regions: dict[str, BaseGeometry]  # area id -> its region (a Polygon, rarely a MultiPolygon)
    anchors: dict[str, tuple[float, float]]  # area id -> where its pieces go (the untangled position)
    outlines: dict[str, BaseGeometry]  # side -> the outline its regions fill


# ---- 1. untangling ---------------------------------------------------------------------------------------
def _seg_point(a: np.ndarray, b: np.ndarray, p: np.ndarray) -> np.ndarray:
    """Distance from points p to segments a-b (all arrays of the same broadcast shape (..., 2))."""
    d = b - a
    t = np.clip(((p - a) * d).sum(-1) / np.maximum((d * d).sum(-1), 1e-9), 0.0, 1.0)
    return np.sqrt(((a + t[..., None] * d - p) ** 2).sum(-1))


def _seg_seg(a: np.ndarray, b: np.ndarray, c: np.ndarray, e: np.ndarray) -> np.ndarray:
    """Distance between segments a-b and c-e (0 where they cross)."""
    def orient(p, q, r):
        return np.sign((q[..., 0] - p[..., 0]) * (r[..., 1] - p[..., 1])
                       - (q[..., 1] - p[..., 1]) * (r[..., 0] - p[..., 0]))
    cross = (orient(a, b, c) * orient(a, b, e) < 0) & (orient(c, e, a) * orient(c, e, b) < 0)
    d = np.minimum(np.minimum(_seg_point(a, b, c), _seg_point(a, b, e)),
                   np.minimum(_seg_point(c, e, a), _seg_point(c, e, b)))
    return np.where(cross, 0.0, d)


Route = list[tuple[float, float]]  # a border drawn from one area's position to the other's, maybe via a bend


def _halves(route: np.ndarray) -> tuple[list[np.ndarray], list[np.ndarray]]:
    """A border's polyline cut at half its length: the first area's segments and the second's."""
    lengths = np.sqrt(((route[1:] - route[:-1]) ** 2).sum(1))
    half = lengths.sum() / 2
    first: list[np.ndarray] = []
    second: list[np.ndarray] = []
    walked = 0.0
    for i, seg in enumerate(lengths):
        p, q = route[i], route[i + 1]
        if walked + seg <= half:
            first.append(np.array([p, q]))
        elif walked >= half:
            second.append(np.array([p, q]))
        else:
            m = p + (q - p) * ((half - walked) / max(seg, 1e-9))
            first.append(np.array([p, m]))
            second.append(np.array([m, q]))
        walked += seg
    return first, second


class _Layout:
    """The star pieces of a side (each area owns the half of each of its borders nearest to it) and how far
    they are from being drawable: pieces of different areas closer than PIECE_GAP (or crossing), and pieces
    passing closer than CLEARANCE to a third area's position."""

    def __init__(self, pos: np.ndarray, edges: np.ndarray):
        self.start = pos.copy()
        self.pos = pos.copy()
        self.edges = edges
        self.bends: dict[int, np.ndarray] = {}  # edge index -> the bend its border is drawn through
        self.nodes = len(pos)

    def route(self, k: int, pos: np.ndarray | None = None, bend: np.ndarray | None = None) -> np.ndarray:
        p = self.pos if pos is None else pos
        a, b = self.edges[k]
        w = self.bends.get(k) if bend is None else bend
        return np.array([p[a], p[b]]) if w is None else np.array([p[a], w, p[b]])

    def pieces(self, ks, pos: np.ndarray | None = None, bend: np.ndarray | None = None):
        """(segment starts, ends, owner, edge, other end) of the borders `ks`."""
        starts, ends, own, edge, other = [], [], [], [], []
        for k in ks:
            a, b = self.edges[k]
            first, second = _halves(self.route(k, pos, bend))
            for segs, o, t in ((first, a, b), (second, b, a)):
                for seg in segs:
                    starts.append(seg[0])
                    ends.append(seg[1])
                    own.append(o)
                    edge.append(k)
                    other.append(t)
        return np.array(starts), np.array(ends), np.array(own), np.array(edge), np.array(other)

    def badness(self, mine, others, pos: np.ndarray) -> np.ndarray:
        """Per piece of `mine`: how much it falls short of the gaps asked for, against the pieces `others`."""
        a, m, own, edge, other = mine
        b, n, own2, edge2, _ = others
        d = _seg_seg(a[:, None], m[:, None], b[None, :], n[None, :])
        exempt = (edge[:, None] == edge2[None, :]) | (own[:, None] == own2[None, :])
        short = np.where(exempt, 0.0, np.maximum(0.0, PIECE_GAP - d))
        dn = _seg_point(a[:, None], m[:, None], pos[None, :])
        nodes = np.arange(self.nodes)[None, :]
        near = np.where((nodes == own[:, None]) | (nodes == other[:, None]), 0.0, np.maximum(0.0, CLEARANCE - dn))
        return (short ** 2).sum(1) * 10.0 + (near ** 2).sum(1)

    def incident(self, node: int) -> list[int]:
        return [k for k, (a, b) in enumerate(self.edges) if node in (a, b)]

    def cost_of(self, ks: list[int], pos: np.ndarray, bend: np.ndarray | None = None, rest=None,
                node: int | None = None) -> float:
        """The badness of borders `ks` (drawn at `pos`, border ks[0] through `bend` if given) against all, and
        of the other borders (`rest`: their pieces) against `node`'s position."""
        mine = self.pieces(ks, pos, bend)
        if rest is None:
            rest = self.pieces([k for k in range(len(self.edges)) if k not in ks], pos)
        both = tuple(np.concatenate([x, y]) for x, y in zip(mine, rest, strict=True))
        total = float(self.badness(mine, both, pos).sum())
        if node is not None and len(rest[0]):
            a, m, own, _, other = rest
            dn = _seg_point(a, m, pos[node][None, :])
            total += float((np.where((own == node) | (other == node), 0.0,
                                     np.maximum(0.0, CLEARANCE - dn)) ** 2).sum())
        return total


def untangle(ids: list[str], spots: dict[str, tuple[float, float]], edges: list[tuple[str, str]]
             ) -> tuple[dict[str, tuple[float, float]], dict[tuple[str, str], Route]]:
    """Positions near the given ones, and a bend for the borders that need one, so that no two borders cross
    or run close and none runs over a third area. Greedy and deterministic: nudges first, then bends."""
    index = {a: i for i, a in enumerate(ids)}
    pos = np.array([spots[a] for a in ids], dtype=float)
    lay = _Layout(pos, np.array([(index[a], index[b]) for a, b in edges]).reshape(-1, 2))
    directions = [np.array((math.cos(k * math.pi / 4), math.sin(k * math.pi / 4))) for k in range(8)]
    everything = list(range(len(edges)))
    for _ in range(NUDGE_ROUNDS):
        if not edges:
            break
        allp = lay.pieces(everything)
        bad = lay.badness(allp, allp, lay.pos)
        if bad.sum() < 1e-6:
            break
        culprits = sorted({int(x) for x in np.concatenate([allp[2][bad > 0], allp[4][bad > 0]])})
        moved = False
        for n in culprits:
            ks = lay.incident(n)
            longest = max(np.linalg.norm(lay.pos[a] - lay.pos[b]) for a, b in lay.edges[ks])
            reach = longest + 2 * NUDGE_STEPS[-1] + CLEARANCE
            rest = lay.pieces([k for k in everything if k not in ks and _near_to(lay, k, lay.pos[n], reach)])
            here = lay.cost_of(ks, lay.pos, rest=rest, node=n) + ((lay.pos[n] - lay.start[n]) ** 2).sum() / MOVE_COST
            best, best_pos = here, None
            for step in NUDGE_STEPS:
                for d in directions:
                    trial = lay.pos.copy()
                    trial[n] += d * step
                    c = lay.cost_of(ks, trial, rest=rest, node=n) + ((trial[n] - lay.start[n]) ** 2).sum() / MOVE_COST
                    if c < best - 1e-6:
                        best, best_pos = c, trial
            if best_pos is not None:
                lay.pos, moved = best_pos, True
        if not moved:
            break
    _bend(lay)
    routes = {edges[k]: [tuple(map(float, p)) for p in lay.route(k)] for k in range(len(edges))}
    return {a: (float(lay.pos[i][0]), float(lay.pos[i][1])) for i, a in enumerate(ids)}, routes


def _near_to(lay: _Layout, k: int, point: np.ndarray, reach: float) -> bool:
    """Whether border k (bend included) comes within `reach` of `point` (a cheap box test)."""
    route = lay.route(k)
    lo, hi = route.min(0) - reach, route.max(0) + reach
    return bool((point >= lo).all() and (point <= hi).all())


def _bend(lay: _Layout) -> None:
    """Borders still in the way of others get drawn through a bend: the point of a grid that makes them
    clearest (the worst first; each choice is kept)."""
    if not len(lay.edges):
        return
    lo, hi = lay.pos.min(0) - BEND_REACH, lay.pos.max(0) + BEND_REACH
    grid = np.array([(x, y) for x in np.arange(lo[0], hi[0], BEND_GRID) for y in np.arange(lo[1], hi[1], BEND_GRID)])
    everything = list(range(len(lay.edges)))
    tried: set[int] = set()
    for _ in range(BEND_ROUNDS):
        allp = lay.pieces(everything)
        bad = lay.badness(allp, allp, lay.pos)
        per_edge = np.zeros(len(lay.edges))
        np.add.at(per_edge, allp[3], bad)
        if per_edge.max() < 1e-6:
            return
        if per_edge[[j for j in everything if j not in tried]].max(initial=0.0) < 1e-6:
            tried.clear()  # every bad border had its chance: give them another, now the others moved
        per_edge[list(tried)] = 0.0
        k = int(np.argmax(per_edge))
        tried.add(k)
        a, b = lay.edges[k]
        straight = np.linalg.norm(lay.pos[a] - lay.pos[b])
        middle = (lay.pos[a] + lay.pos[b]) / 2
        near = grid[np.linalg.norm(grid - middle, axis=1) < straight * 0.75 + BEND_REACH]
        reach = straight * 1.5 + BEND_REACH
        rest = lay.pieces([j for j in everything if j != k and _near_to(lay, j, middle, reach)])
        here = lay.cost_of([k], lay.pos, rest=rest)
        costs = _bend_costs(lay, k, near, rest) + (np.linalg.norm(near - lay.pos[a], axis=1)
                                                  + np.linalg.norm(near - lay.pos[b], axis=1) - straight) / 50.0
        i = int(np.argmin(costs))
        if costs[i] < here - 1e-6:
            lay.bends[k] = near[i]


def _bend_costs(lay: _Layout, k: int, grid: np.ndarray, rest) -> np.ndarray:
    """The badness of border k drawn through each bend of the grid (all at once), against the others."""
    a, b = lay.edges[k]
    pa, pb = lay.pos[a], lay.pos[b]
    l1 = np.linalg.norm(grid - pa, axis=1)
    l2 = np.linalg.norm(pb - grid, axis=1)
    half = (l1 + l2) / 2
    early = l1 >= half  # the middle lies on the first leg
    on_first = pa + (grid - pa) * (half / np.maximum(l1, 1e-9))[:, None]
    on_second = grid + (pb - grid) * ((half - l1) / np.maximum(l2, 1e-9))[:, None]
    mid = np.where(early[:, None], on_first, on_second)
    q1 = np.where(early[:, None], mid, grid)
    q2 = np.where(early[:, None], grid, mid)
    segments = [(np.broadcast_to(pa, grid.shape), q1, np.full(len(grid), a)),
                (q1, q2, np.where(early, b, a)),
                (q2, np.broadcast_to(pb, grid.shape), np.full(len(grid), b))]
    r0, r1, own2, _, _ = rest
    nodes = np.arange(lay.nodes)[None, :]
    total = np.zeros(len(grid))
    for s0, s1, owner in segments:
        if len(r0):
            d = _seg_seg(s0[:, None], s1[:, None], r0[None, :], r1[None, :])
            short = np.where(owner[:, None] == own2[None, :], 0.0, np.maximum(0.0, PIECE_GAP - d))
            total += (short ** 2).sum(1) * 10.0
        dn = _seg_point(s0[:, None], s1[:, None], lay.pos[None, :])
        near = np.where((nodes == a) | (nodes == b), 0.0, np.maximum(0.0, CLEARANCE - dn))
        total += (near ** 2).sum(1)
    return total


# ---- 2-4. the regions -------------------------------------------------------------------------------------
def _side_regions(ids: list[str], spots: dict[str, tuple[float, float]], routes: dict[tuple[str, str], Route]
                  ) -> tuple[dict[str, BaseGeometry], BaseGeometry]:
    sites: list[tuple[float, float]] = []
    owner: list[str] = []
    stars: list[BaseGeometry] = []
    for a in ids:
        sites.append(spots[a])
        owner.append(a)
        stars.append(Point(spots[a]))
    for (a, b), route in routes.items():
        first, second = _halves(np.array(route))
        for segs, o in ((first, a), (second, b)):
            for p, q in segs:
                n = max(1, int(np.linalg.norm(q - p) / SPACING))
                for k in range(1, n + 1):  # from just past p to q: the middle point is sampled by neither
                    t = (k - 0.5) / n
                    sites.append((float(p[0] + (q[0] - p[0]) * t), float(p[1] + (q[1] - p[1]) * t)))
                    owner.append(o)
        stars.append(LineString(route))
    seen: set[tuple[float, float]] = set()  # two borders may pass the same point: its first owner keeps it
    unique = [(p, o) for p, o in zip(sites, owner, strict=True)
              if (key := (round(p[0], 1), round(p[1], 1))) not in seen and not seen.add(key)]
    sites, owner = [p for p, _ in unique], [o for _, o in unique]
    outline = shapely.unary_union([g.buffer(OUTLINE, quad_segs=12) for g in stars])
    outline = _fill_holes(outline).simplify(1.0)
    cells = shapely.voronoi_polygons(MultiPoint(sites), extend_to=outline.envelope.buffer(10), ordered=True)
    parts: dict[str, list[BaseGeometry]] = {a: [] for a in ids}
    for cell, a in zip(cells.geoms, owner, strict=True):
        parts[a].append(cell)
    regions = {a: shapely.unary_union(parts[a]).intersection(outline) for a in ids}
    return regions, outline


def _fill_holes(geom: BaseGeometry) -> BaseGeometry:
    polys = list(getattr(geom, "geoms", [geom]))
    return shapely.unary_union([Polygon(p.exterior) for p in polys])


def _cut_channels(regions: dict[str, BaseGeometry], borders: set[frozenset[str]]) -> dict[str, BaseGeometry]:
    """Cut a thin channel along every boundary shared by two areas that do not border."""
    ids = sorted(regions)
    tree = shapely.STRtree([regions[a] for a in ids])
    cuts: dict[str, list[BaseGeometry]] = {a: [] for a in ids}
    for a in ids:
        for j in tree.query(regions[a]):
            b = ids[j]
            if b <= a or frozenset((a, b)) in borders:
                continue
            shared = regions[a].boundary.intersection(regions[b].boundary)
            if shared.length > 0:
                channel = shared.buffer(CHANNEL, cap_style="flat")
                cuts[a].append(channel)
                cuts[b].append(channel)
    out = {}
    for a in ids:
        geom = regions[a]
        if cuts[a]:
            geom = geom.difference(shapely.unary_union(cuts[a]))
        out[a] = _largest_with_anchor(geom)
    return out


def _largest_with_anchor(geom: BaseGeometry) -> BaseGeometry:
    """A cut may leave crumbs: keep the pieces that matter (any of at least a tenth of the largest)."""
    polys = [p for p in getattr(geom, "geoms", [geom]) if p.area > 0]
    if len(polys) <= 1:
        return polys[0] if polys else geom
    biggest = max(p.area for p in polys)
    return shapely.unary_union([p for p in polys if p.area >= biggest / 10])


def shapes(board: Board, positions: dict[str, tuple[int, int]]) -> MapShapes:
    """The regions of a board whose areas sit at `positions` (the picture's coordinates)."""
    key = (board.id, tuple(sorted(positions.items())), tuple(sorted(tuple(sorted(e)) for e in board.graph.edges)))
    return _shapes(key, board)


@lru_cache(maxsize=8)
def _shapes(key, board: Board) -> MapShapes:
    positions = dict(key[1])
    sides: dict[str, list[str]] = {}
    for area in board.areas:
        sides.setdefault(area.side, []).append(area.id)
    borders = {frozenset(e) for e in board.graph.edges}
    regions: dict[str, BaseGeometry] = {}
    anchors: dict[str, tuple[float, float]] = {}
    outlines: dict[str, BaseGeometry] = {}
    for side, ids in sorted(sides.items()):
        ids = sorted(ids)
        members = set(ids)
        edges = sorted(tuple(sorted(e)) for e in board.graph.edges
                       if set(e) <= members and frozenset(e) not in board.links)
        spots, routes = _cached_untangle(ids, {a: tuple(map(float, positions[a])) for a in ids}, edges)
        side_regions, outline = _side_regions(ids, spots, routes)
        regions.update(_cut_channels(side_regions, borders))
        anchors.update(spots)
        outlines[side] = outline
    return MapShapes(regions, anchors, outlines)


def moved(found: MapShapes, dx: float, dy: float) -> MapShapes:
    """The same map, shifted (a picture that needs room on the left draws the same regions)."""
    from shapely.affinity import translate

    return MapShapes({a: translate(g, dx, dy) for a, g in found.regions.items()},
                     {a: (x + dx, y + dy) for a, (x, y) in found.anchors.items()},
                     {s: translate(g, dx, dy) for s, g in found.outlines.items()})


def _cache_dir() -> Path:
    root = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(root) / "maester" / "map-layouts"


def _cached_untangle(ids: list[str], spots: dict[str, tuple[float, float]], edges: list[tuple[str, str]]
                     ) -> tuple[dict[str, tuple[float, float]], dict[tuple[str, str], Route]]:
    """`untangle`, kept on disk: it takes seconds, and its answer depends only on its arguments."""
    key = json.dumps([LAYOUT_VERSION, ids, [spots[a] for a in ids], edges], separators=(",", ":"))
    path = _cache_dir() / (hashlib.sha256(key.encode()).hexdigest()[:32] + ".json")
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        return ({a: tuple(p) for a, p in data["spots"].items()},
                {tuple(e): [tuple(p) for p in r] for e, r in data["routes"]})
    except (OSError, ValueError, KeyError, TypeError):
        pass  # not there yet, or unreadable: compute it
    spots_out, routes = untangle(ids, spots, edges)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps({"spots": spots_out, "routes": [[list(e), r] for e, r in routes.items()]}),
                        encoding="utf-8")
    except OSError:
        pass  # a read-only home: the layout is simply computed again next time
    return spots_out, routes


def shared_length(a: BaseGeometry, b: BaseGeometry) -> float:
    """The length of boundary two regions share (0 when they touch at points only, or not at all)."""
    return a.boundary.intersection(b.boundary).length


def svg_path(geom: BaseGeometry) -> str:
    """The SVG path data of a (multi)polygon, holes included (drawn with fill-rule evenodd)."""
    out: list[str] = []
    for poly in getattr(geom, "geoms", [geom]):
        if not isinstance(poly, Polygon) or poly.is_empty:
            continue
        for ring in [poly.exterior, *poly.interiors]:
            xy = list(ring.coords)[:-1]
            out.append("M" + "L".join(f"{x:.1f} {y:.1f}" for x, y in xy) + "Z")
    return "".join(out)


def label_point(geom: BaseGeometry) -> tuple[float, float]:
    """A point well inside a region (for a name or a piece that must not stray outside it)."""
    p = shapely.maximum_inscribed_circle(geom, 1.0) if hasattr(shapely, "maximum_inscribed_circle") else None
    point = p.geoms[0] if p is not None and hasattr(p, "geoms") else geom.representative_point()
    return (float(point.x), float(point.y))
