"""Fuzz budget and seed: 2 seconds per test by default, as long as asked with --fuzz-seconds N."""

from __future__ import annotations

import os

import pytest

DEFAULT_SECONDS = 2.0


@pytest.fixture(scope="session")
def fuzz_seconds(request) -> float:
    given = request.config.getoption("--fuzz-seconds")
    if given is None:
        given = float(os.environ.get("MAESTER_FUZZ_SECONDS", DEFAULT_SECONDS))
    return given


@pytest.fixture(scope="session")
def fuzz_seed() -> int:
    """MAESTER_FUZZ_SEED picks another sequence of cases; the default run is the same every time."""
    return int(os.environ.get("MAESTER_FUZZ_SEED", "0"))
