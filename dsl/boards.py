"""Board composition: a board is its own areas and borders, or a base board with overlays applied.

Overlays are diffs (add/change/remove areas, add/remove borders, sea links between boards). Every
overlay step is checked against the board as it stands at that point, so an overlay that removes or
changes what is not there gets a located error.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .diagnostics import Diagnostics, Span


@dataclass
class BoardBuild:
    """A board while it is being composed."""

    areas: dict[str, dict] = field(default_factory=dict)
    borders: set[frozenset[str]] = field(default_factory=set)
    links: set[frozenset[str]] = field(default_factory=set)

    def copy(self) -> BoardBuild:
        return BoardBuild({k: dict(v) for k, v in self.areas.items()}, set(self.borders), set(self.links))


@dataclass
class Change:
    """One step of a board or overlay, with the place it was written for error messages."""

    op: str  # add-area | change | remove-area | border | remove-border | link
    span: Span
    area: dict | None = None  # add-area: the full area; change: the new attribute values
    ids: tuple[str, ...] = ()


def apply_changes(board: BoardBuild, changes: list[Change], label: str, diags: Diagnostics) -> None:
    """Apply steps in order; problems are reported and the offending step skipped."""
    for ch in changes:
        if ch.op == "add-area":
            assert ch.area is not None
            if ch.area["id"] in board.areas:
                diags.error("duplicate-area", f"{label} adds area '{ch.area['id']}', which the board "
                            "already has", ch.span, "use 'change AREA { ... }' to alter an existing area")
                continue
            board.areas[ch.area["id"]] = dict(ch.area)
        elif ch.op == "change":
            (area_id,) = ch.ids
            if area_id not in board.areas:
                diags.error("overlay-missing", f"{label} changes area '{area_id}', which is not on the "
                            "board it is applied to", ch.span, "check the board's 'extends' and 'apply' order")
                continue
            assert ch.area is not None
            board.areas[area_id].update(ch.area)
        elif ch.op == "remove-area":
            (area_id,) = ch.ids
            if area_id not in board.areas:
                diags.error("overlay-missing", f"{label} removes area '{area_id}', which is not on the board",
                            ch.span)
                continue
            del board.areas[area_id]
            board.borders = {b for b in board.borders if area_id not in b}
            board.links = {b for b in board.links if area_id not in b}
        elif ch.op in ("border", "link"):
            a, b = ch.ids
            missing = [x for x in (a, b) if x not in board.areas]
            if missing:
                diags.error("border-missing-area", f"{label}: border {a} – {b} names "
                            f"'{missing[0]}', which is not on this board", ch.span,
                            "declare the area on this board or in an overlay applied before this one")
                continue
            if a == b:
                diags.error("border-self", f"{label}: an area cannot border itself ('{a}')", ch.span)
                continue
            pair = frozenset((a, b))
            if pair in board.borders:
                diags.error("duplicate-border", f"{label}: border {a} – {b} is already on the board", ch.span)
                continue
            board.borders.add(pair)
            if ch.op == "link":
                board.links.add(pair)
        elif ch.op == "remove-border":
            a, b = ch.ids
            pair = frozenset((a, b))
            if pair not in board.borders:
                diags.error("overlay-missing", f"{label} removes border {a} – {b}, which is not on the board",
                            ch.span, "only borders the board has can be removed")
                continue
            board.borders.discard(pair)
            board.links.discard(pair)
        else:  # pragma: no cover - the compiler only makes the ops above
            raise AssertionError(ch.op)


def validate_board(board: BoardBuild, label: str, span: Span, diags: Diagnostics) -> None:
    """Whole-board checks: ports open on exactly one land and one sea, their own."""
    neighbours: dict[str, set[str]] = {a: set() for a in board.areas}
    for pair in board.borders:
        a, b = tuple(pair)
        neighbours[a].add(b)
        neighbours[b].add(a)
    for area_id, area in sorted(board.areas.items()):
        if area["kind"] != "port":
            continue
        near = neighbours[area_id]
        lands = sorted(n for n in near if board.areas[n]["kind"] == "land")
        seas = sorted(n for n in near if board.areas[n]["kind"] == "sea")
        others = sorted(n for n in near if board.areas[n]["kind"] == "port")
        where = area.get("_span", span)
        if len(lands) != 1 or len(seas) != 1 or others:
            diags.error("port-shape", f"{label}: port '{area_id}' must border exactly one land area and "
                        f"one sea area; it borders land {lands or 'none'}, sea {seas or 'none'}"
                        + (f", ports {others}" if others else ""), where,
                        "a port's borders are its land area ('of') and its sea ('on') and nothing else")
            continue
        if lands[0] != area["port_of"] or seas[0] != area["port_sea"]:
            diags.error("port-shape", f"{label}: port '{area_id}' says it is of '{area['port_of']}' on "
                        f"'{area['port_sea']}' but borders '{lands[0]}' and '{seas[0]}'", where,
                        "make 'of'/'on' and the port's two borders agree")
        if board.areas.get(area["port_of"], {}).get("castle") == "none":
            diags.error("port-shape", f"{label}: port '{area_id}' belongs to '{area['port_of']}', which has "
                        "no castle or stronghold", where)


def board_json(board: BoardBuild) -> dict:
    areas = {k: {f: v for f, v in a.items() if not f.startswith("_")} for k, a in sorted(board.areas.items())}
    return {
        "areas": areas,
        "borders": sorted(sorted(p) for p in board.borders),
        "links": sorted(sorted(p) for p in board.links),
    }
