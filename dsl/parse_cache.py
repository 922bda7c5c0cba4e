"""Parsed files, remembered: a file whose text (and label) was parsed before is not parsed again.

Parsing is the slowest step of a compile once schema validation is compiled, and content files rarely
change, so each successfully parsed file's syntax tree is kept in memory (for the language server) and on
disk (for the command line), keyed by a hash of the parser's own code, the file's label and its text.
A file with syntax errors is never cached: it is parsed again, so its messages are always the parser's.
"""

from __future__ import annotations

import hashlib
import pickle
import sys
import threading
from collections import OrderedDict
from collections.abc import Callable
from functools import cache

from . import ast
from .cache import cache_dir, code_fingerprint, parse_cache_enabled, prune, write_atomically
from .diagnostics import Diagnostics
from .parse_chunks import MIN_CHARS, Pieces

Items = tuple[ast.Item, ...]
ParseFn = Callable[[str, str, Diagnostics], "Items | None"]

# What a parsed tree depends on: a change to any of these files invalidates every entry.
_PARSER_FILES = ("parse.py", "ast.py", "diagnostics.py", "grammar.lark", "parse_cache.py")
_KEEP_ON_DISK = 2000  # entries; about 20 kB each
_KEEP_IN_MEMORY = 512


def _lark_version() -> str:
    """Lark's `__init__.py` (it holds its version), read without importing Lark (which takes a while)."""
    from importlib.util import find_spec

    spec = find_spec("lark")
    origin = spec.origin if spec else None
    if not origin:
        return "?"
    with open(origin, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()[:16]


def parse_text(text: str, file: str, diags: Diagnostics) -> Items | None:
    """The parser itself, imported only when a file is not in the cache (Lark takes a while to import)."""
    from .parse import parse_text as parse

    return parse(text, file, diags)


@cache
def _fingerprint() -> str:
    return f"{code_fingerprint(*_PARSER_FILES)}|{_lark_version()}|{sys.version_info[:2]}"


class ParseCache:
    """Parse through a memory and (optionally) a disk cache; the same results as `parse_text`."""

    def __init__(self, disk: bool = True, write_disk: bool = True):
        self.disk = disk
        self.write_disk = write_disk
        self.memory: OrderedDict[str, Items] = OrderedDict()
        self.lock = threading.Lock()  # the language server parses from its compile thread and its request thread
        self.hits = self.misses = 0  # for tests and benchmarks
        self.pieces = Pieces()
        # the language server: a large file read whole (from the disk, say) is also remembered piece by piece, for
        # its first edit (dsl/parse_chunks.py)
        self.keep_pieces = False

    def key(self, text: str, file: str) -> str:
        digest = hashlib.sha256(_fingerprint().encode())
        digest.update(file.encode() + b"\0" + text.encode("utf-8", "surrogatepass"))
        return digest.hexdigest()

    def parse(self, text: str, file: str, diags: Diagnostics) -> Items | None:
        if not parse_cache_enabled():
            return parse_text(text, file, diags)
        key = self.key(text, file)
        with self.lock:
            items = self.memory.get(key)
        editing = items is None and len(text) >= MIN_CHARS and self.pieces.has(file)
        if editing:
            # a large file being edited: from its pieces (quicker than the disk, and the very trees of the last
            # compile, which dsl/incremental.py then recognises by identity); a new piece is parsed below
            items = self.pieces.parse(text, file, known_only=True)
            if items is not None:
                self._remember(key, items, disk=False)
        if items is None and self.disk and not editing:
            items = self._load(key)
            if items is not None and self.keep_pieces and len(text) >= MIN_CHARS:
                self.pieces.seed(text, file, items)
        if items is not None:
            with self.lock:
                self.hits += 1
                self.memory[key] = items
                self.memory.move_to_end(key)
            diags.add_source(file, text)  # what parse_text would have done: messages quote the source
            return items
        self.misses += 1
        errors_before = len(diags.errors)
        items = None
        if len(text) >= MIN_CHARS:  # a large file: parsed declaration by declaration (dsl/parse_chunks.py)
            items = self.pieces.parse(text, file)
            if items is not None:
                diags.add_source(file, text)
        if items is None:
            items = parse_text(text, file, diags)
            if items is not None and self.keep_pieces and len(text) >= MIN_CHARS and len(diags.errors) == errors_before:
                self.pieces.seed(text, file, items)
        if items is not None and len(diags.errors) == errors_before:
            self._remember(key, items)
        return items

    def _remember(self, key: str, items: Items, disk: bool = True) -> None:
        with self.lock:
            self.memory[key] = items
            while len(self.memory) > _KEEP_IN_MEMORY:
                self.memory.popitem(last=False)
        if disk and self.disk and self.write_disk:
            folder = cache_dir() / "parsed"
            write_atomically(folder / f"{key[:32]}.pickle", key.encode() + b"\n" + pickle.dumps(items, protocol=5))
            prune(folder, "*.pickle", _KEEP_ON_DISK)

    def _load(self, key: str) -> Items | None:
        try:
            data = (cache_dir() / "parsed" / f"{key[:32]}.pickle").read_bytes()
        except OSError:
            return None
        stored, _, body = data.partition(b"\n")
        if stored != key.encode():
            return None
        try:
            items = pickle.loads(body)
        except Exception:  # a damaged entry of our own cache: parse again
            return None
        return items if isinstance(items, tuple) else None


# One cache per process: the command line and the language server share what they parsed.
SHARED = ParseCache()


def parse_cached(text: str, file: str, diags: Diagnostics) -> Items | None:
    return SHARED.parse(text, file, diags)
