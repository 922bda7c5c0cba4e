"""Data read from files (bundles, positions, logs, vectors, scenarios) within stated limits, and integers kept
apart from floats.

`loads(text, label)` is strict JSON: `NaN` and `Infinity` are refused (they are not JSON), a number's text is
bounded (a 5,000-digit number is one located error, not Python's conversion error), and floats stay floats, so
that a schema's `integer` refuses `4.0` (`strict_validator`). `data_problem(data)` checks any loaded document
(YAML too) for the limits of dsl/limits.py: nesting depth, values, string length, integer range. Every problem is
one `MaesterError` with the file and, where it can be known, the line and column or the JSON pointer.
"""

from __future__ import annotations

import json
import math
from typing import Any

from .diagnostics import Diagnostics, MaesterError, Span
from .limits import (
    MAX_DATA_BYTES,
    MAX_DATA_INTEGER,
    MAX_DATA_NUMBER_CHARS,
    MAX_DATA_STRING_CHARS,
    MAX_DATA_VALUES,
    MAX_JSON_DEPTH,
)


class DataError(MaesterError):
    """A data file beyond a stated limit or not strict JSON."""


def fail(label: str, code: str, message: str, place: tuple[int, int] = (0, 0), hint: str | None = None) -> DataError:
    diags = Diagnostics()
    diags.error(code, message, Span(label, *place), hint)
    return DataError(diags)


def pointer(path) -> str:
    return "/" + "/".join(str(p).replace("~", "~0").replace("/", "~1") for p in path) if path else "/"


def _place(text: str, offset: int) -> tuple[int, int]:
    if offset < 0:
        return (0, 0)
    line = text.count("\n", 0, offset) + 1
    return line, offset - (text.rfind("\n", 0, offset) + 1) + 1


class _Number(ValueError):
    def __init__(self, text: str, why: str):
        super().__init__(why)
        self.text, self.why = text, why


def _int(text: str) -> int:
    if len(text) > MAX_DATA_NUMBER_CHARS:
        raise _Number(text, f"a number of {len(text):,} characters")
    value = int(text)
    if abs(value) > MAX_DATA_INTEGER:
        raise _Number(text, f"the integer {text} is outside the 64-bit range")
    return value


def _float(text: str) -> float:
    if len(text) > MAX_DATA_NUMBER_CHARS:
        raise _Number(text, f"a number of {len(text):,} characters")
    value = float(text)
    if not math.isfinite(value):
        raise _Number(text, f"the number {text} is too large to be a number")
    return value


def _constant(text: str) -> Any:
    raise _Number(text, f"{text} is not a JSON number")


def check_size(size: int, label: str) -> None:
    if size > MAX_DATA_BYTES:
        raise fail(label, "file-too-large", f"the file has {size:,} bytes; data files are at most "
                   f"{MAX_DATA_BYTES:,}")


def read_bounded(path, label: str) -> str:
    """A data file's text, read at most MAX_DATA_BYTES (+1, to see that there is more): a device or a pipe has no
    size to check beforehand (/dev/zero is endless), so the read itself is bounded. UTF-8 errors and OSError
    propagate to the caller, which words them."""
    with open(path, "rb") as f:
        raw = f.read(MAX_DATA_BYTES + 1)
    if len(raw) > MAX_DATA_BYTES:
        raise fail(label, "file-too-large", f"the file has more than {MAX_DATA_BYTES:,} bytes; data files are at "
                   f"most {MAX_DATA_BYTES:,}")
    return raw.decode("utf-8")


def loads(text: str, label: str) -> Any:
    """Strict JSON within the limits, or one located `DataError` (a `json.JSONDecodeError` is left to callers
    that word it their own way)."""
    check_size(len(text), label)
    try:
        data = json.loads(text, parse_int=_int, parse_float=_float, parse_constant=_constant)
    except _Number as e:
        raise fail(label, "bad-number", f"{e.why}; numbers are integers within ±{MAX_DATA_INTEGER:,} written in at "
                   f"most {MAX_DATA_NUMBER_CHARS} characters", _place(text, text.find(e.text[:40]))) from None
    except RecursionError:
        raise fail(label, "too-deep", f"the JSON nests deeper than {MAX_JSON_DEPTH} levels") from None
    check_data(data, label)
    return data


def check_data(data: Any, label: str) -> None:
    problem = data_problem(data)
    if problem:
        where, message = problem
        at = pointer(where)
        at = at if len(at) <= 80 else at[:77] + "..."
        raise fail(label, "too-deep" if "deep" in message else "too-large", f"the data {message} (at {at})")


def data_problem(data: Any) -> tuple[list, str] | None:
    """(JSON pointer path, what) of the first value beyond a limit, or None. Iterative: the depth is what is
    checked; shared values (YAML aliases) count each time they are reached, so an alias bomb stops early."""
    stack: list[tuple[Any, int, tuple]] = [(data, 1, ())]
    seen = 0
    while stack:
        node, depth, path = stack.pop()
        seen += 1
        if seen > MAX_DATA_VALUES:
            return list(path), f"holds more than {MAX_DATA_VALUES:,} values"
        if depth > MAX_JSON_DEPTH:
            return list(path), f"nests deeper than {MAX_JSON_DEPTH} levels"
        if isinstance(node, dict):
            for k, v in node.items():
                if isinstance(k, str) and len(k) > MAX_DATA_STRING_CHARS:
                    return [*path, k[:20] + "..."], f"holds a key of {len(k):,} characters (at most " \
                        f"{MAX_DATA_STRING_CHARS:,})"
                stack.append((v, depth + 1, (*path, k)))
        elif isinstance(node, list | tuple):
            stack.extend((v, depth + 1, (*path, i)) for i, v in enumerate(node))
        elif isinstance(node, str):
            if len(node) > MAX_DATA_STRING_CHARS:
                return list(path), f"holds a string of {len(node):,} characters (at most {MAX_DATA_STRING_CHARS:,})"
        elif isinstance(node, bool):
            continue
        elif isinstance(node, int):
            if abs(node) > MAX_DATA_INTEGER:
                return list(path), f"holds an integer outside ±{MAX_DATA_INTEGER:,}"
        elif isinstance(node, float) and not math.isfinite(node):
            return list(path), "holds a number too large to be a number (not finite)"
    return None


def has_float(data: Any) -> bool:
    """Whether any number of `data` is a float (a compiled validator may take `4.0` for an integer)."""
    stack = [data]
    while stack:
        node = stack.pop()
        if isinstance(node, dict):
            stack.extend(node.values())
        elif isinstance(node, list | tuple):
            stack.extend(node)
        elif isinstance(node, float):
            return True
    return False


def strict_schema_validator(schema: dict, others: list[dict] | tuple = ()):
    """A draft 2020-12 validator of `schema` (the schemas it refers to by `$id` among `others`) whose `integer`
    is strict everywhere: the schemas lose their `$schema` key, else jsonschema would validate a `$ref`'d
    schema with the standard class it names (and accept 4.0 there)."""
    from jsonschema import Draft202012Validator
    from referencing import Registry, Resource
    from referencing.jsonschema import DRAFT202012

    Draft202012Validator.check_schema(schema)

    def plain(s: dict) -> dict:
        return {k: v for k, v in s.items() if k != "$schema"}

    registry = Registry().with_resources((s["$id"], Resource(contents=plain(s), specification=DRAFT202012))
                                         for s in others if "$id" in s)
    return strict_validator(Draft202012Validator)(plain(schema), registry=registry)


def strict_validator(base: type) -> type:
    """A jsonschema validator class whose `integer` is an int, never a float with an integral value (JSON Schema's
    own `integer` accepts `4.0`, which the engine would then use as a list index or a count) nor a boolean."""
    from jsonschema import validators

    def is_integer(_checker, instance) -> bool:
        return isinstance(instance, int) and not isinstance(instance, bool)

    checker = base.TYPE_CHECKER.redefine("integer", is_integer)
    return validators.extend(base, type_checker=checker)
