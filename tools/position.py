"""Positions to look at: a saved state, a game log replayed step by step, a scenario resolved step by step.

A `Timeline` is the list of positions a game went through, one per trace line: the trace is every event and
every decision, in order. Step 0 is the position before the first line; step N the position at line N-1 (an
event: just after it happened; a decision: as the decider saw it). `maester render` draws one step,
`maester view` all of them.
"""

from __future__ import annotations

import json
import pickle
from dataclasses import dataclass, field
from pathlib import Path

from maester.dsl.diagnostics import Diagnostics, MaesterError, Span
from maester.dsl.json_input import check_size, read_bounded
from maester.dsl.json_input import loads as strict_json
from maester.interpreter.core import formats
from maester.interpreter.core.decisions import IllegalDecision, short_repr
from maester.interpreter.core.position import POSITION_FORMAT, apply_actions
from maester.interpreter.core.rules import Rules
from maester.interpreter.core.state import GameState
from maester.interpreter.core.state_check import state_problems
from maester.interpreter.mod import ModOptions, new_game
from maester.interpreter.procedures.game import Game

TABLE_FORMAT = "maester-table"  # a seat's saved table (tools/human.py): the position under `position`

# the events that open a Planning Phase (orders go down face down) and that reveal the orders (R13.1, R13.4)
PLANNING_RULE = "R13"
REVEAL_EVENT = "reveal-orders"
DECISION = "decision"  # the type of a trace line that is a decision, not an event
MARCH_EVENT, COMBAT_EVENT = "march", "combat"


@dataclass
class Timeline:
    rules: Rules
    title: str
    source: str  # what it was made from (a file name), for captions
    # states[k]: the position at trace line k-1, pickled (ten times faster than asdict; it never leaves this process)
    states: list[bytes] = field(default_factory=list)
    lines: list[dict] = field(default_factory=list)  # the trace: events, and decisions (type "decision")
    embattled: list[str | None] = field(default_factory=list)  # per step: the area of the combat under way

    @property
    def events(self) -> list[dict]:
        return [line for line in self.lines if line["type"] != DECISION]

    def __len__(self) -> int:
        return len(self.states)

    def state(self, step: int) -> GameState:
        return pickle.loads(self.states[step])  # a fresh copy: the caller may change it

    def orders_face_down(self, step: int) -> bool:
        """Orders stay face down from the start of a Planning Phase until they are revealed (R13.1, R13.4)."""
        if self.state(step).phase != "planning":
            return False
        for event in reversed(self.lines[:step]):
            if event["type"] == REVEAL_EVENT:
                return False
            if event["type"] == "phase" and event["rule"] == PLANNING_RULE:
                return True
        return True  # a position that starts in the Planning Phase: nothing was revealed yet

    def combat(self, step: int) -> dict | None:
        """The combat under way at this step, with the attacking army: the engine keeps it off the board until
        the combat ends (R16.4.2), so it is the marching house's units that left with the last march."""
        area = self.embattled[step] if step < len(self.embattled) else None
        if area is None:
            return None
        march = next((i for i in range(step - 1, -1, -1) if self.lines[i]["type"] == MARCH_EVENT), None)
        start = next((i for i in range(step - 1, -1, -1) if self.lines[i]["type"] == COMBAT_EVENT), None)
        if march is None or start is None:
            return None
        house = self.lines[march]["house"]
        before, after, now = self.state(march), self.state(march + 1), self.state(step)
        gone: list[str] = []
        for kind in sorted({u[0] for army in before.units.values() for u in army["units"]}):
            left = before.unit_count(house, kind) - after.unit_count(house, kind)
            back = max(0, now.unit_count(house, kind) - after.unit_count(house, kind))  # it has advanced in
            gone += [kind] * max(0, left - back)
        if not gone:
            return None
        return {"area": area, "origin": self.lines[march]["area"], "attacker": self.lines[start]["attacker"],
                "defender": self.lines[start]["defender"], "units": gone}

    @property
    def houses(self) -> list[str]:
        """The houses of the game: a log's first step comes before the setup (no house yet), so the last."""
        return list(self.state(len(self.states) - 1).houses)

    def check_step(self, step: int) -> int:
        """The step asked for on the command line (negative: counted from the end), or a clear error."""
        last = len(self.states) - 1
        k = step if step >= 0 else last + 1 + step
        if not 0 <= k <= last:
            _fail(self.source, f"{self.source} has steps 0 to {last}; there is no step {step}",
                  "step 0 is the position before the first event, step N the position at the N-th trace line "
                  "(events and decisions)")
        return k


def _fail(where: str, message: str, hint: str | None = None) -> None:
    diags = Diagnostics()
    diags.error("bad-position", message, Span(where, 0, 0), hint)
    raise MaesterError(diags)


def snapshot(state: GameState) -> bytes:
    return pickle.dumps(state, protocol=pickle.HIGHEST_PROTOCOL)


def record(game: Game, timeline: Timeline) -> None:
    """Take a snapshot of the position now (step 0), at each event and at each decision.

    The rules change the state and then emit the event that says so, so the snapshot taken as an event is
    emitted is the position after it; a decision's snapshot is the position it is asked in. We wrap the
    game's own `emit` and `answer` on this one instance (the engine stays unaware of the viewer).
    """
    emit, answer = game.emit, game.answer
    timeline.states.append(snapshot(game.state))
    timeline.embattled.append(game.embattled)

    def recording_emit(type_: str, rule: str, text: str, **data) -> dict:
        event = emit(type_, rule, text, **data)
        timeline.states.append(snapshot(game.state))
        timeline.embattled.append(game.embattled)
        timeline.lines.append(event)
        return event

    def recording_answer(value) -> None:
        d = game.decision
        if d is not None and d.is_legal(value):
            for_ = d.info.get("for")
            timeline.states.append(snapshot(game.state))
            timeline.embattled.append(game.embattled)
            timeline.lines.append({"type": DECISION, "n": d.number, "round": game.state.round,
                                   "phase": game.state.phase, "rule": d.rule, "house": d.house, "for": for_,
                                   "kind": d.kind, "prompt": d.prompt, "answer": value,
                                   "area": d.info.get("area") if isinstance(d.info.get("area"), str) else None})
        answer(value)

    game.emit = recording_emit  # type: ignore[method-assign]
    game.answer = recording_answer  # type: ignore[method-assign]


def _finish(game: Game, timeline: Timeline) -> Timeline:
    assert len(timeline.states) == len(timeline.lines) + 1
    timeline.states[-1] = snapshot(game.state)  # the last step: the end as the rules left it
    timeline.embattled[-1] = game.embattled
    return timeline


def _packs_of(path: Path, data: dict, packs: list[Path] | None) -> list[Path]:
    """The packs a log was played with: the ones given, else those it records (as given to `maester play`:
    relative to where it was run, or to the log's folder)."""
    if packs:
        return list(packs)
    found = []
    for p in data.get("packs") or []:
        candidates = [Path(p), Path(path).parent / p]
        hit = next((c for c in candidates if c.is_dir()), None)
        if hit is None:
            _fail(str(path), f"{path} was played with the pack {p}, which is not there",
                  "give its folder with --pack")
        found.append(hit)
    return found


def _rules(variant: str | None, packs: list[Path]) -> Rules:
    if not packs:
        return Rules.default(variant)
    from maester.dsl.compile import default_content_dir

    return Rules.default(variant, [default_content_dir(), *packs])


def from_log(path: Path, packs: list[Path] | None = None) -> Timeline:
    """Replay a game log (its seed and answers) and keep every position on the way."""
    from maester.interpreter.frontends.log import read_log

    data = read_log(path)
    rules = _rules(data.get("variant"), _packs_of(path, data, packs))
    game = new_game(rules, data["setup"], seed=data["seed"], options=ModOptions(**data.get("options", {})),
                    start=False)
    timeline = Timeline(rules, f"game {data['setup']}, seed {data['seed']}", str(path))
    record(game, timeline)
    game.start()
    actions = data.get("actions") or []
    for i, answer in enumerate(data["answers"]):
        try:
            apply_actions(game, actions, i)  # gifts and leaving, at their places among the answers
            game.answer(answer)
        except IllegalDecision as e:
            _fail(str(path), f"decision {i} of the log ({short_repr(answer)}) is not legal when the log is replayed",
                  e.diagnostics.items[0].message)
        except (MaesterError, KeyError, TypeError, ValueError, IndexError, AttributeError) as e:
            _fail(str(path), f"the log cannot be replayed at decision {i}: {type(e).__name__}",
                  "was the log edited? `maester play --log` writes logs that replay")
    try:
        apply_actions(game, actions, len(data["answers"]))
    except (MaesterError, KeyError, TypeError, ValueError) as e:
        _fail(str(path), f"the log's last actions cannot be replayed: {type(e).__name__}")
    return _finish(game, timeline)


def from_scenario(path: Path, variant: str | None = None, packs: list[Path] | None = None) -> Timeline:
    """Resolve a scenario as `maester explain` does and keep every position on the way."""
    from maester.interpreter.frontends.scenario import Scenario, run_scenario

    sc = Scenario.load(path)
    rules = _rules(variant, list(packs or []))
    holder: dict[str, Timeline] = {}

    def on_game(game: Game) -> None:
        holder["t"] = Timeline(rules, f"scenario: {sc.name}", str(path))
        record(game, holder["t"])

    result = run_scenario(rules, sc, on_game=on_game)
    return _finish(result.game, holder["t"])


def from_state(path: Path, variant: str | None = None, packs: list[Path] | None = None) -> Timeline:
    """A saved position (`maester play --save`: proved by replaying its history), or a bare state JSON (as
    `GameState.to_json()` writes it, or `{"state": {...}}`: checked against the state schema and the invariants of
    the rules, interpreter/core/state_check.py). Nothing is drawn from a state that fails."""
    try:
        data = strict_json(Path(path).read_text(encoding="utf-8"), str(path))
    except FileNotFoundError:
        _fail(str(path), f"{path}: no such file")
    except json.JSONDecodeError as e:
        diags = Diagnostics()
        diags.error("not-json", f"{path} is not JSON: {e.msg}", Span(str(path), e.lineno, e.colno))
        raise MaesterError(diags) from None
    if isinstance(data, dict) and data.get("format") == TABLE_FORMAT and isinstance(data.get("position"), dict):
        data = data["position"]  # a saved table (`maester play --save`): the position with its seats
    if isinstance(data, dict) and data.get("format") == POSITION_FORMAT:
        return _from_position(path, data, variant, packs)
    if isinstance(data, dict) and isinstance(data.get("state"), dict):
        data = data["state"]
    if not isinstance(data, dict) or not {"board", "units", "houses", "tracks"} <= set(data):
        _fail(str(path), f"{path} is neither a game state, a game log nor a scenario",
              "render takes a state JSON, a log from `maester play --log` or a scenario YAML")
    found = formats.problems("state", data, limit=5)
    if found:
        _fail(str(path), f"{path} is not a game state of this version: {'; '.join(found)}",
              "see schemas/state.schema.json")
    try:
        state = GameState.from_json(data)
    except (TypeError, KeyError, ValueError, AttributeError) as e:
        _fail(str(path), f"{path} is not a game state of this version: {e}")
    rules = _rules(variant, list(packs or []))
    if state.board not in rules.bundle["boards"] or state.setup not in rules.bundle["setups"]:
        _fail(str(path), f"{path}: board '{state.board}' or setup '{state.setup}' is not in the content")
    broken = state_problems(rules, state)
    if broken:
        _fail(str(path), f"{path}: the state breaks the rules: {'; '.join(broken[:5])}",
              "a state is drawn only when it is one the rules allow")
    return Timeline(rules, f"position of {state.setup}", str(path), [snapshot(state)])


def _from_position(path: Path, doc: dict, variant: str | None, packs: list[Path] | None = None) -> Timeline:
    """A saved position: resumed as `maester play --resume` does (its history proves it), then drawn."""
    saved = doc.get("variant") if isinstance(doc.get("variant"), str) else None
    if variant and saved and variant != saved:
        _fail(str(path), f"{path} was saved playing variant {saved}, not {variant}", "leave out --variant")
    rules = _rules(variant or saved, list(packs or []))
    try:
        game = Game.from_state(rules, doc)
    except MaesterError as e:
        item = e.diagnostics.items[0]
        _fail(str(path), f"{path}: {item.message}", item.hint)
    return Timeline(rules, f"position of {game.state.setup}", str(path), [snapshot(game.state)])


def load(path: Path, variant: str | None = None, packs: list[Path] | None = None) -> Timeline:
    """Whatever the file is: a scenario (YAML), a game log or a state (JSON)."""
    if path.is_dir():
        _fail(str(path), f"{path} is a folder", "give one file: a state JSON, a game log or a scenario YAML")
    if path.suffix in (".yaml", ".yml"):
        return from_scenario(path, variant, packs)
    try:
        check_size(path.stat().st_size, str(path))
        head = strict_json(read_bounded(path, str(path)), str(path))  # within the limits (dsl/limits.py)
    except FileNotFoundError:
        _fail(str(path), f"{path}: no such file")
    except (OSError, UnicodeDecodeError, json.JSONDecodeError):
        _fail(str(path), f"{path} is neither a game state, a game log nor a scenario",
              "give a state JSON, a log from `maester play --log` or a scenario YAML (.yaml)")
    if isinstance(head, dict) and head.get("format") == "maester-game-log":
        return from_log(path, packs)
    return from_state(path, variant, packs)
