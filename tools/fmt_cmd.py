"""`maester fmt`: rewrite content files in the one canonical layout (dsl/fmt.py), or `--check` them for CI."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated

import typer

from maester.dsl.diagnostics import Diagnostic, Diagnostics, MaesterError, Span
from maester.dsl.files import name_problem, write_file
from maester.dsl.limits import MAX_FILE_CHARS
from maester.tools.cli_support import EXIT_PROBLEM, EXIT_USAGE, Run, _fail_run, command

STDIN = "-"
MAX_READ_BYTES = 4 * MAX_FILE_CHARS  # a file's bytes read at most (UTF-8: up to 4 bytes a character)


def _say(run: Run, text: str) -> None:
    """A summary line on stderr (under --json the JSON document says it)."""
    if not run.json:
        typer.echo(text, err=True)


def _line(run: Run, text: str) -> None:
    """A file's line on stdout ("reformatted x"); under --json the result lists the files."""
    if not run.json:
        typer.echo(text)


def _report(run: Run, diags: Diagnostics) -> None:
    for d in diags:
        if run.json:
            run.diags.items.append(d)
        else:
            typer.echo(d.format(), err=True)


def fmt(
    run: Run,
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
    from maester.dsl.compile import CONTENT_SUFFIX, find_sources  # the parser loads with the command
    from maester.dsl.fmt import FormatError, format_text

    targets = paths or ["."]
    if STDIN in targets:
        if len(targets) > 1:
            _fail_run(run, [Diagnostic("usage", "'-' (standard input) cannot be combined with other paths", None,
                                       "error", "maester fmt - < file.mst")], EXIT_USAGE)
        _format_stdin(run, check)
        return
    diags = Diagnostics()
    files: list[Path] = []
    for target in targets:
        p = Path(target)
        problem = name_problem(p)
        if not target:  # Path("") is the current folder: an empty argument would format it all, unasked
            diags.error("no-such-file", "an empty path names no file or folder", Span("''", 0, 0),
                        "name a file or folder ('.' is the current folder)")
        elif problem:
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
            if f.exists() and not f.is_file() and not f.is_dir():  # a device or a pipe: its read may never end
                raise OSError("not a regular file")
            if f.stat().st_size > MAX_READ_BYTES:  # too large even before decoding
                diags.error("file-too-large", f"{f} has {f.stat().st_size:,} bytes; content files are at most "
                            f"{MAX_FILE_CHARS:,} characters", Span(str(f), 0, 0),
                            "split the content over several files")
                continue
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
            _line(run, f"would reformat {f}")
        else:
            try:
                write_file(f, formatted)  # whole or not at all: a full disk or a read-only folder leaves it
            except MaesterError as e:
                diags.extend(e.diagnostics)
                unformatted.pop()
                continue
            _line(run, f"reformatted {f}")
    _report(run, diags)
    n = len(unformatted)
    run.result = {"files": len(files), "check": check,
                  ("unformatted" if check else "reformatted"): [str(f) for f in unformatted],
                  "errors": len(diags.errors)}
    files_word = f"{n} file{'s' if n != 1 else ''}"
    if check:
        if n:
            _say(run, f"{files_word} would be reformatted, {len(files) - n} already formatted")
        else:
            _say(run, f"{len(files)} file{'s' if len(files) != 1 else ''} already formatted")
    else:
        _say(run, f"{files_word} reformatted, {len(files) - n} left unchanged")
    if diags.errors:
        e = len(diags.errors)
        _say(run, f"{e} error{'s' if e != 1 else ''}; the files with errors were not changed")
        run.finish(EXIT_PROBLEM)
    run.finish(EXIT_PROBLEM if check and n else 0)


def _format_stdin(run: Run, check: bool) -> None:
    from maester.dsl.fmt import FormatError, format_text

    text = sys.stdin.read(MAX_FILE_CHARS + 1)  # at most one content file and a character: stdin may never end
    if len(text) > MAX_FILE_CHARS:
        _report(run, [Diagnostic("file-too-large", f"standard input has more than {MAX_FILE_CHARS:,} characters; "
                                 "content files are at most that", Span("<stdin>", 0, 0), "error",
                                 "split the content over several files")])
        run.finish(EXIT_PROBLEM)
        return
    try:
        formatted = format_text(text, "<stdin>")
    except FormatError as e:
        _report(run, e.diagnostics)
        run.finish(EXIT_PROBLEM)
        return
    run.result = {"files": 1, "check": check, "formatted": formatted == text}
    if check:
        if formatted != text:
            _line(run, "would reformat <stdin>")
            run.finish(EXIT_PROBLEM)
        run.finish()
        return
    if run.json:
        run.result["text"] = formatted
    else:
        sys.stdout.write(formatted)
    run.finish()


def register(app: typer.Typer) -> None:
    app.command("fmt")(command("fmt")(fmt))
