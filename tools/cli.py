"""The `maester` command line: compile, check, validate, map, play, replay, explain, diff, ...

Every command takes `--json` (one JSON document on stdout, errors included) and reports problems as
located diagnostics on stderr otherwise; exit codes are those of `cli_support` (docs/cli.md). Paths and
option values are checked before any long work starts; no traceback reaches the user.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import re
import sys
from enum import StrEnum
from pathlib import Path
from typing import Annotated

import typer
from typer.core import TyperGroup

try:  # typer >= 0.20 vendors click; older typers use the click package
    from typer._click.exceptions import ClickException, UsageError
except ImportError:  # pragma: no cover
    from click.exceptions import ClickException, UsageError

from maester.dsl import MaesterError
from maester.dsl.diagnostics import Diagnostic, Diagnostics, Span, hint_for
from maester.dsl.files import refuse_overwrite, write_file, write_files, write_folder
from maester.dsl.limits import MAX_DATA_INTEGER
from maester.dsl.version import BUNDLE_FORMAT, BUNDLE_FORMAT_VERSION, DSL_VERSION, __version__

from . import quick_coercion
from .cli_support import (
    EXIT_INTERNAL,
    EXIT_PROBLEM,
    EXIT_USAGE,
    STDOUT,
    Run,
    command,
    configure_consoles,
    content_paths,
    emit_json,
    err,
    fail,
    in_file,
    need_output,
    need_path,
    out,
    plural,
    read_json,
    read_text,
    shown,
)
from .front import HELP_WIDTH
from .safe_io import content_files, rules_inputs

# ---- heavy modules load with the command that needs them: `maester version` and `--help` start at once


def compile_paths(*args, **kwargs) -> dict:
    """maester.dsl.compile_paths (the compiler and Lark load on the first compile)."""
    from maester.dsl.compile import compile_paths as compile_

    return compile_(*args, **kwargs)


def escape(text: str) -> str:
    from rich.markup import escape as escape_

    return escape_(text)


def Table(*args, **kwargs):  # noqa: N802 - rich's Table, loaded when a table is drawn
    from rich.table import Table as Table_

    return Table_(*args, **kwargs)


class MaesterGroup(TyperGroup):
    """Under --json, a command line that cannot be parsed is reported as JSON too (exit 2)."""

    def main(self, args=None, prog_name=None, complete_var=None, standalone_mode=True, **extra):
        argv = list(sys.argv[1:] if args is None else args)
        if not argv or "--help" in argv:
            _cap_help_width()
        if "--json" not in argv:
            return super().main(argv, prog_name, complete_var, standalone_mode, **extra)
        name = next((a for a in argv if not a.startswith("-")), "maester")
        try:
            code = super().main(argv, prog_name, complete_var, standalone_mode=False, **extra)
        except ClickException as e:
            code = EXIT_USAGE if isinstance(e, UsageError) else e.exit_code
            hint = "maester --help" if name == "maester" else f"maester {name} --help"
            emit_json(name, code, None, [Diagnostic("usage", e.format_message(), None, "error", hint)])
        if not standalone_mode:
            return code
        sys.exit(code if isinstance(code, int) else 0)


quick_coercion.install()  # text and path values without pydantic (tools/quick_coercion.py)


def _cap_help_width() -> None:
    """Help is at most HELP_WIDTH columns wide (as click's own help is), so that the pages stored for the front
    (tools/help_pages.py) are what typer prints in every terminal at least that wide."""
    import os

    if os.environ.get("TERMINAL_WIDTH"):  # the user's choice, which typer honours
        return
    from rich.console import Console
    from typer import rich_utils

    rich_utils.MAX_WIDTH = min(HELP_WIDTH, Console().size.width)


app = typer.Typer(
    name="maester",
    cls=MaesterGroup,
    help="A rules interpreter and content toolkit for A Game of Thrones: The Board Game (2nd ed.) "
    "with Mother of Dragons. Every command takes --json; exit codes: 0 ok, 1 problem found, 2 bad command "
    "line, 3 internal error (docs/cli.md).",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)


@app.callback()
def _root() -> None:
    configure_consoles()


Packs = Annotated[
    list[Path] | None,
    typer.Option("--pack", help="A content pack (folder of .mst files) added to the bundled content; repeatable.",
                 show_default=False),
]
Paths = Annotated[
    list[Path] | None,
    typer.Argument(help="Content files or folders (default: the bundled content).", show_default=False),
]
VariantOpt = Annotated[str | None, typer.Option("--variant", help="A content variant to apply, e.g. targaryen-b.")]


def _content(run: Run, paths: list[Path] | None, packs: list[Path] | None) -> list[Path] | None:
    """What to compile: the given paths, or the bundled content plus any packs (checked now, once each)."""
    from maester.dsl.sources import default_content_dir

    given = [*(paths or []), *(packs or [])]
    content_paths(given)
    run.roots = [*given, default_content_dir()]
    if paths:
        return given
    return [default_content_dir(), *packs] if packs else None


def _rules(run: Run, variant: str | None, packs: list[Path] | None):
    from maester.interpreter.core.rules import Rules

    return Rules.default(variant, _content(run, None, packs))


def _write(path: Path | None, data: str | bytes) -> None:
    """Write an output whole or not at all (dsl/files.py); None is standard output."""
    if path is None:
        if isinstance(data, bytes):
            sys.stdout.flush()
            sys.stdout.buffer.write(data)
            sys.stdout.buffer.flush()
        else:
            sys.stdout.write(data)
            sys.stdout.flush()  # a full or closed stdout is a failure of this command, seen now
        return
    write_file(path, data)


def _no_stdout_clash(run: Run, output: Path | None, option: str) -> None:
    if run.json and output is not None and str(output) == STDOUT:
        raise fail("bad-option", f"{option} - cannot be used with --json: standard output carries the JSON "
                   "document", None, f"give {option} a file name")


# ---- check / compile / validate ------------------------------------------------------------------------

SUMMARY_SECTIONS = ("overlays", "houses", "unit_kinds", "tracks", "tables", "orders", "games", "setups",
                    "card_sets", "house_cards", "westeros_cards", "wildling_cards", "tides_cards", "loans",
                    "variants")
DECKS = ("i", "ii", "iii", "iv")


def bundle_summary(bundle: dict) -> dict:
    """What a bundle holds: a count per section (distinct declarations) and, where cards come in copies,
    the copies too, so that every number has one meaning."""
    boards = {}
    for bid, board in bundle["boards"].items():
        kinds: dict[str, int] = {}
        for a in board["areas"].values():
            kinds[a["kind"]] = kinds.get(a["kind"], 0) + 1
        boards[bid] = {"areas": len(board["areas"]), "land": kinds.get("land", 0), "sea": kinds.get("sea", 0),
                       "ports": kinds.get("port", 0), "borders": len(board["borders"]),
                       "castles": sum(1 for a in board["areas"].values() if a["castle"] != "none")}
    westeros = bundle.get("westeros_cards", {}).values()
    decks = {d: {"cards": sum(1 for c in westeros if c["deck"] == d),
                 "copies": sum(c["copies"] for c in westeros if c["deck"] == d)}
             for d in DECKS if any(c["deck"] == d for c in westeros)}
    orders = bundle.get("orders", {}).values()
    return {
        "format_version": bundle["format_version"],
        "sources": len(bundle["sources"]),
        "boards": boards,
        "counts": {s: len(bundle.get(s, {})) for s in SUMMARY_SECTIONS},
        "ids": {s: sorted(bundle.get(s, {})) for s in SUMMARY_SECTIONS if s not in ("house_cards",)},
        "order_tokens": {"kinds": len(orders), "tokens": sum(o["copies"] for o in orders),
                         "sets": len({o["set"] for o in orders})},
        "house_cards_with_abilities": sum(1 for c in bundle.get("house_cards", {}).values() if c["abilities"]),
        "westeros_decks": decks,
    }


def summary_table(s: dict) -> Table:
    table = Table(title=f"maester bundle {s['format_version']} — {plural(s['sources'], 'source file')}")
    table.add_column("Content", style="bold")
    table.add_column("Count", justify="right")
    table.add_column("Details")
    for bid, b in s["boards"].items():
        table.add_row(f"board {bid}", plural(b["areas"], "area"),
                      f"{b['land']} land, {b['sea']} sea, {plural(b['ports'], 'port')}, "
                      f"{plural(b['borders'], 'border')}, {b['castles']} castles/strongholds")
    labels = {"unit_kinds": "unit kinds", "tracks": "influence tracks", "orders": "order tokens",
              "games": "rules sets", "card_sets": "card sets", "house_cards": "house cards",
              "westeros_cards": "Westeros cards", "wildling_cards": "wildling cards", "tides_cards": "Tides of Battle"}
    for section, n in s["counts"].items():
        if section == "orders":
            o = s["order_tokens"]
            detail = f"{o['kinds']} kinds of order: {o['tokens']} tokens in {plural(o['sets'], 'set')}"
        elif section == "house_cards":
            detail = f"{s['house_cards_with_abilities']} with abilities"
        elif section == "westeros_cards":
            detail = ", ".join(f"deck {d.upper()}: {plural(v['cards'], 'card')} ({v['copies']} copies)"
                               for d, v in s["westeros_decks"].items())
        else:
            detail = ", ".join(s["ids"].get(section, [])) if section not in ("tides_cards", "loans",
                                                                            "wildling_cards") else ""
        if n or section not in ("tides_cards", "variants"):
            table.add_row(labels.get(section, section), str(n), detail)
    return table


@app.command()
@command("check")
def check(run: Run, paths: Paths = None, pack: Packs = None,
          quiet: Annotated[bool, typer.Option("--quiet", "-q", help="Print only problems.")] = False,
          variant: Annotated[str | None, typer.Option("--variant", help="Show the content as this variant "
                                                      "plays it.")] = None) -> None:
    """Compile and validate content without writing a bundle; print what it holds."""
    from maester.tools import check_cache

    content = _content(run, paths, pack)
    key, content_key = check_cache.result_key(content, variant)
    known = check_cache.load(key)  # unchanged content, checked before: its result, nothing compiled or loaded
    if known is not None:
        summary, found = known
    else:
        summary, diags = _check_content(content, variant)
        found = list(diags)
        check_cache.store(key, summary, diags)
        from maester.dsl import passed_checks

        # engine commands play this content (as every variant, or the one shown) without checking it again
        passed_checks.remember_compiled(content_key, variant or passed_checks.ALL_VARIANTS)
    run.report(found)
    run.result = summary
    if not quiet:
        run.say(summary_table(summary))
        run.say("[green]OK[/green]: the content compiles and the bundle matches the schemas.")
    run.finish()


def _check_content(content: list[Path] | None, variant: str | None) -> tuple[dict, Diagnostics]:
    """What `check` finds: the summary of the bundle (as `variant` shows it) and the warnings; an error raises."""
    from maester.dsl.lint import lint

    diags = Diagnostics()
    bundle = compile_paths(content, diags)
    if variant:
        from maester.interpreter.core.rules import apply_variant

        bundle = apply_variant(bundle, variant)
    _check_playable(bundle, diags)
    if diags.errors:
        raise MaesterError(diags)
    lint(bundle, diags)
    return bundle_summary(bundle), diags


def _check_playable(bundle: dict, diags: Diagnostics) -> None:
    """What the engine checks when it loads a bundle (cross-references, effect types), for the bundle and as
    each of its variants plays it: content that `check` accepts never fails to load in `play`."""
    from maester.dsl.passed_checks import passed

    if passed(bundle, variants=True):  # checked before, unchanged since: the engine is not even imported
        return
    from maester.interpreter.core.bundle_check import check_bundle

    # each variant checked for what it changes (no copy of the bundle, no check of what it leaves alone)
    check_bundle(bundle, diags, variants=True)


@app.command("compile")
@command("compile")
def compile_cmd(
    run: Run,
    paths: Paths = None,
    output: Annotated[Path, typer.Option("--output", "-o", help="Where to write the bundle ('-' for stdout).")]
    = Path("bundle.json"),
    variant: VariantOpt = None,
    pack: Packs = None,
) -> None:
    """Compile content to a validated JSON bundle."""
    from maester.interpreter.core.rules import apply_variant

    _no_stdout_clash(run, output, "--output")
    target = need_output(output, "the bundle")
    sources = _content(run, paths, pack)
    refuse_overwrite(target, content_files(sources), "--output")
    found = Diagnostics()  # warnings and notes of compiling (which setups `patch setup every` changed...)
    bundle = apply_variant(compile_paths(sources, found), variant)
    diags = Diagnostics()
    _check_playable(bundle, diags)
    if diags.errors:
        raise MaesterError(diags)
    run.report(found)
    text = json.dumps(bundle, indent=1, ensure_ascii=False) + "\n"
    _write(target, text)
    run.result = {"output": str(output), "bytes": len(text.encode()), "format_version": bundle["format_version"],
                  "variant": variant}
    if target is not None:
        run.note(f"wrote {output} ({len(text):,} bytes, format {bundle['format_version']})")
    run.finish()


def _major(version: object) -> str:
    return str(version).split(".", 1)[0]


@app.command()
@command("validate")
def validate(run: Run, bundle: Annotated[Path, typer.Argument(help="A compiled bundle (JSON).")]) -> None:
    """Check a compiled bundle against the JSON Schemas and for dangling references."""
    from maester.interpreter.core.rules import validate_all

    label = str(bundle)
    data = read_json(bundle, "a compiled bundle (JSON)")
    run.result = {"bundle": label, "format_version": data.get("format_version") if isinstance(data, dict) else None}
    if not isinstance(data, dict) or data.get("format") != BUNDLE_FORMAT:
        raise fail("not-a-bundle", f"not a maester bundle (its \"format\" is not '{BUNDLE_FORMAT}')",
                   label, "bundles are written by `maester compile`")
    if _major(data.get("format_version")) != _major(BUNDLE_FORMAT_VERSION):
        # said first and alone: a bundle of another major version differs everywhere
        raise fail("unsupported-version", f"bundle format {data.get('format_version')}, which this "
                   f"maester does not read (it reads {_major(BUNDLE_FORMAT_VERSION)}.x)", label,
                   "recompile the content with this maester (`maester compile`)")
    diags = Diagnostics()
    validate_all(data, diags, label)  # the schema, then cross-references and effect types
    if diags.errors:
        raise MaesterError(diags)
    run.say(f"[green]OK[/green]: {escape(label)} matches the bundle schema {BUNDLE_FORMAT_VERSION}; every "
            "reference resolves.")
    run.finish()


# ---- map ------------------------------------------------------------------------------------------------

class MapFormat(StrEnum):
    json = "json"
    dot = "dot"
    png = "png"


@app.command("map")
@command("map")
def map_cmd(
    run: Run,
    board: Annotated[str, typer.Option("--board", "-b", help="base, mod or mod-essos (or any board id).")]
    = "base",
    fmt: Annotated[MapFormat, typer.Option("--format", "-f", help="Output format.")] = MapFormat.json,
    output: Annotated[Path | None, typer.Option("--output", "-o", help="Output file ('-' or none: stdout; a "
                                                 "PNG is not written to a terminal).")] = None,
    pack: Packs = None,
    content: Annotated[list[Path] | None, typer.Option("--content", hidden=True,
                                                       help="Deprecated: use --pack or give paths.")] = None,
) -> None:
    """Export a board's graph (areas and borders) as JSON, Graphviz DOT or a PNG picture."""
    from maester.interpreter.core.board import BOARD_ALIASES, Board

    _no_stdout_clash(run, output, "--output")
    target = need_output(output, "the map")
    if fmt is MapFormat.png and target is None and (run.json or sys.stdout.isatty()):
        raise fail("bad-output", "a PNG picture is not written to a terminal", None,
                   f"give a file (-o {BOARD_ALIASES.get(board, board)}.png) or redirect: maester map -f png > map.png")
    if content:
        run.note("warning: --content is deprecated; give content with --pack (added to the bundled content)")
    sources = _content(run, content, pack)
    refuse_overwrite(target, content_files(sources), "--output")
    bundle = compile_paths(sources)
    board_id = BOARD_ALIASES.get(board, board)
    graph = Board.from_bundle(bundle, board_id)
    run.result = {"board": board_id, "format": fmt.value, "output": str(output) if output else STDOUT}
    if fmt is MapFormat.png:
        from maester.tools.draw import draw_board

        buffer = io.BytesIO()
        draw_board(graph, buffer)  # type: ignore[arg-type]  # savefig takes a file object too
        _write(target, buffer.getvalue())
        run.result["bytes"] = len(buffer.getvalue())
    else:
        text = graph.to_json_text() if fmt is MapFormat.json else graph.to_dot()
        if run.json:
            run.result["graph" if fmt is MapFormat.json else "text"] = (
                json.loads(text) if fmt is MapFormat.json else text)
            if target is not None:
                _write(target, text)
        else:
            _write(target, text)
    if target is not None:
        run.note(f"wrote {output}")
    run.finish()


# ---- play / replay --------------------------------------------------------------------------------------

AgentsOpt = Annotated[str | None, typer.Option("--agents", "-a", help="random, heuristic (the default), human, "
                                               "or per house: 'stark=human,lannister=random' (the others "
                                               "heuristic), or per seat: '1=human' (seat 1 plays the house "
                                               "it drew, or the setup's first); --resume keeps the saved seats.",
                                               show_default=False)]
AGENT_KINDS = ("random", "heuristic", "human")


def _agent_spec(spec: str) -> tuple[str, dict[str, str]]:
    """The default agent kind and the per-house kinds of an --agents value (checked now); a value naming only
    some houses leaves the others to the default agent (heuristic), never silently to a weaker one."""
    default, per = "heuristic", {}
    diags = Diagnostics()
    for part in filter(None, (p.strip() for p in spec.split(","))):
        if "=" in part:
            house, kind = (x.strip() for x in part.split("=", 1))
            per[house] = kind
        else:
            default = part
    for name in [default, *per.values()]:
        if name not in AGENT_KINDS:
            diags.error("unknown-agent", f"unknown agent kind '{name}'", None,
                        (hint_for(name, AGENT_KINDS) or "") + "; use random, heuristic or human")
    if diags.errors:
        raise MaesterError(diags)
    return default, per


def _agents(spec: tuple[str, dict[str, str]], houses, seed: int, seat=None, game=None) -> tuple[dict, dict[str, str]]:
    """Agents by house; `human` houses share one terminal seat (`seat`, tools/human.py). A spec naming seats by
    number (`1=human`) gives each seat's agent the house that seat has (drawn by `assign-houses`, or the setup's
    Nth player house): a `SeatedAgents` mapping, read at each decision."""
    from maester.interpreter.effects.pregame import seats as seats_of
    from maester.interpreter.frontends.agents import HeuristicAgent, RandomAgent, SeatedAgents

    kinds = {"random": RandomAgent, "heuristic": HeuristicAgent, "human": lambda _seed: seat}
    default, per = spec
    if game is not None and any(k.isdigit() for k in per):
        order = seats_of(game)
        bad = [k for k in per if not k.isdigit() or not 1 <= int(k) <= len(order)]
        if bad:
            raise fail("unknown-seat", f"--agents: '{bad[0]}' is not a seat of this game", None,
                       f"seats 1 to {len(order)} (name seats or houses, not both)")
        by_seat = {n: kinds[per.get(str(n), default)](seed * 1009 + n - 1) for n in range(1, len(order) + 1)}
        others = {h: kinds[default](seed * 1009 + len(order) + i) for i, h in enumerate(sorted(houses))
                  if h not in order}
        crew = SeatedAgents(game, by_seat, others)
        return crew, {h: per.get(str(crew.seat_of(h)), default) for h in crew}
    bad = [h for h in per if h not in houses]
    if bad:
        raise fail("unknown-house", f"'{bad[0]}' is not in this game", None, "houses: " + ", ".join(houses))
    chosen = {h: per.get(h, default) for h in sorted(houses)}
    return {h: kinds[k](seed * 1009 + i) for i, (h, k) in enumerate(chosen.items())}, chosen


def _setup_id(rules, players: int | None, setup: str | None, base: bool, targaryen: bool) -> str:
    """The setup: --setup, or the rules set's setup for the player count (Mother of Dragons unless --base;
    R31.1: Targaryen only with 4+). Without --players, the most players the rules set has setups for."""
    setups = rules.bundle["setups"]
    if setup:
        rules.setup(setup)  # a readable error for an unknown id
        return setup
    game = "base" if base else "mother-of-dragons"
    counts = sorted({s["players"] for s in setups.values() if s["game"] == game})
    if not counts:
        raise fail("no-setup", f"the content has no setup for the rules set '{game}'")
    n = players if players is not None else counts[-1]
    if n not in counts:
        name = rules.bundle["games"][game]["name"]
        raise fail("bad-players", f"{name} has no setup for {n} players", None,
                   f"--players {counts[0]} to {counts[-1]}" + ("" if base else ", or --base for the base game"))
    if base:
        return f"base-{n}p"
    if n in (3, 8):
        return f"mod-{n}p"
    return f"mod-{n}p-{'with' if targaryen else 'without'}-targaryen"


def _check_variant(rules, variant: str | None, setup_id: str) -> None:
    if not variant:
        return
    from maester.interpreter.core.rules import variant_games

    wanted, playing = variant_games(rules.bundle["variants"][variant]), rules.setup(setup_id)["game"]
    if playing not in wanted:  # a variant changes its rules sets; on another it would silently do nothing
        raise fail("variant-mismatch", f"variant '{variant}' is for the rules set '{', '.join(wanted)}', but setup "
                   f"'{setup_id}' plays '{playing}'", None,
                   "add --base" if wanted == ["base"] else "leave out --base (Mother of Dragons setups)")


def _house_list(text: str | None, rules, setup_id: str) -> list[str] | None:
    if not text:
        return None
    chosen = [h.strip() for h in text.split(",") if h.strip()]
    allowed = rules.setup(setup_id)["houses"]
    diags = Diagnostics()
    for h in chosen:
        if h not in allowed:
            diags.error("unknown-house", f"--houses: '{h}' is not a house of setup '{setup_id}'", None,
                        hint_for(h, allowed, "houses", show_all=20))
    if diags.errors:
        raise MaesterError(diags)
    return chosen


@app.command()
@command("play")
def play(
    run: Run,
    players: Annotated[int | None, typer.Option("--players", "-p", min=3, max=8, show_default=False,
                                                help="Number of players (default: the most the rules set "
                                                "allows: 8 for Mother of Dragons, 6 with --base).")] = None,
    base: Annotated[bool, typer.Option("--base", help="The base game (3-6 players) instead of Mother of "
                                       "Dragons.")] = False,
    targaryen: Annotated[bool, typer.Option("--targaryen/--no-targaryen", help="Mother of Dragons with 4-7 "
                                            "players: is House Targaryen played?")] = True,
    houses: Annotated[str | None, typer.Option("--houses", help="Mother of Dragons: the player houses, "
                                               "comma-separated (default: drawn by the seed).")] = None,
    variant: VariantOpt = None,
    pack: Packs = None,
    setup: Annotated[str | None, typer.Option("--setup", help="A setup id (overrides --players).")] = None,
    seed: Annotated[int, typer.Option("--seed", "-s", min=-MAX_DATA_INTEGER, max=MAX_DATA_INTEGER,
                                      help="Random seed of the game (within 64 bits, docs/cli.md).")] = 1,
    agents: AgentsOpt = None,
    log: Annotated[Path | None, typer.Option("--log", help="Write the full game log (JSON) here ('-': stdout, "
                                             "the progress then goes to stderr).")] = None,
    thin_log: Annotated[bool, typer.Option("--thin-log", help="With --log: write the answers only (and the "
                                           "summary), without decisions, events and states.")] = False,
    tides: Annotated[bool, typer.Option("--tides-of-battle", help="Use the Tides of Battle option.")] = False,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="Print only the summary.")] = False,
    save: Annotated[Path | None, typer.Option("--save", help="Save the position here when the game stops (at "
                                              "the end, on quit, or at --stop-at).")] = None,
    stop_at: Annotated[int | None, typer.Option("--stop-at", min=0, help="Stop after this many decisions (and "
                                                "--save the position).")] = None,
    resume: Annotated[Path | None, typer.Option("--resume", help="Continue a position saved by --save (its setup, "
                                                "seed and variant come from the file).")] = None,
) -> None:
    """Play a full game with agents (or people: --agents stark=human) and print a summary."""
    from maester.interpreter.effects.pregame import seats as seats_of
    from maester.interpreter.mod import ModOptions, new_game
    from maester.interpreter.mod.state import DragonsState
    from maester.interpreter.procedures.game import Game
    from maester.tools.human import HumanSeat, drive, save_table

    # everything that can be wrong is checked before the first move
    _no_stdout_clash(run, log, "--log")
    log_target = need_output(log, "the game log")
    if log is not None and log_target is None:
        run.human = err  # stdout carries the log
    spec = _agent_spec(agents or "heuristic")
    if save is not None:
        need_output(save, "the saved position", stdout_ok=False)
    # an output never replaces an input; only --save may replace the position it resumes (atomically)
    contents = rules_inputs(pack)  # (a log or a save over a pack's file would destroy it)
    refuse_overwrite(log_target, [*(p for p in (resume, save) if p is not None), *contents], "--log")
    refuse_overwrite(save, [*([resume] if resume else []), *contents], "--save", allowed=[resume] if resume else [])
    doc = read_json(need_path(resume, "a saved position (maester play --save FILE)", "file"), "a saved position") \
        if resume else None
    table = None
    if isinstance(doc, dict) and doc.get("format") == "maester-table":  # a seat's save (tools/human.py)
        from maester.tools.human import TABLE_VERSION

        if doc.get("version") != TABLE_VERSION or not isinstance(doc.get("position"), dict):
            raise fail("bad-save", f"{resume}: a saved table of version {doc.get('version')}; this maester reads "
                       f"version {TABLE_VERSION}", None, "resume it with the maester version that saved it")
        table, doc = doc, doc["position"]
        if agents is None and isinstance(table.get("seats"), dict):  # the same people and agents as before
            spec = ("heuristic", {h: k for h, k in table["seats"].items() if isinstance(k, str)})
            spec = _agent_spec(",".join(f"{h}={k}" for h, k in spec[1].items()) or "heuristic")
    if isinstance(doc, dict) and variant is None:
        variant = doc.get("variant") if isinstance(doc.get("variant"), str) else None
    with in_file(resume) if resume else contextlib.nullcontext():  # a resumed position's variant: its file
        rules = _rules(run, variant, pack)
    if doc is not None:
        with in_file(resume):
            game = Game.from_state(rules, doc)  # proved by its history (docs/position.md), or one clear error
        setup_id, seed = game.state.setup, game.state.seed
    else:
        if variant:  # the variant's rules set and setups decide (tools/variant_play.py)
            from maester.tools.variant_play import variant_setup

            setup_id = variant_setup(rules.bundle, variant, players, base, targaryen, setup, pack or [])
        else:
            setup_id = _setup_id(rules, players, setup, base, targaryen)
        _check_variant(rules, variant, setup_id)
        chosen = _house_list(houses, rules, setup_id)
        game = new_game(rules, setup_id, seed=seed, options=ModOptions(tides_of_battle=tides, player_houses=chosen))
    seat = HumanSeat(write=lambda line: run.say(line, markup=False, highlight=False), save_to=save)
    crew, kinds = _agents(spec, list(game.state.houses), seed, seat, game)
    if table is not None:
        from maester.tools.human import restore_agents

        restore_agents(crew, table)  # the agents go on with the very draws they would have made
    seat.crew, seat.kinds = crew, kinds
    setup_rec = rules.setup(setup_id)
    vassals = [h for h in game.turn_order if (h in DragonsState.of(game.state).vassals)]
    seated = seats_of(game)  # the house of each seat (drawn by `assign-houses`, or the setup's order)
    drawn = bool(game.state.modules.get("pregame", {}).get("seats"))
    run.result = {"setup": setup_id, "rules_set": setup_rec["game"], "variant": variant,
                  "packs": [str(p) for p in pack or []], "seed": seed, "tides_of_battle": tides,
                  "houses": list(game.turn_order), "vassals": vassals, "agents": kinds,
                  "seats": [{"seat": n, "house": h, "agent": kinds.get(h)} for n, h in enumerate(seated, 1)],
                  "seats_drawn": drawn}
    run.say(f"[bold]{rules.bundle['games'][setup_rec['game']]['name']}[/bold], setup {setup_id} "
            f"({plural(setup_rec['players'], 'player')}), seed {seed}"
            + (f", variant {variant}" if variant else "") + (", Tides of Battle" if tides else ""))
    run.say("houses: " + ", ".join(f"{h} (vassal)" if h in vassals else h for h in game.turn_order), markup=False)
    if drawn:  # the seats were drawn (`assign-houses`): say which house each seat plays
        run.say("seats drawn: " + ", ".join(f"{n} {h} ({kinds.get(h)})" for n, h in enumerate(seated, 1)),
                markup=False)
    by_kind = sorted(set(kinds.values()))
    run.say("agents: " + (by_kind[0] if len(by_kind) == 1 else
                          ", ".join(f"{h}={k}" for h, k in kinds.items())), markup=False)
    shown_events = len(game.events)
    if not quiet and doc is None:
        run.say(f"[dim]{'':>8}[/dim]  round 1 begins", style="bold")

    def step(g) -> None:
        nonlocal shown_events
        if not quiet:
            shown_events = _progress(run, g, shown_events)
        if stop_at is not None and len(g.answers) >= stop_at:
            raise _Stop

    try:
        finished = drive(game, crew, on_answer=step)
    except _Stop:
        finished = False
    if not quiet:
        _progress(run, game, shown_events)
    if save:
        save_table(game, save, seat.kinds, seat.crew)  # a failed save fails the run (exit 1), old file kept
        run.say(f"saved to {save}; resume with: maester play --resume {save}", markup=False)
    run.result["saved"] = str(save) if save else None
    run.result["log"] = str(log) if log else None
    if log:  # a game stopped early (--stop-at, quit) is logged as far as it went: replay and view read it
        from maester.interpreter.frontends.log import game_log  # (and the formats it checks) with --log only

        data = game_log(game, agents or ("heuristic" if table is None else
                                         ",".join(f"{h}={k}" for h, k in kinds.items())), thin=thin_log)
        data["packs"] = [str(p) for p in pack or []]  # so `maester replay` can find the same content
        _write(log_target, json.dumps(data, indent=1) + "\n")
        run.note(f"wrote {log} ({len(game.events)} events, {len(game.answers)} decisions)")
    if not finished:
        run.result["stopped_at"] = len(game.answers)
        run.note(f"stopped at decision {len(game.answers)} (round {game.state.round}, {game.state.phase} phase)")
        run.finish()
        return
    run.say(summary_view(game))
    run.result["summary"] = game.summary()
    run.finish()


class _Stop(Exception):  # noqa: N818 - --stop-at reached
    pass


NOTABLE = {"round", "combat-result", "victory", "wildlings-win", "wildlings-lose", "garrison", "neutral-force"}


def _progress(run: Run, game, shown_events: int) -> int:
    """Print the round headlines and notable events as they happen."""
    for i, e in enumerate(game.events[shown_events:], shown_events):
        if e["type"] == "combat-result":
            run.say(f"[dim]{escape(e['rule']):>8}[/dim]  {escape(combat_line(game, i))}")
        elif e["type"] in NOTABLE:
            style = "bold" if e["type"] in ("round", "victory") else ""
            run.say(f"[dim]{escape(e['rule']):>8}[/dim]  {escape(e['text'])}", style=style)
    return len(game.events)


def standing(game) -> list[str]:
    """The houses from first to last: the winner, then by the rules set's end-of-game order (R26.3: castles,
    then its tiebreakers); houses that cannot win (vassals) last."""
    from maester.interpreter.procedures.game import TIEBREAKERS

    order = [TIEBREAKERS[t][1] for t in game.game_rec.get("tiebreakers") or []]

    def key(h: str) -> tuple:
        return (h != game.state.winner, not game.may_win(h), -game.victory_points(h),
                *(measure(game, h) for measure in order))

    return sorted(game.turn_order, key=key)


def combat_line(game, result_index: int) -> str:
    """A combat in one line, from its events: where, who attacked whom, the cards and the result."""
    events = game.events
    start = next((i for i in range(result_index, -1, -1) if events[i]["type"] == "combat"), None)
    if start is None:
        return events[result_index]["text"]
    c = events[start]
    area = game.board.area(c["area"]).name if c.get("area") in game.board.graph else c.get("area")
    reveal = next((e for e in events[start:result_index] if e["type"] == "reveal"), None)
    cards = ""
    if reveal and isinstance(reveal.get("cards"), dict):
        named = {h: game.rules.bundle["house_cards"].get(cid, {}).get("name", cid)
                 for h, cid in reveal["cards"].items()}
        cards = f" — {named.get(c['attacker'], '?')} against {named.get(c['defender'], '?')}"
    r = events[result_index]
    final = r.get("final") or {}
    score = f", {final.get(c['attacker'], '?')} to {final.get(c['defender'], '?')}" if final else ""
    return (f"combat in {area}: {c['attacker']} attacks {c['defender']}{cards}{score}: "
            f"{r.get('winner') or 'no winner'} wins")


def summary_view(game) -> Table:
    s = game.summary()
    from maester.interpreter.core.state import END_REASONS

    reason = END_REASONS.get(s["reason"], s["reason"])
    table = Table(title=f"{s['winner']} wins — {reason} (round {s['rounds']}, seed {game.state.seed})")
    table.add_column("#", justify="right")
    table.add_column("House", style="bold")
    table.add_column("Victory points", justify="right")
    table.add_column("Land areas", justify="right")
    table.add_column("Supply", justify="right")
    table.add_column("Power", justify="right")
    table.add_column("Iron Throne", justify="right")
    from maester.interpreter.core import control
    from maester.interpreter.mod.state import DragonsState

    for rank, h in enumerate(standing(game), 1):
        name = f"{h} (vassal)" if (h in DragonsState.of(game.state).vassals) else h
        lands = len(control.controlled_areas(game.state, game.board, h))
        table.add_row(str(rank), name, str(s["castles"][h]), str(lands),
                      str(game.state.houses[h].supply), str(game.state.houses[h].power),
                      str(game.state.position(h, game.turn_track)))
    counts: dict[str, int] = {}
    for e in game.events:
        counts[e["type"]] = counts.get(e["type"], 0) + 1
    table.caption = (f"{plural(s['decisions'], 'decision')}, {plural(s['events'], 'event')}: "
                     f"{plural(counts.get('combat', 0), 'combat')}, "
                     f"{plural(counts.get('wildling-attack', 0), 'wildling attack')}, "
                     f"{plural(counts.get('garrison', 0), 'garrison')} fallen; final state {s['state_hash']}")
    return table


@app.command()
@command("replay")
def replay(
    run: Run,
    log: Annotated[Path, typer.Argument(help="A game log written by `maester play --log`.")],
    pack: Annotated[list[Path] | None, typer.Option("--pack", help="A content pack the game was played with "
                                                    "(default: the packs the log records); repeatable.",
                                                    show_default=False)] = None,
    variant: Annotated[str | None, typer.Option("--variant", help="The variant the game was played with "
                                                "(default: the one the log records).")] = None,
) -> None:
    """Replay a logged game from its seed and decisions; check every event and the final state."""
    from maester.interpreter.frontends.log import replay_log

    from .log_check import check_log

    data = check_log(read_json(log, "a game log (JSON)"), str(log))
    if variant and data.get("variant") and variant != data["variant"]:
        raise fail("variant-mismatch", f"the game was played with variant '{data['variant']}', not '{variant}'",
                   str(log), "leave out --variant: the log's variant is used")
    packs = pack
    if not packs and data.get("packs"):
        packs = [Path(p) for p in data["packs"]]
        missing = [p for p in packs if not p.exists()]
        if missing:
            raise fail("missing-pack", f"the game was played with the pack {missing[0]}, which is not here",
                       str(log), "give the pack's folder: maester replay LOG --pack FOLDER")
    with in_file(log):  # the log's variant, orders and events: its errors name it
        rules = _rules(run, variant or data.get("variant"), packs)
    try:
        with in_file(log):
            game, problem = replay_log(rules, data)
    except MaesterError:
        raise
    except (ValueError, TypeError, KeyError, AttributeError, IndexError) as e:  # the log's data, not our bug
        raise fail("replay-failed", f"the log cannot be replayed: {type(e).__name__}: {e}", str(log),
                   "was the log edited? `maester play --log` writes logs that replay") from None
    run.result = {"log": str(log), "matches": problem is None, "setup": data["setup"], "seed": data["seed"],
                  "decisions": len(game.answers), "events": len(game.events), "state_hash": game.state.hash(),
                  "summary": game.summary()}
    if problem:
        with in_file(log):
            raise MaesterError(problem)
    run.say(f"[green]replay matches[/green]: {plural(len(game.answers), 'decision')}, "
            f"{plural(len(game.events), 'event')}, final state {game.state.hash()}")
    run.say(summary_view(game))
    run.finish()


# ---- explain / conformance -------------------------------------------------------------------------------

def _scenario_files(paths: list[Path]) -> list[Path]:
    """The scenario files given (folders searched for *.yaml), every one readable text; checked now."""
    files: list[Path] = []
    diags = Diagnostics()
    for p in paths:
        try:
            need_path(p, "a scenario file (YAML) or a folder of them")
            found = sorted(p.rglob("*.yaml")) if p.is_dir() else [p]
            if not found:
                raise fail("no-scenarios", "holds no scenario files (*.yaml)", p)
            for f in found:
                read_text(f, "a scenario file (YAML)")
            files.extend(found)
        except MaesterError as e:
            diags.extend(e.diagnostics)
    if diags.errors:
        raise MaesterError(diags)
    return files


def _step_json(step) -> dict:
    if step.event is not None:
        return {"event": step.event}
    return {"decision": step.decision.to_json(), "answer": step.answer, "source": step.source or None}


def scenario_json(result) -> dict:
    """A scenario's whole run: its position, every event and decision of the trace, every check."""
    sc = result.scenario
    return {"path": sc.path, "name": sc.name, "rules": sc.rules, "setup": sc.setup, "seed": sc.seed,
            "ok": result.ok, "error": result.error, "error_expected": result.error_expected,
            "trace": [_step_json(s) for s in result.steps],
            "checks": [{"ok": ok, "text": text} for ok, text in result.checks],
            "final_state": result.game.state.hash()}


@app.command()
@command("explain")
def explain(
    run: Run,
    scenarios: Annotated[list[Path], typer.Argument(help="Scenario files (YAML) or folders of them.")],
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="Print only failures and the tally.")] = False,
    pack: Packs = None,
    variant: VariantOpt = None,
) -> None:
    """Resolve scenarios step by step, citing rule ids; exit 1 if an expectation is not met."""
    from maester.interpreter.frontends.scenario import Scenario, explain_lines, run_scenario

    files = _scenario_files(scenarios)
    loaded, problems = [], Diagnostics()
    for f in files:  # every file parses before the first one runs; all of their problems are listed
        try:
            loaded.append(Scenario.load(f))
        except MaesterError as e:
            problems.extend(e.diagnostics)
        except (ValueError, TypeError, AttributeError) as e:  # a value of the wrong type (seed: many)
            problems.error("bad-scenario", f"not a valid scenario: {e}", Span(str(f), 0, 0),
                           "see docs/scenarios.md for the scenario format")
    if problems.errors:
        raise MaesterError(problems)
    rules = _rules(run, variant, pack)
    failed = 0
    from maester.tools.variant_play import scenario_setup

    results = []
    for sc in loaded:
        sc.setup = scenario_setup(rules.bundle, variant, sc.setup, str(sc.path))  # the variant's setup in its place
        result = run_scenario(rules, sc)
        results.append(scenario_json(result))
        if not result.ok:
            failed += 1
        if not quiet or not result.ok:
            for line in explain_lines(result):
                style = "green" if line.startswith(("PASS", "  ✓")) else "red" if line.startswith(
                    ("FAIL", "  ✗", "error")) else None
                run.say(line, style=style, markup=False)
            run.say()
    run.result = {"passed": len(files) - failed, "failed": failed, "scenarios": results}
    run.say(f"{len(files) - failed} passed, {failed} failed", markup=False)
    run.finish(EXIT_PROBLEM if failed else 0)


def _checkout_folder(name: str) -> Path:
    """A folder of the repository: here when the current folder has it, else the maester checkout's."""
    from maester.dsl.compile import default_content_dir

    here, checkout = Path(name), default_content_dir().parent / name
    return checkout if not here.exists() and checkout.is_dir() else here


@app.command()
@command("conformance")
def conformance(
    run: Run,
    directory: Annotated[Path | None, typer.Argument(help="Where the vectors are (or go); default: conformance/ "
                                                     "here, else the maester checkout's.", show_default=False)] = None,
    write: Annotated[bool, typer.Option("--write", help="Generate the vectors from tests/scenarios.")] = False,
    scenarios: Annotated[Path | None, typer.Option(help="The scenario folder to generate from; default: "
                                                   "tests/scenarios here, else the checkout's.",
                                                   show_default=False)] = None,
) -> None:
    """Generate (--write) or check the conformance vectors: position, decisions, expected events and state."""
    from maester.interpreter.frontends.conformance import check_directory, write_vectors

    directory = directory or _checkout_folder("conformance")  # works from any folder, not only the root
    scenarios = scenarios or _checkout_folder("tests/scenarios")

    if write:
        _scenario_files([scenarios])
        if directory.exists():
            need_path(directory, "the conformance folder", "dir")
            if any(directory.glob("*.json")) and not (directory / "index.json").exists():
                raise fail("not-conformance", "holds JSON files but no index.json: it does not look "
                           "like a conformance folder, and --write replaces every .json in it", directory)
        else:
            need_output(directory, "the conformance folder")
        rules = _rules(run, None, None)
        count, skipped = write_vectors(rules, scenarios, directory)
        run.result = {"directory": str(directory), "written": count, "skipped": [str(p) for p in skipped]}
        note = f"; skipped {len(skipped)} scenarios without a replayable run" if skipped else ""
        run.say(f"wrote {count} vectors to {directory}{note}", markup=False)
        for path in skipped:
            run.note(f"  skipped (fails, or ends in an expected error): {path}")
        run.finish()
        return
    need_path(directory, "a folder of conformance vectors", "dir")
    report = check_directory(directory)  # nothing to check is an error (MaesterError), never a pass
    for name, problems in report.failures.items():
        run.say(f"✗ {name}: {problems[0]}", markup=False)
    run.result = {"directory": str(directory), "conform": report.conforming, "differ": len(report.failures),
                  "vectors": [{"file": n, "ok": n not in report.failures, "problems": report.failures.get(n, [])}
                              for n in report.checked]}
    run.say(f"{report.conforming} conform, {len(report.failures)} differ", markup=False)
    run.finish(EXIT_PROBLEM if not report.ok else 0)


# ---- diff -------------------------------------------------------------------------------------------------

def _load_any(run: Run, path: Path) -> dict:
    """A bundle from a .json file, or compiled from content (a pack is compiled with the bundled content)."""
    from maester.dsl.compile import default_content_dir

    need_path(path, "a bundle (.json), a content folder or a pack")
    if path.is_file() and path.suffix == ".json":
        data = read_json(path, "a bundle (JSON)")
        if not isinstance(data, dict) or data.get("format") != BUNDLE_FORMAT:
            raise fail("not-a-bundle", "not a maester bundle", path, "bundles are written by "
                       "`maester compile`")
        if _major(data.get("format_version")) != _major(BUNDLE_FORMAT_VERSION):
            raise fail("unsupported-version", f"bundle format {data.get('format_version')}; this "
                       f"maester reads {_major(BUNDLE_FORMAT_VERSION)}.x", path)
        from maester.dsl.validate import validate_bundle

        diags = Diagnostics()
        validate_bundle(data, diags, str(path))  # a diff of a broken bundle would mean nothing
        if diags.errors:
            raise MaesterError(diags)
        return data
    content_paths([path])
    run.roots = [*run.roots, path, default_content_dir()]
    try:
        return compile_paths([path])
    except MaesterError:  # not whole content: a pack, which refers to the bundled content
        return compile_paths([default_content_dir(), path])


@app.command()
@command("diff")
def diff(
    run: Run,
    a: Annotated[Path, typer.Argument(help="A bundle (.json), a content folder or a pack.")],
    b: Annotated[Path, typer.Argument(help="The bundle, content folder or pack to compare with.")],
    variant: Annotated[str | None, typer.Option("--variant", help="Apply this variant of B before comparing "
                                                "(what a variant changes: `maester diff PACK PACK --variant X`).")]
    = None,
    exit_code: Annotated[bool, typer.Option("--exit-code", help="Exit 1 when there are differences (like "
                                            "`diff`); default: exit 0 whenever the comparison ran.")] = False,
) -> None:
    """Compare two bundles or packs: every added, removed and changed record and field, card text included."""
    from maester.dsl.diff import count, diff_bundles, diff_lines

    need_path(b, "a bundle (.json), a content folder or a pack")
    from maester.interpreter.core.rules import apply_variant

    left, right = _load_any(run, a), apply_variant(_load_any(run, b), variant)
    sections = diff_bundles(left, right)
    total = count(sections)
    run.result = {"a": str(a), "b": str(b), "differences": total, "sections": sections}
    for line in diff_lines(sections):
        run.say(line, markup=False)
    run.say(plural(total, "difference") if total else "no differences", markup=False)
    run.finish(EXIT_PROBLEM if exit_code and total else 0)


# ---- new --------------------------------------------------------------------------------------------------

NEW_KINDS = ("variant",)
KEBAB = re.compile(r"[a-z][a-z0-9]*(-[a-z0-9]+)*")


def play_command(target: Path, name: str, game: str) -> str:
    """The command that plays a new variant pack (the base game needs --base)."""
    return f"maester play{' --base' if game == 'base' else ''} --pack {target.as_posix()} --variant {name}"


@app.command()
@command("new")
def new(
    run: Run,
    kind: Annotated[str, typer.Argument(help="What to create: 'variant' (a pack with a house card set).")],
    name: Annotated[str, typer.Argument(help="The new pack's id (kebab-case), e.g. my-variant.")],
    directory: Annotated[Path, typer.Option("--dir", help="Where to create the pack.")] = Path("packs"),
    game: Annotated[str, typer.Option(help="The rules set the variant is for (base or mother-of-dragons).")]
    = "base",
    from_: Annotated[str | None, typer.Option("--from", help="Patch one declaration instead: card:ID, setup:ID "
                                              "or rule:GAME-ID.")] = None,
) -> None:
    """Scaffold a content pack: a card set with seven cards per house and the variant that selects it."""
    problems = Diagnostics()
    if kind not in NEW_KINDS:
        problems.error("unknown-kind", f"cannot create '{kind}'", None, "maester new variant NAME")
    if not KEBAB.fullmatch(name):
        problems.error("bad-name", f"'{name}' is not a kebab-case id", None, "for example: my-variant")
    target = directory / name
    if target.exists():
        problems.error("exists", f"{target} already exists", None, "choose another name or remove it")
    elif directory.exists() and not directory.is_dir():
        problems.error("not-a-folder", f"--dir {directory} is a file, expected a folder", None)
    else:
        existing = next((p for p in [directory, *directory.parents] if p.exists()), Path("."))
        import os

        if not os.access(existing, os.W_OK | os.X_OK):
            problems.error("unwritable", f"cannot create {target}: {existing} is not writable", None)
    if problems.errors:
        raise MaesterError(problems)
    bundle = compile_paths(None)
    if from_:  # a patch of one card, setup or rule (tools/new_patch.py)
        from maester.tools.new_patch import scaffold_patch

        _, play_cmd = scaffold_patch(bundle, name, from_, target, [])
        run.result = {"created": str(target), "files": ["variant.mst"], "play": play_cmd}
        run.say(f"created {target}: variant.mst", markup=False)
        run.say(f"next: {play_cmd}", markup=False)
        run.finish()
        return
    if game not in bundle["games"]:
        raise fail("unknown-game", f"--game: unknown rules set '{game}'", None,
                   hint_for(game, bundle["games"], "rules sets"))
    files = _scaffold(bundle, target, name, game)
    play_cmd = play_command(target, name, game)
    run.result = {"created": str(target), "files": files, "check": f"maester check --pack {target.as_posix()}",
                  "play": play_cmd}
    houses = len(files) - 2
    run.say(f"created {target}: sets.mst, variant.mst and {plural(houses, 'house file')}", markup=False)
    run.say(f"next: maester check --pack {target.as_posix()}", markup=False)
    run.say(f"then: {play_cmd}", markup=False)
    run.finish()


def _scaffold(bundle: dict, target: Path, name: str, game: str) -> list[str]:
    sets = bundle["games"][game]["house_card_sets"]
    files = {"sets.mst": f'# The card set of the {name} pack.\ncard-set {name} "{name.replace("-", " ").title()}" '
             f'{{\n  description "A new house card set: replace this description."\n}}\n'}
    houses = sorted({c["house"] for c in bundle["house_cards"].values() if c["set"] in sets and c["house"]})
    for house in houses:
        model = sorted((c for c in bundle["house_cards"].values() if c["house"] == house and c["set"] in sets),
                       key=lambda c: -c["strength"])
        lines = [f"# {bundle['houses'][house]['name']}: seven cards, copied from the current deck's numbers.",
                 "# Rename them, change the numbers, give them abilities (see docs/dsl.md).", ""]
        for i, c in enumerate(model, 1):
            icons = (f"  swords {c['swords']}" if c["swords"] else "") + (
                f"  fortifications {c['fortifications']}" if c["fortifications"] else "")
            lines += [f'house-card {name}-{house}-{i} "{house.title()} {i}" {{',
                      f"  set {name}  house {house}  strength {c['strength']}{icons}", "}", ""]
        files[f"{house}.mst"] = "\n".join(lines)
    cards = bundle["house_cards"].values()
    others = [s for s in sets if not any(c["set"] == s and c["house"] in houses for c in cards)]
    files["variant.mst"] = (f"# Play with this pack: {play_command(target, name, game)}\n"
                            f'variant {name} "{name.replace("-", " ").title()}" {{\n  game {game}\n'
                            f"  house-card-sets [{', '.join([name, *others])}]\n}}\n")
    write_folder(target, files)  # the new pack whole or not at all
    return sorted(files)


# ---- card -------------------------------------------------------------------------------------------------

CARD_SECTIONS = ("house_cards", "westeros_cards", "wildling_cards", "loans", "game_abilities", "objectives")


def _card_hint(key: str, bundle: dict) -> str | None:
    """Did-you-mean for a card, by id and by name: ids and names that contain the words (`tywin`), then ids,
    names and words of names spelt closely (`ned` finds the cards with 'Red' in their name)."""
    import difflib

    names = {cid: (rec.get("name") or "") for sec in CARD_SECTIONS for cid, rec in bundle[sec].items()}
    words = key.replace("-", " ").split()
    found = sorted(cid for cid, nm in names.items()
                   if words and all(w in cid.replace("-", " ") or w in nm.lower() for w in words))
    if not found:
        by_word: dict[str, list[str]] = {}
        for cid, nm in names.items():
            for w in {nm.lower(), *nm.lower().replace(",", " ").split()}:
                by_word.setdefault(w, []).append(cid)
        for w in difflib.get_close_matches(key, [*names, *by_word], n=8, cutoff=0.6):
            found += [c for c in ([w] if w in names else sorted(by_word[w])) if c not in found]
    if not found:
        return None
    shown_ = [f"'{names[c]}' ({c})" if names[c] else f"'{c}'" for c in found[:5]]
    return "did you mean " + " or ".join(shown_) + "?"


@app.command()
@command("card")
def card(
    run: Run,
    name: Annotated[str, typer.Argument(help="A card id or name (house, vassal, Westeros, wildling card or loan).")],
    compiled: Annotated[bool, typer.Option("--compiled/--no-compiled", help="Also print the compiled form.")]
    = True,
    pack: Packs = None,
    variant: Annotated[str | None, typer.Option("--variant", help="The card as this variant plays it.")] = None,
) -> None:
    """Show a card: its English text generated from its effect, its DSL source and its compiled form."""
    from maester.dsl.english import English
    from maester.interpreter.core.rules import apply_variant

    bundle = apply_variant(compile_paths(_content(run, None, pack)), variant)
    key = name.lower().strip()
    found = [(sec, cid) for sec in CARD_SECTIONS for cid, rec in bundle[sec].items()
             if key in (cid, (rec.get("name") or "").lower())]
    if not found:
        raise fail("unknown-card", f"no card '{name}'", None, _card_hint(key, bundle))
    english = English(bundle)
    cards = []
    for section, cid in found:
        rec = bundle[section][cid]
        path, source = _source_text(rec["source"], pack or [])
        entry = {"section": section, "id": cid, "name": rec["name"], "text": english.card(section, rec),
                 "source": f"{path}:{rec['source'].rsplit(':', 2)[1]}" if path else rec["source"],
                 "source_text": source, "compiled": {k: v for k, v in rec.items() if k != "source"}}
        cards.append(entry)
        run.say(f"[bold]── {escape(rec['name'])} ({escape(cid)}) ──[/bold]")
        run.say(entry["text"], markup=False)
        run.say()
        run.say(f"[dim]source: {escape(entry['source'])}[/dim]")
        run.say(source or "(source file not available)", markup=False)
        if compiled and not run.json:
            out.print_json(json.dumps(entry["compiled"]))
    run.result = {"query": name, "cards": cards}
    run.finish()


def _source_text(where: str, packs: list[Path] | tuple = ()) -> tuple[str | None, str | None]:
    """The declaration's file (as the user can open it) and text (from `file:line:col` to its closing brace)."""
    from maester.dsl.compile import default_content_dir

    file, line, _ = where.rsplit(":", 2)
    candidates = [Path.cwd() / file] + [Path(p).parent / file for p in packs] + [default_content_dir().parent / file]
    path = next((c for c in candidates if c.is_file()), None)
    if path is None:
        return None, None
    lines = path.read_text(encoding="utf-8").splitlines()
    start = int(line) - 1
    depth, out_lines = 0, []
    for text in lines[start:]:
        out_lines.append(text)
        depth += text.count("{") - text.count("}")
        if depth <= 0 and "{" in "".join(out_lines):
            break
    return shown(path), "\n".join(out_lines)


# ---- schema / docs / version / lsp ---------------------------------------------------------------------

def _repo_file(path: Path, what: str, must_exist: bool) -> Path:
    """A file of the repository that --write rewrites: outside the repository, a clear error."""
    if str(path) == STDOUT:
        raise fail("bad-option", f"--write rewrites a file; to print {what.split()[-1]}, leave out --write", None)
    if (must_exist and not path.is_file()) or not path.parent.is_dir():
        raise fail("not-in-repository", f"not found: {what} --write rewrites a file of the maester "
                   "repository", path, "run it from the repository's root folder, or give --path")
    need_output(path, what)
    return path


@app.command()
@command("schema")
def schema(run: Run, write: Annotated[bool, typer.Option("--write", help="Rewrite the effect schema file "
                                                         "from the primitive registry, and the event, decision "
                                                         "and vector schemas beside it from their catalogues.")]
           = False,
           path: Annotated[Path, typer.Option(help="The effect schema file --write rewrites (run from the "
                                                   "repository).")]
           = Path("schemas/effect.schema.json")) -> None:
    """Print (or rewrite) the effect schema generated from the primitive registry."""
    from maester.dsl.effect_schema import effect_schema_text

    if write:
        _repo_file(path, "maester schema", must_exist=False)
    text = effect_schema_text()
    if write:
        from maester.interpreter.core.decision_kinds import decision_schema_text
        from maester.interpreter.core.events import event_schema_text
        from maester.interpreter.core.vector_format import vector_schema_text

        generated = [path]
        from maester.interpreter.frontends.state_schema import state_schema_text

        texts = {path: text}
        for name, made in (("event", event_schema_text), ("decision", decision_schema_text),
                           ("vector", vector_schema_text), ("state", state_schema_text)):
            # the other generated schemas (the state schema's frames), in the same folder
            generated.append(path.parent / f"{name}.schema.json")
            texts[generated[-1]] = made()
        write_files(texts)  # all of them or none
        run.result = {"written": str(path), "generated": [str(p) for p in generated]}
        run.note("wrote " + ", ".join(str(p) for p in generated))
    elif run.json:
        run.result = {"schema": json.loads(text)}
    else:
        sys.stdout.write(text)
    run.finish()


@app.command()
@command("docs")
def docs(run: Run, write: Annotated[bool, typer.Option("--write", help="Refresh the generated reference in "
                                                       "the language guide.")] = False,
         path: Annotated[Path, typer.Option(help="The guide --write refreshes (run from the repository).")]
         = Path("docs/dsl.md")) -> None:
    """Print (or refresh in docs/dsl.md) the language reference generated from the registry."""
    from maester.dsl.docgen import reference_markdown, refresh

    if not write:
        if run.json:
            run.result = {"markdown": reference_markdown()}
        else:
            sys.stdout.write(reference_markdown())
        run.finish()
        return
    from maester.dsl.docgen import refresh_bundle_doc

    _repo_file(path, "maester docs", must_exist=True)
    updated = {str(path): refresh(path)}
    run.note(f"{'updated' if updated[str(path)] else 'unchanged'}: {path}")
    bundle_doc = path.parent / "bundle.md"
    schema_file = path.parent.parent / "schemas" / "bundle.schema.json"
    if bundle_doc.exists() and schema_file.exists():
        updated[str(bundle_doc)] = refresh_bundle_doc(bundle_doc, read_json(schema_file, "the bundle schema"))
        run.note(f"{'updated' if updated[str(bundle_doc)] else 'unchanged'}: {bundle_doc}")
    from maester.dsl.effect_docs import refresh_effects_doc  # the effect specification (docs/effects.md)

    effects_doc = path.parent / "effects.md"
    if effects_doc.exists():
        updated[str(effects_doc)] = refresh_effects_doc(effects_doc)
        run.note(f"{'updated' if updated[str(effects_doc)] else 'unchanged'}: {effects_doc}")
    import maester.interpreter.mod  # noqa: F401  (every procedure module: every step is declared)
    from maester.interpreter.core.steps import refresh_procedures_doc  # the game's procedure (docs/procedures.md)

    procedures_doc = path.parent / "procedures.md"
    if procedures_doc.exists():  # as the pages above: only a guide folder's own page, none made beside --path
        updated[str(procedures_doc)] = refresh_procedures_doc(procedures_doc)
        run.note(f"{'updated' if updated[str(procedures_doc)] else 'unchanged'}: {procedures_doc}")
    help_file = path.parent.parent / "tools" / "help_pages.json"  # the help pages the front prints (tools/front.py)
    if help_file.exists():
        from maester.tools.help_pages import refresh as refresh_help

        updated[str(help_file)] = refresh_help(help_file)
        run.note(f"{'updated' if updated[str(help_file)] else 'unchanged'}: {help_file}")
    run.result = {"updated": [p for p, changed in updated.items() if changed],
                  "unchanged": [p for p, changed in updated.items() if not changed]}
    run.finish()


@app.command()
@command("version")
def version(run: Run) -> None:
    """Print the versions of maester, its content language and its bundle format."""
    run.result = {"maester": __version__, "content_language": DSL_VERSION, "bundle_format": BUNDLE_FORMAT_VERSION}
    run.say(f"maester {__version__} (content language {DSL_VERSION}, bundle format {BUNDLE_FORMAT_VERSION})")
    if os.environ.get("MAESTER_COMPILED") == "1":  # the opt-in compiled engine: say what would run compiled
        from maester.interpreter.core.compiled_modules import MODULES, stale_modules
        stale = stale_modules()
        run.result["compiled_engine"] = {"modules": len(MODULES), "stale": stale}
        names = [m.removeprefix("maester.interpreter.") for m in stale]
        short = "all" if len(stale) == len(MODULES) else ", ".join(names)
        run.say(f"engine: compiled, {len(MODULES) - len(stale)} of {len(MODULES)} modules built from their current "
                "source" + (f"; run as Python: {short} (python tools/build_compiled.py builds them)" if stale else ""))
    run.finish()


@app.command()
@command("lsp")
def lsp(run: Run) -> None:
    """Run the language server on stdin/stdout: live diagnostics, hover and completion for .mst files.

    Once it runs, stdin and stdout carry the Language Server Protocol (JSON-RPC).
    With --json, a problem found before that is one JSON document ("ok": false); nothing else changes."""
    try:
        from maester.tools.lsp import start
    except ImportError as e:  # a broken install: pygls and lsprotocol are dependencies of maester
        raise fail("missing-dependency", f"the language server needs the Python package '{e.name}', which cannot "
                   "be imported", None, "reinstall maester: pip install maester") from None
    try:
        start()
    except Exception as e:  # the protocol owns stdout now: one line on stderr, never a JSON document on stdout
        if os.environ.get("MAESTER_DEBUG"):
            raise
        err.print(f"maester lsp: internal error: {type(e).__name__}: {e}", markup=False, soft_wrap=True)
        raise typer.Exit(EXIT_INTERNAL) from None


# ---- commands of their own modules: one line each, `from maester.tools import x_cmd; x_cmd.register(app)`.
# A module's commands get --json, the JSON envelope and the exit codes from `cli_support.command` (docs/cli.md).
from maester.tools import (  # noqa: E402  (commands in their own modules register themselves)
    fmt_cmd,
    render_cmd,
    serve_cmd,
    simulate_cmd,
    tournament_cmd,
    view_cmd,
)

fmt_cmd.register(app)
render_cmd.register(app)
view_cmd.register(app)
simulate_cmd.register(app)
tournament_cmd.register(app)
serve_cmd.register(app)


def main() -> None:
    _app_for(sys.argv[1:])()


def _app_for(argv: list[str]) -> typer.Typer:
    """The app with only the command this command line names: typer then builds that command alone (reading one
    signature, not every command's). Help, and a name that is no command, get the whole app (its command list,
    its did-you-mean)."""
    import copy

    name = next((a for a in argv if not a.startswith("-")), None)
    if name is None or "--help" in argv:
        return app
    chosen = [info for info in app.registered_commands if command_name(info) == name]
    if len(chosen) != 1:
        return app
    one = copy.copy(app)
    one.registered_commands = chosen
    return one


def command_name(info) -> str:
    """A registered command's name on the command line (typer's rule: the function's, with dashes)."""
    return info.name or info.callback.__name__.replace("_", "-")


if __name__ == "__main__":
    main()
