"""The canonical layout of content files (`maester fmt`, and the language server's formatting).

What the formatter decides:

- indentation: two spaces per open `{`; a line starting with `}` goes back one level. A line continuing
  an open `(` or `[` lines up just after that bracket (or, when the bracket ends its line, four spaces
  deeper than the line that opened it); a line starting with the closing bracket lines up with that line;
- spacing inside a line: one space between words, none inside brackets or before `,` `:` `;`, one after
  them; a space around binary operators and `=`, none after a sign (`-1`, `add-strength(you, -1)`); no space
  between a primitive and its `(`; `{ a }` and `{ }` with one space inside;
- comments are kept word for word: a comment on its own line is indented like the code around it; a comment
  after code stays on its line, at least two spaces after the code;
- blank lines: at most one in a row, none at the start or end of a file, none just inside a `{ ... }`;
  no trailing spaces; `\n` line ends; one newline at the end.

What the author keeps: where lines break (the formatter never joins or splits lines, so several entries
on one line stay there), and a gap of two or more spaces between two words or before a `{`, `[` or a
comment (the content lines up tables of areas, starts and rows in columns, and separates entries that
share a line with two spaces).

A file that does not parse is not formatted (its syntax errors are reported instead), and every result is
parsed again and compared with the original's syntax tree: formatting can never change what a file means.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, fields, is_dataclass

from .diagnostics import CompileError, Diagnostics, Span

INDENT = "  "
CONTINUATION = "    "

_TOKEN = re.compile(r"""
    (?P<ws>[ \t\f]+)
  | (?P<nl>\r?\n)
  | (?P<comment>\#[^\n]*)
  | (?P<string>"(?:[^"\\\n]|\\.)*")
  | (?P<name>[a-z][a-z0-9]*(?:-[a-z0-9]+)*)
  | (?P<int>[0-9]+)
  | (?P<op>==|!=|<=|>=|[<>=+\-*])
  | (?P<punct>[{}()\[\],:;])
  | (?P<other>.)
""", re.VERBOSE)

# The grammar's keywords: a `(` after them opens an expression, not a call; a statement starting with one
# holds expressions (where `a - 1` is a subtraction), not entry values (where `-1` is a number).
KEYWORDS = frozenset({"when", "if", "else", "for", "in", "choose", "by", "count", "distinct", "may", "pay",
                      "let", "option", "or", "and", "not", "true", "false", "condition"})
_CALLABLE = frozenset({"count"})  # a keyword of `choose ... count N` that is also a query: `count(...)`
_OPENERS = {"(": ")", "[": "]"}
_NO_SPACE_BEFORE = frozenset({",", ";", ")", "]", ":"})
_NO_SPACE_AFTER = frozenset({"(", "["})
_NARROW_AFTER = frozenset({",", ";", ":", "(", "["})  # a wide gap after these is never alignment


class FormatError(CompileError):
    """A file that cannot be formatted: it does not parse (the diagnostics say where)."""


@dataclass
class _Tok:
    kind: str
    text: str
    gap: int  # spaces before it on its line in the original (tabs count as one)


@dataclass
class _Line:
    tokens: list[_Tok]
    comment: str | None  # a trailing (or whole-line) comment
    comment_gap: int


def _lines(text: str) -> list[_Line]:
    lines: list[_Line] = []
    tokens: list[_Tok] = []
    comment, comment_gap, gap = None, 0, 0
    for m in _TOKEN.finditer(text):
        kind = m.lastgroup
        value = m.group()
        if kind == "ws":
            gap = len(value)
            continue
        if kind == "nl":
            lines.append(_Line(tokens, comment, comment_gap))
            tokens, comment, comment_gap, gap = [], None, 0, 0
            continue
        if kind == "comment":
            comment, comment_gap = value.rstrip(), gap
        else:
            tokens.append(_Tok(kind, value, gap))
        gap = 0
    if tokens or comment is not None:
        lines.append(_Line(tokens, comment, comment_gap))
    return lines


def _is_operand_end(tok: _Tok) -> bool:
    return tok.kind in ("int", "string") or tok.text in (")", "]") or (
        tok.kind == "name" and tok.text not in KEYWORDS) or tok.text in ("true", "false")


class _Layout:
    """Lays out the lines one after another, carrying the open braces and brackets across lines."""

    def __init__(self) -> None:
        self.depth = 0  # open `{`
        self.brackets: list[tuple[int, int]] = []  # open ( and [: (column after it, indent of its line)
        self.opener_last: list[bool] = []  # whether each open bracket ended its line

    def indent(self, line: _Line) -> str:
        first = line.tokens[0].text if line.tokens else None
        if self.brackets:
            column, line_indent = self.brackets[-1]
            if first in (")", "]"):
                return " " * line_indent
            if self.opener_last[-1]:
                return " " * line_indent + CONTINUATION
            return " " * column
        level = self.depth - (1 if first == "}" else 0)
        return INDENT * max(0, level)

    def render(self, line: _Line) -> str:
        indent = self.indent(line)
        out = indent
        line_indent = len(indent)
        prev: _Tok | None = None
        statement_head: _Tok | None = None  # the first word of the current statement (or entry)
        paren_depth_here = 0  # brackets opened since the statement started
        sign_pending = False
        for i, tok in enumerate(line.tokens):
            out += "" if prev is None or sign_pending else self._space(prev, tok)
            sign_pending = False
            if tok.text in ("-", "+") and self._is_sign(prev, tok, line.tokens[i + 1:i + 2], statement_head,
                                                        paren_depth_here):
                sign_pending = True
            out += tok.text
            if tok.text in _OPENERS:
                self.brackets.append((len(out), line_indent))
                self.opener_last.append(i == len(line.tokens) - 1)
                paren_depth_here += 1
            elif tok.text in (")", "]"):
                if self.brackets:
                    self.brackets.pop()
                    self.opener_last.pop()
                paren_depth_here = max(0, paren_depth_here - 1)
            elif tok.text == "{":
                self.depth += 1
            elif tok.text == "}":
                self.depth = max(0, self.depth - 1)
            if tok.text in ("{", "}", ";"):
                statement_head, paren_depth_here = None, 0
            elif statement_head is None and not self.brackets:
                statement_head = tok
            prev = tok
        if line.comment is not None:
            if line.tokens:
                out += " " * max(2, line.comment_gap) + line.comment
            else:
                out += line.comment
        return out.rstrip()

    @staticmethod
    def _space(prev: _Tok, tok: _Tok) -> str:
        if tok.text in _NO_SPACE_BEFORE or prev.text in _NO_SPACE_AFTER:
            return ""
        if tok.text == "(" and prev.kind == "name" and (prev.text not in KEYWORDS or prev.text in _CALLABLE):
            return ""  # a call: `gain-power(you, 2)`
        if tok.gap >= 2 and prev.text not in _NARROW_AFTER:
            return " " * tok.gap  # the author's column alignment, or two spaces between entries on one line
        return " "

    @staticmethod
    def _is_sign(prev: _Tok | None, tok: _Tok, following: list[_Tok], head: _Tok | None, parens: int) -> bool:
        if prev is None or not _is_operand_end(prev):
            return True  # nothing to subtract from: `-1`, `(-x)`, `, -1`
        # an entry's values are words and numbers, never sums: `value -1` is the number -1
        in_entry = head is not None and head.kind == "name" and head.text not in KEYWORDS and parens == 0
        return in_entry and bool(following) and following[0].kind == "int"


def _layout(text: str) -> str:
    layout = _Layout()
    rendered: list[str] = []
    for line in _lines(text):
        if not line.tokens and line.comment is None:
            rendered.append("")
            continue
        rendered.append(layout.render(line))
    out: list[str] = []
    for i, line in enumerate(rendered):
        if line == "":
            if not out or out[-1] == "" or out[-1].endswith("{"):
                continue  # no blank at the start, two in a row, or just inside a block
            nxt = next((r for r in rendered[i + 1:] if r != ""), None)
            if nxt is None or nxt.lstrip().startswith("}"):
                continue  # none at the end, or just before a closing brace
        out.append(line)
    return "\n".join(out) + "\n" if out else ""


def _shape(node: object) -> object:
    """A syntax tree without its positions: what a file means, whatever its layout."""
    if isinstance(node, Span):
        return None
    if is_dataclass(node) and not isinstance(node, type):
        return (type(node).__name__,) + tuple(
            _shape(getattr(node, f.name)) for f in fields(node) if not isinstance(getattr(node, f.name), Span))
    if isinstance(node, tuple | list):
        return tuple(_shape(x) for x in node)
    return node


def _parse(text: str, file: str) -> tuple[object, Diagnostics]:
    from .parse import parse_text

    diags = Diagnostics()
    return parse_text(text, file, diags), diags


def format_text(text: str, file: str = "<text>") -> str:
    """`text` in the canonical layout. Raises FormatError (with the syntax errors) if it does not parse."""
    before, diags = _parse(text, file)
    if before is None or diags.errors:
        raise FormatError(diags)
    out = _layout(text)
    after, diags_after = _parse(out, file)
    if after is None or _shape(after) != _shape(before):  # a formatter bug must never reach a file
        diags_after.error("fmt-changed-meaning", f"{file}: formatting would change what the file means; "
                          "it was left as it is", Span(file, 0, 0), "please report this as a maester bug")
        raise FormatError(diags_after)
    return out


def is_formatted(text: str, file: str = "<text>") -> bool:
    return format_text(text, file) == text
