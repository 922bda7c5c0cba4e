"""`maester serve` played in a real headless Chromium (Playwright, the system's /usr/bin/chromium): two pages, Stark
and Lannister, play a base game against a Baratheon agent through a Planning Phase, a march (chosen by a click on
the map), a combat (house cards with their text) and a Westeros phase, with the server stopped and started again
in the middle (the game is kept in SQLite). Each page sees only what its house may know."""

from __future__ import annotations

import os
import re
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from maester.tools.serve import Hub, page_view
from maester.tools.serve_store import Store

from .conftest import CHROMIUM

HUMANS = ("stark", "lannister")

needs_chromium = pytest.mark.skipif(not os.access(CHROMIUM, os.X_OK),
                                    reason=f"{CHROMIUM} is missing: the seat is tested in a real Chromium "
                                           "(apt-get install chromium)")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    """`maester serve` in a process of its own, stopped and started on the same games file."""

    def __init__(self, db: Path, port: int):
        self.db, self.port, self.proc = db, port, None

    def start(self, *extra: str) -> str:
        exe = Path(sys.executable).with_name("maester")
        self.proc = subprocess.Popen([str(exe), "serve", "--db", str(self.db), "--port", str(self.port), *extra],
                                     stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        lines = []
        while True:  # the links come first; the last line says the server is about to listen
            line = self.proc.stdout.readline()
            assert line, "the server stopped:\n" + "".join(lines)
            lines.append(line)
            if line.startswith("maester serve:"):
                break
        for _ in range(600):  # then wait until it accepts connections
            with socket.socket() as s:
                if s.connect_ex(("127.0.0.1", self.port)) == 0:
                    break
            time.sleep(0.1)
        return "".join(lines)

    def stop(self) -> None:
        self.proc.terminate()
        self.proc.wait(timeout=30)


class _Pages:
    """The test process's Chromium, with every page opened through it closed at the end of the test (a page left
    open would go on polling a stopped server)."""

    def __init__(self, chromium):
        self.chromium, self.opened = chromium, []

    def new_page(self, **options):
        page = self.chromium.new_page(**options)  # (its own browser context: no cookie or storage is shared)
        self.opened.append(page)
        return page


@pytest.fixture
def browser(chromium):
    pages = _Pages(chromium)
    yield pages
    for page in pages.opened:
        page.close()


def _ready(page) -> None:
    page.wait_for_function("document.body.dataset.ready === 'yes'", timeout=120_000)


def _pick(page, house: str, seen: set[str]) -> None:
    """Answer the page's decision as a keen player would: march orders, attacks, the strongest-looking card."""
    options = page.locator("#options button.option")
    texts = options.all_text_contents()
    question = page.locator("#question").text_content()
    index = 0
    if "order for" in question:
        seen.add("planning")
        index = next((i for i, t in enumerate(texts) if t.startswith("March +1")),
                     next((i for i, t in enumerate(texts) if t.startswith("March")), 0))
    elif "march from" in question:
        moves = [(i, t) for i, t in enumerate(texts) if t.startswith("move a")]
        if moves and "march" not in seen:
            # a march destination chosen on the map: a click on the area the first move names
            area = options.nth(moves[0][0]).get_attribute("data-areas").split()[0]
            number = page.evaluate("document.body.dataset.decision")
            page.locator(f'#dynamic g.area[data-area="{area}"]').dispatch_event("click")
            seen.add("march")
            page.wait_for_function(f"document.body.dataset.decision !== '{number}' || "
                                   "!document.querySelector('#show-all').hidden", timeout=120_000)
            if not page.locator("#show-all").is_hidden():  # several answers name that area: the list narrows to
                # them and a chooser with them opens on the map; take the first there
                assert page.locator("#chooser button.choice").all_text_contents() == \
                    page.locator("#options button.option:not(.dim)").all_text_contents()
                page.locator("#chooser button.choice").first.click()
            _ready(page)
            return
        index = moves[0][0] if moves else texts.index("done")
    elif "house card" in question:
        seen.add("combat")
        cards = page.locator("#asked-cards .card")
        assert cards.count() == len(texts), "every card of the choice is shown with its text"
        assert "strength" in cards.first.text_content()
        assert page.locator("#combat-box").is_visible()
        assert page.locator("#combat .side").count() == 2
    options.nth(index).click()
    _ready(page)


def _place_order_on_the_map(page, other) -> None:
    """Stark places an order by a click on the ringed area and a pick in the chooser that opens there (not the
    list): Stark's map shows the order face up, the other house's map shows it face down."""
    area = page.locator("#map use.asked-ring").get_attribute("data-ring")
    number = page.evaluate("document.body.dataset.decision")
    assert page.locator("#chooser").is_hidden()
    page.locator(f'#dynamic g.area[data-area="{area}"]').dispatch_event("click")
    chooser = page.locator("#chooser")
    assert chooser.is_visible()
    words = chooser.locator("button.choice").all_text_contents()
    assert words == page.locator("#options button.option").all_text_contents()  # the legal tokens, in words
    assert "Defense +1" in words and "Defense +2 — special order ★" in words, words
    chooser.locator("button.choice", has_text="Defense +2").first.click()
    page.wait_for_function(f"document.body.dataset.decision !== '{number}'", timeout=120_000)
    _ready(page)
    mine = page.locator(f'#dynamic g.area[data-area="{area}"] g.order.face-up[data-house="stark"]')
    assert mine.count() == 1 and "Defense +2" in mine.locator("title").text_content()
    hidden = f'#dynamic g.area[data-area="{area}"] g.order.face-down[data-house="stark"]'
    other.wait_for_selector(hidden, state="attached", timeout=120_000)
    assert other.locator(f'#dynamic g.area[data-area="{area}"] g.order.face-up').count() == 0


@needs_chromium
def test_two_people_play_a_base_game_in_the_browser(tmp_path, browser):
    server = Server(tmp_path / "games.sqlite", _free_port())
    out = server.start("--new", "base-3p", "--human", ",".join(HUMANS), "--seed", "5")
    links = dict(re.findall(r"^\s+(\w+): (http\S+)$", out, re.M))
    assert set(links) == set(HUMANS)
    problems: list[str] = []
    pages = {}
    for house in HUMANS:
        page = browser.new_page(viewport={"width": 1280, "height": 720})
        page.on("pageerror", lambda e: problems.append(f"page error: {e}"))
        page.goto(links[house])
        _ready(page)
        pages[house] = page
    # each page shows its own hand with card text, and only its house's face-down orders
    assert pages["stark"].locator("#hand .card").count() == 7
    assert "Eddard Stark" in pages["stark"].locator("#hand").text_content()
    assert "Tywin" not in pages["stark"].locator("#hand").text_content()

    seen: set[str] = set()
    restarted = undone = clicked = False
    for _ in range(400):
        if {"planning", "march", "combat", "westeros"} <= seen and restarted:
            break
        for house, page in pages.items():
            status = page.locator("#status").text_content()
            if "westeros phase" in status or any("Westeros" in t for t in page.locator("#digest li").all_text_contents()):
                seen.add("westeros")
            if not page.evaluate("document.body.dataset.decision"):
                continue
            if not undone and "order for" in page.locator("#question").text_content() and house == "stark":
                # take back an order placed a moment ago: nothing was revealed since
                before = page.evaluate("document.body.dataset.decision")
                _pick(page, house, seen)
                if page.evaluate("document.body.dataset.decision") != before:
                    assert page.locator("#undo").is_enabled()
                    page.locator("#undo").click()
                    page.wait_for_function(f"document.body.dataset.decision === '{before}'", timeout=120_000)
                    undone = True
                continue
            if undone and not clicked and house == "stark" and "order for" in page.locator("#question").text_content():
                _place_order_on_the_map(page, pages["lannister"])
                clicked = True
                continue
            if house == "stark" and "order for" in page.locator("#question").text_content():
                # during planning, Lannister's orders lie face down on Stark's map
                assert page.locator('#dynamic g.order.face-up[data-house="lannister"]').count() == 0
                if page.locator('#dynamic g.order.face-down[data-house="lannister"]').count():
                    seen.add("hidden orders")
            _pick(page, house, seen)
            if "march" in seen and not restarted:
                server.stop()  # mid-game: the pages lose the server, then find it again
                server.start()
                for p in pages.values():
                    p.wait_for_function("document.body.dataset.ready === 'yes' && "
                                        "document.getElementById('conn').textContent === ''", timeout=120_000)
                restarted = True
            break
        else:
            time.sleep(0.2)
    server.stop()
    assert undone and restarted and clicked
    assert {"planning", "march", "combat", "westeros", "hidden orders"} <= seen, seen
    assert not problems, problems


def test_a_game_resumes_from_its_answers(tmp_path):
    """The store keeps parameters and answers: a new server process replays them to the same position."""
    db = tmp_path / "games.sqlite"
    hub = Hub(Store(db))
    gid, tokens = hub.new("base-3p", ["stark"], seed=3)
    table = hub.tables[gid]
    for _ in range(6):
        d = table.game.decision
        assert d.house == "stark"  # the agents answer until the person is asked
        assert hub.answer(table, "stark", d.number, 0) is None
    position = table.game.to_state()
    again = Hub(Store(db)).load(gid)
    assert again.game.to_state() == position
    assert hub.answer(table, "stark", table.game.decision.number + 1, 0) == "that question was already answered"


def test_a_game_is_started_from_the_server_s_page(tmp_path):
    """The list page has a form: any setup (and variant); a wrong house is refused with the houses it has."""
    from urllib.request import urlopen

    server = Server(tmp_path / "games.sqlite", _free_port())
    server.start()
    try:
        base = f"http://127.0.0.1:{server.port}"
        page = urlopen(f"{base}/").read().decode()
        assert '<option value="base-3p">' in page and '<option value="mod-8p">' in page and "no game yet" in page
        page = urlopen(f"{base}/new?setup=base-3p&human=stark&seed=4&agents=random").read().decode()
        assert re.search(r'base-3p, seed 4 — seats: <a href="/play/[\w-]+">stark</a>', page)
        page = urlopen(f"{base}/new?setup=base-3p&human=targaryen&seed=4").read().decode()
        assert "cannot start that game: &#x27;targaryen&#x27; is not a house of setup &#x27;base-3p&#x27;" in page
    finally:
        server.stop()
    store = Store(tmp_path / "games.sqlite")
    assert [store.params(g)["default_agent"] for g in store.games()] == ["random"]


def test_mother_of_dragons_gifts_and_leaving_between_decisions(tmp_path):
    """A Mother of Dragons seat may give power (R42.4) and leave (R42.5) without being asked: the engine refuses
    what the rules forbid with its message and nothing changes; what it takes is kept and replayed on restart."""
    db = tmp_path / "games.sqlite"
    hub = Hub(Store(db))
    gid, _ = hub.new("mod-4p-with-targaryen", ["targaryen", "lannister"], seed=2)
    table = hub.tables[gid]
    power = lambda h: table.game.state.houses[h].power  # noqa: E731
    assert (power("lannister"), power("targaryen")) == (7, 7)
    # what each page is offered: Targaryen never leaves (R42.5); vassals are no one to give to (R42.4.3)
    assert page_view(table, "lannister")["actions"] == {"kinds": ["gift", "leave"], "leaving": False,
                                                        "to": ["baratheon", "arryn", "targaryen"]}
    assert page_view(table, "targaryen")["actions"]["kinds"] == ["gift"]
    assert hub.act(table, "lannister", {"action": "gift", "to": "targaryen", "amount": 2}) is None
    assert (power("lannister"), power("targaryen")) == (5, 7 + 2)
    before = table.game.to_state()
    assert hub.act(table, "lannister", {"action": "gift", "to": "targaryen", "amount": 6}) == \
        "gift refused: lannister has 5 available power"
    assert hub.act(table, "lannister", {"action": "gift", "to": "stark", "amount": 1}) == \
        "gift refused: vassals neither give nor receive power (R42.4.3)"
    assert hub.act(table, "targaryen", {"action": "leave"}).startswith(
        "leave refused: targaryen never leaves the game")
    assert table.game.to_state() == before  # a refused action changes nothing
    assert hub.act(table, "lannister", {"action": "leave"}) is None
    assert page_view(table, "lannister")["actions"]["leaving"] is True
    again = Hub(Store(db)).load(gid)  # a restart replays the answers and the actions between them
    assert again.game.to_state() == table.game.to_state()
    assert [a["type"] for a in again.game.actions] == ["gift", "leave"]


def test_a_format_1_games_file_is_read_as_meant(tmp_path):
    """Format 2 added the actions table: a format-1 file (no actions) is read as the games it holds."""
    import sqlite3

    db = tmp_path / "old.sqlite"
    con = sqlite3.connect(db)
    con.executescript("""CREATE TABLE games (id TEXT PRIMARY KEY, params TEXT NOT NULL, created TEXT NOT NULL);
        CREATE TABLE seats (token TEXT PRIMARY KEY, game TEXT NOT NULL, house TEXT NOT NULL);
        CREATE TABLE answers (game TEXT NOT NULL, n INTEGER NOT NULL, house TEXT NOT NULL, answer TEXT NOT NULL,
                              PRIMARY KEY (game, n));
        INSERT INTO games VALUES ('g1', '{"setup": "base-3p"}', '2026-01-01');
        PRAGMA user_version = 1;""")
    con.close()
    store = Store(db)
    assert store.games() == ["g1"] and store.actions("g1") == []
    con = sqlite3.connect(db)
    assert con.execute("PRAGMA user_version").fetchone()[0] == 2


@needs_chromium
def test_gift_and_leave_are_buttons_on_a_mother_of_dragons_page(tmp_path, browser):
    """The page offers the gift (R42.4) and leaving (R42.5); a refused gift shows the engine's message."""
    server = Server(tmp_path / "games.sqlite", _free_port())
    out = server.start("--new", "mod-4p-with-targaryen", "--human", "lannister,targaryen", "--seed", "2")
    try:
        link = dict(re.findall(r"^\s+(\w+): (http\S+)$", out, re.M))["lannister"]
        problems: list[str] = []
        page = browser.new_page(viewport={"width": 1280, "height": 720})
        page.on("pageerror", lambda e: problems.append(f"page error: {e}"))
        page.goto(link)
        _ready(page)
        assert page.locator("#actions-box").is_visible()
        power = page.locator('#houses tr[data-house="lannister"] td').nth(3)
        assert power.text_content() == "7"
        page.locator("#gift-amount").fill("2")
        page.locator("#gift-to").select_option("targaryen")
        page.locator("#gift").click()
        _ready(page)
        assert power.text_content() == "5"
        assert page.locator('#houses tr[data-house="targaryen"] td').nth(3).text_content() == "9"
        page.locator("#gift-amount").fill("6")
        page.locator("#gift").click()
        _ready(page)
        assert page.locator("#message").text_content() == "gift refused: lannister has 5 available power"
        assert power.text_content() == "5"
        page.locator("#leave").click()  # the first click asks to be sure
        assert page.locator("#leave").text_content() == "sure? click again to leave"
        page.locator("#leave").click()
        _ready(page)
        assert page.locator("#leave").is_disabled()
        assert page.locator("#leave").text_content() == "you leave the game at the end of this round"
        assert not problems, problems
    finally:
        server.stop()


def test_the_areas_an_answer_names(tmp_path):
    """What a click on the map can pick: every area an answer names, a unit `AREA#INDEX` by its area."""
    from maester.interpreter.core.rules import Rules
    from maester.interpreter.mod import new_game
    from maester.tools.seat_info import option_areas

    game = new_game(Rules.default(None, None), "base-3p", seed=1)
    assert option_areas(game, "footman:the-twins") == ["the-twins"]
    assert option_areas(game, "upgrade:footman:knight:winterfell") == ["winterfell"]
    assert option_areas(game, "replace:winterfell:march-plus-one") == ["winterfell"]
    assert option_areas(game, "winterfell#0") == ["winterfell"]
    assert option_areas(game, "done") == [] and option_areas(game, 3) == []


class _FullDisk:
    """A sqlite connection whose writes fail as on a full disk (reads pass through)."""

    def __init__(self, db):
        self.db = db
        self.in_transaction = False

    def execute(self, sql: str, *args):
        import sqlite3

        if sql.lstrip().upper().startswith(("INSERT", "BEGIN", "CREATE", "PRAGMA USER_VERSION =")):
            raise sqlite3.OperationalError("database or disk is full")
        return self.db.execute(sql, *args)

    executescript = executemany = execute

    def close(self) -> None:
        self.db.close()


def test_a_games_file_that_cannot_be_written_is_an_error_and_loses_no_answer(tmp_path, monkeypatch):
    """Found by a hostile campaign: `serve --db` on a full disk was an internal error (exit 3) leaving an empty
    file; an answer the file could not keep was played on anyway, lost at the next restart."""
    import sqlite3

    from maester.dsl.diagnostics import MaesterError

    real = sqlite3.connect
    monkeypatch.setattr(sqlite3, "connect", lambda *a, **k: _FullDisk(real(*a, **k)))
    with pytest.raises(MaesterError) as e:
        Store(tmp_path / "new.sqlite")
    assert e.value.diagnostics.items[0].code == "write-failed" and not (tmp_path / "new.sqlite").exists()
    monkeypatch.setattr(sqlite3, "connect", real)

    store = Store(tmp_path / "g.sqlite")
    hub = Hub(store)
    gid, _ = hub.new("base-3p", ["stark"], seed=1)
    table = hub.load(gid)
    d = table.game.decision
    before, kept = table.game.to_state(), store.answers(gid)
    store.db = _FullDisk(store.db)
    assert "cannot be written" in hub.answer(table, "stark", d.number, 0)
    assert table.game.to_state() == before and store.answers(gid) == kept
    assert Hub(Store(tmp_path / "g.sqlite")).load(gid).game.to_state() == before
