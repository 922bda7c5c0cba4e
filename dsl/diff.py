"""Two bundles compared record by record: what a variant or a pack changes (`maester diff`, the authoring tests).

`diff_bundles` walks every section of records (houses, setups, cards, decks, ...) in the bundle's order and
reports the records added and removed and, for a record in both, every changed field by its path with its old
and new value: nested objects as dotted paths (`unit_limits.knight`), a list of placements by area
(`units[winterfell]`), other lists of records of the same length by position (`abilities[0].body`). A card
whose ability changed also gets its English text, before and after. Where a declaration is written is not a
difference: moving a card in its file changes nothing a player would notice. `diff_lines` is the human form.
"""

from __future__ import annotations

import json

from .english import English

# where and how a declaration is written (its location, the declaration it was derived from), not what it says
LOCATION_KEYS = frozenset({"source", "at", "derived_from"})
CARD_SECTIONS = ("house_cards", "westeros_cards", "wildling_cards", "loans")
EFFECT_KEYS = ("abilities", "effect")  # a card's compiled behaviour: its English text says what a change means
TEXT_FIELD = "text"  # the English text of a card, generated from its effect
SHOWN_CHARS = 120  # a long value is cut in the human form (the JSON keeps it whole)
PLACEMENT_KEY = "area"  # lists of records each naming a distinct area are compared area by area


def _keyed(items: list) -> dict | None:
    """A list of placements by their area, or None when it is not one (an item without an area, or twice one)."""
    if not all(isinstance(x, dict) and PLACEMENT_KEY in x for x in items):
        return None
    keys = [x[PLACEMENT_KEY] for x in items]
    return dict(zip(keys, items, strict=True)) if len(set(keys)) == len(keys) else None


def _fields(left: object, right: object, path: str, out: dict) -> None:
    """Every changed field of two values, as {path: {"from": old, "to": new}}."""
    if isinstance(left, dict) and isinstance(right, dict):
        for key in sorted(set(left) | set(right), key=str):
            if key not in LOCATION_KEYS:
                _fields(left.get(key), right.get(key), f"{path}.{key}" if path else str(key), out)
        return
    if isinstance(left, list) and isinstance(right, list) and left != right:
        lmap, rmap = _keyed(left), _keyed(right)
        if lmap is not None and rmap is not None:
            for key in sorted(set(lmap) | set(rmap), key=str):
                _fields(lmap.get(key), rmap.get(key), f"{path}[{key}]", out)
            return
        if len(left) == len(right) and all(isinstance(x, dict) for x in left + right):
            for i, (x, y) in enumerate(zip(left, right, strict=True)):
                _fields(x, y, f"{path}[{i}]", out)
            return
    if left != right:
        out[path] = {"from": left, "to": right}


def _is_effect(path: str) -> bool:
    return path.split(".")[0].split("[")[0] in EFFECT_KEYS


def _sections(bundle: dict) -> list[str]:
    return [k for k, v in bundle.items() if k != "sources" and isinstance(v, dict)
            and all(isinstance(r, dict) for r in v.values())]


def diff_bundles(left: dict, right: dict) -> dict[str, dict]:
    """Per section with differences: {"added": [ids], "removed": [ids], "changed": {id: {path: {from, to}}}};
    a changed card whose ability changed also has `text` {from, to}, its English text."""
    en_l, en_r = English(left), English(right)
    result: dict[str, dict] = {}
    order = _sections(left) + [s for s in _sections(right) if s not in _sections(left)]
    for section in order:
        l_recs, r_recs = left.get(section) or {}, right.get(section) or {}
        changed: dict[str, dict] = {}
        for ident in sorted(set(l_recs) & set(r_recs)):
            fields: dict[str, dict] = {}
            _fields(l_recs[ident], r_recs[ident], "", fields)
            if section in CARD_SECTIONS and any(_is_effect(path) for path in fields):
                tl, tr = en_l.card(section, l_recs[ident]), en_r.card(section, r_recs[ident])
                if tl != tr:
                    fields[TEXT_FIELD] = {"from": tl, "to": tr}
            if fields:
                changed[ident] = fields
        added, removed = sorted(set(r_recs) - set(l_recs)), sorted(set(l_recs) - set(r_recs))
        if added or removed or changed:
            result[section] = {"added": added, "removed": removed, "changed": changed}
    return result


def count(sections: dict[str, dict]) -> int:
    """How many records differ: added, removed or changed."""
    return sum(len(s["added"]) + len(s["removed"]) + len(s["changed"]) for s in sections.values())


def _short(value: object) -> str:
    text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)
    return text if len(text) <= SHOWN_CHARS else text[: SHOWN_CHARS - 1] + "…"


def diff_lines(sections: dict[str, dict]) -> list[str]:
    """The human form: a headline per section, then + added, − removed, ~ changed with each field. A card whose
    text changed shows the text, not the compiled effect it is generated from."""
    lines = []
    for section, d in sections.items():
        lines.append(f"{section}: +{len(d['added'])} −{len(d['removed'])} ~{len(d['changed'])}")
        lines += [f"  + {i}" for i in d["added"]]
        lines += [f"  − {i}" for i in d["removed"]]
        for ident, fields in d["changed"].items():
            lines.append(f"  ~ {ident}")
            for name, change in fields.items():
                if TEXT_FIELD in fields and name != TEXT_FIELD and _is_effect(name):
                    continue
                lines.append(f"      {name}: {_short(change['from'])} → {_short(change['to'])}")
    return lines
