"""Mother of Dragons: houses that win by loyalty (R36, R37) and dragons (R38).

What makes a house special comes from the bundle (`last-on-tracks`, `gives-away-bids`, `victory-by loyalty`);
no house is named here. A mixin of `ModGame`: its methods override extension points, or are the module's own.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ..procedures.game import Proc

from ..core import control, cursor
from ..core.board import PORT
from ..core.state import END_REASONS
from ..procedures import victory
from ..procedures.game import GameOver
from .effects import add_loyalty
from .state import MODULE

END_REASONS["loyalty"] = "a house that wins by loyalty reached the rules set's victory points (R37.3)"

KEEP = "keep"
# the frame of the bid gifts (cursor.py): the bids as given so far, who is giving and how much it still holds
GIVE_BIDS = cursor.frame_kind(
    "mod.give-bids", "the houses that give away their bids hand them out, token by token (revealed bids)", "R36.4",
    bids=("bids", "house -> its bid after the gifts so far (a giver's own bid is 0 once it starts giving)"),
    next=("int", "the house giving now, 0-based among the givers (houses with a bid, in turn order)"),
    left=("int", "the bid tokens that house still holds"))


class LoyaltyRules:
    def _loyalty_house(self, h: str) -> bool:
        return h in self._loyalty_houses()

    def _loyalty_houses(self) -> frozenset[str]:
        """The houses that win by loyalty: fixed by the bundle, read once (victory is counted after every march)."""
        found = self.__dict__.get("_loyalty_house_set")
        if found is None:
            found = self._loyalty_house_set = frozenset(
                h for h in self.rules.bundle["houses"] if self.rules.house(h).get("victory_by") == "loyalty")
        return found

    def _loyalty_homes(self) -> tuple[tuple[str, str, bool, int], ...]:
        """(house, its home area, does the home have a printed loyalty token, its victory threshold) of each house
        that wins by loyalty, sorted by house: fixed by the bundle and the rules set, read once (victory is
        counted after every march and muster)."""
        found = self.__dict__.get("_loyalty_home_info")
        if found is None:
            found = []
            for house in sorted(self._loyalty_houses()):
                home = self.rules.house(house)["home"]
                if home in self.board:  # (a house whose home is off this board is not in the game)
                    found.append((house, home, bool(self.board.area(home).loyalty_token),
                                  victory.threshold(self, house)))
            found = self._loyalty_home_info = tuple(found)
        return found

    def _loyalty_houses_in_turn_order(self) -> list[tuple[str, str, bool, int]]:
        """`_loyalty_homes` of the houses in this game, in turn order."""
        houses = self.state.houses  # the same dict all game long (a new one only with a new state: undo, scenario)
        kept = self.__dict__.get("_loyalty_homes_in_game")
        if kept is None or kept[0] is not houses:
            kept = self._loyalty_homes_in_game = (houses, [info for info in self._loyalty_homes() if info[0] in houses])
        found = kept[1]
        if len(found) > 1:
            found = list(found)
            order = self.turn_order
            found.sort(key=lambda info: order.index(info[0]))
        return found

    def keeps_last_place(self, house: str) -> bool:
        last = self.__dict__.get("_last_on_tracks")  # fixed by the bundle; asked for every house of every track
        if last is None:
            last = self._last_on_tracks = frozenset(
                h for h in self.rules.bundle["houses"] if self.rules.house(h).get("last_on_tracks"))
        return house in last

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
        data = self.state.modules.get(MODULE) or self.mod_data()
        vassals = data["vassals"]
        for house in vassals:
            if house in table:
                table[house] = 0
        for info in self._loyalty_homes():
            house = info[0]
            if house in table and house not in vassals:
                table[house] = self._loyalty_track(info, data)
        return table

    def _loyalty_track(self, info: tuple[str, str, bool, int], data: dict) -> int:
        """The victory track of a loyalty house that is no vassal (`_loyalty_homes` info): its loyalty points, plus
        1 while it controls a home with a printed token, at most its threshold (R37.1)."""
        house, home, printed, need = info
        held = 1 if printed and control.controller(self.state, self.board, home) == house else 0
        return min(need, data["loyalty_points"].get(house, 0) + held)

    def _loyalty_area_controllers(self, loyalty: dict[str, int]) -> dict[str, str]:
        """area -> the house controlling it, of the areas holding loyalty tokens that someone controls (R23): in one
        pass (loyalty is checked after every march); tokens lie on land areas (R37.4), a port asks `controller`."""
        info = self.board.control_info
        areas = []
        for a, n in loyalty.items():
            if n > 0:
                if info[a][0] == PORT:
                    return {a: h for a, n in loyalty.items() if n > 0 and (h := self.controller(a)) is not None}
                areas.append(a)
        return dict(control.land_controllers(self.state, self.board, areas))

    def victory_words(self, house: str) -> str:
        return "victory points (loyalty)" if self._loyalty_house(house) else "castles and strongholds"

    def check_victory(self) -> None:
        house = self.victory_winner(self.victory_table())  # thresholds and timing of the rules set (victory.py)
        if house is not None:
            need = victory.threshold(self, house)
            self.state.winner = house
            self.state.end_reason = "loyalty" if self._loyalty_house(house) else "victory-points"  # END_REASONS
            self.emit("victory", "R37.3" if self._loyalty_house(house) else "R26.1",
                      f"{house} reaches {need} victory points and wins", house=house)
            raise GameOver

    def gain_loyalty_now(self) -> None:
        """A token came into an area a loyalty house controls, or such a house took an area holding tokens:
        outside a combat they are gained before anything else happens (R37.6.1, R37.6.2, as printed, not the
        reference implementation's end-of-march check, D30); during a combat the check waits for its end
        (`combat_over`)."""
        if self.embattled is None:
            self.gain_loyalty()

    def units_arrived(self, house: str, areas: list[str]) -> None:
        super().units_arrived(house, areas)
        loyalty = (self.state.modules.get(MODULE) or self.mod_data())["loyalty"]
        if loyalty and any(loyalty.get(a) for a in areas):
            self.gain_loyalty_now()

    def combat_over(self, combat) -> None:
        """After Combat Clean Up the tokens that came under a loyalty house's control meanwhile are gained."""
        super().combat_over(combat)
        self.gain_loyalty(check=False)  # the Combat Clean Up checks victory right after (combat._clean_up)

    def gain_loyalty(self, check: bool = True) -> None:
        """Loyalty tokens in areas a loyalty house controls are gained at once (R37.6); then victory is checked,
        unless the caller checks it next itself (`check=False`: after a march, see `after_march`)."""
        data = self.state.modules.get(MODULE) or self.mod_data()
        loyalty, lost = data["loyalty"], data["lost_homes"]
        houses = self._loyalty_houses_in_turn_order()
        # who controls each area holding tokens, read once: gaining tokens changes no control
        held = self._loyalty_area_controllers(loyalty) if loyalty and houses else {}
        for house, home, _, _ in houses:
            if house in held.values():
                for area, n in sorted(loyalty.items()):
                    if n > 0 and held.get(area) == house:
                        del loyalty[area]
                        points = data["loyalty_points"]
                        points[house] = points.get(house, 0) + n
                        self.emit("loyalty-gained", "R37.6.1", f"{house} gains {n} loyalty token(s) in {area}",
                                  house=house, area=area, points=self.victory_points(house))
            # (a returning garrison does not change who controls it)
            holds_home = control.controller(self.state, self.board, home) == house
            if holds_home is not (home in lost):
                continue  # the common case: the home held and not lost, or lost and still not held: nothing changes
            a = self.board.area(home)
            if a.garrison_returns and holds_home and home not in self.state.garrisons and home in lost:
                self.state.garrisons[home] = self.setup_rec["garrisons"].get(home, a.garrison or 0)
                self.state.garrison_owner[home] = house
                lost.remove(home)
                more = f" and its victory track rises to {self.victory_points(house)}" if a.loyalty_token else ""
                self.emit("garrison", "R37.8.2", f"{house} retakes {home}: its garrison returns{more}", area=home,
                          house=house, points=self.victory_points(house))
            if not holds_home and home not in lost:
                lost.append(home)
                if a.loyalty_token:
                    self.emit("loyalty-home-lost", "R37.8.1", f"{house} has lost control of {home}: its victory "
                              f"track drops to {self.victory_points(house)}", house=house, area=home,
                              points=self.victory_points(house))
        if check:
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
        flying = self.__dict__.get("_mod_flying_kinds")  # fixed by the bundle; combat asks for every unit
        if flying is None:
            flying = self._mod_flying_kinds = frozenset(self.flying_kinds())
        if kind in flying:
            return (self.state.modules.get(MODULE) or self.mod_data())["dragon_strength"]
        return super().unit_strength_of_kind(kind)

    # ---- the Westeros Phase ------------------------------------------------------------------------------
    def before_westeros_card(self, card: str) -> None:
        for area in self.rules.westeros_card(card).get("banner", []):  # a loyalty token per banner (R37.4.2)
            add_loyalty(self, area, 1, "R37.4.2")

    def after_westeros_cards(self) -> Proc:
        self.gain_loyalty()
        return
        yield  # pragma: no cover


# ---- the steps of loyalty (core/steps.py; docs/procedures.md) --------------------------------------------------
from ..core.steps import amend, ask, emit, extend, group, step, sub  # noqa: E402  (declarations only)

_M = "interpreter/mod/loyalty.py"
step("mod.give-bids", "Bids given away", "R36.4",
     "After the bids for a track are revealed, each house that gives away its bid (a bundle flag) and bid more "
     "than 0, in turn order, hands its bid tokens one at a time to other houses of the track or keeps the rest.",
     group(ask("give-bid", "R36.4.2", "the giving house", "for each token it still holds",
               "`keep`, then the other houses of the track in turn order", times="1"),
           emit("give-bid", "R36.4.3", "a token given: `house` the receiver")),
     emit("bids", "R36.4.3", "the bids after the gifts", times="1"),
     module=_M, game="mod")
step("mod.after-march", "After a march (Mother of Dragons)", "R40.7.3 R37.6",
     "The loan discount token follows control of its area; loyalty is gained.",
     emit("loan-discount", "R40.7.3", "the token changes hands: `house` (null: set aside)"),
     sub("mod.loyalty", times="1"),
     module=_M, game="mod")
step("mod.loyalty", "Loyalty gained", "R37.6 R37.8",
     "Each house that wins by loyalty, in turn order: it gains the loyalty tokens of every area it controls (area "
     "id order); if it controls its home again after losing it, its garrison returns; if it lost its home, its "
     "victory track drops. Then victory is checked.",
     group(emit("loyalty-gained", "R37.6.1", "`area`, `house`, `points`", times="*"),
           emit("garrison", "R37.8.2", "the garrison returns: `area`, `house`, `points`"),
           emit("loyalty-home-lost", "R37.8.1", "`area`, `house`, `points`"),
           when="for each house that wins by loyalty, in turn order"),
     module=_M, game="mod")
extend("westeros.before-card", group(emit("loyalty-skipped", "R37.5", "no loyalty token left for the area"),
                                     emit("loyalty", "R37.4.2", "the banner's loyalty token (unless skipped): `area`"),
                                     sub("mod.loyalty", "a token placed in an area a loyalty house controls is "
                                         "gained at once (R37.6.2)", times="?"),
                                     when="for each area of the card's banners (R37.4.2)"), game="mod", module=_M)
extend("westeros.after-cards", sub("mod.loyalty", times="1"), game="mod", module=_M)
extend("bidding.after-reveal", sub("mod.give-bids", times="?"), game="mod", module=_M)
extend("action.after-march", sub("mod.after-march", times="1"), game="mod", module=_M)
extend("action.units-arrived", sub("mod.loyalty", "units came into an area holding loyalty tokens: gained at once "
                                  "outside a combat (R37.6.2)", times="?"), game="mod", module=_M)
amend("game.victory", "a vassal never wins; a house that wins by loyalty wins with its victory points counted as "
      "below, and the state's `end_reason` is then `loyalty` (R37.3).", game="mod", module=_M)
amend("game.last-round", "vassals are not ranked (R35.11).", game="mod", module=_M)
amend("victory points", "a house that wins by loyalty counts its loyalty points plus 1 while it controls its home "
      "when the home has a printed loyalty token, at most the rules set's victory points (R37.1); a vassal has "
      "none (R35.11).", game="mod", module=_M)
