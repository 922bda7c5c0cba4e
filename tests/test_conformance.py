"""The shipped conformance vectors follow their schema, record every question asked, replay exactly through this
interpreter decision by decision, and are up to date; a check that checks nothing fails."""

from __future__ import annotations

import copy
import json
import shutil

import pytest
from typer.testing import CliRunner

from maester.dsl.diagnostics import MaesterError
from maester.interpreter.core import formats
from maester.interpreter.core.decision_kinds import DECISION_KINDS
from maester.interpreter.core.vector_format import VECTOR_FORMAT, VECTOR_VERSION, vector_schema_text
from maester.interpreter.frontends.conformance import bundle_digest, check_directory, replay_vector, vector_files

from .conftest import REPO

VECTORS = REPO / "conformance"
FILES = sorted(p for p in VECTORS.glob("*.json") if p.name not in ("index.json", "bundle.json"))
# a short vector with a card's `choose` among units of the attacking army, a `may` and a retreat
RENLY = VECTORS / "base--cards--renly-baratheon.json"


@pytest.fixture(scope="module")
def rules():
    from maester.interpreter.core.rules import Rules

    return Rules.default()


@pytest.fixture(scope="module")
def vectors():
    return {p.name: json.loads(p.read_text(encoding="utf-8")) for p in FILES}


def test_the_shipped_bundle_is_the_current_bundle(rules):
    shipped = json.loads((VECTORS / "bundle.json").read_text())
    index = json.loads((VECTORS / "index.json").read_text())
    assert bundle_digest(shipped) == index["bundle_sha256"]
    assert bundle_digest(shipped) == bundle_digest(rules.bundle), (
        "the content changed since the vectors were made: run `maester conformance --write conformance`")


def test_vectors_are_shipped_with_their_index(rules):
    index = json.loads((VECTORS / "index.json").read_text())
    assert len(FILES) >= 60 and sorted(v["file"] for v in index["vectors"]) == [p.name for p in FILES]
    assert len(index["bundle_sha256"]) == 64 and index["bundle_format"] == rules.bundle["format_version"]
    assert index["version"] == VECTOR_VERSION == 3


def test_every_shipped_vector_follows_the_vector_schema(vectors):
    bad = {name: formats.problems("vector", v, limit=3) for name, v in vectors.items()}
    assert {name: p for name, p in bad.items() if p} == {}


def test_the_shipped_index_follows_its_schema():
    from jsonschema import Draft202012Validator

    schema = json.loads((REPO / "schemas" / "vector.schema.json").read_text())["$defs"]["index"]
    index = json.loads((VECTORS / "index.json").read_text())
    assert list(Draft202012Validator(schema).iter_errors(index)) == []
    index["vectors"][0]["file"] = "../elsewhere.json"
    assert [e.json_path for e in Draft202012Validator(schema).iter_errors(index)] == ["$.vectors[0].file"]


def test_the_vector_schema_file_is_generated_from_the_format():
    on_disk = (REPO / "schemas" / "vector.schema.json").read_text(encoding="utf-8")
    assert on_disk == vector_schema_text(), ("schemas/vector.schema.json is stale: run python -c 'from "
                                             "maester.interpreter.core.vector_format import write_vector_schema; "
                                             "write_vector_schema()'")


def test_every_decision_records_its_question_and_an_answer_among_the_legal_ones(vectors):
    kinds, count = set(), 0
    for name, v in vectors.items():
        assert v["compare"]["decision_fields"] == ["number", "house", "kind", "rule", "options"], name
        assert v["compare"]["event_fields_excluded"] == ["text"], name
        last_events = 0
        for i, d in enumerate(v["decisions"]):
            assert d["number"] == i, name  # a run from a position asks from decision 0, none skipped
            assert d["kind"] in DECISION_KINDS and d["house"] in v["initial_state"]["houses"], (name, i)
            # one answer is never asked, but an order placement is (its skipping would show secret placements)
            assert d["answer"] in d["options"] and (len(d["options"]) >= 2 or d["kind"] == "place-order"), (name, i)
            assert last_events <= d["events_before"] <= len(v["expected"]["events"]), (name, i)
            last_events = d["events_before"]
            kinds.add(d["kind"])
            count += 1
        pending = v["expected"]["pending_decision"]
        assert pending is None or (pending["number"] == len(v["decisions"]) and "answer" not in pending), name
    assert count > 1000 and len(kinds) >= 25, sorted(set(DECISION_KINDS) - kinds)


def test_a_recorded_question_names_what_the_rules_ask(vectors):
    """Renly Baratheon (base game): after the combat, the may, then the choice between a footman of the
    attacking army on the march and one in Blackwater, then Lannister's retreat from The Reach."""
    v = vectors[RENLY.name]
    may, choose, retreat = v["decisions"][5:8]
    assert (may["kind"], may["house"], may["options"], may["answer"]) == ("may", "baratheon", ["yes", "no"], "yes")
    assert (choose["kind"], choose["house"], choose["options"]) == ("choose", "baratheon",
                                                                    ["@attack#1", "blackwater#0"])
    assert choose["info"]["card"] == "renly-baratheon"
    assert (retreat["kind"], retreat["house"], retreat["rule"]) == ("retreat", "lannister", "R21.3.3")
    assert sorted(retreat["options"]) == ["dornish-marches", "searoad-marches", "the-boneway"]


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
def test_vector_replays(rules, vectors, path):
    vector = vectors[path.name]
    assert vector["format"] == VECTOR_FORMAT
    assert replay_vector(rules, vector) == []


# ---- a checker finds where another engine parts from the vector -------------------------------------------------

def _renly(vectors) -> dict:
    return copy.deepcopy(vectors[RENLY.name])


def test_a_different_question_is_reported_at_its_decision(rules, vectors):
    v = _renly(vectors)
    v["decisions"][5]["kind"] = "blade"
    assert replay_vector(rules, v) == ["decision 5 (blade for baratheon): kind 'may' instead of 'blade'"]
    v = _renly(vectors)
    v["decisions"][7]["house"] = "baratheon"
    assert replay_vector(rules, v) == ["decision 7 (retreat for baratheon): house 'lannister' instead of "
                                       "'baratheon'"]


def test_different_legal_answers_are_reported_but_their_order_is_not(rules, vectors):
    v = _renly(vectors)
    v["decisions"][7]["options"].reverse()
    assert replay_vector(rules, v) == []
    v["decisions"][7]["options"].remove("the-boneway")
    assert replay_vector(rules, v) == ["decision 7 (retreat for lannister): legal answers differ: offers "
                                       "['the-boneway'] too, lacks []"]


def test_english_and_agent_context_are_not_compared_but_event_data_is(rules, vectors):
    v = _renly(vectors)
    for e in v["expected"]["events"]:
        e["text"] = "in another language"
    v["decisions"][6]["info"] = {}
    assert replay_vector(rules, v) == []
    v = _renly(vectors)
    march = next(e for e in v["expected"]["events"] if e["type"] == "march")
    march["area"] = "winterfell"
    problems = replay_vector(rules, v)
    assert len(problems) == 1 and problems[0].startswith(f"event {march['n']} (march: ")
    assert "area='kingswood' instead of area='winterfell'" in problems[0]


def test_a_missing_event_before_a_decision_is_reported_there(rules, vectors):
    v = _renly(vectors)
    d = v["decisions"][7]
    d["events_before"] -= 1
    assert replay_vector(rules, v)[0].startswith(f"{d['events_before'] + 1} events before decision 7 (retreat")


def test_a_refused_answer_and_a_different_final_state_are_reported(rules, vectors):
    v = _renly(vectors)
    v["decisions"][7]["answer"] = "winterfell"
    assert replay_vector(rules, v) == ["decision 7 (retreat for lannister): the answer 'winterfell' is refused — "
                                       "decision #7 (retreat, lannister): 'winterfell' is not allowed — it is not "
                                       "one of the legal answers"]
    v = _renly(vectors)
    v["expected"]["final_state"]["round"] += 1
    assert replay_vector(rules, v) == [f"final state {v['expected']['final_state_hash']} differs from "
                                       f"{v['expected']['final_state_hash']} at /round"]


# ---- checking a folder -----------------------------------------------------------------------------------------

@pytest.fixture
def small_folder(tmp_path, vectors):
    """A copy of the shipped folder with two vectors (and an index listing just them)."""
    keep = [RENLY.name, FILES[0].name]
    shutil.copy(VECTORS / "bundle.json", tmp_path / "bundle.json")
    index = json.loads((VECTORS / "index.json").read_text())
    index["vectors"] = [e for e in index["vectors"] if e["file"] in keep]
    (tmp_path / "index.json").write_text(json.dumps(index))
    for name in keep:
        shutil.copy(VECTORS / name, tmp_path / name)
    return tmp_path


def test_a_folder_is_checked_with_its_own_bundle(small_folder):
    report = check_directory(small_folder)
    assert report.ok and report.conforming == 2 and sorted(report.checked) == sorted(
        [RENLY.name, FILES[0].name])


def test_a_vector_of_the_old_format_or_off_its_schema_fails_before_any_replay(small_folder, vectors):
    old = _renly(vectors)
    old["version"] = 1
    old["decisions"] = [d["answer"] for d in old["decisions"]]
    del old["compare"]
    (small_folder / RENLY.name).write_text(json.dumps(old))
    assert replay_vector(None, old) == ["vector format version 1; this checker reads version 3 (regenerate with "
                                        "`maester conformance --write DIR`)"]
    report = check_directory(small_folder)
    assert not report.ok and report.conforming == 1
    assert report.failures == {RENLY.name: ["vector format version 1; this checker reads version 3 (regenerate "
                                            "with `maester conformance --write DIR`)"]}
    new = _renly(vectors)
    new["decisions"][2]["kind"] = "bribe"
    (small_folder / RENLY.name).write_text(json.dumps(new))
    assert check_directory(small_folder).failures[RENLY.name][0].startswith("/decisions/2/kind: 'bribe' is not one of")


@pytest.mark.parametrize("setup, message", [
    ("missing", "no such folder of conformance vectors"),
    ("empty", "no conformance vector (*.json besides index.json and bundle.json) to check"),
    ("only-index", "no conformance vector (*.json besides index.json and bundle.json) to check"),
    ("unlisted", "the index and the folder disagree: listed but missing ['"),
    ("other-bundle", "this is not the bundle the vectors were made for"),
    ("old-index", "not an index of conformance vectors version 3: /version: 3 was expected"),
])
def test_a_check_that_would_check_nothing_fails(tmp_path, small_folder, setup, message):
    folder = {"missing": tmp_path / "nowhere", "empty": tmp_path / "empty"}.get(setup, small_folder)
    if setup == "empty":
        folder.mkdir()
    elif setup == "only-index":
        for p in small_folder.glob("*--*.json"):
            p.unlink()
    elif setup == "unlisted":
        (small_folder / RENLY.name).unlink()
    elif setup == "old-index":
        index = json.loads((small_folder / "index.json").read_text())
        (small_folder / "index.json").write_text(json.dumps({**index, "version": 1}))
    elif setup == "other-bundle":  # a valid bundle, but another one: its vectors would be checked against it
        bundle = json.loads((small_folder / "bundle.json").read_text())
        bundle["houses"]["stark"]["name"] = "House Snow"
        (small_folder / "bundle.json").write_text(json.dumps(bundle))
    with pytest.raises(MaesterError) as e:
        check_directory(folder)
    item = e.value.diagnostics.items[0]
    assert item.message.startswith(message) and item.hint


def test_the_command_fails_on_an_empty_folder_with_one_clear_message(tmp_path):
    from maester.tools.cli import app

    result = CliRunner().invoke(app, ["conformance", str(tmp_path)])
    assert result.exit_code == 1
    assert "no conformance vector" in result.output and "Traceback" not in result.output
    assert "conform" not in result.output.replace("conformance", "")  # no "0 conform, 0 differ" as if it passed


def test_the_command_works_from_any_folder(tmp_path, monkeypatch):
    """Without a folder argument, outside the repository, the checkout's vectors are checked."""
    from maester.tools.cli import app

    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(app, ["conformance", "--json"])
    doc = json.loads(result.stdout)
    assert result.exit_code == 0 and doc["ok"], doc["diagnostics"]
    assert doc["result"]["directory"] == str(VECTORS) and doc["result"]["conform"] == len(FILES)


@pytest.mark.xdist_group("conformance-write")
def test_every_scenario_that_plays_has_its_shipped_vector(rules, tmp_path):
    """A scenario added without `maester conformance --write` leaves other engines without its case."""
    from maester.interpreter.frontends.conformance import write_vectors

    write_vectors(rules, REPO / "tests" / "scenarios", tmp_path)
    made = sorted(p.name for p in vector_files(tmp_path))
    assert made == [p.name for p in FILES], (
        f"vectors to add: {sorted(set(made) - {p.name for p in FILES})[:5]}, to remove: "
        f"{sorted({p.name for p in FILES} - set(made))[:5]}; run `maester conformance --write conformance`")
