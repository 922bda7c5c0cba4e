"""`maester tournament`: agents against each other, win rates with Wilson 95% intervals.

For every pair (A, B) of the agents given, N games are played in which A holds one seat (rotating over the
houses of the setup, so no house's strength favours A) and B all the others. With P players, an agent as
strong as the others wins 1/P of its seats; A beats B *significantly* when the lower end of A's 95%
interval lies above 1/P (and loses to it when the upper end lies below)."""

from __future__ import annotations

from itertools import combinations
from typing import Annotated

import typer

from maester.tools.cli_support import Run, command


def pair_specs(a: str, b: str, houses: list[str], games: int, seed: int, setup: str, variant, rounds,
               samples: int, candidates: int, start: int = 0):
    from maester.env.simulate import GameSpec

    specs = []
    for i in range(games):
        seat = houses[i % len(houses)]
        specs.append(GameSpec(start + i, setup, seed + i, {seat: a}, b, variant, rounds,
                              search_samples=samples, search_candidates=candidates))
    return specs


def verdict(low: float, high: float, even: float, a: str, b: str) -> str:
    if low > even:
        return f"{a} beats {b}"
    if high < even:
        return f"{b} beats {a}"
    return "no significant difference"


def register(app: typer.Typer) -> None:
    @app.command()
    @command("tournament")
    def tournament(
        run: Run,
        agents: Annotated[str, typer.Option("--agents", "-a", help="Comma-separated agent kinds to pit against "
                                            "each other.")] = "search,heuristic,random",
        games: Annotated[int, typer.Option("--games", "-n", min=1, help="Games per pair.")] = 60,
        setup: Annotated[str, typer.Option("--setup", help="A setup id of the bundle.")] = "base-3p",
        variant: Annotated[str | None, typer.Option("--variant", help="A content variant.")] = None,
        rounds: Annotated[int | None, typer.Option("--rounds", min=1, help="End games after this round.")] = 3,
        seed: Annotated[int, typer.Option("--seed", "-s", help="Seed of the first game of each pair.")] = 1,
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

        from maester.env.simulate import AGENT_KINDS, choose_backend
        from maester.env.stats import wilson
        from maester.tools.simulate_cmd import _fail, check_setup, need_sim, run_with_progress

        kinds = [k.strip() for k in agents.split(",") if k.strip()]
        bad = [k for k in kinds if k not in AGENT_KINDS]
        if bad or len(set(kinds)) < 2:
            raise _fail("bad-agents", f"tournament agents must be two or more of {', '.join(AGENT_KINDS)} "
                        f"(got {agents!r})", "e.g. --agents search,heuristic,random")
        pairs = list(combinations(dict.fromkeys(kinds), 2))
        backend = choose_backend(games * len(pairs), workers, address, backend)
        need_sim("tournament", backend)
        rules = check_setup(setup, variant)
        houses = sorted(rules.setup(setup)["houses"])
        players = rules.setup(setup)["players"]
        specs = []
        for a, b in pairs:
            specs += pair_specs(a, b, houses, games, seed, setup, variant, rounds, samples, candidates,
                                start=len(specs))
        records = run_with_progress(specs, workers, address, "tournament", backend, show=not run.json)
        even = 1 / players
        table = Table(title=f"{setup}, {games} games per pair, rounds {rounds or 'all'}: the first agent holds "
                      f"one seat, the second the others (even share {even:.1%})")
        for col in ("agent", "against", "seats", "wins", "win rate", "95% interval", "verdict"):
            table.add_column(col, justify="right" if col in ("seats", "wins", "win rate") else "left")
        lines, results = [], []
        for k, (a, b) in enumerate(pairs):
            chunk = records[k * games:(k + 1) * games]
            wins = sum(1 for r in chunk if r["winner_agent"] == a and r["agents"].get(r["winner"]) == a)
            lo, hi = wilson(wins, games)
            said = verdict(lo, hi, even, a, b)
            table.add_row(a, b, str(games), str(wins), f"{wins / games:.1%}", f"{lo:.1%} – {hi:.1%}", said)
            lines.append(f"{a} vs {b}: {a} wins {wins}/{games} = {wins / games:.1%} "
                         f"[{lo:.1%}, {hi:.1%}] against an even {even:.1%}: {said}")
            results.append({"agent": a, "against": b, "seats": games, "wins": wins, "rate": wins / games,
                            "low": lo, "high": hi, "verdict": said})
        run.result = {"setup": setup, "variant": variant, "games_per_pair": games, "rounds": rounds, "even": even,
                      "backend": backend, "pairs": results}
        run.say(table)
        for line in lines:  # the same, one line per pair (for logs and narrow terminals)
            run.say(line, markup=False)
        run.finish()
