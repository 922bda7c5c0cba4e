"""Mother of Dragons is a declared rules module (docs/modules.md): it changes the base rules only at the extension
points of interpreter/core/extensions.py, keeps its state in `GameState.modules`, and the base modules know nothing of it.
"""

from __future__ import annotations

import ast
import dataclasses
import inspect
import json
import re

import pytest

from maester.interpreter.core.extensions import EXTENSION_POINTS, RulesHooks
from maester.interpreter.core.state import GameState
from maester.interpreter.mod import ModGame, ModOptions, new_game
from maester.interpreter.mod.state import FIELDS, MODULE, DragonsState
from maester.interpreter.procedures.game import Game

from .conftest import REPO

BASE_MODULES = ("procedures/game", "core/state", "procedures/action", "procedures/planning", "procedures/westeros",
                "procedures/combat", "procedures/mustering", "core/control", "core/extensions")
# the words of Mother of Dragons concepts, which no base module may use
MOD_WORDS = re.compile(r"vassal|loyalty|dragon|loan|iron.bank|commander|targaryen|improvement|degradation|leaving",
                       re.IGNORECASE)
# what the base modules may still say, and why: `iron-bank` is a value of the order `type` vocabulary the content
# language declares (dsl/kinds.py), which the base raid and Consolidate Power procedures classify like every
# other order type; it names a kind of order token in the bundle, not a hook or a field of the module
ALLOWED = {
    ("procedures/game", '        if t in ("support", "raid", "consolidate-power", "iron-bank", "raid-or-support"):'),
    ("procedures/action", '        if rec["type"] == "iron-bank":'),
}
# how a rules module registers itself with `Game` (not a rule it changes)
REGISTRATION = {"plays", "options_type"}


@pytest.fixture(scope="module")
def rules():
    from maester.interpreter.core.rules import Rules

    return Rules.default()


def _module_classes() -> list[type]:
    """The classes of the Mother of Dragons game above `Game` (the module and its mixins)."""
    mro = ModGame.__mro__
    return [c for c in mro[: mro.index(Game)] if c is not object]


def _mod_defined() -> set[str]:
    return {name for cls in _module_classes() for name in vars(cls) if not name.startswith("__")}


def _called_by_base() -> set[str]:
    """Every attribute of the game the base modules call (`g.x(...)`, `self.x(...)`, `game.x(...)`)."""
    names = set()
    for module in BASE_MODULES:
        tree = ast.parse((REPO / "interpreter" / f"{module}.py").read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                    and isinstance(node.func.value, ast.Name) and node.func.value.id in ("g", "self", "game")):
                names.add(node.func.attr)
    return names


def test_the_module_overrides_only_declared_extension_points():
    overridden = {name for name in _mod_defined() if hasattr(Game, name)} - REGISTRATION
    assert overridden, "the test reads the module's classes"
    assert sorted(overridden - EXTENSION_POINTS) == []
    # what the base procedures call and the module defines is a declared point too
    assert sorted((_mod_defined() & _called_by_base()) - EXTENSION_POINTS - REGISTRATION) == []


def test_every_extension_point_says_what_it_decides_its_rules_and_the_base_behaviour():
    assert len(EXTENSION_POINTS) >= 40
    for name in sorted(EXTENSION_POINTS):
        doc = inspect.getdoc(getattr(RulesHooks, name)) or ""
        assert re.search(r"\bR\d+", doc), f"{name}: no rule id in its docstring"
        assert "Base game" in doc or "base game" in doc, f"{name}: its docstring does not give the base behaviour"
        assert not MOD_WORDS.search(name), f"{name} is named for a module's concept, not the base rules'"


def test_no_base_module_names_a_mother_of_dragons_concept():
    found = []
    for module in BASE_MODULES:
        for n, line in enumerate((REPO / "interpreter" / f"{module}.py").read_text(encoding="utf-8").splitlines(), 1):
            if MOD_WORDS.search(line) and (module, line) not in ALLOWED:
                found.append(f"interpreter/{module}.py:{n}: {line.strip()}")
    assert found == []


def test_the_base_state_has_no_module_fields():
    fields = {f.name for f in dataclasses.fields(GameState)}
    assert fields & set(FIELDS) == set()
    assert "modules" in fields


def test_a_base_game_has_no_module_state(rules):
    g = new_game(rules, "base-6p", seed=1)
    assert type(g) is Game
    assert g.state.to_json()["modules"] == {}
    assert DragonsState.of(g.state).vassals == [] and g.state.modules == {}  # reading stores nothing


def test_the_module_state_round_trips_through_json_exactly(rules):
    g = new_game(rules, "mod-8p", seed=4, options=ModOptions())
    assert type(g) is ModGame
    data = g.state.to_json()
    assert list(data["modules"]) == [MODULE]
    assert list(data["modules"][MODULE]) == list(FIELDS)
    assert len(data["modules"][MODULE]["vassals"]) == 8 - g.setup_rec["players"]
    again = GameState.from_json(json.loads(json.dumps(data)))
    assert again == g.state and again.canonical() == g.state.canonical()
    assert DragonsState.of(again).vassals == g.mod_state.vassals


def test_the_setup_is_shared(rules):
    """Both games run `Game._setup`; the module only adds to it through its points (no copied setup code)."""
    assert "_setup" not in _mod_defined()
    g = new_game(rules, "mod-8p", seed=4)
    setup = next(e for e in g.events if e["type"] == "setup")
    assert setup["rule"] == "R31" and sorted(setup["houses"] + setup["vassals"]) == sorted(g.setup_rec["houses"])


def test_docs_list_every_extension_point():
    text = (REPO / "docs" / "modules.md").read_text(encoding="utf-8")
    listed = set(re.findall(r"^\| `([a-z_]+)\(", text, re.MULTILINE))
    assert listed == set(EXTENSION_POINTS)
