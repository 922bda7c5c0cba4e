"""The syntax tree of the content language: small frozen values, each with the `Span` it came from.

Two families share one file format:
- *entries* (`strength 4`, `area winterfell "Winterfell" { ... }`): declarations and attributes;
- *statements* (`when`, `if`, `for`, `choose`, `may`, `let`, `name(args)`): the effect language; `condition` (an
  objective's condition).
Expressions appear as entry values, statement conditions and call arguments.
"""

from __future__ import annotations

from dataclasses import dataclass

from .diagnostics import Span

# ---- expressions --------------------------------------------------------------------------------


@dataclass(frozen=True)
class Name:
    text: str
    span: Span


@dataclass(frozen=True)
class Int:
    value: int
    span: Span


@dataclass(frozen=True)
class Str:
    value: str
    span: Span


@dataclass(frozen=True)
class Bool:
    value: bool
    span: Span


@dataclass(frozen=True)
class ListExpr:
    items: tuple[Expr, ...]
    span: Span


@dataclass(frozen=True)
class Arg:
    name: str | None  # None for a positional argument
    value: Expr
    span: Span


@dataclass(frozen=True)
class Call:
    name: str
    args: tuple[Arg, ...]
    span: Span
    name_span: Span


@dataclass(frozen=True)
class BinOp:
    op: str  # or and == != < <= > >= + - *
    left: Expr
    right: Expr
    span: Span


@dataclass(frozen=True)
class Not:
    operand: Expr
    span: Span


@dataclass(frozen=True)
class Neg:
    operand: Expr
    span: Span


Expr = Name | Int | Str | Bool | ListExpr | Call | BinOp | Not | Neg

# ---- entries ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Entry:
    """`head value value ... { block }`; several keys may share one line until check.py splits them."""

    head: str
    values: tuple[Expr, ...]
    block: tuple[Item, ...] | None
    span: Span
    head_span: Span


# ---- statements ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class When:
    trigger: str
    condition: Expr | None
    body: tuple[Item, ...]
    span: Span
    trigger_span: Span


@dataclass(frozen=True)
class If:
    condition: Expr
    then: tuple[Item, ...]
    otherwise: tuple[Item, ...] | None
    span: Span


@dataclass(frozen=True)
class For:
    var: str
    iterable: Expr
    body: tuple[Item, ...]
    span: Span


@dataclass(frozen=True)
class Choose:
    var: str
    options: Expr
    by: Expr | None
    count: Expr | None
    distinct: bool
    body: tuple[Item, ...]
    span: Span


@dataclass(frozen=True)
class May:
    by: Expr | None
    pay: Expr | None
    condition: Expr | None
    body: tuple[Item, ...]
    otherwise: tuple[Item, ...] | None
    span: Span


@dataclass(frozen=True)
class Option:
    key: str
    text: str
    condition: Expr | None
    body: tuple[Item, ...]
    span: Span


@dataclass(frozen=True)
class Let:
    var: str
    value: Expr
    span: Span


@dataclass(frozen=True)
class Condition:
    """`condition EXPR`: what an objective card asks of the position (only in an `objective`)."""

    expr: Expr
    span: Span


@dataclass(frozen=True)
class CallStmt:
    call: Call
    block: tuple[Item, ...] | None
    span: Span


Statement = When | If | For | Choose | May | Option | Let | Condition | CallStmt
Item = Entry | Statement
