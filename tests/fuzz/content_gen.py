"""Hostile content text: mutations of the real content files, and a grammar-aware generator.

Both are plain functions of a `random.Random`, so a failing case is reproduced from its seed alone.
The mutations aim at the edges issue 14 found (huge numbers, deep nesting, long lines, odd escapes,
truncation, stray brackets) as well as at ordinary typos; the generator writes syntactically plausible
declarations from the registry's own vocabulary (kinds, keys, primitives, triggers), so the checker's
deeper paths are reached, not only the parser's error recovery.
"""

from __future__ import annotations

import random

from maester.dsl.kinds import KINDS
from maester.dsl.registry import PRIMITIVES, TRIGGERS

# Tokens worth inserting: every bracket, operator and keyword of the grammar, and some nasty text.
TOKENS = ["{", "}", "(", ")", "[", "]", ",", ":", ";", "=", "==", "<", ">=", "+", "-", "*", "\n", " ", "#",
          '"', '"\\u00e9"', '"\\ud800"', '"\\x"', '"\\', "if", "else", "when", "for", "in", "choose", "may",
          "let", "option", "by", "count", "distinct", "pay", "not", "and", "or", "true", "false", "0", "-1",
          "999999999", "9" * 40, "1000001", "\t", "\r", "\x00", "é", "\u202e", "_", "A", "'", "\\"]
EDGE_INTS = ["0", "-1", "1", "7", "100", "101", "1000000", "1000001", "4294967296", "9" * 20]


def words() -> list[str]:
    out = set(KINDS) | set(PRIMITIVES) | set(TRIGGERS)
    for kind in KINDS.values():
        out.update(kind.keys)
    return sorted(out)


WORDS = words()


def mutate(text: str, rng: random.Random) -> str:
    """One to four random edits of `text`."""
    for _ in range(rng.randint(1, 4)):
        text = rng.choice(_MUTATIONS)(text, rng)
    return text


def _pos(text: str, rng: random.Random) -> int:
    return rng.randrange(len(text) + 1)


def _insert_token(text, rng):
    i = _pos(text, rng)
    return text[:i] + rng.choice(TOKENS + WORDS) + text[i:]


def _delete(text, rng):
    i = _pos(text, rng)
    return text[:i] + text[i + rng.randint(1, 40):]


def _duplicate(text, rng):
    i = _pos(text, rng)
    j = min(len(text), i + rng.randint(1, 200))
    return text[:j] + text[i:j] * rng.randint(1, 5) + text[j:]


def _truncate(text, rng):
    return text[:_pos(text, rng)]


def _swap_lines(text, rng):
    lines = text.split("\n")
    if len(lines) > 2:
        a, b = rng.randrange(len(lines)), rng.randrange(len(lines))
        lines[a], lines[b] = lines[b], lines[a]
    return "\n".join(lines)


def _replace_number(text, rng):
    import re

    nums = [m.span() for m in re.finditer(r"(?<![a-z0-9-])[0-9]+", text)]
    if not nums:
        return _insert_token(text, rng)
    a, b = rng.choice(nums)
    return text[:a] + rng.choice(EDGE_INTS) + text[b:]


def _replace_word(text, rng):
    import re

    names = [m.span() for m in re.finditer(r"[a-z][a-z0-9-]*", text)]
    if not names:
        return _insert_token(text, rng)
    a, b = rng.choice(names)
    return text[:a] + rng.choice(WORDS + [text[a:b] + "x", text[a:b][:-1], text[a:b].upper()]) + text[b:]


def _nest(text, rng):
    """Deep nesting: blocks, parentheses, lists, `not` chains or long sums, around 20 to 400 levels."""
    i = _pos(text, rng)
    n = rng.choice([20, 40, 44, 45, 60, 100, 400])
    piece = rng.choice([
        "if true {\n" * n + "}\n" * n,
        "(" * n + "1" + ")" * n,
        "[" * n + "]" * n,
        "not " * n + "true",
        " + ".join(["1"] * n),
        "- " * n + "1",
        "{" * n,
    ])
    return text[:i] + piece + text[i:]


def _long_line(text, rng):
    i = _pos(text, rng)
    unit = rng.choice(["strength 1 ", "x", "# comment ", "[a, ", '"t" '])
    return text[:i] + unit * rng.choice([100, 190, 250, 2000]) + text[i:]


def _splice(text, rng):
    """Copy a random declaration-sized chunk to a random place (duplicate ids, keys, blocks)."""
    lines = text.split("\n")
    if len(lines) < 3:
        return text
    a = rng.randrange(len(lines))
    chunk = lines[a:a + rng.randint(1, 12)]
    b = rng.randrange(len(lines))
    return "\n".join(lines[:b] + chunk + lines[b:])


_MUTATIONS = [_insert_token, _insert_token, _delete, _duplicate, _truncate, _swap_lines, _replace_number,
              _replace_number, _replace_word, _replace_word, _nest, _long_line, _splice]


# ---- a grammar-aware generator -------------------------------------------------------------------

def generate(rng: random.Random) -> str:
    """A few random declarations built from the registry's vocabulary: mostly well-formed, often wrong."""
    out = []
    top = [k for k in KINDS.values() if k.top_level]
    for _ in range(rng.randint(1, 4)):
        kind = rng.choice(top)
        ident = rng.choice(["a", "b", "stark", "winterfell", "iron-throne", "base", "x-1"])
        lines = [f'{kind.name} {ident} "{ident.title()}" {{']
        for _ in range(rng.randint(0, 8)):
            key = rng.choice(list(kind.keys.values()))
            values = [_value(t, rng) for t in key.values]
            line = "  " + " ".join([key.name] + values)
            if key.block or rng.random() < 0.05:
                line += " {\n" + _block(rng, 2) + "\n  }"
            lines.append(line)
        if kind.effect_context and rng.random() < 0.8:
            trig = rng.choice([t for t in TRIGGERS.values() if t.context == kind.effect_context] or
                              list(TRIGGERS.values()))
            lines.append(f"  when {trig.name} {{\n{_block(rng, 2)}\n  }}")
        lines.append("}")
        out.append("\n".join(lines))
    return "\n\n".join(out) + "\n"


def _value(type_: str, rng: random.Random) -> str:
    if rng.random() < 0.1:
        return rng.choice(TOKENS)
    if type_ in ("int", "nat"):
        return rng.choice(EDGE_INTS)
    if type_ == "text":
        return rng.choice(['"text"', '""', '"\\n"', '"é"'])
    if type_.startswith("enum:"):
        return rng.choice(type_[5:].split("|") + ["nope"])
    if type_.startswith("list:"):
        return "[" + ", ".join(_value(type_[5:], rng) for _ in range(rng.randint(0, 3))) + "]"
    return rng.choice(["stark", "winterfell", "iron-throne", "base", "footman", "a", "nope"])


def _expr(rng: random.Random, depth: int) -> str:
    if depth > 4 or rng.random() < 0.3:
        return rng.choice(["1", "0", "true", "you", "opponent", "stark", "[]", '"t"', "x"])
    r = rng.random()
    if r < 0.3:
        q = rng.choice([p for p in PRIMITIVES.values() if p.kind == "query"])
        args = ", ".join(_expr(rng, depth + 1) for _ in q.params[:rng.randint(0, len(q.params))])
        return f"{q.name}({args})"
    if r < 0.6:
        return f"{_expr(rng, depth + 1)} {rng.choice(['+', '-', '*', '==', '<', 'and', 'or'])} {_expr(rng, depth + 1)}"
    if r < 0.7:
        return f"not {_expr(rng, depth + 1)}"
    return f"({_expr(rng, depth + 1)})"


def _block(rng: random.Random, depth: int) -> str:
    pad = "  " * depth
    out = []
    for _ in range(rng.randint(0, 3)):
        r = rng.random()
        if depth > 5 or r < 0.45:
            prim = rng.choice([p for p in PRIMITIVES.values() if p.kind == "effect"])
            args = ", ".join(_expr(rng, 0) for _ in prim.params[:rng.randint(0, len(prim.params) + 1)])
            out.append(f"{pad}{prim.name}({args})")
        elif r < 0.6:
            out.append(f"{pad}if {_expr(rng, 0)} {{\n{_block(rng, depth + 1)}\n{pad}}}")
        elif r < 0.7:
            out.append(f"{pad}for x in {_expr(rng, 0)} {{\n{_block(rng, depth + 1)}\n{pad}}}")
        elif r < 0.8:
            out.append(f"{pad}choose x in {_expr(rng, 0)} {{\n{_block(rng, depth + 1)}\n{pad}}}")
        elif r < 0.9:
            out.append(f"{pad}may {{\n{_block(rng, depth + 1)}\n{pad}}}")
        else:
            out.append(f"{pad}let x = {_expr(rng, 0)}")
    return "\n".join(out)
