"""What every `maester` command shares: its output (human text or one JSON document), exit codes,
and the checks of paths and files that run before any long work starts.

Exit codes (documented in docs/cli.md):
  0  success;
  1  a problem was found or an input is wrong (content errors, schema violations, unmet expectations,
     a replay or vector that differs, a missing or unreadable path, a bad option value maester checks);
  2  the command line itself could not be parsed (unknown option, missing argument, a value of the
     wrong type or out of range);
  3  an internal error of maester (a bug): reported in one line, the traceback only with MAESTER_DEBUG=1.
"""

from __future__ import annotations

import contextlib
import dataclasses
import inspect
import json
import os
import sys
import typing
from collections.abc import Callable, Iterable
from functools import wraps
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console

from maester.dsl.diagnostics import Diagnostic, Diagnostics, MaesterError, Span

EXIT_OK, EXIT_PROBLEM, EXIT_USAGE, EXIT_INTERNAL = 0, 1, 2, 3
JSON_FORMAT, JSON_VERSION = "maester-cli-output", 1
STDOUT = "-"  # the path that means "write to standard output"
SNIFF_BYTES = 8192  # how much of a file is read to tell text from binary
PIPED_WIDTH = 400  # tables are as wide as their content; lines are never wrapped

out = Console(highlight=False)
err = Console(stderr=True, highlight=False)

JsonOpt = Annotated[bool, typer.Option("--json", help="Print one JSON document on stdout (results and errors); "
                                       "see docs/cli.md.")]


def plural(n: int, word: str, many: str | None = None) -> str:
    """'1 garrison', '2 garrisons'."""
    return f"{n} {word if n == 1 else (many or word + 's')}"


def configure_consoles() -> None:
    """Piped output is not wrapped at 80 columns (scripts and logs read whole lines)."""
    for console in (out, err):
        if not console.is_terminal:
            console.width = PIPED_WIDTH


# ---- one command's output ------------------------------------------------------------------------------

class Run:
    """The output of one command: human lines, or (with --json) one JSON document at the end."""

    def __init__(self, command: str, as_json: bool):
        self.command = command
        self.json = as_json
        self.result: dict[str, Any] = {}
        self.diags = Diagnostics()
        self.human = out  # commands that write data to stdout move their human lines to stderr
        self.roots: list[Path] = []  # content roots: error paths are shown relative to the current folder

    def say(self, *args, **kwargs) -> None:
        """A human line (suppressed under --json, where the JSON document is the whole output)."""
        if not self.json:
            kwargs.setdefault("soft_wrap", True)
            self.human.print(*args, **kwargs)

    def note(self, text: str) -> None:
        """A side remark on stderr ("wrote x"); suppressed under --json."""
        if not self.json:
            err.print(text, markup=False, soft_wrap=True)

    def report(self, diags: Iterable[Diagnostic]) -> None:
        """Warnings and errors found along the way (printed now, or kept for the JSON document)."""
        for d in relabel(diags, self.roots):
            self.diags.items.append(d)
            if not self.json:
                print_diagnostic(d)

    def finish(self, code: int = EXIT_OK) -> None:
        if self.json:
            emit_json(self.command, code, self.result, self.diags)
        if code:
            raise typer.Exit(code)


def emit_json(command: str, code: int, result: dict | None, diags: Iterable[Diagnostic]) -> None:
    """The one JSON document of a command: the same envelope for every command, success or not."""
    doc = {"format": JSON_FORMAT, "version": JSON_VERSION, "command": command, "ok": code == EXIT_OK,
           "exit_code": code, "result": result if result is not None else None,
           "diagnostics": [d.to_json() for d in diags]}
    sys.stdout.write(json.dumps(doc, ensure_ascii=False, indent=1, default=str) + "\n")
    sys.stdout.flush()


def print_diagnostic(d: Diagnostic) -> None:
    lines = d.format().splitlines()
    style = {"error": "bold red", "note": "cyan"}.get(d.severity, "yellow")
    err.print(lines[0], style=style, markup=False, soft_wrap=True)
    for line in lines[1:]:
        err.print(line, markup=False, soft_wrap=True)


@contextlib.contextmanager
def in_file(path: Path | str):
    """Errors raised while a file's content is used (a log replayed, a position resumed) name that file when
    they name no place of their own (`replay-diverged`, `unknown-variant`, `unknown-order`)."""
    try:
        yield
    except MaesterError as e:
        placed = [d if d.span is not None else dataclasses.replace(d, span=Span(str(path), 0, 0))
                  for d in e.diagnostics]
        raise MaesterError(placed) from None


def fail(code: str, message: str, where: str | Path | None = None, hint: str | None = None) -> MaesterError:
    """One clear error, ready to raise."""
    diags = Diagnostics()
    diags.error(code, message, Span(str(where), 0, 0) if where is not None else None, hint)
    return MaesterError(diags)


def command(name: str) -> Callable[[Callable], Callable]:
    """Run a command body with a `Run` (its first argument): maester errors become diagnostics (text on
    stderr, or the JSON document) and exit 1; an unexpected exception is one line and exit 3."""

    def decorate(fn: Callable) -> Callable:
        @wraps(fn)
        def wrapper(*args, **kwargs):
            run = Run(name, bool(kwargs.pop("as_json", False)))
            try:
                from maester.tools.safe_io import path_arguments

                too_long = path_arguments([*args, *kwargs.values()])  # before any file is touched
                if too_long:
                    _fail_run(run, [_diag("name-too-long", problem, path[:60] + "...", "use a shorter name")
                                    for path, problem in too_long], EXIT_PROBLEM)
                return fn(run, *args, **kwargs)
            except MaesterError as e:
                _fail_run(run, list(e.diagnostics), EXIT_PROBLEM)
            except BrokenPipeError:  # `maester play | head`: the reader left; not an error of ours
                raise
            except OSError as e:  # a file that vanished or cannot be written half-way: still one clear line
                where = e.filename if e.filename is not None else None
                _fail_run(run, [_diag("os-error", f"{where}: {e.strerror or e}" if where else str(e), where)],
                          EXIT_PROBLEM)
            except (typer.Exit, typer.Abort, KeyboardInterrupt):
                raise
            except Exception as e:  # a bug: no traceback for the user, but a way to get it
                if os.environ.get("MAESTER_DEBUG"):
                    raise
                _fail_run(run, [_diag("internal-error", f"internal error: {type(e).__name__}: {e}", None,
                                      "this is a bug in maester; MAESTER_DEBUG=1 shows the traceback")],
                          EXIT_INTERNAL)

        # typer reads the signature: drop the leading `run` parameter, resolve the (string) annotations
        # in the command's own module, and add --json
        hints = typing.get_type_hints(fn, include_extras=True)
        sig = inspect.signature(fn)
        params = [p.replace(annotation=hints.get(p.name, p.annotation)) for p in list(sig.parameters.values())[1:]]
        if not any(p.name == "as_json" for p in params):
            params.append(inspect.Parameter("as_json", inspect.Parameter.KEYWORD_ONLY, default=False,
                                            annotation=JsonOpt))
        wrapper.__signature__ = sig.replace(parameters=params)  # type: ignore[attr-defined]
        return wrapper

    return decorate


def _diag(code: str, message: str, where: str | None = None, hint: str | None = None) -> Diagnostic:
    return Diagnostic(code, message, Span(str(where), 0, 0) if where else None, "error", hint)


def _fail_run(run: Run, diags: list[Diagnostic], code: int) -> None:
    diags = relabel(diags, run.roots)
    errors = [d for d in diags if d.severity == "error"]
    if run.json:
        emit_json(run.command, code, run.result or None, [*run.diags, *diags])
    else:
        for d in diags:
            print_diagnostic(d)
        if code == EXIT_PROBLEM:
            err.print(f"{plural(len(errors), 'error')}; nothing was written.", style="bold red")
    raise typer.Exit(code)


# ---- paths: checked before any long work -------------------------------------------------------------

def shown(path: Path | str) -> str:
    """A path as the user should see it: relative to the current folder when under it (clickable)."""
    p = Path(path)
    try:
        return os.path.relpath(p.resolve(), Path.cwd()) if p.resolve().is_relative_to(Path.cwd().resolve()) \
            else str(p)
    except (OSError, ValueError):
        return str(p)


def need_path(path: Path, what: str, kind: str = "any") -> Path:
    """An input path that exists, is readable and is of the right kind ("file", "dir" or "any")."""
    label = str(path)
    if str(path) == STDOUT:
        raise fail("bad-path", f"'-' (standard input) is not supported here, expected {what}", label)
    if not path.exists():
        raise fail("no-such-file", "no such file or folder", label,
                   f"expected {what}" if what else None)
    if kind == "file" and path.is_dir():
        raise fail("is-a-folder", f"is a folder, expected {what}", label)
    if kind == "dir" and not path.is_dir():
        raise fail("not-a-folder", f"is a file, expected {what}", label)
    if not os.access(path, os.R_OK | (os.X_OK if path.is_dir() else 0)):
        raise fail("unreadable", "cannot be read (permission denied)", label)
    if path.is_file():
        head = path.open("rb").read(SNIFF_BYTES)
        if not head:
            raise fail("empty-file", f"is empty, expected {what}", label)
        if b"\0" in head:
            raise fail("binary-file", f"is a binary file, expected {what}", label)
    return path


def read_text(path: Path, what: str) -> str:
    from maester.dsl.json_input import read_bounded

    need_path(path, what, "file")
    try:
        return read_bounded(path, str(path))  # at most the size of a data file, even from a device
    except UnicodeDecodeError as e:
        raise fail("not-utf8", f"is not UTF-8 text ({e.reason} at byte {e.start}), expected {what}",
                   path) from None


def read_json(path: Path, what: str) -> Any:
    """A JSON file, or one clear error (missing, binary, empty, truncated...)."""
    from maester.dsl.json_input import check_size, loads, read_bounded

    need_path(path, what, "file")
    check_size(path.stat().st_size, str(path))  # before it is read whole (a device: bounded as it is read)
    try:
        text = read_bounded(path, str(path))
    except UnicodeDecodeError as e:
        raise fail("not-utf8", f"is not UTF-8 text ({e.reason} at byte {e.start}), expected {what}",
                   path) from None
    try:
        return loads(text, str(path))  # strict JSON within the limits of data files (dsl/limits.py)
    except json.JSONDecodeError as e:
        diags = Diagnostics()
        hint = "the file ends too early (truncated?)" if e.pos >= len(text.rstrip()) else None
        diags.error("not-json", f"the file is not JSON: {e.msg}", Span(str(path), e.lineno, e.colno), hint)
        raise MaesterError(diags) from None
    except RecursionError:
        raise fail("not-json", "nested too deeply to be read", path) from None


def need_output(path: Path | None, what: str, stdout_ok: bool = True) -> Path | None:
    """An output path that can be written (checked before the work): its folder exists and is writable,
    it is not a folder itself. `-` is standard output (returned as None) where allowed."""
    if path is None:
        return None
    label = str(path)
    if label == STDOUT:
        if not stdout_ok:
            raise fail("bad-output", f"{what} cannot go to standard output here", label)
        return None
    if path.is_dir():
        raise fail("is-a-folder", f"is a folder, expected a file name for {what}", label,
                   f"for example: {path / 'out.json'}")
    parent = path.parent if str(path.parent) else Path(".")
    if not parent.is_dir():
        raise fail("no-such-folder", f"cannot be written: the folder {parent} does not exist", label)
    if not os.access(parent, os.W_OK | os.X_OK) or (path.exists() and not os.access(path, os.W_OK)):
        raise fail("unwritable", "cannot be written: permission denied", label)
    return path


def need_folder(path: Path, what: str) -> Path:
    """An output folder that can be made or written (checked before the work): not a file, and its nearest
    existing ancestor is a writable folder (it is created later, with its parents)."""
    label = str(path)
    if path.exists() and not path.is_dir():
        raise fail("not-a-folder", f"is a file, expected a folder for {what}", label)
    existing = path
    while not existing.exists() and existing != existing.parent:
        existing = existing.parent
    if not existing.is_dir():
        raise fail("no-such-folder", f"cannot be created: {existing} is a file, not a folder", label)
    if not os.access(existing, os.W_OK | os.X_OK):
        raise fail("unwritable", "cannot be written: permission denied", label)
    return path


def content_paths(paths: Iterable[Path] | None, what: str = "content (.mst files or folders of them)") -> None:
    """Every content path given exists and is readable: reported once each, before compiling."""
    diags = Diagnostics()
    for p in paths or []:
        try:
            need_path(p, what, "any")
            if p.is_dir() and not any(p.rglob("*.mst")):
                raise fail("no-content", "holds no content files (.mst)", p)
        except MaesterError as e:
            diags.extend(e.diagnostics)
    if diags.errors:
        raise MaesterError(diags)


def relabel(diags: Iterable[Diagnostic], roots: Iterable[Path]) -> list[Diagnostic]:
    """Diagnostics whose file is a label relative to a pack's parent, with paths relative to the current
    folder instead, so an editor or terminal can open them."""
    bases = []
    for r in roots:
        r = Path(r)
        bases.append(r.parent if r.is_dir() else r.parent)
    fixed = []
    for d in diags:
        if d.span and d.span.file and not _exists(d.span.file):
            for base in bases:
                candidate = base / d.span.file
                if _exists(str(candidate)):
                    d = dataclasses.replace(d, span=dataclasses.replace(d.span, file=shown(candidate)))
                    break
        fixed.append(d)
    return fixed


def _exists(file: str) -> bool:
    try:
        return Path(file).exists()
    except (OSError, ValueError):  # a name too long, a NUL byte: not a file of ours
        return False


def friendly(fn: Callable) -> Callable:
    """A plain command body (no `Run`): maester errors become located diagnostics on stderr and exit 1."""

    @wraps(fn)
    def wrapper(*args, **kwargs):
        try:
            return fn(*args, **kwargs)
        except MaesterError as e:
            for d in e.diagnostics:
                print_diagnostic(d)
            n = len(e.diagnostics.errors)
            err.print(f"{plural(n, 'error')}; nothing was written.", style="bold red")
            raise typer.Exit(EXIT_PROBLEM) from None

    return wrapper
