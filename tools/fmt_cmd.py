"""`maester fmt`: rewrite content files in the one canonical layout (dsl/fmt.py), or `--check` them for CI."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated

import typer

from maester.dsl.compile import CONTENT_SUFFIX, find_sources
from maester.dsl.diagnostics import Diagnostics, MaesterError, Span
from maester.dsl.files import name_problem, write_file
from maester.dsl.fmt import FormatError, format_text

STDIN = "-"


def _say(text: str) -> None:
    typer.echo(text, err=True)


def _report(diags: Diagnostics) -> None:
    for d in diags:
        _say(d.format())


def fmt(
    paths: Annotated[list[str] | None, typer.Argument(
        help="Content files or folders to format (default: the current folder); '-' formats stdin to stdout.",
        show_default=False)] = None,
    check: Annotated[bool, typer.Option("--check", help="Change nothing; list the files that are not formatted "
                                        "and exit 1 if there are any.")] = False,
) -> None:
    """Lay out .mst files the one canonical way (comments kept; what the files mean never changes).

    Exit codes: 0 all formatted (or rewritten); 1 with --check when a file is not formatted, or when a file
    cannot be formatted (a syntax error, a missing path: nothing of it is written).
    """
    targets = paths or ["."]
    if STDIN in targets:
        if len(targets) > 1:
            _say("error: '-' (standard input) cannot be combined with other paths")
            raise typer.Exit(2)
        _format_stdin(check)
        return
    diags = Diagnostics()
    files: list[Path] = []
    for target in targets:
        p = Path(target)
        problem = name_problem(p)
        if problem:
            diags.error("name-too-long", problem, Span(target[:60] + "...", 0, 0), "use a shorter name")
        elif not p.exists():
            diags.error("no-such-file", f"{p}: no such file or folder", Span(str(p), 0, 0))
        elif p.is_file() and p.suffix != CONTENT_SUFFIX:
            diags.error("not-content", f"{p} is not a content file", Span(str(p), 0, 0),
                        f"content files end in {CONTENT_SUFFIX}")
        else:
            files.extend(find_sources([p]))
    if not files and not diags.errors:
        diags.error("no-content", f"no content files found in {', '.join(targets)}", None,
                    f"content files end in {CONTENT_SUFFIX}")
    unformatted: list[Path] = []
    for f in files:
        try:
            text = f.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as e:
            diags.error("unreadable", f"{f}: cannot be read ({e})", Span(str(f), 0, 0))
            continue
        try:
            formatted = format_text(text, str(f))
        except FormatError as e:
            diags.extend(e.diagnostics)
            continue
        if formatted == text:
            continue
        unformatted.append(f)
        if check:
            typer.echo(f"would reformat {f}")
        else:
            try:
                write_file(f, formatted)  # whole or not at all: a full disk or a read-only folder leaves it
            except MaesterError as e:
                diags.extend(e.diagnostics)
                unformatted.pop()
                continue
            typer.echo(f"reformatted {f}")
    _report(diags)
    n = len(unformatted)
    files_word = f"{n} file{'s' if n != 1 else ''}"
    if check:
        if n:
            _say(f"{files_word} would be reformatted, {len(files) - n} already formatted")
        else:
            _say(f"{len(files)} file{'s' if len(files) != 1 else ''} already formatted")
    else:
        _say(f"{files_word} reformatted, {len(files) - n} left unchanged")
    if diags.errors:
        e = len(diags.errors)
        _say(f"{e} error{'s' if e != 1 else ''}; the files with errors were not changed")
        raise typer.Exit(1)
    if check and n:
        raise typer.Exit(1)


def _format_stdin(check: bool) -> None:
    text = sys.stdin.read()
    try:
        formatted = format_text(text, "<stdin>")
    except FormatError as e:
        _report(e.diagnostics)
        raise typer.Exit(1) from None
    if check:
        if formatted != text:
            typer.echo("would reformat <stdin>")
            raise typer.Exit(1)
        return
    sys.stdout.write(formatted)


def register(app: typer.Typer) -> None:
    app.command("fmt")(fmt)
