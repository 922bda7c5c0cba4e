"""The stated limits of content input, checked before and right after parsing.

Every limit is far above what real content needs (the bundled content: largest file 42 KB, longest line
312 characters, deepest nesting 22 levels) and low enough that no later stage (the checker, the JSON
Schema validation, the engine) can run out of stack, time or memory. Each is reported as a located
error, never as a traceback. docs/dsl.md ("Limits") lists them for authors.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from lark import Tree

from .diagnostics import Diagnostics, Span

if TYPE_CHECKING:  # the data limits below are read by the engine, which plays a bundle without Lark
    from lark import Tree

MAX_FILE_CHARS = 1_000_000  # one content file
MAX_LINE_CHARS = 2_000  # one line
MAX_NUMBER_DIGITS = 9  # a number literal; values are further bounded by check.MAX_NUMBER
MAX_DEPTH = 44  # nesting of blocks, statements and expressions, counted in syntax-tree levels
MAX_JSON_DEPTH = 90  # nesting of a bundle, log or scenario read as JSON (content within MAX_DEPTH stays below)
MAX_SYNTAX_ERRORS = 50  # broken lines reported per file before the parser gives the file up

# Data files (bundles, positions, logs, scenarios, vectors) read as JSON or YAML: dsl/json_input.py checks them
MAX_DATA_BYTES = 64 * 1024 * 1024  # one file (the bundled content compiles to about 300 KB, a long game's log ~1 MB)
MAX_DATA_INTEGER = 2**64 - 1  # every integer, either sign (64 bits: the random generator's state is unsigned)
MAX_DATA_NUMBER_CHARS = 40  # a number's text (digits, sign, fraction, exponent)
MAX_DATA_STRING_CHARS = 1_000_000  # one string
MAX_DATA_VALUES = 10_000_000  # values in one document (YAML aliases count each time they are used)
MAX_UNIT_COUNT = 100  # `knight x5` in a scenario's units: far above any unit limit

# One pass over the text, token by token, so digits inside names, strings and comments are not numbers.
_TOKENS = re.compile(r'"(?:[^"\\\n]|\\.)*"?|#[^\n]*|[a-z][a-z0-9]*(?:-[a-z0-9]+)*|[0-9]+')
_ESCAPE = re.compile(r"\\(u[0-9a-fA-F]{4}|.)", re.DOTALL)
_SIMPLE_ESCAPES = {'"': '"', "\\": "\\", "n": "\n", "t": "\t"}


def check_text(text: str, file: str, diags: Diagnostics) -> bool:
    """Report every size limit the text breaks; True if it may be parsed."""
    ok = True
    if len(text) > MAX_FILE_CHARS:
        diags.error("file-too-large", f"{file} has {len(text):,} characters; content files are at most "
                    f"{MAX_FILE_CHARS:,}", Span(file, 1, 1, 1, 2), "split the content over several files")
        return False  # nothing else of a file this size is looked at
    for number, line in enumerate(text.split("\n"), 1):
        if len(line) > MAX_LINE_CHARS:
            ok = False
            diags.error("line-too-long", f"line {number} has {len(line):,} characters; lines are at most "
                        f"{MAX_LINE_CHARS:,}", Span(file, number, MAX_LINE_CHARS + 1, number, MAX_LINE_CHARS + 2),
                        "break it: several keys may go on several lines, lists may span lines")
    if not ok:
        return False
    line_starts = None
    for match in _TOKENS.finditer(text):
        token = match.group()
        if token[0] == '"':
            problem = string_problem(token[1:-1] if token.endswith('"') and len(token) > 1 else token[1:])
        elif token[0].isdigit() and len(token) > MAX_NUMBER_DIGITS:
            problem = (f"a number of {len(token)} digits is too large", f"numbers have at most "
                       f"{MAX_NUMBER_DIGITS} digits")
        else:
            continue
        if problem is None:
            continue
        ok = False
        if line_starts is None:
            line_starts = _line_starts(text)
        span = _span_at(file, line_starts, match.start(), min(len(token), 40))
        code = "number-too-large" if token[0].isdigit() else "bad-escape"
        diags.error(code, problem[0], span, problem[1])
    return ok


def string_problem(raw: str) -> tuple[str, str] | None:
    """What is wrong with the escapes of a string's text, if anything (message, hint)."""
    if "\\" not in raw:
        return None
    for m in _ESCAPE.finditer(raw):
        esc = m.group(1)
        if esc in _SIMPLE_ESCAPES:
            continue
        if esc.startswith("u") and len(esc) == 5:
            if 0xD800 <= int(esc[1:], 16) <= 0xDFFF:
                return (f"'\\{esc}' is half of a surrogate pair, not a character",
                        "write the character itself (files are UTF-8)")
            continue
        return (f"unknown escape '\\{esc}' in a text", 'the escapes are \\" \\\\ \\n \\t and \\uXXXX')
    return None


def unescape(raw: str) -> str:
    """A string's text with its escapes replaced (escapes were checked by `check_text`)."""
    if "\\" not in raw:
        return raw

    def one(m: re.Match) -> str:
        esc = m.group(1)
        if esc in _SIMPLE_ESCAPES:
            return _SIMPLE_ESCAPES[esc]
        if esc.startswith("u") and len(esc) == 5:
            return chr(int(esc[1:], 16))
        return m.group()

    return _ESCAPE.sub(one, raw)


def check_depth(tree: Tree, file: str, diags: Diagnostics) -> bool:
    """Report the first place the syntax tree nests deeper than MAX_DEPTH; True if within the limit.

    Iterative on purpose: the tree may be arbitrarily deep, which is what is being checked.
    """
    from lark import Tree  # Lark loads with the parser, not with every compile of cached content

    stack: list[tuple[Tree, int]] = [(tree, 1)]
    while stack:
        node, depth = stack.pop()
        if depth > MAX_DEPTH:
            meta = node.meta if not getattr(node.meta, "empty", True) else None
            line = getattr(meta, "line", 1) if meta else 1
            column = getattr(meta, "column", 1) if meta else 1
            diags.error("too-deep", f"nesting deeper than {MAX_DEPTH} levels (blocks, conditions and "
                        "expressions count)", Span(file, line, column, line, column + 1),
                        "split the effect, or use 'let' to name a part of a long expression")
            return False
        for child in node.children:
            if isinstance(child, Tree):
                stack.append((child, depth + 1))
    return True


def _line_starts(text: str) -> list[int]:
    starts = [0]
    for m in re.finditer("\n", text):
        starts.append(m.end())
    return starts


def _span_at(file: str, line_starts: list[int], offset: int, width: int) -> Span:
    import bisect

    index = bisect.bisect_right(line_starts, offset) - 1
    column = offset - line_starts[index] + 1
    return Span(file, index + 1, column, index + 1, column + max(1, width))


def json_depth_problem(data: object) -> str | None:
    """Why `data` nests too deeply to be validated (the schema validator recurses), or None."""
    stack: list[tuple[object, int]] = [(data, 1)]
    while stack:
        node, depth = stack.pop()
        if depth > MAX_JSON_DEPTH:
            return f"the JSON nests deeper than {MAX_JSON_DEPTH} levels"
        if isinstance(node, dict):
            stack.extend((v, depth + 1) for v in node.values())
        elif isinstance(node, list):
            stack.extend((v, depth + 1) for v in node)
    return None
