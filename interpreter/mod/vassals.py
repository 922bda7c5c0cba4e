"""Mother of Dragons vassals (R33–R35): commanders, vassal orders, vassal combat, the limits on both sides.

A mixin of `ModGame`: its methods override extension points (extensions.py), or are the module's own.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..core import cursor
from ..core.decisions import BIDS_ASKED, IllegalDecision, between_decisions_problems, short_repr
from ..core.position import GIFT
from ..core.state import board_written
from .state import MODULE

if TYPE_CHECKING:
    from ..procedures.game import Proc

PASS = "pass"
DONE = "done"
VASSAL_SET = "vassal"  # the order set of vassal tokens (R34.1)

# the frames of the planning procedures (cursor.py): what a restart inside them must know
CHOOSE_COMMANDERS = cursor.frame_kind(
    "mod.choose-commanders", "the players take the vassals they command this round, in turn order", "R33.3",
    queue=("houses", "the players still to choose (with repeats: one entry per vassal set), in turn order; the "
                      "first is choosing now, and a player who passes adds the next player"))
VASSAL_ORDERS = cursor.frame_kind(
    "mod.vassal-orders", "the commanders place their vassals' orders, after the players' own", "R34.1",
    next=("int", "the vassal being ordered, 0-based among the commanded vassals (commanders in turn order, each "
                 "one's vassals by name)"),
    placed=("int", "the orders placed for that vassal so far"),
    left=("order-tokens", "the vassal order tokens still unused for that vassal"))


class VassalRules:
    # asked for nearly every decision, order and march candidate: the module's dict is read directly (`mod_data`
    # only when a state has none yet), never through the typed view
    def is_vassal(self, house: str) -> bool:
        return house in (self.state.modules.get(MODULE) or self.mod_data())["vassals"]

    def commander_of(self, house: str) -> str:
        return (self.state.modules.get(MODULE) or self.mod_data())["commanders"].get(house, house)

    def actor(self, house: str) -> str:
        data = self.state.modules.get(MODULE) or self.mod_data()
        return data["commanders"].get(house, house) if house in data["vassals"] else house

    def may_hold_dominance(self, house: str) -> bool:
        return not self.is_vassal(house)  # the highest player house holds the token (R35.7)

    def may_hold_power(self, house: str) -> bool:
        return not self.is_vassal(house)  # vassals never collect or hold power (R35.9)

    def takes_part_in_bidding(self, house: str) -> bool:
        return not self.is_vassal(house)  # R35.6, R35.8

    def places_own_orders(self, house: str) -> bool:
        return not self.is_vassal(house)  # their commanders place vassal orders after the others (R34.1)

    def may_win(self, house: str) -> bool:
        return not self.is_vassal(house)  # R35.11

    def house_order_sets(self) -> list[str]:
        sets = super().house_order_sets()  # (out of the comprehension: Cython finds no super() in there)
        return [s for s in sets if s != VASSAL_SET]  # the vassal set is for vassals (R34)

    def area_left_unmarked(self, house: str, area: str) -> None:
        if self.is_vassal(house) and area not in self.state.power_tokens:
            self.state.power_tokens[area] = house  # a vassal always marks the land it leaves (R35.9)
            board_written(area)
            self.emit("power-token", "R35.9", f"{house} (vassal) leaves a power token in {area}", house=house,
                      area=area)

    def gift_power(self, giver: str, receiver: str, amount: int) -> None:
        """A player gives power to another player at any time (R42.4): not to or from vassals."""
        problems = between_decisions_problems(self, {"giver": (giver, str), "receiver": (receiver, str),
                                                     "amount": (amount, int)})
        if problems:
            pass  # not a gift at all (the game is over, an argument of the wrong type)
        elif giver not in self.state.houses or receiver not in self.state.houses or giver == receiver:
            problems.append("gifts go between two different houses in the game")
        elif self.is_vassal(giver) or self.is_vassal(receiver):
            problems.append("vassals neither give nor receive power (R42.4.3)")
        elif not 0 < amount <= self.state.houses[giver].power:
            problems.append(f"{giver} has {self.state.houses[giver].power} available power")
        elif self.embattled is not None and (self.decision is None or self.decision.kind != "support"):
            problems.append("during a combat power may be gifted only in the Call for Support step (R42.4.2)")
        elif self.decision is not None and self.decision.kind in BIDS_ASKED:
            # bids are secret and asked one house at a time: a gift now would change power already bid, or the
            # answers of a bid asked already (the giver could end below 0, a decision with no legal answer)
            problems.append("power may not be gifted while bids are asked (R42.4): wait for the bids' reveal")
        if problems:
            raise IllegalDecision(None, short_repr(amount), problems[0], action=GIFT)
        self.discard_power(giver, amount, "R42.4.1", f"gift to {receiver}")
        self.gain_power(receiver, amount, "R42.4.1", f"gift from {giver}")
        self.record_action({"type": GIFT, "from": giver, "to": receiver, "amount": amount})

    # ---- vassals in combat (R35) --------------------------------------------------------------------------
    def hand_for_combat(self, house: str, in_play: tuple[str, ...] = ()) -> list[str]:
        if not self.is_vassal(house):
            return super().hand_for_combat(house, in_play)
        hs = self.state.houses[house]
        if not hs.hand:
            deck = list(self._vassal_deck())
            # another vassal's hand and the card it played are not in the deck (R35.2: "the 4 remaining")
            taken = {c for h in self.mod_state.vassals for c in self.state.houses[h].hand} | set(in_play)
            deck = [c for c in deck if c not in taken]
            self.rng.shuffle(deck)
            hs.hand = deck[: self.game_rec["vassal_hand_size"] or 0]
            self.emit("vassal-hand", "R35.2", f"{self.commander_of(house)} draws {len(hs.hand)} vassal cards for "
                      f"{house}", house=house, secret={"hand": list(hs.hand)})
        return list(hs.hand)

    def _vassal_deck(self) -> tuple[str, ...]:
        """The vassal house cards, by id: fixed by the bundle, read once per game."""
        deck = self.__dict__.get("_vassal_deck_ids")
        if deck is None:
            deck_set = self.game_rec.get("vassal_card_set")
            deck = self._vassal_deck_ids = tuple(
                c for c, rec in sorted(self.rules.bundle["house_cards"].items()) if rec["set"] == deck_set)
        return deck

    def discard_played(self, house: str, card: str, keep: bool = False, removed: bool = False) -> None:
        if self.is_vassal(house):
            # in Combat Clean Up, when played cards go to the discards (R21.5.3), all 7 vassal cards go back to
            # their deck (R35.4): from now on (the after-combat abilities included) the vassal has no hand
            self.state.houses[house].hand = []
            return
        super().discard_played(house, card, keep, removed)

    def combat_over(self, combat) -> None:
        for h in combat.sides():
            if self.is_vassal(h):
                hs = self.state.houses[h]
                hs.hand, hs.discards = [], []  # every vassal card goes back into the vassal deck (R35.4)
        if combat.winner and self.is_vassal(combat.winner):
            self.gain_power(self.commander_of(combat.winner), 1, "R35.5", f"its vassal {combat.winner} wins")
        super().combat_over(combat)  # the other rules of the module (loyalty gains, R21.5.7)

    def blade_user(self, holder: str) -> str:
        return holder

    def blade_sides(self, holder: str) -> set[str]:
        """The blade holder may use it in its own combat or in a combat of a vassal it commands (R35.3)."""
        return {holder} | {v for v, c in self.mod_state.commanders.items() if c == holder}

    # ---- vassals on the map ----------------------------------------------------------------------------
    def may_enter(self, house: str, area: str) -> bool:
        data = self.state.modules.get(MODULE) or self.mod_data()
        vassals = data["vassals"]
        if not vassals:
            return True  # no vassal in the game: neither limit applies (asked for every candidate of every march)
        ctrl = self.controller(area)
        commanders = data["commanders"]  # (`commander_of` and `is_vassal` inlined)
        ctrl_commander = commanders.get(ctrl, ctrl) if ctrl is not None and ctrl in vassals else None
        if house in vassals:
            # no ports, no areas of the commander or of its other vassals (R34.3); its own areas are fine
            if self.board.area(area).is_port:
                return False
            if ctrl is None or ctrl == house:
                return True
            commander = commanders.get(house, house)
            return ctrl != commander and ctrl_commander != commander
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
        """The players take the vassals they command, one vassal set each in turn order (R33.3, R33.4)."""
        ms = self.mod_state
        players = [h for h in self.turn_order if not self.is_vassal(h)]
        if cursor.restarting(self):  # the commanders taken so far are in the state, the queue in the frame
            f = cursor.enter(self, CHOOSE_COMMANDERS)
        else:
            ms.commanders = {}
            if not ms.vassals or not players:
                return
            holders = [players[i % len(players)] for i in range(len(ms.vassals))]
            f = cursor.enter(self, CHOOSE_COMMANDERS, queue=sorted(holders, key=players.index))
        queue, last = f["queue"], players[-1]
        while queue:
            unclaimed = [v for v in ms.vassals if v not in ms.commanders]  # sorted, as the vassals are
            if not unclaimed:
                break
            holder = queue[0]
            if holder == last:
                for v in unclaimed:
                    ms.commanders[v] = last
                self.emit("commander", "R33.4", f"{last} commands {', '.join(unclaimed)}", house=last)
                break
            pick = yield from self.choose(holder, "choose-vassal", f"{holder}: command a vassal or pass?",
                                          [PASS, *sorted(unclaimed)], "R33.3")
            queue.pop(0)
            if pick == PASS:
                nxt = players[players.index(holder) + 1]
                queue.append(nxt)
                queue.sort(key=players.index)
                self.emit("commander", "R33.3", f"{holder} passes its vassal set to {nxt}", house=holder)
                continue
            ms.commanders[pick] = holder
            self.emit("commander", "R33.3", f"{holder} commands {pick}", house=holder, vassal=pick)
        cursor.leave(self, f)

    def after_own_orders(self) -> Proc:
        """Each commander places up to two tokens of a vassal set for each vassal it commands (R34.1)."""
        st = self.state
        tokens = self.rules.orders_of_set(VASSAL_SET)
        per = self.game_rec["vassal_orders_per_vassal"] or 0
        ordered = [(commander, vassal) for commander in self.turn_order if not self.is_vassal(commander)
                   for vassal in sorted(v for v, c in self.mod_state.commanders.items() if c == commander)]
        if not ordered or not per:
            return
        f = cursor.enter(self, VASSAL_ORDERS, next=0, placed=0, left=list(tokens))  # the saved one on a restart
        while f["next"] < len(ordered):
            commander, vassal = ordered[f["next"]]
            left = f["left"]
            pick = DONE
            if f["placed"] < per:
                areas = [a for a in st.areas_of(vassal) if a not in st.orders]
                options = [f"{a}:{t}" for a in areas for t in sorted(set(left)) if t not in st.forbidden_orders]
                if options:
                    pick = yield from self.choose(commander, "vassal-order", f"{commander}: an order for {vassal}",
                                                  [DONE, *options], "R34.1", vassal=vassal)
            if pick == DONE:  # the next vassal, with a full set of tokens
                f["next"], f["placed"], f["left"] = f["next"] + 1, 0, list(tokens)
                continue
            area, tok = pick.split(":")
            st.orders[area] = {"house": vassal, "order": tok}
            left.remove(tok)
            f["placed"] += 1
        cursor.leave(self, f)

    def raven_may_swap(self, area: str) -> bool:
        return not self.is_vassal(self.state.orders[area]["house"])  # R34.8



# ---- the steps of the vassals' planning (core/steps.py; docs/procedures.md) -------------------------------------
from ..core.steps import amend, ask, emit, extend, group, step, sub  # noqa: E402  (declarations only)

_M = "interpreter/mod/vassals.py"
step("mod.choose-commanders", "Commanders of the vassals", "R33.3 R33.4",
     "At the start of each Planning Phase the commanders are chosen anew. With V vassals and P players, the "
     "players in turn order take vassal sets: player i (0-based, turn order) gets an entry in the queue for each "
     "k < V with k mod P = i, the queue sorted by turn order. The first player of the queue takes an unclaimed "
     "vassal (sorted by id) or passes (its entry moves to the next player in turn order); when the queue's first "
     "player is the last in turn order, it takes every vassal left without being asked. Nothing happens without "
     "vassals.",
     group(ask("choose-vassal", "R33.3", "the first player of the queue", "while vassals are unclaimed",
               "`pass`, then the unclaimed vassals sorted by id", times="1"),
           emit("commander", "R33.3", "the answer: `house` (and `vassal` unless it passed)", times="1")),
     emit("commander", "R33.4", "the last player takes the rest: `house`"),
     module=_M, game="mod")
step("mod.vassal-orders", "The vassals' orders", "R34.1",
     "After the players' own orders: each commander in turn order, for each vassal it commands (sorted by id), "
     "places up to `vassal_orders_per_vassal` tokens of the vassal order set, each in an area of the vassal without "
     "an order, each token at most once per vassal, none forbidden this round.",
     ask("vassal-order", "R34.1", "the commander", "until it answers `done`, places the maximum or has no option",
         "`done`, then `AREA:TOKEN` for each area of the vassal without an order (sorted) and each unused token "
         "(sorted)", "when only `done` is left", times="*"),
     module=_M, game="mod")
extend("planning.before-orders", sub("mod.choose-commanders", times="1"), game="mod", module=_M)
extend("planning.after-own-orders", sub("mod.vassal-orders", times="1"), game="mod", module=_M)
extend("combat.attacker-hand", emit("vassal-hand", "R35.2", "a vassal attacker with no hand: its commander draws "
                                    "it (`secret.hand`)"), game="mod", module=_M)
extend("combat.defender-hand", emit("vassal-hand", "R35.2", "a vassal defender with no hand (as above)"), game="mod",
       module=_M)
extend("combat.over", emit("power", "R35.5", "the commander of a winning vassal gains 1 power"), game="mod",
       module=_M)
extend("action.area-left-unmarked", emit("power-token", "R35.9", "a vassal marks the land area it left: `house`, "
                                         "`area`"), game="mod", module=_M)
amend("planning.house-orders", "vassals place no orders of their own here; their commanders place them after "
      "the players' own (step `mod.vassal-orders`, R34.1). Orders a house places come from its order sets other "
      "than the vassal set.", game="mod", module=_M)
amend("planning.raven", "the orders of a vassal are the vassal's: its commander cannot replace them with the "
      "raven (R34.8).", game="mod", module=_M)
amend("wildlings.attack", "vassals take no part in the bidding (R35.8).", game="mod", module=_M)
amend("bidding.influence", "vassals do not bid and count as bidding 0 (R35.6).", game="mod", module=_M)
amend("action.raid", "a commander and its vassals are not enemies (R34.4): none raids the others. A raid/support "
      "token is a vassal's; its commander decides.", game="mod", module=_M)
amend("action.march", "a vassal may not enter a port, nor an area its commander or another vassal of the same "
      "commander controls (R34.3); a commander may not enter its vassals' areas (R35.10). Dragons fly (R38.4).",
      game="mod", module=_M)
amend("combat.house-cards", "a vassal's commander chooses for it, from the vassal's hand; a vassal with no hand "
      "draws one first (R35.2): the vassal deck — the house cards of the rules set's vassal card set, sorted by id, "
      "less those in other vassals' hands — shuffled, the first `vassal_hand_size` taken. A dragon's strength is "
      "the dragon strength (R38.2).", game="mod", module=_M)
amend("combat.tides", "the blade holder may also use the blade for a vassal it commands (R35.3).", game="mod",
      module=_M)
amend("combat.blade", "the blade holder may also use the blade for a vassal it commands (R35.3).", game="mod",
      module=_M)
amend("combat.clean-up", "a vassal's played card does not go to a discard pile; when the combat is over every "
      "vassal's hand and discards are emptied, back into the vassal deck (R35.4), and the commander of a winning "
      "vassal gains 1 power (R35.5).", game="mod", module=_M)
amend("mustering.muster", "a vassal musters from a Westeros card only in its home area, if it controls it "
      "(R35.13).", game="mod", module=_M)
amend("power pool", "a vassal holds and gains no power (R35.9).", game="mod", module=_M)
