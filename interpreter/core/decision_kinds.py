"""The declared catalogue of decision kinds: every question the rules may ask, with the shape of its answers.

A decision (decisions.py) names its kind; `Game.ask` refuses a kind that is not declared here, so this
table is the complete list another engine must implement. Each kind says who decides, the rule that asks
and what one legal answer looks like (`answers`: a JSON Schema of one element of `options`). The
schema of decisions (schemas/decision.schema.json) is generated from this table (`maester schema --write`).

Answer forms, written with their parts: `AREA`, `HOUSE`, `CARD`, `KIND` (unit kind), `ORDER` (order token)
and `LOAN` are ids of the bundle; `KIND:AREA` is one string joining two ids with a colon.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path

from .schema_files import schema_text, write_schema

ID = r"[a-z0-9][a-z0-9-]*"


def _words(*words: str) -> dict:
    return {"enum": list(words)}


def _id_or(*words: str) -> dict:
    return {"anyOf": [{"enum": list(words)}, {"type": "string", "pattern": f"^{ID}$"}]} if words else \
        {"type": "string", "pattern": f"^{ID}$"}


def _joined(*forms: str, words: tuple[str, ...] = ()) -> dict:
    """Strings of ids joined by colons, e.g. _joined("KIND:AREA") (each upper-case part is one id)."""
    patterns = []
    for form in forms:
        parts = [ID if p.isupper() else p for p in form.split(":")]
        patterns.append({"type": "string", "pattern": "^" + ":".join(parts) + "$"})
    if words:
        patterns.insert(0, {"enum": list(words)})
    return {"anyOf": patterns} if len(patterns) > 1 else patterns[0]


YES_NO = _words("yes", "no")
COUNT = {"type": "integer", "minimum": 0}


@dataclass(frozen=True)
class DecisionKind:
    kind: str
    decider: str  # who is asked, in English
    rule: str  # the rule that asks (cards asking through an effect cite their own rule)
    answers: dict  # JSON Schema of one legal answer
    meaning: str  # what an answer does
    written: str = ""  # how an answer is written in a scenario file (docs/scenarios.md)

    def to_json(self) -> dict:
        return {"decider": self.decider, "rule": self.rule, "answers": self.answers, "meaning": self.meaning}


_KINDS = [
    # Westeros Phase
    DecisionKind("influence-bid", "every house in the bidding (a vassal's commander for it)", "R10.2", COUNT,
                 "power tokens bid for an influence track, 0 to the power the house holds"),
    DecisionKind("wildling-bid", "every player house", "R11.3", COUNT,
                 "power tokens bid against the wildlings, 0 to the power the house holds"),
    DecisionKind("break-tie", "the Iron Throne holder", "R10.4", _id_or(),
                 "HOUSE: which of the tied houses takes the better place (or is the highest/lowest bidder, R11.6.4)"),
    DecisionKind("give-bid", "a house that gives its bids away (a content flag, e.g. Targaryen)", "R36.4.2",
                 _id_or("keep"), "HOUSE receives one of the bid tokens, or `keep`"),
    DecisionKind("reconcile", "a house over its supply limit", "R8.4", _joined("AREA:KIND"),
                 "destroy the unit of kind KIND in AREA"),
    DecisionKind("muster", "a house mustering", "R11.7", _joined("KIND:AREA", "upgrade:KIND:KIND:AREA",
                                                                      words=("done",)),
                 "muster a unit KIND in AREA (a ship in a port or sea next to the castle), upgrade a unit from the "
                 "first KIND to the second in AREA, or `done`"),
    # Planning Phase
    DecisionKind("choose-vassal", "each player house in turn order (Mother of Dragons)", "R33.3", _id_or("pass"),
                 "command the vassal HOUSE this round, or `pass`"),
    DecisionKind("place-order", "each house, for each area with its units", "R13.2.1", _id_or("none"),
                 "the ORDER token placed face down in the area; `none` when the house has too few legal tokens"),
    DecisionKind("vassal-order", "a vassal's commander", "R34.1", _joined("AREA:ORDER", words=("done",)),
                 "place the vassal's ORDER token in AREA, or `done`"),
    DecisionKind("messenger-raven", "the Messenger Raven holder", "R13.5",
                 _joined("replace:AREA:ORDER", words=("pass", "look-at-wildlings")),
                 "swap the order in AREA for ORDER, look at the top wildling card, or `pass`"),
    DecisionKind("wildling-top", "the Messenger Raven holder who looked", "R13.5.2", _words("top", "bottom"),
                 "leave the wildling card on top of the deck or put it at the bottom"),
    # Action Phase
    DecisionKind("resolve-raid", "the house whose turn it is", "R15.2", _id_or(), "AREA: the raid order to resolve"),
    DecisionKind("resolve-march", "the house whose turn it is", "R15.2", _id_or(), "AREA: the march order to resolve"),
    DecisionKind("resolve-consolidate-power", "the house whose turn it is", "R15.2", _id_or(),
                 "AREA: the consolidate power (or other step) order to resolve"),
    DecisionKind("raid", "the raiding house", "R15.3", _id_or("none"),
                 "AREA: the adjacent order the raid removes, or `none`"),
    DecisionKind("raid-or-support", "a vassal's commander (Mother of Dragons)", "R34.4", _words("raid", "support"),
                 "use the dual token as a raid now, or keep it as a support"),
    DecisionKind("march", "the marching house", "R16.1", _joined("KIND:AREA", words=("done",)),
                 "move one unit of KIND from the march area to AREA, or `done`"),
    DecisionKind("leave-power", "the house that marched out of every unit of an area", "R16.8", YES_NO,
                 "leave a power token to keep control of the emptied area"),
    DecisionKind("support", "each house with a support order next to the combat", "R19.3.3",
                 _words("attacker", "defender", "none"),
                 "the side its adjacent support orders help, or nobody"),
    DecisionKind("house-card", "each combatant", "R20.1.1", _id_or(), "CARD: the house card played, face down"),
    DecisionKind("blade", "the Valyrian Steel Blade holder in a combat", "R20.4", YES_NO,
                 "use the blade for +1 combat strength"),
    DecisionKind("tides-redraw", "the blade holder (Tides of Battle)", "R29.3.3", YES_NO,
                 "use the blade to draw a new Tides of Battle card"),
    DecisionKind("casualty", "the loser of a combat", "R21.2.1", _id_or(),
                 "KIND: the unrouted unit destroyed as a casualty"),
    DecisionKind("retreat", "the loser of a combat (the winner chooses with some cards)", "R21.3.3", _id_or(),
                 "AREA: where the defeated army retreats"),
    DecisionKind("retreat-loss", "the loser of a combat", "R21.3.6", _id_or(),
                 "KIND: a retreating unit destroyed to fit the supply limit"),
    DecisionKind("replace-ships", "the house that took a port's land area", "R24.7", COUNT,
                 "how many of the enemy ships in the port are replaced by its own"),
    DecisionKind("consolidate", "the house resolving a special consolidate power", "R18.3",
                 _words("power", "muster"), "gain the power or muster in the area"),
    # Mother of Dragons: the Iron Bank
    DecisionKind("buy-loan", "the house resolving an Iron Bank order", "R40.4", _id_or("none"),
                 "LOAN: the loan bought from its slot, or `none`"),
    DecisionKind("interest-loss", "the house the unpaid interest hurts chooses (R40.6.2)", "R40.6.2",
                 _joined("AREA:KIND"), "destroy the unit of KIND in AREA"),
    # asked by card effects (they cite their card's rule)
    DecisionKind("may", "the house a card's `may` names", "R20.2", YES_NO, "use the optional effect"),
    DecisionKind("choose", "the house a card's `choose` names", "R20.2",
                 # `@attack` stands for the attacking army on the march during a combat (combat.ATTACK)
                 {"anyOf": [{"type": "string", "pattern": f"^{ID}$"},
                            {"type": "string", "pattern": f"^({ID}|@attack)#[0-9]+$"}, COUNT]},
                 "one element of the effect's set: a card, area, house or number, or a unit as AREA#INDEX (its "
                 "place in the area's unit list; `@attack#INDEX` for a unit of the attacking army on the march)"),
    DecisionKind("choose-one", "the house a card's `option` list names", "R20.2",
                 {"type": "string", "pattern": f"^{ID}$"}, "the label of the option taken (a, b, c... or the "
                 "option's own word, e.g. up/down)"),
    DecisionKind("destroy-unit", "the house a card's effect names", "R20.2", _joined("AREA:KIND"),
                 "destroy the unit of KIND in AREA"),
    DecisionKind("place-unit", "the house a card's effect names", "R20.2", _joined("KIND:AREA"),
                 "place a unit of KIND in AREA"),
    DecisionKind("arrange", "the house a card's effect names", "R41", _words("top", "bottom"),
                 "put the card on the top or the bottom of its deck"),
    DecisionKind("search-deck", "the house a card's effect names", "R20.2", _id_or(),
                 "CARD: the card of the deck put on top"),
    DecisionKind("draft-house-card", "each house in the draft's order", "R4", _id_or(),
                 "CARD: a house card of the pool, drafted into its hand"),
    DecisionKind("influence-position", "each house in the draft's order", "R4", {"type": "string",
                 "pattern": "^[1-9][0-9]*$"}, "POSITION: a free position (1 first) it takes on the track asked"),
    DecisionKind("objective-return", "each house dealt objectives", "R26", _id_or(),
                 "OBJECTIVE: an objective of its hand it gives back to the deck"),
    DecisionKind("score-objective", "the house that may score", "R26", _id_or("none"),
                 "OBJECTIVE: the objective it scores (revealed); none: it scores nothing now"),
    DecisionKind("objective-give", "each house holding objectives", "R26", _id_or(),
                 "OBJECTIVE: an objective of its hand it puts into the shared pool (secret)"),
    DecisionKind("objective-take", "each house that gave one, in turn order", "R26", _id_or(),
                 "OBJECTIVE: an objective of the shown pool it takes into its hand"),
]

_WRITTEN = {  # how an answer is written in a scenario file
    'place-order': 'an order id, or `none` (offered only when the house has fewer legal tokens than areas, R13.2.4)',
    'messenger-raven': '`pass`, `look-at-wildlings`, or `replace:AREA:ORDER`',
    'wildling-top': '`top` or `bottom`',
    'resolve-raid': 'the area of the Raid order to resolve',
    'resolve-march': 'the area of the March order to resolve',
    'resolve-consolidate-power': 'the area of the order to resolve in the Consolidate Power step',
    'raid': 'the target area, or `none`',
    'raid-or-support': '`raid` or `support` (a raid/support token, R34.4)',
    'march': '`KIND:AREA` (move one unit), or `done`',
    'leave-power': '`"yes"` / `"no"` (quote them: YAML reads a bare yes as true)',
    'support': '`attacker`, `defender` or `none`',
    'house-card': 'a card id from the hand',
    'blade': '`"yes"` / `"no"`: use the Valyrian Steel Blade (+1)',
    'tides-redraw': '`"yes"` / `"no"`: use the blade to draw another Tides of Battle card',
    'casualty': 'a unit kind among the unrouted units (routed units are never casualties, R21.2.4: '
        'they are destroyed when they must retreat again)',
    'retreat': 'an area',
    'retreat-loss': 'the kind of a retreating unit to destroy (supply, R21.3.6)',
    'consolidate': '`power` or `muster` (a special Consolidate Power in a castle area)',
    'replace-ships': 'how many enemy ships in a newly taken port become yours (R24.7)',
    'muster': '`KIND:AREA`, `upgrade:FROM:TO:AREA`, or `done`',
    'reconcile': '`AREA:KIND`, a unit to destroy until the armies fit the supply limits (R8.4)',
    'influence-bid': 'a number of power tokens',
    'wildling-bid': 'a number of power tokens',
    'break-tie': 'the house that goes first among the tied ones',
    'give-bid': "a house that gets one more of the giver's bid tokens (R36.4), or `keep` to give no more",
    'may': '`"yes"` / `"no"`: use an optional effect',
    'choose': 'one of the values offered: a house, an area, a unit `AREA#INDEX`, a card, a track, ...',
    'choose-one': 'the key of one of the options of a card',
    'destroy-unit': '`AREA:KIND`, a unit to destroy',
    'place-unit': '`KIND:AREA`, a unit to place',
    'arrange': '`top` or `bottom`, for each card looked at',
    'search-deck': 'the id of a card of the deck, to put on top',
    'draft-house-card': 'the id of a house card left in the pool',
    'influence-position': 'a free position on the track, as a string: `"1"` is the first',
    'objective-return': 'the id of an objective of the hand, to give back',
    'score-objective': 'the id of the objective to score, or `none`',
    'objective-give': 'the id of an objective of the hand, to put into the pool',
    'objective-take': 'the id of an objective of the pool, to take',
    'choose-vassal': 'a vassal to command, or `pass` (R33.3)',
    'vassal-order': '`AREA:ORDER` for a vassal, or `done` (R34.1)',
    'buy-loan': 'a loan id of the bank, or `none` (R40.4)',
    'interest-loss': '`AREA:KIND`, a unit lost for unpaid interest (R40.6.2)',
}
_KINDS = [replace(k, written=_WRITTEN[k.kind]) for k in _KINDS]
DECISION_KINDS: dict[str, DecisionKind] = {k.kind: k for k in _KINDS}


def is_declared(kind: str) -> bool:
    return kind in DECISION_KINDS


# the kinds asked even with a single legal answer: whether an order token is forced depends on the house's secret
# placements, so taking it unasked would show the others what it placed (R13.2); every other kind is asked only
# when two or more answers are legal
ASKED_WITH_ONE_ANSWER = frozenset({"place-order"})


def decision_schema() -> dict:
    """The JSON Schema of a decision (`Decision.to_json`), one branch per declared kind."""
    branches = []
    for k in _KINDS:
        least = 1 if k.kind in ASKED_WITH_ONE_ANSWER else 2
        branches.append({"if": {"properties": {"kind": {"const": k.kind}}},
                         "then": {"properties": {"options": {"type": "array", "items": k.answers,
                                                             "minItems": least}}},
                         })
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": "https://maester.example/schemas/decision/1/decision.schema.json",
        "title": "maester decision",
        "description": "One question the rules ask: who decides, which kind of decision (the catalogue in "
                       "interpreter/core/decision_kinds.py, listed under $defs/kinds), the rule asking, and every "
                       "legal answer. The game refuses any answer not in `options` (compared by type and value).",
        "type": "object",
        "additionalProperties": False,
        "required": ["number", "house", "kind", "prompt", "options", "rule", "info"],
        "properties": {
            "number": {"type": "integer", "minimum": 0, "description": "The how-manieth decision of the game."},
            "house": {"type": "string", "description": "The house that decides (a vassal's commander for it)."},
            "kind": {"enum": [k.kind for k in _KINDS], "description": "The decision kind."},
            "prompt": {"type": "string", "description": "The question in English (not part of conformance)."},
            "options": {"type": "array", "minItems": 1, "description": "Every legal answer. A question with one "
                        "possible answer is never asked (the rules take it at once), except an order placement "
                        "(`place-order`): asking it keeps the house's secret placements from showing."},
            "rule": {"type": "string", "description": "The rule id asking."},
            "info": {"type": "object", "description": "Context for agents and traces (area, card, for: the vassal "
                     "decided for, ...)."},
        },
        "allOf": branches,
        "$defs": {"kinds": {k.kind: {"description": f"{k.meaning} (asked of {k.decider}; {k.rule})"}
                            for k in _KINDS}},
    }


def decision_schema_text() -> str:
    return schema_text(decision_schema())


def write_decision_schema(path: Path | None = None) -> Path:
    """Rewrite schemas/decision.schema.json (or `path`)."""
    return write_schema("decision.schema.json", decision_schema_text(), path)
