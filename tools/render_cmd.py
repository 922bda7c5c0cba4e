"""`maester render`: a picture of any position (a state, a game log at a step, a scenario at a step)."""

from __future__ import annotations

import sys
from enum import StrEnum
from pathlib import Path
from typing import Annotated

import typer

from maester.dsl.diagnostics import Diagnostics, MaesterError, Span, hint_for
from maester.dsl.files import refuse_overwrite, write_file
from maester.tools.cli_support import Run, command
from maester.tools.safe_io import rules_inputs


class PictureFormat(StrEnum):
    svg = "svg"
    png = "png"


# a PNG of the whole map (about 2000 x 1500 units) at 4 pixels a unit is about 200 MB in memory: the bound
MIN_SCALE, MAX_SCALE = 0.1, 4.0
STEP_HELP = ("Which position: step 0 is the position before the first trace line, step N the position at the N-th "
             "line (an event just happened, or a decision is asked); the trace is every event and decision, as "
             "`maester view` lists them; negative counts from the end (default -1: the last position).")
VIEWER_HELP = ("Whose eyes: a house sees its own (and its vassals') face-down orders, 'public' sees none of them, "
               "'all' (default) sees every order.")


def parse_viewer(viewer: str, houses: list[str], where: str) -> str | None:
    """'all' -> None (every order face up), 'public', or a house of the game; anything else is an error."""
    from maester.tools.render import VIEW_ALL, VIEW_PUBLIC

    if viewer == "all":
        return VIEW_ALL
    if viewer == VIEW_PUBLIC or viewer in houses:
        return viewer
    diags = Diagnostics()
    diags.error("unknown-viewer", f"--viewer {viewer}: not a house of {where}", Span(where, 0, 0),
                hint_for(viewer, [*houses, "all", VIEW_PUBLIC]) or f"one of: all, public, {', '.join(houses)}")
    raise MaesterError(diags)


def _line_text(line: dict, viewer: str | None) -> str:
    from maester.tools.position import DECISION
    from maester.tools.view import decision_text

    return decision_text(line, viewer) if line["type"] == DECISION else f"{line['rule']} {line['text']}"


def register(app: typer.Typer) -> None:
    @app.command()
    @command("render")
    def render(
        run: Run,
        source: Annotated[Path, typer.Argument(help="A state JSON, a game log (`maester play --log`) or a "
                                                    "scenario YAML.")],
        output: Annotated[Path | None, typer.Option("-o", "--output", help="Where to write the picture "
                                                    "(default: the SVG on standard output).")] = None,
        step: Annotated[int, typer.Option("--step", help=STEP_HELP)] = -1,
        viewer: Annotated[str, typer.Option("--viewer", help=VIEWER_HELP)] = "all",
        fmt: Annotated[PictureFormat | None, typer.Option("--format", help="svg or png (default: from the "
                                                          "output's suffix, else svg).")] = None,
        variant: Annotated[str | None, typer.Option("--variant", help="A content variant (states and "
                                                    "scenarios; a log names its own).")] = None,
        pack: Annotated[list[Path] | None, typer.Option("--pack", help="A content pack (a log names the packs "
                                                        "it was played with); repeatable.",
                                                        show_default=False)] = None,
        scale: Annotated[float, typer.Option("--scale", min=MIN_SCALE, max=MAX_SCALE,
                                             help="PNG only: pixels per map unit.")] = 1.0,
    ) -> None:
        """Draw a position as SVG (or PNG): the board, who controls what, units, orders, tokens, and the tracks."""
        from maester.tools.position import load
        from maester.tools.render import render_svg, svg_to_png

        kind = fmt or (PictureFormat.png if output and output.suffix.lower() == ".png" else PictureFormat.svg)
        if kind == PictureFormat.png and output is None:
            raise MaesterError("a PNG needs a file: add -o picture.png")
        refuse_overwrite(output, [source, *rules_inputs(pack)], "-o")  # before anything is read or drawn
        timeline = load(source, variant, pack)
        k = timeline.check_step(step)
        state = timeline.state(k)
        who = parse_viewer(viewer, timeline.houses, str(source))
        line = f" — {_line_text(timeline.lines[k - 1], who)}" if k else ""
        caption = f"{source.name} — step {k} of {len(timeline) - 1}{line}"
        svg = render_svg(timeline.rules, state, who, timeline.orders_face_down(k), caption[:90], timeline.combat(k))
        run.result = {"step": k, "steps": len(timeline) - 1, "format": kind.value,
                      "output": str(output) if output else None}
        if output is None:
            if run.json:
                run.result["svg"] = svg
            else:
                sys.stdout.write(svg)
            run.finish()
            return
        data = svg_to_png(svg, scale) if kind == PictureFormat.png else svg.encode("utf-8")
        write_file(output, data)  # whole or not at all
        run.say(f"wrote {output} ({kind.value}, step {k} of {len(timeline) - 1})", markup=False)
        run.finish()
