"""`maester view` opened in a real headless Chromium (Playwright, the system's /usr/bin/chromium): stepping with
the keys, the slider and the jumps changes the board and the trace line, with no console or page error."""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from maester.tools.cli import app
from maester.tools.position import load

from .conftest import CHROMIUM

A10 = Path(__file__).parent / "scenarios" / "base" / "rules" / "a10-garrison-only-home.yaml"
runner = CliRunner()

pytestmark = pytest.mark.skipif(not os.access(CHROMIUM, os.X_OK),
                                reason=f"{CHROMIUM} is missing: the viewer is tested in a real Chromium "
                                       "(apt-get install chromium)")


def make_view(source: Path, out: Path, *extra: str) -> Path:
    r = runner.invoke(app, ["view", str(source), "-o", str(out), *extra])
    assert r.exit_code == 0, r.output
    return out


@pytest.fixture
def page(chromium):
    page = chromium.new_page(viewport={"width": 1500, "height": 1000})
    problems: list[str] = []
    page.on("console", lambda m: problems.append(f"console {m.type}: {m.text}") if m.type in ("error", "warning")
            else None)
    page.on("pageerror", lambda e: problems.append(f"page error: {e}"))
    page.on("request", lambda r: problems.append(f"network request: {r.url}")
            if not r.url.startswith(("file:", "data:")) else None)
    yield page
    page.close()
    assert not problems, "\n".join(problems)


def controller(page, area: str) -> str | None:
    return page.locator(f'#dynamic g.area[data-area="{area}"]').get_attribute("data-controller")


def test_stepping_through_a_scenario(page, tmp_path):
    html = make_view(A10, tmp_path / "a10.html")
    text = html.read_text()
    assert "<script src" not in text and "http://" not in text.replace("http://www.w3.org/2000/svg", "")
    page.goto(html.as_uri())
    assert page.locator("#where").text_content().startswith("step 0 / 15")  # 10 events and 5 decisions
    assert controller(page, "winterfell") == "stark"
    assert page.locator('#dynamic g.area[data-area="moat-cailin"] g.units').get_attribute("data-count") == "2"

    page.keyboard.press("ArrowRight")  # event 0: the Action Phase begins
    assert page.locator("#where").text_content().startswith("step 1 / 15")
    first = page.locator("#trace li.current")
    assert first.get_attribute("data-step") == "1"
    assert page.locator("#current .rule").text_content().startswith("R15")

    page.keyboard.press("ArrowRight")  # Lannister's first decision: where the knight marches
    assert page.locator("#trace li.current").get_attribute("data-type") == "decision"
    assert "knight:winterfell" in page.locator("#trace li.current").text_content()
    for _ in range(3):
        page.keyboard.press("ArrowRight")  # two more decisions, then the march itself
    assert page.locator("#trace li.current .rule").text_content() == "R16.1"
    assert "marches from moat-cailin" in page.locator("#trace li.current").text_content()
    assert page.locator('#dynamic g.area[data-area="moat-cailin"] g.units').count() == 0

    page.keyboard.press("ArrowLeft")
    assert page.locator("#slider").input_value() == "4"
    assert page.locator('#dynamic g.area[data-area="moat-cailin"] g.units').count() == 1

    page.locator("#slider").fill("15")  # the slider to the end: Lannister holds Winterfell
    assert page.locator("#where").text_content().startswith("step 15 / 15")
    assert controller(page, "winterfell") == "lannister"
    assert page.locator('#dynamic g.area[data-area="winterfell"] g.garrison').count() == 0

    page.keyboard.press("Home")
    assert controller(page, "winterfell") == "stark"
    page.locator("#next-combat").click()  # the combat at Winterfell, its trace line shown
    current = page.locator("#trace li.current")
    assert current.get_attribute("data-type") == "combat"
    assert "combat in winterfell" in current.text_content()
    assert page.locator("#current .rule").text_content().startswith("R")
    ring = page.locator("#focus-ring")
    marker = page.locator('circle.marker[data-area="winterfell"]')
    assert ring.get_attribute("cx") == marker.get_attribute("cx")


@pytest.fixture(scope="module")
def base_game_log(tmp_path_factory) -> Path:
    log = tmp_path_factory.mktemp("view") / "game.json"
    r = runner.invoke(app, ["play", "--base", "--players", "3", "--seed", "5", "--log", str(log)])
    assert r.exit_code == 0, r.output
    return log


def test_jumping_by_rounds_and_combats_in_a_game(page, tmp_path, base_game_log):
    data = json.loads(base_game_log.read_text())
    lines = load(base_game_log).lines
    assert len(lines) == len(data["events"]) + len(data["answers"])  # the trace: every event and decision
    rounds = [i + 1 for i, e in enumerate(lines) if e["type"] == "round"]
    combats = [i + 1 for i, e in enumerate(lines) if e["type"] == "combat"]
    assert rounds and combats
    page.goto(make_view(base_game_log, tmp_path / "game.html", "--viewer", "public").as_uri())
    board_at_start = page.locator("#dynamic").inner_html()

    page.keyboard.press("r")  # round 2 begins
    step = int(page.locator("#slider").input_value())
    assert step == rounds[0]
    assert "round 2" in page.locator("#trace li.current").text_content()
    assert page.locator("#round").input_value() == str(rounds[0])
    assert page.locator("#dynamic").inner_html() != board_at_start

    page.keyboard.press("c")
    assert int(page.locator("#slider").input_value()) == min(c for c in combats if c > step)
    page.keyboard.press("Shift+C")
    before = [c for c in combats if c < min(c for c in combats if c > step)]
    assert int(page.locator("#slider").input_value()) == (before[-1] if before else min(c for c in combats
                                                                                         if c > step))
    page.select_option("#round", str(rounds[-1]))
    assert int(page.locator("#slider").input_value()) == rounds[-1]
    page.keyboard.press("End")
    assert page.locator("#where").text_content().startswith(f"step {len(lines)} / {len(lines)}")
    # the public view: orders being placed show only their backs, and the trace hides the answers
    page.keyboard.press("Home")
    for _ in range(4):  # the setup, the Planning Phase, two order placements
        page.keyboard.press("ArrowRight")
    assert re.search(r"round 1 · planning", page.locator("#where").text_content())
    assert page.locator("#dynamic g.order.face-down").count() > 0
    assert page.locator("#dynamic g.order[data-order]").count() == 0
    current = page.locator("#trace li.current")
    assert current.get_attribute("data-type") == "decision"
    assert current.locator(".text").text_content().endswith("decides place-order")


@pytest.mark.parametrize(("width", "height"), [(1280, 720), (1920, 1080)])
def test_the_whole_board_fits_a_laptop_screen_and_zooms(chromium, tmp_path, width, height):
    """Every area, Dorne included, is on screen without scrolling; the wheel zooms in around the pointer."""
    page = chromium.new_page(viewport={"width": width, "height": height})
    page.goto(make_view(A10, tmp_path / "a10.html").as_uri())
    for area in ("castle-black", "sunspear", "the-arbor", "dragonstone"):
        box = page.locator(f'#labels text.label[data-area="{area}"]').bounding_box()
        assert box and box["x"] >= 0 and box["y"] >= 0, area
        assert box["x"] + box["width"] <= width and box["y"] + box["height"] <= height, area
    assert page.evaluate("document.documentElement.scrollHeight") <= height
    before = page.locator('#labels text.label[data-area="winterfell"]').bounding_box()
    page.locator("#zoom-in").click()
    page.locator("#zoom-in").click()
    after = page.locator('#labels text.label[data-area="winterfell"]').bounding_box()
    assert after["width"] > before["width"] * 1.5  # the names grow with the zoom
    page.locator("#zoom-fit").click()
    assert page.locator('#labels text.label[data-area="winterfell"]').bounding_box() == before
    page.close()


def test_the_area_a_line_names_is_outlined_on_the_map(page, tmp_path):
    page.goto(make_view(A10, tmp_path / "a10.html").as_uri())
    page.locator("#next-combat").click()  # the combat at Winterfell
    outline = page.locator("#focus-region")
    assert outline.get_attribute("href") == "#shape-winterfell" and outline.is_visible()
