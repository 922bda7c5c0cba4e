"""Issue 13.5: the problems a new user hit, each tried as that user would."""

from __future__ import annotations

import json
import os
import re
import shlex
from contextlib import contextmanager
from pathlib import Path

import pytest
from typer.testing import CliRunner

from maester.tools.cli import app
from maester.tools.cli_support import plural

runner = CliRunner()


def run(*args: str):
    r = runner.invoke(app, list(args))
    assert "Traceback" not in r.output
    return r


@contextmanager
def inside(folder: Path):
    cwd = os.getcwd()
    os.chdir(folder)
    try:
        yield folder
    finally:
        os.chdir(cwd)


def test_play_base_defaults_to_the_most_players_of_the_base_game():
    r = run("play", "--base", "-a", "random", "-q", "--json")
    assert r.exit_code == 0, r.output
    assert json.loads(r.stdout)["result"]["setup"] == "base-6p"


def test_the_play_command_printed_by_new_variant_works_as_written(tmp_path):
    with inside(tmp_path):
        r = run("new", "variant", "glass")
        assert r.exit_code == 0, r.output
        line = next(ln for ln in r.output.splitlines() if ln.startswith("then: "))
        command = line.removeprefix("then: ")
        assert command == "maester play --base --pack packs/glass --variant glass"
        assert (tmp_path / "packs/glass/variant.mst").read_text().startswith(f"# Play with this pack: {command}\n")
        played = run(*shlex.split(command)[1:])
        assert played.exit_code == 0, played.output
        assert "setup base-6p" in played.output and "variant glass" in played.output and " wins " in played.output


def test_a_game_played_with_a_pack_replays(tmp_path):
    with inside(tmp_path):
        assert run("new", "variant", "glass").exit_code == 0
        r = run("play", "--base", "-p", "3", "--pack", "packs/glass", "--variant", "glass", "-a", "random", "-q",
                "--log", "g.json")
        assert r.exit_code == 0, r.output
        assert json.loads(Path("g.json").read_text())["packs"] == ["packs/glass"]
        assert "replay matches" in run("replay", "g.json").output  # the pack the log records
        assert "replay matches" in run("replay", "g.json", "--pack", "packs/glass").output
        r = run("replay", "g.json", "--variant", "targaryen-b")
        assert r.exit_code == 1 and "played with variant 'glass', not 'targaryen-b'" in r.output
        os.rename("packs", "elsewhere")
        r = run("replay", "g.json")
        assert r.exit_code == 1 and "the pack packs/glass, which is not here" in r.output
        assert "replay matches" in run("replay", "g.json", "--pack", "elsewhere/glass").output


@pytest.mark.parametrize("command", ["conformance", "explain", "diff"])
def test_missing_or_empty_folders_fail_having_checked_nothing(tmp_path, command):
    empty = tmp_path / "empty"
    empty.mkdir()
    nothing = "no conformance vector" if command == "conformance" else "holds no"
    for folder, words in ((empty, nothing), (tmp_path / "missing", "no such file or folder")):
        args = [command, str(folder)] + ([str(folder)] if command == "diff" else [])
        r = run(*args)
        assert r.exit_code == 1 and words in r.output, r.output
        assert " passed, " not in r.output and " conform, " not in r.output and "no differences" not in r.output


@pytest.mark.parametrize("command", ["schema", "docs"])
def test_write_outside_the_repository_is_a_clear_error(tmp_path, command):
    with inside(tmp_path):
        r = run(command, "--write")
    assert r.exit_code == 1 and "rewrites a file of the maester repository" in r.output
    assert "run it from the repository's root folder" in r.output and not list(tmp_path.iterdir())


def test_error_paths_are_relative_to_the_current_folder(tmp_path):
    with inside(tmp_path):
        assert run("new", "variant", "glass").exit_code == 0
        stark = Path("packs/glass/stark.mst")
        stark.write_text(stark.read_text().replace("strength", "strenght", 1))
        r = run("check", "--pack", "packs/glass")
    assert r.exit_code == 1
    assert re.search(r"^packs/glass/stark\.mst:5:\d+: error: unknown key 'strenght'", r.output, re.M), r.output


def test_a_missing_path_is_reported_once(tmp_path):
    r = run("check", str(tmp_path / "nope.mst"))
    assert r.exit_code == 1 and r.output.count("no such file") == 1 and "1 error;" in r.output


def test_card_suggests_cards_containing_the_word():
    r = run("card", "tywin")
    assert r.exit_code == 1 and ("did you mean 'Tywin Lannister' (tywin-lannister) or 'Tywin Lannister' "
                                 "(tywin-lannister-asos)?") in r.output


def test_check_summary_counts_agree_with_their_details():
    r = run("check")
    row = next(ln for ln in r.output.splitlines() if "Westeros cards" in ln)
    count = int(re.search(r"Westeros cards\s*│\s*(\d+)", row).group(1))
    assert sum(int(n) for n in re.findall(r"(\d+) cards? \(", row)) == count
    assert re.findall(r"\((\d+) copies\)", row) == ["10", "10", "10", "10"]  # each deck holds 10 cards
    orders = next(ln for ln in r.output.splitlines() if "order tokens" in ln)
    count = re.search(r"order tokens\s*│\s*(\d+)", orders).group(1)
    assert f"{count} kinds of order" in orders


def test_map_takes_pack_and_keeps_content_as_a_deprecated_alias(tmp_path):
    with inside(tmp_path):
        assert run("new", "variant", "glass").exit_code == 0
        r = run("map", "--pack", "packs/glass")
        assert r.exit_code == 0 and len(json.loads(r.stdout)["areas"]) == 58
    content = Path(__file__).resolve().parents[1] / "content"
    r = run("map", "--content", str(content))
    assert r.exit_code == 0 and "--content is deprecated" in r.output


def test_play_shows_its_setup_then_round_1_and_does_not_wrap_when_piped():
    r = run("play", "--base", "-p", "3", "-s", "5", "-a", "random")
    assert r.exit_code == 0
    lines = r.output.splitlines()
    assert lines[0] == "Base game, setup base-3p (3 players), seed 5"
    assert lines[1].startswith("houses: ") and sorted(lines[1][8:].split(", ")) == ["baratheon", "lannister", "stark"]
    assert lines[2] == "agents: random"
    assert lines[3].strip() == "round 1 begins" and "round 2 begins" in lines[4:][0] + "".join(lines[4:])
    caption = next(ln for ln in lines if "final state" in ln)  # one line, however long
    assert re.search(r"\d+ decisions, \d+ events: .* fallen; final state [0-9a-f]{16}$", caption.strip())


def test_counts_are_pluralised():
    assert (plural(1, "garrison"), plural(2, "garrison"), plural(0, "combat")) == ("1 garrison", "2 garrisons",
                                                                                   "0 combats")
    r = run("play", "--base", "-p", "3", "-s", "5", "-a", "random", "-q")
    caption = next(ln for ln in r.output.splitlines() if "final state" in ln)
    for n, word in re.findall(r"(\d+) (combats?|garrisons?|wildling attacks?)", caption):
        assert word.endswith("s") == (n != "1"), caption


def test_validate_says_an_unsupported_major_version_first_and_alone(tmp_path, bundle):
    future = dict(bundle, format_version="2.0.0")
    future["house_cards"] = {"broken": {"id": 3}}
    path = tmp_path / "b.json"
    path.write_text(json.dumps(future))
    r = run("validate", str(path), "--json")
    doc = json.loads(r.stdout)
    assert r.exit_code == 1 and [d["code"] for d in doc["diagnostics"]] == ["unsupported-version"]
    assert "bundle format 2.0.0, which this maester does not read (it reads 1.x)" in doc["diagnostics"][0]["message"]


def test_play_fails_before_playing_when_its_log_cannot_be_written(tmp_path):
    r = run("play", "--log", str(tmp_path / "missing" / "x.json"))
    assert r.exit_code == 1 and "does not exist" in r.output and "round 1 begins" not in r.output


def test_an_output_that_is_a_link_is_written_through_not_replaced(tmp_path):
    real, link = tmp_path / "real.json", tmp_path / "link.json"
    real.write_text("old")
    link.symlink_to(real)
    assert run("compile", "-o", str(link)).exit_code == 0
    assert link.is_symlink() and json.loads(real.read_text())["format"] == "maester-bundle"


def test_an_output_that_is_a_pipe_is_written_in_place(tmp_path):
    import threading

    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    got: list[bytes] = []
    reader = threading.Thread(target=lambda: got.append(fifo.read_bytes()), daemon=True)
    reader.start()
    r = run("map", "-f", "dot", "-o", str(fifo))
    reader.join(timeout=60)
    assert r.exit_code == 0 and got and got[0].startswith(b'graph "base"')
    assert fifo.is_fifo()
