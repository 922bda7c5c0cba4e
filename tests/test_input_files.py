"""Game logs and scenario files are checked before use: a wrong type or a missing key is one clear error
naming its place, never a traceback later (issue 14: `replay` of a log with a missing key or a wrong
type; a float answer that crashed a replayed game a few decisions in)."""

from __future__ import annotations

import json

import pytest

from maester.dsl.diagnostics import Diagnostics, MaesterError
from maester.interpreter.core.decisions import IllegalDecision
from maester.interpreter.core.rules import Rules
from maester.interpreter.frontends.agents import agents_for
from maester.interpreter.frontends.log import game_log, read_log, replay_log, validate_log
from maester.interpreter.frontends.scenario import Scenario, ScenarioError
from maester.interpreter.mod import new_game


@pytest.fixture(scope="module")
def rules() -> Rules:
    return Rules.default()


@pytest.fixture(scope="module")
def log(rules) -> dict:
    g = new_game(rules, "base-3p", seed=2)
    g.play(agents_for(g.state.houses, "random", 2))
    return json.loads(json.dumps(game_log(g, "random")))


def _write(tmp_path, data) -> str:
    path = tmp_path / "game.json"
    path.write_text(json.dumps(data))
    return str(path)


def test_a_written_log_matches_the_log_schema_and_replays(rules, log, tmp_path):
    data = read_log(_write(tmp_path, log))
    game, problem = replay_log(rules, data)
    assert problem is None and game.state.hash() == log["summary"]["state_hash"]


@pytest.mark.parametrize("change, where", [
    (lambda d: d.pop("seed"), "at /: 'seed' is a required property"),
    (lambda d: d.__setitem__("seed", "one"), "at /seed: 'one' is not of type 'integer'"),
    (lambda d: d.__setitem__("answers", {"a": 1}), "at /answers: {'a': 1} is not of type 'array'"),
    (lambda d: d["options"].__setitem__("turbo", True), "at /options: Additional properties are not allowed"),
    (lambda d: d.__setitem__("setup", "Base 3p"), "at /setup: 'Base 3p' does not match"),
    (lambda d: d["answers"].__setitem__(0, 2.5), "at /answers/0: 2.5 is not valid"),
])
def test_a_malformed_log_is_refused_before_replay(log, tmp_path, change, where):
    bad = json.loads(json.dumps(log))
    change(bad)
    with pytest.raises(MaesterError) as info:
        read_log(_write(tmp_path, bad))
    (e,) = info.value.diagnostics.errors
    assert e.code == "log-schema" and where in e.message, e.message
    assert e.span.file.endswith("game.json")


def test_a_float_answer_is_refused_with_its_pointer_not_a_crash(rules, log):
    """3.0 for 3 once passed the legality check and crashed the game a few decisions later; then the schema let it
    through (JSON Schema's `integer` takes 3.0) and the replay diverged; now the log schema refuses it where it is
    (issue 20.3), and the engine would still tell the types apart."""
    bad = json.loads(json.dumps(log))
    i = next(i for i, a in enumerate(bad["answers"]) if isinstance(a, int) and not isinstance(a, bool))
    bad["answers"][i] = float(bad["answers"][i])
    diags = Diagnostics()
    validate_log(bad, diags)
    (e,) = diags.errors
    assert e.code == "log-schema" and f"/answers/{i}" in e.message
    with pytest.raises(MaesterError):
        replay_log(rules, bad)
    game = new_game(rules, bad["setup"], seed=bad["seed"])
    for answer in bad["answers"][:i]:
        game.answer(answer)
    with pytest.raises(IllegalDecision, match="wrong type"):
        game.answer(bad["answers"][i])


def test_a_log_nested_too_deeply_is_one_error(log, tmp_path):
    bad = json.loads(json.dumps(log))
    deep: list = []
    for _ in range(200):
        deep = [deep]
    bad["answers"].append(deep)
    with pytest.raises(MaesterError, match="nests deeper than"):
        read_log(_write(tmp_path, bad))


SCENARIO = """name: t
setup: base-3p
position:
  round: 2
  houses:
    stark: {power: 3}
stop-after: action
expect:
  state:
    houses.stark.power: 3
"""


@pytest.mark.parametrize("text, message", [
    (SCENARIO.replace("round: 2", "round: two"), "position.round: 'two' is not of type 'integer'"),
    (SCENARIO.replace("power: 3", "power: [3]"), "position.houses.stark.power: [3] is not of type 'integer'"),
    (SCENARIO.replace("stop-after: action", "stop-after: lunch"), "stop-after: unknown stop point 'lunch'"),
    (SCENARIO.replace("position:\n  round: 2\n  houses:\n    stark: {power: 3}", "position: 7"),
     "position must be a mapping"),
    (SCENARIO + "seed: -1\n", "seed: -1 is less than the minimum of 0"),
])
def test_a_scenario_of_the_wrong_shape_names_the_place(tmp_path, text, message):
    path = tmp_path / "s.yaml"
    path.write_text(text)
    with pytest.raises(ScenarioError) as info:
        Scenario.load(path)
    (e,) = info.value.diagnostics.errors
    assert message in e.message, e.message


def test_a_well_formed_scenario_still_loads(tmp_path):
    path = tmp_path / "s.yaml"
    path.write_text(SCENARIO)
    sc = Scenario.load(path)
    assert (sc.setup, sc.position["round"], sc.stop_after) == ("base-3p", 2, "action")


def test_a_log_records_every_decision_as_asked_and_can_be_checked_without_an_engine(rules, log):
    """Version 2: the starting state, each decision (vector shape) with its answer, every event, the final state;
    the interleaved decisions and events follow the declared procedure (docs/procedures.md)."""
    import maester.interpreter.mod  # noqa: F401  (every step declared)
    from maester.interpreter.core import steps

    assert log["version"] == 2 and log["initial_state"]["phase"] == "setup"
    assert [d["answer"] for d in log["decisions"]] == log["answers"]
    assert [d["number"] for d in log["decisions"]] == list(range(len(log["answers"])))
    assert all(d["answer"] in d["options"] for d in log["decisions"])
    assert log["final_state"]["end_reason"] == "last-round" or log["final_state"]["end_reason"] == "victory-points"
    trace, seen = [], 0
    for d in log["decisions"]:
        trace += [("event", e) for e in log["events"][seen:d["events_before"]]]
        seen = d["events_before"]
        trace.append(("decision", d))
    trace += [("event", e) for e in log["events"][seen:]]
    assert steps.Grammar().problems(trace) == []


def test_a_log_whose_decision_differs_is_a_divergence(rules, log):
    bad = json.loads(json.dumps(log))
    i = next(i for i, d in enumerate(bad["decisions"]) if len(d["options"]) > 2)
    bad["decisions"][i]["options"] = bad["decisions"][i]["options"][::-1]
    _, problem = replay_log(rules, bad)
    (e,) = problem.errors
    assert e.code == "replay-diverged" and f"decision {i} (" in e.message and "differs in `options`" in e.message


def test_a_thin_log_and_a_version_1_log_replay(rules, log, tmp_path):
    g = new_game(rules, "base-3p", seed=2)
    g.play(agents_for(g.state.houses, "random", 2))
    thin = json.loads(json.dumps(game_log(g, "random", thin=True)))
    assert thin["thin"] and "events" not in thin and "decisions" not in thin and "initial_state" not in thin
    game, problem = replay_log(rules, read_log(_write(tmp_path, thin)))
    assert problem is None and game.state.hash() == log["summary"]["state_hash"]
    old = {k: v for k, v in log.items() if k not in ("initial_state", "decisions", "final_state")}
    old["version"] = 1  # what version 1 wrote: answers and events
    game, problem = replay_log(rules, read_log(_write(tmp_path, old)))
    assert problem is None and game.state.hash() == log["summary"]["state_hash"]
    thin["summary"]["state_hash"] = "0" * 16
    _, problem = replay_log(rules, thin)
    assert "differs from the logged 0000000000000000" in problem.errors[0].message
