"""Authoring stays safe: one mistake of shared content is reported once (not once per variant), `patch setup
every` warns where it makes no sense, and every state path a scenario can check is documented."""

from __future__ import annotations

import dataclasses
import json

from typer.testing import CliRunner

from maester.interpreter.core.state import GameState
from maester.interpreter.mod.state import DragonsState
from maester.tools.cli import app

from .conftest import REPO


def _check(tmp_path, text: str) -> list[dict]:
    (tmp_path / "pack").mkdir(exist_ok=True)
    (tmp_path / "pack" / "x.mst").write_text(text, encoding="utf-8")
    r = CliRunner().invoke(app, ["check", "--pack", str(tmp_path / "pack"), "--json"])
    return json.loads(r.output)["diagnostics"]


def test_a_setup_mistake_is_reported_once_not_once_per_variant(tmp_path):
    found = _check(tmp_path, 'setup bad-6p "Bad" from base-6p {\n  house stark { supply 0 }\n'
                   '  start stark winterfell { footman 2  knight 1 }\n  start stark the-twins { footman 2 }\n}\n')
    errors = [d for d in found if d["severity"] == "error"]
    assert len(errors) == 1 and "do not fit its supply limits" in errors[0]["message"]


def test_patch_setup_every_warns_where_it_makes_no_sense(tmp_path):
    found = _check(tmp_path, 'variant odd "Odd" {\n  game base\n'
                   '  patch setup every { dragon-strength-rounds [2, 4] }\n}\n')
    warned = [d["message"] for d in found if d["code"] == "patch-every-setup"]
    assert len(warned) == 4 and all("no house starts with a dragon" in m for m in warned)
    assert {m.split("'")[1] for m in warned} == {"base-3p", "base-4p", "base-5p", "base-6p"}


def test_every_state_path_is_documented():
    doc = (REPO / "docs" / "scenarios.md").read_text(encoding="utf-8")
    for f in dataclasses.fields(GameState):
        assert f"`{f.name}" in doc or f"{f.name}." in doc, f.name
    for name in DragonsState.__annotations__:
        assert f".{name}" in doc, name
    for part in ("modules.victory.points", "modules.objectives", "modules.moments"):
        assert part in doc
