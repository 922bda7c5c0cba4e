"""The exchanged formats have schemas, and what the engine writes follows them: the state and the pending
decision at sampled decisions of base and Mother of Dragons games (Tides of Battle on and off), saved
positions, game logs and every event. The decision and event catalogues are complete and their schema files
are up to date."""

from __future__ import annotations

import json

import pytest

from maester.interpreter.core import formats
from maester.interpreter.core.decision_kinds import DECISION_KINDS, decision_schema_text
from maester.interpreter.core.events import EVENTS, event_schema_text, fields_table
from maester.interpreter.frontends.agents import agents_for
from maester.interpreter.frontends.log import game_log
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
    from maester.interpreter.core.rules import Rules

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


def test_the_compiled_validator_agrees_with_the_reference(played):
    """`problems` takes the compiled validator's word for a valid document (issue 23: a position is checked in well
    under a millisecond); the reference validator agrees with it, and still words every refusal."""
    for game, samples, _ in played:
        for state, decision, position in (samples[0], samples[-1]):
            doc = json.loads(json.dumps(position))
            for name, value in (("state", state), ("decision", decision), ("position", doc)):
                assert formats._confirmed(name, value, floats=True), f"{game.state.setup}: {name}"
                assert formats.validator(name).is_valid(value), f"{game.state.setup}: {name}"
    state = json.loads(json.dumps(played[0][1][-1][0]))
    house = next(iter(state["houses"]))
    state["houses"][house]["power"] = 4.0  # the compiled validator would take it for an integer: not asked
    assert not formats._confirmed("state", state, floats=True)
    assert formats.problems("state", state) == [f"/houses/{house}/power: 4.0 is not of type 'integer'"]
    state["houses"][house]["power"] = -1
    assert not formats._confirmed("state", state, floats=True) and not formats.is_valid("state", state)
    assert formats.problems("state", state) == [f"/houses/{house}/power: -1 is less than the minimum of 0"]


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
    # a question with one legal answer is never asked (the rules take it at once)...
    other = next(d for _, d, _ in (s for _, ss, _ in played for s in ss) if d and d["kind"] != "place-order")
    found = formats.problems("decision", {**other, "options": [other["options"][0]]})
    assert found and all(p.startswith("/options") for p in found), found
    assert formats.problems("decision", {**other, "options": []})
    # ...except an order placement (R13.2: a forced token taken unasked would show the others its placements)
    placement = next(d for _, d, _ in (s for _, ss, _ in played for s in ss) if d and d["kind"] == "place-order")
    assert formats.problems("decision", {**placement, "options": [placement["options"][0]]}) == []
    assert formats.problems("decision", {**placement, "options": []})


def test_every_decision_kind_asked_is_declared_and_most_are_seen(played):
    seen = set().union(*(kinds for _, _, kinds in played))
    assert seen <= set(DECISION_KINDS)
    assert len(seen) >= 25, sorted(set(DECISION_KINDS) - seen)


def test_the_decision_schema_file_is_generated_from_the_catalogue():
    on_disk = (REPO / "schemas" / "decision.schema.json").read_text(encoding="utf-8")
    assert on_disk == decision_schema_text(), ("schemas/decision.schema.json is stale: run "
                                               "python -c 'from maester.interpreter.core.decision_kinds import "
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


@pytest.mark.parametrize("name", ["bundle", "state", "position", "event", "log", "decision", "vector"])
def test_every_field_of_every_format_has_a_meaning(name):
    schema = json.loads((REPO / "schemas" / f"{name}.schema.json").read_text(encoding="utf-8"))
    missing = sorted(set(_undescribed(schema)))
    assert not missing, f"fields of {name}.schema.json without a description (docs/bundle.md shows them): {missing}"


# ---- events ------------------------------------------------------------------------------------------------

MORE_GAMES = [("base-4p", 6, True), ("base-5p", 7, False), ("mod-3p", 8, True), ("mod-7p-with-targaryen", 9, True),
              ("mod-6p-without-targaryen", 10, False)]


@pytest.fixture(scope="module")
def events(played, rules_default):
    """Every event of ten whole games: five base setups and five Mother of Dragons ones, six with Tides of Battle."""
    out = [e for game, _, _ in played for e in game.events]
    for setup, seed, tides in MORE_GAMES:
        g = new_game(rules_default, setup, seed=seed, options=ModOptions(tides_of_battle=tides))
        g.play(agents_for(g.state.houses, "heuristic" if seed % 2 else "random", seed=seed))
        out += g.events
    return json.loads(json.dumps(out))


def test_every_event_of_real_games_follows_the_event_schema(events):
    wrong = [(e["type"], found) for e in events if (found := formats.problems("event", e))]
    assert not wrong, wrong[:5]
    assert len(events) > 5000 and len({e["type"] for e in events}) >= 55


def test_the_event_schema_refuses_what_the_engine_never_writes(events):
    combat = next(e for e in events if e["type"] == "combat")
    support = next(e for e in events if e["type"] == "support")
    loan_discount = {"n": 3, "round": 2, "phase": "action", "type": "loan-discount", "rule": "R40.7.3", "text": "t",
                     "house": None}
    assert formats.problems("event", loan_discount) == []  # null: the token is set aside
    bad = {
        "an undeclared type": {**combat, "type": "explosion"},
        "a missing field": {k: v for k, v in combat.items() if k != "defender"},
        "a missing common field": {k: v for k, v in combat.items() if k != "round"},
        "a wrong type": {**combat, "area": 7},
        "a field its type does not have": {**combat, "winner": combat["attacker"]},
        "a value outside a fixed vocabulary": {**support, "side": "neutral"},
        "a rule its type never cites": {**combat, "rule": "R13.2.1"},
        "a phase that does not exist": {**combat, "phase": "lunch"},
        "a malformed id": {**combat, "attacker": "Stark"},
    }
    found = {why: formats.problems("event", e) for why, e in bad.items()}
    assert found["an undeclared type"][0].startswith("/type: 'explosion' is not one of ['advance', ")
    assert found["a missing field"] == ["/: 'defender' is a required property"]
    assert found["a missing common field"] == ["/: 'round' is a required property"]
    assert found["a wrong type"] == ["/area: 7 is not of type 'string'"]
    assert found["a field its type does not have"] == ["/: Additional properties are not allowed ('winner' was "
                                                       "unexpected)"]
    assert found["a value outside a fixed vocabulary"] == ["/side: 'neutral' is not one of ['attacker', 'defender']"]
    assert found["a rule its type never cites"][0].startswith("/rule: 'R13.2.1' is not one of ['R19', 'R20.2', ")
    assert found["a phase that does not exist"][0].startswith("/phase: 'lunch' is not one of ['setup', ")
    assert found["a malformed id"][0].startswith("/attacker: 'Stark' does not match ")
    assert formats.problems("event", {**loan_discount, "house": 3}) == ["/house: 3 is not valid under any of the "
                                                                        "given schemas"]
    # a log is checked event by event with the same verdicts, each at its place in the log
    log = {"format": "maester-game-log", "version": 1, "setup": "base-3p", "seed": 1, "answers": [],
           "events": [combat, bad["a wrong type"]]}
    assert formats.problems("log", log) == ["/events/1/area: 7 is not of type 'string'"]


def test_checking_an_event_by_its_type_gives_the_whole_schemas_verdict(events):
    """formats checks an event against its type's entry alone (fast); the whole schema must agree."""
    whole = formats.validator("event")
    sample = events[::97]
    mutated = [{**e, "type": "nothing"} for e in sample[:5]] + [{**e, "n": "x"} for e in sample[:5]] + \
        [{k: v for k, v in e.items() if k != "rule"} for e in sample[:5]] + [{**e, "extra": 1} for e in sample[:5]]
    for e in sample + mutated + [[], "event", None]:
        assert whole.is_valid(e) == (not formats.problems("event", e)), e


def test_the_event_schema_file_is_generated_from_the_catalogue():
    on_disk = (REPO / "schemas" / "event.schema.json").read_text(encoding="utf-8")
    assert on_disk == event_schema_text(), "schemas/event.schema.json is stale: run `maester schema --write`"
    schema = json.loads(on_disk)
    assert set(schema["$defs"]) == set(EVENTS) and schema["properties"]["type"]["enum"] == sorted(EVENTS)
    assert schema["$id"] == "https://maester.example/schemas/event/1/event.schema.json"
    combat = schema["$defs"]["combat"]
    assert combat["required"] == ["n", "round", "phase", "type", "rule", "text", "area", "attacker", "defender"]
    assert schema["$defs"]["destroy"]["required"][6:] == ["house"]  # area, count and kind are not always set
    assert "secret" in schema["$defs"]["raven-look"]["properties"]
    assert "secret" not in schema["$defs"]["raven-swap"]["properties"]


def test_the_log_and_vector_schemas_refer_to_the_event_schema():
    event_id = json.loads((REPO / "schemas" / "event.schema.json").read_text())["$id"]
    log = json.loads((REPO / "schemas" / "log.schema.json").read_text())
    vector = json.loads((REPO / "schemas" / "vector.schema.json").read_text())
    assert log["properties"]["events"]["items"] == {"$ref": event_id} and "event" not in log["$defs"]
    assert vector["properties"]["expected"]["properties"]["events"]["items"] == {"$ref": event_id}


def test_the_docs_show_the_event_fields_and_the_schema():
    doc = (REPO / "docs" / "scenarios.md").read_text(encoding="utf-8")
    assert fields_table() in doc, "docs/scenarios.md: paste interpreter.events.fields_table() (Event fields)"
    assert "schemas/event.schema.json" in doc


def test_schema_write_rewrites_every_generated_schema(tmp_path):
    from typer.testing import CliRunner

    from maester.dsl.effect_schema import effect_schema_text
    from maester.interpreter.core.vector_format import vector_schema_text
    from maester.interpreter.frontends.state_schema import state_schema_text
    from maester.tools.cli import app

    folder = tmp_path / "schemas"
    folder.mkdir()
    r = CliRunner().invoke(app, ["schema", "--write", "--path", str(folder / "effect.schema.json")])
    assert r.exit_code == 0, r.output
    made = {"effect": effect_schema_text(), "event": event_schema_text(), "decision": decision_schema_text(),
            "vector": vector_schema_text(), "state": state_schema_text()}
    assert {p.name for p in folder.iterdir()} == {f"{name}.schema.json" for name in made}
    for name, text in made.items():
        assert (folder / f"{name}.schema.json").read_text(encoding="utf-8") == text, name


def test_every_schema_is_strict_json_schema():
    """Ajv's strict mode (CI: tools/ajv) refuses union types and unknown keywords: no schema has a union type, and
    every x- annotation keyword is declared in tools/ajv/keywords.json (docs/bundle.md)."""
    import json as _json

    from maester.dsl.schema_types import union_types

    from .conftest import REPO

    declared = set(_json.loads((REPO / "tools" / "ajv" / "keywords.json").read_text())["keywords"])
    used: set[str] = set()

    def keys(node):
        if isinstance(node, dict):
            used.update(k for k in node if k.startswith("x-"))
            for v in node.values():
                keys(v)
        elif isinstance(node, list):
            for v in node:
                keys(v)

    for path in sorted((REPO / "schemas").glob("*.schema.json")):
        schema = _json.loads(path.read_text())
        assert union_types(schema) == [], f"{path.name} has union types"
        keys(schema)
    assert used == declared
