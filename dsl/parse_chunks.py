"""Parsing a large file declaration by declaration, so that typing in one declaration reparses only it.

A content file is a list of top-level entries (declarations). The text is cut before each line that starts
an entry at the top level (no bracket open, not in a string); each piece is parsed alone (its syntax tree
remembered by its text) and its spans moved to its place in the file. The language server's compile after an
edit then parses the edited declaration only. The result is the very tree a whole-file parse gives (tested for
every content file); a piece with a syntax error, or a text that cannot be cut, is left to the whole-file
parse, so error messages are always the parser's own.
"""

from __future__ import annotations

import dataclasses
import re
import threading
from collections import OrderedDict

from .diagnostics import Diagnostics, Span

MIN_CHARS = 4000  # a smaller file is parsed whole (quick enough)
_KEEP = 4096  # pieces kept in memory
_IGNORED = re.compile(r'"([^"\\\n]|\\.)*"|#[^\n]*')  # strings and comments: their brackets do not count
_OPEN, _CLOSE = "{[(", "}])"
_TRIVIA = re.compile(r"[ \t]*(?:#[^\n]*)?\n?")  # a blank or comment-only line


def core(piece: str) -> str:
    """A piece without its trailing blank and comment-only lines (they add nothing to its tree): typing a comment
    between two declarations reparses neither."""
    lines = piece.splitlines(keepends=True)
    end = len(lines)
    while end > 1 and lines[end - 1].endswith("\n") and _TRIVIA.fullmatch(lines[end - 1]):
        end -= 1
    return piece if end == len(lines) else "".join(lines[:end])


_CHANGES: dict[str, int] = {}  # line → how many brackets it opens (negative: closes); most lines of an edit are known


def _depth_change(line: str) -> int:
    change = _CHANGES.get(line)
    if change is None:
        bare = _IGNORED.sub("", line)
        change = sum(bare.count(c) for c in _OPEN) - sum(bare.count(c) for c in _CLOSE)
        if len(_CHANGES) >= _KEEP * 16:
            _CHANGES.clear()
        _CHANGES[line] = change
    return change


def pieces(text: str) -> list[tuple[int, str]] | None:
    """The text cut before each top-level entry: (the piece's first line, 0-based; its text), or None."""
    lines = text.splitlines(keepends=True)
    starts: list[int] = []
    depth = 0
    for i, line in enumerate(lines):
        if depth == 0 and line[:1].isalpha() and line[:1].islower():
            starts.append(i)
        depth += _depth_change(line)
        if depth < 0:
            return None
    if depth != 0 or not starts:
        return None
    starts[0] = 0  # what comes before the first entry (comments) belongs to it
    bounds = [*starts, len(lines)]
    return [(bounds[k], "".join(lines[bounds[k]:bounds[k + 1]])) for k in range(len(starts))]


_FIELDS: dict[type, tuple[str, ...] | None] = {}


def _moved(node, lines: int):
    """A syntax tree with every span `lines` further down (the trees are small frozen dataclasses)."""
    kind = type(node)
    if kind is Span:
        return Span(node.file, node.line + lines, node.column, node.end_line + lines if node.end_line else 0,
                    node.end_column)
    if kind is tuple:
        return tuple([_moved(x, lines) for x in node])
    if kind is list:
        return [_moved(x, lines) for x in node]
    names = _FIELDS.get(kind, ())
    if names == ():
        names = _FIELDS[kind] = (tuple(f.name for f in dataclasses.fields(node))
                                 if dataclasses.is_dataclass(node) else None)
    if names is None:  # a str, an int, None: nothing to move
        return node
    moved = object.__new__(kind)
    for name in names:
        object.__setattr__(moved, name, _moved(getattr(node, name), lines))
    return moved


class Pieces:
    """The syntax trees of pieces of files, by their text and by their place."""

    def __init__(self) -> None:
        self.trees: OrderedDict[tuple, tuple] = OrderedDict()
        self.lock = threading.Lock()
        self.files: set[str] = set()  # the files of the pieces
        self.checked: OrderedDict[str, None] = OrderedDict()  # pieces within the limits (dsl/limits.py)
        self.parsed = 0  # pieces actually parsed (for tests)

    def _get(self, key: tuple):
        with self.lock:
            found = self.trees.get(key)
            if found is not None:
                self.trees.move_to_end(key)
            return found

    def has(self, file: str) -> bool:
        """Were pieces of this file parsed before (it is being edited)?"""
        return file in self.files

    def _put(self, key: tuple, items: tuple) -> None:
        with self.lock:
            self.files.add(key[0])
            self.trees[key] = items
            while len(self.trees) > _KEEP:
                self.trees.popitem(last=False)

    def _within_limits(self, piece: str) -> bool:
        """`limits.check_text` of one piece, remembered. A text is within the limits when each of its pieces is:
        every limit but the file's size is of one line or one token, and no token spans lines."""
        from . import limits

        with self.lock:
            if piece in self.checked:
                return True
        ok = limits.check_text(piece, "", Diagnostics())
        if ok:
            with self.lock:
                self.checked[piece] = None
                while len(self.checked) > _KEEP:
                    self.checked.popitem(last=False)
        return ok

    def seed(self, text: str, file: str, items: tuple) -> None:
        """Remember the pieces of a file parsed whole (or read from the disk cache), so that its first edit parses
        only the declaration it touches: each piece's tree is the item of the file's tree that starts on its lines,
        the very tree `parse` would put together. Nothing is remembered unless each piece holds one item."""
        cut = pieces(text)
        if cut is None or len(cut) != len(items):
            return
        ends = [first for first, _ in cut[1:]] + [None]
        for (first, _piece), end, item in zip(cut, ends, items, strict=True):
            span = getattr(item, "span", None)
            if span is None or not (first < span.line and (end is None or span.line <= end)):
                return
        whole_lines = all(p.endswith("\n") for _, p in cut[:-1])
        for (first, piece), item in zip(cut, items, strict=True):
            self._put((file, core(piece), first), (item,))
            if whole_lines:
                with self.lock:
                    self.checked[piece] = None
        with self.lock:
            while len(self.checked) > _KEEP:
                self.checked.popitem(last=False)

    def parse(self, text: str, file: str, known_only: bool = False) -> tuple | None:
        """The file's syntax tree from its pieces, or None (the caller parses the whole file). `known_only`: only
        if every piece was parsed before (else None)."""
        from . import limits
        from .parse import parse_text

        cut = pieces(text)
        if cut is None:
            return None
        if all(p.endswith("\n") for _, p in cut[:-1]):  # pieces of whole lines: each within the limits
            if len(text) > limits.MAX_FILE_CHARS or not all(self._within_limits(p) for _, p in cut):
                return None
        elif not limits.check_text(text, file, Diagnostics()):  # cut at a line end other than '\n'
            return None
        items: list = []
        for first, piece in cut:
            piece = core(piece)
            placed = self._get((file, piece, first))
            if placed is None:
                alone = self._get((file, piece, 0))
                if alone is None:
                    if known_only:
                        return None
                    diags = Diagnostics()
                    alone = parse_text(piece, file, diags)
                    self.parsed += 1
                    if alone is None or diags.errors:
                        return None
                    self._put((file, piece, 0), alone)
                placed = _moved(alone, first) if first else alone
                self._put((file, piece, first), placed)
            items.extend(placed)
        return tuple(items)
