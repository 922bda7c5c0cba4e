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
from dataclasses import asdict, dataclass, field, fields, replace
from typing import TYPE_CHECKING, Any

from maester.dsl.diagnostics import Diagnostics, MaesterError

from . import formats, snapshot
from .frame_check import frame_problems
from .state import GameState
from .state_upgrade import OLDEST_READ, upgrade_position

if TYPE_CHECKING:
    from ..procedures.game import Game
    from .rules import Rules

POSITION_FORMAT = "maester-position"
POSITION_VERSION = 4  # 4: `end_reason` a code and the played house card out of the hand (state format 4);
# 3: the state alone is a restart point (`frames`, state format 3); 2: `modules`. Older: state_upgrade.py

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
        blob = snapshot.dumps_json(doc["state"])  # (a ValueError, KeyError or TypeError for what is no state)
        step = doc["state"].get("step")
        return cls(blob, doc["answers"], doc["events"], doc["decisions"], doc.get("run") or {},
                   step.get("at", "") if isinstance(step, dict) else "")

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


# How much of a position document is believed (`from_document(..., check=...)`). One contract, in one place:
# - REPLAY (the default, for every file from outside): the history, replayed from the setup, must reach exactly
#   the document's state and pending decision; every checkpoint must be a state the replay passed through
#   (checkpoints are a speed-up for undo, verified, never trusted).
# - ANALYSIS (asked for by name: an edited position to study): no history is needed, and none is kept; the
#   state must pass the state schema and every invariant of the rules (state_check.py).
# - TRUSTED (a document this process made a moment ago, e.g. unpickling a clone): the envelope and the restart check
#   only (its values are a game's own: the schema is not walked again).
# Every level checks the envelope and that the rules stop at the state; all but TRUSTED the schema (integers are
# integers), the invariants and the procedures in progress (frame_check.py): the state restarts the procedure
# before a replay can prove it, so a REPLAY state must be one the rules allow too (a forged power of 10**9 asked a
# bid of a billion options).
REPLAY, ANALYSIS, TRUSTED = "replay", "analysis", "trusted"
CHECKS = (REPLAY, ANALYSIS, TRUSTED)


def from_document(cls_for: Callable[[str], type[Game]], rules: Rules, doc: Any, check: str = REPLAY) -> Game:
    """Resume a saved position; every problem is one `PositionError`, never a half-built game. A version 3
    position is read as meant (`upgraded`)."""
    if check not in CHECKS:
        raise ValueError(f"check must be one of {', '.join(CHECKS)}, not {check!r}")
    doc = upgraded(doc)
    _check_shape(doc)  # the envelope first: its messages say more than a schema pointer
    if check != TRUSTED:  # a trusted document was written by this process a moment ago, from a game's own values
        found = formats.problems("position", doc, limit=5)
        if found:
            raise _fail(f"the position does not follow schemas/position.schema.json: {'; '.join(found)}")
    if check != TRUSTED:  # before the state restarts the procedure (a replayed history proves it only after)
        _check_invariants(rules, doc)
        bad = frame_problems(rules, doc["state"], limit=1)  # the cursor and frames by their declared types
        if bad:
            raise _fail(f"the position's procedures in progress do not fit this game: {bad[0]}",
                        "a position's `step` and `frames` may name only what its game holds")
    game = _resume(cls_for, rules, doc, check)
    if check == REPLAY:
        verify_history(cls_for(doc["setup"]), rules, doc, game.options)
    return game


# what going on from a document's state, or rerunning its history, raises when the document is wrong
# (RuntimeError: a generator of the procedure stopped early on frames that do not fit; ArithmeticError: a count
# that is not one)
_REPLAY_ERRORS = (MaesterError, KeyError, TypeError, ValueError, IndexError, AttributeError, AssertionError,
                  RuntimeError, ArithmeticError, StopIteration)


def _check_invariants(rules: Rules, doc: dict) -> None:
    from .state_check import state_problems

    try:
        state = GameState.from_json(json.loads(json.dumps(doc["state"])))
        found = state_problems(rules, state)
    except (KeyError, TypeError, ValueError, AttributeError) as e:
        raise _fail(f"the position's state is not a game state: {e}") from None
    if found:
        raise _fail(f"the position's state breaks the rules: {'; '.join(found[:5])}",
                    "an analysis position must be one the rules allow (unit and token limits, cards of the "
                    "right house, rounds within the game)")


def _resume(cls_for: Callable[[str], type[Game]], rules: Rules, doc: dict, check: str) -> Game:
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
        checkpoints = [] if check == ANALYSIS else [Checkpoint.from_json(c) for c in doc["checkpoints"]]
        state = snapshot.copy_json(doc["state"])  # the game's own copy (shares nothing with `doc`)
    except (KeyError, TypeError, ValueError, AttributeError) as e:
        raise _fail(f"a state of the position is not a game state: {e}", "was the file edited?") from None
    if state.setup != doc["setup"] or state.seed != doc["seed"]:
        raise _fail("the position's state is of another setup or seed than the position")
    pending = doc["decision"]["number"] if isinstance(doc["decision"], dict) else doc["decisions"]
    run = {"events": doc["events"], "decisions": pending, **(doc.get("run") or {})}
    # an analysis position keeps no history: nothing proves that its answers lead to it
    past = ([], [], []) if check == ANALYSIS else (history["answers"], history["actions"], checkpoints)
    try:
        game = cls.restarted(rules, state, options, run, past)
    except _REPLAY_ERRORS as e:
        raise _fail(f"the game cannot go on from the position's state: {e}",
                    "was it edited, or saved with another version of the content?") from None
    if not game.over and game.frame_depth != len(game.state.frames):  # a saved frame no procedure stands in
        raise _fail(f"the position's state holds {len(game.state.frames)} procedure frames, but the rules stand in "
                    f"{game.frame_depth} at its decision", "was the file edited (its `frames`)?")
    # (compared as it is first, and only through JSON when that differs: a tuple in the state is a JSON list)
    if snapshot.as_data(game.state) != doc["state"] and game.state.to_json() != doc["state"]:
        raise _fail("the position's state is not one the rules stop at",
                    "the file was edited, or saved with other content or another version of maester")
    mine = game.decision.to_json() if game.decision else None
    if check != ANALYSIS and mine != doc["decision"] and json.loads(json.dumps(mine)) != doc["decision"]:
        # (an analysis position asks what the rules ask at its state: its own `decision` is not needed)
        raise _fail("the position's pending decision differs from the one the rules ask here")
    return game


def verify_history(cls: type[Game], rules: Rules, doc: dict, options) -> None:
    """The REPLAY check: the history, replayed from the setup, reaches exactly the document's state, pending
    decision and counts, and passes through every checkpoint the document keeps (a document whose state or
    checkpoint was edited is refused, not half-trusted)."""
    answers, actions = doc["history"]["answers"], doc["history"]["actions"]
    passed: dict[int, list[Checkpoint]] = {}  # every checkpoint the replay takes, by the answers before it
    try:
        game = cls(rules, doc["setup"], seed=doc["seed"], options=replace(options), start=False)
        take = game._checkpoint_at_phase_start

        def recording() -> None:
            last = game.checkpoints[-1] if game.checkpoints else None
            take()
            if game.checkpoints and game.checkpoints[-1] is not last:
                passed.setdefault(game.checkpoints[-1].answers, []).append(game.checkpoints[-1])

        game._checkpoint_at_phase_start = recording  # type: ignore[method-assign]
        game.start()
        for i, answer in enumerate(answers):
            apply_actions(game, actions, i)
            game.answer(answer)
        apply_actions(game, actions, len(answers))
    except _REPLAY_ERRORS as e:
        raise _fail(f"the position's history cannot be replayed from the setup: {_short(e)}",
                    "was it edited, or saved with another version of the content?") from None
    if game.state.to_json() != doc["state"]:
        raise _fail("the position's state does not follow from its history",
                    "the file was edited, or saved with other content or another version of maester")
    mine = game.decision.to_json() if game.decision else None
    if json.loads(json.dumps(mine)) != doc["decision"] or game.event_count != doc["events"]:
        raise _fail("the position's pending decision or its count of events does not follow from its history")
    for c in doc["checkpoints"]:
        if not any(_same_checkpoint(cp, c) for cp in passed.get(c["answers"], [])):
            raise _fail(f"the position's checkpoint after {c['answers']} answers is not a state its history passes "
                        "through", "the file was edited: checkpoints are verified, never trusted")


def _same_checkpoint(cp: Checkpoint, doc: dict) -> bool:
    mine = json.loads(json.dumps(cp.to_json()))
    return all(mine[k] == doc.get(k, {} if k == "run" else None) for k in ("state", "answers", "events", "decisions",
                                                                         "run"))


def _short(e: Exception, limit: int = 200) -> str:
    text = str(e)
    return text if len(text) <= limit else text[:limit] + "..."


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


def upgraded(doc: Any) -> Any:
    """An older position read as meant (a copy, upgraded by state_upgrade.py); any other document as it is."""
    if not isinstance(doc, dict) or doc.get("format") != POSITION_FORMAT or doc.get("version") != 3:
        return doc
    doc = json.loads(json.dumps(doc))
    try:
        return upgrade_position(doc, 3)
    except ValueError as e:
        raise _fail(str(e)) from None


def _check_shape(doc: Any) -> None:
    if not isinstance(doc, dict) or doc.get("format") != POSITION_FORMAT:
        raise _fail("this is not a maester position", "positions are written by `maester play --save FILE`")
    if isinstance(doc.get("version"), int) and not isinstance(doc["version"], bool) \
            and OLDEST_READ <= doc["version"] < POSITION_VERSION:
        upgrade_position(doc, doc["version"])  # read as it was meant (state_upgrade.py)
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
