"""A game log is checked before a replay uses it: its keys and their types, every problem reported at once
with the key's JSON pointer (a log is data a user may have edited or truncated)."""

from __future__ import annotations

from maester.dsl.diagnostics import Diagnostics, MaesterError, Span

LOG_FORMAT = "maester-game-log"
# key -> (the types allowed, required?)
LOG_KEYS: dict[str, tuple[tuple[type, ...], bool]] = {
    "format": ((str,), True),
    "version": ((int,), False),
    "setup": ((str,), True),
    "seed": ((int,), True),
    "answers": ((list,), True),
    "events": ((list,), False),
    "options": ((dict,), False),
    "variant": ((str, type(None)), False),
    "packs": ((list,), False),
    "summary": ((dict,), False),
}
OPTION_KEYS: dict[str, tuple[type, ...]] = {"tides_of_battle": (bool,), "player_houses": (list, type(None))}
TYPE_NAMES = {str: "a string", int: "an integer", list: "a list", dict: "an object", bool: "true or false",
              type(None): "null"}


def _is(value: object, types: tuple[type, ...]) -> bool:
    if isinstance(value, bool) and bool not in types:  # JSON true is not the integer 1
        return False
    return isinstance(value, types)


def _want(types: tuple[type, ...]) -> str:
    return " or ".join(TYPE_NAMES[t] for t in types)


def check_log(data: object, label: str) -> dict:
    """The log if it can be replayed; otherwise every problem, as one error report."""
    diags = Diagnostics()
    where = Span(label, 0, 0)
    if not isinstance(data, dict) or data.get("format") != LOG_FORMAT:
        diags.error("not-a-log", "not a maester game log", where,
                    "game logs are written by `maester play --log FILE`")
        raise MaesterError(diags)
    for key, (types, required) in LOG_KEYS.items():
        if key not in data:
            if required:
                diags.error("log-key", f"the log has no \"{key}\" (/{key})", where,
                            f"expected {_want(types)}")
        elif not _is(data[key], types):
            diags.error("log-type", f"/{key} is {type(data[key]).__name__}, expected {_want(types)}", where)
    options = data.get("options")
    if isinstance(options, dict):
        for key, value in options.items():
            if key not in OPTION_KEYS:
                diags.error("log-key", f"unknown option /options/{key}", where,
                            "allowed: " + ", ".join(OPTION_KEYS))
            elif not _is(value, OPTION_KEYS[key]):
                diags.error("log-type", f"/options/{key} is {type(value).__name__}, expected "
                            f"{_want(OPTION_KEYS[key])}", where)
    for i, event in enumerate(data.get("events") or [] if isinstance(data.get("events"), list) else []):
        if not isinstance(event, dict) or not isinstance(event.get("text"), str):
            diags.error("log-type", f"/events/{i} is not an event (an object with a \"text\")", where)
            break
    summary = data.get("summary")
    if isinstance(summary, dict) and not _is(summary.get("state_hash", ""), (str,)):
        diags.error("log-type", "/summary/state_hash is not a string", where)
    for i, p in enumerate(data.get("packs") or [] if isinstance(data.get("packs"), list) else []):
        if not isinstance(p, str):
            diags.error("log-type", f"/packs/{i} is not a path (a string)", where)
    if diags.errors:
        raise MaesterError(diags)
    return data
