"""docs/api.md runs as written: its Python examples, in order, in one namespace (each checks itself)."""

from __future__ import annotations

import re

from .conftest import REPO

DOC = REPO / "docs" / "api.md"
PYTHON = re.compile(r"```python\n(.*?)```", re.S)


def test_the_api_page_examples_run():
    blocks = PYTHON.findall(DOC.read_text(encoding="utf-8"))
    assert len(blocks) >= 8
    names: dict = {}
    for i, code in enumerate(blocks):
        exec(compile(code, f"{DOC.name} example {i + 1}", "exec"), names)  # noqa: S102 - our own page
    assert names["game"].over and names["problem"].code == "illegal-decision"


def test_the_api_page_is_in_the_site_nav():
    assert "api.md" in (REPO / "mkdocs.yml").read_text(encoding="utf-8")
