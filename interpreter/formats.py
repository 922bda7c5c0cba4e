"""The formats an engine exchanges besides the bundle, each with its JSON Schema in schemas/ (draft 2020-12):

| format   | schema                  | written by                          |
|----------|-------------------------|-------------------------------------|
| state    | state.schema.json       | `GameState.to_json`                 |
| decision | decision.schema.json    | `Decision.to_json` (generated from decision_kinds.py) |
| position | position.schema.json    | `Game.to_state`, `maester play --save` |
| log      | log.schema.json         | `maester play --log`                |

`problems(format, doc)` lists every violation with its JSON pointer (empty: valid).
"""

from __future__ import annotations

import json
from functools import cache
from importlib import resources

from jsonschema import Draft202012Validator
from jsonschema.exceptions import best_match
from referencing import Registry, Resource

FORMAT_FILES = {"state": "state.schema.json", "decision": "decision.schema.json",
                "position": "position.schema.json", "log": "log.schema.json"}


@cache
def _schemas() -> dict[str, dict]:
    root = resources.files("maester.schemas")
    return {name: json.loads(root.joinpath(file).read_text(encoding="utf-8")) for name, file in FORMAT_FILES.items()}


@cache
def validator(name: str) -> Draft202012Validator:
    schemas = _schemas()
    registry = Registry().with_resources((s["$id"], Resource.from_contents(s)) for s in schemas.values())
    Draft202012Validator.check_schema(schemas[name])
    return Draft202012Validator(schemas[name], registry=registry)


def _pointer(path) -> str:
    return "/" + "/".join(str(p).replace("~", "~0").replace("/", "~1") for p in path) if path else "/"


def problems(name: str, doc: object, limit: int = 20) -> list[str]:
    """Up to `limit` violations of the format `name`, each as 'JSON-pointer: message', deepest first."""
    # best_match descends into anyOf/oneOf branches, so a bad answer names its own place, not its parent
    errors = [best_match([e]) for e in validator(name).iter_errors(doc)]
    errors.sort(key=lambda e: (-len(e.absolute_path), list(map(str, e.absolute_path))))
    return [f"{_pointer(e.absolute_path)}: {e.message[:200]}" for e in errors[:limit]]
