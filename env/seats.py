"""Seats: which agent plays which house of a game. Agents are dealt player houses only, never vassals.

- A house named in `--agents HOUSE=KIND` plays in every game, so it must be a player house in every game of the
  setup: in a setup that draws its player houses (Mother of Dragons with fewer players than houses, R31.1), a
  house the seed could make a vassal is refused (`check_named`: its agent would sit out the games where it is a
  vassal, or naming it would change who plays); only the houses that are never vassals (Targaryen) may be named
  there, and the players are the seed's own draw whatever is named. A house of another setup is an error too.
- A *seat* is an index into the game's player houses, sorted: `seat 0` is the first player house of that game;
  in a game whose rules set draws the seats' houses (`assign-houses`), an index into the drawn seats instead
  (`seat 0` plays the house the first seat drew).
  A tournament rotates the tested agent over the seats (`tournament_specs`): with P players, game i of a pair
  replays the deal of seed `seed + i // P` with the agent in seat `i % P`, so every deal is played from every
  seat and no house's strength favours an agent (a multiple of P games rotates it exactly evenly).
"""

from __future__ import annotations

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


def player_houses_note(rules: Rules, setup: str) -> str:
    """Which houses play in every game of the setup, in words (for errors and hints)."""
    rec = rules.setup(setup)
    fixed = always_players(rules, setup)
    if not draws_players(rules, setup):
        return f"every house of '{setup}' plays in every game: {', '.join(fixed)}"
    return (f"in '{setup}' each game's seed draws {rec['players']} player houses among "
            f"{', '.join(sorted(rec['houses']))}"
            + (f"; only {', '.join(fixed)} plays in every game" if fixed else "; no house plays in every game"))


def check_named(rules: Rules, setup: str, named: Iterable[str], diags: Diagnostics) -> None:
    """Named houses must be houses of the setup that are player houses in every game of it (never vassals)."""
    rec = rules.setup(setup)
    houses = sorted(rec["houses"])
    fixed = always_players(rules, setup)
    for h in dict.fromkeys(named):
        if h not in houses:
            diags.error("unknown-house", f"'{h}' is not a house of setup '{setup}'", None,
                        "houses: " + ", ".join(houses))
        elif h not in fixed:
            diags.error("vassal-house", f"--agents names '{h}', but '{h}' is not a player house in every game of "
                        f"setup '{setup}': the seed may make it a vassal, who never decides (R31.1); "
                        + player_houses_note(rules, setup), None,
                        "give one kind for every player house (e.g. --agents search), or rotate an agent over the "
                        "seats with maester tournament" + (f"; or name {' or '.join(fixed)}" if fixed else ""))


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
