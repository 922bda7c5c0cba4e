"""`maester render`: the SVG of a position read back with xml.etree: areas, units, orders, tokens, tracks."""

from __future__ import annotations

import json
import struct
import xml.etree.ElementTree as ET
from pathlib import Path

from typer.testing import CliRunner

from maester.interpreter.mod.state import DragonsState
from maester.tools.cli import app
from maester.tools.position import load

SCENARIOS = Path(__file__).parent / "scenarios"
A10 = SCENARIOS / "base" / "rules" / "a10-garrison-only-home.yaml"  # Lannister takes Winterfell's garrison
NS = {"s": "http://www.w3.org/2000/svg"}
runner = CliRunner()


def run(*args):
    result = runner.invoke(app, [str(a) for a in args])
    assert "Traceback" not in result.output
    return result


def svg_of(*args) -> ET.Element:
    r = run("render", *args)
    assert r.exit_code == 0, r.output
    return ET.fromstring(r.stdout)


def areas(root: ET.Element) -> dict[str, ET.Element]:
    return {g.get("data-area"): g for g in root.iterfind(".//s:g[@id='areas']/s:g", NS)}


def test_scenario_before_and_after_a_combat():
    before = svg_of(A10, "--step", "0")
    assert before.get("data-board") == "base"
    spots = areas(before)
    assert len(spots) == 58  # 38 land, 12 sea, 8 ports (Appendix B1)
    moat = spots["moat-cailin"].find("s:g[@class='units']", NS)
    assert (moat.get("data-house"), moat.get("data-count")) == ("lannister", "2")
    assert sorted(u.get("data-kind") for u in moat.iterfind("s:g", NS)) == ["footman", "knight"]
    garrison = spots["winterfell"].find("s:g[@class='garrison']", NS)
    assert garrison.get("data-strength") == "2" and garrison.get("data-house") == "stark"
    assert spots["winterfell"].get("data-controller") == "stark"
    order = spots["moat-cailin"].find("s:g[@class='order face-up']", NS)
    assert order.get("data-order") == "march-minus-one"

    # during the combat the attacking army is off the board (R16.4.2): drawn at the embattled area
    during = svg_of(A10, "--step", "8")
    combat = during.find(".//s:g[@class='combat']", NS)
    assert (combat.get("data-area"), combat.get("data-attacker"), combat.get("data-defender")) == (
        "winterfell", "lannister", "stark")
    army = combat.find("s:g[@class='attackers']", NS)
    assert sorted(u.get("data-kind") for u in army.iterfind("s:g", NS)) == ["footman", "knight"]
    assert areas(during)["moat-cailin"].find("s:g[@class='units']", NS) is None
    assert before.find(".//s:g[@class='combat']", NS) is None

    after = areas(svg_of(A10))  # the last step: Lannister won and moved in
    assert after["winterfell"].get("data-controller") == "lannister"
    assert after["winterfell"].find("s:g[@class='garrison']", NS) is None
    assert after["winterfell"].find("s:g[@class='units']", NS).get("data-count") == "2"
    assert after["moat-cailin"].find("s:g[@class='units']", NS) is None


def _planning_state(tmp_path: Path) -> Path:
    """A Planning Phase position (orders not yet revealed) with one order of each of two houses."""
    st = load(A10).state(0)
    st.phase = "planning"
    st.units["winterfell"] = {"house": "stark", "units": [["footman", False], ["knight", True]]}
    st.orders = {"moat-cailin": {"house": "lannister", "order": "march-minus-one"},
                 "winterfell": {"house": "stark", "order": "defense-plus-one"}}
    st.power_tokens["the-stony-shore"] = "stark"
    path = tmp_path / "state.json"
    path.write_text(json.dumps(st.to_json()))
    return path


def test_face_down_orders_show_only_their_back_to_another_house(tmp_path):
    state = _planning_state(tmp_path)
    spots = areas(svg_of(state, "--viewer", "stark"))
    hidden = spots["moat-cailin"].find("s:g[@class='order face-down']", NS)
    assert hidden is not None and hidden.get("data-house") == "lannister"
    assert hidden.get("data-order") is None
    assert "march" not in ET.tostring(hidden, encoding="unicode")  # not in the title or text either
    mine = spots["winterfell"].find("s:g[@class='order face-up']", NS)
    assert mine.get("data-order") == "defense-plus-one"
    public = areas(svg_of(state, "--viewer", "public"))
    assert public["winterfell"].find("s:g[@class='order face-down']", NS) is not None
    everyone = areas(svg_of(state))  # the default: a rules lawyer sees every order
    assert everyone["moat-cailin"].find("s:g[@class='order face-up']", NS).get("data-order") == "march-minus-one"


def test_a_commander_sees_its_vassals_face_down_orders(tmp_path):
    """R34.1: the commander places its vassal's orders, so it sees them; the other houses do not."""
    scenario = SCENARIOS / "mod" / "vassals" / "commanders-3p-two-sets.yaml"
    st = load(scenario).state(-1)
    assert DragonsState.of(st).commanders["martell"] == "stark" and DragonsState.of(st).commanders["tyrell"] == "lannister"
    st.orders = {"sunspear": {"house": "martell", "order": "defense-plus-one"},
                 "highgarden": {"house": "tyrell", "order": "defense-plus-one"}}
    path = tmp_path / "state.json"
    path.write_text(json.dumps({"state": st.to_json()}))
    spots = areas(svg_of(path, "--viewer", "stark"))
    assert spots["sunspear"].find("s:g[@class='order face-up']", NS).get("data-order") == "defense-plus-one"
    assert spots["highgarden"].find("s:g[@class='order face-down']", NS).get("data-house") == "tyrell"


def test_routed_units_power_tokens_and_the_side_panel(tmp_path):
    root = svg_of(_planning_state(tmp_path))
    spots = areas(root)
    units = spots["winterfell"].findall("s:g[@class='units']/s:g", NS)
    assert [u.get("class") for u in units] == ["unit", "unit routed"]
    token = spots["the-stony-shore"].find("s:circle[@class='power-token']", NS)
    assert token.get("data-house") == "stark"
    assert spots["the-stony-shore"].get("data-controller") == "stark"
    panel = root.find(".//s:g[@id='panel']", NS)
    assert panel.find("s:text[@class='round']", NS).get("data-round") == "2"
    tracks = {g.get("data-track"): [c.get("data-house") for c in g.iterfind("s:g", NS)]
              for g in panel.iterfind("s:g[@class='track']", NS)}
    assert set(tracks) == {"iron-throne", "fiefdoms", "kings-court"}
    assert len(tracks["iron-throne"]) == 6
    rows = {g.get("data-house"): g for g in panel.iterfind("s:g[@class='house-row']", NS)}
    assert rows["lannister"].get("data-victory") == "2"  # Lannisport (home) and Moat Cailin (its units)
    assert rows["stark"].get("data-power") == "3"  # the scenario's value


def test_mother_of_dragons_log_shows_essos_the_bank_and_loyalty(tmp_path):
    log = tmp_path / "game.json"
    assert run("play", "--seed", "3", "--log", log).exit_code == 0
    root = svg_of(log, "--step", "200")
    spots = areas(root)
    assert root.get("data-board") == "mod-essos" and len(spots) == 75
    assert root.find(".//s:rect[@class='essos-board']", NS) is not None
    assert len(root.findall(".//s:line[@class='link']", NS)) == 7  # the seven sea links (R32.2)
    slots = root.findall(".//s:g[@id='panel']/s:text[@class='bank-slot']", NS)
    assert [s.get("data-slot") for s in slots] == ["1", "2", "3"]
    # Pentos' printed loyalty token is drawn where the state has it
    state = load(log).state(200)
    for area, count in DragonsState.of(state).loyalty.items():
        assert spots[area].find("s:g[@class='loyalty']", NS).get("data-count") == str(count)


def test_improvements_and_degradations_are_drawn_where_they_lie():
    scenario = SCENARIOS / "mod" / "bank" / "improvements-counted.yaml"
    spots = areas(svg_of(scenario, "--step", "0"))
    marks = {a: [t.get("data-improvement") for t in g.iterfind("s:text[@class='improvement']", NS)]
             for a, g in spots.items()}
    assert {a: m for a, m in marks.items() if m} == {"searoad-marches": ["supply"], "lannisport": ["power"],
                                                     "harrenhal": ["no-castle"], "crackclaw-point": ["stronghold"]}
    assert "".join(spots["harrenhal"].itertext()).count("no-castle") == 2  # its halo and its text


def test_png_is_a_real_picture(tmp_path):
    out = tmp_path / "board.png"
    r = run("render", A10, "--step", "0", "-o", out)
    assert r.exit_code == 0, r.output
    data = out.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = struct.unpack(">II", data[16:24])
    root = svg_of(A10, "--step", "0")
    assert (width, height) == (int(root.get("width")), int(root.get("height")))


def test_bad_inputs_are_one_clear_error(tmp_path):
    r = run("render", A10, "--step", "99")
    assert r.exit_code == 1 and "there is no step 99" in r.output
    r = run("render", A10, "--viewer", "starc")
    assert r.exit_code == 1 and "did you mean 'stark'" in r.output
    (tmp_path / "x.json").write_text("{}")
    r = run("render", tmp_path / "x.json")
    assert r.exit_code == 1 and "neither a game state" in r.output
    out = tmp_path / "none.png"
    r = run("render", A10, "--step", "99", "-o", out)
    assert r.exit_code == 1 and not out.exists()


def test_a_saved_table_is_drawn_as_its_position(tmp_path):
    """`maester play --save` writes a saved table (the position with its seats): render and view take it."""
    saved = tmp_path / "table.json"
    assert run("play", "--base", "-p", "3", "-q", "--agents", "random", "--stop-at", "30", "--save", saved).exit_code == 0
    assert json.loads(saved.read_text())["format"] == "maester-table"
    timeline = load(saved)
    assert timeline.state(0).to_json() == json.loads(saved.read_text())["position"]["state"]
    picture = tmp_path / "table.svg"
    result = run("render", saved, "-o", picture)
    assert result.exit_code == 0, result.output
    assert ET.parse(picture).getroot().tag.endswith("svg")
