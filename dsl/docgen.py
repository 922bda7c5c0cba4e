"""Generate the reference part of docs/dsl.md from the registry and the declaration kinds.

The hand-written part of docs/dsl.md explains the language; the part between the markers below is
produced here, so it lists exactly what the compiler accepts. `maester docs --write` refreshes it;
tests/test_registry.py fails when the file is stale.
"""

from __future__ import annotations

import re
from pathlib import Path

from .files import write_file
from .kinds import KINDS
from .moments import MOMENTS
from .registry import CONTEXTS, ENUMS, PRIMITIVES, STATEMENTS, TRIGGERS, Primitive

BEGIN = "<!-- BEGIN GENERATED REFERENCE (maester docs --write) -->"
END = "<!-- END GENERATED REFERENCE -->"



# Value types that are a choice between an id and a word (see check.py).
_VALUE_WORDS = {"house-or-every": "<house id | [house id, ...] | every>", "loan-or-random": "<loan id | random>",
                "patch-target": "<id | [id, ...] | every>", "name": "<name>",
                "ref-or-list:game": "<game id | [game id, ...]>"}

def _sig(p: Primitive) -> str:
    params = ", ".join(f"{x.name}{'' if x.required else '?'}: {x.type}" for x in p.params)
    ret = f" → {p.returns}" if p.returns else ""
    return f"`{p.name}({params}){ret}`"


def _param_rows(p: Primitive) -> list[str]:
    rows = []
    for x in p.params:
        default = "" if x.default is None else f" (default `{x.default}`)".replace("[]", "none")
        opt = "required" if x.required else "optional"
        rows.append(f"  - `{x.name}`: {x.type}, {opt}{default}{' — ' + x.doc if x.doc else ''}")
    return rows


def reference_markdown() -> str:
    out = [BEGIN, "", "## Reference (generated)", ""]
    out += ["### Statements", ""]
    for s in STATEMENTS.values():
        out += [f"#### `{s.name}`", "", f"Syntax: `{s.syntax}`", "", s.doc, "", "```", s.example, "```", ""]
    out += ["### Triggers (timing windows of house card abilities)", "",
            "| trigger | when | rules |", "|---|---|---|"]
    for t in TRIGGERS.values():
        out.append(f"| `{t.name}` | {t.english}. {t.doc} | {', '.join(t.rules)} |")
    out += ["", "### Moments (game abilities)", "",
            "The moments of the procedure a `game-ability` hooks (dsl/moments.py). *How*: `direct`, fired by the "
            "procedure there; `event`, queued when its event happens and run at the next settling point (after the "
            "order or Westeros card being resolved, at the start and end of each phase); `settle`, found at each "
            "settling point.", "",
            "| moment | when | names bound | how | rule |", "|---|---|---|---|---|"]
    for m in MOMENTS.values():
        names = ", ".join(f"`{k}` ({v})" for k, v in m.bindings.items()) or "none"
        out.append(f"| `{m.name}` | {m.english}. {m.doc} | {names} | {m.how} | {m.rule} |")
    out += ["", "### Contexts and their names", ""]
    for c in CONTEXTS.values():
        names = ", ".join(f"`{k}` ({v})" for k, v in c.variables.items()) or "none"
        out.append(f"- **{c.name}** — {c.doc} Names: {names}.")
    out += ["", "### Words of the language", ""]
    for k, vs in ENUMS.items():
        out.append(f"- `{k}`: " + ", ".join(f"`{v}`" for v in vs))
    for kind in ("effect", "query"):
        title = "Effect primitives (statements)" if kind == "effect" else "Queries (expressions)"
        out += ["", f"### {title}", ""]
        for p in sorted((p for p in PRIMITIVES.values() if p.kind == kind), key=lambda p: p.name):
            out.append(f"#### `{p.name}`")
            out.append("")
            out.append(_sig(p))
            out.append("")
            out.append(f"Reads: “{p.english}”." + (f" {p.doc}" if p.doc else ""))
            if p.windows == ("game-start",):  # the steps before the game
                out.append("Only in a game ability's `when game-start` (a step before the game).")
            elif p.windows:
                out.append(f"Only in the combat windows: {', '.join(p.windows)}.")
            if p.block:
                out.append("Takes a block of `option` entries.")
            if p.rules:
                out.append(f"Rules: {', '.join(p.rules)}.")
            if p.params:
                out.append("")
                out += _param_rows(p)
            out.append("")
    out += ["### Declaration kinds", ""]
    for k in KINDS.values():
        head = f"`{k.name} ID \"Name\" {{ ... }}`" if k.top_level else f"`{k.name}` (nested)"
        out += [f"#### {head}", "", k.doc, ""]
        for key in k.keys.values():
            vals = " ".join(_VALUE_WORDS.get(v, f"<{v}>") for v in key.values)
            flags = []
            if key.required:
                flags.append("required")
            if key.repeat:
                flags.append("repeatable")
            if key.block:
                flags.append("block: the patched kind's keys" if key.block == "*" else f"block: {key.block}")
            note = f" ({', '.join(flags)})" if flags else ""
            out.append(f"- `{key.name}{' ' + vals if vals else ''}`{note}{' — ' + key.doc if key.doc else ''}")
        if k.effect_context:
            out.append(f"- `when TRIGGER {{ ... }}` — abilities ({k.effect_context} context)")
        out.append("")
    out.append(END)
    return "\n".join(out) + "\n"


def refresh(path: Path) -> bool:
    """Rewrite the generated part of docs/dsl.md; True when it changed."""
    return _replace_between(path, BEGIN, END, reference_markdown())


def _replace_between(path: Path, begin: str, end: str, new: str) -> bool:
    """Put `new` between the markers of `path` (or append it); True when the file changed."""
    text = path.read_text(encoding="utf-8")
    pattern = re.compile(re.escape(begin) + r".*?" + re.escape(end) + r"\n?", re.S)
    updated = pattern.sub(lambda _m: new, text) if pattern.search(text) else text.rstrip() + "\n\n" + new
    if updated != text:
        write_file(path, updated)
        return True
    return False


def generated_part(path: Path) -> str | None:
    text = path.read_text(encoding="utf-8")
    m = re.search(re.escape(BEGIN) + r".*?" + re.escape(END) + r"\n?", text, re.S)
    return m.group(0) if m else None


# ---- the bundle field reference (docs/bundle.md), from schemas/bundle.schema.json -------------------

BUNDLE_BEGIN = "<!-- BEGIN GENERATED FIELD REFERENCE (maester docs --write) -->"
BUNDLE_END = "<!-- END GENERATED FIELD REFERENCE -->"


def _type_of(spec: dict) -> str:
    if "$ref" in spec:
        name = spec["$ref"].split("/")[-1]
        return f"effect `{name}`" if spec["$ref"].startswith("effect") else f"[{name}](#{name.replace('_', '-')})"
    if "oneOf" in spec:
        return " or ".join(_type_of(s) for s in spec["oneOf"])
    if "enum" in spec:
        return "one of " + ", ".join(f"`{v}`" for v in spec["enum"])
    if "const" in spec:
        return f"`{spec['const']}`"
    kind = spec.get("type", "any")
    if kind == "array":
        return f"list of {_type_of(spec.get('items', {}))}"
    if kind == "object" and isinstance(spec.get("additionalProperties"), dict):
        return f"map of id → {_type_of(spec['additionalProperties'])}"
    return str(kind)


def bundle_fields_markdown(schema: dict) -> str:
    out = [BUNDLE_BEGIN, "", "## Field reference (generated from the schema)", "",
           f"Schema: `{schema['$id']}`.", "", "### bundle", "", "| field | type | meaning |", "|---|---|---|"]
    for name, spec in schema["properties"].items():
        out.append(f"| `{name}` | {_type_of(spec)} | {spec.get('description', '')} |")
    for name, spec in schema["$defs"].items():
        out += ["", f"### {name.replace('_', '-')}", ""]
        if spec.get("description"):
            out += [spec["description"], ""]
        if "properties" in spec:
            out += ["| field | type | meaning |", "|---|---|---|"]
            for field, fs in spec["properties"].items():
                out.append(f"| `{field}` | {_type_of(fs)} | {fs.get('description', '')} |")
        else:
            out.append(f"Type: {_type_of(spec)}.")
    out.append(BUNDLE_END)
    return "\n".join(out) + "\n"


def refresh_bundle_doc(path: Path, schema: dict) -> bool:
    """Rewrite the generated field reference of docs/bundle.md; True when it changed."""
    return _replace_between(path, BUNDLE_BEGIN, BUNDLE_END, bundle_fields_markdown(schema))
