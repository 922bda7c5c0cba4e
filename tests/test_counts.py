"""Counts kept from the board (`Game.castle_counts`, read again only where the board log says an area was written:
core/state.py `BoardLog`) equal a recount from scratch by the reference rules (core/control.py) at every call the
engine makes and at every decision: whole random games of several setups, clones played alongside their original,
undo, games resumed from their saved position, the log dropped often, and every scenario of tests/scenarios."""

from __future__ import annotations

import random
from pathlib import Path
from types import SimpleNamespace

import pytest

from maester.interpreter.core import position
from maester.interpreter.core import state as state_module
from maester.interpreter.core.rules import Rules
from maester.interpreter.frontends.agents import agents_for
from maester.interpreter.frontends.scenario import Scenario, explain_lines, run_scenario
from maester.interpreter.mod import effects as mod_effects
from maester.interpreter.mod import new_game
from maester.interpreter.procedures.game import Game

from .test_control_speed import reference_castle_counts

SCENARIOS = sorted((Path(__file__).parent / "scenarios").rglob("*.yaml"))


@pytest.fixture(scope="module")
def rules() -> Rules:
    return Rules.default()


@pytest.fixture
def checked(monkeypatch) -> list[int]:
    """Every `castle_counts` call the engine makes is compared with the reference; returns [calls compared]."""
    calls = [0]
    kept = Game.castle_counts

    def castle_counts(g: Game) -> dict[str, int]:
        got = kept(g)
        assert got == reference_castle_counts(g), f"castle counts kept {got} != recount {reference_castle_counts(g)} (round {g.state.round})"
        calls[0] += 1
        return got

    monkeypatch.setattr(Game, "castle_counts", castle_counts)
    return calls


def _play(g: Game, agents, decisions: int | None = None) -> int:
    """Answer up to `decisions` decisions (all: None), comparing the counts with the reference before each."""
    n = 0
    while g.decision is not None and (decisions is None or n < decisions):
        assert g.castle_counts() == reference_castle_counts(g)
        g.answer(agents[g.decision.house].act(g, g.decision))
        n += 1
    return n


@pytest.mark.parametrize("setup", ["base-3p", "base-6p", "mod-3p", "mod-5p-with-targaryen", "mod-8p"])
@pytest.mark.parametrize("seed", [3, 11])
def test_castle_counts_kept_match_a_recount_in_whole_games(rules, checked, setup, seed):
    g = new_game(rules, setup, seed=seed)
    played = _play(g, agents_for(g.state.houses, "random", seed=seed))
    assert g.state.phase == "over" and played > 100
    # the engine's own calls were compared too (after marches, musters, clean ups), besides one per decision here
    assert checked[0] - played > played / 10


def test_clones_undo_and_resumed_games_keep_true_counts(rules, checked):
    """Clones played between the original's decisions (the log is shared: each game sees the others' writes),
    undo (the game becomes an earlier one), a game resumed from its saved position."""
    g = new_game(rules, "mod-8p", seed=5)
    agents = agents_for(g.state.houses, "random", seed=5)
    pick = random.Random(5)
    clones = undos = resumed = 0
    while g.decision is not None:
        if pick.random() < 0.05:
            c = g.clone()
            _play(c, agents_for(c.state.houses, "random", seed=pick.randrange(1000)), decisions=pick.randrange(1, 40))
            assert g.castle_counts() == reference_castle_counts(g)
            clones += 1
        if pick.random() < 0.03 and g.answers:
            g.undo()
            assert g.castle_counts() == reference_castle_counts(g)
            undos += 1
        if pick.random() < 0.01:
            g = Game.from_state(rules, g.to_state(), position.TRUSTED)
            resumed += 1
        _play(g, agents, decisions=1)
    assert clones > 10 and undos > 5 and resumed > 2


def test_counts_when_the_log_is_dropped_often(rules, checked, monkeypatch):
    monkeypatch.setattr(state_module, "LOG_LIMIT", 6)  # (a few writes between drops: both paths)
    g = new_game(rules, "mod-8p", seed=8)
    start = state_module.BOARD_LOG.start
    _play(g, agents_for(g.state.houses, "random", seed=8))
    assert state_module.BOARD_LOG.start > start + 100  # dropped again and again


def test_the_log_says_when_it_lost_track():
    log = state_module.BoardLog()
    assert log.since(log.end) == []
    log.areas.extend(["winterfell", "the-twins"])
    assert log.since(0) == ["winterfell", "the-twins"] and log.since(1) == ["the-twins"] and log.end == 2
    log.drop()
    assert log.since(2) is None and log.since(log.end) == [] and log.end == 3


@pytest.mark.parametrize("path", SCENARIOS, ids=lambda p: str(p.relative_to(p.parents[2])))
def test_scenarios_with_counts_checked(rules, checked, path):
    """Scenarios set positions directly (their states are new games' states) and use every rules module."""
    result = run_scenario(rules, Scenario.load(path))
    assert result.ok, "\n" + "\n".join(explain_lines(result))


def test_a_castle_lost_is_counted(rules):
    """A Mother of Dragons mark (R42.3) written by its effect reaches the kept counts."""
    g = new_game(rules, "mod-8p", seed=2)
    before = g.castle_counts()
    area = next(a for a in g.board.castle_land_ids if g.controller(a) in before and g.castle_level(a) == "castle")
    house = g.controller(area)
    mod_effects._degrade(g, SimpleNamespace(rule="R42.3"), {"area": area, "icon": "castle"}, None)
    assert g.castle_level(area) == "none"
    assert g.castle_counts() == reference_castle_counts(g) == {**before, house: before[house] - 1}
