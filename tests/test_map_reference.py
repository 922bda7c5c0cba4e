"""The three boards of the bundled content match the reference map data exactly (R3, R24, R32, App. B).

The reference (../shared/reference/map.yaml) lists the base board in full and the two Mother of Dragons
boards as diffs of it; this module rebuilds the full expected boards from it and compares every area,
every attribute, every border and the Westeros–Essos sea links of the compiled boards in both directions.
"""

from __future__ import annotations

from collections import Counter

import pytest
import yaml

from .conftest import NO_REFERENCE, REFERENCE

MAP_YAML = REFERENCE / "map.yaml"

# reference board key -> our board id
BOARDS = {"base": "base", "mod_westeros": "mod-westeros", "mod_essos": "mod-essos"}
MOD_BOARDS = ("mod-westeros", "mod-essos")

# Every attribute of a compiled area, with its value when the reference leaves the field out.
DEFAULTS = {
    "id": None, "name": None, "kind": None, "side": "westeros", "castle": "none", "supply": 0, "power": 0,
    "home": None, "garrison": None, "neutral_force": None, "loyalty_token": False, "garrison_returns": False,
    "river": False, "port_of": None, "port_sea": None,
}
# fields the reference does not have: where the picture draws the area is ours (content geometry, issue 12)
OUR_GEOMETRY = {"at"}
# reference field -> our field (garrison_or_neutral_force is split by home_of, see ref_area)
FIELD_MAP = {
    "id": "id", "name": "name", "kind": "kind", "board": "side", "castle": "castle", "supply": "supply",
    "power": "power", "home_of": "home", "printed_loyalty_token": "loyalty_token",
    "garrison_returns_when_retaken": "garrison_returns", "port_of": "port_of", "port_sea": "port_sea",
}

# Correction of the reference (rules.md R32.6): the MoD diffs move Port of White Harbor's sea border
# from The Narrow Sea to The Bite (adjacency_removed/added) but never restate the port, so read
# literally its port_sea would stay "the-narrow-sea" although the port no longer borders that sea.
# R32.6 says the port now opens onto The Bite, and so does the content (`change port-of-white-harbor
# { on the-bite }`). test_white_harbor_port_correction_is_justified checks the premise on the
# reference adjacency; the expected MoD boards then use port_sea = "the-bite".
PORT_SEA_CORRECTIONS = {board: {"port-of-white-harbor": "the-bite"} for board in MOD_BOARDS}

# Addition to the reference: the map data has no rivers. rules.md R39.9 (Watering the Seed) lists the land
# areas next to a river, the same on every board; the expected boards mark exactly those (`river`), and
# test_river_areas_follow_the_rules reads the list back from rules.md.
RULES_MD = MAP_YAML.parent / "rules.md"
RIVER_AREAS = {"winterfell", "moat-cailin", "greywater-watch", "seagard", "the-twins", "riverrun",
               "the-mountains-of-the-moon", "harrenhal", "crackclaw-point", "three-towers", "princes-pass",
               "starfall"}



# ---- the reference ------------------------------------------------------------------------------


def ref_area(raw: dict) -> dict:
    """A reference area record in our field names, with every field present."""
    unknown = set(raw) - set(FIELD_MAP) - {"garrison_or_neutral_force"}
    assert not unknown, f"reference area {raw.get('id')} has fields this test does not map: {sorted(unknown)}"
    area = dict(DEFAULTS)
    for field, value in raw.items():
        if field in FIELD_MAP:
            area[FIELD_MAP[field]] = value
    if "garrison_or_neutral_force" in raw:
        area["garrison" if raw.get("home_of") else "neutral_force"] = raw["garrison_or_neutral_force"]
    return area


def pairs(raw: list) -> set[frozenset[str]]:
    out = {frozenset(p) for p in raw}
    assert all(len(p) == 2 for p in out), f"a reference pair is not two distinct areas: {raw}"
    return out


def build_expected(ref: dict) -> dict[str, dict]:
    """The full boards the reference describes: {board id: {areas, borders, links}}."""
    base = ref["base"]
    boards = {"base": {"areas": {a["id"]: ref_area(a) for a in base["areas"]},
                       "borders": pairs(base["adjacency"]), "links": set()}}
    for area_id in RIVER_AREAS:
        boards["base"]["areas"][area_id]["river"] = True
    assert len(boards["base"]["areas"]) == len(base["areas"]), "duplicate area ids in the reference base"
    # mod_westeros lists only the ids of its added areas; their records are in mod_essos.areas_added
    records = {a["id"]: a for a in ref["mod_essos"]["areas_added"]}
    for key in ("mod_westeros", "mod_essos"):
        diff = ref[key]
        areas = {k: dict(v) for k, v in boards["base"]["areas"].items()}
        for area_id, raw in diff.get("areas_changed", {}).items():
            assert area_id in areas, f"{key} changes {area_id}, which the base board lacks"
            areas[area_id] = ref_area(raw)
        for item in diff.get("areas_added", []):
            raw = records[item] if isinstance(item, str) else item
            assert raw["id"] not in areas, f"{key} adds {raw['id']}, which the base board has"
            areas[raw["id"]] = ref_area(raw)
        borders = set(boards["base"]["borders"])
        removed, added = pairs(diff.get("adjacency_removed", [])), pairs(diff.get("adjacency_added", []))
        assert removed <= borders, f"{key} removes borders the base lacks: {_fmt_pairs(removed - borders)}"
        assert not added & borders, f"{key} adds borders the base has: {_fmt_pairs(added & borders)}"
        borders = (borders - removed) | added
        board_id = BOARDS[key]
        for port, sea in PORT_SEA_CORRECTIONS.get(board_id, {}).items():
            seas = {x for x in _neighbours(borders, port) if areas[x]["kind"] == "sea"}
            assert seas == {sea}, f"{key}: correcting {port} to open on {sea}, but it borders seas {seas}"
            areas[port]["port_sea"] = sea
        for area_id in RIVER_AREAS:
            areas[area_id]["river"] = True
        boards[board_id] = {"areas": areas, "borders": borders,
                            "links": pairs(diff.get("westeros_essos_links", []))}
    return boards


def _fmt_pairs(ps) -> str:
    return ", ".join(" – ".join(sorted(p)) for p in sorted(ps, key=sorted)) or "(none)"


def _neighbours(borders: set[frozenset[str]], area_id: str) -> set[str]:
    return {x for p in borders if area_id in p for x in p if x != area_id}


# ---- fixtures -----------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def reference() -> dict:
    if not MAP_YAML.exists():
        pytest.skip(f"reference file {MAP_YAML} not found: {NO_REFERENCE}")
    return yaml.safe_load(MAP_YAML.read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def expected(reference) -> dict[str, dict]:
    return build_expected(reference)


@pytest.fixture(scope="module")
def compiled(bundle) -> dict:
    return bundle


def _board(compiled: dict, board_id: str) -> dict:
    boards = compiled["boards"]
    assert board_id in boards, f"no board '{board_id}' in the bundled content (boards: {sorted(boards)})"
    return boards[board_id]


# ---- the comparisons ----------------------------------------------------------------------------


@pytest.mark.parametrize("board_id", BOARDS.values())
def test_area_ids(board_id, expected, compiled):
    want = set(expected[board_id]["areas"])
    got = set(_board(compiled, board_id)["areas"])
    if got != want:
        pytest.fail(f"board {board_id}: area ids differ\n"
                    f"  missing from the content: {sorted(want - got) or '(none)'}\n"
                    f"  not in the reference:     {sorted(got - want) or '(none)'}")


@pytest.mark.parametrize("board_id", BOARDS.values())
def test_area_attributes(board_id, expected, compiled):
    want = expected[board_id]["areas"]
    got = _board(compiled, board_id)["areas"]
    diffs: dict[tuple[str, str, str], tuple] = {}
    for area_id in sorted(set(want) & set(got)):
        w, g = want[area_id], got[area_id]
        assert set(g) - OUR_GEOMETRY == set(DEFAULTS), (f"board {board_id}: compiled area {area_id} has fields "
                                         f"{sorted(g)}; this test compares {sorted(DEFAULTS)}")
        for field in DEFAULTS:
            if w[field] != g[field]:
                diffs[(board_id, area_id, field)] = (w[field], g[field])
    lines = [f"  {a}.{f}: reference {w!r}, content {g!r}" for (_, a, f), (w, g) in diffs.items()]
    if diffs:
        pytest.fail(f"board {board_id}: {len(diffs)} attribute(s) differ\n" + "\n".join(lines))


@pytest.mark.parametrize("board_id", BOARDS.values())
def test_borders(board_id, expected, compiled):
    want = expected[board_id]["borders"]
    got = pairs(_board(compiled, board_id)["borders"])
    if got != want:
        pytest.fail(f"board {board_id}: borders differ\n"
                    f"  missing from the content: {_fmt_pairs(want - got)}\n"
                    f"  not in the reference:     {_fmt_pairs(got - want)}")


@pytest.mark.parametrize("board_id", BOARDS.values())
def test_westeros_essos_links(board_id, expected, compiled):
    board = _board(compiled, board_id)
    want = expected[board_id]["links"]
    got = pairs(board["links"])
    if got != want:
        pytest.fail(f"board {board_id}: Westeros–Essos sea links differ\n"
                    f"  missing from the content: {_fmt_pairs(want - got)}\n"
                    f"  not in the reference:     {_fmt_pairs(got - want)}")
    assert got <= pairs(board["borders"]), f"board {board_id}: links that are not borders"
    for link in got:
        sides = sorted(board["areas"][a]["side"] for a in link)
        kinds = {board["areas"][a]["kind"] for a in link}
        assert sides == ["essos", "westeros"] and kinds == {"sea"}, (
            f"board {board_id}: link {_fmt_pairs([link])} is not between a Westeros sea and an Essos sea")


@pytest.mark.parametrize("board_id", MOD_BOARDS)
def test_white_harbor_port_correction_is_justified(board_id, reference, expected):
    """The reference adjacency makes The Bite Port of White Harbor's only sea (PORT_SEA_CORRECTIONS)."""
    board = expected[board_id]
    near = _neighbours(board["borders"], "port-of-white-harbor")
    seas = {a for a in near if board["areas"][a]["kind"] == "sea"}
    assert seas == {"the-bite"}, f"board {board_id}: Port of White Harbor borders seas {sorted(seas)}"
    assert near == {"the-bite", "white-harbor"}
    assert board["areas"]["port-of-white-harbor"]["port_sea"] == "the-bite"


@pytest.mark.parametrize("board_id", BOARDS.values())
def test_expected_ports_open_on_their_one_sea(board_id, expected):
    """Sanity of the rebuilt reference: every port borders exactly its land area and its sea."""
    board = expected[board_id]
    for area_id, area in board["areas"].items():
        if area["kind"] == "port":
            near = _neighbours(board["borders"], area_id)
            assert near == {area["port_of"], area["port_sea"]}, (
                f"board {board_id}: {area_id} borders {sorted(near)}, "
                f"expected {area['port_of']} and {area['port_sea']}")


# ---- totals (rules.md Appendix B1) --------------------------------------------------------------

B1_TOTALS = {"land": 38, "sea": 12, "port": 8, "stronghold": 10, "castle": 10, "supply": 24, "power": 19}


def _totals(areas) -> dict:
    kinds = Counter(a["kind"] for a in areas)
    castles = Counter(a["castle"] for a in areas)
    return {"land": kinds["land"], "sea": kinds["sea"], "port": kinds["port"],
            "stronghold": castles["stronghold"], "castle": castles["castle"],
            "supply": sum(a["supply"] for a in areas), "power": sum(a["power"] for a in areas)}


def test_reference_base_totals_match_rules_b1(expected):
    assert _totals(expected["base"]["areas"].values()) == B1_TOTALS


def test_base_board_totals_match_rules_b1(compiled):
    assert _totals(_board(compiled, "base")["areas"].values()) == B1_TOTALS


def test_river_areas_follow_the_rules(expected):
    """RIVER_AREAS is exactly the list of rules.md R39.9, and every one is a land area of every board."""
    if not RULES_MD.exists():
        pytest.skip(f"rules.md not found at {RULES_MD}")
    text = RULES_MD.read_text(encoding="utf-8")
    rule = text.split("- **R39.9")[1].split("\n- **")[0]
    names = rule.split("River areas")[1].split("):", 1)[1].replace("\n", " ").rstrip(". ").split(",")
    by_name = {a["name"]: a["id"] for a in expected["base"]["areas"].values()}
    assert {by_name[n.strip()] for n in names} == RIVER_AREAS
    for board in expected.values():
        assert all(board["areas"][a]["kind"] == "land" for a in RIVER_AREAS)
