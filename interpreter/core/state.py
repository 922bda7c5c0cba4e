"""The game state: plain data only (ints, strings, lists, dicts), so it round-trips through JSON.

Everything a rule needs to know about a position lives here; everything fixed (the map, the cards,
the tables) lives in the bundle (`Rules`). Derived facts (who controls an area, victory points) are
computed by `control.py` from this state, never stored twice. A rules module keeps its own part of the
position in `modules` (see `interpreter/core/extensions.py`); the base fields here are the base game's only.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field

# why a game ended: the state's `end_reason` (a code; its English is for people only); a rules module adds its own
END_REASONS: dict[str, str] = {
    # what the victory track counts is the rules set's (`victory-count`): castles, points or both
    "victory-points": "a house reached its victory threshold on the victory track (R26.1)",
    "last-round": "the most victory points after the last round, ties broken by the rules set's tiebreakers (R26.3)",
}


class BoardLog:
    """The areas whose contents changed (armies, a unit's kind or routed state included, power tokens, neutral
    forces, castle marks), in the order written, of every game's state in this process: every writer of those
    appends the area (`board_written`). The castle counts and the environment's observations (env/incremental.py)
    read it.

    A count derived from the board and kept between reads (`Game.castle_counts`) remembers how far it has read
    (`end`) and looks again only at the areas written since: while nothing changed, a read is O(1). Shared by all
    the games of the process (clones, searches): another game's writes only make a reader look again. Nothing
    here is in a state (its JSON and hash do not see it). An area changed without being logged leaves those counts
    stale: tests/test_counts.py compares them with a recount at every decision of whole games."""

    __slots__ = ("areas", "start")

    def __init__(self) -> None:
        self.areas: list[str] = []  # the areas written since `start`
        self.start = 0  # the position in the whole log of `areas[0]` (the log is dropped from time to time)

    @property
    def end(self) -> int:
        """The position after the last area written."""
        return self.start + len(self.areas)

    def since(self, pos: int) -> list[str] | None:
        """The areas written since `pos` (an `end` read earlier), or None when the log no longer reaches back
        there (dropped, or everything changed: `board_replaced`): count again from scratch."""
        if pos < self.start:
            return None
        return self.areas[pos - self.start:]

    def drop(self) -> None:
        """Forget the areas written so far (the log would grow without end): readers that had not read them
        count again from scratch."""
        self.start += len(self.areas) + 1  # (+1: a reader at the old end must see that it has lost track)
        self.areas.clear()


BOARD_LOG = BoardLog()
_LOG_AREAS = BOARD_LOG.areas  # (the same list for the whole process: `add_unit` and `remove_unit` append to it)
LOG_LIMIT = 4096  # the log is dropped when it is longer than this (`BoardLog.drop`): a reader counts again


def board_written(area: str) -> None:
    """Say that what is in `area` changed (its armies, its power token, its neutral force, its castle marks)."""
    _LOG_AREAS.append(area)
    if len(_LOG_AREAS) > LOG_LIMIT:
        BOARD_LOG.drop()


def board_replaced() -> None:
    """Say that the board may have changed anywhere (a dict of the state replaced whole, a position set): every
    kept count is counted again."""
    BOARD_LOG.drop()


@dataclass
class HouseState:
    power: int = 0  # available power tokens (in front of the screen)
    supply: int = 0  # position on the supply track
    hand: list[str] = field(default_factory=list)
    discards: list[str] = field(default_factory=list)
    removed: list[str] = field(default_factory=list)  # house cards out of the game
    last_bid: int = 0  # power bid in the latest bidding (some cards give it back)


@dataclass
class GameState:
    game: str  # rules set id (bundle `games`)
    setup: str  # setup id (bundle `setups`)
    board: str  # board id (bundle `boards`)
    seed: int
    rng: int
    round: int = 1
    phase: str = "setup"  # setup | westeros | planning | action | over
    # where the phase's procedure stands between two of its steps (see cursor.py); empty at a phase's start
    step: dict = field(default_factory=dict)
    # the procedures in progress inside the step, outermost first, with how far each has got (cursor.py)
    frames: list[dict] = field(default_factory=list)
    houses: dict[str, HouseState] = field(default_factory=dict)
    tracks: dict[str, list[str]] = field(default_factory=dict)  # track id -> houses, position 1 first
    turn_track: str = ""  # the influence track that gives the turn order (R1.5)
    blade_used: bool = False
    raven_used: bool = False
    seized_tokens: dict[str, str] = field(default_factory=dict)  # dominance token -> house holding it off-track
    # area -> {"house": h, "units": [[kind, routed], ...]}; at most one house per area (R1.8). Every change of
    # `units`, `power_tokens`, `neutral_forces` (and a rules module's castle marks) is logged (`board_written`;
    # `add_unit` and `remove_unit` do it), and an army's house never changes. A unit's
    # [kind, routed] list is never changed in place: a unit changed is a new list put in its place (a clone
    # shares these lists with its original, snapshot.Deferred; tests/test_clone.py plays games to check it)
    units: dict[str, dict] = field(default_factory=dict)
    power_tokens: dict[str, str] = field(default_factory=dict)  # area -> house (control markers)
    garrisons: dict[str, int] = field(default_factory=dict)  # area -> strength (home garrisons)
    garrison_owner: dict[str, str] = field(default_factory=dict)  # area -> house
    neutral_forces: dict[str, int] = field(default_factory=dict)
    blocked: list[str] = field(default_factory=list)  # impassable areas (3-player game)
    orders: dict[str, dict] = field(default_factory=dict)  # area -> {"house": h, "order": id}
    decks: dict[str, list[str]] = field(default_factory=dict)  # westeros decks i..iv, top first
    wildling_deck: list[str] = field(default_factory=list)  # top first
    wildling_threat: int = 0
    forbidden_orders: list[str] = field(default_factory=list)  # order ids barred this Planning Phase
    tides_of_battle: bool = False
    tides_deck: list[str] = field(default_factory=list)
    # each rules module's own state, under the module's id (its `MODULE`): plain JSON data that
    # only that module reads and writes (docs/modules.md); the base game has none
    modules: dict[str, dict] = field(default_factory=dict)
    winner: str | None = None
    end_reason: str | None = None  # a code of END_REASONS once the game is over (never English: states are compared)

    # ---- serialisation
    def to_json(self) -> dict:
        # the same as dataclasses.asdict (every field is plain JSON data), through the C JSON codec: ~6x faster
        return json.loads(json.dumps(self, default=vars))

    @classmethod
    def from_json(cls, data: dict) -> GameState:
        data = dict(data)
        data["houses"] = {h: HouseState(**v) for h, v in data["houses"].items()}
        return cls(**data)

    def canonical(self) -> str:
        return json.dumps(self.to_json(), sort_keys=True, separators=(",", ":"))

    def hash(self) -> str:
        """A short fingerprint of the whole position (same seed + decisions ⇒ same hash)."""
        return hashlib.sha256(self.canonical().encode()).hexdigest()[:16]

    def copy(self) -> GameState:
        return GameState.from_json(json.loads(json.dumps(self.to_json())))

    # ---- small helpers used everywhere
    def house_in(self, area: str) -> str | None:
        army = self.units.get(area)
        return army["house"] if army else None

    def units_in(self, area: str, house: str | None = None) -> list[list]:
        army = self.units.get(area)
        if not army or (house is not None and army["house"] != house):
            return []
        return army["units"]

    def add_unit(self, area: str, house: str, kind: str, routed: bool = False) -> None:
        army = self.units.get(area)
        if army is None:
            army = self.units[area] = {"house": house, "units": []}
        assert army["house"] == house, f"two houses in {area}"
        army["units"].append([kind, routed])
        _LOG_AREAS.append(area)  # `board_written`, inlined (a call less: units move at every march)
        if len(_LOG_AREAS) > LOG_LIMIT:
            BOARD_LOG.drop()

    def remove_unit(self, area: str, index: int) -> list:
        army = self.units[area]
        unit = army["units"].pop(index)
        if not army["units"]:
            del self.units[area]  # (an army never stays empty: counts kept from the board rely on it)
        _LOG_AREAS.append(area)  # `board_written`, inlined
        if len(_LOG_AREAS) > LOG_LIMIT:
            BOARD_LOG.drop()
        return unit

    def areas_of(self, house: str) -> list[str]:
        return sorted([a for a, army in self.units.items() if army["house"] == house])  # (a list: no generator)

    def unit_count(self, house: str, kind: str | None = None) -> int:
        return sum(1 for army in self.units.values() if army["house"] == house
                   for u in army["units"] if kind is None or u[0] == kind)

    def power_on_board(self, house: str) -> int:
        return sum(1 for h in self.power_tokens.values() if h == house)

    def turn_order(self) -> list[str]:
        """Houses in turn order: positions on the turn-order track (R1.5)."""
        return list(self.tracks[self.turn_track])

    def position(self, house: str, track: str) -> int:
        return self.tracks[track].index(house) + 1
