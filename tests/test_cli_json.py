"""Issue 13.4: every command takes --json and prints one JSON document on stdout, in one envelope
(format, version, command, ok, exit_code, result, diagnostics), success or not; `-` is stdout."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from maester.tools.cli import app

from .conftest import REPO

runner = CliRunner()
SCENARIO = REPO / "tests" / "scenarios" / "base" / "rules" / "a5-consolidate-power.yaml"
ENVELOPE = ["format", "version", "command", "ok", "exit_code", "result", "diagnostics"]


def run_json(*args: str, code: int = 0) -> dict:
    r = runner.invoke(app, [*args, "--json"])
    doc = json.loads(r.stdout)  # the whole of stdout is one JSON document
    assert list(doc) == ENVELOPE, doc
    assert doc["format"] == "maester-cli-output" and doc["version"] == 1
    assert doc["command"] == args[0] and doc["exit_code"] == r.exit_code == code, (r.output, doc)
    assert doc["ok"] is (code == 0)
    return doc


def test_version_json(monkeypatch):
    monkeypatch.delenv("MAESTER_COMPILED", raising=False)  # (with it, `compiled_engine` too: tests/test_compiled.py)
    assert run_json("version")["result"] == {"maester": "0.1.0", "content_language": 1, "bundle_format": "1.2.0"}


def test_check_json_counts_agree_with_their_details():
    res = run_json("check")["result"]
    assert res["boards"]["base"]["areas"] == 58
    assert res["counts"]["houses"] == len(res["ids"]["houses"]) == 8
    decks = res["westeros_decks"]
    assert sum(d["cards"] for d in decks.values()) == res["counts"]["westeros_cards"]
    assert all(d["copies"] == 10 for d in decks.values())  # R: each Westeros deck holds 10 cards
    assert res["order_tokens"]["kinds"] == res["counts"]["orders"]


def test_check_json_reports_errors_as_diagnostics(tmp_path):
    bad = tmp_path / "bad.mst"
    bad.write_text('house-card x "X" {\n  strenght 3\n}\n')
    doc = run_json("check", str(bad), code=1)
    first = doc["diagnostics"][0]
    assert (first["code"], first["line"], first["column"]) == ("unknown-key", 2, 3)
    assert first["hint"].startswith("did you mean 'strength'?")


def test_compile_json_and_stdout(tmp_path):
    out = tmp_path / "b.json"
    res = run_json("compile", "-o", str(out))["result"]
    assert res["output"] == str(out) and res["bytes"] == out.stat().st_size and res["format_version"] == "1.2.0"
    r = runner.invoke(app, ["compile", "-o", "-"])
    assert r.exit_code == 0 and json.loads(r.stdout)["format"] == "maester-bundle"
    doc = run_json("compile", "-o", "-", code=1)  # stdout carries the JSON document
    assert doc["diagnostics"][0]["code"] == "bad-option"


def test_validate_json(tmp_path, bundle):
    path = tmp_path / "b.json"
    path.write_text(json.dumps(bundle))
    assert run_json("validate", str(path))["result"] == {"bundle": str(path), "format_version": "1.2.0"}
    broken = json.loads(json.dumps(bundle))
    broken["house_cards"]["tywin-lannister"]["strength"] = -4
    path.write_text(json.dumps(broken))
    doc = run_json("validate", str(path), code=1)
    assert "/house_cards/tywin-lannister/strength" in doc["diagnostics"][0]["message"]


def test_card_json():
    res = run_json("card", "tywin-lannister")["result"]
    (card,) = res["cards"]
    assert (card["id"], card["name"], card["section"]) == ("tywin-lannister", "Tywin Lannister", "house_cards")
    assert card["compiled"]["strength"] == 4 and card["compiled"]["house"] == "lannister"
    assert card["source_text"].startswith("house-card tywin-lannister") and card["text"]


def test_explain_json_has_the_whole_trace_and_the_checks():
    res = run_json("explain", str(SCENARIO))["result"]
    assert (res["passed"], res["failed"]) == (1, 0)
    (sc,) = res["scenarios"]
    assert sc["ok"] is True and sc["checks"] and all(c["ok"] for c in sc["checks"])
    events = [s["event"] for s in sc["trace"] if "event" in s]
    assert events and all({"n", "rule", "text"} <= set(e) for e in events)
    assert len(sc["final_state"]) == 16


def test_diff_json_shows_changed_fields(tmp_path, bundle):
    a, b = tmp_path / "a.json", tmp_path / "b.json"
    a.write_text(json.dumps(bundle))
    changed = json.loads(json.dumps(bundle))
    changed["house_cards"]["tywin-lannister"]["strength"] = 5
    changed["house_cards"]["tywin-lannister"]["abilities"][0]["body"] = []
    changed["houses"]["stark"]["unit_limits"]["knight"] = 6
    b.write_text(json.dumps(changed))
    res = run_json("diff", str(a), str(b))["result"]
    assert res["differences"] == 2
    tywin = res["sections"]["house_cards"]["changed"]["tywin-lannister"]
    assert tywin["strength"] == {"from": 4, "to": 5}
    assert tywin["text"]["to"] == ("Tywin Lannister (Lannister, strength 5). Once the winner is known: if you win the "
                                   "combat, nothing happens.")
    assert res["sections"]["houses"]["changed"]["stark"] == {"unit_limits.knight": {"from": 5, "to": 6}}
    r = runner.invoke(app, ["diff", str(a), str(b), "--exit-code"])
    assert r.exit_code == 1 and "strength: 4 → 5" in r.output and "unit_limits.knight: 5 → 6" in r.output


def test_conformance_json(tmp_path):
    (tmp_path / "bundle.json").write_text((REPO / "conformance" / "bundle.json").read_text())
    vectors = sorted(p for p in (REPO / "conformance").glob("base--*.json"))[:2]
    for v in vectors:
        (tmp_path / v.name).write_text(v.read_text())
    index = json.loads((REPO / "conformance" / "index.json").read_text())
    index["vectors"] = [e for e in index["vectors"] if e["file"] in {v.name for v in vectors}]
    (tmp_path / "index.json").write_text(json.dumps(index))
    res = run_json("conformance", str(tmp_path))["result"]
    assert (res["conform"], res["differ"]) == (2, 0)
    assert [v["file"] for v in res["vectors"]] == [v.name for v in vectors]


def test_play_and_replay_json(tmp_path):
    log = tmp_path / "g.json"
    res = run_json("play", "--base", "-p", "3", "-s", "5", "-a", "random", "--log", str(log))["result"]
    assert res["setup"] == "base-3p" and res["seed"] == 5 and res["rules_set"] == "base"
    assert sorted(res["houses"]) == ["baratheon", "lannister", "stark"]  # R: the 3-player game's houses
    assert res["agents"] == {"baratheon": "random", "lannister": "random", "stark": "random"}
    assert res["summary"]["winner"] in res["houses"] and res["log"] == str(log)
    again = run_json("replay", str(log))["result"]
    assert again["matches"] is True and again["state_hash"] == res["summary"]["state_hash"]


def test_play_log_to_stdout_keeps_the_progress_on_stderr():
    r = runner.invoke(app, ["play", "--base", "-p", "3", "-s", "5", "-a", "random", "--log", "-"])
    assert r.exit_code == 0
    assert json.loads(r.stdout)["format"] == "maester-game-log"
    assert "round 1 begins" in r.stderr and "wins" in r.stderr


@pytest.mark.parametrize("fmt", ["json", "dot"])
def test_map_json(fmt):
    res = run_json("map", "-b", "base", "-f", fmt)["result"]
    assert res["board"] == "base" and res["format"] == fmt
    if fmt == "json":
        assert len(res["graph"]["areas"]) == 58
    else:
        assert res["text"].startswith('graph "base"')


def test_map_png_goes_to_stdout_when_piped(tmp_path):
    r = runner.invoke(app, ["map", "-f", "png"])
    assert r.exit_code == 0 and r.stdout_bytes[:8] == b"\x89PNG\r\n\x1a\n"
    res = run_json("map", "-f", "png", "-o", str(tmp_path / "m.png"))["result"]
    assert res["bytes"] == (tmp_path / "m.png").stat().st_size


def test_new_schema_docs_json(tmp_path):
    res = run_json("new", "variant", "glass", "--dir", str(tmp_path))["result"]
    assert res["play"] == f"maester play --base --pack {(tmp_path / 'glass').as_posix()} --variant glass"
    assert "variant.mst" in res["files"] and len(res["files"]) == 8  # sets, variant and the 6 base houses
    assert run_json("schema")["result"]["schema"]["$schema"].startswith("https://json-schema.org/")
    assert "##" in run_json("docs")["result"]["markdown"]


def test_usage_errors_are_json_too():
    doc = run_json("play", "--players", "11", code=2)
    assert doc["diagnostics"][0]["code"] == "usage" and "--players" in doc["diagnostics"][0]["message"]


# the commands of tools/cli.py; commands registered by their own modules document themselves the same way
COMMANDS = ["check", "compile", "validate", "map", "play", "replay", "explain", "conformance", "diff", "new", "card",
            "schema", "docs", "version", "lsp"]


def test_docs_cli_page_lists_every_command():
    text = (REPO / "docs" / "cli.md").read_text()
    names = [c.name or c.callback.__name__ for c in app.registered_commands]
    assert set(COMMANDS) <= set(names)
    assert [n for n in COMMANDS if f"## maester {n}" not in text] == []
    assert "## Exit codes" in text and "## The JSON document" in text
    assert "cli.md" in (REPO / "mkdocs.yml").read_text()


@pytest.mark.parametrize("name", COMMANDS)
def test_every_command_takes_json(name):
    assert "--json" in runner.invoke(app, [name, "--help"]).output


def test_lsp_json_reports_what_goes_wrong_before_the_protocol_as_json(monkeypatch):
    doc = run_json("lsp", "--stdio-please", code=2)  # a command line that cannot be parsed
    assert doc["diagnostics"][0]["code"] == "usage" and "--stdio-please" in doc["diagnostics"][0]["message"]
    monkeypatch.delitem(sys.modules, "maester.tools.lsp", raising=False)  # a broken install: lsprotocol is gone
    monkeypatch.setitem(sys.modules, "lsprotocol", None)
    doc = run_json("lsp", code=1)
    assert [(d["code"], d["severity"]) for d in doc["diagnostics"]] == [("missing-dependency", "error")]
    assert "'lsprotocol'" in doc["diagnostics"][0]["message"] and doc["result"] is None


def test_lsp_json_speaks_only_the_protocol_once_it_runs(tmp_path):
    """With --json the server runs as without it: stdout is JSON-RPC frames and nothing else, exit 0."""
    script = Path(sys.executable).with_name("maester")
    command = [str(script)] if script.exists() else [sys.executable, "-m", "maester.tools.cli"]
    frames = b""
    for ident, method in ((1, "initialize"), (2, "shutdown"), (None, "exit")):
        params = {"processId": None, "rootUri": None, "capabilities": {}} if method == "initialize" else None
        body = json.dumps({"jsonrpc": "2.0", "method": method, "params": params,
                           **({"id": ident} if ident else {})}).encode()
        frames += b"Content-Length: %d\r\n\r\n" % len(body) + body
    done = subprocess.run([*command, "lsp", "--json"], input=frames, capture_output=True, cwd=tmp_path, timeout=120)
    assert done.returncode == 0, done.stderr.decode(errors="replace")
    answers, rest = [], done.stdout
    while rest:
        head, _, rest = rest.partition(b"\r\n\r\n")
        headers = dict(line.split(": ", 1) for line in head.decode("ascii").split("\r\n"))
        length = int(headers["Content-Length"])
        answers.append(json.loads(rest[:length]))
        rest = rest[length:]
    assert [a.get("id") for a in answers] == [1, 2]
    assert "capabilities" in answers[0]["result"] and answers[1]["result"] is None
