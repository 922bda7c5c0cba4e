"""The engine's layers: core <- effect primitives <- rule procedures <- game <- Mother of Dragons <- front ends.

Every import between interpreter modules (at the top of a module or inside a function; `TYPE_CHECKING`
imports are for type hints only) goes to the same or a lower layer, so there is no import cycle; and a
compiled bundle is played without importing the compiler or Lark.
"""

from __future__ import annotations

import ast
import json
import subprocess
import sys

import networkx as nx

from .conftest import REPO

# Each layer is a folder of interpreter/ (the game loop sits above the other rule procedures inside
# procedures/); every module is named by its path below interpreter/, without ".py".
LAYERS = [
    ("core", {f"core/{m}" for m in ("__init__", "rng", "state", "cursor", "board", "rules", "decisions",
                                    "decision_kinds", "formats", "vector_format", "control", "position",
                                    "procedure_registry", "events", "bundle_check", "schema_files", "extensions",
                                    "steps", "state_upgrade", "skips",
                                    "state_check", "frame_check", "snapshot", "compiled_modules")}),
    ("effect primitives", {"effects/__init__", "effects/evaluator", "effects/primitives", "effects/objectives",
                           "effects/pregame", "effects/objective_exchange"}),
    ("rule procedures", {f"procedures/{m}" for m in ("__init__", "planning", "mustering", "westeros", "combat",
                                                     "action", "phases", "moments", "victory")}),
    ("game", {"procedures/game"}),
    ("Mother of Dragons", {f"mod/{m}" for m in ("state", "state_check", "effects", "bank", "loyalty", "vassals", "game",
                                                "__init__")}),
    ("front ends", {f"frontends/{m}" for m in ("__init__", "agents", "log", "scenario", "conformance",
                                               "state_schema")} | {"__init__"}),
]
LAYER_OF = {module: i for i, (_, modules) in enumerate(LAYERS) for module in modules}
INTERPRETER = REPO / "interpreter"


def _module_name(path) -> str:
    return path.relative_to(INTERPRETER).with_suffix("").as_posix()


def _resolve(importer: str, level: int, module: str | None) -> str:
    """The interpreter path (e.g. "core/state", "mod" for a package) that a relative import names."""
    package = importer.split("/")[:-1]
    base = package[:len(package) - (level - 1)] if level > 1 else package
    return "/".join(base + (module.split(".") if module else []))


def _as_module(name: str) -> str:
    """A module path, or its package's __init__ when the path is a folder."""
    return f"{name}/__init__" if (INTERPRETER / name).is_dir() else (name or "__init__")


def _imports(path) -> set[str]:
    """Interpreter modules imported by the file, anywhere except under `if TYPE_CHECKING:`."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    skipped = {id(n) for node in ast.walk(tree) if isinstance(node, ast.If)
               and getattr(node.test, "id", "") == "TYPE_CHECKING" for n in ast.walk(node)}
    importer = _module_name(path)
    found = set()
    for node in ast.walk(tree):
        if id(node) in skipped or not isinstance(node, ast.ImportFrom):
            continue
        if node.level:
            target = _resolve(importer, node.level, node.module)
        elif (node.module or "").startswith("maester.interpreter"):
            target = "/".join(node.module.split(".")[2:])
        else:
            continue
        for alias in node.names:  # `from pkg import module` names a module; else the import is of pkg itself
            sub = f"{target}/{alias.name}" if target else alias.name
            found.add(_as_module(sub) if (INTERPRETER / f"{sub}.py").exists() or (INTERPRETER / sub).is_dir()
                      else _as_module(target))
    found.discard(importer)
    return found


def _graph() -> nx.DiGraph:
    graph = nx.DiGraph()
    for path in sorted(INTERPRETER.rglob("*.py")):
        graph.add_node(_module_name(path))
        for target in _imports(path):
            graph.add_edge(_module_name(path), target)
    return graph


def test_each_folder_is_a_layer_group():
    """A module's folder names its layer: core/, effects/, procedures/, mod/, frontends/."""
    folder_of = {"core": "core", "effect primitives": "effects", "rule procedures": "procedures",
                 "game": "procedures", "Mother of Dragons": "mod", "front ends": "frontends"}
    wrong = [m for layer, modules in LAYERS for m in modules if "/" in m and m.split("/")[0] != folder_of[layer]]
    assert not wrong, wrong


def test_every_interpreter_module_has_a_layer():
    assert set(_graph().nodes) <= set(LAYER_OF), sorted(set(_graph().nodes) - set(LAYER_OF))


def test_imports_go_down_the_layers_only():
    upward = [(a, b) for a, b in _graph().edges if LAYER_OF.get(b, -1) > LAYER_OF.get(a, -1)]
    assert not upward, "imports from a higher layer: " + ", ".join(
        f"{a} ({LAYERS[LAYER_OF[a]][0]}) imports {b} ({LAYERS[LAYER_OF[b]][0]})" for a, b in upward)


def test_there_is_no_import_cycle():
    cycles = list(nx.simple_cycles(_graph()))
    assert not cycles, f"import cycles: {cycles}"


def test_a_compiled_bundle_is_played_without_the_compiler(bundle, tmp_path):
    path = tmp_path / "bundle.json"
    path.write_text(json.dumps(bundle), encoding="utf-8")
    script = f"""
import json, sys
from maester.interpreter.core.rules import Rules
from maester.interpreter.mod import new_game
from maester.interpreter.frontends.agents import RandomAgent
rules = Rules(json.loads(open({str(path)!r}).read()))
for setup in ("base-4p", "mod-8p"):
    g = new_game(rules, setup, seed=3)
    agents = {{h: RandomAgent(i) for i, h in enumerate(g.state.houses)}}
    while g.decision is not None:
        g.answer(agents[g.decision.house].act(g, g.decision))
    assert g.over
loaded = sorted(m for m in sys.modules if m == "lark" or m.startswith(("lark.", "maester.dsl.compile",
                "maester.dsl.parse", "maester.dsl.check")))
print(json.dumps(loaded))
"""
    run = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr
    assert json.loads(run.stdout) == []
