"""maester.dsl — the content language: parse → check → compile to a JSON bundle.

    from maester.dsl import compile_paths
    bundle = compile_paths()          # the bundled content, validated against schemas/

The compiler (and Lark) load on first use of a compiling name, so an engine that only plays a compiled
bundle imports the small modules it needs (diagnostics, version) and never the parser.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING

from .diagnostics import BundleError, CompileError, Diagnostic, Diagnostics, MaesterError, Span
from .version import BUNDLE_FORMAT_VERSION, DSL_VERSION, __version__

if TYPE_CHECKING:
    from .compile import compile_paths, compile_sources, default_content_dir

_COMPILER = {"compile_paths", "compile_sources", "default_content_dir"}

__all__ = [
    "BUNDLE_FORMAT_VERSION",
    "BundleError",
    "CompileError",
    "DSL_VERSION",
    "Diagnostic",
    "Diagnostics",
    "MaesterError",
    "Span",
    "__version__",
    "compile_paths",
    "compile_sources",
    "default_content_dir",
]


def __getattr__(name: str):
    if name in _COMPILER:
        return getattr(import_module(".compile", __name__), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
