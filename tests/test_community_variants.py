"""Community variants written from the docs alone (issue 22): each pack of tests/community_variants/ compiles,
its scenarios pass, and one short game of its variant plays to a winner.

tests/community_variants/README.md lists the 20 variants tried and their lines (two needed a language addition).
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from maester.tools.cli import app

from .conftest import REPO

PACKS = REPO / "tests" / "community_variants"
VARIANT = re.compile(r"^variant ([a-z0-9-]+)", re.M)
PACK_NAMES = sorted(p.name for p in PACKS.iterdir() if p.is_dir())


def _variant(pack: Path) -> str:
    ids = VARIANT.findall((pack / "variant.mst").read_text(encoding="utf-8"))
    assert len(ids) == 1, pack
    return ids[0]


def _content_lines(pack: Path) -> int:
    """Non-blank, non-comment lines of a pack's .mst files: the measure of issue 22 (at most 20)."""
    return sum(1 for f in pack.glob("*.mst") for line in f.read_text(encoding="utf-8").splitlines()
               if line.strip() and not line.strip().startswith("#"))


def _run(*args: str) -> dict:
    result = CliRunner().invoke(app, [*args, "--json"])
    document = json.loads(result.output)
    assert result.exit_code == 0 and document["ok"], result.output[-3000:]
    return document["result"]


def test_there_are_twenty_packs_each_at_most_twenty_content_lines():
    assert len(PACK_NAMES) == 20
    lines = {name: _content_lines(PACKS / name) for name in PACK_NAMES}
    assert all(n <= 20 for n in lines.values()), lines


# A few details of each game a player would notice, beyond "it plays to a winner" (3 players: short games).
PLAY_ARGS: dict[str, list[str]] = {
    "tides-every-setup": ["--base"],   # the variant plays both rules sets; the base one is the short game
}


@pytest.mark.parametrize("name", PACK_NAMES)
def test_the_variant_compiles_and_plays_a_game(name):
    pack = PACKS / name
    variant = _variant(pack)
    _run("check", "--pack", str(pack))
    players = [] if name == "vassal-starts" else ["--players", "3"]
    result = _run("play", "--pack", str(pack), "--variant", variant, "--seed", "1", "--quiet", *players,
                  *PLAY_ARGS.get(name, []))
    summary = result["summary"]
    assert result["variant"] == variant
    assert summary["winner"] in result["houses"]
    if name == "six-castles-8":
        assert summary["rounds"] <= 8
        assert summary["reason"] == "last-round" or max(summary["castles"].values()) >= 6
    if name == "endless":   # no tenth-round end: the game goes on until a house holds 7 castles
        assert summary["reason"] == "victory-points" and summary["castles"][summary["winner"]] >= 7
        assert summary["rounds"] == 52   # seed 1, 3 players: far past the base game's 10 rounds
    if name == "random-houses":
        assert result["seats_drawn"] is True


SCENARIO_PACKS = sorted(p.name for p in PACKS.iterdir() if (p / "scenarios").is_dir())


@pytest.mark.parametrize("name", SCENARIO_PACKS)
def test_the_variant_scenarios_pass(name):
    result = CliRunner().invoke(app, ["explain", str(PACKS / name / "scenarios"), "-q"])
    assert result.exit_code == 0, result.output[-3000:]


def test_without_the_variant_the_raven_may_swap(tmp_path):
    """The no-raven-swap scenario fails without its variant: the swaps it forbids are the base game's answers."""
    text = (PACKS / "no-raven-swap" / "scenarios" / "raven.yaml").read_text(encoding="utf-8")
    plain = tmp_path / "raven.yaml"
    plain.write_text("\n".join(line for line in text.splitlines() if not line.startswith(("variant:", "pack:"))),
                     encoding="utf-8")
    result = CliRunner().invoke(app, ["explain", str(plain)])
    assert result.exit_code == 1
    assert "does not offer 'replace:lannisport:defense-plus-one'" in result.output and "0 passed, 1 failed" in result.output
