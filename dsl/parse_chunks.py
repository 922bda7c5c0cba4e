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


def pieces(text: str) -> list[tuple[int, str]] | None:
    """The text cut before each top-level entry: (the piece's first line, 0-based; its text), or None."""
    lines = text.splitlines(keepends=True)
    starts: list[int] = []
    depth = 0
    for i, line in enumerate(lines):
        if depth == 0 and line[:1].isalpha() and line[:1].islower():
            starts.append(i)
        bare = _IGNORED.sub("", line)
        depth += sum(bare.count(c) for c in _OPEN) - sum(bare.count(c) for c in _CLOSE)
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
        self.parsed = 0  # pieces actually parsed (for tests)

    def _get(self, key: tuple):
        with self.lock:
            found = self.trees.get(key)
            if found is not None:
                self.trees.move_to_end(key)
            return found

    def _put(self, key: tuple, items: tuple) -> None:
        with self.lock:
            self.trees[key] = items
            while len(self.trees) > _KEEP:
                self.trees.popitem(last=False)

    def parse(self, text: str, file: str) -> tuple | None:
        """The file's syntax tree from its pieces, or None (the caller parses the whole file)."""
        from . import limits
        from .parse import parse_text

        cut = pieces(text)
        if cut is None or not limits.check_text(text, file, Diagnostics()):
            return None
        items: list = []
        for first, piece in cut:
            placed = self._get((file, piece, first))
            if placed is None:
                alone = self._get((file, piece, 0))
                if alone is None:
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
