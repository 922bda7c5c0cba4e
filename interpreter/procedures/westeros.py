"""The Westeros Phase (R6), influence bidding (R10), wildling attacks (R11) and power collection.

Each procedure here that asks a decision keeps its progress in a frame (cursor.py): the cards drawn, the bids
given so far (secret until revealed, like the deck order), the track being bid for, the houses ranked so far, the
wildling card and its bidder. Restarted from the state alone, a procedure finds its frame, skips what it says is
done (emitting nothing again) and calls the procedure it was in the same way, down to the pending decision.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..core import control, cursor
from ..core.procedure_registry import procedure
from ..effects import Scope, reached_calls, run
from . import moments

if TYPE_CHECKING:
    from .game import Game, Proc

REDRAW = "redraw-on-reveal"  # registry mark: the card's deck is reshuffled and drawn again (R7.2)

# the stages of the phase's opening and of the bidding for one track
ROUND_START, WILDLINGS = "round-start", "wildlings"
BIDS, ADJUST, RANK = "bids", "adjust", "rank"

OPENING = cursor.frame_kind(
    "westeros.opening", "the Westeros Phase before its first card: the round's start, the draw and the wildlings' "
    "advance", "R6.2",
    stage=("string", f"'{ROUND_START}': the round's start is in progress (nothing drawn yet); '{WILDLINGS}': the "
                     "cards are drawn and the wildlings advance"),
    drawn=("drawn", "the cards drawn, [deck, card] in drawing order (empty before the draw)"))
CARD = cursor.frame_kind(
    "westeros.card", "a drawn Westeros card is being resolved: it is announced, its effect runs", "R6.2.4",
    card=("westeros-card", "the Westeros card whose effect runs"))
ADVANCE = cursor.frame_kind(
    "wildlings.advance", "the wildling threat reached the top of its track: the wildling attack it starts is in "
    "progress", "R6.2.3")
ATTACK = cursor.frame_kind(
    "wildlings.attack", "a wildling attack: the secret bids, then the wildling card drawn", "R11",
    unpaid_bids=("bids", "card", None),
    strength=("int", "the wildlings' strength"),
    bids=("bids", "house -> bid, the bids given so far in bidding order (secret until every house has bid)"),
    card=("wildling-card-or-null", "the wildling card drawn once the bids are revealed (null before)"),
    bidder=("house-or-null", "the highest bidder (the Night's Watch won) or the lowest bidder (the wildlings "
                              "won) once chosen (null before)"),
    part=("int", "which of the card's texts runs: 0 the winner's or the lowest bidder's, 1 everyone else's"))
BIDDING = cursor.frame_kind(
    "bidding.influence", "bidding on the influence tracks, one track after the other", "R10",
    unpaid_bids=("bids", "stage", BIDS),
    track=("count", "the track (0-based, in track order) being bid for"),
    stage=("string", f"'{BIDS}': the secret bids are given; '{ADJUST}': revealed, being adjusted (bids given away, "
                     f"R36.4); '{RANK}': the houses are being ranked, the decider breaking ties"),
    bids=("bids", "house -> bid, the bids given so far in bidding order (secret until every house has bid)"),
    revealed=("bids", "the revealed bids, every house of the track (those who did not bid: 0)"),
    ranked=("bids", "the bids the ranking follows (after any bids given away)"),
    order=("houses", "the houses placed on the track so far, first place first"))


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


def _opening(g: Game) -> Proc:
    """The round's start, the draw and the wildlings' advance (R6.2.1-R6.2.3); returns the cards drawn."""
    st = g.state
    restart = cursor.restarting(g)
    f = cursor.enter(g, OPENING, stage=ROUND_START, drawn=[])
    if not restart:
        g.emit("phase", "R6", f"round {st.round}: Westeros Phase")
    if f["stage"] == ROUND_START:
        yield from g.at_round_start()
        order = g.game_rec["westeros_decks"]  # the rules set declares its decks in drawing order (R6.2.2)
        for deck in sorted(st.decks, key=order.index):
            card = yield from _draw(g, deck)
            f["drawn"].append([deck, card])
        f["stage"] = WILDLINGS
    drawn = [list(d) for d in f["drawn"]]
    icons = sum(1 for _, c in drawn if g.rules.westeros_card(c)["wildling_icon"])
    if icons:
        yield from advance_wildlings(g, icons)
    cursor.leave(g, f)
    return drawn


def westeros_phase(g: Game) -> Proc:
    st = g.state
    resume = cursor.resumed(st, cursor.WESTEROS_RESOLVE)
    if resume is None:
        drawn = yield from _opening(g)
        start = 0
    else:
        drawn, start = [list(d) for d in resume["drawn"]], resume["next"]
    for i in range(start, len(drawn)):
        deck, card = drawn[i]
        cursor.place(st, cursor.WESTEROS_RESOLVE, drawn=drawn, next=i)
        yield from moments.settle(g, "card")  # game abilities of what happened since (cards revealed, ...)
        restart = cursor.restarting(g)  # inside this card's resolution: it was announced already
        rec = g.rules.westeros_card(card)
        if not restart:
            g.emit("resolve-card", "R6.2.4", f"resolving {rec['name']} (deck {deck.upper()})", card=card)
            g.before_westeros_card(card)
        f = cursor.enter(g, CARD, card=card)
        yield from run(g, rec["effect"], Scope(card=card, rule="R6.2.4"))
        cursor.leave(g, f)
        g.check_victory()
    cursor.clear(st)
    yield from g.after_westeros_cards()


@procedure("advance-wildlings")
def advance_wildlings(g: Game, steps: int) -> Proc:
    """Each wildling icon moves the threat up one space (+2); at 12 a wildling attack follows (R6.2.3)."""
    st = g.state
    if not g.game_rec.get("wildlings", True):  # a rules set without wildlings: the threat never moves
        return
    if not cursor.restarting(g):  # (restarting, the threat has risen already: the attack is in progress)
        top = max(g.game_rec["wildling_track"])
        step = g.game_rec["wildling_track"][1] - g.game_rec["wildling_track"][0]
        new = min(top, st.wildling_threat + step * steps)
        g.emit("wildlings", "R6.2.3", f"the wildling threat rises from {st.wildling_threat} to {new}", threat=new)
        st.wildling_threat = new
        if new < top:
            return
    f = cursor.enter(g, ADVANCE)
    yield from wildling_attack(g)
    cursor.leave(g, f)


def _bids(g: Game, f: dict, houses: list[str], kind: str, prompt: str, rule: str,
          zeros: list[str] | None = None) -> Proc:
    """Secret bids, revealed together (R10.2, R11.3); every bid token goes to the pool (R10.5, R11.7). The
    frame's `bids` keeps the bids given so far; a house found there has bid already. `zeros`: houses that take
    no part and count as bidding 0 (R35.6), revealed with the others."""
    bids = f["bids"]
    for h in houses:
        if h in bids:
            continue
        power = g.state.houses[h].power
        if not power:  # one legal bid, taken at once (as `choose` takes it)
            bids[h] = 0
            continue
        bids[h] = yield from g.choose(h, kind, f"{h}: {prompt} (0–{power})", list(range(power + 1)), rule)
    for h, b in bids.items():
        g.state.houses[h].power -= b
        g.state.houses[h].last_bid = b
    revealed = {**bids, **{h: 0 for h in zeros or []}}
    g.emit("bids", rule, "bids: " + ", ".join(f"{h} {b}" for h, b in bids.items()), bids=dict(revealed))
    return revealed


FIXED_PLACE = "fixed-place"  # the skip kind (core/skips.py)


def _rank(g: Game, out: list[str], bids: dict[str, int], decider: str, rule: str, what: str) -> Proc:
    """Order houses by bid, highest first; the decider orders tied houses (R10.4, R11.6.4). `out` (the frame's)
    holds the houses placed so far: a restart goes on after them."""
    for amount in sorted(set(bids.values()), reverse=True):
        tied = [h for h in g.turn_order if bids.get(h) == amount and h not in out]
        fixed = [h for h in tied if g.keeps_last_place(h)]  # last whatever is decided (R36.2): never asked
        tied = [h for h in tied if h not in fixed]
        marked = {}
        if fixed and len(tied) == 1 and not g.skips(FIXED_PLACE):  # the debug switch asks it anyway, marked
            tied, fixed, marked = tied + fixed, [], {"skip": FIXED_PLACE}
        while len(tied) > 1:
            pick = yield from g.choose(decider, "break-tie", f"{decider}: who of {', '.join(tied)} (bid {amount}) "
                                       f"goes first {what}?", tied, rule, tied=list(tied), **marked)  # shrinks
            out.append(pick)
            tied.remove(pick)
        out.extend(tied + fixed)
    return list(out)


@procedure("bid-on-influence-tracks")
def influence_bidding(g: Game) -> Proc:
    """Bid for each influence track in order; positions follow the bids (R10)."""
    tracks = g.track_ids()
    f = cursor.enter(g, BIDDING, track=0, stage=BIDS, bids={}, revealed={}, ranked={}, order=[])
    for i in range(f["track"], len(tracks)):
        track = tracks[i]
        if f["stage"] == BIDS:
            bidders = [h for h in g.turn_order if h in g.state.tracks[track] and g.takes_part_in_bidding(h)]
            others = [h for h in g.state.tracks[track] if h not in bidders]  # they bid 0 (R35.6)
            bids = yield from _bids(g, f, bidders, "influence-bid", f"bid for the {track} track", "R10.2", others)
            f["stage"], f["revealed"] = ADJUST, bids
        if f["stage"] == ADJUST:
            bids = yield from g.adjust_bids(track, dict(f["revealed"]))
            f["stage"], f["ranked"] = RANK, dict(bids)
        decider = g.holder(g.token_of_track(g.turn_track))
        order = yield from _rank(g, f["order"], f["ranked"], decider, "R10.4", f"on the {track} track")
        g.set_track(track, order, "R10.3")
        g.state.seized_tokens.pop(g.token_of_track(track), None)  # the new first place takes it (R10.6)
        f.update(track=i + 1, stage=BIDS, bids={}, revealed={}, ranked={}, order=[])
    cursor.leave(g, f)


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
    restart = cursor.restarting(g)
    f = cursor.enter(g, ATTACK, strength=st.wildling_threat if strength is None else strength, bids={}, card=None,
                     bidder=None, part=0)
    strength = f["strength"]
    if not restart:
        g.emit("wildling-attack", "R11.2", f"a wildling attack of strength {strength}", strength=strength)
    bidders = [h for h in g.turn_order if h != excluded and g.takes_part_in_bidding(h)]
    if f["card"] is None:
        bids = yield from _bids(g, f, bidders, "wildling-bid", f"bid against the wildlings (strength {strength})",
                                "R11.3")
    else:
        bids = dict(f["bids"])
    total = sum(bids.values())
    night_watch = total >= strength
    revealing = f["card"] is None
    if revealing:
        f["card"] = st.wildling_deck.pop(0)
    card = f["card"]
    rec = g.rules.wildling_card(card)
    decider = g.holder(g.token_of_track(g.turn_track))
    sc = Scope(card=card, rule="R11.6", extra={"bids": bids})
    sc.vars["wildling-strength"] = strength
    if night_watch:
        if revealing:
            g.emit("wildlings-lose", "R11.5", f"the Night's Watch wins ({total} against {strength}); card: "
                   f"{rec['name']}", card=card)
        if bidders:
            if f["bidder"] is None:
                f["bidder"] = yield from _pick_bidder(g, bids, True, decider)
            highest = f["bidder"]
            sc.vars.update({"highest-bidder": highest, "everyone-else": []})
            sc.owner = highest
            yield from run(g, rec["night_watch_victory"], sc)
        if on_track:
            st.wildling_threat = g.game_rec["wildling_track"][0]
    else:
        if revealing:
            g.emit("wildlings-win", "R11.5", f"the wildlings win ({total} against {strength}); card: {rec['name']}",
                   card=card)
        if bidders:
            if f["bidder"] is None:
                f["bidder"] = yield from _pick_bidder(g, bids, False, decider)
            lowest = f["bidder"]
            sc.vars.update({"lowest-bidder": lowest,
                            "everyone-else": [h for h in g.turn_order if h in bidders and h != lowest]})
            sc.owner = lowest
            if f["part"] == 0:
                yield from run(g, rec["lowest_bidder"], sc)
                f["part"] = 1
            yield from run(g, rec["everyone_else"], sc)
        if on_track:
            track = g.game_rec["wildling_track"]
            st.wildling_threat = max(track[0], st.wildling_threat - 2 * (track[1] - track[0]))
    cursor.leave(g, f)
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


# ---- the steps of the Westeros Phase and of the wildlings (core/steps.py; docs/procedures.md) ------------------
from ..core.steps import ask, effect, either, emit, group, hook, step, sub  # noqa: E402  (declarations only)

_M = "interpreter/procedures/westeros.py"
_STARTS = ("mustering.supply mustering.reconcile mustering.muster bidding.influence wildlings.attack "
           "wildlings.advance westeros.collect-power")
step("westeros", "The Westeros Phase", "R6",
     "The state's `phase` is `westeros` (every round but the first). The round's start (a rules module's steps), "
     "then one card is drawn from each Westeros deck of the setup in the rules set's deck order, the "
     "wildlings advance two spaces per wildling icon drawn, and the cards are resolved in the order drawn. Victory "
     "is checked after each card.",
     emit("phase", "R6", "once, first", times="1"),
     hook("westeros.round-start", "what happens at the start of a round, before the draw"),
     sub("westeros.draw", "for each deck", times="+"),
     sub("wildlings.advance", "when a drawn card shows a wildling icon"),
     sub("westeros.card", "for each card drawn, in drawing order", times="+"),
     hook("westeros.after-cards", "after every card is resolved"),
     module=_M)
step("westeros.draw", "Draw a Westeros card", "R6.2.2 R7.2",
     "The top card of the deck is revealed; an empty deck is first rebuilt (every card id of the deck sorted by id, "
     "one entry per copy) and shuffled, with no event. A card whose effect reshuffles its deck (registry mark "
     "`redraw-on-reveal`) has the whole deck rebuilt and shuffled, and the new top card is revealed instead.",
     emit("westeros-card", "R6.2.2", "`deck`, `card`", times="1"),
     sub("westeros.redraw", times="*"),
     module=_M)
step("westeros.redraw", "The deck is reshuffled", "R7.2", "",
     emit("reshuffle", "R7.2", "`deck`", times="1"),
     emit("westeros-card", "R6.2.2", "the new top card: `deck`, `card`", times="1"),
     module=_M)
step("wildlings.advance", "The wildlings advance", "R6.2.3",
     "Without wildlings in the rules set nothing happens. Each wildling icon moves the threat one step of the "
     "wildling track up (two spaces), at most to the top; at the top a wildling attack of the threat's strength "
     "follows.",
     emit("wildlings", "R6.2.3", "`threat` the new threat", times="?"),
     sub("wildlings.attack", "when the threat reaches the top"),
     module=_M)
step("westeros.card", "Resolve a Westeros card", "R6.2.4",
     "The card's effect runs (docs/effects.md); then victory is checked.",
     emit("resolve-card", "R6.2.4", "`card`", times="1"),
     hook("westeros.before-card", "just before the card's effect"),
     effect("the Westeros card's effect", "R6.2.4", starts=_STARTS),
     module=_M)
step("wildlings.attack", "A wildling attack", "R11",
     "Every house that takes part (a rules module may leave some out; an effect may leave one out) bids in secret, in "
     "turn order, any number from 0 to its available power; the bids are revealed together and discarded to the "
     "pool (each bidder's `last_bid` records its bid). If the bids total at least the strength the Night's Watch "
     "wins: the highest bidder resolves the card's "
     "victory text and an attack from the track resets the threat to the bottom. Otherwise the wildlings win: the "
     "lowest bidder resolves its text, then every other bidder its text; an attack from the track moves the threat "
     "down two steps. The card goes to the bottom of the wildling deck. Without wildlings in the rules set only "
     "`no-wildlings` is emitted.",
     either(
         [emit("no-wildlings", "R11", "the rules set plays without wildlings", times="1")],
         [emit("wildling-attack", "R11.2", "`strength`", times="1"),
          ask("wildling-bid", "R11.3", "each taking part, in turn order", "in turn", "the numbers 0 up to its "
              "available power, ascending", "when it has no power (0 is taken)", times="*"),
          emit("bids", "R11.3", "`bids` house -> bid, in bidding order", times="1"),
          either([emit("wildlings-lose", "R11.5", "`card` the wildling card", times="1")],
                 [emit("wildlings-win", "R11.5", "`card` the wildling card", times="1")]),
          sub("wildlings.bidder", "when some house bid"),
          effect("the wildling card's text(s)", "R11.6", starts=_STARTS),
          emit("wildling-card", "R11.6.5", "`card`", times="1"),
          emit("wildlings", "R11.8", "an attack from the track: `threat` the new threat")]),
     module=_M)
step("wildlings.bidder", "The highest or lowest bidder", "R11.6.4",
     "Ties for the highest (Night's Watch won) or lowest (wildlings won) bid are broken by the holder of the "
     "Iron Throne's dominance token.",
     ask("break-tie", "R11.6.4", "the Iron Throne holder", "when houses tie",
         "the tied houses in turn order", "when one house has that bid"),
     emit("bidder", "R11.6.4", "`house`, `which` (`highest` or `lowest`)", times="1"),
     module=_M)
step("bidding.influence", "Bidding on the influence tracks", "R10",
     "Started by an effect (a Westeros card). For each influence track in the rules set's order: the houses on "
     "the track that take part bid in secret, in turn order (0 up to their available power; a house that takes no "
     "part counts as bidding 0, R35.6); the bids are revealed and discarded (each bidder's `last_bid` records its "
     "bid); a rules module may then adjust them (R36.4); the houses are ranked by bid, highest first, the "
     "Iron Throne holder ordering each tie (houses that keep the last places go last, R36.2); the track is set "
     "and the card-seized dominance token of that track returns (R10.6).",
     group(ask("influence-bid", "R10.2", "each bidder, in turn order", "for the track", "0 up to its available "
               "power, ascending", "when it has no power", times="*"),
           emit("bids", "R10.2", "`bids` every house of the track (non-bidders 0)", times="1"),
           hook("bidding.after-reveal", "the revealed bids adjusted before the ranking"),
           ask("break-tie", "R10.4", "the Iron Throne holder", "for each place among tied houses",
               "the tied houses not placed yet, in turn order", "when one is left", times="*"),
           emit("track", "R10.3", "`track`, `order`", times="1"),
           when="for each track, in the rules set's order"),
     module=_M)
step("westeros.collect-power", "Collect power", "R7.9 R24.9",
     "Started by an effect. Each house that may hold power, in turn order, gains the power icons of the land areas "
     "it controls (and, when the effect says so, 1 per port of such an area holding its ships whose sea holds no "
     "enemy ship).",
     emit("power", "R7.9", "each house's gain", times="*"),
     module=_M)
_ = ask  # (all decisions are declared above)
