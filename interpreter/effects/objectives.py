"""Objective cards (a scenario's victory by objectives) as primitives: deal, draw and score them (registry:
deal-objectives, draw-objectives, score-objective, score-special-objective).

The rules set lists the objectives in play (`objectives` of the rules set; records in the bundle's
`objectives`: a condition over the position with `house` bound, the points each house scores, `special` for a
house's own objective). Their part of the state is `state.modules["objectives"]`: the shuffled `deck`, each
house's secret `hands` and the `scored` ones (public). A house's hand is secret: the draws are `objectives`
events whose `secret` only that house sees; a scored objective is revealed by its `objective-scored` event.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..core import control, cursor
from .evaluator import QUERIES, Proc, Scope, _nothing, ev, handler, query

if TYPE_CHECKING:
    from ..procedures.game import Game

STATE_KEY = "objectives"
NONE = "none"  # the answer that scores nothing

DEAL = cursor.frame_kind(
    "objectives.deal", "objectives are dealt: each house draws, then gives back the ones it does not keep", "",
    dealt=("bool", "the objectives are drawn (the hands hold them)"),
    back=("object", "house -> the objectives it gave back so far"))


def _records(g: Game) -> dict:
    return g.rules.bundle.get("objectives") or {}


def _in_play(g: Game) -> list[str]:
    return list(g.game_rec.get("objectives") or [])


def _part(g: Game) -> dict:
    part = g.state.modules.setdefault(STATE_KEY, {})
    if "deck" not in part:  # the first use: the deck of the rules set's non-special objectives, shuffled
        records = _records(g)
        deck = [o for o in _in_play(g) if not records[o].get("special")]
        g.rng.shuffle(deck)
        part.update(deck=deck, hands={}, scored={})
    return part


def players(g: Game) -> list[str]:
    return QUERIES["player-houses"](g, Scope(), {})


def met(g: Game, objective: str, house: str) -> bool:
    """Does `house` meet the objective's condition now?"""
    return bool(ev(g, _records(g)[objective]["condition"], Scope(vars={"house": house}, owner=house)))


def _draw(g: Game, house: str, n: int, rule: str) -> None:
    part = _part(g)
    hand = part["hands"].setdefault(house, [])
    drawn = [part["deck"].pop(0) for _ in range(min(n, len(part["deck"])))]
    hand.extend(drawn)
    if drawn:
        g.emit("objectives", rule, f"{house} draws {len(drawn)} objective card(s)", house=house,
               secret={"cards": drawn})


@handler("deal-objectives")
def _deal(g, sc, a, st) -> Proc:
    houses, count, keep = players(g), max(0, a["count"]), max(0, a["keep"])
    f = cursor.enter(g, DEAL, dealt=False, back={})
    part = _part(g)
    if not f["dealt"]:
        for h in houses:
            _draw(g, h, count, sc.rule)
        f["dealt"] = True
    for h in houses:
        hand = part["hands"].get(h, [])
        back = f["back"].setdefault(h, [])
        while len(hand) > keep:
            pick = yield from g.choose(h, "objective-return", f"{h}: which objective do you give back? (you keep "
                                       f"{keep})", sorted(hand), sc.rule)
            hand.remove(pick)
            back.append(pick)
    returned = [o for h in houses for o in f["back"].get(h, [])]
    if returned:
        part["deck"].extend(returned)
        g.rng.shuffle(part["deck"])
        g.emit("objectives", sc.rule, f"{len(returned)} objective card(s) go back into the shuffled deck")
    cursor.leave(g, f)


@handler("draw-objectives")
def _draw_up_to(g, sc, a, st):
    house = a["house"]
    if house in g.state.houses:
        have = len(_part(g)["hands"].get(house, []))
        if a["up-to"] > have:
            _draw(g, house, a["up-to"] - have, sc.rule)
    return _nothing()


def _score(g: Game, house: str, objective: str, rule: str, special: bool) -> None:
    rec = _records(g)[objective]
    points = rec["points"].get(house, 0)
    part = _part(g)
    if not special:
        part["hands"][house].remove(objective)
        part["scored"].setdefault(house, []).append(objective)
    g.emit("objective-scored", rule, f"{house} scores {rec['name']} for {points} victory point(s)", house=house,
           objective=objective, points=points)
    g.gain_victory_points(house, points, rule, rec["name"])


@handler("score-objective")
def _score_one(g, sc, a, st) -> Proc:
    house = a["house"]
    if house not in g.state.houses:
        return
    hand = _part(g)["hands"].get(house, [])
    scorable = sorted(o for o in hand if met(g, o, house))
    if not scorable:
        return
    pick = yield from g.choose(house, "score-objective", f"{house}: score one of your objectives?",
                               [*scorable, NONE], sc.rule)
    if pick != NONE:
        _score(g, house, pick, sc.rule, special=False)


@handler("score-special-objective")
def _score_special(g, sc, a, st) -> Proc:
    house = a["house"]
    special = next((o for o in _in_play(g) if _records(g)[o].get("special") == house), None)
    if special is None or not met(g, special, house):
        return
    pick = yield from g.choose(house, "score-objective", f"{house}: score your special objective?",
                               [special, NONE], sc.rule)
    if pick != NONE:
        _score(g, house, special, sc.rule, special=True)


def _areas(kind: str):
    def measure(g: Game, h: str) -> int:
        st, board = g.state, g.board
        return sum(1 for a in board.areas if _kind_of(a) == kind and control.controller(st, board, a.id) == h)
    return measure


def _kind_of(area) -> str:
    return "port" if area.is_port else "land" if area.is_land else "sea"


def _castles(level: str):
    def measure(g: Game, h: str) -> int:
        return sum(1 for a in control.controlled_areas(g.state, g.board, h) if g.castle_level(a) == level)
    return measure


# the measures of has-most / has-fewest (registry ENUMS["measure"])
MEASURES = {
    "land-areas": _areas("land"), "sea-areas": _areas("sea"), "ports": _areas("port"),
    "castles": _castles("castle"), "strongholds": _castles("stronghold"),
    "ships": lambda g, h: g.state.unit_count(h, "ship"),
    "power-tokens": lambda g, h: g.state.power_on_board(h),
    "available-power": lambda g, h: g.state.houses[h].power,
    "victory-points": lambda g, h: g.victory_points(h),
}


def _compare(g: Game, house: str, measure: str, most: bool) -> bool:
    if house not in g.state.houses:
        return False
    fn = MEASURES[measure]
    mine = fn(g, house)
    others = [fn(g, h) for h in players(g) if h != house]
    return all(mine > o for o in others) if most else all(mine < o for o in others)


query("has-most")(lambda g, sc, a: _compare(g, a["house"], a["measure"], True))
query("has-fewest")(lambda g, sc, a: _compare(g, a["house"], a["measure"], False))
query("supply")(lambda g, sc, a: g.state.houses[a["house"]].supply if a["house"] in g.state.houses else 0)


def _count(g: Game, pile: str, house: str) -> int:
    """How many objectives `house` holds in a pile (read only: a query never deals the deck)."""
    return len(g.state.modules.get(STATE_KEY, {}).get(pile, {}).get(house, []))


query("objectives-in-hand")(lambda g, sc, a: _count(g, "hands", a["house"]))
query("objectives-scored")(lambda g, sc, a: _count(g, "scored", a["house"]))
