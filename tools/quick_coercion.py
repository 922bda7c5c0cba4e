"""Parameter values without pydantic where typer's own conversion needs none (issue 23 item 4).

typer (0.2x) converts every parameter through a pydantic adapter that it builds before it looks at the value, so
every command that runs imports pydantic (a good part of a warm command's start), even for a value left out or a
text or a path that it hands over as it is. `install()` defers the adapter: a value left out is returned by typer's
own `RuntimeParam.coerce` (None, or () for a list), a text is itself, a path is typer's `coerce_cli_path` of it, a
plain decimal integer within its bounds is that int, and only any other value (a choice, a float, a flag...)
builds typer's adapter, which then converts it as before.
A value the quick way cannot take (an empty text, a NUL, a conversion that raises) goes to the adapter too, so
errors are typer's own, word for word. With a typer whose parameters work otherwise nothing is changed.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any, get_args

NOT_QUICK = object()  # a value the quick way leaves to typer's adapter
PLAIN_INTEGER = re.compile(r"-?(0|[1-9][0-9]{0,17})")  # what pydantic reads as that int (no sign +, space, _, 0s)


def install() -> None:
    try:
        from typer._coercion import RuntimeParam
        from typer.core import _TyperParameter
    except ImportError:  # pragma: no cover - another typer: left as it is
        return
    if not hasattr(_TyperParameter, "get_runtime_param") or getattr(_TyperParameter, "_maester_quick", False):
        return
    build = _TyperParameter.get_runtime_param

    class QuickCoercion:
        coerce = RuntimeParam.coerce  # typer's: None → None (or () for a list), else _coerce_value

        def __init__(self, param) -> None:
            self.param = param

        def _coerce_value(self, value, param, ctx):
            try:
                quick = _quick(self.param.type_descriptor, value, param, ctx)
            except Exception:  # noqa: BLE001 - typer's adapter converts it (and words any error)
                quick = NOT_QUICK
            if quick is not NOT_QUICK:
                return quick
            return build(self.param)._coerce_value(value, param=param, ctx=ctx)

    def get_runtime_param(self):
        return self._runtime_param if self._runtime_param is not None else QuickCoercion(self)

    _TyperParameter.get_runtime_param = get_runtime_param
    _TyperParameter._maester_quick = True


def _quick(descriptor, value: Any, param, ctx) -> Any:
    """What typer's adapter makes of a text or path value (or a list of them), or NOT_QUICK."""
    info = descriptor.parameter_info
    if info.parser is not None or getattr(info, "click_type", None) is not None:
        return NOT_QUICK
    if descriptor.is_list:  # typer's parse_list: one value or several, each converted as the item type
        args = get_args(descriptor.annotation)
        items = [_one(args[0], info, v, param, ctx) for v in (value if isinstance(value, list | tuple) else [value])]
        return NOT_QUICK if any(i is NOT_QUICK for i in items) else items
    return _one(descriptor.annotation, info, value, param, ctx)


def _one(annotation: Any, info, value: Any, param, ctx) -> Any:
    from typer._param_types import coerce_cli_path, lenient_issubclass, routes_to_path

    if not isinstance(value, str) or not value or "\0" in value:
        return NOT_QUICK
    if annotation is str:  # typer: str(value) of a text, which pydantic's str keeps as it is
        return value
    if annotation is int and PLAIN_INTEGER.fullmatch(value) and not info.clamp:
        number = int(value)  # within its bounds (else typer's adapter words the error)
        low, high = info.min, info.max
        return number if (low is None or number >= low) and (high is None or number <= high) else NOT_QUICK
    path_type = info.path_type or annotation
    if lenient_issubclass(annotation, Path) and lenient_issubclass(path_type, Path) and \
            routes_to_path(annotation, info):
        # typer converts the text with pydantic's Path (the path of that text), then checks it as given
        return coerce_cli_path(path_type(value), info, path_type=path_type, param=param, ctx=ctx)
    return NOT_QUICK
