"""`maester render` and `maester view` on game logs (issue 24): a house's eyes (`--viewer HOUSE`: the houses are
known once the log is replayed past its setup), and games played with a pack (the log records its packs)."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from maester.tools.cli import app
from maester.tools.position import load

PACK = Path(__file__).resolve().parents[1] / "examples" / "packs" / "rebalanced-aeron"
runner = CliRunner()


@pytest.fixture(scope="module")
def pack_log(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("logs")
    shutil.copytree(PACK, folder / "aeron-pack")
    log = folder / "game.json"
    r = runner.invoke(app, ["play", "--variant", "rebalanced-aeron", "--pack", str(folder / "aeron-pack"), "-p", "3",
                            "--seed", "2", "--log", str(log), "-q"])
    assert r.exit_code == 0, r.output
    return log


def test_a_house_looks_at_a_game_played_with_a_pack(pack_log, tmp_path):
    timeline = load(pack_log)
    reveal = next(i for i, line in enumerate(timeline.lines) if line["type"] == "reveal-orders")
    out = tmp_path / "planning.svg"
    # the step just before the first reveal: every order is down, Stark sees its own and none of the others'
    r = runner.invoke(app, ["render", str(pack_log), "--step", str(reveal), "--viewer", "stark", "-o", str(out)])
    assert r.exit_code == 0, r.output
    svg = out.read_text(encoding="utf-8")
    assert set(re.findall(r'class="order face-up" data-house="(\w+)"', svg)) == {"stark"}
    assert set(re.findall(r'class="order face-down" data-house="(\w+)"', svg)) == {"lannister", "baratheon"}


def test_an_unknown_viewer_names_the_houses_of_the_game(pack_log):
    r = runner.invoke(app, ["render", str(pack_log), "--viewer", "greyjoy"])
    assert r.exit_code == 1
    assert "not a house" in r.output and "baratheon" in r.output and "stark" in r.output


def test_a_moved_pack_is_asked_for_and_found_with_pack(pack_log, tmp_path):
    moved = tmp_path / "elsewhere"
    shutil.copytree(pack_log.parent / "aeron-pack", moved)
    hidden = pack_log.parent / "aeron-pack-away"
    (pack_log.parent / "aeron-pack").rename(hidden)
    try:
        r = runner.invoke(app, ["render", str(pack_log), "--step", "3"])
        assert r.exit_code == 1 and "--pack" in r.output
        r = runner.invoke(app, ["render", str(pack_log), "--step", "3", "--pack", str(moved),
                                "-o", str(tmp_path / "x.svg")])
        assert r.exit_code == 0, r.output
    finally:
        hidden.rename(pack_log.parent / "aeron-pack")


def test_the_side_panel_names_each_house_s_discarded_cards(pack_log, tmp_path):
    timeline = load(pack_log)
    last = timeline.state(len(timeline) - 1)
    out = tmp_path / "end.svg"
    r = runner.invoke(app, ["render", str(pack_log), "-o", str(out)])
    assert r.exit_code == 0, r.output
    svg = out.read_text(encoding="utf-8")
    assert any(hs.discards for hs in last.houses.values())
    for house, hs in last.houses.items():
        if hs.discards:
            rows = re.findall(rf'<text class="discards(?:-more)?"[^>]*data-house="{house}"[^>]*>([^<]*)</text>', svg)
            assert rows, house
            names = [timeline.rules.bundle["house_cards"][c]["name"] for c in hs.discards]
            said = " ".join(r.strip() for r in rows)
            assert said == f"{house}: " + ", ".join(names).replace("'", "&#x27;")
            assert all(len(r) <= 64 + 20 for r in rows)  # wrapped to the panel (escapes aside)


def test_a_long_discard_list_wraps_without_cutting_a_name():
    from maester.tools.render_panel import _wrap

    names = ["Lysa Arryn", "Bronze Yohn Royce", "Harry Hardyng", "Ser Vardis Egen", "Godric Borrell", "Anya Waynwood"]
    lines = _wrap("arryn: ", names, 40)
    assert lines == ["arryn: Lysa Arryn, Bronze Yohn Royce,", "    Harry Hardyng, Ser Vardis Egen,",
                     "    Godric Borrell, Anya Waynwood"]
