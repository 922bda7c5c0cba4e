"""The schema files generated from the engine's declarations (the event and decision catalogues, the vector
format): one way to print and write them, so that every generated file has the same form."""

from __future__ import annotations

import json
from pathlib import Path

SCHEMA_DIR = Path(__file__).resolve().parents[1] / "schemas"


def schema_text(schema: dict) -> str:
    return json.dumps(schema, indent=2) + "\n"


def write_schema(file: str, text: str, path: Path | None = None) -> Path:
    """Write `text` to schemas/`file` (or `path`); returns where."""
    target = path or SCHEMA_DIR / file
    target.write_text(text, encoding="utf-8")
    return target


def state_schema_text(current: str | None = None) -> str:
    """schemas/state.schema.json with its `frames` property generated from the declared frames (cursor.FRAMES);
    the rest of the file is written by hand and kept as it is."""
    from . import mod  # noqa: F401 - every rules module declares its frames when imported
    from .cursor import frames_schema

    text = current if current is not None else (SCHEMA_DIR / "state.schema.json").read_text(encoding="utf-8")
    schema = json.loads(text)
    props = schema["properties"]
    ordered = {}
    for key, value in props.items():  # `frames` right after `step`
        if key != "frames":
            ordered[key] = value
        if key == "step":
            ordered["frames"] = frames_schema()
    schema["properties"] = ordered
    if "frames" not in schema["required"]:
        schema["required"].insert(schema["required"].index("step") + 1, "frames")
    return schema_text(schema)
