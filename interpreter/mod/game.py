"""Mother of Dragons (R30–R42): vassals, houses that win by loyalty, dragons, the Iron Bank.

`ModGame` is a `Game` that overrides only declared extension points (interpreter/core/extensions.py) and keeps
its own state in `GameState.modules["mother-of-dragons"]` (mod_state.py). It is chosen for every setup of a rules
set with vassal order sets (see `new_game`). What makes a house special comes from the bundle:
`never-vassal`, `last-on-tracks`, `gives-away-bids`, `victory-by loyalty` — no house is named here.
"""

from __future__ import annotations

from dataclasses import dataclass

from maester.dsl.diagnostics import MaesterError
from maester.dsl.playable import plays_mother_of_dragons

from ..core import cursor  # noqa: F401  (mod_effects registers the module's effect primitives)
from ..core.decisions import IllegalDecision, between_decisions_problems, short_repr
from ..core.position import LEAVE
from ..core.rules import Rules
from ..core.state import HouseState
from ..procedures.game import Game, Options, Proc
from . import effects as mod_effects  # noqa: F401  (mod_effects registers the module's effect primitives)
from . import state_check as _state_check  # noqa: F401  (registers the module's invariants with core/state_check.py)
from .bank import STARTING_LOANS, IronBankRules
from .loyalty import LoyaltyRules
from .state import DragonsStateAccess
from .vassals import VassalRules


@dataclass
class ModOptions(Options):
    player_houses: list[str] | None = None  # None: the seed picks them


def new_game(rules: Rules, setup_id: str, seed: int = 0, options: Options | None = None, **kw) -> Game:
    """A `Game` for base setups, a `ModGame` for Mother of Dragons setups."""
    return Game.class_for(rules, setup_id)(rules, setup_id, seed=seed, options=options, **kw)


class ModGame(DragonsStateAccess, VassalRules, LoyaltyRules, IronBankRules, Game):
    """A game of Mother of Dragons: the base rules with the expansion's hooks (vassals, loyalty, the bank)."""

    options_type = ModOptions

    @classmethod
    def plays(cls, game_rec: dict) -> bool:
        return plays_mother_of_dragons(game_rec)  # the rules sets with vassals (one definition: dsl/playable.py)

    # ---- setup (R31): the base setup (Game._setup) with these points ---------------------------------------
    def before_setup(self) -> None:
        """The player houses: chosen (options) or drawn by the seed; the others are vassals (R31.1, R36.1)."""
        s, rules = self.setup_rec, self.rules
        houses = list(s["houses"])
        fixed = [h for h in houses if rules.house(h).get("never_vassal")]
        chosen = list(getattr(self.options, "player_houses", None) or [])
        if not chosen:
            pool = [h for h in houses if h not in fixed]
            self.rng.shuffle(pool)
            chosen = fixed + pool[: s["players"] - len(fixed)]
        elif (len(set(chosen)) != s["players"] or not set(chosen) <= set(houses)
              or not set(fixed) <= set(chosen)):  # R31.1, R36.1: the setup's houses, one per player
            raise MaesterError(f"setup {s['id']}: the {s['players']} player houses must be chosen among "
                               f"{', '.join(houses)}" + (f" and include {', '.join(fixed)}" if fixed else "")
                               + f" (got {', '.join(chosen)})")
        self._players = chosen  # for the setup event (the setup runs in one go)
        self.mod_state.vassals = sorted(h for h in houses if h not in chosen and h not in fixed)

    def setup_house(self, house: str) -> HouseState:
        if self.is_vassal(house):  # no power, no house cards (R31.4, R35.2)
            return HouseState(power=0, supply=self.game_rec["vassal_supply"] or 0)
        return super().setup_house(house)

    def starting_track(self, track: str, order: list[str]) -> list[str]:
        if any(self.is_vassal(h) for h in order[:3]):  # R31.9: vassals go below the players
            order = [h for h in order if not self.is_vassal(h)] + [h for h in order if self.is_vassal(h)]
        return super().starting_track(track, order)

    def starting_units(self, house: str) -> list[dict]:
        if self.is_vassal(house):
            return (self.setup_rec.get("vassal_starting_units") or {}).get(house, [])
        return super().starting_units(house)

    def finish_setup(self) -> None:
        """Loyalty tokens, dragon strength tokens, the Iron Bank (R31.10-R31.14)."""
        s, ms = self.setup_rec, self.mod_state
        ms.loyalty = dict(s.get("loyalty_tokens") or {})
        ms.dragon_tokens = list(s.get("dragon_strength_rounds") or [])
        if s.get("iron_bank"):
            ms.loan_deck = sorted(s["loan_deck"])
            self.rng.shuffle(ms.loan_deck)
            costs = self.game_rec.get("loan_costs") or []
            ms.bank = [None] * len(costs)
            ms.bank[-1] = ms.loan_deck.pop(0)  # R31.14
        for h in self.setup_rec["houses"]:
            if self._loyalty_house(h):
                ms.loyalty_points[h] = 0

    def setup_report(self) -> tuple[str, str, dict]:
        vassals = [h for h in self.setup_rec["houses"] if self.is_vassal(h)]
        return "R31", (f"setup {self.setup_rec['id']}: players {', '.join(self._players)}; "
                       f"vassals {', '.join(vassals) or 'none'}"), {"houses": list(self._players), "vassals": vassals}

    def after_setup(self) -> Proc:
        """Starting loans of the setup (a variant's per-house value): taken free, resolved at once (R40.4)."""
        st, ms = self.state, self.mod_state
        wanted = [(house, loan) for house, loans in self.setup_rec.get("starting_loans", {}).items()
                  if house in st.houses and not self.is_vassal(house)  # a vassal holds no loans (R40.1)
                  for loan in loans]
        if not wanted:
            return
        f = cursor.enter(self, STARTING_LOANS, next=0, loan=None)  # the saved one on a restart
        for i in range(f["next"], len(wanted)):
            f["next"] = i
            house, want = wanted[i]
            if f["loan"] is None:
                deck = ms.loan_deck
                pick = (deck[0] if deck else None) if want == "random" else want
                if pick in deck:
                    deck.remove(pick)
                elif pick in ms.bank:  # the named loan was revealed at setup: the next one takes its slot
                    ms.bank[ms.bank.index(pick)] = deck.pop(0) if deck else None
                else:
                    continue  # the deck is empty (the compiler refuses a named loan not in the deck)
                f["loan"] = pick
                self._hold_loan(house, pick, "a starting loan of the setup")
            yield from self._loan_effect(house, f["loan"])
            f["loan"] = None
        cursor.leave(self, f)

    # ---- rounds (R31.16) ---------------------------------------------------------------------------------
    def leave(self, house: str) -> None:
        """A player leaves the game: from the next round its house is a vassal (R42.5)."""
        problems = between_decisions_problems(self, {"house": (house, str)})
        if problems:
            raise IllegalDecision(None, short_repr(house), problems[0], action="leaving")
        if house not in self.state.houses or self.is_vassal(house):
            raise IllegalDecision(None, house, f"{short_repr(house)} is not a player house of this game", action=LEAVE)
        if self.rules.house(house).get("never_vassal"):  # "a player other than Targaryen" (R42.5)
            raise IllegalDecision(None, house, f"{house} never leaves the game: only a player other than {house} "
                                  "may leave, since its house can never be a vassal (R42.5, R36.1)", action=LEAVE)
        staying = [h for h in self.state.houses if not self.is_vassal(h) and h not in self.mod_state.leaving]
        if staying == [house]:  # with no player left no house could hold a track's dominance token, nor win
            raise IllegalDecision(None, house, f"{house} is the last player of the game and cannot leave it (R42.5)",
                                  action=LEAVE)
        if house not in self.mod_state.leaving:
            self.mod_state.leaving.append(house)
            self.record_action({"type": LEAVE, "house": house})
            self.emit("leave", "R42.5", f"{house} will leave the game at the end of the round", house=house)

    def _apply_leaving(self) -> None:
        st = self.state
        for house in self.mod_state.leaving:
            self.mod_state.vassals = sorted(set(self.mod_state.vassals) | {house})
            hs = st.houses[house]
            hs.power, hs.hand, hs.discards = 0, [], []  # vassals hold no power and use the vassal deck
            self.emit("vassal", "R42.5", f"{house} has left the game: its house and units are now a vassal",
                      house=house)
        self.mod_state.leaving = []

    def at_round_start(self) -> Proc:
        if not cursor.restarting(self):  # else the game restarts inside the interest: the rest is done
            self._apply_leaving()
            self.shift_bank()
            self.advance_dragons()
        yield from self._interest()

    def after_march(self, house: str) -> None:
        self._update_discount_holder()
        self.gain_loyalty(check=False)  # the march procedure checks victory right after (RulesHooks.after_march)


# ---- the players' actions between decisions (core/steps.py; docs/procedures.md) ---------------------------------
from ..core.steps import emit, extend, step, sub  # noqa: E402  (declarations only)

# declared here, after vassals.py's part of the extension point: ModGame.combat_over runs the vassals' part first,
# then loyalty's (mod/loyalty.py `combat_over`)
extend("combat.over", sub("mod.loyalty", "the tokens that came under a loyalty house's control during the combat "
                          "(R37.6.2)", times="1"), game="mod", module="interpreter/mod/loyalty.py")

step("game.between-decisions", "Actions between decisions", "R42.4 R42.5",
     "A player may act between two decisions without being asked: give power to another player (R42.4; during a "
     "combat only while a `support` decision is pending; never to or from a vassal) or announce that it leaves the "
     "game at the end of the round (R42.5). A log records them among the answers (`actions`, each `at` the number "
     "of answers given before it).",
     emit("power", "R42.4.1", "a gift: the giver discards, then the receiver gains", times="*"),
     emit("leave", "R42.5", "a player announces it leaves", times="*"),
     module="interpreter/mod/game.py", anywhere=True, game="mod")
