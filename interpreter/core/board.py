"""The map as a networkx graph: areas are nodes (with their attributes), borders are edges.

`Board` answers the questions the rules ask of the map (R3, R16, R17, R24): neighbours by kind, the
port of a land area, where a march can go (with ship transport along chains of seas holding the
marching house's ships), and connected components. It knows no area by name.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import cached_property

import networkx as nx

from maester.dsl.diagnostics import BundleError, Diagnostics, hint_for

# Short names for the three boards of the game (the ids are the content's).
BOARD_ALIASES = {"mod": "mod-westeros", "essos": "mod-essos"}

LAND, SEA, PORT = "land", "sea", "port"


@dataclass(frozen=True)
class Area:
    id: str
    name: str
    kind: str  # land | sea | port
    side: str
    castle: str  # none | castle | stronghold
    supply: int
    power: int
    home: str | None
    garrison: int | None
    neutral_force: int | None
    loyalty_token: bool
    garrison_returns: bool
    river: bool  # next to a river (R39.9)
    port_of: str | None
    port_sea: str | None
    at: list[int] | None = None  # where the picture draws it (content geometry; the rules never read it)

    @property
    def is_land(self) -> bool:
        return self.kind == LAND

    @property
    def is_sea(self) -> bool:
        return self.kind == SEA

    @property
    def is_port(self) -> bool:
        return self.kind == PORT

    @property
    def has_castle(self) -> bool:
        """A castle or a stronghold (what victory and mustering count)."""
        return self.castle != "none"


class Board:
    """One composed board: an undirected graph whose nodes carry `Area` records."""

    def __init__(self, board_id: str, areas: Iterable[Area], borders: Iterable[tuple[str, str]],
                 links: Iterable[tuple[str, str]] = ()):
        self.id = board_id
        self.graph = nx.Graph(name=board_id)
        for area in areas:
            self.graph.add_node(area.id, **area.__dict__)
        for a, b in borders:
            self.graph.add_edge(a, b)
        self.links = {frozenset(pair) for pair in links}
        for pair in self.links:
            a, b = tuple(pair)
            self.graph.edges[a, b]["link"] = True
        self._areas = {a: Area(**{k: v for k, v in d.items()}) for a, d in self.graph.nodes(data=True)}

    @classmethod
    def from_bundle(cls, bundle: dict, board_id: str) -> Board:
        boards = bundle.get("boards", {})
        if board_id not in boards:
            diags = Diagnostics()
            diags.error("unknown-board", f"unknown board '{board_id}'", None,
                        hint_for(board_id, list(boards) + list(BOARD_ALIASES)))
            raise BundleError(diags)
        data = boards[board_id]
        areas = [Area(**a) for a in data["areas"].values()]
        return cls(board_id, areas, (tuple(p) for p in data["borders"]), (tuple(p) for p in data["links"]))

    # ---- areas
    def __contains__(self, area_id: str) -> bool:
        return area_id in self._areas

    def __len__(self) -> int:
        return len(self._areas)

    def area(self, area_id: str) -> Area:
        try:
            return self._areas[area_id]
        except KeyError:
            diags = Diagnostics()
            diags.error("unknown-area", f"board '{self.id}' has no area '{area_id}'", None,
                        hint_for(area_id, self._areas, show_all=0))
            raise BundleError(diags) from None

    @property
    def areas(self) -> list[Area]:
        return list(self._sorted_areas)

    @cached_property
    def _sorted_areas(self) -> tuple[Area, ...]:
        """The areas sorted by id, computed once: `areas` is read in hot loops (control, mustering)."""
        return tuple(self._areas[a] for a in sorted(self._areas))

    def areas_of_kind(self, kind: str) -> list[Area]:
        return [a for a in self.areas if a.kind == kind]

    def area_ids(self, kind: str | None = None) -> tuple[str, ...]:
        """Ids of the areas (of one kind), sorted; computed once per kind for hot loops."""
        cache = self.__dict__.setdefault("_area_ids", {})
        if kind not in cache:
            cache[kind] = tuple(a.id for a in self._sorted_areas if kind is None or a.kind == kind)
        return cache[kind]

    # ---- neighbours
    def neighbours(self, area_id: str, kind: str | None = None) -> list[str]:
        """Adjacent areas (R3.2), optionally only land, sea or port, sorted."""
        return list(self._adjacent(area_id, kind))

    def _adjacent(self, area_id: str, kind: str | None = None) -> tuple[str, ...]:
        """`neighbours` as a shared tuple, computed once per area and kind (movement asks it in hot loops)."""
        found = self._neighbours.get((area_id, kind))
        if found is None:
            self.area(area_id)
            found = self._neighbours[(area_id, kind)] = tuple(
                sorted(n for n in self.graph.neighbors(area_id) if kind is None or self._areas[n].kind == kind))
        return found

    @cached_property
    def _neighbours(self) -> dict[tuple[str, str | None], tuple[str, ...]]:
        """(area, kind) -> sorted neighbours, filled on first use: the map never changes during a game."""
        return {}

    def are_adjacent(self, a: str, b: str) -> bool:
        return self.graph.has_edge(a, b)

    def area_id_set(self, kind: str | None = None) -> frozenset[str]:
        """`area_ids` as a set, for membership tests."""
        cache = self.__dict__.setdefault("_area_id_sets", {})
        if kind not in cache:
            cache[kind] = frozenset(self.area_ids(kind))
        return cache[kind]

    def home_lands(self, house: str) -> tuple[str, ...]:
        """Land areas whose home is `house` (sorted), computed once per board."""
        cache = self.__dict__.setdefault("_home_lands", {})
        if house not in cache:
            cache[house] = tuple(a for a in self.area_ids(LAND) if self._areas[a].home == house)
        return cache[house]

    @cached_property
    def castle_lands(self) -> list[str]:
        """Land areas printed with a castle or a stronghold."""
        return [a.id for a in self.areas if a.is_land and a.has_castle]

    @cached_property
    def castle_land_ids(self) -> tuple[str, ...]:
        """`castle_lands` as a tuple, for reading the state of all of them at once."""
        return tuple(self.castle_lands)

    @cached_property
    def castle_homes(self) -> tuple[tuple[str, str | None], ...]:
        """(area, home) of the `castle_lands`: what counting castles reads (after every march, muster, clean up)."""
        return tuple((a, self._areas[a].home) for a in self.castle_lands)

    @cached_property
    def control_info(self) -> dict[str, tuple[str, str | None, str | None]]:
        """area -> (kind, port_of, home): what `control.controller` reads, in one dict lookup (a hot path)."""
        return {a.id: (a.kind, a.port_of, a.home) for a in self._areas.values()}

    @cached_property
    def _ports_by_land(self) -> dict[str, str]:
        return {a.port_of: a.id for a in self._areas.values() if a.is_port and a.port_of}

    def port_of(self, land_id: str) -> str | None:
        """The port attached to a land area, if it has one (R24.1)."""
        self.area(land_id)
        return self._ports_by_land.get(land_id)

    # ---- movement
    def transport_seas(self, start: str, has_own_ship: Callable[[str], bool]) -> set[str]:
        """Sea areas reachable from a land area by a chain of seas each holding the house's ships (R17).

        Ports are not links of a chain (R17.9); Westeros–Essos links are ordinary borders (R32.1).
        """
        first = [s for s in self._adjacent(start, SEA) if has_own_ship(s)]
        seen = set(first)
        stack = list(first)
        while stack:
            sea = stack.pop()
            for nxt in self._adjacent(sea, SEA):
                if nxt not in seen and has_own_ship(nxt):
                    seen.add(nxt)
                    stack.append(nxt)
        return seen

    def land_destinations(self, start: str, has_own_ship: Callable[[str], bool] = lambda _s: False) -> list[str]:
        """Land areas a land unit in `start` can march to: adjacent ones and by ship transport (R16.3, R17)."""
        dest = set(self._adjacent(start, LAND))
        for sea in self.transport_seas(start, has_own_ship):
            dest.update(self._adjacent(sea, LAND))
        dest.discard(start)
        return sorted(dest)

    def sea_destinations(self, start: str, may_enter_port: Callable[[str], bool] = lambda _p: False) -> list[str]:
        """Where a ship in `start` can march: adjacent seas, and adjacent ports its house owns (R16.3, R24.4)."""
        area = self.area(start)
        if area.is_port:
            return [area.port_sea] if area.port_sea else []
        seas = self.neighbours(start, SEA)
        ports = [p for p in self.neighbours(start, PORT) if may_enter_port(p)]
        return sorted(seas + ports)

    def fly_destinations(self) -> list[str]:
        """Every land area of the board (flying units, R38)."""
        return list(self.area_ids(LAND))

    # ---- structure
    def components(self, kind: str | None = None) -> list[set[str]]:
        """Connected components of the whole board, or of the subgraph of one kind of area."""
        nodes = [a for a in self._areas if kind is None or self._areas[a].kind == kind]
        sub = self.graph.subgraph(nodes)
        return sorted((set(c) for c in nx.connected_components(sub)), key=lambda c: (-len(c), sorted(c)))

    def shortest_path(self, a: str, b: str) -> list[str]:
        return nx.shortest_path(self.graph, a, b)

    # ---- export
    def to_json(self) -> dict:
        return {
            "board": self.id,
            "areas": [a.__dict__ for a in self.areas],
            "borders": sorted(sorted(e) for e in self.graph.edges),
            "links": sorted(sorted(p) for p in self.links),
        }

    def to_json_text(self) -> str:
        return json.dumps(self.to_json(), indent=1) + "\n"

    def to_dot(self) -> str:
        """Graphviz DOT: land as boxes, seas as blue ellipses, ports as small diamonds."""
        style = {
            LAND: 'shape=box, style="rounded,filled", fillcolor="#e8dcb5"',
            SEA: 'shape=ellipse, style=filled, fillcolor="#9cc3e6"',
            PORT: 'shape=diamond, style=filled, fillcolor="#c9d7e3", fontsize=9',
        }
        lines = [f'graph "{self.id}" {{', "  overlap=false; splines=true;"]
        for a in self.areas:
            label = a.name + {"castle": " ♜", "stronghold": " ♜♜"}.get(a.castle, "")
            lines.append(f'  "{a.id}" [label="{label}", {style[a.kind]}];')
        for u, v in sorted(sorted(e) for e in self.graph.edges):
            extra = ' [style=dashed, color="#1f5f9f"]' if frozenset((u, v)) in self.links else ""
            lines.append(f'  "{u}" -- "{v}"{extra};')
        lines.append("}")
        return "\n".join(lines) + "\n"
