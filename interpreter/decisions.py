"""Decisions: the engine never decides for a player; it asks, with the legal answers.

A `Decision` names who decides, what kind of choice it is, the rule behind it and the complete list
of legal answers (plain JSON values). `Game.answer` checks an answer against that list before
anything changes, so an illegal answer leaves the state exactly as it was.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from maester.dsl.diagnostics import Diagnostics, MaesterError


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
        return answer in self.options


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


# Every kind of decision the engine asks, and what its answers look like (docs/scenarios.md shows this table;
# `Game.ask` refuses an undeclared kind, so a scenario can refuse a `kind` or `defaults` key that does not exist).
DECISION_KINDS: dict[str, str] = {
    "place-order": "an order id, or `none` (offered only when the house has fewer legal tokens than areas, "
                   "R13.2.4)",
    "messenger-raven": "`pass`, `look-at-wildlings`, or `replace:AREA:ORDER`",
    "wildling-top": "`top` or `bottom`",
    "resolve-raid": "the area of the Raid order to resolve",
    "resolve-march": "the area of the March order to resolve",
    "resolve-consolidate-power": "the area of the order to resolve in the Consolidate Power step",
    "raid": "the target area, or `none`",
    "raid-or-support": "`raid` or `support` (a raid/support token, R34.4)",
    "march": "`KIND:AREA` (move one unit), or `done`",
    "leave-power": "`\"yes\"` / `\"no\"` (quote them: YAML reads a bare yes as true)",
    "support": "`attacker`, `defender` or `none`",
    "house-card": "a card id from the hand",
    "blade": "`\"yes\"` / `\"no\"`: use the Valyrian Steel Blade (+1)",
    "tides-redraw": "`\"yes\"` / `\"no\"`: use the blade to draw another Tides of Battle card",
    "casualty": "a unit kind among the unrouted units (routed units are never casualties, R21.2.4: they are "
                "destroyed when they must retreat again)",
    "retreat": "an area",
    "retreat-loss": "the kind of a retreating unit to destroy (supply, R21.3.6)",
    "consolidate": "`power` or `muster` (a special Consolidate Power in a castle area)",
    "replace-ships": "how many enemy ships in a newly taken port become yours (R24.7)",
    "muster": "`KIND:AREA`, `upgrade:FROM:TO:AREA`, or `done`",
    "reconcile": "`AREA:KIND`, a unit to destroy until the armies fit the supply limits (R8.4)",
    "influence-bid": "a number of power tokens",
    "wildling-bid": "a number of power tokens",
    "break-tie": "the house that goes first among the tied ones",
    "give-bid": "a house that gets one more of the giver's bid tokens (R36.4), or `keep` to give no more",
    "may": "`\"yes\"` / `\"no\"`: use an optional effect",
    "choose": "one of the values offered: a house, an area, a unit `AREA#INDEX`, a card, a track, ...",
    "choose-one": "the key of one of the options of a card",
    "destroy-unit": "`AREA:KIND`, a unit to destroy",
    "place-unit": "`KIND:AREA`, a unit to place",
    "arrange": "`top` or `bottom`, for each card looked at",
    "search-deck": "the id of a card of the deck, to put on top",
    "choose-vassal": "a vassal to command, or `pass` (R33.3)",
    "vassal-order": "`AREA:ORDER` for a vassal, or `done` (R34.1)",
    "buy-loan": "a loan id of the bank, or `none` (R40.4)",
    "interest-loss": "`AREA:KIND`, a unit lost for unpaid interest (R40.6.2)",
}


def kinds_table() -> str:
    """The answers of every decision kind, as docs/scenarios.md shows them (kept equal by a test)."""
    rows = ["| kind | answer |", "|---|---|"]
    rows.extend(f"| `{kind}` | {answer} |" for kind, answer in DECISION_KINDS.items())
    return "\n".join(rows)
