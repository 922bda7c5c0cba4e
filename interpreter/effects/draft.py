"""Steps before the game as primitives: drafting house cards from a shared pool (registry: draft-house-cards).

The pool, the picking order and how far the draft has got are kept in a frame (`DRAFT`), so a game restarts
at any pick from its state alone. Picks are public (the cards are face up in the pool).
"""

from __future__ import annotations

from ..core import cursor
from .evaluator import QUERIES, Proc, Scope, handler

DRAFT = cursor.frame_kind(
    "draft.house-cards", "house cards are drafted from a shared pool, one pick at a time", "",
    pool=("strings", "the cards still in the pool"),
    order=("strings", "the house making each pick, in picking order"),
    next=("int", "the 0-based pick asked now"))


def _snake(houses: list[str], rounds: int) -> list[str]:
    """Turn order, then reversed, and so on: each house picks `rounds` times (a snake draft)."""
    out: list[str] = []
    for r in range(rounds):
        out += houses if r % 2 == 0 else list(reversed(houses))
    return out


@handler("draft-house-cards")
def _draft(g, sc, a, st) -> Proc:
    if not cursor.restarting(g):
        houses = QUERIES["player-houses"](g, Scope(), {})
        sets = list(a["sets"])
        pool = sorted({c for s in sets for c in g.rules.bundle["card_sets"][s]["cards"]
                       if g.rules.bundle["house_cards"][c]["house"] is not None})
        count = max(0, min(a["count"], len(pool) // max(1, len(houses))))
        for h in houses:  # the houses' own decks give way to the draft
            hs = g.state.houses[h]
            hs.hand, hs.discards = [], []
        g.emit("draft", sc.rule, f"the houses draft {count} house cards each from a pool of {len(pool)}",
               cards=list(pool))
        f = cursor.enter(g, DRAFT, pool=pool, order=_snake(houses, count), next=0)
    else:
        f = cursor.enter(g, DRAFT)
    while f["next"] < len(f["order"]):
        house = f["order"][f["next"]]
        pick = yield from g.choose(house, "draft-card", f"{house}: draft a house card", list(f["pool"]), sc.rule)
        f["pool"].remove(pick)
        g.state.houses[house].hand.append(pick)
        g.emit("draft", sc.rule, f"{house} drafts {pick}", house=house, card=pick)
        f["next"] += 1
    for h in set(f["order"]):
        g.state.houses[h].hand.sort()
    cursor.leave(g, f)
