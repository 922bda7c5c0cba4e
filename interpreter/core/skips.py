"""The questions the engine does not ask, declared: every place it answers for a player (R15.2: a house chooses
whenever its choice can matter). Each kind says why no answer could change anything that follows, other houses'
actions in between included; docs/effects.md ("Questions not asked") lists them with their reasons.

With the debug switch `Options.ask_skipped` the engine asks each of these questions anyway, its decision
carrying `info["skip"]` (the kind below): tests/test_skips.py branches every answer there and checks that all
lead to the same events, decisions and positions. A single legal answer is never asked (nothing to choose).
"""

from __future__ import annotations

# kind -> why skipping it changes nothing
SKIPS: dict[str, str] = {
    "consolidate-order": "a house's Consolidate Power step orders whose order cannot matter (plain ones, at most "
                         "one special that asks power or muster, Iron Bank orders that cannot buy anything) and "
                         "whose yields no other house's turn in between can change (only a port's yield depends on "
                         "the board, R18.2.2, and only another house's order that may put a Ship into its sea can "
                         "change it): they resolve in area order (R15.2, R18)",
    "does-nothing": "an optional effect (`may`) or a choice (`choose`) whose every answer does nothing (a card "
                    "from an empty pile, a move of a token that is not there, a track move that leaves the "
                    "track as it is)",
    "void-purchase": "an optional effect with a cost whose effect cannot happen (undoing a move whose token is "
                     "gone) is not offered: its cost would buy nothing (R0.6). The one skip an answer could change "
                     "(the power paid), kept as a ruling: the rules offer the effect, not a payment for nothing",
    "identical-units": "identical units of one area (same kind, both routed or both not) are one answer",
    "fixed-place": "a tie never asks where to put a house whose place is fixed (Targaryen, always last, R36.2)",
}


def skip_kind(kind: str) -> str:
    """The declared kind (an unknown one is a programming error)."""
    if kind not in SKIPS:
        raise AssertionError(f"skip kind {kind!r} is not declared in interpreter/core/skips.py")
    return kind
