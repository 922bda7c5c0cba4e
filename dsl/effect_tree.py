"""The shape of compiled effects: the kind of a node and its children, read from the registry's NODES.

Tools that look at effects without running them (lint, the English renderer, the language server)
go through `kind` and `walk`; the interpreter runs them through its one evaluator (interpreter/effects.py).
Neither guesses a node's kind from which keys it has.
"""

from __future__ import annotations

from collections.abc import Iterator

from .registry import NODE_KEY, NODES

# The keys of a node that hold nested nodes (a block, an expression, a list of options or arguments).
_CHILD_KEYS = ("args", "if", "then", "else", "body", "in", "from", "by", "count", "may", "pay", "condition",
               "value", "list", "options")


def kind(node: object) -> str | None:
    """The node kind of a compiled value: a NODES name, "literal" for a number or condition, else None."""
    if isinstance(node, bool | int):
        return "literal"
    if isinstance(node, dict) and node.get(NODE_KEY) in NODES:
        return node[NODE_KEY]
    return None


def children(node: dict) -> Iterator[object]:
    """The nested nodes of one node, in evaluation order of its keys."""
    for key in _CHILD_KEYS:
        if key not in node:
            continue
        value = node[key]
        if isinstance(value, dict) and NODE_KEY not in value:  # `args`: parameter name -> expression
            yield from value.values()
        elif isinstance(value, list):
            yield from value
        else:
            yield value


def walk(node: object) -> Iterator[object]:
    """Every node of a compiled effect (a block, a node or an expression), parents before children."""
    if isinstance(node, list):
        for item in node:
            yield from walk(item)
        return
    yield node
    if isinstance(node, dict):
        for child in children(node):
            yield from walk(child)
