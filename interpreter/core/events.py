"""The catalogue of event types: every event the engine emits, its fields (typed) and the rule ids it cites.

One table, declared here, so that a scenario can refuse to check an event type or a field that does not
exist (an `absent` entry naming one would pass vacuously), `Game.emit` refuses an undeclared type, and
schemas/event.schema.json is generated from it (`write_event_schema()`, also run by `maester schema --write`).
Every event also has the `COMMON_FIELDS`. Events of card abilities cite the rule of their timing window
(`R20.2.4` for "if you win", `R6.2.4` for a Westeros card, ...), so their `rules` list those windows.

Each field has a JSON Schema and a meaning. Ids of the bundle (houses, areas, cards, unit kinds, decks,
tracks, order tokens, loans) are open strings of the id form: a variant may add any of them. An enum is
used only where the engine's own vocabulary is fixed (a combat side, the highest or lowest bidder).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

from maester.dsl.moments import MOMENTS

from .schema_files import schema_text, write_schema

EVENT_FORMAT_VERSION = 1  # the event schema's version: a field removed or retyped is a new version
_BASE = "https://maester.example/schemas"
SCHEMA_ID = f"{_BASE}/event/{EVENT_FORMAT_VERSION}/event.schema.json"

ID_PATTERN = "^[a-z][a-z0-9]*(-[a-z0-9]+)*$"  # the bundle's id form (bundle.schema.json, $defs/id)
ID = {"type": "string", "pattern": ID_PATTERN}
COUNT = {"type": "integer", "minimum": 0}


def _ids() -> dict:
    return {"type": "array", "items": ID}


def _by_house(value: dict) -> dict:
    return {"type": "object", "propertyNames": ID, "additionalProperties": value}


def _or_null(schema: dict) -> dict:
    return {"anyOf": [schema, {"type": "null"}]}


@dataclass(frozen=True)
class Field:
    schema: dict  # JSON Schema of its value
    meaning: str  # English, for the schema and the docs


# fields of every event; `card` and `source` are set on the events a card ability produces, and `subject` names
# another card the event is about (the card a cancel sends back, the one revealed instead)
COMMON_FIELDS = ("n", "round", "phase", "type", "rule", "text", "card", "source", "subject")
REQUIRED_COMMON = COMMON_FIELDS[:6]
COMMON: dict[str, Field] = {
    "n": Field(COUNT, "The event's number in the game, from 0: events are numbered in the order they happen."),
    "round": Field({"type": "integer", "minimum": 1}, "The round it happened in."),
    "phase": Field({"type": "string"}, "The phase it happened in (the state's `phase`)."),
    "type": Field({"type": "string"}, "The event type: one of the catalogue (docs/scenarios.md, event types)."),
    "rule": Field({"type": "string", "pattern": r"^R[0-9]+(\.[0-9]+)*$"},
                  "The rule id it cites (the rules reference); a card ability's event cites its timing window."),
    "text": Field({"type": "string"}, "What happened, in English (informative: not part of conformance)."),
    "card": Field(ID, "The card whose ability produced the event (with `source`), or the card the event is about."),
    "source": Field({"type": "string"}, "Where the card ability's statement is written (FILE:LINE:COLUMN of the "
                                        "content source); set with `card` on the events of a card ability."),
    "subject": Field(ID, "Another card the event is about when `card` names the card whose ability produced it "
                         "(the card a cancel sends back, the card revealed instead)."),
}
# the rules of the timing windows of card abilities (combat windows R20.2-R21.3, Westeros cards R6.2.4, wildling
# cards R11.6, improvements R41) and of the moments game abilities hook (dsl/moments.py: a game ability's events
# cite its moment's rule, e.g. R4 for the steps before the game): any event a card ability produces may cite them
CARD_WINDOW_RULES = tuple(dict.fromkeys(
    ("R20.2", "R20.2.1", "R20.2.2", "R20.2.3", "R20.2.4", "R20.2.5", "R21.2", "R21.3", "R6.2.4", "R11.6", "R41",
     *(m.rule for m in MOMENTS.values()))))

# The fields events share, by name; an event type may give one of them its own meaning or schema (`_e`).
FIELDS: dict[str, Field] = {
    "amount": Field({"type": "integer"}, "Power tokens gained (positive) or discarded (negative)."),
    "area": Field(ID, "The area (an area id of the board)."),
    "attacker": Field(ID, "The attacking house."),
    "bank": Field({"type": "array", "items": _or_null(ID)},
                  "The loans on offer, slot by slot (loan ids; null: an empty slot)."),
    "bids": Field(_by_house(COUNT), "Each bidding house's bid (power tokens), by house id."),
    "cards": Field(_by_house(ID), "The house card each side of the combat plays, by house id."),
    "count": Field({"type": "integer", "minimum": 1}, "How many units."),
    "decided_by": Field({"type": "string"}, "The tiebreaker that decided the winner, in the words of the rules "
                                            "set's tiebreakers (`castles and strongholds` when there was no tie)."),
    "deck": Field(ID, "The deck (a deck id of the bundle, e.g. `i` for Westeros deck I)."),
    "defender": Field(ID, "The defending house."),
    "final": Field(_by_house({"type": "integer"}), "The final combat strength of each side, by house id."),
    "house": Field(ID, "The house (a house id)."),
    "houses": Field(_ids(), "The houses played by players, in the setup's order."),
    "kind": Field(ID, "The unit kind (a unit kind id of the bundle)."),
    "loan": Field(ID, "The loan (a loan id of the bundle)."),
    "order": Field(ID, "The order token (an order id of the bundle)."),
    "orders": Field(_ids(), "Order token ids."),
    "pick": Field(ID, "The house card drafted (a house card id of the bundle)."),
    "points": Field(COUNT, "The house's victory points after the change."),
    "pool": Field(_ids(), "The house card ids of a draft's pool."),
    "position": Field({"type": "integer", "minimum": 1}, "A place on an influence track (1 first)."),
    "objective": Field(ID, "An objective card (an objective id of the bundle)."),
    "ranking": Field(_ids(), "Every house from first to last after the last round (R26.3)."),
    "seats": Field(_ids(), "The house of each seat, seat 1 first."),
    "secret": Field({"type": "object"}, "What only the deciding house saw: hidden from the other players."),
    "side": Field({"enum": ["attacker", "defender"]}, "The side of the combat it supports."),
    "strength": Field(COUNT, "The wildling attack's strength."),
    "strengths": Field(_by_house({"type": "integer"}), "The initial combat strength of each side, by house id."),
    "supply": Field(COUNT, "The house's new supply level."),
    "target": Field(ID, "Another house the event is about (the house whose cards or orders are looked at)."),
    "threat": Field(COUNT, "The wildling threat's new position on the Wildlings track."),
    "tides": Field(_by_house(ID), "The Tides of Battle card each side of the combat draws, by house id."),
    "token": Field(ID, "The dominance token (a track's token id)."),
    "track": Field(ID, "The influence track (a track id of the bundle)."),
    "vassal": Field(ID, "The vassal house."),
    "vassals": Field(_ids(), "The vassal houses (Mother of Dragons)."),
    "which": Field({"enum": ["highest", "lowest"]}, "Whether it is the highest or the lowest bidder."),
    "winner": Field(ID, "The house that wins the combat."),
}


def _secret(meaning: str, key: str, schema: dict, key_meaning: str) -> Field:
    """A `secret` field: an object with one key, what only its house saw."""
    return Field({"type": "object", "additionalProperties": False, "required": [key],
                  "properties": {key: {**schema, "description": key_meaning}}}, meaning)


@dataclass(frozen=True)
class EventType:
    fields: tuple[str, ...]  # the fields of its own, besides COMMON_FIELDS
    rules: tuple[str, ...]  # the rule ids its events cite
    what: str  # one line, for the docs
    optional: frozenset[str] = frozenset()  # own fields some of its events leave out
    own: tuple[tuple[str, Field], ...] = ()  # fields whose meaning or schema differs from FIELDS here

    def field(self, name: str) -> Field:
        """A field of this type (its own meaning first, then the shared one, then the common one)."""
        return dict(self.own).get(name) or FIELDS.get(name) or COMMON[name]

    @property
    def required(self) -> tuple[str, ...]:
        return tuple(f for f in self.fields if f not in self.optional)


def _e(fields: str, rules: str, what: str, **own: str | Field) -> EventType:
    """An event type: `fields` names its own fields, `name?` one that some of its events leave out; a keyword
    gives a field this type's meaning (a string) or its own schema and meaning (a Field)."""
    names = [n.rstrip("?") for n in fields.split()]
    unknown = set(own) - set(names) - set(COMMON)
    if unknown:  # a typo in the table: fail at import, not in a schema nobody reads
        raise ValueError(f"event fields {sorted(unknown)} are not among {fields!r}")
    specs = tuple((n, s if isinstance(s, Field) else Field((FIELDS.get(n) or COMMON[n]).schema, s))
                  for n, s in own.items())
    optional = frozenset(n.rstrip("?") for n in fields.split() if n.endswith("?"))
    return EventType(tuple(names), tuple(rules.split()), what, optional, specs)


EVENTS: dict[str, EventType] = {
    "advance": _e("area house", "R21.5.1",
              "the winning attacker's units occupy the embattled area",
              area="The embattled area the attacker takes.", house="The winning attacker."),
    "arrange": _e("house secret", "R41",
              "a house arranges cards it looked at (secret: what it saw)",
              house="The house arranging the deck.",
              secret=_secret("What the house saw and kept on top.", "top", _ids(),
                             "The card ids it keeps on top of the deck, in order.")),
    "bidder": _e("house which", "R11.6.4",
              "the highest or lowest bidder of a wildling attack, after a tie is broken",
              house="The bidder."),
    "bids": _e("bids", "R10.2 R11.3 R36.4.3",
              "the bids of an auction or a wildling attack, revealed together"),
    "blade": _e("house", "R20.4 R29.3.3",
              "the Valyrian Steel Blade is used",
              house="The holder of the Valyrian Steel Blade."),
    "cancel": _e("card house", "R20.2.1 R20.2.2",
              "a played house card is cancelled and goes back to its hand",
              house="The house whose card is cancelled.",
              card="The card whose ability cancels (then `subject` is the cancelled card), or the cancelled card."),
    "cards": _e("card? house?", "R11.6 R20.2 R20.2.1 R20.2.2 R20.2.4 R20.2.5 R21.5.3 R21.5.4 R43",
              "a house card moves: discarded, kept, taken back or removed from the game",
              house="The house whose hand or discard pile changes (absent: a card not in any hand).",
              card="The house card that moves (absent: the house takes back its discards); on a card ability's "
                   "event, the card whose ability moves it (then `subject` is the card that moves)."),
    "choice": _e("card house", "R11.6 R20.2.4 R41 R6.2.4",
              "a card's option or choice is taken",
              card="The card whose option is chosen.", house="The house that chooses."),
    "clean-up": _e("", "R18.5",
              "the Action Phase clean up: orders removed, routed units stand up"),
    "combat": _e("area attacker defender", "R19",
              "a combat begins: attacker, defender and embattled area",
              area="The embattled area."),
    "combat-result": _e("final winner", "R20.6",
              "final combat strengths and the victor"),
    "commander": _e("house vassal?", "R33.3 R33.4",
              "a player takes command of a vassal",
              house="The player house choosing (or passing on) a vassal.",
              vassal="The vassal it commands this round (absent: it passes, or takes every vassal left)."),
    "consolidate": _e("area house", "R18.2.1 R18.2.2 R18.3",
              "a Consolidate Power order is resolved (or yields nothing)",
              area="The area of the order.", house="The house resolving it."),
    "degrade": _e("area", "R41",
              "an area loses a printed icon or castle",
              area="The area that loses an icon or its castle."),
    "destroy": _e("area? count? house kind?", "R11.6 R20.2.2 R20.2.4 R21.2 R21.2.1 R21.3.2 R21.3.4 R21.3.5 "
                                              "R21.3.6 R24.7 R24.8 R29.3.5 R40.6.2 R41 R6.2.4 R8.4",
              "units are destroyed",
              area="Where the units were (absent: a retreating army, off the board).",
              count="How many units of `kind` (the ships of a port); absent: one unit, or a whole army without "
                    "`kind`.",
              house="The house whose units are destroyed.",
              kind="The kind of the unit destroyed (absent: a whole army that cannot retreat)."),
    "dominance": _e("house token", "R20.2",
              "a dominance token changes hands outside the bidding",
              house="The house taking the token."),
    "dragons": _e("", "R38.3.2 R6.2.4",
              "the dragon strength changes"),
    "forbid": _e("orders", "R6.2.4",
              "order types are forbidden for the round",
              orders="The order token ids that may not be placed this Planning Phase."),
    "garrison": _e("area house? points?", "R21.1 R37.8.2",
              "a garrison is removed from the game or comes back",
              area="The area of the garrison.",
              house="The loyalty house whose garrison comes back (absent: the garrison is removed, R21.1).",
              points="The house's victory points after it retakes its home (with `house`)."),
    "give-bid": _e("house", "R36.4.3",
              "a house that gives away its bid adds one to another house's bid",
              house="The house whose bid grows by one."),
    "no-wildlings": _e("", "R11",
              "a wildling attack does not happen: the rules set plays without wildlings"),
    "ignore-text": _e("card", "R20.2.1",
              "a played house card's text is ignored",
              card="The card whose ability blanks (then `subject` is the blanked card), or the blanked card."),
    "improve": _e("area", "R41",
              "an area gains an improvement",
              area="The area improved."),
    "initial-strength": _e("strengths", "R19.4",
              "initial combat strengths, before house cards"),
    "iron-bank": _e("bank", "R40.3",
              "the Iron Bank's loans on offer"),
    "keep-march": _e("area", "R21.5.2",
              "the March order moves with the army into the area it took",
              area="The area the army took, where its March order now is."),
    "keep-support": _e("area", "R34.4",
              "a raid/support token stays as a support order",
              area="The area of the token."),
    "leave": _e("house", "R42.5",
              "a player will leave the game at the end of the round",
              house="The house whose player leaves."),
    "loan": _e("house loan", "R40.4",
              "a house takes a loan",
              house="The house taking the loan.", loan="The loan taken."),
    "loan-discount": _e("house", "R40.7.2 R40.7.3",
              "the loan discount token changes hands",
              house=Field(_or_null(ID), "The house taking the loan discount token (null: it is set aside).")),
    "loyalty": _e("area", "R37.4.2 R6.2.4",
              "loyalty tokens are placed or removed",
              area="The area whose loyalty tokens change."),
    "loyalty-gained": _e("area house points", "R37.6.1",
              "a loyalty house gains the loyalty tokens of an area it controls",
              area="The area whose tokens it gains.", house="The loyalty house."),
    "loyalty-home-lost": _e("area house points", "R37.8.1",
              "a loyalty house loses its home area and a victory point",
              area="Its home area.", house="The loyalty house."),
    "loyalty-skipped": _e("area", "R37.5",
              "loyalty tokens not gained (the area is not controlled)",
              area="The area whose placement is skipped."),
    "march": _e("area house", "R16.1 R16.2",
              "a March order is resolved: the moves, or none",
              area="The area the army marches from.", house="The house marching."),
    "muster": _e("area house kind", "R9.3.1 R9.3.2 R9",
              "a unit is mustered or upgraded",
              area="Where the unit is mustered.", house="The house mustering.",
              kind="The kind of the new unit."),
    "muster-order": _e("area", "R34.5",
              "a muster order is resolved",
              area="The area of the vassal's muster order."),
    "neutral-force": _e("area house", "R25.3",
              "an attack on a neutral force succeeds or fails",
              area="The area of the neutral force.", house="The attacking house."),
    "no-advance": _e("house", "R21.5.1",
              "the winning attacker stays where it marched from",
              house="The winning attacker."),
    "no-order": _e("area house", "R13.2.4",
              "an area gets no order (too few legal tokens)",
              area="The area left without an order.", house="The house of its units."),
    "order-placed": _e("area house order", "R20.2.5",
              "a card places an order",
              area="Where the order is placed.", house="The house whose order it is."),
    "order-removed": _e("area house? order?", "R20.2 R20.2.2 R20.2.4 R21.5.1 R21.5.2 R21.5.5 R42.1.2 R14.7",
              "an order is removed from the board",
              area="The area of the order.",
              house="The house whose order it was (present when the area is left without units).",
              order="The order token removed (with `house`)."),
    "phase": _e("", "R13 R15 R6",
              "a phase begins"),
    "place": _e("area house kind", "R20.2.5 R41 R6.2.4",
              "a card places units",
              area="Where the unit is placed.", house="The house of the unit.",
              kind="The kind of the unit placed."),
    "power": _e("amount house", "R6.2.4 R7.9 R11.6 R15.6 R18.2 R20.2 R20.2.2 R20.2.4 R20.2.5 R35.5 R40.4.2 "
                                "R40.6.1 R41 R42.4.1",
              "a house gains or discards power",
              house="The house gaining or discarding power tokens."),
    "power-token": _e("area house?", "R16.6 R23.2.1 R35.9",
              "a power token is placed in an area or returns to the pool",
              area="The area of the power token.",
              house="The house placing it (absent: an enemy's token there returns to its pool)."),
    "protected": _e("house", "R20.2.2 R21.2",
              "a house loses no units as casualties",
              house="The house that loses no units."),
    "raid": _e("area house", "R15.3",
              "a Raid order is resolved",
              area="The area whose order is raided (the raid's own area when it is removed without effect).",
              house="The raiding house."),
    "raven-bottom": _e("house", "R13.5.2",
              "the Messenger Raven holder puts the wildling card at the bottom",
              house="The holder of the Messenger Raven."),
    "draft-pool": _e("pool", "R4",
              "the house cards to draft before the game (public)",
              pool="The house card ids of the pool, sorted."),
    "draft-pick": _e("house pick", "R4",
              "a house drafts a house card from the pool (public)",
              house="The house that picks.", pick="The house card it drafts."),
    "houses-assigned": _e("seats", "R4",
              "the players' seats are given houses at random (public)",
              seats="The house of each seat, seat 1 first."),
    "influence-pick": _e("house track position", "R4",
              "a house takes a position on an influence track before the game (public)",
              house="The house that picks.", track="The influence track.",
              position="The position it takes (1 first)."),
    "objectives": _e("house? secret?", "R26",
              "objective cards are drawn (secret: which) or go back into the deck",
              house="The house that draws (absent: cards given back go into the deck).",
              secret=_secret("What the house drew.", "cards", _ids(), "The objective cards' ids.")),
    "objective-scored": _e("house objective points", "R26",
              "a house scores an objective (revealed)",
              house="The house.", objective="The objective card scored.",
              points="The victory points the card gives the house."),
    "look": _e("deck house secret", "R13.5.2",
              "a house looks at the top cards of a deck (secret: what it saw)",
              deck="The deck: a Westeros deck (i-iv) or `wildling`.", house="The house that looks.",
              secret=_secret("What the house saw.", "cards", _ids(), "The cards' ids, top first.")),
    "look-hand": _e("house target secret", "R13.5.2",
              "a house looks at another house's hand of house cards (secret: what it saw)",
              house="The house that looks.", target="The house whose hand it looks at.",
              secret=_secret("What the house saw.", "cards", _ids(), "The house cards' ids, sorted.")),
    "look-orders": _e("house target? secret", "R13.5.2",
              "a house looks at face-down orders on the board (secret: what it saw)",
              house="The house that looks.",
              target="The house whose orders it looks at (absent: every other house's).",
              secret=_secret("What the house saw.", "orders", {"type": "object", "additionalProperties": ID},
                             "Area id -> the order token id there.")),
    "raven-look": _e("house secret", "R13.5.2",
              "the Messenger Raven holder looks at the top wildling card (secret)",
              house="The holder of the Messenger Raven.",
              secret=_secret("What the holder saw.", "card", ID, "The top wildling card's id.")),
    "raven-swap": _e("area house", "R13.5.1",
              "the Messenger Raven holder replaces an order",
              area="The area whose order is replaced.", house="The holder of the Messenger Raven."),
    "replace": _e("area house", "R11.6 R20.2.4",
              "a unit is replaced by another kind",
              area="The area of the unit (for a unit on the march, the embattled area it attacks).",
              house="The house of the unit."),
    "replace-ships": _e("area count house", "R24.7",
              "a house replaces the ships in a port it took with its own",
              area="The port.", count="How many of its own ships it places.", house="The house taking the port."),
    "reshuffle": _e("deck", "R7.2",
              "a Westeros deck is reshuffled",
              deck="The Westeros deck reshuffled."),
    "resolve-card": _e("card", "R6.2.4",
              "a Westeros card is resolved",
              card="The Westeros card resolved."),
    "retreat": _e("area house", "R21.3.2 R21.3.3 R21.3.7",
              "the losing army retreats (routed or not)",
              area="The area it retreats to.", house="The losing house."),
    "reveal": _e("card? cards? house?", "R20.1.1 R20.2.1 R20.2.2",
              "house cards are revealed",
              cards="Both sides' house cards, revealed together (R20.1.1); absent when one house reveals "
                    "another card.",
              card="The card one house reveals instead (with `house`); on a card ability's event, the card "
                   "whose ability makes it (then `subject` is the card revealed).",
              house="The house revealing another card (with `card`)."),
    "reveal-orders": _e("orders", "R13.4",
              "every order is revealed",
              orders=Field({"type": "object", "propertyNames": ID,
                            "additionalProperties": {"type": "string",
                                                     "pattern": "^" + ID_PATTERN[1:-1] + ":" + ID_PATTERN[1:]}},
                           "Every order on the board: area id → `HOUSE:ORDER` (house id and order token id).")),
    "round": _e("", "R6.2.1",
              "a round begins"),
    "search-deck": _e("deck house secret", "R20.2.4",
              "a house searches a deck (secret: what it saw)",
              deck="The deck searched.", house="The house searching.",
              secret=_secret("What the house chose.", "top", ID, "The card id it puts on top of the deck.")),
    "setup": _e("houses vassals?", "R31 R4",
              "the game is set up",
              vassals="The vassal houses (Mother of Dragons; absent in the base game)."),
    "supply": _e("house supply", "R11.6 R41 R6.2.4 R8.2",
              "a house's supply level changes",
              house="The house whose supply changes."),
    "support": _e("house side", "R19.3 R20.2",
              "a house declares its support in a combat",
              house="The supporting house."),
    "tides": _e("tides", "R29.3.3",
              "the Tides of Battle cards of a combat"),
    "track": _e("order track", "R10.3 R11.6 R20.2.2 R20.2.4 R20.2.5",
              "an influence track's new order",
              order=Field(_ids(), "The houses on the track, from position 1 down.")),
    "vassal": _e("house", "R42.5",
              "a player house becomes a vassal",
              house="The house that becomes a vassal."),
    "vassal-hand": _e("house secret", "R35.2",
              "a vassal's commander draws its hand of vassal cards (secret)",
              house="The vassal.",
              secret=_secret("What the commander drew.", "hand", _ids(), "The vassal's house card ids.")),
    "victory-points": _e("amount house points", "R26",
              "an effect gives a house victory points (or takes some)",
              amount="The points given (negative: taken).", house="The house.",
              points="Its points from effects now (gain-victory-points)."),
    "victory": _e("decided_by? house ranking?", "R26.1 R26.3 R37.3",
              "a house wins the game",
              decided_by=Field(FIELDS["decided_by"].schema, FIELDS["decided_by"].meaning + " Present after the "
                               "last round only, with `ranking`."),
              house="The winner.",
              ranking=Field(FIELDS["ranking"].schema, FIELDS["ranking"].meaning + " Absent when a house wins "
                            "during the game.")),
    "westeros-card": _e("card deck", "R6.2.2",
              "a Westeros card is revealed",
              card="The Westeros card revealed.", deck="The Westeros deck it comes from."),
    "wildling-attack": _e("strength", "R11.2",
              "a wildling attack begins, with its strength"),
    "wildling-card": _e("card", "R11.6.5",
              "a wildling card is resolved",
              card="The wildling card, which goes to the bottom of its deck (on a card ability's event, the card "
                   "that caused the attack; then `subject` is the wildling card)."),
    "wildlings": _e("threat", "R11.8 R20.2.4 R6.2.3",
              "the wildling threat changes"),
    "wildlings-lose": _e("card", "R11.5",
              "the Night's Watch beats the wildlings",
              card="The wildling card drawn (on a card ability's event, the card that caused the attack; then "
                   "`subject` is the wildling card)."),
    "wildlings-win": _e("card", "R11.5",
              "the wildlings win",
              card="The wildling card drawn (on a card ability's event, the card that caused the attack; then "
                   "`subject` is the wildling card)."),
}


def cites(event_type: str | None, rule: str) -> bool:
    """May an event of this type (None: of any type) cite this rule id?"""
    types = [EVENTS[event_type]] if event_type else EVENTS.values()
    return rule in CARD_WINDOW_RULES or any(rule in ev.rules for ev in types)


def fields_of(event_type: str) -> tuple[str, ...]:
    """Every field an event of this type may have (COMMON_FIELDS first)."""
    return COMMON_FIELDS + EVENTS[event_type].fields


def markdown_table() -> str:
    """The catalogue as the table docs/scenarios.md shows (kept equal by a test); `name?`: not always set."""
    rows = ["| type | fields | rules | what |", "|---|---|---|---|"]
    for name, ev in sorted(EVENTS.items()):
        shown = ", ".join(f + ("?" if f in ev.optional else "") for f in ev.fields) or "—"
        rows.append(f"| `{name}` | {shown} | {', '.join(ev.rules)} | {ev.what} |")
    return "\n".join(rows)


def _shape(schema: dict) -> str:
    """A field's JSON type in a few words, for the docs."""
    if "anyOf" in schema:
        return " or ".join(_shape(s) for s in schema["anyOf"])
    if "enum" in schema:
        return "one of " + ", ".join(f"`{v}`" for v in schema["enum"])
    kind = schema.get("type")
    if schema.get("pattern") == ID_PATTERN:
        return "id"
    if kind == "array":
        items = _shape(schema["items"])
        return f"list of ({items})" if " or " in items else "list of " + items.replace("id", "ids", 1)
    if kind == "object" and "additionalProperties" in schema and "propertyNames" in schema:
        return f"id → {_shape(schema['additionalProperties'])}"
    if kind == "object" and "properties" in schema:
        return "{" + ", ".join(f"{k}: {_shape(v)}" for k, v in schema["properties"].items()) + "}"
    if kind == "integer" and "minimum" in schema:
        return f"integer ≥ {schema['minimum']}"
    return str(kind or "null")


def fields_table() -> str:
    """Every field with its JSON type and meaning, as docs/scenarios.md shows it (kept equal by a test); a type
    that gives a field its own meaning or form is named after it."""
    rows = ["| field | JSON | meaning |", "|---|---|---|"]
    for name, schema in _common_properties().items():
        rows.append(f"| `{name}` | {_shape(schema)} | {COMMON[name].meaning} |")
    for name, f in sorted(FIELDS.items()):
        rows.append(f"| `{name}` | {_shape(f.schema)} | {f.meaning} |")
    for kind, ev in sorted(EVENTS.items()):
        for name, f in ev.own:
            if f.schema != (FIELDS.get(name) or COMMON[name]).schema:
                rows.append(f"| `{name}` of `{kind}` | {_shape(f.schema)} | {f.meaning} |")
    return "\n".join(rows)


# ---- the JSON Schema ------------------------------------------------------------------------------------------

def _phases() -> list[str]:
    """The phases an event may happen in: the state's (schemas/state.schema.json is their declaration)."""
    state = json.loads(resources.files("maester.schemas").joinpath("state.schema.json").read_text(encoding="utf-8"))
    return state["properties"]["phase"]["enum"]


def _described(f: Field) -> dict:
    return {**f.schema, "description": f.meaning}


def _common_properties() -> dict:
    props = {f: _described(COMMON[f]) for f in COMMON_FIELDS}
    props["phase"] = {"enum": _phases(), "description": COMMON["phase"].meaning}
    return props


def _type_schema(name: str, ev: EventType, common: dict) -> dict:
    """One event type, complete on its own: the common fields, its own fields, nothing else."""
    rules = list(dict.fromkeys(ev.rules + CARD_WINDOW_RULES))  # `cites`: its own rules and the card windows
    props = {**common,
             "type": {"const": name, "description": f"This event type: {ev.what}."},
             "rule": {"enum": rules, "description": "The rule id it cites: one of this type's rules or a card "
                                                    "timing window's."}}
    props.update({f: _described(ev.field(f)) for f in ev.fields})
    return {"type": "object", "description": f"`{name}`: {ev.what}.", "additionalProperties": False,
            "required": list(dict.fromkeys(REQUIRED_COMMON + ev.required)), "properties": props}


def event_schema() -> dict:
    """The JSON Schema of one event (as `Game.emit` makes it), one `$defs` entry per declared type."""
    common = _common_properties()
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": SCHEMA_ID,
        "title": f"maester event, version {EVENT_FORMAT_VERSION}",
        "description": "One change of the game, citing its rule (an element of a game log's or a conformance "
                       "vector's events). Every event has n, round, phase, type, rule and text; a card ability's "
                       "events add card and source, maybe subject. `type` selects the entry of $defs that gives "
                       "the type's own fields; an event has no other field. Generated from the event catalogue "
                       "(docs/scenarios.md lists every type and field).",
        "type": "object",
        "required": list(REQUIRED_COMMON),
        "properties": {**common, "type": {"enum": sorted(EVENTS), "description": COMMON["type"].meaning}},
        "allOf": [{"if": {"properties": {"type": {"const": name}}, "required": ["type"]},
                   "then": {"$ref": f"#/$defs/{name}"}} for name in sorted(EVENTS)],
        "$defs": {name: _type_schema(name, ev, common) for name, ev in sorted(EVENTS.items())},
    }


def event_schema_text() -> str:
    return schema_text(event_schema())


def write_event_schema(path: Path | None = None) -> Path:
    """Rewrite schemas/event.schema.json (or `path`)."""
    return write_schema("event.schema.json", event_schema_text(), path)
