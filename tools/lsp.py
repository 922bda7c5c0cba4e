"""The maester language server: the compiler's diagnostics, navigation, hover, completion and formatting.

`maester lsp` runs it on stdin/stdout. While a `.mst` file is edited, the server compiles the
document's *current text* together with the rest of its content — the bundled content, plus the
document's own pack (its folder tree) when it lies outside the bundled content — and publishes every
error, and every lint warning of a clean compile, located in that document. Other open documents'
unsaved texts are used too, and their diagnostics are refreshed by the same compile. The compile is
incremental: only changed declarations are parsed again (dsl/parse_cache.py, dsl/parse_chunks.py), and an edit
that changes no declaration reuses the last compile's checks (dsl/incremental.py); the diagnostics are always
those of a compile from scratch.

Go-to-definition, references, hover on ids and document symbols read an index of the ids
(tools/lsp_index.py); completion and symbols are in tools/lsp_features.py; formatting is `maester fmt`'s.
The logic is in pure functions (`diagnostics_for`, `definition`, `references`, `hover_at`,
`completion_at`, `symbols`, `formatting`), testable without a client.
"""

from __future__ import annotations

import asyncio
import gc
import logging
import os
import re
import threading
from collections import OrderedDict
from collections.abc import Mapping
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from functools import cache, lru_cache
from pathlib import Path

from lsprotocol import types as lsp

from maester.dsl.compile import CONTENT_SUFFIX, Source, _label, default_content_dir, find_sources
from maester.dsl.diagnostics import Diagnostic, Diagnostics, Span
from maester.dsl.files import name_problem
from maester.dsl.fmt import FormatError, format_text
from maester.dsl.incremental import Incremental
from maester.dsl.kinds import KINDS
from maester.dsl.registry import CONTEXTS, ENUM_VALUES, PRIMITIVES, STATEMENTS, TRIGGERS, Primitive
from maester.dsl.version import __version__

from .lsp_features import complete, document_symbols, id_hover, span_range
from .lsp_index import Index
from .lsp_index import build as build_index

log = logging.getLogger("maester.lsp")

SOURCE = "maester"
DEBOUNCE_SECONDS = 0.01  # a compile takes some 50 ms now: wait only for the rest of a burst of keystrokes
_WORD = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)*")  # the grammar's NAME (and numbers), kebab-case
_TOKEN = re.compile(r'[A-Za-z0-9_]+(?:-[A-Za-z0-9_]+)*|"(?:[^"\\]|\\.)*"?|\S')


# ---- which content a document belongs to --------------------------------------------------------


def _is_under(path: Path, folder: Path) -> bool:
    return path == folder or folder in path.parents


def _has_content(folder: Path) -> bool:
    try:
        return any(f.suffix == CONTENT_SUFFIX and f.is_file() for f in folder.iterdir())
    except OSError:
        return False


def _stop(folder: Path) -> bool:
    """A folder the search for a pack never goes above: a project root, the home folder, the root."""
    return (folder == Path.home().resolve() or folder.parent == folder
            or (folder / ".git").exists() or (folder / "pyproject.toml").exists())


def pack_root(path: Path) -> Path:
    """The folder of the pack a content file outside the bundled content belongs to.

    It is the document's folder, widened upwards while the folder above also holds `.mst` files
    directly (`pack/sets.mst` beside `pack/cards/x.mst`). The walk stops at a project root (a folder
    with `.git` or `pyproject.toml`), the home folder and the file system root.
    """
    folder = path.resolve().parent
    while not _stop(folder) and _has_content(folder.parent):
        folder = folder.parent
    return folder


@cache
def _bundled_files(bundled: Path) -> tuple[Path, ...]:
    return tuple(f.relative_to(bundled) for f in find_sources([bundled]))


def content_copy_root(path: Path, bundled: Path) -> Path | None:
    """The folder above `path` laid out like the bundled content (another checkout of the content), if any."""
    files = _bundled_files(bundled)
    folder = path.resolve().parent
    while files:
        if sum((folder / f).is_file() for f in files) * 2 >= len(files):
            return folder
        if _stop(folder):
            return None
        folder = folder.parent
    return None


# A pack is small: a folder tree with more content files than this, or more entries to look at, is not taken as
# the pack of a loose file in it (a downloads folder, a folder of generated files): the file is compiled alone
# with the bundled content, and what is scanned for each compile stays bounded.
MAX_PACK_FILES = 200
MAX_PACK_ENTRIES = 5000


def pack_is_small(folder: Path) -> bool:
    """Does the folder tree hold at most MAX_PACK_FILES content files among at most MAX_PACK_ENTRIES entries?
    (The walk stops as soon as either bound is passed.)"""
    files = entries = 0
    for _dirpath, dirnames, filenames in os.walk(folder):
        entries += len(dirnames) + len(filenames)
        files += sum(1 for f in filenames if f.endswith(CONTENT_SUFFIX))
        if files > MAX_PACK_FILES or entries > MAX_PACK_ENTRIES:
            return False
    return True


def content_roots(path: Path) -> list[Path]:
    """What to compile with the document: the bundled content, plus its pack when it is not part of it.

    The order matches `maester check --pack PACK`, so files get the labels the command line shows.
    A file of another copy of the content itself (a repository checkout while maester is installed
    from elsewhere) is compiled with that copy instead of the bundled content. A loose file in a folder tree
    too big to be a pack (MAX_PACK_FILES, MAX_PACK_ENTRIES) is compiled alone with the bundled content.
    """
    bundled = default_content_dir().resolve()
    if _is_under(path.resolve(), bundled):
        return [bundled]
    copy = content_copy_root(path, bundled)
    if copy is not None:
        return [copy]
    pack = pack_root(path)
    return [bundled, pack] if pack_is_small(pack) else [bundled, path.resolve()]


# ---- compiling a document with its content ------------------------------------------------------


@dataclass
class Analysis:
    """One compile: every diagnostic of the run, and the label and text of each compiled file."""

    labels: dict[Path, str] = field(default_factory=dict)  # resolved file path → label in diagnostics
    texts: dict[str, str] = field(default_factory=dict)  # label → the text that was compiled
    items: list[Diagnostic] = field(default_factory=list)
    bundle: dict | None = None  # the bundle, when the compile succeeded

    def path_of(self, label: str) -> Path | None:
        return next((p for p, lab in self.labels.items() if lab == label), None)

    def for_file(self, path: Path) -> list[lsp.Diagnostic]:
        label = self.labels.get(path.resolve())
        if label is None:
            return []
        text = self.texts.get(label, "")
        return [to_lsp(d, text) for d in self.items if d.span is not None and d.span.file == label]


@lru_cache(maxsize=4096)
def _placed(f: Path, roots: tuple[Path, ...]) -> tuple[Path, str]:
    """A content file's resolved path and its label (remembered: resolving walks every folder of the path, and
    a compile after each edit would resolve every file of the content again)."""
    return f.resolve(), _label(f, list(roots))


def _files(roots: tuple[Path, ...]) -> list[tuple[Path, Path, str]]:
    """`find_sources(roots)` (listed again at each compile: a file may have been added), each file with its
    resolved path and label."""
    found: list[Path] = []
    for root in roots:
        found.extend(sorted(root.rglob(f"*{CONTENT_SUFFIX}")) if root.is_dir() else [root])
    seen: set[Path] = set()
    out = []
    for f in found:
        key, label = _placed(f, roots)
        if key not in seen:
            seen.add(key)
            out.append((f, key, label))
    return out


def gather(path: Path, text: str, buffers: Mapping[Path, str] | None = None) -> tuple[Analysis, list[Source]]:
    """The files compiled with `path` (its current `text`; unsaved `buffers` win over disk), not compiled yet."""
    path = path.resolve()
    overrides = {Path(p).resolve(): clean_text(t) for p, t in (buffers or {}).items() if p is not None}
    text = overrides[path] = clean_text(text)
    roots = content_roots(path)
    result = Analysis()
    sources: list[Source] = []
    for f, key, label in _files(tuple(roots)):
        if key in overrides:
            body = overrides[key]
        else:
            try:
                body = f.read_text(encoding="utf-8")
            except (OSError, UnicodeDecodeError):
                continue  # an unreadable neighbour: `maester check` reports it; not this document's problem
        result.labels[key] = label
        sources.append(Source(label, body))
    if path not in result.labels:  # a new file, not saved yet
        label = _label(path, roots)
        result.labels[path] = label
        sources.append(Source(label, text))
    result.texts = {s.label: s.text for s in sources}
    return result, sources


# One incremental compiler per content (the bundled content, each pack): an edit that changes no declaration
# reuses the checks of the last compile of that content (dsl/incremental.py).
_COMPILERS: OrderedDict[tuple[str, ...], Incremental] = OrderedDict()
_KEEP_COMPILERS = 4
_COMPILERS_LOCK = threading.Lock()


def _compiler_for(sources: list[Source]) -> Incremental:
    key = tuple(s.label for s in sources)
    with _COMPILERS_LOCK:
        found = _COMPILERS.get(key)
        if found is None:
            found = _COMPILERS[key] = Incremental()
            while len(_COMPILERS) > _KEEP_COMPILERS:
                _COMPILERS.popitem(last=False)
        _COMPILERS.move_to_end(key)
        return found


def analyse(path: Path, text: str, buffers: Mapping[Path, str] | None = None) -> Analysis:
    """Compile `text` as the file `path`, with the rest of its content (unsaved `buffers` win over disk).

    Incremental: every file whose text was parsed before comes from the parse cache (a large file's unchanged
    declarations too), and an edit that changes no declaration reuses the last compile's checks of the content
    (dsl/incremental.py); the diagnostics are always those of a compile from scratch.
    """
    result, sources = gather(path, text, buffers)
    found = _compiler_for(sources).compile(sources)
    result.bundle = found.bundle
    result.items = list(found.diags)
    return result


def settle() -> None:
    """After the first diagnostics of opened documents, while idle: load the parser (a first compile whose files all
    came from the parse cache never loaded Lark, and the first edit would), then set the content's syntax trees and
    caches, which live as long as the server, apart from the garbage collector (`gc.freeze`): a full collection
    walking them all took half a second in the middle of an edit."""
    from maester.dsl.parse import parser

    parser()
    gc.freeze()


def diagnostics_for(path: Path, text: str, buffers: Mapping[Path, str] | None = None) -> list[lsp.Diagnostic]:
    """The LSP diagnostics of the document `path` whose current (maybe unsaved) text is `text`."""
    return analyse(path, text, buffers).for_file(path)


# ---- the content as it is now: trees and the index of ids ---------------------------------------------


class Navigator:
    """The index of the content a document belongs to, rebuilt only when a file's text changed.

    A file that does not parse right now keeps the trees of its last good version, so navigation goes on
    working while a line is half typed.
    """

    def __init__(self) -> None:
        self.good_trees: dict[str, tuple] = {}
        self.bundle: dict | None = None  # the last bundle that compiled (for hovers)
        self._last: tuple[tuple, tuple[Analysis, Index]] | None = None
        self._tried_for: int | None = None  # the snapshot a failed compile for hovers was tried on

    def snapshot(self, path: Path, text: str, buffers: Mapping[Path, str] | None = None) -> tuple[Analysis, Index]:
        from maester.dsl.parse_cache import SHARED

        result, sources = gather(path, text, buffers)
        key = tuple((s.label, s.text) for s in sources)
        if self._last is not None and self._last[0] == key:
            return self._last[1]
        trees = {}
        for s in sources:
            items = SHARED.parse(s.text, s.label, Diagnostics())
            if items is None:
                items = self.good_trees.get(s.label)
            else:
                self.good_trees[s.label] = items
            if items:
                trees[s.label] = items
        found = (result, build_index(trees))
        self._last = (key, found)
        return found

    def bundle_for(self, path: Path, text: str, buffers: Mapping[Path, str] | None = None) -> dict | None:
        """The last bundle that compiled; compiled here (once per version of the content) if there is none yet."""
        if self.bundle is None and self._tried_for != id(self._last):
            self._tried_for = id(self._last)
            self.bundle = analyse(path, text, buffers).bundle
        return self.bundle


def _position(text: str, line: int, character: int) -> tuple[int, int]:
    """An LSP position as the compiler's 1-based line and column."""
    lines = text.split("\n")
    here = lines[line] if 0 <= line < len(lines) else ""
    return line + 1, _python_index(here, character) + 1


def _location(result: Analysis, span: Span) -> lsp.Location | None:
    path = result.path_of(span.file)
    if path is None:
        return None
    return lsp.Location(uri=path.as_uri(), range=span_range(span, result.texts.get(span.file, "")))


def definition(nav: Navigator, path: Path, text: str, line: int, character: int,
               buffers: Mapping[Path, str] | None = None) -> list[lsp.Location]:
    result, index = nav.snapshot(path, text, buffers)
    label = result.labels.get(path.resolve())
    found = index.at(label, *_position(text, line, character)) if label else None
    if not found:
        return []
    return [loc for d in found[0] if (loc := _location(result, d.id_span)) is not None]


def references(nav: Navigator, path: Path, text: str, line: int, character: int, include_declaration: bool = True,
               buffers: Mapping[Path, str] | None = None) -> list[lsp.Location]:
    result, index = nav.snapshot(path, text, buffers)
    label = result.labels.get(path.resolve())
    found = index.at(label, *_position(text, line, character)) if label else None
    if not found:
        return []
    spans: list[Span] = []
    for d in found[0]:
        if include_declaration:
            spans.append(d.id_span)
        spans.extend(index.references(d))
    spans = sorted(set(spans), key=lambda s: (s.file, s.line, s.column))
    return [loc for s in spans if (loc := _location(result, s)) is not None]


def hover_at(nav: Navigator, path: Path, text: str, line: int, character: int,
             buffers: Mapping[Path, str] | None = None) -> lsp.Hover | None:
    """Hover on an id (what it declares: a card's text and numbers, an area's icons and neighbours), else on a
    word of the language."""
    result, index = nav.snapshot(path, text, buffers)
    label = result.labels.get(path.resolve())
    found = index.at(label, *_position(text, line, character)) if label else None
    language = hover(text, line, character)
    if not found:
        return language
    bundle = nav.bundle_for(path, text, buffers)
    parts = [id_hover(d, index, bundle) for d in found[0]]
    if language is not None:
        parts.append(language.contents.value)
    return lsp.Hover(contents=lsp.MarkupContent(kind=lsp.MarkupKind.Markdown, value="\n\n---\n\n".join(parts)),
                     range=span_range(found[1], text))


def completion_at(nav: Navigator, path: Path, text: str, line: int, character: int,
                  buffers: Mapping[Path, str] | None = None) -> list[lsp.CompletionItem]:
    _result, index = nav.snapshot(path, text, buffers)
    return complete(text, line, character, index, _all_items())


def symbols(nav: Navigator, path: Path, text: str, buffers: Mapping[Path, str] | None = None
            ) -> list[lsp.DocumentSymbol]:
    result, index = nav.snapshot(path, text, buffers)
    label = result.labels.get(path.resolve())
    return document_symbols(index, label, text) if label else []


def formatting(text: str, label: str = "<document>") -> list[lsp.TextEdit] | None:
    """The whole document in `maester fmt`'s layout; None when it does not parse (nothing to change)."""
    try:
        formatted = format_text(text, label)
    except FormatError:
        return None
    if formatted == text:
        return []
    lines = text.split("\n")
    end = lsp.Position(line=len(lines) - 1, character=_utf16(lines[-1], len(lines[-1])))
    return [lsp.TextEdit(range=lsp.Range(start=lsp.Position(line=0, character=0), end=end), new_text=formatted)]


# ---- positions ----------------------------------------------------------------------------------


def _utf16(line: str, index: int) -> int:
    """An LSP character offset (UTF-16 code units) of the Python index `index` in `line` (a lone surrogate an
    editor sent is one code unit, as the editor counts it)."""
    return len(line[:index].encode("utf-16-le", "surrogatepass")) // 2 + max(0, index - len(line))


def _python_index(line: str, character: int) -> int:
    """The Python index of an LSP character offset (UTF-16 code units) in `line`."""
    units = 0
    for i, ch in enumerate(line):
        if units >= character:
            return i
        units += 2 if ord(ch) > 0xFFFF else 1
    return len(line)


def to_lsp(d: Diagnostic, text: str) -> lsp.Diagnostic:
    """A compiler diagnostic as an LSP one: 0-based positions, at least one character wide."""
    lines = text.split("\n")  # the parser's line numbering: '\n' ends a line
    span = d.span
    line = max(0, (span.line if span else 1) - 1)
    col = max(0, (span.column if span else 1) - 1)
    here = lines[line] if line < len(lines) else ""
    if span and span.end_line and (span.end_line, span.end_column) > (span.line, span.column):
        end_line, end_col = span.end_line - 1, max(0, span.end_column - 1)
    else:  # no end (lint warnings, file-level problems): the word or token at the start
        m = _TOKEN.match(here, col) if col < len(here) else None
        end_line, end_col = line, (m.end() if m else col + 1)
    there = lines[end_line] if end_line < len(lines) else ""
    message = d.message + (f"\nhelp: {d.hint}" if d.hint else "")
    return lsp.Diagnostic(
        range=lsp.Range(start=lsp.Position(line=line, character=_utf16(here, col)),
                        end=lsp.Position(line=end_line, character=_utf16(there, end_col))),
        message=message,
        severity={"error": lsp.DiagnosticSeverity.Error, "note": lsp.DiagnosticSeverity.Information}.get(
            d.severity, lsp.DiagnosticSeverity.Warning),
        code=d.code,
        source=SOURCE,
    )


# ---- hover and completion -----------------------------------------------------------------------


def signature(p: Primitive) -> str:
    params = ", ".join(f"{x.name}{'' if x.required else '?'}: {x.type}" for x in p.params)
    return f"{p.name}({params})" + (f" → {p.returns}" if p.returns else "")


def _primitive_doc(p: Primitive) -> str:
    out = [f"```\n{signature(p)}\n```", f"*{'effect' if p.kind == 'effect' else 'query'}* — {p.doc or p.english}"]
    params = []
    for x in p.params:
        default = "" if x.default is None else f" (default `{x.default}`)"
        params.append(f"- `{x.name}`: {x.type}{'' if x.required else ', optional'}{default}"
                      f"{' — ' + x.doc if x.doc else ''}")
    if params:
        out.append("\n".join(params))
    if p.windows:
        out.append("Only in: " + ", ".join(f"`{w}`" for w in p.windows))
    if p.rules:
        out.append("Rules: " + ", ".join(p.rules))
    return "\n\n".join(out)


def _key_docs(word: str) -> list[str]:
    by_doc: dict[tuple, list[str]] = {}
    for kind in KINDS.values():
        key = kind.keys.get(word)
        if key is not None:
            by_doc.setdefault((key.values, key.doc), []).append(kind.name)
    out = []
    for (values, doc), kinds in by_doc.items():
        shape = " ".join([word, *values])
        out.append(f"```\n{shape}\n```\n\n*key of {', '.join(kinds)}*" + (f" — {doc}" if doc else ""))
    return out


def hover_text(word: str) -> str | None:
    """What a word of the language is, in Markdown; None for a word the language does not define."""
    parts: list[str] = []
    if word in PRIMITIVES:
        parts.append(_primitive_doc(PRIMITIVES[word]))
    if word in STATEMENTS:
        s = STATEMENTS[word]
        parts.append(f"```\n{s.syntax}\n```\n\n*statement* — {s.doc}\n\n```\n{s.example}\n```")
    if word in TRIGGERS:
        t = TRIGGERS[word]
        rules = f"\n\nRules: {', '.join(t.rules)}" if t.rules else ""
        parts.append(f"```\nwhen {t.name} {{ ... }}\n```\n\n*trigger ({t.context})* — {t.english}. {t.doc}{rules}")
    if word in KINDS:
        k = KINDS[word]
        head = f'{k.name} ID "Name" {{ ... }}' if k.has_id else f"{k.name} {{ ... }}"
        where = "declaration" if k.top_level else "nested declaration"
        keys = ", ".join(f"`{n}`" for n in k.keys)
        parts.append(f"```\n{head}\n```\n\n*{where}* — {k.doc}" + (f"\n\nKeys: {keys}" if keys else ""))
    if not parts:
        parts.extend(_key_docs(word))
    names = {c.name: c.variables[word] for c in CONTEXTS.values() if word in c.variables}
    if names:
        parts.append(f"`{word}`: *name bound in* " + ", ".join(f"{c} effects ({t})" for c, t in names.items()))
    if word in ENUM_VALUES:
        parts.append(f"`{word}`: *a value of type* {ENUM_VALUES[word]}")
    return "\n\n---\n\n".join(parts) if parts else None


def word_at(text: str, line: int, character: int) -> tuple[str, lsp.Range] | None:
    """The kebab-case word under an LSP position, with its range."""
    lines = text.split("\n")
    if not 0 <= line < len(lines):
        return None
    here = lines[line]
    index = _python_index(here, character)
    for m in _WORD.finditer(here):
        if m.start() <= index <= m.end():
            rng = lsp.Range(start=lsp.Position(line=line, character=_utf16(here, m.start())),
                            end=lsp.Position(line=line, character=_utf16(here, m.end())))
            return m.group(), rng
    return None


def hover(text: str, line: int, character: int) -> lsp.Hover | None:
    found = word_at(text, line, character)
    if found is None:
        return None
    word, rng = found
    doc = hover_text(word)
    if doc is None:
        return None
    return lsp.Hover(contents=lsp.MarkupContent(kind=lsp.MarkupKind.Markdown, value=doc), range=rng)


@cache
def _all_items() -> list[lsp.CompletionItem]:
    return completion_items()


def completion_items() -> list[lsp.CompletionItem]:
    """Every word worth completing: primitives, triggers, declaration kinds, statements and keys."""
    items: list[lsp.CompletionItem] = []
    seen: set[str] = set()

    def add(label: str, kind: lsp.CompletionItemKind, detail: str, doc: str | None) -> None:
        if label in seen:
            return
        seen.add(label)
        documentation = lsp.MarkupContent(kind=lsp.MarkupKind.Markdown, value=doc) if doc else None
        items.append(lsp.CompletionItem(label=label, kind=kind, detail=detail, documentation=documentation))

    for p in PRIMITIVES.values():
        add(p.name, lsp.CompletionItemKind.Function, signature(p), hover_text(p.name))
    for t in TRIGGERS.values():
        add(t.name, lsp.CompletionItemKind.Event, f"trigger ({t.context})", hover_text(t.name))
    for k in KINDS.values():
        if k.top_level:
            add(k.name, lsp.CompletionItemKind.Class, "declaration", hover_text(k.name))
    for s in STATEMENTS.values():
        add(s.name, lsp.CompletionItemKind.Keyword, s.syntax, hover_text(s.name))
    for k in KINDS.values():
        for key in k.keys.values():
            add(key.name, lsp.CompletionItemKind.Property, "key", "\n\n".join(_key_docs(key.name)))
    return items


# ---- the server ---------------------------------------------------------------------------------


def _server_class():
    try:  # pygls 2
        from pygls.lsp.server import LanguageServer
    except ImportError:  # pygls 1.x
        from pygls.server import LanguageServer
    return LanguageServer


def _protocol_class():
    """pygls's protocol, answering every request: a request whose params do not parse gets InvalidParams (pygls
    only logs it, and the client waits for ever)."""
    from pygls.exceptions import JsonRpcException, JsonRpcInvalidParams
    from pygls.protocol import LanguageServerProtocol

    class Protocol(LanguageServerProtocol):
        def structure_message(self, data):
            try:
                return super().structure_message(data)
            except JsonRpcException as e:
                if isinstance(data, dict) and "method" in data and isinstance(data.get("id"), int | str):
                    answer = e if isinstance(e, JsonRpcInvalidParams) else JsonRpcInvalidParams()
                    self._send_response(data["id"], error=answer.to_response_error())
                raise

    return Protocol


def clean_text(text: str) -> str:
    """A document's text as the compiler can take it: a lone surrogate (which no file can hold) becomes U+FFFD,
    one character for one, so every position stays where the editor has it."""
    try:
        text.encode("utf-8")
        return text
    except UnicodeEncodeError:
        return "".join("\ufffd" if 0xD800 <= ord(ch) <= 0xDFFF else ch for ch in text)


def _publish(server, uri: str, diagnostics: list[lsp.Diagnostic], version: int | None) -> None:
    if hasattr(server, "text_document_publish_diagnostics"):  # pygls 2
        server.text_document_publish_diagnostics(
            lsp.PublishDiagnosticsParams(uri=uri, diagnostics=diagnostics, version=version))
    else:  # pygls 1.x
        server.publish_diagnostics(uri, diagnostics, version)


def _doc_path(doc) -> Path | None:
    """The file of a content document, or None (not a file, not content, or a path no file can have: a NUL
    byte, a lone surrogate, a name too long). A document without a path is served alone and never breaks the others."""
    uri = getattr(doc, "uri", "") or ""
    path = getattr(doc, "path", None)
    if not uri.startswith("file:") or not path or not str(path).endswith(CONTENT_SUFFIX):
        return None
    try:
        str(path).encode("utf-8")
        if "\0" in str(path) or name_problem(path):  # (a name over NAME_MAX: every look at its folder fails)
            return None
        return Path(path).resolve()
    except (OSError, ValueError, RuntimeError):
        return None


def create_server():
    """A fresh language server with maester's features registered."""
    server = _server_class()("maester", __version__, protocol_cls=_protocol_class())
    from maester.dsl.parse_cache import SHARED

    SHARED.write_disk = False  # unsaved versions of a file are kept in memory only, never in the user's cache
    SHARED.keep_pieces = True  # a large file's first edit parses only the declaration it touches
    executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="maester-compile")  # one compile at a time
    dirty: set[str] = set()  # documents whose diagnostics are out of date
    unsettled: set[str] = set()  # documents just opened: `settle` once their diagnostics are out
    nav = Navigator()
    state: dict = {"task": None, "compiling": False}

    def open_documents() -> dict[str, object]:
        return {uri: d for uri, d in server.workspace.text_documents.items() if _doc_path(d) is not None}

    async def refresh(delay: float) -> None:
        await asyncio.sleep(delay)
        loop = asyncio.get_running_loop()
        while dirty:
            docs = open_documents()
            uri = next(iter(dirty))
            if uri not in docs:  # closed, or not a content file
                dirty.discard(uri)
                continue
            path = _doc_path(docs[uri])
            buffers = {_doc_path(d): d.source for d in docs.values()}
            versions = {u: d.version for u, d in docs.items()}
            state["compiling"] = True
            try:
                result = await loop.run_in_executor(executor, analyse, path, buffers[path], buffers)
            except Exception as e:  # a compiler bug must not take the server down
                log.exception("maester could not compile %s", path)
                dirty.discard(uri)
                _publish(server, uri, [lsp.Diagnostic(
                    range=lsp.Range(start=lsp.Position(line=0, character=0), end=lsp.Position(line=0, character=1)),
                    message=f"maester failed to compile this file: {e!r}", severity=lsp.DiagnosticSeverity.Error,
                    code="internal-error", source=SOURCE)], versions[uri])
                continue
            finally:
                state["compiling"] = False
            if result.bundle is not None:
                nav.bundle = result.bundle  # hovers show the content as last compiled
            for u, d in docs.items():  # one compile refreshes every open document of the same content
                d_path = _doc_path(d)
                if d_path.resolve() not in result.labels:
                    continue
                current = server.workspace.text_documents.get(u)
                if current is None:
                    dirty.discard(u)
                elif current.version == versions[u]:
                    dirty.discard(u)
                    _publish(server, u, result.for_file(d_path), versions[u])
                else:
                    dirty.add(u)  # edited while compiling: compile again
            if dirty:
                await asyncio.sleep(delay)
        if unsettled:  # idle now, after the first diagnostics of documents just opened
            unsettled.clear()
            executor.submit(settle)

    def schedule(uri: str, delay: float) -> None:
        dirty.add(uri)
        task = state["task"]
        if task is not None and not task.done():
            if state["compiling"]:
                return  # the running refresh sees the new version and compiles again
            task.cancel()  # still waiting: restart the debounce
        state["task"] = asyncio.get_running_loop().create_task(refresh(delay))

    @server.feature(lsp.TEXT_DOCUMENT_DID_OPEN)
    def did_open(ls, params: lsp.DidOpenTextDocumentParams) -> None:
        unsettled.add(params.text_document.uri)
        schedule(params.text_document.uri, 0)

    @server.feature(lsp.TEXT_DOCUMENT_DID_CHANGE)
    def did_change(ls, params: lsp.DidChangeTextDocumentParams) -> None:
        schedule(params.text_document.uri, DEBOUNCE_SECONDS)

    @server.feature(lsp.TEXT_DOCUMENT_DID_SAVE)
    def did_save(ls, params: lsp.DidSaveTextDocumentParams) -> None:
        schedule(params.text_document.uri, 0)

    @server.feature(lsp.TEXT_DOCUMENT_DID_CLOSE)
    def did_close(ls, params: lsp.DidCloseTextDocumentParams) -> None:
        dirty.discard(params.text_document.uri)
        _publish(server, params.text_document.uri, [], None)

    def current(uri: str) -> tuple[Path | None, str, dict]:
        doc = server.workspace.get_text_document(uri)
        try:  # a document never opened is read from its file, which may be missing or no file at all
            text = doc.source
        except (OSError, ValueError) as e:
            from pygls.exceptions import JsonRpcInvalidParams

            raise JsonRpcInvalidParams(f"{str(uri)[:200]} is not open and cannot be read: "
                                       f"{getattr(e, 'strerror', None) or e}") from None
        buffers = {_doc_path(d): d.source for d in open_documents().values()}
        return _doc_path(doc), text, buffers

    @server.feature(lsp.TEXT_DOCUMENT_HOVER)
    def on_hover(ls, params: lsp.HoverParams) -> lsp.Hover | None:
        path, text, buffers = current(params.text_document.uri)
        if path is None:
            return hover(text, params.position.line, params.position.character)
        return hover_at(nav, path, text, params.position.line, params.position.character, buffers)

    @server.feature(lsp.TEXT_DOCUMENT_COMPLETION, lsp.CompletionOptions(trigger_characters=["-", "[", "("]))
    def on_completion(ls, params: lsp.CompletionParams) -> lsp.CompletionList:
        path, text, buffers = current(params.text_document.uri)
        if path is None:
            return lsp.CompletionList(is_incomplete=False, items=_all_items())
        items = completion_at(nav, path, text, params.position.line, params.position.character, buffers)
        return lsp.CompletionList(is_incomplete=False, items=items)

    @server.feature(lsp.TEXT_DOCUMENT_DEFINITION)
    def on_definition(ls, params: lsp.DefinitionParams) -> list[lsp.Location]:
        path, text, buffers = current(params.text_document.uri)
        if path is None:
            return []
        return definition(nav, path, text, params.position.line, params.position.character, buffers)

    @server.feature(lsp.TEXT_DOCUMENT_REFERENCES)
    def on_references(ls, params: lsp.ReferenceParams) -> list[lsp.Location]:
        path, text, buffers = current(params.text_document.uri)
        if path is None:
            return []
        return references(nav, path, text, params.position.line, params.position.character,
                          params.context.include_declaration, buffers)

    @server.feature(lsp.TEXT_DOCUMENT_DOCUMENT_SYMBOL)
    def on_symbols(ls, params: lsp.DocumentSymbolParams) -> list[lsp.DocumentSymbol]:
        path, text, buffers = current(params.text_document.uri)
        return symbols(nav, path, text, buffers) if path is not None else []

    @server.feature(lsp.TEXT_DOCUMENT_FORMATTING)
    def on_formatting(ls, params: lsp.DocumentFormattingParams) -> list[lsp.TextEdit] | None:
        path, text, _buffers = current(params.text_document.uri)
        return formatting(text, str(path) if path else "<document>")

    return server


class _FirstLine(logging.Formatter):
    """pygls logs a whole traceback (in the message itself) for every message it cannot parse: a client that
    sends many and does not read stderr filled the pipe, and the server blocked, answering nothing more."""

    def format(self, record: logging.LogRecord) -> str:
        return f"{record.levelname.lower()}: {record.getMessage().splitlines()[0][:300]}"


def quiet_logs() -> None:
    """One short line on stderr per problem pygls reports, never a traceback."""
    handler = logging.StreamHandler()
    handler.setFormatter(_FirstLine())
    pygls_log = logging.getLogger("pygls")
    pygls_log.handlers[:] = [handler]
    pygls_log.propagate = False


def start(stdin=None, stdout=None) -> None:
    """Serve on stdin/stdout until the client says `exit`."""
    quiet_logs()
    create_server().start_io(stdin, stdout)

