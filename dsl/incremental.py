"""Compiling the same content again and again (the language server while a file is edited), reusing what an edit
cannot change.

A compile has three phases: each file is parsed and its top-level items are declared (one item at a time); then
the declarations are checked and lowered into the bundle (the whole content at once: the slow part); then, when
there is no error, the bundle is checked for playability, validated and linted. Only the items that *declare*
something (a declaration, its id in the symbol table) reach the second and third phases; a top-level item that
declares nothing — a comment is not even an item; an unknown word, a declaration without an id, a stray statement —
only adds its own diagnostics, whatever the rest of the content says.

So when the declaring items of every file are the very ones of the last compile (the same syntax trees, spans
included), the second phase's diagnostics, and the third's when it ran, are those of the last compile, and only the
first phase is redone: the parse (itself incremental: dsl/parse_cache.py, dsl/parse_chunks.py) and the declaration
of the items that are new, which declare nothing. Typing a comment, a half-written line that is not a declaration
yet, or deleting such a line, costs a parse of the edited declaration and no check of the content. Any other edit
compiles the whole content, and that compile becomes the one the next edits are compared with. In it, an item seen
before is not declared again (its own diagnostics and the declarations it adds are replayed; duplicate ids are the
symbol table's), and a declaration whose lowering reads only itself, the ids declared and the tracks (a card, a
house, a table: `_SELF_CONTAINED`) is not lowered again while those are what they were (its record and diagnostics
are reused).

The diagnostics are those of a from-scratch compile (`compile_sources` and `lint`), in the same order; tested
with random edits of real content files (tests/test_lsp_incremental.py).
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, field, replace

from . import ast
from .check import Declaration
from .compile import Compiler, Source, source_list
from .diagnostics import Diagnostic, Diagnostics
from .parse_cache import ParseFn, parse_cached


@dataclass
class Result:
    """One compile: its diagnostics in order (as `Diagnostics`), and the bundle when there is no error."""

    diags: Diagnostics
    bundle: dict | None
    reused: bool = False  # the declarations were those of the last compile: their checks were not run again


@dataclass
class _Memo:
    """What the last full compile found, by phase."""

    declaring: list[ast.Item]  # the items that declared something, in order
    declared: list[list[Diagnostic]]  # each one's diagnostics as it was declared (duplicate ids included)
    checked: list[Diagnostic]  # the declarations' checks (phase two)
    finished: list[Diagnostic] | None  # playability, schema and lint (phase three); None: it did not run
    bundle: dict | None  # the bundle of a compile without errors


@dataclass
class _Undeclared:
    item: ast.Item  # kept, so that its id() is not reused while it is remembered
    diags: list[Diagnostic] = field(default_factory=list)


class _Changed(Exception):
    """The declarations are not those of the last compile: compile everything."""


def _replay(diags: Diagnostics, found: list[Diagnostic]) -> None:
    """Report `found` again, as if found now: its quoted lines are read from the current sources."""
    for d in found:
        {"error": diags.error, "warning": diags.warning, "note": diags.note}[d.severity](
            d.code, d.message, d.span, d.hint)


# The kinds whose lowering (`Compiler.lower`) reads nothing of the content but the declaration itself, the ids
# declared (by kind: references, hints) and the tracks' declarations (dominance tokens): dsl/compile.py and
# dsl/check.py were read for it. The other kinds read other declarations (a setup its houses' homes, a card set or
# deck its members, a game its decks, a variant what it patches, a board its areas), as does any declaration with
# `from PARENT`: they are lowered at each compile.
_SELF_CONTAINED = frozenset({"unit-kind", "house", "track", "table", "order", "house-card", "vassal-card",
                             "westeros-card", "wildling-card", "tides-card", "objective", "game-ability", "loan"})


@dataclass
class _Lowered:
    entry: ast.Entry  # kept, so that its id() is not reused while it is remembered
    context: int  # the `_Lowerings.context` it was lowered in
    record: dict | None  # never changed after lowering (only setups' records are: never remembered)
    diags: list[Diagnostic]


@dataclass
class _Declaring:
    """What declaring a top-level item does, whatever the rest of the content: its own diagnostics (lists) and the
    declarations it adds to the symbol table, in order. `_declare` reads nothing but the item."""

    item: ast.Item  # kept, so that its id() is not reused while it is remembered
    steps: list
    declares: bool  # the first declaration added is the item's own (it is lowered)


def _pristine(decl: Declaration) -> Declaration:
    """A copy of a declaration as `_declare` made it (resolving a `from` changes its body later)."""
    return replace(decl, body=list(decl.body),
                   entry_body=None if decl.entry_body is None else list(decl.entry_body))


class _Lowerings:
    """Declarations declared and lowered by the last compiles, reused while what they read is the same."""

    _KEEP = 8192

    def __init__(self) -> None:
        self.declarings: dict[int, _Declaring] = {}
        self.by_entry: dict[int, _Lowered] = {}
        self.signature: tuple | None = None
        self.context = 0  # changes whenever the ids declared or the tracks' declarations change

    def enter(self, symbols) -> None:
        """A compile's declarations are known: which context are they?"""
        ids = tuple((space, tuple(found)) for space, found in symbols.by_kind.items())
        tracks = tuple((id(d.entry), d.derives) for d in symbols.ids("track").values())
        signature = (ids, tracks)
        if signature != self.signature:
            self.signature = signature
            self.context += 1
            self.by_entry.clear()

    def remember_declaring(self, declaring: _Declaring) -> None:
        if len(self.declarings) >= self._KEEP:
            self.declarings.clear()
        self.declarings[id(declaring.item)] = declaring

    def get(self, decl) -> _Lowered | None:
        if decl.kind not in _SELF_CONTAINED or decl.derives is not None or decl.patched:
            return None
        found = self.by_entry.get(id(decl.entry))
        return found if found is not None and found.entry is decl.entry and found.context == self.context else None

    def put(self, decl, record: dict | None, diags: list[Diagnostic]) -> None:
        if decl.kind in _SELF_CONTAINED and decl.derives is None and not decl.patched:
            if len(self.by_entry) >= self._KEEP:
                self.by_entry.clear()
            self.by_entry[id(decl.entry)] = _Lowered(decl.entry, self.context, record, diags)


class _Recording(Compiler):
    """A full compile that notes what each top-level item adds, and lowers again only the declarations whose
    lowering may differ from the last compile's."""

    def __init__(self, diags: Diagnostics, parse: ParseFn, lowerings: _Lowerings):
        super().__init__(diags, parse)
        self.items: list[tuple[ast.Item, bool, list[Diagnostic]]] = []  # item, declares, its diagnostics
        self.lowerings = lowerings
        self.entered = False
        self.depth = 0  # lower() within lower() (a variant's patches): never reused

    def declare_item(self, item, decls) -> None:
        before, count = len(self.diags), len(decls)
        known = self.lowerings.declarings.get(id(item))
        if known is not None and known.item is item:
            self._redeclare(known, decls)
        else:
            self._declare_noting(item, decls)
        self.items.append((item, len(decls) > count, self.diags.items[before:]))

    def _declare_noting(self, item, decls) -> None:
        """Declare `item`, noting its steps: the diagnostics of the item itself, and each declaration it adds to
        the symbol table (whose `duplicate-id` depends on the others: left to the table at each compile)."""
        steps: list = []
        mark = [len(self.diags)]
        table, diags = self.symbols, self.diags
        dropped = dict(diags.dropped)

        class Noting:
            def add(self, decl, into) -> None:
                steps.append(diags.items[mark[0]:])
                steps.append(_pristine(decl))
                table.add(decl, into)
                mark[0] = len(diags)

        count = len(decls)
        self.symbols = Noting()  # type: ignore[assignment]  # _declare only adds
        try:
            super().declare_item(item, decls)
        finally:
            self.symbols = table
        steps.append(diags.items[mark[0]:])
        if diags.dropped == dropped:  # a capped list cannot be replayed
            self.lowerings.remember_declaring(_Declaring(item, steps, len(decls) > count))

    def _redeclare(self, known: _Declaring, decls) -> None:
        first = None
        for step in known.steps:
            if isinstance(step, list):
                _replay(self.diags, step)
            else:
                decl = _pristine(step)
                if first is None:
                    first = decl
                self.symbols.add(decl, self.diags)
        if known.declares:
            decls.append(first)

    def lower(self, decl, kind):
        if self.depth:
            return super().lower(decl, kind)
        if not self.entered:  # every declaration is declared and resolved by now
            self.entered = True
            self.lowerings.enter(self.symbols)
        found = self.lowerings.get(decl)
        if found is not None:
            _replay(self.diags, found.diags)
            return found.record
        before, dropped = len(self.diags), dict(self.diags.dropped)
        self.depth += 1
        try:
            record = super().lower(decl, kind)
        finally:
            self.depth -= 1
        if self.diags.dropped == dropped:  # a capped list cannot be replayed
            self.lowerings.put(decl, record, self.diags.items[before:])
        return record


class _Replaying(Compiler):
    """The first phase only, the declaring items' diagnostics taken from the last compile."""

    def __init__(self, diags: Diagnostics, parse: ParseFn, memo: _Memo, undeclared: dict[int, _Undeclared]):
        super().__init__(diags, parse)
        self.memo = memo
        self.undeclared = undeclared
        self.seen = 0  # declaring items matched so far

    def declare_item(self, item, decls) -> None:
        known = self.undeclared.get(id(item))
        if known is not None and known.item is item:
            _replay(self.diags, known.diags)
            return
        memo = self.memo
        if self.seen < len(memo.declaring):
            before = memo.declaring[self.seen]
            if item is before or item == before:
                memo.declaring[self.seen] = item  # the same tree: the next edit finds it by identity
                _replay(self.diags, memo.declared[self.seen])
                self.seen += 1
                return
        alone = Diagnostics()  # an item that declares nothing says the same wherever it stands
        found: list = []
        Compiler(alone, self.parse).declare_item(item, found)
        if found:
            raise _Changed
        self.undeclared[id(item)] = _Undeclared(item, list(alone))
        _replay(self.diags, alone.items)


class Incremental:
    """A compiler that remembers its last compile (one per content the language server compiles)."""

    _KEEP_UNDECLARED = 4096

    def __init__(self, parse: ParseFn | None = None):
        self.parse = parse or parse_cached
        self.memo: _Memo | None = None
        self.undeclared: dict[int, _Undeclared] = {}
        self.lowerings = _Lowerings()
        self.lock = threading.Lock()
        self.full = self.reused = 0  # compiles of each kind (for tests and benchmarks)

    def compile(self, sources: list[Source]) -> Result:
        parsed: dict[str, tuple] = {}

        def parse_once(text: str, label: str, diags: Diagnostics):
            """Each file is parsed once per compile, though a compile that cannot reuse starts again."""
            if label not in parsed:
                alone = Diagnostics()
                parsed[label] = (self.parse(text, label, alone), alone.items, alone.dropped)
            items, found, dropped = parsed[label]
            _replay(diags, found)
            for severity, n in dropped.items():
                diags.dropped[severity] = diags.dropped.get(severity, 0) + n
            return items

        with self.lock:
            if self.memo is not None:
                found = self._reuse(sources, self.memo, parse_once)
                if found is not None:
                    self.reused += 1
                    return found
            self.full += 1
            return self._full(sources, parse_once)

    def _fresh(self, sources: list[Source]) -> Diagnostics:
        diags = Diagnostics()
        for s in sources:
            diags.add_source(s.label, s.text)
        return diags

    def _reuse(self, sources: list[Source], memo: _Memo, parse: ParseFn) -> Result | None:
        diags = self._fresh(sources)
        replaying = _Replaying(diags, parse, memo, self.undeclared)
        try:
            for src in sources:
                items = parse(src.text, src.label, diags)
                if items is not None:
                    replaying.declare_file(src.label, items, [])
        except _Changed:
            return None
        if replaying.seen != len(memo.declaring):
            return None  # a declaration is gone
        _replay(diags, memo.checked)
        if diags.error_count:
            return Result(diags, None, reused=True)
        if memo.finished is None:
            return None  # the last compile had errors, now gone: the checks of a whole bundle are to be run
        _replay(diags, memo.finished)
        bundle = None
        if memo.bundle is not None and not diags.error_count:
            bundle = {**memo.bundle, "sources": source_list(sources)}
        return Result(diags, bundle, reused=True)

    def _full(self, sources: list[Source], parse: ParseFn) -> Result:
        from .lint import lint
        from .validate import validate_bundle

        diags = self._fresh(sources)
        compiler = _Recording(diags, parse, self.lowerings)
        bundle: dict | None = compiler.run(sources)
        checked_at = compiler.checked_at
        ran_finish = not diags.error_count  # `run` checks playability only then
        if diags.errors:  # as `compile_sources`: no schema check of a bundle with errors, no lint
            bundle = None
        else:
            validate_bundle(bundle, diags, compiled=True)
            if diags.errors:
                bundle = None
            else:
                lint(bundle, diags)
        self._remember(compiler, diags, checked_at, ran_finish, bundle)
        return Result(diags, bundle)

    def _remember(self, compiler: _Recording, diags: Diagnostics, checked_at: int, ran_finish: bool,
                  bundle: dict | None) -> None:
        self.memo = None
        if diags.dropped:  # a capped list cannot be replayed
            return
        if len(self.undeclared) > self._KEEP_UNDECLARED:
            self.undeclared.clear()
        declaring, declared = [], []
        for item, declares, found in compiler.items:
            if declares:
                declaring.append(item)
                declared.append(found)
            else:
                self.undeclared[id(item)] = _Undeclared(item, found)
        self.memo = _Memo(declaring, declared, diags.items[compiler.declared_at:checked_at],
                          diags.items[checked_at:] if ran_finish else None, bundle)

