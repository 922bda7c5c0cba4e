"""The language server's navigation and editing features over an `Index`: definition, references, hover on
ids, completion that knows its slot, document symbols and formatting. Pure functions, tested without a client.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from lsprotocol import types as lsp

from maester.dsl.diagnostics import Span
from maester.dsl.kinds import KINDS, Kind
from maester.dsl.registry import CONTEXTS, PRIMITIVES, STATEMENTS, TRIGGERS

from .lsp_index import Decl, Index, ref_kinds

CARD_SECTIONS = ("house_cards", "westeros_cards", "wildling_cards", "loans", "tides_cards")
_WORDS = re.compile(r'"(?:[^"\\\n]|\\.)*"?|#[^\n]*|[a-z0-9]+(?:-[a-z0-9]+)*-?|\n|[{}()\[\],;:=]|\S')
_EFFECT_HEADS = frozenset({"when", "if", "else", "for", "choose", "may", "option", "let", "condition"})


def utf16(line: str, index: int) -> int:
    return len(line[:index].encode("utf-16-le")) // 2


def span_range(span: Span, text: str) -> lsp.Range:
    """A compiler span (1-based, end exclusive) as an LSP range in `text`."""
    lines = text.split("\n")

    def pos(line: int, column: int) -> lsp.Position:
        row = max(0, line - 1)
        here = lines[row] if row < len(lines) else ""
        return lsp.Position(line=row, character=utf16(here, max(0, column - 1)))

    end_line = span.end_line or span.line
    end_column = span.end_column if span.end_line else span.column
    return lsp.Range(start=pos(span.line, span.column), end=pos(end_line, end_column))


# ---- hover on ids -------------------------------------------------------------------------------------


def _record(bundle: dict | None, decl: Decl) -> dict | None:
    if not bundle:
        return None
    kind = KINDS.get(decl.kind)
    section = kind.collection if kind else ""
    return bundle.get(section, {}).get(decl.id) if section else None


def _area_text(bundle: dict | None, decl: Decl) -> list[str]:
    by_text: dict[str, list[str]] = {}  # the same area on several boards: said once, naming every board
    for board in (bundle or {}).get("boards", {}).values():
        area = board["areas"].get(decl.id)
        if area is None:
            continue
        names = {a: rec["name"] for a, rec in board["areas"].items()}
        icons = []
        if area["castle"] != "none":
            icons.append(area["castle"])
        for icon in ("supply", "power"):
            if area[icon]:
                icons.append(f"{icon} {area[icon]}")
        for key, word in (("home", "home of"), ("garrison", "garrison"), ("neutral_force", "neutral force")):
            if area.get(key) is not None:
                icons.append(f"{word} {area[key]}")
        if area.get("port_of"):
            icons.append(f"port of {names.get(area['port_of'], area['port_of'])} on "
                         f"{names.get(area['port_sea'], area['port_sea'])}")
        neighbours = sorted({b for pair in board["borders"] + board.get("links", []) for b in pair
                             if decl.id in pair and b != decl.id})
        text = (f"{area['kind']} area" + (f" — {', '.join(icons)}" if icons else "")
                + "\n\nNeighbours: " + (", ".join(names.get(n, n) for n in neighbours) or "none"))
        by_text.setdefault(text, []).append(board["name"])
    return [f"**{', '.join(boards)}**: {text}" for text, boards in by_text.items()]


_NOT_FACTS = frozenset({"id", "name", "description", "source"})


def _facts(rec: dict) -> list[str]:
    """A record's plain values that are set (`home the-eyrie`, `players 3`): what its declaration says."""
    out = []
    for key, value in rec.items():
        if key in _NOT_FACTS or value is None or value is False or isinstance(value, dict | list):
            continue
        out.append(key.replace("_", "-") + ("" if value is True else f" {value}"))
    return out


def id_hover(decl: Decl, index: Index, bundle: dict | None) -> str:
    head = f"```\n{decl.kind} {decl.id}" + (f' "{decl.name}"' if decl.name else "") + "\n```"
    parts = [head, f"*{decl.kind}* declared at `{decl.span}`" + (f" in `{decl.parent}`" if decl.parent else "")]
    rec = _record(bundle, decl)
    if rec is not None and KINDS[decl.kind].collection in CARD_SECTIONS:
        from maester.dsl.english import English

        parts.append(English(bundle).card(KINDS[decl.kind].collection, rec))
        numbers = [f"{k} {rec[k]}" for k in ("strength", "swords", "fortifications", "skulls", "copies")
                   if isinstance(rec.get(k), int)]
        if numbers:
            parts.append(" · ".join(numbers))
    elif decl.kind in ("area", "port"):
        parts.extend(_area_text(bundle, decl))
    elif rec is not None:
        if rec.get("description"):
            parts.append(rec["description"])
        facts = _facts(rec)
        if facts:
            parts.append(" · ".join(facts))
    uses = len(index.references(decl))
    parts.append(f"{uses} use{'s' if uses != 1 else ''}")
    return "\n\n".join(parts)


# ---- completion -------------------------------------------------------------------------------------


@dataclass
class Slot:
    """Where the cursor is: the block it is in and what the words before it on the statement are."""

    block: str  # "top", "kind", "effect" or "unknown"
    kind: Kind | None
    words: list[str]  # the statement's words before the cursor (strings and numbers as they are)
    open_list: bool  # inside a [ ... ]
    prefix: str


def slot_at(text: str, line: int, character: int) -> Slot:
    lines = text.split("\n")
    before = "\n".join(lines[:line] + [lines[line][:character] if line < len(lines) else ""])
    stack: list[tuple[str, Kind | None]] = [("top", None)]
    words: list[str] = []
    depth = 0  # open ( and [
    list_open = 0
    for m in _WORDS.finditer(before):
        tok = m.group()
        if tok.startswith("#"):
            continue
        if tok == "\n":
            if depth == 0:
                words = []
            continue
        if tok in ("(", "["):
            depth += 1
            list_open += tok == "["
            words.append(tok)
        elif tok in (")", "]"):
            depth = max(0, depth - 1)
            list_open = max(0, list_open - (tok == "]"))
            words.append(tok)
        elif tok == "{":
            stack.append(_opened(stack[-1], words))
            words, depth, list_open = [], 0, 0
        elif tok == "}":
            if len(stack) > 1:
                stack.pop()
            words = []
        elif tok == ";":
            words = []
        else:
            words.append(tok)
    prefix = ""
    if words and before and not before[-1].isspace() and re.fullmatch(r"[a-z0-9-]+", words[-1]):
        prefix = words.pop()
    block, kind = stack[-1]
    return Slot(block, kind, words, list_open > 0, prefix)


def _opened(current: tuple[str, Kind | None], words: list[str]) -> tuple[str, Kind | None]:
    block, kind = current
    head = next((w for w in words if w not in ("(", ")", "[", "]")), None)
    if block == "top":
        k = KINDS.get(head or "")
        return ("kind", k) if k is not None and k.top_level else ("unknown", None)
    if block == "kind" and kind is not None and head in kind.keys:
        key = kind.keys[head]
        if key.block and key.block.startswith("effect"):
            return ("effect", None)
        if key.block and key.block in KINDS:
            return ("kind", KINDS[key.block])
    if block == "kind" and kind is not None and head == "when":
        return ("effect", None)
    if block == "effect" or head in _EFFECT_HEADS:
        return ("effect", None)
    return ("unknown", None)


def _value_slot(kind: Kind, words: list[str]) -> tuple[str | None, str | None]:
    """(the key the cursor is a value of, its type there) on an entry line, or (None, None) for a new key."""
    head, i = None, 0
    types: tuple[str, ...] = ()
    in_list = False
    for w in words:
        if head is None or (i >= len(types) and not in_list):
            if w in kind.keys:
                head, i, types = w, 0, kind.keys[w].values
                continue
            return None, None
        if w == "[":
            in_list = True
        elif w == "]":
            in_list = False
            i += 1
        elif not in_list and w not in (",",):
            i += 1
    if head is None:
        return None, None
    if in_list:
        return head, types[i] if i < len(types) else None
    if i < len(types):
        return head, types[i]
    return None, None


def _item(label: str, kind: lsp.CompletionItemKind, detail: str, doc: str | None = None) -> lsp.CompletionItem:
    documentation = lsp.MarkupContent(kind=lsp.MarkupKind.Markdown, value=doc) if doc else None
    return lsp.CompletionItem(label=label, kind=kind, detail=detail, documentation=documentation)


def _id_items(decls: list[Decl]) -> list[lsp.CompletionItem]:
    return [_item(d.id, lsp.CompletionItemKind.Reference, f"{d.kind}" + (f" — {d.name}" if d.name else ""))
            for d in sorted(decls, key=lambda d: (d.kind, d.id))]


def _triggers() -> list[lsp.CompletionItem]:
    return [_item(t.name, lsp.CompletionItemKind.Event, f"trigger ({t.context})", t.doc) for t in TRIGGERS.values()]


def complete(text: str, line: int, character: int, index: Index, everything: list[lsp.CompletionItem]
             ) -> list[lsp.CompletionItem]:
    """The completions that fit where the cursor is."""
    s = slot_at(text, line, character)
    if s.block == "top":
        if not s.words:
            return [_item(k.name, lsp.CompletionItemKind.Class, "declaration", k.doc)
                    for k in KINDS.values() if k.top_level]
        return []  # the id and name of a new declaration: nothing to offer
    if s.block == "kind" and s.kind is not None:
        if s.words == ["when"] and s.kind.effect_context:
            return _triggers()
        key, type_ = _value_slot(s.kind, s.words)
        if key is None and s.words:
            return []  # after a word that is not a key: nothing fits
        if key is None:
            abilities = [_item("when", lsp.CompletionItemKind.Keyword, "when TRIGGER { ... }",
                               STATEMENTS["when"].doc if "when" in STATEMENTS else None)] \
                if s.kind.effect_context else []
            return abilities + [_item(k.name, lsp.CompletionItemKind.Property, " ".join([k.name, *k.values]), k.doc)
                                for k in s.kind.keys.values()]
        if type_ is None:
            return []
        kinds = ref_kinds(type_)
        if kinds is not None:
            return _id_items(index.ids_of(kinds))
        bare = type_.removeprefix("list:")
        if bare.startswith("enum:"):
            return [_item(v, lsp.CompletionItemKind.EnumMember, f"{key}: {bare}") for v in bare[5:].split("|")]
        return []
    if s.block == "effect":
        if s.words == ["when"]:
            return _triggers()
        if not s.words:
            return ([_item(st.name, lsp.CompletionItemKind.Keyword, st.syntax, st.doc) for st in STATEMENTS.values()]
                    + [_item(p.name, lsp.CompletionItemKind.Function, "effect", p.doc)
                       for p in PRIMITIVES.values() if p.kind == "effect"])
        variables = sorted({v for c in CONTEXTS.values() for v in c.variables})
        return ([_item(p.name, lsp.CompletionItemKind.Function, "query", p.doc)
                 for p in PRIMITIVES.values() if p.kind != "effect"]
                + [_item(v, lsp.CompletionItemKind.Variable, "variable") for v in variables]
                + _id_items(index.ids_of(None)))
    return everything


# ---- document symbols ---------------------------------------------------------------------------------

_SYMBOL_KINDS = {"board": lsp.SymbolKind.Module, "overlay": lsp.SymbolKind.Module, "area": lsp.SymbolKind.Field,
                 "port": lsp.SymbolKind.Field, "house": lsp.SymbolKind.Class, "setup": lsp.SymbolKind.Namespace,
                 "variant": lsp.SymbolKind.Namespace, "order": lsp.SymbolKind.EnumMember,
                 "card-set": lsp.SymbolKind.Package, "table": lsp.SymbolKind.Array, "track": lsp.SymbolKind.Enum}


def document_symbols(index: Index, label: str, text: str) -> list[lsp.DocumentSymbol]:
    out: list[lsp.DocumentSymbol] = []
    parents: dict[str, lsp.DocumentSymbol] = {}
    for decl in index.by_file.get(label, []):
        symbol = lsp.DocumentSymbol(
            name=decl.id, detail=f"{decl.kind}" + (f" — {decl.name}" if decl.name else ""),
            kind=_SYMBOL_KINDS.get(decl.kind, lsp.SymbolKind.Object),
            range=span_range(decl.span, text), selection_range=span_range(decl.id_span, text), children=[])
        if decl.parent is not None and decl.parent in parents:
            parents[decl.parent].children.append(symbol)  # an area or port inside its board or overlay
        else:
            out.append(symbol)
            if decl.parent is None:
                parents[decl.id] = symbol
    return out
