"""Shared fixtures: the compiled bundled content, and the reference files of ../shared/reference/ (or of
$MAESTER_SHARED/reference/ when the checkout is elsewhere: a clone in /tmp, a worktree)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
# the project's shared folder (reference data, rulebook texts, standing tools): beside the repository by default
SHARED = Path(os.environ.get("MAESTER_SHARED") or REPO.parent / "shared")
REFERENCE = SHARED / "reference"
# the viewer and the seat are tested in the system's Chromium (never `playwright install`)
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]
NO_REFERENCE = "the reference checks need the shared folder beside the repository (../shared/reference/) or " \
    "MAESTER_SHARED=/path/to/shared"


def pytest_addoption(parser):
    parser.addoption("--runslow", action="store_true", default=False, help="run long stress tests")
    parser.addoption("--update-golden", action="store_true", default=False,
                     help="rewrite the golden card text (tests/golden/cards) from the renderer, after review")
    parser.addoption("--fuzz-seconds", type=float, default=None,
                     help="time budget of each fuzz test in tests/fuzz/ (default: MAESTER_FUZZ_SECONDS or 2)")


def pytest_collection_modifyitems(config, items):
    if config.getoption("--runslow"):
        return
    skip = pytest.mark.skip(reason="slow: run with --runslow")
    for item in items:
        if "slow" in item.keywords:
            item.add_marker(skip)


def reference_file(name: str) -> Path:
    """A file of ../shared/reference/, or a clear skip when the reference is not beside the repo."""
    path = REFERENCE / name
    if not path.exists():
        pytest.skip(f"reference file {path} not found: {NO_REFERENCE}")
    return path


@pytest.fixture(scope="session")
def bundle() -> dict:
    """The bundled content, compiled once per session; a compile error fails readably, not as a traceback."""
    from maester.dsl import CompileError, compile_paths

    try:
        return compile_paths()
    except CompileError as e:
        message = f"the bundled content does not compile:\n{e}"
    pytest.fail(message, pytrace=False)


@pytest.fixture(scope="session")
def chromium():
    """One headless Chromium per test process (a launch costs seconds): each test opens its own pages (or
    context) in it and closes them."""
    sync_api = pytest.importorskip("playwright.sync_api", reason="pip install playwright (the test extra)")
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield b
        b.close()
