"""Objectives changing hands after the deal (registry: return-objective, exchange-objectives): the A Feast for
Crows Westeros cards New Information (draw one, give one back) and Shifting Ambitions (a shared pool).

They work on the objectives part of the state (objectives.py): the secret `hands` and the shuffled `deck`.
A card a house gives is secret to it; the pool of an exchange is shown once shuffled, so the cards taken from
it are public.
"""

from __future__ import annotations

from ..core import cursor
from .evaluator import Proc, handler
from .objectives import _part, players

EXCHANGE = cursor.frame_kind(
    "objectives.exchange", "objectives are exchanged: each house gives one to a pool, then takes one from it", "",
    given=("object", "house -> the objective it put into the pool"),
    pool=("list", "the shuffled pool (empty until every house has given)"),
    shown=("bool", "the pool is shuffled and shown"),
    taken=("object", "house -> the objective it took from the pool"))


@handler("return-objective")
def _return(g, sc, a, st) -> Proc:
    house = a["house"]
    if house not in g.state.houses:
        return
    part = _part(g)
    hand = part["hands"].get(house, [])
    if not hand:
        return
    pick = yield from g.choose(house, "objective-return", f"{house}: which objective do you give back?",
                               sorted(hand), sc.rule)
    hand.remove(pick)
    part["deck"].append(pick)
    g.rng.shuffle(part["deck"])
    g.emit("objectives", sc.rule, f"{house} gives one objective card back into the shuffled deck", house=house,
           secret={"cards": [pick]})


@handler("exchange-objectives")
def _exchange(g, sc, a, st) -> Proc:
    f = cursor.enter(g, EXCHANGE, given={}, pool=[], shown=False, taken={})
    part = _part(g)
    order = [h for h in g.turn_order if h in players(g)]
    for h in order:
        hand = part["hands"].get(h, [])
        if h in f["given"] or not hand:
            continue
        pick = yield from g.choose(h, "objective-give", f"{h}: which objective do you put into the pool?",
                                   sorted(hand), sc.rule)
        hand.remove(pick)
        f["given"][h] = pick
        g.emit("objectives", sc.rule, f"{h} puts one objective card into the pool", house=h,
               secret={"cards": [pick]})
    if not f["shown"]:
        pool = [f["given"][h] for h in order if h in f["given"]]
        g.rng.shuffle(pool)
        f.update(pool=pool, shown=True)
        if pool:
            g.emit("objectives", sc.rule, f"the pool of {len(pool)} objective card(s) is shuffled and shown",
                   cards=sorted(pool))
    for h in order:
        if h not in f["given"] or h in f["taken"] or not f["pool"]:
            continue
        pick = yield from g.choose(h, "objective-take", f"{h}: which objective of the pool do you take?",
                                   sorted(f["pool"]), sc.rule)
        f["pool"].remove(pick)
        part["hands"].setdefault(h, []).append(pick)
        f["taken"][h] = pick
        g.emit("objectives", sc.rule, f"{h} takes {pick} from the pool", house=h, objective=pick)
    cursor.leave(g, f)
