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


def test_patch_setup_every_names_the_setups_it_changed(tmp_path):
    found = _check(tmp_path, 'variant odd "Odd" {\n  game base\n'
                   '  patch setup every { house every { garrison-bonus 1 } }\n}\n')
    noted = [d for d in found if d["code"] == "patch-every-setup-touched"]
    assert len(noted) == 1 and noted[0]["severity"] == "note" and noted[0]["line"] == 3
    assert noted[0]["message"] == ("variant 'odd': patch of every setup changes 4 setups: "
                                   "base-3p, base-4p, base-5p, base-6p")
    mod = _check(tmp_path, 'variant odd "Odd" {\n  game mother-of-dragons\n'
                 '  patch setup every { house every { garrison-bonus 1 } }\n}\n')
    names = next(d["message"] for d in mod if d["code"] == "patch-every-setup-touched").split(": ")[-1]
    assert "base-6p" not in names and names.split(", ") == sorted(names.split(", "))


def test_patch_setup_every_warns_when_it_matches_no_setup(tmp_path):
    found = _check(tmp_path, 'game lonely "Lonely" from base {\n  max-rounds 5\n}\n'
                   'variant odd "Odd" {\n  game lonely\n  patch setup every { power-tokens 9 }\n}\n')
    warned = [d for d in found if d["code"] == "patch-every-setup-none"]
    assert len(warned) == 1 and warned[0]["severity"] == "warning" and warned[0]["line"] == 6
    assert "matches no setup: rules set 'lonely' has none" in warned[0]["message"]
    assert not [d for d in found if d["code"] == "patch-every-setup-touched"]


def test_compile_reports_the_setups_patch_every_changed(tmp_path):
    (tmp_path / "pack").mkdir()
    (tmp_path / "pack" / "x.mst").write_text('variant odd "Odd" {\n  game base\n'
                                             '  patch setup every { power-tokens 6 }\n}\n', encoding="utf-8")
    r = CliRunner().invoke(app, ["compile", "--pack", str(tmp_path / "pack"), "-o", str(tmp_path / "b.json"),
                                 "--json"])
    doc = json.loads(r.output)
    assert doc["ok"] and [d["code"] for d in doc["diagnostics"]] == ["patch-every-setup-touched"]
