"""The `maester` entry point: `maester version` answers at once (none of typer, rich or the compiler is loaded);
every other command line goes to the full command line (tools/cli.py), which loads what each command needs.

The answers here are the very ones tools/cli.py gives (tests/test_cli_start.py compares them)."""

from __future__ import annotations

import json
import sys

VERSION_LINES = (["version"], ["version", "--json"], ["--json", "version"])


def main() -> None:
    args = sys.argv[1:]
    if args in VERSION_LINES:
        sys.stdout.write(version_text("--json" in args))
        return
    from maester.tools.cli import main as full

    full()


def version_text(as_json: bool) -> str:
    from maester.dsl.version import BUNDLE_FORMAT_VERSION, DSL_VERSION, __version__

    if not as_json:
        return f"maester {__version__} (content language {DSL_VERSION}, bundle format {BUNDLE_FORMAT_VERSION})\n"
    result = {"maester": __version__, "content_language": DSL_VERSION, "bundle_format": BUNDLE_FORMAT_VERSION}
    doc = {"format": "maester-cli-output", "version": 1, "command": "version", "ok": True, "exit_code": 0,
           "result": result, "diagnostics": []}  # the envelope of cli_support.emit_json
    return json.dumps(doc, ensure_ascii=False, indent=1, default=str) + "\n"


if __name__ == "__main__":
    main()
