"""schemas/state.schema.json: written by hand, except its `frames` property, generated here from the frames every
procedure declares (cursor.FRAMES). A front end of the interpreter: it imports every rules module so that all
their frames are declared (`maester schema --write` rewrites the file; tests/test_cursor.py checks it)."""

from __future__ import annotations

import json

from .. import mod  # noqa: F401 - every rules module declares its frames when imported
from ..core.cursor import frames_schema
from ..core.schema_files import SCHEMA_DIR, schema_text


def state_schema_text(current: str | None = None) -> str:
    """schemas/state.schema.json with its `frames` property generated from the declared frames (cursor.FRAMES);
    the rest of the file is written by hand and kept as it is."""
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
