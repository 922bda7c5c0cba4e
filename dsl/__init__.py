"""maester.dsl — the content language: parse → check → compile to a JSON bundle.

    from maester.dsl import compile_paths
    bundle = compile_paths()          # the bundled content, validated against schemas/
"""

from .compile import compile_paths, compile_sources, default_content_dir
from .diagnostics import BundleError, CompileError, Diagnostic, Diagnostics, MaesterError, Span
from .version import BUNDLE_FORMAT_VERSION, DSL_VERSION, __version__

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
