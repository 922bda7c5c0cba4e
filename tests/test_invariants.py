"""Game invariants: complete random and heuristic games, checked after every decision.

Every game is driven by hand (`while g.decision: check(); answer()`), and the position is checked at
every decision point and once at the end:

- power: available + tokens on the board <= the house's total, none negative (R2.5);
- units: unit limits per house and kind; one house per area (R1.8); land units on land, ships in seas
  and ports, at most 3 ships in a port (R24); no units in blocked areas or on neutral forces;
- orders: one per area, only where the order's house has units (R14.7), within the house's tokens and
  the star limit; outside a combat only (a marching army is off the board until its combat ends);
- supply: every house fits its supply limit (R8) whenever no reconciliation is pending, which covers
  "after every supply event" and "at the end of the Westeros Phase";
- house cards: hand + discards + removed is exactly the house's 7 cards (the played card of a combat
  stays in hand until the clean up, so no correction is needed);
- tracks: each influence track is a permutation of the houses in play; the wildling threat is on the
  wildling track (0..12, even);
- the end: every game ends with a winner, an end reason and one "victory" event citing R26.1 or R26.3.

The default run plays 200 games (3, 4, 5 and 6 players; random and heuristic agents). `--runslow`
adds a long run of MAESTER_GAMES games (default 2000). Failure messages name the setup, the seed, the
agent kind, the decision number and the invariant.
"""

from __future__ import annotations

import json
import os
from collections import Counter

import pytest

from maester.interpreter.agents import agents_for
from maester.interpreter.game import Game
from maester.interpreter.planning import house_tokens, star_limit
from maester.interpreter.rules import Rules
from maester.interpreter.state import GameState

SETUPS = ["base-3p", "base-4p", "base-5p", "base-6p"]
KINDS = ["random", "heuristic"]
DEFAULT_GAMES = 200  # the default run, spread evenly over SETUPS x KINDS
SLOW_GAMES = int(os.environ.get("MAESTER_GAMES", "2000"))
SLOW_SEED_BASE = 100_000  # the long run does not replay the default run's seeds
HOUSE_CARDS = 7
# decisions taken while houses may still be over their supply limit (R8.4)
RECONCILING = {"reconcile"}
# procedures during which a marching army is off the board (its march order stays in its empty origin)
COMBAT_FRAMES = {"resolve_combat", "_attack_neutral_force"}


@pytest.fixture(scope="module")
def rules() -> Rules:
    return Rules.default()


class InvariantError(AssertionError):
    pass


# ---- the checker ------------------------------------------------------------------------------------

def in_combat(g: Game) -> bool:
    """Is a combat (or a neutral force attack) being resolved? Walks the procedure's generator chain."""
    gen = g._proc
    while gen is not None:
        code = getattr(gen, "gi_code", None)
        if code is None:
            return False
        if code.co_name in COMBAT_FRAMES:
            return True
        gen = gen.gi_yieldfrom
    return False


class Checker:
    """Checks one game's position; `check()` returns the list of broken invariants (empty if none)."""

    def __init__(self, g: Game):
        self.g = g
        rules = g.rules
        self.houses = list(g.state.houses)
        self.power_total = {h: rules.house(h)["power_tokens"] for h in self.houses}
        self.limits = {h: dict(rules.house(h)["unit_limits"]) for h in self.houses}
        self.domain = {k: rec["domain"] for k, rec in rules.unit_kinds.items()}
        self.kind_of = {a.id: a.kind for a in g.board.areas}
        sets = g.game_rec.get("house_card_sets") or ["base"]
        self.cards = {h: sorted(rules.cards_of(h, sets)) for h in self.houses}
        self.tokens = Counter(house_tokens(g))
        self.star = {o: bool(rules.order(o)["star"]) for o in self.tokens}
        self.track_ids = list(g.game_rec["tracks"])
        self.wildling_track = set(g.game_rec["wildling_track"])
        self.max_supply = rules.max_supply(g.state.game)

    def check(self, decision_kind: str | None = None) -> list[str]:
        g, st = self.g, self.g.state
        bad: list[str] = []
        combat = in_combat(g)

        # power (R2.5)
        on_board = Counter(st.power_tokens.values())
        for h in self.houses:
            avail = st.houses[h].power
            total = avail + on_board[h]
            if avail < 0:
                bad.append(f"power: {h} has {avail} available power")
            if total > self.power_total[h]:
                bad.append(f"power: {h} has {avail} available + {on_board[h]} on the board = {total} "
                           f"> {self.power_total[h]} tokens")
        for area, h in st.power_tokens.items():
            if h not in st.houses:
                bad.append(f"power: token of unknown house {h!r} in {area}")
            if self.kind_of.get(area) != "land":
                bad.append(f"power: {h}'s power token in {area}, not a land area")
            elif st.house_in(area) not in (None, h):
                bad.append(f"power: {h}'s power token in {area} held by {st.house_in(area)}'s units (R16.6)")

        # units (R1.8, R24, unit limits)
        counts: Counter = Counter()
        for area, army in st.units.items():
            h = army["house"]
            kind = self.kind_of.get(area)
            if kind is None:
                bad.append(f"units: {h} units in {area}, not an area of the board")
                continue
            if h not in st.houses:
                bad.append(f"units: units of unknown house {h!r} in {area}")
            if not army["units"]:
                bad.append(f"units: an empty army of {h} is left in {area}")
            ships = 0
            for k, routed in army["units"]:
                counts[h, k] += 1
                domain = self.domain.get(k)
                if domain == "land" and kind != "land":
                    bad.append(f"units: {h} land unit {k} in {area} ({kind})")
                elif domain == "sea":
                    ships += 1
                    if kind == "land":
                        bad.append(f"units: {h} ship in land area {area}")
                if routed and st.phase in ("planning", "westeros"):
                    bad.append(f"units: {h} {k} in {area} is still routed in the {st.phase} phase (R18.5)")
            if kind == "port" and ships > 3:
                bad.append(f"units: {ships} ships of {h} in port {area} (max 3, R24)")
            if area in st.blocked:
                bad.append(f"units: {h} units in blocked area {area}")
            if area in st.neutral_forces:
                bad.append(f"units: {h} units in {area} with its neutral force still there (R25)")
            owner = st.garrison_owner.get(area)
            if owner is not None and owner != h:
                bad.append(f"units: {h} units in {area} with {owner}'s garrison still there (R21.1)")
        for h in self.houses:
            for k, limit in self.limits[h].items():
                if counts[h, k] > limit:
                    bad.append(f"units: {h} has {counts[h, k]} {k} on the board > limit {limit}")
        for h, k in counts:
            if k not in self.limits.get(h, {}) and counts[h, k]:
                bad.append(f"units: {h} has {counts[h, k]} {k} but no limit for that kind")

        # orders (R13, R14.7): outside combat only (the marching army is off the board meanwhile)
        if not combat:
            per_house: dict[str, Counter] = {}
            for area, order in st.orders.items():
                here = st.house_in(area)
                if order["house"] != here:
                    bad.append(f"orders: {order['house']}'s {order['order']} in {area} where "
                               f"{'nobody' if here is None else here} has units")
                per_house.setdefault(order["house"], Counter())[order["order"]] += 1
            for h, used in per_house.items():
                over = used - self.tokens
                if over:
                    bad.append(f"orders: {h} has placed more tokens than it owns: {dict(over)}")
                if st.phase == "planning":
                    stars = sum(n for o, n in used.items() if self.star.get(o))
                    if stars > star_limit(g, h):
                        bad.append(f"orders: {h} has {stars} special orders > star limit {star_limit(g, h)}")
                    forbidden = [o for o in used if o in st.forbidden_orders]
                    if forbidden:
                        bad.append(f"orders: {h} placed forbidden orders {forbidden}")
        if st.phase == "westeros" and st.orders and not combat:
            bad.append(f"orders: {len(st.orders)} orders left on the board in the {st.phase} phase")

        # supply (R8): whenever no reconciliation is pending
        for h in self.houses:
            if not 0 <= st.houses[h].supply <= self.max_supply:
                bad.append(f"supply: {h} is at supply {st.houses[h].supply}, off the track")
        if decision_kind not in RECONCILING:
            for h in self.houses:
                if not g.fits_supply(h):
                    bad.append(f"supply: {h} armies {sorted(_armies(st, h), reverse=True)} exceed its limits "
                               f"{g.supply_limits(h)} (supply {st.houses[h].supply})")

        # house cards: hand + discards + removed are the house's cards, each once
        for h in self.houses:
            hs = st.houses[h]
            held = hs.hand + hs.discards + hs.removed
            if len(held) != HOUSE_CARDS or sorted(held) != self.cards[h]:
                bad.append(f"cards: {h} hand {sorted(hs.hand)} + discards {sorted(hs.discards)} + removed "
                           f"{sorted(hs.removed)} = {len(held)} cards, not its {HOUSE_CARDS} cards")

        # tracks and wildlings
        if list(st.tracks) != self.track_ids:
            bad.append(f"tracks: {list(st.tracks)} instead of {self.track_ids}")
        for track, order in st.tracks.items():
            if sorted(order) != sorted(self.houses) or len(order) != len(self.houses):
                bad.append(f"tracks: {track} is {order}, not a permutation of {self.houses}")
        if st.wildling_threat not in self.wildling_track or st.wildling_threat % 2:
            bad.append(f"wildlings: threat {st.wildling_threat} not on the track {sorted(self.wildling_track)}")
        return bad

    def check_end(self) -> list[str]:
        g, st = self.g, self.g.state
        bad = self.check()
        if not g.over:
            bad.append(f"end: the game is not over (phase {st.phase}) but asks nothing")
        if st.winner not in st.houses:
            bad.append(f"end: winner {st.winner!r} is not a house in play")
        if not st.end_reason:
            bad.append("end: no end reason")
        victories = [e for e in g.events if e["type"] == "victory"]
        if len(victories) != 1:
            bad.append(f"end: {len(victories)} victory events")
        for e in victories:
            if e["rule"] not in ("R26.1", "R26.3"):
                bad.append(f"end: the victory event cites {e['rule']}, not R26.1 or R26.3")
            if e.get("house") != st.winner:
                bad.append(f"end: the victory event names {e.get('house')}, the winner is {st.winner}")
            if e["rule"] == "R26.3" and st.round != g.game_rec["max_rounds"]:
                bad.append(f"end: R26.3 victory after round {st.round}, not the last round")
            if e["rule"] == "R26.1" and g.victory_points(st.winner) < g.game_rec["victory_points"]:
                bad.append(f"end: R26.1 victory with {g.victory_points(st.winner)} castles")
        if victories and g.events[-1] is not victories[-1]:
            bad.append(f"end: events after the victory: {g.events[-1]['type']} ({g.events[-1]['text']})")
        if st.round > g.game_rec["max_rounds"]:
            bad.append(f"end: round {st.round} > {g.game_rec['max_rounds']}")
        return bad


def _armies(st: GameState, house: str) -> list[int]:
    return [len(a["units"]) for a in st.units.values() if a["house"] == house and len(a["units"]) >= 2]


def play_checked(rules: Rules, setup: str, seed: int, kind: str) -> Game:
    """Play one complete game, checking every invariant at every decision and at the end."""
    g = Game(rules, setup, seed=seed)
    agents = agents_for(g.state.houses, kind, seed=seed)
    checker = Checker(g)
    where = f"setup {setup}, seed {seed}, {kind} agents"
    while g.decision is not None:
        d = g.decision
        bad = checker.check(d.kind)
        if bad:
            raise InvariantError(f"{where}, before decision #{d.number} ({d.kind} by {d.house}, rule {d.rule}, "
                                 f"round {g.state.round} {g.state.phase}; last event: {_last(g)}):\n  "
                                 + "\n  ".join(bad))
        g.answer(agents[d.house].act(g, d))
    bad = checker.check_end()
    if bad:
        raise InvariantError(f"{where}, at the end after {len(g.answers)} decisions (round {g.state.round}; "
                             f"last event: {_last(g)}):\n  " + "\n  ".join(bad))
    return g


def _last(g: Game) -> str:
    if not g.events:
        return "none"
    e = g.events[-1]
    return f"#{e['n']} {e['type']} {e['rule']}: {e['text']}"


def run_games(rules: Rules, setup: str, kind: str, seeds) -> None:
    """Play every seed; report every failing game (not only the first)."""
    failures = []
    for seed in seeds:
        try:
            play_checked(rules, setup, seed, kind)
        except InvariantError as e:
            failures.append(str(e))
        except Exception as e:  # an engine crash is a failure too: say which game
            failures.append(f"setup {setup}, seed {seed}, {kind} agents: the engine raised "
                            f"{type(e).__name__}: {e}")
    if failures:
        shown = "\n".join(failures[:5])
        more = f"\n... and {len(failures) - 5} more failing games" if len(failures) > 5 else ""
        pytest.fail(f"{len(failures)} of {len(list(seeds))} games broke an invariant:\n{shown}{more}",
                    pytrace=False)


def _split(total: int) -> int:
    return max(1, -(-total // (len(SETUPS) * len(KINDS))))


# ---- the tests --------------------------------------------------------------------------------------

@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("setup", SETUPS)
def test_invariants_hold_in_complete_games(rules, setup, kind):
    run_games(rules, setup, kind, range(_split(DEFAULT_GAMES)))


@pytest.mark.slow
@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("setup", SETUPS)
def test_invariants_hold_in_many_games(rules, setup, kind):
    n = _split(SLOW_GAMES)
    run_games(rules, setup, kind, range(SLOW_SEED_BASE, SLOW_SEED_BASE + n))


def test_the_checker_sees_a_broken_position(rules):
    """The checker is not vacuous: a few hand-made violations are all reported."""
    g = Game(rules, "base-4p", seed=1)
    checker = Checker(g)
    assert checker.check(g.decision.kind) == []
    st = g.state
    h = next(iter(st.houses))
    st.houses[h].power = -1
    st.tracks[g.turn_track] = st.tracks[g.turn_track][:-1]
    st.wildling_threat = 3
    st.houses[h].hand.pop()
    sea = next(a.id for a in g.board.areas if a.is_sea and a.id not in st.units)
    st.add_unit(sea, h, "footman")
    bad = " | ".join(checker.check(g.decision.kind))
    for what in ("power:", "tracks:", "wildlings:", "cards:", f"land unit footman in {sea}"):
        assert what in bad, (what, bad)


def test_same_seed_same_game_and_other_seed_other_game(rules):
    def play(seed, kind="random"):
        g = Game(rules, "base-5p", seed=seed)
        g.play(agents_for(g.state.houses, kind, seed=seed))
        return g

    for kind in KINDS:
        a, b = play(11, kind), play(11, kind)
        assert a.summary()["state_hash"] == b.summary()["state_hash"], f"base-5p seed 11 {kind}: hashes differ"
        assert a.events == b.events, f"base-5p seed 11 {kind}: event lists differ"
        assert a.answers == b.answers
        c = play(12, kind)
        assert c.summary()["state_hash"] != a.summary()["state_hash"], \
            f"base-5p {kind}: seeds 11 and 12 end in the same position"


def test_state_round_trips_through_json_during_a_game(rules):
    for setup in ("base-3p", "base-6p"):
        g = Game(rules, setup, seed=5)
        agents = agents_for(g.state.houses, "random", seed=5)
        points = 0
        while g.decision is not None:
            if g.decision.number % 97 == 0:
                again = GameState.from_json(json.loads(json.dumps(g.state.to_json())))
                assert again == g.state, f"setup {setup}, seed 5, decision #{g.decision.number}: JSON round trip"
                assert again.hash() == g.state.hash()
                points += 1
            g.answer(agents[g.decision.house].act(g, g.decision))
        assert GameState.from_json(json.loads(json.dumps(g.state.to_json()))) == g.state
        assert points >= 3


@pytest.mark.parametrize("setup", SETUPS)
def test_a_game_replays_from_its_answers(rules, setup):
    g = Game(rules, setup, seed=23)
    g.play(agents_for(g.state.houses, "random", seed=23))
    g2 = Game(rules, setup, seed=23)
    for i, answer in enumerate(g.answers):
        assert g2.decision is not None, f"setup {setup}, seed 23: the replay stops asking at decision #{i}"
        g2.answer(answer)
    assert g2.decision is None and g2.over, f"setup {setup}, seed 23: the replay is not over"
    assert g2.state.hash() == g.state.hash(), f"setup {setup}, seed 23: replayed hash differs"
    assert g2.events == g.events, f"setup {setup}, seed 23: replayed events differ"
    assert g2.summary() == g.summary()
