"""Field-level differences between two bundles: what a variant or a pack changes, record by record.

`diff_bundles` walks every section of records (houses, setups, games, cards, decks, ...) and reports
each added or removed record and, for a record in both, every changed field by its path
(`garrisons.winterfell: 2 → 4`). Cards whose compiled effect changed also get their English text.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field

# Bookkeeping fields that differ whenever content moves, not what the game plays.
IGNORED = {"source", "at", "derived_from"}
CARD_SECTIONS = ("house_cards", "westeros_cards", "wildling_cards", "loans")
NOT_RECORDS = {"format", "format_version", "dsl_version", "generator", "sources", "applied_variant"}


@dataclass
class RecordDiff:
    section: str
    ident: str
    change: str  # "+", "-" or "~"
    fields: list[tuple[str, object, object]] = field(default_factory=list)  # (path, old, new)
    text: tuple[str, str] | None = None  # a card's English text, before and after


def _short(value: object) -> str:
    text = json.dumps(value, ensure_ascii=False, sort_keys=True)
    return text if len(text) <= 120 else text[:117] + "..."


def _fields(old: object, new: object, path: str, out: list) -> None:
    if isinstance(old, dict) and isinstance(new, dict):
        for k in sorted(set(old) | set(new), key=str):
            if k in IGNORED:
                continue
            _fields(old.get(k), new.get(k), f"{path}.{k}" if path else str(k), out)
        return
    if isinstance(old, list) and isinstance(new, list) and old != new:
        keyed = all(isinstance(x, dict) and "area" in x for x in old + new)
        lkeys = [x["area"] for x in old] if keyed else []
        rkeys = [x["area"] for x in new] if keyed else []
        if keyed and len(set(lkeys)) == len(lkeys) and len(set(rkeys)) == len(rkeys):  # placements: by area
            lmap, rmap = dict(zip(lkeys, old, strict=True)), dict(zip(rkeys, new, strict=True))
            for k in sorted(set(lmap) | set(rmap)):
                _fields(lmap.get(k), rmap.get(k), f"{path}[{k}]", out)
            return
        if len(old) == len(new) and all(isinstance(x, dict) for x in old + new):
            for i, (x, y) in enumerate(zip(old, new, strict=True)):
                _fields(x, y, f"{path}[{i}]", out)
            return
    if old != new:
        out.append((path, old, new))


def diff_bundles(left: dict, right: dict) -> list[RecordDiff]:
    from .english import English

    en_l, en_r = English(left), English(right)
    out: list[RecordDiff] = []
    sections = sorted(k for k in set(left) | set(right) if k not in NOT_RECORDS
                      and isinstance(left.get(k, right.get(k)), dict))
    for section in sections:
        lrec, rrec = left.get(section) or {}, right.get(section) or {}
        for ident in sorted(set(rrec) - set(lrec)):
            out.append(RecordDiff(section, ident, "+"))
        for ident in sorted(set(lrec) - set(rrec)):
            out.append(RecordDiff(section, ident, "-"))
        for ident in sorted(set(lrec) & set(rrec)):
            changes: list = []
            _fields(lrec[ident], rrec[ident], "", changes)
            if not changes:
                continue
            d = RecordDiff(section, ident, "~", changes)
            if section in CARD_SECTIONS:
                tl, tr = en_l.card(section, lrec[ident]), en_r.card(section, rrec[ident])
                if tl != tr:
                    d.text = (tl, tr)
            out.append(d)
    return out


def format_diff(diffs: list[RecordDiff]) -> list[str]:
    """The diff as lines of text: a header per section, one line per changed field."""
    lines: list[str] = []
    section = None
    for d in diffs:
        if d.section != section:
            section = d.section
            group = [x for x in diffs if x.section == section]
            counts = {c: sum(1 for x in group if x.change == c) for c in "+-~"}
            lines.append(f"{section}: +{counts['+']} −{counts['-']} ~{counts['~']}")
        if d.change != "~":
            lines.append(f"  {d.change.replace('-', '−')} {d.ident}")
            continue
        lines.append(f"  ~ {d.ident}")
        for path, old, new in d.fields:
            if path in ("abilities", "effect") or path.startswith(("abilities.", "effect.")):
                continue  # shown as text below
            lines.append(f"      {path}: {_short(old)} → {_short(new)}")
        if d.text:
            lines.append(f"      text: {d.text[0]}")
            lines.append(f"         → {d.text[1]}")
        elif any(p in ("abilities", "effect") for p, _, _ in d.fields):
            lines.append("      abilities changed")
    lines.append(f"{len(diffs)} difference(s)" if diffs else "no differences")
    return lines
