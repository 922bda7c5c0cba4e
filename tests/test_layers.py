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

LAYERS = [
    ("core", {"rng", "state", "cursor", "board", "rules", "decisions", "decision_kinds", "formats", "vector_format", "control",
              "position", "procedures", "events", "bundle_check", "schema_files", "extensions"}),
    ("effect primitives", {"effects"}),
    ("rule procedures", {"planning", "mustering", "westeros", "combat", "action", "phases"}),
    ("game", {"game"}),
    ("Mother of Dragons", {"mod_state", "mod_effects", "mod_bank", "mod_loyalty", "mod_vassals", "mod"}),
    ("front ends", {"agents", "log", "scenario", "conformance", "state_schema", "__init__"}),
]
LAYER_OF = {module: i for i, (_, modules) in enumerate(LAYERS) for module in modules}


def _imports(path) -> set[str]:
    """Interpreter modules imported by the file, anywhere except under `if TYPE_CHECKING:`."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    skipped = {id(n) for node in ast.walk(tree) if isinstance(node, ast.If)
               and getattr(node.test, "id", "") == "TYPE_CHECKING" for n in ast.walk(node)}
    found = set()
    for node in ast.walk(tree):
        if id(node) in skipped or not isinstance(node, ast.ImportFrom):
            continue
        if node.level == 1:  # from .x import y / from . import x
            if node.module:
                found.add(node.module.split(".")[0])
            else:
                found.update(alias.name for alias in node.names)
        elif (node.module or "").startswith("maester.interpreter."):
            found.add(node.module.split(".")[2])
    return found


def _graph() -> nx.DiGraph:
    graph = nx.DiGraph()
    for path in sorted((REPO / "interpreter").glob("*.py")):
        graph.add_node(path.stem)
        for target in _imports(path):
            graph.add_edge(path.stem, target)
    return graph


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
from maester.interpreter.rules import Rules
from maester.interpreter.mod import new_game
from maester.interpreter.agents import RandomAgent
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
