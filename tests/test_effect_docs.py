"""One effect format, one evaluator, a specification another engine can implement (docs/effects.md)."""

from __future__ import annotations

import copy
import json
import re

import jsonschema
import pytest

from maester.dsl.effect_docs import BEGIN, END, PARTS, effects_reference_markdown, primitive_parts
from maester.dsl.effect_tree import EFFECT_FIELDS, upgrade_bundle, walk
from maester.dsl.registry import COMBAT_WINDOWS, MARKS, NODE_KEY, NODES, PRIMITIVES, TRIGGERS
from maester.dsl.semantics import NONE, SEMANTICS
from maester.interpreter.core.decision_kinds import DECISION_KINDS
from maester.interpreter.core.rules import Rules
from maester.interpreter.effects import EffectError, Scope, ev
from maester.interpreter.procedures.game import Game

from .conftest import REPO

DOC = REPO / "docs" / "effects.md"


def _effects(bundle: dict):
    for section, keys in EFFECT_FIELDS.items():
        for cid, rec in bundle.get(section, {}).items():
            for key in keys:
                if rec.get(key) is not None:
                    yield cid, rec[key]


@pytest.fixture(scope="module")
def rules() -> Rules:
    return Rules.default()


# ---- the document ---------------------------------------------------------------------------------

def test_the_effect_reference_is_generated_from_the_registry():
    text = DOC.read_text(encoding="utf-8")
    part = text[text.index(BEGIN):text.index(END) + len(END)] + "\n"
    assert part == effects_reference_markdown(), "docs/effects.md is stale: run `maester docs --write`"


def test_the_effect_specification_is_in_the_site_navigation():
    assert "effects.md" in (REPO / "mkdocs.yml").read_text(encoding="utf-8")


def test_every_primitive_has_every_part_documented():
    assert set(SEMANTICS) == set(PRIMITIVES), "dsl/semantics.py and the registry name different primitives"
    empty = [f"{name}: {part}" for name, p in PRIMITIVES.items()
             for part, text in primitive_parts(p).items() if not text.strip()]
    assert not empty, "primitives with an empty part in docs/effects.md: " + ", ".join(empty)
    for name in PRIMITIVES:
        assert f"### `{name}`" in DOC.read_text(encoding="utf-8"), name


def test_an_empty_part_is_caught():
    """The check above is not vacuous: a primitive without semantics has empty parts."""
    prim = PRIMITIVES["gain-power"]
    saved = SEMANTICS.pop("gain-power")
    try:
        assert [p for p in PARTS if not primitive_parts(prim)[p]] == list(PARTS)
    finally:
        SEMANTICS["gain-power"] = saved


def test_documented_decisions_are_declared_kinds():
    for name, sem in SEMANTICS.items():
        if sem.decision == NONE:
            continue
        items = [re.sub(r"\([^)]*\)", "", item).strip() for item in sem.decision.split(";")]
        kinds = [re.split(r"[ :]", item)[0] for item in items]
        assert kinds[0] in DECISION_KINDS, (name, sem.decision)  # each part starts with the kind it asks
        unknown = [k for k in kinds if k not in DECISION_KINDS and k != "those"]
        assert not unknown, f"{name} documents undeclared decision kinds {unknown}"


def test_documented_events_are_event_types_the_engine_emits():
    source = "\n".join(p.read_text(encoding="utf-8") for p in (REPO / "interpreter").rglob("*.py"))
    emitted = set(re.findall(r'emit\(\s*"([a-z-]+)"', source))
    for name, sem in SEMANTICS.items():
        for item in re.split(r"[,;]", re.sub(r"\([^)]*\)", "", sem.events)):
            word = item.strip().removeprefix("or ").removeprefix("then ").strip().split(" ")[0]
            if word in ("", NONE, "those"):
                continue
            assert word in emitted, f"{name} documents event '{word}', which the engine never emits"


def test_every_node_kind_and_window_and_mark_is_documented():
    text = DOC.read_text(encoding="utf-8")
    for kind in NODES:
        assert f"### `{kind}`" in text, kind
    for window in COMBAT_WINDOWS:
        assert f"| `{window}` |" in text, window
    for mark in MARKS:
        assert f"**{mark}**" in text, mark


# ---- the format: every node carries its kind --------------------------------------------------------

def test_every_compiled_node_carries_a_declared_kind(bundle):
    seen = set()
    for cid, effect in _effects(bundle):
        for node in walk(effect):
            if isinstance(node, bool | int):
                continue
            assert isinstance(node, dict) and node.get(NODE_KEY) in NODES, (cid, node)
            seen.add(node[NODE_KEY])
    assert seen == set(NODES), f"node kinds no bundled card uses: {set(NODES) - seen}"


def test_the_schema_requires_the_tag(bundle):
    schema = json.loads((REPO / "schemas" / "effect.schema.json").read_text())
    validator = jsonschema.Draft202012Validator({**schema, "$ref": "#/$defs/ability"})
    ability = copy.deepcopy(bundle["house_cards"]["the-blackfish"]["abilities"][0])
    assert not list(validator.iter_errors(ability))
    del ability["body"][0]["args"]["house"][NODE_KEY]
    assert any("'node' is a required property" in e.message for e in validator.iter_errors(ability))


def test_the_engine_refuses_an_untagged_node_instead_of_guessing(rules):
    g = Game(rules, "base-3p", seed=1)
    with pytest.raises(EffectError, match="no known 'node' tag"):
        ev(g, {"var": "you"}, Scope(vars={"you": "stark"}))


def test_a_format_1_0_bundle_is_tagged_when_loaded(bundle, tmp_path):
    """A reader of 1.x reads every 1.y bundle: the untagged effects of 1.0 get exactly the tags of 1.1."""
    old = copy.deepcopy(bundle)
    old["format_version"] = "1.0.0"
    for _, effect in _effects(old):
        for node in walk(effect):
            if isinstance(node, dict):
                node.pop(NODE_KEY, None)
    path = tmp_path / "old.json"
    path.write_text(json.dumps(old))
    loaded = Rules.from_file(path, validate=False).bundle
    for section in EFFECT_FIELDS:
        assert loaded[section] == bundle[section], section
    assert upgrade_bundle(bundle) is bundle  # a 1.1 bundle is left alone


# ---- one evaluator: procedures read declared marks and windows ---------------------------------------

def test_no_rule_procedure_looks_for_primitive_names():
    """Only the evaluator reads which primitive a call names; procedures ask for marks (registry MARKS)."""
    for path in (REPO / "interpreter").rglob("*.py"):
        if path.parent.name == "effects" or path.name == "bundle_check.py":  # the evaluator; the load-time checker of every call's
            continue  # arguments against the registry (it reads calls to check them, never to decide the rules)
        text = path.read_text(encoding="utf-8")
        assert not re.search(r'\[\s*"do"\s*\]|get\(\s*"do"\s*\)|"do" in', text), path.name
    assert [p.name for p in PRIMITIVES.values() if "standing" in p.marks] == ["prevent-casualties"]
    assert [p.name for p in PRIMITIVES.values() if "redraw-on-reveal" in p.marks] == ["reshuffle-and-redraw"]


def test_combat_opens_only_declared_windows_and_cites_their_rules():
    combat = (REPO / "interpreter" / "procedures" / "combat.py").read_text(encoding="utf-8")
    opened = re.findall(r'_abilities\(g, c, "([a-z-]+)"\)', combat)
    opened += re.findall(r'_window\("([a-z-]+)"\)', combat)  # the combat steps that are timing windows
    assert set(opened) == set(COMBAT_WINDOWS)
    assert [TRIGGERS[w].rules[0] for w in ("cancel", "immediately", "combat-strength")] == \
        ["R20.2.1", "R20.2.2", "R20.2.3"]


def test_a_standing_effect_found_by_its_mark_protects_before_its_window(rules):
    """A casualty protection holds from the reveal (mark `standing`), and is gone once the card is cancelled."""
    from maester.interpreter.procedures.combat import Combat

    g = Game(rules, "base-3p", seed=1)
    c = Combat(attacker="lannister", defender="stark", area="the-twins", origin="riverrun", attacking=[],
               march_bonus=0)
    c.cards = {"lannister": "tyrion-lannister", "stark": "the-blackfish"}
    assert c.is_protected(g, "stark") and not c.is_protected(g, "lannister")
    assert c.is_protected(g, "stark", skull=True)  # The Blackfish: skulls too
    assert c.protected == set()  # found on a copy: nothing is left in the combat itself
    c.blank_cards.add("the-blackfish")
    assert not c.is_protected(g, "stark")


def test_the_westeros_decks_follow_the_rules_sets_declared_order(rules):
    bundle = copy.deepcopy(rules.bundle)
    game = Game(rules, "base-3p", seed=1).setup_rec["game"]
    bundle["games"][game]["westeros_decks"] = list(reversed(bundle["games"][game]["westeros_decks"]))
    g = Game(Rules(bundle), "base-3p", seed=1)
    query = {NODE_KEY: "query", "query": "westeros-decks", "args": {}}
    assert ev(g, query, Scope()) == ["iii", "ii", "i"]


def test_a_marked_call_reached_through_an_if_redraws_a_westeros_card(rules):
    """The drawing procedure follows `if` branches to find the mark; the card is replaced, never resolved."""
    from maester.interpreter.procedures.westeros import _draw

    g = Game(rules, "base-3p", seed=1)
    card = g.state.decks["i"][0]
    rec = g.rules.westeros_card(card)
    saved = rec["effect"]
    rec["effect"] = [{NODE_KEY: "if", "if": True, "then": [
        {NODE_KEY: "call", "do": "reshuffle-and-redraw", "args": {}, "at": "x:1:1"}]}]
    before = len(g.events)
    steps = _draw(g, "i")
    try:
        next(steps)
        raise AssertionError("drawing a Westeros card asks nothing")
    except StopIteration as stop:
        drawn = stop.value
    finally:
        rec["effect"] = saved
    events = [(e["type"], e.get("card"), e.get("deck")) for e in g.events[before:]]
    assert events[:2] == [("westeros-card", card, "i"), ("reshuffle", None, "i")]
    assert events[-1] == ("westeros-card", drawn, "i")
