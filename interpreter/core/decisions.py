"""Decisions: the engine never decides for a player; it asks, with the legal answers.

A `Decision` names who decides, what kind of choice it is, the rule behind it and the complete list
of legal answers (plain JSON values). `Game.answer` checks an answer against that list before
anything changes, so an illegal answer leaves the state exactly as it was.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from maester.dsl.diagnostics import Diagnostics, MaesterError

from .decision_kinds import DECISION_KINDS as CATALOGUE


@dataclass
class Decision:
    number: int  # the how-manieth decision of the game (0-based)
    house: str  # who decides
    kind: str  # e.g. "place-order", "house-card", "bid", "choose", "may", "march"
    prompt: str  # what is asked, in English
    options: list  # every legal answer
    rule: str = ""  # the rule id that asks
    info: dict = field(default_factory=dict)  # context for agents and traces (area, combat, ...)

    def to_json(self) -> dict:
        return {"number": self.number, "house": self.house, "kind": self.kind, "prompt": self.prompt,
                "options": self.options, "rule": self.rule, "info": self.info}

    def is_legal(self, answer) -> bool:
        """One of the options, equal in value *and* in JSON type: `3.0` is not `3`, `True` is not `1`."""
        return self.legal_option(answer) is not None

    def legal_option(self, answer) -> tuple | None:
        """`(option,)` for the option `answer` stands for, None if it is not legal (an option may be None)."""
        if type(answer) is str:  # most answers: a string equals only a string, no deeper test needed
            for option in self.options:
                if option == answer:
                    return (option,)
            return None
        for option in self.options:
            if option == answer and same_json_type(option, answer):
                return (option,)
        return None


def same_json_type(a, b) -> bool:
    """Whether two equal values are also the same JSON shape, all the way down (Python's `==` mixes
    bool, int and float; JSON arrays may arrive as lists or tuples)."""
    if isinstance(a, bool) or isinstance(b, bool):
        return isinstance(a, bool) and isinstance(b, bool)
    if isinstance(a, list | tuple):
        return isinstance(b, list | tuple) and len(a) == len(b) and all(map(same_json_type, a, b))
    if isinstance(a, dict):
        return isinstance(b, dict) and a.keys() == b.keys() and all(same_json_type(a[k], b[k]) for k in a)
    return type(a) is type(b)


class IllegalDecision(MaesterError):
    """An answer that is not one of the legal options; the game state is unchanged."""

    def __init__(self, decision: Decision | None, answer, why: str):
        diags = Diagnostics()
        if decision is None:
            diags.error("no-decision", f"no decision is pending: {why}", None)
        else:
            shown = ", ".join(repr(o) for o in decision.options[:12])
            more = f" and {len(decision.options) - 12} more" if len(decision.options) > 12 else ""
            diags.error("illegal-decision",
                        f"decision #{decision.number} ({decision.kind}, {decision.house}): {answer!r} is not "
                        f"allowed — {why}", None,
                        f"legal answers: {shown}{more}" + (f" (rule {decision.rule})" if decision.rule else ""))
        self.decision = decision
        self.answer = answer
        super().__init__(diags)

# the catalogue of decision kinds (what each asks and how an answer is written) is decision_kinds.py
DECISION_KINDS = CATALOGUE


def kinds_table() -> str:
    """The answers of every decision kind, as docs/scenarios.md shows them (kept equal by a test)."""
    rows = ["| kind | answer |", "|---|---|"]
    rows.extend(f"| `{kind}` | {k.written} |" for kind, k in DECISION_KINDS.items())
    return "\n".join(rows)
