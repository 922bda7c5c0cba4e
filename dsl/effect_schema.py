"""Generate schemas/effect.schema.json from the registry (so the schema cannot drift from it).

`maester schema --write` rewrites the file; tests/test_registry.py fails when the checked-in file
differs from what this module generates.
"""

from __future__ import annotations

import json

from .registry import CONTEXTS, ENUMS, PRIMITIVES, TRIGGERS, Primitive
from .version import BUNDLE_FORMAT_VERSION, SCHEMA_BASE

EFFECT_SCHEMA_ID = SCHEMA_BASE + "effect.schema.json"


def _args_schema(prim: Primitive) -> dict:
    return {
        "type": "object",
        "properties": {p.name: {"$ref": "#/$defs/expr", "description": f"{p.type}: {p.doc}".rstrip(": ")}
                       for p in prim.params},
        "required": [p.name for p in prim.params if p.required],
        "additionalProperties": False,
    }


def effect_schema() -> dict:
    effects = sorted((p for p in PRIMITIVES.values() if p.kind == "effect"), key=lambda p: p.name)
    queries = sorted((p for p in PRIMITIVES.values() if p.kind == "query"), key=lambda p: p.name)
    defs: dict = {
        "expr": {
            "description": "An expression: a number, a condition, a text, a variable, an id, a list, "
                           "a query call or an operator.",
            "oneOf": [
                {"type": "integer"},
                {"type": "boolean"},
                {"$ref": "#/$defs/text"},
                {"$ref": "#/$defs/var"},
                {"$ref": "#/$defs/id"},
                {"$ref": "#/$defs/list"},
                {"$ref": "#/$defs/query"},
                {"$ref": "#/$defs/operator"},
            ],
        },
        "text": {"type": "object", "properties": {"text": {"type": "string"}}, "required": ["text"],
                 "additionalProperties": False},
        "var": {
            "description": "A name bound by the context (you, buyer, ...) or by for/choose/let.",
            "type": "object", "properties": {"var": {"type": "string"}}, "required": ["var"],
            "additionalProperties": False,
        },
        "id": {
            "description": "A content id or a word of the language, with its type.",
            "type": "object",
            "properties": {"id": {"type": "string"}, "type": {"type": "string"}},
            "required": ["id", "type"], "additionalProperties": False,
        },
        "list": {"type": "object", "properties": {"list": {"type": "array", "items": {"$ref": "#/$defs/expr"}}},
                 "required": ["list"], "additionalProperties": False},
        "operator": {
            "type": "object",
            "properties": {
                "op": {"enum": ["and", "or", "not", "neg", "==", "!=", "<", "<=", ">", ">=", "+", "-", "*"]},
                "args": {"type": "array", "items": {"$ref": "#/$defs/expr"}, "minItems": 1, "maxItems": 2},
            },
            "required": ["op", "args"], "additionalProperties": False,
        },
        "query": {"oneOf": [{"$ref": f"#/$defs/query-{q.name}"} for q in queries]},
        "block": {"type": "array", "items": {"$ref": "#/$defs/statement"}},
        "statement": {
            "oneOf": [{"$ref": f"#/$defs/do-{e.name}"} for e in effects]
            + [{"$ref": f"#/$defs/{s}"} for s in ("if", "for", "choose", "may", "let")],
        },
        "if": {
            "type": "object",
            "properties": {"if": {"$ref": "#/$defs/expr"}, "then": {"$ref": "#/$defs/block"},
                           "else": {"$ref": "#/$defs/block"}},
            "required": ["if", "then"], "additionalProperties": False,
        },
        "for": {
            "type": "object",
            "properties": {"for": {"type": "string"}, "in": {"$ref": "#/$defs/expr"},
                           "do": {"$ref": "#/$defs/block"}},
            "required": ["for", "in", "do"], "additionalProperties": False,
        },
        "choose": {
            "type": "object",
            "properties": {"choose": {"type": "string"}, "from": {"$ref": "#/$defs/expr"},
                           "by": {"$ref": "#/$defs/expr"}, "count": {"$ref": "#/$defs/expr"},
                           "distinct": {"type": "boolean"}, "do": {"$ref": "#/$defs/block"}},
            "required": ["choose", "from", "by", "do"], "additionalProperties": False,
        },
        "may": {
            "type": "object",
            "properties": {"may": {"$ref": "#/$defs/expr"}, "pay": {"$ref": "#/$defs/expr"},
                           "if": {"$ref": "#/$defs/expr"}, "do": {"$ref": "#/$defs/block"},
                           "else": {"$ref": "#/$defs/block"}},
            "required": ["may", "do"], "additionalProperties": False,
        },
        "let": {
            "type": "object",
            "properties": {"let": {"type": "string"}, "value": {"$ref": "#/$defs/expr"}},
            "required": ["let", "value"], "additionalProperties": False,
        },
        "option": {
            "type": "object",
            "properties": {"option": {"type": "string"}, "text": {"type": "string"},
                           "if": {"$ref": "#/$defs/expr"}, "do": {"$ref": "#/$defs/block"}},
            "required": ["option", "text", "do"], "additionalProperties": False,
        },
        "ability": {
            "type": "object",
            "properties": {
                "trigger": {"enum": sorted(TRIGGERS)},
                "if": {"$ref": "#/$defs/expr"},
                "do": {"$ref": "#/$defs/block"},
                "at": {"type": "string", "description": "file:line:col of the ability in the content"},
            },
            "required": ["trigger", "do", "at"], "additionalProperties": False,
        },
    }
    for e in effects:
        props: dict = {"do": {"const": e.name}, "args": _args_schema(e), "at": {"type": "string"}}
        required = ["do", "args", "at"]
        if e.block == "options":
            props["options"] = {"type": "array", "items": {"$ref": "#/$defs/option"}, "minItems": 1}
            required.append("options")
        defs[f"do-{e.name}"] = {"description": e.doc or e.english, "type": "object", "properties": props,
                                "required": required, "additionalProperties": False}
    for q in queries:
        defs[f"query-{q.name}"] = {
            "description": (q.doc or q.english) + f" Returns {q.returns}.",
            "type": "object",
            "properties": {"query": {"const": q.name}, "args": _args_schema(q)},
            "required": ["query", "args"], "additionalProperties": False,
        }
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": EFFECT_SCHEMA_ID,
        "title": f"maester effect language, bundle format {BUNDLE_FORMAT_VERSION}",
        "description": "Compiled effects: abilities, statements and expressions. Generated from the "
                       "primitive registry; do not edit by hand.",
        "x-contexts": {c.name: c.variables for c in CONTEXTS.values()},
        "x-enums": {k: list(v) for k, v in ENUMS.items()},
        "$defs": defs,
    }


def effect_schema_text() -> str:
    return json.dumps(effect_schema(), indent=2, sort_keys=False) + "\n"
