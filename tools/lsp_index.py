"""What the language server knows about ids: where each is declared and where it is used.

Built from the syntax trees of every file of a compile (they come from the parse cache, so building an
index costs a walk over the trees, not a parse). A name is resolved with the help of its slot: the value
of a key typed `ref:K` (kinds.py) can only name a K; a name elsewhere (in an effect) names any declaration
with that id.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field, fields, is_dataclass

from maester.dsl import ast
from maester.dsl.check import split_entries
from maester.dsl.diagnostics import Diagnostics, Span
from maester.dsl.kinds import KINDS, REF_KINDS, Kind

# The namespace a declaration's id lives in (check.py's Symbols: areas and ports share one, so do cards).
NAMESPACE = {"port": "area", "vassal-card": "house-card"}


def namespace(kind: str) -> str:
    return NAMESPACE.get(kind, kind)


@dataclass(frozen=True)
class Decl:
    kind: str
    id: str
    name: str | None
    span: Span  # the whole declaration
    id_span: Span
    parent: str | None = None  # the board or overlay of an area or port

    @property
    def key(self) -> tuple[str, str]:
        return namespace(self.kind), self.id


@dataclass(frozen=True)
class Use:
    id: str
    span: Span
    kinds: tuple[str, ...] | None  # the kinds its slot allows; None: any


@dataclass
class Index:
    decls: dict[tuple[str, str], Decl] = field(default_factory=dict)
    by_id: dict[str, list[Decl]] = field(default_factory=dict)
    uses: list[Use] = field(default_factory=list)
    by_file: dict[str, list[Decl]] = field(default_factory=dict)  # top-level and nested, in written order

    def add(self, decl: Decl) -> None:
        if decl.key in self.decls:
            return  # a duplicate: the compiler reports it, the first one is the definition
        self.decls[decl.key] = decl
        self.by_id.setdefault(decl.id, []).append(decl)
        self.by_file.setdefault(decl.span.file, []).append(decl)

    def resolve(self, ident: str, kinds: tuple[str, ...] | None = None) -> list[Decl]:
        found = self.by_id.get(ident, [])
        if kinds is not None:
            allowed = {namespace(k) for k in kinds}
            found = [d for d in found if namespace(d.kind) in allowed]
        return found

    def at(self, file: str, line: int, column: int) -> tuple[list[Decl], Span] | None:
        """The declarations meant by the id at a 1-based position of `file` (a use or a declaration's own id)."""
        for decl in self.by_file.get(file, []):
            if _inside(decl.id_span, line, column):
                return [decl], decl.id_span
        for use in self.uses:
            if use.span.file == file and _inside(use.span, line, column):
                found = self.resolve(use.id, use.kinds)
                return (found, use.span) if found else None
        return None

    def references(self, decl: Decl) -> list[Span]:
        return [u.span for u in self.uses if decl in self.resolve(u.id, u.kinds)]

    def ids_of(self, kinds: tuple[str, ...] | None) -> list[Decl]:
        if kinds is None:
            return list(self.decls.values())
        allowed = {namespace(k) for k in kinds}
        return [d for d in self.decls.values() if namespace(d.kind) in allowed]


def _inside(span: Span, line: int, column: int) -> bool:
    return span.line == line and span.column <= column <= max(span.column, span.end_column)


def ref_kinds(type_: str) -> tuple[str, ...] | None:
    """The kinds a value type names (`ref:house`, `list:ref:area`), or None for a type that names none."""
    while type_.startswith("list:"):
        type_ = type_[5:]
    if type_.startswith("ref-or-list:"):  # `game [base, mother-of-dragons]`: names the same kind as `ref:game`
        type_ = "ref:" + type_[12:]
    if type_.startswith("ref:"):
        kind = type_[4:]
        return REF_KINDS.get(kind, (kind,))
    return None


def build(trees: dict[str, tuple[ast.Item, ...]]) -> Index:
    """The index of the files `trees` (label → syntax tree)."""
    index = Index()
    quiet = Diagnostics()  # the compiler reports the problems; the index only reads what makes sense
    for items in trees.values():
        for item in items:
            if isinstance(item, ast.Entry):
                _declaration(item, index, quiet)
    return index


def _declaration(entry: ast.Entry, index: Index, quiet: Diagnostics) -> None:
    kind = KINDS.get(entry.head)
    if kind is None or not kind.top_level:
        return
    ident = _id(entry)
    if kind.has_id and ident is not None:
        index.add(Decl(kind.name, ident.text, _name(entry), entry.span, ident.span))
    body = split_entries(entry.block or (), kind, quiet)
    _block(body, kind, index, quiet, parent=ident.text if ident is not None else None)


def _id(entry: ast.Entry) -> ast.Name | None:
    return entry.values[0] if entry.values and isinstance(entry.values[0], ast.Name) else None


def _name(entry: ast.Entry) -> str | None:
    return entry.values[1].value if len(entry.values) > 1 and isinstance(entry.values[1], ast.Str) else None


def _block(items: list[ast.Item], kind: Kind, index: Index, quiet: Diagnostics, parent: str | None) -> None:
    for item in items:
        if not isinstance(item, ast.Entry):
            _uses_in(item, index)
            continue
        key = kind.keys.get(item.head)
        if key is None:
            _uses_in(item, index)
            continue
        types = list(key.values)
        values = list(item.values)
        nested = KINDS.get(key.block) if key.block and not key.block.startswith("effect") else None
        if nested is not None and nested.has_id and types[:1] == ["id"] and values[:1] \
                and isinstance(values[0], ast.Name):
            index.add(Decl(nested.name, values[0].text, _name(item), item.span, values[0].span, parent))
            values, types = values[1:], types[1:]
        for value, type_ in zip(values, types, strict=False):
            _uses_in(value, index, ref_kinds(type_) or ())  # a number, text, enum or new id names nothing
        if item.block is not None:
            if nested is not None:
                _block(split_entries(item.block, nested, quiet), nested, index, quiet, parent)
            else:
                for sub in item.block:
                    _uses_in(sub, index)


def _uses_in(node: object, index: Index, kinds: tuple[str, ...] | None = None) -> None:
    """Every name in an expression or statement; `kinds` narrows the ones of a typed slot (() for none)."""
    if kinds == ():
        return
    for name in _names(node):  # kept whether or not declared yet: a later file may declare it
        index.uses.append(Use(name.text, name.span, kinds))


def _names(node: object) -> Iterator[ast.Name]:
    if isinstance(node, ast.Name):
        yield node
    elif isinstance(node, tuple | list):
        for x in node:
            yield from _names(x)
    elif is_dataclass(node) and not isinstance(node, type | Span):
        for f in fields(node):
            yield from _names(getattr(node, f.name))
