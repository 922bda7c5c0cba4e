"""`maester view`: a game log or a scenario as one self-contained HTML page to step through."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from maester.dsl.files import refuse_overwrite, write_file
from maester.tools.cli_support import Run, command
from maester.tools.render_cmd import VIEWER_HELP, parse_viewer
from maester.tools.safe_io import rules_inputs


def register(app: typer.Typer) -> None:
    @app.command()
    @command("view")
    def view(
        run: Run,
        source: Annotated[Path, typer.Argument(help="A game log (`maester play --log`), a scenario YAML or a "
                                                    "state JSON.")],
        output: Annotated[Path | None, typer.Option("-o", "--output", help="The HTML file to write "
                                                    "(default: SOURCE's name with .html, here).")] = None,
        viewer: Annotated[str, typer.Option("--viewer", help=VIEWER_HELP)] = "all",
        variant: Annotated[str | None, typer.Option("--variant", help="A content variant (states and "
                                                    "scenarios; a log names its own).")] = None,
        pack: Annotated[list[Path] | None, typer.Option("--pack", help="A content pack (a log names the packs "
                                                        "it was played with); repeatable.",
                                                        show_default=False)] = None,
    ) -> None:
        """Write one HTML file (works offline) showing the board at every step beside the trace: arrows, a
        slider, jumps to combats and rounds."""
        from maester.tools.position import load
        from maester.tools.view import view_html

        target = output or Path(source.stem + ".html")
        refuse_overwrite(target, [source, *rules_inputs(pack)], "-o")  # before anything is read
        timeline = load(source, variant, pack)
        who = parse_viewer(viewer, timeline.houses, str(source))
        html = view_html(timeline, who)
        write_file(target, html)  # whole or not at all
        run.result = {"output": str(target), "steps": len(timeline), "trace_lines": len(timeline.lines)}
        run.say(f"wrote {target}: {len(timeline)} steps, {len(timeline.lines)} trace lines "
                f"({len(html) // 1024} KiB)", markup=False)
        run.finish()
