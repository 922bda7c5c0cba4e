"""Mother of Dragons: the Iron Bank of Braavos (R40, R41) and the orders resolved with consolidate power.

A mixin of `ModGame`: its methods override extension points, or are the module's own. The improvements and
degradations loans and cards put on areas (R41, R42.3) change those areas' icons here too.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ..procedures.game import Proc

from maester.dsl.effect_tree import touches_no_sea

from ..core import cursor
from ..effects import Scope, run
from ..procedures.mustering import muster
from .state import MODULE

NONE = "none"
IRON_BANK, MUSTER_ORDER = "iron-bank", "defense-or-muster"  # the order types resolved here (R40.4, R34.5)

# the frames of the bank's procedures (cursor.py): what a restart inside them must know
INTEREST = cursor.frame_kind(
    "mod.interest", "loan interest at the start of the round: each house pays 1 power per loan, in turn order; "
    "every unpaid power costs it a unit, chosen by another house", "R40.6",
    house=("int", "the house whose interest is being settled, 0-based in turn order"),
    unpaid=("int", "the units it still loses for the power it could not pay"))
OTHER_ORDER = cursor.frame_kind(
    "mod.other-order", "an order resolved in the Consolidate Power step that is not consolidate power: an Iron "
    "Bank order or a vassal's muster order (taken off the board)", "R18.4",
    order=("order-token", "the order token being resolved"),
    loan=("loan-or-null", "the loan bought with it, whose effect is being resolved; null: none bought yet"))
STARTING_LOANS = cursor.frame_kind(
    "mod.starting-loans", "the setup's starting loans, taken free and resolved one by one", "R40.4",
    next=("int", "the starting loan being resolved, 0-based (the setup's houses in order, each one's loans)"),
    loan=("loan-or-null", "the loan it turned out to be, whose effect is being resolved; null: not taken yet"))


class IronBankRules:
    def shift_bank(self) -> None:
        """Loans slide one slot toward the cheap end; a new loan is revealed (R40.3)."""
        ms = self.mod_state
        if not ms.bank:
            return
        if ms.bank[0] is not None:
            ms.loan_deck.append(ms.bank[0])
        ms.bank = ms.bank[1:] + [ms.loan_deck.pop(0) if ms.loan_deck else None]
        self.emit("iron-bank", "R40.3", "the Iron Bank shifts: " + ", ".join(str(x) for x in ms.bank),
                  bank=list(ms.bank))

    def _interest(self) -> Proc:
        """Each loan costs 1 power at the start of the Westeros Phase; unpaid power costs units (R40.6)."""
        houses = self.turn_order
        if cursor.restarting(self):
            f = cursor.enter(self, INTEREST)
        else:
            if not any(self.mod_state.loans.get(h) for h in houses):
                return
            f = cursor.enter(self, INTEREST, house=0, unpaid=self._pay_interest(houses[0]))
        while True:
            house = houses[f["house"]]
            while f["unpaid"] > 0:
                chooser = self.holder(self.token_of_track(self.blade_track))
                if chooser == house:
                    others = [h for h in self.state.tracks[self.blade_track] if h != house and not self.is_vassal(h)]
                    chooser = others[0] if others else house
                options = sorted({f"{a}:{u[0]}" for a in self.state.areas_of(house)
                                  for u in self.state.units[a]["units"]})
                if not options:
                    break
                pick = yield from self.choose(chooser, "interest-loss", f"{chooser}: destroy a unit of {house} "
                                              "(unpaid interest)", options, "R40.6.2")
                f["unpaid"] -= 1
                area, kind = pick.split(":")
                idx = next(i for i, u in enumerate(self.state.units[area]["units"]) if u[0] == kind)
                self.destroy_unit(area, idx, "R40.6.2", "unpaid interest")
            if f["house"] + 1 == len(houses):
                break
            f["house"] += 1
            f["unpaid"] = self._pay_interest(houses[f["house"]])
        cursor.leave(self, f)

    def _pay_interest(self, house: str) -> int:
        """The house pays its interest (R40.6.1): the power it could not pay."""
        owed = len(self.mod_state.loans.get(house, []))
        if not owed:
            return 0
        return owed - self.discard_power(house, owed, "R40.6.1", "loan interest")

    def _update_discount_holder(self) -> None:
        """The Braavos token follows control of its area: a player taking control receives it at once; while
        no player controls the area (nobody, or a vassal), it is set aside (R40.7.3)."""
        area = self.game_rec.get("loan_discount_area")
        if not area or area not in self.board or area in self.state.neutral_forces:
            return
        ctrl = self.controller(area)
        holder = ctrl if ctrl is not None and not self.is_vassal(ctrl) else None
        if holder == self.mod_state.discount_holder:
            return
        self.mod_state.discount_holder = holder
        if holder is None:
            self.emit("loan-discount", "R40.7.3", f"no player controls {area}: its token is set aside", house=None)
        else:
            self.emit("loan-discount", "R40.7.3", f"{holder} takes the token of {area}", house=holder)

    def neutral_force_defeated(self, house: str, area: str) -> None:
        if area == self.game_rec.get("loan_discount_area") and not self.is_vassal(house):
            self.mod_state.discount_holder = house
            self.emit("loan-discount", "R40.7.2", f"{house} defeats the neutral force of {area} and takes its token",
                      house=house)

    def loan_cost(self, house: str, slot: int) -> int:
        cost = self.game_rec["loan_costs"][slot]
        if self.mod_state.discount_holder == house:
            cost -= self.game_rec.get("loan_discount") or 0
        return max(0, cost)

    def resolve_other_order(self, house: str, area: str) -> Proc:
        st = self.state
        if cursor.restarting(self):  # the order is off the board: its frame says which it was and how far it got
            f = cursor.enter(self, OTHER_ORDER)
        else:
            order = st.orders.pop(area, None)
            if order is None:
                return
            kind = self.order_type(order["order"])
            if kind == IRON_BANK:
                if self.is_vassal(house) or not self.mod_state.bank:
                    return
                self._update_discount_holder()
            elif kind == MUSTER_ORDER:
                a = self.board.area(area)
                if not a.is_land or self.castle_level(area) == "none":  # no effect in a port (R34.5)
                    why = "in a port" if a.is_port else "without a castle or stronghold"
                    self.emit("muster-order", "R34.5", f"{house}'s muster order in {area} has no effect ({why})",
                              area=area)
                    return
                self.emit("muster-order", "R34.5", f"{house} musters in {area} (vassal muster order)", area=area)
            else:
                return
            f = cursor.enter(self, OTHER_ORDER, order=order["order"], loan=None)
        if self.order_type(f["order"]) == IRON_BANK:
            yield from self._buy_loan(house, area, f)
        else:
            yield from muster(self, house, [area], "R34.5")
        cursor.leave(self, f)

    def seas_of_other_order(self, area: str, order: dict) -> tuple[frozenset[str] | None, frozenset[str]]:
        """A vassal's muster order musters like a special Consolidate Power (R34.5): a Ship into a sea next to its
        castle area, so it changes and depends on those seas (R9.4). An Iron Bank order (R40.4) changes the seas
        the effects of the loans in the bank may change (`_loan_seas`); where a loan places units depends only on
        the buyer's own units (R41.1), never on another house's ships."""
        kind = self.order_type(order["order"])
        if kind == MUSTER_ORDER:
            a = self.board.area(area)
            if not a.is_land or self.castle_level(area) == "none":
                return frozenset(), frozenset()
            seas = frozenset(self.board.neighbours(area, "sea"))
            return seas, seas
        if kind == IRON_BANK:
            if self.is_vassal(order["house"]) or not self.mod_state.bank:
                return frozenset(), frozenset()
            loans = self.rules.bundle["loans"]
            if all(_loan_touches_no_sea_once(self, pick, loans[pick]["effect"]) for pick in self.mod_state.bank
                   if pick is not None):
                return frozenset(), frozenset()
        return None, frozenset()

    def consolidate_purchases(self, house: str, power: int) -> tuple:
        """The loans the house could buy with this much power (R40.4), without and with the discount token (its
        holder is settled only when a loan is bought, R40.7)."""
        if self.is_vassal(house):
            return (), ()
        discount = self.game_rec.get("loan_discount") or 0
        return tuple(tuple(slot for slot, loan in enumerate(self.mod_state.bank)
                           if loan is not None and max(0, self.game_rec["loan_costs"][slot] - off) <= power)
                     for off in (0, discount))

    def _buy_loan(self, house: str, area: str, f: dict) -> Proc:
        """An Iron Bank order may buy one loan of the bank it can pay for (R40.4); its frame is `f`."""
        if f["loan"] is None:
            st, bank = self.state, self.mod_state.bank
            options = [NONE] + [loan for slot, loan in enumerate(bank)
                                if loan is not None and self.loan_cost(house, slot) <= st.houses[house].power]
            pick = yield from self.choose(house, "buy-loan", f"{house}: buy a loan from the Iron Bank?", options,
                                          "R40.4", area=area)
            if pick == NONE:
                return
            slot = bank.index(pick)
            cost = self.loan_cost(house, slot)
            self.discard_power(house, cost, "R40.4.2", f"loan {pick}")
            bank[slot] = None
            f["loan"] = pick
            self._hold_loan(house, pick, f"for {cost} power")
        yield from self._loan_effect(house, f["loan"])

    def take_loan(self, house: str, pick: str, how: str) -> Proc:
        """A house holds a loan (interest from now on) and resolves its effect at once (R40.4)."""
        self._hold_loan(house, pick, how)
        yield from self._loan_effect(house, pick)

    def _hold_loan(self, house: str, pick: str, how: str) -> None:
        self.mod_state.loans.setdefault(house, []).append(pick)
        self.emit("loan", "R40.4", f"{house} takes the loan {pick} {how}", house=house, loan=pick)

    def _loan_effect(self, house: str, pick: str) -> Proc:
        """The loan's effect, called the same way on a restart inside it (its own frames are the effect's)."""
        loan = self.rules.bundle["loans"][pick]
        sc = Scope(vars={"buyer": house}, owner=house, card=pick, rule="R41")
        yield from run(self, loan["effect"], sc)
        self.check_victory()

    # ---- improved and degraded areas (R41, R42.3) -----------------------------------------------------------
    # (the hot accessors below read the module's dict directly, not the typed view: asked for every castle,
    # supply and power count)
    def changed_areas(self) -> dict[str, list[str]]:
        return (self.state.modules.get(MODULE) or self.mod_data())["improvements"]

    def castle_level(self, area: str) -> str:
        marks = (self.state.modules.get(MODULE) or self.mod_data())["improvements"].get(area)
        if not marks:
            return self.board.area(area).castle
        printed = self.board.area(area).castle
        if "no-castle" in marks or "no-stronghold" in marks:
            return "none"
        return "stronghold" if "stronghold" in marks and printed != "none" else printed

    def power_icons(self, area: str) -> int:
        marks = (self.state.modules.get(MODULE) or self.mod_data())["improvements"].get(area)
        if not marks:
            return self.board.area(area).power
        if "no-power" in marks:
            return 0
        return self.board.area(area).power + marks.count("power")

    def supply_of_area(self, area: str) -> int:
        marks = (self.state.modules.get(MODULE) or self.mod_data())["improvements"].get(area)
        if not marks:
            return self.board.area(area).supply
        if "no-supply" in marks:
            return 0
        return self.board.area(area).supply + marks.count("supply")


# ---- the steps of the Iron Bank (core/steps.py; docs/procedures.md) ---------------------------------------------
from ..core.steps import amend, ask, define, effect, either, emit, extend, group, step, sub  # noqa: E402

_M = "interpreter/mod/bank.py"
define("improved and degraded areas", "R41 R42.3", "Mother of Dragons: an area's marks (`improvements`) change its "
       "printed icons: `no-castle` or `no-stronghold` leaves it no castle; `stronghold` makes a printed castle a "
       "stronghold; each `power` or `supply` mark adds one icon, `no-power` or `no-supply` leaves none. Mustering "
       "points (castle 1, stronghold 2), power collected and barrels follow these levels.", _M)
step("mod.starting-loans", "Starting loans", "R40.4",
     "Before round 1, the setup's starting loans (house by house in the setup's order, each house's loans in "
     "order): a named loan is taken from the loan deck, or from the bank slot it was revealed in (the next loan of "
     "the deck takes its place); `random` takes the top of the deck. The loan is held free and its effect runs at "
     "once.",
     sub("mod.loan", times="*"),
     module=_M, game="mod")
step("mod.loan", "A loan is taken", "R40.4",
     "The house holds the loan (interest from the next round on) and its effect runs at once; then victory is "
     "checked.",
     emit("loan", "R40.4", "`house`, `loan`", times="1"),
     effect("the loan's effect", "R41"),
     module=_M, game="mod")
step("mod.round-start", "The start of a round", "R6.2.1 R40.3 R38.3.2 R40.6 R42.5",
     "In order: the players who announced they leave become vassals (R42.5: their power, hand and discards are "
     "cleared); the Iron Bank shifts: the loan in the cheapest slot goes to the bottom of the loan deck, every loan "
     "moves one slot toward the cheap end and the top loan of the deck fills the last slot (R40.3); a dragon "
     "strength token enters the box if this round is on one (R38.3.2); interest is paid.",
     emit("vassal", "R42.5", "each leaving player: `house`", times="*"),
     emit("iron-bank", "R40.3", "`bank` the loans slot by slot", times="?"),
     emit("dragons", "R38.3.2", "the dragon strength grows"),
     sub("mod.interest"),
     module=_M, game="mod")
step("mod.interest", "Interest", "R40.6",
     "Each house in turn order with loans discards 1 power per loan it holds (R40.6.1); for each power it could "
     "not pay, a unit of its is destroyed, chosen by the blade holder (or, when that is the house itself, the "
     "first other player on the blade track) (R40.6.2).",
     group(emit("power", "R40.6.1", "the interest paid: `house`, `amount`"),
           group(ask("interest-loss", "R40.6.2", "the blade holder (see above)", "for each unpaid power",
                     "`AREA:KIND` for each unit kind in each area of the house, each once, sorted",
                     "when one answer is legal"),
                 emit("destroy", "R40.6.2", "the unit destroyed: `house`, `area`, `kind`", times="1"),
                 emit("destroy", "R24.8", "the ships of a port left uncontrolled", times="*")),
           when="for each house with loans, in turn order"),
     module=_M, game="mod")
step("mod.other-order", "An Iron Bank or Muster order", "R34.5 R40.4",
     "Orders resolved in the Consolidate Power step that are not Consolidate Power orders; the order leaves the "
     "board first. An Iron Bank order (a player's): the loan discount token follows control of its area (R40.7.3), "
     "then the house may buy one loan it can pay for (the slot's cost, less the discount for its holder): it "
     "discards the cost and takes the loan. A vassal's Muster order musters in its area when it has a castle or "
     "stronghold (none in a port).",
     either(
         [emit("loan-discount", "R40.7.3", "the token changes hands: `house` (null: set aside)"),
          ask("buy-loan", "R40.4", "the house", "when a loan is affordable", "`none`, then the affordable loans in "
              "slot order", "when none is affordable"),
          emit("power", "R40.4.2", "the cost paid"),
          sub("mod.loan")],
         [emit("muster-order", "R34.5", "the order has no effect, or musters: `area`", times="1"),
          sub("mustering.muster")]),
     module=_M, game="mod")
extend("game.after-setup", sub("mod.starting-loans", times="1"), game="mod", module=_M)
extend("westeros.round-start", sub("mod.round-start", times="1"), game="mod", module=_M)
extend("action.other-order", sub("mod.other-order", times="1"), game="mod", module=_M)
extend("action.neutral-force-defeated", emit("loan-discount", "R40.7.2", "the neutral force of the loan discount "
                                             "area is defeated: `house` takes the token"), game="mod", module=_M)
amend("action.consolidations", "Iron Bank orders and vassal Muster orders resolve in this step (step "
      "`mod.other-order`).", game="mod", module=_M)
amend("game.setup", "(1) the player houses: the houses that can never be vassals, then — unless the options name "
      "the player houses — the setup's other houses in the setup's order, shuffled (the first random draws of the "
      "game), the first `players` minus the fixed ones taken; every other house is a vassal, sorted by id (R31.1, "
      "R36.1); (2) a vassal gets the rules set's `vassal_supply`, no power and no house cards (R31.4); (3) when a "
      "vassal is among the first three places of a track, every player house is moved ahead of every vassal, each "
      "group keeping its order (R31.9), before the last places are kept; (4) a vassal's units are the setup's "
      "`vassal_starting_units`; (8) after the decks: the setup's loyalty tokens and dragon strength tokens, the "
      "Iron Bank — the loan deck sorted by id, then shuffled, the bank's slots empty but the last, which takes the "
      "top loan (R31.10-R31.14) — and 0 loyalty points for each house that wins by loyalty. The `setup` event adds "
      "`vassals`, the vassal houses.", game="mod", module=_M)
amend("westeros", "the decks are I, II, III and IV; the round's start is step `mod.round-start`.", game="mod",
      module=_M)


def _loan_touches_no_sea(g, effect) -> bool:
    """Can this loan effect not change which house's ships are in a sea (R41)? The effect is read statically
    by the content language (dsl/effect_tree.py `touches_no_sea`)."""
    return touches_no_sea(effect, lambda kind: g.rules.unit_kinds[kind]["domain"])


def _loan_touches_no_sea_once(g, loan: str, effect) -> bool:
    """`_loan_touches_no_sea` of a loan of the bundle, read once per loan and game (asked at every Consolidate
    Power turn while the bank holds loans)."""
    memo = g.__dict__.setdefault("_loan_touches_no_sea", {})
    found = memo.get(loan)
    if found is None:
        found = memo[loan] = _loan_touches_no_sea(g, effect)
    return found

