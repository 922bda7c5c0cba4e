"""maester simulate (on a real local Ray cluster), maester tournament, the search agent and its determinizations."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

pytest.importorskip("ray")

from maester.env.position import make_game, rules_for  # noqa: E402
from maester.env.search import SearchAgent, determinize  # noqa: E402
from maester.env.stats import wilson  # noqa: E402
from maester.interpreter.core.rng import Rng  # noqa: E402
from maester.interpreter.frontends.agents import HeuristicAgent  # noqa: E402
from maester.tools.cli import app  # noqa: E402

runner = CliRunner()


def test_wilson_interval_known_values():
    lo, hi = wilson(20, 30)
    assert round(lo, 3) == 0.488 and round(hi, 3) == 0.808
    assert wilson(0, 10)[0] == 0.0 and round(wilson(0, 10)[1], 3) == 0.278


SIM_ARGS = ["simulate", "-n", "4", "--rounds", "1", "--seed", "11", "--agents", "heuristic,stark=random", "--json"]


def _simulate(tmp_path, name: str, *extra: str) -> list[dict]:
    """The games of SIM_ARGS played on a backend: its JSON result checked, its records returned."""
    r = runner.invoke(app, [*SIM_ARGS, *extra, "-o", str(tmp_path / name)])
    doc = json.loads(r.stdout)
    assert r.exit_code == 0 and doc["ok"], doc["diagnostics"]
    assert doc["result"]["games"] == 4 and (tmp_path / name / "summary.png").read_bytes()[:4] == b"\x89PNG"
    return doc["result"]["backend"], json.loads((tmp_path / name / "games.json").read_text())


def test_small_runs_start_no_cluster_and_play_the_games_of_one_process(tmp_path):
    from maester.env.simulate import RAY_MIN_GAMES, choose_backend

    assert choose_backend(4, 2, None) == "processes" and choose_backend(4, 1, None) == "in-process"
    assert choose_backend(RAY_MIN_GAMES, 2, None) == "ray" and choose_backend(4, 2, "127.0.0.1:6379") == "ray"
    backend, local = _simulate(tmp_path, "local", "--workers", "0", "--format", "csv")
    assert backend == "in-process"
    backend, forked = _simulate(tmp_path, "processes", "--workers", "2")
    assert backend == "processes" and forked == local
    assert [g["seed"] for g in local] == [11, 12, 13, 14]
    assert all(g["agents"]["stark"] == "random" and g["agents"]["lannister"] == "heuristic" for g in local)
    assert all(g["rounds"] == 1 and g["winner"] in g["agents"] and g["decisions"] > 0 for g in local)
    import pyarrow.parquet as pq

    table = pq.read_table(tmp_path / "processes" / "games.parquet")
    assert table.num_rows == 4 and table.column("seed").to_pylist() == [11, 12, 13, 14]
    assert (tmp_path / "local" / "games.csv").read_text().startswith("index,setup,")
    human = runner.invoke(app, [*SIM_ARGS[:-1], "--workers", "0", "-o", str(tmp_path / "human")])
    assert "win rate by house" in human.stdout and "win rate by agent" in human.stdout


def _free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def ray_head(tmp_path_factory):
    """A real Ray cluster started by `ray start --head` on 127.0.0.1 and stopped at the end (only this one: the
    `--block` process ends the processes it started when it is terminated)."""
    import os
    import subprocess
    import sys
    import time

    port = _free_port()
    log = tmp_path_factory.mktemp("ray") / "head.log"
    env = {**os.environ, "RAY_AUTH_MODE": "disabled"}  # a test cluster: no token to hand to the client
    with log.open("w") as out:
        head = subprocess.Popen([sys.executable, "-c", "from ray.scripts.scripts import main; main()", "start",
                                 "--head", f"--port={port}", "--node-ip-address=127.0.0.1", "--num-cpus=1",
                                 "--include-dashboard=false", "--disable-usage-stats", "--block"],
                                stdout=out, stderr=subprocess.STDOUT, env=env)
    try:
        deadline = time.monotonic() + 120
        while "block forever" not in log.read_text() and head.poll() is None and time.monotonic() < deadline:
            time.sleep(0.5)
        assert head.poll() is None and "block forever" in log.read_text(), log.read_text()[-2000:]
        yield f"127.0.0.1:{port}"
    finally:
        head.terminate()
        head.wait(timeout=60)


@pytest.mark.xdist_group("ray-head")  # one worker starts the cluster, its tests share it
def test_address_joins_a_running_cluster(tmp_path, ray_head, monkeypatch):
    monkeypatch.setenv("RAY_AUTH_MODE", "disabled")
    backend, joined = _simulate(tmp_path, "joined", "--address", ray_head)
    _, local = _simulate(tmp_path, "local", "--workers", "0")
    assert backend == "ray" and joined == local


@pytest.mark.xdist_group("ray-head")
def test_without_address_a_private_cluster_is_started_beside_a_running_one(tmp_path, ray_head, monkeypatch):
    """A cluster already running on the machine is not joined (it made simulate crash): a private one is started."""
    monkeypatch.setenv("RAY_AUTH_MODE", "disabled")
    backend, private = _simulate(tmp_path, "private", "--backend", "ray", "--workers", "2")
    _, local = _simulate(tmp_path, "local", "--workers", "0")
    assert backend == "ray" and private == local


def test_without_the_sim_extra_one_error_names_the_install_command(tmp_path):
    """`tqdm`, `ray` and `pyarrow` made unimportable (as on an install without the extra): no traceback."""
    import subprocess
    import sys

    blocked = "import sys; [sys.modules.__setitem__(m, None) for m in ('tqdm', 'ray', 'pyarrow')]; "
    for args in (["simulate", "-n", "2", "-o", str(tmp_path)], ["tournament", "--agents", "random,heuristic"]):
        for json_flag in ([], ["--json"]):
            r = subprocess.run([sys.executable, "-c", blocked + "from maester.tools.cli import main; sys.argv = "
                                f"['maester', *{args + json_flag!r}]; main()"], capture_output=True, text=True,
                               timeout=120)
            assert r.returncode == 1 and "Traceback" not in r.stderr + r.stdout, r.stderr
            said = json.loads(r.stdout)["diagnostics"][0] if json_flag else {"message": r.stderr, "hint": r.stderr}
            assert "the 'sim' extra" in said["message"] and "pip install -e '.[sim]'" in said["hint"], said
    assert not list(tmp_path.iterdir())


def test_simulate_refuses_bad_input_readably(tmp_path):
    r = runner.invoke(app, ["simulate", "--setup", "nowhere", "--workers", "0", "-o", str(tmp_path)])
    assert r.exit_code == 1 and "unknown setup 'nowhere'" in r.output and "Traceback" not in r.output
    r = runner.invoke(app, ["simulate", "--agents", "clever", "--workers", "0", "-o", str(tmp_path)])
    assert r.exit_code == 1 and "unknown agent kind 'clever'" in r.output
    r = runner.invoke(app, ["simulate", "--variant", "targaryen-b", "--workers", "0", "-o", str(tmp_path)])
    assert r.exit_code == 1 and "variant 'targaryen-b' is for the rules set 'mother-of-dragons'" in r.output
    assert not (tmp_path / "games.json").exists()


def test_tournament_prints_rates_intervals_and_verdicts():
    r = runner.invoke(app, ["tournament", "--agents", "heuristic,random", "--games", "6", "--rounds", "1",
                            "--workers", "0"])
    assert r.exit_code == 0, r.output
    assert "heuristic" in r.output and "random" in r.output and "95% interval" in r.output
    assert any(v in r.output for v in ("heuristic beats random", "no significant difference", "random beats heuristic"))
    bad = runner.invoke(app, ["tournament", "--agents", "search", "--workers", "0"])
    assert bad.exit_code == 1 and "two or more" in bad.output


def test_determinization_redraws_others_hidden_orders_and_keeps_mine():
    game = make_game(rules_for(None), "base-3p", 5, rounds=2)
    agents = {h: HeuristicAgent(i) for i, h in enumerate(sorted(game.state.houses))}
    first = game.decision.house
    while game.decision.house == first:
        game.answer(agents[first].act(game, game.decision))
    me = game.decision.house
    truth = {a: o["order"] for a, o in game.state.orders.items()}
    redrawn = set()
    for k in range(8):
        d = determinize(game, me, Rng(type("H", (), {"rng": 1000 + k})()))
        assert d.decision.house == me and d.decision.kind == "place-order"
        assert set(d.state.orders) == set(truth)  # the same areas hold face-down orders
        redrawn |= {a for a, o in d.state.orders.items() if o["order"] != truth[a]}
        assert d.state.decks != game.state.decks or not any(game.state.decks.values())
    assert redrawn  # the first house's face-down orders are not what the searcher sees
    assert game.state.orders and {a: o["order"] for a, o in game.state.orders.items()} == truth  # untouched


def test_search_agent_answers_legally_and_deterministically():
    game = make_game(rules_for(None), "base-3p", 3, rounds=1)
    d = game.decision
    a = SearchAgent(7, samples=1, candidates=2).act(game, d)
    b = SearchAgent(7, samples=1, candidates=2).act(game, d)
    assert a == b and d.is_legal(a)


def test_tournament_deals_player_houses_only_rotating_every_deal_over_every_seat():
    """mod-4p-with-targaryen has 8 houses, 4 of them players: the tested agent plays in every game, one seat
    each, and each deal is played from each of its 4 seats (issue 25: it used to sit out as a vassal)."""
    from maester.env.simulate import run_local
    from maester.env.tournament import held, pair_specs, score

    specs = pair_specs("heuristic", "random", 4, 8, 3, "mod-4p-with-targaryen", None, 1, 1, 2)
    records = run_local(specs)
    assert [r["seed"] for r in records] == [3, 3, 3, 3, 4, 4, 4, 4]
    for block in (records[:4], records[4:]):
        players = sorted(block[0]["agents"])
        assert len(players) == 4 and all(sorted(r["agents"]) == players for r in block)
        assert sorted(held(r, "heuristic") for r in block) == players  # every seat once
        assert all(list(r["agents"].values()).count("heuristic") == 1 for r in block)
    res = score(records, "heuristic", 4)
    assert res["games"] == 8 and sum(s["games"] for s in res["seats"].values()) == 8
    assert res["wins"] == sum(s["wins"] for s in res["seats"].values())


def test_simulate_named_house_always_plays_and_bad_names_are_errors(tmp_path):
    """Targaryen is never a vassal (R31.1): it may be named, and the players are the seed's own draw."""
    from maester.env.position import player_houses

    r = runner.invoke(app, ["simulate", "-n", "3", "--rounds", "1", "--setup", "mod-4p-with-targaryen",
                            "--agents", "random,targaryen=heuristic", "--workers", "0", "-o", str(tmp_path)])
    assert r.exit_code == 0, r.output
    games = json.loads((tmp_path / "games.json").read_text())
    for g in games:
        assert g["agents"]["targaryen"] == "heuristic" and len(g["agents"]) == 4
        drawn = player_houses(make_game(rules_for(None), "mod-4p-with-targaryen", g["seed"], 1))
        assert sorted(g["agents"]) == drawn  # naming an agent does not change who plays
    r = runner.invoke(app, ["simulate", "--agents", "heuristic,dorne=search", "--workers", "0", "-o",
                            str(tmp_path / "x")])
    assert r.exit_code == 1 and "'dorne' is not a house of setup 'base-3p'" in r.output
    assert "Traceback" not in r.output


@pytest.mark.parametrize("setup, fixed", [("mod-4p-with-targaryen", "targaryen"), ("mod-3p", None)])
def test_simulate_refuses_an_agent_named_for_a_house_the_seed_may_make_a_vassal(tmp_path, setup, fixed):
    """Issue 25: in a setup that draws its players, a house that can be a vassal never decides in some games; an
    agent named for it is one error (which house, why, the houses that always play, a hint), with --json too."""
    out = tmp_path / "out"
    r = runner.invoke(app, ["simulate", "-n", "2", "--rounds", "1", "--setup", setup, "--agents",
                            "random,stark=heuristic", "--workers", "0", "-o", str(out)])
    assert r.exit_code == 1 and "Traceback" not in r.output, r.output
    assert f"'stark' is not a player house in every game of setup '{setup}'" in r.output
    assert "the seed may make it a vassal" in r.output and "[vassal-house]" in r.output
    assert (f"only {fixed} plays in every game" if fixed else "no house plays in every game") in r.output
    assert "maester tournament" in r.output and not out.exists()
    r = runner.invoke(app, ["simulate", "-n", "2", "--setup", setup, "--agents", "stark=heuristic,arryn=search",
                            "--workers", "0", "-o", str(out), "--json"])
    doc = json.loads(r.output)
    assert r.exit_code == 1 and doc["ok"] is False and doc["exit_code"] == 1
    assert [(d["code"], d["message"].split(":")[0]) for d in doc["diagnostics"]] == [
        ("vassal-house", "--agents names 'stark', but 'stark' is not a player house in every game of setup "
                         f"'{setup}'"),
        ("vassal-house", "--agents names 'arryn', but 'arryn' is not a player house in every game of setup "
                         f"'{setup}'")]
    assert all("tournament" in d["hint"] for d in doc["diagnostics"]) and not out.exists()


def test_tournament_refuses_a_house_named_in_its_agents():
    """A tournament seats its agents itself: `stark=search` is one clear error naming the houses that always play."""
    for extra in ([], ["--json"]):
        r = runner.invoke(app, ["tournament", "--setup", "mod-4p-with-targaryen", "--agents", "stark=search,heuristic",
                                "--games", "4", "--workers", "0", *extra])
        assert r.exit_code == 1 and "Traceback" not in r.output, r.output
        text = json.loads(r.output)["diagnostics"][0]["message"] if extra else r.output
        assert "'stark=search' names a house" in text and "only targaryen plays in every game" in text


def test_isearch_answers_legally_and_its_benchmark_runs():
    import importlib.util
    from pathlib import Path

    from maester.env.isearch import InfoSetSearchAgent

    game = make_game(rules_for(None), "base-3p", 3, rounds=1)
    d = game.decision
    a, b = InfoSetSearchAgent(7, samples=1, candidates=2).act(game, d), InfoSetSearchAgent(7, samples=1,
                                                                                           candidates=2).act(game, d)
    assert a == b and d.is_legal(a)
    path = Path(__file__).resolve().parents[1] / "benchmarks" / "bench_isearch.py"
    spec = importlib.util.spec_from_file_location("bench_isearch", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    out = mod.main(["--games", "1", "--setup", "base-3p", "--rounds", "1"])
    assert out["games"] == 1 and out["cpu_all"]["decisions"] > 0
    assert out["cpu_searched"]["decisions"] <= out["cpu_all"]["decisions"]


@pytest.mark.parametrize("command", [["simulate", "-n", "2"], ["tournament", "-n", "1", "-a", "heuristic,random"]])
def test_a_run_longer_than_the_game_or_too_many_games_is_refused(command, tmp_path, monkeypatch):
    """Found by the command-line campaign (seed 301): `simulate -n 2 --rounds 99999999999999999999` played on past
    the last round until the million-decision safety net, its workers filling 11 GB; a count of games of that
    size would have filled the memory with the run's list of games. `--rounds` only shortens a game (R26.2)."""
    monkeypatch.chdir(tmp_path)
    r = runner.invoke(app, [*command, "--rounds", "99999999999999999999", "--json"])
    doc = json.loads(r.stdout)
    assert r.exit_code == 1 and doc["diagnostics"][0]["code"] == "bad-rounds"
    assert "--rounds 99999999999999999999 is past the last round of the rules set 'base' (10)" in \
        doc["diagnostics"][0]["message"]
    r = runner.invoke(app, [command[0], "-n", "99999999999999999999"])
    assert r.exit_code == 2 and "1000000" in r.output and "--games" in r.output
    assert not any(tmp_path.iterdir())  # nothing written


def test_seeds_outside_the_results_table_are_refused_before_any_game(tmp_path):
    """Found by a hostile campaign: `simulate --seed 2**63` played its games and then stopped with an internal
    error (exit 3) writing the parquet table; simulate, tournament and serve took seeds of any size."""
    out = tmp_path / "sim"
    r = runner.invoke(app, ["simulate", "-n", "2", "--rounds", "1", "--seed", str(2**63 - 1), "-o", str(out), "--json"])
    diag = json.loads(r.stdout)["diagnostics"][0]
    assert (r.exit_code, diag["code"]) == (1, "bad-seed") and not out.exists()
    for command in (["tournament", "-a", "random,heuristic", "-n", "1"], ["serve", "--new", "base-3p"]):
        r = runner.invoke(app, [*command, "--seed", str(2**64), "--json"])
        assert r.exit_code == 2 and "less than or equal to 18446744073709551615" in r.stdout
