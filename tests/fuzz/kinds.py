"""The fuzzing oracles for what a user hands the engine besides content and bundles (issue 20):
saved positions, answers and calls between decisions, command lines and language-server messages.

Each `*_case(rng)` builds one hostile input from a seeded generator and runs it; it returns None when
the engine did what it promises (the input worked, or was refused with one clear error and nothing
changed) or a short failure signature (one crash, however many inputs trigger it).

- positions: a real saved position with 1-3 values replaced (tokens, units, rounds, history, checkpoints),
  loaded as a file (`check="replay"`) and as an analysis position. A crash is a failure; so is a forged
  file accepted as a game: what is accepted must carry exactly the state the file says, and an accepted
  analysis position must go on being played by random agents without a crash.
- answers: a game at a random decision gets a hostile answer, gift or leave; a refusal must be an
  `IllegalDecision` (or `MaesterError` for the calls) that leaves the state, the decision and the events
  unchanged and quotes a short prefix; an accepted answer must be one of the legal options, and the game
  must still save and resume.
- command lines: a command with hostile options and arguments, run in a scratch folder; the exit code is
  0, 1 or 2, nothing prints a traceback, and with --json stdout is one JSON envelope saying the same.
- language server: one `maester lsp` process gets random messages (bad params, odd URIs, lone surrogates,
  huge texts, unknown methods); every request is answered and the server lives to the end.
"""

from __future__ import annotations

import atexit
import copy
import json
import os
import random
import shutil
import subprocess
import tempfile
import time
from functools import cache
from pathlib import Path

from maester.dsl.diagnostics import MaesterError
from maester.tools.lsp_client import NoAnswer, ServerStopped, StdioClient

from .harness import HOSTILE_VALUES, Hang, mutate_json, signature, time_guard

POSITION_GAMES = [("base-4p", 11, 120), ("mod-4p-with-targaryen", 5, 260), ("base-3p", 2, 40), ("mod-8p", 3, 180)]
PLAY_AFTER_LOAD = 30  # decisions an accepted analysis position is played on
QUOTE_LIMIT = 400  # characters of an error message about an answer (the answer's prefix is much shorter)


# ---- positions ------------------------------------------------------------------------------------


@cache
def _rules():
    from maester.interpreter.core.rules import Rules

    return Rules.default()


@cache
def saved_positions() -> tuple[str, ...]:
    """JSON texts of real positions, mid-game, from several setups."""
    from maester.interpreter.frontends.agents import agents_for
    from maester.interpreter.mod import new_game

    texts = []
    for setup, seed, decisions in POSITION_GAMES:
        game = new_game(_rules(), setup, seed=seed)
        agents = agents_for(game.state.houses, "random", seed=seed)
        for _ in range(decisions):
            if game.over:
                break
            game.answer(agents[game.decision.house].act(game, game.decision))
        texts.append(json.dumps(game.to_state()))
    return tuple(texts)


# values a hand editor reaches for: small and huge numbers, other houses, other unit kinds
POSITION_VALUES = HOSTILE_VALUES + [99, 20, 35, 11, 1000, -5, "targaryen", "knight", "siege-engine", "tywin-lannister",
                                    [["knight", False]] * 35, "kings-landing", 10**30]
SAME_KIND_STRINGS = ["stark", "lannister", "targaryen", "arryn", "knight", "footman", "ship", "siege-engine",
                     "winterfell", "kings-landing", "the-eyrie", "tywin-lannister", "eddard-stark", "march-plus-one",
                     "defense-plus-one", "iron-throne", "fiefdoms", "kings-court", "planning", "action", "westeros"]


def _mutate_position(doc: dict, rng: random.Random) -> dict:
    doc = copy.deepcopy(doc)
    where = rng.random()
    if where < 0.6:  # the state: what a hand editor changes
        doc["state"] = _replace(doc["state"], rng, rng.randint(1, 3))
    elif where < 0.75 and isinstance(doc.get("checkpoints"), list) and doc["checkpoints"]:
        cp = rng.choice(doc["checkpoints"])
        cp["state"] = _replace(cp["state"], rng, 1)
    elif where < 0.9:
        doc["history"] = _replace(doc.get("history", {}), rng, rng.randint(1, 2))
    else:
        doc = mutate_json(doc, rng, rng.randint(1, 3))
    # the edit also copied into the latest checkpoint, the history after it dropped
    if rng.random() < 0.2 and isinstance(doc.get("checkpoints"), list) and doc["checkpoints"] \
            and isinstance(doc.get("history"), dict):
        cp = doc["checkpoints"][-1]
        if isinstance(cp, dict) and isinstance(cp.get("answers"), int):
            cp["state"] = copy.deepcopy(doc["state"])
            answers = doc["history"].get("answers")
            if isinstance(answers, list):
                doc["history"]["answers"] = answers[:cp["answers"]]
    return doc


def _replace(data, rng: random.Random, n: int):
    data = copy.deepcopy(data)
    paths: list[list] = []
    _leaf_paths(data, [], paths)
    for _ in range(n):
        if not paths:
            break
        path = rng.choice(paths)
        node = data
        try:  # an earlier replacement may have removed the path
            for step in path[:-1]:
                node = node[step]
            old = node[path[-1]]
        except (KeyError, IndexError, TypeError):
            continue
        if not isinstance(node, (dict, list)):  # the path now runs into a replaced leaf (a string)
            continue
        if rng.random() < 0.25:
            node[path[-1]] = copy.deepcopy(rng.choice(POSITION_VALUES))
        elif isinstance(old, bool):
            node[path[-1]] = not old
        elif isinstance(old, int):  # what a hand editor does: the same kind of value, another number
            node[path[-1]] = old + rng.choice([-3, -1, 1, 2, 50, 10**9])
        elif isinstance(old, str):
            node[path[-1]] = rng.choice(SAME_KIND_STRINGS)
        elif isinstance(old, list) and old and rng.random() < 0.5:
            node[path[-1]] = old + [copy.deepcopy(rng.choice(old))] * rng.choice([1, 30])  # more of the same
        else:
            node[path[-1]] = copy.deepcopy(rng.choice(POSITION_VALUES))
    return data


def _leaf_paths(node, path: list, out: list) -> None:
    if isinstance(node, dict):
        for k, v in node.items():
            _leaf_paths(v, [*path, k], out)
    elif isinstance(node, list):
        for i, v in enumerate(node):
            _leaf_paths(v, [*path, i], out)
    if path:
        out.append(path)


def _canonical(value) -> str:
    return json.dumps(value, sort_keys=True)


def position_case(rng: random.Random) -> str | None:
    from maester.interpreter.core.position import ANALYSIS, REPLAY
    from maester.interpreter.frontends.agents import agents_for
    from maester.interpreter.procedures.game import Game

    original = json.loads(rng.choice(saved_positions()))
    doc = _mutate_position(original, rng)
    check = REPLAY if rng.random() < 0.6 else ANALYSIS
    text = json.dumps(doc)

    def work() -> str | None:
        game = Game.from_state(_rules(), json.loads(text), check=check)
        if check == REPLAY:
            if _canonical(game.to_state()["state"]) != _canonical(doc["state"]):
                return "position: accepted as a game, but its state is not the one the file says"
            if _canonical(doc["state"]) != _canonical(original["state"]) and \
                    _canonical(doc.get("history")) == _canonical(original.get("history")):
                return "position: an edited state accepted with the unchanged history"
        agents = agents_for(game.state.houses, "random", seed=rng.randrange(1000))
        for _ in range(PLAY_AFTER_LOAD):
            if game.over:
                break
            game.answer(agents[game.decision.house].act(game, game.decision))
        json.dumps(game.to_state())
        return None

    return _outcome("position", work)


# ---- answers and calls between decisions ------------------------------------------------------------


@cache
def _answer_games() -> tuple:
    """Games paused at many decisions: (setup, seed, number of answers to replay)."""
    return (("base-3p", 4), ("base-6p", 6), ("mod-4p-with-targaryen", 8), ("mod-8p", 9))


def _game_at(rng: random.Random):
    from maester.interpreter.frontends.agents import agents_for
    from maester.interpreter.mod import new_game

    setup, seed = rng.choice(_answer_games())
    game = new_game(_rules(), setup, seed=seed)
    agents = agents_for(game.state.houses, "random", seed=seed)
    for _ in range(rng.randrange(0, 400)):
        if game.over:
            break
        game.answer(agents[game.decision.house].act(game, game.decision))
    return game


def _hostile_answer(game, rng: random.Random):
    options = game.decision.options if game.decision else []
    pick = rng.random()
    if options and pick < 0.35:  # a legal option, bent
        good = copy.deepcopy(rng.choice(options))
        bends = [lambda v: [v], lambda v: {"answer": v}, lambda v: str(v), lambda v: json.dumps(v),
                 lambda v: (v, v), lambda v: v * 2 if isinstance(v, (list, str)) else v,
                 lambda v: mutate_json([v], rng, 1)[0]]
        return rng.choice(bends)(good)
    if pick < 0.45:
        return "x" * rng.choice([10, 1000, 1_000_000])
    if pick < 0.55:
        import numpy as np

        return rng.choice([np.int64(1), np.array([1, 2]), np.array([]), np.float64(0.0), np.str_("stark")])
    if options and pick < 0.7:
        return copy.deepcopy(rng.choice(options))  # a legal answer: the game goes on
    return copy.deepcopy(rng.choice(HOSTILE_VALUES + [float("nan"), float("inf"), object(), b"stark", 1j]))


def _answer_state(game) -> tuple:
    """What a refused answer or call must leave as it was."""
    return (game.state.canonical(), game.event_count, game.decision_count,
            game.decision.to_json() if game.decision else None, len(game.actions))


def answer_case(rng: random.Random) -> str | None:
    from maester.interpreter.core.decisions import IllegalDecision
    from maester.interpreter.procedures.game import Game

    game = _game_at(rng)

    def work() -> str | None:
        for _ in range(rng.randint(1, 5)):
            before = _answer_state(game)
            kind = rng.random()
            try:
                if kind < 0.75:
                    answer = _hostile_answer(game, rng)
                    decision = game.decision
                    game.answer(answer)
                    if decision is None:
                        return "answer: accepted after the game was over"
                    if decision.legal_option(answer) is None:
                        return f"answer: accepted an illegal {type(answer).__name__}"
                elif kind < 0.9 and hasattr(game, "gift_power"):  # a Mother of Dragons game
                    houses = sorted(game.state.houses)
                    game.gift_power(rng.choice(houses + [1, None, "nope"]), rng.choice(houses + [b"x", ""]),
                                    rng.choice([1, 2, 0, -1, 10**9, 1.5, True, "1"]))
                elif hasattr(game, "leave"):
                    game.leave(rng.choice(sorted(game.state.houses) + [None, 7, "nope", "targaryen"]))
            except IllegalDecision as e:
                after = _answer_state(game)
                if after != before:
                    return "answer: a refused answer or call changed the game"
                if len(str(e)) > QUOTE_LIMIT + 2000:
                    return "answer: the error quotes the whole answer"
            except MaesterError as e:
                after = _answer_state(game)
                if after != before:
                    return f"answer: a refused call ({e.code if hasattr(e, 'code') else 'error'}) changed the game"
        saved = json.dumps(game.to_state())  # it must still save, and the save must resume
        Game.from_state(_rules(), json.loads(saved))
        return None

    return _outcome("answer", work, allowed=())


# ---- command lines ------------------------------------------------------------------------------------

SKIPPED_COMMANDS = {"lsp", "serve"}  # servers: they wait for a client (fuzzed apart, through the protocol)
SKIPPED_OPTIONS = {"--write", "--backend", "--address", "--workers", "-w"}  # the repository's files; clusters
# their defaults play for minutes, by design: a tournament's default agents include the search agent, whose two
# games per pair (every seat, three pairs) ran past the 30 s guard on a loaded machine (case 301:139)
SHORT_RUNS = {"simulate": ["-n", "2"], "tournament": ["-n", "1", "--agents", "heuristic,random", "-w", "0"]}
SMALL_NUMBERS = {"--games", "-n", "--rounds", "--search-samples", "--search-candidates", "--players", "-p"}


@cache
def _commands() -> dict:
    import typer.main

    from maester.tools.cli import app

    return {name: cmd for name, cmd in typer.main.get_command(app).commands.items() if name not in SKIPPED_COMMANDS}


@cache
def _scratch() -> Path:
    """A folder of hostile and real inputs for the command lines (made once per process). It lies two folders deep
    in the campaign's own temporary folder, so that the hostile paths `..` and `../../etc` stay inside it: `fmt ..`
    from a folder right under /tmp formatted every content file of /tmp (case 201:499: tens of thousands, left by
    language-server campaigns; minutes, reported as a hang) and, without --check, would have rewritten them."""
    base = Path(tempfile.mkdtemp(prefix="maester-fuzz-cli-"))
    atexit.register(shutil.rmtree, base, ignore_errors=True)  # nothing left behind in /tmp
    folder = base / "home" / "scratch"
    folder.mkdir(parents=True)
    (folder / "dir").mkdir()
    (folder / "empty.json").write_text("")
    (folder / "binary.mst").write_bytes(b"\x00\x01house-card")
    (folder / "deep.json").write_text("[" * 100_000 + "]" * 100_000)
    (folder / "huge-number.json").write_text("1" + "0" * 5000)
    (folder / "list.json").write_text("[1, 2]")
    (folder / "text.yaml").write_text("name: x\nsetup: base-3p\nseed: many\n")
    (folder / "position.json").write_text(saved_positions()[0])
    forged = json.loads(saved_positions()[0])
    forged["state"]["houses"]["stark"]["power"] = 99
    (folder / "forged.json").write_text(json.dumps(forged))
    from maester.dsl.compile import default_content_dir

    (folder / "houses.mst").write_text((default_content_dir() / "core" / "houses.mst").read_text(encoding="utf-8"))
    return folder


def _cli_value(rng: random.Random, option: str) -> str:
    folder = _scratch()
    files = sorted(str(p) for p in folder.iterdir())
    if option in SMALL_NUMBERS:
        return rng.choice(["1", "2", "0", "-1", "x", "1.5", "99999999999999999999", ""])
    return rng.choice(files + [
        "", "-", "nope", "base-3p", "mod-8p", "stark=random", "stark=search", "x" * 300, "é" * 130, "1", "-1",
        "0", "1" * 400, str(folder / "missing" / "out.json"), str(folder / ("n" * 260)), "svg", "png", "html",
        "random", "heuristic", "stark", "tywin-lannister", "/dev/full", "../../etc", "base:nope", "..",
    ])


def cli_case(rng: random.Random) -> str | None:
    from typer.testing import CliRunner

    from maester.tools.cli import app

    commands = _commands()
    name = rng.choice(sorted(commands))
    params = [p for p in commands[name].params if not set(p.opts) & SKIPPED_OPTIONS]
    args = [name, *SHORT_RUNS.get(name, [])]
    for _ in range(rng.randint(0, 4)):
        if not params:
            break
        p = rng.choice(params)
        if p.param_type_name == "argument":
            args.append(_cli_value(rng, ""))
        elif getattr(p, "is_flag", False):
            args.append(rng.choice(p.opts))
        else:
            args += [rng.choice(p.opts), _cli_value(rng, p.opts[0])]
    as_json = rng.random() < 0.4
    if as_json:
        args.append("--json")
    old = os.getcwd()
    os.chdir(_scratch())
    try:
        with time_guard():
            result = CliRunner().invoke(app, args)
    except Hang:
        return f"cli {name}: hang"
    finally:
        os.chdir(old)
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        return f"cli {name}: {signature(result.exception)}"
    if "Hang: ran longer than" in result.output:  # the command's last-resort handler caught the guard
        return f"cli {name}: hang"
    if result.exit_code not in (0, 1, 2):
        return f"cli {name}: exit {result.exit_code}"
    if "Traceback (most recent call last)" in result.output:
        return f"cli {name}: a traceback printed"
    if as_json and result.exit_code != 2:
        try:
            doc = json.loads(result.stdout)
        except ValueError:
            return f"cli {name}: --json printed no JSON document"
        if doc.get("ok") is not (result.exit_code == 0):
            return f"cli {name}: --json says ok={doc.get('ok')} with exit {result.exit_code}"
    return None


# ---- the language server ----------------------------------------------------------------------------

LSP_REPLY_SECONDS = 60


class LanguageServer(StdioClient):
    """One `maester lsp` process; `request` gives the reply, or None if none came in time or the server stopped."""

    def __init__(self, cwd: Path):
        super().__init__(cwd=cwd, stderr=subprocess.DEVNULL)

    def request(self, method: str, params, timeout: float = LSP_REPLY_SECONDS) -> dict | None:
        try:
            return super().request(method, params, timeout)
        except (NoAnswer, ServerStopped):
            return None


LSP_REQUESTS = ["textDocument/hover", "textDocument/completion", "textDocument/definition",
                "textDocument/references", "textDocument/documentSymbol", "textDocument/formatting"]


def _lsp_uri(rng: random.Random, folder: Path) -> str:
    return rng.choice([
        (folder / "pack" / "a.mst").as_uri(), (folder / "pack" / "b.mst").as_uri(), (folder / "loose.mst").as_uri(),
        "file:///%00/x.mst", "untitled:Untitled-1", "file://" + "x" * 300, "not a uri", "", "file:///",
        (folder / "pack" / "é ü.mst").as_uri(), "file:///dev/null",
    ])


def _lsp_text(rng: random.Random) -> str:
    from .harness import real_content

    return rng.choice([
        lambda: rng.choice(real_content()).text,
        lambda: rng.choice(real_content()).text[: rng.randrange(1, 2000)],
        lambda: "house-card x \"X\" {\n  strength \ud800\n}\n",
        lambda: "{" * 5000,
        lambda: "x" * 200_000,
        lambda: "",
        lambda: "\x00\x01",
    ])()


def lsp_messages(rng: random.Random, folder: Path, server: LanguageServer) -> str | None:
    """Send a random burst of messages; the failure signature, or None."""
    for _ in range(rng.randint(1, 8)):
        uri = _lsp_uri(rng, folder)
        pick = rng.random()
        if pick < 0.3:
            server.send({"method": rng.choice(["textDocument/didOpen", "textDocument/didChange"]), "params": {
                "textDocument": {"uri": uri, "languageId": "maester", "version": rng.randint(1, 100),
                                 "text": _lsp_text(rng)},
                "contentChanges": rng.choice([[{"text": _lsp_text(rng)}], [{"range": {
                    "start": {"line": rng.randint(0, 50), "character": rng.randint(0, 50)},
                    "end": {"line": rng.randint(-1, 50), "character": rng.randint(0, 5000)}}, "text": "x"}], None])}})
            continue
        if pick < 0.35:
            server.send_raw(rng.choice([b"{", b"[]", b"null", b'{"jsonrpc": "2.0", "id": 9999}', b"\xff\xfe"]))
            continue
        method = rng.choice(LSP_REQUESTS + ["workspace/symbol", "no/such-method", "textDocument/hover"])
        params = rng.choice([
            {"textDocument": {"uri": uri}, "position": {"line": rng.randint(0, 400), "character": rng.randint(0, 80)},
             "context": {"includeDeclaration": True}, "options": {"tabSize": 2, "insertSpaces": True}},
            {"textDocument": {"uri": uri}, "position": {"line": -1, "character": "x"}},
            {"textDocument": uri}, None, [], {"position": 5}, "params",
        ])
        reply = server.request(method, params)
        if reply is None:
            return f"lsp: {method} not answered" if server.proc.poll() is None else "lsp: the server stopped"
    return None


def lsp_campaign(cases: int, seed: int, seconds: float | None = None) -> tuple[int, dict[str, int]]:
    """Bursts of messages to one server (a new one after a failure); (bursts sent, failures by signature)."""
    folder = Path(tempfile.mkdtemp(prefix="maester-fuzz-lsp-"))
    (folder / "pack").mkdir()
    for i in range(3000):  # a loose file's folder is large: the server must bound what it scans
        (folder / f"junk-{i}.mst").write_text("# nothing\n")
    server = LanguageServer(folder)
    server.request("initialize", {"processId": os.getpid(), "rootUri": folder.as_uri(), "capabilities": {}})
    server.send({"method": "initialized", "params": {}})
    failures: dict[str, int] = {}
    start, n = time.monotonic(), 0
    try:
        for i in range(cases):
            if seconds is not None and time.monotonic() - start > seconds:
                break
            n += 1
            failure = lsp_messages(random.Random(f"{seed}:{i}"), folder, server)
            if failure:
                failures[failure] = failures.get(failure, 0) + 1
                print(f"FOUND {failure} (case {seed}:{i})", flush=True)
                server.close()
                server = LanguageServer(folder)
                server.request("initialize", {"processId": os.getpid(), "rootUri": folder.as_uri(), "capabilities": {}})
    finally:
        server.close()
        shutil.rmtree(folder, ignore_errors=True)  # its 3,000 files: left in /tmp, every later walk of /tmp met them
    return n, failures


# ---- shared ----------------------------------------------------------------------------------------------


def _outcome(kind: str, work, allowed: tuple = (MaesterError,)) -> str | None:
    try:
        with time_guard():
            return work()
    except Hang:
        return f"{kind}: hang"
    except MaesterError:
        return None
    except Exception as e:  # noqa: BLE001
        if allowed and isinstance(e, allowed):
            return None
        return f"{kind}: {signature(e)}"
