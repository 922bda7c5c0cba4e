"""What one house may know: the information-set view of a game, as a dict and as a fixed-size vector.

The engine keeps every hidden thing in plain sight of the code; this module is the one place that decides
what a house sees (and a test inspects it for leaks):

- orders before the reveal (R13.4): kept in `state.orders` from the first placement. A house sees its
  own (and those of the vassals it commands); others' as `"hidden"` until the round's `reveal-orders`.
- bids before the reveal (R10.2, R11.3): in the bidding procedure's frame (`state.frames`; `houses[h].power`
  drops only at the reveal). Nothing is seen until the `bids` event; then `last_bid`.
- the opponent's house card (R20.1): in the combat (`state.step`) and its frames; seen at the `reveal` event.
- no view shows `state.step` or `state.frames`: the procedures' progress holds these secrets.
- the order of the decks (R4.2): `state.decks`, `wildling_deck`, `tides_deck`, `loan_deck`: sizes only.
- the top wildling card (R13.5.2): the `raven-look` event's `secret`; seen by the house that looked,
  while that card is still on top.
- a vassal's dealt cards (R35.2): `houses[v].hand` and the `vassal-hand` secret: its commander only.
- any event with a `secret`: only the house it names (or that house's commander).
- objective cards (`state.modules["objectives"]`): a house sees its own hand, the others' hand sizes, and every
  scored objective (scoring reveals it).
- steps before the game (interpreter/effects/pregame.py): the seats drawn and a house card draft's pool and
  picks are public (`pregame`); an influence draft's picks are public events, its frame hidden like any other.

Own house cards and every non-vassal hand are public: the cards a house has not yet discarded are known to
all (discards are face up). The pending decision is shown only to the house that decides.
"""

from __future__ import annotations

import numpy as np

from maester.interpreter.core.decision_kinds import DECISION_KINDS as CATALOGUE
from maester.interpreter.core.rules import Rules
from maester.interpreter.effects.pregame import public_part
from maester.interpreter.mod.state import DragonsState

from .features import make_parts, public_parts

HIDDEN = "hidden"
AFTER_REVEAL = ("messenger-raven", "wildling-top")  # Planning Phase decisions asked once orders are face up
PHASES = ("setup", "westeros", "planning", "action", "over")
# The declared decision kinds (interpreter/core/decision_kinds.py), in declaration order; anything else is `other`.
DECISION_KINDS = (*CATALOGUE, "other")


def orders_revealed(game) -> bool:
    """Are this round's orders face up? Hidden from the first placement of the Planning Phase to its reveal."""
    if game.state.phase != "planning":
        return True
    if game.decision is not None and game.decision.kind in AFTER_REVEAL:
        return True
    for e in reversed(game.events):  # the Planning Phase has few events: a short walk back
        if e["type"] == "reveal-orders":
            return True
        if e["type"] == "phase" and e["rule"] == "R13":
            return False
    return False  # no evidence (a game resumed from a saved position keeps no events): hidden is the safe side


def _sees_secret(game, house: str, event: dict) -> bool:
    owner = event.get("house")
    return owner == house or (owner is not None and game.actor(owner) == house)


_MARKED = ("raven-look", "raven-bottom", "wildling-attack")


def _marks(game) -> tuple[list[dict], list[dict]]:
    """The events with a `secret` and the wildling-top markers, found by reading only the events emitted
    since the last call (views are asked at every step; the event log only grows)."""
    cache = game.__dict__.get("_env_marks")
    if cache is None or cache[0] > len(game.events) or (cache[0] and game.events[cache[0] - 1] is not cache[3]):
        cache = game._env_marks = [0, [], [], None]  # first call, or another log (undo): read it all
    seen, secrets, marks, _ = cache
    for e in game.events[seen:]:
        if "secret" in e:
            secrets.append(e)
        if e["type"] in _MARKED:
            marks.append(e)
    cache[0] = len(game.events)
    cache[3] = game.events[-1] if game.events else None
    return secrets, marks


def known_wildling_top(game, house: str) -> str | None:
    """The top wildling card, if this house looked at it (Messenger Raven) and it is still on top."""
    deck = game.state.wildling_deck
    if not deck:
        return None
    _, marks = _marks(game)
    if not marks or marks[-1]["type"] != "raven-look":
        return None  # nobody looked, or the card was drawn or moved since
    e = marks[-1]
    return deck[0] if e.get("house") == house and e["secret"]["card"] == deck[0] else None


def unrevealed_cards(game, house: str) -> dict:
    """The house cards chosen for the combat in progress and not revealed yet, of houses other than `house`: a
    played card is held apart from its hand from the moment it is chosen (R20.1.1), but which one stays secret until
    the reveal, so the others still see it among the hand they know."""
    combat = game.state.step.get("combat") or {}
    if combat.get("stage") != "house-cards":
        return {}
    return {h: c for h, c in (combat.get("cards") or {}).items() if c and h != house}


def view(game, house: str) -> dict:
    """The information-set view of `house` (plain JSON): everything it may know, nothing else."""
    st = game.state
    ms = DragonsState.of(st)  # a rules module's pieces (empty in the base game)
    revealed = orders_revealed(game)
    orders = {}
    for area, o in sorted(st.orders.items()):
        mine = o["house"] == house or game.actor(o["house"]) == house
        orders[area] = {"house": o["house"], "order": o["order"] if (revealed or mine) else HIDDEN}
    houses = {}
    points = {h: game.victory_points(h) for h in st.houses}  # as the rules set counts (points included)
    secret = unrevealed_cards(game, house)
    for h, hs in st.houses.items():
        vassal = h in ms.vassals
        sees_hand = h == house or not vassal or game.actor(h) == house
        hand = hs.hand + [secret[h]] if h in secret else hs.hand
        houses[h] = {"power": hs.power, "supply": hs.supply, "last_bid": hs.last_bid,
                     "hand": sorted(hand) if sees_hand else HIDDEN, "hand_size": len(hand),
                     "discards": list(hs.discards), "removed": list(hs.removed), "vassal": vassal,
                     "victory_points": points.get(h, 0)}
    d = game.decision
    decision = None
    if d is not None:
        decision = {"house": d.house, "kind": d.kind}
        if d.house == house:  # the prompt and options are the decider's alone (they may name a secret card)
            decision.update(prompt=d.prompt, options=list(d.options), rule=d.rule)
    secrets = [dict(e["secret"], type=e["type"], n=e["n"]) for e in _marks(game)[0] if _sees_secret(game, house, e)]
    extra = {}
    objectives = st.modules.get("objectives")
    if objectives:  # objective cards: the house's own hand is secret to it, the others' only by size; scored are public
        hands = objectives.get("hands", {})
        extra["objectives"] = {"hand": sorted(hands.get(house, [])),
                               "hand_sizes": {h: len(v) for h, v in sorted(hands.items())},
                               "scored": {h: list(v) for h, v in sorted(objectives.get("scored", {}).items())}}
    pregame = public_part(st)
    if pregame:  # the steps before the game: public (seats drawn, the draft's pool and picks)
        extra["pregame"] = pregame
    return {**extra,
        "house": house, "round": st.round, "phase": st.phase, "decision": decision,
        "houses": houses, "tracks": {t: list(v) for t, v in st.tracks.items()},
        "blade_used": st.blade_used, "raven_used": st.raven_used, "seized_tokens": dict(st.seized_tokens),
        "units": {a: {"house": u["house"], "units": [list(x) for x in u["units"]]}
                  for a, u in sorted(st.units.items())},
        "orders": orders, "power_tokens": dict(st.power_tokens), "garrisons": dict(st.garrisons),
        "neutral_forces": dict(st.neutral_forces), "blocked": list(st.blocked),
        "wildling_threat": st.wildling_threat, "wildling_top": known_wildling_top(game, house),
        "deck_sizes": {k: len(v) for k, v in st.decks.items()}, "wildling_deck_size": len(st.wildling_deck),
        "tides_deck_size": len(st.tides_deck), "loan_deck_size": len(ms.loan_deck),
        "loyalty": dict(ms.loyalty), "improvements": {a: list(v) for a, v in ms.improvements.items()},
        "dragon_strength": ms.dragon_strength, "vassals": list(ms.vassals), "commanders": dict(ms.commanders),
        "bank": list(ms.bank), "loans": {h: list(v) for h, v in ms.loans.items()},
        "secrets": secrets, "winner": st.winner, "end_reason": st.end_reason,
        **public_parts(game, house),
    }


def lean_view(game, house: str) -> dict:
    """The part of `view` the encoder reads, sharing the state's own lists instead of copying them (read it,
    never change it). `Encoder.encode(lean_view(g, h))` equals `Encoder.encode(view(g, h))`, only cheaper."""
    st = game.state
    ms = DragonsState.of(st)  # a rules module's pieces (empty in the base game)
    revealed = orders_revealed(game)
    actor = game.actor
    orders = {a: o if revealed or o["house"] == house or actor(o["house"]) == house
              else {"house": o["house"], "order": HIDDEN} for a, o in st.orders.items()}
    points = game.victory_table()
    vassals = ms.vassals
    houses = {}
    secret = unrevealed_cards(game, house)
    for h, hs in st.houses.items():
        hidden = h in vassals and h != house and actor(h) != house
        hand = hs.hand + [secret[h]] if h in secret else hs.hand  # a copy only then: the state's list otherwise
        houses[h] = {"power": hs.power, "supply": hs.supply, "last_bid": hs.last_bid, "vassal": h in vassals,
                     "victory_points": points.get(h, 0), "hand": HIDDEN if hidden else hand,
                     "hand_size": len(hand), "discards": hs.discards, "removed": hs.removed}
    d = game.decision
    return {"house": house, "round": st.round, "phase": st.phase,
            "decision": {"house": d.house, "kind": d.kind} if d is not None else None,
            "houses": houses, "tracks": st.tracks, "blade_used": st.blade_used, "raven_used": st.raven_used,
            "units": st.units, "orders": orders, "power_tokens": st.power_tokens, "garrisons": st.garrisons,
            "neutral_forces": st.neutral_forces, "blocked": st.blocked, "wildling_threat": st.wildling_threat,
            "wildling_top": known_wildling_top(game, house),
            "deck_sizes": {k: len(v) for k, v in st.decks.items()}, "wildling_deck_size": len(st.wildling_deck),
            "loyalty": ms.loyalty, **public_parts(game, house)}


class Encoder:
    """A fixed-length float32 encoding of `view` for one setup (the layout is built from the bundle).

    Layout, in this order (sizes for the setup are in `sections`):
    - per area (board areas sorted): unit owner one-hot (houses + none), units per kind, routed units,
      order one-hot (orders + hidden + none), power token owner one-hot (houses + none), garrison,
      neutral force, loyalty tokens, blocked;
    - per house (setup houses sorted): power, supply, last bid, victory points, position on each track,
      vassal, is-me, hand size, hand one-hot over all house cards (zeros when hidden), discards one-hot;
    - global: round, phase one-hot, wildling threat, blade used, raven used, deck sizes, wildling deck size,
      known top wildling card one-hot (cards + none), pending decision kind one-hot when it is mine
      (`DECISION_KINDS`), am-I-to-decide;
    - then (unless `parts=False`: `maester_v0`'s layout) the parts of `maester.env.features` (the combat in
      progress, the pending decision's context, Mother of Dragons, removed cards and seized tokens), one each.
    Counts are raw numbers (not normalised) so a value keeps its meaning across setups. Every feature's name and
    range: `feature_names()` (docs/agents.md lists them by pattern).
    """

    def __init__(self, rules: Rules, setup_id: str, parts: bool = True):
        setup = rules.setup(setup_id)
        board = rules.board(setup["board"])
        game = rules.game(setup["game"])
        self.areas = list(board.area_ids())
        self.houses = sorted(setup["houses"])
        self.kinds = sorted(rules.unit_kinds)
        self.orders = sorted(rules.bundle["orders"])
        self.tracks = list(game["tracks"])
        self.cards = sorted(rules.bundle["house_cards"])
        self.wildlings = sorted(rules.bundle.get("wildling_cards") or {})
        self.decks = list(setup.get("westeros_decks") or game["westeros_decks"])
        H, K, O = len(self.houses), len(self.kinds), len(self.orders)  # noqa: N806, E741 - sizes
        self.area_width = (H + 1) + K + 1 + (O + 2) + (H + 1) + 4
        self.house_width = 4 + len(self.tracks) + 3 + 2 * len(self.cards)
        self.global_width = 1 + len(PHASES) + 3 + len(self.decks) + 1 + len(self.wildlings) + 1 \
            + len(DECISION_KINDS) + 1
        self.sections = {"areas": len(self.areas) * self.area_width, "houses": H * self.house_width,
                         "global": self.global_width}
        self._parts_at = sum(self.sections.values())
        self._init_parts(rules, game, parts)
        self.size = sum(self.sections.values())
        self._h = {h: i for i, h in enumerate(self.houses)}
        self._k = {k: i for i, k in enumerate(self.kinds)}
        self._o = {o: i for i, o in enumerate(self.orders)}
        self._c = {c: i for i, c in enumerate(self.cards)}
        self._w = {c: i for i, c in enumerate(self.wildlings)}
        self._a = {a: i for i, a in enumerate(self.areas)}
        self._kind = {k: i for i, k in enumerate(DECISION_KINDS)}
        # the encoding of an empty board: no area has a unit owner, an order or a power token
        self._blank = np.zeros(self.size, dtype=np.float32)
        for i in range(len(self.areas)):
            o = i * self.area_width
            for at in (H, (H + 1) + K + 1 + O + 1, (H + 1) + K + 1 + (O + 2) + H):
                self._blank[o + at] = 1.0

    def _init_parts(self, rules: Rules, game: dict, parts: bool) -> None:
        """The sections of `maester.env.features`, after the global one (none for `maester_v0`'s layout)."""
        b = rules.bundle
        self.game_rec = game
        self.max_power = max(rules.house(h)["power_tokens"] for h in self.houses)
        self.max_supply = 6
        self.tides = sorted(b.get("tides_cards") or {})
        self.loans = sorted(b.get("loans") or {})
        self.all_cards = sorted({*self.cards, *self.wildlings, *(b.get("westeros_cards") or {}), *self.tides,
                                 *self.loans})
        self.bank_slots = len(game.get("loan_costs") or [])
        self.tokens = sorted(t["dominance_token"]["id"] for t in b["tracks"].values() if t.get("dominance_token"))
        self.parts = make_parts(self) if parts else []
        self.part_offsets = {}
        at = self._parts_at
        for p in self.parts:
            self.part_offsets[p.name] = at
            self.sections[p.name] = p.width
            at += p.width

    def feature_names(self) -> list:
        """Every feature of the vector in order: `Feature(name, low, high, meaning)`."""
        from .features import feature_names

        return feature_names(self)

    @property
    def digest(self) -> str:
        """A fingerprint of the layout (every feature's name and range, in order): equal digests, the same vector
        meaning. It changes with the bundle (a new area, card or decision kind shifts the features after it), so a
        policy trained on one layout can refuse another instead of reading it wrongly."""
        import hashlib
        import json

        names = [(f.name, float(f.low), float(f.high)) for f in self.feature_names()]
        return hashlib.sha256(json.dumps(names).encode()).hexdigest()[:16]

    def encode_parts(self, out: np.ndarray, v: dict) -> np.ndarray:
        """Write the sections of `maester.env.features` into `out`."""
        for p in self.parts:
            p.encode(out, self.part_offsets[p.name], v)
        return out

    def encode(self, v: dict) -> np.ndarray:
        # the values that differ from an empty board, index -> value, written into a copy of the empty board's
        # vector in one numpy call at the end (a dict write costs a fraction of a numpy item write)
        out: dict[int, float] = {}
        H, K, O = len(self.houses), len(self.kinds), len(self.orders)  # noqa: N806, E741
        aw, hi, ai, ki = self.area_width, self._h, self._a, self._k
        units, routed_at = H + 1, H + 1 + K
        for area, army in v["units"].items():
            o = ai[area] * aw
            out[o + H] = 0.0
            out[o + hi[army["house"]]] = 1.0
            for kind, routed in army["units"]:
                i = o + units + ki[kind]
                out[i] = out.get(i, 0.0) + 1.0
                if routed:
                    out[o + routed_at] = out.get(o + routed_at, 0.0) + 1.0
        orders, oi = (H + 1) + K + 1, self._o
        for area, order in v["orders"].items():
            o = ai[area] * aw + orders
            out[o + O + 1] = 0.0
            out[o + (O if order["order"] == HIDDEN else oi[order["order"]])] = 1.0
        tokens = orders + (O + 2)
        for area, owner in v["power_tokens"].items():
            o = ai[area] * aw + tokens
            out[o + H] = 0.0
            out[o + hi[owner]] = 1.0
        tail = tokens + (H + 1)
        for area, n in v["garrisons"].items():
            out[ai[area] * aw + tail] = n
        for area, n in v["neutral_forces"].items():
            out[ai[area] * aw + tail + 1] = n
        for area, n in v["loyalty"].items():
            out[ai[area] * aw + tail + 2] = n
        for area in v["blocked"]:
            out[ai[area] * aw + tail + 3] = 1.0
        start = self.sections["areas"]
        hw, nc, ci, tracks = self.house_width, len(self.cards), self._c, v["tracks"]
        for h, hs in v["houses"].items():
            if h not in hi:
                continue
            o = start + hi[h] * hw
            out[o], out[o + 1], out[o + 2], out[o + 3] = hs["power"], hs["supply"], hs["last_bid"], \
                hs["victory_points"]
            for j, t in enumerate(self.tracks):
                order = tracks.get(t, [])
                out[o + 4 + j] = order.index(h) + 1 if h in order else 0
            o += 4 + len(self.tracks)
            out[o], out[o + 1], out[o + 2] = 1.0 if hs["vassal"] else 0.0, 1.0 if h == v["house"] else 0.0, \
                hs["hand_size"]
            o += 3
            if hs["hand"] != HIDDEN:
                for c in hs["hand"]:
                    out[o + ci[c]] = 1.0
            for c in hs["discards"]:
                out[o + nc + ci[c]] = 1.0
        o = start + self.sections["houses"]
        out[o] = v["round"]
        out[o + 1 + PHASES.index(v["phase"])] = 1.0
        o += 1 + len(PHASES)
        out[o], out[o + 1], out[o + 2] = v["wildling_threat"], 1.0 if v["blade_used"] else 0.0, \
            1.0 if v["raven_used"] else 0.0
        o += 3
        for j, deck in enumerate(self.decks):
            out[o + j] = v["deck_sizes"].get(deck, 0)
        o += len(self.decks)
        out[o] = v["wildling_deck_size"]
        o += 1
        top = v["wildling_top"]
        out[o + (self._w[top] if top is not None else len(self.wildlings))] = 1.0
        o += len(self.wildlings) + 1
        d = v["decision"]
        if d is not None and d["house"] == v["house"]:
            out[o + self._kind.get(d["kind"], len(DECISION_KINDS) - 1)] = 1.0
            out[o + len(DECISION_KINDS)] = 1.0
        vec = self._blank.copy()
        vec[np.fromiter(out.keys(), dtype=np.intp, count=len(out))] = np.fromiter(out.values(), dtype=np.float32,
                                                                                   count=len(out))
        return self.encode_parts(vec, v)  # the sections of env/features.py (none in v0)
