"""The `maester` command: exit codes, located errors on stderr, never a traceback."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from maester.tools.cli import app

runner = CliRunner()


def run(*args):
    result = runner.invoke(app, list(args))
    assert "Traceback" not in (result.output or "") + (result.stderr if result.stderr_bytes else "")
    return result


def test_check_prints_a_summary_of_the_bundled_content():
    r = run("check")
    assert r.exit_code == 0, r.output
    assert "board base" in r.output and "house cards" in r.output and "OK" in r.output


def test_compile_writes_a_bundle_that_validates(tmp_path):
    out = tmp_path / "bundle.json"
    r = run("compile", "-o", str(out))
    assert r.exit_code == 0, r.output
    data = json.loads(out.read_text())
    assert data["format"] == "maester-bundle" and data["format_version"] == "1.2.0"
    assert run("validate", str(out)).exit_code == 0


def test_broken_content_gives_located_errors_and_exit_1(tmp_path):
    bad = tmp_path / "bad.mst"
    bad.write_text('house-card x "X" {\n  strenght 3\n}\n')
    r = run("check", str(bad))
    assert r.exit_code == 1
    assert "bad.mst:2:3: error: unknown key 'strenght' in house-card" in r.output
    assert "did you mean 'strength'?" in r.output
    assert "nothing was written" in r.output


def test_compile_of_broken_content_writes_nothing(tmp_path):
    bad = tmp_path / "bad.mst"
    bad.write_text("board {\n")
    out = tmp_path / "b.json"
    r = run("compile", str(bad), "-o", str(out))
    assert r.exit_code == 1 and not out.exists()


def test_missing_file_is_reported(tmp_path):
    r = run("check", str(tmp_path / "nope.mst"))
    assert r.exit_code == 1 and "no such file" in r.output


def test_validate_names_the_json_pointer_of_a_violation(tmp_path, bundle):
    broken = json.loads(json.dumps(bundle))
    broken["house_cards"]["tywin-lannister"]["strength"] = -4
    path = tmp_path / "b.json"
    path.write_text(json.dumps(broken))
    r = run("validate", str(path))
    assert r.exit_code == 1
    assert "/house_cards/tywin-lannister/strength" in r.output


def test_validate_rejects_non_json(tmp_path):
    path = tmp_path / "b.json"
    path.write_text("{ nope")
    r = run("validate", str(path))
    assert r.exit_code == 1 and "is not JSON" in r.output


@pytest.mark.parametrize("board", ["base", "mod", "mod-essos"])
def test_map_json(board):
    r = run("map", "--board", board, "--format", "json")
    assert r.exit_code == 0
    data = json.loads(r.stdout)
    assert data["areas"] and data["borders"]


def test_map_dot_and_png(tmp_path):
    r = run("map", "-b", "base", "-f", "dot")
    assert r.exit_code == 0 and r.stdout.startswith('graph "base"')
    png = tmp_path / "base.png"
    r = run("map", "-b", "base", "-f", "png", "-o", str(png))
    assert r.exit_code == 0 and png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_unknown_board_is_a_clear_error():
    r = run("map", "-b", "moon")
    assert r.exit_code == 1 and "unknown board 'moon'" in r.output


def test_version():
    r = run("version")
    assert r.exit_code == 0 and "bundle format 1.2.0" in r.output


def test_play_writes_a_log_that_replays(tmp_path):
    log = tmp_path / "game.json"
    r = run("play", "--base", "--players", "3", "--seed", "5", "--agents", "random", "--quiet", "--log", str(log))
    assert r.exit_code == 0, r.output
    assert "wins" in r.output
    data = json.loads(log.read_text())
    assert data["setup"] == "base-3p" and data["seed"] == 5 and data["answers"] and data["events"]
    r = run("replay", str(log))
    assert r.exit_code == 0 and "replay matches" in r.output


def test_replay_detects_a_tampered_log(tmp_path):
    log = tmp_path / "game.json"
    assert run("play", "-p", "4", "-s", "2", "-a", "random", "-q", "--log", str(log)).exit_code == 0
    data = json.loads(log.read_text())
    data["events"][5]["text"] = "something else"
    log.write_text(json.dumps(data))
    r = run("replay", str(log))
    assert r.exit_code == 1 and "event 5 differs" in r.output


def test_play_rejects_unknown_agents():
    r = run("play", "-p", "3", "--agents", "stark=genius")
    assert r.exit_code == 1 and "unknown agent kind 'genius'" in r.output


def test_play_runs_mother_of_dragons_by_default(tmp_path):
    log = tmp_path / "mod.json"
    r = run("play", "--seed", "3", "--agents", "random", "--quiet", "--log", str(log))
    assert r.exit_code == 0, r.output
    data = json.loads(log.read_text())
    assert data["setup"] == "mod-8p"
    assert run("replay", str(log)).exit_code == 0


@pytest.mark.parametrize(("query", "suggested"), [
    ("Ned", "'The Red Viper' (the-red-viper)"),  # a name spelt closely: suggested by its name and id
    ("Tywin Lanister", "'Tywin Lannister' (tywin-lannister)"),  # a whole name misspelt
    ("eddard", "'Eddard Stark' (eddard-stark)"),  # a word of the id and of the name
])
def test_card_suggests_by_name_as_well_as_id(query, suggested):
    r = run("card", query, "--json")
    assert r.exit_code == 1
    (diag,) = json.loads(r.stdout)["diagnostics"]
    assert diag["code"] == "unknown-card" and suggested in diag["hint"], diag


def test_errors_found_in_a_log_or_a_position_name_their_file(tmp_path):
    """replay-diverged and unknown-variant (and unknown-order, from the same places) name the file they come from."""
    log = tmp_path / "game.json"
    assert run("play", "--base", "-p", "3", "-q", "--agents", "random", "--seed", "3", "--log", str(log)).exit_code == 0
    data = json.loads(log.read_text())
    cases = {"variant": lambda d: d.__setitem__("variant", "nope"),
             "event": lambda d: d["events"][5].__setitem__("text", "edited")}
    for name, edit in cases.items():
        doc = json.loads(json.dumps(data))
        edit(doc)
        bad = tmp_path / f"{name}.json"
        bad.write_text(json.dumps(doc))
        r = run("replay", str(bad), "--json")
        (diag,) = json.loads(r.stdout)["diagnostics"]
        assert r.exit_code == 1 and diag["code"] in ("unknown-variant", "replay-diverged"), diag
        assert diag["file"] == str(bad), diag
    save = tmp_path / "pos.json"
    assert run("play", "--base", "-p", "3", "-q", "--agents", "random", "--stop-at", "3", "--save",
               str(save)).exit_code == 0
    doc = json.loads(save.read_text())
    doc["position"]["variant"] = "nope"  # a saved table holds the position (tools/human.py)
    save.write_text(json.dumps(doc))
    r = run("play", "--resume", str(save), "--json")
    (diag,) = json.loads(r.stdout)["diagnostics"]
    assert diag["code"] == "unknown-variant" and diag["file"] == str(save), diag
