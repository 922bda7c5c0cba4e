"""The exchanged formats have schemas, and what the engine writes follows them: the state and the pending
decision at sampled decisions of base and Mother of Dragons games (Tides of Battle on and off), saved
positions and game logs. The decision catalogue is complete and its schema file is up to date."""

from __future__ import annotations

import json

import pytest

from maester.interpreter import formats
from maester.interpreter.agents import agents_for
from maester.interpreter.decision_kinds import DECISION_KINDS, decision_schema_text
from maester.interpreter.log import game_log
from maester.interpreter.mod import ModOptions, new_game

from .conftest import REPO

GAMES = [("base-3p", 1, False), ("base-6p", 2, True), ("mod-8p", 3, False), ("mod-5p-with-targaryen", 4, True),
         ("mod-4p-without-targaryen", 5, False)]


@pytest.fixture(scope="module")
def played(rules_default):
    """(game, sampled (state, decision, position) triples) per game."""
    out = []
    for setup, seed, tides in GAMES:
        g = new_game(rules_default, setup, seed=seed, options=ModOptions(tides_of_battle=tides))
        agents = agents_for(g.state.houses, "heuristic" if seed % 2 else "random", seed=seed)
        samples, kinds = [], set()
        while g.decision is not None:
            d = g.decision
            kinds.add(d.kind)
            if len(g.answers) % 41 == 0:
                samples.append((g.state.to_json(), d.to_json(), g.to_state()))
            g.answer(agents[d.house].act(g, d))
        out.append((g, samples, kinds))
    return out


@pytest.fixture(scope="module")
def rules_default():
    from maester.interpreter.rules import Rules

    return Rules.default()


def test_states_decisions_and_positions_follow_their_schemas(played):
    checked = 0
    for game, samples, _ in played:
        for state, decision, position in samples:
            doc = json.loads(json.dumps(position))
            for name, value in (("state", state), ("decision", decision), ("position", doc)):
                assert formats.problems(name, value) == [], f"{game.state.setup}: {name}"
            checked += 1
        assert formats.problems("state", game.state.to_json()) == []
    assert checked > 50


def test_logs_follow_their_schema(played):
    for game, _, _ in played:
        assert formats.problems("log", json.loads(json.dumps(game_log(game, "random")))) == []


def test_the_schemas_refuse_what_the_engine_never_writes(played):
    game, samples, _ = played[0]
    state, decision, _ = samples[3]
    bad_state = {**state, "phase": "lunch", "colour": "red"}
    found = formats.problems("state", bad_state)
    assert any(p.startswith("/phase:") for p in found) and any("colour" in p for p in found)
    bad_decision = {**decision, "kind": "bribe"}
    assert any(p.startswith("/kind:") for p in formats.problems("decision", bad_decision))
    assert formats.problems("decision", {**decision, "options": [decision["options"][0]]})  # one answer: never asked


def test_every_decision_kind_asked_is_declared_and_most_are_seen(played):
    seen = set().union(*(kinds for _, _, kinds in played))
    assert seen <= set(DECISION_KINDS)
    assert len(seen) >= 25, sorted(set(DECISION_KINDS) - seen)


def test_the_decision_schema_file_is_generated_from_the_catalogue():
    on_disk = (REPO / "schemas" / "decision.schema.json").read_text(encoding="utf-8")
    assert on_disk == decision_schema_text(), ("schemas/decision.schema.json is stale: run "
                                               "python -c 'from maester.interpreter.decision_kinds import "
                                               "write_decision_schema; write_decision_schema()'")


def _undescribed(node, path=()):
    if isinstance(node, dict):
        for key, sub in (node.get("properties") or {}).items():
            if isinstance(sub, dict) and not sub.get("description"):
                yield "/".join((*path, key))
            yield from _undescribed(sub, (*path, key))
        for key, sub in node.items():
            if key == "$defs":
                for name, d in sub.items():
                    yield from _undescribed(d, ("$defs", name))
            elif key in ("if", "then", "else", "not"):
                continue  # conditions restate properties described elsewhere
            elif key != "properties" and isinstance(sub, dict):
                yield from _undescribed(sub, (*path, key))
            elif key != "properties" and isinstance(sub, list):
                for item in sub:
                    yield from _undescribed(item, (*path, key))


@pytest.mark.parametrize("name", ["bundle", "state", "position", "log", "decision"])
def test_every_field_of_every_format_has_a_meaning(name):
    schema = json.loads((REPO / "schemas" / f"{name}.schema.json").read_text(encoding="utf-8"))
    missing = sorted(set(_undescribed(schema)))
    assert not missing, f"fields of {name}.schema.json without a description (docs/bundle.md shows them): {missing}"
