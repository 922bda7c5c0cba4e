"""Mother of Dragons (R30–R42): vassals, houses that win by loyalty, dragons, the Iron Bank.

`ModGame` is a `Game` whose rule hooks follow the expansion. It is chosen for every setup of a rules
set with vassal order sets (see `new_game`). What makes a house special comes from the bundle:
`never-vassal`, `last-on-tracks`, `gives-away-bids`, `victory-by loyalty` — no house is named here.
"""

from __future__ import annotations

from dataclasses import dataclass

from .effects import Scope, run
from .game import Game, GameOver, Options, Proc
from .rules import Rules
from .state import HouseState

PASS = "pass"


@dataclass
class ModOptions(Options):
    player_houses: list[str] | None = None  # None: the seed picks them


def new_game(rules: Rules, setup_id: str, seed: int = 0, options: Options | None = None, **kw) -> Game:
    """A `Game` for base setups, a `ModGame` for Mother of Dragons setups."""
    setup = rules.setup(setup_id)
    game = rules.game(setup["game"])
    cls = ModGame if "vassal" in (game.get("order_sets") or []) else Game
    return cls(rules, setup_id, seed=seed, options=options, **kw)


class ModGame(Game):
    # ---- setup (R31) -------------------------------------------------------------------------------
    def _setup(self) -> None:
        s, rules, st = self.setup_rec, self.rules, self.state
        houses = list(s["houses"])
        fixed = [h for h in houses if rules.house(h).get("never_vassal")]
        chosen = list(getattr(self.options, "player_houses", None) or [])
        if not chosen:
            pool = [h for h in houses if h not in fixed]
            self.rng.shuffle(pool)
            chosen = fixed + pool[: s["players"] - len(fixed)]
        vassals = [h for h in houses if h not in chosen and h not in fixed]
        sets = self.game_rec.get("house_card_sets") or ["base"]
        for h in houses:
            rec = rules.house(h)
            if h in vassals:
                st.houses[h] = HouseState(power=0, supply=self.game_rec.get("vassal_supply") or 4)
            else:
                st.houses[h] = HouseState(power=s["power_tokens"], supply=rec["starting_supply"],
                                          hand=rules.cards_of(h, sets))
        st.vassals = sorted(vassals)
        for track in self.game_rec["tracks"]:
            order = [h for h in s["influence"][track] if h in st.houses]
            if any(h in vassals for h in order[:3]):  # R31.9
                order = [h for h in order if h not in vassals] + [h for h in order if h in vassals]
            st.tracks[track] = self._fixed_last(order)
        for h in houses:
            placements = (s.get("vassal_starting_units") if h in vassals else s["starting_units"]).get(h, [])
            for p in placements:
                for kind, n in p["units"].items():
                    for _ in range(n):
                        st.add_unit(p["area"], h, kind)
        for area, strength in s["garrisons"].items():
            owner = self.board.area(area).home
            if owner in st.houses:
                st.garrisons[area] = strength
                st.garrison_owner[area] = owner
        st.neutral_forces = dict(s["neutral_forces"])
        st.loyalty = dict(s.get("loyalty_tokens") or {})
        st.dragon_tokens = list(s.get("dragon_strength_rounds") or [])
        for deck in s.get("westeros_decks") or self.game_rec["westeros_decks"]:
            cards = rules.westeros_deck(deck)
            self.rng.shuffle(cards)
            st.decks[deck] = cards
        st.wildling_deck = list(rules.wildling_cards)
        self.rng.shuffle(st.wildling_deck)
        st.wildling_threat = self.game_rec["wildling_start"]
        if s.get("iron_bank"):
            st.loan_deck = sorted(rules.bundle["loans"])
            self.rng.shuffle(st.loan_deck)
            costs = self.game_rec.get("loan_costs") or []
            st.bank = [None] * len(costs)
            st.bank[-1] = st.loan_deck.pop(0)  # R31.14
        for h in houses:
            if self._loyalty_house(h):
                st.loyalty_points[h] = 0
        st.round = 1
        self.emit("setup", "R31", f"setup {s['id']}: players {', '.join(chosen)}; "
                  f"vassals {', '.join(vassals) or 'none'}", houses=chosen, vassals=vassals)

    def _loyalty_house(self, h: str) -> bool:
        return self.rules.house(h).get("victory_by") == "loyalty"

    def _fixed_last(self, order: list[str]) -> list[str]:
        fixed = [h for h in order if self.rules.house(h).get("last_on_tracks")]
        return [h for h in order if h not in fixed] + fixed

    # ---- who is who -----------------------------------------------------------------------------------
    def is_vassal(self, house: str) -> bool:
        return house in self.state.vassals

    def commander_of(self, house: str) -> str:
        return self.state.commanders.get(house, house)

    def actor(self, house: str) -> str:
        return self.commander_of(house) if self.is_vassal(house) else house

    def supply_chooser(self, house: str) -> str:
        return self.actor(house)

    def holder(self, token: str) -> str:
        """The highest player house on the track; vassals never hold dominance tokens (R35.7)."""
        track = self.rules.dominance_tokens[token]
        return next(h for h in self.state.tracks[track] if not self.is_vassal(h))

    def can_hold_power(self, house: str) -> bool:
        return not self.is_vassal(house)

    def gain_power(self, house: str, amount: int, rule: str, why: str = "") -> int:
        if self.is_vassal(house):
            return 0  # vassals never collect power (R35.9)
        return super().gain_power(house, amount, rule, why)

    def discard_power(self, house: str, amount: int, rule: str, why: str = "") -> int:
        if self.is_vassal(house):
            return 0
        return super().discard_power(house, amount, rule, why)

    def gift_power(self, giver: str, receiver: str, amount: int) -> None:
        """A player gives power to another player at any time (R42.4): not to or from vassals."""
        from .decisions import IllegalDecision

        problems = []
        if giver not in self.state.houses or receiver not in self.state.houses or giver == receiver:
            problems.append("gifts go between two different houses in the game")
        elif self.is_vassal(giver) or self.is_vassal(receiver):
            problems.append("vassals neither give nor receive power (R42.4.3)")
        elif not 0 < amount <= self.state.houses[giver].power:
            problems.append(f"{giver} has {self.state.houses[giver].power} available power")
        if problems:
            raise IllegalDecision(None, amount, problems[0])
        self.discard_power(giver, amount, "R42.4.1", f"gift to {receiver}")
        self.gain_power(receiver, amount, "R42.4.1", f"gift from {giver}")

    # ---- tracks ---------------------------------------------------------------------------------------
    def set_track(self, track: str, order: list[str], rule: str) -> None:
        super().set_track(track, self._fixed_last(order), rule)

    def move_on_track(self, house: str, track: str, position: int | None, rule: str) -> None:
        if self.rules.house(house).get("last_on_tracks"):
            return  # R36.2: never moves
        order = [h for h in self.state.tracks[track] if h != house]
        movable = [h for h in order if not self.rules.house(h).get("last_on_tracks")]
        last = len(movable)
        pos = last if position is None else max(0, min(position, last))
        movable.insert(pos, house)
        new = self._fixed_last(movable + [h for h in order if h not in movable])
        if new != self.state.tracks[track]:
            super().set_track(track, new, rule)

    def fixed_bids(self, track: str) -> dict[str, int]:
        return {h: 0 for h in self.state.tracks[track] if self.is_vassal(h)}  # R35.6

    def adjust_bids(self, track: str, bids: dict[str, int]) -> Proc:
        """A house that gives away its bid hands it, token by token, to other houses (R36.4)."""
        for giver in [h for h in self.turn_order if self.rules.house(h).get("gives_away_bids")]:
            left = bids.get(giver, 0)
            bids[giver] = 0
            while left > 0:
                options = ["keep"] + [h for h in self.turn_order if h != giver and h in bids]
                pick = yield from self.choose(giver, "give-bid", f"{giver}: give one of your {left} bid tokens to?",
                                              options, "R36.4.2", track=track)
                if pick == "keep":
                    break
                bids[pick] += 1
                left -= 1
                self.emit("give-bid", "R36.4.3", f"{giver} adds 1 to {pick}'s bid", house=pick)
        return bids

    # ---- victory (R26, R37) -----------------------------------------------------------------------------
    def victory_points(self, house: str) -> int:
        if self.is_vassal(house):
            return 0
        if self._loyalty_house(house):
            home = self.rules.house(house)["home"]
            printed = 1 if self.board.area(home).loyalty_token and self.controller(home) == house else 0
            return min(self.game_rec["victory_points"], self.state.loyalty_points.get(house, 0) + printed)
        return super().victory_points(house)

    def check_victory(self) -> None:
        need = self.game_rec["victory_points"]
        for house in self.turn_order:
            if not self.is_vassal(house) and self.victory_points(house) >= need:
                self.state.winner = house
                how = "loyalty" if self._loyalty_house(house) else "castles and strongholds"
                self.state.end_reason = f"reaches {need} victory points ({how})"
                self.emit("victory", "R37.3" if self._loyalty_house(house) else "R26.1",
                          f"{house} reaches {need} victory points and wins", house=house)
                raise GameOver

    def _end_after_last_round(self) -> None:
        vassals = set(self.state.vassals)
        saved = dict(self.state.houses)
        self.state.houses = {h: v for h, v in saved.items() if h not in vassals}  # vassals never win (R35.11)
        try:
            super()._end_after_last_round()
        finally:
            self.state.houses = saved

    def gain_loyalty(self) -> None:
        """Loyalty tokens in areas a loyalty house controls are gained at once (R37.6)."""
        for house in self.turn_order:
            if not self._loyalty_house(house):
                continue
            for area, n in sorted(self.state.loyalty.items()):
                if n > 0 and self.controller(area) == house:
                    del self.state.loyalty[area]
                    self.state.loyalty_points[house] = self.state.loyalty_points.get(house, 0) + n
                    self.emit("loyalty-gained", "R37.6.1", f"{house} gains {n} loyalty token(s) in {area}",
                              house=house, area=area, points=self.victory_points(house))
            home = self.rules.house(house)["home"]
            a = self.board.area(home)
            if a.garrison_returns and self.controller(home) == house and home not in self.state.garrisons \
                    and home in self.state.lost_homes:
                self.state.garrisons[home] = self.setup_rec["garrisons"].get(home, 2)
                self.state.garrison_owner[home] = house
                self.state.lost_homes.remove(home)
                self.emit("garrison", "R37.8.2", f"{house} retakes {home}: its garrison returns", area=home)
            if self.controller(home) != house and home not in self.state.lost_homes:
                self.state.lost_homes.append(home)
        self.check_victory()

    def add_loyalty(self, area: str, n: int, rule: str) -> None:
        total = self.game_rec.get("loyalty_tokens") or 20
        on_board = sum(self.state.loyalty.values())
        if n > 0:
            n = min(n, total - on_board)  # none left: the placement is skipped (R37.5)
        super().add_loyalty(area, n, rule)

    # ---- rounds ---------------------------------------------------------------------------------------
    def round_start_hooks(self) -> Proc:
        st = self.state
        if st.bank:  # R40.3: shift the loans, reveal a new one
            if st.bank[0] is not None:
                st.loan_deck.append(st.bank[0])
            st.bank = st.bank[1:] + [st.loan_deck.pop(0) if st.loan_deck else None]
            self.emit("iron-bank", "R40.3", "the Iron Bank shifts: " + ", ".join(str(x) for x in st.bank),
                      bank=list(st.bank))
        if st.round in st.dragon_tokens:  # R38.3.2
            st.dragon_tokens.remove(st.round)
            st.dragon_strength += 1
            self.emit("dragons", "R38.3.2", f"a dragon strength token enters the box: dragons have strength "
                      f"{st.dragon_strength}")
        yield from self._interest()

    def dragon_tokens_left(self) -> int:
        return len(self.state.dragon_tokens)

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

    def westeros_end_hooks(self) -> Proc:
        self.gain_loyalty()
        return
        yield  # pragma: no cover

    def after_march(self, house: str) -> None:
        self._update_discount_holder()
        self.gain_loyalty()

    # ---- the Iron Bank (R40) ----------------------------------------------------------------------------
    def _update_discount_holder(self) -> None:
        area = self.game_rec.get("loan_discount_area")
        if not area or area not in self.board:
            return
        ctrl = self.controller(area)
        if ctrl is not None and ctrl != self.state.discount_holder and not self.is_vassal(ctrl):
            self.state.discount_holder = ctrl
            self.emit("loan-discount", "R40.7.3", f"{ctrl} takes the token of {area}", house=ctrl)

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
                from .mustering import muster

                self.emit("muster-order", "R34.5", f"{house} musters in {area} (vassal muster order)", area=area)
                yield from muster(self, house, [area], "R34.5")

    def _buy_loan(self, house: str, area: str) -> Proc:
        st = self.state
        if self.is_vassal(house) or not st.bank:
            return
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
        st.loans.setdefault(house, []).append(pick)
        self.emit("loan", "R40.4", f"{house} takes the loan {pick} for {cost} power", house=house, loan=pick)
        loan = self.rules.bundle["loans"][pick]
        sc = Scope(vars={"buyer": house}, owner=house, card=pick, rule=f"R41 {pick}")
        yield from run(self, loan["effect"], sc)
        self.check_victory()

    # ---- vassals in combat (R35) --------------------------------------------------------------------------
    def hand_for_combat(self, house: str) -> list[str]:
        if not self.is_vassal(house):
            return super().hand_for_combat(house)
        hs = self.state.houses[house]
        if not hs.hand:
            deck_set = self.game_rec.get("vassal_card_set")
            deck = [c for c, rec in sorted(self.rules.bundle["house_cards"].items()) if rec["set"] == deck_set]
            taken = {c for h in self.state.vassals for c in self.state.houses[h].hand}
            deck = [c for c in deck if c not in taken]
            self.rng.shuffle(deck)
            hs.hand = deck[: self.game_rec.get("vassal_hand_size") or 3]
            self.emit("vassal-hand", "R35.2", f"{self.commander_of(house)} draws {len(hs.hand)} vassal cards for "
                      f"{house}", house=house, secret={"hand": list(hs.hand)})
        return list(hs.hand)

    def discard_played(self, house: str, card: str, keep: bool = False, removed: bool = False) -> None:
        if self.is_vassal(house):
            return  # vassal cards go back to their deck after the combat (R35.4)
        super().discard_played(house, card, keep, removed)

    def combat_over(self, combat) -> None:
        for h in combat.sides():
            if self.is_vassal(h):
                self.state.houses[h].hand = []  # reshuffled into the vassal deck (R35.4)
        if combat.winner and self.is_vassal(combat.winner):
            self.gain_power(self.commander_of(combat.winner), 1, "R35.5", f"its vassal {combat.winner} wins")

    def blade_user(self, holder: str) -> str:
        return holder

    def blade_sides(self, holder: str) -> set[str]:
        """The blade holder may use it in its own combat or in a combat of a vassal it commands (R35.3)."""
        return {holder} | {v for v, c in self.state.commanders.items() if c == holder}

    # ---- vassals on the map ----------------------------------------------------------------------------
    def may_enter(self, house: str, area: str) -> bool:
        ctrl = self.controller(area)
        ctrl_commander = self.commander_of(ctrl) if ctrl is not None and self.is_vassal(ctrl) else None
        if self.is_vassal(house):
            commander = self.commander_of(house)
            # no ports, no areas of the commander or of its other vassals (R34.3)
            return not (self.board.area(area).is_port or ctrl == commander or ctrl_commander == commander)
        return ctrl_commander != house  # a commander never enters its vassals' areas (R35.10)

    def is_enemy(self, house: str, other: str) -> bool:
        """A commander and its vassals never raid each other (R34.4)."""
        if house == other:
            return False
        return self.actor(house) != self.actor(other)

    def muster_areas(self, house: str) -> list[str] | None:
        """Vassals muster from Westeros cards only in their home area, if they hold it (R35.13)."""
        if not self.is_vassal(house):
            return None
        home = self.rules.house(house)["home"]
        return [home] if self.controller(home) == house else []

    # ---- planning: commanders and vassal orders (R33, R34) ---------------------------------------------------
    def before_orders(self) -> Proc:
        st = self.state
        st.commanders = {}
        players = [h for h in self.turn_order if not self.is_vassal(h)]
        if not st.vassals or not players:
            return
        holders = [players[i % len(players)] for i in range(len(st.vassals))]
        unclaimed = list(st.vassals)
        queue = sorted(holders, key=players.index)
        last = players[-1]
        while unclaimed and queue:
            holder = queue.pop(0)
            if holder == last:
                for v in unclaimed:
                    st.commanders[v] = last
                self.emit("commander", "R33.4", f"{last} commands {', '.join(unclaimed)}", house=last)
                unclaimed = []
                break
            pick = yield from self.choose(holder, "choose-vassal", f"{holder}: command a vassal or pass?",
                                          [PASS, *sorted(unclaimed)], "R33.3")
            if pick == PASS:
                nxt = players[players.index(holder) + 1]
                queue.append(nxt)
                queue.sort(key=players.index)
                self.emit("commander", "R33.3", f"{holder} passes its vassal set to {nxt}", house=holder)
                continue
            st.commanders[pick] = holder
            unclaimed.remove(pick)
            self.emit("commander", "R33.3", f"{holder} commands {pick}", house=holder, vassal=pick)

    def vassal_orders(self) -> Proc:
        """Each commander places up to two tokens of a vassal set for each vassal it commands (R34.1)."""
        st = self.state
        tokens = self.rules.orders_of_set("vassal")
        for commander in [h for h in self.turn_order if not self.is_vassal(h)]:
            for vassal in sorted(v for v, c in st.commanders.items() if c == commander):
                left = list(tokens)
                for _ in range(2):
                    areas = [a for a in st.areas_of(vassal) if a not in st.orders]
                    options = [f"{a}:{t}" for a in areas for t in sorted(set(left))
                               if t not in st.forbidden_orders]
                    if not options:
                        break
                    pick = yield from self.choose(commander, "vassal-order", f"{commander}: an order for {vassal}",
                                                  ["done", *options], "R34.1", vassal=vassal)
                    if pick == "done":
                        break
                    area, tok = pick.split(":")
                    st.orders[area] = {"house": vassal, "order": tok}
                    left.remove(tok)

    def raven_may_swap(self, area: str) -> bool:
        return not self.is_vassal(self.state.orders[area]["house"])  # R34.8
