"""Validate a bundle against the JSON Schemas in schemas/ (draft 2020-12).

Every compile validates its output; `maester validate BUNDLE` checks a bundle from anywhere. Each
violation is reported with its JSON pointer.
"""

from __future__ import annotations

import json
from functools import cache
from importlib import resources

from jsonschema import Draft202012Validator
from referencing import Registry, Resource

from .diagnostics import Diagnostics, Span

SCHEMA_FILES = ("bundle.schema.json", "effect.schema.json")


@cache
def load_schemas() -> dict[str, dict]:
    root = resources.files("maester.schemas")
    return {name: json.loads(root.joinpath(name).read_text(encoding="utf-8")) for name in SCHEMA_FILES}


@cache
def bundle_validator() -> Draft202012Validator:
    schemas = load_schemas()
    registry = Registry().with_resources(
        (schema["$id"], Resource.from_contents(schema)) for schema in schemas.values()
    )
    main = schemas["bundle.schema.json"]
    Draft202012Validator.check_schema(main)
    return Draft202012Validator(main, registry=registry)


def json_pointer(path) -> str:
    return "/" + "/".join(str(p).replace("~", "~0").replace("/", "~1") for p in path) if path else "/"


def _source_of(bundle: object, path: list) -> Span | None:
    """The content position (`source` or `at` of the nearest enclosing record) of a bundle path."""
    found = None
    node = bundle
    for step in path:
        if isinstance(node, dict):
            where = node.get("at") or node.get("source")
            if isinstance(where, str):
                found = where
        try:
            node = node[step]
        except (KeyError, IndexError, TypeError):
            return Span.parse(found)
    if isinstance(node, dict):  # the record itself (e.g. a required field missing from it)
        where = node.get("at") or node.get("source")
        if isinstance(where, str):
            found = where
    return Span.parse(found)


def validate_bundle(bundle: object, diags: Diagnostics, label: str = "bundle") -> None:
    """Report every schema violation of `bundle` (at most 50, most specific first)."""
    errors = sorted(bundle_validator().iter_errors(bundle), key=lambda e: (list(e.absolute_path), e.message))
    for err in errors[:50]:
        # oneOf failures are noisy; the deepest sub-error usually names the real problem
        best = err
        if err.context:
            best = max(err.context, key=lambda e: len(e.absolute_path))
        pointer = json_pointer(best.absolute_path)
        diags.error("schema", f"{label} does not match the schema at {pointer}: {best.message}",
                    _source_of(bundle, list(best.absolute_path)) or Span(label, 0, 0),
                    f"schema rule: {'/'.join(str(p) for p in best.absolute_schema_path)}")
    if len(errors) > 50:
        diags.error("schema", f"{label}: {len(errors) - 50} more schema violations not shown", Span(label, 0, 0))
