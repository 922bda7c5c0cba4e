"""Issue 14.4: every command, given hostile arguments, fails with one clear message and a non-zero exit,
before any long work, and never with a traceback, in text and in --json."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from maester.tools.cli import app

runner = CliRunner()


@pytest.fixture(scope="module")
def junk(tmp_path_factory) -> dict[str, str]:
    """Hostile files and folders, by name."""
    d = tmp_path_factory.mktemp("hostile")
    (d / "empty-dir").mkdir()
    (d / "empty.json").write_text("")
    (d / "binary.mst").write_bytes(b"\x00\x01\x02house-card")
    (d / "binary.yaml").write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00")
    (d / "latin1.yaml").write_bytes("name: caf\xe9\n".encode("latin-1"))
    (d / "truncated.json").write_text('{"format": "maester-bundle", "boards": {')
    (d / "list.json").write_text("[1, 2, 3]")
    (d / "text.txt").write_text("hello\n")
    log = {"format": "maester-game-log", "version": 1, "setup": "base-3p", "seed": 1, "answers": [], "events": []}
    (d / "no-seed.json").write_text(json.dumps({k: v for k, v in log.items() if k != "seed"}))
    (d / "seed-text.json").write_text(json.dumps({**log, "seed": "one"}))
    (d / "answers-object.json").write_text(json.dumps({**log, "answers": {"0": 1}}))
    (d / "bad-option.json").write_text(json.dumps({**log, "options": {"dragons": True}}))
    (d / "v9.json").write_text(json.dumps({"format": "maester-bundle", "format_version": "9.0.0"}))
    (d / "a-file").write_text("x")
    (d / "bad-seed.yaml").write_text("name: x\nsetup: base-3p\nseed: many\n")
    (d / "float-answers.json").write_text(json.dumps({**log, "answers": [0.5]}))
    (d / "binary.json").write_bytes(b"\xff\xfe\x00{")
    # a game stopped early: a real log, and the commands that read it (view, render, replay) are cheap on it
    game = runner.invoke(app, ["play", "-q", "--seed", "3", "--stop-at", "40", "--log", str(d / "game.json")])
    assert game.exit_code == 0, game.output
    names = {p.name: str(p) for p in d.iterdir()}
    names["under-a-file"] = str(d / "a-file" / "out.svg")  # its folder is a file: it cannot be written
    names["missing"] = str(d / "missing.json")
    names["missing-dir"] = str(d / "no" / "such" / "folder" / "out.json")
    names["dir"] = str(d / "empty-dir")
    return names


# (command line with {placeholders}, expected exit code); 2 is a command line the parser refuses
CASES = [
    ("check {missing}", 1), ("check {binary.mst}", 1), ("check {dir}", 1), ("check --pack {missing}", 1),
    ("check {text.txt}", 1),
    ("compile -o {dir}", 1), ("compile -o {missing-dir}", 1), ("compile {missing}", 1),
    ("compile --variant nope -o {missing-dir}", 1),
    ("validate {dir}", 1), ("validate {missing}", 1), ("validate {empty.json}", 1), ("validate {truncated.json}", 1),
    ("validate {binary.mst}", 1), ("validate {list.json}", 1), ("validate {v9.json}", 1),
    ("card no-such-card", 1), ("card tywin --pack {missing}", 1),
    ("explain {bad-seed.yaml}", 1), ("replay {float-answers.json}", 1), ("explain {missing}", 1), ("explain {dir}", 1), ("explain {binary.yaml}", 1), ("explain {latin1.yaml}", 1),
    ("diff {truncated.json} {truncated.json}", 1), ("diff {missing} {dir}", 1), ("diff {dir} {dir}", 1),
    ("diff {text.txt} {list.json}", 1), ("diff {list.json} {list.json}", 1),
    ("conformance {missing}", 1), ("conformance {dir}", 1), ("conformance {a-file}", 1),
    ("conformance --write {dir} --scenarios {missing}", 1),
    ("play --log {missing-dir}", 1), ("play --log {dir}", 1), ("play --agents genius", 1), ("play --players 9", 2),
    ("play --seed abc", 2), ("play --setup nope", 1), ("play --houses stark,nobody", 1),
    ("play --variant nope", 1), ("play --base --players 8", 1), ("play --pack {missing}", 1),
    ("replay {missing}", 1), ("replay {truncated.json}", 1), ("replay {no-seed.json}", 1),
    ("replay {seed-text.json}", 1), ("replay {answers-object.json}", 1), ("replay {bad-option.json}", 1),
    ("replay {dir}", 1), ("replay {list.json}", 1), ("replay {no-seed.json} --pack {missing}", 1),
    ("map -b moon", 1), ("map -f gif", 2), ("map -o {dir}", 1), ("map --pack {missing}", 1),
    ("map -o {missing-dir}", 1),
    ("new variant x --game nope --dir {dir}", 1), ("new thing x --dir {dir}", 1),
    ("new variant BadName --dir {dir}", 1), ("new variant x --dir {a-file}", 1),
    ("schema --write --path {missing-dir}", 1), ("docs --write --path {missing}", 1), ("schema --write --path -", 1),
    ("docs --write --path {dir}", 1),
    ("version --bogus", 2), ("nosuchcommand", 2),
    # the commands and options the first list left out
    ("render {missing}", 1), ("render {dir}", 1), ("render {empty.json}", 1), ("render {truncated.json}", 1),
    ("render {list.json}", 1), ("render {binary.json}", 1), ("render {binary.yaml}", 1), ("render {latin1.yaml}", 1),
    ("render {bad-seed.yaml}", 1), ("render {game.json} --step 999999", 1), ("render {game.json} --viewer nobody", 1),
    ("render {game.json} --format gif", 2), ("render {game.json} --scale -1 -o {under-a-file}", 2),
    ("render {game.json} --scale 1000 --format png -o {under-a-file}", 2), ("render {game.json} -o {under-a-file}", 1),
    ("render {game.json} -o {dir}", 1), ("render {game.json} --format png", 1),
    ("view {missing}", 1), ("view {dir}", 1), ("view {empty.json}", 1), ("view {truncated.json}", 1),
    ("view {list.json}", 1), ("view {binary.json}", 1), ("view {binary.yaml}", 1), ("view {game.json} --viewer nobody", 1),
    ("view {game.json} -o {under-a-file}", 1), ("view {game.json} -o {dir}", 1),
    ("play --save {under-a-file}", 1), ("play --save {dir}", 1), ("play --resume {missing}", 1),
    ("play --resume {truncated.json}", 1), ("play --resume {list.json}", 1), ("play --resume {binary.yaml}", 1),
    ("play --resume {game.json}", 1), ("play --stop-at -1", 2),
    ("replay {empty.json}", 1), ("replay {binary.json}", 1), ("replay {game.json} --variant nope", 1),
    ("explain {empty.json}", 1), ("explain {list.json}", 1), ("explain {bad-seed.yaml} --variant nope", 1),
    ("card tywin --variant nope", 1), ("check --variant nope", 1), ("check {empty.json}", 1),
    ("diff {empty.json} {empty.json}", 1), ("diff {binary.json} {binary.json}", 1),
    ("map -b nope -f dot", 1), ("map -f png -o {under-a-file}", 1), ("map -o {under-a-file}", 1),
    ("compile -o {under-a-file}", 1), ("compile {binary.mst} -o {under-a-file}", 1),
    ("new variant x --dir {text.txt}", 1), ("new variant x --from card:nope --dir {dir}", 1),
    ("new variant x --from nope --dir {dir}", 1),
    ("conformance {empty.json}", 1), ("conformance {binary.yaml}", 1),
    ("schema --write --path {under-a-file}", 1), ("docs --write --path {under-a-file}", 1),
]

# commands without --json (they print their own progress and tables): the text check only
TEXT_ONLY = [
    ("simulate --games 0", 2), ("simulate -n 1 --format xls", 1), ("simulate -n 1 --setup nope", 1),
    ("simulate -n 1 --agents genius", 1), ("simulate -n 1 --variant nope", 1), ("simulate -n 1 --workers -1", 2),
    ("simulate -n 1 --out {under-a-file}", 1), ("simulate -n 1 --out {text.txt}", 1),
    ("simulate -n 1 --setup mod-3p --variant asos-base", 1), ("simulate -n 1 --rounds 0", 2),
    ("tournament --agents genius", 1), ("tournament --agents random", 1), ("tournament --setup nope", 1),
    ("tournament --variant nope", 1), ("tournament --games 0", 2), ("tournament --search-candidates 1", 2),
    ("tournament --workers -1", 2),
    ("lsp --bogus", 2),
    ("fmt {missing}", 1), ("fmt {binary.mst}", 1), ("fmt --check {binary.mst}", 1), ("fmt {text.txt}", 1),
    ("fmt {empty-dir}", 1),
]


def _args(line: str, junk: dict[str, str]) -> list[str]:
    return [junk[part[1:-1]] if part.startswith("{") else part for part in line.split()]


@pytest.mark.parametrize(("line", "code"), CASES, ids=[c[0] for c in CASES])
def test_hostile_arguments_fail_clearly(junk, line, code):
    r = runner.invoke(app, _args(line, junk))
    text = r.output  # stdout and stderr
    assert "Traceback" not in text and r.exception is None or isinstance(r.exception, SystemExit), text
    assert r.exit_code == code, text
    if code == 2:
        assert "Error" in text
    else:
        errors = [ln for ln in text.splitlines() if " error: " in f" {ln}"]
        assert len(errors) == 1, text
    assert " wins " not in text  # nothing was played


@pytest.mark.parametrize(("line", "code"), CASES, ids=[c[0] for c in CASES])
def test_hostile_arguments_under_json_give_one_json_error(junk, line, code):
    r = runner.invoke(app, [*_args(line, junk), "--json"])
    doc = json.loads(r.stdout)
    assert r.exit_code == code and doc["exit_code"] == code and doc["ok"] is False
    assert [d["severity"] for d in doc["diagnostics"]] == ["error"], doc["diagnostics"]
    assert "Traceback" not in r.output


@pytest.mark.parametrize(("line", "code"), TEXT_ONLY, ids=[c[0] for c in TEXT_ONLY])
def test_hostile_arguments_of_commands_without_json_fail_clearly(junk, line, code):
    test_hostile_arguments_fail_clearly(junk, line, code)
