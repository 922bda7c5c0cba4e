"""Observations kept up to date: the public encoding is rewritten only where the position changed, then each house
adds the little only it may see.

`Encoder.encode(lean_view(game, house))` (env/observe.py) encodes a whole position from scratch, about twice an
engine step. An environment asks for one observation per step, and a step changes a few areas, a house or two and
the decision. So `Observations` keeps one *public* vector — the position as a house that holds nothing sees it —
and at each observation:

1. `_Tracker.refresh` finds what changed since the last observation (of any house) by comparing the state with a
   copy of every part the encoding reads: the containers' own equality, in C, then key by key only where a part
   differs. It trusts no event and no engine hook: whatever changed the state (a step, a test that edits it) is
   seen. Only the changed area blocks, house blocks and parts of the public vector are encoded again.
2. The house's observation is a copy of the public vector with what only it sees written over it (`_own`): its own
   face-down orders (and those of the vassals it commands), its own house block (its hand without the card it has
   just chosen, `is_me`), the hands of the vassals it commands, the wildling card it looked at, its decision and
   the decision's context, and the combat part when it fights in it.

A new game or a replaced state (reset, undo, a restored clone) starts again from the reference encoder. The result
is exactly `Encoder.encode(lean_view(game, house))` at every position (tests/test_observe_encoding.py compares them
at every step of random games, through clones, restores and resets), and a new array every time.

Two engine facts are read again only when the state parts they are made of change (`_Tracker.refresh`): who decides
for a house (`Game.actor`: a vassal's commander, from the rules modules' state) and the victory table
(`Game.victory_table`: from the units, power tokens, garrisons, neutral forces and the rules modules' state). A rules
module that makes either depend on anything else must add that part here.
"""

from __future__ import annotations

import numpy as np

from maester.interpreter.mod.state import DragonsState

from .features import CARDS_SHOWN_AFTER, NONE, SIDES, STAGES, combat_view, dragons_view
from .observe import (
    AFTER_REVEAL,
    DECISION_KINDS,
    PHASES,
    Encoder,
    known_wildling_top,
    lean_view,
    orders_revealed,
    unrevealed_cards,
)

_MISSING = object()
NOBODY = ""  # the observer of the public vector: no house has this id, so it owns nothing and commands no one
PARTS_READ = ("combat", "context", "dragons", "removed")  # the parts of env/features.py this module knows


def _copy(data):
    """A copy of plain JSON data that shares its strings and numbers with the original: comparing the two then
    meets the same objects at the leaves, which CPython compares by identity (a copy through JSON or marshal
    makes new strings, and comparing them costs five times as much)."""
    kind = type(data)
    if kind is dict:
        return {k: _copy(v) for k, v in data.items()}
    if kind is list:
        return [_copy(v) for v in data]
    return data  # a string, a number, a boolean, None: immutable


def _sync(now: dict, then: dict, deep: bool) -> list:
    """The keys whose value differs between `now` and the copy `then`, which is brought up to date."""
    changed = [k for k, v in now.items() if then.get(k, _MISSING) != v]
    gone = [k for k in then if k not in now]
    for k in changed:
        then[k] = _copy(now[k]) if deep else now[k]
    for k in gone:
        del then[k]
    return changed + gone


def _chosen(combat: dict | None) -> dict:
    """The house cards chosen and not revealed yet in a combat, by house (what `observe.unrevealed_cards` reads)."""
    if not combat or combat.get("stage") != "house-cards":
        return {}
    return {h: c for h, c in (combat.get("cards") or {}).items() if c}


class _Tracker:
    """The parts of one game's state the encoding reads, as last seen; `refresh` says what changed since."""

    def __init__(self, game):
        self.game, self.state = game, game.state
        st = game.state
        self.units, self.orders = _copy(st.units), _copy(st.orders)
        self.power_tokens, self.garrisons = dict(st.power_tokens), dict(st.garrisons)
        self.neutral_forces, self.blocked = dict(st.neutral_forces), list(st.blocked)
        self.houses = {h: _copy(vars(hs)) for h, hs in st.houses.items()}
        self.house_list = list(self.houses.values())  # in the state's order: one comparison finds any change
        self.tracks, self.seized = _copy(st.tracks), dict(st.seized_tokens)
        self.modules = _copy(st.modules)
        self.combat = _copy(st.step.get("combat"))
        self.revealed = orders_revealed(game)
        self._revealed_at = self._reveal_key()
        self._read_rules_module()
        self.points = game.victory_table()
        # the areas whose control the victory table reads: castles and strongholds, home areas (loyalty, R37.1)
        board = game.board
        self.victory_areas = frozenset(board.castle_lands) | {a for a, info in board.control_info.items() if info[2]}
        self._face_down: dict[str, list[str]] | None = None

    def _reveal_key(self) -> tuple:
        """What `orders_revealed` reads: the phase, the kind of decision, the events (the log only grows)."""
        game = self.game
        d, events = game.decision, game.events
        return (game.state.phase, d is not None and d.kind in AFTER_REVEAL, len(events), events[-1] if events else None)

    def _read_rules_module(self) -> None:
        game = self.game
        ms = DragonsState.of(game.state)
        self.loyalty, self.vassals = dict(ms.loyalty), frozenset(ms.vassals)
        self.actors = {h: game.actor(h) for h in game.state.houses}
        self.commands = {}  # house -> the other houses it decides for (its vassals)
        for h, a in self.actors.items():
            if a != h:
                self.commands.setdefault(a, []).append(h)

    def face_down(self, house: str) -> list[str]:
        """The areas of the face-down orders `house` may see (its own, its vassals'): none once revealed."""
        if self.revealed:
            return []
        if self._face_down is None:
            by: dict[str, list[str]] = {}
            actors = self.actors
            for area, o in self.state.orders.items():
                who = o["house"]
                by.setdefault(who, []).append(area)
                a = actors.get(who, who)
                if a != who:
                    by.setdefault(a, []).append(area)
            self._face_down = by
        return self._face_down.get(house, [])

    def refresh(self) -> tuple[set, set, set]:
        """Compare the state with the copies and update them: (changed areas, changed houses, changed parts)."""
        game, st = self.game, self.state
        areas: set = set()
        houses: set = set()
        parts: set = set()
        units = st.units != self.units
        if units:
            areas.update(_sync(st.units, self.units, True))
        if st.power_tokens != self.power_tokens:
            areas.update(_sync(st.power_tokens, self.power_tokens, False))
        if st.neutral_forces != self.neutral_forces:
            areas.update(_sync(st.neutral_forces, self.neutral_forces, False))
        control = not self.victory_areas.isdisjoint(areas)  # the control of an area the victory table reads
        orders = st.orders != self.orders
        if orders:
            areas.update(_sync(st.orders, self.orders, True))
            self._face_down = None
        if st.garrisons != self.garrisons:
            areas.update(_sync(st.garrisons, self.garrisons, False))
        if st.blocked != self.blocked:
            areas.update(set(st.blocked) ^ set(self.blocked))
            self.blocked = list(st.blocked)
        at = self._reveal_key()
        if at != self._revealed_at:
            self._revealed_at = at
            revealed = orders_revealed(game)
            if revealed != self.revealed:
                self.revealed = revealed
                areas.update(st.orders)
        if st.modules != self.modules:
            self.modules = _copy(st.modules)
            control = True
            parts.add("dragons")
            loyalty, vassals, actors = self.loyalty, self.vassals, self.actors
            self._read_rules_module()
            areas.update(a for a, _ in set(loyalty.items()) ^ set(self.loyalty.items()))
            if vassals != self.vassals or actors != self.actors:  # who sees which hands, orders and cards
                houses.update(st.houses)
                areas.update(st.orders)
                parts.add("combat")
                self._face_down = None
        if list(map(vars, st.houses.values())) != self.house_list:
            for h, hs in st.houses.items():
                d = vars(hs)
                if d != self.houses.get(h):
                    self.houses[h] = _copy(d)
                    houses.add(h)
            for h in [h for h in self.houses if h not in st.houses]:
                del self.houses[h]
                houses.add(h)
            self.house_list = list(self.houses.values())
            parts.add("removed")
        if st.tracks != self.tracks:
            self.tracks = _copy(st.tracks)
            houses.update(st.houses)
        if st.seized_tokens != self.seized:
            self.seized = dict(st.seized_tokens)
            parts.add("removed")
        combat = st.step.get("combat")
        if combat != self.combat:
            # a chosen card shows in its house's hand (to the others) until the reveal: observe.unrevealed_cards
            secret, old = _chosen(combat), _chosen(self.combat)
            if secret != old:
                houses.update(h for h in secret.keys() | old.keys() if secret.get(h) != old.get(h))
            self.combat = _copy(combat)
            parts.add("combat")
        elif combat and (units or orders):  # the defending units, who supports
            parts.add("combat")
        if control:
            points = game.victory_table()
            if points != self.points:
                houses.update(h for h in points.keys() | self.points.keys() if points.get(h) != self.points.get(h))
                self.points = points
        return areas, houses, parts


class Observations:
    """Every house's observation of one environment's game, kept up to date (see the module's docstring)."""

    def __init__(self, encoder: Encoder):
        self.encoder = enc = encoder
        self.tracker: _Tracker | None = None
        self.public: np.ndarray = enc._blank.copy()
        self.mv = memoryview(self.public)
        H, K, O = len(enc.houses), len(enc.kinds), len(enc.orders)  # noqa: N806, E741
        self.H, self.K, self.O = H, K, O
        self.blank = memoryview(enc._blank)
        self.at_units, self.at_routed = H + 1, H + 1 + K
        self.at_orders = (H + 1) + K + 1
        self.at_tokens = self.at_orders + (O + 2)
        self.at_tail = self.at_tokens + (H + 1)
        self.houses_at = enc.sections["areas"]
        self.global_at = self.houses_at + enc.sections["houses"]
        self.at_threat = self.global_at + 1 + len(PHASES)
        self.at_decks = self.at_threat + 3
        self.at_wild = self.at_decks + len(enc.decks)
        self.at_top = self.at_wild + 1
        self.at_decision = self.at_top + len(enc.wildlings) + 1
        self.part_at = dict(enc.part_offsets)
        self.parts = {p.name: p for p in enc.parts}
        unknown = set(self.parts) - set(PARTS_READ)
        if unknown:
            raise AssertionError(f"env/incremental.py does not know what the parts {sorted(unknown)} read")
        self.phase_slot = self.global_at + 1  # the phase one-hot set in the public vector
        self.global_key: tuple | None = None  # what the public global block was written from
        self.own_blocks: dict[str, memoryview] = {}  # house -> its own house block, as it sees it

    def __reduce__(self):  # a pickled or deep-copied environment starts its observations again (no memoryviews)
        return (Observations, (self.encoder,))

    def observe(self, game, house: str) -> np.ndarray:
        """Exactly `encoder.encode(lean_view(game, house))`, as a new array; only what changed is encoded."""
        t = self.tracker
        if t is None or t.game is not game or t.state is not game.state:
            self._start(game)
        else:
            areas, houses, parts = t.refresh()
            for area in areas:
                self._area(self.mv, game, area, NOBODY)
            if houses:
                secret = unrevealed_cards(game, NOBODY)
                for h in houses:
                    self._house(self.mv, h, secret, NOBODY)
                    self.own_blocks.pop(h, None)
            for name in parts:
                if name in self.parts:  # (maester_v0 has none)
                    self._part(self.mv, game, name, NOBODY)
            self._global(game)
        out = self.public.copy()
        self._own(out, game, house)
        return out

    def _start(self, game) -> None:
        """A new game or position: the public vector from the reference encoder."""
        self.tracker = _Tracker(game)
        self.public[:] = self.encoder.encode(lean_view(game, NOBODY))
        self.phase_slot = self.global_at + 1 + PHASES.index(game.state.phase)
        self.global_key, self.own_blocks = None, {}

    # ---- what only `house` sees, written over the public vector --------------------------------------------
    def _own(self, out: np.ndarray, game, house: str) -> None:
        t, mv, enc = self.tracker, memoryview(out), self.encoder
        face_down = t.face_down(house)
        if face_down:
            orders, oi, O = t.state.orders, enc._o, self.O  # noqa: N806, E741
            aw, at = enc.area_width, self.at_orders
            for area in face_down:
                p = enc._a[area] * aw + at
                mv[p + O] = 0.0
                mv[p + oi[orders[area]["order"]]] = 1.0
        i = enc._h.get(house)
        if i is not None:  # its own block: its whole hand, is_me (kept until its house block changes)
            o = self.houses_at + i * enc.house_width
            block = self.own_blocks.get(house)
            if block is None:
                self._house(mv, house, unrevealed_cards(game, house), house)
                self.own_blocks[house] = memoryview(out[o:o + enc.house_width].copy())
            else:
                mv[o:o + enc.house_width] = block
        commands = t.commands.get(house)
        if commands:  # the hands of the vassals it commands: hidden in the public vector
            secret = unrevealed_cards(game, house)
            ci, hw, at = enc._c, enc.house_width, self.houses_at + 4 + len(enc.tracks) + 3
            for h in commands:
                if h in enc._h and h in t.vassals and h != house:
                    hs = t.state.houses[h]
                    o = at + enc._h[h] * hw
                    for c in hs.hand + [secret[h]] if h in secret else hs.hand:
                        mv[o + ci[c]] = 1.0
        top = known_wildling_top(game, house)
        if top is not None:
            mv[self.at_top + len(enc.wildlings)] = 0.0
            mv[self.at_top + enc._w[top]] = 1.0
        d = game.decision
        mine = d is not None and d.house == house
        if mine:
            o = self.at_decision
            mv[o + enc._kind.get(d.kind, len(DECISION_KINDS) - 1)] = 1.0
            mv[o + len(DECISION_KINDS)] = 1.0
        if "combat" in self.parts:
            c = t.state.step.get("combat")
            if c and self._fights(c, house):
                self._combat_own(mv, c, house)
        if mine and "context" in self.parts:
            self._context(mv, game, house)

    def _combat_own(self, mv, c: dict, house: str) -> None:
        """What a side of the combat (or its commander) sees beyond the public: that it is the attacker or the
        defender, and its own house card as soon as chosen (features.combat_view, CombatPart.encode)."""
        p, o = self.parts["combat"], self.part_at["combat"]
        at, actors = p.layout.at, self.tracker.actors
        d = c["defender"]
        mv[o + at["me"]] = c["attacker"] == house
        mv[o + at["me"] + 1] = d == house
        stage = STAGES.index(c["stage"]) if c["stage"] in STAGES else 0
        if stage > CARDS_SHOWN_AFTER:  # every card chosen is public by now
            return
        cards = c["cards"]
        for side, side_house in zip(SIDES, (c["attacker"], d), strict=True):
            card = cards.get(side_house)
            if card is not None and (side_house == house or actors.get(side_house, side_house) == house) \
                    and card in p.cards:
                mv[o + at[f"card.{side}"] + p.cards[card]] = 1.0

    def _fights(self, c: dict, house: str) -> bool:
        """Does `house` see the combat otherwise than the public: a side of it, or a house whose card it sees?"""
        actors = self.tracker.actors
        return any(h == house or actors.get(h, h) == house for h in (c["attacker"], c["defender"], *c["cards"]))

    # ---- blocks, written as Encoder.encode writes them, for the observer `me` ----------------------------------
    def _area(self, mv, game, area: str, me: str) -> None:
        enc, t = self.encoder, self.tracker
        i = enc._a.get(area)
        if i is None:  # an area of no block: the reference encoder fails the same way
            raise KeyError(area)
        aw, H, hi = enc.area_width, self.H, enc._h  # noqa: N806
        o = i * aw
        mv[o:o + aw] = self.blank[o:o + aw]
        st = game.state
        army = st.units.get(area)
        if army is not None:
            mv[o + H] = 0.0
            mv[o + hi[army["house"]]] = 1.0
            ki, u, r = enc._k, o + self.at_units, o + self.at_routed
            for kind, routed in army["units"]:
                mv[u + ki[kind]] += 1.0
                if routed:
                    mv[r] += 1.0
        order = st.orders.get(area)
        if order is not None:
            p = o + self.at_orders
            O = self.O  # noqa: N806, E741
            mv[p + O + 1] = 0.0
            who = order["house"]
            if t.revealed or who == me or t.actors.get(who, who) == me:
                mv[p + enc._o[order["order"]]] = 1.0
            else:
                mv[p + O] = 1.0
        owner = st.power_tokens.get(area)
        if owner is not None:
            p = o + self.at_tokens
            mv[p + H] = 0.0
            mv[p + hi[owner]] = 1.0
        tail = o + self.at_tail
        n = st.garrisons.get(area)
        if n is not None:
            mv[tail] = n
        n = st.neutral_forces.get(area)
        if n is not None:
            mv[tail + 1] = n
        n = t.loyalty.get(area)
        if n is not None:
            mv[tail + 2] = n
        if area in st.blocked:
            mv[tail + 3] = 1.0

    def _house(self, mv, h: str, secret: dict, me: str) -> None:
        enc, t = self.encoder, self.tracker
        i = enc._h.get(h)
        if i is None:  # a house outside the setup has no block (as in Encoder.encode)
            return
        hw = enc.house_width
        o = self.houses_at + i * hw
        mv[o:o + hw] = self.blank[o:o + hw]
        hs = t.state.houses.get(h)
        if hs is None:
            return
        mv[o], mv[o + 1], mv[o + 2], mv[o + 3] = hs.power, hs.supply, hs.last_bid, t.points.get(h, 0)
        tracks = t.state.tracks
        for j, track in enumerate(enc.tracks):
            order = tracks.get(track, ())
            mv[o + 4 + j] = order.index(h) + 1 if h in order else 0
        o += 4 + len(enc.tracks)
        hand = hs.hand + [secret[h]] if h in secret else hs.hand
        mv[o], mv[o + 1], mv[o + 2] = 1.0 if h in t.vassals else 0.0, 1.0 if h == me else 0.0, len(hand)
        o += 3
        ci = enc._c
        if not (h in t.vassals and h != me and t.actors.get(h, h) != me):
            for c in hand:
                mv[o + ci[c]] = 1.0
        o += len(enc.cards)
        for c in hs.discards:
            mv[o + ci[c]] = 1.0

    def _global(self, game) -> None:
        """The public global block: no wildling card known, no decision (both are the observer's, `_own`)."""
        st = game.state
        decks = st.decks
        key = (st.round, st.phase, st.wildling_threat, st.blade_used, st.raven_used, len(st.wildling_deck),
               tuple(decks), tuple(map(len, decks.values())))
        if key == self.global_key:
            return
        self.global_key = key
        enc, mv = self.encoder, self.mv
        mv[self.global_at] = st.round
        phase = self.global_at + 1 + PHASES.index(st.phase)
        if phase != self.phase_slot:
            mv[self.phase_slot] = 0.0
            mv[phase] = 1.0
            self.phase_slot = phase
        o = self.at_threat
        mv[o], mv[o + 1], mv[o + 2] = st.wildling_threat, 1.0 if st.blade_used else 0.0, \
            1.0 if st.raven_used else 0.0
        o = self.at_decks
        for j, deck in enumerate(enc.decks):
            cards = decks.get(deck)
            mv[o + j] = 0 if cards is None else len(cards)
        mv[self.at_wild] = len(st.wildling_deck)

    def _part(self, mv: memoryview, game, name: str, me: str) -> None:
        o, p, st = self.part_at[name], self.parts[name], game.state
        mv[o:o + p.width] = self.blank[o:o + p.width]  # (zeros: no part sets a value in the empty board's vector)
        if name == "combat":
            v = {"combat": combat_view(game, me), "house": me, "units": st.units, "orders": st.orders}
        elif name == "dragons":
            v = {"dragons": dragons_view(game)}
        elif name == "removed":
            v = {"houses": {h: {"removed": hs.removed} for h, hs in st.houses.items()},
                 "seized_tokens": st.seized_tokens}
        else:  # the context is the decider's (`_own`): the public vector has none
            v = {"context": None}
        p.encode(mv, o, v)  # the parts write item by item: a memoryview takes them faster than numpy

    def _context(self, mv, game, house: str) -> None:
        """The decider's context, over the public part's `none` slots."""
        o, p, t = self.part_at["context"], self.parts["context"], self.tracker
        d = game.decision  # (mine: `_own` asks) what features.context_view reads, with the tracker's facts
        info = d.info
        area, order = info.get("area"), info.get("order")
        placed = t.state.orders.get(area) if area else None
        if order is None and placed is not None:
            who = placed["house"]
            mine = who == d.house or t.actors.get(who, who) == d.house
            order = placed["order"] if mine or t.revealed else None  # never a face-down order of another
        at = p.layout.at
        for key, table, value in (("area", p.area, area), ("order", p.order, order),
                                  ("card", p.card, info.get("card")), ("for", p.for_, info.get("for"))):
            none = table[NONE]
            mv[o + at[key] + none] = 0.0
            mv[o + at[key] + table.get(value, none)] = 1.0
        mv[o + at["options"]] = len(d.options)
