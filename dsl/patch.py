"""Patches: a declaration derived `from` another, or changed in place by a variant's `patch`.

A patch is resolved on the syntax tree, before checking: the parent's entries (resolved first) are
taken, then the child's entries change them, so the checker and the lowering see one ordinary
declaration and the bundle holds only the result (another engine needs no patch logic).

How a child entry changes its parent's entries:
- a key given once (`strength 3`, `power-tokens 7`) replaces the parent's;
- a repeated key matched by its first values (`garrison winterfell 4`, `start stark winterfell {...}`,
  `card my-card`) replaces the parent's entry with the same first values, or is added;
- other repeated keys (`note "..."`) are added;
- `when` abilities: the child's abilities replace all of the parent's (with the flag `add-abilities` in the
  child's block, they are added after the parent's instead);
- `remove KEY VALUES...` removes the parent's entries whose first values are VALUES (an error when
  there is none); `replace KEY OLD NEW` puts NEW in place of the first value OLD.
Keys marked `inherit=False` (a house card's `set`) are not taken from the parent.

Card sets and decks also have *implicit* members (the cards whose `set` names the set; the Westeros
cards whose `deck` is the slot): a patch of one sees them as `card` entries, so it can remove or
replace them like any other entry.
"""

from __future__ import annotations

from . import ast
from .check import Declaration, Symbols, split_entries
from .diagnostics import Diagnostics, Span, hint_for
from .english_grammar import article
from .kinds import ADD_ABILITIES, KINDS, PATCH_OPS, Key, Kind

# kinds with members given by the members' own keys: kind -> (member kinds, the member's key, the set's key)
MEMBERSHIP = {
    "card-set": (("house-card", "vassal-card"), "set", None),
    "deck": (("westeros-card",), "deck", "westeros"),
}


def word(v: ast.Expr) -> str | None:
    if isinstance(v, ast.Name):
        return v.text
    if isinstance(v, ast.Int):
        return str(v.value)
    if isinstance(v, ast.Str):
        return v.value
    return None


def _entry_word(item: ast.Entry, head: str) -> str | None:
    for e in item.block or ():
        if isinstance(e, ast.Entry) and e.head == head and e.values:
            return word(e.values[0])
    return None


def identity(entry: ast.Entry, key: Key) -> tuple | None:
    """What a child entry must share with a parent entry to replace it (None: it is added)."""
    if not key.repeat:
        return ("",)
    n = key.ident if key.ident is not None else (1 if len(key.values) >= 2 else 0)
    if n == 0:
        return None
    out = tuple(word(v) for v in entry.values[:n])
    if key.block == "units":  # a player's start and a vassal card's start in one area are two entries
        out += (_entry_word(entry, "as") or "player",)
    return out


def _key_of(kind: Kind, head: str) -> Key | None:
    return kind.keys.get(head)


class Resolver:
    """Resolves `from` chains and variant patches into plain declaration bodies."""

    def __init__(self, symbols: Symbols, diags: Diagnostics):
        self.symbols = symbols
        self.diags = diags
        self._done: set[int] = set()
        self._busy: set[int] = set()

    # -- membership
    def is_original(self, decl: Declaration) -> bool:
        return decl.derives is None

    def implicit_members(self, decl: Declaration) -> list[ast.Entry]:
        """`card X` entries for the cards that name this set (or this deck's slot) themselves."""
        spec = MEMBERSHIP.get(decl.kind)
        if spec is None:
            return []
        member_kinds, member_key, own_key = spec
        if own_key is not None:  # a deck: the standard deck of its slot; a derived deck has only its list
            if decl.derives is not None:
                return []
            target = _body_word(decl.body, own_key)
            if _has(decl.body, "wildling"):
                member_kinds, member_key, target = ("wildling-card",), "", ""
        else:
            target = decl.id
        if target is None:
            return []
        out = []
        for mk in member_kinds:
            for card in self.symbols.ids(mk).values():
                if card.kind != mk:
                    continue
                if card.derives is not None and not _has(card.entry_body, member_key):
                    continue  # a derived card joins only the sets that list it (or the set it names)
                if member_key and _body_word(card.body, member_key) != target:
                    continue
                span = card.entry.span
                values: list[ast.Expr] = [ast.Name(card.id, span)]
                if decl.kind == "deck":
                    copies = _body_word(card.body, "copies")
                    values.append(ast.Int(int(copies) if copies else 1, span))
                out.append(ast.Entry("card", tuple(values), None, span, span))
        return out

    def members_body(self, decl: Declaration) -> list[ast.Item]:
        """The body of a declaration as a patch of it sees it: its entries plus its implicit members."""
        self.resolve(decl)
        if not self._counts_implicit(decl):
            return list(decl.body)
        known = {word(e.values[0]) for e in decl.body if isinstance(e, ast.Entry) and e.head == "card" and e.values}
        extra = [e for e in self.implicit_members(decl) if word(e.values[0]) not in known]
        return list(decl.body) + extra

    def _counts_implicit(self, decl: Declaration) -> bool:
        if decl.kind not in MEMBERSHIP:
            return False
        if decl.patched:  # a variant's patch in place: its members are exactly its resolved entries
            return False
        return decl.derives is None or decl.kind == "card-set"

    def members(self, decl: Declaration) -> list[ast.Entry]:
        return [e for e in self.members_body(decl) if isinstance(e, ast.Entry) and e.head == "card"]

    # -- derivation
    def resolve(self, decl: Declaration) -> None:
        """Replace a derived declaration's body by its parent's, changed by its own entries."""
        if decl.derives is None or id(decl) in self._done:
            return
        if id(decl) in self._busy:
            self.diags.error("patch-cycle", f"{decl.kind} '{decl.id}' derives from itself (a `from` cycle)",
                             decl.derives_span,
                             "a `from` chain must end at a declaration without `from`")
            decl.body = []
            decl.unresolved = True
            self._done.add(id(decl))
            return
        self._busy.add(id(decl))
        parent = self.symbols.lookup(decl.kind, decl.derives)
        if parent is None or parent.kind != decl.kind:
            other = [k for k in KINDS if self.symbols.lookup(k, decl.derives)]
            hint = (f"'{decl.derives}' is {article(other[0])}, not {article(decl.kind)}" if other else
                    hint_for(decl.derives, self.symbols.ids(decl.kind), show_all=0)
                    or f"no {decl.kind} with this id is declared")
            self.diags.error(f"unknown-{decl.kind}", f"{decl.kind} '{decl.id}' derives from an unknown "
                             f"{decl.kind} '{decl.derives}'", decl.derives_span, hint)
            decl.body = [i for i in decl.body if not (isinstance(i, ast.Entry) and i.head in PATCH_OPS)]
            decl.unresolved = True
        else:
            base = self.members_body(parent)
            if parent.unresolved:  # its error is reported once, at the parent
                decl.unresolved = True
            decl.entry_body = list(decl.body)
            if decl.name is None:
                decl.name = parent.name
            decl.body = self.merge(base, decl.body, KINDS[decl.kind], f"{decl.kind} '{decl.derives}'")
        self._busy.discard(id(decl))
        self._done.add(id(decl))

    def patch(self, parent: Declaration, entry: ast.Entry) -> Declaration:
        """A variant's `patch KIND ID { ... }` of `parent`: a new declaration with the same id."""
        kind = KINDS[parent.kind]
        child = split_entries(entry.block or (), kind, self.diags)
        body = self.merge(self.members_body(parent), child, kind, f"{parent.kind} '{parent.id}'", in_place=True)
        out = Declaration(parent.kind, parent.id, parent.name, parent.entry, body, parent.parent,
                          derives=parent.id, derives_span=entry.span, patched=True, entry_body=child,
                          patch_entry=entry)
        self._done.add(id(out))  # already resolved: its body is the patched result
        return out

    def merge(self, base: list[ast.Item], child: list[ast.Item], kind: Kind, parent_label: str,
              in_place: bool = False) -> list[ast.Item]:
        out: list[ast.Item] = []
        for item in base:
            if isinstance(item, ast.Entry) and not in_place:
                key = _key_of(kind, item.head)
                if key is not None and not key.inherit:
                    continue
            out.append(item)
        # `add-abilities`: the child's abilities join the parent's (a flag of the patch, not a key of the kind)
        abilities_replaced = any(isinstance(i, ast.Entry) and i.head == ADD_ABILITIES for i in child)
        for item in child:
            if isinstance(item, ast.Entry) and item.head == ADD_ABILITIES:
                if item.values or item.block is not None:
                    self.diags.error("patch-syntax", f"'{ADD_ABILITIES}' takes no value", item.span,
                                     f"write it alone on its line: {ADD_ABILITIES}")
                if not kind.effect_context:
                    self.diags.error("patch-syntax", f"'{ADD_ABILITIES}': a {kind.name} has no abilities",
                                     item.head_span, "only cards and game abilities have `when` abilities")
                continue
            if not isinstance(item, ast.Entry):
                if not abilities_replaced:
                    out = [i for i in out if isinstance(i, ast.Entry)]
                    abilities_replaced = True
                out.append(item)
                continue
            if item.head in PATCH_OPS:
                out = self._op(out, item, kind, parent_label)
                continue
            key = _key_of(kind, item.head)
            ident = identity(item, key) if key is not None else None
            if key is None or ident is None:
                out.append(item)
                continue
            same = [i for i, o in enumerate(out) if isinstance(o, ast.Entry) and o.head == item.head
                    and identity(o, key) == ident]
            if same:
                out[same[0]] = item
                out = [o for i, o in enumerate(out) if i not in same[1:]]
            else:
                out.append(item)
        return out

    def _op(self, out: list[ast.Item], op: ast.Entry, kind: Kind, parent_label: str) -> list[ast.Item]:
        d = self.diags
        words = [word(v) or "?" for v in op.values]
        if not words or not isinstance(op.values[0], ast.Name):
            d.error("patch-syntax", f"'{op.head}' needs the key to change", op.head_span,
                    f"for example: {op.head} garrison winterfell" if op.head == "remove"
                    else "for example: replace card OLD-ID NEW-ID")
            return out
        head = words[0]
        key = _key_of(kind, head)
        if key is None:
            d.error("unknown-key", f"'{op.head} {head}': {kind.name} has no key '{head}'", op.values[0].span,
                    hint_for(head, list(kind.keys), show_all=30))
            return out
        args = words[1:]
        if op.head == "replace":
            if len(args) != 2 or not isinstance(op.values[2], ast.Name):
                d.error("patch-syntax", f"'replace {head}' takes the old and the new value", op.span,
                        f"for example: replace {head} OLD NEW")
                return out
            args = args[:1]
        matches = [i for i, o in enumerate(out) if isinstance(o, ast.Entry) and o.head == head
                   and [word(v) for v in o.values[:len(args)]] == args]
        if not matches:
            have = sorted({" ".join(w for w in (word(v) for v in o.values[:max(1, len(args))]) if w)
                           for o in out if isinstance(o, ast.Entry) and o.head == head})
            what = " ".join([head, *args])
            d.error("patch-nothing-there", f"'{op.head} {what}': {parent_label} has no '{what}'",
                    Span(op.span.file, op.span.line, op.span.column, op.span.line,
                         op.span.column + len(op.head) + 1 + len(what)),
                    (f"it has: {', '.join(f'{head} {h}' for h in have[:12])}" if have else
                     f"it has no '{head}' at all"))
            return out
        if op.head == "remove":
            return [o for i, o in enumerate(out) if i not in matches]
        new_value = op.values[2]
        for i in matches[:1]:
            o = out[i]
            assert isinstance(o, ast.Entry)
            out[i] = ast.Entry(o.head, (new_value, *o.values[1:]), o.block, op.span, o.head_span)
        return [o for i, o in enumerate(out) if i not in matches[1:]]


def _body_word(body: list[ast.Item], head: str) -> str | None:
    for e in body:
        if isinstance(e, ast.Entry) and e.head == head and e.values:
            return word(e.values[0])
    return None


def _has(body: list[ast.Item] | None, head: str) -> bool:
    return any(isinstance(e, ast.Entry) and e.head == head for e in body or ())
