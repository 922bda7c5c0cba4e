"""The effect primitives: one handler per registry primitive (HANDLERS) and per query (QUERIES), keyed by
its name and registered with `handler`/`query` of the evaluator. Handlers are generic: none knows which card
calls it."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from ..core import control, cursor
from ..core.procedure_registry import run_procedure
from ..core.state import board_written
from .evaluator import REPEAT, STEP, VOID_WHEN, EffectError, Proc, Scope, _nothing, ev, handler, query, run  # noqa: F401

if TYPE_CHECKING:
    from ..procedures.combat import Combat
    from ..procedures.game import Game



@handler("gain-power")
def _gain_power(g, sc, a, st):
    if a["house"] in g.state.houses:  # a house that may hold no power gains none (`may_hold_power`)
        g.gain_power(a["house"], a["amount"], sc.rule, sc.card or "")
    return _nothing()


@handler("gain-victory-points")
def _gain_victory_points(g, sc, a, st):
    g.gain_victory_points(a["house"], a["amount"], sc.rule, sc.card or "")
    return _nothing()


@handler("change-house-cards")
def _change_house_cards(g, sc, a, st):
    house = a["house"]
    hs = g.state.houses.get(house)
    cards = [c for c in g.rules.cards_of(house, [a["set"]]) if hs is not None and c not in hs.removed]
    if cards and sorted(hs.hand + hs.discards) != cards:  # (a house already playing that set keeps its piles)
        hs.hand, hs.discards = cards, []
        g.emit("cards", sc.rule, f"{house} now plays with its {len(cards)} cards of the set {a['set']}", house=house)
    return _nothing()


def _swap_pile(g, a) -> list | None:
    """The pile (hand or discards) where `swap-house-card` puts `new` in the place of `old`; None: it does nothing."""
    house, old, new = a["house"], a["old"], a["new"]
    hs = g.state.houses.get(house)
    if hs is None or old is None or new is None or new in hs.hand + hs.discards + hs.removed:
        return None
    if g.rules.bundle["house_cards"].get(new, {}).get("house") != house:  # (a vassal card or another house's)
        return None
    return next((pile for pile in (hs.hand, hs.discards) if old in pile), None)


@handler("swap-house-card")
def _swap_house_card(g, sc, a, st):
    pile = _swap_pile(g, a)
    if pile is not None:
        house, old, new = a["house"], a["old"], a["new"]
        pile[pile.index(old)] = new
        g.state.houses[house].removed.append(old)
        g.emit("cards", sc.rule, f"{house} swaps {old} for {new}", house=house)
    return _nothing()


@handler("discard-power")
def _discard_power(g, sc, a, st):
    if a["house"] in g.state.houses:
        g.discard_power(a["house"], a["amount"], sc.rule, sc.card or "")
    return _nothing()


@handler("return-bid")
def _return_bid(g, sc, a, st):
    g.gain_power(a["house"], g.state.houses[a["house"]].last_bid, sc.rule, "its bid back")
    return _nothing()


# -- units
def unit_ref(area: str, index: int) -> str:
    return f"{area}#{index}"


def parse_unit(ref: str) -> tuple[str, int]:
    area, idx = ref.rsplit("#", 1)
    return area, int(idx)


def _locate(g, sc, ref: str) -> tuple[str, int] | None:
    """Where a unit named by `units(...)` stands now: the same piece, even after units before it in its area were
    destroyed (a reference keeps naming the piece it was made for); None once that piece has left the board."""
    area, idx = parse_unit(ref)
    army = g.state.units.get(area)
    piece = sc.extra.get(_PIECES, {}).get(ref)
    if army is None:
        return None
    if piece is not None:
        return next(((area, i) for i, u in enumerate(army["units"]) if u is piece), None)
    return (area, idx) if idx < len(army["units"]) else None


_PIECES = "_pieces"  # Scope.extra key: unit reference -> the unit it was made for (outside combat)


@handler("destroy-unit")
def _destroy_unit(g, sc, a, st):
    if sc.combat is not None:
        sc.combat.destroy(g, a["unit"], sc.rule, sc.card or "")
        return _nothing()
    where = _locate(g, sc, a["unit"])
    if where is not None:
        g.destroy_unit(*where, sc.rule, sc.card or "")
    return _nothing()


@handler("destroy-units")
def _destroy_units(g, sc, a, st):
    house, count = a["house"], a["count"]
    by = a.get("by") or house
    f = cursor.enter(g, REPEAT, done=0, areas=a.get("in"))  # None: anywhere; [] (computed): nowhere
    while f["done"] < count:
        areas = f["areas"]
        candidates = [unit_ref(area, i) for area in g.state.areas_of(house)
                      if areas is None or area in areas
                      for i in range(len(g.state.units[area]["units"]))]
        if a.get("same-area") and st.get("_area"):
            candidates = [c for c in candidates if parse_unit(c)[0] == st["_area"]]
        if not candidates:
            break
        options = sorted({f"{parse_unit(c)[0]}:{g.state.units[parse_unit(c)[0]]['units'][parse_unit(c)[1]][0]}"
                          for c in candidates})
        pick = yield from g.choose(by, "destroy-unit", f"{by}: destroy one of {house}'s units", options,
                                   sc.rule, card=sc.card, house=house)
        area, kind = pick.split(":")
        idx = next(i for i, u in enumerate(g.state.units[area]["units"]) if u[0] == kind)
        g.destroy_unit(area, idx, sc.rule, sc.card or "")
        f["done"] += 1
        if a.get("same-area"):
            f["areas"] = [area]
    cursor.leave(g, f)


def _marching(sc: Scope, house: str, kind: str | None = None) -> list[list]:
    """A combat's attacking units of a house: off the board while the combat lasts."""
    c = sc.combat
    if c is None or c.attacker != house:
        return []
    return [u for u in c.attacking if kind is None or u[0] == kind]


@handler("replace-unit")
def _replace_unit(g, sc, a, st):
    target = _replacement(g, sc, a)
    if target is None:
        return _nothing()
    house, units, idx, area, where = target
    unit = units[idx]
    old = unit[0]
    units[idx] = new = [a["kind"], unit[1]]  # stays routed if it was (R21.4.5); a new list: never changed in place
    board_written(area)  # (observations read the units' kinds: env/incremental.py)
    pieces = sc.extra.get(_PIECES)  # (state.py) so a reference to the piece names the new list now
    if pieces:
        for ref, piece in pieces.items():
            if piece is unit:
                pieces[ref] = new
    g.emit("replace", sc.rule, f"{house} {old} {where} becomes a {a['kind']}", house=house, area=area)
    return _nothing()


def _replacement(g, sc, a) -> tuple | None:
    """The unit `replace-unit` would replace (house, its army's units, index, area, where), or None when it can
    do nothing: the unit is gone, or no unit of the new kind is available (R2.1)."""
    area, idx = parse_unit(a["unit"])
    if sc.combat is not None and area == "@attack":  # an attacking unit (combat.ATTACK)
        house = sc.combat.attacker
        units = sc.combat.attacking
        where = f"attacking {sc.combat.area}"
        area = sc.combat.area  # its event names the embattled area, not the internal marker
    else:
        found = _locate(g, sc, a["unit"]) if sc.combat is None else (area, idx)
        army = g.state.units.get(area)
        if army is None or found is None:
            return None
        idx = found[1]
        house, units, where = army["house"], army["units"], f"in {area}"
    if idx >= len(units):
        return None
    if g.available_units(house, a["kind"]) - len(_marching(sc, house, a["kind"])) <= 0:
        return None
    return house, units, idx, area, where


@handler("place-units")
def _place_units(g, sc, a, st):
    house = a["house"]
    by = a.get("by") or house
    f = cursor.enter(g, REPEAT, done=0)
    while f["done"] < a.get("count", 1):
        kinds = [a["kind"]] if a.get("kind") else [k for k in g.rules.unit_kinds if
                                                   g.rules.unit_kinds[k].get("muster_cost") is not None]
        kinds = [k for k in kinds if g.available_units(house, k) > 0]
        options = []
        for kind in kinds:
            for area in run_procedure("placement-areas")(g, house, kind, a.get("in")):
                options.append(f"{kind}:{area}")
        if not options:
            break
        pick = yield from g.choose(by, "place-unit", f"{by}: place a unit of {house}", sorted(options), sc.rule,
                                   card=sc.card)
        kind, area = pick.split(":")
        g.state.add_unit(area, house, kind)
        g.emit("place", sc.rule, f"{house} places a {kind} in {area}", house=house, area=area, kind=kind)
        g.units_arrived(house, [area])  # outside a combat a rules module may act on it at once (R37.6.2)
        f["done"] += 1
    cursor.leave(g, f)


@handler("revive-unit")
def _revive_unit(g, sc, a, st):
    house, kind, area = a["house"], a["kind"], a["in"]
    if g.available_units(house, kind) > 0 and g.controller(area) == house and g.fits_supply(house, {area: 1}):
        g.state.add_unit(area, house, kind)
        g.emit("place", sc.rule, f"{house} puts a {kind} back in {area}", house=house, area=area, kind=kind)
    return _nothing()


# -- orders and tracks
@handler("remove-order")
def _remove_order(g, sc, a, st):
    order = g.state.orders.pop(a["area"], None)
    if order:
        g.emit("order-removed", sc.rule, f"{order['house']}'s {order['order']} in {a['area']} is removed "
               f"({sc.card})", area=a["area"])
        if sc.combat is not None:
            sc.combat.order_removed(a["area"])
    return _nothing()


@handler("place-order")
def _place_order(g, sc, a, st):
    house, area, order = a["house"], a["area"], a["order"]
    if g.state.house_in(area) != house or order not in run_procedure("unused-tokens")(g, house):
        return _nothing()  # orders need units of their house (R14.7); the token must be off the board
    old = g.state.orders.pop(area, None)
    if old:
        g.emit("order-removed", sc.rule, f"{old['house']}'s {old['order']} in {area} is removed ({sc.card})",
               area=area)
        if sc.combat is not None:
            sc.combat.order_removed(area)
    g.state.orders[area] = {"house": house, "order": order}
    g.emit("order-placed", sc.rule, f"{house} places {order} in {area} ({sc.card})", house=house, area=area,
           order=order)
    return _nothing()


@handler("forbid-orders")
def _forbid_orders(g, sc, a, st):
    g.state.forbidden_orders = sorted(set(g.state.forbidden_orders) | set(a["types"]))
    g.emit("forbid", sc.rule, f"no {', '.join(a['types'])} orders this Planning Phase ({sc.card})",
           orders=a["types"])
    return _nothing()


@handler("move-on-track")
def _move_on_track(g, sc, a, st):
    g.move_on_track(a["house"], a["track"], _track_target(g, "move-on-track", a), sc.rule)
    return _nothing()


@handler("move-down-track")
def _move_down_track(g, sc, a, st):
    g.move_on_track(a["house"], a["track"], _track_target(g, "move-down-track", a), sc.rule)
    return _nothing()


@handler("move-up-track")
def _move_up_track(g, sc, a, st):
    g.move_on_track(a["house"], a["track"], _track_target(g, "move-up-track", a), sc.rule)
    return _nothing()


def _track_target(g, primitive: str, a) -> int | None:
    """The 0-based position a track move aims at (None: last)."""
    if primitive == "move-on-track":
        return 0 if a["to"] == "first" else None
    pos = g.state.tracks[a["track"]].index(a["house"])
    return pos + a["places"] if primitive == "move-down-track" else max(0, pos - a["places"])


def _track_move_void(primitive: str) -> Callable:
    """A track move that would leave the track as it is (already there, or a house that never moves, R36.2)."""
    def void(g, sc, a) -> bool:
        if a["house"] not in g.state.tracks[a["track"]]:
            return True
        target = g.track_after_move(a["house"], a["track"], _track_target(g, primitive, a))
        return target == g.state.tracks[a["track"]]
    return void


@handler("take-dominance-token")
def _take_dominance_token(g, sc, a, st):
    # The token always belongs to position 1 of its track (R5.2); moving there is what takes it.
    g.move_on_track(a["house"], a["track"], 0, sc.rule)
    g.state.seized_tokens.pop(g.token_of_track(a["track"]), None)
    return _nothing()


@handler("seize-dominance-token")
def _seize_dominance_token(g, sc, a, st):
    # held apart from the track until its next bidding (westeros.influence_bidding)
    if g.holder(a["token"]) != a["house"]:
        g.state.seized_tokens[a["token"]] = a["house"]
        g.emit("dominance", sc.rule, f"{a['house']} takes the {a['token']} token ({sc.card})", house=a["house"],
               token=a["token"])
    return _nothing()


@handler("move-supply")
def _move_supply(g, sc, a, st):
    f = cursor.enter(g, STEP, applied=False)
    if not f["applied"]:
        hs = g.state.houses[a["house"]]
        new = max(0, min(g.rules.max_supply(g.state.game), hs.supply + a["steps"]))
        if new != hs.supply:
            g.emit("supply", sc.rule, f"{a['house']} moves from supply {hs.supply} to {new}", house=a["house"],
                   supply=new)
            hs.supply = new
        f["applied"] = True
    yield from run_procedure("reconcile")(g, [a["house"]], sc.rule)
    cursor.leave(g, f)


# -- procedures shared by cards
@handler("adjust-supply")
def _adjust_supply(g, sc, a, st):
    yield from run_procedure("adjust-supply")(g, sc.rule or "R8.2")


@handler("muster")
def _muster(g, sc, a, st):
    yield from run_procedure("muster")(g, a["house"], a.get("in"), sc.rule or "R9")  # [] musters nowhere


@handler("collect-power")
def _collect_power(g, sc, a, st):
    run_procedure("collect-power")(g, a.get("ports", True), sc.rule or "R7.9")
    return _nothing()


@handler("bid-on-influence-tracks")
def _bid(g, sc, a, st):
    yield from run_procedure("bid-on-influence-tracks")(g)


@handler("wildling-attack")
def _wildling_attack(g, sc, a, st):
    yield from run_procedure("wildling-attack")(g, a.get("strength"), a.get("excluded"))


@handler("advance-wildlings")
def _advance_wildlings(g, sc, a, st):
    yield from run_procedure("advance-wildlings")(g, a.get("steps", 1))


@handler("move-wildling-threat")
def _move_wildling_threat(g, sc, a, st):
    track = g.game_rec["wildling_track"]
    step = track[1] - track[0]
    old = g.state.wildling_threat
    new = max(min(track), min(max(track), old + step * a["steps"]))
    if new != old:
        g.state.wildling_threat = new
        g.emit("wildlings", sc.rule, f"the wildling threat moves from {old} to {new} ({sc.card})", threat=new)
    return _nothing()


@handler("reshuffle-and-redraw")
def _reshuffle(g, sc, a, st):
    # handled when the card is revealed (R7.2); resolving it later does nothing more
    return _nothing()


@handler("choose-one")
def _choose_one(g, sc, a, st):
    by = a["by"]
    f = cursor.enter(g, STEP, pick=None)
    if f["pick"] is None:
        offered = [o for o in st["options"] if "if" not in o or ev(g, o["if"], sc)]
        keys = [o["option"] for o in offered]
        texts = {o["option"]: o["text"] for o in offered}
        pick = yield from g.choose(by, "choose-one", f"{by} chooses: " + "; ".join(f"({k}) {t}" for k, t in
                                                                                   texts.items()),
                                   keys, sc.rule, card=sc.card, texts=texts)
        g.emit("choice", sc.rule, f"{by} chooses ({pick}) {texts[pick]}", house=by, card=sc.card)
        f["pick"] = pick
    option = next(o for o in st["options"] if o["option"] == f["pick"])
    yield from run(g, option["body"], sc)
    cursor.leave(g, f)


@handler("arrange-deck-top")
def _arrange_deck_top(g, sc, a, st):
    house, deck, n = a["house"], a["deck"], a["count"]
    cards = g.state.decks.get(deck, [])
    top = cards[:n]
    if not top:
        return
    rest = cards[n:]
    f = cursor.enter(g, REPEAT, bottom=[], keep=[])  # nothing moves until every card has its place
    bottom, keep = f["bottom"], f["keep"]
    for card in top[len(bottom) + len(keep):]:
        minimum = a.get("min-bottom", 0)
        must = len(bottom) < minimum and len(keep) >= len(top) - minimum
        options = ["bottom"] if must else ["top", "bottom"]
        where = yield from g.choose(house, "arrange", f"{house}: put {card} on the top or the bottom of deck {deck}",
                                    options, sc.rule, card=card)
        (bottom if where == "bottom" else keep).append(card)
    cursor.leave(g, f)
    g.state.decks[deck] = keep + rest + bottom
    g.emit("arrange", sc.rule, f"{house} arranges the top of deck {deck}", house=house, secret={"top": keep})


@handler("look-at-deck")
def _look_at_deck(g, sc, a, st):
    house, deck, n = a["house"], a["deck"], max(0, a["count"])
    cards = list(g.state.decks.get(deck, []))[:n]
    if house in g.state.houses and cards:
        g.emit("look", sc.rule, f"{house} looks at the top {len(cards)} card(s) of Westeros deck {deck.upper()}",
               house=house, deck=deck, secret={"cards": cards})
    return _nothing()


@handler("look-at-wildling-cards")
def _look_at_wildlings(g, sc, a, st):
    house, n = a["house"], max(0, a["count"])
    cards = list(g.state.wildling_deck)[:n]
    if house in g.state.houses and cards:
        g.emit("look", sc.rule, f"{house} looks at the top {len(cards)} wildling card(s)", house=house,
               deck="wildling", secret={"cards": cards})
    return _nothing()


@handler("look-at-hand")
def _look_at_hand(g, sc, a, st):
    house, of = a["house"], a["of"]
    if house in g.state.houses and of in g.state.houses and of != house:
        hs = g.state.houses[of]
        # a card chosen for the combat in progress is held apart from the hand until the reveal (R20.1.1); which
        # one stays secret, so it is shown among the hand (as every view shows it)
        combat = g.state.step.get("combat") or {}
        chosen = (combat.get("cards") or {}).get(of) if combat.get("stage") == "house-cards" else None
        cards = sorted(hs.hand + ([chosen] if chosen and chosen not in hs.hand else []))
        if cards:
            g.emit("look-hand", sc.rule, f"{house} looks at the house cards in {of}'s hand", house=house,
                   target=of, secret={"cards": cards})
    return _nothing()


@handler("look-at-orders")
def _look_at_orders(g, sc, a, st):
    house, of, areas = a["house"], a.get("of"), a.get("in")
    if house in g.state.houses:
        shown = {area: o["order"] for area, o in sorted(g.state.orders.items())
                 if o["house"] != house and (of is None or o["house"] == of) and (areas is None or area in areas)}
        if shown:
            g.emit("look-orders", sc.rule, f"{house} looks at {len(shown)} face-down order(s)"
                   + (f" of {of}" if of else ""), house=house, secret={"orders": shown},
                   **({"target": of} if of else {}))
    return _nothing()


@handler("search-deck")
def _search_deck(g, sc, a, st):
    house, deck = a["house"], a["deck"]
    cards = list(g.state.decks.get(deck, []))
    if not cards:
        return
    pick = yield from g.choose(house, "search-deck", f"{house}: choose a card of deck {deck} to put on top",
                               sorted(set(cards)), sc.rule, card=sc.card, deck=deck)
    cards.remove(pick)
    g.rng.shuffle(cards)
    g.state.decks[deck] = [pick] + cards
    g.emit("search-deck", sc.rule, f"{house} searches deck {deck} and puts a card of its choice on top", house=house,
           deck=deck, secret={"top": pick})


# -- house cards (combat)
def _combat(sc: Scope) -> Combat:
    if sc.combat is None:
        raise EffectError("a combat primitive ran outside a combat")
    return sc.combat


@handler("add-strength")
def _add_strength(g, sc, a, st):
    _combat(sc).add(a["house"], "strength", a["amount"])
    return _nothing()


@handler("add-swords")
def _add_swords(g, sc, a, st):
    _combat(sc).add(a["house"], "swords", a["amount"])
    return _nothing()


@handler("add-fortifications")
def _add_forts(g, sc, a, st):
    _combat(sc).add(a["house"], "fortifications", a["amount"])
    return _nothing()


@handler("set-printed-strength")
def _set_printed(g, sc, a, st):
    _combat(sc).printed_override[a["card"]] = a["value"]
    return _nothing()


@handler("set-unit-strength")
def _set_unit_strength(g, sc, a, st):
    c = _combat(sc)
    for ref in a["units"]:
        c.unit_override[ref] = a["value"]
    return _nothing()


@handler("set-final-strength")
def _set_final_strength(g, sc, a, st):
    _combat(sc).final_override[a["house"]] = a["value"]
    return _nothing()


@handler("return-played-card")
def _return_played(g, sc, a, st):
    _combat(sc).return_card(g, a["house"], sc.rule)
    return _nothing()


@handler("discard-played-card")
def _discard_played(g, sc, a, st):
    _combat(sc).discard_card(g, a["house"], sc.rule)
    return _nothing()


@handler("reveal-another-card")
def _reveal_another(g, sc, a, st):
    yield from _combat(sc).reveal_another(g, a["house"], a.get("random", False), sc.rule)


@handler("ignore-text")
def _ignore_text(g, sc, a, st):
    if a["card"] is not None:
        _combat(sc).blank_cards.add(a["card"])
        g.emit("ignore-text", sc.rule, f"{a['card']} has no text in this combat ({sc.card})", card=a["card"])
    return _nothing()


@handler("return-discards-to-hand")
def _return_discards(g, sc, a, st):
    hs = g.state.houses.get(a["house"])
    if hs is None:
        return _nothing()
    hs.hand.extend(hs.discards)
    g.emit("cards", sc.rule, f"{a['house']} takes back {len(hs.discards)} discarded cards", house=a["house"])
    hs.discards = []
    return _nothing()


@handler("take-from-discard")
def _take_from_discard(g, sc, a, st):
    hs = g.state.houses.get(a["house"])
    if hs and a["card"] in hs.discards:
        hs.discards.remove(a["card"])
        hs.hand.append(a["card"])
        g.emit("cards", sc.rule, f"{a['house']} takes {a['card']} back into its hand", house=a["house"])
    return _nothing()


@handler("discard-from-hand")
def _discard_from_hand(g, sc, a, st):
    hs = g.state.houses.get(a["house"])
    if hs and a["card"] in hs.hand:
        hs.hand.remove(a["card"])
        hs.discards.append(a["card"])
        g.emit("cards", sc.rule, f"{a['house']} discards {a['card']} from its hand", house=a["house"])
        just = sc.extra.setdefault("_discarded", {}).setdefault(a["house"], [])
        just.append(a["card"])
        if not hs.hand:  # R21.5.4: the discards come back, except the cards this effect has just discarded
            hs.hand = [c for c in hs.discards if c not in just]
            hs.discards = [c for c in hs.discards if c in just]
            g.emit("cards", "R21.5.4", f"{a['house']} takes back its {len(hs.hand)} discarded cards",
                   house=a["house"])
    return _nothing()


@handler("keep-played-card")
def _keep_played(g, sc, a, st):
    _combat(sc).keep_card.add(a["house"])
    g.later[("keep", a["house"])] = g.origin  # the clean up that keeps the card cites this statement
    return _nothing()


@handler("remove-from-game")
def _remove_from_game(g, sc, a, st):
    card = a["card"]
    if sc.combat is not None and card in sc.combat.cards.values():
        sc.combat.removed_cards.add(card)
        g.later[("remove", card)] = g.origin  # the clean up that removes it cites this statement
        g.emit("cards", sc.rule, f"{card} will be removed from the game", card=card)
        return _nothing()
    for house, hs in g.state.houses.items():
        for pile in (hs.hand, hs.discards):
            if card in pile:
                pile.remove(card)
                hs.removed.append(card)
                g.emit("cards", sc.rule, f"{card} is removed from the game", house=house, card=card)
    return _nothing()


@handler("prevent-casualties")
def _prevent_casualties(g, sc, a, st):
    _combat(sc).protected.add(a["house"])
    if a.get("except-skulls"):
        _combat(sc).skull_exposed.add(a["house"])
    return _nothing()


@handler("prevent-routing")
def _prevent_routing(g, sc, a, st):
    _combat(sc).unrouted.add(a["house"])
    return _nothing()


@handler("choose-retreat-area")
def _choose_retreat(g, sc, a, st):
    _combat(sc).retreat_chooser = a["by"]
    return _nothing()


@handler("prevent-advance")
def _prevent_advance(g, sc, a, st):
    _combat(sc).no_advance = True
    return _nothing()


@handler("force-retreat")
def _force_retreat(g, sc, a, st):
    _combat(sc).forced_retreat.add(a["house"])
    return _nothing()


@handler("keep-march-order")
def _keep_march(g, sc, a, st):
    _combat(sc).keep_march = True
    return _nothing()


@handler("switch-support")
def _switch_support(g, sc, a, st):
    c = _combat(sc)
    if a["to"] not in c.sides():
        return _nothing()
    side = "attacker" if a["to"] == c.attacker else "defender"
    moved = [area for area in sorted(c.support) if g.state.house_in(area) == a["supporter"] and c.support[area] != side]
    for area in moved:
        c.support[area] = side
    if moved:
        g.emit("support", sc.rule, f"{a['supporter']}'s support from {', '.join(moved)} now goes to {a['to']} "
               f"({sc.card})", house=a["supporter"], side=side)
    return _nothing()


# ---- queries --------------------------------------------------------------------------------------

def _q(name):
    return query(name)


_q("is-winner")(lambda g, sc, a: _combat(sc).winner == a["house"])
_q("is-loser")(lambda g, sc, a: _combat(sc).loser == a["house"])
_q("is-attacker")(lambda g, sc, a: _combat(sc).attacker == a["house"])
_q("is-defender")(lambda g, sc, a: _combat(sc).defender == a["house"])
_q("is-supported")(lambda g, sc, a: bool(_combat(sc).supporters_of(g, a["house"])))
_q("supporters")(lambda g, sc, a: _combat(sc).supporters_of(g, a["house"]))
_q("combat-margin")(lambda g, sc, a: abs(_combat(sc).final[_combat(sc).attacker]
                                         - _combat(sc).final[_combat(sc).defender]))
_q("final-strength")(lambda g, sc, a: _combat(sc).final.get(a["house"], 0))
_q("combat-units")(lambda g, sc, a: _combat(sc).units_of(g, a.get("house"), a.get("kind"), a.get("role", "fighting")))
_q("is-transported-attack")(lambda g, sc, a: _combat(sc).transported)
_q("played-card")(lambda g, sc, a: _combat(sc).cards.get(a["house"]))
_q("has-played-card")(lambda g, sc, a: _combat(sc).cards.get(a["house"]) is not None)
_q("retreat-area")(lambda g, sc, a: _combat(sc).retreated_to.get(a["house"]))
_q("printed-strength")(lambda g, sc, a: 0 if a["card"] is None else g.rules.card(a["card"])["strength"])
_q("printed-swords")(lambda g, sc, a: 0 if a["card"] is None else g.rules.card(a["card"])["swords"])
_q("printed-fortifications")(lambda g, sc, a: 0 if a["card"] is None else g.rules.card(a["card"])["fortifications"])
_q("order-value")(lambda g, sc, a: g.order_value(a["area"]))
_q("has-order")(lambda g, sc, a: g.has_order(a["area"], a["type"], a.get("house")))
_q("hand")(lambda g, sc, a: list(g.state.houses[a["house"]].hand) if a["house"] in g.state.houses else [])
_q("discard-pile")(lambda g, sc, a: list(g.state.houses[a["house"]].discards) if a["house"] in g.state.houses
                   else [])
_q("house-cards")(lambda g, sc, a: g.rules.cards_of(a["house"], [a["set"]]))
_q("discard-piles")(lambda g, sc, a: [c for h in a["houses"] if h in g.state.houses
                                       for c in g.state.houses[h].discards])


@query("order-areas")
def _order_areas(g, sc, a):
    out = [area for area, o in sorted(g.state.orders.items()) if o["house"] == a["house"]]
    if a.get("near"):
        out = [x for x in out if g.board.are_adjacent(x, a["near"])]
    return out


@query("unused-orders")
def _unused_orders(g, sc, a):
    among = a.get("among")  # absent: any token; an empty list: none
    return sorted({o for o in run_procedure("unused-tokens")(g, a["house"]) if among is None or o in among})


def _strengths(g, cards):
    return {c: g.rules.card(c)["strength"] for c in cards}


@query("weakest")
def _weakest(g, sc, a):
    s = _strengths(g, a["cards"])
    low = min(s.values(), default=None)
    return [c for c in a["cards"] if s[c] == low]


@query("strongest")
def _strongest(g, sc, a):
    s = _strengths(g, a["cards"])
    high = max(s.values(), default=None)
    return [c for c in a["cards"] if s[c] == high]


@query("card-with-strength")
def _card_with_strength(g, sc, a):
    return [c for c in a["cards"] if g.rules.card(c)["strength"] == a["strength"]]


@query("cards-with-strength-at-most")
def _cards_with_strength_at_most(g, sc, a):
    return [c for c in a["cards"] if g.rules.card(c)["strength"] <= a["strength"]]


@query("units")
def _units(g, sc, a):
    houses = [a["house"]] if a.get("house") else list(g.state.houses)
    out = []
    for area, army in sorted(g.state.units.items()):
        if army["house"] not in houses or (a.get("in") is not None and area not in a["in"]):
            continue
        for i, u in enumerate(army["units"]):
            if a.get("kind") is None or u[0] == a["kind"]:
                out.append(unit_ref(area, i))
                if sc.combat is None:
                    sc.extra.setdefault(_PIECES, {})[out[-1]] = u
    return out


_q("area-of")(lambda g, sc, a: parse_unit(a["unit"])[0])
_q("available-units")(lambda g, sc, a: g.available_units(a["house"], a["kind"]))


@query("areas")
def _areas(g, sc, a):
    st = g.state
    kind, side, icon, by = a.get("kind"), a.get("side"), a.get("with"), a.get("controlled-by")
    uncontrolled, nf, min_units = a.get("uncontrolled"), a.get("neutral-force"), a.get("min-units")
    out = []
    for area in g.board.areas:  # each filter asked for, in this order; control read only when one asks for it
        aid = area.id
        if aid in st.blocked:
            continue
        if kind and area.kind != kind:
            continue
        if side and area.side != side:
            continue
        if icon and not g.has_icon(aid, icon):
            continue
        if by or uncontrolled:
            ctrl = g.controller(aid)
            if by and ctrl != by:
                continue
            if uncontrolled and ctrl is not None:
                continue
        if nf is not None and (aid in st.neutral_forces) != nf:
            continue
        if min_units and len(st.units_in(aid)) < min_units:
            continue
        out.append(aid)
    return out


_q("adjacent")(lambda g, sc, a: [x for x in g.board.neighbours(a["area"], a.get("kind"))
                                 if x not in g.state.blocked])
_q("has-icon")(lambda g, sc, a: g.has_icon(a["area"], a["icon"]))
_q("has-power-token")(lambda g, sc, a: g.state.power_tokens.get(a["area"]) is not None
                      and a.get("house") in (None, g.state.power_tokens.get(a["area"])))
_q("is-kind")(lambda g, sc, a: g.board.area(a["area"]).kind == a["kind"])
_q("controls")(lambda g, sc, a: g.controller(a["area"]) == a["house"])
_q("home-area")(lambda g, sc, a: g.rules.house(a["house"])["home"])


_q("river-areas")(lambda g, sc, a: g.river_areas())
_q("position")(lambda g, sc, a: g.state.position(a["house"], a["track"]))
_q("power")(lambda g, sc, a: g.state.houses[a["house"]].power if a["house"] in g.state.houses else 0)
_q("victory-points")(lambda g, sc, a: g.victory_points(a["house"]))
_q("bid")(lambda g, sc, a: g.state.houses[a["house"]].last_bid)
_q("wildling-threat")(lambda g, sc, a: g.state.wildling_threat)
_q("westeros-decks")(lambda g, sc, a: [d for d in g.game_rec["westeros_decks"]  # declared drawing order
                                       if g.state.decks.get(d)])
_q("others")(lambda g, sc, a: [h for h in g.turn_order if h != a["house"]])
_q("turn-order")(lambda g, sc, a: list(reversed(g.turn_order)) if a.get("reverse") else list(g.turn_order))
_q("holder")(lambda g, sc, a: g.holder(a["token"]))
_q("is-in-play")(lambda g, sc, a: a["house"] in g.state.houses)
_q("count")(lambda g, sc, a: len(a["items"]))
_q("numbers")(lambda g, sc, a: list(range(a["from"], a["to"] + 1)))
_q("contains")(lambda g, sc, a: a["item"] in a["items"])
_q("without")(lambda g, sc, a: [x for x in a["items"] if x not in a["removed"]])


@query("highest-track")
def _highest_track(g, sc, a):
    return min(g.track_ids(), key=lambda t: (g.state.position(a["house"], t), g.track_ids().index(t)))


def supply_of(g: Game, house: str) -> int:
    return control.barrel_count(g.state, g.board, house)


def _retreat_void(g, sc, a) -> bool:
    """Choosing the retreat area changes nothing when the loser has at most one area to go to."""
    return sc.combat is not None and run_procedure("retreat-is-forced")(g, sc.combat)


# primitives that can be seen in advance to do nothing: name -> (game, scope, evaluated args) -> bool
VOID_WHEN.update({
    "replace-unit": lambda g, sc, a: _replacement(g, sc, a) is None,
    "move-on-track": _track_move_void("move-on-track"),
    "move-down-track": _track_move_void("move-down-track"),
    "move-up-track": _track_move_void("move-up-track"),
    "choose-retreat-area": _retreat_void,
    "swap-house-card": lambda g, sc, a: _swap_pile(g, a) is None,
})
