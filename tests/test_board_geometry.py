"""Board geometry (issue 12): every area has a position, laid out like the printed map, and the picture's
straight border segments never run through a third area's marker."""

from __future__ import annotations

import math

import pytest

from maester.tools.render import MARKER_RADIUS

BOARDS = ("base", "mod-westeros", "mod-essos")
CLEARANCE = 4  # a segment must pass at least this far outside another marker's rim

# (north, south) pairs of land areas as printed on the board
NORTH_OF = [
    ("castle-black", "winterfell"), ("winterfell", "moat-cailin"), ("moat-cailin", "the-twins"),
    ("seagard", "riverrun"), ("riverrun", "lannisport"), ("harrenhal", "kings-landing"),
    ("the-eyrie", "kings-landing"), ("kings-landing", "storms-end"), ("lannisport", "highgarden"),
    ("highgarden", "oldtown"), ("the-reach", "dornish-marches"), ("dornish-marches", "princes-pass"),
    ("yronwood", "salt-shore"), ("the-boneway", "yronwood"), ("braavos", "pentos"), ("pentos", "myr"),
    ("myr", "volantis"),
]
# (west, east) pairs
WEST_OF = [
    ("pyke", "riverrun"), ("lannisport", "kings-landing"), ("oldtown", "sunspear"), ("the-stony-shore", "karhold"),
    ("greywater-watch", "moat-cailin"), ("highgarden", "the-reach"), ("kings-landing", "dragonstone"),
    ("pentos", "norvos"),
]


def _segment_distance(p, a, b) -> float:
    (px, py), (ax, ay), (bx, by) = p, a, b
    dx, dy = bx - ax, by - ay
    t = max(0.0, min(1.0, ((px - ax) * dx + (py - ay) * dy) / (dx * dx + dy * dy)))
    return math.hypot(ax + t * dx - px, ay + t * dy - py)


@pytest.mark.parametrize("board_id", BOARDS)
def test_every_area_has_a_position(bundle, board_id):
    areas = bundle["boards"][board_id]["areas"]
    missing = sorted(a for a, rec in areas.items() if not rec.get("at"))
    assert not missing, f"board {board_id}: areas without `at X Y`: {missing}"
    spots = {}
    for a, rec in areas.items():
        spot = tuple(rec["at"])
        assert spot not in spots, f"{a} and {spots[spot]} are drawn on the same spot {spot}"
        spots[spot] = a


@pytest.mark.parametrize("board_id", BOARDS)
def test_borders_drawn_straight_cross_no_other_area(bundle, board_id):
    board = bundle["boards"][board_id]
    areas = board["areas"]
    crossings = []
    for a, b in board["borders"]:
        for other, rec in areas.items():
            if other in (a, b):
                continue
            d = _segment_distance(rec["at"], areas[a]["at"], areas[b]["at"])
            if d < MARKER_RADIUS[rec["kind"]] + CLEARANCE:
                crossings.append(f"{a} – {b} passes {d:.0f} from {other}")
    assert not crossings, f"board {board_id}:\n" + "\n".join(crossings)


@pytest.mark.parametrize(("north", "south"), NORTH_OF)
def test_north_is_up(bundle, north, south):
    areas = bundle["boards"]["mod-essos"]["areas"]
    assert areas[north]["at"][1] < areas[south]["at"][1], f"{north} should be drawn north of {south}"


@pytest.mark.parametrize(("west", "east"), WEST_OF)
def test_west_is_left(bundle, west, east):
    areas = bundle["boards"]["mod-essos"]["areas"]
    assert areas[west]["at"][0] < areas[east]["at"][0], f"{west} should be drawn west of {east}"


def test_essos_lies_east_of_westeros_and_the_north_at_the_top(bundle):
    areas = bundle["boards"]["mod-essos"]["areas"]
    westeros = [r["at"] for r in areas.values() if r["side"] == "westeros"]
    essos = [r["at"] for r in areas.values() if r["side"] == "essos"]
    assert min(x for x, _ in essos) > max(x for x, _ in westeros)
    # Castle Black is the northernmost land area and Sunspear's Dorne the south
    lands = {a: r["at"] for a, r in areas.items() if r["kind"] == "land" and r["side"] == "westeros"}
    assert min(lands, key=lambda a: lands[a][1]) == "castle-black"
    assert max(lands, key=lambda a: lands[a][1]) in ("starfall", "salt-shore", "sunspear")
    # Bay of Ice west of The Shivering Sea, both in the north
    assert areas["bay-of-ice"]["at"][0] < areas["winterfell"]["at"][0] < areas["the-shivering-sea"]["at"][0]
