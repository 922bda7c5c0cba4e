"""Scenarios: a position, scripted decisions and expected results, for rules lawyers and tests.

A scenario file (YAML, see docs/scenarios.md) starts from a setup, overrides any part of the position
(units, orders, power, tracks, hands, decks, round and phase), answers the decisions from a script,
runs the rules up to a chosen point and checks the expected events and state. `maester explain`
prints the resolution step by step, each step with the rule id it applies.

Everything a scenario names is checked before it runs: an unknown house, area, card, loan, token, order,
event type or event field is an error at its line and column with a did-you-mean, and a scenario that
checks nothing is an error too (it would pass whatever the rules do).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import lru_cache
from importlib import resources
from pathlib import Path

import yaml
from jsonschema import Draft202012Validator

from maester.dsl.diagnostics import BundleError, Diagnostics, MaesterError, Span, hint_for
from maester.dsl.json_input import check_data, check_size, read_bounded, strict_schema_validator
from maester.dsl.limits import MAX_UNIT_COUNT

from ..core.decisions import DECISION_KINDS, Decision, IllegalDecision
from ..core.events import COMMON_FIELDS, EVENTS, cites, fields_of
from ..core.rules import Rules, apply_variant
from ..core.state import GameState, HouseState
from ..core.state_check import state_problems
from ..effects.pregame import drafts_house_cards
from ..mod import ModOptions, new_game
from ..mod.state import FIELDS as MOD_FIELDS
from ..mod.state import DragonsState
from ..procedures.game import ACTION_STOPS, PHASE_STOPS, Game

SCENARIO_KEYS = {"name", "rules", "description", "setup", "seed", "position", "decisions", "defaults",
                 "otherwise", "stop-after", "expect", "tides-of-battle", "players", "gifts", "variant", "pack",
                 "format"}
POSITION_KEYS = {"round", "phase", "houses", "tracks", "units", "keep-units", "orders", "power-tokens",
                 "garrisons", "neutral-forces", "blocked", "decks", "wildling-deck", "wildling-threat",
                 "blade-used", "raven-used", "forbidden-orders", "loyalty", "improvements", "dragon-strength",
                 "dragon-tokens", "loyalty-points",
                 "commanders", "bank", "loan-deck", "loans", "loan-discount-holder", "leaving"}
# the position keys that set the Mother of Dragons state (GameState.modules, see mod_state.py)
MODULE_KEYS = {"loyalty", "improvements", "dragon-strength", "dragon-tokens", "loyalty-points", "commanders", "bank",
               "loan-deck", "loans", "loan-discount-holder", "leaving"}
# The scenario format version a file states with `format:` (a file without it is format 1). 2: `castles.HOUSE`
# counts castles only (a loyalty house's victory track is `victory.HOUSE`); in events `card` names the acting card
# and `subject` the card the event is about (docs/changes.md).
SCENARIO_FORMAT = 2
CARD_V1 = "card (format 1)"  # a format 1 expectation's `card`: the card the event is about (`_matches`)
SCENARIO_SCHEMA = "scenario.schema.json"
EXPECT_KEYS = {"events", "absent", "state", "winner", "error"}
HOUSE_KEYS = ("power", "supply", "hand", "discards", "removed", "last-bid")
IMPROVEMENT_MARKS = ("power", "supply", "stronghold", "no-castle", "no-stronghold", "no-power", "no-supply")
# derived state paths (computed from the position, not read from the state's JSON): name -> what the key names
DERIVED_PATHS = {"control": "area", "castle": "area", "routed": "area", "castles": "house", "victory": "house",
                 "supply": "house", "dominance": "token"}
DOMINANCE_FIELDS = ("holder", "side")
# the second part of a raw state path names: state key -> area | house | track | deck
STATE_KEYED = {"units": "area", "orders": "area", "garrisons": "area", "garrison_owner": "area",
               "power_tokens": "area", "neutral_forces": "area", "loyalty": "area", "improvements": "area",
               "houses": "house", "loans": "house", "loyalty_points": "house", "commanders": "house",
               "tracks": "track", "decks": "deck", "seized_tokens": "token"}
OTHERWISE = ("fail", "first", "stop")  # what to do with a decision the script and the defaults do not answer
COMBAT_STOP = re.compile(r"combat(?: ([1-9][0-9]*))?")
# a problem of state_check.state_problems starts with the state path it concerns ("units/winterfell: ...",
# "houses/stark/power: ..."), or "units: HOUSE has N KIND" for a unit limit
PROBLEM_PATH = re.compile(r"^([a-z_]+(?:/[^:/\s]+)*): ")
UNIT_LIMIT = re.compile(r"^units: (\S+) has \d+ (\S+) on the board")
LIMITS_HINT = ("a scenario's position must be one the rules allow: unit and power token limits, units in their "
               "domain, cards of the right house, rounds within the game (docs/scenarios.md)")


class ScenarioError(MaesterError):
    """A scenario file that cannot be read or run as written."""


def _fail(path: str, message: str, hint: str | None = None, place: tuple[int, int] = (0, 0),
          text: str | None = None) -> ScenarioError:
    diags = Diagnostics()
    if text is not None:
        diags.add_source(path, text)
    diags.error("scenario", message, Span(path, *place), hint)
    return ScenarioError(diags)


@lru_cache(maxsize=1)
def _validator() -> Draft202012Validator:
    schema = json.loads(resources.files("maester.schemas").joinpath(SCENARIO_SCHEMA).read_text(encoding="utf-8"))
    return strict_schema_validator(schema)  # `integer` is an int: 4.0 is refused


def _validate(data: dict, label: str, places: _Places | None = None) -> None:
    """Every value of the wrong type or out of range, each named by its place (and its line and column in the
    file, when `places` are known), before anything runs."""
    from maester.dsl.limits import json_depth_problem

    problem = json_depth_problem(data)
    if problem:
        raise _fail(label, f"{label}: {problem}")
    try:
        errors = sorted(_validator().iter_errors(data), key=lambda e: [str(p) for p in e.absolute_path])
    except TypeError:  # YAML keys that are not strings (numbers, dates) cannot be checked by name
        raise _fail(label, f"{label}: every key of a scenario is a word", "quote keys like 1: or yes:") from None
    if not errors:
        return
    diags = Diagnostics()
    for e in errors[:20]:
        # a oneOf's alternatives: the one that is not `null` says what was meant
        ctx = [c for c in e.context if c.schema != {"type": "null"}] or e.context
        best = max(ctx, key=lambda c: (len(c.absolute_path), -len(c.message))) if ctx else e
        place = ".".join(str(p) for p in best.absolute_path) or "the top level"
        message = best.message if len(best.message) <= 200 else best.message[:200] + "..."
        line, column = places.at(tuple(best.absolute_path)) if places else (0, 0)
        diags.error("scenario", f"{place}: {message}", Span(label, line, column, line, column + 1 if line else 0),
                    f"see docs/scenarios.md and schemas/{SCENARIO_SCHEMA}")
    raise ScenarioError(diags)


# libyaml's composer where PyYAML has it: the same nodes and marks, about 7x faster (the places of every scenario
# are found at each load). The document itself is read by the pure-Python loader, whose error messages users see.
_COMPOSER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


class _Places:
    """Where each key and each value of a YAML document is (1-based line and column), by path."""

    def __init__(self, text: str):
        self.keys: dict[tuple, tuple[int, int]] = {}
        self.values: dict[tuple, tuple[int, int]] = {}
        try:
            root = yaml.compose(text, Loader=_COMPOSER)
        except yaml.YAMLError:
            root = None
        if root is not None:
            self._walk(root, ())

    def _walk(self, node, path: tuple) -> None:
        self.values[path] = (node.start_mark.line + 1, node.start_mark.column + 1)
        if isinstance(node, yaml.MappingNode):
            for k, v in node.value:
                p = (*path, str(k.value))
                self.keys[p] = (k.start_mark.line + 1, k.start_mark.column + 1)
                self._walk(v, p)
        elif isinstance(node, yaml.SequenceNode):
            for i, v in enumerate(node.value):
                self._walk(v, (*path, i))

    def at(self, path: tuple, key: bool = False) -> tuple[int, int]:
        """The place of the value at `path` (or of its key), else of the nearest enclosing node."""
        path = tuple(p if isinstance(p, int) else str(p) for p in path)
        while path:
            found = (self.keys if key else self.values).get(path)
            if found:
                return found
            path = path[:-1]
        return (1, 1)


# ---- units shorthand: "lannister: knight, footman, footman(routed)" --------------------------------

def parse_units(text, where: str, path: str) -> dict:
    if isinstance(text, dict):
        return {"house": text["house"], "units": [[u, False] if isinstance(u, str) else u for u in text["units"]]}
    if not isinstance(text, str) or ":" not in text:
        raise _fail(path, f"{where}: units must look like 'house: kind, kind(routed)', got {text!r}")
    house, _, rest = text.partition(":")
    units = []
    for part in filter(None, (p.strip() for p in rest.split(","))):
        routed = part.endswith("(routed)")
        kind = part.removesuffix("(routed)").strip()
        count = 1
        if " x" in kind:
            kind, n = kind.rsplit(" x", 1)
            n = n.strip()
            if not n.isdigit() or not 1 <= int(n[:6]) <= MAX_UNIT_COUNT:
                raise _fail(path, f"{where}: '{part[:40]}': a count of units is a number from 1 to {MAX_UNIT_COUNT}",
                            "for example 'stark: footman x2, knight'")
            count = int(n)
        units.extend([[kind.strip(), routed] for _ in range(count)])
    return {"house": house.strip(), "units": units}


def format_units(army: dict | None) -> str | None:
    if not army:
        return None
    return f"{army['house']}: " + ", ".join(u[0] + ("(routed)" if u[1] else "") for u in army["units"])


def _stop_point(value) -> str | None:
    """`stop-after` as the engine's stop point: a phase, an Action Phase step, or "combat N"."""
    if value is None or value in PHASE_STOPS or value in ACTION_STOPS:
        return value
    m = COMBAT_STOP.fullmatch(str(value).strip())
    if m is None:
        return None
    return f"combat {m.group(1) or 1}"


_WITH_VARIANT: dict[tuple, tuple[Rules, Rules]] = {}  # (id(rules), variant) -> (rules kept alive, with variant)


@lru_cache(maxsize=8)
def _rules_for(variant: str | None, packs: tuple[str, ...]) -> Rules:
    """The bundled content with a scenario's packs and variant (compiled once per combination)."""
    from maester.dsl.compile import default_content_dir

    return Rules.default(variant, [default_content_dir(), *packs] if packs else None)


# ---- loading --------------------------------------------------------------------------------------

@dataclass
class Scenario:
    path: str
    name: str
    rules: list[str]
    setup: str
    seed: int
    position: dict
    decisions: list
    defaults: dict
    otherwise: str
    stop_after: str | None
    expect: dict
    tides: bool = False
    description: str = ""
    players: list[str] | None = None  # Mother of Dragons: the player houses (the others are vassals)
    gifts: list = field(default_factory=list)  # Mother of Dragons: power gifts made before the run (R42.4)
    variant: str | None = None  # a content variant applied to the rules (`Rules.default(variant, ...)`)
    packs: list[str] = field(default_factory=list)  # content packs compiled with the bundled content
    text: str = ""  # the file's text, to quote the offending line of an error
    places: _Places | None = None
    format: int = SCENARIO_FORMAT  # the format version the file was written for (docs/scenarios.md)

    @classmethod
    def load(cls, path: str | Path) -> Scenario:
        label = str(path)
        try:
            check_size(Path(path).stat().st_size, label)
            text = read_bounded(path, label)  # (a device has no size: the read is bounded)
            data = yaml.safe_load(text)
            check_data(data, label)  # the limits of data files (depth, values, integers: dsl/limits.py)
        except RecursionError:
            raise _fail(label, f"{label} nests too deeply to be read") from None
        except FileNotFoundError:
            raise _fail(label, f"{label}: no such file") from None
        except UnicodeDecodeError as e:
            raise _fail(label, f"{label} is not UTF-8 text ({e.reason} at byte {e.start})") from None
        except OSError as e:  # a folder, no permission
            raise _fail(label, f"{label} cannot be read: {e.strerror}") from None
        except yaml.YAMLError as e:
            mark = getattr(e, "problem_mark", None)
            diags = Diagnostics()
            diags.error("scenario-yaml", f"{label} is not valid YAML: {getattr(e, 'problem', e)}",
                        Span(label, mark.line + 1 if mark else 0, mark.column + 1 if mark else 0))
            raise ScenarioError(diags) from None
        places = _Places(text)

        def fail(message, where=(), hint=None, key=False):
            return _fail(label, message, hint, places.at(where, key), text)

        if not isinstance(data, dict):
            raise fail(f"{label}: a scenario is a mapping of keys (name, setup, position, ...)")
        for section, allowed, where in ((data, SCENARIO_KEYS, ()), (data.get("position") or {}, POSITION_KEYS,
                                        ("position",)), (data.get("expect") or {}, EXPECT_KEYS, ("expect",))):
            if not isinstance(section, dict):
                raise fail(f"{'.'.join(where)} must be a mapping", where)
            for key in section:
                if key not in allowed:
                    what = f"{'.'.join(where)} key" if where else "scenario key"
                    raise fail(f"unknown {what} '{key}'", (*where, key), hint_for(str(key), allowed, show_all=40),
                               key=True)
        _validate(data, label, places)  # every value of the wrong type, by its place, before anything is read
        stop = _stop_point(data.get("stop-after"))
        if data.get("stop-after") is not None and stop is None:
            raise fail(f"stop-after: unknown stop point {data['stop-after']!r}", ("stop-after",),
                       "allowed: " + ", ".join((*PHASE_STOPS[:3], *ACTION_STOPS)) + ", combat, combat N")
        if data.get("otherwise", "fail") not in OTHERWISE:
            raise fail(f"otherwise: unknown value {data['otherwise']!r}", ("otherwise",),
                       "allowed: " + " ".join(OTHERWISE))
        packs = data.get("pack") or []
        packs = [packs] if isinstance(packs, str) else list(packs)
        base = Path(path).parent
        resolved = []
        for i, p in enumerate(packs):
            where = ("pack", i) if isinstance(data.get("pack"), list) else ("pack",)
            full = (base / p).resolve()
            if not full.exists():
                raise fail(f"pack: no such content pack '{p}' (relative to the scenario's folder)", where)
            resolved.append(str(full))
        sc = cls(label, data.get("name", Path(path).stem), list(data.get("rules", [])),
                 data.get("setup", "base-6p"), int(data.get("seed", 1)), data.get("position") or {},
                 list(data.get("decisions") or []), dict(data.get("defaults") or {}), data.get("otherwise", "fail"),
                 stop, data.get("expect") or {}, bool(data.get("tides-of-battle", False)),
                 data.get("description", ""), data.get("players"), list(data.get("gifts") or []),
                 data.get("variant"), resolved, text, places, int(data.get("format", 1)))
        if sc.format > SCENARIO_FORMAT:
            raise fail(f"format: this scenario was written for format {sc.format}; this maester reads formats 1 "
                       f"to {SCENARIO_FORMAT}", ("format",), "update maester, or rewrite the file for an older "
                       "format (docs/changes.md lists what changed)")
        sc._check_expect_shape()
        sc._check_decision_kinds()
        sc._read_as_written()
        return sc

    def _read_as_written(self) -> None:
        """A file of format 1 (no `format` key: written before formats were stated) read as it was meant: an
        expectation's `card` named the card an event is about, which format 2 calls `subject` when a card ability
        produced the event (its `card` is then the acting card). Format 1's `castles.HOUSE` of a loyalty house
        counted its loyalty too; that cannot be read as meant here (the bundle says which houses win by
        loyalty), so `_check_expect_ids` refuses it."""
        if self.format >= 2:
            return
        for key in ("events", "absent"):
            for want in self.expect.get(key) or []:
                if isinstance(want, dict) and "card" in want:
                    want[CARD_V1] = want.pop("card")

    def fail(self, message: str, where: tuple = (), hint: str | None = None, key: bool = False) -> ScenarioError:
        """An error at the place of `where` (a path of keys and indexes) in the scenario file."""
        place = self.places.at(where, key) if self.places else (0, 0)
        return _fail(self.path, message, hint, place, self.text or None)

    def rules_for(self, rules: Rules) -> Rules:
        """The rules this scenario runs with. With `pack`: the bundled content and its packs (and `variant`);
        with `variant` alone: the variant applied to the content of the run (`rules`)."""
        if not self.variant and not self.packs:
            return rules
        applied = rules.bundle.get("applied_variant")
        try:
            if self.packs:
                return _rules_for(self.variant, tuple(self.packs))
            if applied == self.variant:
                return rules
            if applied is not None:
                raise self.fail(f"variant '{self.variant}' conflicts with the variant '{applied}' the run was "
                                "given", ("variant",))
            key = (id(rules), self.variant)
            if key not in _WITH_VARIANT:
                _WITH_VARIANT.clear()  # one run's rules at a time: nothing piles up
                _WITH_VARIANT[key] = (rules, Rules(apply_variant(rules.bundle, self.variant)))
            return _WITH_VARIANT[key][1]
        except BundleError as e:
            item = e.diagnostics.items[0]
            if item.code != "unknown-variant":
                raise  # a pack's own error, located in its content file
            raise self.fail(item.message, ("variant",), item.hint) from None

    # ---- checks that need no rules
    def _check_decision_kinds(self) -> None:
        """`defaults` keys and the `kind` of scripted decisions name decision kinds that exist."""
        for kind in self.defaults:
            if kind not in DECISION_KINDS:
                raise self.fail(f"defaults: no decision has the kind '{kind}'", ("defaults", kind),
                                hint_for(str(kind), DECISION_KINDS, show_all=0) or "decision kinds: docs/scenarios.md",
                                key=True)
        for i, entry in enumerate(self.decisions):
            if isinstance(entry, dict) and entry.get("kind") is not None and entry["kind"] not in DECISION_KINDS:
                raise self.fail(f"decisions[{i}]: no decision has the kind '{entry['kind']}'", ("decisions", i, "kind"),
                                hint_for(str(entry["kind"]), DECISION_KINDS, show_all=0)
                                or "decision kinds: docs/scenarios.md")

    def _check_expect_shape(self) -> None:
        """An `expect` that checks nothing, or checks an event type or field that does not exist, is an error."""
        exp = self.expect
        has_option_checks = any(isinstance(e, dict) and (e.get("legal") or e.get("illegal")) for e in self.decisions)
        for key in ("events", "absent"):
            if key in exp and not exp[key]:
                raise self.fail(f"expect.{key} is empty: it checks nothing", ("expect", key),
                                "list at least one event, or remove the key")
        if "state" in exp and not exp["state"]:
            raise self.fail("expect.state is empty: it checks nothing", ("expect", "state"))
        if not any(exp.get(k) not in (None, [], {}) for k in EXPECT_KEYS) and "error" not in exp \
                and "winner" not in exp and not has_option_checks:
            where = ("expect",) if ("expect",) in self.places.keys else ()
            raise self.fail("the scenario checks nothing: give `expect` events, absent, state, winner or error "
                            "(or legal/illegal answers in the decisions)", where,
                            "a scenario without checks passes whatever the rules do", key=True)
        for key in ("events", "absent"):
            for i, want in enumerate(exp.get(key) or []):
                where = ("expect", key, i)
                if not isinstance(want, dict) or not want:
                    raise self.fail(f"expect.{key}[{i}] must be a mapping of event fields, like "
                                    "{type: destroy, house: stark}", where)
                etype = want.get("type")
                if etype is not None and (not isinstance(etype, str) or etype not in EVENTS):
                    raise self.fail(f"expect.{key}[{i}]: no event has the type '{etype}'", (*where, "type"),
                                    hint_for(str(etype), EVENTS, show_all=0) or "event types: docs/scenarios.md")
                allowed = fields_of(etype) if etype else COMMON_FIELDS + tuple(
                    f for ev in EVENTS.values() for f in ev.fields)
                if "rule" in want:  # "R20.2.4 CARD-ID" (a card ability): the rule id comes first
                    rule = str(want["rule"]).split(" ")[0]
                    if not cites(etype, rule):
                        of = f"of type '{etype}' " if etype else ""
                        cited = sorted({r for ev in ([EVENTS[etype]] if etype else EVENTS.values()) for r in ev.rules})
                        raise self.fail(f"expect.{key}[{i}]: no event {of}cites the rule '{rule}'", (*where, "rule"),
                                        hint_for(rule, cited, show_all=12) or "event types and their rules: "
                                        "docs/scenarios.md")
                if "subject" in want and etype and "card" not in EVENTS[etype].fields:
                    # `subject` is the card an event of a card ability is about: only events that name a card
                    raise self.fail(f"expect.{key}[{i}]: events of type '{etype}' never name a card, so they never "
                                    "have a 'subject'", (*where, "subject"), "`subject` is for events such as "
                                    "cancel, cards, reveal and choice; `card` names the acting card", key=True)
                for k in want:
                    if k not in allowed:
                        what = f"events of type '{etype}' have" if etype else "no event has"
                        raise self.fail(f"expect.{key}[{i}]: {what} no field '{k}'" if etype else
                                        f"expect.{key}[{i}]: no event has a field '{k}'", (*where, k),
                                        hint_for(str(k), allowed, show_all=20), key=True)

    # ---- the position
    def build_state(self, rules: Rules) -> GameState:
        rules = self.rules_for(rules)
        if self.setup not in rules.bundle["setups"]:
            raise self.fail(f"unknown setup '{self.setup}'", ("setup",), hint_for(self.setup, rules.bundle["setups"]))
        for i, h in enumerate(self.players or []):
            if h not in rules.bundle["houses"]:
                raise self.fail(f"players: unknown house '{h}'", ("players", i),
                                hint_for(str(h), rules.bundle["houses"]))
        base = new_game(rules, self.setup, seed=self.seed,
                        options=ModOptions(tides_of_battle=self.tides, player_houses=self.players), start=False)
        base._setup()
        st = base.state
        # the Mother of Dragons keys fill that module's state (stored only when the scenario names one)
        ms = DragonsState.of(st, create=any(k in self.position for k in MODULE_KEYS))
        ids = _Ids(self, rules, base)
        p = self.position
        st.round = int(p.get("round", st.round))
        st.phase = p.get("phase", "action")
        if st.phase not in ("westeros", "planning", "action"):
            raise self.fail(f"position.phase: unknown phase '{st.phase}'", ("position", "phase"),
                            "allowed: westeros planning action")
        for h, vals in (p.get("houses") or {}).items():
            ids.house(h, ("position", "houses", h), key=True)
            hs: HouseState = st.houses[h]
            for key, value in vals.items():
                if key not in HOUSE_KEYS:
                    raise self.fail(f"houses.{h}: unknown key '{key}'", ("position", "houses", h, key),
                                    hint_for(str(key), HOUSE_KEYS), key=True)
                if key in ("hand", "discards", "removed"):
                    for i, card in enumerate(value or []):
                        ids.house_card(card, h, ("position", "houses", h, key, i))
                setattr(hs, key.replace("-", "_"), value)
            if "hand" in vals and "discards" not in vals:
                hs.discards = []
        for track, order in (p.get("tracks") or {}).items():
            ids.known(track, st.tracks, "track", ("position", "tracks", track), key=True)
            for i, h in enumerate(order or []):
                ids.house(h, ("position", "tracks", track, i))
            if sorted(order) != sorted(st.tracks[track]):
                raise self.fail(f"tracks.{track} must list exactly the houses in play: "
                                + ", ".join(sorted(st.tracks[track])), ("position", "tracks", track))
            st.tracks[track] = list(order)
        if "units" in p:
            if not p.get("keep-units", False):
                st.units = {}
            for area, text in (p.get("units") or {}).items():
                where = ("position", "units", area)
                ids.area(area, where, key=True)
                if text is None:
                    st.units.pop(area, None)
                    continue
                try:
                    army = parse_units(text, f"units.{area}", self.path)
                except ScenarioError as e:  # at its line
                    item = e.diagnostics.items[0]
                    raise self.fail(item.message, where, item.hint) from None
                ids.house(army["house"], where)
                for u in army["units"]:
                    ids.known(u[0], rules.unit_kinds, "unit kind", where, prefix=f"units.{area}: ")
                st.units[area] = army
        if "orders" in p:
            st.orders = {}
            for area, text in (p.get("orders") or {}).items():
                where = ("position", "orders", area)
                ids.area(area, where, key=True)
                house, _, order = str(text).partition(":")
                order = order.strip()
                ids.house(house.strip(), where)
                ids.known(order, rules.bundle["orders"], "order", where, prefix=f"orders.{area}: ")
                st.orders[area] = {"house": house.strip(), "order": order}
        for key, attr, value_kind in (("power-tokens", "power_tokens", "house"),
                                      ("neutral-forces", "neutral_forces", None), ("loyalty", "loyalty", None),
                                      ("improvements", "improvements", "mark"),
                                      ("loyalty-points", "loyalty_points", None)):
            if key not in p:
                continue
            for k, v in (p[key] or {}).items():
                where = ("position", key, k)
                if key == "loyalty-points":
                    ids.house(k, where, key=True)
                else:
                    ids.area(k, where, key=True)
                if value_kind == "house":
                    ids.house(v, where)
                elif value_kind == "mark":
                    for i, mark in enumerate(v or []):
                        ids.known(mark, IMPROVEMENT_MARKS, "improvement mark", (*where, i))
            setattr(ms if attr in MOD_FIELDS else st, attr, dict(p[key] or {}))
        if "garrisons" in p:
            st.garrisons, st.garrison_owner = {}, {}
            for area, strength in (p["garrisons"] or {}).items():
                ids.area(area, ("position", "garrisons", area), key=True)
                owner = base.board.area(area).home
                if owner is None:
                    raise self.fail(f"garrisons: {area} is nobody's home area, so it has no garrison",
                                    ("position", "garrisons", area), key=True)
                st.garrisons[area] = strength
                st.garrison_owner[area] = owner
        if "blocked" in p:
            for i, area in enumerate(p["blocked"] or []):
                ids.area(area, ("position", "blocked", i))
            st.blocked = list(p["blocked"] or [])
        for deck, cards in (p.get("decks") or {}).items():
            ids.known(deck, st.decks, "deck", ("position", "decks", deck), key=True)
            rest = list(st.decks[deck])
            for i, c in enumerate(cards):
                if c not in rest:
                    where = ("position", "decks", deck, i)
                    if c in rules.bundle["westeros_cards"] and c in cards[:i]:
                        raise self.fail(f"decks.{deck}: '{c}' is listed too often", where)
                    raise self.fail(f"decks.{deck}: '{c}' is not a card of deck {deck}", where,
                                    hint_for(str(c), st.decks[deck], show_all=0))
                rest.remove(c)
            st.decks[deck] = list(cards) + rest
        if "wildling-deck" in p:
            for i, c in enumerate(p["wildling-deck"] or []):
                ids.known(c, rules.bundle["wildling_cards"], "wildling card", ("position", "wildling-deck", i))
            rest = [c for c in st.wildling_deck if c not in p["wildling-deck"]]
            st.wildling_deck = list(p["wildling-deck"]) + rest
        for vassal, commander in (p.get("commanders") or {}).items():
            ids.house(vassal, ("position", "commanders", vassal), key=True)
            ids.house(commander, ("position", "commanders", vassal))
            ms.commanders[vassal] = commander
        for key in ("bank", "loan-deck"):
            for i, loan in enumerate(p.get(key) or []):
                if loan is not None:
                    ids.known(loan, rules.bundle["loans"], "loan", ("position", key, i), prefix=f"{key}: ")
        if "bank" in p:  # loans not in the bank go back to the loan deck (a loan is never in both)
            old = [c for c in ms.bank if c is not None]
            ms.bank = list(p["bank"] or [])
            ms.loan_deck = [c for c in ms.loan_deck + old if c not in ms.bank]
        if "loan-deck" in p:
            top = list(p["loan-deck"] or [])
            ms.loan_deck = top + [c for c in ms.loan_deck if c not in top and c not in ms.bank]
        if "loans" in p:
            for h, loans in (p["loans"] or {}).items():
                ids.house(h, ("position", "loans", h), key=True)
                for i, loan in enumerate(loans or []):
                    ids.known(loan, rules.bundle["loans"], "loan", ("position", "loans", h, i), prefix="loans: ")
            ms.loans = {h: list(v) for h, v in (p["loans"] or {}).items()}
        if "loan-discount-holder" in p:
            if p["loan-discount-holder"] is not None:
                ids.house(p["loan-discount-holder"], ("position", "loan-discount-holder"))
            ms.discount_holder = p["loan-discount-holder"]
        for i, h in enumerate(p.get("leaving") or []):
            ids.house(h, ("position", "leaving", i))
            if rules.house(h).get("never_vassal"):  # "a player other than Targaryen" (R42.5), as `Game.leave`
                raise self.fail(f"{h} never leaves the game: only a player other than {h} may leave (R42.5, "
                                "R36.1)", ("position", "leaving", i), "leave it out of position.leaving")
        for i, o in enumerate(p.get("forbidden-orders") or []):
            ids.known(o, set(rules.bundle["orders"]) | {r["type"] for r in rules.bundle["orders"].values()},
                      "order or order type", ("position", "forbidden-orders", i))
        for key, attr in (("wildling-threat", "wildling_threat"), ("blade-used", "blade_used"),
                          ("raven-used", "raven_used"), ("forbidden-orders", "forbidden_orders"),
                          ("dragon-strength", "dragon_strength"), ("dragon-tokens", "dragon_tokens"),
                          ("leaving", "leaving")):
            if key in p:
                setattr(ms if attr in MOD_FIELDS else st, attr, p[key])
        for i, gift in enumerate(self.gifts):
            for k in ("from", "to"):
                if isinstance(gift, dict) and k in gift:
                    ids.house(gift[k], ("gifts", i, k))
        for i, entry in enumerate(self.decisions):
            if isinstance(entry, dict):
                for k in ("house", "for"):
                    if k in entry:
                        ids.house(entry[k], ("decisions", i, k))
        self._check_expect_ids(ids)
        self._check_invariants(rules, st)
        return st

    def _check_invariants(self, rules: Rules, st: GameState) -> None:
        """The position keeps the invariants of the rules (state_check.py), as any position a command reads must:
        the first problem is reported at the `position` entry it concerns."""
        found = state_problems(rules, st)
        if not found:
            return
        first = found[0]
        limit = UNIT_LIMIT.match(first)
        m = PROBLEM_PATH.match(first)
        where: tuple = ("position",)
        if m:  # "units/winterfell: ..." is about position.units.winterfell
            state_path = m.group(1).split("/")
            where = ("position", state_path[0].replace("_", "-"), *state_path[1:])
            first = first[m.end():]
        if limit:  # a house's units over its limit: at the first entry of the file that holds such a unit
            house, kind = limit.groups()
            areas = [a for a, army in st.units.items() if army.get("house") == house
                     and any(u[0] == kind for u in army.get("units") or [])]
            first += f" (in {', '.join(areas)})"
            listed = [a for a in (self.position.get("units") or {}) if a in areas]
            where = (*where, *listed[:1])
        elif first.startswith(("round ", "phase ")):
            where = ("position", first.split(" ", 1)[0])
        label = ".".join(str(p) for p in (where[:2] if limit else where))
        more = f" (and {len(found) - 1} more: {'; '.join(found[1:4])})" if len(found) > 1 else ""
        raise self.fail(f"{label}: {first}{more}", where, LIMITS_HINT, key=True)

    def _check_expect_ids(self, ids: _Ids) -> None:
        """Houses, areas, unit kinds, cards and state paths named by the expectations exist."""
        exp = self.expect
        for key in ("events", "absent"):
            for i, want in enumerate(exp.get(key) or []):
                for k, v in want.items():
                    if not isinstance(v, str):
                        continue
                    where = ("expect", key, i, k)
                    if k == "house":
                        ids.house(v, where)
                    elif k == "area":
                        ids.area(v, where)
                    elif k == "kind" and want.get("type") in (None, "destroy", "muster", "place"):
                        ids.known(v, ids.rules.unit_kinds, "unit kind", where)
                    elif k in ("card", "subject", CARD_V1):
                        ids.known(v, ids.all_cards, "card", ("expect", key, i, "card" if k == CARD_V1 else k))
        if "winner" in exp and exp["winner"] is not None:
            ids.house(exp["winner"], ("expect", "winner"))
        state_keys = set(expect_view(ids.game.state))
        for path in exp.get("state") or {}:
            where = ("expect", "state", path)
            parts = str(path).split(".")
            head = parts[0]
            if head in DERIVED_PATHS:
                if len(parts) < 2:
                    raise self.fail(f"expect.state: '{path}' needs a {DERIVED_PATHS[head]}: {head}.NAME",
                                    where, key=True)
                what = DERIVED_PATHS[head]
                getattr(ids, what)(parts[1], where, key=True)
                if head == "castles" and self.format < 2 and \
                        ids.rules.house(parts[1]).get("victory_by") == "loyalty":
                    raise self.fail(f"expect.state: '{path}' changed meaning: scenario format 1 counted "
                                    f"{parts[1]}'s loyalty points in castles.{parts[1]}, format 2 counts its castles "
                                    "and strongholds only (R37.1)", where,
                                    f"for its victory track write victory.{parts[1]}; for its castles keep "
                                    f"castles.{parts[1]}; then add `format: {SCENARIO_FORMAT}` to the file",
                                    key=True)
                if head == "dominance":
                    if len(parts) != 3 or parts[2] not in DOMINANCE_FIELDS:
                        raise self.fail(f"expect.state: '{path}' must be dominance.TOKEN.holder or "
                                        "dominance.TOKEN.side", where, key=True)
                    if parts[2] == "side" and ids.flag_of_token(parts[1]) is None:
                        raise self.fail(f"expect.state: the {parts[1]} token has no used side", where,
                                        "tokens with a used side: " + ", ".join(ids.flipping_tokens()), key=True)
                elif len(parts) != 2:
                    raise self.fail(f"expect.state: '{path}' must be {head}.{what.upper()}", where, key=True)
                continue
            if head not in state_keys:
                raise self.fail(f"expect.state: the state has no '{head}'", where,
                                hint_for(head, sorted(state_keys | set(DERIVED_PATHS)), show_all=0)
                                or "see docs/scenarios.md, Expectations", key=True)
            if head in STATE_KEYED and len(parts) > 1:  # a house or deck not in play may be checked absent (null)
                what = STATE_KEYED[head]
                if what == "house":
                    ids.known(parts[1], ids.rules.bundle["houses"], "house", where, key=True)
                elif what == "deck":
                    ids.known(parts[1], {c["deck"] for c in ids.rules.bundle["westeros_cards"].values()}, "deck",
                              where, key=True)
                else:
                    getattr(ids, what)(parts[1], where, key=True)
            if head == "houses" and len(parts) > 2:
                ids.known(parts[2], [k.replace("-", "_") for k in HOUSE_KEYS], "house field", where, key=True)


class _Ids:
    """The ids a scenario may name, and located did-you-mean errors for the others."""

    def __init__(self, sc: Scenario, rules: Rules, game: Game):
        self.sc, self.rules, self.game = sc, rules, game
        self.areas = [a.id for a in game.board.areas]
        self.all_cards = set(rules.bundle["house_cards"]) | set(rules.bundle["westeros_cards"]) | set(
            rules.bundle["wildling_cards"]) | set(rules.bundle.get("loans") or {}) | set(
            rules.bundle.get("tides_cards") or {}) | set(rules.bundle.get("objectives") or {}) | set(
            rules.bundle.get("game_abilities") or {})  # the sources an event's `card` may name

    def known(self, value, choices, what: str, where: tuple, key: bool = False, prefix: str = "") -> None:
        if value not in choices:
            raise self.sc.fail(f"{prefix}unknown {what} '{value}'", where,
                               hint_for(str(value), [str(c) for c in choices], show_all=12), key=key)

    def house(self, value, where: tuple, key: bool = False) -> None:
        if value not in self.game.state.houses:
            raise self.sc.fail(f"'{value}' is not a house of setup {self.sc.setup}", where,
                               hint_for(str(value), self.game.state.houses, show_all=12), key=key)

    def area(self, value, where: tuple, key: bool = False) -> None:
        if value not in self.game.board:
            raise self.sc.fail(f"unknown area '{value}' on board {self.game.board.id}", where,
                               hint_for(str(value), self.areas, show_all=0), key=key)

    def track(self, value, where: tuple, key: bool = False) -> None:
        self.known(value, self.game.state.tracks, "track", where, key)

    def deck(self, value, where: tuple, key: bool = False) -> None:
        self.known(value, self.game.state.decks, "deck", where, key)

    def token(self, value, where: tuple, key: bool = False) -> None:
        self.known(value, self.rules.dominance_tokens, "dominance token", where, key)

    def house_card(self, card, house: str, where: tuple) -> None:
        rec = self.rules.bundle["house_cards"].get(card)
        if rec is None:
            raise self.sc.fail(f"unknown house card '{card}'", where,
                               hint_for(str(card), self.rules.bundle["house_cards"], show_all=0))
        vassals = DragonsState.of(self.game.state).vassals
        if (rec.get("house") not in (None, house) and not rec.get("vassal") and house not in vassals
                and not drafts_house_cards(self.game)):  # (a drafted hand holds any house's cards)
            raise self.sc.fail(f"'{card}' is a {rec['house']} card, not one of {house}'s", where)

    def flag_of_token(self, token: str) -> str | None:
        """The state flag of a token with a used side (the blade, the raven: R5.4, R5.5), or None."""
        game = self.game
        return {game.token_of_track(game.blade_track): "blade_used",
                game.token_of_track(game.raven_track): "raven_used"}.get(token)

    def flipping_tokens(self) -> list[str]:
        return [t for t in self.rules.dominance_tokens if self.flag_of_token(t)]


# ---- running --------------------------------------------------------------------------------------

@dataclass
class Step:
    """One line of the trace: an event, or a decision and its answer."""

    event: dict | None = None
    decision: Decision | None = None
    answer: object = None
    source: str = ""  # "script", "default", "first", "single"


@dataclass
class Result:
    scenario: Scenario
    game: Game
    steps: list[Step] = field(default_factory=list)
    checks: list[tuple[bool, str]] = field(default_factory=list)
    error: str | None = None
    error_expected: bool = False  # the scenario's `expect: error:` matched the error

    @property
    def ok(self) -> bool:
        return (self.error is None or self.error_expected) and all(ok for ok, _ in self.checks)
def _answer_for(sc: Scenario, d: Decision, script: list):
    if len(d.options) == 1:
        # one legal answer: taken at once, as the engine takes it everywhere but in order placement, where it is
        # asked so that the others learn nothing of the house's secret placements (docs/scenarios.md); only an
        # entry naming its kind answers it
        entry = script[0] if script else None
        if not (isinstance(entry, dict) and entry.get("kind") == d.kind
                and entry.get("house") in (None, d.house) and entry.get("for") in (None, d.info.get("for", d.house))):
            return d.options[0], "single"
    if script:
        entry = script[0]
        if isinstance(entry, dict) and "answer" in entry:
            if (entry.get("kind") not in (None, d.kind) or entry.get("house") not in (None, d.house)
                    or entry.get("for") not in (None, d.info.get("for", d.house))):
                if d.kind in sc.defaults:  # the entry waits for its own decision; this one takes the default
                    return sc.defaults[d.kind], "default"
                return None, "script-mismatch"
            script.pop(0)
            return entry["answer"], "script"
        script.pop(0)
        return entry, "script"
    if d.kind in sc.defaults:
        return sc.defaults[d.kind], "default"
    if sc.otherwise == "first":
        return d.options[0], "first"
    if sc.otherwise == "stop":
        return None, "stop"
    return None, "missing"


def run_scenario(rules: Rules, sc: Scenario, on_game: Callable[[Game], None] | None = None) -> Result:
    """Run a scenario; `on_game` sees the game before its first event (the viewer records positions)."""
    rules = sc.rules_for(rules)
    state = sc.build_state(rules)
    game = new_game(rules, sc.setup, seed=sc.seed, state=state, start=False,
                    options=ModOptions(tides_of_battle=sc.tides, stop_after=sc.stop_after, player_houses=sc.players))
    if on_game is not None:
        on_game(game)
    result = Result(sc, game)
    for gift in sc.gifts:  # power gifts between players, made before the rules start (R42.4)
        try:
            game.gift_power(gift["from"], gift["to"], int(gift["amount"]))
        except (IllegalDecision, AttributeError, KeyError, TypeError, ValueError) as e:
            why = e.diagnostics.items[0].message if isinstance(e, IllegalDecision) else str(e)
            result.error = f"gift {gift}: {why}"
            _check(result)
            return result
    game.start()
    script = list(sc.decisions)
    seen = 0
    while True:
        result.steps.extend(Step(event=e) for e in game.events[seen:])
        seen = len(game.events)
        d = game.decision
        if d is None:
            break
        entry = script[0] if script and isinstance(script[0], dict) else None
        answer, source = _answer_for(sc, d, script)
        if source == "script" and entry is not None:
            _check_options(result, d, entry)
        if source == "stop":
            break
        if source in ("missing", "script-mismatch"):
            want = script[0] if script else None
            result.error = (f"decision #{d.number} ({d.kind} for {d.house}: {d.prompt}) has no scripted answer"
                            if source == "missing" else
                            f"decision #{d.number} is {d.kind} for {d.house}, but the script expects {want}")
            result.steps.append(Step(decision=d))
            break
        if isinstance(answer, list) and d.options and not isinstance(d.options[0], list):
            answer = ":".join(str(a) for a in answer)
        try:
            game.answer(answer)
        except IllegalDecision as e:
            result.error = e.diagnostics.items[0].message + " — " + (e.diagnostics.items[0].hint or "")
            result.steps.append(Step(decision=d, answer=answer, source=source))
            break
        result.steps.append(Step(decision=d, answer=answer, source=source))
    if result.error is None and script:
        result.error = f"{len(script)} scripted answer(s) were not used: {script[:3]}"
    _check(result)
    return result


def _check_options(result: Result, d: Decision, entry: dict) -> None:
    """A scripted mapping may also list answers that must (`legal`) or must not (`illegal`) be offered."""
    for want in entry.get("legal") or []:
        result.checks.append((want in d.options, f"decision #{d.number} ({d.kind}) offers {want!r}"))
    for want in entry.get("illegal") or []:
        result.checks.append((want not in d.options, f"decision #{d.number} ({d.kind}) does not offer {want!r}"))


def expect_view(state: GameState) -> dict:
    """The state JSON as `expect.state` paths read it: a rules module's fields (GameState.modules) are read as
    top-level keys, so a scenario names `loyalty.AREA`, not the module's place in the state."""
    data = state.to_json()
    for fields in data["modules"].values():
        for key, value in fields.items():
            data.setdefault(key, value)
    if MOD_FIELDS.keys() - data.keys():  # a base game: its expectations may still name the (empty) fields
        for key, value in DragonsState.of(state).data.items():
            data.setdefault(key, value)
    return data


def _derived(game: Game, path: str):
    """The state paths computed from the position (docs/scenarios.md): control, castle and routed units of an
    area; castles, victory points and supply of a house; holder and side of a dominance token."""
    what, _, key = path.partition(".")
    st = game.state
    if what == "control":
        return game.controller(key)
    if what == "castle":
        return game.castle_level(key)
    if what == "routed":
        return sorted(u[0] for u in st.units_in(key) if u[1])
    if what == "castles":
        return game.castle_counts().get(key, 0)
    if what == "victory":
        return game.victory_points(key)
    if what == "supply":
        return st.houses[key].supply
    token, _, part = key.partition(".")  # dominance.TOKEN.holder | dominance.TOKEN.side
    if part == "holder":
        return game.holder(token)
    flag = {game.token_of_track(game.blade_track): st.blade_used,
            game.token_of_track(game.raven_track): st.raven_used}[token]
    return "used" if flag else "available"


def _unit_multiset(text: str | None) -> tuple | None:
    if text is None:
        return None
    house, _, units = text.partition(": ")
    return house, sorted(units.split(", "))


def _matches(event: dict, want: dict) -> bool:
    for k, v in want.items():
        if k == CARD_V1:  # format 1: the card the event is about
            if event.get("subject", event.get("card")) != v:
                return False
        elif k == "text":
            if str(v) not in event.get("text", ""):
                return False
        elif event.get(k) != v:
            return False
    return True


def _get(data, path: str):
    node = data
    for part in path.split("."):
        if isinstance(node, dict):
            if part not in node:
                return None
            node = node[part]
        elif isinstance(node, list):
            if not part.lstrip("-").isdigit() or not -len(node) <= int(part) < len(node):
                return None  # no such item: the expectation fails, it does not crash
            node = node[int(part)]
        else:
            return None
    return node


def _check(result: Result) -> None:
    exp = result.scenario.expect
    events = result.game.events
    if "error" in exp:  # the scenario shows something the rules refuse
        matched = result.error is not None and str(exp["error"]) in result.error
        result.error_expected = matched
        result.checks.append((matched, f"error containing {exp['error']!r}" + (
            "" if matched else f" — got {result.error!r}")))
    i = 0
    for want in exp.get("events") or []:
        j = next((k for k in range(i, len(events)) if _matches(events[k], want)), None)
        if j is None:
            result.checks.append((False, f"event {want} — not found (after event #{i})"))
        else:
            result.checks.append((True, f"event {want} — #{j} {events[j]['rule']} {events[j]['text']}"))
            i = j + 1
    for want in exp.get("absent") or []:
        hit = next((e for e in events if _matches(e, want)), None)
        result.checks.append((hit is None, f"no event {want}" + (f" — but #{hit['n']} {hit['text']}" if hit else "")))
    state = expect_view(result.game.state)
    for path, want in (exp.get("state") or {}).items():
        got = _derived(result.game, path) if path.split(".")[0] in DERIVED_PATHS else _get(state, path)
        if path.startswith("units.") and isinstance(want, str | type(None)):
            got_text = format_units(got)
            want_text = format_units(parse_units(want, path, result.scenario.path)) if want else None
            same = _unit_multiset(got_text) == _unit_multiset(want_text)  # the order of units in an area means nothing
            result.checks.append((same, f"{path} = {want_text!r}" + ("" if same else f" — got {got_text!r}")))
            continue
        ok = got == want
        result.checks.append((ok, f"{path} = {json.dumps(want)}" + ("" if ok else f" — got {json.dumps(got)}")))
    if "winner" in exp:
        got = result.game.state.winner
        result.checks.append((got == exp["winner"], f"winner = {exp['winner']}" +
                              ("" if got == exp["winner"] else f" — got {got}")))


# ---- printing -------------------------------------------------------------------------------------

def explain_lines(result: Result) -> list[str]:
    sc = result.scenario
    st = result.game.state
    lines = [f"scenario {sc.path}: {sc.name}" + (f"  [{', '.join(sc.rules)}]" if sc.rules else "")]
    if sc.description:
        lines.append(f"  {sc.description}")
    lines.append(f"position: setup {sc.setup}, seed {sc.seed}, round {sc.position.get('round', 1)}, "
                 f"{sc.position.get('phase', 'action')} phase" + (f", stop after {sc.stop_after}" if sc.stop_after
                                                                else ""))
    for step in result.steps:
        if step.event is not None:
            e = step.event
            origin = f"  ⟨{e['card']} @ {e['source']}⟩" if "source" in e else ""  # the card statement behind it
            lines.append(f"#{e['n']:<4} r{e['round']} {e['phase']:<8} {e['rule']:<16} {e['text']}{origin}")
        elif step.decision is not None:
            d = step.decision
            how = {"script": "", "default": " (default)", "first": " (first option)",
                   "single": " (the only answer)"}.get(step.source, "")
            answer = "—" if step.answer is None else step.answer
            origin = f"  ⟨{d.info['card']} @ {d.info['source']}⟩" if d.info.get("source") else ""
            lines.append(f"      decision #{d.number} {d.house} {d.kind} [{d.rule}]: {answer}{how} "
                         f"({len(d.options)} legal){origin}")
    if result.error:
        lines.append(f"error: {result.error}")
    lines.append("expectations:")
    for ok, text in result.checks:
        lines.append(f"  {'✓' if ok else '✗'} {text}")
    lines.append(f"{'PASS' if result.ok else 'FAIL'} — final state {st.hash()}")
    return lines
