"""The board drawn as a map (issue 24): every area a region, made from the content's positions and borders.

Two regions share a drawn boundary (of positive length) if and only if their areas border (the sea links
between Westeros and Essos are drawn as lines: they cross between two boards), and no two regions overlap.
"""

from __future__ import annotations

import itertools

import pytest
import shapely

from maester.interpreter.core.rules import Rules
from maester.tools.map_shapes import MIN_SHARED, shapes, shared_length

BOARDS = ("base", "mod-westeros", "mod-essos")


@pytest.fixture(scope="module")
def rules() -> Rules:
    return Rules.default()


def _map(rules: Rules, board_id: str):
    board = rules.board(board_id)
    return board, shapes(board, {a.id: tuple(a.at) for a in board.areas})


@pytest.mark.parametrize("board_id", BOARDS)
def test_regions_touch_exactly_where_areas_border(rules, board_id):
    board, found = _map(rules, board_id)
    assert set(found.regions) == {a.id for a in board.areas}
    wrong = []
    for a, b in itertools.combinations(sorted(found.regions), 2):
        shared = shared_length(found.regions[a], found.regions[b])
        borders = board.graph.has_edge(a, b) and frozenset((a, b)) not in board.links
        if (shared >= MIN_SHARED) != borders or 0 < shared < MIN_SHARED:
            wrong.append(f"{a} / {b}: shared boundary {shared:.1f}, {'border' if borders else 'no border'}")
        overlap = found.regions[a].intersection(found.regions[b]).area
        if overlap > 1e-3:
            wrong.append(f"{a} / {b} overlap by {overlap:.2f}")
    assert not wrong, f"board {board_id}:\n" + "\n".join(wrong)


@pytest.mark.parametrize("board_id", BOARDS)
def test_every_region_is_one_piece_around_its_pieces(rules, board_id):
    board, found = _map(rules, board_id)
    for area in board.areas:
        region = found.regions[area.id]
        assert region.geom_type == "Polygon", f"{area.id} is drawn in {len(region.geoms)} pieces"
        assert region.contains(shapely.Point(found.anchors[area.id])), f"{area.id}'s pieces sit outside it"
        minimum = 150 if area.kind == "port" else 2000  # a port is a small harbour, an area holds an army
        assert region.area > minimum, f"{area.id} is only {region.area:.0f} square units"


def test_the_map_keeps_the_printed_geography(rules):
    """The regions come from the content's positions: the North on top, Dorne at the bottom, seas around."""
    board, found = _map(rules, "mod-essos")
    centre = {a: found.regions[a].centroid for a in found.regions}
    assert centre["castle-black"].y < centre["winterfell"].y < centre["kings-landing"].y < centre["sunspear"].y
    assert centre["pyke"].x < centre["riverrun"].x < centre["dragonstone"].x < centre["pentos"].x
    # the open seas reach the edge of the map, as printed
    edge = found.outlines["westeros"].boundary
    for sea in ("bay-of-ice", "sunset-sea", "the-shivering-sea", "west-summer-sea", "east-summer-sea"):
        assert found.regions[sea].boundary.intersection(edge).length > 50, sea
    # nudged where straight borders would have crossed, never far from where the content puts an area
    for area in board.areas:
        x, y = found.anchors[area.id]
        assert abs(x - area.at[0]) + abs(y - area.at[1]) < 80, area.id


def test_a_board_a_variant_defines_draws_too(tmp_path, monkeypatch):
    """Any board with positions draws: here five areas round a lake, one border to route round it."""
    from maester.interpreter.core.board import Area, Board

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))  # computed here, not read from a cache

    def area(ident: str, kind: str, x: int, y: int) -> Area:
        return Area(ident, ident.title(), kind, "westeros", "none", 0, 0, None, None, None, False, False, False,
                    None, None, [x, y])

    areas = [area("north", "land", 200, 50), area("east", "land", 350, 200), area("south", "land", 200, 350),
             area("west", "land", 50, 200), area("lake", "sea", 200, 200)]
    # a ring, the lake in the middle bordering all but the east, and north-south, whose straight line runs
    # right over the lake's position: it is nudged or bent away
    borders = [("north", "east"), ("east", "south"), ("south", "west"), ("west", "north"), ("lake", "north"),
               ("lake", "south"), ("lake", "west"), ("north", "south")]
    board = Board("tiny", areas, borders)
    found = shapes(board, {a.id: tuple(a.at) for a in areas})
    for a, b in itertools.combinations(sorted(found.regions), 2):
        touching = shared_length(found.regions[a], found.regions[b]) >= MIN_SHARED
        assert touching == board.graph.has_edge(a, b), (a, b)
        assert found.regions[a].intersection(found.regions[b]).area < 1e-3
