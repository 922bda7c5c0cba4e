"""Where `maester serve` keeps its games: one SQLite file (stdlib sqlite3).

A game is its parameters (setup, seed, variant, packs, options, who plays which house), its answers in
order and its between-decision actions (Mother of Dragons gifts and leaving, R42.4-R42.5, each placed `at` the
number of answers before it); the position is a value the engine recomputes from them, so a server restart
loses nothing and any game resumes where it was. The file carries its format version (`PRAGMA user_version`);
a format-1 file (before actions) is read as meant, another version is refused with what to do, never read as
something else.
"""

from __future__ import annotations

import contextlib
import json
import secrets
import sqlite3
import threading
from dataclasses import dataclass
from pathlib import Path

from maester.dsl.diagnostics import Diagnostics, MaesterError, Span

# 2: the `actions` table (format 1 had none: a format-1 file is read as it was meant, a game without actions)
STORE_VERSION = 2
READABLE = (1, STORE_VERSION)
SCHEMA = """
CREATE TABLE IF NOT EXISTS games (id TEXT PRIMARY KEY, params TEXT NOT NULL, created TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS seats (token TEXT PRIMARY KEY, game TEXT NOT NULL, house TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS answers (game TEXT NOT NULL, n INTEGER NOT NULL, house TEXT NOT NULL,
                                    answer TEXT NOT NULL, PRIMARY KEY (game, n));
CREATE TABLE IF NOT EXISTS actions (game TEXT NOT NULL, seq INTEGER NOT NULL, at INTEGER NOT NULL,
                                    action TEXT NOT NULL, PRIMARY KEY (game, seq));
"""


@dataclass(frozen=True)
class Seat:
    token: str
    game: str
    house: str


class Store:
    def __init__(self, path: Path):
        self.path = path
        self._lock = threading.Lock()
        existed = path.exists()
        try:
            self.db = sqlite3.connect(str(path), check_same_thread=False, isolation_level=None)
            version = self.db.execute("PRAGMA user_version").fetchone()[0]
            tables = self.db.execute("SELECT count(*) FROM sqlite_master WHERE type='table'").fetchone()[0]
        except sqlite3.DatabaseError as e:
            _fail(path, f"{path} is not a maester games file: {e}")
        except sqlite3.Error as e:  # cannot be opened at all (a read-only folder, a missing one)
            _fail(path, f"{path} cannot be opened: {e}", code="write-failed")
        if tables and version not in READABLE:
            _fail(path, f"{path} holds games in format {version}; this maester reads format {STORE_VERSION}",
                  "give another --db file, or use the maester version that wrote it")
        try:
            self.db.executescript(SCHEMA)
            self.db.execute(f"PRAGMA user_version = {STORE_VERSION}")
        except sqlite3.Error as e:  # a full disk or a read-only file: no game can be kept, so none is served
            self.db.close()
            if not existed:  # the empty file sqlite made is not left behind
                with contextlib.suppress(OSError):
                    path.unlink()
            _fail(path, f"{path} cannot be written: {e}; no game was served", code="write-failed")

    def create(self, params: dict, humans: list[str]) -> tuple[str, dict[str, str]]:
        """A new game: its id and a secret link token per human house."""
        game = secrets.token_hex(4)
        tokens = {h: secrets.token_urlsafe(9) for h in humans}
        with self._lock:
            try:
                self.db.execute("BEGIN")
                self.db.execute("INSERT INTO games VALUES (?, ?, datetime('now'))", (game, json.dumps(params)))
                self.db.executemany("INSERT INTO seats VALUES (?, ?, ?)",
                                    [(t, game, h) for h, t in tokens.items()])
                self.db.execute("COMMIT")
            except sqlite3.Error as e:  # a full disk: the game is not made, and nothing of it is kept
                if self.db.in_transaction:
                    self.db.execute("ROLLBACK")
                _fail(self.path, f"{self.path} cannot be written: {e}; the game was not created",
                      code="write-failed")
        return game, tokens

    def games(self) -> list[str]:
        return [r[0] for r in self.db.execute("SELECT id FROM games ORDER BY created, id")]

    def params(self, game: str) -> dict | None:
        row = self.db.execute("SELECT params FROM games WHERE id = ?", (game,)).fetchone()
        return json.loads(row[0]) if row else None

    def seats(self, game: str) -> dict[str, str]:
        return {h: t for t, h in self.db.execute("SELECT token, house FROM seats WHERE game = ?", (game,))}

    def seat(self, token: str) -> Seat | None:
        row = self.db.execute("SELECT token, game, house FROM seats WHERE token = ?", (token,)).fetchone()
        return Seat(*row) if row else None

    def answers(self, game: str) -> list[tuple[str, object]]:
        return [(h, json.loads(a)) for h, a in
                self.db.execute("SELECT house, answer FROM answers WHERE game = ? ORDER BY n", (game,))]

    def add(self, game: str, n: int, house: str, answer) -> None:
        with self._lock:
            try:
                self.db.execute("INSERT INTO answers VALUES (?, ?, ?, ?)", (game, n, house, json.dumps(answer)))
            except sqlite3.Error as e:  # a full disk: the caller takes the answer back
                _fail(self.path, f"{self.path} cannot be written: {e}; the answer was not kept",
                      code="write-failed")

    def actions(self, game: str) -> list[dict]:
        """The between-decision actions in the order taken, each with its place `at` (as `Game.actions`)."""
        return [{"at": at, **json.loads(a)} for at, a in
                self.db.execute("SELECT at, action FROM actions WHERE game = ? ORDER BY seq", (game,))]

    def add_action(self, game: str, entry: dict) -> None:
        with self._lock:
            seq = self.db.execute("SELECT count(*) FROM actions WHERE game = ?", (game,)).fetchone()[0]
            rest = {k: v for k, v in entry.items() if k != "at"}
            self.db.execute("INSERT INTO actions VALUES (?, ?, ?, ?)", (game, seq, entry["at"], json.dumps(rest)))

    def cut(self, game: str, keep: int) -> None:
        """Forget the answers from the `keep`-th on, and the actions taken after them (an undo)."""
        with self._lock:
            self.db.execute("BEGIN")
            self.db.execute("DELETE FROM answers WHERE game = ? AND n >= ?", (game, keep))
            self.db.execute("DELETE FROM actions WHERE game = ? AND at > ?", (game, keep))
            self.db.execute("COMMIT")


def _fail(path: Path, message: str, hint: str | None = None, code: str = "bad-games-file") -> None:
    diags = Diagnostics()
    diags.error(code, message, Span(str(path), 0, 0), hint)
    raise MaesterError(diags)
