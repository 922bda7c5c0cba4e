"""Combat (R19–R21): support, strength, house cards and their abilities, the blade, casualties,
retreats and routing, clean up. House card abilities run through the effect interpreter, window by
window, in Iron Throne order (R20.2.6).
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field, fields
from typing import TYPE_CHECKING

from maester.dsl.registry import TRIGGERS, window_rule

from ..core import control, cursor, snapshot
from ..core.procedure_registry import procedure
from ..core.state import board_written
from ..effects import (
    Scope,
    ability_applies,
    apply_call,
    may_reach,
    parse_unit,
    reached_calls,
    run,
    run_ability,
    unit_ref,
)

if TYPE_CHECKING:
    from ..core.rules import Rules
    from .game import Game, Proc

STANDING = "standing"  # registry mark of effects that hold for the whole combat (registry MARKS)
NEUTRAL = "__neutral__"  # the defender of an attack on a neutral force (R25.2.4: it gets no support)
ATTACK = "@attack"  # the area name of units on the march during a combat
_SET_FIELDS = ("blank_cards", "protected", "skull_exposed", "unrouted", "forced_retreat", "keep_card", "removed_cards")


def _same(value):
    return value


# how `Combat.to_json` copies each field into JSON data (filled in below the class, from its fields)
_FIELD_COPIES: list[tuple[str, object]] = []
_COPIERS = {
    "attacking": lambda units: [list(u) for u in units],
    "mods": lambda mods: {h: dict(m) for h, m in mods.items()},
    "fired": lambda fired: sorted([card, i] for card, i in fired),
    "protected_by": lambda by: {h: list(origin) for h, origin in sorted(by.items())},
}


@dataclass
class Combat:
    attacker: str
    defender: str
    area: str  # the embattled area
    origin: str  # where the attacking army marched from
    attacking: list[list]  # the marching units [[kind, routed], ...] (off the board until the end)
    march_bonus: int
    transported: bool = False
    support: dict[str, str] = field(default_factory=dict)  # support area -> "attacker" | "defender"
    cards: dict[str, str | None] = field(default_factory=dict)  # house -> played card
    mods: dict[str, dict[str, int]] = field(default_factory=dict)  # house -> strength/swords/fortifications
    printed_override: dict[str, int] = field(default_factory=dict)  # card -> printed strength
    unit_override: dict[str, int] = field(default_factory=dict)  # unit ref -> strength
    final_override: dict[str, int] = field(default_factory=dict)  # house -> final strength set by a card (R20.5.2)
    blank_cards: set[str] = field(default_factory=set)  # cards whose text is ignored in this combat
    protected: set[str] = field(default_factory=set)  # houses that lose no casualties
    skull_exposed: set[str] = field(default_factory=set)  # protected houses that still lose units to skulls
    # house -> (card, "file:line:col") of the standing statement protecting it (the trace cites it)
    protected_by: dict[str, tuple[str, str]] = field(default_factory=dict)
    unrouted: set[str] = field(default_factory=set)  # houses whose retreating units are not routed
    forced_retreat: set[str] = field(default_factory=set)  # winners whose units retreat as well
    keep_card: set[str] = field(default_factory=set)
    removed_cards: set[str] = field(default_factory=set)
    fired: set[tuple[str, int]] = field(default_factory=set)  # (card, ability index) already resolved
    retreat_chooser: str | None = None
    no_advance: bool = False
    keep_march: bool = False
    blade_used_by: str | None = None
    final: dict[str, int] = field(default_factory=dict)
    winner: str | None = None
    loser: str | None = None
    retreated_to: dict[str, str] = field(default_factory=dict)
    tides: dict[str, str] = field(default_factory=dict)  # house -> Tides of Battle card (optional rule R29)
    returned: dict[str, str] = field(default_factory=dict)  # house -> its card a cancel sent back to its hand

    # ---- as data (the combat frame of the state's cursor, see `resolve_combat`)
    def to_json(self) -> dict:
        """The combat as plain JSON data, sharing nothing with the live combat (taken at every decision inside a
        combat step): the fields in their order, each container copied as JSON has it (sets sorted)."""
        out = vars(self).copy()  # the dataclass's __init__ set every field, in order: strings, numbers as they are
        if len(out) != len(_FIELD_COPIES):  # an attribute set besides the fields: field by field
            return {name: copy_of(getattr(self, name)) for name, copy_of in _FIELD_COPIES}
        for name, copy_of in _CONTAINER_COPIES:
            out[name] = copy_of(out[name])
        return out

    @classmethod
    def from_json(cls, data: dict) -> Combat:
        data = snapshot.copy_data(data)  # a restart's own copy of the cursor's combat (JSON data: marshal copies it)
        for name in _SET_FIELDS:
            data[name] = set(data[name])
        data["fired"] = {(card, i) for card, i in data["fired"]}
        data["protected_by"] = {h: (card, source) for h, (card, source) in data["protected_by"].items()}
        return cls(**data)

    # ---- who is who
    def sides(self) -> tuple[str, str]:
        return self.attacker, self.defender

    def opponent(self, house: str) -> str:
        return self.defender if house == self.attacker else self.attacker

    def add(self, house: str, what: str, amount: int) -> None:
        m = self.mods.setdefault(house, {})
        m[what] = m.get(what, 0) + amount

    # ---- units
    def fighting(self, g: Game, house: str) -> list[tuple[str, list]]:
        """(unit ref, unit) of a combatant's attacking or defending units."""
        if house == self.attacker:
            return [(unit_ref(ATTACK, i), u) for i, u in enumerate(self.attacking)]
        if house == self.defender:
            return [(unit_ref(self.area, i), u) for i, u in enumerate(g.state.units_in(self.area, house))]
        return []

    def supporting(self, g: Game, house: str | None, side_of: str | None = None) -> list[tuple[str, list]]:
        out = []
        for area, side in sorted(self.support.items()):
            owner = g.state.house_in(area)
            if owner is None or (house is not None and owner != house):
                continue
            if side_of is not None and self.side_house(side) != side_of:
                continue
            out.extend((unit_ref(area, i), u) for i, u in enumerate(g.state.units_in(area)))
        return out

    def side_house(self, side: str) -> str:
        return self.attacker if side == "attacker" else self.defender

    def units_of(self, g: Game, house: str | None, kind: str | None, role: str) -> list[str]:
        houses = [house] if house else list(self.sides())
        refs: list[tuple[str, list]] = []
        for h in houses:
            if role in ("fighting", "all"):
                refs.extend(self.fighting(g, h))
        if role in ("supporting", "all"):
            refs.extend(self.supporting(g, house))
        return [r for r, u in refs if kind is None or u[0] == kind]

    def supporters_of(self, g: Game, house: str) -> list[str]:
        side = "attacker" if house == self.attacker else "defender"
        return sorted({g.state.house_in(a) for a, s in self.support.items() if s == side
                       and g.state.house_in(a) is not None})

    def unit_strength(self, g: Game, ref: str, unit: list, for_house: str) -> int:
        if unit[1]:
            return 0  # routed units count 0, unmodifiable (R2.3.3)
        if ref in self.unit_override:
            return self.unit_override[ref]
        return self._strength_of(g, unit, for_house)

    def _strength_of(self, g: Game, unit: list, for_house: str) -> int:
        """`unit_strength` of a unit no card has set the strength of."""
        if unit[1]:
            return 0  # routed units count 0, unmodifiable (R2.3.3)
        rec = g.rules.unit_kinds[unit[0]]
        if rec.get("only_vs_castles"):
            attacking_castle = for_house == self.attacker and g.castle_level(self.area) != "none"
            return rec["strength"] if attacking_castle else 0
        return g.unit_strength_of_kind(unit[0])

    # ---- strength
    def initial(self, g: Game, house: str) -> int:
        """Units + order bonus + garrison + support (R19.4)."""
        if self.unit_override:
            total = sum(self.unit_strength(g, r, u, house) for r, u in self.fighting(g, house))
        else:  # no unit's strength set by a card: the refs are not needed (the same sum, `unit_strength`)
            army = self.attacking if house == self.attacker else (
                g.state.units_in(self.area, house) if house == self.defender else ())
            total = sum(self._strength_of(g, u, house) for u in army)
        if house == self.attacker:
            total += self.march_bonus
        else:
            total += g.defense_bonus(self.area, house)
            if g.state.garrison_owner.get(self.area) == house:
                total += g.state.garrisons.get(self.area, 0)
        for area, side in self.support.items():
            if self.side_house(side) != house:
                continue
            order = g.state.orders.get(area)
            if order is None:
                continue  # raided or otherwise removed: the area no longer supports
            owner = g.state.house_in(area)
            if owner == order["house"]:
                if self.unit_override:
                    total += sum(self.unit_strength(g, unit_ref(area, i), u, house)
                                 for i, u in enumerate(g.state.units_in(area)))
                else:
                    total += sum(self._strength_of(g, u, house) for u in g.state.units_in(area))
            # the order's bonus counts until the Combat Clean Up, even if its units are gone (R14.7)
            if owner in (None, order["house"]):
                total += g.rules.order(order["order"]).get("value") or 0
        return max(0, total)

    def card_strength(self, g: Game, house: str) -> int:
        card = self.cards.get(house)
        if card is None:
            return 0
        printed = self.printed_override.get(card, g.rules.card(card)["strength"])
        return max(0, printed)

    def icons(self, g: Game, house: str, what: str) -> int:
        card = self.cards.get(house)
        base = g.rules.card(card)[what] if card else 0
        return max(0, base + self.mods.get(house, {}).get(what, 0) + self.tides_value(g, house, what))

    def tides_value(self, g: Game, house: str, what: str) -> int:
        """What the house's Tides of Battle card adds (R29.3): strength, swords, fortifications or skulls."""
        card = self.tides.get(house)
        return (g.rules.bundle["tides_cards"][card].get(what) or 0) if card else 0

    def total(self, g: Game, house: str) -> int:
        if house in self.final_override:  # a card that sets final strength overrides the sum (R20.5.2)
            return max(0, self.final_override[house])
        total = self.initial(g, house) + self.card_strength(g, house) + self.mods.get(house, {}).get("strength", 0)
        total += self.tides_value(g, house, "strength")
        if self.blade_used_by == house:
            total += 1
        return max(0, total)

    # ---- cards
    def return_card(self, g: Game, house: str, rule: str) -> None:
        card = self.cards.get(house)
        if card is None:
            return
        g.emit("cancel", rule, f"{house}'s {card} is cancelled and goes back to its hand", house=house, card=card)
        g.state.houses[house].hand.append(card)
        self.cards[house] = None
        self.returned[house] = card

    def discard_card(self, g: Game, house: str, rule: str) -> None:
        card = self.cards.get(house)
        if card is None:
            return
        g.state.houses[house].discards.append(card)  # from play: it was never back in the hand
        self.cards[house] = None
        g.emit("cards", rule, f"{house} discards its revealed {card}", house=house, card=card)

    def reveal_another(self, g: Game, house: str, random: bool, rule: str) -> Proc:
        hand = list(g.hand_for_combat(house, self.in_play()))
        returned = self.returned.get(house)
        options = hand if random else [c for c in hand if c != returned]
        if not options:
            self.cards[house] = None
            g.emit("cards", rule, f"{house} has no other card and fights without one", house=house)
            return
        if random:
            pick = g.rng.choice(sorted(options))
        else:
            pick = yield from g.choose(house, "house-card", f"{house}: reveal another house card", sorted(options),
                                       rule, area=self.area)
        self.play(g, house, pick)
        g.emit("reveal", rule, f"{house} reveals {pick}", house=house, card=pick)

    def play(self, g: Game, house: str, card: str | None) -> None:
        """The card is played: from now until Combat Clean Up it is held apart from the hand (R20.1.1), in the
        combat (`step.combat.cards` of the state); effects that read or discard from the hand never see it."""
        self.cards[house] = card
        hand = g.state.houses[house].hand
        if card is not None and card in hand:
            hand.remove(card)

    def in_play(self) -> tuple[str, ...]:
        return tuple(c for c in self.cards.values() if c is not None)

    # ---- board changes during combat
    def is_protected(self, g: Game, house: str, skull: bool = False) -> bool:
        """Whether a house loses no units as casualties. `skull`: the loss is to a Tides of Battle skull,
        which a protection `except-skulls` does not cover. Read from the combat as its standing effects
        make it now (see `standing_view`)."""
        view = self.standing_view(g)
        return house in view.protected and not (skull and house in view.skull_exposed)

    def standing_view(self, g: Game) -> Combat:
        """This combat with the standing effects of the face-up cards applied (registry mark `standing`:
        e.g. a casualty protection holds as soon as its card is revealed and not cancelled, before its own
        timing window is reached). The calls are applied to a copy, so a card cancelled later, or a
        condition that stops holding, leaves nothing behind."""
        found = []
        for owner in self.sides():
            card = self.cards.get(owner)
            if card is None or card in self.blank_cards or not _card_facts(g.rules, card)[2]:
                continue  # no card, blanked, or a card none of whose abilities can reach a standing call
            for ability in g.rules.card(card)["abilities"]:
                sc = _scope(self, owner, card, ability["trigger"])
                if ability_applies(g, ability, sc):
                    found += [(sc, st, args) for st, args in reached_calls(g, ability["body"], sc, STANDING)]
        if not found:
            return self
        view = copy.deepcopy(self)
        for sc, st, args in found:
            sc.combat = view
            before = set(view.protected)
            apply_call(g, st, sc, args)
            for house in view.protected - before:
                view.protected_by[house] = (sc.card or "", st.get("at", ""))
        return view

    def emit_protected(self, g: Game, house: str, rule: str, text: str) -> None:
        """The event of a loss prevented, citing the card statement that prevents it (issue: traces)."""
        origin = self.standing_view(g).protected_by.get(house)
        data = {"card": origin[0], "source": origin[1]} if origin and g.origin is None else {}
        g.emit("protected", rule, text, house=house, **data)

    def destroy(self, g: Game, ref: str, rule: str, why: str, skull: bool = False) -> None:
        area, idx = parse_unit(ref)
        owner = self.attacker if area == ATTACK else g.state.house_in(area)
        if self.is_protected(g, owner, skull):
            self.emit_protected(g, owner, rule, f"{owner} loses no units in this combat")
            return
        if area == ATTACK:
            if idx < len(self.attacking):
                unit = self.attacking.pop(idx)
                g.emit("destroy", rule, f"{self.attacker} attacking {unit[0]} is destroyed ({why})",
                       house=self.attacker, area=self.area, kind=unit[0])
        elif area in g.state.units and idx < len(g.state.units[area]["units"]):
            g.destroy_unit(area, idx, rule, why)

    def order_removed(self, area: str) -> None:
        self.support.pop(area, None)


def _copier(f) -> object:
    if f.name in _COPIERS:
        return _COPIERS[f.name]
    if f.name in _SET_FIELDS:
        return sorted
    return dict if "dict" in str(f.type) else _same  # str, int, bool or None otherwise


_FIELD_COPIES.extend((f.name, _copier(f)) for f in fields(Combat))
_CONTAINER_COPIES = tuple((name, copy_of) for name, copy_of in _FIELD_COPIES if copy_of is not _same)
# the combat as the cursor keeps it (`step.combat`, with its `stage`): each field's type (cursor.FIELD_TYPES), what
# an analysis position's combat is checked against (frame_check.py)
COMBAT_RECORD = cursor.record_kind(
    "combat", stage="string", attacker="house", defender="house", area="area", origin="area", attacking="units",
    march_bonus="int", transported="bool", support="sides", cards="house-cards-played", mods="object",
    printed_override="object", unit_override="object", final_override="house-numbers", blank_cards="strings",
    protected="houses", skull_exposed="houses", protected_by="object", unrouted="houses", forced_retreat="houses",
    keep_card="houses", removed_cards="strings", fired="list", retreat_chooser="house-or-null", no_advance="bool",
    keep_march="bool", blade_used_by="house-or-null", final="house-numbers", winner="house-or-null",
    loser="house-or-null", retreated_to="house-areas", tides="house-tides-cards", returned="house-house-cards")


# ---- the frames of the combat's steps (cursor.py) ----------------------------------------------------
# Inside a step the combat itself is data (the cursor's `combat`, rewritten at every decision, see
# `resolve_combat`); these frames keep the rest: how far each step's loop has got and what it holds off
# the board meanwhile.
SUPPORT_FRAME = cursor.frame_kind(
    "combat.support", "The houses with a Support order next to the embattled area are asked in turn order "
    "whom they support", "R19.3",
    next=("int", "0-based index in the turn order of the house asked now"),
    support=("sides", "the support given so far: support area -> attacker or defender"))
HOUSE_CARDS_FRAME = cursor.frame_kind(
    "combat.house-cards", "Both sides choose their house card in secret; the cards chosen so far are the "
    "combat's `cards` (hidden until the reveal)", "R20.1",
    next=("int", "which side chooses now: 0 the attacker, 1 the defender"))
ABILITIES_FRAME = cursor.frame_kind(
    "combat.abilities", "The house card abilities of one timing window run in Iron Throne order, pass after "
    "pass, until a pass runs none; the combat's `fired` lists those begun", "R20.2.6",
    window=("string", "the timing window"),
    order=("houses", "the combatants in the Iron Throne order this pass began with"),
    house=("count", "0-based index in `order` of the house whose ability runs now"),
    card=("house-card-or-null", "that house's card when its abilities began"),
    ability=("int", "0-based index among the card's abilities of the one running now"),
    scope=("object", "the names the running ability began with (you, opponent, opponent-card, ...)"),
    ran=("bool", "whether this pass has run an ability (a pass without one ends the window)"))
TIDES_FRAME = cursor.frame_kind(
    "combat.tides", "Each combatant has drawn a Tides of Battle card; the blade holder may draw a new one",
    "R29.3", deck=("tides-cards", "the shuffled Tides of Battle cards left to draw, top first (hidden)"))
CASUALTIES_FRAME = cursor.frame_kind(
    "combat.casualties", "The loser chooses its casualties one by one", "R21.2",
    count=("int", "the casualties due: the victor's swords minus the loser's fortifications"),
    done=("int", "the casualties chosen before the one asked now"))
SKULLS_FRAME = cursor.frame_kind(
    "combat.skulls", "Each skull of a Tides of Battle card costs the opponent a fighting unit", "R29.3.5",
    side=("int", "whose skulls are resolved now: 0 the attacker's, 1 the defender's"),
    done=("int", "that side's skulls resolved before the one asked now"))
RETREATS_FRAME = cursor.frame_kind(
    "combat.retreats", "The loser's army retreats, then the army of a victor a card forces to retreat", "R21.3",
    next=("int", "0-based index of the army retreating now: 0 the loser's, then the forced victors' by name"))
RETREAT_FRAME = cursor.frame_kind(
    "combat.retreat", "One army retreats: its area is chosen, then supply may cost it units", "R21.3",
    house=("house", "the house whose army retreats"),
    units=("units", "the retreating units, off the board until they arrive: [kind, routed] each"),
    area=("area-or-null", "the retreat area, once chosen"),
    keep=("int", "for a defender's army: how many units the supply limits let arrive (R21.3.6)"))
CLEAN_UP_FRAME = cursor.frame_kind(
    "combat.clean-up", "The combat clean up: the army has advanced or gone back, the cards are discarded; the "
    "after-combat abilities run", "R21.5",
    march=("object", "the attacker's March order taken off its origin (empty: none), settled after the "
           "abilities (R21.5.2)"),
    advanced=("bool", "whether the attacker's army took the embattled area"))


# ---- the procedure --------------------------------------------------------------------------------

def _scope(c: Combat, house: str, card: str, window: str) -> Scope:
    """The names a combat ability sees (the `combat` context of the registry)."""
    opponent = c.opponent(house)
    return Scope({"you": house, "opponent": opponent, "embattled-area": c.area, "this-card": card,
                  "your-card": card, "opponent-card": c.cards.get(opponent), "attacker": c.attacker,
                  "defender": c.defender, "march-origin": c.origin},
                 house, c, card, window_rule(window))


# id(a card's record in a bundle) -> (the record, its abilities' windows, whether any ability can reach a `standing`
# call): what a card's text can do, read once from the bundle (which never changes during a game); the record is
# kept so that its id is never another's (as the evaluator's block caches do)
_CARD_FACTS: dict[int, tuple[dict, frozenset[str], bool]] = {}


def _card_facts(rules: Rules, card: str) -> tuple[dict, frozenset[str], bool]:
    rec = rules.card(card)
    found = _CARD_FACTS.get(id(rec))
    if found is None or found[0] is not rec:
        abilities = rec["abilities"]
        found = _CARD_FACTS[id(rec)] = (rec, frozenset(a["trigger"] for a in abilities),
                                        any(may_reach(a["body"], STANDING) for a in abilities))
    return found


def _any_ability(g: Game, c: Combat, window: str) -> bool:
    """Has a card in play (not blanked) an ability of this window that has not fired yet? Without one, no card
    can be revealed or change during the window either."""
    for house in c.sides():
        card = c.cards.get(house)
        if card is None or card in c.blank_cards or window not in _card_facts(g.rules, card)[1]:
            continue
        for i, ability in enumerate(g.rules.card(card)["abilities"]):
            if ability["trigger"] == window and (card, i) not in c.fired:
                return True
    return False


def _abilities(g: Game, c: Combat, window: str) -> Proc:
    """Run the abilities of both played cards for one timing window, in Iron Throne order (R20.2.6).

    A card revealed during the window (after a cancel, or a card that replaces itself) has its own
    abilities of the window resolved too, once; a card that left the combat stops resolving.

    Restarted inside an ability (its frame is saved), the loops go on from the frame's house and ability
    and the ability runs again with the names it began with, down to its pending decision."""
    if TRIGGERS.get(window) is None or TRIGGERS[window].context != "combat":
        raise ValueError(f"'{window}' is not a combat window of the registry")
    resuming = cursor.restarting(g)
    if not resuming and not _any_ability(g, c, window):
        return  # most windows of most combats: no card in play has an ability here (nothing to keep a frame for)
    f = cursor.enter(g, ABILITIES_FRAME, window=window, order=[], house=0, card=None, ability=0, scope={},
                     ran=False)
    if f["window"] != window:
        raise AssertionError(f"restart took another path: the abilities of {f['window']!r}, not {window!r}")
    while True:
        if not resuming:  # a new pass, in the Iron Throne order as it stands now
            f["order"] = sorted(c.sides(), key=lambda h: g.state.position(h, g.turn_track))
            f["house"], f["ran"] = 0, False
        order = f["order"]
        for k in range(f["house"], len(order)):
            house = order[k]
            if resuming:
                card, first = f["card"], f["ability"]
            else:
                card, first = c.cards.get(house), 0
                if card is None or card in c.blank_cards:
                    continue
            abilities = g.rules.card(card)["abilities"]
            for i in range(first, len(abilities)):
                ability = abilities[i]
                if resuming:  # the ability in progress: its condition held when it began
                    resuming = False
                    sc = Scope(dict(f["scope"]), house, c, card, window_rule(window))
                    yield from run(g, ability["body"], sc)
                    continue
                if c.cards.get(house) != card:
                    break
                if ability["trigger"] != window or (card, i) in c.fired:
                    continue
                c.fired.add((card, i))
                sc = _scope(c, house, card, window)
                f.update(house=k, card=card, ability=i, scope=dict(sc.vars), ran=True)
                yield from run_ability(g, ability, sc)
        if not f["ran"]:
            break
    cursor.leave(g, f)


def _eligible_supports(g: Game, c: Combat) -> list[str]:
    """Areas whose support order may help this combat (R19.3.1, R19.3.2, R24.10)."""
    target = g.board.area(c.area)
    orders = g.state.orders
    out = []
    for area in g.board.neighbours(c.area):  # sorted, as the adjacency is symmetric
        order = orders.get(area)
        if order is None or not g.is_support(order["order"]):
            continue
        a = g.board.area(area)
        if a.is_land and not target.is_land:
            continue
        if a.is_port and a.port_sea != c.area:
            continue
        if not g.state.units_in(area):
            continue
        out.append(area)
    return out


def _call_for_support(g: Game, c: Combat) -> Proc:
    """Each house with eligible Support orders, in turn order, supports a side or nobody (R19.3). The frame
    keeps the support given so far (a neutral force attack has no combat data to keep it in)."""
    areas = _eligible_supports(g, c)
    if not areas and not cursor.restarting(g):
        return  # nobody to ask (most combats): no frame to keep
    by_house: dict[str, list[str]] = {}
    for area in areas:
        by_house.setdefault(g.state.orders[area]["house"], []).append(area)
    f = cursor.enter(g, SUPPORT_FRAME, next=0, support={})
    c.support.update(f["support"])  # restarting: the support given before the pending question
    houses = g.turn_order
    for i in range(f["next"], len(houses)):
        house = houses[i]
        if house not in by_house:
            continue
        f["next"] = i
        if house in c.sides():
            side = "attacker" if house == c.attacker else "defender"  # R19.3.4
        else:
            side = yield g.ask(house, "support", f"{house}: support {c.attacker} (attacker), "
                               f"{c.defender} (defender) or nobody in {c.area}?",
                               ["attacker", "none"] if c.defender == NEUTRAL else ["attacker", "defender", "none"],
                               "R19.3.3", area=c.area)  # (two or three options: `g.choose` would ask too)
        if side != "none":
            for area in by_house[house]:
                c.support[area] = f["support"][area] = side
            g.emit("support", "R19.3", f"{house} supports the {side} from {', '.join(by_house[house])}",
                   house=house, side=side)
    cursor.leave(g, f)


def _open(g: Game, c: Combat) -> Proc:
    if not cursor.restarting(g):  # restarting inside the call for support: the combat is announced already
        g.emit("combat", "R19", f"combat in {c.area}: {c.attacker} attacks {c.defender}", area=c.area,
               attacker=c.attacker, defender=c.defender)
    yield from _call_for_support(g, c)


def _house_cards(g: Game, c: Combat) -> Proc:
    resuming = cursor.restarting(g)
    f = cursor.enter(g, HOUSE_CARDS_FRAME, next=0)
    if not resuming:
        initial = {h: c.initial(g, h) for h in c.sides()}
        g.emit("initial-strength", "R19.4", f"initial strength: {c.attacker} {initial[c.attacker]}, "
               f"{c.defender} {initial[c.defender]}", strengths=initial)
    # house cards, chosen in secret and revealed together (R20.1)
    sides = c.sides()
    for i in range(f["next"], len(sides)):
        house = sides[i]
        f["next"] = i
        hand = sorted(g.hand_for_combat(house, c.in_play()))
        # (`g.choose` written out, here and below: no generator layer between a frequent decision and the game)
        c.play(g, house, None if not hand else hand[0] if len(hand) == 1 else (
            yield g.ask(house, "house-card", f"{house}: choose a house card for the combat in {c.area}", hand,
                        "R20.1.1", area=c.area)))
    g.emit("reveal", "R20.1.1", f"{c.attacker} plays {c.cards[c.attacker]}, {c.defender} plays "
           f"{c.cards[c.defender]}", cards=dict(c.cards))
    cursor.leave(g, f)


def _window(window: str):
    def stage(g: Game, c: Combat) -> Proc:
        yield from _abilities(g, c, window)
    stage.window = window  # type: ignore[attr-defined]
    return stage


def _blade_holder(g: Game, c: Combat) -> tuple[str, str | None]:
    """The blade holder and the side of this combat it may use the blade for (None: neither)."""
    holder = g.holder(g.token_of_track(g.blade_track))
    return holder, next((h for h in c.sides() if h in g.blade_sides(holder)), None)


def _tides(g: Game, c: Combat) -> Proc:
    """Tides of Battle (optional, R29), before the blade."""
    if g.state.tides_of_battle:
        yield from _tides_of_battle(g, c, *_blade_holder(g, c))


def _blade(g: Game, c: Combat) -> Proc:
    """The Valyrian Steel Blade (R20.4): a single question, nothing changed before it (no frame)."""
    st = g.state
    blade_holder, blade_side = _blade_holder(g, c)
    if not st.blade_used and blade_side is not None:
        use = yield g.ask(blade_holder, "blade", f"{blade_holder}: use the Valyrian Steel Blade (+1)?",
                          ["yes", "no"], "R20.4", area=c.area)
        if use == "yes":
            st.blade_used = True
            c.blade_used_by = blade_side
            g.emit("blade", "R20.4", f"{blade_holder} uses the Valyrian Steel Blade", house=blade_holder)


def _result(g: Game, c: Combat) -> Proc:
    st = g.state
    c.final = {h: c.total(g, h) for h in c.sides()}
    a, d = c.final[c.attacker], c.final[c.defender]
    if a != d:
        c.winner = c.attacker if a > d else c.defender
    else:
        c.winner = min(c.sides(), key=lambda h: st.position(h, g.blade_track))  # R20.6
    c.loser = c.opponent(c.winner)
    g.emit("combat-result", "R20.6", f"final strength {c.attacker} {a}, {c.defender} {d}: {c.winner} wins",
           winner=c.winner, final=dict(c.final))
    return
    yield  # pragma: no cover - a stage is a generator


def _losses(g: Game, c: Combat) -> Proc:
    st = g.state
    # the garrison falls with a losing defender (R21.1); restarted later in the step, it is gone already
    if c.loser == c.defender and st.garrison_owner.get(c.area) == c.defender:
        st.garrisons.pop(c.area, None)
        st.garrison_owner.pop(c.area, None)
        g.emit("garrison", "R21.1", f"{c.defender}'s garrison in {c.area} is removed from the game", area=c.area)
    yield from _casualties(g, c)


def _tides_of_battle(g: Game, c: Combat, blade_holder: str, blade_side: str | None) -> Proc:
    """Each combatant draws a Tides of Battle card; the blade may redraw one instead of +1 (R29.3)."""
    st = g.state
    if cursor.restarting(g):  # drawn already: the frame keeps the rest of the deck
        f = cursor.enter(g, TIDES_FRAME)
    else:
        deck = [cid for cid, rec in sorted(g.rules.bundle["tides_cards"].items()) for _ in range(rec["copies"])]
        g.rng.shuffle(deck)  # all cards are reshuffled before every combat (R29.3.2)
        for house in c.sides():
            c.tides[house] = deck.pop(0)
        f = cursor.enter(g, TIDES_FRAME, deck=deck)
    deck = f["deck"]
    if not st.blade_used and blade_side is not None:
        redraw = yield g.ask(blade_holder, "tides-redraw", f"{blade_holder}: use the blade to draw a new Tides of "
                             "Battle card?", ["yes", "no"], "R29.3.3", area=c.area,
                             secret={"card": c.tides[blade_side]})
        if redraw == "yes":
            st.blade_used = True
            c.tides[blade_side] = deck.pop(0)
            g.emit("blade", "R29.3.3", f"{blade_holder} uses the blade to draw a new Tides of Battle card",
                   house=blade_holder)
    g.emit("tides", "R29.3.3", "Tides of Battle: " + ", ".join(f"{h} {c.tides[h]}" for h in c.sides()),
           tides=dict(c.tides))
    cursor.leave(g, f)


def _skulls(g: Game, c: Combat) -> Proc:
    """Each skull on a Tides card costs the opponent one fighting unit, win or lose (R29.3.5)."""
    f = cursor.enter(g, SKULLS_FRAME, side=0, done=0)
    sides, first = c.sides(), f["done"]
    for s in range(f["side"], len(sides)):
        house = sides[s]
        victim = c.opponent(house)
        for k in range(first, c.tides_value(g, house, "skulls")):
            f.update(side=s, done=k)
            units = _casualty_candidates(g, c, victim)
            if not units or c.is_protected(g, victim, skull=True):
                break
            pick = yield from g.choose(victim, "casualty", f"{victim}: lose a unit to a skull",
                                       sorted({u[0] for _, u in units}), "R29.3.5", area=c.area)
            ref = next(r for r, u in units if u[0] == pick)
            c.destroy(g, ref, "R29.3.5", "Tides of Battle skull", skull=True)
        first = 0
    cursor.leave(g, f)


def _casualties(g: Game, c: Combat) -> Proc:
    """Swords of the victor minus fortifications of the loser; the loser chooses (R21.2)."""
    if cursor.restarting(g):  # the count and the protection were settled before the pending choice
        f = cursor.enter(g, CASUALTIES_FRAME)
    else:
        n = c.icons(g, c.winner, "swords") - c.icons(g, c.loser, "fortifications")
        if n <= 0:
            return
        if c.is_protected(g, c.loser):
            c.emit_protected(g, c.loser, "R21.2", f"{c.loser} loses no units as casualties")
            return
        f = cursor.enter(g, CASUALTIES_FRAME, count=n, done=0)
    n = f["count"]
    for k in range(f["done"], n):
        f["done"] = k
        units = _casualty_candidates(g, c, c.loser)
        if not units:  # the rest of the count is lost: routed units die at the retreat instead (R21.2.4, R21.3.5)
            break
        kinds = sorted({u[0] for _, u in units})
        pick = kinds[0] if len(kinds) == 1 else (
            yield g.ask(c.loser, "casualty", f"{c.loser}: choose a casualty ({n} in all)", kinds, "R21.2.1",
                        area=c.area))
        ref = next(r for r, u in units if u[0] == pick)
        c.destroy(g, ref, "R21.2.1", "casualty")
    cursor.leave(g, f)


def _casualty_candidates(g: Game, c: Combat, house: str) -> list[tuple[str, list]]:
    """The units a house may choose as casualties: its fighting units, never routed ones (R21.2.4)."""
    return [(r, u) for r, u in c.fighting(g, house) if not u[1]]


def retreat_areas(g: Game, c: Combat, house: str, units: list[list], include_origin: bool = False) -> list[str]:
    """Legal retreat areas for a losing defender (R21.3.3); `include_origin`: for a losing attacker whose
    retreat area the victor chooses (R21.3.7), the area it marched from is legal too."""
    land = any(g.rules.unit_kinds[u[0]]["domain"] == "land" for u in units)
    if land:
        own_ship = lambda s: g.state.house_in(s) == house  # noqa: E731
        candidates = g.board.land_destinations(c.area, own_ship)
    else:
        candidates = g.board.sea_destinations(c.area, lambda p: g.controller(p) == house)
    out = []
    for area in candidates:
        if (area == c.origin and not include_origin) or area in g.state.blocked or area in g.state.neutral_forces:
            continue
        here = g.state.house_in(area)
        if here not in (None, house):
            continue
        token = g.state.power_tokens.get(area)
        if token not in (None, house):
            continue
        ctrl = g.controller(area)
        if ctrl not in (None, house):
            continue  # e.g. an empty home area of another house (R21.3.3, D8)
        if g.board.area(area).is_port and len(g.state.units_in(area)) + len(units) > g.port_capacity:
            continue
        out.append(area)
    return out


def _supply_losses(g: Game, house: str, n: int, area: str, left: dict[str, int] | None = None,
                   counts: dict[str, int] | None = None) -> int:
    """How many of `n` retreating units the supply limits would cost in `area` (R21.3.6); `left`: units still on
    the board that will have left by then (area -> minus their number); `counts`: the house's unit counts, when
    the caller read them once for many areas."""
    k = n
    while k > 0 and not g.fits_supply(house, {**(left or {}), area: k}, counts):
        k -= 1
    return n - k


def _fewest_losses(g: Game, house: str, n: int, options: list[str], left: dict[str, int] | None = None) -> list[str]:
    """The retreat areas where supply costs the fewest units (R21.3.6)."""
    counts = control.unit_counts(g.state, house)  # read once: the board is the same for every area tested
    losses = {a: _supply_losses(g, house, n, a, left, counts) for a in options}
    best = min(losses.values())
    return [a for a in options if losses[a] == best]


@procedure("retreat-is-forced")
def retreat_is_forced(g: Game, c: Combat) -> bool:
    """Would the loser's army go to the same place whoever chooses its retreat area (a card letting the victor
    choose, R21.3.7, then changes nothing)? Nothing left to retreat, or a single legal area (the origin, for an
    attacker)."""
    loser = c.loser
    if loser is None:
        return False
    attacking = loser == c.attacker
    army = c.attacking if attacking else g.state.units_in(c.area, loser)
    movers = [u for u in army if not (u[1] or g.rules.unit_kinds[u[0]].get("only_vs_castles"))]
    if not movers:
        return True
    options = retreat_areas(g, c, loser, movers, include_origin=attacking)
    if options:  # a defender's units are still in the embattled area: count them gone, as at the retreat
        options = _fewest_losses(g, loser, len(movers), options, None if attacking else {c.area: -len(army)})
    return options == [c.origin] if attacking else len(options) <= 1


def _retreat(g: Game, c: Combat) -> Proc:
    """The loser's army retreats (R21.3), then every victor's army a card forces out of the area."""
    loser = c.loser
    armies = [loser, *sorted(c.forced_retreat - {loser})]
    f = cursor.enter(g, RETREATS_FRAME, next=0)
    for i in range(f["next"], len(armies)):
        f["next"] = i
        if i == 0 and loser == c.attacker:
            if not (yield from _retreat_attacker(g, c)):
                break  # the attacking army was destroyed instead: no other army retreats
        else:
            yield from _retreat_from_area(g, c, armies[i])
    cursor.leave(g, f)


def _retreat_attacker(g: Game, c: Combat) -> Proc:
    """A losing attacker's army goes back to its origin, or where the victor says (R21.3.2, R21.3.7); returns
    False if it was destroyed instead. Its units stay in the frame until they arrive."""
    loser = c.loser
    # a card may let the victor choose the area, the origin or any legal retreat area (R21.3.7, R22.1)
    chooser = c.retreat_chooser if c.retreat_chooser not in (None, loser) else None
    if cursor.restarting(g):
        f = cursor.enter(g, RETREAT_FRAME)
    else:
        survivors = c.attacking
        c.attacking = []
        # with nothing able to move, a card letting the victor choose changes nothing (`retreat-is-forced`)
        movable = any(not (u[1] or g.rules.unit_kinds[u[0]].get("only_vs_castles")) for u in survivors)
        if (chooser is None or not movable) and (g.controller(c.origin) not in (None, loser)
                                                  or g.state.house_in(c.origin) not in (None, loser)):
            g.emit("destroy", "R21.3.2", f"{loser}'s army cannot retreat to {c.origin} and is destroyed", house=loser)
            return False
        kept = []
        for u in survivors:
            if u[1] or g.rules.unit_kinds[u[0]].get("only_vs_castles"):
                g.emit("destroy", "R21.3.5", f"{loser} {u[0]} cannot retreat and is destroyed", house=loser,
                       area=c.area, kind=u[0])
                continue
            kept.append(list(u))
        f = cursor.enter(g, RETREAT_FRAME, house=loser, units=kept, area=None, keep=0)
    kept = f["units"]
    if f["area"] is None:
        target = c.origin
        if chooser is not None and kept:
            options = retreat_areas(g, c, loser, kept, include_origin=True)
            if not options:
                g.emit("destroy", "R21.3.4", f"{loser} has no legal retreat: {len(kept)} unit(s) destroyed",
                       house=loser)
                cursor.leave(g, f)
                return False
            target = yield from g.choose(chooser, "retreat", f"{chooser}: where does {loser} retreat from {c.area}?",
                                         _fewest_losses(g, loser, len(kept), options), "R21.3.7", area=c.area)
        f["area"] = target
    target = f["area"]
    while kept and not g.fits_supply(loser, {target: len(kept)}):  # R21.3.6
        kind = yield from g.choose(loser, "retreat-loss", f"{loser}: destroy a retreating unit (supply)",
                                   sorted({u[0] for u in kept}), "R21.3.6")
        kept.remove(next(u for u in kept if u[0] == kind))
        g.emit("destroy", "R21.3.6", f"{loser} {kind} is destroyed (supply)", house=loser, kind=kind)
    cursor.leave(g, f)
    routed = loser not in c.unrouted  # R21.4.1, unless a card keeps them unrouted
    for u in kept:
        g.state.add_unit(target, loser, u[0], routed=routed)
    if kept:
        c.retreated_to[loser] = target
        # the rule cited depends on where it went, not on whether a card let the victor choose: back to its origin
        # (R21.3.2) is where it goes anyway, and a card's choice of the one legal area changes nothing
        g.emit("retreat", "R21.3.2" if target == c.origin else "R21.3.7", f"{loser} retreats to {target} "
               f"({len(kept)} {'routed' if routed else 'not routed'})", house=loser, area=target)
    return True


def _retreat_options(g: Game, c: Combat, loser: str, movers: list[list]) -> list[str]:
    """The areas a defender's army may retreat to: legal, and with the fewest supply losses (R21.3.3, R21.3.6)."""
    options = retreat_areas(g, c, loser, movers)
    return _fewest_losses(g, loser, len(movers), options) if options else []


def _retreat_from_area(g: Game, c: Combat, loser: str) -> Proc:
    """A defender's units leave the embattled area for one legal area (R21.3.3-R21.3.7). They are off the
    board meanwhile: the frame keeps them."""
    st = g.state
    if cursor.restarting(g):
        f = cursor.enter(g, RETREAT_FRAME)
    else:
        units = list(st.units_in(c.area, loser))
        if not units:
            return
        st.units.pop(c.area, None)
        board_written(c.area)
        doomed = [u for u in units if u[1] or g.rules.unit_kinds[u[0]].get("only_vs_castles")]
        movers = [list(u) for u in units if not (u[1] or g.rules.unit_kinds[u[0]].get("only_vs_castles"))]
        for u in doomed:
            g.emit("destroy", "R21.3.5", f"{loser} {u[0]} cannot retreat and is destroyed", house=loser,
                   area=c.area, kind=u[0])
        if not movers:
            return
        options = _retreat_options(g, c, loser, movers)
        if not options:
            g.emit("destroy", "R21.3.4", f"{loser} has no legal retreat: {len(movers)} unit(s) destroyed",
                   house=loser)
            return
        best = _supply_losses(g, loser, len(movers), options[0])  # supply forces the fewest losses (R21.3.6)
        f = cursor.enter(g, RETREAT_FRAME, house=loser, units=movers, area=None, keep=len(movers) - best)
    movers = f["units"]
    chooser = (c.retreat_chooser if loser == c.loser else None) or loser
    if f["area"] is None:
        options = _retreat_options(g, c, loser, movers)
        f["area"] = options[0] if len(options) == 1 else (
            yield g.ask(chooser, "retreat", f"{chooser}: where does {loser} retreat from {c.area}?", options,
                        "R21.3.3" if chooser == loser else "R21.3.7", area=c.area))
    area = f["area"]
    while len(movers) > f["keep"]:
        kinds = sorted({u[0] for u in movers})
        kind = yield from g.choose(loser, "retreat-loss", f"{loser}: destroy a retreating unit (supply)", kinds,
                                   "R21.3.6")
        movers.remove(next(u for u in movers if u[0] == kind))
        g.emit("destroy", "R21.3.6", f"{loser} {kind} is destroyed (supply)", house=loser, kind=kind)
    cursor.leave(g, f)
    routed = loser not in c.unrouted  # R21.4.1, unless a card keeps them unrouted
    for u in movers:
        st.add_unit(area, loser, u[0], routed=routed)
    c.retreated_to[loser] = area
    g.emit("retreat", "R21.3.3", f"{loser} retreats from {c.area} to {area} ({len(movers)} "
           f"{'routed' if routed else 'not routed'})", house=loser, area=area)


def _clean_up(g: Game, c: Combat) -> Proc:
    st = g.state
    if cursor.restarting(g):  # inside the after-combat abilities: the army and the cards are settled
        f = cursor.enter(g, CLEAN_UP_FRAME)
    else:
        march = st.orders.pop(c.origin, None) if st.orders.get(c.origin, {}).get("house") == c.attacker else None
        f = cursor.enter(g, CLEAN_UP_FRAME, march=dict(march or {}), advanced=_army_after_combat(g, c))
    yield from _abilities(g, c, "after-combat")
    march, advanced = f["march"] or None, f["advanced"]
    cursor.leave(g, f)
    # the March order is removed (R21.5.2) unless an after-combat ability moved it with the army that
    # took the area (it is settled only now, after those abilities: R20.2.5)
    if march and c.keep_march and advanced and st.house_in(c.area) == c.attacker:
        st.orders[c.area] = march
        g.emit("keep-march", "R21.5.2", f"{c.attacker}'s march order moves into {c.area}", area=c.area)
    elif march:
        g.emit("order-removed", "R21.5.2", f"{c.attacker}'s march order in {c.origin} is removed", area=c.origin)
    for house in c.sides():
        card = c.cards.get(house)
        if card in c.removed_cards:
            g.remove_card(house, card)
    for area in sorted(st.orders):  # the end of Combat Clean Up: orders without units go now, by area (R14.7, R21.5.5)
        g.remove_unmanned_order(area, "R21.5.5")
        if area not in st.orders or not st.units_in(area):  # an order kept has its house's units: not emptied
            g.after_area_emptied(area)
    g.combat_over(c)
    g.check_victory()


def _army_after_combat(g: Game, c: Combat) -> bool:
    """The attacking army advances into the area it won, or goes back to its origin; the played cards go to
    the discard piles (R21.5.1, R21.5.3). Returns whether the army took the area."""
    st = g.state
    advanced = False
    if c.winner == c.attacker and c.attacking:
        if c.no_advance:
            for u in c.attacking:
                st.add_unit(c.origin, c.attacker, u[0], u[1])
            g.emit("no-advance", "R21.5.1", f"{c.attacker} stays in {c.origin}", house=c.attacker)
        else:
            old = st.orders.pop(c.area, None)
            if old:
                g.emit("order-removed", "R21.5.1", f"{old['house']}'s {old['order']} in {c.area} is removed",
                       area=c.area)
            if c.area in st.power_tokens and st.power_tokens[c.area] != c.attacker:
                st.power_tokens.pop(c.area)
                board_written(c.area)
            for u in c.attacking:
                st.add_unit(c.area, c.attacker, u[0], u[1])
            g.emit("advance", "R21.5.1", f"{c.attacker} takes {c.area}", house=c.attacker, area=c.area)
            g.take_area(c.area, c.attacker)
            advanced = True
    elif c.attacking:  # a winning attacker with no units left, or units still in limbo
        for u in c.attacking:
            st.add_unit(c.origin, c.attacker, u[0], u[1])
    c.attacking = []
    # cards go to the discard piles (R21.5.3) unless kept or removed from the game
    for house in c.sides():
        card = c.cards.get(house)
        if card is None:
            continue
        g.discard_played(house, card, keep=house in c.keep_card, removed=card in c.removed_cards)
    return advanced


# The steps of a combat, in order (R19–R21). Between two of them the whole combat is data (`Combat.to_json`):
# `resolve_combat` keeps it in the state's cursor with the step's name, and rewrites it
# at every decision inside the step, whose frames (above) say how far the step has got: a game restarts inside
# a combat from its state alone.
COMBAT_STAGES: tuple[tuple[str, object], ...] = (
    ("support", _open),
    ("house-cards", _house_cards),
    ("cancel", _window("cancel")),
    ("immediately", _window("immediately")),
    ("before-combat", _window("before-combat")),
    ("tides", _tides),
    ("blade", _blade),
    ("combat-strength", _window("combat-strength")),
    ("result", _result),
    ("after-winner-determination", _window("after-winner-determination")),
    ("casualties", _losses),
    ("skulls", _skulls),
    ("casualties-abilities", _window("casualties")),
    ("retreat-abilities", _window("retreat")),
    ("retreat", _retreat),
    ("clean-up", _clean_up),
)
STAGE_NAMES = tuple(name for name, _ in COMBAT_STAGES)
# the steps that only run one window's abilities: stage name -> window
_STAGE_WINDOWS = {name: stage.window for name, stage in COMBAT_STAGES if hasattr(stage, "window")}


def resolve_combat(g: Game, c: Combat, start: str = STAGE_NAMES[0], frames: bool = False) -> Proc:
    """Resolve a combat from its step `start`. With `frames` (a combat of a march turn, whose cursor is in the
    state), the combat is written into the cursor at every decision inside its steps: only there can anyone
    read the state (between two decisions the rules run without a break), so a step that asks nothing costs no
    copy. A game restarted inside a step (`start` is the cursor's stage and its frames are saved) goes on
    inside it."""
    for name, stage in COMBAT_STAGES[STAGE_NAMES.index(start):]:
        window = _STAGE_WINDOWS.get(name)
        if window is not None and not cursor.restarting(g) and not _any_ability(g, c, window):
            continue  # the step would end at once (`_abilities`): no need to start it
        steps = stage(g, c)  # type: ignore[operator]
        if not frames:
            yield from steps
            continue
        # the step runs, the combat as it stands written into the cursor before each of its decisions (what the
        # step's abilities and choices have changed so far: cards, modifiers, support, units on the march)
        answer = None
        while True:
            try:
                d = steps.send(answer)
            except StopIteration:
                break
            g.state.step["combat"] = {"stage": name, **c.to_json()}
            answer = yield d
    if frames:
        g.state.step.pop("combat", None)


# ---- the steps of a combat (core/steps.py; docs/procedures.md) -------------------------------------------------
from ..core.steps import ask, effect, either, emit, group, hook, step, sub  # noqa: E402  (declarations only)

_M = "interpreter/procedures/combat.py"


def _window_step(name: str, title: str) -> str:
    rules = " ".join(TRIGGERS[name].rules)
    return step(
        f"combat.window.{name}", title, rules,
        f"The abilities of the played house cards whose trigger is `{name}` run in Iron Throne order (the "
        "combatants sorted by their position on the turn-order track, taken anew at each pass), pass after pass, "
        "until a pass begins none (R20.2.6). A card whose text is ignored (`blank_cards`) begins nothing; an "
        "ability is begun at most once per combat (`fired`), and it counts as begun before its condition is "
        "evaluated: one whose condition is false is used up all the same (and its pass counts as having begun "
        "one); a card that leaves the combat stops; a card revealed during the window begins its abilities of "
        f"the window in a later pass. Their events and decisions cite {rules.split()[0]} (the window's first "
        "rule) unless a procedure they start cites its own.",
        effect(f"the `{name}` abilities", rules),
        module=_M)


step("combat", "A combat", "R19-R21",
     "A march into an area with another house's units or garrison starts a combat (R19); the attacker's units are "
     "off the board (in the combat's data, `@attack`) until the Combat Clean Up. The steps below run in this "
     "order; between two of them the whole combat is data in the cursor (`step.combat`, with its `stage`).",
     sub("combat.support", times="1"),
     sub("combat.house-cards", times="1"),
     sub("combat.window.cancel", times="1"),
     sub("combat.window.immediately", times="1"),
     sub("combat.window.before-combat", times="1"),
     sub("combat.tides", "with the Tides of Battle option on", times="?", game="tides"),
     sub("combat.blade", times="1"),
     sub("combat.window.combat-strength", times="1"),
     sub("combat.result", times="1"),
     sub("combat.window.after-winner-determination", times="1"),
     sub("combat.casualties", times="1"),
     sub("combat.skulls", times="?", game="tides"),
     sub("combat.window.casualties", times="1"),
     sub("combat.window.retreat", times="1"),
     sub("combat.retreats", times="1"),
     sub("combat.clean-up", times="1"),
     module=_M)
step("combat.support", "Call for support", "R19.3",
     "The eligible Support orders are those on the board (any Support order, or a raid/support token) in areas "
     "adjacent to the embattled area and holding units, except a land area's for a combat at sea (R19.3.2) and a "
     "port's for a combat other than in its own sea (R24.10). Each house holding one, in turn order, gives all of "
     "its eligible orders to one side or to nobody; a combatant supports its own side without being asked "
     "(R19.3.4). For an attack on a neutral force this step opens the attack and nothing else.",
     emit("combat", "R19", "in a combat (not an attack on a neutral force), first: `area`, `attacker`, `defender`",
          times="?"),
     group(ask("support", "R19.3.3", "each house with eligible Support orders, not a combatant",
               "in turn order", "`attacker`, `defender`, `none` (for a neutral force: `attacker`, `none`)"),
           emit("support", "R19.3", "after each house's support, unless `none`: `house`, `side`"),
           when="for each house with eligible orders, in turn order"),
     module=_M)
step("combat.house-cards", "House cards", "R19.4 R20.1",
     "The initial strengths are announced: the units' strength (routed units 0; a siege engine only attacking a "
     "castle or stronghold; a rules module may set a kind's strength, R38.2) plus the March order's bonus for the "
     "attacker; for "
     "the defender its Defense order in the area (none in a port, R24.6) and its garrison; for each side the "
     "units and the order bonus of the Support orders given to it (a support order removed since no longer "
     "counts; its bonus counts while its units are gone until the Combat Clean Up, R14.7). Then the attacker, "
     "then the defender, chooses a house card in secret from its hand (a rules module may give a house another "
     "hand, R35.2). The chosen card leaves the hand at once: until the Combat Clean Up it is held apart, in the "
     "combat (the state's `step.combat.cards` names it, hidden from the others until the reveal); effects that read "
     "or discard cards of the hand never see it.",
     emit("initial-strength", "R19.4", "first: `strengths` house -> initial strength", times="1"),
     hook("combat.attacker-hand", "the attacker's hand for the combat is made"),
     ask("house-card", "R20.1.1", "the attacker (or who decides for it, R33.7)", "first",
         "the house's hand, sorted by id", "when the hand holds one card (it is played) or none (no card)"),
     hook("combat.defender-hand", "the defender's hand for the combat is made"),
     ask("house-card", "R20.1.1", "the defender (or who decides for it)", "after the attacker's card", "as above",
         "as above"),
     emit("reveal", "R20.1.1", "both cards together: `cards` house -> card id (null: no card)", times="1"),
     module=_M)
_window_step("cancel", "Abilities: cancel")
_window_step("immediately", "Abilities: immediately")
_window_step("before-combat", "Abilities: before combat")
step("combat.tides", "Tides of Battle", "R29.3",
     "Every Tides of Battle card (sorted by id, one entry per copy) is shuffled before each combat (R29.3.2); the "
     "attacker, then the defender, draws the top card. If the Valyrian Steel Blade has not been used this round "
     "and its holder's side fights (its own house, or a side a rules module lets it use the blade for), the holder may "
     "use it to make that side draw the next card instead (R29.3.3): the blade is then used.",
     ask("tides-redraw", "R29.3.3", "the Valyrian Steel Blade's holder", "after the draw (it sees its side's card)",
         "`yes`, `no`", "when the blade was used this round or its holder's side does not fight"),
     emit("blade", "R29.3.3", "answer `yes`: `house` the holder"),
     emit("tides", "R29.3.3", "`tides` house -> Tides of Battle card", times="1"),
     module=_M, game="tides")
step("combat.blade", "The Valyrian Steel Blade", "R20.4",
     "If the blade has not been used this round and its holder's side fights, the holder may use it for +1 "
     "combat strength to that side.",
     ask("blade", "R20.4", "the Valyrian Steel Blade's holder", "after the Tides of Battle, before the strengths are "
         "final", "`yes`, `no`", "when the blade was used this round (maybe by the Tides of Battle redraw) or its "
         "holder's side does not fight"),
     emit("blade", "R20.4", "answer `yes`: `house` the holder"),
     module=_M)
_window_step("combat-strength", "Abilities: combat strength")
step("combat.result", "The winner", "R20.5 R20.6",
     "Each side's final strength: a value a card set replaces the sum (R20.5.2); else initial strength + the "
     "card's printed strength (or the value a card set for it) + the strength modifiers of abilities + the Tides "
     "of Battle card's strength + 1 for the blade; never below 0. The higher wins; on a tie the house better "
     "placed on the blade track wins (R20.6).",
     emit("combat-result", "R20.6", "`final` house -> final strength, `winner`", times="1"),
     module=_M)
_window_step("after-winner-determination", "Abilities: after the winner is known")
step("combat.casualties", "The garrison and the casualties", "R21.1 R21.2",
     "First a losing defender's garrison in the embattled area is removed from the game (R21.1). Then the loser "
     "loses as many units as the victor's swords minus the loser's fortifications (card icons, ability "
     "modifiers and Tides of Battle icons, each side's count never below 0). A protected loser (a card "
     "ability, R21.2) loses none. Each casualty is chosen among the loser's fighting units that are not routed; "
     "when none is left the rest of the count is lost (R21.2.4).",
     emit("garrison", "R21.1", "a losing defender's garrison: `area`"),
     either([],
            [emit("protected", "R21.2", "the loser is protected: `house` (with `card` and `source` of the "
                  "protecting ability)", times="1")],
            [ask("casualty", "R21.2.1", "the loser", "once per casualty", "the kinds of its casualty candidates, "
                 "each once, sorted by id (the first unit of that kind in the army's list is destroyed)",
                 "when one kind is left"),
             emit("destroy", "R21.2.1", "each casualty: `house`, `area` (the embattled area), `kind`"),
             emit("protected", "R21.2", "a protection that began since: `house`")],
            times="*"),
     module=_M)
step("combat.skulls", "Tides of Battle skulls", "R29.3.5",
     "The attacker's skulls, then the defender's: each skull costs the opponent one fighting unit that is not "
     "routed, win or lose, chosen by that opponent; nothing when it has none or a protection covers skulls.",
     group(ask("casualty", "R29.3.5", "the opponent of the skull's owner", "once per skull",
               "the kinds of its candidates, each once, sorted by id", "when one kind is left"),
           either([emit("destroy", "R29.3.5", "the unit lost: `house`, `area`, `kind`", times="1")],
                  [emit("protected", "R21.2", "a protected house", times="1")]),
           when="for each skull"),
     module=_M, game="tides")
_window_step("casualties", "Abilities: casualties")
_window_step("retreat", "Abilities: retreat")
step("combat.retreats", "Retreats", "R21.3",
     "The loser's army retreats, then the army of each victor an ability forces to retreat (by house id). Routed "
     "units and units that cannot retreat (siege engines, `only_vs_castles`) are destroyed (R21.3.5). A losing "
     "attacker goes back to the area it marched from (R21.3.2); if another house controls it or holds units there "
     "and no card lets the victor choose (or none of its units could move), the whole army is destroyed; the "
     "retreat event cites R21.3.2 when the army goes back to its origin, R21.3.7 when a victor sends it "
     "elsewhere. A defender's army goes to one legal area "
     "(R21.3.3): an adjacent land area (or one reached by its ships' transport) for land units, an adjacent sea "
     "or a port it controls for ships; not the attacker's origin, not a blocked area, not a neutral force, not an "
     "area with another house's units, power token or control; a port only with room. Among the legal areas only "
     "those where the supply limits cost the fewest units are offered (R21.3.6). No legal area: the army is "
     "destroyed (R21.3.4). The units arrive routed (R21.4.1) unless a card keeps them unrouted.",
     sub("combat.retreat", "for each army that retreats", times="*"),
     module=_M)
step("combat.retreat", "One army retreats", "R21.3",
     "",
     emit("destroy", "R21.3.2", "a losing attacker that cannot go back: `house` only (the whole army)"),
     emit("destroy", "R21.3.5", "each unit that cannot retreat: `house`, `area`, `kind`", times="*"),
     emit("destroy", "R21.3.4", "no legal area: `house` only (the whole army)"),
     ask("retreat", "R21.3.3 R21.3.7", "the retreating house, or the victor when a card lets it choose (R21.3.7)",
         "for the retreating units", "the legal areas with the fewest supply losses, sorted by id (a losing "
         "attacker's origin among them when the victor chooses)", "when only one area is offered (it is taken); a "
         "losing attacker without a choosing victor simply goes back"),
     group(ask("retreat-loss", "R21.3.6", "the retreating house", "while the retreating units do not fit the "
               "supply limits in the chosen area", "the kinds of the retreating units, each once, sorted by id",
               "when one kind is left"),
           emit("destroy", "R21.3.6", "the unit lost to supply: `house`, `kind`", times="1")),
     emit("retreat", "R21.3.2 R21.3.3 R21.3.7", "the units arrive: `area`, `house`"),
     module=_M)
step("combat.clean-up", "Combat Clean Up", "R21.5",
     "The real order of the Combat Clean Up (R21.5's numbering lists the same acts in another order): (1) the "
     "attacker's March order is taken off its origin (kept aside); (2) a winning attacker with units left advances "
     "into the embattled area (R21.5.1): the order there is removed, any other house's power token there returns to "
     "its pool (no event), the units enter; unless a card stops the advance, when they go back to their origin; a "
     "losing attacker's surviving units are back already; (3) each side's played card, attacker first, goes from the "
     "combat to its discards, or back into the hand when a card says so (R21.5.3); a house with no card left in hand "
     "takes back its discards except the card just played (R21.5.4); a rules module may put a house's card elsewhere "
     "(R35.4); (4) the after-combat abilities run (R20.2.5, R21.5.6); (5) the March order moves into the taken area "
     "if an after-combat ability said so and the attacker holds it, else it is removed (R21.5.2); (6) cards a card "
     "removes from the game leave (R43); (7) every order left in an area without its house's units is removed (R14.7, "
     "R21.5.5), and a port whose land area nobody controls loses its ships (R24.8); (8) what a rules module does when "
     "the combat is over; (9) victory is checked.",
     emit("no-advance", "R21.5.1", "a card stops the winning attacker's advance: `house`"),
     emit("order-removed", "R21.5.1", "the order in the embattled area, when the attacker advances: `area` only"),
     emit("advance", "R21.5.1", "the attacker takes the area: `area`, `house`"),
     either([], [emit("cards", "R21.5.3", "a card kept in hand: `house`, `card`", times="1")],
            [emit("cards", "R21.5.4", "a house takes back its discards: `house`", times="1")], times="*"),
     sub("combat.window.after-combat", times="1"),
     emit("keep-march", "R21.5.2", "the March order moves into the area: `area`"),
     emit("order-removed", "R21.5.2", "the March order is removed: `area` its origin"),
     either([emit("cards", "R43", "a card removed from the game: `house`, `card`", times="1")],
            [emit("cards", "R21.5.4", "its house takes back its discards: `house`", times="1")], times="*"),
     emit("order-removed", "R21.5.5", "an order without units: `area`, `house`, `order`", times="*"),
     emit("destroy", "R24.8", "the ships of a port whose land area nobody controls", times="*"),
     hook("combat.over", "when the combat is over, before the victory check"),
     module=_M)
_window_step("after-combat", "Abilities: after combat")
