"""Every scenario in tests/scenarios/ resolves as its expectations say (see docs/scenarios.md)."""

from __future__ import annotations

from pathlib import Path

import pytest

from maester.interpreter.frontends.scenario import Scenario, explain_lines, run_scenario

SCENARIOS = sorted((Path(__file__).parent / "scenarios").rglob("*.yaml"))


@pytest.fixture(scope="module")
def rules():
    from maester.interpreter.core.rules import Rules

    return Rules.default()


@pytest.mark.parametrize("path", SCENARIOS, ids=lambda p: str(p.relative_to(p.parents[2])))
def test_scenario(rules, path):
    result = run_scenario(rules, Scenario.load(path))
    assert result.ok, "\n" + "\n".join(explain_lines(result))
