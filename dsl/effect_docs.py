"""Generate the reference part of docs/effects.md: node kinds, marks, windows and every primitive.

Everything here comes from the registry (dsl/registry.py) and the semantics table (dsl/semantics.py),
so the specification lists exactly what the compiler emits and the interpreter runs. `maester docs
--write` refreshes the part between the markers; tests/test_effect_docs.py fails when it is stale or
when a primitive has an empty part.
"""

from __future__ import annotations

import json
from pathlib import Path

from .docgen import _replace_between, _sig
from .registry import COMBAT_WINDOWS, CONTEXTS, MARKS, NODE_KEY, NODES, PRIMITIVES, TRIGGERS, Primitive
from .semantics import SEMANTICS

BEGIN = "<!-- BEGIN GENERATED EFFECT REFERENCE (maester docs --write) -->"
END = "<!-- END GENERATED EFFECT REFERENCE -->"

# The parts every primitive's entry has; none may be empty.
PARTS = ("reads", "changes", "decision", "events")


def primitive_parts(p: Primitive) -> dict[str, str]:
    """The documented parts of one primitive (its entry in docs/effects.md), by name."""
    sem = SEMANTICS.get(p.name)
    parts = {"english": p.english, "meaning": p.doc or p.english}
    for name in PARTS:
        parts[name] = getattr(sem, name) if sem is not None else ""
    return parts


def _node_section() -> list[str]:
    out = ["## Node kinds (generated)", "",
           f"Every compiled object carries its kind in `\"{NODE_KEY}\"`. A JSON number or boolean is a literal "
           "(its own value). Keys marked `?` are optional.", ""]
    for role in ("ability", "statement", "option", "expression"):
        for n in (n for n in NODES.values() if n.role == role):
            out += [f"### `{n.name}` ({role})", ""]
            out += [f"- `{k.rstrip('?')}`{' (optional)' if k.endswith('?') else ''}: {meaning}"
                    for k, meaning in n.keys]
            out += ["", f"Evaluation: {n.evaluation}", ""]
    return out


def _windows_section() -> list[str]:
    out = ["## Combat windows (generated)", "",
           "The combat procedure opens these windows in this order; in each, the abilities of both played "
           "cards with that trigger run in Iron Throne order (R20.2.6), each at most once per combat "
           "(R20.2.7). Events of an ability cite the window's first rule.", "",
           "| # | trigger | when | rules |", "|---|---|---|---|"]
    for i, name in enumerate(COMBAT_WINDOWS, 1):
        t = TRIGGERS[name]
        out.append(f"| {i} | `{name}` | {t.english}. {t.doc} | {', '.join(t.rules)} |")
    out += ["", "## Contexts (generated)", ""]
    for c in CONTEXTS.values():
        names = ", ".join(f"`{k}` ({v})" for k, v in c.variables.items()) or "none"
        out.append(f"- **{c.name}**: {c.doc} Names bound before the effect runs: {names}.")
    out += ["", "## Marks (generated)", "",
            "What a rule procedure must know about a card is declared as a mark of a primitive; the procedure "
            "asks for the marked calls the card's effect reaches now (top-level statements and the branches of "
            "`if` as their conditions stand; loop and decision bodies are not entered).", ""]
    for name, doc in MARKS.items():
        users = ", ".join(f"`{p.name}`" for p in PRIMITIVES.values() if name in p.marks) or "none"
        out.append(f"- **{name}** ({users}): {doc}")
    return out + [""]


def _primitive_entry(p: Primitive) -> list[str]:
    parts = primitive_parts(p)
    out = [f"### `{p.name}`", "", _sig(p), "", f"English template: “{parts['english']}”. {parts['meaning']}", ""]
    if p.params:
        out.append("Arguments:")
        out.append("")
        for x in p.params:
            default = "" if x.default is None else f", default `{json.dumps(x.default)}`".replace("`[]`", "empty")
            need = "required" if x.required else "optional"
            out.append(f"- `{x.name}` ({x.type}, {need}{default}){': ' + x.doc if x.doc else ''}")
        out.append("")
    if p.returns:
        out += [f"- Returns: {p.returns}"]
    out += [f"- Reads: {parts['reads']}", f"- Changes: {parts['changes']}", f"- Decision: {parts['decision']}",
            f"- Events: {parts['events']}"]
    sem = SEMANTICS.get(p.name)
    if sem is not None and sem.void:
        out.append(f"- Seen in advance to do nothing (the no-op rule) when: {sem.void}")
    if p.windows:
        out.append("- Allowed in: " + ", ".join(f"`{w}`" for w in p.windows))
    if p.marks:
        out.append("- Marks: " + ", ".join(f"`{m}`" for m in p.marks))
    if p.block:
        out.append("- Block: a list of `option` nodes in `options`")
    if p.rules:
        out.append(f"- Rules: {', '.join(p.rules)}")
    return out + [""]


def effects_reference_markdown() -> str:
    out = [BEGIN, ""] + _node_section() + _windows_section()
    for kind, title in (("effect", "Effect primitives (generated)"), ("query", "Queries (generated)")):
        out += [f"## {title}", ""]
        for p in sorted((p for p in PRIMITIVES.values() if p.kind == kind), key=lambda p: p.name):
            out += _primitive_entry(p)
    out.append(END)
    return "\n".join(out) + "\n"


def refresh_effects_doc(path: Path) -> bool:
    """Rewrite the generated part of docs/effects.md; True when it changed."""
    return _replace_between(path, BEGIN, END, effects_reference_markdown())
