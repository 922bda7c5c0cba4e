"""The invariants of the rules any position must keep, checked on a state that comes from outside.

A saved position is proved by replaying its history (position.py); a state with no history (an analysis
position, a state JSON given to `maester render`) cannot be, so it is accepted only when it passes the state
schema and these invariants: the setup, board and rules set exist and agree; the round lies within the game;
every house is a house of the setup; power in hand and on the board within the house's tokens (R2.5); units of
known kinds in areas of the board, land units on land, ships at sea or in ports (at most the port capacity, R24),
within the unit limits; orders of known tokens on areas the house holds (R14.7); house cards of the right house,
each once; tracks that order the houses in play; supply and the wildling threat on their tracks.

`state_problems` lists what is wrong (empty: the state may be used). It knows no card by name.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from maester.dsl.effect_tree import calls_primitive

from .state import GameState

if TYPE_CHECKING:
    from .rules import Rules

PHASES = ("setup", "westeros", "planning", "action", "over")
MAX_PROBLEMS = 20
DRAFT_PRIMITIVE = "draft-house-cards"  # a rules set that calls it lets a house hold any house's cards


def drafts_house_cards(bundle: dict, game: dict) -> bool:
    """Does the rules set `game` (its bundle record) draft house cards before the game, so that a house may hold
    another house's cards?"""
    records = bundle.get("game_abilities") or {}
    return any(calls_primitive(records[a]["abilities"], DRAFT_PRIMITIVE) for a in game.get("game_abilities") or ()
               if a in records)


def state_problems(rules: Rules, state: GameState) -> list[str]:
    """Every invariant the state breaks (at most MAX_PROBLEMS), each in words with the place it concerns."""
    bad: list[str] = []
    bundle = rules.bundle
    setup = bundle["setups"].get(state.setup)
    if setup is None:
        return [f"setup '{state.setup}' is not in the content"]
    if state.game != setup["game"] or state.board != setup["board"]:
        return [f"setup '{state.setup}' plays rules set '{setup['game']}' on board '{setup['board']}', not "
                f"'{state.game}' on '{state.board}'"]
    game = bundle["games"][state.game]
    board = rules.board(state.board)
    areas = {a.id: a for a in board.areas}
    houses = list(state.houses)
    setup_houses = set(setup["houses"])
    unknown = [h for h in houses if h not in setup_houses]
    if unknown:
        return [f"houses {', '.join(map(repr, unknown))} are not houses of setup '{state.setup}'"]

    if state.phase not in PHASES:
        bad.append(f"phase '{state.phase}' is not one of {', '.join(PHASES)}")
    if not 1 <= state.round <= game["max_rounds"]:
        bad.append(f"round {state.round} is outside the game's rounds 1 to {game['max_rounds']}")

    # power (R2.5): available power and tokens on the board within the house's tokens
    on_board: Counter = Counter()
    for area, h in state.power_tokens.items():
        if area not in areas:
            bad.append(f"power_tokens: '{area}' is not an area of the board")
        elif h not in state.houses:
            bad.append(f"power_tokens/{area}: '{h}' is not a house of the game")
        on_board[h] += 1
    max_supply = max(int(k) for k in bundle["tables"][game["supply_limits"]]["rows"])
    for h, hs in state.houses.items():
        total = bundle["houses"][h]["power_tokens"]
        if hs.power < 0 or hs.power + on_board[h] > total:
            bad.append(f"houses/{h}/power: {hs.power} available and {on_board[h]} on the board; the house has "
                       f"{total} power tokens")
        if not 0 <= hs.supply <= max_supply:
            bad.append(f"houses/{h}/supply: {hs.supply} is off the supply track (0 to {max_supply})")
        if not 0 <= hs.last_bid <= total:
            bad.append(f"houses/{h}/last_bid: {hs.last_bid} is not a bid the house could make")

    # units: known kinds in areas of the board, in their domain, within the limits
    kinds = rules.unit_kinds
    counts: Counter = Counter()
    capacity = game.get("port_capacity") or 0
    for area, army in state.units.items():
        h, units = army.get("house"), army.get("units") or []
        a = areas.get(area)
        if a is None:
            bad.append(f"units: '{area}' is not an area of the board")
            continue
        if h not in state.houses:
            bad.append(f"units/{area}: '{h}' is not a house of the game")
            continue
        if not units:
            bad.append(f"units/{area}: an army with no unit")
        ships = 0
        for kind, _routed in units:
            rec = kinds.get(kind)
            if rec is None:
                bad.append(f"units/{area}: '{kind}' is not a unit kind")
                continue
            counts[h, kind] += 1
            if rec["domain"] == "sea":
                ships += 1
                if a.kind == "land":
                    bad.append(f"units/{area}: a {kind} on land")
            elif a.kind != "land":
                bad.append(f"units/{area}: a {kind} in a {a.kind} area")
        if a.kind == "port" and capacity and ships > capacity:
            bad.append(f"units/{area}: {ships} ships in a port for {capacity}")
    for (h, kind), n in sorted(counts.items()):
        limit = bundle["houses"][h]["unit_limits"].get(kind)
        if limit is None or n > limit:
            bad.append(f"units: {h} has {n} {kind} on the board; its limit is {limit or 0}")

    # orders (R14.7): known tokens, on areas where the house has units
    for area, order in state.orders.items():
        if area not in areas:
            bad.append(f"orders: '{area}' is not an area of the board")
        elif order.get("order") not in bundle["orders"]:
            bad.append(f"orders/{area}: '{order.get('order')}' is not an order token")
        elif order.get("house") not in state.houses:
            bad.append(f"orders/{area}: '{order.get('house')}' is not a house of the game")

    # house cards: each of the right house (or a house-less vassal card; any house's under a draft), each once
    cards = bundle["house_cards"]
    drafted = drafts_house_cards(bundle, game)
    for h, hs in state.houses.items():
        held = [*hs.hand, *hs.discards, *hs.removed]
        for card in held:
            rec = cards.get(card)
            if rec is None:
                bad.append(f"houses/{h}: '{card}' is not a house card")
            elif rec["house"] not in (h, None) and not drafted:
                bad.append(f"houses/{h}: '{card}' is a card of {rec['house']}")
        twice = sorted(c for c, n in Counter(held).items() if n > 1)
        if twice:
            bad.append(f"houses/{h}: {', '.join(twice)} held more than once")

    # tracks and wildlings
    for track, order in state.tracks.items():
        if track not in bundle["tracks"]:
            bad.append(f"tracks: '{track}' is not an influence track")
        elif sorted(order) != sorted(houses):
            bad.append(f"tracks/{track}: {order} does not order the houses of the game once each")
    track = game.get("wildling_track")
    if game.get("wildlings") is not False and track and state.wildling_threat not in track:
        bad.append(f"wildling_threat: {state.wildling_threat} is not on the wildling track {track}")
    for area in [*state.garrisons, *state.neutral_forces, *state.blocked]:
        if area not in areas:
            bad.append(f"'{area}' (a garrison, neutral force or blocked area) is not an area of the board")
    bad += _pieces_problems(bundle, game, state, areas)
    for module, module_state in state.modules.items():
        check = MODULE_CHECKS.get(module)
        if check is not None:
            bad += check(rules, state, module_state)
    return bad[:MAX_PROBLEMS]


# a rules module's own invariants, by the key of its state in GameState.modules (a module registers its check
# when it is imported, as it registers its Game class): (rules, state, the module's state) -> problems
ModuleCheck = Callable[["Rules", GameState, Any], list[str]]
MODULE_CHECKS: dict[str, ModuleCheck] = {}


def _pieces_problems(bundle: dict, game: dict, state: GameState, areas: dict) -> list[str]:
    """The tokens, decks and marks the procedures index by id: every id one of the game, every piece where the
    rules let it be (what the engine would otherwise meet as a missing key half-way through a round)."""
    bad: list[str] = []
    houses = state.houses
    if state.turn_track not in state.tracks:
        bad.append(f"turn_track: '{state.turn_track}' is not a track of the state")
    if state.winner is not None and state.winner not in houses:
        bad.append(f"winner: '{state.winner}' is not a house of the game")
    for token, h in state.seized_tokens.items():
        if h not in houses:
            bad.append(f"seized_tokens/{token}: '{h}' is not a house of the game")
    for area, h in state.garrison_owner.items():
        if area not in areas or h not in houses:
            bad.append(f"garrison_owner/{area}: '{h}' in '{area}' is not a house of the game on the board")
    # power tokens (R2.5): on land, never where another house's army stands (marching in removes it, R16.8)
    for area, h in state.power_tokens.items():
        a = areas.get(area)
        if a is not None and a.kind != "land":
            bad.append(f"power_tokens/{area}: a power token in a {a.kind} area")
        army = state.units.get(area)
        if army and army.get("house") != h:
            bad.append(f"power_tokens/{area}: {h}'s power token under {army.get('house')}'s army")
    for area in state.blocked:
        if area in state.units:
            bad.append(f"units/{area}: an army in a blocked area")
    # orders (R14.7): each token at most its copies; while they are placed, on an area where the house's army stands
    placed: Counter = Counter()
    for area, order in state.orders.items():
        rec, h = bundle["orders"].get(order.get("order")), order.get("house")
        if rec is None or h not in houses or area not in areas:
            continue  # reported above
        placed[h, rec["id"]] += 1
        if placed[h, rec["id"]] == rec["copies"] + 1:
            bad.append(f"orders: {h} has more than {rec['copies']} '{rec['id']}' order(s) on the board")
        army = state.units.get(area)  # (in the Action Phase an army may be gone before its order is removed)
        if state.phase == "planning" and (not army or army.get("house") != h):
            bad.append(f"orders/{area}: {h}'s order where {h} has no army")
    known_orders = {*bundle["orders"], *(r["type"] for r in bundle["orders"].values())}
    for t in state.forbidden_orders:
        if t not in known_orders:
            bad.append(f"forbidden_orders: '{t}' is not an order token or type")
    # decks: cards of their kind
    for slot, cards in state.decks.items():
        unknown = sorted({c for c in cards if c not in bundle["westeros_cards"]})
        if unknown:
            bad.append(f"decks/{slot}: {', '.join(map(repr, unknown[:3]))} not Westeros cards")
    unknown = sorted({c for c in state.wildling_deck if c not in bundle["wildling_cards"]})
    if unknown:
        bad.append(f"wildling_deck: {', '.join(map(repr, unknown[:3]))} not wildling cards")
    unknown = sorted({c for c in state.tides_deck if c not in bundle["tides_cards"]})
    if unknown:
        bad.append(f"tides_deck: {', '.join(map(repr, unknown[:3]))} not Tides of Battle cards")
    return bad
