"""Every primitive's documented events (docs/effects.md, from dsl/semantics.py) are exactly the types its statements
emit: each event a card's statement produces carries the statement's `source`, which names one call of the bundle;
its type must be among the events documented for that call's primitive (or for its node: `may` emits the `power` of
its cost). Checked on the events of every conformance vector (they exercise every card) and of a random game of every
setup."""

from __future__ import annotations

import json
import re

import pytest

from maester.dsl.semantics import NONE, SEMANTICS
from maester.interpreter.core.rules import Rules
from maester.interpreter.frontends.agents import RandomAgent
from maester.interpreter.mod import new_game
from maester.interpreter.procedures.game import Options

from .conftest import REPO

NODE_EVENTS = {"may": {"power"}}  # a `may` with a cost discards the power (docs/effects.md, node `may`)


def documented(name: str) -> set[str]:
    """The event types the entry of a primitive names (parenthesised remarks left out)."""
    if name in NODE_EVENTS:
        return NODE_EVENTS[name]
    out = set()
    for item in re.split(r"[,;]", re.sub(r"\([^)]*\)", "", SEMANTICS[name].events)):
        for word in item.replace(" and ", " , ").replace(" or ", " , ").split(","):
            word = word.strip().removeprefix("then ").split(" ")[0]
            if word and word not in (NONE, "those"):
                out.add(word)
    return out


def _statements(node, out: dict) -> None:
    if isinstance(node, dict):
        if isinstance(node.get("at"), str) and "node" in node and node["node"] != "ability":
            out[node["at"]] = node.get("do") or node.get("node")
        for v in node.values():
            _statements(v, out)
    elif isinstance(node, list):
        for v in node:
            _statements(v, out)


@pytest.fixture(scope="module")
def statements() -> dict[str, str]:
    """`at` of every statement of the vectors' bundle -> its primitive (or node kind)."""
    out: dict[str, str] = {}
    _statements(json.loads((REPO / "conformance" / "bundle.json").read_text()), out)
    _statements(Rules.default().bundle, out)
    return out


def _undocumented(events, statements) -> set[tuple[str, str, str]]:
    bad = set()
    for e in events:
        if "source" not in e:
            continue
        name = statements.get(e["source"])
        if name is None or e["type"] not in documented(name):
            bad.add((str(name), e["type"], e["rule"]))
    return bad


def test_the_events_of_every_vector_are_documented_for_their_primitive(statements):
    bad = set()
    for path in sorted((REPO / "conformance").glob("*.json")):
        vector = json.loads(path.read_text())
        if "expected" in vector:
            bad |= _undocumented(vector["expected"]["events"], statements)
    assert not bad, sorted(bad)


def test_the_events_of_random_games_are_documented_for_their_primitive(statements):
    rules, bad = Rules.default(), set()
    for setup in sorted(rules.bundle["setups"]):
        g = new_game(rules, setup, seed=1, options=Options(tides_of_battle=True))
        agent = RandomAgent(1)
        while g.decision is not None:
            g.answer(agent.act(g, g.decision))
        bad |= _undocumented(g.events, statements)
    assert not bad, sorted(bad)


def test_the_no_op_rule_lists_exactly_the_primitives_the_interpreter_tests_in_advance():
    from maester.interpreter.effects.evaluator import VOID_WHEN

    assert {name for name, sem in SEMANTICS.items() if sem.void} == set(VOID_WHEN)
