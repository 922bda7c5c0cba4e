"""Two bundles compared record by record: what was added, removed, and which fields of which record changed
(old and new value), card text included. Source locations are not differences: moving a card in its file
changes nothing a player would notice."""

from __future__ import annotations

import json

from maester.dsl.english import English

LOCATION_KEYS = frozenset({"source", "at"})  # where a declaration is written, not what it says
CARD_SECTIONS = ("house_cards", "westeros_cards", "wildling_cards", "loans")
TEXT_FIELD = "text"  # the English text of a card, generated from its effect
SHOWN_CHARS = 120  # a long value is cut in the human form (the JSON keeps it whole)


def _strip(value):
    if isinstance(value, dict):
        return {k: _strip(v) for k, v in value.items() if k not in LOCATION_KEYS}
    if isinstance(value, list):
        return [_strip(v) for v in value]
    return value


def _fields(left, right, prefix: str, out: dict) -> None:
    """Changed fields as dotted paths; objects are compared key by key, anything else as a whole."""
    if isinstance(left, dict) and isinstance(right, dict):
        for key in sorted(set(left) | set(right)):
            _fields(left.get(key), right.get(key), f"{prefix}.{key}" if prefix else key, out)
    elif left != right:
        out[prefix] = {"from": left, "to": right}


def _effect_change(name: str, change: dict) -> bool:
    """A change the numbers do not show (an ability, a nested value): the card's text says what it means."""
    return "." in name or not all(isinstance(change[k], str | int | float | bool | type(None)) for k in ("from", "to"))


def _sections(bundle: dict) -> list[str]:
    return [k for k, v in bundle.items() if k != "sources" and isinstance(v, dict)
            and all(isinstance(r, dict) for r in v.values())]


def diff_bundles(left: dict, right: dict) -> dict[str, dict]:
    """Per section with differences: {"added": [ids], "removed": [ids], "changed": {id: {field: {from, to}}}}."""
    en_l, en_r = English(left), English(right)
    result: dict[str, dict] = {}
    order = _sections(left) + [s for s in _sections(right) if s not in _sections(left)]
    for section in order:
        l_recs, r_recs = left.get(section) or {}, right.get(section) or {}
        changed: dict[str, dict] = {}
        for ident in sorted(set(l_recs) & set(r_recs)):
            fields: dict[str, dict] = {}
            _fields(_strip(l_recs[ident]), _strip(r_recs[ident]), "", fields)
            if section in CARD_SECTIONS and any(_effect_change(name, c) for name, c in fields.items()):
                tl, tr = en_l.card(section, l_recs[ident]), en_r.card(section, r_recs[ident])
                if tl != tr:
                    fields[TEXT_FIELD] = {"from": tl, "to": tr}
            if fields:
                changed[ident] = fields
        added, removed = sorted(set(r_recs) - set(l_recs)), sorted(set(l_recs) - set(r_recs))
        if added or removed or changed:
            result[section] = {"added": added, "removed": removed, "changed": changed}
    return result


def _short(value) -> str:
    text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)
    return text if len(text) <= SHOWN_CHARS else text[: SHOWN_CHARS - 1] + "…"


def diff_lines(sections: dict[str, dict]) -> list[str]:
    """The human form: a headline per section, then + added, − removed, ~ changed with each field."""
    lines = []
    for section, d in sections.items():
        lines.append(f"{section}: +{len(d['added'])} −{len(d['removed'])} ~{len(d['changed'])}")
        lines += [f"  + {i}" for i in d["added"]]
        lines += [f"  − {i}" for i in d["removed"]]
        for ident, fields in d["changed"].items():
            lines.append(f"  ~ {ident}")
            for name, change in fields.items():
                lines.append(f"      {name}: {_short(change['from'])} → {_short(change['to'])}")
    return lines
