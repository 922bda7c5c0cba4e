"""Many games at once: game specs, one game played to a record, and a batch run on Ray.

A game is fully described by its `GameSpec` (setup, variant, seed, rounds, which agent plays which house),
and the agents' seeds are derived from the game's seed, so a spec always plays the same game wherever and
whenever it runs: results do not depend on the number of workers or on the order games finish in.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import asdict, dataclass, field

from maester.dsl.diagnostics import Diagnostics, MaesterError

from .policy import BUILT_IN as AGENT_KINDS  # noqa: F401 - the built-in kinds (module:factory: policy.py)


@dataclass(frozen=True)
class GameSpec:
    index: int  # position in the batch (results come back in this order)
    setup: str
    seed: int
    agents: dict[str, str] = field(default_factory=dict)  # house -> agent kind (it plays in every game)
    default: str = "random"
    variant: str | None = None
    rounds: int | None = None
    tides_of_battle: bool = False
    search_samples: int = 3
    search_candidates: int = 4
    seats: dict[int, str] = field(default_factory=dict)  # seat (index in the sorted player houses) -> kind


def _fail(code: str, message: str, hint: str | None = None) -> MaesterError:
    diags = Diagnostics()
    diags.error(code, message, None, hint)
    return MaesterError(diags)


def make_agent(kind: str, seed: int, spec: GameSpec, house: str = "", rules=None):
    from maester.interpreter.frontends.agents import HeuristicAgent, RandomAgent

    from .policy import PolicyAgent, PolicyContext, is_plugin

    if is_plugin(kind):
        from .actions import ActionTable
        from .observe import Encoder

        return PolicyAgent(kind, PolicyContext(house, seed, spec.setup, spec.variant, ActionTable(rules, spec.setup),
                                               Encoder(rules, spec.setup)))
    if kind == "random":
        return RandomAgent(seed)
    if kind == "heuristic":
        return HeuristicAgent(seed)
    if kind == "search":
        from .search import SearchAgent

        return SearchAgent(seed, samples=spec.search_samples, candidates=spec.search_candidates)
    if kind == "isearch":
        from .isearch import InfoSetSearchAgent

        return InfoSetSearchAgent(seed)
    raise AssertionError(f"unknown agent kind {kind!r}")  # specs are checked by `parse_agents`


def parse_agents(text: str, houses: Iterable[str] | None = None, rules=None,
                 setup: str | None = None) -> tuple[str, dict[str, str]]:
    """`heuristic` or `stark=search,lannister=random` (others: the plain kind given, else random). A kind is
    built in (`AGENT_KINDS`) or a plug-in `module:factory` (policy.py). With `rules` and `setup`, a named house
    must be a player house in every game of the setup (seats.py: never one the seed could make a vassal)."""
    from .policy import check_kind, normalise
    from .seats import check_named

    default, per = "random", {}
    diags = Diagnostics()
    for part in filter(None, (p.strip() for p in text.split(","))):
        if "=" in part:
            house, kind = (x.strip() for x in part.split("=", 1))
            per[house] = normalise(kind)
        else:
            default = normalise(part)
    if rules is not None and setup is not None:
        check_named(rules, setup, per, diags)
    elif houses is not None:
        houses = list(houses)
        for house in per:
            if house not in houses:
                diags.error("unknown-house", f"'{house}' is not a house of this setup", None,
                            "houses: " + ", ".join(houses))
    for kind in dict.fromkeys([default, *per.values()]):
        check_kind(kind, diags)
    if diags.errors:
        raise MaesterError(diags)
    return default, per


def play_game(spec: GameSpec) -> dict:
    """Play one game to its end; the record a results table holds."""
    from .position import make_game, player_houses, rules_for
    from .seats import deal

    rules = rules_for(spec.variant)
    # the seed draws the player houses; named houses play in every game of the setup (seats.check_named)
    game = make_game(rules, spec.setup, spec.seed, spec.rounds, spec.tides_of_battle)
    from maester.interpreter.effects.pregame import seats, seats_drawn

    houses = sorted(game.state.houses)
    players = player_houses(game)  # agents are dealt player houses only: vassals never decide
    drawn = seats(game) if seats_drawn(game) else None  # a rules set that drew the seats' houses (assign-houses)
    kinds = deal(players, spec.agents, spec.seats, spec.default, drawn)
    crew = {h: make_agent(kinds[h], spec.seed * 1009 + i, spec, h, rules)
            for i, h in enumerate(houses) if h in kinds}
    game.play(crew)
    st = game.state
    return {
        "index": spec.index, "setup": spec.setup, "variant": spec.variant, "seed": spec.seed,
        "winner": st.winner, "winner_agent": kinds.get(st.winner) if st.winner else None, "reason": st.end_reason,
        "rounds": st.round, "decisions": len(game.answers), "events": game.event_count,
        "combats": sum(1 for e in game.events if e["type"] == "combat"),
        "agents": {h: kinds[h] for h in players}, "castles": {h: game.victory_points(h) for h in players},
        "state_hash": st.hash(),
        **({"seats": drawn} if drawn else {}),  # the house of each seat, seat 1 first, when they were drawn
    }


def play_batch(specs: list[dict]) -> list[dict]:
    """Play the games of `GameSpec` fields given as dicts (what a Ray task or a spawned process receives)."""
    return [play_game(GameSpec(**s)) for s in specs]


# Below this many games a run on this machine uses plain processes: starting a Ray cluster (about 2-5 s)
# would cost more than it saves. `--address` always uses Ray (the cluster is already there).
RAY_MIN_GAMES = 200
BACKENDS = ("in-process", "processes", "ray")


def choose_backend(games: int, workers: int, address: str | None, wanted: str = "auto") -> str:
    """Where a run plays: in this process (one worker), plain processes (a small run: no cluster started),
    or Ray (a cluster given by `--address`, else a private local one for a large run); `wanted` overrides."""
    if wanted != "auto" and wanted not in BACKENDS:
        raise _fail("bad-backend", f"unknown backend '{wanted}'", "use auto, " + ", ".join(BACKENDS))
    if address and wanted not in ("auto", "ray"):
        raise _fail("bad-backend", f"--address joins a Ray cluster: it cannot run on the backend '{wanted}'",
                    "leave out --backend, or --address")
    if address:
        return "ray"
    if wanted != "auto":
        return wanted
    if workers <= 1 or games <= 1:
        return "in-process"
    return "processes" if games < RAY_MIN_GAMES else "ray"


def batch_size(games: int, workers: int) -> int:
    """Games per task: few enough tasks that their overhead is small beside the games, enough that the
    workers finish together (about 4 tasks a worker)."""
    return max(1, games // max(1, workers * 4))


def run_games(specs: list[GameSpec], workers: int = 2, address: str | None = None,
              progress: Callable[[int], None] | None = None, batch: int | None = None,
              in_flight: int | None = None) -> list[dict]:
    """Play every spec on Ray: a private local cluster of `workers` CPUs (never a cluster that happens to run on
    the machine), or the cluster at `address` (or the one this process already joined). Records come back in
    spec order; `progress(n)` is called as games finish. `in_flight` caps the batches running at once (default:
    the cluster's CPUs)."""
    import ray

    started = False
    if not ray.is_initialized():
        env = {"env_vars": {"PYTHONHASHSEED": "0"}}
        if address:
            ray.init(address=address, runtime_env=env, log_to_driver=False)
        else:  # "local": a new cluster of our own, whatever RAY_ADDRESS or a running cluster says
            ray.init(address="local", num_cpus=workers, include_dashboard=False, log_to_driver=False,
                     runtime_env=env)
        started = True
    try:
        remote = ray.remote(num_cpus=1)(play_batch)
        limit = in_flight or max(1, int(ray.cluster_resources().get("CPU", workers)))
        size = batch or batch_size(len(specs), limit)
        chunks = [specs[i:i + size] for i in range(0, len(specs), size)][::-1]
        pending: dict = {}
        records: list[dict] = []
        while chunks or pending:
            while chunks and len(pending) < limit:
                chunk = chunks.pop()
                pending[remote.remote([asdict(s) for s in chunk])] = len(chunk)
            done, _ = ray.wait(list(pending), num_returns=1)
            for ref in done:
                records.extend(ray.get(ref))
                n = pending.pop(ref)
                if progress:
                    progress(n)
        return sorted(records, key=lambda r: r["index"])
    finally:
        if started:
            ray.shutdown()


def run_processes(specs: list[GameSpec], workers: int, progress: Callable[[int], None] | None = None) -> list[dict]:
    """The same games on `workers` plain processes (forked from this one: no cluster, no second compile)."""
    import multiprocessing as mp
    from concurrent.futures import ProcessPoolExecutor, as_completed

    size = batch_size(len(specs), workers)
    chunks = [[asdict(s) for s in specs[i:i + size]] for i in range(0, len(specs), size)]
    records: list[dict] = []
    with ProcessPoolExecutor(max_workers=min(workers, len(chunks)), mp_context=mp.get_context("fork")) as pool:
        for done in as_completed([pool.submit(play_batch, c) for c in chunks]):
            got = done.result()
            records.extend(got)
            if progress:
                progress(len(got))
    return sorted(records, key=lambda r: r["index"])


def run_local(specs: list[GameSpec], progress: Callable[[int], None] | None = None) -> list[dict]:
    """The same games in this process (no Ray): for comparisons and tiny runs."""
    out = []
    for s in specs:
        out.append(play_game(s))
        if progress:
            progress(1)
    return out


def run(specs: list[GameSpec], backend: str, workers: int, address: str | None = None,
        progress: Callable[[int], None] | None = None) -> list[dict]:
    """Play the specs on the backend `choose_backend` chose; the records are the same on every backend."""
    if backend == "in-process":
        return run_local(specs, progress)
    if backend == "processes":
        return run_processes(specs, workers, progress)
    return run_games(specs, workers=workers, address=address, progress=progress)
