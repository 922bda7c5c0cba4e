"""The yardstick: a hand-written Python loop doing the board work of a game, against the engine, per decision.

    python benchmarks/bench_loop.py                           # base-6p, 20 games per side, 5 paired rounds
    python benchmarks/bench_loop.py --setup base-4p --games 40 --rounds 7

The loop is plain Python over plain dicts, written for speed, with no events, no effects, no frames, no
checkpoints and no validation: what a game costs when nothing but the board work is done. It reads the board
(areas, adjacency, castles, supply icons, homes), the setup's starting units and the supply table from the
bundle, and plays `ROUNDS` rounds of random choices:

- every other round, supply is counted (barrels in controlled land areas) and each house musters in its
  castle and stronghold areas (a footman or a knight, or nothing: one decision per area), within its supply;
- each house places an order in every area holding its units (one decision per area, from march, defense,
  support, raid and consolidate power);
- raids remove an adjacent enemy order (one decision: which, or none);
- marches, one per house in turn order until none is left: each unit chooses a destination among the adjacent
  land areas it may enter within the supply limits, or stays (one decision per unit); entering an enemy area
  is a combat: units' strength, the march order's bonus, adjacent support orders, and one house card a side
  (one decision each, from the cards left in hand); the loser retreats to an adjacent free area of its own
  (one decision) or is destroyed; control and victory (7 castles) are checked after each march;
- consolidate power gives power.

Both loops count their decisions (a choice among two or more options), and each paired round times both on the
same seeds in CPU time (alternating order); the report gives µs per decision and the ratio engine/loop (the
median of the rounds and the lowest and highest). The two do not play the same games: the loop is a simplified
game, so the ratio compares the cost of a decision, not of a game.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time

try:  # the interpreter's layer folders (since 2026-12); older trees keep every module at the top
    from maester.interpreter.core.rules import Rules
    from maester.interpreter.frontends.agents import agents_for
except ImportError:  # (so the script also measures an older commit's engine)
    from maester.interpreter.agents import agents_for  # type: ignore[no-redef]
    from maester.interpreter.rules import Rules  # type: ignore[no-redef]
from maester.interpreter.mod import new_game

ROUNDS = 10
ORDERS = ("march", "defense", "support", "raid", "consolidate")
STRENGTH = {"footman": 1, "knight": 2, "siege-engine": 0, "ship": 1}
CARDS = (0, 1, 1, 2, 2, 3, 4)  # a hand of house card strengths
WIN = 7


class Board:
    """What the loop reads from the bundle, once."""

    def __init__(self, rules: Rules, setup_id: str):
        setup = rules.setup(setup_id)
        board = rules.board(setup["board"])
        game = rules.game(setup["game"])
        self.houses = [h for h in setup["influence"][game["turn_order_track"]] if h in setup["houses"]]
        lands = [a for a in board.areas if a.is_land]
        self.land = {a.id for a in lands}
        self.adjacent = {a.id: [n for n in board.neighbours(a.id) if n in self.land] for a in lands}
        self.castle = {a.id: (2 if a.castle == "stronghold" else 1) for a in lands if a.has_castle}
        self.barrels = {a.id: a.supply for a in lands}
        self.home = {a.id: a.home for a in lands if a.home in setup["houses"]}
        self.limits = {int(k): sorted(v, reverse=True) for k, v in
                       rules.table(game["supply_limits"])["rows"].items()}
        self.start = {h: [(p["area"], kind) for p in setup["starting_units"].get(h, [])
                          for kind, n in p["units"].items() for _ in range(n) if p["area"] in self.land]
                      for h in self.houses}


def play_loop(b: Board, seed: int) -> int:
    """One game of the loop; returns its decisions."""
    rng = random.Random(seed)
    decisions = 0

    def choose(options):
        nonlocal decisions
        if len(options) == 1:
            return options[0]
        decisions += 1
        return options[rng.randrange(len(options))]

    units: dict[str, list] = {}  # area -> [house, [kinds]]
    for h, placed in b.start.items():
        for area, kind in placed:
            units.setdefault(area, [h, []])[1].append(kind)
    tokens: dict[str, str] = {}  # area -> house (power tokens)
    supply = {h: 1 for h in b.houses}
    power = {h: 5 for h in b.houses}
    hands = {h: list(CARDS) for h in b.houses}

    def controller(area):
        army = units.get(area)
        if army:
            return army[0]
        return tokens.get(area) or b.home.get(area)

    def fits(house, extra):
        sizes = [len(a[1]) + extra.get(area, 0) for area, a in units.items() if a[0] == house]
        sizes += [n for area, n in extra.items() if area not in units]
        sizes = sorted([s for s in sizes if s >= 2], reverse=True)
        limits = b.limits[supply[house]]
        return len(sizes) <= len(limits) and all(s <= lim for s, lim in zip(sizes, limits, strict=False))

    def castles(house):
        return sum(1 for area in b.castle if controller(area) == house)

    for rnd in range(1, ROUNDS + 1):
        if rnd % 2 == 0:  # supply, then mustering
            for h in b.houses:
                barrels = sum(n for area, n in b.barrels.items() if controller(area) == h)
                supply[h] = min(6, barrels)
            for h in b.houses:
                for area in b.castle:
                    if controller(area) != h or (area in units and units[area][0] != h):
                        continue
                    if fits(h, {area: 1}):
                        pick = choose(["none", "footman", "knight"])
                        if pick != "none":
                            units.setdefault(area, [h, []])[1].append(pick)
        orders: dict[str, list] = {}  # area -> [house, order]
        for h in b.houses:
            for area in sorted(a for a, army in units.items() if army[0] == h):
                orders[area] = [h, choose(ORDERS)]
        for h in b.houses:  # raids
            for area in [a for a, o in orders.items() if o == [h, "raid"]]:
                targets = ["none"] + [n for n in b.adjacent[area] if n in orders and orders[n][0] != h]
                pick = choose(targets)
                del orders[area]
                if pick != "none":
                    del orders[pick]
        acted = True
        while acted:  # marches, one per house per pass
            acted = False
            for h in b.houses:
                mine = [a for a, o in orders.items() if o == [h, "march"]]
                if not mine:
                    continue
                acted = True
                origin = choose(mine)
                del orders[origin]
                army = units.get(origin)
                if not army or army[0] != h:
                    continue
                moves, target = {}, None
                for kind in list(army[1]):
                    options = ["stay"]
                    for dest in b.adjacent[origin]:
                        enemy = dest in units and units[dest][0] != h
                        if enemy and target not in (None, dest):
                            continue
                        extra = dict(moves)
                        extra[origin] = extra.get(origin, 0) - 1
                        extra[dest] = extra.get(dest, 0) + 1
                        if fits(h, extra):
                            options.append(dest)
                    dest = choose(options)
                    if dest != "stay":
                        moves[origin] = moves.get(origin, 0) - 1
                        moves[dest] = moves.get(dest, 0) + 1
                        army[1].remove(kind)
                        if dest in units and units[dest][0] != h:
                            target = dest
                            units.setdefault("@attack", [h, []])[1].append(kind)
                        else:
                            units.setdefault(dest, [h, []])[1].append(kind)
                if not army[1]:
                    del units[origin]
                    if power[h] and choose(["yes", "no"]) == "yes":
                        power[h] -= 1
                        tokens[origin] = h
                if target is not None:
                    attackers = units.pop("@attack")[1]
                    defender = units[target][0]
                    sides = {h: sum(STRENGTH[k] for k in attackers) + 1,
                             defender: sum(STRENGTH[k] for k in units[target][1])}
                    for area in b.adjacent[target]:
                        o = orders.get(area)
                        if o and o[1] == "support" and o[0] in sides and area in units:
                            sides[o[0]] += sum(STRENGTH[k] for k in units[area][1])
                    for side in sides:
                        card = choose(sorted(set(hands[side])))
                        hands[side].remove(card)
                        if not hands[side]:
                            hands[side] = list(CARDS)
                        sides[side] += card
                    if sides[h] > sides[defender]:
                        loser_units = units.pop(target)[1]
                        orders.pop(target, None)
                        units[target] = [h, attackers]
                        tokens.pop(target, None)
                        retreats = [a for a in b.adjacent[target] if a not in units or units[a][0] == defender]
                        back = choose(retreats or ["destroyed"])
                        if back != "destroyed":
                            units.setdefault(back, [defender, []])[1].extend(loser_units[:-1])
                            if not units[back][1]:
                                del units[back]
                    else:
                        units.setdefault(origin, [h, []])[1].extend(attackers[:-1])
                        if not units[origin][1]:
                            del units[origin]
                for house in b.houses:
                    if castles(house) >= WIN:
                        return decisions
        for area, (h, order) in orders.items():  # consolidate power
            if order == "consolidate" and area in units:
                power[h] += 1
    return decisions


def play_engine(rules: Rules, setup: str, seed: int) -> int:
    g = new_game(rules, setup, seed=seed)
    agents = agents_for(g.state.houses, "random", seed=seed)
    while g.decision is not None:
        g.answer(agents[g.decision.house].act(g, g.decision))
    return len(g.answers)


def parse_args(argv):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--setup", default="base-6p", help="setup id (default base-6p)")
    p.add_argument("--games", type=int, default=20, help="games per side and round (default 20)")
    p.add_argument("--rounds", type=int, default=5, help="paired rounds (default 5)")
    p.add_argument("--seed", type=int, default=0, help="first seed (default 0)")
    return p.parse_args(argv)


def _timed(fn, seeds) -> tuple[float, int]:
    t0, n = time.process_time(), 0
    for seed in seeds:
        n += fn(seed)
    return time.process_time() - t0, n


def main(argv=None, rules: Rules | None = None) -> dict:
    args = parse_args(argv)
    rules = rules or Rules.default()
    board = Board(rules, args.setup)
    seeds = range(args.seed, args.seed + args.games)
    play_loop(board, args.seed)
    play_engine(rules, args.setup, args.seed)  # warm both
    ratios, loop_us, engine_us = [], [], []
    for r in range(args.rounds):
        sides = [("loop", lambda s: play_loop(board, s)), ("engine", lambda s: play_engine(rules, args.setup, s))]
        got = {}
        for name, fn in (sides if r % 2 == 0 else sides[::-1]):
            seconds, n = _timed(fn, seeds)
            got[name] = 1e6 * seconds / n
        loop_us.append(got["loop"])
        engine_us.append(got["engine"])
        ratios.append(got["engine"] / got["loop"])
    # the opt-in compiled engine (MAESTER_COMPILED=1) names itself: the loop stays plain Python either way
    compiled = sum(len(f.loaded) for f in sys.meta_path if type(f).__name__ == "CompiledFinder")
    result = {"setup": args.setup, "compiled_modules": compiled, "loop_us_per_decision": statistics.median(loop_us),
              "engine_us_per_decision": statistics.median(engine_us), "ratio": statistics.median(ratios),
              "ratio_low": min(ratios), "ratio_high": max(ratios)}
    print(f"{args.games} random {args.setup} games per side, {args.rounds} paired rounds, CPU time per decision")
    print(f"  hand-written loop: {result['loop_us_per_decision']:7.1f} us/decision")
    print(f"  engine:            {result['engine_us_per_decision']:7.1f} us/decision   ratio "
          f"{result['ratio']:.1f}x ({min(ratios):.1f}-{max(ratios):.1f}x; goal of issue 23: <= 3.5x)"
          + (f"; compiled (MAESTER_COMPILED=1: {compiled} modules)" if compiled else ""))
    return result


if __name__ == "__main__":
    main(sys.argv[1:])
