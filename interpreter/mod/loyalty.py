"""Mother of Dragons: houses that win by loyalty (R36, R37) and dragons (R38).

What makes a house special comes from the bundle (`last-on-tracks`, `gives-away-bids`, `victory-by loyalty`);
no house is named here. A mixin of `ModGame`: its methods override extension points, or are the module's own.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ..procedures.game import Proc

from ..core import cursor
from ..procedures import victory
from ..procedures.game import GameOver
from .effects import add_loyalty

KEEP = "keep"
# the frame of the bid gifts (cursor.py): the bids as given so far, who is giving and how much it still holds
GIVE_BIDS = cursor.frame_kind(
    "mod.give-bids", "the houses that give away their bids hand them out, token by token (revealed bids)", "R36.4",
    bids=("object", "house -> its bid after the gifts so far (a giver's own bid is 0 once it starts giving)"),
    next=("int", "the house giving now, 0-based among the givers (houses with a bid, in turn order)"),
    left=("int", "the bid tokens that house still holds"))


class LoyaltyRules:
    def _loyalty_house(self, h: str) -> bool:
        return self.rules.house(h).get("victory_by") == "loyalty"

    def keeps_last_place(self, house: str) -> bool:
        return bool(self.rules.house(house).get("last_on_tracks"))

    def adjust_bids(self, track: str, bids: dict[str, int]) -> Proc:
        """A house that gives away its bid hands it, token by token, to other houses (R36.4)."""
        givers = [h for h in self.turn_order if self.rules.house(h).get("gives_away_bids") and bids.get(h, 0) > 0]
        if not givers:
            return dict(bids)
        start = dict(bids)  # the revealed bids (already recorded) stay as they were
        start[givers[0]] = 0
        f = cursor.enter(self, GIVE_BIDS, bids=start, next=0, left=bids[givers[0]])  # the saved one on a restart
        out = f["bids"]
        while True:
            giver = givers[f["next"]]
            while f["left"] > 0:
                options = [KEEP] + [h for h in self.turn_order if h != giver and h in out]
                pick = yield from self.choose(giver, "give-bid", f"{giver}: give one of your {f['left']} bid tokens "
                                              "to?", options, "R36.4.2", track=track)
                if pick == KEEP:
                    break
                out[pick] += 1
                f["left"] -= 1
                self.emit("give-bid", "R36.4.3", f"{giver} adds 1 to {pick}'s bid", house=pick)
            if f["next"] + 1 == len(givers):
                break
            f["next"] += 1
            nxt = givers[f["next"]]
            f["left"], out[nxt] = out.get(nxt, 0), 0
        self.emit("bids", "R36.4.3", "bids after the gifts: " + ", ".join(f"{h} {b}" for h, b in out.items() if b),
                  bids=dict(out))
        cursor.leave(self, f)
        return dict(out)

    # ---- victory (R26, R37) -----------------------------------------------------------------------------
    def victory_table(self) -> dict[str, int]:
        """Castles for most houses, loyalty for loyalty houses (R37.1), nothing for vassals (R35.11)."""
        table = self.castle_counts()
        for house in table:
            if self.is_vassal(house):
                table[house] = 0
            elif self._loyalty_house(house):
                home = self.rules.house(house)["home"]
                printed = 1 if self.board.area(home).loyalty_token and self.controller(home) == house else 0
                gained = self.mod_state.loyalty_points.get(house, 0)
                table[house] = min(victory.threshold(self, house), gained + printed)
        return table

    def victory_words(self, house: str) -> str:
        return "victory points (loyalty)" if self._loyalty_house(house) else "castles and strongholds"

    def check_victory(self) -> None:
        house = self.victory_winner(self.victory_table())  # thresholds and timing of the rules set (victory.py)
        if house is not None:
            need = victory.threshold(self, house)
            self.state.winner = house
            how = "loyalty" if self._loyalty_house(house) else "castles and strongholds"
            self.state.end_reason = f"reaches {need} victory points ({how})"
            self.emit("victory", "R37.3" if self._loyalty_house(house) else "R26.1",
                      f"{house} reaches {need} victory points and wins", house=house)
            raise GameOver

    def gain_loyalty(self) -> None:
        """Loyalty tokens in areas a loyalty house controls are gained at once (R37.6)."""
        for house in self.turn_order:
            if not self._loyalty_house(house):
                continue
            for area, n in sorted(self.mod_state.loyalty.items()):
                if n > 0 and self.controller(area) == house:
                    del self.mod_state.loyalty[area]
                    self.mod_state.loyalty_points[house] = self.mod_state.loyalty_points.get(house, 0) + n
                    self.emit("loyalty-gained", "R37.6.1", f"{house} gains {n} loyalty token(s) in {area}",
                              house=house, area=area, points=self.victory_points(house))
            home = self.rules.house(house)["home"]
            a = self.board.area(home)
            if a.garrison_returns and self.controller(home) == house and home not in self.state.garrisons \
                    and home in self.mod_state.lost_homes:
                self.state.garrisons[home] = self.setup_rec["garrisons"].get(home, a.garrison or 0)
                self.state.garrison_owner[home] = house
                self.mod_state.lost_homes.remove(home)
                more = f" and its victory track rises to {self.victory_points(house)}" if a.loyalty_token else ""
                self.emit("garrison", "R37.8.2", f"{house} retakes {home}: its garrison returns{more}", area=home,
                          house=house, points=self.victory_points(house))
            if self.controller(home) != house and home not in self.mod_state.lost_homes:
                self.mod_state.lost_homes.append(home)
                if a.loyalty_token:
                    self.emit("loyalty-home-lost", "R37.8.1", f"{house} has lost control of {home}: its victory "
                              f"track drops to {self.victory_points(house)}", house=house, area=home,
                              points=self.victory_points(house))
        self.check_victory()

    # ---- dragons (R38) ---------------------------------------------------------------------------------
    def advance_dragons(self) -> None:
        st = self.state
        if st.round in self.mod_state.dragon_tokens:  # R38.3.2
            self.mod_state.dragon_tokens.remove(st.round)
            self.mod_state.dragon_strength += 1
            self.emit("dragons", "R38.3.2", f"a dragon strength token enters the box: dragons have strength "
                      f"{self.mod_state.dragon_strength}")

    def unit_strength_of_kind(self, kind: str) -> int:
        """Every dragon has the strength of the dragon strength tokens in the box (R38.2)."""
        if kind in self.flying_kinds():
            return self.mod_state.dragon_strength
        return super().unit_strength_of_kind(kind)

    # ---- the Westeros Phase ------------------------------------------------------------------------------
    def before_westeros_card(self, card: str) -> None:
        for area in self.rules.westeros_card(card).get("banner", []):  # a loyalty token per banner (R37.4.2)
            add_loyalty(self, area, 1, "R37.4.2")

    def after_westeros_cards(self) -> Proc:
        self.gain_loyalty()
        return
        yield  # pragma: no cover
