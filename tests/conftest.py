"""Shared fixtures: the compiled bundled content, and the reference files of ../shared/reference/."""

from __future__ import annotations

from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
REFERENCE = REPO.parent / "shared" / "reference"


def pytest_addoption(parser):
    parser.addoption("--runslow", action="store_true", default=False, help="run long stress tests")


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
        pytest.skip(f"reference file {path} not found: the reference checks need ../shared/reference/ "
                    "beside the repository")
    return path


@pytest.fixture(scope="session")
def bundle() -> dict:
    from maester.dsl import compile_paths

    return compile_paths()
