"""The one registry of the effect language: every primitive, query, trigger and statement.

This table is the single source of truth. The checker validates calls against it, the JSON Schema's
effect definitions are generated from it (tools/gen_schema.py → schemas/effect.schema.json), the
primitive reference in docs/dsl.md is generated from it, and the interpreter's handlers are keyed by
these names. It also declares the kinds of compiled effect nodes (NODES: the `"node"` tag every compiled
object carries), the combat windows with their rule ids (TRIGGERS / COMBAT_WINDOWS, read by the combat
procedure too) and the marks rule procedures read instead of primitive names (MARKS). docs/effects.md is
generated from it and dsl/semantics.py. tests/test_registry.py and tests/test_effect_docs.py fail when any
of those drift apart.

Types (argument and result kinds):
  int, bool, text, house, area, track, unit-kind, order-type, order (an order token id), icon, deck, card,
  dominance-token, unit, improvement, end (first|last), role (fighting|supporting|all), any
  list:T — a list of T (e.g. list:area). A T is not accepted where list:T is expected.
Each parameter is positional in the order listed, or named (`gain-power(house: you, amount: 2)`).
"""

from __future__ import annotations

from dataclasses import dataclass, field

SCALAR_TYPES = (
    "int", "bool", "text", "house", "area", "track", "unit-kind", "order-type", "order", "icon", "deck", "card",
    "dominance-token", "unit", "improvement", "end", "role", "measure", "card-set", "any",
)

# Closed vocabularies that are part of the language itself (not content).
ENUMS: dict[str, tuple[str, ...]] = {
    "end": ("first", "last"),
    "role": ("fighting", "supporting", "all"),
    "improvement": ("power", "supply", "stronghold"),
    "icon": ("castle", "stronghold", "power", "supply"),
    # what `has-most` / `has-fewest` compare between the player houses (objectives)
    "measure": ("land-areas", "sea-areas", "ports", "castles", "strongholds", "ships", "power-tokens",
                "available-power", "victory-points"),
}


@dataclass(frozen=True)
class Param:
    name: str
    type: str
    required: bool = True
    default: object = None
    doc: str = ""


@dataclass(frozen=True)
class Primitive:
    """An effect (a statement that changes the game) or a query (an expression that reads it)."""

    name: str
    kind: str  # "effect" | "query"
    params: tuple[Param, ...]
    english: str  # template; {param} is replaced by the argument's English
    doc: str
    returns: str | None = None  # queries only
    windows: tuple[str, ...] = ()  # triggers it is limited to; () = anywhere
    block: str | None = None  # "options" when the call takes a block of `option` entries
    rules: tuple[str, ...] = ()  # rule ids of rules.md the primitive implements
    marks: tuple[str, ...] = ()  # what rule procedures must know about a card calling it (MARKS)

    def param(self, name: str) -> Param | None:
        return next((p for p in self.params if p.name == name), None)


@dataclass(frozen=True)
class Trigger:
    """A timing window an ability (`when NAME { ... }`) can hook."""

    name: str
    context: str  # which effect context it belongs to
    english: str
    doc: str
    rules: tuple[str, ...] = ()


@dataclass(frozen=True)
class Statement:
    """A built-in statement of the effect language (not a call)."""

    name: str
    syntax: str
    english: str
    doc: str
    example: str


@dataclass(frozen=True)
class Context:
    """Where effects run, and the names bound there (`you`, `buyer`, `lowest-bidder`, ...)."""

    name: str
    variables: dict[str, str] = field(default_factory=dict)
    doc: str = ""


def P(name: str, type_: str, doc: str = "", default: object = None, required: bool | None = None) -> Param:
    return Param(name, type_, default is None if required is None else required, default, doc)


def _effect(name, params, english, doc, windows=(), block=None, rules=(), marks=()):
    return Primitive(name, "effect", tuple(params), english, doc, None, tuple(windows), block, tuple(rules),
                     tuple(marks))


def _query(name, params, returns, english, doc, rules=()):
    return Primitive(name, "query", tuple(params), english, doc, returns, (), None, tuple(rules))


MARKS: dict[str, str] = {
    # What a rule procedure must know about a card before (or besides) running its effect. The
    # procedure asks the effect evaluator for the calls of a marked primitive that the card's effect
    # reaches now (`if` branches followed as their conditions stand); it never looks for names.
    "standing": "A standing combat effect: it holds for the whole combat from the moment its card is face up "
                "(and not cancelled or blanked), not only from its own timing window. Whenever the combat "
                "procedure must know the combat's standing state (e.g. before a unit is destroyed) it applies "
                "the reached calls of this primitive to a copy of the combat and reads the copy.",
    "redraw-on-reveal": "Acts the moment its card is drawn: the drawing procedure shuffles every card of the "
                        "deck back into it and draws again, so the card never resolves (R7.2).",
}

# ---- contexts -----------------------------------------------------------------------------------
CONTEXTS: dict[str, Context] = {
    c.name: c
    for c in (
        Context("combat", {
            "you": "house", "opponent": "house", "embattled-area": "area", "this-card": "card",
            "your-card": "card", "opponent-card": "card", "attacker": "house", "defender": "house",
            "march-origin": "area",
        }, "House and vassal card abilities: `you` is the house (or vassal) that played the card."),
        Context("westeros", {}, "Westeros cards I–IV, resolved in the Westeros Phase."),
        Context("wildling", {
            "lowest-bidder": "house", "highest-bidder": "house", "everyone-else": "list:house",
            "wildling-strength": "int",
        }, "Wildling cards: the bidders of the attack being resolved."),
        Context("loan", {"buyer": "house"}, "Loans of the Iron Bank: `buyer` took the loan."),
        Context("objective", {"house": "house"}, "An objective's condition: `house` is the house that would "
                "score it."),
        Context("game", {}, "Game abilities (`game-ability`): `when MOMENT` abilities of the procedure "
                "(dsl/moments.py); each moment binds its own names (`house`, `area`, `phase`, ...)."),
    )
}

# ---- triggers -----------------------------------------------------------------------------------
TRIGGERS: dict[str, Trigger] = {
    t.name: t
    for t in (
        Trigger("cancel", "combat", "When house cards are revealed, before anything else",
                "Cards that cancel or replace the opponent's card; resolved in Iron Throne order.",
                ("R20.2.1",)),
        Trigger("immediately", "combat", "Immediately after house cards are revealed",
                "`Immediately` abilities, after cancel abilities, in Iron Throne order.", ("R20.2.2",)),
        Trigger("before-combat", "combat", "After the reveal, before combat strength is final",
                "Choices that change strength, made after the `immediately` step.", ("R20.2",)),
        Trigger("combat-strength", "combat", "While combat strength is calculated",
                "Static modifiers, read while strength and icons are counted.", ("R20.2.3",)),
        Trigger("after-winner-determination", "combat", "Once the winner is known",
                "`If you win / lose` abilities, before casualties.", ("R20.2.4",)),
        Trigger("casualties", "combat", "When casualties are taken",
                "Abilities that change or add casualties.", ("R21.2",)),
        Trigger("retreat", "combat", "When the loser retreats",
                "Abilities that change where or whether units retreat.", ("R21.3",)),
        Trigger("after-combat", "combat", "When the combat is over",
                "Combat clean-up abilities, win or lose.", ("R20.2.5", "R21.5.6")),
    )
}

# The windows of a combat, in the order the combat procedure opens them (R20.2, R21): the one table
# the checker (`windows=` of primitives), the docs and the combat procedure (rule ids of its events) use.
COMBAT_WINDOWS: tuple[str, ...] = tuple(t.name for t in TRIGGERS.values() if t.context == "combat")


def window_rule(window: str) -> str:
    """The rule id cited by the events of abilities resolved in a window (its first rule)."""
    return TRIGGERS[window].rules[0]


# ---- statements ---------------------------------------------------------------------------------
STATEMENTS: dict[str, Statement] = {
    s.name: s
    for s in (
        Statement("when", "when TRIGGER [if CONDITION] { ... }", "{trigger}: {body}",
                  "An ability of a house card: runs in the named timing window when the condition holds.",
                  "when after-winner-determination if is-winner(you) {\n  gain-power(you, 2)\n}"),
        Statement("if", "if CONDITION { ... } [else { ... }]", "if {condition}, {then}",
                  "Runs the first block when the condition holds, else the second.",
                  "if position(opponent, iron-throne) < position(you, iron-throne) {\n  add-strength(you, 1)\n}"),
        Statement("for", "for NAME in LIST { ... }", "for each {var} in {in}: {do}",
                  "Runs the block once per item, in list order, with NAME bound to the item.",
                  "for h in turn-order() {\n  muster(h)\n}"),
        Statement("choose", "choose NAME in LIST [by HOUSE] [count N] [distinct] { ... }",
                  "{by} chooses {count} {var} from {from}, then {do}",
                  "A decision: HOUSE (default: the card's owner) picks one item (or N items; `distinct` "
                  "forbids picking one twice) and the block runs with NAME bound to it. With nothing "
                  "to choose from, the block is skipped.",
                  "choose a in [harrenhal, white-harbor] by targaryen {\n  place-loyalty(a)\n}"),
        Statement("may", "may [by HOUSE] [pay N] [if CONDITION] { ... } [else { ... }]",
                  "{by} may {pay}{do}",
                  "An optional step: HOUSE (default: the card's owner) decides. With `pay N` it costs N "
                  "available power tokens and is only offered when HOUSE can pay. The `else` block runs "
                  "when the step is declined or cannot be taken.",
                  "may by targaryen pay 1 {\n  place-loyalty(blackwater)\n}"),
        Statement("let", "let NAME = EXPRESSION", "let {var} be {value}",
                  "Names a value for the rest of the block.", "let gap = combat-margin()"),
        Statement("option", "option KEY \"text\" [if CONDITION] { ... }", "({key}) {text}: {do}",
                  "One choice inside `choose-one(...) { ... }`; offered only when its condition holds.",
                  'option a "Every house adjusts supply" {\n  adjust-supply()\n}'),
    )
}

# ---- compiled effect nodes ----------------------------------------------------------------------
# Every compiled effect object carries its kind in NODE_KEY ("node": "call", ...). Numbers and
# conditions are plain JSON numbers and booleans (their JSON type is their kind). docs/effects.md
# specifies how each kind is evaluated; the interpreter dispatches on this tag and nothing else.
NODE_KEY = "node"


@dataclass(frozen=True)
class NodeKind:
    name: str
    role: str  # "statement" | "expression" | "ability" | "option"
    keys: tuple[tuple[str, str], ...]  # (key, meaning) besides NODE_KEY; "?" after a key: optional
    evaluation: str  # how an engine evaluates it, in order


NODES: dict[str, NodeKind] = {
    n.name: n
    for n in (
        NodeKind("ability", "ability", (
            ("trigger", "the timing window (a trigger of the registry)"),
            ("if?", "expression (bool): the ability's condition"),
            ("body", "block: the statements of the ability"),
            ("at", "file:line:col of the ability in the content"),
        ), "When its window opens (and the ability has not been begun in this combat, R20.2.7), the ability "
           "counts as begun, then `if` is evaluated; when it is absent or true, run `body`; otherwise nothing "
           "happens, and the ability is used up all the same."),
        NodeKind("call", "statement", (
            ("do", "the effect primitive's name"),
            ("args", "object: parameter name -> expression; defaults of optional parameters already filled in"),
            ("options?", "list of option nodes (primitives whose `block` is options: choose-one)"),
            ("at", "file:line:col of the call (the `source` of its events)"),
        ), "Evaluate every argument, in the order of `args`, then run the primitive with the values "
           "(see the primitive reference). The events it emits carry the running card and `at`."),
        NodeKind("if", "statement", (
            ("if", "expression (bool)"), ("then", "block"), ("else?", "block"),
        ), "Evaluate `if`; true: run `then`; false: run `else` when present."),
        NodeKind("for", "statement", (
            ("for", "the name bound to each item"), ("in", "expression (a list)"), ("body", "block"),
        ), "Evaluate `in` once; then run `body` once per item in list order, with the name bound to the "
           "item (the binding ends with the body)."),
        NodeKind("choose", "statement", (
            ("choose", "the name bound to the pick"), ("from", "expression (a list)"),
            ("by", "expression (house): who decides"), ("count?", "expression (int), default 1"),
            ("distinct?", "true: an item cannot be picked twice"), ("body", "block"),
            ("at", "file:line:col"),
        ), "Evaluate `from`, `by`, then `count`. If running `body` would change nothing for every item (the "
           "no-op rule), nothing is asked and nothing happens. Otherwise ask `count` times a decision of kind "
           "`choose` of `by` (stopping early when nothing is left to pick); its options are the distinct items, "
           "as strings or numbers, sorted by their string form, and then identical units merged: of unit "
           "references `AREA#INDEX` naming units of the same area, kind and routed state, only the first in that "
           "order is offered (picking either does the same); an item whose body would change nothing is still "
           "offered when another would not. With `distinct` a picked item (the answer) leaves the options. Then "
           "run `body` once per pick, in the order picked, with the name bound to it."),
        NodeKind("may", "statement", (
            ("may", "expression (house): who decides"), ("pay?", "expression (int): power it costs"),
            ("condition?", "expression (bool)"), ("body", "block"), ("else?", "block"), ("at", "file:line:col"),
        ), "Evaluate `may`, then `pay` (default 0), then `condition`. The step is offered when the condition "
           "is absent or true, the decider is a house of the game and it has at least `pay` available "
           "power, and — when there is no `else` — running `body` would not change nothing (the no-op rule): a "
           "decision of kind `may` with the options `yes` and `no`. On `yes`: the decider discards `pay` power "
           "(event `power`, citing the context's rule, with this statement's `card` and `source`), then `body` "
           "runs. Otherwise (`no`, or not offered) `else` runs when present."),
        NodeKind("let", "statement", (
            ("let", "the name"), ("value", "expression"),
        ), "Evaluate `value` and bind the name for the rest of the enclosing block."),
        NodeKind("option", "option", (
            ("option", "the option's key (the answer)"), ("text", "its English text"),
            ("if?", "expression (bool): offered only when true"), ("body", "block"),
        ), "An entry of a `choose-one` call: see that primitive."),
        NodeKind("text", "expression", (("text", "a string"),), "The string itself."),
        NodeKind("id", "expression", (
            ("id", "a content id or a word of the language"), ("type", "its type (house, area, ...)"),
        ), "The id itself, a string."),
        NodeKind("var", "expression", (("var", "a name of the context or bound by for/choose/let"),),
                 "The value bound to the name (the innermost binding)."),
        NodeKind("list", "expression", (("list", "list of expressions"),),
                 "Evaluate the items in order; a list of their values."),
        NodeKind("query", "expression", (
            ("query", "the query primitive's name"), ("args", "object: parameter name -> expression"),
        ), "Evaluate every argument in the order of `args`, then the query (see the primitive reference); "
           "queries change nothing."),
        NodeKind("op", "expression", (
            ("op", "one of: and or not neg == != < <= > >= + - *"), ("args", "list of one or two expressions"),
        ), "`and`/`or` evaluate the first argument, then the second only when needed (short circuit); "
           "`not` and `neg` take one argument; the others evaluate both, left first. `+` adds numbers or "
           "joins two lists; comparisons compare numbers (`==`/`!=` any two values)."),
    )
}

# ---- primitives: effects ------------------------------------------------------------------------
_EFFECTS = [
    # power
    _effect("gain-power", [P("house", "house"), P("amount", "int")],
            "{house} gains {amount} power", "The house takes power tokens from the pool (as many as are left).",
            rules=("R2.6",)),
    _effect("discard-power", [P("house", "house"), P("amount", "int")],
            "{house} discards {amount} available power",
            "The house returns available power tokens to the pool (as many as it has).", rules=("R2.6",)),
    # combat strength and icons
    _effect("add-strength", [P("house", "house"), P("amount", "int")],
            "{house} gets {amount} combat strength",
            "Adds to the house's combat strength in the current combat.", windows=COMBAT_WINDOWS,
            rules=("R20.4",)),
    _effect("add-swords", [P("house", "house"), P("amount", "int")],
            "{house}'s card gets {amount} extra sword icons", "Extra sword icons for the current combat.",
            windows=COMBAT_WINDOWS, rules=("R21.2",)),
    _effect("add-fortifications", [P("house", "house"), P("amount", "int")],
            "{house}'s card gets {amount} extra fortification icons",
            "Extra fortification icons for the current combat.", windows=COMBAT_WINDOWS, rules=("R21.2",)),
    _effect("set-printed-strength", [P("card", "card"), P("value", "int")],
            "the printed combat strength of {card} counts as {value}",
            "Replaces a played card's printed strength for this combat (its text still applies).",
            windows=COMBAT_WINDOWS, rules=("R20.4",)),
    _effect("set-unit-strength", [P("units", "list:unit"), P("value", "int")],
            "{units} each count {value} combat strength",
            "Overrides the strength of these units in this combat (routed units stay at 0).",
            windows=COMBAT_WINDOWS, rules=("R20.2.3",)),
    _effect("set-final-strength", [P("house", "house"), P("value", "int")],
            "{house}'s final combat strength is {value}",
            "Sets the house's final combat strength in the current combat, overriding the sum of units, "
            "orders, support, card, Valyrian Steel Blade and every modifier (R20.5.2).",
            windows=COMBAT_WINDOWS, rules=("R20.5.2",)),
    # house cards
    _effect("return-played-card", [P("house", "house")],
            "{house}'s revealed house card goes back to its hand",
            "Cancels the house's revealed card: it returns to the hand, no ability of it resolves.",
            windows=("cancel", "immediately"), rules=("R20.2",)),
    _effect("discard-played-card", [P("house", "house")],
            "{house}'s revealed house card is discarded",
            "The house's revealed card goes to its discard pile without effect.",
            windows=("cancel", "immediately"), rules=("R20.2",)),
    _effect("reveal-another-card", [P("house", "house"), P("random", "bool", default=False)],
            "{house} reveals another house card from its hand{random}",
            "After a cancel: the house reveals a different card, chosen by it; with `random` true the "
            "card is instead picked at random from its whole hand, the cancelled card included. With "
            "no card to reveal it fights without a card (R20.3).", windows=("cancel", "immediately"),
            rules=("R20.2",)),
    _effect("ignore-text", [P("card", "card")],
            "{card} counts as having no text in this combat",
            "None of the card's abilities resolves in this combat (its printed strength and icons still "
            "count); nothing happens when no card is given.", windows=("cancel", "immediately"),
            rules=("R20.2.1",)),
    _effect("change-house-cards", [P("house", "house"), P("set", "card-set")],
            "{house} plays from now on with its cards of the set {set}",
            "The house's hand and discard pile are replaced by its cards of that set, all in hand (its removed "
            "cards stay out); nothing when the set holds none of its cards.", rules=("R21.5.4",)),
    _effect("swap-house-card", [P("house", "house"), P("old", "card"), P("new", "card")],
            "{house} swaps {old} for {new}",
            "The card `old`, in the house's hand or discard pile, leaves the game (with its removed cards) and "
            "`new`, another card of that house (of any set) that it does not hold, discard or have removed, takes "
            "its place there; nothing otherwise.", rules=("R21.5.4",)),
    _effect("return-discards-to-hand", [P("house", "house")],
            "{house} takes every card of its discard pile back into its hand",
            "The whole discard pile returns to the hand.", rules=("R21.5.4",)),
    _effect("take-from-discard", [P("house", "house"), P("card", "card")],
            "{house} takes {card} from its discard pile into its hand",
            "One discarded card returns to the hand.", rules=("R20.2",)),
    _effect("discard-from-hand", [P("house", "house"), P("card", "card")],
            "{house} discards {card} from its hand", "A card in hand goes to the discard pile.",
            rules=("R20.2",)),
    _effect("keep-played-card", [P("house", "house")],
            "{house} takes its played card back into its hand instead of discarding it",
            "The played card is not discarded after this combat.", rules=("R21.5.3",)),
    _effect("remove-from-game", [P("card", "card")],
            "{card} is removed from the game", "The card leaves the game for good (neither hand nor discards).",
            rules=("R43.1",)),
    # units
    _effect("destroy-unit", [P("unit", "unit")],
            "{unit} is destroyed", "Destroys one unit.", rules=("R2.4",)),
    _effect("destroy-units", [P("house", "house"), P("count", "int"),
                              P("in", "list:area", "only units in these areas (left out: anywhere; a list that "
                                "comes out empty: none)", required=False),
                              P("by", "house", "who chooses the units (default: their owner)", required=False),
                              P("same-area", "bool", "all destroyed units must share one area", default=False)],
            "{by} destroys {count} of {house}'s units{in}",
            "The chooser picks that many of the house's units (in the given areas, if any) and destroys "
            "them; fewer if the house has fewer.", rules=("R12.10",)),
    _effect("replace-unit", [P("unit", "unit"), P("kind", "unit-kind")],
            "{unit} is replaced by a {kind}",
            "Swaps the unit for one of the owner's available units of that kind, in the same place; "
            "if none is available, nothing happens.", rules=("R9.3",)),
    _effect("place-units", [P("house", "house"),
                            P("kind", "unit-kind", "absent: each unit is of the placer's choice among the "
                              "house's available kinds that may stand there", required=False),
                            P("count", "int", default=1),
                            P("in", "list:area", "allowed areas (default: areas the house controls or "
                              "holds units in; a list that comes out empty: nowhere)", required=False),
                            P("by", "house", "who places them (default: the house)", required=False)],
            "{by} places {count} {kind} of {house}{in}",
            "Puts available units on the board, obeying unit kinds per area type and supply; units not "
            "available (or not allowed by supply) are not placed.",
            rules=("R41.1", "R39.4")),
    _effect("prevent-casualties", [P("house", "house"),
                                   P("except-skulls", "bool", "true: Tides of Battle skulls still destroy units",
                                     default=False)],
            "{house} loses no units as casualties in this combat{except-skulls}",
            "Sword icons, card texts and (unless `except-skulls` is true) Tides of Battle skulls destroy none of "
            "the house's units. A standing protection for the whole combat: it also covers card texts "
            "resolved before the casualties step (an `immediately` destroy, for instance); units lost to "
            "retreat, routing or supply still die.",
            windows=COMBAT_WINDOWS, rules=("R21.2", "R29.3.5"), marks=("standing",)),
    _effect("prevent-routing", [P("house", "house")],
            "{house}'s units that retreat in this combat are not routed",
            "The house's units that retreat from this combat keep their strength and may march again "
            "(units already routed still cannot retreat, R21.3.5).",
            windows=COMBAT_WINDOWS, rules=("R21.4.1",)),
    _effect("choose-retreat-area", [P("house", "house"), P("by", "house")],
            "{by} chooses where {house} retreats",
            "The chooser picks the loser's retreat area among the legal ones with fewest losses.",
            windows=("retreat",), rules=("R21.3.7",)),
    _effect("prevent-advance", [], "the attacker's units stay in the area they marched from",
            "The winning attacker does not move into the embattled area.", windows=("retreat",),
            rules=("R21.5.1",)),
    _effect("force-retreat", [P("house", "house")],
            "{house}'s units retreat from the embattled area although it won",
            "The winning defender's units leave the embattled area as a losing defender's would (it picks a "
            "legal area, they are routed); the beaten attacker still goes back where it marched from, so "
            "nobody holds the area with units.", windows=("retreat",), rules=("R21.3.3", "R21.5.1")),
    _effect("keep-march-order", [P("house", "house")],
            "{house}'s march order moves with its army and may be resolved again",
            "The winning attacker's march order is not removed; it goes with the army.",
            windows=("after-combat",), rules=("R21.5.2",)),
    _effect("switch-support", [P("supporter", "house"), P("to", "house")],
            "{supporter}'s support in this combat goes to {to}",
            "Every support the house declared in the current combat now backs the named combatant instead "
            "(units and order bonus move with it).", windows=COMBAT_WINDOWS, rules=("R19.3",)),
    # orders
    _effect("remove-order", [P("area", "area")],
            "the order token in {area} is removed", "Removes the order token placed in the area.",
            rules=("R15.2",)),
    _effect("place-order", [P("house", "house"), P("area", "area"), P("order", "order")],
            "{house} places an unused {order} order token in {area}, replacing any order there",
            "One of the house's order tokens not on the board goes face up into the area, which must hold "
            "units of the house; an order already there is removed first. Nothing happens when the token "
            "is not available or the house has no units there.", rules=("R13.2", "R14.7")),
    _effect("forbid-orders", [P("types", "list:order", "the order tokens that may not be placed")],
            "no one may place {types} orders this Planning Phase",
            "A planning restriction for the coming Planning Phase.", rules=("R13.2",)),
    # tracks
    _effect("move-on-track", [P("house", "house"), P("track", "track"), P("to", "end")],
            "{house} moves to the {to} position of the {track} track",
            "Everyone between shifts by one; dominance tokens follow the new order.", rules=("R5.6",)),
    _effect("move-down-track", [P("house", "house"), P("track", "track"), P("places", "int")],
            "{house} moves down {places} places on the {track} track",
            "The house drops that many places (not past the last).", rules=("R5.6",)),
    _effect("move-up-track", [P("house", "house"), P("track", "track"), P("places", "int")],
            "{house} moves up {places} places on the {track} track",
            "The house climbs that many places (not past the first); the houses it passes drop one place "
            "each and dominance tokens follow the new order.", rules=("R5.6",)),
    _effect("take-dominance-token", [P("house", "house"), P("track", "track")],
            "{house} takes the dominance token of the {track} track", "", rules=("R5.4",)),
    _effect("seize-dominance-token", [P("house", "house"), P("token", "dominance-token")],
            "{house} takes the {token} token without moving on its track",
            "The house holds the dominance token (its powers included) while the track keeps its order, "
            "until that track is next bid for (or a house moves to its first place by an effect that takes "
            "the token).", rules=("R5.2", "R10.6")),
    _effect("move-supply", [P("house", "house"), P("steps", "int")],
            "{house} moves {steps} on the supply track",
            "Moves the supply marker (between 0 and 6), then reconciles armies.", rules=("R8.4",)),
    # victory (R26): points from other sources than castles
    _effect("gain-victory-points", [P("house", "house"), P("amount", "int", "negative: points taken")],
            "{house} gains {amount} victory points",
            "Points the victory track counts when the rules set's `victory-count` is points or "
            "castles-and-points; a house never goes below 0.", rules=("R26",)),
    # objectives (A Feast for Crows)
    _effect("deal-objectives", [P("count", "int", "objective cards each player house draws"),
                                P("keep", "int", "how many it keeps; it gives the others back")],
            "each house draws {count} objective cards and keeps {keep}",
            "Draws from the shuffled objective deck of the rules set (secret to each house); each house then "
            "gives back the ones it does not keep, and the deck is shuffled again.", rules=("R26",)),
    _effect("draw-objectives", [P("house", "house"), P("up-to", "int")],
            "{house} draws objective cards until it holds {up-to}",
            "Secret to the house; nothing when the deck is empty.", rules=("R26",)),
    _effect("score-objective", [P("house", "house")],
            "{house} may score one of its objectives it meets",
            "The house may reveal one objective of its hand whose condition holds: it gains the points the card "
            "gives it, and the card is scored.", rules=("R26",)),
    _effect("score-special-objective", [P("house", "house")],
            "{house} may score its special objective",
            "When the condition of the house's special objective holds, it may gain the points the card gives "
            "it (the card stays).", rules=("R26",)),
    # objectives changing hands (A Feast for Crows' Westeros cards Shifting Ambitions, New Information)
    _effect("return-objective", [P("house", "house")],
            "{house} gives one objective of its hand back into the deck",
            "The house chooses one objective of its hand (secret to it); the card goes into the objective deck, "
            "which is shuffled. Nothing when the hand is empty.", rules=("R26",)),
    _effect("exchange-objectives", [],
            "every house puts one objective into a pool, then each takes one from it in turn order",
            "Each player house with objectives in hand chooses one of them (secret to it) for the pool; the pool "
            "is shuffled and shown; then, in turn order, each of those houses takes one card of the pool into "
            "its hand.", rules=("R26",)),
    # phase procedures shared by several cards
    _effect("adjust-supply", [], "every house adjusts its supply and reconciles its armies",
            "Each house counts its supply icons, then reconciles in turn order.", rules=("R8.2", "R8.4")),
    _effect("draft-house-cards", [P("set", "card-set", "the card set whose cards (of the player houses) make "
                                    "the pool"),
                                  P("hand-size", "int", "how many cards each house drafts"),
                                  P("order", "list:house", "the picking order (default: the turn order)",
                                    default=[]),
                                  P("snake", "bool", "true: the order reverses every other turn", default=False)],
            "the houses draft {hand-size} house cards each from the cards of the set {set}",
            "A step before the game (`when game-start`): the pool is public; the houses pick one card at a time "
            "(each pick public) until each holds the hand size; each hand replaces the house's hand and discard "
            "pile.", windows=("game-start",), rules=("R4",)),
    _effect("assign-houses", [], "the players' seats are given houses at random",
            "A step before the game: the seat -> house mapping is drawn with the game's random generator "
            "(public; kept in the state for the frontends that seat players).", windows=("game-start",),
            rules=("R4",)),
    _effect("draft-influence", [P("order", "list:house", "the picking order (default: the turn order)",
                                  default=[])],
            "the houses draft their positions on the influence tracks",
            "A step before the game: track by track, each house in the order picks a free position (public); "
            "the dominance tokens go to the first places.", windows=("game-start",), rules=("R4", "R5.6")),
    _effect("muster", [P("house", "house"), P("in", "list:area", "areas to muster in (default: every "
                                              "castle or stronghold area it controls; a list that comes "
                                              "out empty: none)", required=False)],
            "{house} musters{in}", "Mustering points per castle/stronghold, spent under the usual rules.",
            rules=("R9",)),
    _effect("collect-power", [P("ports", "bool", "ports with ships also give power", default=True)],
            "every house gains power for the power icons it controls{ports}",
            "One power per power icon in controlled land areas (and per qualifying port).",
            rules=("R7.9", "R24.9")),
    _effect("bid-on-influence-tracks", [], "every house bids on the three influence tracks",
            "Clash-of-kings bidding, track by track.", rules=("R10",)),
    _effect("wildling-attack", [P("strength", "int", "default: the current threat", required=False),
                                P("excluded", "house", "a house that sits out", required=False)],
            "the wildlings attack{strength}", "A wildling attack: bids, then the top wildling card.",
            rules=("R11",)),
    _effect("advance-wildlings", [P("steps", "int", default=1)], "the wildling threat rises {steps}",
            "", rules=("R11.1",)),
    _effect("move-wildling-threat", [P("steps", "int", "spaces up (negative: down)")],
            "the wildling threat token moves {steps} spaces",
            "Moves the threat token along the wildling track (one space is 2 threat), staying on the track; "
            "reaching the top this way does not start a wildling attack.", rules=("R2.9", "R11.2")),
    _effect("reshuffle-and-redraw", [], "shuffle this deck, then reveal a new card in its place",
            "The card is shuffled back into its deck and a new card replaces it this round.", rules=("R7.2",),
            marks=("redraw-on-reveal",)),
    _effect("choose-one", [P("by", "house")], "{by} chooses one", "A choice among the `option` entries "
            "of the block; only options whose condition holds are offered.", block="options",
            rules=("R7.19",)),
    _effect("return-bid", [P("house", "house")], "{house} takes back the power it bid",
            "The house regains every power token it bid in the current bidding.", rules=("R12.9",)),
    _effect("arrange-deck-top", [P("house", "house"), P("deck", "deck"), P("count", "int"),
                                 P("min-bottom", "int", default=0)],
            "{house} looks at the top {count} cards of {deck} and puts at least {min-bottom} on the bottom",
            "The house sees the cards and orders them between the top and the bottom.", rules=("R41.5",)),
    _effect("look-at-deck", [P("house", "house"), P("deck", "deck"), P("count", "int", default=1)],
            "{house} looks at the top {count} cards of Westeros deck {deck}",
            "Only that house sees them (a secret event, like the Messenger Raven's look); the deck is not "
            "changed.", rules=("R13.5.2",)),
    _effect("look-at-wildling-cards", [P("house", "house"), P("count", "int", default=1)],
            "{house} looks at the top {count} wildling cards",
            "Only that house sees them (a secret event, like the Messenger Raven's look); the deck is not "
            "changed.", rules=("R13.5.2",)),
    _effect("look-at-hand", [P("house", "house"), P("of", "house", "the house whose hand is shown")],
            "{house} looks at the house cards in {of}'s hand",
            "Only the looking house sees them (a secret event, like the Messenger Raven's look); the hand is not "
            "changed.", rules=("R13.5.2",)),
    _effect("look-at-orders", [P("house", "house"),
                               P("of", "house", "only the orders of this house (left out: every house's)",
                                 required=False),
                               P("in", "list:area", "only the orders in these areas (left out: anywhere)",
                                 required=False)],
            "{house} looks at the face-down orders{of}{in}",
            "Only the looking house sees the orders on the board (a secret event, like the Messenger Raven's "
            "look), before or after the reveal; nothing changes. Its own orders are left out: it knows them.",
            rules=("R13.5.2",)),
    _effect("search-deck", [P("house", "house"), P("deck", "deck")],
            "{house} looks through Westeros deck {deck}: a card of its choice goes on top of the shuffled rest",
            "The house picks any undrawn card of the deck; the other undrawn cards are shuffled and the "
            "picked card is put face down on top of them.", rules=("R6.2.2",)),
    # Mother of Dragons
    _effect("place-loyalty", [P("area", "area"), P("count", "int", default=1)],
            "put {count} loyalty token in {area}", "Loyalty tokens from the supply (skipped when none is left).",
            rules=("R37",)),
    _effect("move-loyalty", [P("from", "area"), P("to", "area")],
            "move a loyalty token from {from} to {to}", "", rules=("R39.5",)),
    _effect("improve", [P("area", "area"), P("improvement", "improvement")],
            "put a {improvement} improvement in {area}", "The area counts the matching icon once more.",
            rules=("R42.3",)),
    _effect("degrade", [P("area", "area"), P("icon", "icon")],
            "degrade the {icon} of {area}", "The icon counts as absent from now on.", rules=("R42.3",)),
    _effect("advance-dragon-strength", [], "move one dragon strength token into the dragon box now",
            "Every dragon gains 1 strength at once.", rules=("R38",)),
    _effect("revive-unit", [P("house", "house"), P("kind", "unit-kind"), P("in", "area")],
            "put a destroyed {kind} of {house} back in {in}", "Only if supply allows.", rules=("R38",)),
]

# ---- primitives: queries ------------------------------------------------------------------------
_QUERIES = [
    # combat
    _query("is-winner", [P("house", "house")], "bool", "{house} wins the combat", "", ("R20.6",)),
    _query("is-loser", [P("house", "house")], "bool", "{house} loses the combat", "", ("R20.6",)),
    _query("is-attacker", [P("house", "house")], "bool", "{house} is the attacker", "", ("R19.1",)),
    _query("is-defender", [P("house", "house")], "bool", "{house} is the defender", "", ("R19.1",)),
    _query("is-supported", [P("house", "house")], "bool", "{house} is supported in this combat",
           "True while at least one support given to the house stands.", ("R19.3",)),
    _query("supporters", [P("house", "house")], "list:house", "the houses supporting {house}", "", ("R19.3",)),
    _query("combat-margin", [], "int", "the difference between the final combat strengths", "", ("R20.6",)),
    _query("final-strength", [P("house", "house")], "int", "{house}'s final combat strength", "", ("R20.5",)),
    _query("combat-units", [P("house", "house", required=False), P("kind", "unit-kind", required=False),
                            P("role", "role", default="fighting")], "list:unit",
           "{role} {kind} units of {house} in this combat",
           "Units taking part in the current combat: fighting (attacking or defending), supporting, or all.",
           ("R19",)),
    _query("is-transported-attack", [], "bool", "the attack came by ship transport", "", ("R17",)),
    _query("played-card", [P("house", "house")], "card", "the house card {house} played", "", ("R20.1",)),
    _query("has-played-card", [P("house", "house")], "bool", "{house} fights with a house card",
           "False when the house fights without a card (nothing left to reveal after a cancel).",
           ("R20.3",)),
    _query("retreat-area", [P("house", "house")], "area", "the area {house}'s army retreated to",
           "Where the losing army retreated in this combat (a losing attacker: the area it marched "
           "from); none when no unit of it retreated.", ("R21.3",)),
    _query("printed-strength", [P("card", "card")], "int", "the printed combat strength of {card}", ""),
    _query("printed-swords", [P("card", "card")], "int", "the sword icons printed on {card}", ""),
    _query("printed-fortifications", [P("card", "card")], "int", "the fortification icons printed on {card}", ""),
    _query("order-value", [P("area", "area")], "int", "the value of the order in {area}", "", ("R14",)),
    _query("has-order", [P("area", "area"), P("type", "order-type"), P("house", "house", required=False)],
           "bool", "{house} has a {type} order in {area}", "", ("R14",)),
    _query("order-areas", [P("house", "house"), P("near", "area", "only areas adjacent to this one",
                                                    required=False)],
           "list:area", "the areas holding {house}'s order tokens{near}", "", ("R14",)),
    _query("unused-orders", [P("house", "house"), P("among", "list:order", "only these tokens (a list that comes out "
                                                            "empty: none)", required=False)],
           "list:order", "{house}'s order tokens not on the board{among}",
           "The ids of the house's order tokens that are not placed on the board now (each id once).",
           ("R14.6",)),
    # cards
    _query("hand", [P("house", "house")], "list:card", "the house cards in {house}'s hand", ""),
    _query("discard-pile", [P("house", "house")], "list:card", "{house}'s discarded house cards", ""),
    _query("house-cards", [P("house", "house"), P("set", "card-set")], "list:card",
           "{house}'s house cards of the set {set}",
           "Every card of the set that belongs to the house, by id, wherever it is (in hand, discarded, removed or "
           "never dealt)."),
    _query("discard-piles", [P("houses", "list:house")], "list:card", "the discarded house cards of {houses}",
           "Every card in the discard piles of these houses, house by house."),
    _query("weakest", [P("cards", "list:card")], "list:card", "the lowest-strength cards among {cards}", ""),
    _query("strongest", [P("cards", "list:card")], "list:card", "the highest-strength cards among {cards}", ""),
    _query("card-with-strength", [P("cards", "list:card"), P("strength", "int")], "list:card",
           "the cards of {cards} with printed strength {strength}", ""),
    _query("cards-with-strength-at-most", [P("cards", "list:card"), P("strength", "int")], "list:card",
           "the cards of {cards} with printed strength {strength} or less", ""),
    # board
    _query("units", [P("house", "house", "absent: the units of every house", required=False),
                     P("kind", "unit-kind", required=False),
                     P("in", "list:area", "only units in these areas (left out: anywhere; a list "
                       "that comes out empty: none)", required=False)], "list:unit", "{house}'s {kind} units{in}",
           "Units on the board; combine with `without(...)` to leave some out."),
    _query("area-of", [P("unit", "unit")], "area", "the area {unit} is in", ""),
    _query("available-units", [P("house", "house"), P("kind", "unit-kind")], "int",
           "the number of {kind} pieces {house} has off the board",
           "Pieces of that kind not on the board: available to muster or place (R9.6); for Dragons, "
           "the destroyed ones (R38.2).", ("R9.6", "R38.2")),
    _query("areas", [P("controlled-by", "house", required=False), P("with", "icon", required=False),
                     P("kind", "text", "land, sea or port", required=False),
                     P("uncontrolled", "bool", default=False),
                     P("side", "text", "westeros or essos: only areas of that board", required=False),
                     P("neutral-force", "bool", "true: only areas holding a neutral force token; false: "
                       "only areas without one", required=False),
                     P("min-units", "int", "only areas holding at least this many units", required=False)],
           "list:area", "the {kind} areas{with}{controlled-by}{side}{neutral-force}{min-units}",
           "Areas of the board in play, filtered by every argument given."),
    _query("adjacent", [P("area", "area"), P("kind", "text", "land, sea or port", required=False)],
           "list:area", "the {kind} areas adjacent to {area}", "", ("R3.2",)),
    _query("has-icon", [P("area", "area"), P("icon", "icon")], "bool", "{area} has a {icon}", ""),
    _query("has-power-token", [P("area", "area"), P("house", "house", "absent: any house's token", required=False)],
           "bool", "{area} holds {house}'s power token",
           "A power token placed on the board to mark control of the area.", ("R23",)),
    _query("is-kind", [P("area", "area"), P("kind", "text")], "bool", "{area} is a {kind} area", ""),
    _query("controls", [P("house", "house"), P("area", "area")], "bool", "{house} controls {area}", ""),
    _query("home-area", [P("house", "house")], "area", "{house}'s home area", ""),
    _query("loyalty-areas", [P("next-to", "text", "land, sea or port: only areas next to an area of that kind "
                               "(where a token could be moved)", required=False)],
           "list:area", "the areas holding loyalty tokens{next-to}", "", ("R37.5", "R39.5")),
    _query("river-areas", [], "list:area", "the land areas next to a river", ""),
    # houses and tracks
    _query("position", [P("house", "house"), P("track", "track")], "int",
           "{house}'s position on the {track} track", "Position 1 is the top.", ("R5",)),
    _query("highest-track", [P("house", "house")], "track", "the influence track where {house} stands highest", ""),
    _query("power", [P("house", "house")], "int", "{house}'s available power", ""),
    _query("victory-points", [P("house", "house")], "int", "{house}'s position on the victory track", ""),
    _query("bid", [P("house", "house")], "int", "the power {house} bid", ""),
    _query("wildling-threat", [], "int", "the current wildling threat",
           "The number the wildling threat token shows (0 to 12).", ("R11.2",)),
    _query("westeros-decks", [], "list:deck", "the Westeros decks still holding undrawn cards",
           "The decks in play, in order, that have cards left to draw.", ("R6.2.2",)),
    _query("others", [P("house", "house")], "list:house", "every house but {house}", ""),
    _query("player-houses", [], "list:house", "the player houses (not vassals)", ""),
    _query("vassals", [], "list:house", "the vassal houses", ""),
    _query("turn-order", [P("reverse", "bool", default=False)], "list:house",
           "the houses in turn order{reverse}", "Iron Throne order.", ("R5.2",)),
    _query("is-vassal", [P("house", "house")], "bool", "{house} is a vassal", ""),
    _query("commander", [P("house", "house")], "house", "the commander of {house}", ""),
    _query("holder", [P("token", "dominance-token")], "house", "the holder of the {token}", ""),
    _query("is-in-play", [P("house", "house")], "bool", "{house} is in the game", ""),
    _query("count", [P("items", "list:any")], "int", "the number of {items}", ""),
    _query("numbers", [P("from", "int"), P("to", "int")], "list:int", "the whole numbers from {from} to {to}",
           "Every whole number from the first to the second, both included (empty when the second is smaller)."),
    _query("contains", [P("items", "list:any"), P("item", "any")], "bool", "{items} include {item}",
           "True when the item is one of the list's items."),
    _query("without", [P("items", "list:any"), P("removed", "list:any")], "list:any",
           "{items} other than {removed}",
           "The items of the first list, in order, that are not in the second."),
    _query("has-most", [P("house", "house"), P("measure", "measure")], "bool",
           "{house} has more {measure} than each other player house",
           "Strictly more than every other player house: land-areas, sea-areas and ports it controls, castles "
           "and strongholds it controls (each counted apart), ships on the board, power-tokens on the board, "
           "available-power, victory-points.", ("R26",)),
    _query("has-fewest", [P("house", "house"), P("measure", "measure")], "bool",
           "{house} has fewer {measure} than each other player house",
           "Strictly fewer than every other player house (the measures of has-most).", ("R26",)),
    _query("supply", [P("house", "house")], "int", "{house}'s position on the supply track", "", ("R8",)),
    _query("objectives-in-hand", [P("house", "house")], "int", "the number of objective cards {house} holds", ""),
    _query("objectives-scored", [P("house", "house")], "int", "the number of objectives {house} has scored", ""),
    _query("has-dragon-token-left", [], "bool", "a dragon strength token is still on the round track", ""),
]

PRIMITIVES: dict[str, Primitive] = {p.name: p for p in _EFFECTS + _QUERIES}

# Words an expression may use as values without a call: the language's own enumerations.
ENUM_VALUES: dict[str, str] = {v: t for t, vs in ENUMS.items() for v in vs}


def effects() -> list[Primitive]:
    return [p for p in PRIMITIVES.values() if p.kind == "effect"]


def queries() -> list[Primitive]:
    return [p for p in PRIMITIVES.values() if p.kind == "query"]


def types_compatible(got: str, expected: str) -> bool:
    """May a value of type `got` stand where `expected` is asked (`any` matches all; lists by their items)?"""
    if expected in ("any", None) or got == "any":
        return True
    if got == expected:
        return True
    if expected.startswith("list:") and got.startswith("list:"):
        return types_compatible(got[5:], expected[5:])
    return False
