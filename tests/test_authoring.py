"""docs/authoring.md, followed literally: every command runs, every file is written, the variant plays."""

from __future__ import annotations

import os
import re
import shlex

from typer.testing import CliRunner

from maester.tools.cli import app

from .conftest import REPO

DOC = REPO / "docs" / "authoring.md"
BLOCK = re.compile(r"```(\w+)(?: title=\"([^\"]+)\")?\n(.*?)```", re.S)


def test_the_authoring_walkthrough_works_as_written(tmp_path):
    runner = CliRunner()
    steps = BLOCK.findall(DOC.read_text())
    assert sum(1 for kind, _, _ in steps if kind == "console") >= 6
    cwd = os.getcwd()
    os.chdir(tmp_path)
    try:
        for kind, title, body in steps:
            if title:
                path = tmp_path / title
                path.parent.mkdir(parents=True, exist_ok=True)
                path.write_text(body, encoding="utf-8")
                continue
            if kind != "console":
                continue
            for line in body.strip().splitlines():
                assert line.startswith("$ maester "), line
                args = shlex.split(line[len("$ maester "):])
                result = runner.invoke(app, args)
                assert result.exit_code == 0, f"{line}\n{result.output}"
                if args[0] == "explain":
                    assert "PASS" in result.output and "1 passed, 0 failed" in result.output
                if args[0] == "card":
                    assert ("when you win" in result.output.lower() or "you gain 1 power" in result.output
                            or "that house gains power tokens equal to the number of units lost" in result.output)
    finally:
        os.chdir(cwd)
    assert (tmp_path / "dragonglass.json").exists()
    # every patch recipe changes what it says it changes (the diff of its variant is not empty)
    from maester.dsl import compile_paths
    from maester.dsl.compile import default_content_dir
    from maester.dsl.diff import diff_bundles
    from maester.interpreter.core.rules import apply_variant

    base = compile_paths(None)
    recipes = [p for p in sorted((tmp_path / "packs").iterdir()) if p.name not in ("dragonglass", "my-rule")]
    assert len(recipes) >= 7
    for pack in recipes:
        bundle = compile_paths([default_content_dir(), pack])
        variants = set(bundle["variants"]) - set(base["variants"])
        assert len(variants) == 1, pack
        assert set(diff_bundles(base, apply_variant(bundle, variants.pop()))) - {"variants"}, pack
