"""A person at the table: `maester play --agents stark=human` in a terminal, typed at as a player would —
numbered answers, help, board, undo, save, quit — and the saved game resumed with `--resume`."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

from maester.interpreter.frontends.agents import RandomAgent
from maester.interpreter.mod import new_game
from maester.tools.human import HumanSeat, describe_answer, drive


def _maester(args: list[str], typed: list[str], cwd) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "maester.tools.cli", *args], input="\n".join(typed) + "\n",
                          capture_output=True, text=True, cwd=cwd, timeout=300)


def test_a_person_plays_undoes_saves_quits_and_resumes(tmp_path):
    save = tmp_path / "game.json"
    typed = ["help", "7", "board", "undo", "4", "1", "save", "quit"]
    run = _maester(["play", "--base", "-p", "3", "--seed", "2", "--agents", "stark=human,random", "--save",
                    str(save)], typed, tmp_path)
    assert run.returncode == 0, run.stderr
    screen = run.stdout
    assert "== stark: order for the-shivering-sea" in screen  # the first question, then its numbered answers
    assert "    7. Raid" in screen and "   11. Support +1" in screen
    assert "board [FILE]" in screen  # help
    assert "White Harbor: stark: footman" in screen  # the board, as text...
    assert not (tmp_path / "maester-board.svg").exists()  # nothing written into the player's folder uninvited
    where = re.search(r"the board as a picture: (\S+)", screen).group(1)
    picture = Path(where).read_text()  # ... and as a picture (in a temporary folder), seen by stark
    assert picture.startswith("<svg") and "Winterfell" in picture
    assert "orders: The Shivering Sea: stark Raid" in screen  # the answer before the undo...
    after_undo = screen.rsplit("== stark: order for the-shivering-sea", 1)[1]
    assert "stark Raid" not in after_undo.split("==")[0]  # ... is taken back: the same question again
    assert "orders: The Shivering Sea: stark March +0" in screen
    assert f"saved to {save}" in screen and "stopped at decision" in run.stderr
    doc = json.loads(save.read_text())
    assert doc["format"] == "maester-position" and doc["decision"]["house"] == "stark"
    assert doc["history"]["answers"][-2:] == ["march", "consolidate-power"]  # stark's two, after the undo
    # other houses' face-down orders are never shown to stark while orders are being placed
    assert "baratheon March" not in screen and "lannister March" not in screen

    again = tmp_path / "again.json"
    resumed = _maester(["play", "--resume", str(save), "--agents", "stark=human,random", "--save", str(again)],
                       ["2", "quit"], tmp_path)
    assert resumed.returncode == 0, resumed.stderr
    assert resumed.stdout.count("== stark:") == 2 and "stopped at decision" in resumed.stderr
    later = json.loads(again.read_text())["history"]["answers"]
    assert later[: len(doc["history"]["answers"])] == doc["history"]["answers"] and later[len(doc["history"]["answers"])] == "defense-plus-one"


def test_a_bad_answer_is_explained_and_asked_again(bundle):
    from maester.interpreter.core.rules import Rules

    rules = Rules(bundle)
    game = new_game(rules, "base-3p", seed=1)
    typed = iter(["99", "march", "", "2", "quit"])
    shown: list[str] = []
    seat = HumanSeat(read=lambda prompt: next(typed), write=shown.append)
    agents = {h: seat if h == "stark" else RandomAgent(i) for i, h in enumerate(game.state.houses)}
    assert drive(game, agents) is False
    assert shown.count("'99' is not an answer: type a number from 1 to 11, or help") == 1
    assert "'march' is not an answer: type a number from 1 to 11, or help" in shown
    assert game.answers[-1] == "defense-plus-one"  # the second answer listed


def test_every_kind_of_answer_is_said_in_words(bundle):
    from maester.interpreter.core.decisions import Decision
    from maester.interpreter.core.rules import Rules

    game = new_game(Rules(bundle), "base-3p", seed=1)

    def said(kind, answer):
        return describe_answer(game, Decision(0, "stark", kind, "", [answer, "x"]), answer)

    assert said("march", "footman:kingswood") == "move a Footman to Kingswood"
    assert said("muster", "upgrade:footman:knight:winterfell") == "upgrade a Footman to a Knight in Winterfell"
    assert said("reconcile", "winterfell:knight") == "destroy a Knight in Winterfell"
    assert said("influence-bid", 3) == "bid 3 power"
    assert said("house-card", "eddard-stark") == "Eddard Stark (strength 4, swords 2, forts 0)"
    assert said("messenger-raven", "replace:winterfell:raid") == "replace your order in Winterfell by Raid"

