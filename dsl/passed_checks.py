"""Clean load checks, remembered: a bundle that passed the engine's load checks (interpreter/core/bundle_check.py)
is not checked again, by any command, until the bundle or the checks' code changes.

An empty file in the cache folder per (bundle content, checks' code, with or without variants) says so. It lives
here, below the engine, so that `maester check` of unchanged content asks it without importing the engine;
the checks' code is read as a file for its fingerprint, never imported. `MAESTER_NO_CACHE=1`: nothing remembered.
"""

from __future__ import annotations

import hashlib
import pickle
from functools import cache
from importlib.util import find_spec
from pathlib import Path

from .cache import bundle_cache_enabled, cache_dir, code_fingerprint, write_atomically


@cache
def _checks_fingerprint() -> str:
    digest = hashlib.sha256()
    spec = find_spec("maester.interpreter")  # the package is located, not imported
    for folder in (spec.submodule_search_locations or []) if spec else []:
        checks = Path(folder) / "core" / "bundle_check.py"
        if checks.is_file():
            digest.update(checks.read_bytes())
    for name in ("reads.py", "registry.py", "kinds.py", "validate.py"):  # what the checks read of the language
        digest.update(code_fingerprint(name).encode())
    return digest.hexdigest()[:16]


def _marker(bundle: dict, variants: bool) -> Path | None:
    if not bundle_cache_enabled():
        return None
    try:
        digest = hashlib.sha256(pickle.dumps(bundle, protocol=5)).hexdigest()[:32]
    except Exception:  # noqa: BLE001 - a bundle that cannot be pickled is simply not remembered
        return None
    return cache_dir() / "checked" / f"{digest}-{_checks_fingerprint()}-{'variants' if variants else 'bundle'}"


def passed(bundle: dict, variants: bool) -> bool:
    """Did this very bundle pass the load checks (as each of its variants plays it, with `variants`)?"""
    kinds = (True,) if variants else (False, True)  # the variants' check covers the bundle's own
    return any((m := _marker(bundle, v)) is not None and m.exists() for v in kinds)


def remember(bundle: dict, variants: bool) -> None:
    marker = _marker(bundle, variants)
    if marker is not None:
        write_atomically(marker, b"")
