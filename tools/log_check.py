"""A game log is checked before a replay uses it, against schemas/log.schema.json: every problem reported at
once with its JSON pointer (a log is data a user may have edited or truncated)."""

from __future__ import annotations

from maester.dsl.diagnostics import Diagnostics, MaesterError, Span
from maester.interpreter.frontends.log import LOG_FORMAT, validate_log


def check_log(data: object, label: str) -> dict:
    """The log if it can be replayed; otherwise every problem, as one error report."""
    diags = Diagnostics()
    if not isinstance(data, dict) or data.get("format") != LOG_FORMAT:
        diags.error("not-a-log", "not a maester game log", Span(label, 0, 0),
                    "game logs are written by `maester play --log FILE`")
        raise MaesterError(diags)
    validate_log(data, diags, label)  # the one log schema, shared with `read_log`
    if diags.errors:
        raise MaesterError(diags)
    return data
