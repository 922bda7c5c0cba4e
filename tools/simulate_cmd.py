"""`maester simulate`: N games of a setup with given agents; results as Parquet/CSV + JSON, a summary table and a
PNG plot. Game i has seed `--seed + i`, so the same command gives the same games whatever the number of workers
and wherever they play: in this process, in plain processes (a small run: no cluster is started), on a private
local Ray cluster (a large run), or on the Ray cluster given by `--address` (env/simulate.py chooses)."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path
from typing import Annotated

import typer

from maester.dsl.diagnostics import Diagnostics, MaesterError
from maester.dsl.files import write_file, write_files, write_folder
from maester.dsl.limits import MAX_DATA_INTEGER
from maester.tools.cli_support import Run, command, err

SEED_COLUMN_MAX = 2**63 - 1  # the seed column of the results (parquet int64)
COLUMNS = ("index", "setup", "variant", "seed", "winner", "winner_agent", "reason", "rounds", "decisions", "events",
           "combats", "state_hash", "agents", "castles")


SIM_EXTRA = "pip install -e '.[sim]'"  # the command that installs what simulations need


def _fail(code: str, message: str, hint: str | None = None) -> MaesterError:
    diags = Diagnostics()
    diags.error(code, message, None, hint)
    return MaesterError(diags)


def need_sim(command: str, backend: str, fmt: str | None = None) -> None:
    """The `sim` extra's modules this run needs, checked before any work: one error naming the install command."""
    import importlib

    wanted = ["tqdm"] + (["ray"] if backend == "ray" else []) + (["pyarrow"] if fmt == "parquet" else [])
    missing = []
    for name in wanted:
        try:
            importlib.import_module(name)
        except ImportError:
            missing.append(name)
    if missing:
        raise _fail("missing-extra", f"maester {command} needs {', '.join(missing)}, from the 'sim' extra, which is "
                    "not installed", f"install it: {SIM_EXTRA}")


MAX_GAMES = 1_000_000  # games in one run (a run's specs are a list: 10**20 of them filled the memory)


def check_rounds(rules, setup: str, rounds: int | None) -> None:
    """`--rounds` makes a game shorter (R26.2), never longer: a number past the rules set's last round played on
    until the decision safety net (a million decisions, gigabytes of events) and is refused."""
    game = rules.setup(setup)["game"]
    last = rules.game(game)["max_rounds"]
    if rounds is not None and rounds > last:
        raise _fail("bad-rounds", f"--rounds {rounds} is past the last round of the rules set '{game}' ({last})",
                    f"--rounds ends a game early: give 1 to {last}, or leave it out to play the whole game")


def check_setup(setup: str, variant: str | None):
    from maester.env.position import rules_for

    rules = rules_for(variant)
    if setup not in rules.bundle["setups"]:
        raise _fail("unknown-setup", f"unknown setup '{setup}'", "setups: " + ", ".join(sorted(rules.bundle["setups"])))
    if variant:  # a variant changes one rules set; on another it would silently do nothing (as `maester play`)
        from maester.interpreter.core.rules import variant_games

        wanted, playing = variant_games(rules.bundle["variants"][variant]), rules.setup(setup)["game"]
        if playing not in wanted:
            raise _fail("variant-mismatch", f"variant '{variant}' is for the rules set '{', '.join(wanted)}', but "
                        f"setup '{setup}' plays '{playing}'", "choose a setup of that rules set")
    return rules


def run_with_progress(specs, workers: int, address: str | None, label: str, backend: str,
                      show: bool = True) -> list[dict]:
    """Run the specs on `backend` (env/simulate.py) with a progress bar on stderr."""
    import tqdm as tqdm_module

    from maester.env.simulate import run

    tqdm_module.tqdm.monitor_interval = 0  # no monitor thread: plain processes are forked from this one
    with tqdm_module.tqdm(total=len(specs), desc=label, unit="game", file=err.file,
                          disable=None if show else True) as bar:
        return run(specs, backend, workers, address, bar.update)


def write_results(records: list[dict], out_dir: Path, fmt: str) -> list[Path]:
    """Per-game records: one table (Parquet or CSV; nested fields as JSON text) and the full JSON, both or neither
    (a folder this call creates is removed again when the write fails)."""
    rows = [{c: json.dumps(r[c], sort_keys=True) if isinstance(r[c], dict) else r[c] for c in COLUMNS} for r in records]
    if fmt == "parquet":
        import pyarrow as pa
        import pyarrow.parquet as pq

        buffer = io.BytesIO()
        pq.write_table(pa.Table.from_pylist(rows), buffer)
        table: tuple[str, str | bytes] = ("games.parquet", buffer.getvalue())
    else:
        text = io.StringIO(newline="")
        w = csv.DictWriter(text, fieldnames=COLUMNS)
        w.writeheader()
        w.writerows(rows)
        table = ("games.csv", text.getvalue())
    files = {table[0]: table[1], "games.json": json.dumps(records, indent=1, sort_keys=True) + "\n"}
    if out_dir.is_dir():
        write_files({out_dir / name: data for name, data in files.items()})  # whole or not at all (dsl/files.py)
    else:
        write_folder(out_dir, files)
    return [out_dir / name for name in files]


def summary_tables(records: list[dict]) -> list:
    from rich.table import Table

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
    buffer = io.BytesIO()
    fig.savefig(buffer, dpi=100, format="png")
    plt.close(fig)
    write_file(path, buffer.getvalue())
    return path


def register(app: typer.Typer) -> None:
    @app.command()
    @command("simulate")
    def simulate(
        run: Run,
        games: Annotated[int, typer.Option("--games", "-n", min=1, max=MAX_GAMES, help="How many games.")] = 100,
        setup: Annotated[str, typer.Option("--setup", help="A setup id of the bundle.")] = "base-3p",
        variant: Annotated[str | None, typer.Option("--variant", help="A content variant.")] = None,
        agents: Annotated[str, typer.Option("--agents", "-a", help="random, heuristic, search, "
                                            "isearch, module:factory, or per house: 'stark=search'.")] = "heuristic",
        seed: Annotated[int, typer.Option("--seed", "-s", min=-MAX_DATA_INTEGER, max=MAX_DATA_INTEGER,
                                          help="Seed of the first game (game i: seed + i).")] = 1,
        rounds: Annotated[int | None, typer.Option("--rounds", min=1, help="End games after this round.")] = None,
        workers: Annotated[int, typer.Option("--workers", "-w", min=0, help="Processes (or CPUs of the private "
                                             "Ray cluster of a large run); 0 or 1: in this process.")] = 2,
        backend: Annotated[str, typer.Option("--backend", help="auto (in this process for one worker, plain "
                                             "processes below 200 games, else a private Ray cluster), in-process, "
                                             "processes or ray.")] = "auto",
        address: Annotated[str | None, typer.Option("--address", help="Join this Ray cluster instead "
                                                    "(e.g. '127.0.0.1:6379' or 'ray://host:10001').")] = None,
        out_dir: Annotated[Path, typer.Option("--out", "-o", help="Folder for the results.")] = Path("simulation"),
        fmt: Annotated[str, typer.Option("--format", help="parquet or csv.")] = "parquet",
    ) -> None:
        """Play N games (in processes, or on Ray for large runs); write per-game results, a summary and a plot."""
        from maester.env.simulate import GameSpec, choose_backend, parse_agents
        from maester.env.stats import lengths, win_rates
        from maester.tools.cli_support import need_folder

        if fmt not in ("parquet", "csv"):
            raise _fail("bad-format", f"unknown format '{fmt}'", "use parquet or csv")
        if not -SEED_COLUMN_MAX <= seed <= SEED_COLUMN_MAX - (games - 1):
            # the results table keeps each game's seed in a 64-bit signed column (parquet int64): checked before
            # the games are played, not found when their results are written
            raise _fail("bad-seed", f"--seed {seed} with {games} game(s) gives seeds outside the results table's "
                        f"range (-{SEED_COLUMN_MAX} to {SEED_COLUMN_MAX})", "choose a smaller seed")
        backend = choose_backend(games, workers, address, backend)
        need_sim("simulate", backend, fmt)
        need_folder(out_dir, "the results")  # before the games, not after them
        rules = check_setup(setup, variant)
        check_rounds(rules, setup, rounds)
        default, per = parse_agents(agents, rules=rules, setup=setup)
        specs = [GameSpec(i, setup, seed + i, per, default, variant, rounds) for i in range(games)]
        records = run_with_progress(specs, workers, address, "simulate", backend, show=not run.json)
        for t in summary_tables(records):
            run.say(t)
        written = write_results(records, out_dir, fmt)
        written.append(plot(records, out_dir / "summary.png"))
        run.result = {"games": games, "setup": setup, "variant": variant, "backend": backend, "workers": workers,
                      "written": [str(p) for p in written], "win_rates": {by: win_rates(records, by)
                                                                         for by in ("house", "agent")},
                      "lengths": lengths(records)}
        run.note("wrote " + ", ".join(str(p) for p in written))
        run.finish()
