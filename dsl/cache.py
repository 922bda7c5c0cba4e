"""Where maester keeps what it can rebuild: the user cache folder (`$XDG_CACHE_HOME/maester`, else ~/.cache/maester).

Everything in it is keyed by a hash of what produced it, so a stale entry is never used; deleting the
folder only costs one slower run. `MAESTER_NO_CACHE=1` turns off the compiled-bundle cache (every compile
then checks and validates the content again); `MAESTER_NO_PARSE_CACHE=1` also turns off the caches of
parsed files and of the parser tables, for a first-run-ever measurement or to rule the caches out.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
from functools import cache
from pathlib import Path

NO_BUNDLE_CACHE = "MAESTER_NO_CACHE"
NO_PARSE_CACHE = "MAESTER_NO_PARSE_CACHE"


def cache_dir() -> Path:
    root = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    return root / "maester"


def bundle_cache_enabled() -> bool:
    return not os.environ.get(NO_BUNDLE_CACHE)


def parse_cache_enabled() -> bool:
    return not os.environ.get(NO_PARSE_CACHE)


@cache
def code_fingerprint(*names: str) -> str:
    """A hash of some files of this package (e.g. the parser's code and grammar): part of every cache key."""
    here = Path(__file__).resolve().parent
    digest = hashlib.sha256()
    for name in names:
        digest.update(name.encode() + b"\0" + (here / name).read_bytes() + b"\0")
    return digest.hexdigest()


def write_atomically(path: Path, data: bytes) -> None:
    """Write `path` so that a reader never sees half a file; failures are ignored (a cache is optional)."""
    tmp = path.with_name(f"{path.name}.{os.getpid()}.tmp")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp.write_bytes(data)
        tmp.replace(path)
    except OSError:
        with contextlib.suppress(OSError):  # a full disk: no half-written temporary file left in the cache
            tmp.unlink(missing_ok=True)


def prune(folder: Path, pattern: str, keep: int) -> None:
    """Delete the oldest files matching `pattern` beyond the newest `keep` (a cache must not grow forever)."""
    try:
        files = list(folder.glob(pattern))
        if len(files) <= keep * 2:  # prune rarely, in one go
            return
        files.sort(key=lambda f: f.stat().st_mtime, reverse=True)
        for f in files[keep:]:
            f.unlink(missing_ok=True)
    except OSError:
        pass
