"""The `maester` entry point: `maester version` and the help pages (`maester`, `maester --help`, `maester COMMAND
--help`) are answered at once (none of typer, rich, pydantic or the compiler is loaded); every other command line
goes to the full command line (tools/cli.py), which loads what each command needs.

The answers here are the very ones tools/cli.py gives (tests/test_cli_start.py compares them). The help pages come
from tools/help_pages.json, rendered by typer at development time (tools/help_pages.py, `maester docs --write`); a
page is printed from it only when it is current (its fingerprint is that of the command line's code) and the
output is one typer would render exactly so (see `_help_output`); otherwise typer renders it.
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
from pathlib import Path

VERSION_LINES = (["version"], ["version", "--json"], ["--json", "version"])

HELP_FILE = Path(__file__).with_name("help_pages.json")
HELP_FORMAT, HELP_VERSION = "maester-help-pages", 1
HELP_WIDTH = 80  # columns of every help page (the full command line caps its help at this width too)
# the code that defines the command line: a page is current only while these files are what it was rendered from
HELP_SOURCES = ("cli.py", "cli_support.py", "*_cmd.py")
# environment variables that change what rich or typer write (colours, terminal detection, width): with any of
# them set, typer renders the page
RICH_ENVIRONMENT = ("FORCE_COLOR", "PY_COLORS", "GITHUB_ACTIONS", "_TYPER_FORCE_DISABLE_TERMINAL", "TERMINAL_WIDTH",
                    "TTY_COMPATIBLE", "TTY_INTERACTIVE", "NO_COLOR", "JUPYTER_COLUMNS", "JUPYTER_LINES",
                    "DATABRICKS_RUNTIME_VERSION")


def main() -> None:
    args = sys.argv[1:]
    if args in VERSION_LINES and os.environ.get("MAESTER_COMPILED") != "1":  # (else cli.py also says what is compiled)
        sys.stdout.write(version_text("--json" in args))
        return
    if (not args or args[-1:] == ["--help"]) and len(args) <= 2:
        page = stored_help(args)
        if page is not None:
            _print_page(*page)
            return
    from maester.tools.cli import main as full

    full()


def _versions() -> dict:
    """dsl/version.py's stamps, read without importing the `maester.dsl` package (its diagnostics, dataclasses)."""
    module = sys.modules.get("maester.dsl.version")
    if module is not None:
        return vars(module)
    path = Path(__file__).resolve().parent.parent / "dsl" / "version.py"  # the same layout installed or not
    try:
        stamps: dict = {}
        exec(compile(path.read_text(encoding="utf-8"), str(path), "exec"), stamps)  # constants only
        return stamps
    except OSError:
        from maester.dsl import version

        return vars(version)


def version_text(as_json: bool) -> str:
    stamps = _versions()
    __version__, DSL_VERSION, BUNDLE_FORMAT_VERSION = (  # noqa: N806 - the names dsl/version.py gives them
        stamps["__version__"], stamps["DSL_VERSION"], stamps["BUNDLE_FORMAT_VERSION"])
    if not as_json:
        return f"maester {__version__} (content language {DSL_VERSION}, bundle format {BUNDLE_FORMAT_VERSION})\n"
    result = {"maester": __version__, "content_language": DSL_VERSION, "bundle_format": BUNDLE_FORMAT_VERSION}
    doc = {"format": "maester-cli-output", "version": 1, "command": "version", "ok": True, "exit_code": 0,
           "result": result, "diagnostics": []}  # the envelope of cli_support.emit_json
    return json.dumps(doc, ensure_ascii=False, indent=1, default=str) + "\n"


# ---- help pages ---------------------------------------------------------------------------------------------

def help_fingerprint() -> str:
    """A hash of the command line's code (HELP_SOURCES): a stored page is used only when it matches."""
    here = Path(__file__).resolve().parent
    digest = hashlib.sha256()
    for pattern in HELP_SOURCES:
        for f in sorted(here.glob(pattern)):
            digest.update(f.name.encode() + b"\0" + f.read_bytes() + b"\0")
    return digest.hexdigest()[:32]


def stored_help(args: list[str]) -> tuple[str, int] | None:
    """The page typer would print for `maester ARGS` here (its text and exit code), or None: not stored, stale,
    or an output that typer renders otherwise (see `_help_output`)."""
    styled = _help_output()
    if styled is None:
        return None
    try:
        data = json.loads(HELP_FILE.read_text(encoding="utf-8"))
        if (data.get("format"), data.get("version"), data.get("width")) != (HELP_FORMAT, HELP_VERSION, HELP_WIDTH) \
                or data.get("fingerprint") != help_fingerprint():
            return None
        page = data["pages"].get(" ".join(args))
        if page is None:
            return None
        return page["styled" if styled else "plain"], int(page["exit_code"])
    except (OSError, ValueError, TypeError, KeyError, AttributeError):  # no file, or a damaged one: typer renders
        return None


def _help_output() -> bool | None:
    """How rich would write a help page to stdout: styled (a terminal), plain (a pipe or a file), or None when the
    stored pages do not apply (a terminal narrower than HELP_WIDTH, a dumb terminal, an encoding other than UTF-8,
    an environment variable that changes rich's output, Windows). Mirrors rich.console.Console's own detection."""
    if sys.platform == "win32" or any(name in os.environ for name in RICH_ENVIRONMENT):
        return None
    out = sys.stdout
    if not (getattr(out, "encoding", None) or "utf-8").lower().startswith("utf"):
        return None
    try:
        terminal = out.isatty()
    except (AttributeError, ValueError):
        return None
    if terminal and os.environ.get("TERM", "").strip().lower() in ("dumb", "unknown"):
        return None
    width = None
    for fd in (0, 1, 2):  # rich's order: the first standard stream that is a terminal gives the width
        try:
            width = os.get_terminal_size(fd).columns
            break
        except (AttributeError, ValueError, OSError):
            pass
    columns = os.environ.get("COLUMNS")
    if columns is not None and columns.isdigit():
        width = int(columns)
    if (width or 80) < HELP_WIDTH:
        return None
    return terminal


def _print_page(text: str, code: int) -> None:
    try:
        sys.stdout.write(text)
        sys.stdout.flush()
    except BrokenPipeError:  # `maester --help | head`: the reader left
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        sys.exit(1)
    if code:
        sys.exit(code)


if __name__ == "__main__":
    main()
