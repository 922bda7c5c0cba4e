"""Replay every recorded fuzzing finding (tests/fuzz/regressions/): each must now fail cleanly.

scenarios/*.json ({"yaml": text}) and logs/*.json (a game log): loaded and run, a MaesterError at most.

content/*.mst: compiled alone (or with the core declarations when the first line is `# with-world`);
no traceback, every error located, bounded output. bundles/*.json: JSON patches of the compiled
bundled content, a setup and a seed; the patched bundle is refused at load with a located error
("expect": "refused", the crashes issue 14 listed) or, if it loads, a game on it does not crash.
"""

from __future__ import annotations

import json

import pytest

from .harness import REGRESSIONS, BundleCase, bundle_outcome, content_failure

CONTENT = sorted((REGRESSIONS / "content").glob("*.mst"))
BUNDLES = sorted((REGRESSIONS / "bundles").glob("*.json"))


@pytest.mark.parametrize("path", CONTENT, ids=[p.stem for p in CONTENT])
def test_content_regression(path):
    text = path.read_text(encoding="utf-8", errors="surrogatepass")
    with_world = text.startswith("# with-world\n")
    assert content_failure(text, with_world) is None


@pytest.mark.parametrize("path", BUNDLES, ids=[p.stem for p in BUNDLES])
def test_bundle_regression(path, bundle):
    data = json.loads(path.read_text(encoding="utf-8"))
    outcome = bundle_outcome(bundle, BundleCase.from_json(data))
    assert outcome.failure is None
    if data.get("expect") == "refused":
        assert not outcome.valid, "this bundle once crashed the engine: it must be refused when loaded"


def test_there_are_regressions_to_replay():
    assert len(CONTENT) >= 10 and len(BUNDLES) >= 10


SCENARIOS = sorted((REGRESSIONS / "scenarios").glob("*.json"))
LOGS = sorted((REGRESSIONS / "logs").glob("*.json"))


@pytest.mark.parametrize("path", SCENARIOS, ids=[p.stem for p in SCENARIOS])
def test_scenario_regression(path, tmp_path):
    from maester.interpreter.core.rules import Rules

    from .harness import scenario_failure

    text = json.loads(path.read_text(encoding="utf-8"))["yaml"]
    assert scenario_failure(Rules.default(), text, tmp_path) is None


@pytest.mark.parametrize("path", LOGS, ids=[p.stem for p in LOGS])
def test_log_regression(path, tmp_path):
    from maester.interpreter.core.rules import Rules

    from .harness import log_failure

    assert log_failure(Rules.default(), json.loads(path.read_text(encoding="utf-8")), tmp_path) is None
