"""The map as a networkx graph: the queries the rules ask (R3, R16, R17, R24, R32)."""

from __future__ import annotations

import json

import networkx as nx
import pytest

from maester.dsl import BundleError
from maester.interpreter.core.board import Board


@pytest.fixture(scope="module")
def base(bundle):
    return Board.from_bundle(bundle, "base")


@pytest.fixture(scope="module")
def essos(bundle):
    return Board.from_bundle(bundle, "mod-essos")


def test_graph_nodes_carry_area_attributes(base):
    node = base.graph.nodes["winterfell"]
    assert (node["kind"], node["castle"], node["supply"], node["power"], node["home"]) == (
        "land", "stronghold", 1, 1, "stark")
    assert isinstance(base.graph, nx.Graph) and base.graph.number_of_nodes() == 58


def test_neighbours_by_kind(base):
    assert base.neighbours("winterfell", "land") == ["castle-black", "karhold", "moat-cailin", "the-stony-shore",
                                                       "white-harbor"]
    assert base.neighbours("winterfell", "sea") == ["bay-of-ice", "the-shivering-sea"]
    assert base.neighbours("winterfell", "port") == ["port-of-winterfell"]


def test_islands_have_no_land_neighbours(base):
    # R3.5: Pyke, Dragonstone and The Arbor
    for island in ("pyke", "dragonstone", "the-arbor"):
        assert base.neighbours(island, "land") == []


def test_port_of_an_area(base, essos):
    assert base.port_of("lannisport") == "port-of-lannisport"
    assert base.port_of("kings-landing") is None
    assert base.area("port-of-white-harbor").port_sea == "the-narrow-sea"
    assert essos.area("port-of-white-harbor").port_sea == "the-bite"  # R32.6
    assert essos.port_of("pentos") == "port-of-pentos"


def test_march_without_ships_reaches_adjacent_land_only(base):
    assert base.land_destinations("pyke") == []
    assert base.land_destinations("lannisport") == ["riverrun", "searoad-marches", "stoney-sept"]


def test_ship_transport_along_a_chain_of_seas(base):
    # A8 [rulebook]: ships in Redwyne Straits, West Summer Sea and East Summer Sea
    ships = {"redwyne-straights", "west-summer-sea", "east-summer-sea"}
    dest = base.land_destinations("highgarden", lambda s: s in ships)
    for far in ("sunspear", "starfall", "salt-shore", "storms-end", "the-arbor", "three-towers"):
        assert far in dest
    # an enemy ship in West Summer Sea breaks the chain (R17.5)
    broken = base.land_destinations("highgarden", lambda s: s in {"redwyne-straights", "east-summer-sea"})
    assert "sunspear" not in broken and "the-arbor" in broken


def test_ports_are_not_links_of_a_transport_chain(base):
    # R17.9: a ship in Port of Pyke does not carry units from Pyke anywhere
    assert base.land_destinations("pyke", lambda s: s == "port-of-pyke") == []
    assert base.transport_seas("pyke", lambda s: s == "ironmans-bay") == {"ironmans-bay"}


def test_ships_march_to_seas_and_owned_ports(base):
    assert base.sea_destinations("the-golden-sound") == ["ironmans-bay", "sunset-sea"]
    assert base.sea_destinations("the-golden-sound", lambda p: True) == ["ironmans-bay", "port-of-lannisport",
                                                                         "sunset-sea"]
    assert base.sea_destinations("port-of-lannisport") == ["the-golden-sound"]


def test_essos_seas_link_to_westeros(essos):
    # R32.1-R32.2: a ship chain crosses between the boards
    dest = essos.land_destinations("dragonstone", lambda s: s in {"shipbreaker-bay", "bay-of-pentos"})
    assert {"pentos", "braavos", "myr"} <= set(dest)
    assert len(essos.links) == 7
    assert all(essos.area(a).side != essos.area(b).side for a, b in map(tuple, essos.links))


def test_connected_components(base, essos):
    assert len(base.components()) == 1
    lands = base.components("land")
    assert {"pyke"} in lands and {"dragonstone"} in lands and {"the-arbor"} in lands
    assert len(essos.components("sea")) == 1  # the links join both boards' seas
    assert len(essos.components("land")) == len(base.components("land")) + 1  # Essos is a land mass of its own


def test_fly_destinations_cover_both_boards(essos):
    assert {"pentos", "winterfell", "volantis"} <= set(essos.fly_destinations())


def test_json_and_dot_exports(base):
    data = json.loads(base.to_json_text())
    assert len(data["areas"]) == 58 and len(data["borders"]) == base.graph.number_of_edges()
    dot = base.to_dot()
    assert dot.startswith('graph "base"') and '"winterfell" -- ' in dot or '-- "winterfell"' in dot


def test_unknown_area_and_board_are_clear_errors(bundle, base):
    with pytest.raises(BundleError, match="did you mean 'winterfell'"):
        base.area("winterfel")
    with pytest.raises(BundleError, match="unknown board 'moon'"):
        Board.from_bundle(bundle, "moon")
