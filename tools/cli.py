"""The `maester` command line: compile, check, validate, map, schema.

Every command reports problems as located diagnostics on stderr and exits non-zero; no traceback
reaches the user for a content or input error.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from enum import StrEnum
from functools import wraps
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.table import Table

from maester.dsl import MaesterError, compile_paths
from maester.dsl.diagnostics import Diagnostics, Span
from maester.dsl.version import BUNDLE_FORMAT_VERSION, DSL_VERSION, __version__

app = typer.Typer(
    name="maester",
    help="A rules interpreter and content toolkit for A Game of Thrones: The Board Game (2nd ed.) "
    "with Mother of Dragons.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)
out = Console()
err = Console(stderr=True, highlight=False)

Packs = Annotated[
    list[Path] | None,
    typer.Option("--pack", help="A content pack (folder of .mst files) added to the bundled content; repeatable.",
                 show_default=False),
]


def _content(paths: list[Path] | None, packs: list[Path] | None) -> list[Path] | None:
    """What to compile: the given paths, or the bundled content plus any packs."""
    from maester.dsl.compile import default_content_dir

    if paths:
        return list(paths) + list(packs or [])
    return [default_content_dir(), *packs] if packs else None


Paths = Annotated[
    list[Path] | None,
    typer.Argument(help="Content files or folders (default: the bundled content).", show_default=False),
]


def _report(diags: Diagnostics) -> None:
    for d in diags:
        style = "bold red" if d.severity == "error" else "yellow"
        lines = d.format().splitlines()
        err.print(lines[0], style=style, markup=False, soft_wrap=True)
        for line in lines[1:]:
            err.print(line, markup=False, soft_wrap=True)


def friendly(fn: Callable) -> Callable:
    """Turn maester errors into diagnostics and exit code 1 (2 for usage errors, typer's own)."""

    @wraps(fn)
    def wrapper(*args, **kwargs):
        try:
            return fn(*args, **kwargs)
        except MaesterError as e:
            _report(e.diagnostics)
            n = len(e.diagnostics.errors)
            err.print(f"{n} error{'s' if n != 1 else ''}; nothing was written.", style="bold red")
            raise typer.Exit(1) from None

    return wrapper


def _count(bundle: dict, section: str) -> int:
    return len(bundle.get(section, {}))


def summary_table(bundle: dict) -> Table:
    table = Table(title=f"maester bundle {bundle['format_version']} — {len(bundle['sources'])} source files")
    table.add_column("Content", style="bold")
    table.add_column("Count", justify="right")
    table.add_column("Details")
    for bid, board in bundle["boards"].items():
        kinds: dict[str, int] = {}
        for a in board["areas"].values():
            kinds[a["kind"]] = kinds.get(a["kind"], 0) + 1
        castles = sum(1 for a in board["areas"].values() if a["castle"] != "none")
        table.add_row(f"board {bid}", str(len(board["areas"])),
                      f"{kinds.get('land', 0)} land, {kinds.get('sea', 0)} sea, {kinds.get('port', 0)} ports, "
                      f"{len(board['borders'])} borders, {castles} castles/strongholds")
    rows = [
        ("overlays", "overlays", lambda v: ", ".join(v)),
        ("houses", "houses", lambda v: ", ".join(v)),
        ("unit kinds", "unit_kinds", lambda v: ", ".join(v)),
        ("influence tracks", "tracks", lambda v: ", ".join(v)),
        ("tables", "tables", lambda v: ", ".join(v)),
        ("order tokens", "orders", lambda v: f"{sum(o['copies'] for o in v.values())} tokens in "
                                             f"{len({o['set'] for o in v.values()})} sets"),
        ("rules sets", "games", lambda v: ", ".join(v)),
        ("setups", "setups", lambda v: ", ".join(v)),
        ("card sets", "card_sets", lambda v: ", ".join(v)),
        ("house cards", "house_cards",
         lambda v: f"{sum(1 for c in v.values() if c['abilities'])} with abilities"),
        ("Westeros cards", "westeros_cards",
         lambda v: ", ".join(f"deck {d.upper()}: {sum(c['copies'] for c in v.values() if c['deck'] == d)}"
                             for d in ("i", "ii", "iii", "iv") if any(c["deck"] == d for c in v.values()))),
        ("wildling cards", "wildling_cards", lambda v: ""),
        ("loans", "loans", lambda v: ""),
    ]
    for label, section, detail in rows:
        values = bundle.get(section, {})
        table.add_row(label, str(len(values)), detail(values) if values else "")
    return table


@app.command()
@friendly
def check(paths: Paths = None, pack: Packs = None,
          quiet: Annotated[bool, typer.Option("--quiet", "-q", help="Print only problems.")] = False,
          variant: Annotated[str | None, typer.Option("--variant", help="Show the content as this variant "
                                                      "plays it.")] = None) -> None:
    """Compile and validate content without writing a bundle; print what it holds."""
    from maester.interpreter.rules import apply_variant

    diags = Diagnostics()
    bundle = apply_variant(compile_paths(_content(paths, pack), diags), variant)
    from maester.dsl.lint import lint

    lint(bundle, diags)
    _report(diags)
    if not quiet:
        out.print(summary_table(bundle))
        out.print("[green]OK[/green]: the content compiles and the bundle matches the schemas.")


@app.command("compile")
@friendly
def compile_cmd(
    paths: Paths = None,
    output: Annotated[Path, typer.Option("--output", "-o", help="Where to write the bundle ('-' for stdout).")]
    = Path("bundle.json"),
    variant: Annotated[str | None, typer.Option("--variant", help="Build the bundle with this variant applied.")]
    = None,
    pack: Packs = None,
) -> None:
    """Compile content to a validated JSON bundle."""
    from maester.interpreter.rules import apply_variant

    bundle = apply_variant(compile_paths(_content(paths, pack)), variant)
    text = json.dumps(bundle, indent=1, ensure_ascii=False) + "\n"
    if str(output) == "-":
        sys.stdout.write(text)
        return
    output.write_text(text, encoding="utf-8")
    err.print(f"wrote {output} ({len(text):,} bytes, format {bundle['format_version']})")


@app.command()
@friendly
def validate(bundle: Annotated[Path, typer.Argument(help="A compiled bundle (JSON).")]) -> None:
    """Check a compiled bundle against the JSON Schemas."""
    from maester.dsl.validate import validate_bundle

    diags = Diagnostics()
    label = str(bundle)
    try:
        data = json.loads(bundle.read_text(encoding="utf-8"))
    except FileNotFoundError:
        diags.error("no-such-file", f"{label}: no such file", Span(label, 0, 0))
        raise MaesterError(diags) from None
    except json.JSONDecodeError as e:
        diags.error("not-json", f"{label} is not JSON: {e.msg}", Span(label, e.lineno, e.colno))
        raise MaesterError(diags) from None
    validate_bundle(data, diags, label)
    if diags.errors:
        raise MaesterError(diags)
    out.print(f"[green]OK[/green]: {label} matches the bundle schema {BUNDLE_FORMAT_VERSION}.")


class MapFormat(StrEnum):
    json = "json"
    dot = "dot"
    png = "png"


@app.command("map")
@friendly
def map_cmd(
    board: Annotated[str, typer.Option("--board", "-b", help="base, mod or mod-essos (or any board id).")]
    = "base",
    fmt: Annotated[MapFormat, typer.Option("--format", "-f", help="Output format.")] = MapFormat.json,
    output: Annotated[Path | None, typer.Option("--output", "-o", help="Output file (png needs one; "
                                                 "default: <board>.png).")] = None,
    paths: Annotated[list[Path] | None, typer.Option("--content", help="Content to compile.")] = None,
) -> None:
    """Export a board's graph (areas and borders) as JSON, Graphviz DOT or a PNG picture."""
    from maester.interpreter.board import BOARD_ALIASES, Board

    bundle = compile_paths(paths or None)
    board_id = BOARD_ALIASES.get(board, board)
    graph = Board.from_bundle(bundle, board_id)
    if fmt is MapFormat.png:
        from maester.tools.draw import draw_board

        target = output or Path(f"{board_id}.png")
        draw_board(graph, target)
        err.print(f"wrote {target}")
        return
    text = graph.to_json_text() if fmt is MapFormat.json else graph.to_dot()
    if output:
        output.write_text(text, encoding="utf-8")
        err.print(f"wrote {output}")
    else:
        sys.stdout.write(text)


AgentsOpt = Annotated[str, typer.Option("--agents", "-a", help="random, heuristic, human, or per house: "
                                        "'stark=human,lannister=random' (others random).")]


def _agents(spec: str, houses, seed: int, seat=None) -> dict:
    """Agents by house; `human` houses share one terminal seat (`seat`)."""
    from maester.interpreter.agents import HeuristicAgent, RandomAgent

    kinds = {"random": RandomAgent, "heuristic": HeuristicAgent, "human": lambda _seed: seat}
    default = "random"
    per: dict[str, str] = {}
    for part in filter(None, (p.strip() for p in spec.split(","))):
        if "=" in part:
            house, kind = part.split("=", 1)
            per[house.strip()] = kind.strip()
        else:
            default = part
    diags = Diagnostics()
    for name in [default, *per.values()]:
        if name not in kinds:
            diags.error("unknown-agent", f"unknown agent kind '{name}'", None, "use random, heuristic or human")
    for house in per:
        if house not in houses:
            diags.error("unknown-house", f"'{house}' is not in this game", None, "houses: " + ", ".join(houses))
    if diags.errors:
        raise MaesterError(diags)
    return {h: kinds[per.get(h, default)](seed * 1009 + i) for i, h in enumerate(sorted(houses))}


def _setup_id(players: int, setup: str | None, base: bool, targaryen: bool) -> str:
    """The setup for a player count: Mother of Dragons unless --base (R31.1: Targaryen only with 4+)."""
    if setup:
        return setup
    if base:
        return f"base-{players}p"
    if players == 8:
        return "mod-8p"
    if players == 3:
        return "mod-3p"
    return f"mod-{players}p-{'with' if targaryen else 'without'}-targaryen"


@app.command()
@friendly
def play(
    players: Annotated[int | None, typer.Option("--players", "-p", min=3, max=8, help="Number of players "
                                                "(default 8; with --variant: the most it plays).")] = None,
    base: Annotated[bool, typer.Option("--base", help="The base game (3-6 players) instead of Mother of "
                                       "Dragons.")] = False,
    targaryen: Annotated[bool, typer.Option("--targaryen/--no-targaryen", help="Mother of Dragons with 4-7 "
                                            "players: is House Targaryen played?")] = True,
    houses: Annotated[str | None, typer.Option("--houses", help="Mother of Dragons: the player houses, "
                                               "comma-separated (default: drawn by the seed).")] = None,
    variant: Annotated[str | None, typer.Option("--variant", help="A content variant, e.g. targaryen-b.")] = None,
    pack: Packs = None,
    setup: Annotated[str | None, typer.Option("--setup", help="A setup id (overrides --players).")] = None,
    seed: Annotated[int, typer.Option("--seed", "-s", help="Random seed of the game.")] = 1,
    agents: AgentsOpt = "heuristic",
    log: Annotated[Path | None, typer.Option("--log", help="Write the full game log (JSON) here.")] = None,
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
    from maester.interpreter.game import Game
    from maester.interpreter.log import game_log, write_log
    from maester.interpreter.mod import ModOptions, new_game
    from maester.interpreter.rules import Rules
    from maester.tools.human import HumanSeat, drive

    if resume:
        doc = _read_position(resume)
        variant = doc.get("variant") if variant is None else variant
    rules = Rules.default(variant, _content(None, pack))
    chosen = [h.strip() for h in houses.split(",") if h.strip()] if houses else None
    if resume:
        setup_id = doc.get("setup") if isinstance(doc.get("setup"), str) else ""
    elif variant:  # the variant's rules set and setups decide (tools/variant_play.py)
        from maester.tools.variant_play import variant_setup

        setup_id = variant_setup(rules.bundle, variant, players, base, targaryen, setup, pack or [])
    else:
        setup_id = _setup_id(players or 8, setup, base, targaryen)
    if resume:
        game = Game.from_state(rules, doc)
        seed = game.state.seed
    else:
        game = new_game(rules, setup_id, seed=seed, options=ModOptions(tides_of_battle=tides, player_houses=chosen))
    seat = HumanSeat(write=lambda line: out.print(line, markup=False, highlight=False, soft_wrap=True), save_to=save)
    crew = _agents(agents, list(game.state.houses), seed, seat)
    shown = len(game.events)

    def step(g) -> None:
        nonlocal shown
        if not quiet:
            shown = _progress(g, shown)
        if stop_at is not None and len(g.answers) >= stop_at:
            raise _Stop

    try:
        finished = drive(game, crew, on_answer=step)
    except _Stop:
        finished = False
    if not quiet:
        _progress(game, shown)
    if save:
        seat.save(game, save)
    if not finished:
        err.print(f"stopped at decision {len(game.answers)} (round {game.state.round}, {game.state.phase} phase)")
        return
    out.print(summary_view(game))
    if log:
        write_log(log, game_log(game, agents))
        err.print(f"wrote {log} ({len(game.events)} events, {len(game.answers)} decisions)")


class _Stop(Exception):  # noqa: N818 - --stop-at reached
    pass


def _read_position(path: Path) -> dict:
    diags = Diagnostics()
    try:
        doc = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        diags.error("no-such-file", f"{path}: no such file", Span(str(path), 0, 0))
    except (OSError, UnicodeDecodeError) as e:
        diags.error("unreadable", f"{path}: cannot be read ({e})", Span(str(path), 0, 0))
    except json.JSONDecodeError as e:
        diags.error("not-json", f"{path} is not JSON: {e.msg}", Span(str(path), e.lineno, e.colno),
                    "saved positions are written by `maester play --save FILE`")
    if diags.errors:
        raise MaesterError(diags)
    if not isinstance(doc, dict):
        doc = {}
    return doc


def _progress(game, shown: int) -> int:
    """Print the round headlines and notable events as they happen."""
    notable = {"round", "combat-result", "victory", "wildlings-win", "wildlings-lose", "garrison", "neutral-force"}
    for e in game.events[shown:]:
        if e["type"] in notable:
            style = "bold" if e["type"] in ("round", "victory") else ""
            out.print(f"[dim]{e['rule']:>8}[/dim]  {e['text']}", style=style, highlight=False)
    return len(game.events)


def summary_view(game) -> Table:
    s = game.summary()
    table = Table(title=f"{s['winner']} wins — {s['reason']} (round {s['rounds']}, seed {game.state.seed})")
    table.add_column("House", style="bold")
    table.add_column("Victory points", justify="right")
    table.add_column("Land areas", justify="right")
    table.add_column("Supply", justify="right")
    table.add_column("Power", justify="right")
    table.add_column("Iron Throne", justify="right")
    from maester.interpreter import control

    for h in game.turn_order:
        name = f"{h} (vassal)" if game.is_vassal(h) else h
        table.add_row(name, str(s["castles"][h]), str(len(control.controlled_areas(game.state, game.board, h))),
                      str(game.state.houses[h].supply), str(game.state.houses[h].power),
                      str(game.state.position(h, game.turn_track)))
    counts: dict[str, int] = {}
    for e in game.events:
        counts[e["type"]] = counts.get(e["type"], 0) + 1
    table.caption = (f"{s['decisions']} decisions, {s['events']} events: {counts.get('combat', 0)} combats, "
                     f"{counts.get('wildling-attack', 0)} wildling attacks, {counts.get('garrison', 0)} garrisons "
                     f"fallen; final state {s['state_hash']}")
    return table


@app.command()
@friendly
def replay(log: Annotated[Path, typer.Argument(help="A game log written by `maester play --log`.")]) -> None:
    """Replay a logged game from its seed and decisions; check every event and the final state."""
    from maester.interpreter.log import read_log, replay_log
    from maester.interpreter.rules import Rules

    data = read_log(log)
    game, problem = replay_log(Rules.default(data.get("variant")), data)
    if problem:
        raise MaesterError(problem)
    out.print(f"[green]replay matches[/green]: {len(game.answers)} decisions, {len(game.events)} events, "
              f"final state {game.state.hash()}")
    out.print(summary_view(game))


@app.command()
@friendly
def explain(
    scenarios: Annotated[list[Path], typer.Argument(help="Scenario files (YAML) or folders of them.")],
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="Print only failures and the tally.")] = False,
    pack: Packs = None,
    variant: Annotated[str | None, typer.Option("--variant", help="A content variant to apply.")] = None,
) -> None:
    """Resolve scenarios step by step, citing rule ids; exit 1 if an expectation is not met."""
    from maester.interpreter.rules import Rules
    from maester.interpreter.scenario import Scenario, explain_lines, run_scenario

    files: list[Path] = []
    for p in scenarios:
        files.extend(sorted(p.rglob("*.yaml")) if p.is_dir() else [p])
    rules = Rules.default(variant, _content(None, pack))
    failed = 0
    from maester.tools.variant_play import scenario_setup

    for f in files:
        sc = Scenario.load(f)
        sc.setup = scenario_setup(rules.bundle, variant, sc.setup, str(f))  # the variant's setup in its place
        result = run_scenario(rules, sc)
        if not result.ok:
            failed += 1
        if not quiet or not result.ok:
            for line in explain_lines(result):
                style = "green" if line.startswith(("PASS", "  ✓")) else "red" if line.startswith(
                    ("FAIL", "  ✗", "error")) else None
                out.print(line, style=style, markup=False, highlight=False, soft_wrap=True)
            out.print()
    out.print(f"{len(files) - failed} passed, {failed} failed", markup=False)
    if failed:
        raise typer.Exit(1)


@app.command()
@friendly
def conformance(
    directory: Annotated[Path, typer.Argument(help="Where the vectors are (or go).")] = Path("conformance"),
    write: Annotated[bool, typer.Option("--write", help="Generate the vectors from tests/scenarios.")] = False,
    scenarios: Annotated[Path, typer.Option(help="The scenario folder to generate from.")] = Path("tests/scenarios"),
) -> None:
    """Generate (--write) or check the conformance vectors: position, decisions, expected events and state."""
    from maester.interpreter.conformance import replay_vector, write_vectors
    from maester.interpreter.rules import Rules

    rules = Rules.default()
    if write:
        count, skipped = write_vectors(rules, scenarios, directory)
        note = f"; skipped {len(skipped)} scenarios without a replayable run" if skipped else ""
        out.print(f"wrote {count} vectors to {directory}{note}")
        for path in skipped:
            err.print(f"  skipped (fails, or ends in an expected error): {path}", markup=False)
        return
    failed = 0
    files = sorted(p for p in directory.glob("*.json") if p.name not in ("index.json", "bundle.json"))
    for path in files:
        problems = replay_vector(rules, json.loads(path.read_text(encoding="utf-8")))
        if problems:
            failed += 1
            out.print(f"✗ {path.name}: {problems[0]}", markup=False)
    out.print(f"{len(files) - failed} conform, {failed} differ", markup=False)
    if failed:
        raise typer.Exit(1)


def _load_any(path: Path) -> dict:
    """A bundle from a .json file, or compiled from a folder (a pack is compiled with the bundled content)."""
    from maester.dsl.compile import default_content_dir

    if path.suffix == ".json":
        return json.loads(path.read_text(encoding="utf-8"))
    try:
        return compile_paths([path])
    except MaesterError:
        return compile_paths([default_content_dir(), path])


@app.command()
@friendly
def diff(
    a: Annotated[Path, typer.Argument(help="A bundle (.json), a content folder or a pack.")],
    b: Annotated[Path, typer.Argument(help="The bundle, content folder or pack to compare with.")],
    variant: Annotated[str | None, typer.Option("--variant", help="Apply this variant of B before comparing "
                                                "(what a variant changes: `maester diff PACK PACK --variant X`).")]
    = None,
) -> None:
    """Compare two bundles or packs field by field (every section: cards, setups, games, houses, decks...)."""
    from maester.dsl.diff import diff_bundles, format_diff
    from maester.interpreter.rules import apply_variant

    for line in format_diff(diff_bundles(_load_any(a), apply_variant(_load_any(b), variant))):
        out.print(line, markup=False, highlight=False, soft_wrap=True)


@app.command()
@friendly
def new(
    kind: Annotated[str, typer.Argument(help="What to create: 'variant' (a pack with a house card set).")],
    name: Annotated[str, typer.Argument(help="The new pack's id (kebab-case), e.g. my-variant.")],
    directory: Annotated[Path, typer.Option("--dir", help="Where to create the pack.")] = Path("packs"),
    game: Annotated[str, typer.Option(help="The rules set the variant is for (base or mother-of-dragons).")]
    = "base",
    from_: Annotated[str | None, typer.Option("--from", help="Patch one declaration instead: card:ID, setup:ID "
                                              "or rule:GAME-ID.")] = None,
) -> None:
    """Scaffold a content pack: a card set with seven cards per house and the variant that selects it."""
    import re

    from maester.dsl.diagnostics import Diagnostics as _D

    problems = _D()
    if kind != "variant":
        problems.error("unknown-kind", f"cannot create '{kind}'", None, "maester new variant NAME")
    if not re.fullmatch(r"[a-z][a-z0-9]*(-[a-z0-9]+)*", name):
        problems.error("bad-name", f"'{name}' is not a kebab-case id", None, "for example: my-variant")
    target = directory / name
    if target.exists():
        problems.error("exists", f"{target} already exists", None, "choose another name or remove it")
    if problems.errors:
        raise MaesterError(problems)
    bundle = compile_paths(None)
    if from_:  # a patch of one card, setup or rule (tools/new_patch.py)
        from maester.tools.new_patch import scaffold_patch

        _, command = scaffold_patch(bundle, name, from_, target, [])
        out.print(f"created {target}: variant.mst", markup=False)
        out.print(f"next: {command}", markup=False)
        return
    sets = bundle["games"][game]["house_card_sets"]
    target.mkdir(parents=True)
    (target / "sets.mst").write_text(
        f'# The card set of the {name} pack.\ncard-set {name} "{name.replace("-", " ").title()}" {{\n'
        f'  description "A new house card set: replace this description."\n}}\n', encoding="utf-8")
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
        (target / f"{house}.mst").write_text("\n".join(lines), encoding="utf-8")
    cards = bundle["house_cards"].values()
    others = [s for s in sets if not any(c["set"] == s and c["house"] in houses for c in cards)]
    (target / "variant.mst").write_text(
        f"# Play with this pack: maester play --pack {directory / name} --variant {name}\n"
        f'variant {name} "{name.replace("-", " ").title()}" {{\n  game {game}\n'
        f"  house-card-sets [{', '.join([name, *others])}]\n}}\n", encoding="utf-8")
    out.print(f"created {target}: sets.mst, variant.mst and {len(houses)} house files", markup=False)
    out.print(f"next: maester check --pack {target}", markup=False)


CARD_SECTIONS = ("house_cards", "westeros_cards", "wildling_cards", "loans")


@app.command()
@friendly
def card(
    name: Annotated[str, typer.Argument(help="A card id or name (house, vassal, Westeros, wildling card or loan).")],
    compiled: Annotated[bool, typer.Option("--json/--no-json", help="Also print the compiled form.")] = True,
    pack: Packs = None,
    variant: Annotated[str | None, typer.Option("--variant", help="The card as this variant plays it.")] = None,
) -> None:
    """Show a card: its English text generated from its effect, its DSL source and its compiled form."""
    from maester.dsl.english import English
    from maester.interpreter.rules import apply_variant

    bundle = apply_variant(compile_paths(_content(None, pack)), variant)
    key = name.lower().strip()
    found = [(sec, cid) for sec in CARD_SECTIONS for cid, rec in bundle[sec].items()
             if key in (cid, (rec.get("name") or "").lower())]
    if not found:
        from maester.dsl.diagnostics import hint_for

        every = [cid for sec in CARD_SECTIONS for cid in bundle[sec]]
        diags = Diagnostics()
        diags.error("unknown-card", f"no card '{name}'", None, hint_for(key, every, show_all=0))
        raise MaesterError(diags)
    english = English(bundle)
    for section, cid in found:
        rec = bundle[section][cid]
        out.rule(f"{rec['name']} ({cid})")
        out.print(english.card(section, rec), markup=False, highlight=False)
        out.print()
        out.print(f"[dim]source: {rec['source']}[/dim]")
        out.print(_source_text(rec["source"], pack or []), markup=False, highlight=False)
        if compiled:
            out.print_json(json.dumps({k: v for k, v in rec.items() if k != "source"}))


def _source_text(where: str, packs: list[Path] | tuple = ()) -> str:
    """The declaration's text from the content file (`file:line:col`, up to its closing brace)."""
    from maester.dsl.compile import default_content_dir

    file, line, _ = where.rsplit(":", 2)
    candidates = [default_content_dir().parent / file, Path.cwd() / file] + [Path(p).parent / file for p in packs]
    path = next((c for c in candidates if c.exists()), None)
    if path is None:
        return "(source file not available)"
    lines = path.read_text(encoding="utf-8").splitlines()
    start = int(line) - 1
    depth, out_lines = 0, []
    for text in lines[start:]:
        out_lines.append(text)
        depth += text.count("{") - text.count("}")
        if depth <= 0 and "{" in "".join(out_lines):
            break
    return "\n".join(out_lines)


@app.command()
def schema(write: Annotated[bool, typer.Option("--write", help="Rewrite the effect schema file "
                                                "from the primitive registry.")] = False,
           path: Annotated[Path, typer.Option(help="The file --write rewrites (run from the repository).")]
           = Path("schemas/effect.schema.json")) -> None:
    """Print (or rewrite) the effect schema generated from the primitive registry."""
    from maester.dsl.effect_schema import effect_schema_text

    text = effect_schema_text()
    if write:
        path.write_text(text, encoding="utf-8")
        err.print(f"wrote {path}")
    else:
        sys.stdout.write(text)


@app.command()
def docs(write: Annotated[bool, typer.Option("--write", help="Refresh the generated reference in "
                                              "the language guide.")] = False,
         path: Annotated[Path, typer.Option(help="The guide --write refreshes (run from the repository).")]
         = Path("docs/dsl.md")) -> None:
    """Print (or refresh in docs/dsl.md) the language reference generated from the registry."""
    from maester.dsl.docgen import reference_markdown, refresh

    if write:
        from maester.dsl.docgen import refresh_bundle_doc

        changed = refresh(path)
        err.print(f"{'updated' if changed else 'unchanged'}: {path}")
        bundle_doc = path.parent / "bundle.md"
        schema_file = path.parent.parent / "schemas" / "bundle.schema.json"
        if bundle_doc.exists() and schema_file.exists():
            changed = refresh_bundle_doc(bundle_doc, json.loads(schema_file.read_text(encoding="utf-8")))
            err.print(f"{'updated' if changed else 'unchanged'}: {bundle_doc}")
        from maester.dsl.effect_docs import refresh_effects_doc  # the effect specification (docs/effects.md)

        effects_doc = path.parent / "effects.md"
        if effects_doc.exists():
            err.print(f"{'updated' if refresh_effects_doc(effects_doc) else 'unchanged'}: {effects_doc}")
    else:
        sys.stdout.write(reference_markdown())


@app.command()
def version() -> None:
    """Print the versions of maester, its content language and its bundle format."""
    out.print(f"maester {__version__} (content language {DSL_VERSION}, bundle format {BUNDLE_FORMAT_VERSION})")


@app.command()
def lsp() -> None:
    """Run the language server on stdin/stdout: live diagnostics, hover and completion for .mst files."""
    from maester.tools.lsp import start

    start()


from maester.tools import (  # noqa: E402  (commands in their own modules register themselves)
    fmt_cmd,
    render_cmd,
    simulate_cmd,
    tournament_cmd,
    view_cmd,
)

fmt_cmd.register(app)
render_cmd.register(app)
view_cmd.register(app)
simulate_cmd.register(app)
tournament_cmd.register(app)


def main() -> None:
    app()


if __name__ == "__main__":
    main()
