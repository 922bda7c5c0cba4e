"""The acceptance check of issue 20, written apart from tests/fuzz and the issue's own tests (test_safe_writes,
test_position_trust, test_api_strict, test_cli_hostile, test_data_limits): held-out inputs of the same kinds.

- positions: structure-aware edits of real saved positions (base and Mother of Dragons) that keep the schema but
  break a rule, drawn by `render` and loaded as analysis positions, and resumed as saved tables;
- files: every writing command pointed at a full file system, a read-only one, /dev/full, a name of 256 bytes, a
  folder, a missing folder and its own input (by another spelling, by a hard link);
- the user's folder: what a run of a command leaves in an empty working folder;
- limits: each stated limit of dsl/limits.py just over, a located error.

The expected messages are the ones a user reads. The whole matrix runs with --runslow; the default run takes a
few representative cases of each kind.
"""

from __future__ import annotations

import copy
import json
import os
import shutil
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest
from typer.testing import CliRunner

from maester.dsl.files import TEMP_PREFIX
from maester.dsl.limits import MAX_DATA_STRING_CHARS, MAX_JSON_DEPTH, MAX_LINE_CHARS
from maester.interpreter.core.position import PositionError
from maester.interpreter.core.rules import Rules
from maester.interpreter.frontends.agents import agents_for
from maester.interpreter.mod import new_game
from maester.interpreter.procedures.game import Game
from maester.tools.cli import app

from .conftest import REPO

runner = CliRunner()


@pytest.fixture(scope="module")
def rules() -> Rules:
    return Rules.default()


def _position(rules: Rules, setup: str, seed: int, answers: int) -> dict:
    game = new_game(rules, setup, seed=seed)
    agents = agents_for(game.state.houses, "random", seed=seed)
    for _ in range(answers):
        game.answer(agents[game.decision.house].act(game, game.decision))
    return json.loads(json.dumps(game.to_state()))


@pytest.fixture(scope="module")
def base_pos(rules) -> dict:
    return _position(rules, "base-4p", 20, 60)  # round 1, Action Phase: orders on the board


@pytest.fixture(scope="module")
def mod_pos(rules) -> dict:
    doc = _position(rules, "mod-6p-with-targaryen", 2, 150)
    assert doc["state"]["modules"]["mother-of-dragons"]["vassals"], "the setup has vassals"
    return doc


# ---- positions: schema-valid edits that break a rule ---------------------------------------------------------

def _houses(s: dict) -> list[str]:
    return [h for h in s["houses"] if h not in s.get("modules", {}).get("mother-of-dragons", {}).get("vassals", [])]


def _land_army(s: dict, house: str) -> str:
    return next(a for a, army in s["units"].items() if army["house"] == house
                and all(k not in ("ship",) for k, _ in army["units"]))


def _ship_area(s: dict) -> str:
    return next(a for a, army in s["units"].items() if any(k == "ship" for k, _ in army["units"]))


# (name, edit of the state, the words of the refusal); each edit once crashed a game played on from the analysis
# position (a KeyError half-way through a round) or let render draw a position no game reaches
EDITS: list[tuple[str, Callable[[dict], None], str]] = [
    ("a turn track that is no track", lambda s: s.update(turn_track="nope"),
     "turn_track: 'nope' is not a track of the state"),
    ("a garrison of a house not in the game", lambda s: s["garrison_owner"].update(
        {a: "nobody" for a in s["garrison_owner"]}), "is not a house of the game on the board"),
    ("a power token at sea", lambda s: s["power_tokens"].update({_ship_area(s): s["units"][_ship_area(s)]["house"]}),
     "a power token in a sea area"),
    ("a power token under another house's army", lambda s: s["power_tokens"].update(
        {_land_army(s, _houses(s)[1]): _houses(s)[0]}), "power token under"),
    ("a winner who is no house", lambda s: s.update(winner="nobody"), "winner: 'nobody' is not a house of the game"),
    ("a Westeros deck of unknown cards", lambda s: s["decks"].update({k: ["nope"] for k in s["decks"]}),
     "'nope' not Westeros cards"),
    ("a wildling deck of unknown cards", lambda s: s.update(wildling_deck=["nope"]), "'nope' not wildling cards"),
    ("an order token played more often than it exists", lambda s: s["orders"].update(
        {a: {"house": army["house"], "order": "march-plus-one"} for a, army in s["units"].items()}),
     "'march-plus-one' order(s) on the board"),
    ("an army in a blocked area", lambda s: s.update(blocked=[_land_army(s, _houses(s)[0])]),
     "an army in a blocked area"),
    ("a forbidden order that is no order", lambda s: s.update(forbidden_orders=["teleport"]),
     "forbidden_orders: 'teleport' is not an order token or type"),
]

MOD_EDITS: list[tuple[str, Callable[[dict], None], str]] = [
    ("a vassal turned player", lambda m: m.update(vassals=m["vassals"][1:]), "vassal(s); setup"),
    ("a vassal that is no house", lambda m: m.update(vassals=[*m["vassals"], "nobody"]),
     "are not houses of the game, each once"),
    ("a player turned vassal keeping its power", lambda m: m.update(vassals=[*m["vassals"], "stark"]),
     "but a vassal holds no power"),
    ("a loan card that is no loan", lambda m: m.update(bank=[*m["bank"], "nobody"]), "'nobody' not loan cards"),
    ("a leaving house that is no house", lambda m: m.update(leaving=["nobody"]),
     "'nobody' is not a house of the game"),
    ("loyalty at sea", lambda m: m["loyalty"].update({"the-narrow-sea": 1}), "loyalty tokens off the land areas"),
    ("more loyalty than the game has", lambda m: m["loyalty"].update({"kings-landing": 99}),
     "tokens on the board; the game has 20"),
    ("a commander that is a vassal", lambda m: m.update(commanders={v: v for v in m["vassals"]}),
     "is not a player commanding a vassal"),
]


def _analysis_doc(saved: dict) -> dict:
    doc = copy.deepcopy(saved)
    doc["history"] = {"answers": [], "actions": []}
    doc["checkpoints"] = []
    return doc


@pytest.mark.parametrize(("name", "edit", "words"), EDITS, ids=[e[0] for e in EDITS])
def test_an_edited_state_is_neither_drawn_nor_played(tmp_path, rules, base_pos, name, edit, words):
    doc = _analysis_doc(base_pos)
    edit(doc["state"])
    with pytest.raises(PositionError, match="breaks the rules") as info:
        Game.analysis_position(rules, doc)
    assert words in str(info.value)
    f = tmp_path / "state.json"
    f.write_text(json.dumps(doc["state"]))
    result = runner.invoke(app, ["render", str(f), "-o", str(tmp_path / "x.svg"), "--json"])
    out = json.loads(result.stdout)
    assert result.exit_code == 1 and out["ok"] is False, result.output
    assert words in out["diagnostics"][0]["message"]
    assert not (tmp_path / "x.svg").exists()


@pytest.mark.parametrize(("name", "edit", "words"), MOD_EDITS, ids=[e[0] for e in MOD_EDITS])
def test_an_edited_mother_of_dragons_state_is_refused(rules, mod_pos, name, edit, words):
    doc = _analysis_doc(mod_pos)
    edit(doc["state"]["modules"]["mother-of-dragons"])
    with pytest.raises(PositionError, match="breaks the rules") as info:
        Game.analysis_position(rules, doc)
    assert words in str(info.value)


def test_the_unedited_positions_are_analysis_positions(rules, base_pos, mod_pos):
    """No false alarm: the real states pass (tests/test_position_trust.py plays whole games through the check)."""
    for saved in (base_pos, mod_pos):
        game = Game.analysis_position(rules, _analysis_doc(saved))
        assert game.state.to_json() == saved["state"]


@pytest.mark.parametrize("edit", [e for e in EDITS[:4]] + [("vassals", None, "")], ids=lambda e: e[0])
def test_the_same_edits_in_a_saved_table_are_refused_by_resume(tmp_path, base_pos, mod_pos, edit):
    """A saved table (`play --save`) with the edit in its state and its latest checkpoint: its history refuses it."""
    name, change, _ = edit
    saved = copy.deepcopy(mod_pos if change is None else base_pos)
    if change is None:
        saved["state"]["modules"]["mother-of-dragons"]["vassals"] = []
    else:
        change(saved["state"])
    saved["checkpoints"][-1]["state"] = copy.deepcopy(saved["state"])
    f = tmp_path / "table.json"
    f.write_text(json.dumps({"format": "maester-table", "version": 1, "position": saved}))
    result = runner.invoke(app, ["play", "--resume", str(f), "-q", "--stop-at", "1", "--json"])
    assert result.exit_code == 1 and json.loads(result.stdout)["ok"] is False, result.output[-600:]
    assert "Traceback" not in result.output


# ---- files: whole or not at all, never over the input ---------------------------------------------------------

@pytest.fixture(scope="module")
def inputs(tmp_path_factory) -> dict[str, Path]:
    d = tmp_path_factory.mktemp("in")
    log, pos = d / "log.json", d / "pos.json"
    assert runner.invoke(app, ["play", "--base", "-p", "3", "-q", "--seed", "4", "--stop-at", "40",
                               "--log", str(log), "--save", str(pos)]).exit_code == 0
    return {"log": log, "pos": pos}


def _writers(i: dict[str, Path], target: str) -> dict[str, list[str]]:
    """Every command that writes a file, writing `target`."""
    return {
        "compile -o": ["compile", "-o", target],
        "render -o": ["render", str(i["log"]), "-o", target],
        "render png": ["render", str(i["log"]), "-o", target, "--format", "png"],
        "view -o": ["view", str(i["log"]), "-o", target],
        "play --save": ["play", "--base", "-p", "3", "-q", "--stop-at", "3", "--save", target],
        "play --log": ["play", "--base", "-p", "3", "-q", "--stop-at", "3", "--log", target],
        "play --resume --save": ["play", "--resume", str(i["pos"]), "-q", "--stop-at", "45", "--save", target],
        "map -o": ["map", "-o", target],
        "map png": ["map", "-f", "png", "-o", target],
        "schema --write": ["schema", "--write", "--path", target],
    }


FAST_WRITERS = ("compile -o", "play --log", "render -o")
# a failed write, or an output a command refuses before it starts (it looks at the folder first)
WRITE_REFUSALS = ("write-failed", "is-a-folder", "no-such-folder", "unwritable", "not-in-repository")


def _failed_cleanly(result, where: str) -> dict:
    assert result.exit_code == 1, f"{where}: exit {result.exit_code}\n{result.output[-800:]}"
    assert result.exception is None or isinstance(result.exception, SystemExit), (where, result.exception)
    assert "Traceback" not in result.output, where
    doc = json.loads(result.stdout)
    assert doc["ok"] is False and doc["exit_code"] == 1, where
    return doc["diagnostics"][0]


def _no_temporary_file(d: Path) -> None:
    left = [p.name for p in d.rglob(f"{TEMP_PREFIX}*")]
    assert not left, f"temporary files left: {left}"


def _targets(d: Path) -> dict[str, tuple[str, tuple[str, ...]]]:
    """(target, the codes of the refusal) by what it is."""
    (d / "folder").mkdir(exist_ok=True)
    return {
        "/dev/full": ("/dev/full", ("write-failed",)),
        "a name of 256 bytes": (str(d / ("n" * 252 + ".out")), ("name-too-long",)),
        "a name of 256 UTF-8 bytes": (str(d / ("é" * 128)), ("name-too-long",)),
        "a folder": (str(d / "folder"), WRITE_REFUSALS),
        "a missing folder": (str(d / "missing" / "x.out"), WRITE_REFUSALS),
    }


def _writer_cases(slow: bool) -> list:
    names = list(_writers({"log": Path(), "pos": Path()}, "x")) if slow else list(FAST_WRITERS)
    kinds = ["/dev/full", "a name of 256 bytes", "a name of 256 UTF-8 bytes", "a folder", "a missing folder"]
    return [pytest.param(n, k, marks=[pytest.mark.slow] if slow else []) for n in names for k in kinds
            if slow or (n, k) in {("compile -o", "/dev/full"), ("play --log", "/dev/full"),
                                  ("render -o", "a name of 256 UTF-8 bytes"), ("compile -o", "a folder"),
                                  ("play --log", "a missing folder")}]


@pytest.mark.parametrize(("writer", "kind"), _writer_cases(False) + _writer_cases(True))
def test_a_bad_target_is_a_failure(tmp_path, inputs, writer, kind):
    if kind == "/dev/full" and not Path("/dev/full").exists():
        pytest.skip("no /dev/full")
    target, codes = _targets(tmp_path)[kind]
    result = runner.invoke(app, [*_writers(inputs, target)[writer], "--json"])
    assert _failed_cleanly(result, f"{writer} -> {kind}")["code"] in codes
    _no_temporary_file(tmp_path)


def test_play_stopped_early_still_writes_its_log(tmp_path):
    """`play --stop-at N --log F` once wrote nothing and said nothing (exit 0): a full disk was not seen. The log
    of the game so far is written, and `replay` and `view` read it."""
    log = tmp_path / "log.json"
    result = runner.invoke(app, ["play", "--base", "-p", "3", "-q", "--seed", "2", "--stop-at", "7", "--log", str(log),
                                 "--json"])
    out = json.loads(result.stdout)
    assert result.exit_code == 0 and out["result"]["log"] == str(log) and out["result"]["stopped_at"] == 7
    data = json.loads(log.read_text())
    assert data["format"] == "maester-game-log" and len(data["answers"]) == 7
    assert runner.invoke(app, ["replay", str(log)]).exit_code == 0


def _own_inputs(d: Path, i: dict[str, Path]) -> list[tuple[list[str], Path]]:
    log, pos = d / "log.json", d / "pos.json"
    shutil.copy(i["log"], log)
    shutil.copy(i["pos"], pos)
    (d / "sub").mkdir()
    os.link(log, d / "hard.json")
    return [
        (["render", str(log), "-o", str(d / "sub" / ".." / "log.json")], log),
        (["render", str(log), "-o", str(d / "hard.json")], log),
        (["view", str(pos), "-o", str(pos)], pos),
        (["render", str(pos), "-o", str(pos)], pos),
        (["play", "--resume", str(pos), "--log", str(d / "sub" / ".." / "pos.json")], pos),
        (["play", "--resume", str(pos), "--save", str(log), "--log", str(d / "hard.json")], log),
    ]


def test_an_output_that_is_its_own_input_by_another_name_is_refused(tmp_path, inputs):
    for args, kept in _own_inputs(tmp_path, inputs):
        before = kept.read_bytes()
        diag = _failed_cleanly(runner.invoke(app, [*args, "--json"]), " ".join(args))
        assert diag["code"] == "output-is-input", args
        assert kept.read_bytes() == before, args
    _no_temporary_file(tmp_path)


def test_docs_write_elsewhere_makes_no_page_beside_its_path(tmp_path):
    """`docs --write --path F` once also wrote procedures.md beside F, uninvited."""
    guide = tmp_path / "guide.md"
    guide.write_text("# My guide\n")
    result = runner.invoke(app, ["docs", "--write", "--path", str(guide), "--json"])
    assert result.exit_code == 0, result.output
    assert sorted(p.name for p in tmp_path.iterdir()) == ["guide.md"]
    assert json.loads(result.stdout)["result"]["updated"] == [str(guide)]


# ---- real full and read-only file systems (root and mount: skipped elsewhere) ---------------------------------

def _mount(where: Path) -> None:
    where.mkdir()
    try:
        done = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=2m", "tmpfs", str(where)], capture_output=True,
                              timeout=30)
    except (OSError, subprocess.SubprocessError) as e:
        pytest.skip(f"cannot mount a tmpfs here ({e})")
    if done.returncode:
        pytest.skip("cannot mount a tmpfs here (not root, or no mount permission)")


def _fill(d: Path) -> None:
    with open(d / "filler", "wb", buffering=0) as f:
        for size in (1 << 16, 512, 1):
            try:
                while True:
                    f.write(b"\0" * size)
            except OSError:
                pass


@pytest.mark.parametrize("disk", ["full", "read-only"])
@pytest.mark.parametrize("writer", [pytest.param(w, marks=[] if w in FAST_WRITERS[:2] else [pytest.mark.slow])
                                    for w in _writers({"log": Path(), "pos": Path()}, "x")])
def test_a_full_or_read_only_file_system(tmp_path, inputs, writer, disk):
    d = tmp_path / "mnt"
    _mount(d)
    try:
        (d / "old.out").write_text("OLD\n")
        if disk == "full":
            _fill(d)
        elif subprocess.run(["mount", "-o", "remount,ro", str(d)], capture_output=True, timeout=30).returncode:
            pytest.skip("cannot remount read-only")
        for target in (d / "old.out", d / "new.out"):
            result = runner.invoke(app, [*_writers(inputs, str(target))[writer], "--json"])
            assert _failed_cleanly(result, f"{writer} on a {disk} disk")["code"] in WRITE_REFUSALS
            assert (d / "old.out").read_text() == "OLD\n" and not (d / "new.out").exists()
        _no_temporary_file(d)
    finally:
        subprocess.run(["umount", str(d)], capture_output=True, timeout=30)


# ---- the user's folder --------------------------------------------------------------------------------------

@pytest.mark.slow
def test_commands_leave_nothing_uninvited_in_the_working_folder(tmp_path, inputs, monkeypatch):
    """Run in an empty folder, each command writes only what it is documented to write there by default
    (compile: bundle.json, view: SOURCE's name with .html)."""
    work = tmp_path / "work"
    work.mkdir()
    monkeypatch.chdir(work)
    scen = REPO / "tests" / "scenarios" / "base" / "rules"
    runs = {
        "check": [], "map": [], "card": ["tywin-lannister"], "schema": [], "docs": [], "version": [],
        "validate": [str(REPO / "conformance")], "replay": [str(inputs["log"])], "explain": [str(scen), "-q"],
        "conformance": [], "diff": [str(REPO / "content"), str(REPO / "content")],
        "render": [str(inputs["log"])], "play": ["--base", "-p", "3", "-q", "--stop-at", "5"],
        "fmt": ["--check", str(REPO / "content" / "core" / "houses.mst")],
    }
    for command, args in runs.items():
        runner.invoke(app, [command, *args, "--json"])
        assert sorted(os.listdir(work)) == [], f"{command} left {os.listdir(work)}"
    runner.invoke(app, ["compile", "--json"])
    runner.invoke(app, ["view", str(inputs["log"]), "--json"])
    assert sorted(os.listdir(work)) == ["bundle.json", "log.html"]


# ---- limits, each just over -------------------------------------------------------------------------------------

def test_data_limits_just_over_are_located_errors(tmp_path):
    nest = "[" * (MAX_JSON_DEPTH + 1) + "]" * (MAX_JSON_DEPTH + 1)
    files = {
        "deep.json": ('{"a": ' + nest + "}", "too-deep", "deeper than 90 levels"),
        "big-int.json": (f'{{"a": {2**64}}}', "bad-number", "outside the 64-bit range"),
        "long-number.json": ('{"a": 1.' + "1" * 39 + "}", "bad-number", "a number of 41 characters"),
        "long-string.json": ('{"a": "' + "x" * (MAX_DATA_STRING_CHARS + 1) + '"}', "too-large",
                             "a string of 1,000,001 characters"),
    }
    for name, (text, code, words) in files.items():
        (tmp_path / name).write_text(text)
        for command in (["replay"], ["render"], ["play", "--resume"], ["validate"]):
            diag = _failed_cleanly(runner.invoke(app, [*command, str(tmp_path / name), "--json"]), name)
            assert diag["code"] == code and words in diag["message"] and diag["file"].endswith(name), diag
    pack = tmp_path / "pack"
    pack.mkdir()
    (pack / "a.mst").write_text("# " + "x" * (MAX_LINE_CHARS - 1) + "\n")
    diag = _failed_cleanly(runner.invoke(app, ["check", "--pack", str(pack), "--json"]), "long line")
    assert (diag["code"], diag["line"], diag["column"]) == ("line-too-long", 1, MAX_LINE_CHARS + 1)


def test_a_scenario_value_of_the_wrong_type_is_located_in_the_file(tmp_path):
    """A scenario's schema errors named only their path, at line 0 (a held-out campaign of 1,654 type swaps found
    795 such); they point at the value now."""
    text = (REPO / "tests" / "scenarios" / "base" / "rules" / "support-sea-combat.yaml").read_text()
    lines = text.splitlines()
    at = next(i for i, line in enumerate(lines) if line.startswith("setup:"))
    lines[at] = "setup: [base-6p]"
    f = tmp_path / "s.yaml"
    f.write_text("\n".join(lines) + "\n")
    diag = _failed_cleanly(runner.invoke(app, ["explain", str(f), "--json"]), "a list for a setup")
    assert diag["code"] == "scenario" and diag["message"].startswith("setup: ['base-6p'] is not of type 'string'")
    assert (diag["line"], diag["column"]) == (at + 1, 8), diag


# ---- the language server --------------------------------------------------------------------------------------

def test_the_language_server_answers_requests_on_documents_it_cannot_read(tmp_path):
    """A request on a document never opened (a missing file, a uri that is no path) was answered with an internal
    error carrying a Python exception; a document whose file name is over 255 bytes broke every request on it.
    Now: InvalidParams saying what is wrong, the long name served alone, and the other documents unharmed."""
    from tests.fuzz.kinds import LanguageServer

    good = tmp_path / "good.mst"
    good.write_text('house-card zz "Z" {\n  set base house stark strength 1\n}\n')
    server = LanguageServer(tmp_path)
    try:
        assert "result" in server.request("initialize", {"processId": None, "rootUri": tmp_path.as_uri(),
                                                         "capabilities": {}})
        server.send({"method": "initialized", "params": {}})
        long_uri = (tmp_path / ("a" * 300 + ".mst")).as_uri()
        for uri in (good.as_uri(), long_uri):
            server.send({"method": "textDocument/didOpen", "params": {"textDocument": {
                "uri": uri, "languageId": "mst", "version": 1, "text": good.read_text()}}})

        def hover(uri: str) -> dict:
            return server.request("textDocument/hover", {"textDocument": {"uri": uri},
                                                         "position": {"line": 1, "character": 4}})

        missing = hover((tmp_path / "never-opened.mst").as_uri())
        assert missing["error"]["code"] == -32602, missing
        assert "is not open and cannot be read: No such file or directory" in missing["error"]["message"]
        assert hover(long_uri).get("error") is None
        assert "set" in hover(good.as_uri())["result"]["contents"]["value"]
    finally:
        server.close()


def test_simulate_results_are_both_written_or_neither(tmp_path, monkeypatch):
    """`simulate -o DIR` wrote its table and its JSON one after the other into a folder it made first: a disk full
    at the second left the first and the folder (found on a 200 KB tmpfs). Both or neither now, and no folder."""
    import errno

    from maester.dsl import files
    from maester.dsl.files import WriteError
    from maester.tools.simulate_cmd import COLUMNS, write_results

    real = files._write_all
    calls = []

    def second_fails(fd: int, blob: bytes) -> None:
        calls.append(fd)
        if len(calls) == 2:
            raise OSError(errno.ENOSPC, "No space left on device")
        real(fd, blob)

    monkeypatch.setattr(files, "_write_all", second_fails)
    record = {c: 0 for c in COLUMNS}
    with pytest.raises(WriteError, match="the disk is full"):
        write_results([record], tmp_path / "new", "csv")
    assert not (tmp_path / "new").exists()
    (tmp_path / "old").mkdir()
    calls.clear()
    with pytest.raises(WriteError):
        write_results([record], tmp_path / "old", "csv")
    assert os.listdir(tmp_path / "old") == []
    monkeypatch.setattr(files, "_write_all", real)
    assert [p.name for p in write_results([record], tmp_path / "new", "csv")] == ["games.csv", "games.json"]


# ---- inputs that never end -------------------------------------------------------------------------------------

@pytest.mark.parametrize("command", [["replay"], ["validate"], ["render"], ["play", "--resume"], ["explain"]],
                         ids=lambda c: c[0])
def test_an_endless_device_as_input_is_refused_at_the_data_limit(command):
    """`/dev/zero` has no size to check first: read whole, it filled the memory and never ended (every command
    that reads a data file). The read is bounded by the data file limit now."""
    if not Path("/dev/zero").exists():
        pytest.skip("no /dev/zero")
    diag = _failed_cleanly(runner.invoke(app, [*command, "/dev/zero", "--json"]), command[0])
    assert diag["code"] == "file-too-large" and "more than 67,108,864 bytes" in diag["message"], diag


def test_a_content_file_that_is_a_device_is_refused(tmp_path):
    """A pack's .mst file linked to /dev/zero (or a pipe) hung `check`, `compile`, `card` and `fmt`."""
    if not Path("/dev/zero").exists():
        pytest.skip("no /dev/zero")
    (tmp_path / "a.mst").symlink_to("/dev/zero")
    diag = _failed_cleanly(runner.invoke(app, ["check", "--pack", str(tmp_path), "--json"]), "check")
    assert diag["code"] == "unreadable" and "it is not a regular file" in diag["message"]
    diag = _failed_cleanly(runner.invoke(app, ["fmt", str(tmp_path / "a.mst"), "--json"]), "fmt")
    assert "not a regular file" in diag["message"]


def test_an_output_over_a_content_file_the_command_reads_is_refused(tmp_path):
    """`play --pack P --log P/x.mst` replaced the pack's file with a game log (exit 0); the same for --save, and
    render and view -o: the content a command loads is one of its inputs."""
    assert runner.invoke(app, ["new", "variant", "my-pk", "--dir", str(tmp_path)]).exit_code == 0
    pack = tmp_path / "my-pk"
    target = sorted(pack.glob("*.mst"))[0]
    before = target.read_bytes()
    log = tmp_path / "log.json"
    assert runner.invoke(app, ["play", "--base", "-p", "3", "-q", "--stop-at", "3", "--log", str(log)]).exit_code == 0
    for args in (["play", "--base", "-p", "3", "-q", "--stop-at", "3", "--pack", str(pack), "--log", str(target)],
                 ["play", "--base", "-p", "3", "-q", "--stop-at", "3", "--pack", str(pack), "--save", str(target)],
                 ["render", str(log), "--pack", str(pack), "-o", str(target)],
                 ["view", str(log), "--pack", str(pack), "-o", str(target)],
                 ["play", "--base", "-p", "3", "-q", "--stop-at", "3", "--log", str(REPO / "content" / "core" /
                                                                                    "houses.mst")]):
        diag = _failed_cleanly(runner.invoke(app, [*args, "--json"]), " ".join(args[:2]))
        assert diag["code"] == "output-is-input", args
    assert target.read_bytes() == before
