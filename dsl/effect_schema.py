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


def _dispatch_by_key(keys: list[str], targets: dict[str, str]) -> dict:
    """An object told apart by which one of `keys` it has; validated only against that definition.

    (A plain `oneOf` over every alternative is correct too, but validators then try each branch in
    full, which is very slow for nested effects.)
    """
    return {
        "type": "object",
        "oneOf": [{"required": [k]} for k in keys],
        "allOf": [{"if": {"required": [k]}, "then": {"$ref": f"#/$defs/{targets.get(k, k)}"}} for k in keys],
    }


def _dispatch_by_value(key: str, names: list[str], prefix: str) -> dict:
    """An object told apart by the value of `key` (a primitive name)."""
    return {
        "type": "object",
        "required": [key],
        "properties": {key: {"enum": names}},
        "allOf": [{"if": {"properties": {key: {"const": n}}}, "then": {"$ref": f"#/$defs/{prefix}{n}"}}
                  for n in names],
    }


def effect_schema() -> dict:
    effects = sorted((p for p in PRIMITIVES.values() if p.kind == "effect"), key=lambda p: p.name)
    queries = sorted((p for p in PRIMITIVES.values() if p.kind == "query"), key=lambda p: p.name)
    defs: dict = {
        "expr": {
            "description": "An expression: a number, a condition, or an object with exactly one of the keys "
                           "text, var, id, list, query, op.",
            "if": {"type": "object"},
            "then": {"$ref": "#/$defs/expr-object"},
            "else": {"type": ["integer", "boolean"]},
        },
        "expr-object": _dispatch_by_key(["text", "var", "id", "list", "query", "op"],
                                        {"op": "operator"}),
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
        "query": _dispatch_by_value("query", [q.name for q in queries], "query-"),
        "block": {"type": "array", "items": {"$ref": "#/$defs/statement"}},
        "statement": _dispatch_by_key(["do", "if", "for", "choose", "may", "let"], {"do": "call"}),
        "call": _dispatch_by_value("do", [e.name for e in effects], "do-"),
        "if": {
            "type": "object",
            "properties": {"if": {"$ref": "#/$defs/expr"}, "then": {"$ref": "#/$defs/block"},
                           "else": {"$ref": "#/$defs/block"}},
            "required": ["if", "then"], "additionalProperties": False,
        },
        "for": {
            "type": "object",
            "properties": {"for": {"type": "string"}, "in": {"$ref": "#/$defs/expr"},
                           "body": {"$ref": "#/$defs/block"}},
            "required": ["for", "in", "body"], "additionalProperties": False,
        },
        "choose": {
            "type": "object",
            "properties": {"choose": {"type": "string"}, "from": {"$ref": "#/$defs/expr"},
                           "by": {"$ref": "#/$defs/expr"}, "count": {"$ref": "#/$defs/expr"},
                           "distinct": {"type": "boolean"}, "body": {"$ref": "#/$defs/block"},
                           "at": {"type": "string", "description": "file:line:col of the statement"}},
            "required": ["choose", "from", "by", "body"], "additionalProperties": False,
        },
        "may": {
            "type": "object",
            "properties": {"may": {"$ref": "#/$defs/expr"}, "pay": {"$ref": "#/$defs/expr"},
                           "condition": {"$ref": "#/$defs/expr"}, "body": {"$ref": "#/$defs/block"},
                           "else": {"$ref": "#/$defs/block"},
                           "at": {"type": "string", "description": "file:line:col of the statement"}},
            "required": ["may", "body"], "additionalProperties": False,
        },
        "let": {
            "type": "object",
            "properties": {"let": {"type": "string"}, "value": {"$ref": "#/$defs/expr"}},
            "required": ["let", "value"], "additionalProperties": False,
        },
        "option": {
            "type": "object",
            "properties": {"option": {"type": "string"}, "text": {"type": "string"},
                           "if": {"$ref": "#/$defs/expr"}, "body": {"$ref": "#/$defs/block"}},
            "required": ["option", "text", "body"], "additionalProperties": False,
        },
        "ability": {
            "type": "object",
            "properties": {
                "trigger": {"enum": sorted(TRIGGERS)},
                "if": {"$ref": "#/$defs/expr"},
                "body": {"$ref": "#/$defs/block"},
                "at": {"type": "string", "description": "file:line:col of the ability in the content"},
            },
            "required": ["trigger", "body", "at"], "additionalProperties": False,
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
