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
            options = self.options
            try:
                return (options[options.index(answer)],)  # the first option equal to it (searched in C)
            except ValueError:
                return None
        for option in self.options:
            # the JSON shape first: an answer whose `==` is no truth value (a numpy array) never reaches it
            if same_json_type(option, answer) and option == answer:
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


MAX_QUOTED_CHARS = 80  # an error quotes at most this much of a bad answer or argument


def short_repr(value) -> str:
    """`repr(value)`, cut to a short prefix: an error never echoes a megabyte answer whole."""
    try:
        text = repr(value)
    except Exception:  # noqa: BLE001 - a value whose repr fails or recurses too deeply is still named
        text = f"<a {type(value).__name__}>"
    return text if len(text) <= MAX_QUOTED_CHARS else f"{text[:MAX_QUOTED_CHARS]}... ({len(text):,} characters)"


def loosely_equal(a, b) -> bool:
    """`a == b` by Python's rules, False for values whose `==` is no truth value (a numpy array)."""
    try:
        return bool(a == b)
    except Exception:  # noqa: BLE001
        return False


# the decisions that ask secret bids one house at a time: no power changes hands meanwhile
BIDS_ASKED = ("influence-bid", "wildling-bid")
_TYPE_WORDS = {int: "an integer", str: "an id (text)"}


def between_decisions_problems(game, args: dict[str, tuple[object, type]]) -> list[str]:
    """Why a call between decisions (a gift, leaving) cannot be taken at all: the game is over, or an argument
    is not exactly of its type (1.5, True, a numpy integer or a str subclass would reach the saved position,
    where JSON cannot keep them). Empty: the rules may judge the call."""
    if game.over:
        return ["the game is over"]
    for name, (value, kind) in args.items():
        if type(value) is not kind:
            return [f"{name} must be {_TYPE_WORDS.get(kind, kind.__name__)}, not {short_repr(value)} "
                    f"({type(value).__name__})"]
    return []


class IllegalDecision(MaesterError):
    """An answer that is not one of the legal options; the game state is unchanged."""

    def __init__(self, decision: Decision | None, answer, why: str, action: str | None = None):
        diags = Diagnostics()
        if action is not None:  # a between-decision action (a gift, leaving, R42.4-R42.5), refused whole
            diags.error("illegal-action", f"{action} refused: {why}", None)
        elif decision is None:
            diags.error("no-decision", f"no decision is pending: {why}", None)
        else:
            shown = ", ".join(repr(o) for o in decision.options[:12])
            more = f" and {len(decision.options) - 12} more" if len(decision.options) > 12 else ""
            diags.error("illegal-decision",
                        f"decision #{decision.number} ({decision.kind}, {decision.house}): {short_repr(answer)} is "
                        f"not allowed — {why}", None,
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
