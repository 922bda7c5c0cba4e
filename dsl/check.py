"""Semantic checks, and the lowering of checked entries and effects to bundle JSON.

Checking and lowering are one walk: each function validates a node against the declaration kinds
(kinds.py) or the effect registry (registry.py) and returns its JSON form, reporting every problem
to the shared `Diagnostics` instead of stopping at the first.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from . import ast
from .diagnostics import Diagnostics, Span, hint_for
from .effect_tree import is_empty_list_literal, is_optional_list
from .english_grammar import article
from .kinds import ADD_ABILITIES, EVERY, PATCH_OPS, REF_KINDS, Key, Kind
from .moments import MOMENTS
from .registry import CONTEXTS, ENUMS, PRIMITIVES, STATEMENTS, TRIGGERS, Primitive, types_compatible

# ---- the symbol table ---------------------------------------------------------------------------


@dataclass
class Declaration:
    kind: str
    id: str
    name: str | None
    entry: ast.Entry
    body: list[ast.Item]  # block items after splitting shared lines
    parent: str | None = None  # the board/overlay an area or port is declared in
    derives: str | None = None  # `KIND ID "Name" from PARENT`: the id it derives from (dsl/patch.py)
    derives_span: Span | None = None
    patched: bool = False  # made by a variant's `patch` (same id as its parent)
    entry_body: list[ast.Item] | None = None  # the entries as written, before a patch is resolved
    patch_entry: ast.Entry | None = None
    unresolved: bool = False  # its parent is unknown (reported): not compiled, so no cascade of errors


@dataclass
class Symbols:
    """Every declared id, by kind; areas and ports share one namespace."""

    by_kind: dict[str, dict[str, Declaration]] = field(default_factory=dict)

    def add(self, decl: Declaration, diags: Diagnostics) -> None:
        space = self.by_kind.setdefault(_namespace(decl.kind), {})
        if decl.id in space:
            first = space[decl.id]
            diags.error("duplicate-id", f"{decl.kind} '{decl.id}' is declared twice",
                        decl.entry.values[0].span if decl.entry.values else decl.entry.span,
                        f"the first declaration is at {first.entry.span}")
            return
        space[decl.id] = decl

    def ids(self, kind: str) -> dict[str, Declaration]:
        return self.by_kind.get(_namespace(kind), {})

    def lookup(self, kind: str, ident: str) -> Declaration | None:
        return self.ids(kind).get(ident)


def _namespace(kind: str) -> str:
    return "area" if kind in ("area", "port") else ("house-card" if kind == "vassal-card" else kind)


MAX_NUMBER = 1_000_000  # no count or strength of the game comes near; larger is a typo

# ---- splitting shared lines ---------------------------------------------------------------------


def split_entries(items: Iterable[ast.Item], kind: Kind, diags: Diagnostics) -> list[ast.Item]:
    """`land castle stronghold supply 1` → four entries, using each key's arity from `kind`.

    An unknown key stops the split of that line (its arity is unknown) and is reported.
    """
    out: list[ast.Item] = []
    for item in items:
        if not isinstance(item, ast.Entry):
            out.append(item)
            continue
        head, head_span, values, at = item.head, item.head_span, item.values, 0
        if head == ADD_ABILITIES:  # a flag of a patch block (patch.py reads and drops it)
            out.append(item)
            continue
        while head in PATCH_OPS:  # `remove garrison winterfell`: up to the next patch op or key of the kind
            cut = next((i for i in range(at + 1, len(values)) if isinstance(values[i], ast.Name)
                        and (values[i].text in PATCH_OPS or values[i].text in kind.keys)), len(values))
            out.append(ast.Entry(head, tuple(values[at:cut]), item.block, item.span, head_span))
            if cut >= len(values):
                break
            head, head_span, at = values[cut].text, values[cut].span, cut + 1  # type: ignore[union-attr]
        if head in PATCH_OPS:
            continue
        while True:  # `at` walks the line's values: no copying of the rest (a long line stays linear)
            key = kind.keys.get(head)
            if key is None:
                _unknown_key(head, head_span, kind, diags)
                break
            n = len(key.values)
            if len(values) - at <= n:
                out.append(ast.Entry(head, tuple(values[at:]), item.block, item.span, head_span))
                break
            out.append(ast.Entry(head, tuple(values[at:at + n]), None, item.span, head_span))
            nxt = values[at + n]
            at += n + 1
            if not isinstance(nxt, ast.Name):
                diags.error("extra-value", f"'{head}' takes {n} value{'s' if n != 1 else ''}; "
                            "this one is extra", nxt.span,
                            f"'{head}' expects: {_describe_values(key) or 'no value'}")
                break
            head, head_span = nxt.text, nxt.span
    return out


def _unknown_key(head: str, span: Span, kind: Kind, diags: Diagnostics) -> None:
    where = f"in {kind.name}" if kind.top_level or kind.has_id else f"in {article(kind.name)} block"
    allowed = list(kind.keys)
    if kind.effect_context:
        allowed.append("when")
    diags.error("unknown-key", f"unknown key '{head}' {where}", Span(span.file, span.line, span.column,
                span.line, span.column + len(head)), hint_for(head, allowed, show_all=30))


def _describe_values(key: Key) -> str:
    return " ".join(_type_word(t) for t in key.values)


def _type_word(t: str) -> str:
    if t.startswith("ref:"):
        return f"<{t[4:]} id>"
    if t.startswith("enum:"):
        return t[5:]
    if t.startswith("list:"):
        return f"[{_type_word(t[5:])}, ...]"
    if t.startswith("ref-or-list:"):
        return f"<{t[12:]} id>|[<{t[12:]} id>, ...]"
    words = {"int": "<number>", "nat": "<number>", "text": '"<text>"', "id": "<new id>", "name": "<name>",
             "house-or-every": f"<house id>|[<house id>, ...]|{EVERY}", "loan-or-random": "<loan id>|random",
             "patch-target": f"<id>|[<id>, ...]|{EVERY}"}
    return words.get(t, f"<{t}>")


# ---- entry values -------------------------------------------------------------------------------


class Checker:
    """Checks declarations against their kinds and lowers them to JSON."""

    def __init__(self, symbols: Symbols, diags: Diagnostics, root: str = ""):
        self.symbols = symbols
        self.diags = diags

    # -- a key's values
    def value(self, expr: ast.Expr, type_: str, key: str) -> object:
        d = self.diags
        if type_ in ("int", "nat"):
            if not isinstance(expr, ast.Int):
                d.error("wrong-value", f"'{key}' expects a number, got {_expr_word(expr)}", expr.span)
                return None
            if abs(expr.value) > MAX_NUMBER:
                d.error("number-too-large", f"'{key}': {expr.value} is too large", expr.span,
                        f"numbers in content are at most {MAX_NUMBER}")
                return None
            if type_ == "nat" and expr.value < 0:
                d.error("negative-value", f"'{key}' cannot be negative (got {expr.value})", expr.span,
                        f"'{key}' is a count: 0 or more")
                return None
            return expr.value
        if type_ == "text":
            if isinstance(expr, ast.Str):
                return expr.value
            d.error("wrong-value", f"'{key}' expects a quoted text, got {_expr_word(expr)}", expr.span,
                    'write it in double quotes: "like this"')
            return None
        if type_ in ("id", "name"):
            if isinstance(expr, ast.Name):
                return expr.text
            if type_ == "name" and isinstance(expr, ast.Int):
                return str(expr.value)
            d.error("wrong-value", f"'{key}' expects a name, got {_expr_word(expr)}", expr.span)
            return None
        if type_.startswith("enum:"):
            choices = type_[5:].split("|")
            if isinstance(expr, ast.Name) and expr.text in choices:
                return expr.text
            word = expr.text if isinstance(expr, ast.Name) else _expr_word(expr)
            d.error("wrong-value", f"'{key}' expects one of {', '.join(choices)}; got {word}", expr.span,
                    hint_for(word, choices) if isinstance(expr, ast.Name) else None)
            return None
        if type_.startswith("ref:"):
            return self.ref(expr, type_[4:], key)
        if type_.startswith("ref-or-list:"):  # `game [base, mother-of-dragons]`: one id, or several
            kind = type_[12:]
            if not isinstance(expr, ast.ListExpr):
                return self.ref(expr, kind, key)
            if not expr.items:
                d.error("wrong-value", f"'{key}' expects at least one {kind} in its list", expr.span,
                        f"for example: {key} {_type_word(type_)}")
                return None
            out = []
            for item in expr.items:
                ident = self.ref(item, kind, key)
                if ident is not None and ident in out:
                    d.error("listed-twice", f"'{key}': {kind} '{ident}' is listed twice", _name_span(item),
                            "list each once")
                    return None
                out.append(ident)
            return out
        if type_ == "house-or-every" and isinstance(expr, ast.ListExpr):  # `house [stark, lannister] { ... }`
            if not expr.items:
                d.error("wrong-value", f"'{key}' expects at least one house in its list", expr.span,
                        f"for example: {key} [stark, lannister]")
                return None
            return [self.ref(item, "house", key) for item in expr.items]
        if type_ in ("house-or-every", "loan-or-random"):
            special = EVERY if type_ == "house-or-every" else "random"
            if isinstance(expr, ast.Name) and expr.text == special:
                return special
            return self.ref(expr, type_.split("-or-")[0], key)
        if type_ == "patch-target":  # checked against the patched kind by the compiler
            if isinstance(expr, ast.Name):
                return [expr.text] if expr.text != EVERY else EVERY
            if isinstance(expr, ast.ListExpr) and all(isinstance(i, ast.Name) for i in expr.items):
                return [i.text for i in expr.items]  # type: ignore[union-attr]
            d.error("wrong-value", f"'{key}' expects an id, a list of ids or '{EVERY}', got {_expr_word(expr)}",
                    expr.span)
            return None
        if type_.startswith("list:"):
            if not isinstance(expr, ast.ListExpr):
                d.error("wrong-value", f"'{key}' expects a list [a, b, ...], got {_expr_word(expr)}",
                        expr.span)
                return None
            return [self.value(item, type_[5:], key) for item in expr.items]
        raise AssertionError(f"unknown value type {type_}")

    def ref(self, expr: ast.Expr, kind: str, key: str) -> str | None:
        if not isinstance(expr, ast.Name):
            self.diags.error("wrong-value", f"'{key}' expects the id of {article(kind)}, got {_expr_word(expr)}",
                             expr.span)
            return None
        ids = {}
        for k in REF_KINDS.get(kind, (kind,)):
            ids.update(self.symbols.ids(k))
        if expr.text not in ids:
            self.diags.error(f"unknown-{kind}", f"unknown {kind} '{expr.text}'", _name_span(expr),
                             hint_for(expr.text, ids, show_all=0) or f"no {kind} with this id is declared")
            return None
        return expr.text

    # -- a declaration's keys
    def keys(self, decl_kind: Kind, items: list[ast.Item], where: str,
             anchor: Span | None = None) -> tuple[dict, list[ast.Entry]]:
        """Check the entries of a block against the kind's keys.

        Returns {key: value | [values] | True} and the entries that carry nested blocks, for the caller.
        """
        found: dict[str, object] = {}
        seen: dict[str, ast.Entry] = {}
        for item in items:
            if not isinstance(item, ast.Entry):
                continue
            key = decl_kind.keys.get(item.head)
            if key is None:  # reported by split_entries
                continue
            if not key.repeat and item.head in seen:
                self.diags.error("duplicate-key", f"'{item.head}' is given twice in {where}", item.head_span,
                                 f"the first is at {seen[item.head].head_span}")
                continue
            seen[item.head] = item
            if len(item.values) < len(key.values):
                self.diags.error("missing-value", f"'{item.head}' needs {_describe_values(key)}",
                                 item.head_span, f"for example: {item.head} {_describe_values(key)}")
                continue
            if item.block is not None and key.block is None:
                self.diags.error("unexpected-block", f"'{item.head}' takes no {{ ... }} block", item.span)
            if key.block_required and item.block is None:
                self.diags.error("missing-block", f"'{item.head}' needs a {{ ... }} block", item.head_span)
            values = [self.value(v, t, item.head) for v, t in zip(item.values, key.values, strict=True)]
            value: object = True if not key.values else (values[0] if len(values) == 1 else values)
            if key.repeat:
                found.setdefault(item.head, []).append(value)
            else:
                found[item.head] = value
        # a missing key is the declaration's own: at its first entry, or at its head when its entries come from
        # elsewhere (a declaration derived with `from` in a pack inherits its parent's entries)
        at = items[0].span if items and (anchor is None or items[0].span.file == anchor.file) else anchor
        for key in decl_kind.keys.values():
            if key.required and key.name not in found:
                self.diags.error("missing-key", f"{where} needs '{key.name}'", at,
                                 f"add: {key.name} {_describe_values(key)}".rstrip())
        return found, [i for i in items if isinstance(i, ast.Entry) and i.block is not None]


def _expr_word(expr: ast.Expr) -> str:
    match expr:
        case ast.Int(value=v):
            return f"the number {v}"
        case ast.Str(value=v):
            return f'the text "{v}"'
        case ast.Name(text=t):
            return f"the name '{t}'"
        case ast.ListExpr():
            return "a list"
        case ast.Call(name=n):
            return f"a call of '{n}'"
    return "an expression"


def _name_span(expr: ast.Expr) -> Span:
    s = expr.span
    if isinstance(expr, ast.Name):
        return Span(s.file, s.line, s.column, s.line, s.column + len(expr.text))
    return s


# ---- the effect language ------------------------------------------------------------------------

# Which id namespace each effect-language type names.
_TYPE_NAMESPACES = {
    "house": "house", "area": "area", "track": "track", "unit-kind": "unit-kind", "card": "house-card",
    "card-set": "card-set",
}
_ORDER_TYPES = ("march", "defense", "support", "raid", "consolidate-power", "iron-bank")
_DECKS = ("i", "ii", "iii", "iv")


@dataclass
class Scope:
    context: str
    window: str | None  # the trigger of the enclosing ability, if any
    variables: dict[str, str]
    chooser: str | None  # the default `by` of choose/may
    where: str  # e.g. "house-card tywin-lannister"

    def child(self, **more: str) -> Scope:
        return Scope(self.context, self.window, {**self.variables, **more}, self.chooser, self.where)


class EffectChecker:
    """Type-checks effect statements against the registry and lowers them to JSON."""

    def __init__(self, symbols: Symbols, diags: Diagnostics):
        self.symbols = symbols
        self.diags = diags

    # -- statements
    def block(self, items: Iterable[ast.Item], scope: Scope, allow_when: bool = False) -> list[dict]:
        out = []
        scope = scope.child()  # `let` bindings stay inside the block
        for item in items:
            lowered = self.statement(item, scope, allow_when)
            if lowered is not None:
                out.append(lowered)
        return out

    def statement(self, item: ast.Item, scope: Scope, allow_when: bool = False) -> dict | None:
        d = self.diags
        match item:
            case ast.When():
                if not allow_when:
                    d.error("misplaced-when", "'when' abilities belong directly in a card's block", item.span)
                    return None
                return self.ability(item, scope)
            case ast.If(condition=cond, then=then, otherwise=otherwise):
                out = {"node": "if", "if": self.expr(cond, "bool", scope), "then": self.block(then, scope)}
                if otherwise is not None:
                    out["else"] = self.block(otherwise, scope)
                return out
            case ast.For(var=var, iterable=it, body=body):
                lowered, t = self.infer(it, scope, "list:any")
                elem = t[5:] if t and t.startswith("list:") else "any"
                return {"node": "for", "for": var, "in": lowered, "body": self.block(body, scope.child(**{var: elem}))}
            case ast.Choose(var=var, options=opts, by=by, count=count, distinct=distinct, body=body):
                lowered, t = self.infer(opts, scope, "list:any")
                elem = t[5:] if t and t.startswith("list:") else "any"
                out = {"node": "choose", "choose": var, "from": lowered, "by": self._chooser(by, scope, item.span)}
                if count is not None:
                    out["count"] = self.expr(count, "int", scope)
                if distinct:
                    out["distinct"] = True
                out["body"] = self.block(body, scope.child(**{var: elem}))
                out["at"] = str(item.span)  # decisions and their events point at this line
                return out
            case ast.May(by=by, pay=pay, condition=cond, body=body, otherwise=otherwise):
                out = {"node": "may", "may": self._chooser(by, scope, item.span)}
                if pay is not None:
                    out["pay"] = self.expr(pay, "int", scope)
                if cond is not None:
                    out["condition"] = self.expr(cond, "bool", scope)
                out["body"] = self.block(body, scope)
                if otherwise is not None:
                    out["else"] = self.block(otherwise, scope)
                out["at"] = str(item.span)  # the cost paid and the events of the step point at this line
                return out
            case ast.Let(var=var, value=value):
                lowered, t = self.infer(value, scope, None)
                scope.variables[var] = t or "any"
                return {"node": "let", "let": var, "value": lowered}
            case ast.Condition():
                d.error("misplaced-condition", "'condition' belongs directly in an objective's block", item.span,
                        "objective my-goal \"My goal\" { condition controls(house, winterfell) }")
                return None
            case ast.Option():
                d.error("misplaced-option", "'option' belongs in the block of choose-one(...)", item.span)
                return None
            case ast.CallStmt(call=call, block=block):
                return self.call_statement(call, block, scope)
            case ast.Entry(head=head, head_span=span):
                d.error("unknown-statement", f"'{head}' is not a statement of the effect language",
                        Span(span.file, span.line, span.column, span.line, span.column + len(head)),
                        _statement_hint(head))
                return None
        raise AssertionError(item)

    def ability(self, item: ast.When, scope: Scope) -> dict | None:
        if scope.context == GAME_CONTEXT:
            return self.moment_ability(item, scope)
        trig = TRIGGERS.get(item.trigger)
        if trig is None or trig.context != scope.context:
            allowed = [t.name for t in TRIGGERS.values() if t.context == scope.context]
            self.diags.error("unknown-trigger", f"unknown trigger '{item.trigger}' for {article(scope.context)} "
                             "ability", item.trigger_span, hint_for(item.trigger, allowed, show_all=20))
            return None
        inner = Scope(scope.context, trig.name, dict(scope.variables), scope.chooser, scope.where)
        return self._ability_node(item, trig.name, inner)

    def moment_ability(self, item: ast.When, scope: Scope) -> dict | None:
        """A game ability `when MOMENT ...`: the moment's names are bound inside (dsl/moments.py)."""
        moment = MOMENTS.get(item.trigger)
        if moment is None:
            self.diags.error("unknown-moment", f"unknown moment '{item.trigger}' for a game ability",
                             item.trigger_span, hint_for(item.trigger, list(MOMENTS), show_all=20))
            return None
        inner = Scope(scope.context, moment.name, {**scope.variables, **moment.bindings}, moment.chooser,
                      scope.where)
        return self._ability_node(item, moment.name, inner)

    def _ability_node(self, item: ast.When, trigger: str, inner: Scope) -> dict:
        """The compiled ability: its trigger or moment, condition and body checked in `inner`, and its place."""
        out: dict = {"node": "ability", "trigger": trigger}
        if item.condition is not None:
            out["if"] = self.expr(item.condition, "bool", inner)
        out["body"] = self.block(item.body, inner)
        out["at"] = str(item.span)
        return out

    def _chooser(self, by: ast.Expr | None, scope: Scope, span: Span) -> object:
        if by is not None:
            return self.expr(by, "house", scope)
        if scope.chooser is None:
            self.diags.error("missing-chooser", "who decides? this effect has no owner to default to",
                             span, "add 'by HOUSE', e.g. 'by targaryen' or 'by holder(iron-throne)'")
            return None
        return {"node": "var", "var": scope.chooser}

    def call_statement(self, call: ast.Call, block, scope: Scope) -> dict | None:
        prim = self._primitive(call, "effect")
        if prim is None:
            return None
        if prim.windows and scope.window not in prim.windows:
            where = f"in {article(scope.context)} effect" if scope.window is None else f"in '{scope.window}'"
            self.diags.error("wrong-window", f"'{prim.name}' cannot be used {where}", call.name_span,
                             f"'{prim.name}' works in: {', '.join(prim.windows)}")
        out: dict = {"node": "call", "do": prim.name, "args": self.args(call, prim, scope), "at": str(call.span)}
        if prim.block == "options":
            if block is None:
                self.diags.error("missing-block", f"'{prim.name}' needs a block of 'option' entries",
                                 call.span)
            else:
                out["options"] = self.options(block, scope, call.span)
        elif block is not None:
            self.diags.error("unexpected-block", f"'{prim.name}' takes no {{ ... }} block", call.span)
        return out

    def options(self, items, scope: Scope, span: Span | None = None) -> list[dict]:
        out, keys = [], set()
        for item in items:
            if not isinstance(item, ast.Option):
                self.diags.error("expected-option", "only 'option KEY \"text\" { ... }' entries belong here",
                                 getattr(item, "span", None))
                continue
            if item.key in keys:
                self.diags.error("duplicate-option", f"option '{item.key}' is given twice", item.span)
            keys.add(item.key)
            opt: dict = {"node": "option", "option": item.key, "text": item.text}
            if item.condition is not None:
                opt["if"] = self.expr(item.condition, "bool", scope)
            opt["body"] = self.block(item.body, scope)
            out.append(opt)
        if not out:
            self.diags.error("missing-option", "a choice needs at least one option", span)
        return out

    # -- calls and arguments
    def _primitive(self, call: ast.Call, kind: str) -> Primitive | None:
        prim = PRIMITIVES.get(call.name)
        span = Span(call.name_span.file, call.name_span.line, call.name_span.column, call.name_span.line,
                    call.name_span.column + len(call.name))
        if prim is None:
            pool = [p.name for p in PRIMITIVES.values() if p.kind == kind]
            self.diags.error("unknown-primitive", f"unknown {kind} primitive '{call.name}'", span,
                             hint_for(call.name, pool, show_all=0)
                             or "see the primitive reference in docs/dsl.md")
            return None
        if prim.kind != kind:
            if kind == "effect":
                self.diags.error("query-as-statement", f"'{call.name}' is a query (it returns a "
                                 f"{prim.returns}); it changes nothing on its own", span,
                                 "use it in a condition or as an argument")
            else:
                self.diags.error("effect-in-expression", f"'{call.name}' is an effect, not a value", span,
                                 "effects are statements on their own line")
            return None
        return prim

    def args(self, call: ast.Call, prim: Primitive, scope: Scope) -> dict:
        out: dict[str, object] = {}
        positional = True
        params = list(prim.params)
        for i, arg in enumerate(call.args):
            if arg.name is None:
                if not positional:
                    self.diags.error("positional-after-named", "a positional argument follows a named one",
                                     arg.span, "name every argument after the first named one")
                    continue
                if i >= len(params):
                    self.diags.error("too-many-arguments", f"'{prim.name}' takes {len(params)} "
                                     f"argument{'s' if len(params) != 1 else ''}", arg.span,
                                     f"parameters: {_signature(prim)}")
                    continue
                param = params[i]
            else:
                positional = False
                param = prim.param(arg.name)
                if param is None:
                    self.diags.error("unknown-argument", f"'{prim.name}' has no parameter '{arg.name}'",
                                     arg.span, hint_for(arg.name, [p.name for p in params]) or
                                     f"parameters: {_signature(prim)}")
                    continue
            if param.name in out:
                self.diags.error("duplicate-argument", f"argument '{param.name}' is given twice", arg.span)
                continue
            out[param.name] = self.expr(arg.value, param.type, scope, f"'{param.name}' of {prim.name}")
            if is_empty_list_literal(out[param.name]) and is_optional_list(param):
                # left out, the list limits nothing; written empty it could only ever mean "none" (issue 19)
                self.diags.error("empty-list", f"'{param.name}' of {prim.name} is an empty list: it names "
                                 "nothing, so the effect could never act", arg.value.span,
                                 f"leave '{param.name}' out to mean no limit")
        for param in params:
            if param.name not in out:
                if param.required:
                    self.diags.error("missing-argument", f"'{prim.name}' needs '{param.name}' "
                                     f"({_type_word(param.type)})", call.span, f"parameters: {_signature(prim)}")
                elif param.default is not None:
                    out[param.name] = _default_json(param.default, param.type)
        return out

    # -- expressions
    def expr(self, expr: ast.Expr, expected: str, scope: Scope, what: str = "") -> object:
        lowered, got = self.infer(expr, scope, expected, what)
        if got is not None and not _compatible(got, expected):
            self.diags.error("wrong-type", f"{what or 'this'} expects {_type_phrase(expected)}, got "
                             f"{_type_phrase(got)}", expr.span)
        return lowered

    def infer(self, expr: ast.Expr, scope: Scope, expected: str | None, what: str = "") -> tuple[object, str | None]:
        """Lower an expression and return (json, type); type None after a reported error."""
        match expr:
            case ast.Int(value=v):
                if abs(v) > MAX_NUMBER:
                    self.diags.error("number-too-large", f"{v} is too large", expr.span,
                                     f"numbers in content are at most {MAX_NUMBER}")
                return v, "int"
            case ast.Bool(value=v):
                return v, "bool"
            case ast.Str(value=v):
                return {"node": "text", "text": v}, "text"
            case ast.Name():
                return self.name(expr, scope, expected, what)
            case ast.ListExpr(items=items):
                elem_expected = expected[5:] if expected and expected.startswith("list:") else None
                lowered, types = [], set()
                for it in items:
                    lo, t = self.infer(it, scope, elem_expected, what)
                    if elem_expected and t and not _compatible(t, elem_expected):
                        self.diags.error("wrong-type", f"{what or 'this list'} holds {_type_phrase(elem_expected)}"
                                         f", not {_type_phrase(t)}", it.span)
                    lowered.append(lo)
                    if t:
                        types.add(t)
                elem = types.pop() if len(types) == 1 else (elem_expected or "any")
                return {"node": "list", "list": lowered}, f"list:{elem}"
            case ast.Call():
                prim = self._primitive(expr, "query")
                if prim is None:
                    return None, None
                return {"node": "query", "query": prim.name, "args": self.args(expr, prim, scope)}, prim.returns
            case ast.Not(operand=op):
                return {"node": "op", "op": "not", "args": [self.expr(op, "bool", scope)]}, "bool"
            case ast.Neg(operand=op):
                return {"node": "op", "op": "neg", "args": [self.expr(op, "int", scope)]}, "int"
            case ast.BinOp(op=op, left=left, right=right):
                if op in ("and", "or"):
                    return {"node": "op", "op": op,
                            "args": [self.expr(left, "bool", scope), self.expr(right, "bool", scope)]}, "bool"
                if op in ("<", "<=", ">", ">="):
                    return {"node": "op", "op": op,
                            "args": [self.expr(left, "int", scope), self.expr(right, "int", scope)]}, "bool"
                if op in ("==", "!="):
                    lo, lt = self.infer(left, scope, None)
                    ro = self.expr(right, lt or "any", scope)
                    return {"node": "op", "op": op, "args": [lo, ro]}, "bool"
                # + - *: numbers; `+` also joins two lists
                lo, lt = self.infer(left, scope, expected if op == "+" else "int")
                if op == "+" and lt and lt.startswith("list:"):
                    return {"node": "op", "op": "+", "args": [lo, self.expr(right, lt, scope)]}, lt
                if lt and lt != "int":
                    self.diags.error("wrong-type", f"'{op}' needs numbers, got {_type_phrase(lt)}", left.span)
                return {"node": "op", "op": op, "args": [lo, self.expr(right, "int", scope)]}, "int"
        raise AssertionError(expr)

    def name(self, expr: ast.Name, scope: Scope, expected: str | None, what: str) -> tuple[object, str | None]:
        text = expr.text
        if text in scope.variables:
            return {"node": "var", "var": text}, scope.variables[text]
        target = expected[5:] if expected and expected.startswith("list:") else expected
        candidates = self._id_types(text)
        if target and target != "any":
            if target in candidates:
                return {"node": "id", "id": text, "type": target}, target
            pool = self._pool(target)
            if pool is not None:
                known = ", ".join(article(t) for t in candidates) if candidates else None
                self.diags.error(f"unknown-{target}" if not candidates else "wrong-type",
                                 f"unknown {target} '{text}'" if not candidates else
                                 f"{what or 'this'} expects {_type_phrase(target)}; '{text}' is {known}",
                                 _name_span(expr), hint_for(text, list(pool) + list(scope.variables),
                                                            show_all=0) or _vars_hint(scope))
                return None, None
        if len(candidates) == 1:
            t = candidates[0]
            return {"node": "id", "id": text, "type": t}, t
        if len(candidates) > 1:
            return {"node": "id", "id": text, "type": candidates[0]}, candidates[0]
        # No type to go by: guess what was meant from the closest known name of any kind.
        import difflib

        best = (0.0, None, None)
        for t in list(_TYPE_NAMESPACES) + ["variable"]:
            pool = scope.variables if t == "variable" else (self._pool(t) or ())
            for cand in pool:
                ratio = difflib.SequenceMatcher(None, text, cand).ratio()
                if ratio > best[0]:
                    best = (ratio, t, cand)
        if best[0] >= 0.8 and best[1] != "variable":
            self.diags.error(f"unknown-{best[1]}", f"unknown {best[1]} '{text}'", _name_span(expr),
                             f"did you mean '{best[2]}'?")
            return None, None
        pool = set(scope.variables)
        for t in _TYPE_NAMESPACES:
            pool.update(self._pool(t) or ())
        self.diags.error("unknown-name", f"unknown name '{text}'", _name_span(expr),
                         hint_for(text, pool, show_all=0) or _vars_hint(scope))
        return None, None

    def _pool(self, type_: str) -> Iterable[str] | None:
        if type_ in _TYPE_NAMESPACES:
            return self.symbols.ids(_TYPE_NAMESPACES[type_]).keys()
        if type_ in ENUMS:
            return ENUMS[type_]
        if type_ == "order-type":
            return _ORDER_TYPES
        if type_ == "order":  # order token ids, declared by `order` entries (content/core/orders.mst)
            return self.symbols.ids("order").keys()
        if type_ == "deck":
            return _DECKS
        if type_ == "dominance-token":
            return self._dominance_tokens()
        return None

    def _dominance_tokens(self) -> list[str]:
        tokens = []
        for decl in self.symbols.ids("track").values():
            for item in decl.body:
                if isinstance(item, ast.Entry) and item.head == "dominance-token" and item.values:
                    v = item.values[0]
                    if isinstance(v, ast.Name):
                        tokens.append(v.text)
        return tokens

    def _id_types(self, text: str) -> list[str]:
        found = []
        # "order" last: a bare `march` stays an order-type unless an order token id is expected
        for t in list(_TYPE_NAMESPACES) + list(ENUMS) + ["order-type", "deck", "dominance-token", "order"]:
            pool = self._pool(t)
            if pool is not None and text in pool:
                found.append(t)
        return found


def _vars_hint(scope: Scope) -> str | None:
    if not scope.variables:
        return None
    return "names available here: " + " ".join(sorted(scope.variables))


def _statement_hint(head: str) -> str:
    close = hint_for(head, list(PRIMITIVES), show_all=0)
    base = "effects are calls like gain-power(you, 2), or one of: " + ", ".join(STATEMENTS)
    return f"{close}; {base}" if close else base


def _signature(prim: Primitive) -> str:
    return ", ".join(f"{p.name}: {_type_word(p.type)}{'' if p.required else '?'}" for p in prim.params) or "none"


_compatible = types_compatible  # (the checker's own name for it)


def _type_phrase(t: str) -> str:
    if t.startswith("list:"):
        return f"a list of {t[5:]}"
    return {"int": "a number", "bool": "a condition", "text": "a text"}.get(t, article(t))


def _default_json(value: object, type_: str) -> object:
    if isinstance(value, bool | int):
        return value
    if isinstance(value, list):
        return {"node": "list", "list": list(value)}
    if isinstance(value, str):
        return {"node": "id", "id": value, "type": type_}
    return value


GAME_CONTEXT = "game"  # the effect context of game abilities (registry CONTEXTS): `when MOMENT`


def effect_scope(context: str, where: str, chooser: str | None) -> Scope:
    return Scope(context, None, dict(CONTEXTS[context].variables), chooser, where)
