"""The Westeros Phase (R6), influence bidding (R10), wildling attacks (R11) and power collection."""

from __future__ import annotations

from typing import TYPE_CHECKING

from . import control, cursor
from .effects import Scope, reached_calls, run
from .procedures import procedure

if TYPE_CHECKING:
    from .game import Game, Proc

REDRAW = "redraw-on-reveal"  # registry mark: the card's deck is reshuffled and drawn again (R7.2)


def _draw(g: Game, deck: str) -> Proc:
    """Reveal the top card of a deck; a card that reshuffles its deck is replaced at once (R7.2, R6.4)."""
    st = g.state
    while True:
        if not st.decks.get(deck):
            st.decks[deck] = g.rules.westeros_deck(deck, g.game_rec)
            g.rng.shuffle(st.decks[deck])
        card = st.decks[deck].pop(0)
        rec = g.rules.westeros_card(card)
        g.emit("westeros-card", "R6.2.2", f"deck {deck.upper()}: {rec['name']}", deck=deck, card=card)
        if any(reached_calls(g, rec["effect"], Scope(card=card, rule="R7.2"), REDRAW)):
            st.decks[deck] = g.rules.westeros_deck(deck, g.game_rec)
            g.rng.shuffle(st.decks[deck])
            g.emit("reshuffle", "R7.2", f"deck {deck.upper()} is reshuffled and a new card is revealed",
                   deck=deck)
            continue
        return card
    yield  # pragma: no cover - keeps this a generator for callers using `yield from`


def westeros_phase(g: Game) -> Proc:
    st = g.state
    resume = cursor.resumed(st, cursor.WESTEROS_RESOLVE)
    if resume is None:
        g.emit("phase", "R6", f"round {st.round}: Westeros Phase")
        yield from g.at_round_start()
        drawn = []
        order = g.game_rec["westeros_decks"]  # the rules set declares its decks in drawing order (R6.2.2)
        for deck in sorted(st.decks, key=order.index):
            card = yield from _draw(g, deck)
            drawn.append([deck, card])
        icons = sum(1 for _, c in drawn if g.rules.westeros_card(c)["wildling_icon"])
        if icons:
            yield from advance_wildlings(g, icons)
        start = 0
    else:
        drawn, start = [list(d) for d in resume["drawn"]], resume["next"]
    for i in range(start, len(drawn)):
        deck, card = drawn[i]
        cursor.place(st, cursor.WESTEROS_RESOLVE, drawn=drawn, next=i)
        g._checkpoint()
        rec = g.rules.westeros_card(card)
        g.emit("resolve-card", "R6.2.4", f"resolving {rec['name']} (deck {deck.upper()})", card=card)
        g.before_westeros_card(card)
        yield from run(g, rec["effect"], Scope(card=card, rule="R6.2.4"))
        g.check_victory()
    cursor.clear(st)
    yield from g.after_westeros_cards()


@procedure("advance-wildlings")
def advance_wildlings(g: Game, steps: int) -> Proc:
    """Each wildling icon moves the threat up one space (+2); at 12 a wildling attack follows (R6.2.3)."""
    st = g.state
    if not g.game_rec.get("wildlings", True):  # a rules set without wildlings: the threat never moves
        return
    top = max(g.game_rec["wildling_track"])
    step = g.game_rec["wildling_track"][1] - g.game_rec["wildling_track"][0]
    new = min(top, st.wildling_threat + step * steps)
    g.emit("wildlings", "R6.2.3", f"the wildling threat rises from {st.wildling_threat} to {new}", threat=new)
    st.wildling_threat = new
    if new >= top:
        yield from wildling_attack(g)


def _bids(g: Game, houses: list[str], kind: str, prompt: str, rule: str) -> Proc:
    """Secret bids, revealed together (R10.2, R11.3); every bid token goes to the pool (R10.5, R11.7)."""
    bids = {}
    for h in houses:
        power = g.state.houses[h].power
        bids[h] = yield from g.choose(h, kind, f"{h}: {prompt} (0–{power})", list(range(power + 1)), rule)
    for h, b in bids.items():
        g.state.houses[h].power -= b
        g.state.houses[h].last_bid = b
    g.emit("bids", rule, "bids: " + ", ".join(f"{h} {b}" for h, b in bids.items()), bids=bids)
    return bids


def _rank(g: Game, bids: dict[str, int], decider: str, rule: str, what: str) -> Proc:
    """Order houses by bid, highest first; the decider orders tied houses (R10.4, R11.6.4)."""
    out: list[str] = []
    for amount in sorted(set(bids.values()), reverse=True):
        tied = [h for h in g.turn_order if bids.get(h) == amount]
        fixed = [h for h in tied if g.keeps_last_place(h)]  # last whatever is decided (R36.2): never asked
        tied = [h for h in tied if h not in fixed]
        while len(tied) > 1:
            pick = yield from g.choose(decider, "break-tie", f"{decider}: who of {', '.join(tied)} (bid {amount}) "
                                       f"goes first {what}?", tied, rule, tied=list(tied))  # `tied` shrinks below
            out.append(pick)
            tied.remove(pick)
        out.extend(tied + fixed)
    return out


@procedure("bid-on-influence-tracks")
def influence_bidding(g: Game) -> Proc:
    """Bid for each influence track in order; positions follow the bids (R10)."""
    for track in g.track_ids():
        bidders = [h for h in g.turn_order if h in g.state.tracks[track] and g.takes_part_in_bidding(h)]
        bids = yield from _bids(g, bidders, "influence-bid", f"bid for the {track} track", "R10.2")
        bids.update({h: 0 for h in g.state.tracks[track] if h not in bidders})  # the others bid 0 (R35.6)
        bids = yield from g.adjust_bids(track, bids)
        decider = g.holder(g.token_of_track(g.turn_track))
        order = yield from _rank(g, bids, decider, "R10.4", f"on the {track} track")
        g.set_track(track, order, "R10.3")
        g.state.seized_tokens.pop(g.token_of_track(track), None)  # the new first place takes it (R10.6)


def _pick_bidder(g: Game, bids: dict[str, int], highest: bool, decider: str) -> Proc:
    """The highest or the lowest bidder; the Iron Throne holder decides a tie for that place (R11.6.4)."""
    best = max(bids.values()) if highest else min(bids.values())
    tied = [h for h in g.turn_order if h in bids and bids[h] == best]
    which = "highest" if highest else "lowest"
    pick = yield from g.choose(decider, "break-tie", f"{decider}: who of {', '.join(tied)} (bid {best}) is the "
                               f"{which} bidder?", tied, "R11.6.4", tied=tied, which=which)
    g.emit("bidder", "R11.6.4", f"{pick} is the {which} bidder", house=pick, which=which)
    return pick


@procedure("wildling-attack")
def wildling_attack(g: Game, strength: int | None = None, excluded: str | None = None) -> Proc:
    """A wildling attack (R11): bids, the Night's Watch or the wildlings win, a wildling card."""
    if not g.game_rec.get("wildlings", True):
        g.emit("no-wildlings", "R11", "no wildling attack: this rules set plays without wildlings")
        return
    st = g.state
    on_track = strength is None
    strength = st.wildling_threat if strength is None else strength
    g.emit("wildling-attack", "R11.2", f"a wildling attack of strength {strength}", strength=strength)
    bidders = [h for h in g.turn_order if h != excluded and g.takes_part_in_bidding(h)]
    bids = yield from _bids(g, bidders, "wildling-bid", f"bid against the wildlings (strength {strength})", "R11.3")
    total = sum(bids.values())
    card = st.wildling_deck.pop(0)
    rec = g.rules.wildling_card(card)
    decider = g.holder(g.token_of_track(g.turn_track))
    sc = Scope(card=card, rule="R11.6", extra={"bids": bids})
    sc.vars["wildling-strength"] = strength
    if total >= strength:
        g.emit("wildlings-lose", "R11.5", f"the Night's Watch wins ({total} against {strength}); card: {rec['name']}",
               card=card)
        if bidders:
            highest = yield from _pick_bidder(g, bids, True, decider)
            sc.vars.update({"highest-bidder": highest, "everyone-else": []})
            sc.owner = highest
            yield from run(g, rec["night_watch_victory"], sc)
        if on_track:
            st.wildling_threat = g.game_rec["wildling_track"][0]
    else:
        g.emit("wildlings-win", "R11.5", f"the wildlings win ({total} against {strength}); card: {rec['name']}",
               card=card)
        if bidders:
            lowest = yield from _pick_bidder(g, bids, False, decider)
            sc.vars.update({"lowest-bidder": lowest,
                            "everyone-else": [h for h in g.turn_order if h in bidders and h != lowest]})
            sc.owner = lowest
            yield from run(g, rec["lowest_bidder"], sc)
            yield from run(g, rec["everyone_else"], sc)
        if on_track:
            track = g.game_rec["wildling_track"]
            st.wildling_threat = max(track[0], st.wildling_threat - 2 * (track[1] - track[0]))
    st.wildling_deck.append(card)
    g.emit("wildling-card", "R11.6.5", f"{rec['name']} goes to the bottom of the wildling deck", card=card)
    if on_track:
        g.emit("wildlings", "R11.8", f"the wildling threat is now {st.wildling_threat}", threat=st.wildling_threat)
    g.check_victory()


@procedure("collect-power")
def collect_power(g: Game, ports: bool, rule: str) -> None:
    """Power for the power icons of controlled land areas, and for qualifying ports (R7.9, R24.9)."""
    for house in g.turn_order:
        if not g.may_hold_power(house):
            continue
        lands = control.controlled_areas(g.state, g.board, house)
        amount = sum(g.power_icons(a) for a in lands)
        if ports:
            for land in lands:
                port = g.board.port_of(land)
                if port and g.state.house_in(port) == house:
                    sea = g.board.area(port).port_sea
                    if g.state.house_in(sea) in (None, house):
                        amount += 1
        g.gain_power(house, amount, rule, "power icons")
