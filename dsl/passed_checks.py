"""Clean load checks, remembered: a bundle that passed the engine's load checks (interpreter/core/bundle_check.py)
is not checked again, by any command, until the bundle or the checks' code changes.

An empty file in the cache folder says so, keyed by what the checks depend on (`checks_fingerprint`: the engine's
core, the content language's code, the schemas, the maester version) and by either
- the bundle's own content (`passed`/`remember`: a bundle from anywhere, hashed whole), or
- the key of the compiled bundle's sources and compiler (`passed_compiled`/`remember_compiled`, dsl/sources.py
  `content_key`): a bundle compiled from content, which an engine command loads from the compiled-bundle cache
  and plays without checking or even hashing it again.
It lives here, below the engine, so that `maester check` of unchanged content asks it without importing the
engine; the engine's code is read as files for its fingerprint, never imported. `MAESTER_NO_CACHE=1`: nothing
remembered.
"""

from __future__ import annotations

import hashlib
import pickle
from functools import cache
from importlib import resources
from importlib.util import find_spec
from pathlib import Path

from .cache import bundle_cache_enabled, cache_dir, prune, write_atomically
from .version import __version__

# what the checks' code is: every module of the engine's core (bundle_check.py and whatever it may come to
# import), the content language (dsl/, which the checks read: kinds, registry, reads, moments...), the schemas
ENGINE_FILES = ("core/*.py",)
LANGUAGE_FILES = ("*.py", "*.lark")
KEEP = 1000  # markers kept (the oldest go beyond)
ALL_VARIANTS = "*"  # (no variant id has a star) the marker of a bundle checked as each of its variants plays it


def _engine_folders() -> list[Path]:
    spec = find_spec("maester.interpreter")  # the package is located, not imported
    return [Path(f) for f in (spec.submodule_search_locations or [])] if spec else []


@cache
def checks_fingerprint() -> str:
    """A hash of everything the load checks depend on, besides the bundle: a change of any of it is a miss."""
    digest = hashlib.sha256(__version__.encode() + b"\0")
    here = Path(__file__).resolve().parent
    files = [f for folder in _engine_folders() for pattern in ENGINE_FILES for f in sorted(folder.glob(pattern))]
    files += [f for pattern in LANGUAGE_FILES for f in sorted(here.glob(pattern))]
    for f in files:
        digest.update(f.name.encode() + b"\0" + f.read_bytes() + b"\0")
    schemas = resources.files("maester.schemas")
    for schema in sorted(s.name for s in schemas.iterdir() if s.name.endswith(".schema.json")):
        digest.update(schema.encode() + b"\0" + schemas.joinpath(schema).read_bytes() + b"\0")
    return digest.hexdigest()[:16]


def _folder() -> Path | None:
    return cache_dir() / "checked" if bundle_cache_enabled() else None


def _marker(bundle: dict, variants: bool) -> Path | None:
    folder = _folder()
    if folder is None:
        return None
    try:
        digest = hashlib.sha256(pickle.dumps(bundle, protocol=5)).hexdigest()[:32]
    except Exception:  # noqa: BLE001 - a bundle that cannot be pickled is simply not remembered
        return None
    return folder / f"{digest}-{checks_fingerprint()}-{'variants' if variants else 'bundle'}"


def passed(bundle: dict, variants: bool) -> bool:
    """Did this very bundle pass the load checks (as each of its variants plays it, with `variants`)?"""
    kinds = (True,) if variants else (False, True)  # the variants' check covers the bundle's own
    return any((m := _marker(bundle, v)) is not None and m.exists() for v in kinds)


def remember(bundle: dict, variants: bool) -> None:
    _write(_marker(bundle, variants))


def _write(marker: Path | None) -> None:
    if marker is not None:
        write_atomically(marker, b"")
        prune(marker.parent, "*", KEEP)


def _compiled_marker(key: str | None, what: str) -> Path | None:
    folder = _folder()
    if folder is None or not key:
        return None
    return folder / f"compiled-{key}-{checks_fingerprint()}-{hashlib.sha256(what.encode()).hexdigest()[:12]}"


def _what(variant: str | None) -> str:
    return f"variant:{variant}" if variant else "bundle"


def passed_compiled(key: str | None, variant: str | None) -> bool:
    """Did the bundle compiled under `key` pass the load checks as `variant` plays it (None: as it is)? A check of
    every variant (`remember_compiled(key, ALL_VARIANTS)`, what `maester check` does) covers each of them."""
    return any((m := _compiled_marker(key, what)) is not None and m.exists()
               for what in (_what(variant), ALL_VARIANTS))


def remember_compiled(key: str | None, variant: str | None) -> None:
    """The bundle compiled under `key` passed the load checks as `variant` plays it (ALL_VARIANTS: as the bundle
    and each of its variants play it)."""
    _write(_compiled_marker(key, variant if variant == ALL_VARIANTS else _what(variant)))
