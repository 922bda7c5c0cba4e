"""Game logs: a game is its setup, seed and answers; the log also keeps every event and the final hash,
so `maester replay` can prove a rerun matches event for event.
"""

from __future__ import annotations

import json
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

LOG_FORMAT = "maester-game-log"
LOG_VERSION = 1
LOG_SCHEMA = "log.schema.json"


def game_log(game: Game, agents: str = "") -> dict:
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
    game = new_game(rules, data["setup"], seed=data["seed"], options=ModOptions(**data.get("options", {})))
    actions = data.get("actions") or []
    for i, answer in enumerate(data["answers"]):
        try:
            apply_actions(game, actions, i)
            game.answer(answer)
        except IllegalDecision as e:
            diags.error("replay-diverged", f"decision {i} of the log is not legal in the replay", None,
                        e.diagnostics.items[0].message)
            return game, diags
    apply_actions(game, actions, len(data["answers"]))
    logged = data.get("events", [])
    for mine, theirs in zip(game.events, logged, strict=False):
        if mine != theirs:
            diags.error("replay-diverged", f"event {mine['n']} differs: replay says {mine['text']!r}, the log says "
                        f"{theirs['text']!r}", None)
            return game, diags
    if len(game.events) != len(logged):
        diags.error("replay-diverged", f"the replay has {len(game.events)} events, the log {len(logged)}", None)
    expected = data.get("summary", {}).get("state_hash")
    if expected and expected != game.state.hash():
        diags.error("replay-diverged", f"final state {game.state.hash()} differs from the logged {expected}", None)
    return game, (diags if diags.errors else None)
