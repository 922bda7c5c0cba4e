"""The catalogue of event types: every event the engine emits, its fields and the rule ids it cites.

One table, declared here, so that a scenario can refuse to check an event type or a field that does not
exist (an `absent` entry naming one would pass vacuously) and `Game.emit` refuses an undeclared type.
Every event also has the `COMMON_FIELDS`. Events of card abilities cite the rule of their timing window
(`R20.2.4` for "if you win", `R6.2.4` for a Westeros card, ...), so their `rules` list those windows.
"""

from __future__ import annotations

from dataclasses import dataclass

# fields of every event; `card` and `source` are set on the events a card ability produces, and `subject` names
# another card the event is about (the card a cancel sends back, the one revealed instead)
COMMON_FIELDS = ("n", "round", "phase", "type", "rule", "text", "card", "source", "subject")
# the rules of the timing windows of card abilities (combat windows R20.2-R21.3, Westeros cards R6.2.4, wildling
# cards R11.6, improvements R41): any event a card ability produces may cite them
CARD_WINDOW_RULES = ("R20.2", "R20.2.1", "R20.2.2", "R20.2.3", "R20.2.4", "R20.2.5", "R21.2", "R21.3", "R6.2.4",
                     "R11.6", "R41")


@dataclass(frozen=True)
class EventType:
    fields: tuple[str, ...]  # the fields of its own, besides COMMON_FIELDS (not every event sets all of them)
    rules: tuple[str, ...]  # the rule ids its events cite
    what: str  # one line, for the docs


def _e(fields: str, rules: str, what: str) -> EventType:
    return EventType(tuple(fields.split()), tuple(rules.split()), what)


EVENTS: dict[str, EventType] = {
    "advance": _e("area house", "R21.5.1",
              "the winning attacker's units occupy the embattled area"),
    "arrange": _e("house secret", "R41",
              "a house arranges cards it looked at (secret: what it saw)"),
    "bidder": _e("house which", "R11.6.4",
              "the highest or lowest bidder of a wildling attack, after a tie is broken"),
    "bids": _e("bids", "R10.2 R11.3 R36.4.3",
              "the bids of an auction or a wildling attack, revealed together"),
    "blade": _e("house", "R20.4 R29.3.3",
              "the Valyrian Steel Blade is used"),
    "cancel": _e("card house", "R20.2.1 R20.2.2",
              "a played house card is cancelled and goes back to its hand"),
    "cards": _e("card house", "R11.6 R20.2 R20.2.1 R20.2.2 R20.2.4 R20.2.5 R21.5.3 R21.5.4 R43",
              "a house card moves: discarded, kept, taken back or removed from the game"),
    "choice": _e("card house", "R11.6 R20.2.4 R41 R6.2.4",
              "a card's option or choice is taken"),
    "clean-up": _e("", "R18.5",
              "the Action Phase clean up: orders removed, routed units stand up"),
    "combat": _e("area attacker defender", "R19",
              "a combat begins: attacker, defender and embattled area"),
    "combat-result": _e("final winner", "R20.6",
              "final combat strengths and the victor"),
    "commander": _e("house vassal", "R33.3 R33.4",
              "a player takes command of a vassal"),
    "consolidate": _e("area house", "R18.2.1 R18.2.2 R18.3",
              "a Consolidate Power order is resolved (or yields nothing)"),
    "degrade": _e("area", "R41",
              "an area loses a printed icon or castle"),
    "destroy": _e("area count house kind", "R11.6 R20.2.2 R20.2.4 R21.2 R21.2.1 R21.3.2 R21.3.4 R21.3.5 R21.3.6 "
                                           "R24.7 R24.8 R29.3.5 R40.6.2 R41 R6.2.4 R8.4",
              "units are destroyed"),
    "dominance": _e("house token", "R20.2",
              "a dominance token changes hands outside the bidding"),
    "dragons": _e("", "R38.3.2 R6.2.4",
              "the dragon strength changes"),
    "forbid": _e("orders", "R6.2.4",
              "order types are forbidden for the round"),
    "garrison": _e("area house points", "R21.1 R37.8.2",
              "a garrison is removed from the game or comes back"),
    "give-bid": _e("house", "R36.4.3",
              "a house that gives away its bid adds one to another house's bid"),
    "no-wildlings": _e("", "R11",
              "a wildling attack does not happen: the rules set plays without wildlings"),
    "ignore-text": _e("card", "R20.2.1",
              "a played house card's text is ignored"),
    "improve": _e("area", "R41",
              "an area gains an improvement"),
    "initial-strength": _e("strengths", "R19.4",
              "initial combat strengths, before house cards"),
    "iron-bank": _e("bank", "R40.3",
              "the Iron Bank's loans on offer"),
    "keep-march": _e("area", "R21.5.2",
              "the March order moves with the army into the area it took"),
    "keep-support": _e("area", "R34.4",
              "a raid/support token stays as a support order"),
    "leave": _e("house", "R42.5",
              "a player will leave the game at the end of the round"),
    "loan": _e("house loan", "R40.4",
              "a house takes a loan"),
    "loan-discount": _e("house", "R40.7.2 R40.7.3",
              "the loan discount token changes hands"),
    "loyalty": _e("area", "R37.4.2 R6.2.4",
              "loyalty tokens are placed or removed"),
    "loyalty-gained": _e("area house points", "R37.6.1",
              "a loyalty house gains the loyalty tokens of an area it controls"),
    "loyalty-home-lost": _e("area house points", "R37.8.1",
              "a loyalty house loses its home area and a victory point"),
    "loyalty-skipped": _e("area", "R37.5",
              "loyalty tokens not gained (the area is not controlled)"),
    "march": _e("area house", "R16.1 R16.2",
              "a March order is resolved: the moves, or none"),
    "muster": _e("area house kind", "R9.3.1 R9.3.2 R9",
              "a unit is mustered or upgraded"),
    "muster-order": _e("area", "R34.5",
              "a muster order is resolved"),
    "neutral-force": _e("area house", "R25.3",
              "an attack on a neutral force succeeds or fails"),
    "no-advance": _e("house", "R21.5.1",
              "the winning attacker stays where it marched from"),
    "no-order": _e("area house", "R13.2.4",
              "an area gets no order (too few legal tokens)"),
    "order-placed": _e("area house order", "R20.2.5",
              "a card places an order"),
    "order-removed": _e("area house order", "R20.2 R20.2.2 R20.2.4 R21.5.1 R21.5.2 R21.5.5 R42.1.2 R14.7",
              "an order is removed from the board"),
    "phase": _e("", "R13 R15 R6",
              "a phase begins"),
    "place": _e("area house kind", "R20.2.5 R41 R6.2.4",
              "a card places units"),
    "power": _e("amount house", "R6.2.4 R7.9 R11.6 R15.6 R18.2 R20.2 R20.2.2 R20.2.4 R20.2.5 R35.5 R40.4.2 R40.6.1 "
                                "R41 R42.4.1",
              "a house gains or discards power"),
    "power-token": _e("area house", "R16.6 R23.2.1 R35.9",
              "a power token is placed in an area or returns to the pool"),
    "protected": _e("house", "R20.2.2 R21.2",
              "a house loses no units as casualties"),
    "raid": _e("area house", "R15.3",
              "a Raid order is resolved"),
    "raven-bottom": _e("house", "R13.5.2",
              "the Messenger Raven holder puts the wildling card at the bottom"),
    "raven-look": _e("house secret", "R13.5.2",
              "the Messenger Raven holder looks at the top wildling card (secret)"),
    "raven-swap": _e("area house", "R13.5.1",
              "the Messenger Raven holder replaces an order"),
    "replace": _e("area house", "R11.6 R20.2.4",
              "a unit is replaced by another kind"),
    "replace-ships": _e("area count house", "R24.7",
              "a house replaces the ships in a port it took with its own"),
    "reshuffle": _e("deck", "R7.2",
              "a Westeros deck is reshuffled"),
    "resolve-card": _e("card", "R6.2.4",
              "a Westeros card is resolved"),
    "retreat": _e("area house", "R21.3.2 R21.3.3 R21.3.7",
              "the losing army retreats (routed or not)"),
    "reveal": _e("card cards house", "R20.1.1 R20.2.1 R20.2.2",
              "house cards are revealed"),
    "reveal-orders": _e("orders", "R13.4",
              "every order is revealed"),
    "round": _e("", "R6.2.1",
              "a round begins"),
    "search-deck": _e("deck house secret", "R20.2.4",
              "a house searches a deck (secret: what it saw)"),
    "setup": _e("houses vassals", "R31 R4",
              "the game is set up"),
    "supply": _e("house supply", "R11.6 R41 R6.2.4 R8.2",
              "a house's supply level changes"),
    "support": _e("house side", "R19.3 R20.2",
              "a house declares its support in a combat"),
    "tides": _e("tides", "R29.3.3",
              "the Tides of Battle cards of a combat"),
    "track": _e("order track", "R10.3 R11.6 R20.2.2 R20.2.4 R20.2.5",
              "an influence track's new order"),
    "vassal": _e("house", "R42.5",
              "a player house becomes a vassal"),
    "vassal-hand": _e("house secret", "R35.2",
              "a vassal's commander draws its hand of vassal cards (secret)"),
    "victory": _e("decided_by house ranking", "R26.1 R26.3 R37.3",
              "a house wins the game"),
    "westeros-card": _e("card deck", "R6.2.2",
              "a Westeros card is revealed"),
    "wildling-attack": _e("strength", "R11.2",
              "a wildling attack begins, with its strength"),
    "wildling-card": _e("card", "R11.6.5",
              "a wildling card is resolved"),
    "wildlings": _e("threat", "R11.8 R20.2.4 R6.2.3",
              "the wildling threat changes"),
    "wildlings-lose": _e("card", "R11.5",
              "the Night's Watch beats the wildlings"),
    "wildlings-win": _e("card", "R11.5",
              "the wildlings win"),
}


def cites(event_type: str | None, rule: str) -> bool:
    """May an event of this type (None: of any type) cite this rule id?"""
    types = [EVENTS[event_type]] if event_type else EVENTS.values()
    return rule in CARD_WINDOW_RULES or any(rule in ev.rules for ev in types)


def fields_of(event_type: str) -> tuple[str, ...]:
    """Every field an event of this type may have (COMMON_FIELDS first)."""
    return COMMON_FIELDS + EVENTS[event_type].fields


def markdown_table() -> str:
    """The catalogue as the table docs/scenarios.md shows (kept equal by a test)."""
    rows = ["| type | fields | rules | what |", "|---|---|---|---|"]
    for name, ev in sorted(EVENTS.items()):
        rows.append(f"| `{name}` | {', '.join(ev.fields) or '—'} | {', '.join(ev.rules)} | {ev.what} |")
    return "\n".join(rows)
