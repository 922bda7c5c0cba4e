"""Diagnostics: every problem the toolchain finds, with where, what, what was expected and a hint.

A `Diagnostic` is a value; a `Diagnostics` collects all problems of a run so that an author sees
every error at once rather than fixing them one compile at a time.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field


@dataclass(frozen=True, order=True)
class Span:
    """A place in a source file: 1-based line and column, inclusive start, exclusive end column."""

    file: str
    line: int
    column: int
    end_line: int = 0
    end_column: int = 0

    def __str__(self) -> str:
        return f"{self.file}:{self.line}:{self.column}"

    def to_json(self) -> dict:
        return {"file": self.file, "line": self.line, "column": self.column}

    @classmethod
    def parse(cls, where: str | None) -> Span | None:
        """`file:line:col` (as stored in bundles) back into a Span; None if it is not one."""
        if not where:
            return None
        file, _, column = where.rpartition(":")
        file, _, line = file.rpartition(":")
        try:
            return cls(file, int(line), int(column))
        except ValueError:
            return None


NO_SPAN = Span("<none>", 0, 0)
QUOTE_CHARS = 160  # the most of a source line quoted under a message
MAX_ITEMS = 200  # errors (and, separately, warnings) kept per run; further ones are only counted


@dataclass(frozen=True)
class Diagnostic:
    """One problem. `code` is a stable machine-readable kind (e.g. `unknown-key`)."""

    code: str
    message: str
    span: Span | None = None
    severity: str = "error"  # "error" | "warning" | "note" (information: what a command did, not a problem)
    hint: str | None = None
    source_line: str | None = None

    def format(self) -> str:
        """The human form: `file:line:col: error: message`, the line with a caret, then `help:`."""
        where = f"{self.span}: " if self.span and self.span.line else (
            f"{self.span.file}: " if self.span else "")
        out = [f"{where}{self.severity}: {self.message} [{self.code}]"]
        if self.span and self.source_line is not None and self.span.line:
            text = self.source_line.rstrip("\n").expandtabs(1)
            width = 1
            if self.span.end_line == self.span.line and self.span.end_column > self.span.column:
                width = self.span.end_column - self.span.column
            # Quote at most QUOTE_CHARS of the line around the caret, so output stays bounded.
            first = max(0, min(self.span.column - 1 - QUOTE_CHARS // 2, len(text) - QUOTE_CHARS))
            shown = text[first:first + QUOTE_CHARS]
            lead, tail = ("..." if first else ""), ("..." if first + QUOTE_CHARS < len(text) else "")
            out.append(f"  {lead}{shown}{tail}")
            caret = self.span.column - 1 - first + len(lead)
            out.append("  " + " " * caret + "^" * max(1, min(width, QUOTE_CHARS - caret + len(lead))))
        if self.hint:
            out.append(f"  help: {self.hint}")
        return "\n".join(out)

    def to_json(self) -> dict:
        data = {"code": self.code, "severity": self.severity, "message": self.message}
        if self.span:
            data.update(self.span.to_json())
        if self.hint:
            data["hint"] = self.hint
        return data


@dataclass
class Diagnostics:
    """All problems of one run, in the order found; sources are kept to quote the offending lines."""

    items: list[Diagnostic] = field(default_factory=list)
    sources: dict[str, str] = field(default_factory=dict)
    # Beyond MAX_ITEMS of a severity, problems are counted here instead of kept (bounded output).
    dropped: dict[str, int] = field(default_factory=dict)
    _lines: dict[str, list[str]] = field(default_factory=dict, repr=False, compare=False)
    _kept: dict[str, int] = field(default_factory=dict, repr=False, compare=False)

    def add_source(self, file: str, text: str) -> None:
        self.sources[file] = text
        self._lines.pop(file, None)

    def error(self, code: str, message: str, span: Span | None = None, hint: str | None = None) -> None:
        self._add(code, message, span, hint, "error")

    def note(self, code: str, message: str, span: Span | None = None, hint: str | None = None) -> None:
        """Information, not a problem (e.g. which setups `patch setup every` changed)."""
        self._add(code, message, span, hint, "note")

    def warning(self, code: str, message: str, span: Span | None = None, hint: str | None = None) -> None:
        self._add(code, message, span, hint, "warning")

    def _add(self, code: str, message: str, span: Span | None, hint: str | None, severity: str) -> None:
        kept = self._kept.get(severity, 0)
        if kept >= MAX_ITEMS:
            self.dropped[severity] = self.dropped.get(severity, 0) + 1
            return
        self._kept[severity] = kept + 1
        line = None
        if span and span.file in self.sources and span.line:
            lines = self._lines.get(span.file)
            if lines is None:  # split once per file: a file may have thousands of problems
                lines = self._lines[span.file] = self.sources[span.file].splitlines()
            if 0 < span.line <= len(lines):
                line = lines[span.line - 1]
        self.items.append(Diagnostic(code, message, span, severity, hint, line))

    def extend(self, other: Iterable[Diagnostic]) -> None:
        for d in other:
            kept = self._kept.get(d.severity, 0)
            if kept >= MAX_ITEMS:
                self.dropped[d.severity] = self.dropped.get(d.severity, 0) + 1
                continue
            self._kept[d.severity] = kept + 1
            self.items.append(d)

    @property
    def error_count(self) -> int:
        """Every error of the run, shown or not."""
        return sum(1 for d in self.items if d.severity == "error") + self.dropped.get("error", 0)

    @property
    def errors(self) -> list[Diagnostic]:
        return [d for d in self.items if d.severity == "error"]

    @property
    def warnings(self) -> list[Diagnostic]:
        return [d for d in self.items if d.severity == "warning"]

    @property
    def notes(self) -> list[Diagnostic]:
        return [d for d in self.items if d.severity == "note"]

    def __bool__(self) -> bool:
        return bool(self.items)

    def __iter__(self) -> Iterator[Diagnostic]:
        return iter(self.items)

    def __len__(self) -> int:
        return len(self.items)

    def format(self) -> str:
        out = [d.format() for d in self.items]
        for severity, n in sorted(self.dropped.items()):
            out.append(f"... and {n} more {severity}{'s' if n != 1 else ''} not shown")
        return "\n".join(out)


class MaesterError(Exception):
    """Root of every error the toolchain raises on purpose; carries its diagnostics."""

    def __init__(self, diagnostics: Diagnostics | list[Diagnostic] | str):
        if isinstance(diagnostics, str):
            diags = Diagnostics()
            diags.error("error", diagnostics)
            diagnostics = diags
        elif isinstance(diagnostics, list):
            diagnostics = Diagnostics(items=list(diagnostics))
        self.diagnostics = diagnostics
        super().__init__(diagnostics.format())


class CompileError(MaesterError):
    """The content has errors: the bundle was not written."""


class BundleError(MaesterError):
    """A bundle does not match the schema or is not a maester bundle."""


def did_you_mean(word: str, choices: Iterable[str], limit: int = 3) -> list[str]:
    """Close matches of `word` among `choices`, best first (a typo, a `_` for a `-`, a dropped letter)."""
    choices = list(choices)
    normal = {c.replace("_", "-").lower(): c for c in choices}
    key = word.replace("_", "-").lower()
    if key in normal and normal[key] != word:
        return [normal[key]]
    close = difflib.get_close_matches(key, list(normal), n=limit, cutoff=0.6)
    return [normal[c] for c in close]


def hint_for(word: str, choices: Iterable[str], what: str = "", show_all: int = 12) -> str | None:
    """A `help:` line: "did you mean 'x'?" and, for short lists, everything allowed."""
    choices = sorted(set(choices))
    close = did_you_mean(word, choices)
    parts = []
    if close:
        parts.append("did you mean " + " or ".join(f"'{c}'" for c in close) + "?")
    if choices and len(choices) <= show_all:
        parts.append(f"allowed{(' ' + what) if what else ''}: " + " ".join(choices))
    return "; ".join(parts) or None
