"""Content files: found under the paths given, read (with located errors), and keyed for the caches.

The light part of compiling, apart from the compiler: a warm `maester check` or engine command reads the sources
and computes their key (`content_key`) without importing the parser, the checker or Lark.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache
from importlib import resources
from pathlib import Path

from .cache import bundle_cache_enabled, cache_dir
from .diagnostics import Diagnostics, Span
from .limits import MAX_FILE_CHARS

CONTENT_SUFFIX = ".mst"


def default_content_dir() -> Path:
    """The bundled content (installed as package data `maester.content`)."""
    return Path(str(resources.files("maester.content")))


def find_sources(paths: Iterable[str | Path]) -> list[Path]:
    """Every `.mst` file under the given files and folders, in a stable order."""
    found: list[Path] = []
    for p in paths:
        p = Path(p)
        if p.is_dir():
            found.extend(sorted(p.rglob(f"*{CONTENT_SUFFIX}")))
        else:
            found.append(p)
    seen, out = set(), []
    for f in found:
        key = f.resolve()
        if key not in seen:
            seen.add(key)
            out.append(f)
    return out


@dataclass
class Source:
    label: str  # the path shown in messages and stored in the bundle
    text: str


def _label(path: Path, roots: list[Path]) -> str:
    resolved = path.resolve()
    for root in roots:
        root = root.resolve()
        base = root if root.is_dir() else root.parent
        try:
            rel = resolved.relative_to(base.parent if root.is_dir() else base)
            return rel.as_posix()
        except ValueError:
            continue
    return path.as_posix()


def read_sources(paths: Iterable[str | Path], diags: Diagnostics) -> list[Source]:
    paths = [Path(p) for p in paths]
    sources = []
    for f in find_sources(paths):
        label = _label(f, paths)
        if f.suffix != CONTENT_SUFFIX:
            diags.error("not-content", f"{label} is not a content file", Span(label, 0, 0),
                        f"content files end in {CONTENT_SUFFIX}")
            continue
        try:
            if f.exists() and not f.is_file() and not f.is_dir():  # a device or a pipe: its read may never end
                diags.error("unreadable", f"{label} cannot be read: it is not a regular file", Span(label, 0, 0),
                            "content files are files (a link to /dev/zero or a pipe is not one)")
                continue
            if f.is_file() and f.stat().st_size > 4 * MAX_FILE_CHARS:  # too large even before decoding
                diags.error("file-too-large", f"{label} has {f.stat().st_size:,} bytes; content files are at most "
                            f"{MAX_FILE_CHARS:,} characters", Span(label, 0, 0), "split the content over several files")
                continue
            sources.append(Source(label, f.read_text(encoding="utf-8")))
        except FileNotFoundError:
            if f.exists() or f.is_symlink():  # a broken link; a missing path is reported below
                diags.error("no-such-file", f"{label}: no such file or folder", Span(label, 0, 0))
        except UnicodeDecodeError as e:
            before = e.object[:e.start]  # where the bad byte is, as a line and column
            line, column = before.count(b"\n") + 1, e.start - (before.rfind(b"\n") + 1) + 1
            diags.error("not-utf8", f"{label} is not UTF-8 text ({e.reason} at byte {e.start})",
                        Span(label, line, column, line, column + 1), "content files are UTF-8 text")
        except OSError as e:  # a folder named *.mst, no permission, a device...
            diags.error("unreadable", f"{label} cannot be read: {e.strerror or e}", Span(label, 0, 0))
    for p in paths:
        if not p.exists():
            diags.error("no-such-file", f"{p}: no such file or folder", Span(str(p), 0, 0))
    return sources


@cache
def compiler_fingerprint() -> str:
    """A hash of the compiler itself: the content language's code, its grammar and the schemas it validates with."""
    digest = hashlib.sha256()
    here = Path(__file__).resolve().parent
    for f in sorted(here.glob("*.py")) + sorted(here.glob("*.lark")):
        digest.update(f.read_bytes())
    for name in ("bundle.schema.json", "effect.schema.json"):
        digest.update(resources.files("maester.schemas").joinpath(name).read_bytes())
    return digest.hexdigest()


def content_key(sources: list[Source]) -> str:
    """The key of what compiling these sources gives: the compiler and every file's label and text."""
    digest = hashlib.sha256(compiler_fingerprint().encode())
    for s in sources:
        digest.update(s.label.encode() + b"\0" + s.text.encode() + b"\0")
    return digest.hexdigest()[:24]


def bundle_cache_path(key: str) -> Path:
    """Where the compiled bundle of the sources of `key` is kept."""
    return cache_dir() / f"bundle-{key}.json"


def read_cached(paths: Iterable[str | Path] | None, diags: Diagnostics,
                cache: bool = True) -> tuple[list[Source], str | None, dict | None]:
    """The sources of `paths` (default: the bundled content), their key (None when they could not all be read or
    the cache is off) and their compiled bundle when the compiled-bundle cache has it (a damaged entry: None)."""
    paths = list(paths) if paths else [default_content_dir()]
    sources = read_sources(paths, diags)
    if diags.errors or not sources or not cache or not bundle_cache_enabled():
        return sources, None, None
    key = content_key(sources)
    try:
        return sources, key, json.loads(bundle_cache_path(key).read_text(encoding="utf-8"))
    except (OSError, ValueError):  # not compiled yet, or a damaged entry: compiled again
        return sources, key, None


def load_compiled(paths: Iterable[str | Path] | None = None) -> tuple[dict, str | None]:
    """`compile.compile_keyed(paths)`, without loading the compiler when the bundle is in the cache."""
    _, key, bundle = read_cached(paths, Diagnostics())
    if bundle is not None:
        return bundle, key
    from .compile import compile_keyed

    return compile_keyed(paths)
