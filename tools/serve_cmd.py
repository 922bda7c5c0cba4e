"""`maester serve`: play in the browser. Each human house gets a link; agents play the other houses."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from maester.dsl.limits import MAX_DATA_INTEGER
from maester.tools.cli_support import Run, command

DEFAULT_DB = Path("maester-games.sqlite")


def _houses(text: str | None) -> list[str]:
    return [h.strip() for h in (text or "").split(",") if h.strip()]


def _agent_kinds(text: str) -> tuple[str, dict[str, str]]:
    from maester.dsl.diagnostics import Diagnostics, MaesterError
    from maester.tools.serve import AGENTS

    default, per = "heuristic", {}
    for part in _houses(text):
        house, _, kind = part.rpartition("=")
        if house:
            per[house] = kind
        else:
            default = kind
    for kind in [default, *per.values()]:
        if kind not in AGENTS:
            diags = Diagnostics()
            diags.error("unknown-agent", f"--agents: unknown agent kind '{kind}'", None,
                        "use " + " or ".join(AGENTS) + " (the people are named with --human)")
            raise MaesterError(diags)
    return default, per


def register(app: typer.Typer) -> None:
    @app.command()
    @command("serve")
    def serve(
        run: Run,
        db: Annotated[Path, typer.Option("--db", help="The SQLite file that keeps the games (created if "
                                         "missing; a restart resumes every game in it).")] = DEFAULT_DB,
        new: Annotated[str | None, typer.Option("--new", help="Start a game of this setup (e.g. base-3p, "
                                                "mod-8p, or a variant's or pack's setup) and print its links.")] = None,
        human: Annotated[str | None, typer.Option("--human", help="With --new: the houses people play, "
                                                  "comma-separated (each gets its own link); a number names a "
                                                  "seat: the house it drew (assign-houses) or the setup's "
                                                  "Nth.")] = None,
        agents: Annotated[str, typer.Option("--agents", help="With --new: the agent for the other houses "
                                            "(heuristic or random; per house: 'baratheon=random').")] = "heuristic",
        seed: Annotated[int, typer.Option("--seed", "-s", min=-MAX_DATA_INTEGER, max=MAX_DATA_INTEGER,
                                          help="With --new: the game's seed.")] = 1,
        variant: Annotated[str | None, typer.Option("--variant", help="With --new: a content variant.")] = None,
        pack: Annotated[list[Path] | None, typer.Option("--pack", help="A content pack added to the bundled "
                                                        "content; repeatable.", show_default=False)] = None,
        tides: Annotated[bool, typer.Option("--tides-of-battle", help="With --new: Tides of Battle.")] = False,
        host: Annotated[str, typer.Option("--host", help="Where to listen (0.0.0.0: the local network).")]
        = "127.0.0.1",
        port: Annotated[int, typer.Option("--port", min=1, max=65535, help="The port.")] = 8000,
    ) -> None:
        """Serve games in the browser: each human house gets its own link, agents play the rest; the games are
        kept in --db, so stopping and starting the server loses nothing."""
        try:
            import uvicorn

            from maester.tools.serve import Hub, make_app
            from maester.tools.serve_store import Store
        except ImportError as e:
            from maester.dsl.diagnostics import Diagnostics, MaesterError

            diags = Diagnostics()
            diags.error("no-server", f"maester serve needs its web server: {e}", None,
                        "pip install 'maester[serve]'")
            raise MaesterError(diags) from None
        store = Store(db)
        hub = Hub(store, pack)
        base = f"http://{'127.0.0.1' if host in ('0.0.0.0', '::') else host}:{port}"
        links: dict[str, str] = {}
        if new:
            default, per = _agent_kinds(agents)
            gid, tokens = hub.new(new, _houses(human), seed=seed, variant=variant, agents=per,
                                  default_agent=default, tides=tides)
            links = {h: f"{base}/play/{t}" for h, t in tokens.items()}
            print(f"game {gid} ({new}, seed {seed}): the seats of its people", flush=True)
            for h, url in links.items():
                print(f"  {h}: {url}", flush=True)
        print(f"maester serve: {len(store.games())} game(s) in {db}; the list at {base}/", flush=True)
        run.result = {"db": str(db), "links": links}
        uvicorn.run(make_app(hub), host=host, port=port, log_level="warning")
        run.finish()
