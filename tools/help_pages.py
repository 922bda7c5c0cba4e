"""The help pages of `maester`, rendered by typer once (at development time) and kept in tools/help_pages.json, so
that `maester --help`, `maester` alone and `maester COMMAND --help` are printed by the front (tools/front.py)
without loading typer, rich or pydantic.

`maester docs --write` rewrites the file; tests/test_cli_start.py checks that it equals what typer renders now
(so it cannot drift) and that the front prints it byte for byte as the full command line would. Each page is kept
twice: plain (output to a pipe or a file) and styled (the ANSI colours rich writes to a terminal; the typer styles
are named colours, which every colour system writes with the same codes). Pages are rendered `HELP_WIDTH` columns
wide: the full command line caps its help at that width too (as click does), so one rendering serves every
terminal at least that wide; a narrower one, or an environment that changes rich's rendering, goes to typer.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import sys
from pathlib import Path

from maester.dsl.version import __version__

from .front import HELP_FILE, HELP_FORMAT, HELP_VERSION, HELP_WIDTH, RICH_ENVIRONMENT, help_fingerprint

PROG = "maester"


def page_arguments() -> list[list[str]]:
    """Every command line whose output is a help page: `maester`, `maester --help`, `maester COMMAND --help`."""
    from .cli import app, command_name

    names = [command_name(info) for info in app.registered_commands]
    return [[], ["--help"], *([name, "--help"] for name in names)]


@contextlib.contextmanager
def _rendering(styled: bool):
    """typer's help console as the front's pages assume it: HELP_WIDTH columns, colours on or off, none of the
    environment variables that change rich's output (the front goes to typer when one is set)."""
    from typer import rich_utils

    saved = {name: getattr(rich_utils, name) for name in ("MAX_WIDTH", "FORCE_TERMINAL", "COLOR_SYSTEM")}
    environ = {name: os.environ.pop(name) for name in [*RICH_ENVIRONMENT, "TERM", "COLORTERM", "COLUMNS", "LINES"]
               if name in os.environ}
    os.environ["TERMINAL_WIDTH"] = str(HELP_WIDTH)  # the full command line's cap keeps the width set here
    rich_utils.MAX_WIDTH, rich_utils.FORCE_TERMINAL = HELP_WIDTH, styled
    rich_utils.COLOR_SYSTEM = "standard" if styled else None
    try:
        yield
    finally:
        for name, value in saved.items():
            setattr(rich_utils, name, value)
        del os.environ["TERMINAL_WIDTH"]
        os.environ.update(environ)


def render(args: list[str], styled: bool) -> tuple[str, int]:
    """What `maester ARGS` prints on stdout, and its exit code, rendered by typer."""
    from typer.main import get_command

    from .cli import app

    buffer = io.StringIO()
    with _rendering(styled), contextlib.redirect_stdout(buffer):
        try:
            get_command(app).main(list(args), prog_name=PROG)
            code = 0
        except SystemExit as e:
            code = e.code if isinstance(e.code, int) else 0
    return buffer.getvalue(), code


def pages() -> dict:
    """The help file's content: every page, plain and styled, with its exit code."""
    import rich
    import typer

    out: dict = {}
    for args in page_arguments():
        plain, code = render(args, styled=False)
        styled, styled_code = render(args, styled=True)
        assert code == styled_code, args
        out[" ".join(args)] = {"plain": plain, "styled": styled, "exit_code": code}
    rich_version = getattr(rich, "__version__", None) or _dist_version("rich")
    return {"format": HELP_FORMAT, "version": HELP_VERSION, "maester": __version__, "width": HELP_WIDTH,
            "fingerprint": help_fingerprint(), "typer": typer.__version__, "rich": rich_version, "pages": out}


def _dist_version(name: str) -> str | None:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version(name)
    except PackageNotFoundError:
        return None


def help_text(data: dict | None = None) -> str:
    return json.dumps(data if data is not None else pages(), ensure_ascii=False, indent=1, sort_keys=True) + "\n"


def refresh(path: Path = HELP_FILE) -> bool:
    """Rewrite the help file (whole or not at all); True when it changed."""
    from maester.dsl.files import write_file

    text = help_text()
    if path.is_file() and path.read_text(encoding="utf-8") == text:
        return False
    write_file(path, text)
    return True


if __name__ == "__main__":  # python -m maester.tools.help_pages: refresh the stored pages
    print("updated" if refresh() else "unchanged", HELP_FILE, file=sys.stderr)
