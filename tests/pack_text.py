"""Compile a one-file pack written by a test beside the bundled content, and return what the compiler said."""

from __future__ import annotations

import contextlib
from pathlib import Path

from maester.dsl.compile import CompileError, compile_paths, default_content_dir
from maester.dsl.diagnostics import Diagnostics


def compile_pack_text(tmp_path: Path, text: str) -> Diagnostics:
    """The diagnostics of compiling `text` as the file x.mst of a pack in tmp_path (no cache: always checked)."""
    (tmp_path / "pack").mkdir(exist_ok=True)
    (tmp_path / "pack" / "x.mst").write_text(text, encoding="utf-8")
    diags = Diagnostics()
    with contextlib.suppress(CompileError):
        compile_paths([default_content_dir(), tmp_path / "pack"], diags, cache=False)
    return diags
