"""What the repository holds: no generated output committed, and the ignore rules cover what commands write."""

from __future__ import annotations

import shutil
import subprocess

import pytest

from .conftest import REPO

BIG = 1_000_000  # bytes: above this a tracked file is a generated artefact, not source
BIG_ALLOWED = ("content/", "conformance/")  # the bundled content and the vectors' bundle may grow


def _git(*args: str) -> str:
    if shutil.which("git") is None or not (REPO / ".git").exists():
        pytest.skip("not a git checkout")
    return subprocess.run(["git", *args], cwd=REPO, capture_output=True, text=True, check=True).stdout


def test_no_big_file_is_tracked_outside_content_and_conformance():
    tracked = [p for p in _git("ls-files", "-z").split("\0") if p]
    big = [(p, (REPO / p).stat().st_size) for p in tracked
           if (REPO / p).is_file() and not p.startswith(BIG_ALLOWED) and (REPO / p).stat().st_size > BIG]
    assert big == [], f"generated output committed? tracked files over {BIG:,} bytes: {big}"


@pytest.mark.parametrize("output", ["bundle.json", "log.html", "game.html", "board.svg", "base.png",
                                    "maester-save.json", "simulation/games.parquet", "game.json", "log.json"])
def test_what_commands_write_by_default_is_ignored(output):
    assert _git("check-ignore", "--no-index", output).strip() == output


def test_ci_runs_the_readme_test_command_on_every_core():
    """.ci/run reads the README's second command and runs it; that command runs the tests in parallel."""
    ci = (REPO / ".ci" / "run").read_text(encoding="utf-8")
    extract = next(line for line in ci.splitlines() if line.startswith("readme_tests=$("))[len("readme_tests=$("):-1]
    command = subprocess.run(["bash", "-c", extract], cwd=REPO, capture_output=True, text=True, check=True).stdout
    assert command.strip() in (REPO / "README.md").read_text(encoding="utf-8")
    assert "pip install -e '.[test]'" in command and "pytest -n auto" in command, command
    assert 'bash -c "$readme_tests"' in ci
    import tomllib

    extras = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["project"]["optional-dependencies"]
    assert any(d.startswith("pytest-xdist") for d in extras["test"])
