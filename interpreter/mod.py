"""Mother of Dragons (R30–R42): vassals, houses that win by loyalty, dragons, the Iron Bank.

`ModGame` is a `Game` whose rule hooks follow the expansion. It is chosen for every setup of a rules
set with vassal order sets (see `new_game`). What makes a house special comes from the bundle:
`never-vassal`, `last-on-tracks`, `gives-away-bids`, `victory-by loyalty` — no house is named here.
"""

from __future__ import annotations

from dataclasses import dataclass

from .decisions import IllegalDecision
from .game import Game, Options, Proc
from .mod_bank import IronBankRules
from .mod_loyalty import LoyaltyRules
from .mod_vassals import VassalRules
from .position import LEAVE
from .rules import Rules
from .state import HouseState


@dataclass
class ModOptions(Options):
    player_houses: list[str] | None = None  # None: the seed picks them


def new_game(rules: Rules, setup_id: str, seed: int = 0, options: Options | None = None, **kw) -> Game:
    """A `Game` for base setups, a `ModGame` for Mother of Dragons setups."""
    return Game.class_for(rules, setup_id)(rules, setup_id, seed=seed, options=options, **kw)


class ModGame(VassalRules, LoyaltyRules, IronBankRules, Game):
    """A game of Mother of Dragons: the base rules with the expansion's hooks (vassals, loyalty, the bank)."""

    options_type = ModOptions

    @classmethod
    def plays(cls, game_rec: dict) -> bool:
        return "vassal" in (game_rec.get("order_sets") or [])  # the rules sets with vassals

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
        elif (len(set(chosen)) != s["players"] or not set(chosen) <= set(houses)
              or not set(fixed) <= set(chosen)):  # R31.1, R36.1: the setup's houses, one per player
            from maester.dsl.diagnostics import MaesterError

            raise MaesterError(f"setup {s['id']}: the {s['players']} player houses must be chosen among "
                               f"{', '.join(houses)}" + (f" and include {', '.join(fixed)}" if fixed else "")
                               + f" (got {', '.join(chosen)})")
        vassals = [h for h in houses if h not in chosen and h not in fixed]
        sets = self.game_rec["house_card_sets"]
        for h in houses:
            rec = rules.house(h)
            if h in vassals:
                st.houses[h] = HouseState(power=0, supply=self.game_rec["vassal_supply"] or 0)
            else:
                st.houses[h] = HouseState(power=self.starting_power(h), supply=rec["starting_supply"],
                                          hand=rules.cards_of(h, sets))
        st.vassals = sorted(vassals)
        st.turn_track = self.turn_track
        for track in self.game_rec["tracks"]:
            order = [h for h in s["influence"][track] if h in st.houses]
            if any(h in vassals for h in order[:3]):  # R31.9
                order = [h for h in order if h not in vassals] + [h for h in order if h in vassals]
            st.tracks[track] = self._fixed_last(order)
        for h in houses:
            self._place_units(h, (s.get("vassal_starting_units") if h in vassals else s["starting_units"]).get(h, []))
        self._place_garrisons()
        st.neutral_forces = dict(s["neutral_forces"])
        st.loyalty = dict(s.get("loyalty_tokens") or {})
        st.dragon_tokens = list(s.get("dragon_strength_rounds") or [])
        self._shuffle_decks()
        if s.get("iron_bank"):
            st.loan_deck = sorted(s["loan_deck"])
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

    def setup_hooks(self) -> Proc:
        """Starting loans of the setup (a variant's per-house value): taken free, resolved at once (R40.4)."""
        st = self.state
        for house, loans in self.setup_rec.get("starting_loans", {}).items():
            if house not in st.houses or self.is_vassal(house):
                continue  # a vassal holds no loans (R40.1)
            for wanted in loans:
                deck = st.loan_deck
                pick = (deck[0] if deck else None) if wanted == "random" else wanted
                if pick in deck:
                    deck.remove(pick)
                elif pick in st.bank:  # the named loan was revealed at setup: the next one takes its slot
                    st.bank[st.bank.index(pick)] = deck.pop(0) if deck else None
                else:
                    continue  # the deck is empty (the compiler refuses a named loan not in the deck)
                yield from self.take_loan(house, pick, "a starting loan of the setup")

    # ---- rounds (R31.16) ---------------------------------------------------------------------------------
    def leave(self, house: str) -> None:
        """A player leaves the game: from the next round its house is a vassal (R42.5)."""
        if house not in self.state.houses or self.is_vassal(house):
            raise IllegalDecision(None, house, f"'{house}' is not a player house of this game")
        if self.rules.house(house).get("never_vassal"):
            raise IllegalDecision(None, house, f"{house} can never be a vassal (R36.1)")
        if house not in self.state.leaving:
            self.state.leaving.append(house)
            self.record_action({"type": LEAVE, "house": house})
            self.emit("leave", "R42.5", f"{house} will leave the game at the end of the round", house=house)

    def _apply_leaving(self) -> None:
        st = self.state
        for house in st.leaving:
            st.vassals = sorted(set(st.vassals) | {house})
            hs = st.houses[house]
            hs.power, hs.hand, hs.discards = 0, [], []  # vassals hold no power and use the vassal deck
            self.emit("vassal", "R42.5", f"{house} has left the game: its house and units are now a vassal",
                      house=house)
        st.leaving = []

    def round_start_hooks(self) -> Proc:
        self._apply_leaving()
        self.shift_bank()
        self.advance_dragons()
        yield from self._interest()

    def after_march(self, house: str) -> None:
        self._update_discount_holder()
        self.gain_loyalty()
