"""A warm `maester check`: what checking unchanged content found (the summary it prints and its warnings) is
remembered beside the compiled-bundle cache, so that checking the same content again reads its files, computes
their key and prints the result, without loading the compiler, the engine or even the bundle.

The key holds everything the result depends on: the content's files and the compiler (dsl/sources.py
`content_key`), the load checks' code, the schemas and the maester version (dsl/passed_checks.py
`checks_fingerprint`), the variant shown, and this command's own code (tools/cli.py, this file). Only a clean
result (no error) is kept; a missing, damaged or foreign entry is a miss, never an error. `MAESTER_NO_CACHE=1`
turns it off with the compiled-bundle cache.
"""

from __future__ import annotations

import hashlib
import json
from functools import cache
from pathlib import Path

from maester.dsl.cache import bundle_cache_enabled, cache_dir, prune
from maester.dsl.diagnostics import Diagnostic, Diagnostics, MaesterError, Span
from maester.dsl.passed_checks import checks_fingerprint
from maester.dsl.sources import content_key, default_content_dir, read_sources

RESULT_FORMAT = "maester-check-result"
RESULT_VERSION = 1
KEEP = 200  # results kept (the oldest go beyond)
COMMAND_FILES = ("cli.py", "check_cache.py")  # the code that makes the result from a bundle


@cache
def _command_fingerprint() -> str:
    here = Path(__file__).resolve().parent
    digest = hashlib.sha256()
    for name in COMMAND_FILES:
        digest.update(name.encode() + b"\0" + (here / name).read_bytes() + b"\0")
    return digest.hexdigest()


def _folder() -> Path:
    return cache_dir() / "checks"


def result_key(paths: list[Path] | None, variant: str | None) -> tuple[str | None, str | None]:
    """The key of checking `paths` (None: the bundled content) as `variant` shows it, and the content's own key
    (dsl/sources.py); (None, None) when the cache is off or a file cannot be read (the compiler reports it)."""
    if not bundle_cache_enabled():
        return None, None
    diags = Diagnostics()
    sources = read_sources(paths or [default_content_dir()], diags)
    if diags.errors or not sources:
        return None, None
    content = content_key(sources)
    digest = hashlib.sha256("\0".join([content, checks_fingerprint(), variant or "", _command_fingerprint(),
                                       str(RESULT_VERSION)]).encode())
    return digest.hexdigest()[:32], content


def load(key: str | None) -> tuple[dict, list[Diagnostic]] | None:
    """The summary and the diagnostics of a clean check remembered under `key`, or None."""
    if key is None:
        return None
    try:
        data = json.loads((_folder() / f"{key}.json").read_text(encoding="utf-8"))
        if data["format"] != RESULT_FORMAT or data["version"] != RESULT_VERSION or data["key"] != key:
            return None
        found = [_diagnostic(d) for d in data["diagnostics"]]
        if not isinstance(data["summary"], dict) or any(d.severity == "error" for d in found):
            return None
        return data["summary"], found
    except (OSError, ValueError, TypeError, KeyError, AttributeError):  # none, or damaged: checked again
        return None


def store(key: str | None, summary: dict, diags: Diagnostics) -> None:
    """Remember a clean check (a cache: a failure to write is ignored)."""
    if key is None or diags.errors:
        return
    data = {"format": RESULT_FORMAT, "version": RESULT_VERSION, "key": key, "summary": summary,
            "diagnostics": [_record(d) for d in diags]}
    from maester.dsl.files import write_file  # whole or not at all

    try:
        _folder().mkdir(parents=True, exist_ok=True)
        write_file(_folder() / f"{key}.json", json.dumps(data, ensure_ascii=False))
    except (OSError, MaesterError):
        return
    prune(_folder(), "*.json", KEEP)


def _record(d: Diagnostic) -> dict:
    span = None if d.span is None else [d.span.file, d.span.line, d.span.column, d.span.end_line, d.span.end_column]
    return {"code": d.code, "message": d.message, "span": span, "severity": d.severity, "hint": d.hint,
            "source_line": d.source_line}


def _diagnostic(r: dict) -> Diagnostic:
    span = r["span"]
    where = None if span is None else Span(str(span[0]), *(int(n) for n in span[1:5]))
    return Diagnostic(str(r["code"]), str(r["message"]), where,
                      str(r["severity"]), r["hint"], r["source_line"])
