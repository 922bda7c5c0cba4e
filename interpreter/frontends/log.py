"""Game logs: a game is its setup, seed and answers; the log also keeps the starting state, every decision (its
kind, decider, rule and legal answers, with the answer and the number of events before it), every event and the
final state, in the shapes of the conformance vectors, so a log can be checked without an engine, and `maester
replay` proves a rerun matches it decision for decision and event for event. A *thin* log keeps the answers only
(with the final state's hash). Version 1 logs (answers and events, no decisions) are read as meant: as logs
without decisions.
"""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

from maester.dsl.diagnostics import Diagnostics, MaesterError, Span
from maester.dsl.files import write_file
from maester.dsl.json_input import loads as strict_json

from ..core import formats
from ..core.decisions import IllegalDecision
from ..core.position import apply_actions
from ..core.rules import Rules
from ..mod import ModOptions, new_game
from ..procedures.game import Game
from .conformance import decision_record

LOG_FORMAT = "maester-game-log"
LOG_VERSION = 2  # 2: `initial_state`, `decisions` (vector shape), `final_state`; thin logs; 1: answers and events
READ_VERSIONS = (1, 2)  # version 1 is read as a log without decisions
LOG_SCHEMA = "log.schema.json"


def game_log(game: Game, agents: str = "", thin: bool = False) -> dict:
    """The log of `game` (played from its setup). `thin`: the answers only, with the summary (no events, no
    decisions, no states); otherwise the game is rerun from its seed to record each decision as it was asked."""
    data = _envelope(game, agents)
    if thin:
        del data["events"]
        data["thin"] = True
        return data
    initial, decisions = _decisions(game)
    return {**data, "initial_state": initial, "decisions": decisions, "final_state": game.state.to_json()}


def _decisions(game: Game) -> tuple[dict, list[dict]]:
    """The starting state and every decision of the game with its answer (the game rerun from its seed and
    answers, with its between-decision actions)."""
    rerun = type(game)(game.rules, game.state.setup, seed=game.state.seed, options=replace(game.options),
                       start=False)
    initial = rerun.state.to_json()
    rerun.start()
    out = []
    for i, answer in enumerate(game.answers):
        apply_actions(rerun, game.actions, i)
        out.append({**decision_record(rerun.decision, rerun.event_count), "answer": answer})
        rerun.answer(answer)
    return json.loads(json.dumps(initial)), json.loads(json.dumps(out))


def _envelope(game: Game, agents: str) -> dict:
    return {
        "format": LOG_FORMAT,
        "version": LOG_VERSION,
        "bundle_format": game.rules.bundle["format_version"],
        "variant": game.rules.bundle.get("applied_variant"),
        "setup": game.state.setup,
        "seed": game.state.seed,
        "options": {"tides_of_battle": game.options.tides_of_battle,
                    "player_houses": getattr(game.options, "player_houses", None)},
        "agents": agents,
        "answers": game.answers,
        "actions": game.actions,  # gifts and leaving, each at its place among the answers
        "events": game.events,
        "summary": game.summary(),
    }


def write_log(path: Path, data: dict) -> None:
    write_file(path, json.dumps(data, indent=1) + "\n")


def read_log(path: Path) -> dict:
    """A game log file, checked against schemas/log.schema.json before anything uses it."""
    diags = Diagnostics()
    label = str(path)
    try:
        data = strict_json(Path(path).read_text(encoding="utf-8"), label)  # within the limits (dsl/limits.py)
    except FileNotFoundError:
        diags.error("no-such-file", f"{path}: no such file", Span(label, 0, 0))
        raise MaesterError(diags) from None
    except json.JSONDecodeError as e:
        diags.error("not-json", f"{path} is not JSON: {e.msg}", Span(label, e.lineno, e.colno))
        raise MaesterError(diags) from None
    except UnicodeDecodeError as e:
        diags.error("not-utf8", f"{path} is not UTF-8 text ({e.reason} at byte {e.start})", Span(label, 0, 0))
        raise MaesterError(diags) from None
    except (OSError, RecursionError) as e:  # a folder, no permission; JSON nested beyond Python's stack
        why = e.strerror if isinstance(e, OSError) else "nested too deeply"
        diags.error("unreadable", f"{path} cannot be read: {why}", Span(label, 0, 0))
        raise MaesterError(diags) from None
    if not isinstance(data, dict) or data.get("format") != LOG_FORMAT:
        diags.error("not-a-log", f"{path} is not a maester game log", Span(label, 0, 0),
                    "game logs are written by `maester play --log FILE`")
        raise MaesterError(diags)
    validate_log(data, diags, label)
    if diags.errors:
        raise MaesterError(diags)
    return data


def validate_log(data: object, diags: Diagnostics, label: str = "log") -> None:
    """Every way `data` is not a game log of this version (at most 20), each with its JSON pointer."""
    from maester.dsl.limits import json_depth_problem
    from maester.dsl.validate import json_pointer

    problem = json_depth_problem(data)
    if problem:
        diags.error("not-a-log", f"{label}: {problem}", Span(label, 0, 0))
        return
    errors = sorted(formats.iter_errors("log", data), key=lambda e: list(map(str, e.absolute_path)))
    for e in errors[:20]:
        diags.error("log-schema", f"{label} does not match the game log schema at {json_pointer(e.absolute_path)}: "
                    f"{_short(e.message)}", Span(label, 0, 0), f"see schemas/{LOG_SCHEMA}")
    if len(errors) > 20:
        diags.error("log-schema", f"{label}: {len(errors) - 20} more schema violations not shown", Span(label, 0, 0))


def _short(message: str, limit: int = 200) -> str:
    return message if len(message) <= limit else message[:limit] + "..."


def replay_log(rules: Rules, data: dict) -> tuple[Game, Diagnostics | None]:
    """Rerun a logged game; returns the game and, if it differs from the log, what differs."""
    diags = Diagnostics()
    validate_log(data, diags)
    if diags.errors:
        raise MaesterError(diags)
    game = new_game(rules, data["setup"], seed=data["seed"], options=ModOptions(**data.get("options", {})),
                    start=False)
    if "initial_state" in data and game.state.to_json() != data["initial_state"]:
        diags.error("replay-diverged", "the starting state differs from the logged `initial_state`", None)
        return game, diags
    game.start()
    actions = data.get("actions") or []
    asked = data.get("decisions")
    for i, answer in enumerate(data["answers"]):
        try:
            apply_actions(game, actions, i)
            if asked is not None:
                problem = _decision_differs(game, asked[i] if i < len(asked) else None, i)
                if not problem and asked[i].get("answer") != answer:
                    problem = f"decision {i}: the log's `decisions` and `answers` give different answers"
                if problem:
                    diags.error("replay-diverged", problem, None)
                    return game, diags
            game.answer(answer)
        except IllegalDecision as e:
            diags.error("replay-diverged", f"decision {i} of the log is not legal in the replay", None,
                        e.diagnostics.items[0].message)
            return game, diags
    apply_actions(game, actions, len(data["answers"]))
    logged = data.get("events")
    for mine, theirs in zip(game.events, logged or [], strict=False):
        if mine != theirs:
            diags.error("replay-diverged", f"event {mine['n']} differs: replay says {mine['text']!r}, the log says "
                        f"{theirs['text']!r}", None)
            return game, diags
    if logged is not None and len(game.events) != len(logged):
        diags.error("replay-diverged", f"the replay has {len(game.events)} events, the log {len(logged)}", None)
    if "final_state" in data and game.state.to_json() != data["final_state"]:
        diags.error("replay-diverged", "the final state differs from the logged `final_state`", None)
    expected = data.get("summary", {}).get("state_hash")
    if expected and expected != game.state.hash():
        diags.error("replay-diverged", f"final state {game.state.hash()} differs from the logged {expected}", None)
    return game, (diags if diags.errors else None)


def _decision_differs(game: Game, logged: dict | None, i: int) -> str | None:
    """Why the decision the replay asks is not the logged one (None: it is)."""
    d = game.decision
    if d is None:
        return f"decision {i}: the replay asks nothing more (the game is over), the log has more answers"
    if logged is None:
        return f"decision {i}: the log records fewer decisions than answers"
    mine = decision_record(d, game.event_count)
    for key in ("number", "house", "kind", "rule", "options", "events_before"):
        if json.loads(json.dumps(mine[key])) != logged.get(key):
            return (f"decision {i} ({mine['kind']} for {mine['house']}) differs in `{key}`: the replay has "
                    f"{mine[key]!r}, the log {logged.get(key)!r}")
    return None
