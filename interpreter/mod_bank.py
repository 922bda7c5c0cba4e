"""Mother of Dragons: the Iron Bank of Braavos (R40, R41) and the orders resolved with consolidate power.

A mixin of `ModGame`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .game import Proc

from .effects import Scope, run
from .mustering import muster


class IronBankRules:
    def shift_bank(self) -> None:
        """Loans slide one slot toward the cheap end; a new loan is revealed (R40.3)."""
        st = self.state
        if not st.bank:
            return
        if st.bank[0] is not None:
            st.loan_deck.append(st.bank[0])
        st.bank = st.bank[1:] + [st.loan_deck.pop(0) if st.loan_deck else None]
        self.emit("iron-bank", "R40.3", "the Iron Bank shifts: " + ", ".join(str(x) for x in st.bank),
                  bank=list(st.bank))

    def _interest(self) -> Proc:
        """Each loan costs 1 power at the start of the Westeros Phase; unpaid power costs units (R40.6)."""
        for house in self.turn_order:
            owed = len(self.state.loans.get(house, []))
            if not owed:
                continue
            paid = self.discard_power(house, owed, "R40.6.1", "loan interest")
            for _ in range(owed - paid):
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
                area, kind = pick.split(":")
                idx = next(i for i, u in enumerate(self.state.units[area]["units"]) if u[0] == kind)
                self.destroy_unit(area, idx, "R40.6.2", "unpaid interest")

    def _update_discount_holder(self) -> None:
        """The Braavos token follows control of its area: a player taking control receives it at once; while
        no player controls the area (nobody, or a vassal), it is set aside (R40.7.3)."""
        area = self.game_rec.get("loan_discount_area")
        if not area or area not in self.board or area in self.state.neutral_forces:
            return
        ctrl = self.controller(area)
        holder = ctrl if ctrl is not None and not self.is_vassal(ctrl) else None
        if holder == self.state.discount_holder:
            return
        self.state.discount_holder = holder
        if holder is None:
            self.emit("loan-discount", "R40.7.3", f"no player controls {area}: its token is set aside", house=None)
        else:
            self.emit("loan-discount", "R40.7.3", f"{holder} takes the token of {area}", house=holder)

    def neutral_force_defeated(self, house: str, area: str) -> None:
        if area == self.game_rec.get("loan_discount_area") and not self.is_vassal(house):
            self.state.discount_holder = house
            self.emit("loan-discount", "R40.7.2", f"{house} defeats the neutral force of {area} and takes its token",
                      house=house)

    def loan_cost(self, house: str, slot: int) -> int:
        cost = self.game_rec["loan_costs"][slot]
        if self.state.discount_holder == house:
            cost -= self.game_rec.get("loan_discount") or 0
        return max(0, cost)

    def resolve_other_order(self, house: str, area: str) -> Proc:
        st = self.state
        order = st.orders.pop(area, None)
        if order is None:
            return
        kind = self.order_type(order["order"])
        if kind == "iron-bank":
            yield from self._buy_loan(house, area)
        elif kind == "defense-or-muster":
            a = self.board.area(area)
            if a.is_land and self.castle_level(area) != "none":  # no effect in a port (R34.5)
                self.emit("muster-order", "R34.5", f"{house} musters in {area} (vassal muster order)", area=area)
                yield from muster(self, house, [area], "R34.5")
            else:
                why = "in a port" if a.is_port else "without a castle or stronghold"
                self.emit("muster-order", "R34.5", f"{house}'s muster order in {area} has no effect ({why})",
                          area=area)

    def _buy_loan(self, house: str, area: str) -> Proc:
        st = self.state
        if self.is_vassal(house) or not st.bank:
            return
        self._update_discount_holder()
        options = ["none"]
        for slot, loan in enumerate(st.bank):
            if loan is not None and self.loan_cost(house, slot) <= st.houses[house].power:
                options.append(loan)
        pick = yield from self.choose(house, "buy-loan", f"{house}: buy a loan from the Iron Bank?", options, "R40.4",
                                      area=area)
        if pick == "none":
            return
        slot = st.bank.index(pick)
        cost = self.loan_cost(house, slot)
        self.discard_power(house, cost, "R40.4.2", f"loan {pick}")
        st.bank[slot] = None
        yield from self.take_loan(house, pick, f"for {cost} power")

    def take_loan(self, house: str, pick: str, how: str) -> Proc:
        """A house holds a loan (interest from now on) and resolves its effect at once (R40.4)."""
        self.state.loans.setdefault(house, []).append(pick)
        self.emit("loan", "R40.4", f"{house} takes the loan {pick} {how}", house=house, loan=pick)
        loan = self.rules.bundle["loans"][pick]
        sc = Scope(vars={"buyer": house}, owner=house, card=pick, rule="R41")
        yield from run(self, loan["effect"], sc)
        self.check_victory()
