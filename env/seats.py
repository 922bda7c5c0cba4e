"""Seats: which agent plays which house of a game. Agents are dealt player houses only, never vassals.

- A house named in `--agents HOUSE=KIND` plays in every game. In a setup that draws its player houses
  (Mother of Dragons with fewer players than houses, R31.1), the named houses are made players and the other
  players are drawn by the game's seed (`players_for`); naming more houses than there are players, or a house
  of another setup, is an error.
- A *seat* is an index into the game's player houses, sorted: `seat 0` is the first player house of that game;
  in a game whose rules set draws the seats' houses (`assign-houses`), an index into the drawn seats instead
  (`seat 0` plays the house the first seat drew).
  A tournament rotates the tested agent over the seats (`tournament_specs`): with P players, game i of a pair
  replays the deal of seed `seed + i // P` with the agent in seat `i % P`, so every deal is played from every
  seat and no house's strength favours an agent (a multiple of P games rotates it exactly evenly).
"""

from __future__ import annotations

import random
from collections.abc import Iterable

from maester.dsl.diagnostics import Diagnostics, MaesterError
from maester.interpreter.core.rules import Rules


def always_players(rules: Rules, setup: str) -> list[str]:
    """Houses that are players in every game of the setup (all of them when there are no vassals)."""
    rec = rules.setup(setup)
    houses = list(rec["houses"])
    if rec["players"] >= len(houses):
        return sorted(houses)
    return sorted(h for h in houses if rules.house(h).get("never_vassal"))


def draws_players(rules: Rules, setup: str) -> bool:
    rec = rules.setup(setup)
    return rec["players"] < len(rec["houses"])


def check_named(rules: Rules, setup: str, named: Iterable[str], diags: Diagnostics) -> None:
    """Named houses must be houses of the setup that can all be players at once."""
    rec = rules.setup(setup)
    houses = sorted(rec["houses"])
    named = list(dict.fromkeys(named))
    for h in named:
        if h not in houses:
            diags.error("unknown-house", f"'{h}' is not a house of setup '{setup}'", None,
                        "houses: " + ", ".join(houses))
    fixed = always_players(rules, setup)
    must = sorted((set(named) & set(houses)) | set(fixed))
    if len(must) > rec["players"]:
        diags.error("too-many-houses", f"setup '{setup}' has {rec['players']} player houses, but {len(must)} must "
                    f"play: {', '.join(must)}" + (f" ({', '.join(fixed)} always play)" if fixed and draws_players(
                        rules, setup) else ""), None, "name fewer houses (the others are vassals, who never decide)")


def players_for(rules: Rules, setup: str, seed: int, named: Iterable[str]) -> list[str] | None:
    """The player houses of a game whose named houses must play: None (the seed's own draw) when nothing is
    named or the setup has no vassals; else the named and always-playing houses plus the rest drawn from the
    seed (a generator of its own, so the choice is reproducible)."""
    named = sorted(set(named))
    if not named or not draws_players(rules, setup):
        return None
    rec = rules.setup(setup)
    chosen = sorted(set(named) | set(always_players(rules, setup)))
    pool = sorted(h for h in rec["houses"] if h not in chosen)
    chosen += random.Random(seed).sample(pool, rec["players"] - len(chosen))
    return chosen


def deal(players: list[str], named: dict[str, str], seats: dict[int, str], default: str,
         drawn: list[str] | None = None) -> dict[str, str]:
    """Agent kind by player house: named houses first, then seats (indices into the sorted players, or into the
    seats' houses when the game drew them, `drawn`: seat 0 plays the house the first seat drew), else
    `default`."""
    players = list(drawn) if drawn else sorted(players)
    kinds = {h: default for h in players}
    for k, kind in seats.items():
        kinds[players[int(k) % len(players)]] = kind
    for h, kind in named.items():
        if h in kinds:
            kinds[h] = kind
    return kinds


def fail(code: str, message: str, hint: str | None = None) -> MaesterError:
    diags = Diagnostics()
    diags.error(code, message, None, hint)
    return MaesterError(diags)
