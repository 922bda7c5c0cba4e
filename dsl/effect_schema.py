"""Generate schemas/effect.schema.json from the registry (so the schema cannot drift from it).

`maester schema --write` rewrites the file; tests/test_registry.py fails when the checked-in file
differs from what this module generates.
"""

from __future__ import annotations

import json

from .check import MAX_NUMBER
from .moments import MOMENTS
from .registry import CONTEXTS, ENUMS, NODE_KEY, NODES, PRIMITIVES, TRIGGERS, Primitive
from .schema_types import without_union_types
from .version import BUNDLE_FORMAT_VERSION, SCHEMA_BASE

MAX_ITEMS = 1000  # statements in a block, items in a list, options of a choice: bounds for hand-made bundles

EFFECT_SCHEMA_ID = SCHEMA_BASE + "effect.schema.json"


def _args_schema(prim: Primitive) -> dict:
    return {
        "type": "object",
        "properties": {p.name: {"$ref": "#/$defs/expr", "description": f"{p.type}: {p.doc}".rstrip(": ")}
                       for p in prim.params},
        "required": [p.name for p in prim.params if p.required],
        "additionalProperties": False,
    }


def _dispatch_by_value(key: str, names: list[str], prefix: str) -> dict:
    """An object told apart by the value of `key` (a node kind or a primitive name); validated only
    against that definition (a plain `oneOf` is correct too, but validators then try every branch)."""
    return {
        "type": "object",
        "required": [key],
        "properties": {key: {"enum": names}},
        "allOf": [{"if": {"properties": {key: {"const": n}}}, "then": {"$ref": f"#/$defs/{prefix}{n}"}}
                  for n in names],
    }


def _names(role: str) -> list[str]:
    return [n.name for n in NODES.values() if n.role == role]


def effect_schema() -> dict:
    effects = sorted((p for p in PRIMITIVES.values() if p.kind == "effect"), key=lambda p: p.name)
    queries = sorted((p for p in PRIMITIVES.values() if p.kind == "query"), key=lambda p: p.name)
    defs: dict = {
        "expr": {
            "description": "An expression: a number, a condition, or an object whose `node` is one of "
                           + ", ".join(_names("expression")) + ".",
            "if": {"type": "object"},
            "then": {"$ref": "#/$defs/expr-object"},
            "else": {"type": ["integer", "boolean"], "minimum": -MAX_NUMBER, "maximum": MAX_NUMBER},
        },
        "expr-object": _dispatch_by_value(NODE_KEY, _names("expression"), "node-"),
        "node-text": {"type": "object", "properties": {"text": {"type": "string"}}, "required": ["text"],
                 "additionalProperties": False},
        "node-var": {
            "description": "A name bound by the context (you, buyer, ...) or by for/choose/let.",
            "type": "object", "properties": {"var": {"type": "string"}}, "required": ["var"],
            "additionalProperties": False,
        },
        "node-id": {
            "description": "A content id or a word of the language, with its type.",
            "type": "object",
            "properties": {"id": {"type": "string"}, "type": {"type": "string"}},
            "required": ["id", "type"], "additionalProperties": False,
        },
        "node-list": {"type": "object", "properties": {"list": {"type": "array", "items": {"$ref": "#/$defs/expr"},
                                                                        "maxItems": MAX_ITEMS}},
                 "required": ["list"], "additionalProperties": False},
        "node-op": {
            "type": "object",
            "properties": {
                "op": {"enum": ["and", "or", "not", "neg", "==", "!=", "<", "<=", ">", ">=", "+", "-", "*"]},
                "args": {"type": "array", "items": {"$ref": "#/$defs/expr"}, "minItems": 1, "maxItems": 2},
            },
            "required": ["op", "args"], "additionalProperties": False,
        },
        "node-query": _dispatch_by_value("query", [q.name for q in queries], "query-"),
        "block": {"type": "array", "items": {"$ref": "#/$defs/statement"}, "maxItems": MAX_ITEMS},
        "ability": {"description": "A `when` ability of a card (the bundle schema refers to this name).",
                    "$ref": "#/$defs/node-ability"},
        "statement": _dispatch_by_value(NODE_KEY, _names("statement"), "node-"),
        "node-call": _dispatch_by_value("do", [e.name for e in effects], "do-"),
        "node-if": {
            "type": "object",
            "properties": {"if": {"$ref": "#/$defs/expr"}, "then": {"$ref": "#/$defs/block"},
                           "else": {"$ref": "#/$defs/block"}},
            "required": ["if", "then"], "additionalProperties": False,
        },
        "node-for": {
            "type": "object",
            "properties": {"for": {"type": "string"}, "in": {"$ref": "#/$defs/expr"},
                           "body": {"$ref": "#/$defs/block"}},
            "required": ["for", "in", "body"], "additionalProperties": False,
        },
        "node-choose": {
            "type": "object",
            "properties": {"choose": {"type": "string"}, "from": {"$ref": "#/$defs/expr"},
                           "by": {"$ref": "#/$defs/expr"}, "count": {"$ref": "#/$defs/expr"},
                           "distinct": {"type": "boolean"}, "body": {"$ref": "#/$defs/block"},
                           "at": {"type": "string", "description": "file:line:col of the statement"}},
            "required": ["choose", "from", "by", "body"], "additionalProperties": False,
        },
        "node-may": {
            "type": "object",
            "properties": {"may": {"$ref": "#/$defs/expr"}, "pay": {"$ref": "#/$defs/expr"},
                           "condition": {"$ref": "#/$defs/expr"}, "body": {"$ref": "#/$defs/block"},
                           "else": {"$ref": "#/$defs/block"},
                           "at": {"type": "string", "description": "file:line:col of the statement"}},
            "required": ["may", "body"], "additionalProperties": False,
        },
        "node-let": {
            "type": "object",
            "properties": {"let": {"type": "string"}, "value": {"$ref": "#/$defs/expr"}},
            "required": ["let", "value"], "additionalProperties": False,
        },
        "node-option": {
            "type": "object",
            "properties": {"option": {"type": "string"}, "text": {"type": "string"},
                           "if": {"$ref": "#/$defs/expr"}, "body": {"$ref": "#/$defs/block"}},
            "required": ["option", "text", "body"], "additionalProperties": False,
        },
        "node-ability": {
            "type": "object",
            "properties": {
                "trigger": {"enum": sorted({*TRIGGERS, *MOMENTS})},
                "if": {"$ref": "#/$defs/expr"},
                "body": {"$ref": "#/$defs/block"},
                "at": {"type": "string", "description": "file:line:col of the ability in the content"},
            },
            "required": ["trigger", "body", "at"], "additionalProperties": False,
        },
    }
    for e in effects:
        props: dict = {NODE_KEY: {"const": "call"}, "do": {"const": e.name}, "args": _args_schema(e),
                       "at": {"type": "string"}}
        required = [NODE_KEY, "do", "args", "at"]
        if e.block == "options":
            props["options"] = {"type": "array", "items": {"$ref": "#/$defs/node-option"}, "minItems": 1,
                                "maxItems": MAX_ITEMS}
            required.append("options")
        defs[f"do-{e.name}"] = {"description": e.doc or e.english, "type": "object", "properties": props,
                                "required": required, "additionalProperties": False}
    for q in queries:
        defs[f"query-{q.name}"] = {
            "description": (q.doc or q.english) + f" Returns {q.returns}.",
            "type": "object",
            "properties": {NODE_KEY: {"const": "query"}, "query": {"const": q.name}, "args": _args_schema(q)},
            "required": [NODE_KEY, "query", "args"], "additionalProperties": False,
        }
    for name, d in defs.items():  # every node definition requires its tag
        kind = name[5:] if name.startswith("node-") else None
        if kind in NODES and "properties" in d:
            d["properties"] = {NODE_KEY: {"const": kind}, **d["properties"]}
            d["required"] = [NODE_KEY, *d["required"]]
    return without_union_types({  # one shape for every schema (dsl/schema_types.py)
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": EFFECT_SCHEMA_ID,
        "title": f"maester effect language, bundle format {BUNDLE_FORMAT_VERSION}",
        "description": "Compiled effects: abilities, statements and expressions. Generated from the "
                       "primitive registry; do not edit by hand.",
        "x-contexts": {c.name: c.variables for c in CONTEXTS.values()},
        "x-enums": {k: list(v) for k, v in ENUMS.items()},
        "$defs": defs,
    })


def effect_schema_text() -> str:
    return json.dumps(effect_schema(), indent=2, sort_keys=False) + "\n"
