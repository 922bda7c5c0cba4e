"""The schema files generated from the engine's declarations (the event and decision catalogues, the vector
format): one way to print and write them, so that every generated file has the same form."""

from __future__ import annotations

import json
from pathlib import Path

from maester.dsl.files import write_file
from maester.dsl.schema_types import without_union_types

SCHEMA_DIR = Path(__file__).resolve().parents[2] / "schemas"


def schema_text(schema: dict) -> str:
    """The schema file's text: no union types (dsl/schema_types.py), two-space indents."""
    return json.dumps(without_union_types(schema), indent=2) + "\n"


def write_schema(file: str, text: str, path: Path | None = None) -> Path:
    """Write `text` to schemas/`file` (or `path`); returns where."""
    target = path or SCHEMA_DIR / file
    write_file(target, text)
    return target

