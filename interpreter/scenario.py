"""Scenarios: a position, scripted decisions and expected results, for rules lawyers and tests.

A scenario file (YAML, see docs/scenarios.md) starts from a setup, overrides any part of the position
(units, orders, power, tracks, hands, decks, round and phase), answers the decisions from a script,
runs the rules up to a chosen point and checks the expected events and state. `maester explain`
prints the resolution step by step, each step with the rule id it applies.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import yaml

from maester.dsl.diagnostics import Diagnostics, MaesterError, Span

from .decisions import Decision, IllegalDecision
from .game import Game
from .mod import ModOptions, new_game
from .rules import Rules
from .state import GameState, HouseState

SCENARIO_KEYS = {"name", "rules", "description", "setup", "seed", "position", "decisions", "defaults",
                 "otherwise", "stop-after", "expect", "tides-of-battle", "players", "gifts"}
POSITION_KEYS = {"round", "phase", "houses", "tracks", "units", "keep-units", "orders", "power-tokens",
                 "garrisons", "neutral-forces", "blocked", "decks", "wildling-deck", "wildling-threat",
                 "blade-used", "raven-used", "forbidden-orders", "loyalty", "improvements", "dragon-strength",
                 "dragon-tokens", "loyalty-points",
                 "commanders", "bank", "loan-deck", "loans", "loan-discount-holder", "leaving"}
EXPECT_KEYS = {"events", "absent", "state", "winner", "decisions-left", "error"}


class ScenarioError(MaesterError):
    """A scenario file that cannot be read or run as written."""


def _fail(path: str, message: str, hint: str | None = None) -> ScenarioError:
    diags = Diagnostics()
    diags.error("scenario", message, Span(path, 0, 0), hint)
    return ScenarioError(diags)


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
            kind, n = kind.split(" x")
            count = int(n)
        units.extend([[kind.strip(), routed] for _ in range(count)])
    return {"house": house.strip(), "units": units}


def format_units(army: dict | None) -> str | None:
    if not army:
        return None
    return f"{army['house']}: " + ", ".join(u[0] + ("(routed)" if u[1] else "") for u in army["units"])


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

    @classmethod
    def load(cls, path: str | Path) -> Scenario:
        label = str(path)
        try:
            data = yaml.safe_load(Path(path).read_text(encoding="utf-8"))
        except FileNotFoundError:
            raise _fail(label, f"{label}: no such file") from None
        except yaml.YAMLError as e:
            mark = getattr(e, "problem_mark", None)
            diags = Diagnostics()
            diags.error("scenario-yaml", f"{label} is not valid YAML: {getattr(e, 'problem', e)}",
                        Span(label, mark.line + 1 if mark else 0, mark.column + 1 if mark else 0))
            raise ScenarioError(diags) from None
        if not isinstance(data, dict):
            raise _fail(label, f"{label}: a scenario is a mapping of keys (name, setup, position, ...)")
        unknown = set(data) - SCENARIO_KEYS
        if unknown:
            raise _fail(label, f"unknown scenario key(s): {', '.join(sorted(unknown))}",
                        "allowed: " + ", ".join(sorted(SCENARIO_KEYS)))
        pos = data.get("position") or {}
        bad = set(pos) - POSITION_KEYS
        if bad:
            raise _fail(label, f"unknown position key(s): {', '.join(sorted(bad))}",
                        "allowed: " + ", ".join(sorted(POSITION_KEYS)))
        exp = data.get("expect") or {}
        bad = set(exp) - EXPECT_KEYS
        if bad:
            raise _fail(label, f"unknown expect key(s): {', '.join(sorted(bad))}",
                        "allowed: " + ", ".join(sorted(EXPECT_KEYS)))
        return cls(label, data.get("name", Path(path).stem), list(data.get("rules", [])),
                   data.get("setup", "base-6p"), int(data.get("seed", 1)), pos, list(data.get("decisions") or []),
                   dict(data.get("defaults") or {}), data.get("otherwise", "fail"), data.get("stop-after"),
                   exp, bool(data.get("tides-of-battle", False)), data.get("description", ""),
                   data.get("players"), list(data.get("gifts") or []))

    # ---- the position
    def build_state(self, rules: Rules) -> GameState:
        base = new_game(rules, self.setup, seed=self.seed,
                        options=ModOptions(tides_of_battle=self.tides, player_houses=self.players), start=False)
        base._setup()
        st = base.state
        p = self.position
        st.round = int(p.get("round", st.round))
        st.phase = p.get("phase", "action")
        for h, vals in (p.get("houses") or {}).items():
            self._check_house(st, h)
            hs: HouseState = st.houses[h]
            for key, value in vals.items():
                if key not in ("power", "supply", "hand", "discards", "removed", "last-bid"):
                    raise _fail(self.path, f"houses.{h}: unknown key '{key}'",
                                "allowed: power supply hand discards removed last-bid")
                setattr(hs, key.replace("-", "_"), value)
            if "hand" in vals and "discards" not in vals:
                hs.discards = []
        for track, order in (p.get("tracks") or {}).items():
            if track not in st.tracks:
                raise _fail(self.path, f"unknown track '{track}'", "tracks: " + ", ".join(st.tracks))
            if sorted(order) != sorted(st.tracks[track]):
                raise _fail(self.path, f"tracks.{track} must list exactly the houses in play: "
                            + ", ".join(sorted(st.tracks[track])))
            st.tracks[track] = list(order)
        if "units" in p:
            if not p.get("keep-units", False):
                st.units = {}
            for area, text in (p.get("units") or {}).items():
                self._check_area(base, area)
                if text is None:
                    st.units.pop(area, None)
                    continue
                army = parse_units(text, f"units.{area}", self.path)
                self._check_house(st, army["house"])
                for u in army["units"]:
                    if u[0] not in rules.unit_kinds:
                        raise _fail(self.path, f"units.{area}: unknown unit kind '{u[0]}'",
                                    "kinds: " + ", ".join(rules.unit_kinds))
                st.units[area] = army
        if "orders" in p:
            st.orders = {}
            for area, text in (p.get("orders") or {}).items():
                self._check_area(base, area)
                house, _, order = str(text).partition(":")
                order = order.strip()
                if order not in rules.bundle["orders"]:
                    raise _fail(self.path, f"orders.{area}: unknown order '{order}'",
                                "orders: " + ", ".join(sorted(rules.bundle["orders"])))
                st.orders[area] = {"house": house.strip(), "order": order}
        for key, attr in (("power-tokens", "power_tokens"), ("neutral-forces", "neutral_forces"),
                          ("loyalty", "loyalty"), ("improvements", "improvements"),
                          ("loyalty-points", "loyalty_points")):
            if key in p:
                setattr(st, attr, dict(p[key] or {}))
        if "garrisons" in p:
            st.garrisons, st.garrison_owner = {}, {}
            for area, strength in (p["garrisons"] or {}).items():
                st.garrisons[area] = strength
                st.garrison_owner[area] = base.board.area(area).home
        if "blocked" in p:
            st.blocked = list(p["blocked"] or [])
        for deck, cards in (p.get("decks") or {}).items():
            if deck not in st.decks:
                raise _fail(self.path, f"unknown deck '{deck}'", "decks: " + ", ".join(st.decks))
            rest = list(st.decks[deck])
            for c in cards:
                if c not in rest:
                    raise _fail(self.path, f"decks.{deck}: '{c}' is not in deck {deck} (or listed too often)")
                rest.remove(c)
            st.decks[deck] = list(cards) + rest
        if "wildling-deck" in p:
            rest = [c for c in st.wildling_deck if c not in p["wildling-deck"]]
            st.wildling_deck = list(p["wildling-deck"]) + rest
        for vassal, commander in (p.get("commanders") or {}).items():
            self._check_house(st, vassal)
            self._check_house(st, commander)
            st.commanders[vassal] = commander
        for key in ("bank", "loan-deck"):
            for loan in p.get(key) or []:
                if loan is not None and loan not in rules.bundle["loans"]:
                    raise _fail(self.path, f"{key}: unknown loan '{loan}'",
                                "loans: " + ", ".join(rules.bundle["loans"]))
        if "bank" in p:  # loans not in the bank go back to the loan deck (a loan is never in both)
            old = [c for c in st.bank if c is not None]
            st.bank = list(p["bank"] or [])
            st.loan_deck = [c for c in st.loan_deck + old if c not in st.bank]
        if "loan-deck" in p:
            top = list(p["loan-deck"] or [])
            st.loan_deck = top + [c for c in st.loan_deck if c not in top and c not in st.bank]
        if "loans" in p:
            st.loans = {h: list(v) for h, v in (p["loans"] or {}).items()}
        if "loan-discount-holder" in p:
            st.discount_holder = p["loan-discount-holder"]
        for key, attr in (("wildling-threat", "wildling_threat"), ("blade-used", "blade_used"),
                          ("raven-used", "raven_used"), ("forbidden-orders", "forbidden_orders"),
                          ("dragon-strength", "dragon_strength"), ("dragon-tokens", "dragon_tokens"),
                          ("leaving", "leaving")):
            if key in p:
                setattr(st, attr, p[key])
        return st

    def _check_house(self, st: GameState, house: str) -> None:
        if house not in st.houses:
            raise _fail(self.path, f"'{house}' is not a house of setup {self.setup}",
                        "houses: " + ", ".join(st.houses))

    def _check_area(self, g: Game, area: str) -> None:
        if area not in g.board:
            from maester.dsl.diagnostics import hint_for

            raise _fail(self.path, f"unknown area '{area}' on board {g.board.id}",
                        hint_for(area, [a.id for a in g.board.areas], show_all=0))


# ---- running --------------------------------------------------------------------------------------

@dataclass
class Step:
    """One line of the trace: an event, or a decision and its answer."""

    event: dict | None = None
    decision: Decision | None = None
    answer: object = None
    source: str = ""  # "script", "default", "first"


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


def _derived(game: Game, path: str):
    """`control.AREA` (the controlling house, R23) and `castles.HOUSE` (victory points, R23.7)."""
    what, _, key = path.partition(".")
    if what == "control":
        return game.controller(key)
    return game.victory_points(key)


def _matches(event: dict, want: dict) -> bool:
    for k, v in want.items():
        if k == "text":
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
    state = result.game.state.to_json()
    for path, want in (exp.get("state") or {}).items():
        got = _derived(result.game, path) if path.split(".")[0] in ("control", "castles") else _get(state, path)
        if path.startswith("units.") and isinstance(want, str | type(None)):
            got_text = format_units(got)
            want_text = format_units(parse_units(want, path, result.scenario.path)) if want else None
            result.checks.append((got_text == want_text, f"{path} = {want_text!r}" +
                                  ("" if got_text == want_text else f" — got {got_text!r}")))
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
            how = {"script": "", "default": " (default)", "first": " (first option)"}.get(step.source, "")
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
