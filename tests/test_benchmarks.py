"""Smoke test: both benchmark scripts run at a tiny size through their `main(argv)` (no timing assertions)."""

from __future__ import annotations

import importlib.util
import math
import sys
from pathlib import Path

import pytest

from maester.interpreter.core.rules import Rules

BENCHMARKS = Path(__file__).resolve().parents[1] / "benchmarks"


def load(name: str):
    if str(BENCHMARKS) not in sys.path:  # as when a benchmark runs as a script: its helpers (trees.py) import
        sys.path.insert(0, str(BENCHMARKS))
    path = BENCHMARKS / f"{name}.py"
    spec = importlib.util.spec_from_file_location(f"maester_bench_{name}", path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up while the class is built
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def rules() -> Rules:
    return Rules.default()


@pytest.mark.parametrize("agents", ["random", "heuristic"])
def test_bench_games_runs(rules, capsys, agents):
    result = load("bench_games").main(["--games", "2", "--agents", agents], rules=rules)
    out = capsys.readouterr().out
    assert "games/second" in out and "decisions/second" in out and "decisions/game" in out
    assert result["games"] == 2 and result["setup"] == "base-6p"
    assert result["mean_decisions"] > 0 and result["games_per_s"] > 0


def test_bench_games_other_setup(rules, capsys):
    result = load("bench_games").main(["--games", "1", "--setup", "base-3p", "--seed", "5"], rules=rules)
    assert result["setup"] == "base-3p" and "base-3p" in capsys.readouterr().out


def test_bench_effects_runs(rules, capsys):
    bench = load("bench_effects")
    result = bench.main(["--iterations", "50", "--rounds", "5"], rules=rules)
    out = capsys.readouterr().out
    assert "geometric mean" in out
    assert set(result["cards"]) == {case.card for case in bench.CASES} and len(result["cards"]) >= 10
    for card, r in result["cards"].items():
        assert r["interpreted_us"] == r["interpreted_us"] and r["direct_us"] == r["direct_us"], card  # not NaN
    assert not math.isnan(result["geometric_mean_ratio"])


def test_bench_effects_interpreted_and_direct_do_the_same_work(rules):
    """The equivalence check itself: every sampled card's two versions change the same things."""
    bench = load("bench_effects")
    for case in bench.CASES:
        b = bench.build(rules, case)
        bench.verify(b)  # raises SystemExit on a difference or on an effect that does nothing


def test_bench_effects_rejects_an_unknown_card(rules):
    with pytest.raises(SystemExit, match="no benchmark for nobody"):
        load("bench_effects").main(["--cards", "nobody"], rules=rules)


def test_bench_clone_runs(rules, capsys):
    result = load("bench_clone").main(["--setups", "base-3p", "--games", "1", "--every", "60", "--repeat", "1"],
                                      rules=rules)
    out = capsys.readouterr().out
    assert "clone/json" in out and "used/json" in out and "resume/json" in out and "clone/decision" in out
    row = result["base-3p"]
    assert row["positions"] > 0 and row["clone_us"] > 0 and math.isfinite(row["clone_ratio"])
    assert row["used_us"] > 0 and math.isfinite(row["used_ratio"])
    assert "resume+gc/json" in out and row["resume_gc_us"] > 0 and math.isfinite(row["resume_gc_ratio"])
    assert row["decisions"] > row["positions"] and math.isfinite(row["clone_decision_ratio"])


def test_bench_env_runs_with_the_release_beside_it(rules, capsys):
    pytest.importorskip("pettingzoo")
    result = load("bench_env").main(["--games", "1", "--repeats", "1"], rules=rules)
    out = capsys.readouterr().out
    assert "env.step" in out and "goal <= 1.3x" in out and result["decisions"] > 0
    assert result["step_ratio"] > 0 and result["observe_ratio"] > 0
    if "release" in result:  # the release commit is in the clone: both engines played
        assert result["release"]["now_games_per_s"] > 0 and result["release"]["release_games_per_s"] > 0


def test_bench_engine_checks_that_both_trees_play_the_same_games(capsys):
    """The machinery (a baseline checked out beside this tree, the same games played in both, compared): against
    HEAD, which a clean clone plays identically (this turn's rulings changed the games of older commits)."""
    bench = load("bench_engine")
    result = bench.main(["--check-only", "--games", "1", "--setups", "base-3p", "--baseline", "HEAD"])
    out = capsys.readouterr().out
    assert "identical on both trees" in out and result["setups"]["base-3p"]["decisions"] > 0


def test_bench_loop_times_the_hand_written_loop_and_the_engine(rules, capsys):
    result = load("bench_loop").main(["--games", "1", "--rounds", "1", "--setup", "base-3p"], rules=rules)
    out = capsys.readouterr().out
    assert "hand-written loop" in out and result["loop_us_per_decision"] > 0 and result["ratio"] > 0


def test_bench_ray_runs_on_two_workers(capsys):
    pytest.importorskip("ray")
    result = load("bench_ray").main(["--games", "2", "--rounds", "1", "--agents", "random"])
    out = capsys.readouterr().out
    assert "2 Ray workers" in out and "identical results" in out and result["ratio"] > 0
    assert "control, no Ray" in out and result["plain_ratio"] > 0


def test_bench_variants_runs_at_a_tiny_size(capsys):
    result = load("bench_variants").main(["--variants", "3"])
    assert set(result) == {3} and result[3] > 0
    assert "3 variants" in capsys.readouterr().out


def test_bench_start_runs_at_a_tiny_size(capsys):
    result = load("bench_start").main(["--pairs", "1", "--only", "version", "help", "check --variant"])
    out = capsys.readouterr().out
    assert "vs python -c pass" in out and "maester check --variant asos -q" in out
    commands = result["commands"]
    assert set(commands) == {"maester version", "maester --help", "maester check --help",
                             "maester check --variant asos -q"}
    assert commands["maester --help"]["ratio_to_python"] > 0 and commands["maester check --variant asos -q"]["cpu_s"] > 0
    assert result["python_cpu_s"] > 0 and result["bytecode"] is True


def test_bench_start_refuses_an_unknown_baseline():
    with pytest.raises(SystemExit, match="cannot check out"):
        load("bench_start").main(["--pairs", "1", "--only", "version", "--baseline", "no-such-commit-anywhere"])
