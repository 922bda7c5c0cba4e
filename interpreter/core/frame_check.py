"""The procedures in progress of a state from outside (an analysis position), checked against the game they are in.

The state schema says what JSON each field of the cursor (`step`) and of each frame (`frames`) holds; it cannot
say that a deck id names a deck of this state or that a bid is a house's. A hand-edited frame that names what is
not there passes the schema and the rules' invariants (state_check.py), restarts, and stops the game rounds
later, where the procedure reads it. So every field is checked here by its declared type (cursor.FIELD_TYPES,
PLACE_FIELDS, FRAMES, RECORDS): each id one of the game's, each count not negative, each index within its list.

`frame_problems` lists what is wrong as (JSON pointer, what is there, what was expected); empty: the frames may
be used. The replay-proved path needs none of this: a replayed history only makes frames the rules made.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from . import cursor

if TYPE_CHECKING:
    from .rules import Rules

MAX_QUOTE = 60  # characters of a wrong value quoted in a problem


@dataclass(frozen=True)
class FrameProblem:
    pointer: str  # JSON pointer into the checked document (e.g. /state/frames/0/drawn/3/0)
    found: str  # what is there (quoted short)
    expected: str  # what the declaration wants there

    def __str__(self) -> str:
        return f"{self.pointer}: {self.found} is not {self.expected}"


def _ids(rules: Rules, state: dict) -> dict[str, set[str]]:
    """Each id kind of cursor.ID_KINDS -> the ids of this game."""
    b = rules.bundle
    return {
        "house": set(state.get("houses") or ()),
        "area": {a.id for a in rules.board(state["board"]).areas},
        "deck": set(state.get("decks") or ()),
        "unit": set(rules.unit_kinds),
        "order-token": set(b["orders"]),
        "westeros-card": set(b["westeros_cards"]),
        "wildling-card": set(b["wildling_cards"]),
        "house-card": set(b["house_cards"]),
        "tides-card": set(b.get("tides_cards") or ()),
        "loan": set(b.get("loans") or ()),
    }


def _quote(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= MAX_QUOTE else text[:MAX_QUOTE] + "..."


def _escape(key: Any) -> str:
    return str(key).replace("~", "~0").replace("/", "~1")


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


class _Checker:
    def __init__(self, ids: dict[str, set[str]]):
        self.ids = ids

    def shape(self, shape: cursor.Shape, value: Any, at: str) -> Iterator[FrameProblem]:
        tag = shape[0]
        if tag == "json":  # the state schema checked it
            return
        if tag == "count":
            if not _is_int(value) or not 0 <= value <= cursor.MAX_COUNT:
                yield FrameProblem(at, _quote(value), f"a count (an integer from 0 to {cursor.MAX_COUNT:,})")
        elif tag == "id":
            kind = shape[1]
            if not isinstance(value, str) or value not in self.ids[kind]:
                yield FrameProblem(at, _quote(value), f"{cursor.ID_KINDS[kind]} ({self._some(kind)})")
        elif tag == "or-null":
            if value is not None:
                yield from self.shape(shape[1], value, at)
        elif tag == "list":
            if not isinstance(value, list):
                yield FrameProblem(at, _quote(value), "a list")
                return
            for i, item in enumerate(value):
                yield from self.shape(shape[1], item, f"{at}/{i}")
        elif tag == "pair":
            if not isinstance(value, list) or len(value) != 2:
                yield FrameProblem(at, _quote(value), "a list of two items")
                return
            yield from self.shape(shape[1], value[0], f"{at}/0")
            yield from self.shape(shape[2], value[1], f"{at}/1")
        elif tag == "map":
            if not isinstance(value, dict):
                yield FrameProblem(at, _quote(value), "an object")
                return
            for key, item in value.items():
                if key not in self.ids[shape[1]]:
                    yield FrameProblem(f"{at}/{_escape(key)}", f"the key {_quote(key)}",
                                       f"{cursor.ID_KINDS[shape[1]]} ({self._some(shape[1])})")
                yield from self.shape(shape[2], item, f"{at}/{_escape(key)}")
        elif tag == "record":
            yield from self.fields(cursor.RECORDS[shape[1]], value, at)
        else:
            raise AssertionError(f"unknown shape {shape!r}")

    def fields(self, declared: dict[str, str], obj: Any, at: str) -> Iterator[FrameProblem]:
        """The declared fields of a frame, cursor or record (those it holds: the schema says which it needs)."""
        if not isinstance(obj, dict):
            yield FrameProblem(at, _quote(obj), "an object")
            return
        for name, word in declared.items():
            if name not in obj:
                continue
            where = f"{at}/{_escape(name)}"
            if word.startswith(cursor.INDEX):
                of = obj.get(word[len(cursor.INDEX):])
                limit = len(of) if isinstance(of, list) else 0
                if not _is_int(obj[name]) or not 0 <= obj[name] <= limit:
                    yield FrameProblem(where, _quote(obj[name]),
                                       f"an index into `{word[len(cursor.INDEX):]}` (0 to {limit})")
            else:
                yield from self.shape(cursor.FIELD_TYPES[word], obj[name], where)

    def _some(self, kind: str) -> str:
        known = sorted(self.ids[kind])
        if not known:
            return "there is none"
        return "one of " + ", ".join(known[:6]) + (", ..." if len(known) > 6 else "")


def _unpaid_bids(state: dict, frame: dict, declared: tuple[str, str, object], at: str) -> Iterator[FrameProblem]:
    """Bids given but not paid yet are each within the bidder's power (R10.2, R11.3: 0 up to its available power)."""
    name, field, value = declared
    bids = frame.get(name)
    if frame.get(field) != value or not isinstance(bids, dict):
        return
    houses = state.get("houses") or {}
    for house, bid in bids.items():
        power = (houses.get(house) or {}).get("power") if isinstance(houses, dict) else None
        if _is_int(bid) and _is_int(power) and bid > power:
            yield FrameProblem(f"{at}/{name}/{_escape(house)}", _quote(bid),
                               f"a bid within {house}'s power ({power}): bids are paid when all are given (R10.2)")


def frame_problems(rules: Rules, state: dict, at: str = "/state", limit: int = 5) -> list[FrameProblem]:
    """What is wrong with the cursor and frames of `state` (a state as JSON, that passed the state schema), at
    most `limit` problems; `at` is the state's JSON pointer in the document."""
    checker = _Checker(_ids(rules, state))
    found: list[FrameProblem] = []

    def problems() -> Iterator[FrameProblem]:
        step = state.get("step") or {}
        declared = cursor.PLACE_FIELDS.get(step.get("at")) if isinstance(step, dict) else None
        if declared is not None:
            yield from checker.fields(declared, step, f"{at}/step")
        for i, frame in enumerate(state.get("frames") or ()):
            kind = cursor.FRAMES.get(frame.get("at")) if isinstance(frame, dict) else None
            if kind is None:
                yield FrameProblem(f"{at}/frames/{i}/at", _quote(frame.get("at") if isinstance(frame, dict)
                                                               else frame), "a declared frame")
                continue
            yield from checker.fields({n: w for n, (w, _) in kind.fields.items()}, frame, f"{at}/frames/{i}")
            if kind.unpaid_bids is not None:
                yield from _unpaid_bids(state, frame, kind.unpaid_bids, f"{at}/frames/{i}")

    for p in problems():
        found.append(p)
        if len(found) >= limit:
            break
    return found
