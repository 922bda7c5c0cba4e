"""The cost of interpreting card effects: bundle abilities run by the effect interpreter vs the same
effects written directly in Python.

For each sampled house card, a realistic combat is built by hand on the base board (units in the
embattled area, an attacking army off the board, support orders, played cards, a winner), then two
functions are timed against the *same* Combat/Game objects:

  (a) interpreted: what combat._abilities does for one card and one timing window — build the Scope
      with the same variables, call effects.run_ability on the compiled ability JSON of the bundle,
      and exhaust the generator (none of the sampled abilities asks a decision);
  (b) direct: a hand-written Python function doing the same thing with the Combat/Game API
      (e.g. Tywin: `if c.winner == you: g.gain_power(you, 2, ...)`).

Before timing, both are run once from the same position and their results (strength/sword/fortification
modifiers, overridden unit and card strengths, power, events) must be identical and non-empty, so both
sides really do the same work. Every timed call is preceded by the same cheap reset of what the effects
change; that reset (plus the call of a no-op) is timed in the same rounds and subtracted. Rounds
interleave A, B and the baseline, alternating their order, and the median round is reported. The garbage
collector is off while timing, as in `timeit` (`--keep-gc` leaves it on).

    python benchmarks/bench_effects.py                       # 20000 calls per card and side
    python benchmarks/bench_effects.py --iterations 100000 --rounds 40 --cards tywin-lannister
"""

from __future__ import annotations

import argparse
import gc
import math
import platform
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass

from maester.interpreter.core.rules import Rules
from maester.interpreter.effects import run_ability
from maester.interpreter.procedures.combat import Combat
from maester.interpreter.procedures.combat import _scope as combat_scope
from maester.interpreter.procedures.game import Game

SETUP = "base-6p"
# the land battle: an army marches from Stoney Sept into Riverrun (a stronghold); support may come from
# Lannisport and The Golden Sound (one side) and Harrenhal and Ironman's Bay (the other side)
LAND = {"area": "riverrun", "origin": "stoney-sept", "support": [("lannisport", "land"), ("the-golden-sound", "sea")],
        "other_support": [("harrenhal", "land"), ("ironmans-bay", "sea")]}
# the sea battle: ships sail from the Sunset Sea into The Golden Sound; support from Ironman's Bay or the
# Port of Lannisport (whose land area, Lannisport, the supporter holds)
SEA = {"area": "the-golden-sound", "origin": "sunset-sea", "support": [("ironmans-bay", "sea")],
       "other_support": [("port-of-lannisport", "port")]}


# ---- the same effects, written directly ------------------------------------------------------------

def tywin_lannister(g: Game, c: Combat, you: str) -> None:
    if c.winner == you:
        # the event names the card and its statement, as every event of a card ability does
        g.origin = ("tywin-lannister", g.rules.card("tywin-lannister")["abilities"][0]["body"][0]["at"])
        g.gain_power(you, 2, "R20.2.4", "tywin-lannister")
        g.origin = None


def catelyn_stark(g: Game, c: Combat, you: str) -> None:
    if c.defender == you and g.has_order(c.area, "defense", you):
        c.add(you, "strength", g.order_value(c.area))


def stannis_baratheon(g: Game, c: Combat, you: str) -> None:
    st = g.state
    if st.position(c.opponent(you), "iron-throne") < st.position(you, "iron-throne"):
        c.add(you, "strength", 1)


def ser_davos_seaworth(g: Game, c: Combat, you: str) -> None:
    if "stannis-baratheon" in g.state.houses[you].discards:
        c.add(you, "strength", 1)
        c.add(you, "swords", 1)


def salladhor_saan(g: Game, c: Combat, you: str) -> None:
    if c.supporters_of(g, you):
        for h in g.turn_order:
            if h != you:
                for ref in c.units_of(g, h, "ship", "all"):
                    c.unit_override[ref] = 0


def asha_greyjoy(g: Game, c: Combat, you: str) -> None:
    if not c.supporters_of(g, you):
        c.add(you, "swords", 2)
        c.add(you, "fortifications", 1)


def nymeria_sand(g: Game, c: Combat, you: str) -> None:
    if c.attacker == you:
        c.add(you, "swords", 1)
    if c.defender == you:
        c.add(you, "fortifications", 1)


def theon_greyjoy(g: Game, c: Combat, you: str) -> None:
    if c.defender == you and (g.has_icon(c.area, "castle") or g.has_icon(c.area, "stronghold")):
        c.add(you, "strength", 1)
        c.add(you, "swords", 1)


def ser_kevan_lannister(g: Game, c: Combat, you: str) -> None:
    if c.attacker == you:
        for ref in c.units_of(g, you, "footman", "all"):
            c.unit_override[ref] = 2


def victarion_greyjoy(g: Game, c: Combat, you: str) -> None:
    if c.attacker == you:
        for ref in c.units_of(g, you, "ship", "all"):
            c.unit_override[ref] = 2


def balon_greyjoy(g: Game, c: Combat, you: str) -> None:
    c.printed_override[c.cards.get(c.opponent(you))] = 0


@dataclass(frozen=True)
class Case:
    card: str
    direct: Callable[[Game, Combat, str], None]
    role: str  # "attacker" | "defender": the card's house in the combat
    sea: bool = False  # a sea battle (ships) instead of a land battle
    supported: bool = False  # the card's house gets support
    opponent_supported: bool = False
    opponent_first: bool = False  # the opponent is above the card's house on the Iron Throne track
    in_discards: tuple[str, ...] = ()  # cards of the card's house put in its discard pile


CASES = [
    Case("tywin-lannister", tywin_lannister, "attacker"),
    Case("catelyn-stark", catelyn_stark, "defender"),
    Case("stannis-baratheon", stannis_baratheon, "attacker", opponent_first=True),
    Case("ser-davos-seaworth", ser_davos_seaworth, "attacker", in_discards=("stannis-baratheon",)),
    Case("salladhor-saan", salladhor_saan, "defender", sea=True, supported=True, opponent_supported=True),
    Case("asha-greyjoy", asha_greyjoy, "attacker", opponent_supported=True),
    Case("nymeria-sand", nymeria_sand, "attacker", supported=True),
    Case("theon-greyjoy", theon_greyjoy, "defender"),
    Case("ser-kevan-lannister", ser_kevan_lannister, "attacker", supported=True, opponent_supported=True),
    Case("victarion-greyjoy", victarion_greyjoy, "attacker", sea=True, supported=True),
    Case("balon-greyjoy", balon_greyjoy, "defender", opponent_supported=True),
]


# ---- the combat ---------------------------------------------------------------------------------------

@dataclass
class Bench:
    g: Game
    c: Combat
    you: str
    card: str
    window: str
    interpreted: Callable[[], None]
    direct: Callable[[], None]
    reset: Callable[[], None]
    snapshot: Callable[[], tuple]


def build(rules: Rules, case: Case) -> Bench:
    """A base-6p game whose board is replaced by one combat around the card's house."""
    g = Game(rules, SETUP, seed=1)
    st = g.state
    you = rules.card(case.card)["house"]
    opp = "stark" if you != "stark" else "lannister"
    st.units, st.orders, st.power_tokens = {}, {}, {}
    where = SEA if case.sea else LAND
    area, origin = where["area"], where["origin"]
    for a, b in [(area, origin)] + [(area, s) for s, _ in where["support"] + where["other_support"]]:
        if not g.board.are_adjacent(a, b):
            raise SystemExit(f"bench scenario: {a} and {b} are not adjacent on the {g.board.id} board")
    attacker, defender = (you, opp) if case.role == "attacker" else (opp, you)
    fleet = ["ship", "ship"]
    for kind in (fleet if case.sea else ["footman", "knight"]):
        st.add_unit(area, defender, kind)
    if not case.sea:
        st.orders[area] = {"house": defender, "order": "defense-plus-one"}
    attacking = [[k, False] for k in (fleet if case.sea else ["footman", "footman", "knight"])]
    st.orders[origin] = {"house": attacker, "order": "march"}
    c = Combat(attacker, defender, area, origin, attacking, 0)
    sides = {you: "attacker" if you == attacker else "defender", opp: "attacker" if opp == attacker else "defender"}
    for house, supported, spots in ((you, case.supported, where["support"]),
                                    (opp, case.opponent_supported, where["other_support"])):
        if not supported:
            continue
        for spot, kind in spots:
            if kind == "port":
                st.add_unit(g.board.area(spot).port_of, house, "footman")  # holds the port's land area
            for unit in (["footman", "footman"] if kind == "land" else ["ship", "ship"]):
                st.add_unit(spot, house, unit)
            st.orders[spot] = {"house": house, "order": "support"}
            c.support[spot] = sides[house]
    if case.opponent_first:
        g.move_on_track(opp, "iron-throne", 0, "bench")
        g.move_on_track(you, "iron-throne", None, "bench")
    hs = st.houses[you]
    for card in case.in_discards:
        hs.hand.remove(card)
        hs.discards.append(card)
    if case.card not in hs.hand:
        raise SystemExit(f"bench scenario: {case.card} is not in {you}'s hand")
    c.cards = {you: case.card, opp: sorted(st.houses[opp].hand)[0]}
    c.final = {h: c.total(g, h) for h in c.sides()}
    c.winner, c.loser = you, opp  # after winner determination (only Tywin's ability looks at it)
    abilities = rules.card(case.card)["abilities"]
    if len({a["trigger"] for a in abilities}) != 1:
        raise SystemExit(f"bench scenario: {case.card} has abilities in several timing windows")
    window = abilities[0]["trigger"]

    # what the effects may change, and how to put it back
    n_events = len(g.events)
    power = {h: hs_.power for h, hs_ in st.houses.items()}

    def reset() -> None:
        c.mods.clear()
        c.unit_override.clear()
        c.printed_override.clear()
        for h, p in power.items():
            st.houses[h].power = p
        del g.events[n_events:]

    def snapshot() -> tuple:
        return (repr(c.mods), sorted(c.unit_override.items()), sorted(c.printed_override.items(), key=str),
                sorted((h, x.power) for h, x in st.houses.items()), [dict(e) for e in g.events[n_events:]])

    def interpreted() -> None:  # combat._abilities for one card and one window (minus the `fired` set)
        card = c.cards.get(you)
        for ability in g.rules.card(card)["abilities"]:
            if ability["trigger"] != window:
                continue
            sc = combat_scope(c, you, card, window)  # the scope combat._abilities gives an ability
            for decision in run_ability(g, ability, sc):
                raise RuntimeError(f"{card} asked a decision: {decision}")

    direct_fn = case.direct

    def direct() -> None:
        direct_fn(g, c, you)

    return Bench(g, c, you, case.card, window, interpreted, direct, reset, snapshot)


def verify(b: Bench) -> None:
    """Both sides change exactly the same things, and change something."""
    b.reset()
    before = b.snapshot()
    b.interpreted()
    a = b.snapshot()
    b.reset()
    b.direct()
    d = b.snapshot()
    b.reset()
    if a != d:
        raise SystemExit(f"{b.card}: the interpreted and the direct effect differ:\n"
                         f"  interpreted {a}\n  direct      {d}")
    if a == before:
        raise SystemExit(f"{b.card}: the effect changed nothing in this scenario (its condition does not hold)")


def _noop() -> None:
    pass


def _time(fn: Callable[[], None], reset: Callable[[], None], k: int) -> float:
    t0 = time.perf_counter()
    for _ in range(k):
        reset()
        fn()
    return time.perf_counter() - t0


def measure(b: Bench, iterations: int, rounds: int, keep_gc: bool = False) -> tuple[float, float]:
    """Median per-call seconds of (interpreted, direct), the reset + no-op baseline subtracted.

    The garbage collector is off while timing (as `timeit` does) unless `keep_gc`.
    """
    rounds = max(1, min(rounds, iterations))
    k = max(1, iterations // rounds)
    per_a, per_d = [], []
    gc_was_on = gc.isenabled()
    if not keep_gc:
        gc.collect()
        gc.disable()
    try:
        for r in range(rounds):
            order = [("a", b.interpreted), ("d", b.direct), ("0", _noop)]
            if r % 2:
                order.reverse()
            t = {name: _time(fn, b.reset, k) for name, fn in order}
            per_a.append((t["a"] - t["0"]) / k)
            per_d.append((t["d"] - t["0"]) / k)
    finally:
        if gc_was_on:
            gc.enable()
    b.reset()
    return statistics.median(per_a), statistics.median(per_d)


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--iterations", type=int, default=20000, help="timed calls per card and side (default 20000)")
    p.add_argument("--rounds", type=int, default=20, help="interleaved A/B rounds (default 20)")
    p.add_argument("--cards", nargs="*", default=None, help="card ids (default: all sampled cards)")
    p.add_argument("--keep-gc", action="store_true", help="leave the garbage collector on while timing")
    return p.parse_args(argv)


def main(argv: list[str] | None = None, rules: Rules | None = None) -> dict:
    args = parse_args(argv)
    cases = CASES
    if args.cards:
        known = {case.card: case for case in CASES}
        unknown = [x for x in args.cards if x not in known]
        if unknown:
            raise SystemExit(f"no benchmark for {', '.join(unknown)}; known: {', '.join(known)}")
        cases = [known[x] for x in args.cards]
    if rules is None:
        rules = Rules.default()
    print(f"maester effect interpreter vs direct Python — Python {platform.python_version()} on "
          f"{platform.machine()}, {args.iterations} calls per side in {min(args.rounds, args.iterations)} "
          f"interleaved rounds (median round, reset baseline subtracted, gc {'on' if args.keep_gc else 'off'})")
    print(f"  {'card':22} {'window':27} {'interpreted':>12} {'direct':>10} {'ratio':>7}")
    results = {}
    for case in cases:
        b = build(rules, case)
        verify(b)
        a, d = measure(b, args.iterations, args.rounds, args.keep_gc)
        ratio = a / d if d > 0 else math.inf
        results[case.card] = {"window": b.window, "interpreted_us": a * 1e6, "direct_us": d * 1e6, "ratio": ratio}
        print(f"  {case.card:22} {b.window:27} {a * 1e6:10.2f}µs {d * 1e6:8.2f}µs {ratio:6.1f}x")
    finite = [r["ratio"] for r in results.values() if 0 < r["ratio"] < math.inf]
    geo = math.exp(statistics.fmean(math.log(x) for x in finite)) if finite else math.nan
    print(f"  geometric mean ratio interpreted/direct: {geo:.1f}x over {len(finite)} cards")
    return {"cards": results, "geometric_mean_ratio": geo}


if __name__ == "__main__":
    main(sys.argv[1:])
