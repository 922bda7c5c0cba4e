"""`maester tournament`: agents against each other, win rates with Wilson 95% intervals.

For every pair (A, B) of the agents given, N games are played in which A holds one seat and B all the others;
A rotates over the seats (player houses only, never vassals), each deal played from every seat (the rules are
in `maester.env.tournament`). With P players, an agent as strong as the others wins 1/P of its games; A beats B
*significantly* when the lower end of A's 95% interval lies above 1/P (and loses to it when the upper end lies
below). A's results seat by seat (the house it held) follow the table."""

from __future__ import annotations

from itertools import combinations
from typing import Annotated

import typer

from maester.dsl.limits import MAX_DATA_INTEGER
from maester.tools.cli_support import Run, command
from maester.tools.simulate_cmd import MAX_GAMES


def register(app: typer.Typer) -> None:
    @app.command()
    @command("tournament")
    def tournament(
        run: Run,
        agents: Annotated[str, typer.Option("--agents", "-a", help="Comma-separated agent kinds to pit against "
                                            "each other (built in, or module:factory).")] = "search,heuristic,random",
        games: Annotated[int, typer.Option("--games", "-n", min=1, max=MAX_GAMES, help="Games per pair.")] = 60,
        setup: Annotated[str, typer.Option("--setup", help="A setup id of the bundle.")] = "base-3p",
        variant: Annotated[str | None, typer.Option("--variant", help="A content variant.")] = None,
        rounds: Annotated[int | None, typer.Option("--rounds", min=1, help="End games after this round.")] = 3,
        seed: Annotated[int, typer.Option("--seed", "-s", min=-MAX_DATA_INTEGER, max=MAX_DATA_INTEGER,
                                          help="Seed of the first game of each pair.")] = 1,
        workers: Annotated[int, typer.Option("--workers", "-w", min=0, help="Processes (or CPUs of the private "
                                             "Ray cluster of a large run); 0 or 1: in this process.")] = 2,
        backend: Annotated[str, typer.Option("--backend", help="auto (in this process for one worker, plain "
                                             "processes below 200 games, else a private Ray cluster), in-process, "
                                             "processes or ray.")] = "auto",
        address: Annotated[str | None, typer.Option("--address", help="Join this Ray cluster instead.")] = None,
        samples: Annotated[int, typer.Option("--search-samples", min=1, help="Search: determinizations per "
                                             "candidate answer.")] = 3,
        candidates: Annotated[int, typer.Option("--search-candidates", min=2, help="Search: answers searched "
                                                "per decision.")] = 4,
    ) -> None:
        """Play agents against each other and print win rates with 95% confidence intervals (Wilson)."""
        from rich.table import Table

        from maester.dsl.diagnostics import Diagnostics, MaesterError
        from maester.env.policy import BUILT_IN, check_kind, normalise
        from maester.env.simulate import choose_backend
        from maester.env.tournament import pair_specs, score, verdict
        from maester.tools.simulate_cmd import _fail, check_rounds, check_setup, need_sim, run_with_progress

        named = [k.strip() for k in agents.split(",") if "=" in k]
        if named:  # a tournament seats its agents itself: a house named here would be a seat it cannot keep fair
            from maester.env.seats import player_houses_note

            rules = check_setup(setup, variant)
            raise _fail("house-named", f"tournament agents are kinds, not houses: '{named[0]}' names a house, but "
                        "a tournament deals each agent its seats itself (player houses only, every deal played "
                        "from every seat; vassals never decide); " + player_houses_note(rules, setup),
                        f"give kinds (e.g. --agents {named[0].split('=', 1)[1].strip() or 'search'},heuristic), or "
                        "play one house's agent with maester simulate --agents HOUSE=KIND (a house that plays in "
                        "every game)")
        kinds = [normalise(k.strip()) for k in agents.split(",") if k.strip()]
        if len(set(kinds)) < 2:
            raise _fail("bad-agents", f"tournament agents must be two or more of {', '.join(BUILT_IN)} or "
                        f"module:factory (got {agents!r})", "e.g. --agents search,heuristic,random")
        diags = Diagnostics()
        for k in dict.fromkeys(kinds):
            check_kind(k, diags)
        if diags.errors:
            raise MaesterError(diags)
        pairs = list(combinations(dict.fromkeys(kinds), 2))
        backend = choose_backend(games * len(pairs), workers, address, backend)
        need_sim("tournament", backend)
        rules = check_setup(setup, variant)
        check_rounds(rules, setup, rounds)
        players = rules.setup(setup)["players"]
        specs = []
        for a, b in pairs:
            specs += pair_specs(a, b, players, games, seed, setup, variant, rounds, samples, candidates,
                                start=len(specs))
        records = run_with_progress(specs, workers, address, "tournament", backend, show=not run.json)
        even = 1 / players
        table = Table(title=f"{setup}, {games} games per pair, rounds {rounds or 'all'}: the first agent holds "
                      f"one seat, the second the others (even share {even:.1%})")
        for col in ("agent", "against", "seats", "wins", "win rate", "95% interval", "verdict"):
            table.add_column(col, justify="right" if col in ("seats", "wins", "win rate") else "left")
        lines, results, seat_tables = [], [], []
        for k, (a, b) in enumerate(pairs):
            res = score(records[k * games:(k + 1) * games], a, players)
            wins, lo, hi = res["wins"], res["low"], res["high"]
            said = verdict(lo, hi, even, a, b)
            table.add_row(a, b, str(games), str(wins), f"{wins / games:.1%}", f"{lo:.1%} – {hi:.1%}", said)
            lines.append(f"{a} vs {b}: {a} wins {wins}/{games} = {wins / games:.1%} "
                         f"[{lo:.1%}, {hi:.1%}] against an even {even:.1%}: {said}")
            results.append({"agent": a, "against": b, "seats": games, "wins": wins, "rate": wins / games,
                            "low": lo, "high": hi, "verdict": said, "by_seat": res["seats"]})
            seats = Table(title=f"{a} against {b}, seat by seat (the house {a} held)")
            for col in ("seat", "games", "wins", "win rate", "95% interval"):
                seats.add_column(col, justify="left" if col == "seat" else "right")
            for house, s in res["seats"].items():
                seats.add_row(str(house), str(s["games"]), str(s["wins"]), f"{s['rate']:.1%}",
                              f"{s['low']:.1%} – {s['high']:.1%}")
            seat_tables.append(seats)
        run.result = {"setup": setup, "variant": variant, "games_per_pair": games, "rounds": rounds, "even": even,
                      "backend": backend, "pairs": results}
        run.say(table)
        for seats in seat_tables:
            run.say(seats)
        for line in lines:  # the same, one line per pair (for logs and narrow terminals)
            run.say(line, markup=False)
        run.finish()
