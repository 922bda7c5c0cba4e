"""The effect interpreter: the one evaluator of compiled card effects (bundle JSON), as docs/effects.md specifies.

Every node names its kind in `"node"` (registry NODES) and is dispatched on that tag alone. Statements
(`if`, `for`, `choose`, `may`, `let`, calls) are executed here; each primitive of the registry has exactly
one handler in HANDLERS (effects) or QUERIES (expressions), keyed by its name. Rule procedures that must
know what a card does before running it ask `reached_calls` for the calls of a marked primitive
(registry MARKS); nothing else in the engine reads which primitive a call names.
tests/test_registry.py checks that every registry primitive has its handler. Handlers are generic:
none knows which card calls it.

Runtime values: houses, areas, cards, tracks, kinds and words are strings; numbers and conditions are
ints and bools; lists are lists; a unit is the string "AREA#INDEX" (or "@attack#INDEX" for units on
the march in a combat).
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Generator
from dataclasses import dataclass, field
from types import GeneratorType
from typing import TYPE_CHECKING

from maester.dsl.registry import MARKS, NODE_KEY, NODES, PRIMITIVES

from ..core import cursor

if TYPE_CHECKING:
    from ..procedures.combat import Combat
    from ..procedures.game import Game

Proc = Generator

# The frames of an effect part-way through (cursor.py): a restart inside an effect goes on at the statement in
# progress with its bindings, the loop item, the picks made and the arguments a call began with.
BLOCK = cursor.frame_kind("effect.block", "A block of an effect's statements is running: statement `next` is in "
                          "progress", "", next=("int", "the 0-based statement of the block in progress"),
                          vars=("object", "the names bound when that statement began (name -> value)"))
CALL = cursor.frame_kind("effect.call", "A call of a primitive that may ask a decision is in progress", "",
                         args=("object", "its arguments, evaluated when the call began (name -> value)"))
IF = cursor.frame_kind("effect.if", "An `if` statement is running one of its branches", "",
                       then=("bool", "true: the `then` branch; false: the `else` branch"))
FOR = cursor.frame_kind("effect.for", "A `for` loop is running its body", "",
                        items=("list", "the items, evaluated when the loop began"),
                        next=("int", "the 0-based item whose body runs now"))
# the kinds of questions the engine skips here (core/skips.py), asked anyway with the debug switch
DOES_NOTHING, VOID_PURCHASE, IDENTICAL_UNITS = "does-nothing", "void-purchase", "identical-units"
CHOOSE = cursor.frame_kind("effect.choose", "A `choose` statement: picks are asked one at a time, then the body "
                           "runs for each pick", "",
                           by=("value", "the house that chooses"), count=("int", "how many picks are asked"),
                           options=("list", "the options still open"), picks=("list", "the picks made so far"),
                           running=("int", "0 while picking; k: the body runs for pick k (1-based)"))
MAY = cursor.frame_kind("effect.may", "A `may` statement: yes or no, then its body (or its else)", "",
                        taken=("value", "null until answered; then true (yes, the cost paid) or false"))
REPEAT = cursor.frame_kind("effect.repeat", "A primitive that asks the same question several times (destroy or "
                           "place units one by one, put each card on the top or the bottom)", "",
                           done=("int", "how many of its questions are answered and applied"),
                           areas=("value", "the areas it may still act in (null: any)"),
                           bottom=("strings", "the cards put at the bottom so far"),
                           keep=("strings", "the cards kept on top so far"))
STEP = cursor.frame_kind("effect.step", "A primitive that changes the state and then asks (choose one option, "
                         "move on the supply track and reconcile the armies)", "",
                         pick=("value", "the option chosen (null: not yet)"),
                         applied=("bool", "its change is made; what follows is in progress"))


@dataclass(slots=True)
class Scope:
    """Names bound while an effect runs, and what it belongs to."""

    vars: dict = field(default_factory=dict)
    owner: str | None = None  # who decides by default
    combat: Combat | None = None
    card: str | None = None  # the card whose effect runs
    rule: str = ""  # the rule id cited by events
    extra: dict = field(default_factory=dict)  # context data (the bids of a wildling attack, ...)

    def child(self, **more) -> Scope:
        return Scope({**self.vars, **more}, self.owner, self.combat, self.card, self.rule, self.extra)


class EffectError(Exception):
    """A compiled effect the interpreter cannot run (a bundle/engine mismatch, never a player error)."""


# ---- expressions ----------------------------------------------------------------------------------

def ev(g: Game, x, sc: Scope):
    """The value of a compiled expression now (the one evaluator: see compiled_expr)."""
    return compiled_expr(x)(g, sc)


_BINARY: dict[str, Callable] = {
    "==": lambda a, b: a == b, "!=": lambda a, b: a != b, "<": lambda a, b: a < b,
    "<=": lambda a, b: a <= b, ">": lambda a, b: a > b, ">=": lambda a, b: a >= b,
    "+": lambda a, b: a + b, "-": lambda a, b: a - b, "*": lambda a, b: a * b,
}


# ---- statements -----------------------------------------------------------------------------------

def run(g: Game, block: list, sc: Scope):
    """Run a block of compiled statements; returns what to `yield from` (the decisions it asks).

    A block that can ask nothing runs at once (see `pure_block`) and returns an empty tuple.
    """
    pure = pure_block(block)
    if pure is not None:
        pure(g, sc)
        return ()
    return compiled_block(block)(g, sc)


# ---- closures: each compiled effect is turned into Python closures once, then only called ----------
# Walking the JSON on every call costs a dictionary dispatch per node; the closures keep the same
# meaning (the statement cases below mirror `ev`) without it.

_CACHE: dict[int, tuple[object, Callable]] = {}


def _cached(x, make: Callable) -> Callable:
    hit = _CACHE.get(id(x))
    if hit is not None and hit[0] is x:
        return hit[1]
    fn = make(x)
    _CACHE[id(x)] = (x, fn)  # keeps x alive, so its id is never reused for another object
    return fn


def compiled_expr(x) -> Callable:
    if isinstance(x, bool | int):
        return _constant(x)
    return _cached(x, _compile_expr)


_CONSTANTS: dict[tuple[type, int], Callable] = {}


def _constant(x: bool | int) -> Callable:
    """The expression of a literal number or truth value (one closure per value and type: True is not 1)."""
    key = (type(x), x)
    fn = _CONSTANTS.get(key)
    if fn is None:
        fn = _CONSTANTS[key] = lambda g, sc, _v=x: _v
    return fn


def _node(x) -> str:
    """The kind of a compiled node (registry NODES); a bundle without tags is refused, not guessed."""
    kind = x.get(NODE_KEY) if isinstance(x, dict) else None
    if kind not in NODES:
        shown = sorted(x) if isinstance(x, dict) else repr(x)
        raise EffectError(f"not a compiled effect node (no known '{NODE_KEY}' tag): {shown}")
    return kind


def _compile_expr(x) -> Callable:
    kind = _node(x)
    if kind == "var":
        name = x["var"]
        return lambda g, sc: sc.vars[name]
    if kind in ("id", "text"):
        value = x[kind]
        return lambda g, sc: value
    if kind == "list":
        items = [compiled_expr(i) for i in x["list"]]
        return lambda g, sc: [f(g, sc) for f in items]
    if kind == "query":
        name = x["query"]
        args = [(k, compiled_expr(v)) for k, v in x["args"].items()]
        bound = QUERIES.get(name)  # (every query is registered before an effect first runs)
        if bound is not None:
            return lambda g, sc: bound(g, sc, {k: f(g, sc) for k, f in args})

        def call(g, sc):
            fn = QUERIES.get(name)
            if fn is None:
                raise EffectError(f"no handler for query '{name}'")
            return fn(g, sc, {k: f(g, sc) for k, f in args})
        return call
    if kind != "op":
        raise EffectError(f"a '{kind}' node is not an expression")
    op = x["op"]
    fs = [compiled_expr(a) for a in x["args"]]
    if op == "and":
        a, b = fs
        return lambda g, sc: bool(a(g, sc)) and bool(b(g, sc))
    if op == "or":
        a, b = fs
        return lambda g, sc: bool(a(g, sc)) or bool(b(g, sc))
    if op == "not":
        return lambda g, sc: not fs[0](g, sc)
    if op == "neg":
        return lambda g, sc: -fs[0](g, sc)
    binary = _BINARY[op]
    a, b = fs
    return lambda g, sc: binary(a(g, sc), b(g, sc))


def compiled_block(block: list) -> Callable:
    return _cached(block, _compile_block)


# A "pure" block asks no decision: every call's handler is a plain function and there is no choose,
# may or choose-one. It runs as plain calls, without the generator protocol (most combat modifiers).
_PURE: dict[int, tuple[object, Callable | None]] = {}


def pure_block(block: list) -> Callable | None:
    hit = _PURE.get(id(block))
    if hit is not None and hit[0] is block:
        return hit[1]
    fn = _compile_pure(block) if all(_is_pure(st) for st in block) else None
    _PURE[id(block)] = (block, fn)
    return fn


def _is_pure(st: dict) -> bool:
    kind = _node(st)
    if kind == "call":
        handler = HANDLERS.get(st["do"])
        return handler is not None and "options" not in st and not inspect.isgeneratorfunction(handler)
    if kind == "if":
        return all(_is_pure(x) for x in st["then"]) and all(_is_pure(x) for x in st.get("else", []))
    if kind == "for":
        return all(_is_pure(x) for x in st["body"])
    return kind == "let"  # choose and may ask a decision


def _compile_pure(block: list) -> Callable:
    steps = [_compile_pure_statement(st) for st in block]

    def run_pure(g, sc):
        for step in steps:
            step(g, sc)
    return steps[0] if len(steps) == 1 else run_pure


def _compile_pure_statement(st: dict) -> Callable:
    kind = _node(st)
    if kind == "call":
        handler, st_, at = HANDLERS[st["do"]], st, st.get("at", "")
        args = [(k, compiled_expr(v)) for k, v in st["args"].items()]

        def do_pure(g, sc):
            if sc.card is None:
                return handler(g, sc, {k: f(g, sc) for k, f in args}, st_)
            outer, g.origin = g.origin, (sc.card, at)
            try:
                return handler(g, sc, {k: f(g, sc) for k, f in args}, st_)
            finally:
                g.origin = outer
        return do_pure
    if kind == "if":
        cond, then = compiled_expr(st["if"]), _compile_pure(st["then"])
        otherwise = _compile_pure(st["else"]) if st.get("else") else None

        def if_(g, sc):
            if cond(g, sc):
                then(g, sc)
            elif otherwise is not None:
                otherwise(g, sc)
        return if_
    if kind == "for":
        items, var, body = compiled_expr(st["in"]), st["for"], _compile_pure(st["body"])

        def for_(g, sc):
            for item in list(items(g, sc)):
                body(g, sc.child(**{var: item}))
        return for_
    var, value = st["let"], compiled_expr(st["value"])

    def let(g, sc):
        sc.vars[var] = value(g, sc)
    return let


def _compile_block(block: list) -> Callable:
    steps = [_compile_statement(st) for st in block]
    if len(steps) == 1:
        return steps[0]  # one statement: its bindings are the block's own (no frame needed)
    asks = [not _is_pure(st) for st in block]

    def run_steps(g, sc):
        restored = cursor.restarting(g)
        f = cursor.enter(g, BLOCK, next=0, vars={})
        start = f["next"]
        if restored:
            sc.vars.update(_plain(f["vars"]))  # the bindings the statement in progress started with
        for i in range(start, len(steps)):
            if asks[i] and not (restored and i == start):
                f["next"], f["vars"] = i, _plain(sc.vars)
            yield from steps[i](g, sc)
        cursor.leave(g, f)
    return run_steps


_ATOMS = frozenset({str, int, bool, float, type(None)})  # values a copy shares (most runtime values)


def _plain(value):
    """A copy of a runtime value (or of bindings) for a frame: lists and dicts copied, so the frame never
    shares a list with the state (the state round-trips through JSON)."""
    if isinstance(value, dict):
        return {k: v if type(v) in _ATOMS else _plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [v if type(v) in _ATOMS else _plain(v) for v in value]
    return value


def _compile_statement(st: dict) -> Callable:
    kind = _node(st)
    if kind in ("if", "for") and _is_pure(st):
        # a statement of a block that asks, which itself never waits: run plainly, with no frame to keep
        plain = _compile_pure_statement(st)

        def run_plain(g, sc):
            plain(g, sc)
            return ()
        return run_plain
    if kind == "call":
        name = st["do"]
        args = [(k, compiled_expr(v)) for k, v in st["args"].items()]

        handler = HANDLERS.get(name)
        if handler is None:
            raise EffectError(f"no handler for primitive '{name}'")

        at = st.get("at", "")
        if not inspect.isgeneratorfunction(handler):
            def do(g, sc):
                if sc.card is None:
                    return handler(g, sc, {k: f(g, sc) for k, f in args}, st)
                return traced(g, (sc.card, at), handler, g, sc, {k: f(g, sc) for k, f in args}, st)
            return do

        def do_asking(g, sc):
            # a call that may ask: its arguments are evaluated once, when it begins, and kept in its frame (a
            # restart inside it goes on with them, whatever the state says now)
            restored = cursor.restarting(g)
            frame = cursor.enter(g, CALL, args={})
            if not restored:
                frame["args"] = _plain({k: f(g, sc) for k, f in args})
            values = _plain(frame["args"])
            if sc.card is None:
                yield from handler(g, sc, values, st)
            else:
                yield from traced(g, (sc.card, at), handler, g, sc, values, st)
            cursor.leave(g, frame)
        return do_asking
    if kind == "if":
        cond = compiled_expr(st["if"])
        then = compiled_block(st["then"])
        otherwise = compiled_block(st["else"]) if "else" in st else None

        def if_(g, sc):
            # the branch taken is kept: the branch itself may change what the condition reads
            restored = cursor.restarting(g)
            frame = cursor.enter(g, IF, then=True)
            if not restored:
                frame["then"] = bool(cond(g, sc))
            branch = then if frame["then"] else otherwise
            if branch is not None:
                yield from branch(g, sc)
            cursor.leave(g, frame)
        return if_
    if kind == "for":
        items, var, body = compiled_expr(st["in"]), st["for"], compiled_block(st["body"])

        def for_(g, sc):
            restored = cursor.restarting(g)
            frame = cursor.enter(g, FOR, items=[], next=0)
            if not restored:
                frame["items"] = _plain(list(items(g, sc)))  # the items as they were when the loop began
            looped = frame["items"]
            for k in range(frame["next"], len(looped)):
                frame["next"] = k
                yield from body(g, sc.child(**{var: _plain(looped[k])}))
            cursor.leave(g, frame)
        return for_
    if kind == "let":
        var, value = st["let"], compiled_expr(st["value"])

        def let(g, sc):
            sc.vars[var] = value(g, sc)
            return ()
        return let
    if kind == "choose":
        # its expressions compiled once (not looked up in the cache at every pick)
        exprs = (compiled_expr(st["by"]), compiled_expr(st["count"]) if "count" in st else None,
                 compiled_expr(st["from"]))
        return lambda g, sc: _choose(g, st, sc, exprs)
    if kind == "may":
        return lambda g, sc: _may(g, st, sc)
    raise EffectError(f"a '{kind}' node is not a statement")


def traced(g: Game, origin: tuple[str, str], fn: Callable, *args):
    """Run `fn` (a plain function or a generator of decisions) with `origin` as the source of its events.

    A generator keeps the origin across its decisions: while it waits for an answer nothing else of
    this game runs, and nested statements set and restore their own origin.
    """
    outer, g.origin = g.origin, origin
    try:
        out = fn(*args)
    finally:
        g.origin = outer
    if out is None:
        return ()
    # a generator of a Cython-compiled module (tools/build_compiled.py) is not a GeneratorType, only a Generator
    if isinstance(out, (GeneratorType, Generator)):  # (the first is the quick test of the pure-Python code)
        return _traced_steps(g, origin, out)
    return out


def _traced_steps(g: Game, origin: tuple[str, str], steps: Proc) -> Proc:
    outer, g.origin = g.origin, origin
    try:
        answer = None
        while True:
            try:
                d = steps.send(answer)
            except StopIteration as stop:
                return stop.value
            g.origin = outer  # while waiting for the answer, the origin is not this statement's
            try:
                answer = yield d
            finally:
                g.origin = origin
    finally:
        g.origin = outer


def _as_option(value):
    return value if isinstance(value, str | int) else str(value)


def _choose(g: Game, st: dict, sc: Scope, exprs: tuple) -> Proc:
    """Ask `count` picks one at a time (the options left kept in the frame), then run the body for each pick.
    `exprs`: its `by`, `count` (None: absent) and `from` compiled."""
    restored = cursor.restarting(g)
    f = cursor.enter(g, CHOOSE, by=None, count=0, options=[], picks=[], running=0)
    marked = None  # the debug switch asks a question the engine would skip: its kind (core/skips.py)
    if not restored:
        by_, count_, from_ = exprs
        f["by"] = by_(g, sc)
        f["count"] = count_(g, sc) if count_ is not None else 1
        f["options"] = _plain(list(from_(g, sc)))
        # `_does_nothing(g, [st], sc)`, over the options just read (not evaluated a second time)
        if all(_does_nothing(g, st["body"], sc.child(**{st["choose"]: o})) for o in f["options"]):
            if g.skips(DOES_NOTHING):
                # whatever is chosen nothing happens: no question (e.g. no unit of the new kind is available)
                cursor.leave(g, f)
                return
            marked = DOES_NOTHING
    by, distinct, picks = f["by"], st.get("distinct", False), f["picks"]
    while not f["running"] and len(picks) < f["count"] and f["options"]:  # fewer than asked: what there is (R0.6)
        every = sorted({_as_option(o) for o in f["options"]}, key=str)
        if g.skips(IDENTICAL_UNITS):
            unique = _one_of_each_piece(g, sc, every)
        else:  # the debug switch: every option asked, the question marked when some are the same piece
            unique = every
            if marked is None and len(_one_of_each_piece(g, sc, every)) < len(every):
                marked = IDENTICAL_UNITS
        pick = yield from g.choose(by, "choose", f"{by} chooses {st['choose']}", unique, sc.rule,
                                   card=sc.card, name=st["choose"], source=st.get("at", ""),
                                   **({"skip": marked} if marked else {}))
        marked = None if marked == IDENTICAL_UNITS else marked
        picks.append(pick)
        if distinct:
            f["options"] = [o for o in f["options"] if _as_option(o) != pick]
    for k in range(max(0, f["running"] - 1), len(picks)):
        f["running"] = k + 1  # 1-based: 0 while picking
        yield from run(g, st["body"], sc.child(**{st["choose"]: picks[k]}))
    cursor.leave(g, f)


def _one_of_each_piece(g: Game, sc: Scope, options: list) -> list:
    """Identical units of one area (same kind, same routed side) are one answer: picking either does the same."""
    seen, out = set(), []
    for o in options:
        area, _, idx = o.rpartition("#") if isinstance(o, str) else ("", "", "")
        units = None
        if idx.isdigit():
            army = g.state.units.get(area)
            units = sc.combat.attacking if area == "@attack" and sc.combat is not None else army and army["units"]
        if units and int(idx) < len(units):
            key = (area, units[int(idx)][0], bool(units[int(idx)][1]))
            if key in seen:
                continue
            seen.add(key)
        out.append(o)
    return out


def _may(g: Game, st: dict, sc: Scope) -> Proc:
    """Ask yes or no (paying the cost for yes), then run the body or the else; the answer is kept in the frame."""
    f = cursor.enter(g, MAY, taken=None)
    if f["taken"] is None:  # not answered yet (a restart at the question asks it again)
        by = ev(g, st["may"], sc)
        cost = ev(g, st["pay"], sc) if "pay" in st else 0
        able = (("condition" not in st or ev(g, st["condition"], sc))
                and by is not None and by in g.state.houses and g.state.houses[by].power >= cost)
        void = able and "else" not in st and _does_nothing(g, st["body"], sc)
        why = (VOID_PURCHASE if cost else DOES_NOTHING) if void else None
        if why and g.skips(why):
            able = False  # "yes" could do nothing: no question that cannot change the outcome
        taken = False
        if able:
            prompt = f"{by}: {'pay ' + str(cost) + ' power to ' if cost else ''}use {sc.card or 'the effect'}?"
            taken = (yield from g.choose(by, "may", prompt, ["yes", "no"], sc.rule, card=sc.card, cost=cost,
                                         source=st.get("at", ""), **({"skip": why} if why else {}))) == "yes"
        if taken and cost:
            if sc.card is not None:
                traced(g, (sc.card, st.get("at", "")), g.discard_power, by, cost, sc.rule, f"cost of {sc.card}")
            else:
                g.discard_power(by, cost, sc.rule, "cost")
        f["taken"] = taken
    if f["taken"]:
        yield from run(g, st["body"], sc)
    elif "else" in st:
        yield from run(g, st["else"], sc)
    cursor.leave(g, f)


def ability_applies(g: Game, ability: dict, sc: Scope) -> bool:
    """Whether a `when` ability's condition holds now (absent: always)."""
    if _node(ability) != "ability":
        raise EffectError(f"a '{ability.get(NODE_KEY)}' node is not an ability")
    return "if" not in ability or bool(compiled_expr(ability["if"])(g, sc))


def _does_nothing(g: Game, body: list, sc: Scope) -> bool:
    """Can running this block be seen to change nothing: choices among nothing (a card from an empty discard
    pile), or only primitives of VOID_WHEN that would do nothing? Conservative: anything else may act."""
    for st in body:
        if "choose" in st:
            if not all(_does_nothing(g, st["body"], sc.child(**{st["choose"]: o})) for o in ev(g, st["from"], sc)):
                return False
        elif "if" in st:
            if not _does_nothing(g, st["then"] if ev(g, st["if"], sc) else st.get("else", []), sc):
                return False
        elif "do" in st and st["do"] in VOID_WHEN:
            if not VOID_WHEN[st["do"]](g, sc, {k: ev(g, v, sc) for k, v in st["args"].items()}):
                return False
        else:
            return False
    return True


def run_ability(g: Game, ability: dict, sc: Scope):
    """Run one `when` ability if its condition holds now; returns what to `yield from`."""
    if not ability_applies(g, ability, sc):
        return ()
    return run(g, ability["body"], sc)


def reached_calls(g: Game, block: list, sc: Scope, mark: str):
    """The calls of primitives carrying `mark` (registry MARKS) that `block` reaches now, with their
    argument values: `if` branches are followed as their conditions stand (evaluated by the same
    evaluator that runs the block); bodies of loops and decisions are not entered, since what they
    reach depends on answers not given yet. This is how a rule procedure learns what a card does
    before (or besides) running it; no procedure looks for primitive names."""
    if mark not in MARKS:
        raise EffectError(f"unknown mark '{mark}'")
    if not may_reach(block, mark):  # no call carrying the mark anywhere in its branches: nothing to evaluate
        return ()
    return _reached_calls(g, block, sc, mark)


def _reached_calls(g: Game, block: list, sc: Scope, mark: str):
    for st in block:
        kind = _node(st)
        if kind == "call":
            prim = PRIMITIVES.get(st["do"])
            if prim is not None and mark in prim.marks:
                yield st, {k: compiled_expr(v)(g, sc) for k, v in st["args"].items()}
        elif kind == "if":
            yield from reached_calls(g, st["then"] if compiled_expr(st["if"])(g, sc) else st.get("else", []), sc,
                                     mark)


_REACH: dict[tuple[int, str], tuple[object, bool]] = {}


def may_reach(block: list, mark: str) -> bool:
    """Does `block` hold, in its `if` branches followed either way, a call of a primitive carrying `mark`? (What
    `reached_calls` could find whatever the conditions say; known once per compiled block.)"""
    hit = _REACH.get((id(block), mark))
    if hit is not None and hit[0] is block:
        return hit[1]
    found = False
    for st in block:
        kind = _node(st)
        if kind == "call":
            prim = PRIMITIVES.get(st["do"])
            found = prim is not None and mark in prim.marks
        elif kind == "if":
            found = may_reach(st["then"], mark) or may_reach(st.get("else", []), mark)
        if found:
            break
    _REACH[(id(block), mark)] = (block, found)  # keeps the block alive, so its id is never another's
    return found


def apply_call(g: Game, st: dict, sc: Scope, args: dict) -> None:
    """Apply a call whose argument values are known (a marked, decision-free primitive)."""
    out = HANDLERS[st["do"]](g, sc, args, st)
    if isinstance(out, Generator):  # (not inspect.isgenerator: a compiled module's generators are not its type)
        raise EffectError(f"'{st['do']}' asks a decision; a marked call must not")


# ---- handler registry -----------------------------------------------------------------------------

HANDLERS: dict[str, Callable[..., Proc]] = {}
# primitives that can be seen in advance to do nothing (filled by primitives.py): name -> (game, scope, args) -> bool
VOID_WHEN: dict[str, Callable] = {}
QUERIES: dict[str, Callable] = {}


def handler(name: str):
    def register(fn):
        HANDLERS[name] = fn
        return fn
    return register


def query(name: str):
    def register(fn):
        QUERIES[name] = fn
        return fn
    return register


def _nothing() -> tuple:
    """What a handler with no decision returns: `yield from ()` costs less than an empty generator."""
    return ()


# -- power
