"""Declaration kinds: which entries may appear where, with which values.

Every top-level entry of a content file is a declaration (`house-card tywin-lannister "..." { ... }`);
its block holds keys (`strength 4`), nested declarations (`area ...` in a board) and, for cards,
effect statements. The checker reads this table; docs/dsl.md's kind reference is generated from it.

Value types of keys (see check.py for their checking):
  int, nat (a whole number, 0 or more), text (a "string"), name (a free word), id (the declaration's own new id),
  ref:K (the id of a declared K: ref:area, ref:house, ...), enum:a|b|c, list:T, effect (a block of
  effect statements), and for nested declarations the nested kind's name.
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class Key:
    name: str
    values: tuple[str, ...] = ()  # value types in order; () for a flag
    required: bool = False
    repeat: bool = False  # may appear several times (collected into a list)
    block: str | None = None  # "effect", or the kind whose keys the block holds
    block_required: bool = False
    doc: str = ""
    # How a patch (a declaration `from` another, or a variant's `patch`) matches a repeated entry of the
    # parent: by its first `ident` values (`garrison winterfell 2` restated replaces `garrison winterfell 4`).
    # None: the default (1 for repeated keys with two or more values, else 0: the entry is appended).
    ident: int | None = None
    inherit: bool = True  # False: a derived declaration does not take this key from its parent


@dataclass(frozen=True)
class Kind:
    name: str
    doc: str
    keys: dict[str, Key] = field(default_factory=dict)
    has_id: bool = True  # `kind ID "Name"`; False for keyless blocks (unit counts)
    has_name: bool = True
    top_level: bool = True
    effect_context: str | None = None  # `when` abilities allowed directly in the block
    collection: str = ""  # the bundle section it compiles into
    json_key: str = ""  # the id namespace other declarations refer to (ref:…)


def _k(name, *values, required=False, repeat=False, block=None, block_required=False, doc="", ident=None,
       inherit=True):
    return Key(name, tuple(values), required, repeat, block, block_required, doc, ident, inherit)


def _kind(name, doc, *keys, collection="", top_level=True, has_id=True, has_name=True, effect_context=None):
    return Kind(name, doc, {k.name: k for k in keys}, has_id, has_name, top_level, effect_context,
                collection)


UNIT_KIND_NAMES = "ref:unit-kind"

# Board geometry is content too: where the area's marker sits on the picture of the board (render, view).
_AT_DOC = ("where the area's marker is drawn, `at X Y` in map units: x grows east, y grows south; Westeros spans "
           "about 0-1000 by 0-1500 and the Essos side board lies east of it (x 1050-1450)")

_AREA_KEYS = (
    _k("land", doc="a land area"),
    _k("sea", doc="a sea area"),
    _k("side", "enum:westeros|essos", doc="which board the area is printed on (default westeros)"),
    _k("castle", doc="a castle (1 mustering point, 1 victory point)"),
    _k("stronghold", doc="a stronghold (2 mustering points, 1 victory point)"),
    _k("supply", "nat", doc="supply (barrel) icons"),
    _k("power", "nat", doc="power (crown) icons"),
    _k("home", "ref:house", doc="the house whose home area it is"),
    _k("garrison", "nat", doc="strength of the garrison token printed for a home area"),
    _k("neutral-force", "nat", doc="strength of the 6-player neutral force token"),
    _k("loyalty-token", doc="a loyalty token is printed in the area (Pentos)"),
    _k("garrison-returns", doc="the garrison comes back when the home house retakes the area"),
    _k("river", doc="the area lies next to a river (Watering the Seed, R39.9)"),
    _k("at", "nat", "nat", doc=_AT_DOC),
)

_PORT_KEYS = (
    _k("of", "ref:area", required=True, doc="the land area the port belongs to"),
    _k("on", "ref:area", required=True, doc="the sea area the port opens on"),
    _k("side", "enum:westeros|essos", doc="which board the port is printed on (default westeros)"),
    _k("at", "nat", "nat", doc=_AT_DOC),
)

_BOARD_BODY = (
    _k("area", "id", "text", repeat=True, block="area", doc="declares an area"),
    _k("port", "id", "text", repeat=True, block="port", doc="declares a port"),
    _k("border", "ref:area", "ref:area", repeat=True, doc="the two areas share a border"),
)

KINDS: dict[str, Kind] = {
    k.name: k
    for k in (
        # ---- the map ------------------------------------------------------------------------
        _kind("board", "A complete game board: areas, ports and borders, or a base board plus overlays.",
              _k("description", "text"),
              _k("extends", "ref:board", doc="start from this board"),
              _k("apply", "ref:overlay", repeat=True, doc="apply an overlay, in order"),
              *_BOARD_BODY, collection="boards"),
        _kind("overlay", "A change to a board: areas added, changed or removed; borders added or removed; "
              "sea links to a side board.",
              _k("description", "text"),
              *_BOARD_BODY,
              _k("change", "ref:area", repeat=True, block="area-change",
                 doc="changes attributes of an existing area"),
              _k("remove-area", "ref:area", repeat=True, doc="removes an area and its borders"),
              _k("remove-border", "ref:area", "ref:area", repeat=True, doc="removes an existing border"),
              _k("link", "ref:area", "ref:area", repeat=True,
                 doc="a border between seas of two boards (Westeros–Essos)"),
              collection="overlays"),
        _kind("area", "A land or sea area.", *_AREA_KEYS, top_level=False),
        _kind("area-change", "New values for an existing area's attributes.", *_AREA_KEYS,
              _k("name", "text", doc="a new display name"),
              _k("no-castle", doc="removes the castle or stronghold"),
              _k("no-neutral-force", doc="removes the printed neutral force token"),
              _k("of", "ref:area", doc="a port's new land area"),
              _k("on", "ref:area", doc="a port's new sea area"),
              top_level=False, has_id=False, has_name=False),
        _kind("port", "A port: a special area between one land area and one sea area.", *_PORT_KEYS,
              top_level=False),
        # ---- houses, units, tracks and tables --------------------------------------------
        _kind("unit-kind", "A kind of unit (footman, knight, ship, siege engine, dragon).",
              _k("strength", "nat", required=True, doc="combat strength"),
              _k("domain", "enum:land|sea", required=True, doc="where the unit moves"),
              _k("muster-cost", "nat", doc="mustering points to raise it (absent: cannot be mustered)"),
              _k("upgrade-from", "ref:unit-kind", doc="may be mustered by upgrading this kind"),
              _k("only-vs-castles", doc="its strength counts only when attacking a castle or stronghold"),
              _k("flies", doc="may march to any land area"),
              collection="unit_kinds"),
        _kind("house", "A great house: home area, piece limits, starting values.",
              _k("home", "ref:area", required=True),
              _k("expansion", "enum:base|mother-of-dragons", required=True),
              _k("starting-supply", "nat", required=True),
              _k("starting-victory-points", "nat", required=True),
              _k("power-tokens", "nat", required=True, doc="power tokens the house owns in all"),
              _k("unit-limit", "ref:unit-kind", "nat", repeat=True, doc="pieces of this kind in the box"),
              _k("never-vassal", doc="the house is never a vassal"),
              _k("last-on-tracks", doc="fixed in the last position of every influence track (R36.2)"),
              _k("victory-by", "enum:castles|loyalty", doc="what its victory track counts (default castles)"),
              _k("gives-away-bids", doc="after influence bids are revealed it hands its bid to other houses (R36.4)"),
              collection="houses"),
        _kind("track", "An influence track and the dominance token of its top.",
              _k("dominance-token", "id", "text", required=True,
                 doc="the id and name of the token held by the house in position 1 (R5.2)"),
              _k("dominance-text", "text", doc="what the dominance token does"),
              _k("ties", "text", doc="which ties the track (or its token) decides"),
              collection="tracks"),
        _kind("table", "A table of numbers: each row is a key and a list of numbers.",
              _k("description", "text"),
              _k("row", "name", "list:int", repeat=True, required=True),
              collection="tables"),
        _kind("order", "An order token kind.",
              _k("description", "text", doc="what the token does, in words"),
              _k("set", "enum:house|sea|vassal", required=True,
                 doc="house: the 15 tokens of every house; sea: the 3 blue MoD tokens of every house; "
                 "vassal: one set of four vassal tokens"),
              _k("type", "enum:march|defense|support|raid|consolidate-power|iron-bank|raid-or-support"
                 "|defense-or-muster", required=True),
              _k("value", "int", doc="the printed modifier"),
              _k("support-value", "int", doc="the support modifier of a raid-or-support token"),
              _k("defense-value", "int", doc="the defense modifier of a defense-or-muster token"),
              _k("star", doc="a special (starred) order"),
              _k("copies", "nat", required=True,
                 doc="tokens of this kind per house (per set for vassal tokens)"),
              _k("sea-only", doc="resolved only in a sea area or a port holding a ship"),
              _k("resolves-at", "enum:consolidate-power",
                 doc="resolved with consolidate power orders "
                 "(for a defense-or-muster token: its muster part)"),
              _k("raidable-by", "list:ref:order",
                 doc="the only raid orders that may remove it (absent: by its type, R14.4)"),
              _k("raid-gives-power", "enum:yes|no",
                 doc="whether raiding it moves a power token from its owner to the raider"),
              _k("restriction", "enum:cannot-enter-port|cannot-enter-commander-areas"
                 "|cannot-enter-fellow-vassal-areas", repeat=True, doc="where a march may not go"),
              collection="orders"),
        _kind("game", "The numbers of one rules set (base or Mother of Dragons).",
              _k("description", "text"),
              _k("victory-points", "nat", required=True),
              _k("max-rounds", "nat", required=True),
              _k("wildling-track", "list:int", required=True),
              _k("wildling-start", "nat", required=True),
              _k("supply-limits", "ref:table", required=True),
              _k("kings-court-stars", "ref:table", required=True),
              _k("tiebreakers", "list:enum:most-castles-and-strongholds|most-land-areas|highest-supply"
                 "|highest-iron-throne|most-victory-points|most-power", required=True,
                 doc="the end-of-game ranking, in order (R26.3): the first decides, the next break its ties"),
              _k("victory-threshold", "ref:house", "nat", repeat=True, ident=1,
                 doc="this house wins at this many victory points instead of victory-points (e.g. a loyalty "
                     "house's own threshold)"),
              _k("victory-check", "enum:at-once|end-of-round|end-of-game",
                 doc="when a house reaching its threshold wins: at once (default, R26.1), at the end of a round "
                     "(the most points first, ties by the tiebreakers), or never before the last round"),
              _k("victory-count", "enum:castles|points|castles-and-points",
                 doc="what the victory track counts: castles and strongholds (or loyalty; default), the points "
                     "effects give (gain-victory-points), or both added"),
              _k("orders-per-house", "nat", doc="house order tokens (set house) of each house"),
              _k("order-sets", "list:enum:house|sea|vassal", required=True,
                 doc="the sets of order tokens in play"),
              _k("vassal-order-sets", "nat", doc="sets of four vassal order tokens in the box"),
              _k("vassal-supply", "nat", doc="supply position of every vassal at setup"),
              _k("vassal-orders-per-vassal", "nat", doc="order tokens a commander places for each vassal (R34.1)"),
              _k("loyalty-tokens", "nat", doc="loyalty tokens in the box"),
              _k("tracks", "list:ref:track", required=True, doc="the influence tracks in play"),
              _k("turn-order-track", "ref:track", required=True,
                 doc="the track that gives the turn order and whose top decides the Westeros ties (R1.5)"),
              _k("blade-track", "ref:track", required=True,
                 doc="the track that breaks combat ties; its top holds the blade (R20.6)"),
              _k("raven-track", "ref:track", required=True,
                 doc="the track that sets the special orders; its top holds the raven (R12.1)"),
              _k("westeros-decks", "list:enum:i|ii|iii|iv", required=True,
                 doc="every Westeros deck the rules set knows (a setup may use fewer)"),
              _k("decks", "list:ref:deck",
                 doc="decks played instead of the standard deck of the same slot (Westeros I-IV, wildlings)"),
              _k("tides-of-battle", "enum:yes|no", doc="the Tides of Battle option (R29) is in play (default no)"),
              _k("wildlings", "enum:yes|no", doc="wildling attacks happen (default yes)"),
              _k("raven-swap", "enum:yes|no",
                 doc="the Messenger Raven may replace one of its holder's orders (default yes; no: it may only "
                     "look at the top wildling card, R13.5)"),
              _k("port-capacity", "nat", required=True, doc="the most ships a port holds (R24.3)"),
              _k("house-cards-per-house", "nat",
                 doc="how many house cards each house is dealt; a deck of another size does not compile"),
              _k("house-card-sets", "list:ref:card-set", required=True,
                 doc="the house card sets each house plays with (its cards of these sets)"),
              _k("vassal-card-set", "ref:card-set", doc="the shared vassal deck"),
              _k("vassal-hand-size", "nat", doc="vassal cards drawn for each combat (R35.2)"),
              _k("loan-costs", "list:nat", doc="the power cost of the Iron Bank slots, oldest slot first (R40.2)"),
              _k("loan-discount-area", "ref:area", doc="whoever first takes (or holds) it pays less for loans"),
              _k("loan-discount", "nat", doc="the discount on a loan's cost (R40.7)"),
              _k("objectives", "list:ref:objective",
                 doc="the objective cards in play: the others form the shuffled objective deck, each special one "
                     "belongs to its house"),
              _k("game-abilities", "list:ref:game-ability",
                 doc="the game abilities in play: effects at moments of the procedure (dsl/moments.py)"),
              collection="games"),
        _kind("setup", "A starting position for a player count: houses, tracks, units, neutral forces.",
              _k("game", "ref:game", required=True),
              _k("board", "ref:board", required=True),
              _k("players", "nat", required=True),
              _k("houses", "list:ref:house", required=True,
                 doc="every house in the game, players and vassals"),
              _k("vassals", "nat", doc="how many of the houses are vassals, not players (default 0)"),
              _k("power-tokens", "nat", required=True, doc="available power of each player at the start"),
              _k("kings-court-stars", "name", doc="the row of the stars table used"),
              _k("westeros-decks", "list:enum:i|ii|iii|iv", doc="the decks used (absent: the game's)"),
              _k("iron-bank", doc="the Iron Bank and its loans are in play"),
              _k("players-use-vassal-starts",
                 doc="players use the vassal setup cards: every house with a vassal setup card (`as vassal` "
                     "starts) starts with those units, players too, instead of its own; a house without one "
                     "keeps its own"),
              _k("loan-deck", "list:ref:loan", doc="the loans of the Iron Bank's deck (absent: every loan)"),
              _k("dragon-strength-rounds", "list:int", doc="round spaces holding a dragon strength token"),
              _k("loyalty-token", "ref:area", "nat", repeat=True, doc="loyalty tokens placed at the start"),
              _k("neutral-force", "ref:area", "nat", repeat=True),
              _k("garrison", "ref:area", "nat", repeat=True),
              _k("blocked", "list:ref:area", doc="impassable areas"),
              _k("influence", "ref:track", "list:ref:house", repeat=True, required=True,
                 doc="the starting order of a track, position 1 first"),
              _k("start", "ref:house", "ref:area", repeat=True, block="units", block_required=True, ident=2,
                 doc="starting units of a house in an area (`as vassal` inside: from its vassal setup card)"),
              _k("house", "house-or-every", repeat=True, block="house-start", block_required=True,
                 doc="per-house starting values (`house [a, b] { ... }`: the same for each house listed; "
                     "`house every { ... }`: for each house of the setup)"),
              _k("note", "text", repeat=True),
              collection="setups"),
        _kind("house-start", "Starting values of one house (or of every house) in a setup.",
              _k("power", "nat", doc="its starting power instead of the setup's power-tokens"),
              _k("garrison", "nat", doc="the strength of its home garrison"),
              _k("garrison-bonus", "int", doc="added to the strength of its home garrison"),
              _k("loan", "loan-or-random", repeat=True,
                 doc="a loan it starts with (`random`: the top of the shuffled loan deck); needs iron-bank"),
              _k("replace-unit", "ref:unit-kind", "ref:unit-kind", repeat=True,
                 doc="one starting unit of the first kind becomes one of the second (the first area, in "
                     "written order, holding one)"),
              _k("add-units", "ref:area", repeat=True, block="units", block_required=True,
                 doc="extra starting units in an area"),
              _k("supply", "nat", doc="its starting position on the supply track instead of the house's own"),
              _k("power-token", "ref:area", repeat=True, ident=1,
                 doc="a power token of its own on the board in this land area at the start (it controls the area; "
                     "the token comes from its pool)"),
              top_level=False, has_id=False, has_name=False),
        _kind("units", "Unit counts: `footman 1  knight 1`.", _k("footman", "nat"), _k("knight", "nat"),
              _k("ship", "nat"), _k("siege-engine", "nat"), _k("dragon", "nat"),
              _k("as", "enum:player|vassal",
                 doc="whose start it is: the player's screen (default) or the vassal setup card"),
              top_level=False, has_id=False, has_name=False),
        # ---- cards ---------------------------------------------------------------------------
        _kind("card-set", "A set of house cards (a deck per house, or the shared vassal deck).",
              _k("description", "text"),
              _k("vassal", doc="the shared vassal deck"),
              _k("card", "ref:card", repeat=True, ident=1,
                 doc="a card of the set besides those whose `set` names it (a derived set lists its parent's)"),
              collection="card_sets"),
        _kind("deck", "A Westeros or wildling deck: the standard deck of a slot, or one derived from it.",
              _k("description", "text"),
              _k("westeros", "enum:i|ii|iii|iv", doc="the Westeros deck slot it fills"),
              _k("wildling", doc="the wildling deck"),
              _k("card", "ref:deck-card", "nat", repeat=True, ident=1,
                 doc="a card and its copies, besides the standard members of the slot"),
              collection="decks"),
        _kind("house-card", "A house card: strength, icons and an optional ability.",
              _k("set", "ref:card-set", required=True, inherit=False,
                 doc="its set (a card derived with `from` names its own, or belongs to the sets that list it)"),
              _k("house", "ref:house", required=True),
              _k("strength", "nat", required=True),
              _k("swords", "nat"),
              _k("fortifications", "nat"),
              collection="house_cards", effect_context="combat"),
        _kind("vassal-card", "A vassal house card (the shared vassal deck).",
              _k("set", "ref:card-set", required=True),
              _k("strength", "nat", required=True),
              _k("swords", "nat"),
              _k("fortifications", "nat"),
              collection="house_cards", effect_context="combat"),
        _kind("westeros-card", "A Westeros card of deck I, II, III or IV.",
              _k("deck", "enum:i|ii|iii|iv", required=True),
              _k("copies", "nat"),
              _k("wildling-icon"),
              _k("banner", "list:ref:area", doc="loyalty banner areas (deck IV): a token is placed in each first"),
              _k("effect", block="effect:westeros", block_required=True),
              collection="westeros_cards"),
        _kind("wildling-card", "A wildling card: what happens to the lowest bidder, everyone else, or "
              "the highest bidder on a Night's Watch victory.",
              _k("lowest-bidder", block="effect:wildling", block_required=True),
              _k("everyone-else", block="effect:wildling", block_required=True),
              _k("night-watch-victory", block="effect:wildling", block_required=True),
              collection="wildling_cards"),
        _kind("variant", "A variant: patches of content (a rules set, setups, houses, cards, decks) played "
              "together (no engine change).",
              _k("description", "text"),
              _k("game", "ref-or-list:game", required=True,
                 doc="the rules set it changes, or a list of rules sets `[base, mother-of-dragons]`: a rule option "
                     "played with each (`patch game every` patches each; the first is the bundle's `game`)"),
              _k("house-card-sets", "list:ref:card-set", doc="replaces the rules set's house card sets"),
              _k("vassal-card-set", "ref:card-set", doc="replaces the rules set's vassal deck"),
              _k("setups", "list:ref:setup",
                 doc="the setups it plays (absent: every setup of its rules set); a setup derived `from` "
                     "another is played in its place"),
              _k("patch", "name", "patch-target", repeat=True, block="*", block_required=True, ident=2,
                 doc="changes a declaration in place for this variant: `patch house arryn { power-tokens 19 }`; "
                     "the target may be a list of ids or `every` (`patch setup every`: every setup of its rules "
                     "sets; `patch game every`: each of its rules sets)"),
              collection="variants"),
        _kind("tides-card", "A Tides of Battle card (optional rule R29): drawn by each combatant.",
              _k("strength", "nat", required=True),
              _k("swords", "nat"),
              _k("fortifications", "nat"),
              _k("skulls", "nat", doc="each makes the opponent lose one fighting unit"),
              _k("copies", "nat", required=True),
              collection="tides_cards"),
        _kind("objective", "An objective card (A Feast for Crows): a condition on the position (`condition EXPR`, "
              "with `house` bound to the house that would score it) and the victory points it gives each house. "
              "A rules set plays those it lists in `objectives`; a `special` objective belongs to one house and "
              "stays in front of it.",
              _k("text", "text", doc="the card's text, in words"),
              _k("points", "ref:house", "nat", repeat=True, ident=1,
                 doc="the victory points it gives this house when scored (absent: 0)"),
              _k("special", "ref:house", doc="the special objective of this house (never dealt, scored every round)"),
              collection="objectives"),
        _kind("game-ability", "Game-wide abilities: effects the procedure runs at its declared moments "
              "(`when MOMENT [if CONDITION] { ... }`, dsl/moments.py), in play when the rules set lists them in "
              "`game-abilities`.",
              _k("description", "text", doc="what the abilities do, in words"),
              collection="game_abilities", effect_context="game"),
        _kind("loan", "A loan of the Iron Bank of Braavos.",
              _k("effect", block="effect:loan", block_required=True),
              collection="loans"),
    )
}

# What a `ref:K` may name: kinds declared at top level, plus areas and ports (declared inside boards).
REF_KINDS = {
    "area": ("area", "port"),
    "board": ("board",),
    "overlay": ("overlay",),
    "house": ("house",),
    "unit-kind": ("unit-kind",),
    "track": ("track",),
    "table": ("table",),
    "order": ("order",),
    "game": ("game",),
    "card-set": ("card-set",),
    "setup": ("setup",),
    "loan": ("loan",),
    "deck": ("deck",),
    "card": ("house-card", "vassal-card"),
    "deck-card": ("westeros-card", "wildling-card"),
    "game-ability": ("game-ability",),
    "objective": ("objective",),
}

# Entries that change a parent's entries in a patch (alone on their line, any number of values):
# `remove garrison winterfell`, `replace card aeron-damphair-dwd my-aeron`.
PATCH_OPS = ("remove", "replace")

# A flag of a patch block: the patch's `when` abilities are added to the parent's instead of replacing them
# (`patch house-card [a, b] { add-abilities  when after-combat { ... } }`).
ADD_ABILITIES = "add-abilities"

# The word that makes a patch or a per-house block apply to every declaration (house) in reach.
EVERY = "every"

# The words of patches, highlighted by editors like the grammar's keywords: `setup a "A" from b { ... }`.
PATCH_WORDS = ("from", *PATCH_OPS, EVERY, ADD_ABILITIES)
