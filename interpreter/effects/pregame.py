"""Steps before the game as primitives (registry: draft-house-cards, assign-houses, draft-influence).

A rules set runs them in a `when game-start` game ability (dsl/moments.py): once, after the setup, before the
first phase of round 1, like a first muster. What each step shows whom:

- draft-house-cards: the pool (every house card of a card set that belongs to a player house) is public, and so
  is each pick (a `draft-pick` event): the picker chooses among the cards left, so every player could tell the
  picks apart anyway. The houses pick one card at a time in the declared order (a snake draft reverses it every
  other turn) until each holds the hand size; each hand then replaces the house's hand and discard pile.
- assign-houses: the seat -> house mapping is drawn with the game's random generator (the state's `rng`, so a
  game is still a seed plus decisions) and is public (`houses-assigned`); it is kept in
  `state.modules["pregame"]["seats"]` (seat 1 first) for the frontends that seat players (`seats`).
- draft-influence: track by track (the rules set's tracks, in order), each house in the declared order picks a
  free position; the picks are public (`influence-pick`) and the track is set when every house has picked.

Restartable from the state alone: a draft in progress is a frame (DRAFT_CARDS, DRAFT_INFLUENCE) holding the
picks made so far; a restart asks the same question again.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from maester.dsl.effect_tree import calls_primitive

from ..core import cursor
from ..core.state_check import drafts_house_cards as rules_draft_house_cards
from .evaluator import QUERIES, Proc, Scope, _nothing, handler

if TYPE_CHECKING:
    from ..procedures.game import Game

STATE_KEY = "pregame"  # the part of `state.modules` holding the seat mapping
RULE = "R4"  # the setup: every step before the game cites it

DRAFT_CARDS = cursor.frame_kind(
    "pregame.draft-cards", "house cards are drafted from a shared pool (draft-house-cards)", RULE,
    pool=("house-cards", "the cards still in the pool"),
    picks=("house-card-lists", "house -> the cards it picked so far"),
    made=("count", "how many picks were made"))
DRAFT_INFLUENCE = cursor.frame_kind(
    "pregame.draft-influence", "positions on the influence tracks are drafted (draft-influence)", RULE,
    track=("int", "the 0-based track being drafted"),
    picks=("object", "position (as a string) -> the house that took it, on that track"))


def players(g: Game) -> list[str]:
    return QUERIES["player-houses"](g, Scope(), {})


def _seated(g: Game, order: list[str]) -> list[str]:
    """The declared order, kept to the player houses in the game (each once)."""
    houses = players(g)
    seen: list[str] = []
    for h in order:
        if h in houses and h not in seen:
            seen.append(h)
    return seen


@handler("draft-house-cards")
def _draft_cards(g, sc, a, st) -> Proc:
    order = _seated(g, a["order"] or g.turn_order)
    size = max(0, a["hand-size"])
    if not order or size == 0:
        return
    fresh = not cursor.restarting(g)
    f = cursor.enter(g, DRAFT_CARDS, pool=[], picks={}, made=0)
    if fresh:
        cards = g.rules.bundle["house_cards"]
        f["pool"] = sorted(c for c in g.rules.bundle["card_sets"][a["set"]]["cards"] if cards[c]["house"] in order)
        f["picks"] = {h: [] for h in order}
        g.emit("draft-pool", sc.rule, f"house cards to draft: {', '.join(f['pool'])}", pool=list(f["pool"]))
    total = min(size * len(order), len(f["pool"]) + f["made"])
    while f["made"] < total:
        turn, seat = divmod(f["made"], len(order))
        house = (list(reversed(order)) if a["snake"] and turn % 2 else order)[seat]
        pick = yield from g.choose(house, "draft-house-card", f"{house}: which house card do you draft? (pick "
                                   f"{len(f['picks'][house]) + 1} of {size})", sorted(f["pool"]), sc.rule)
        f["pool"].remove(pick)
        f["picks"][house].append(pick)
        f["made"] += 1
        g.emit("draft-pick", sc.rule, f"{house} drafts {pick}", house=house, pick=pick)
    for house in order:
        hs = g.state.houses[house]
        hs.hand, hs.discards = sorted(f["picks"][house]), []
        g.emit("cards", sc.rule, f"{house} plays with its {len(hs.hand)} drafted cards", house=house)
    cursor.leave(g, f)


@handler("assign-houses")
def _assign_houses(g, sc, a, st):
    seats = players(g)
    g.rng.shuffle(seats)
    g.state.modules.setdefault(STATE_KEY, {})["seats"] = list(seats)
    g.emit("houses-assigned", sc.rule, "seats drawn: " + ", ".join(f"{i + 1}: {h}" for i, h in enumerate(seats)),
           seats=list(seats))
    return _nothing()


@handler("draft-influence")
def _draft_influence(g, sc, a, st) -> Proc:
    order = _seated(g, a["order"] or g.turn_order)
    if not order:
        return
    f = cursor.enter(g, DRAFT_INFLUENCE, track=0, picks={})
    tracks = list(g.state.tracks)
    while f["track"] < len(tracks):
        track = tracks[f["track"]]
        others = [h for h in g.state.tracks[track] if h not in order]  # houses not drafting keep the last places
        for house in order:
            if house in f["picks"].values():
                continue
            free = [str(p) for p in range(1, len(order) + 1) if str(p) not in f["picks"]]
            pick = yield from g.choose(house, "influence-position", f"{house}: which position do you take on the "
                                       f"{track} track?", free, sc.rule, track=track)
            f["picks"][pick] = house
            g.emit("influence-pick", sc.rule, f"{house} takes position {pick} on the {track} track", house=house,
                   track=track, position=int(pick))
        g.set_track(track, [f["picks"][str(p)] for p in range(1, len(order) + 1)] + others, sc.rule)
        g.state.seized_tokens.pop(g.token_of_track(track), None)  # the first place holds the token (R10.6)
        f.update(track=f["track"] + 1, picks={})
    cursor.leave(g, f)


def seats(g: Game) -> list[str]:
    """The house of each player's seat, seat 1 first: the houses `assign-houses` drew, or else the player houses in
    the setup's order. The frontends seat players by it (`maester play --agents 1=human`, the env's `seats`): the
    agent of seat N plays the house seat N has now (read at each decision, so a draw after the first decision
    seats the players from then on)."""
    drawn = g.state.modules.get(STATE_KEY, {}).get("seats")
    if drawn:
        return list(drawn)
    houses = set(players(g))
    return [h for h in g.setup_rec["houses"] if h in houses]


def public_part(state) -> dict:
    """What every house may know of the steps before the game (env/observe.py): the seats drawn, and the pool
    and picks of a house card draft in progress (public: the draft shows the pool and every pick; the frame
    holding them is otherwise hidden, like every frame)."""
    out: dict = {}
    seats = state.modules.get(STATE_KEY, {}).get("seats")
    if seats:
        out["seats"] = list(seats)
    draft = next((f for f in state.frames if f["at"] == DRAFT_CARDS), None)
    if draft is not None:
        out["draft"] = {"pool": sorted(draft["pool"]), "picks": {h: list(p) for h, p in sorted(draft["picks"].items())}}
    return out


def drafts_house_cards(g: Game) -> bool:
    """Does the rules set draft house cards before the game (a house may then hold another house's cards)?"""
    return rules_draft_house_cards(g.rules.bundle, g.game_rec)


ASSIGN_PRIMITIVE = "assign-houses"  # a rules set that calls it draws the players' seats


def draws_seats(g: Game) -> bool:
    """Does the rules set draw the seats' houses (`assign-houses` in a game ability)?"""
    records = g.rules.bundle.get("game_abilities") or {}
    return any(calls_primitive(records[a]["abilities"], ASSIGN_PRIMITIVE) for a in g.game_rec.get("game_abilities")
               or () if a in records)


def seats_drawn(g: Game) -> bool:
    return bool(g.state.modules.get(STATE_KEY, {}).get("seats"))

