"""What every primitive does to a game, precisely enough for another engine: the per-primitive part of
docs/effects.md is generated from this table and the registry (dsl/effect_docs.py).

For each primitive of the registry: what it reads, what it changes in the state, the decision it asks
(a kind of interpreter/core/decision_kinds.py, with its answers) and the events it emits (types of the
event log). Arguments are evaluated before the primitive runs (docs/effects.md, node `call`); an
argument that names something absent (a house not in the game, a card not in the pile) makes the
primitive do nothing unless said otherwise. tests/test_effect_docs.py fails when a primitive has no
entry or an entry has an empty part.
"""

from __future__ import annotations

from dataclasses import dataclass

NONE = "none"


@dataclass(frozen=True)
class Semantics:
    reads: str
    changes: str
    decision: str = NONE  # "KIND: who decides — the options", several joined by "; ", or "none"
    events: str = NONE  # "TYPE (when), ..." or "none"
    # when the call can be seen in advance to change nothing (the no-op rule, docs/effects.md): "" when never;
    # the primitives with one are exactly those the interpreter tests in advance (a test keeps them equal)
    void: str = ""


def _q(reads: str) -> Semantics:
    """A query: reads the state, changes nothing, asks nothing, emits nothing."""
    return Semantics(reads, "nothing (a query)", NONE, NONE)


_GAINED_AT_ONCE = ("outside a combat, a token put in an area a house that wins by loyalty controls is gained at "
                   "once, R37.6.2: the loyalty check of the Mother of Dragons procedure, victory included")
_COMBAT = "the combat in progress (outside a combat the primitive is an error of the bundle)"

SEMANTICS: dict[str, Semantics] = {
    # ---- power
    "gain-power": Semantics(
        "the house's available power and the power pool (a house's tokens number at most its total).",
        "moves min(amount, tokens left in the pool) tokens to the house's available power; a vassal gains nothing.",
        events="power (when at least one token moved)"),
    "discard-power": Semantics(
        "the house's available power.",
        "moves min(amount, available power) tokens back to the pool.",
        events="power (when at least one token moved)"),
    "return-bid": Semantics(
        "the house's last bid (`houses.H.last_bid`).",
        "the house gains that much power (as gain-power).", events="power"),
    # ---- combat strength and icons
    "add-strength": Semantics(_COMBAT + ".", "adds amount to the house's strength modifier of the combat "
                              "(counted in its final strength, R20.4)."),
    "add-swords": Semantics(_COMBAT + ".", "adds amount to the house's extra sword icons of the combat."),
    "add-fortifications": Semantics(_COMBAT + ".", "adds amount to the house's extra fortification icons of "
                                    "the combat."),
    "set-printed-strength": Semantics(_COMBAT + ".", "the card's printed strength counts as value for the "
                                      "rest of the combat (later calls replace earlier ones)."),
    "set-unit-strength": Semantics(_COMBAT + "; the unit references.", "each listed unit counts value "
                                   "strength in this combat (a routed unit still counts 0)."),
    "set-final-strength": Semantics(_COMBAT + ".", "the house's final strength is value, whatever the sum "
                                    "(R20.5.2)."),
    # ---- house cards
    "return-played-card": Semantics(
        _COMBAT + "; the house's revealed card.",
        "the card goes back to the house's hand and the house has no card in the combat (its abilities do "
        "not resolve); reveal-another-card usually follows.", events="cancel"),
    "discard-played-card": Semantics(
        _COMBAT + "; the house's revealed card.",
        "the card goes to the house's discard pile and the house has no card in the combat.", events="cards"),
    "reveal-another-card": Semantics(
        _COMBAT + "; the house's hand.",
        "the house's card in the combat becomes the card chosen (or drawn at random with `random`); with an "
        "empty hand it fights without a card (R20.3). The new card's abilities of the current window also "
        "resolve (once).",
        decision="house-card: the house — the cards of its hand other than the cancelled one (none with "
                 "`random`: the engine's seeded random generator picks among the whole hand)",
        events="reveal (`house`, the new card as `subject`); cards (instead, when it has no other card: it fights "
               "without one, `house` only)"),
    "ignore-text": Semantics(
        _COMBAT + ".", "the card's abilities are not resolved for the rest of the combat (strength and icons "
        "still count); nothing when no card is given.", events="ignore-text"),
    "change-house-cards": Semantics(
        "the house's cards of the set (`house` of each card).",
        "the house's hand becomes those cards (sorted) and its discard pile is emptied; removed cards stay removed "
        "(a card of the set already removed is not dealt again); nothing when the house already plays exactly those "
        "cards.", events="cards"),
    "swap-house-card": Semantics(
        "the house's hand, discard pile and removed cards; the `house` of the card `new`.",
        "`old` is replaced by `new` where it lies (hand or discard pile, same place) and joins the house's removed "
        "cards; nothing when `old` is in neither, or `new` is not the house's card or is already in its hand, "
        "discard pile or removed cards.", events="cards",
        void="`old` is in neither the hand nor the discard pile, or `new` is not the house's card or is already "
        "held, discarded or removed: the swap would change nothing"),
    "return-discards-to-hand": Semantics(
        "the house's discard pile.", "every card of the pile moves to the hand, in pile order.", events="cards"),
    "take-from-discard": Semantics(
        "the house's discard pile.", "the card moves from the pile to the hand (nothing if not in the pile).",
        events="cards"),
    "discard-from-hand": Semantics(
        "the house's hand.",
        "the card moves from the hand to the discard pile; when the hand is then empty, every other discarded "
        "card returns to the hand (R21.5.4) except those this effect has just discarded.",
        events="cards (once per move)"),
    "keep-played-card": Semantics(
        _COMBAT + ".", "the house's played card returns to its hand at clean up instead of its discard pile.",
        events="cards (R21.5.3, at the Combat Clean Up when the card stays in hand: `house`, `card` the kept card; "
               "it carries this statement's `card` and `source`)"),
    "remove-from-game": Semantics(
        "the hands and discard piles; the cards of the combat.",
        "a card in the combat is removed at clean up; otherwise the card leaves the hand or pile holding it "
        "for the house's removed cards.", events="cards"),
    # ---- units
    "destroy-unit": Semantics(
        "the unit reference; in a combat, the casualty protections (standing effects included).",
        "the unit leaves the board (an attacking unit leaves the march); nothing if it already left or its "
        "owner is protected in the combat.", events="destroy, or protected (in a combat, when protected)"),
    "destroy-units": Semantics(
        "the house's units (in the areas given).",
        "count times: one unit of the chosen area and kind is destroyed (with `same-area`, every later pick is "
        "in the first pick's area); stops when none is left.",
        decision="destroy-unit: `by` (default the house) — the options `AREA:KIND` of the candidate units",
        events="destroy (per unit)"),
    "replace-unit": Semantics(
        "the unit; the owner's available units of the kind (pieces off the board, minus those marching).",
        "the unit's kind becomes kind (it stays routed if it was); nothing if none is available.",
        events="replace",
        void="the unit is gone, or the house has no unit of the new kind left (units in its pool, less those of "
             "that kind marching in the combat)"),
    "place-units": Semantics(
        "the house's available units; the areas where each kind may stand (R41.1: kinds per area type, "
        "supply, the areas given or else those it controls or holds units in).",
        "count times: one unit of the chosen kind is put in the chosen area; stops when nothing can be placed.",
        decision="place-unit: `by` (default the house) — the options `KIND:AREA`", events="place (per unit)"),
    "revive-unit": Semantics(
        "the house's available units of the kind; who controls the area; its supply.",
        "one unit of the kind is put in the area, only if one is available, the house controls the area and "
        "its supply allows it.", events="place"),
    "prevent-casualties": Semantics(
        _COMBAT + ". Marked `standing`: it holds while its card is face up, before its window too.",
        "the house is protected: sword icons, card texts and (unless `except-skulls`) Tides of Battle skulls "
        "destroy none of its units in this combat.",
        events="protected (R21.2, each time a loss it prevents would have happened — the casualties, a skull, a "
               "card's destroy — with this statement's `card` and `source`)"),
    "prevent-routing": Semantics(_COMBAT + ".", "the house's units that retreat from this combat are not "
                                 "routed."),
    "choose-retreat-area": Semantics(_COMBAT + ".", "the retreat of the loser is chosen by `by` (the retreat "
                                     "decision of the combat procedure is then asked of `by`).",
        void="the loser's army would go to the same place whoever chooses: nothing can retreat, or a single legal "
             "area is offered (the origin, for an attacker)"),
    "prevent-advance": Semantics(_COMBAT + ".", "a winning attacker's units do not move into the embattled "
                                 "area; they return to the area they marched from."),
    "force-retreat": Semantics(_COMBAT + ".", "the winning house's units retreat from the embattled area "
                               "(routed) as a losing defender's would."),
    "keep-march-order": Semantics(_COMBAT + ".", "the attacker's march order is not removed after the combat; "
                                  "it moves with the army into the embattled area."),
    "switch-support": Semantics(
        _COMBAT + "; the support orders of the supporter's areas that back the other side.",
        "each such support now backs `to` (nothing if `to` is not a combatant).", events="support (if any moved)"),
    # ---- orders
    "remove-order": Semantics(
        "the order in the area.", "the order token leaves the board (and the combat forgets its support).",
        events="order-removed (if there was one)"),
    "place-order": Semantics(
        "the house's units in the area; its order tokens not on the board.",
        "an order already in the area is removed, then the token is placed face up; nothing if the house has "
        "no units there or the token is on the board.", events="order-removed (if one was there), order-placed"),
    "forbid-orders": Semantics(
        "the listed order tokens.", "they join the forbidden orders of the next Planning Phase "
        "(`forbidden_orders`).", events="forbid"),
    # ---- tracks
    "move-on-track": Semantics(
        "the track's order.", "the house moves to the first or last position; the others shift by one; "
        "dominance tokens follow positions (R5.6).", events="track (if the order changed)",
        void="the track would stay as it is: the house is not on it, is already at that position, or keeps the "
             "last places (R36.2)"),
    "move-down-track": Semantics(
        "the track's order.", "the house drops `places` positions (not past the last); those it passes rise one.",
        events="track (if the order changed)",
        void="the track would stay as it is (as for move-on-track)"),
    "move-up-track": Semantics(
        "the track's order.", "the house climbs `places` positions (not past the first); those it passes drop "
        "one.", events="track (if the order changed)",
        void="the track would stay as it is (as for move-on-track)"),
    "take-dominance-token": Semantics(
        "the track's order.", "the house moves to position 1 of the track (taking its token) and any seizure "
        "of that token ends.", events="track (if the order changed)"),
    "seize-dominance-token": Semantics(
        "who holds the token.", "the house holds the token (`seized_tokens`) until its track is next bid for; "
        "the track keeps its order. Nothing if it holds it already.", events="dominance"),
    "move-supply": Semantics(
        "the house's supply position; the maximum of the supply track.",
        "the supply position moves by steps (between 0 and the maximum), then the house's armies are "
        "reconciled (R8.4).", decision="reconcile (of the reconcile procedure, when an army is too large)",
        events="supply (if it moved); destroy (R8.4, those of the reconcile procedure)"),
    # ---- victory
    "gain-victory-points": Semantics(
        "the house's points from effects (`modules.victory.points.H`).",
        "adds amount to them (not below 0); the victory track counts them when the rules set's victory-count is "
        "points or castles-and-points; a victory check follows where the rules set checks at once.",
        events="victory-points (when the amount is not 0)"),
    # ---- steps before the game (only in `when game-start`)
    "draft-house-cards": Semantics(
        "the card set's cards whose `house` is a player house (the pool); the order (default: the turn order), "
        "kept to player houses, each once.",
        "picks go one at a time in the order (reversed every other turn when `snake`) until each house holds "
        "`hand-size` cards or the pool is empty; then each house's hand becomes its picks (sorted) and its "
        "discard pile is emptied. The draft in progress is the frame `pregame.draft-cards`.",
        decision="draft-house-card: each house in turn — the cards left in the pool, sorted (not asked when one "
                 "is left)",
        events="draft-pool (the pool), draft-pick (each pick, public), cards (per house, its drafted hand)"),
    "assign-houses": Semantics(
        "the player houses (setup order) and the state's random generator.",
        "the houses are shuffled (Fisher-Yates with the game's generator) into `modules.pregame.seats`, seat 1 "
        "first.", events="houses-assigned"),
    "draft-influence": Semantics(
        "the influence tracks (the state's order) and the order (default: the turn order), kept to player houses.",
        "track by track, each house of the order picks a free place among 1..n (n: the houses of the order); the "
        "track becomes the houses by place, houses outside the order after them; the first place's dominance "
        "token is no longer seized. The draft in progress is the frame `pregame.draft-influence`.",
        decision="influence-position: each house in the order — the free places, as strings (not asked when "
                 "one is left)",
        events="influence-pick (each pick, public), track (each track once set)"),
    # ---- objectives
    "deal-objectives": Semantics(
        "the rules set's objectives; the objective deck (`modules.objectives.deck`, shuffled at its first use).",
        "each player house, in turn order, draws `count` cards into its secret hand; then each gives back cards "
        "until it holds `keep`; the cards given back go into the deck, which is shuffled.",
        decision="objective-return: each house — the objectives of its hand (one question per card given back)",
        events="objectives (per house: the cards drawn, secret to it; then the return to the deck)"),
    "draw-objectives": Semantics(
        "the house's hand; the objective deck.", "the house draws until its hand holds `up-to` (or the deck is "
        "empty).", events="objectives (the cards drawn, secret to the house)"),
    "score-objective": Semantics(
        "the house's hand and each card's condition (`house` bound to it).",
        "the chosen card leaves the hand for the house's scored objectives and the house gains its points "
        "(as gain-victory-points).",
        decision="score-objective: the house — its objectives that hold now, or `none` (not asked when none holds)",
        events="objective-scored, victory-points"),
    "score-special-objective": Semantics(
        "the house's special objective (the rules set's objective whose `special` is the house) and its condition.",
        "the house gains the card's points (as gain-victory-points); the card stays.",
        decision="score-objective: the house — its special objective or `none` (not asked when it does not hold)",
        events="objective-scored, victory-points"),
    "return-objective": Semantics(
        "the house's hand; the objective deck.",
        "the chosen card leaves the hand for the deck, which is shuffled (nothing when the hand is empty).",
        decision="objective-return: the house — the objectives of its hand (not asked when it holds one)",
        events="objectives (the card given back, secret to the house; the deck shuffled)"),
    "exchange-objectives": Semantics(
        "each player house's hand, in turn order.",
        "each house holding objectives gives one to a pool; the pool is shuffled and shown; then each of those "
        "houses, in turn order, takes one card of the pool into its hand. The exchange in progress is the frame "
        "`objectives.exchange`.",
        decision="objective-give: each house with objectives — its hand (not asked when it holds one); "
                 "objective-take: each giver in turn order — the cards left in the pool (not asked when one is left)",
        events="objectives (the card given, secret to its house; the pool shown; each card taken)"),
    # ---- phase procedures
    "adjust-supply": Semantics(
        "the supply icons each house controls.", "every house's supply position is set to its count; armies "
        "are reconciled in turn order (R8.2, R8.4).", decision="reconcile (per house with too large an army)",
        events="supply, destroy (those of the procedure)"),
    "muster": Semantics(
        "the house's castles and strongholds (the areas given); its available units; its supply.",
        "the Mustering procedure of the Westeros Phase for one house (R9): units are bought with each area's "
        "points.", decision="muster: the house — what each area buys (see the decision kind)",
        events="muster (per recruitment)"),
    "collect-power": Semantics(
        "the power icons of controlled land areas (and qualifying ports when `ports`).",
        "every player house gains one power per icon (as gain-power).", events="power"),
    "bid-on-influence-tracks": Semantics(
        "every house's available power.", "the three influence tracks are bid for, in track order (R10): bids "
        "are paid, tracks reordered, ties broken.",
        decision="influence-bid (each house, per track); break-tie (the Iron Throne holder, on equal bids)",
        events="bids (per track), give-bid and bids (R36.4.3, Mother of Dragons: bids given away), track (when "
               "the order changed)"),
    "wildling-attack": Semantics(
        "the wildling threat (or strength); the wildling deck.",
        "a wildling attack (R11): bids, comparison, the top wildling card's effect, the threat moves.",
        decision="wildling-bid (each house but `excluded`); break-tie; those of the wildling card",
        events="wildling-attack, bids, wildlings-win or wildlings-lose, bidder (a tie broken), those of the "
               "wildling card, wildling-card, wildlings"),
    "advance-wildlings": Semantics(
        "the wildling threat.", "the threat rises `steps` spaces (2 per space, at most the top); at the top a "
        "wildling attack follows (R6.2.3).",
        decision="wildling-bid (each house, when an attack follows); break-tie; those of the wildling card",
        events="wildlings; those of the attack"),
    "move-wildling-threat": Semantics(
        "the wildling threat.", "the threat moves `steps` spaces (negative: down), staying on the track; no "
        "attack follows.", events="wildlings (if it moved)"),
    "reshuffle-and-redraw": Semantics(
        "nothing when it runs. Marked `redraw-on-reveal`: the procedure drawing its card reads it first.",
        "nothing when it runs: the drawing procedure has already shuffled the whole deck (this card included) "
        "and drawn a new card in its place (R7.2).", events="none (the drawing procedure emits reshuffle)"),
    "choose-one": Semantics(
        "the conditions of the options.",
        "the body of the chosen option runs; options whose `if` is false are not offered.",
        decision="choose-one: `by` — the keys of the offered options, in block order",
        events="choice; then those of the option's body"),
    "arrange-deck-top": Semantics(
        "the top `count` cards of the Westeros deck.",
        "each is put on the top (in the order chosen) or the bottom; at least `min-bottom` go to the bottom.",
        decision="arrange: the house — per card `top` or `bottom` (only `bottom` once the minimum requires it)",
        events="arrange (the kept order is secret to the house)"),
    "look-at-deck": Semantics(
        "the top `count` cards of the Westeros deck (fewer when the deck holds fewer).",
        "nothing: only the house learns the cards.",
        events="look (the cards, top first, are secret to the house: hidden from the others in every view)"),
    "look-at-wildling-cards": Semantics(
        "the top `count` cards of the wildling deck.",
        "nothing: only the house learns the cards.",
        events="look (the cards, top first, are secret to the house: hidden from the others in every view)"),
    "look-at-hand": Semantics(
        "the house cards in the hand of `of` (a card chosen for the combat in progress and not revealed yet "
        "included, as every view shows it: which card was chosen stays secret).",
        "nothing: only the looking house learns the cards (nothing happens when `of` is the looking house, "
        "or its hand is empty).",
        events="look-hand (the cards, sorted by id, are secret to the looking house: hidden from the others in "
               "every view)"),
    "look-at-orders": Semantics(
        "the order tokens on the board, of the house `of` (every house when left out) in the areas `in` "
        "(anywhere when left out), other than the looking house's own.",
        "nothing: only the looking house learns the orders (nothing happens when no such order is on the "
        "board).",
        events="look-orders (area -> order token id, secret to the looking house: hidden from the others in "
               "every view until the orders are revealed)"),
    "search-deck": Semantics(
        "the undrawn cards of the Westeros deck.",
        "the picked card is put on top of the others, which are shuffled by the seeded generator.",
        decision="search-deck: the house — the distinct card ids of the deck", events="search-deck (the card "
        "is secret to the house)"),
    # ---- Mother of Dragons
    "place-loyalty": Semantics(
        "the loyalty tokens left in the supply.", "count loyalty tokens are put in the area (skipped when none "
        "is left).", events="loyalty, or loyalty-skipped; then loyalty-gained, garrison, loyalty-home-lost and "
        "victory (" + _GAINED_AT_ONCE + ")"),
    "move-loyalty": Semantics(
        "the loyalty tokens of `from`.", "one token moves from `from` to `to` (nothing if `from` has none).",
        events="loyalty (twice); then loyalty-gained, garrison, loyalty-home-lost and victory (" + _GAINED_AT_ONCE
               + ")",
        void="`from` holds no loyalty token (it may have been gained at once since, R37.6.2)"),
    "improve": Semantics("the area's improvements.", "the area counts the icon once more (`improvements`).",
                         events="improve"),
    "degrade": Semantics("the area's improvements.", "the icon of the area counts as absent (`improvements`).",
                         events="degrade"),
    "advance-dragon-strength": Semantics(
        "the dragon strength tokens left on the round track.",
        "the furthest token moves into the dragon box: dragon strength +1 (nothing if none is left).",
        events="dragons"),
    # ---- queries: combat
    "is-winner": _q(_COMBAT + ": its winner (none before the winner is known)."),
    "is-loser": _q(_COMBAT + ": its loser."),
    "is-attacker": _q(_COMBAT + ": its attacker."),
    "is-defender": _q(_COMBAT + ": its defender."),
    "is-supported": _q(_COMBAT + ": the standing supports given to the house."),
    "supporters": _q(_COMBAT + ": the houses whose standing support backs the house, in area order."),
    "combat-margin": _q(_COMBAT + ": the absolute difference of the two final strengths."),
    "final-strength": _q(_COMBAT + ": the house's final strength (0 before it is computed)."),
    "combat-units": _q(_COMBAT + ": unit references of the house (absent: both sides) by kind and role."),
    "is-transported-attack": _q(_COMBAT + ": whether the march used ship transport."),
    "played-card": _q(_COMBAT + ": the house's card (none without one)."),
    "has-played-card": _q(_COMBAT + ": whether the house fights with a card."),
    "retreat-area": _q(_COMBAT + ": where the house's army retreated (none if it did not)."),
    "printed-strength": _q("the bundle's card record (0 for no card)."),
    "printed-swords": _q("the bundle's card record (0 for no card)."),
    "printed-fortifications": _q("the bundle's card record (0 for no card)."),
    "order-value": _q("the order in the area: its printed bonus (0 without one)."),
    "has-order": _q("the order in the area: whether it is of the type (and of the house, if given)."),
    "order-areas": _q("the areas holding the house's orders, sorted by id (adjacent to `near` if given)."),
    "unused-orders": _q("the house's order tokens not on the board (among those given), sorted, each once."),
    # ---- queries: cards
    "hand": _q("the house's hand, in hand order (empty for a house not in the game). A card played in a combat "
               "is not in it: from the moment it is chosen it is held apart, in the combat, until Combat Clean Up "
               "(R20.1.1, R21.5.3); a vassal's hand is the cards it drew and did not play (R35.2), empty from "
               "Combat Clean Up on (R35.4)."),
    "discard-pile": _q("the house's discard pile, in pile order."),
    "house-cards": _q("the bundle's card set: its cards whose `house` is the house, sorted by id."),
    "discard-piles": _q("the discard piles of the houses, house by house in the given order."),
    "weakest": _q("the printed strengths of the cards: those with the lowest, in list order."),
    "strongest": _q("the printed strengths of the cards: those with the highest, in list order."),
    "card-with-strength": _q("the printed strengths: the cards with exactly that strength, in list order."),
    "cards-with-strength-at-most": _q("the printed strengths: the cards with at most that strength."),
    # ---- queries: board
    "units": _q("the units on the board: references AREA#INDEX, areas sorted by id, then position in the area."),
    "area-of": _q("the area part of the unit reference."),
    "available-units": _q("the house's pieces of the kind not on the board (Dragons: the destroyed ones)."),
    "areas": _q("the areas of the boards in play (blocked areas left out), in board order, filtered by every "
                 "argument given."),
    "adjacent": _q("the board graph: the areas adjacent to the area (of the kind, if given; blocked areas left "
                    "out), in board order."),
    "has-icon": _q("the area's printed icons and its improvements."),
    "has-power-token": _q("the power tokens placed on the board."),
    "is-kind": _q("the area's kind (land, sea or port)."),
    "controls": _q("who controls the area now (its units, or its power token, R23)."),
    "home-area": _q("the house's home area of the setup."),
    "loyalty-areas": _q("the areas holding loyalty tokens, sorted by id (next to an area of the kind, if given)."),
    "river-areas": _q("the land areas next to a river, sorted by id."),
    # ---- queries: houses and tracks
    "position": _q("the track's order: 1 is the top."),
    "highest-track": _q("the three influence tracks: the one where the house has its best position (the first "
                        "track in declaration order on a tie)."),
    "power": _q("the house's available power."),
    "victory-points": _q("the house's position on the victory track now, as the rules set's victory-count counts "
                         "it (castles and strongholds it controls by default; points from effects)."),
    "bid": _q("the house's last bid."),
    "wildling-threat": _q("the wildling threat (0 to 12)."),
    "westeros-decks": _q("the decks in play with undrawn cards, in the rules set's declared order."),
    "others": _q("every house of the game but the one given, in turn order."),
    "player-houses": _q("the houses played by a player, in turn order."),
    "vassals": _q("the vassal houses, in turn order."),
    "turn-order": _q("the Iron Throne track (reversed with `reverse`)."),
    "is-vassal": _q("whether the house is a vassal."),
    "commander": _q("the house's commander (a vassal's commander this round; a player house is its own)."),
    "holder": _q("the holder of the dominance token (position 1 of its track, or the house that seized it)."),
    "is-in-play": _q("whether the house is a house of the game."),
    "count": _q("the number of items of the list."),
    "numbers": _q("nothing: the whole numbers from `from` to `to`."),
    "contains": _q("nothing: whether the item is in the list."),
    "without": _q("nothing: the items of the first list not in the second, in order."),
    "has-most": _q("the measure of every player house (control, units and power tokens on the board, available "
                   "power, the victory track): true when the house's is larger than each other's."),
    "has-fewest": _q("the measures of has-most: true when the house's is smaller than each other's."),
    "supply": _q("the house's supply position."),
    "objectives-in-hand": _q("the house's secret hand of objectives (its size only)."),
    "objectives-scored": _q("the house's scored objectives (public)."),
    "has-dragon-token-left": _q("the dragon strength tokens left on the round track."),
}
