"""The moments of the game's procedure that content can hook: the vocabulary of game-wide abilities.

A `game-ability` declaration holds `when MOMENT [if CONDITION] { ... }` abilities; a rules set lists the
game abilities in play (`game-abilities [...]`). Each moment is declared here once, with the rule id its
events cite, the names it binds inside the ability (name -> type of the effect language) and how the
procedure reaches it:

- `direct`: the procedure fires the moment itself at that point (the start of a phase, after an order);
- `event`: the moment follows an event of the log (`source_event`, optionally only with rule
  `source_rule`): a unit destroyed in the middle of a combat cannot stop the combat to ask a question, so the
  moment is queued in the state and its abilities resolve at the procedure's next *settling point* — after
  the order or Westeros card being resolved, before the next one, and at the start and end of every phase (an
  event emitted by a game ability of that same moment does not queue it again: no ability loops on itself);
- `settle`: the moment is found at each settling point by comparing the position with the last one (an area
  that changed hands).

The checker (`when` in a game ability), the engine (interpreter/procedures/moments.py), the bundle and
effect schemas and docs/dsl.md read this table; tests/test_moments.py checks that each moment is fired.
The step catalogue of the procedures may link its steps to these names: each is one clear point.
"""

from __future__ import annotations

from dataclasses import dataclass, field

DIRECT, EVENT, SETTLE = "direct", "event", "settle"

# the phases a phase moment names (the `phase` binding)
PHASE_NAMES = ("westeros", "planning", "action")


@dataclass(frozen=True)
class Moment:
    name: str
    rule: str  # the rule id the moment's events cite
    english: str  # "When ..." words for the generated card text
    doc: str
    bindings: dict[str, str] = field(default_factory=dict)  # names bound inside the ability -> type
    how: str = DIRECT
    source_event: str | None = None  # EVENT moments: the event type that queues the moment
    source_rule: str | None = None  # ... only when the event cites this rule
    chooser: str | None = None  # the binding that decides by default (`choose`, `may` without `by`)


MOMENTS: dict[str, Moment] = {
    m.name: m
    for m in (
        Moment("game-start", "R4", "Before the first round",
               "Once, after the setup, before the first phase of round 1: steps before the game (objectives "
               "dealt, a first muster, ...).", {}),
        Moment("round-start", "R6.2.1", "At the start of each round",
               "Before the first phase of a round (the Westeros Phase; the Planning Phase in round 1).",
               {"round": "int"}),
        Moment("round-end", "R6.2.1", "At the end of each round",
               "After the Action Phase's clean up and the victory check, before the next round (or the end of "
               "the game after the last round).", {"round": "int"}),
        Moment("phase-start", "R6", "At the start of each phase",
               "Before a phase's first step; `phase` is westeros, planning or action.",
               {"round": "int", "phase": "text"}),
        Moment("phase-end", "R6", "At the end of each phase",
               "After a phase's last step (the Action Phase: after its clean up).",
               {"round": "int", "phase": "text"}),
        Moment("orders-placed", "R13.4", "When every order is placed, before the reveal",
               "In the Planning Phase, after every house (and a rules module) has placed its orders face down, "
               "before they are revealed: the moment to look at orders in secret (`look-at-orders`).",
               {"round": "int"}),
        Moment("order-resolved", "R15.2", "After a house resolves an order",
               "After one order of the Action Phase is resolved (its combat included); `order-type` is raid, "
               "march or consolidate-power (the step), `area` where the order was.",
               {"house": "house", "area": "area", "order-type": "text"}, chooser="house"),
        Moment("unit-destroyed", "R2.4", "Whenever units are destroyed",
               "Once per `destroy` event (a unit, or several at once): `house` lost them in `area` (none when "
               "the event names no area), `count` units (1 unless the event says more). Queued: resolves at "
               "the next settling point.",
               {"house": "house", "area": "area", "count": "int"}, EVENT, "destroy", chooser="house"),
        Moment("units-routed", "R21.4", "Whenever a defeated army retreats",
               "Once per retreat of a combat's loser (its units are routed unless a card prevents it): `house` "
               "retreated to `area`. Queued: resolves at the next settling point.",
               {"house": "house", "area": "area"}, EVENT, "retreat", chooser="house"),
        Moment("hand-refreshed", "R21.5.4", "Whenever a house takes back its discarded house cards",
               "When a house's last house card is played and its discards return to its hand. Queued: "
               "resolves at the next settling point.", {"house": "house"}, EVENT, "cards", "R21.5.4",
               chooser="house"),
        Moment("westeros-card-revealed", "R6.2.2", "Whenever a Westeros card is revealed",
               "Once per Westeros card drawn (a card that is reshuffled away at once included), after every "
               "card of the round is drawn and the wildlings have advanced, before the first card is "
               "resolved.", {"card": "text", "deck": "text"}, EVENT, "westeros-card"),
        Moment("area-control-changed", "R23", "Whenever an area changes hands",
               "At each settling point, once per land area whose controller differs from the last settling "
               "point (a march in, a combat won, an area emptied or marked): `to` controls it now (none: "
               "nobody), `from` did before.", {"area": "area", "from": "house", "to": "house"}, SETTLE),
    )
}

# the moments that follow an event: event type -> the moments it queues
EVENT_MOMENTS: dict[str, tuple[Moment, ...]] = {}
for _m in MOMENTS.values():
    if _m.how == EVENT and _m.source_event:
        EVENT_MOMENTS.setdefault(_m.source_event, ())
        EVENT_MOMENTS[_m.source_event] += (_m,)
