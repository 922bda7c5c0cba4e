"""The procedure's cursor: where a phase stands between two of its steps, kept in the state (`GameState.step`).

A phase procedure sets the cursor at each point it can restart from and takes a checkpoint there (the
start of a house's turn in the Action Phase, of a house's order placement, of a Westeros card's
resolution). A procedure started on a state whose cursor is set skips what the cursor says is done and
goes on from there, so a game restarts mid-phase from its state alone. Inside a turn, the combat in
progress is part of the cursor (combat.py) and every procedure that asks a decision keeps a *frame*
(`GameState.frames`, below). The cursor is empty at a phase's start.

Every place is declared here, with the counters it keeps (`PLACES`); schemas/state.schema.json describes
the same fields.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ..procedures.game import Game
    from .state import GameState

WESTEROS_RESOLVE = "westeros.resolve"
PLANNING_ORDERS = "planning.orders"
ACTION_STEP = "action.{}"  # one per Action Phase step: action.raid, action.march, action.consolidate-power

# place -> what it means and its counters
PLACES: dict[str, str] = {
    WESTEROS_RESOLVE: "the Westeros cards are drawn (`drawn`: [deck, card] in drawing order) and the wildlings "
                      "have advanced; card `next` (0-based) is resolved next (R6.2.4)",
    PLANNING_ORDERS: "the houses place their orders in the order `pass`; house `next` (0-based) places next (R13.2)",
    ACTION_STEP.format("raid"): "Raid step: in this pass through the turn order (`pass`), house `next` resolves "
                                "next; `acted`: a house already resolved an order in this pass (R15.2)",
    ACTION_STEP.format("march"): "March step, counters as in the Raid step (R16)",
    ACTION_STEP.format("consolidate-power"): "Consolidate Power step, counters as in the Raid step (R18)",
}

# place -> its counters and their types (words of FIELD_TYPES, below): what an analysis position's cursor is
# checked against (frame_check.py); the state schema's `step` says the same in JSON Schema
PLACE_FIELDS: dict[str, dict[str, str]] = {
    WESTEROS_RESOLVE: {"drawn": "drawn", "next": "index:drawn"},
    PLANNING_ORDERS: {"pass": "houses", "next": "index:pass"},
    **{ACTION_STEP.format(s): {"pass": "houses", "next": "index:pass", "acted": "bool", "combat": "combat"}
       for s in ("raid", "march", "consolidate-power")},
}


def place(state: GameState, at: str, **counters) -> None:
    """Set the cursor (the caller then takes a checkpoint)."""
    assert at in PLACES, f"cursor place {at!r} is not declared in cursor.py"
    state.step = {"at": at, **counters}


def resumed(state: GameState, at: str) -> dict | None:
    """The cursor's counters if the procedure restarts at `at` (and clears nothing)."""
    return state.step if state.step.get("at") == at else None


def within(state: GameState, phase: str) -> bool:
    """Has the phase begun already (a restart inside it)?"""
    return str(state.step.get("at", "")).startswith(phase + ".")


def clear(state: GameState) -> None:
    state.step = {}


# ---- frames: the procedures in progress inside a step -----------------------------------------------
# The cursor says which turn, order placement or Westeros card is in progress; `GameState.frames` says how far
# each procedure inside it has got, outermost first: the call stack of the rules as data. A procedure that asks
# a decision keeps in its frame whatever it has decided or counted so far (the moves of a march, the bids
# given, the statement an effect runs and its bindings). Restarted on such a state, each procedure finds its
# frame again (`enter` returns the saved one), skips what its frame says is done and calls the procedure
# inside it the same way, down to the decision pending. Frames hold plain JSON values, never a reference to
# another part of the state (a copy: the state round-trips through JSON).

@dataclass(frozen=True)
class FrameKind:
    """A declared frame: what it means and its fields (name -> (type word of FIELD_TYPES, meaning))."""

    meaning: str
    fields: dict[str, tuple[str, str]]
    rule: str = ""
    # (bids field, field, value): while frame[field] == value the bids are given but not paid yet, so each is at
    # most its house's power (frame_check.py; a larger one would drive the house's power below 0 when paid)
    unpaid_bids: tuple[str, str, object] | None = None


# The ids a frame field may name, each checked against the game the state is of (frame_check.py): a hand-edited
# frame naming what is not there is refused at load, not met half-way through a round.
ID_KINDS: dict[str, str] = {
    "house": "a house of the game",
    "area": "an area of the board",
    "deck": "a Westeros deck of the state",
    "unit": "a unit kind",
    "order-token": "an order token",
    "westeros-card": "a Westeros card",
    "wildling-card": "a wildling card",
    "house-card": "a house card",
    "tides-card": "a Tides of Battle card",
    "loan": "an Iron Bank loan card",
}

# The shape of a field's value, as nested tuples: ("json", schema) any value that schema allows (checked by the
# state schema only); ("count",) an integer from 0 to MAX_COUNT; ("id", ID_KINDS key); ("list", shape);
# ("or-null", shape); ("map", key id kind, value shape) an object; ("pair", shape, shape) a two-item list;
# ("record", name) an object of RECORDS[name]'s fields. A field typed "index:FIELD" is an integer from 0 to the
# length of the list FIELD of the same frame.
Shape = tuple
COUNT: Shape = ("count",)
MAX_COUNT = 10_000  # a count's stated limit (far above any the rules make: bids, casualties, mustering points)
BOOL: Shape = ("json", {"type": "boolean"})
INDEX = "index:"


def _id(kind: str) -> Shape:
    return ("id", kind)


# the types a frame or cursor field may have (type word -> shape); the state schema's field types follow from them
FIELD_TYPES: dict[str, Shape] = {
    "int": ("json", {"type": "integer"}),
    "bool": BOOL,
    "string": ("json", {"type": "string"}),
    "string-or-null": ("json", {"type": ["string", "null"]}),
    "strings": ("json", {"type": "array", "items": {"type": "string"}}),
    "list": ("json", {"type": "array"}),
    "object": ("json", {"type": "object"}),
    "value": ("json", {}),  # any runtime value of an effect (a string, a number, a boolean, a list of them)
    "count": COUNT,
    "house": _id("house"),
    "house-or-null": ("or-null", _id("house")),
    "houses": ("list", _id("house")),
    "area": _id("area"),
    "area-or-null": ("or-null", _id("area")),
    "areas": ("list", _id("area")),
    "order-token": _id("order-token"),
    "order-tokens": ("list", _id("order-token")),
    "westeros-card": _id("westeros-card"),
    "wildling-card": _id("wildling-card"),
    "wildling-card-or-null": ("or-null", _id("wildling-card")),
    "house-card-or-null": ("or-null", _id("house-card")),
    "house-cards": ("list", _id("house-card")),
    "house-card-lists": ("map", "house", ("list", _id("house-card"))),  # house -> cards
    "tides-cards": ("list", _id("tides-card")),
    "loan-or-null": ("or-null", _id("loan")),
    "drawn": ("list", ("pair", _id("deck"), _id("westeros-card"))),  # [deck, card] in drawing order
    "bids": ("map", "house", COUNT),  # house -> power bid
    "units": ("list", ("pair", _id("unit"), BOOL)),  # [kind, routed] each
    "moves": ("list", ("pair", _id("unit"), _id("area"))),  # [unit kind, destination] each
    "sides": ("map", "area", ("json", {"enum": ["attacker", "defender"]})),  # support area -> the side it helps
    "house-numbers": ("map", "house", ("json", {"type": "integer"})),  # house -> a number (a strength)
    "house-areas": ("map", "house", _id("area")),
    "house-cards-played": ("map", "house", ("or-null", _id("house-card"))),  # house -> its card (null: none)
    "house-house-cards": ("map", "house", _id("house-card")),
    "house-tides-cards": ("map", "house", _id("tides-card")),
}
# records: objects with declared fields (name -> {field: type word}), kept whole in a field (the combat in progress)
RECORDS: dict[str, dict[str, str]] = {}


def record_kind(name: str, **fields: str) -> str:
    """Declare a record type (its fields' type words) and its type word `name`; returned for the module's
    constant."""
    assert name not in FIELD_TYPES, f"type word {name!r} declared twice"
    assert all(_known_word(w) for w in fields.values()), f"record {name!r}: unknown field type"
    RECORDS[name] = dict(fields)
    FIELD_TYPES[name] = ("record", name)
    return name


def _known_word(word: str) -> bool:
    return word in FIELD_TYPES or word.startswith(INDEX)


def shape_schema(shape: Shape) -> dict:
    """The JSON Schema of a shape (what the state schema can say; the ids are checked by frame_check.py)."""
    tag = shape[0]
    if tag == "json":
        return dict(shape[1])
    if tag == "count":
        return {"type": "integer", "minimum": 0, "maximum": MAX_COUNT}
    if tag == "id":
        return {"type": "string", "description": ID_KINDS[shape[1]]}
    if tag == "list":
        return {"type": "array", "items": shape_schema(shape[1])}
    if tag == "or-null":
        return {"anyOf": [shape_schema(shape[1]), {"type": "null"}]}
    if tag == "map":
        return {"type": "object", "additionalProperties": shape_schema(shape[2])}
    if tag == "pair":
        return {"type": "array", "minItems": 2, "maxItems": 2, "prefixItems": [shape_schema(shape[1]),
                                                                              shape_schema(shape[2])]}
    if tag == "record":
        return {"type": "object"}
    raise AssertionError(f"unknown shape {shape!r}")


def word_schema(word: str) -> dict:
    """The JSON Schema of a field type word."""
    if word.startswith(INDEX):
        return {"type": "integer", "minimum": 0}
    return shape_schema(FIELD_TYPES[word])

# place -> its declaration; each module declares the frames of its procedures with `frame_kind` (the state
# schema lists them all: `maester schema --write`)
FRAMES: dict[str, FrameKind] = {}


def frame_kind(place_: str, meaning: str, rule: str = "", *, unpaid_bids: tuple[str, str, object] | None = None,
               **fields: tuple[str, str]) -> str:
    """Declare a frame: its place (returned, for the module's constant), meaning, rule and fields
    (name=(type word of FIELD_TYPES, meaning)); `unpaid_bids`: see FrameKind."""
    assert place_ not in FRAMES, f"frame {place_!r} declared twice"
    assert all(_known_word(word) for word, _ in fields.values()), f"frame {place_!r}: unknown field type"
    FRAMES[place_] = FrameKind(meaning, dict(fields), rule, unpaid_bids)
    return place_


_DECLARED: set[tuple[str, ...]] = set()  # (place, field names) that `enter` found declared


def enter(g: Game, place_: str, **fields) -> dict:
    """The frame of a procedure about to ask a decision: a new one holding `fields`, or — when the game
    restarts inside this procedure — the saved one (its fields say how far the procedure had got)."""
    frames, depth = g.state.frames, g.frame_depth
    g.frame_depth = depth + 1
    if depth < len(frames):  # restarting: the saved frame of this depth
        frame = frames[depth]
        if frame["at"] != place_:
            raise AssertionError(f"restart took another path: frame {depth} is {frame['at']!r}, not {place_!r}")
        return frame
    if (place_, *fields) not in _DECLARED:  # checked once per place and field names (frames are entered often)
        kind = FRAMES.get(place_)
        if kind is None or not fields.keys() <= kind.fields.keys():
            raise AssertionError(f"frame {place_!r} or its fields {sorted(fields)} are not declared in cursor.FRAMES")
        _DECLARED.add((place_, *fields))
    frame = {"at": place_, **fields}
    frames.append(frame)
    return frame


def restarting(g: Game) -> bool:
    """Is the procedure about to `enter` a frame restarting inside it (its saved frame is there)?"""
    return g.frame_depth < len(g.state.frames)


def leave(g: Game, frame: dict) -> None:
    """The procedure is done: its frame goes."""
    frames = g.state.frames
    if not frames or frames[-1] is not frame:
        raise AssertionError(f"frame {frame.get('at')!r} left out of order")
    frames.pop()
    g.frame_depth -= 1


def reset_frames(g: Game) -> None:
    """The procedures were abandoned (the game ended at once): no frame is in progress any more."""
    g.state.frames.clear()
    g.frame_depth = 0


def frames_schema() -> dict:
    """The `frames` property of schemas/state.schema.json, generated from FRAMES (`maester schema --write`)."""
    def one(place_: str, kind: FrameKind) -> dict:
        props = {"at": {"const": place_, "description": kind.meaning + (f" ({kind.rule})" if kind.rule else "")}}
        for name, (word, meaning) in kind.fields.items():
            props[name] = {**word_schema(word), "description": meaning}
        return {"type": "object", "additionalProperties": False, "required": ["at"], "properties": props,
                "description": kind.meaning}

    return {
        "type": "array",
        "description": "The procedures in progress inside the current step, outermost first "
                       "(docs/procedures.md lists every frame): the call stack of the rules as data. Each frame keeps "
                       "what its procedure has decided or counted so far; a game restarted on this state goes on "
                       "inside them, down to the pending decision. Empty between two steps.",
        "items": {"oneOf": [one(p, k) for p, k in sorted(FRAMES.items())]} if FRAMES else {"type": "object"},
    }
