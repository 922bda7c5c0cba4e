"""Observations kept up to date: the public encoding is rewritten only where the position changed, then each house
adds the little only it may see.

`Encoder.encode(lean_view(game, house))` (env/observe.py) encodes a whole position from scratch, about twice an
engine step. An environment asks for one observation per step, and a step changes a few areas, a house or two and
the decision. So `Observations` keeps one *public* vector — the position as a house that holds nothing sees it —
and at each observation:

1. `_Tracker.refresh` finds what changed since the last observation (of any house). The armies: only the areas
   the engine logged as written since (`state.board_written`, which every writer of an army calls: the castle
   counts rely on it too) are compared with their copies; when the log no longer reaches back, every army. The
   other parts: by comparing the state with a copy of every part the encoding reads: the containers' own
   equality, in C, then key by key only where a part differs (one key added or removed — an order placed,
   resolved — is checked with one more comparison in C; keys kept in the same order are compared value by value
   in C; a dict that changed, such as a house or the combat, is copied again only where it changed). A unit's
   `[kind, routed]` list is replaced, never changed in place (tests/test_clone.py), so the armies' copies share
   those lists and compare them by identity. Code that edits an army outside the engine's writers must log it
   (`board_written(area)`), as tests/test_observe_encoding.py's hand edits do. Only what changed is encoded
   again, as narrowly as it changed: an area's block, or its order slots alone; a house's block, or its first
   slots alone (power, supply, last bid, points); the track positions; a part. The victory table is asked again
   only when an area it reads changed owner.
2. The house's observation is a copy of the public vector with what only it sees written over it (`_own`): its own
   face-down orders (and those of the vassals it commands; kept by house as orders come and go), `is_me` (its
   whole own block when it differs more: a vassal's hand, a card just chosen, which leaves its hand), the hands of
   the vassals it commands, the wildling card it looked at, its decision and the decision's context, and the
   combat part when it fights in it.

Where an observation's time goes (random base-6p and mod-8p games, 2026-12-03, second session): `env.last()` costs
171k / 198k machine instructions per step (callgrind counting the games' loops only; an engine step 164k /
196k); switching one part's change finding off at a time (wrong vectors, cost only) saves: the units 33k (their
comparison at every step, the areas encoded again), the orders 21k / 20k, the houses 15k / 19k, the rules
modules 0 / 13k, the combat 5k. Without `refresh` at all, 68k / 77k remain: the copy (31k / 40k instructions
under valgrind, though about 0.4 us), `_own`, the global block. In CPU time (bench_env.py): 1.9–2.2× an engine
step with the observation, 1.38× mod-8p without `refresh` (wrong vectors); with a perfect engine hint (the change
sets of a first run replayed, the encoding unchanged, right vectors) 1.7–1.8× base-6p, 1.5–1.7× mod-8p: change
counters kept by the engine would not reach 1.5× alone, the encoding of what changed must shrink too.

A new game or a replaced state (reset, undo, a restored clone) starts again from the reference encoder. The result
is exactly `Encoder.encode(lean_view(game, house))` at every position (tests/test_observe_encoding.py compares them
at every step of random games, through clones, restores and resets), and a new array every time.

Two engine facts are read again only when the state parts they are made of change (`_Tracker.refresh`): who decides
for a house (`Game.actor`: a vassal's commander, from the rules modules' state) and the victory table
(`Game.victory_table`: from the units, power tokens, garrisons, neutral forces and the rules modules' state). A rules
module that makes either depend on anything else must add that part here.
"""

from __future__ import annotations

from itertools import compress
from operator import ne

import numpy as np

from maester.interpreter.core.state import BOARD_LOG
from maester.interpreter.mod.state import DragonsState

from .features import CARDS_SHOWN_AFTER, NONE, SIDES, STAGES, combat_view, dragons_view
from .observe import (
    AFTER_REVEAL,
    DECISION_KINDS,
    PHASES,
    Encoder,
    _marks,
    lean_view,
    orders_revealed,
    unrevealed_cards,
)

_MISSING = object()
_CONTAINERS = (dict, list)  # what `_copy` copies; the rest is immutable
NOBODY = ""  # the observer of the public vector: no house has this id, so it owns nothing and commands no one
PARTS_READ = ("combat", "context", "dragons", "removed")  # the parts of env/features.py this module knows
SCALARS = frozenset(("power", "supply", "last_bid"))  # a house's fields written in the first slots of its block


def _copy(data):
    """A copy of plain JSON data that shares its strings and numbers with the original: comparing the two then
    meets the same objects at the leaves, which CPython compares by identity (a copy through JSON or marshal
    makes new strings, and comparing them costs five times as much)."""
    kind = type(data)
    if kind is dict:
        return {k: _copy(v) if type(v) in _CONTAINERS else v for k, v in data.items()}
    if kind is list:
        return [_copy(v) if type(v) in _CONTAINERS else v for v in data]
    return data  # a string, a number, a boolean, None: immutable


def _army(army: dict) -> dict:
    """A copy of an army that shares its units' `[kind, routed]` lists: the rules replace a unit's list, never change
    it (tests/test_clone.py: clones share them too), so comparing an army with its copy meets the same lists and
    CPython compares them by identity; its list of units is copied (a muster appends, a casualty pops)."""
    copy = army.copy()
    copy["units"] = army["units"][:]
    return copy


def _sync(now: dict, then: dict, copy=None, old: dict | None = None) -> list:
    """The keys whose value differs between `now` and the copy `then`, which is brought up to date with `copy` of
    each new value (the value itself if None; the values it held go to `old`, if given: None for a new key).
    `then` is kept in the order of `now`'s keys (but where one key moved and another came or went, seen as equal
    dicts), so that the next call most often compares the two value by value in C."""
    n = len(now) - len(then)
    if n == 1 or n == -1:  # most often one key added (the last one) or removed: one comparison in C tells the rest
        k = next(reversed(now)) if n == 1 else next(iter(then.keys() - now.keys()))
        if (k not in then) if n == 1 else True:
            if old is not None:
                old[k] = then.get(k)
            if n == 1:
                then[k] = copy(now[k]) if copy else now[k]
            else:
                del then[k]
            return [k] if now == then else [k, *_sync(now, then, copy, old)]
    if n == 0 and list(now) == list(then):  # the same keys in the same order: the values compared in C
        changed = list(compress(now, map(ne, now.values(), then.values())))
        for k in changed:
            if old is not None:
                old[k] = then[k]
            then[k] = copy(now[k]) if copy else now[k]
        return changed
    gone = then.keys() - now.keys()  # (the set operations in C: an army that marched away and one that came)
    for k in gone:
        v = then.pop(k)
        if old is not None:
            old[k] = v
    came = [k for k in now if k not in then] if len(then) != len(now) else []
    for k in came:
        if old is not None:
            old[k] = None
        then[k] = copy(now[k]) if copy else now[k]
    if list(now) == list(then):  # (the keys that came are last in both, most often)
        changed = list(compress(now, map(ne, now.values(), then.values())))
    else:  # a key moved (taken off and put back): `then` takes `now`'s order again
        changed = [k for k, v in now.items() if then[k] != v]
        values = {k: then[k] for k in now}
        then.clear()
        then.update(values)
    for k in changed:
        if old is not None:
            old[k] = then[k]
        then[k] = copy(now[k]) if copy else now[k]
    return [*gone, *came, *changed]


def _chosen(combat: dict | None) -> dict:
    """The house cards chosen and not revealed yet in a combat, by house (what `observe.unrevealed_cards` reads)."""
    if not combat or combat.get("stage") != "house-cards":
        return {}
    return {h: c for h, c in (combat.get("cards") or {}).items() if c}


def _looked(game) -> tuple[str | None, str] | None:
    """(the house, the card) of the last look at the top wildling card, while no draw or move of it came since (what
    `observe.known_wildling_top` reads of the events)."""
    marks = _marks(game)[1]
    if not marks or marks[-1]["type"] != "raven-look":
        return None
    e = marks[-1]
    return e.get("house"), e["secret"]["card"]


def _sync_in(now: dict, then: dict) -> None:
    """`_sync(now, then, _copy)`, one level further down: a value that changed and is a dict on both sides is brought
    up to date key by key (the combat in progress, a rules module's state: a few of their many keys change at once)."""
    old: dict = {}
    for k in _sync(now, then, None, old):
        v, was = now.get(k, _MISSING), old.get(k)
        if type(v) is dict and type(was) is dict:
            _sync(v, was, _copy)
            then[k] = was
        elif v is not _MISSING:
            then[k] = _copy(v)


def _owner_changed(areas, st, old_units: dict, old_tokens: dict) -> bool:
    """Has any of `areas` another owner than before (`_sync`'s `old` values of the units and power tokens): its army's
    house while it has units, else its power token's (what `control.controller` reads besides the neutral forces)."""
    units, tokens = st.units, st.power_tokens
    for a in areas:
        army = units.get(a)
        before = old_units.get(a, army)  # (None: no army then)
        if (army["house"] if army and army["units"] else None) != \
                (before["house"] if before and before["units"] else None):
            return True
        if tokens.get(a) != old_tokens.get(a, tokens.get(a)):
            return True
    return False


class _Tracker:
    """The parts of one game's state the encoding reads, as last seen; `refresh` says what changed since."""

    def __init__(self, game):
        self.game, self.state = game, game.state
        st = game.state
        self.units = {a: _army(army) for a, army in st.units.items()}
        self.read = BOARD_LOG.end  # the engine's log of the areas written (`_units_written`), read up to here
        self.orders = {a: o.copy() for a, o in st.orders.items()}  # (the encoding reads an order's strings only)
        self.power_tokens, self.garrisons = dict(st.power_tokens), dict(st.garrisons)
        self.neutral_forces, self.blocked = dict(st.neutral_forces), list(st.blocked)
        self.houses = {h: _copy(vars(hs)) for h, hs in st.houses.items()}
        self.house_list = list(self.houses.values())  # in the state's order: one comparison finds any change
        self.tracks, self.seized = _copy(st.tracks), dict(st.seized_tokens)
        self.modules = _copy(st.modules)
        self.combat = _copy(st.step.get("combat"))
        self.chosen = _chosen(self.combat)  # the cards chosen and not revealed, by house (public: in their hands)
        self.revealed = orders_revealed(game)
        self._revealed_at = self._reveal_key()
        self.looked = _looked(game)
        self._read_rules_module()
        self.points = game.victory_table()
        # the areas whose control the victory table reads: castles and strongholds, home areas (loyalty, R37.1)
        board = game.board
        self.victory_areas = frozenset(board.castle_lands) | {a for a, info in board.control_info.items() if info[2]}
        self._face_down: dict[str, set[str]] | None = None  # house -> the areas of the orders it sees face down

    def _reveal_key(self) -> tuple:
        """What `orders_revealed` and `_looked` read: the phase, the kind of decision, the events (the log only
        grows: its length and last event tell a new one)."""
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

    def face_down(self, house: str) -> set[str] | tuple:
        """The areas of the face-down orders `house` may see (its own, its vassals'): none once revealed."""
        if self.revealed:
            return ()
        if self._face_down is None:
            by: dict[str, set[str]] = {}
            for area, o in self.state.orders.items():
                self._see(by, area, o["house"], True)
            self._face_down = by
        return self._face_down.get(house, ())

    def _see(self, by: dict, area: str, who: str, seen: bool) -> None:
        """The order in `area`, of `who`, is (no longer) seen face down by `who` and by its commander."""
        a = self.actors.get(who, who)
        for h in (who, a) if a != who else (who,):
            if seen:
                by.setdefault(h, set()).add(area)
            else:
                by.get(h, set()).discard(area)

    def _units_written(self, written: list[str], old: dict) -> list[str]:
        """`_sync` of the armies, for the areas the engine logged as written only (`state.board_written`: every
        change of an army is logged, a unit's kind or routed state too); another game's writes in the same log
        only cost a comparison."""
        now, then = self.state.units, self.units
        changed = []
        for a in set(written):
            army, was = now.get(a), then.get(a)
            if army is None:
                if was is not None:
                    old[a] = was
                    del then[a]
                    changed.append(a)
            elif was is None or army != was:
                old[a] = was
                then[a] = _army(army)
                changed.append(a)
        return changed

    def refresh(self) -> tuple[set, list | set, set, set, set]:
        """Compare the state with the copies and update them: (changed areas, areas whose order slots alone
        changed, changed houses, houses whose first slots alone changed (power, supply, last bid, points), changed
        parts and "tracks")."""
        game, st = self.game, self.state
        areas: set = set()
        houses: set = set()
        scalars: set = set()
        parts: set = set()
        order_areas: list | set = []
        old_units: dict = {}
        old_tokens: dict = {}
        written = BOARD_LOG.since(self.read)
        self.read = BOARD_LOG.end
        if written is None:  # the log no longer reaches back (dropped): compare every army
            units = st.units != self.units
            if units:
                areas.update(_sync(st.units, self.units, _army, old_units))
        else:
            changed = self._units_written(written, old_units)
            units = bool(changed)
            areas.update(changed)
        if st.power_tokens != self.power_tokens:
            areas.update(_sync(st.power_tokens, self.power_tokens, None, old_tokens))
        control = False
        if st.neutral_forces != self.neutral_forces:
            changed = _sync(st.neutral_forces, self.neutral_forces)
            areas.update(changed)
            control = not self.victory_areas.isdisjoint(changed)
        if areas and not control:  # an area the victory table reads changed hands (most changes leave its owner)
            control = _owner_changed(self.victory_areas.intersection(areas), st, old_units, old_tokens)
        if st.garrisons != self.garrisons:
            areas.update(_sync(st.garrisons, self.garrisons))
        if st.blocked != self.blocked:
            areas.update(set(st.blocked) ^ set(self.blocked))
            self.blocked = list(st.blocked)
        orders = st.orders != self.orders
        if orders:
            old: dict = {}
            order_areas = _sync(st.orders, self.orders, dict.copy, old)
            by = self._face_down
            if by is not None:  # one or two orders placed or removed: the others are seen as before
                now = st.orders
                for area, o in old.items():
                    if o is not None:
                        self._see(by, area, o.get("house"), False)
                    if area in now:
                        self._see(by, area, now[area]["house"], True)
        d, events = game.decision, game.events  # (`_reveal_key`, written out)
        at = (st.phase, d is not None and d.kind in AFTER_REVEAL, len(events), events[-1] if events else None)
        if at != self._revealed_at:
            self._revealed_at = at
            self.looked = _looked(game)
            revealed = orders_revealed(game)
            if revealed != self.revealed:
                self.revealed = revealed
                order_areas = {*order_areas, *st.orders}
        if st.modules != self.modules:
            _sync_in(st.modules, self.modules)
            control = True
            parts.add("dragons")
            loyalty, vassals, actors = self.loyalty, self.vassals, self.actors
            self._read_rules_module()
            areas.update(a for a, _ in set(loyalty.items()) ^ set(self.loyalty.items()))
            if vassals != self.vassals or actors != self.actors:  # who sees which hands, orders and cards
                houses.update(st.houses)
                order_areas = {*order_areas, *st.orders}
                parts.add("combat")
                self._face_down = None
        house_list = list(map(vars, st.houses.values()))
        if house_list != self.house_list:
            copies = self.houses
            for h, d in zip(st.houses, house_list, strict=True):
                old = copies.get(h)
                if old is None:
                    copies[h] = _copy(d)
                    houses.add(h)
                    parts.add("removed")
                elif d != old:
                    keys = _sync(d, old, _copy)  # (the copy brought up to date in place: `house_list` holds it)
                    if SCALARS.issuperset(keys):
                        scalars.add(h)  # (power after a bid or a raid, ...: most changes of a house)
                        continue
                    houses.add(h)
                    if "removed" in keys:
                        parts.add("removed")
            if len(copies) != len(house_list):
                for h in [h for h in copies if h not in st.houses]:
                    del copies[h]
                    houses.add(h)
                parts.add("removed")
            self.house_list = list(copies.values()) if list(copies) == list(st.houses) else \
                [copies[h] for h in st.houses]
        if st.tracks != self.tracks:
            self.tracks = _copy(st.tracks)
            parts.add("tracks")
        if st.seized_tokens != self.seized:
            self.seized = dict(st.seized_tokens)
            parts.add("removed")
        combat = st.step.get("combat")
        if combat != self.combat:
            # a chosen card shows in its house's hand (to the others) until the reveal: observe.unrevealed_cards
            secret, old = _chosen(combat), _chosen(self.combat)
            if secret != old:
                houses.update(h for h in secret.keys() | old.keys() if secret.get(h) != old.get(h))
            if combat and self.combat:
                _sync_in(combat, self.combat)
            else:
                self.combat = _copy(combat)
            self.chosen = secret
            parts.add("combat")
        elif combat and (units or orders):  # the defending units, who supports
            parts.add("combat")
        if control:
            points = game.victory_table()
            if points != self.points:
                scalars.update(h for h in points.keys() | self.points.keys() if points.get(h) != self.points.get(h))
                self.points = points
        return areas, order_areas, houses, scalars, parts


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
        self.no_order = self.blank[self.at_orders:self.at_orders + O + 2]  # an area's order slots, no order there
        self.houses_at = enc.sections["areas"]
        self.at_is_me = 4 + len(enc.tracks) + 1  # in a house block
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
        # the decider's context (`_context`): each one-hot's offset in the vector, its table and its `none` slot
        self.context_slots: tuple = ()
        if "context" in self.parts:
            p, o = self.parts["context"], self.part_at["context"]
            at = p.layout.at
            self.context_slots = tuple((key, o + at[key], table, table[NONE]) for key, table in  # (in this order)
                                       (("area", p.area), ("order", p.order), ("card", p.card), ("for", p.for_)))
            self.context_options = o + at["options"]
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
            areas, orders, houses, scalars, parts = t.refresh()
            mv = self.mv
            for area in areas:
                self._area(mv, game, area, NOBODY)
            for area in orders:
                if area not in areas:  # (the whole block is written already)
                    self._order(mv, area, NOBODY)
            if houses:
                secret = unrevealed_cards(game, NOBODY)
                for h in houses:
                    self._house(mv, h, secret, NOBODY)
                    self.own_blocks.pop(h, None)
            for h in scalars:
                if h not in houses:  # (the whole block is written already)
                    self._scalars(mv, h)
            for name in parts:
                if name == "tracks":
                    self._tracks(mv)
                elif name in self.parts:  # (maester_v0 has none)
                    self._part(mv, game, name, NOBODY)
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
        st = t.state
        if not t.revealed:
            face_down = t.face_down(house)
            if face_down:
                orders, oi, O = st.orders, enc._o, self.O  # noqa: N806, E741
                aw, at = enc.area_width, self.at_orders
                for area in face_down:
                    p = enc._a[area] * aw + at
                    mv[p + O] = 0.0
                    mv[p + oi[orders[area]["order"]]] = 1.0
        i = enc._h.get(house)
        if i is not None and house not in t.vassals and house not in t.chosen and house in st.houses:
            mv[self.houses_at + i * enc.house_width + self.at_is_me] = 1.0  # the rest of its block is public
        elif i is not None:  # its own block: its whole hand, is_me (kept until its house block changes)
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
                    hs = st.houses[h]
                    o = at + enc._h[h] * hw
                    for c in hs.hand + [secret[h]] if h in secret else hs.hand:
                        mv[o + ci[c]] = 1.0
        looked = t.looked
        if looked is not None and looked[0] == house:  # the top wildling card, still on top (known_wildling_top)
            deck = st.wildling_deck
            if deck and deck[0] == looked[1]:
                mv[self.at_top + len(enc.wildlings)] = 0.0
                mv[self.at_top + enc._w[deck[0]]] = 1.0
        d = game.decision
        mine = d is not None and d.house == house
        if mine:
            o = self.at_decision
            mv[o + enc._kind.get(d.kind, len(DECISION_KINDS) - 1)] = 1.0
            mv[o + len(DECISION_KINDS)] = 1.0
            if self.context_slots:
                self._context(mv, d, house)
        c = st.step.get("combat")
        if c and "combat" in self.parts and self._fights(c, house):
            self._combat_own(mv, c, house)

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
            self._write_order(mv, o + self.at_orders, order, me)
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

    def _order(self, mv, area: str, me: str) -> None:
        """An area's order slots alone (its other slots are unchanged), as `_area` writes them."""
        enc, t = self.encoder, self.tracker
        i = enc._a.get(area)
        if i is None:
            raise KeyError(area)
        O = self.O  # noqa: N806, E741
        p = i * enc.area_width + self.at_orders
        mv[p:p + O + 2] = self.no_order
        order = t.state.orders.get(area)
        if order is not None:
            self._write_order(mv, p, order, me)

    def _write_order(self, mv, p: int, order: dict, me: str) -> None:
        """An order on slots cleared to "no order" from `p`: its token where `me` may see it, else face down."""
        t, O = self.tracker, self.O  # noqa: N806, E741
        mv[p + O + 1] = 0.0
        who = order["house"]
        if t.revealed or who == me or t.actors.get(who, who) == me:
            mv[p + self.encoder._o[order["order"]]] = 1.0
        else:
            mv[p + O] = 1.0

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

    def _scalars(self, mv, h: str) -> None:
        """A house's power, supply, last bid and points alone (the rest of its block is unchanged), as `_house`."""
        i, hs, t = self.encoder._h.get(h), self.tracker.state.houses.get(h), self.tracker
        if i is not None and hs is not None:
            o = self.houses_at + i * self.encoder.house_width
            mv[o], mv[o + 1], mv[o + 2], mv[o + 3] = hs.power, hs.supply, hs.last_bid, t.points.get(h, 0)
            self.own_blocks.pop(h, None)

    def _tracks(self, mv) -> None:
        """Every house's positions on the tracks alone, as `_house` writes them."""
        enc, st = self.encoder, self.tracker.state
        tracks, houses = st.tracks, st.houses
        for h, i in enc._h.items():
            if h in houses:  # (a house outside the state has a blank block)
                o = self.houses_at + i * enc.house_width + 4
                for j, track in enumerate(enc.tracks):
                    order = tracks.get(track, ())
                    mv[o + j] = order.index(h) + 1 if h in order else 0
        self.own_blocks.clear()

    def _global(self, game) -> None:
        """The public global block: no wildling card known, no decision (both are the observer's, `_own`)."""
        st = game.state
        decks = st.decks
        key = (st.round, st.phase, st.wildling_threat, st.blade_used, st.raven_used, len(st.wildling_deck),
               *decks, *map(len, decks.values()))
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

    def _context(self, mv, d, house: str) -> None:
        """The decider's context, over the public part's `none` slots (what features.context_view reads, with the
        tracker's facts)."""
        t = self.tracker
        info = d.info
        area, order = info.get("area"), info.get("order")
        placed = t.state.orders.get(area) if area else None
        if order is None and placed is not None:
            who = placed["house"]
            mine = who == house or t.actors.get(who, who) == house
            order = placed["order"] if mine or t.revealed else None  # never a face-down order of another
        (_, o, table, none), (_, o2, table2, none2), (_, o3, table3, none3), (_, o4, table4, none4) = \
            self.context_slots
        mv[o + none], mv[o2 + none2], mv[o3 + none3], mv[o4 + none4] = 0.0, 0.0, 0.0, 0.0
        mv[o + table.get(area, none)] = 1.0
        mv[o2 + table2.get(order, none2)] = 1.0
        mv[o3 + table3.get(info.get("card"), none3)] = 1.0
        mv[o4 + table4.get(info.get("for"), none4)] = 1.0
        mv[self.context_options] = len(d.options)
