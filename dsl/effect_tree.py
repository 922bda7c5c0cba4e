"""The shape of compiled effects: the kind of a node and its children, read from the registry's NODES.

Tools that look at effects without running them (lint, the English renderer, the language server)
go through `kind` and `walk`; the interpreter runs them through its one evaluator (interpreter/effects/).
Neither guesses a node's kind from which keys it has.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

from .registry import NODE_KEY, NODES, PRIMITIVES, Param

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
        if key == "args" and isinstance(value, dict):  # a call's or query's: parameter name -> expression
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


def calls_primitive(node: object, name: str) -> bool:
    """Does any call in this compiled value (an ability record, a block, an effect) name the primitive `name`?"""
    if isinstance(node, dict):
        return node.get("do") == name or any(calls_primitive(v, name) for v in node.values())
    if isinstance(node, list):
        return any(calls_primitive(v, name) for v in node)
    return False


# the primitives of a loan's effect that never put a unit into a sea nor take one out of it (R41)
SEA_SAFE_PRIMITIVES = frozenset({"gain-power", "improve", "degrade", "choose-one", "move-supply", "arrange-deck-top"})


def touches_no_sea(effect: object, domain_of: Callable[[str], str]) -> bool:
    """Can this loan effect not change which house's ships are in a sea? `place-units` without an `in:` list
    puts a ship only into a sea the buyer already holds (R41.1, `placement-areas`), which changes no port's
    yield and no other house's muster; `destroy-unit` only when every unit kind the effect names is a land
    unit and every `units` query names its kind; any other primitive is assumed to change seas."""
    calls, kinds, open_queries = [], set(), [False]

    def visit(n) -> None:
        if isinstance(n, dict):
            if n.get("node") == "call":
                calls.append(n)
            if n.get("node") == "id" and n.get("type") == "unit-kind":
                kinds.add(n["id"])
            if n.get("node") == "query" and n.get("query") == "units" and "kind" not in (n.get("args") or {}):
                open_queries[0] = True
            for v in n.values():
                visit(v)
        elif isinstance(n, list):
            for v in n:
                visit(v)

    visit(effect)
    land_only = not open_queries[0] and all(domain_of(k) == "land" for k in kinds)
    for c in calls:
        args = c.get("args") or {}
        if c["do"] in SEA_SAFE_PRIMITIVES:
            continue
        if c["do"] == "place-units" and "in" not in args:
            continue
        if c["do"] == "destroy-unit" and land_only:
            continue
        return False
    return True


# ---- reading bundles of format 1.0 (effects without tags) ----------------------------------------
# Format 1.1 added the tag; a reader of 1.x accepts every 1.y bundle (docs/bundle.md), so a 1.0 bundle is
# tagged once when it is loaded. Format 1.0 told kinds apart by their distinctive key, checked in this order.
_V1_0_KEYS = (("trigger", "ability"), ("do", "call"), ("option", "option"), ("choose", "choose"), ("may", "may"),
              ("for", "for"), ("let", "let"), ("then", "if"), ("query", "query"), ("op", "op"), ("var", "var"),
              ("id", "id"), ("list", "list"), ("text", "text"))
# Where a bundle holds compiled effects: section -> record keys (the `effect.schema.json` references of the
# bundle schema).
EFFECT_FIELDS = {"house_cards": ("abilities",), "westeros_cards": ("effect",), "loans": ("effect",),
                 "wildling_cards": ("lowest_bidder", "everyone_else", "night_watch_victory")}


def _tag_1_0(node: object) -> None:
    if isinstance(node, list):
        for item in node:
            _tag_1_0(item)
        return
    if not isinstance(node, dict):
        return
    if NODE_KEY not in node:
        found = next((k for key, k in _V1_0_KEYS if key in node), None)
        if found is not None:
            node[NODE_KEY] = found
    for child in children(node):
        _tag_1_0(child)


def upgrade_bundle(bundle: dict) -> dict:
    """Read an older bundle as it was meant, in place: tag the effects of a format 1.0 bundle, and drop the
    empty-list defaults compilers before issue 19 wrote for a left-out optional list (`drop_empty_defaults`)."""
    version = str(bundle.get("format_version", ""))
    effects = [rec.get(key) for section, keys in EFFECT_FIELDS.items()
               for rec in (bundle.get(section) or {}).values() for key in keys]
    if version.split(".")[:2] == ["1", "0"]:
        for effect in effects:
            _tag_1_0(effect)
    for effect in effects:
        drop_empty_defaults(effect)
    return bundle


# ---- optional list arguments: left out means no limit, a list that comes out empty means none ----------

def is_optional_list(param: Param) -> bool:
    """An optional list argument whose absence means "no limit" (`in` of destroy-units, muster, units(), ...)."""
    return param.type.startswith("list:") and not param.required and param.default is None


def is_empty_list_literal(value: object) -> bool:
    return isinstance(value, dict) and value.get(NODE_KEY) == "list" and value.get("list") == []


def drop_empty_defaults(effect: object) -> None:
    """Compilers before issue 19 wrote a left-out optional list argument as the literal `[]`, read then as "no
    limit"; the language now refuses a literal empty list there (it could only mean "none"), so every such
    literal in a bundle is that old default: it is dropped, which keeps its meaning."""
    for node in walk(effect):
        if not isinstance(node, dict) or not isinstance(node.get("args"), dict):
            continue
        prim = PRIMITIVES.get(node.get("do") or node.get("query") or "")
        if prim is None:
            continue
        for name in [n for n, v in node["args"].items() if is_empty_list_literal(v)]:
            param = prim.param(name)
            if param is not None and is_optional_list(param):
                del node["args"][name]
