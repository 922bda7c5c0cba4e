"""The position as a value: save a game at any decision, resume it, clone it, undo an answer.

A position document (`maester-position`, JSON) holds the current state and the pending decision. The state
alone continues the game: its cursor and frames (cursor.py) take the rules procedure straight back to the
pending decision (`Game.restarted`). The document also keeps the whole history (answers and actions since the
game began) and two *checkpoints* (earlier states, snapshot.py bytes while in memory), so that a resumed game
can undo past the point it was saved at and write a complete log; when they are there, resuming checks that
the history rerun from the latest checkpoint arrives at the saved state.

This module knows nothing of the rules; `Game` calls it (and passes its own class to construct games).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import asdict, dataclass, field, fields
from typing import TYPE_CHECKING, Any

from maester.dsl.diagnostics import Diagnostics, MaesterError

from . import formats, snapshot
from .state import GameState

if TYPE_CHECKING:
    from ..procedures.game import Game
    from .rules import Rules

POSITION_FORMAT = "maester-position"
POSITION_VERSION = 3  # 3: the state alone is a restart point (`frames`, state format 3); 2: `modules`

# between-decision actions a player may take (R42.4 gifts, R42.5 leaving), kept with the answers
GIFT, LEAVE = "gift", "leave"


@dataclass(frozen=True)
class Checkpoint:
    """A point the procedure can restart from with the state alone (a phase start or a cursor point)."""

    # the GameState at that point as a snapshot (snapshot.py: bytes, several times cheaper to take than a JSON
    # copy); only the checkpoints a document keeps are ever turned into JSON (`state`)
    blob: bytes
    answers: int  # answers given before it
    events: int  # events emitted before it
    decisions: int  # decisions asked before it
    # what the run itself counts, outside the game state: combats resolved in this run (its "combat N" stop
    # point) and the card statements an event to come will cite ([kind, key, card, source] each)
    run: dict = field(default_factory=dict)
    at: str = ""  # the state's cursor place there ("" at the start of a phase), to find one without unpickling

    @classmethod
    def take(cls, state: GameState, answers: int, events: int, decisions: int, run: dict) -> Checkpoint:
        return cls(snapshot.dumps(state), answers, events, decisions, run,
                   state.step.get("at", ""))

    @classmethod
    def from_json(cls, doc: dict) -> Checkpoint:
        """A checkpoint of a position document (its state is checked by rerunning the history from it)."""
        # the snapshot is taken at once, so the state may share the document's lists meanwhile (no copy)
        state = GameState.from_json(doc["state"])
        return cls.take(state, doc["answers"], doc["events"], doc["decisions"], doc.get("run") or {})

    def game_state(self) -> GameState:
        """A fresh copy of the state at this point."""
        return snapshot.loads(self.blob)

    @property
    def state(self) -> dict:
        return self.game_state().to_json()

    def to_json(self) -> dict:
        return {"state": self.state, "answers": self.answers, "events": self.events, "decisions": self.decisions,
                "run": self.run}


class PositionError(MaesterError):
    """A position document that cannot be resumed (wrong format, another bundle, edited state)."""


def _fail(message: str, hint: str | None = None) -> PositionError:
    diags = Diagnostics()
    diags.error("bad-position", message, None, hint)
    return PositionError(diags)


# ---- saving ---------------------------------------------------------------------------------------

def to_document(game: Game) -> dict:
    """The position as one JSON document (see the module docstring)."""
    cps = game.checkpoints
    kept = [cps[0], cps[-1]] if len(cps) > 1 else list(cps)  # the origin and the latest point (for undo)
    return {
        "format": POSITION_FORMAT,
        "version": POSITION_VERSION,
        "bundle_format": game.rules.bundle["format_version"],
        "variant": game.rules.bundle.get("applied_variant"),
        "setup": game.state.setup,
        "seed": game.state.seed,
        "options": asdict(game.options),
        "state": game.state.to_json(),
        "decision": game.decision.to_json() if game.decision else None,
        "events": game.event_count,
        "decisions": game.decision_count,
        "run": game._run_counts(),
        "checkpoints": [c.to_json() for c in kept],
        "history": {"answers": list(game.answers), "actions": list(game.actions)},
    }


# ---- rebuilding ------------------------------------------------------------------------------------

def rebuild(cls: type[Game], rules: Rules, setup: str, seed: int, options, checkpoints: list[Checkpoint],
            answers: list, actions: list[dict], upto: int) -> Game:
    """A game at the position reached after `answers[:upto]` and the actions taken meanwhile (`answers` and
    `actions` are the whole history). The rerun starts at the last of `checkpoints`, which must lie at or
    before `upto` (none: at the game's start)."""
    if not checkpoints:
        game = cls(rules, setup, seed=seed, options=options, start=False)
        begin = 0
    else:
        cp = checkpoints[-1]
        state = cp.game_state()  # a copy: the checkpoint stays intact
        game = cls(rules, setup, seed=seed, options=options, state=state, start=False)
        game.resume_at(checkpoints, answers[:cp.answers], [a for a in actions if a["at"] < cp.answers])
        begin = cp.answers
    game.start()
    later = [a for a in actions if a["at"] >= begin]
    for i in range(begin, upto):
        apply_actions(game, later, i)
        game.answer(answers[i])
    apply_actions(game, later, upto)
    return game


def apply_actions(game: Game, actions: list[dict], at: int) -> None:
    """Take the between-decision actions recorded at place `at` (after `at` answers)."""
    for a in actions:
        if a["at"] != at:
            continue
        if a["type"] == GIFT:
            game.gift_power(a["from"], a["to"], a["amount"])
        elif a["type"] == LEAVE:
            game.leave(a["house"])
        else:  # documents are checked by `_check_shape`; a programming error otherwise
            raise AssertionError(f"unknown action {a!r}")


def from_document(cls_for: Callable[[str], type[Game]], rules: Rules, doc: Any, check_history: bool = False) -> Game:
    """Resume a saved position; every problem is one `PositionError`, never a half-built game.

    The game goes on from the document's state, which must be one the rules stop at with the saved decision
    pending (a complete check of the state itself, at the cost of a restart). `check_history` also reruns the
    history from its latest checkpoint and requires it to arrive at that state (`_check_history`): several
    times the cost, needed only to trust a file's history (undo, the log) as well as its position; the command
    line asks for it when it reads a file, in-process resumes (clones, agents, Ray) do not."""
    _check_shape(doc)  # the envelope first: its messages say more than a schema pointer
    try:
        return _resume(cls_for, rules, doc, check_history)
    except PositionError:
        # the restart and the rerun prove a document right; a wrong one is explained by the schema where it can be
        found = formats.problems("position", doc, limit=5)
        if found:
            raise _fail(f"the position does not follow schemas/position.schema.json: {'; '.join(found)}") from None
        raise


# what going on from a document's state, or rerunning its history, raises when the document is wrong
_REPLAY_ERRORS = (MaesterError, KeyError, TypeError, ValueError, IndexError, AttributeError, AssertionError)


def _resume(cls_for: Callable[[str], type[Game]], rules: Rules, doc: dict, check_history: bool) -> Game:
    if doc["bundle_format"].split(".")[0] != rules.bundle["format_version"].split(".")[0]:
        raise _fail(f"the position was saved with bundle format {doc['bundle_format']}, this bundle is "
                    f"{rules.bundle['format_version']}")
    if doc["variant"] != rules.bundle.get("applied_variant"):
        raise _fail(f"the position was saved playing variant {doc['variant'] or 'none'}, but the rules loaded "
                    f"use {rules.bundle.get('applied_variant') or 'none'}",
                    f"resume with --variant {doc['variant']}" if doc["variant"] else "resume without --variant")
    if doc["setup"] not in rules.bundle["setups"]:
        raise _fail(f"the position's setup '{doc['setup']}' is not in the bundle")
    cls = cls_for(doc["setup"])
    options = _options(cls.options_type, doc["options"])
    history = doc["history"]
    try:
        checkpoints = [Checkpoint.from_json(c) for c in doc["checkpoints"]]
        state = GameState.from_json(snapshot.copy_data(doc["state"]))  # the game's own copy
    except (KeyError, TypeError, ValueError, AttributeError) as e:
        raise _fail(f"a state of the position is not a game state: {e}", "was the file edited?") from None
    pending = doc["decision"]["number"] if isinstance(doc["decision"], dict) else doc["decisions"]
    run = {"events": doc["events"], "decisions": pending, **(doc.get("run") or {})}
    try:
        game = cls.restarted(rules, state, options, run, (history["answers"], history["actions"], checkpoints))
    except _REPLAY_ERRORS as e:
        raise _fail(f"the game cannot go on from the position's state: {e}",
                    "was it edited, or saved with another version of the content?") from None
    # (compared as it is first, and only through JSON when that differs: a tuple in the state is a JSON list)
    if snapshot.as_data(game.state) != doc["state"] and game.state.to_json() != doc["state"]:
        raise _fail("the position's state is not one the rules stop at",
                    "the file was edited, or saved with other content or another version of maester")
    mine = game.decision.to_json() if game.decision else None
    if mine != doc["decision"] and json.loads(json.dumps(mine)) != doc["decision"]:
        raise _fail("the position's pending decision differs from the one the rules ask here")
    if checkpoints and check_history:
        _check_history(cls, rules, doc, options, checkpoints)
    return game


def _check_history(cls: type[Game], rules: Rules, doc: dict, options, checkpoints: list[Checkpoint]) -> None:
    """The history is what undo and the log go back through: rerun from the latest checkpoint, it must arrive
    at the saved state (a document whose state was edited after the fact is refused, not half-trusted)."""
    answers, actions = doc["history"]["answers"], doc["history"]["actions"]
    try:
        again = rebuild(cls, rules, doc["setup"], doc["seed"], options, checkpoints, answers, actions, len(answers))
    except _REPLAY_ERRORS as e:
        raise _fail(f"the position's history cannot be replayed from its checkpoint: {e}",
                    "was it edited, or saved with another version of the content?") from None
    if again.state.to_json() != doc["state"]:
        raise _fail("the position's state does not follow from its history",
                    "the file was edited, or saved with other content or another version of maester")


def _options(options_type: type, saved: dict):
    known = {f.name for f in fields(options_type)}
    unknown = sorted(k for k, v in saved.items() if k not in known and v is not None)
    if unknown:
        raise _fail(f"the position's options {', '.join(unknown)} do not apply to this rules set")
    return options_type(**{k: v for k, v in saved.items() if k in known})


_SHAPE: dict[str, type | tuple[type, ...]] = {
    "format": str, "version": int, "bundle_format": str, "variant": (str, type(None)), "setup": str, "seed": int,
    "options": dict, "state": dict, "decision": (dict, type(None)), "events": int, "decisions": int,
    "checkpoints": list, "history": dict,
}
_CHECKPOINT_SHAPE = {"state": dict, "answers": int, "events": int, "decisions": int}


def _check_shape(doc: Any) -> None:
    if not isinstance(doc, dict) or doc.get("format") != POSITION_FORMAT:
        raise _fail("this is not a maester position", "positions are written by `maester play --save FILE`")
    if doc.get("version") != POSITION_VERSION:
        raise _fail(f"position version {doc.get('version')!r} is not supported (this maester reads "
                    f"version {POSITION_VERSION})")
    for key, kind in _SHAPE.items():
        if key not in doc:
            raise _fail(f"the position has no '{key}'")
        if not _is(doc[key], kind):
            raise _fail(f"the position's '{key}' has the wrong type ({type(doc[key]).__name__})")
    history = doc["history"]
    if not isinstance(history.get("answers"), list) or not isinstance(history.get("actions"), list):
        raise _fail("the position's history needs 'answers' and 'actions' lists")
    for a in history["actions"]:
        if not (isinstance(a, dict) and _is(a.get("at"), int) and a.get("type") in (GIFT, LEAVE)):
            raise _fail(f"the position's history holds an action that is not a gift or a leave: {a!r}")
    last = -1
    for c in doc["checkpoints"]:
        if not isinstance(c, dict) or any(not _is(c.get(k), t) for k, t in _CHECKPOINT_SHAPE.items()):
            raise _fail("a checkpoint of the position needs 'state', 'answers', 'events' and 'decisions'")
        if not last <= c["answers"] <= len(history["answers"]):
            raise _fail("the position's checkpoints lie outside its history")
        last = c["answers"]
    if doc["history"]["answers"] and not doc["checkpoints"]:
        raise _fail("the position has answers but no checkpoint to resume from")


def _is(value: Any, kind: type | tuple[type, ...]) -> bool:
    """isinstance, except that a boolean is not an integer here."""
    if isinstance(value, bool) and kind in (int, (int,)):
        return False
    return isinstance(value, kind)
