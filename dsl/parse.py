"""Text → syntax tree. One cached LALR parser; Lark's errors become located, readable diagnostics.

Parsing recovers after a syntax error at the next line, so one run reports every broken line of a
file, not only the first.
"""

from __future__ import annotations

import hashlib
from functools import cache
from importlib import resources

from lark import Lark, Token, Transformer, Tree, v_args
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken

from . import ast, limits
from .diagnostics import Diagnostics, Span

# What each terminal means to an author (Lark only knows the terminal names).
_TERMINAL_WORDS = {
    "NAME": "a name",
    "INT": "a number",
    "STRING": 'a quoted "string"',
    "LBRACE": "'{'",
    "RBRACE": "'}'",
    "LSQB": "'['",
    "RSQB": "']'",
    "LPAR": "'('",
    "RPAR": "')'",
    "COMMA": "','",
    "COLON": "':'",
    "SEMICOLON": "';'",
    "EQUAL": "'='",
    "_NL": "end of line",
    "$END": "end of file",
    "COMP_OP": "a comparison",
    "ADD_OP": "'+' or '-'",
    "MUL_OP": "'*'",
    "MINUS": "'-'",
    "PLUS": "'+'",
}


def _describe(terminal: str) -> str:
    if terminal in _TERMINAL_WORDS:
        return _TERMINAL_WORDS[terminal]
    if terminal.isupper() and terminal.isalpha():  # keyword terminals are named after their text
        return f"'{terminal.lower()}'"
    return terminal


def _describe_token(token: Token) -> str:
    if token.type == "$END":
        return "end of file"
    if token.type == "_NL":
        return "end of line"
    return f"'{token}'"


class _NewlinesInBrackets:
    """Inside ( ) and [ ] a newline is just space, so long conditions and lists may span lines."""

    always_accept = ("_NL",)

    def process(self, stream):
        depth = 0
        for tok in stream:
            if tok.type in ("LPAR", "LSQB"):
                depth += 1
            elif tok.type in ("RPAR", "RSQB"):
                depth = max(0, depth - 1)
            elif tok.type == "_NL" and depth > 0:
                continue
            yield tok


@cache
def parser() -> Lark:
    grammar = resources.files("maester.dsl").joinpath("grammar.lark").read_text(encoding="utf-8")
    return Lark(grammar, parser="lalr", propagate_positions=True, maybe_placeholders=False,
                postlex=_NewlinesInBrackets(), cache=_tables_cache(grammar))


def _tables_cache(grammar: str) -> str | bool:
    """Where Lark keeps its parse tables for this grammar (building them is most of a parser's start-up).

    Lark checks the grammar, its options and its own version stored in the file, so a stale file is rebuilt.
    """
    from .cache import cache_dir, parse_cache_enabled

    if not parse_cache_enabled():
        return False
    folder = cache_dir()
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError:
        return False
    digest = hashlib.sha256(grammar.encode()).hexdigest()[:16]
    return str(folder / f"lark-tables-{digest}.pickle")


def _span(file: str, meta_or_token) -> Span:
    line = getattr(meta_or_token, "line", 0) or 0
    column = getattr(meta_or_token, "column", 0) or 0
    end_line = getattr(meta_or_token, "end_line", line) or line
    end_column = getattr(meta_or_token, "end_column", column) or column
    return Span(file, line, column, end_line, end_column)


class _ToAst(Transformer):
    """Lark tree → ast nodes; each method is named after the grammar rule (or alias) it builds."""

    def __init__(self, file: str):
        super().__init__()
        self.file = file

    def _s(self, meta) -> Span:
        return _span(self.file, meta)

    # ---- structure
    def start(self, children):
        return tuple(children)

    def block(self, children):
        return tuple(children)

    @v_args(meta=True)
    def entry(self, meta, children):
        head: Token = children[0]
        rest = list(children[1:])
        block = rest.pop() if rest and isinstance(rest[-1], tuple) else None
        return ast.Entry(str(head), tuple(rest), block, self._s(meta), _span(self.file, head))

    # ---- values and expressions
    def name(self, children):
        tok = children[0]
        return ast.Name(str(tok), _span(self.file, tok))

    def string(self, children):
        tok = children[0]
        raw = str(tok)[1:-1]
        return ast.Str(limits.unescape(raw), _span(self.file, tok))

    @v_args(meta=True)
    def signed_int(self, meta, children):
        return ast.Int(int(children[0]), self._s(meta))

    @v_args(meta=True)
    def neg_int(self, meta, children):
        return ast.Int(-int(children[0]), self._s(meta))

    @v_args(meta=True)
    def pos_int(self, meta, children):
        return ast.Int(int(children[0]), self._s(meta))

    def int_lit(self, children):
        tok = children[0]
        return ast.Int(int(tok), _span(self.file, tok))

    @v_args(meta=True)
    def true(self, meta, _children):
        return ast.Bool(True, self._s(meta))

    @v_args(meta=True)
    def false(self, meta, _children):
        return ast.Bool(False, self._s(meta))

    @v_args(meta=True)
    def list(self, meta, children):
        return ast.ListExpr(tuple(children), self._s(meta))

    @v_args(meta=True)
    def call(self, meta, children):
        name, args = children[0], children[1]
        return ast.Call(str(name), args, self._s(meta), _span(self.file, name))

    def args(self, children):
        return tuple(children)

    @v_args(meta=True)
    def kwarg(self, meta, children):
        return ast.Arg(str(children[0]), children[1], self._s(meta))

    @v_args(meta=True)
    def posarg(self, meta, children):
        return ast.Arg(None, children[0], self._s(meta))

    def _binary(self, meta, children, op=None):
        # left-recursive rules give exactly [left, (OP,) right]
        if op is None:
            left, tok, right = children
            op = str(tok)
        else:
            left, right = children
        return ast.BinOp(op, left, right, self._s(meta))

    @v_args(meta=True)
    def or_(self, meta, children):
        return self._binary(meta, children, "or")

    @v_args(meta=True)
    def and_(self, meta, children):
        return self._binary(meta, children, "and")

    @v_args(meta=True)
    def compare(self, meta, children):
        return self._binary(meta, children)

    @v_args(meta=True)
    def arith(self, meta, children):
        return self._binary(meta, children)

    @v_args(meta=True)
    def not_(self, meta, children):
        return ast.Not(children[0], self._s(meta))

    @v_args(meta=True)
    def negate(self, meta, children):
        operand = children[0]
        if isinstance(operand, ast.Int):
            return ast.Int(-operand.value, self._s(meta))
        return ast.Neg(operand, self._s(meta))

    # ---- statements
    @v_args(meta=True)
    def when_stmt(self, meta, children):
        trigger = children[0]
        condition = children[1] if len(children) == 3 else None
        return ast.When(str(trigger), condition, children[-1], self._s(meta), _span(self.file, trigger))

    @v_args(meta=True)
    def condition_stmt(self, meta, children):
        return ast.Condition(children[0], self._s(meta))

    @v_args(meta=True)
    def if_stmt(self, meta, children):
        otherwise = None
        if len(children) == 3:
            otherwise = children[2] if isinstance(children[2], tuple) else (children[2],)
        return ast.If(children[0], children[1], otherwise, self._s(meta))

    @v_args(meta=True)
    def for_stmt(self, meta, children):
        return ast.For(str(children[0]), children[1], children[2], self._s(meta))

    @v_args(meta=True)
    def choose_stmt(self, meta, children):
        var, options, *opts, body = children
        found = dict(opts)
        return ast.Choose(str(var), options, found.get("by"), found.get("count"),
                          "distinct" in found, body, self._s(meta))

    def choose_by(self, children):
        return ("by", children[0])

    def choose_count(self, children):
        return ("count", children[0])

    def choose_distinct(self, _children):
        return ("distinct", True)

    @v_args(meta=True)
    def may_stmt(self, meta, children):
        blocks = [c for c in children if isinstance(c, tuple) and not (len(c) == 2 and isinstance(c[0], str))]
        opts = [c for c in children if not any(c is b for b in blocks)]
        found = dict(opts)
        body = blocks[0]
        otherwise = blocks[1] if len(blocks) > 1 else None
        return ast.May(found.get("by"), found.get("pay"), found.get("if"), body, otherwise, self._s(meta))

    @v_args(meta=True)
    def option_stmt(self, meta, children):
        key, text, *rest = children
        condition = rest[0] if len(rest) == 2 else None
        raw = limits.unescape(str(text)[1:-1])
        return ast.Option(str(key), raw, condition, rest[-1], self._s(meta))

    def may_by(self, children):
        return ("by", children[0])

    def may_pay(self, children):
        return ("pay", children[0])

    def may_if(self, children):
        return ("if", children[0])

    @v_args(meta=True)
    def let_stmt(self, meta, children):
        return ast.Let(str(children[0]), children[1], self._s(meta))

    @v_args(meta=True)
    def call_stmt(self, meta, children):
        name, args = children[0], children[1]
        block = children[2] if len(children) == 3 else None
        call = ast.Call(str(name), args, self._s(meta), _span(self.file, name))
        return ast.CallStmt(call, block, self._s(meta))


def _syntax_message(err: UnexpectedInput) -> tuple[str, str | None]:
    """What went wrong and what was expected, in an author's words."""
    if isinstance(err, UnexpectedCharacters):
        char = err.char
        if char == "_":
            return ("'_' is not allowed in names", "names are kebab-case: use '-' between words")
        if char.isupper():
            return (f"unexpected character '{char}'", "names are lower-case kebab-case, e.g. 'the-eyrie'")
        if char == "'":
            return ("unexpected character \"'\"", 'strings use double quotes: "like this"')
        if char == '"':
            return ("unterminated text", 'close the text with " on the same line')
        return (f"unexpected character '{char}'", None)
    expected = sorted({_describe(t) for t in getattr(err, "expected", set()) or set()})
    # Keep the list short and useful: operators only matter to someone writing an expression.
    noisy = {"a comparison", "'+' or '-'", "'*'", "'or'", "'and'"}
    shown = [e for e in expected if e not in noisy] or expected
    exp = "expected " + ", ".join(shown[:8]) + (" or more" if len(shown) > 8 else "")
    if isinstance(err, UnexpectedEOF):
        return ("unexpected end of file", exp + " (is a '}' missing?)")
    if isinstance(err, UnexpectedToken):
        tok = err.token
        what = _describe_token(tok)
        hint = exp
        if tok.type == "$END":
            return ("unexpected end of file", exp + " (is a '}' missing?)")
        if tok.type == "RBRACE":
            hint += " (is a '{' missing, or a value left out?)"
        return (f"unexpected {what}", hint)
    return (str(err).splitlines()[0], None)


def parse_text(text: str, file: str, diags: Diagnostics) -> tuple[ast.Item, ...] | None:
    """Parse one file. On errors, report each broken line to `diags` and return None."""
    diags.add_source(file, text)
    if not limits.check_text(text, file, diags):
        return None
    if not text.endswith("\n"):
        text += "\n"
    reported_lines: set[int] = set()

    def report(err: UnexpectedInput) -> None:
        line = getattr(err, "line", 0) or 0
        if line in reported_lines:
            return
        reported_lines.add(line)  # also says that this file had a syntax error
        message, hint = _syntax_message(err)
        col = getattr(err, "column", 0) or 0
        width = 1
        tok = getattr(err, "token", None)
        if isinstance(tok, Token) and tok.type not in ("$END", "_NL"):
            width = max(1, len(str(tok)))
        if isinstance(err, UnexpectedEOF) or (isinstance(tok, Token) and tok.type == "$END"):
            lines = text.splitlines()
            line = len(lines)
            col = len(lines[-1]) + 1 if lines else 1
        diags.error("syntax", message, Span(file, line, col, line, col + width), hint)

    def on_error(err: UnexpectedInput) -> bool:
        report(err)
        # Drop the offending token and go on; errors later on the same line are not reported again.
        # After MAX_SYNTAX_ERRORS broken lines the file is given up (bounded time and output).
        return len(reported_lines) < limits.MAX_SYNTAX_ERRORS

    try:
        tree: Tree = parser().parse(text, on_error=on_error)
    except UnexpectedInput as err:
        if len(reported_lines) >= limits.MAX_SYNTAX_ERRORS:
            line, col = max(1, getattr(err, "line", 1) or 1), max(1, getattr(err, "column", 1) or 1)
            diags.error("too-many-errors", f"more than {limits.MAX_SYNTAX_ERRORS} lines with syntax errors; "
                        "the rest of the file is not checked", Span(file, line, col), "is this a content file?")
        else:
            report(err)
        return None
    if reported_lines or not limits.check_depth(tree, file, diags):
        return None
    return _ToAst(file).transform(tree)
