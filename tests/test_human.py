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
    # the first question (area names, the rule that asks), then its numbered answers, special orders labelled
    assert "== stark: order for The Shivering Sea — asked by rule R13.2.1" in screen
    assert "    6. March +1 — special order ★" in screen
    assert "    7. Raid" in screen and "   11. Support +1" in screen
    assert "board [FILE]" in screen  # help
    assert "White Harbor: stark: footman" in screen  # the board, as text...
    assert not (tmp_path / "maester-board.svg").exists()  # nothing written into the player's folder uninvited
    where = re.search(r"the board as a picture: (\S+)", screen).group(1)
    picture = Path(where).read_text()  # ... and as a picture (in a temporary folder), seen by stark
    assert picture.startswith("<svg") and "Winterfell" in picture
    assert "orders: The Shivering Sea: stark Raid" in screen  # the answer before the undo...
    after_undo = screen.rsplit("== stark: order for The Shivering Sea", 1)[1]
    assert "stark Raid" not in after_undo.split("==")[0]  # ... is taken back: the same question again
    assert "orders: The Shivering Sea: stark March +0" in screen
    assert f"saved to {save}" in screen and "stopped at decision" in run.stderr
    table = json.loads(save.read_text())
    assert table["format"] == "maester-table"  # the position, who plays what, and the agents' random state
    assert table["seats"] == {"baratheon": "random", "lannister": "random", "stark": "human"}
    assert set(table["agent_rng"]) == {"baratheon", "lannister"}
    doc = table["position"]
    assert doc["format"] == "maester-position" and doc["decision"]["house"] == "stark"
    assert doc["history"]["answers"][-2:] == ["march", "consolidate-power"]  # stark's two, after the undo
    # other houses' face-down orders are never shown to stark while orders are being placed
    assert "baratheon March" not in screen and "lannister March" not in screen

    again = tmp_path / "again.json"
    resumed = _maester(["play", "--resume", str(save), "--agents", "stark=human,random", "--save", str(again)],
                       ["2", "quit"], tmp_path)
    assert resumed.returncode == 0, resumed.stderr
    assert resumed.stdout.count("== stark:") == 2 and "stopped at decision" in resumed.stderr
    later = json.loads(again.read_text())["position"]["history"]["answers"]
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



def test_stopping_and_resuming_plays_the_same_game(tmp_path):
    """The save keeps who plays each house and the agents' random state: resumed, the game goes on exactly as
    if it had never stopped (same answers, same end)."""
    common = ["play", "--base", "-p", "3", "--seed", "9", "--agents", "random,stark=heuristic", "-q"]
    whole = _maester([*common, "--log", "whole.json"], [], tmp_path)
    assert whole.returncode == 0, whole.stderr
    stopped = _maester([*common, "--stop-at", "120", "--save", "saved.json"], [], tmp_path)
    assert stopped.returncode == 0, stopped.stderr
    resumed = _maester(["play", "--resume", "saved.json", "-q", "--log", "resumed.json"], [], tmp_path)
    assert resumed.returncode == 0, resumed.stderr
    assert "agents: baratheon=random, lannister=random, stark=heuristic" in resumed.stdout  # the saved seats
    a, b = (json.loads((tmp_path / f).read_text()) for f in ("whole.json", "resumed.json"))
    assert len(a["answers"]) > 120 and b["answers"] == a["answers"]
    assert b["summary"] == a["summary"]


def test_one_human_leaves_the_others_to_the_default_agent(tmp_path):
    run = _maester(["play", "--base", "-p", "3", "--seed", "2", "--agents", "stark=human"], ["quit"], tmp_path)
    assert "agents: baratheon=heuristic, lannister=heuristic, stark=human" in run.stdout


def test_a_house_card_choice_shows_the_cards_and_the_combat(bundle):
    from maester.interpreter.core.rules import Rules
    from maester.interpreter.frontends.agents import HeuristicAgent

    rules = Rules(bundle)
    game = new_game(rules, "base-3p", seed=3)
    agent = HeuristicAgent(1)
    while game.decision.kind != "house-card":
        game.answer(agent.act(game, game.decision))
    d = game.decision
    shown: list[str] = []
    seat = HumanSeat(read=lambda prompt: "1", write=shown.append)
    assert seat.act(game, d) == d.options[0]
    screen = "\n".join(shown)
    assert "combat in Crackclaw Point" in screen and "attacker lannister" in screen and "defender baratheon" in screen
    assert "strength 2" in screen  # the initial strengths of the combat (R19.4)
    # every card of the hand, with its numbers and its text generated from the rules
    assert "[Tywin Lannister] (strength 4, swords 0, fortifications 0):" in screen
    assert "Ser Gregor Clegane (strength 3, swords 3, forts 0)" in screen
    assert "== lannister: choose a house card for the combat in Crackclaw Point" in screen
