"""The extension points: every place the base rules procedures let a rules module change the rules.

`RulesHooks` is the one declaration. `Game` inherits it, so each point's method here *is* the base game's
behaviour; a rules module (a `Game` subclass that `plays` some rules sets) overrides only these points, and
keeps its own state in `GameState.modules` (see docs/modules.md). Each point is named for the base rules
concept it opens, never for what a module does with it. `EXTENSION_POINTS` lists them; a test checks that a
rules module overrides nothing else that the base procedures call.

The generator points (`Proc`) may ask decisions: the procedures run them with `yield from`.
"""

from __future__ import annotations

from collections.abc import Generator
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .board import Board
    from .rules import Rules
    from .state import GameState, HouseState

Proc = Generator[Any, object, object]


def _nothing() -> Proc:
    return
    yield  # pragma: no cover - keeps this a generator


class RulesHooks:
    """The extension points, with the base game's behaviour (a mixin of `Game`)."""

    # attributes `Game` provides
    state: GameState
    rules: Rules
    board: Board
    setup_rec: dict
    game_rec: dict

    # ---- who plays a house ------------------------------------------------------------------------
    def actor(self, house: str) -> str:
        """Who makes the decisions of `house` (R33.7). Base game: the house itself (R1.1)."""
        return house

    def may_hold_power(self, house: str) -> bool:
        """May `house` gain, hold and spend power tokens, and mark areas with them (R2.5, R16.8, R35.9)?
        Base game: every house may."""
        return True

    def may_hold_dominance(self, house: str) -> bool:
        """May `house` hold a dominance token, when it is first on that token's track (R5.2, R35.7)? Base game:
        every house may (the first house holds it)."""
        return True

    def takes_part_in_bidding(self, house: str) -> bool:
        """Does `house` bid for the influence tracks and against the wildlings (R10.2, R11.3)? One that does not
        counts as bidding 0 on the influence tracks (R35.6). Base game: every house bids."""
        return True

    def places_own_orders(self, house: str) -> bool:
        """Does `house` place its orders itself in the normal pass of the Planning Phase (R13.2)? The others'
        orders are placed by `after_own_orders` (R34.1). Base game: every house does."""
        return True

    def may_win(self, house: str) -> bool:
        """Can `house` win the game (R26, R35.11)? Base game: every house can."""
        return True

    def is_enemy(self, house: str, other: str) -> bool:
        """Is `other` an enemy of `house`: can one raid or attack the other (R15.2, R34.4)? Base game: every other
        house."""
        return house != other

    def may_enter(self, house: str, area: str) -> bool:
        """May `house` march into `area` at all (R16.3, R34.3, R35.10)? Base game: yes (the other limits, such as
        impassable areas, are the base procedures' own)."""
        return True

    def keeps_last_place(self, house: str) -> bool:
        """Does `house` always hold the last positions of the influence tracks, whatever the bids or effects
        (R10.3, R36.2)? Base game: no house does."""
        return False

    # ---- setup (R4) -----------------------------------------------------------------------------------
    def before_setup(self) -> None:
        """Anything decided before the houses are set up, such as which houses the players take (R4.6, R31.1).
        Base game: nothing (every house of the setup has a player)."""

    def setup_house(self, house: str) -> HouseState:
        """The state a house starts with (R4.11): power, supply, house cards. Base game: the setup's power, the
        house's starting supply and its house cards of the rules set."""
        return self.player_house_at_setup(house)  # type: ignore[attr-defined]

    def starting_track(self, track: str, order: list[str]) -> list[str]:
        """The starting order of an influence track, from the setup's order of the houses in play (R4.8,
        R31.9). Base game: the setup's order (houses that keep the last place go last)."""
        return self.last_places_kept(order)  # type: ignore[attr-defined]

    def starting_units(self, house: str) -> list[dict]:
        """The units a house starts with (R4.9). Base game: the setup's starting units of the house."""
        return self.setup_rec["starting_units"].get(house, [])

    def finish_setup(self) -> None:
        """What else the setup puts out, after the decks are shuffled (R4, R31.10-R31.15). Base game: nothing."""

    def setup_report(self) -> tuple[str, str, dict]:
        """The rule id, text and data of the `setup` event. Base game: the houses in play (R4)."""
        st = self.state
        return "R4", f"setup {self.setup_rec['id']}: {len(st.houses)} houses, seed {st.seed}", {
            "houses": list(st.houses)}

    def after_setup(self) -> Proc:
        """Setup steps that ask decisions, before round 1 (R40.4). Base game: none."""
        return _nothing()

    # ---- the round ---------------------------------------------------------------------------------------
    def at_round_start(self) -> Proc:
        """What happens at the start of a round, before the Westeros cards are drawn (R6.2.1, R6.6). Base game:
        nothing."""
        return _nothing()

    def before_westeros_card(self, card: str) -> None:
        """Just before a drawn Westeros card is resolved (R6.2.4, R37.4.2). Base game: nothing."""

    def after_westeros_cards(self) -> Proc:
        """After every Westeros card of the round is resolved (R6.2.4, R37.6). Base game: nothing."""
        return _nothing()

    def adjust_bids(self, track: str, bids: dict[str, int]) -> Proc:
        """The bids for an influence track after they are revealed, before the ranking (R10.3, R36.4); returns
        the bids to rank. Base game: as revealed."""
        return bids
        yield  # pragma: no cover

    def muster_areas(self, house: str) -> list[str] | None:
        """Where a Westeros card lets `house` muster (R7.4, R35.13); None: every castle area it controls (the
        base game)."""
        return None

    # ---- planning (R13, R14) -------------------------------------------------------------------------
    def house_order_sets(self) -> list[str]:
        """The order token sets a house places its own orders from (R13.1). Base game: the rules set's order
        sets."""
        return list(self.game_rec.get("order_sets") or ["house"])

    def before_orders(self) -> Proc:
        """At the start of the Planning Phase, before any order is placed (R13, R33.3). Base game: nothing."""
        return _nothing()

    def after_own_orders(self) -> Proc:
        """After every house placed its own orders, before they are revealed: the other orders (R13.3, R34.1).
        Base game: none."""
        return _nothing()

    def raven_may_swap(self, area: str) -> bool:
        """May the Messenger Raven holder swap the order in `area` (R13.5.1, R34.8)? Base game: any of its own."""
        return True

    # ---- the Action Phase (R15-R18) ----------------------------------------------------------------------
    def consolidate_purchases(self, house: str, power: int) -> tuple:
        """What else a Consolidate Power step order could buy with this much power, without and with a
        discount (R18, R40.4): a tuple of choices, each empty when nothing can be bought. Base game: nothing."""
        return ()

    def seas_of_other_order(self, area: str, order: dict) -> tuple[frozenset[str] | None, frozenset[str]]:
        """For an order of a type the base procedures do not know, resolved at the Consolidate Power step (R18.4):
        the sea areas whose ships it may change (None: any) and those whose ships change what it does. Another
        house's turn matters to a port's yield (R18.2.2) or to a muster (R9.4) only through these seas. Base game:
        there is none; any sea (the safe answer)."""
        return None, frozenset()

    def resolve_other_order(self, house: str, area: str) -> Proc:
        """Resolve an order of a type the base procedures do not know, at the Consolidate Power step (R18.4,
        R34.5, R40.4). Base game: there is none; the order is removed."""
        self.state.orders.pop(area, None)
        return _nothing()

    def area_left_unmarked(self, house: str, area: str) -> None:
        """A march emptied a land area of `house` that it does not mark with a power token (R16.8, R35.9).
        Base game: nothing happens."""

    def after_march(self, house: str) -> None:
        """After a march order of `house` is resolved, combat included (R16, R37.6); the procedure checks victory
        right after it. Base game: nothing."""

    def take_area(self, area: str, house: str) -> None:
        """`house` now holds `area` (R16.4, R21.5.7). Base game: nothing more (ports follow in the procedure)."""

    def units_arrived(self, house: str, areas: list[str]) -> None:
        """Units of `house` came into `areas` outside a combat (a march's moves, a defeated neutral force, a
        placement), the event reporting it emitted; nothing else has happened since (R37.6.2). Base game:
        nothing."""

    def neutral_force_defeated(self, house: str, area: str) -> None:
        """`house` defeated the neutral force of `area` (R16.5, R40.7.2). Base game: nothing more."""

    # ---- combat (R19-R22) ------------------------------------------------------------------------------
    def hand_for_combat(self, house: str, in_play: tuple[str, ...] = ()) -> list[str]:
        """The house cards `house` chooses from in a combat (R20.1.1, R35.2); `in_play`: the cards already
        played in this combat (held apart from every hand). Base game: its hand."""
        return list(self.state.houses[house].hand)

    def discard_played(self, house: str, card: str, keep: bool = False, removed: bool = False) -> None:
        """A house card played in a combat goes to its discards, or stays in hand when a card says so (R21.5.3,
        R35.4). Base game: see `Game.discard_to_pile`."""
        self.discard_to_pile(house, card, keep)  # type: ignore[attr-defined]

    def combat_over(self, combat) -> None:
        """After the Combat Clean Up (R21.5, R35.4, R35.5). Base game: nothing more."""

    def blade_user(self, holder: str) -> str:
        """Who uses the Valyrian Steel Blade that `holder` holds (R20). Base game: its holder."""
        return holder

    def blade_sides(self, holder: str) -> set[str]:
        """The combatants for whom the blade holder may use the blade (R20.1, R35.3). Base game: itself."""
        return {holder}

    def unit_strength_of_kind(self, kind: str) -> int:
        """The combat strength of an unrouted unit of `kind` (R2.3.1, R38.2). Base game: the printed strength."""
        return self.rules.unit_kinds[kind]["strength"]

    # ---- areas ------------------------------------------------------------------------------------------
    def changed_areas(self) -> set[str] | dict:
        """The areas whose castle, power or supply icons are not the printed ones (R41, R42.3). Base game: none.
        Counting castles looks up `castle_level` only for these."""
        return set()

    def castle_level(self, area: str) -> str:
        """The castle of `area`: none, castle or stronghold (R26.1, R41.2). Base game: the printed one."""
        return self.board.area(area).castle

    def power_icons(self, area: str) -> int:
        """The power icons of `area` (R7.9, R41). Base game: the printed ones."""
        return self.board.area(area).power

    def supply_of_area(self, area: str) -> int:
        """The supply icons (barrels) of `area` (R8.2, R41). Base game: the printed ones."""
        return self.board.area(area).supply

    # ---- victory (R26) -----------------------------------------------------------------------------------
    def victory_table(self) -> dict[str, int]:
        """Every house's victory points (R26, R37.1). Base game: castles and strongholds it controls."""
        return self.castle_counts()  # type: ignore[attr-defined]

    def victory_words(self, house: str) -> str:
        """What a house's victory points count, for the reports (R26, R37.1). Base game: castles and strongholds."""
        return "castles and strongholds"

    def check_victory(self) -> None:
        """Has a house won at once (R26.1, R37.3)? Then it records the winner and raises `GameOver`. Base game:
        see `Game.castle_victory`."""
        self.castle_victory()  # type: ignore[attr-defined]


EXTENSION_POINTS: frozenset[str] = frozenset(
    name for name, value in vars(RulesHooks).items() if callable(value) and not name.startswith("_"))
