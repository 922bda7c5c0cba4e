"""Validate a bundle against the JSON Schemas in schemas/ (draft 2020-12).

Every compile validates its output; `maester validate BUNDLE` checks a bundle from anywhere. Each
violation is reported with its JSON pointer.

Speed: a valid bundle is confirmed by a compiled validator (`jsonschema_rs`, built once per process
in a few milliseconds) instead of walking the schema in Python, which took most of a cold compile.
Only when that validator finds a problem does the reference `jsonschema` validator run, so the
messages (JSON pointer, schema rule, content line) are exactly the ones it always gave.
"""

from __future__ import annotations

import json
from functools import cache
from importlib import resources
from typing import TYPE_CHECKING

from .diagnostics import Diagnostics, Span
from .json_input import has_float, strict_schema_validator

if TYPE_CHECKING:  # the reference validator is imported only when a bundle has problems
    from jsonschema import Draft202012Validator

SCHEMA_FILES = ("bundle.schema.json", "effect.schema.json")


@cache
def load_schemas() -> dict[str, dict]:
    root = resources.files("maester.schemas")
    return {name: json.loads(root.joinpath(name).read_text(encoding="utf-8")) for name in SCHEMA_FILES}


@cache
def bundle_validator() -> Draft202012Validator:
    """The reference validator: slow, but its errors carry the paths the messages are made of."""
    schemas = load_schemas()
    return strict_schema_validator(schemas["bundle.schema.json"], list(schemas.values()))  # 4.0 is no integer


@cache
def fast_validator():
    """A compiled validator of the same schemas, or None where `jsonschema_rs` is not installed."""
    try:
        import jsonschema_rs
    except ImportError:
        return None
    schemas = load_schemas()
    registry = jsonschema_rs.Registry([(schema["$id"], schema) for schema in schemas.values()])
    # `format` is an annotation in draft 2020-12 (the reference validator does not assert it either)
    return jsonschema_rs.Draft202012Validator(schemas["bundle.schema.json"], registry=registry,
                                              validate_formats=False)


def is_valid(bundle: object, compiled: bool = False) -> bool:
    """Whether `bundle` matches the schemas, as fast as this machine allows. The compiled validator takes 4.0
    for an integer: a bundle with a float goes to the strict one (the compiler writes no float: `compiled`)."""
    fast = fast_validator()
    if fast is not None and (compiled or not has_float(bundle)):
        try:
            return fast.is_valid(bundle)
        except (ValueError, TypeError, OverflowError):  # a value it cannot take (e.g. a huge int): ask the reference
            pass
    return bundle_validator().is_valid(bundle)


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


def validate_bundle(bundle: object, diags: Diagnostics, label: str = "bundle", compiled: bool = False) -> None:
    """Report every schema violation of `bundle` (at most 50, most specific first); `compiled`: made by the
    compiler just now (no float in it), not read from a file."""
    if is_valid(bundle, compiled):
        return
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
