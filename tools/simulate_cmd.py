"""`maester simulate`: N games of a setup with given agents on Ray; results as Parquet/CSV + JSON, a summary
table and a PNG plot. Game i has seed `--seed + i`, so the same command gives the same games whatever the
number of workers."""

from __future__ import annotations

import csv
import json
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.table import Table

from maester.dsl.diagnostics import Diagnostics, MaesterError

out = Console()
err = Console(stderr=True, highlight=False)
COLUMNS = ("index", "setup", "variant", "seed", "winner", "winner_agent", "reason", "rounds", "decisions", "events",
           "combats", "state_hash", "agents", "castles")


def _fail(code: str, message: str, hint: str | None = None) -> MaesterError:
    diags = Diagnostics()
    diags.error(code, message, None, hint)
    return MaesterError(diags)


def check_setup(setup: str, variant: str | None):
    from maester.env.position import rules_for

    rules = rules_for(variant)
    if setup not in rules.bundle["setups"]:
        raise _fail("unknown-setup", f"unknown setup '{setup}'", "setups: " + ", ".join(sorted(rules.bundle["setups"])))
    if variant:  # a variant changes one rules set; on another it would silently do nothing (as `maester play`)
        wanted, playing = rules.bundle["variants"][variant]["game"], rules.setup(setup)["game"]
        if wanted != playing:
            raise _fail("variant-mismatch", f"variant '{variant}' is for the rules set '{wanted}', but setup "
                        f"'{setup}' plays '{playing}'", "choose a setup of that rules set")
    return rules


def run_with_progress(specs, workers: int, address: str | None, label: str) -> list[dict]:
    """Run the specs on Ray (`workers` 0: in this process) with a progress bar on stderr."""
    from tqdm import tqdm

    from maester.env.simulate import run_games, run_local

    with tqdm(total=len(specs), desc=label, unit="game", file=err.file, disable=None) as bar:
        if workers == 0 and not address:
            return run_local(specs, bar.update)
        return run_games(specs, workers=workers, address=address, progress=bar.update)


def write_results(records: list[dict], out_dir: Path, fmt: str) -> list[Path]:
    """Per-game records: one table (Parquet or CSV; nested fields as JSON text) and the full JSON."""
    out_dir.mkdir(parents=True, exist_ok=True)
    rows = [{c: json.dumps(r[c], sort_keys=True) if isinstance(r[c], dict) else r[c] for c in COLUMNS} for r in records]
    written = []
    if fmt == "parquet":
        import pyarrow as pa
        import pyarrow.parquet as pq

        path = out_dir / "games.parquet"
        pq.write_table(pa.Table.from_pylist(rows), path)
    else:
        path = out_dir / "games.csv"
        with path.open("w", newline="", encoding="utf-8") as f:
            w = csv.DictWriter(f, fieldnames=COLUMNS)
            w.writeheader()
            w.writerows(rows)
    written.append(path)
    path = out_dir / "games.json"
    path.write_text(json.dumps(records, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    written.append(path)
    return written


def summary_tables(records: list[dict]) -> list[Table]:
    from maester.env.stats import lengths, win_rates

    tables = []
    for by in ("house", "agent"):
        t = Table(title=f"win rate by {by} (95% Wilson interval)")
        t.add_column(by.capitalize(), style="bold")
        for col in ("seats", "wins", "win rate", "95% interval"):
            t.add_column(col, justify="right")
        for key, r in win_rates(records, by).items():
            t.add_row(key, str(r["seats"]), str(r["wins"]), f"{r['rate']:.1%}", f"{r['low']:.1%} – {r['high']:.1%}")
        tables.append(t)
    ln = lengths(records)
    t = Table(title="game length")
    for col in ("games", "mean rounds", "mean decisions", "mean combats"):
        t.add_column(col, justify="right")
    t.add_row(str(ln["games"]), f"{ln['mean_rounds']:.2f}", f"{ln['mean_decisions']:.1f}", f"{ln['mean_combats']:.2f}")
    tables.append(t)
    return tables


def plot(records: list[dict], path: Path) -> Path:
    """Win rate by house with its interval, and the distribution of game lengths in decisions."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from maester.env.stats import win_rates

    rates = win_rates(records, "house")
    fig, (a, b) = plt.subplots(1, 2, figsize=(10, 4))
    keys = list(rates)
    vals = [rates[k]["rate"] for k in keys]
    errs = [[max(0.0, rates[k]["rate"] - rates[k]["low"]) for k in keys],
            [max(0.0, rates[k]["high"] - rates[k]["rate"]) for k in keys]]
    a.bar(keys, vals, yerr=errs, capsize=4, color="#4a6fa5")
    a.set_ylabel("win rate")
    a.set_title("win rate by house (95% interval)")
    a.tick_params(axis="x", rotation=30)
    b.hist([r["decisions"] for r in records], bins=min(20, max(1, len(records))), color="#a56f4a")
    b.set_xlabel("decisions per game")
    b.set_title(f"game length ({len(records)} games)")
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)
    return path


def register(app: typer.Typer) -> None:
    @app.command()
    def simulate(
        games: Annotated[int, typer.Option("--games", "-n", min=1, help="How many games.")] = 100,
        setup: Annotated[str, typer.Option("--setup", help="A setup id of the bundle.")] = "base-3p",
        variant: Annotated[str | None, typer.Option("--variant", help="A content variant.")] = None,
        agents: Annotated[str, typer.Option("--agents", "-a", help="random, heuristic, search, "
                                            "isearch, module:factory, or per house: 'stark=search'.")] = "heuristic",
        seed: Annotated[int, typer.Option("--seed", "-s", help="Seed of the first game (game i: seed + i).")] = 1,
        rounds: Annotated[int | None, typer.Option("--rounds", min=1, help="End games after this round.")] = None,
        workers: Annotated[int, typer.Option("--workers", "-w", min=0, help="CPUs of the local Ray cluster "
                                             "(0: no Ray, in this process).")] = 2,
        address: Annotated[str | None, typer.Option("--address", help="Join this Ray cluster instead "
                                                    "(e.g. 'auto' or 'ray://host:10001').")] = None,
        out_dir: Annotated[Path, typer.Option("--out", "-o", help="Folder for the results.")] = Path("simulation"),
        fmt: Annotated[str, typer.Option("--format", help="parquet or csv.")] = "parquet",
    ) -> None:
        """Play N games on Ray; write per-game results, a summary and a plot."""
        from maester.env.simulate import GameSpec, parse_agents
        from maester.tools.cli_support import friendly, need_folder

        @friendly
        def run() -> None:
            if fmt not in ("parquet", "csv"):
                raise _fail("bad-format", f"unknown format '{fmt}'", "use parquet or csv")
            need_folder(out_dir, "the results")  # before the games, not after them
            rules = check_setup(setup, variant)
            default, per = parse_agents(agents, rules=rules, setup=setup)
            specs = [GameSpec(i, setup, seed + i, per, default, variant, rounds) for i in range(games)]
            records = run_with_progress(specs, workers, address, "simulate")
            for t in summary_tables(records):
                out.print(t)
            written = write_results(records, out_dir, fmt)
            written.append(plot(records, out_dir / "summary.png"))
            err.print("wrote " + ", ".join(str(p) for p in written))

        run()
