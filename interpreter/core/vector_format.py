"""The conformance vector format: its version, what a checker compares, and its JSON Schema.

schemas/vector.schema.json is generated from this module and the decision catalogue (decision_kinds.py), so
the kinds a vector may hold and the shape of each kind's answers are the ones the engine declares
(`maester schema --write`, or `write_vector_schema()`; a test fails when the file is stale). Its events are
event.schema.json's (the event catalogue, events.py). docs/conformance.md describes the same format in prose.
"""

from __future__ import annotations

from pathlib import Path

from .decision_kinds import DECISION_KINDS
from .events import SCHEMA_ID as EVENT_REF  # one event, as the event catalogue declares it
from .schema_files import schema_text, write_schema

VECTOR_FORMAT = "maester-conformance-vector"
INDEX_FORMAT = VECTOR_FORMAT + "-index"
# History: 1 = bare answers; 2 = each decision with its question (number, decider, kind, rule, legal answers),
# the events before it, and the compared fields declared in the vector (`compare`).
VECTOR_VERSION = 3

# The question another engine must ask identically; the rest of a decision record is informative.
DECISION_FIELDS = ("number", "house", "kind", "rule", "options")
EVENT_FIELDS_EXCLUDED = ("text",)  # English: every other field of an event is compared
UNORDERED_FIELDS = ("options",)  # the legal answers are a set: the rules give no order

COMPARE = {
    "decision_fields": list(DECISION_FIELDS),
    "unordered_fields": list(UNORDERED_FIELDS),
    "event_fields_excluded": list(EVENT_FIELDS_EXCLUDED),
    "final_state": True,
}

_BASE = "https://maester.example/schemas"
STATE_REF = f"{_BASE}/state/4/state.schema.json"
SCHEMA_ID = f"{_BASE}/vector/{VECTOR_VERSION}/vector.schema.json"


def _question(answer_meaning: str) -> dict:
    """A decision record: the question asked; `answer` is added by the caller for answered decisions."""
    kinds = list(DECISION_KINDS)
    return {
        "type": "object",
        "additionalProperties": False,
        "required": [*DECISION_FIELDS, "events_before", "info"],
        "properties": {
            "number": {"type": "integer", "minimum": 0,
                       "description": "The how-manieth decision of the run (0-based: the first decision asked "
                                      "after `initial_state` is 0)."},
            "house": {"type": "string", "pattern": "^[a-z0-9][a-z0-9-]*$",
                      "description": "The house asked: the decider (a vassal's commander decides for it, R33.7; "
                                     "`info.for` then names the vassal)."},
            "kind": {"enum": kinds, "description": "The decision kind, from the catalogue "
                                                   "(interpreter/core/decision_kinds.py; decision.schema.json)."},
            "rule": {"type": "string", "description": "The rule id that asks (a card's effect cites its card's "
                                                      "rule)."},
            "options": {"type": "array", "minItems": 1, "description": "Every legal answer, as a set (order is not "
                        "compared). A question with one possible answer is never asked, except an order placement "
                        "(`place-order`, docs/effects.md: Questions not asked)."},
            "events_before": {"type": "integer", "minimum": 0,
                              "description": "How many events of `expected.events` happened before this question "
                                             "was asked: a checker compares those first."},
            "info": {"type": "object", "description": "Context for agents and traces (area, card, source, `for` "
                                                      "the vassal decided for...). Informative: never compared, "
                                                      "and it may hold English."},
        },
        "description": answer_meaning,
    }


def vector_schema() -> dict:
    """The JSON Schema of one conformance vector (a file of conformance/ besides index.json and bundle.json)."""
    answered = _question("One decision in the order asked: the question the checking engine must ask identically "
                         "(the fields in `compare.decision_fields`) and the answer to give it.")
    answered["required"].append("answer")
    answered["properties"]["answer"] = {"description": "The answer given: one element of `options`, as the "
                                                       "scenario's script or default chose it."}
    # each kind constrains its legal answers (and the answer) to the shape the catalogue declares
    answered["allOf"] = [{"if": {"properties": {"kind": {"const": k.kind}}},
                          "then": {"properties": {"options": {"type": "array", "items": k.answers},
                                                  "answer": k.answers}}}
                         for k in DECISION_KINDS.values()]
    pending = _question("The question pending when the run stopped (the scenario ends before the game does): the "
                        "checking engine must be asking it too.")
    pending["allOf"] = [{"if": {"properties": {"kind": {"const": k.kind}}},
                         "then": {"properties": {"options": {"type": "array", "items": k.answers}}}}
                        for k in DECISION_KINDS.values()]
    field_enum = {"enum": list(DECISION_FIELDS) + ["events_before", "info"]}
    index = {  # index.json of a folder of vectors (self-contained: it refers to nothing)
        "type": "object", "additionalProperties": False,
        "required": ["format", "version", "bundle_format", "bundle_sha256", "vectors"],
        "description": "index.json: the vectors of a folder and the bundle they were made for.",
        "properties": {
            "format": {"const": INDEX_FORMAT, "description": "What this file is."},
            "version": {"const": VECTOR_VERSION, "description": "The vector format version of the folder."},
            "bundle_format": {"type": "string", "description": "The format version of the folder's bundle.json."},
            "bundle_sha256": {"type": "string", "pattern": "^[0-9a-f]{64}$",
                              "description": "The SHA-256 of bundle.json's canonical JSON: a checker refuses a "
                                             "folder whose bundle has another."},
            "vectors": {"type": "array", "minItems": 1, "description": "Every vector file of the folder, once.",
                        "items": {"type": "object", "additionalProperties": False,
                                  "required": ["file", "name", "rules"], "description": "One vector.",
                                  "properties": {
                                      "file": {"type": "string", "pattern": "^[^/]+\\.json$",
                                               "description": "Its file name in the folder."},
                                      "name": {"type": "string", "description": "Its scenario's name."},
                                      "rules": {"type": "array", "items": {"type": "string"},
                                                "description": "The rule ids it exercises."}}}},
        },
    }
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": SCHEMA_ID,
        "title": f"maester conformance vector, version {VECTOR_VERSION}",
        "description": "With the bundle shipped beside it (bundle.json), from `initial_state`, asked the questions "
                       "and given the answers of `decisions` in order, an engine produces `expected.events` and "
                       "reaches `expected.final_state`. `compare` says which fields must match. "
                       "docs/conformance.md specifies how to check one.",
        "type": "object",
        "additionalProperties": False,
        "required": ["format", "version", "name", "scenario", "rules", "bundle_format", "setup", "seed", "options",
                     "gifts", "initial_state", "compare", "decisions", "expected"],
        "properties": {
            "format": {"const": VECTOR_FORMAT, "description": "What this file is."},
            "version": {"const": VECTOR_VERSION, "description": "The vector format version (docs/conformance.md, "
                                                                "version history)."},
            "name": {"type": "string", "description": "The name of the scenario it was made from (English)."},
            "scenario": {"type": "string", "description": "The scenario file it was made from, relative to the "
                                                          "scenario folder (tests/scenarios)."},
            "rules": {"type": "array", "items": {"type": "string"},
                      "description": "The rule ids the scenario exercises (ids of the rules reference)."},
            "bundle_format": {"type": "string", "description": "The bundle format version the vector was made "
                                                               "with; index.json also has the bundle's SHA-256."},
            "setup": {"type": "string", "description": "The setup id of the bundle the game is played with."},
            "seed": {"type": "integer", "description": "The game's seed (chance itself comes from "
                                                       "`initial_state.rng`)."},
            "options": {
                "type": "object", "additionalProperties": False,
                "required": ["tides_of_battle", "stop_after", "player_houses"],
                "description": "The game options.",
                "properties": {
                    "tides_of_battle": {"type": "boolean", "description": "Tides of Battle is played (R29)."},
                    "stop_after": {"anyOf": [{"enum": ["westeros", "planning", "action", "round", "raids",
                                                        "marches", "consolidate-power", None]},
                                             {"type": "string", "pattern": "^combat [1-9][0-9]*$"}],
                                   "description": "Where the run ends: after a phase (`round`: after the Action "
                                                  "Phase, as `action`; the state's phase then reads `over`), after "
                                                  "a step of the Action Phase (`raids`, `marches`, "
                                                  "`consolidate-power`: just before its clean up; the phase stays "
                                                  "`action`), after the Nth combat of the run (`combat N`), or "
                                                  "null: play until the game ends or a decision has no answer left "
                                                  "in `decisions`."},
                    "player_houses": {"type": ["array", "null"], "items": {"type": "string"},
                                      "description": "Mother of Dragons: the houses played by players (null: "
                                                     "the setup's own)."},
                },
            },
            "gifts": {"type": "array", "description": "Power gifts made before the first decision (R42.4), "
                      "in order.",
                      "items": {"type": "object", "additionalProperties": False,
                                "required": ["from", "to", "amount"], "description": "One gift of power tokens.",
                                "properties": {
                                    "from": {"type": "string", "description": "The house giving."},
                                    "to": {"type": "string", "description": "The house receiving."},
                                    "amount": {"type": "integer", "minimum": 1,
                                               "description": "How many power tokens."}}}},
            "initial_state": {"$ref": STATE_REF, "description": "The complete starting position (state.schema.json)."},
            "compare": {
                "type": "object", "additionalProperties": False,
                "required": ["decision_fields", "unordered_fields", "event_fields_excluded", "final_state"],
                "description": "What a checker compares; fields not named here are informative.",
                "properties": {
                    "decision_fields": {"type": "array", "items": field_enum, "uniqueItems": True,
                                        "allOf": [{"type": "array", "contains": {"const": f}}
                                                  for f in ("house", "kind", "options")],
                                        "description": "The fields of each decision record (and of the pending "
                                                       "decision) that the checking engine's question must equal."},
                    "unordered_fields": {"type": "array", "items": field_enum, "uniqueItems": True,
                                         "description": "Decision fields holding a list compared as a set (same "
                                                        "elements, any order)."},
                    "event_fields_excluded": {"type": "array", "items": {"type": "string"}, "uniqueItems": True,
                                              "contains": {"const": "text"},
                                              "description": "Event fields not compared; every other field of "
                                                             "an event (its data included) must be equal and "
                                                             "present in both."},
                    "final_state": {"type": "boolean", "description": "The whole final state must be equal."},
                },
            },
            "decisions": {"type": "array", "items": answered,
                          "description": "Every decision of the run, in the order asked, with its answer."},
            "expected": {
                "type": "object", "additionalProperties": False,
                "required": ["events", "final_state", "final_state_hash", "pending_decision"],
                "description": "What must follow.",
                "properties": {
                    "events": {"type": "array", "items": {"$ref": EVENT_REF},
                               "description": "Every event of the run, in order (`n`, `round`, `phase`, `type`, "
                                              "`rule`, `text` and the type's data; a card ability's events also "
                                              "have `card`, `source` and maybe `subject`)."},
                    "final_state": {"$ref": STATE_REF, "description": "The position at the end of the run."},
                    "final_state_hash": {"type": "string", "pattern": "^[0-9a-f]{16}$",
                                         "description": "The first 16 hex digits of the SHA-256 of the final "
                                                        "state's canonical JSON (sorted keys, no spaces)."},
                    "pending_decision": {"anyOf": [pending, {"type": "null"}],
                                         "description": "The decision asked when the run stopped, or null when "
                                                        "nothing is asked (the game is over or stop_after was "
                                                        "reached)."},
                },
            },
        },
        "$defs": {"index": index},
    }


def vector_schema_text() -> str:
    return schema_text(vector_schema())


def write_vector_schema(path: Path | None = None) -> Path:
    """Rewrite schemas/vector.schema.json (or `path`)."""
    return write_schema("vector.schema.json", vector_schema_text(), path)
