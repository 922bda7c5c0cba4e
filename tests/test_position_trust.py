"""Issue 20.2: a position is a game, not a document to edit.

A saved position is accepted only when its history, replayed from the setup, reaches exactly its state (a
checkpoint is verified against the replay, never trusted); an analysis position (`Game.analysis_position`) only
when it passes the schema and every invariant of the rules. `render`, `view` and `play --resume` check what they
read before they use it, and no forged file makes a command exit 3.
"""

from __future__ import annotations

import copy
import json

import pytest
from typer.testing import CliRunner

from maester.interpreter.core.position import ANALYSIS, PositionError
from maester.interpreter.core.rules import Rules
from maester.interpreter.core.state import GameState
from maester.interpreter.core.state_check import state_problems
from maester.interpreter.frontends.agents import agents_for
from maester.interpreter.mod import new_game
from maester.interpreter.procedures.game import Game
from maester.tools.cli import app

runner = CliRunner()


@pytest.fixture(scope="module")
def rules() -> Rules:
    return Rules.default()


@pytest.fixture(scope="module")
def saved(rules) -> dict:
    game = new_game(rules, "base-4p", seed=11)
    agents = agents_for(game.state.houses, "random", seed=11)
    for _ in range(120):  # into round 2: two checkpoints
        game.answer(agents[game.decision.house].act(game, game.decision))
    doc = json.loads(json.dumps(game.to_state()))
    assert len(doc["checkpoints"]) == 2 and doc["checkpoints"][1]["answers"] > 0
    return doc


def _stark_power(d: dict, power: int = 99) -> None:
    d["state"]["houses"]["stark"]["power"] = power


def _forge_with_checkpoint(d: dict, power: int = 99) -> None:
    """The edit copied into the latest checkpoint, and the history after it dropped: once accepted."""
    _stark_power(d, power)
    cp = d["checkpoints"][-1]
    cp["state"] = copy.deepcopy(d["state"])
    d["history"]["answers"] = d["history"]["answers"][:cp["answers"]]
    d["history"]["actions"] = [a for a in d["history"]["actions"] if a["at"] <= cp["answers"]]


def _forge_emptied(d: dict, power: int = 99) -> None:
    """The history emptied: only a restart was checked."""
    _stark_power(d, power)
    d["history"] = {"answers": [], "actions": []}
    d["checkpoints"] = []


def _forge_checkpoint_only(d: dict) -> None:
    """The state left alone, an earlier checkpoint edited (undo would go back into a forged past)."""
    d["checkpoints"][-1]["state"]["houses"]["stark"]["power"] = 19


# A state the rules cannot reach is refused before it restarts the procedure ("breaks the rules"); one they allow
# but the history does not lead to, by the replay
FORGERIES = [
    ("the state edited", _stark_power, "breaks the rules"),
    ("the edit copied into the checkpoint", _forge_with_checkpoint, "breaks the rules"),
    ("the history emptied", _forge_emptied, "breaks the rules"),
    ("a power the rules allow", lambda d: _stark_power(d, 1), "does not follow from its history"),
    ("a power the rules allow, copied into the checkpoint", lambda d: _forge_with_checkpoint(d, 1),
     "does not follow from its history"),
    ("a power the rules allow, the history emptied", lambda d: _forge_emptied(d, 1),
     "does not follow from its history"),
    ("a checkpoint edited", _forge_checkpoint_only, "checkpoint after"),
    ("35 knights in Winterfell", lambda d: d["state"]["units"].update(
        winterfell={"house": "stark", "units": [["knight", False]] * 35}), "breaks the rules"),
    ("round 99 of 10", lambda d: d["state"].update(round=99), "breaks the rules"),
    ("a power of a billion (case 301:773 of the positions campaign: a bid of a billion options filled the memory)",
     lambda d: _stark_power(d, 10**9), "breaks the rules"),
    ("an integral float", lambda d: d["state"]["houses"]["stark"].update(power=4.0), "is not of type 'integer'"),
]


@pytest.mark.parametrize(("name", "forge", "message"), FORGERIES, ids=[f[0] for f in FORGERIES])
def test_a_forged_position_is_refused(rules, saved, name, forge, message):
    doc = copy.deepcopy(saved)
    forge(doc)
    with pytest.raises(PositionError, match=message):
        Game.from_state(rules, doc)


def test_the_real_position_resumes_and_its_checkpoints_are_verified(rules, saved):
    game = Game.from_state(rules, copy.deepcopy(saved))
    assert game.state.to_json() == saved["state"] and len(game.answers) == len(saved["history"]["answers"])
    game.undo()  # the verified checkpoints take it back
    assert len(game.answers) == len(saved["history"]["answers"]) - 1


# ---- analysis positions: no history, every invariant --------------------------------------------------------

def _analysis(saved: dict) -> dict:
    doc = copy.deepcopy(saved)
    doc["history"] = {"answers": [], "actions": []}
    doc["checkpoints"] = []
    return doc


@pytest.mark.parametrize(("edit", "message"), [
    (lambda s: s["houses"]["stark"].update(power=99), "houses/stark/power: 99 available"),
    (lambda s: s["units"].update(winterfell={"house": "stark", "units": [["knight", False]] * 35}),
     "stark has 35 knight on the board; its limit is 5"),
    (lambda s: s["houses"]["stark"]["hand"].append("tywin-lannister"), "'tywin-lannister' is a card of lannister"),
    (lambda s: s.update(round=99), "round 99 is outside the game's rounds 1 to 10"),
    (lambda s: s["houses"]["stark"].update(supply=9), "houses/stark/supply: 9 is off the supply track"),
    (lambda s: s.update(wildling_threat=5), "wildling_threat: 5 is not on the wildling track"),
    (lambda s: s["tracks"]["iron-throne"].append("stark"), "tracks/iron-throne"),
    (lambda s: s["units"].update({"the-shivering-sea": {"house": "stark", "units": [["knight", False]]}}),
     "a knight in a sea area"),
])
def test_an_analysis_position_must_keep_the_invariants(rules, saved, edit, message):
    doc = _analysis(saved)
    edit(doc["state"])
    with pytest.raises(PositionError, match="breaks the rules") as info:
        Game.analysis_position(rules, doc)
    assert message in str(info.value)


def test_an_analysis_position_with_a_frame_no_procedure_stands_in_is_refused(rules, saved):
    """A found by the fuzzing campaign (case 201:802): a copied frame made the game stop later with an internal
    error; the resume sees that the rules stand in fewer frames than the file holds."""
    doc = _analysis(saved)
    assert doc["state"]["frames"], "the saved position waits inside a procedure"
    doc["state"]["frames"].append(copy.deepcopy(doc["state"]["frames"][-1]))
    with pytest.raises(PositionError, match="procedure frames, but the rules stand in"):
        Game.analysis_position(rules, doc)


def test_an_analysis_position_that_keeps_the_invariants_is_played_without_history(rules, saved):
    doc = _analysis(saved)
    doc["state"]["houses"]["stark"]["power"] = 1  # edited, but a power the rules allow
    with pytest.raises(PositionError):  # not a saved game: its (empty) history does not lead there
        Game.from_state(rules, doc)
    game = Game.from_state(rules, doc, ANALYSIS)
    assert game.state.houses["stark"].power == 1 and game.answers == [] and game.decision is not None
    # an analysis position given its history keeps none of it: nothing proves that the answers lead there
    full = copy.deepcopy(saved)
    assert Game.analysis_position(rules, full).answers == []


def test_the_invariants_hold_at_every_decision_of_real_games(rules):
    """No false alarm: the states real games go through pass state_check (base and Mother of Dragons)."""
    for setup, seed in (("base-3p", 1), ("mod-8p", 3), ("mod-4p-with-targaryen", 4)):
        game = new_game(rules, setup, seed=seed)
        agents = agents_for(game.state.houses, "random", seed=seed)
        while game.decision is not None:
            assert state_problems(rules, game.state) == [], (setup, seed, game.decision.number)
            game.answer(agents[game.decision.house].act(game, game.decision))
        assert state_problems(rules, GameState.from_json(game.state.to_json())) == []


# ---- the commands check before they draw or play --------------------------------------------------------------

def test_render_view_and_resume_refuse_forged_files(tmp_path, saved):
    forged = copy.deepcopy(saved)
    _forge_with_checkpoint(forged)
    bare = copy.deepcopy(saved["state"])
    bare["round"] = 99
    bare["houses"]["stark"]["hand"].append("tywin-lannister")
    files = {"forged.json": forged, "bare.json": bare, "wrapped.json": {"state": bare}}
    for name, data in files.items():
        (tmp_path / name).write_text(json.dumps(data))
    for name in files:
        path = str(tmp_path / name)
        for args in (["render", path, "-o", str(tmp_path / "x.svg")], ["view", path, "-o", str(tmp_path / "x.html")],
                     ["play", "--resume", path, "-q"]):
            result = runner.invoke(app, [*args, "--json"])
            assert result.exit_code == 1, (args, result.output[-400:])
            doc = json.loads(result.stdout)
            assert doc["ok"] is False and doc["diagnostics"][0]["severity"] == "error"
    assert not (tmp_path / "x.svg").exists() and not (tmp_path / "x.html").exists()
    (tmp_path / "real.json").write_text(json.dumps(saved))
    assert runner.invoke(app, ["render", str(tmp_path / "real.json"), "-o", str(tmp_path / "x.svg")]).exit_code == 0


@pytest.mark.parametrize("edit", [
    lambda s: s.update(units={"nowhere": {"house": "stark", "units": [["knight", False]]}}),
    lambda s: s.update(units={"winterfell": {"house": "stark", "units": [["dragon-lord", False]]}}),
    lambda s: s.update(orders={"winterfell": {"house": "stark", "order": "teleport"}}),
    lambda s: s.update(power_tokens={"winterfell": "nobody"}),
    lambda s: s.update(tracks={"no-track": []}),
    lambda s: s["houses"]["stark"].update(hand=["no-such-card"]),
    lambda s: s.update(garrisons={"nowhere": 2}),
    lambda s: s.update(phase="lunch"),
])
def test_render_never_crashes_on_an_edited_state(tmp_path, saved, edit):
    state = copy.deepcopy(saved["state"])
    edit(state)
    f = tmp_path / "state.json"
    f.write_text(json.dumps(state))
    result = runner.invoke(app, ["render", str(f), "-o", str(tmp_path / "x.svg")])
    assert result.exit_code == 1, result.output
    assert "internal error" not in result.output and "Traceback" not in result.output


def test_saves_after_resumes_and_undos_resume(rules):
    """Checkpoints carried through several resumes, and an undo past the point a game was resumed at, still
    make positions that prove themselves (the undo once left the count of events too high)."""
    def round_trip(g: Game) -> Game:
        return Game.from_state(rules, json.loads(json.dumps(g.to_state())))

    game = new_game(rules, "base-3p", seed=1)
    agents = agents_for(game.state.houses, "random", seed=1)
    step = 0
    while game.decision is not None:
        game.answer(agents[game.decision.house].act(game, game.decision))
        step += 1
        if step % 97 == 0:
            game = round_trip(game)
            if step % 194 == 0:
                game.undo()  # back before the point this game was resumed at
                game = round_trip(game)
    assert round_trip(game).state.hash() == game.state.hash()
