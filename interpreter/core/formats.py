"""The formats an engine exchanges besides the bundle, each with its JSON Schema in schemas/ (draft 2020-12):

| format   | schema                  | written by                          |
|----------|-------------------------|-------------------------------------|
| state    | state.schema.json       | `GameState.to_json`                 |
| decision | decision.schema.json    | `Decision.to_json` (generated from decision_kinds.py) |
| position | position.schema.json    | `Game.to_state`, `maester play --save` |
| event    | event.schema.json       | `Game.emit` (generated from events.py) |
| log      | log.schema.json         | `maester play --log`                |
| vector   | vector.schema.json      | `conformance.write_vectors` (generated from vector_format.py) |

`problems(format, doc)` lists every violation with its JSON pointer (empty: valid). The schemas refer to each
other by `$id` (a log's and a vector's events are event.schema.json's), so every validator knows them all.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Iterator
from functools import cache
from importlib import resources
from typing import TYPE_CHECKING

from maester.dsl.json_input import has_float, strict_schema_validator

if TYPE_CHECKING:  # jsonschema loads with the first check of a format, not with every engine command
    from jsonschema import Draft202012Validator
    from jsonschema.exceptions import ValidationError

from .events import SCHEMA_ID as EVENT_ID

FORMAT_FILES = {"state": "state.schema.json", "decision": "decision.schema.json",
                "position": "position.schema.json", "event": "event.schema.json", "log": "log.schema.json",
                "vector": "vector.schema.json"}
# where a format holds a list of events (each item is event.schema.json), checked one event at a time (below)
EVENT_LISTS = {"log": ("events",), "vector": ("expected", "events")}


@cache
def _schemas() -> dict[str, dict]:
    root = resources.files("maester.schemas")
    return {name: json.loads(root.joinpath(file).read_text(encoding="utf-8")) for name, file in FORMAT_FILES.items()}


@cache
def validator(name: str) -> Draft202012Validator:
    schemas = _schemas()
    # `integer` is an int here: JSON Schema's own accepts 4.0, which the engine would use as an index or a count
    return strict_schema_validator(schemas[name], list(schemas.values()))


@cache
def _type_validators() -> dict[str, Draft202012Validator]:
    """A validator per event type: its `$defs` entry, complete on its own."""
    full = validator("event")
    return {name: full.evolve(schema=d) for name, d in full.schema["$defs"].items()}


def _event_errors(event: object) -> Iterator[ValidationError]:
    # The event schema picks the type's entry with one `if` per type, which costs ~70 sub-validations per event in
    # jsonschema; the entry alone gives the same verdict for a declared type (and the whole schema names a wrong one).
    kind = event.get("type") if isinstance(event, dict) else None
    v = _type_validators().get(kind) if isinstance(kind, str) else None
    return (v or validator("event")).iter_errors(event)


@cache
def _without_events(name: str) -> Draft202012Validator:
    """The format's validator with its list of events left unchecked (`iter_errors` checks them one by one)."""
    schema = copy.deepcopy(_schemas()[name])
    node = schema
    for key in EVENT_LISTS[name]:
        node = node["properties"][key]
    assert node["items"] == {"$ref": EVENT_ID}, f"{name}.schema.json: its events are not event.schema.json's"
    node["items"] = {}
    del schema["$id"]  # its own `#/...` references resolve in this copy, not in the registered original
    schema.pop("$schema", None)  # else `evolve` picks the standard class by it (and 4.0 passes for an integer)
    return validator(name).evolve(schema=schema)


def iter_errors(name: str, doc: object) -> Iterator[ValidationError]:
    """Every violation of the format `name` (the same as its schema's), events checked by their type's entry."""
    if name == "event":
        yield from _event_errors(doc)
        return
    if name not in EVENT_LISTS:
        yield from validator(name).iter_errors(doc)
        return
    yield from _without_events(name).iter_errors(doc)
    events = doc
    for key in EVENT_LISTS[name]:
        events = events.get(key) if isinstance(events, dict) else None
    for i, event in enumerate(events if isinstance(events, list) else []):
        for e in _event_errors(event):
            e.path.extendleft(reversed([*EVENT_LISTS[name], i]))
            yield e


@cache
def _compiled(name: str):
    """A compiled validator (`jsonschema_rs`) of the same schema, or None where it is not installed: it confirms a
    valid document in microseconds where `jsonschema` walks the schema in Python for a tenth of a second (a position);
    only a document it refuses goes to the reference validator, whose errors make the messages."""
    try:
        import jsonschema_rs
    except ImportError:
        return None
    schemas = _schemas()
    registry = jsonschema_rs.Registry([(s["$id"], s) for s in schemas.values()])
    # `format` is an annotation in draft 2020-12 (the reference validator does not assert it either)
    return jsonschema_rs.Draft202012Validator(schemas[name], registry=registry, validate_formats=False)


def is_valid(name: str, doc: object, floats: bool = True) -> bool:
    """Whether `doc` follows the format `name`, as fast as this machine allows. The compiled validator takes 4.0
    for an integer: a document holding a float goes to the strict one, unless the caller says it holds none
    (`floats=False`: a document this process wrote a moment ago, e.g. a trusted position; the walk looking for a
    float costs more than the compiled check itself)."""
    return _confirmed(name, doc, floats) or next(iter_errors(name, doc), None) is None


def _confirmed(name: str, doc: object, floats: bool) -> bool:
    """Does the compiled validator confirm `doc` (False: it refused it, or cannot judge it)?"""
    fast = _compiled(name)
    if fast is None or (floats and has_float(doc)):
        return False
    try:
        return fast.is_valid(doc)
    except (ValueError, TypeError, OverflowError):  # a value it cannot take: the reference validator judges
        return False


def _pointer(path) -> str:
    return "/" + "/".join(str(p).replace("~", "~0").replace("/", "~1") for p in path) if path else "/"


def problems(name: str, doc: object, limit: int = 20, floats: bool = True) -> list[str]:
    """Up to `limit` violations of the format `name`, each as 'JSON-pointer: message', deepest first (`floats`: see
    `is_valid`)."""
    if _confirmed(name, doc, floats):
        return []
    from jsonschema.exceptions import best_match

    # best_match descends into anyOf/oneOf branches, so a bad answer names its own place, not its parent
    errors = [best_match([e]) for e in iter_errors(name, doc)]
    errors.sort(key=lambda e: (-len(e.absolute_path), list(map(str, e.absolute_path))))
    return [f"{_pointer(e.absolute_path)}: {e.message[:200]}" for e in errors[:limit]]
