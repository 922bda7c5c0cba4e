"""Every command of the command list takes --json and has its section in docs/cli.md."""

from __future__ import annotations

import json

import typer.main
from typer.testing import CliRunner

from maester.tools.cli import app

from .conftest import REPO

NO_JSON = {"lsp": "it speaks the Language Server Protocol on stdout"}  # the one documented exception


def _commands() -> dict:
    return typer.main.get_command(app).commands


def test_the_command_list_is_walked():
    assert {"check", "fmt", "render", "view", "simulate", "tournament", "lsp"} <= set(_commands())


def test_every_command_takes_json():
    lacking = [name for name, cmd in _commands().items()
               if name not in NO_JSON and not any("--json" in p.opts for p in cmd.params)]
    assert lacking == []


def test_every_command_has_its_section_in_the_cli_docs():
    text = (REPO / "docs" / "cli.md").read_text(encoding="utf-8")
    missing = [name for name in _commands() if f"\n## maester {name}\n" not in text]
    assert missing == []


def test_json_of_a_command_line_error_for_every_command():
    """--json with an option no command has: one JSON document, exit 2, for every command."""
    runner = CliRunner()
    for name in _commands():
        if name in NO_JSON:
            continue
        r = runner.invoke(app, [name, "--no-such-option", "--json"])
        doc = json.loads(r.stdout)
        assert r.exit_code == 2 and doc["exit_code"] == 2 and doc["diagnostics"][0]["code"] == "usage", name
