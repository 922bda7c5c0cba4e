"""What the commands' inputs and outputs are, for the checks that run before any work: the content files a
compile reads (an output never replaces one of them, dsl/files.py) and path names within their limits."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable
from pathlib import Path

from maester.dsl.diagnostics import Diagnostics, MaesterError, Span
from maester.dsl.files import name_problem


def content_files(roots: Iterable[Path] | None) -> list[Path]:
    """Every content file a compile of `roots` reads (None: the bundled content)."""
    from maester.dsl.compile import default_content_dir, find_sources

    try:
        return find_sources(list(roots) if roots else [default_content_dir()])
    except OSError:  # an unreadable folder is reported by the compile itself
        return []


def rules_inputs(packs: Iterable[Path] | None) -> list[Path]:
    """The content files a command that loads the rules reads: the bundled content and the packs given (an output
    written over one of them would destroy it)."""
    return content_files(None) + (content_files(packs) if packs else [])


def path_arguments(values: Iterable[object]) -> list[tuple[str, str]]:
    """(path, problem) for every path among a command's arguments whose name is too long."""
    found = []
    for value in values:
        items = value if isinstance(value, list | tuple) else [value]
        for item in items:
            if isinstance(item, Path):
                problem = name_problem(item)
                if problem:
                    found.append((str(item), problem))
    return found


def at_file(error: MaesterError, path: Path | str) -> MaesterError:
    """The same errors, those that name no place said to be about the file `path` (a position, a log)."""
    diags = Diagnostics()
    for d in error.diagnostics:
        diags.items.append(d if d.span is not None else dataclasses.replace(d, span=Span(str(path), 0, 0)))
    return MaesterError(diags)
