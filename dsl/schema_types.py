"""One JSON Schema shape for every schema file: no union types (`"type": [A, B]`).

A union type is a convenience some validators accept only on request (Ajv's strict mode refuses it without
`allowUnionTypes`), and it mixes keywords meant for one of the types (`items` of an array-or-null). Every schema
written by maester goes through `without_union_types`, which writes each union as an `anyOf` of one branch per
type, each branch holding the keywords that apply to its type; annotations and the keywords that apply to any
value (`enum`, `const`, `$ref`, combinators) stay where they were.
"""

from __future__ import annotations

from typing import Any

# keywords that apply to one JSON type only (JSON Schema 2020-12, validation and applicator vocabularies)
TYPE_KEYWORDS: dict[str, frozenset[str]] = {
    "array": frozenset({"items", "prefixItems", "contains", "minItems", "maxItems", "uniqueItems", "minContains",
                        "maxContains", "unevaluatedItems"}),
    "object": frozenset({"properties", "required", "additionalProperties", "propertyNames", "patternProperties",
                         "minProperties", "maxProperties", "dependentRequired", "dependentSchemas",
                         "unevaluatedProperties"}),
    "string": frozenset({"pattern", "minLength", "maxLength", "format", "contentEncoding", "contentMediaType"}),
    "number": frozenset({"minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf"}),
}
TYPE_KEYWORDS["integer"] = TYPE_KEYWORDS["number"]
_ALL_TYPED = frozenset().union(*TYPE_KEYWORDS.values())


def without_union_types(node: Any) -> Any:
    """`node` (a schema or any part of one) with every union type written as an `anyOf` (a new value)."""
    if isinstance(node, list):
        return [without_union_types(x) for x in node]
    if not isinstance(node, dict):
        return node
    out = {k: without_union_types(v) for k, v in node.items()}
    types = out.get("type")
    if not isinstance(types, list):
        return out
    if len(types) == 1:
        out["type"] = types[0]
        return out
    branches = [{"type": t, **{k: v for k, v in out.items() if k in TYPE_KEYWORDS.get(t, ())}} for t in types]
    rest = {k: v for k, v in out.items() if k != "type" and k not in _ALL_TYPED}
    if "anyOf" in rest:
        rest["allOf"] = [*rest.get("allOf", []), {"anyOf": rest.pop("anyOf")}]
    rest["anyOf"] = branches
    return rest


def union_types(node: Any, path: str = "") -> list[str]:
    """The JSON pointers of every union type left in `node` (for tests)."""
    found = []
    if isinstance(node, dict):
        if isinstance(node.get("type"), list):
            found.append(path or "/")
        for k, v in node.items():
            found += union_types(v, f"{path}/{k}")
    elif isinstance(node, list):
        for i, v in enumerate(node):
            found += union_types(v, f"{path}/{i}")
    return found
