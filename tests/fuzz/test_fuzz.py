"""Fuzzing: hostile content text and mutated bundles never crash, hang or give an unlocated error.

Each test runs for its time budget (2 s by default; `--fuzz-seconds N` or MAESTER_FUZZ_SECONDS for a
real campaign; MAESTER_FUZZ_SEED for another sequence) and always runs at least a minimum number of
cases. A failure is minimized and saved under tests/fuzz/regressions/ (commit it with the fix: the
regression test replays it from then on); the message names the saved file.
"""

from __future__ import annotations

import hashlib
import json
import random
import string
import time

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from . import content_gen
from .harness import (
    BundleMutator,
    bundle_outcome,
    content_failure,
    minimize_bundle_case,
    minimize_text,
    real_content,
    save_regression,
)

MIN_CASES = 20
SETUPS = ["base-3p", "base-6p", "mod-4p-with-targaryen", "mod-8p"]


def _budget(seconds: float, minimum: int = MIN_CASES):
    """Case numbers 0, 1, 2, ... while the time budget lasts (and at least `minimum` of them)."""
    start, i = time.monotonic(), 0
    while i < minimum or time.monotonic() - start < seconds:
        yield i
        i += 1


def _content_findings(make, seed: int, seconds: float) -> tuple[int, list[str]]:
    findings: dict[str, str] = {}
    n = 0
    for i in _budget(seconds):
        rng = random.Random(f"{seed}:{i}")
        text, with_world = make(rng)
        n += 1
        failure = content_failure(text, with_world)
        if failure and failure not in findings:
            small = minimize_text(text, lambda t, f=failure, w=with_world: content_failure(t, w) == f)
            saved = small if not with_world else "# with-world\n" + small
            name = hashlib.sha256(saved.encode("utf-8", "surrogatepass")).hexdigest()[:12]
            path = save_regression("content", name, saved)
            findings[failure] = f"{failure}: case {seed}:{i}, minimized and saved as {path.name}: {small[:300]!r}"
    return n, list(findings.values())


def test_mutated_real_content_fails_cleanly(fuzz_seconds, fuzz_seed):
    def make(rng):
        src = rng.choice(real_content())
        return content_gen.mutate(src.text, rng), rng.random() < 0.3

    n, findings = _content_findings(make, fuzz_seed, fuzz_seconds)
    assert not findings, f"{len(findings)} kinds of failure in {n} mutated files:\n" + "\n".join(findings)


def test_generated_content_fails_cleanly(fuzz_seconds, fuzz_seed):
    def make(rng):
        return content_gen.generate(rng), rng.random() < 0.5

    n, findings = _content_findings(make, fuzz_seed + 1_000_000, fuzz_seconds)
    assert not findings, f"{len(findings)} kinds of failure in {n} generated files:\n" + "\n".join(findings)


# Hypothesis shrinks by itself: token soup from the grammar's own pieces.
_pieces = st.sampled_from(content_gen.TOKENS + content_gen.WORDS + list(string.printable))


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow], derandomize=True)
@given(st.lists(_pieces, max_size=60).map(" ".join))
def test_token_soup_fails_cleanly(text):
    assert content_failure(text) is None


def test_mutated_bundles_never_crash_a_game(fuzz_seconds, fuzz_seed, bundle):
    mutator = BundleMutator(bundle)
    findings: dict[str, str] = {}
    counts = {"cases": 0, "valid": 0}
    for i in _budget(fuzz_seconds, minimum=8):
        rng = random.Random(f"{fuzz_seed}:{i}")
        case = mutator.case(rng, SETUPS)
        outcome = bundle_outcome(bundle, case)
        counts["cases"] += 1
        counts["valid"] += outcome.valid
        if outcome.failure and outcome.failure not in findings:
            small = minimize_bundle_case(bundle, case, outcome.failure)
            name = hashlib.sha256(repr(small.to_json()).encode()).hexdigest()[:12]
            path = save_regression("bundles", name, {**small.to_json(), "failure": outcome.failure})
            findings[outcome.failure] = f"{outcome.failure}: saved as {path.name}: {small.to_json()}"
    assert not findings, f"{len(findings)} crashes in {counts}:\n" + "\n".join(findings)
    assert counts["valid"] > 0, f"no mutation passed validation, so no game was played: {counts}"


@pytest.mark.parametrize("text", ["", "\n", "}", "{", '"', "house-card", "# only a comment"])
def test_tiny_inputs(text):
    assert content_failure(text) is None


def test_mutated_scenarios_fail_cleanly(fuzz_seconds, fuzz_seed, tmp_path):
    import yaml

    from maester.interpreter.core.rules import Rules

    from .harness import REGRESSIONS, mutate_json, scenario_failure

    rules = Rules.default()
    files = sorted((REGRESSIONS.parents[1] / "scenarios").rglob("*.yaml"))
    findings: dict[str, str] = {}
    n = 0
    for i in _budget(fuzz_seconds, minimum=10):
        rng = random.Random(f"{fuzz_seed}:{i}")
        data = yaml.safe_load(rng.choice(files).read_text(encoding="utf-8"))
        text = yaml.safe_dump(mutate_json(data, rng, rng.randint(1, 3)))
        n += 1
        failure = scenario_failure(rules, text, tmp_path)
        if failure and failure not in findings:
            path = save_regression("scenarios", hashlib.sha256(text.encode()).hexdigest()[:12], {"yaml": text})
            findings[failure] = f"{failure}: saved as {path.name}"
    assert not findings, f"{len(findings)} kinds of failure in {n} mutated scenarios:\n" + "\n".join(findings)


def test_mutated_game_logs_fail_cleanly(fuzz_seconds, fuzz_seed, tmp_path):
    from maester.interpreter.core.rules import Rules
    from maester.interpreter.frontends.agents import agents_for
    from maester.interpreter.frontends.log import game_log
    from maester.interpreter.mod import new_game

    from .harness import log_failure, mutate_json

    rules = Rules.default()
    g = new_game(rules, "base-3p", seed=3)
    g.play(agents_for(g.state.houses, "random", 3))
    log = json.loads(json.dumps(game_log(g, "random")))
    findings: dict[str, str] = {}
    n = 0
    for i in _budget(fuzz_seconds, minimum=5):
        rng = random.Random(f"{fuzz_seed}:{i}")
        data = mutate_json(log, rng, rng.randint(1, 3))
        n += 1
        failure = log_failure(rules, data, tmp_path)
        if failure and failure not in findings:
            path = save_regression("logs", hashlib.sha256(json.dumps(data).encode()).hexdigest()[:12], data)
            findings[failure] = f"{failure}: saved as {path.name}"
    assert not findings, f"{len(findings)} kinds of failure in {n} mutated logs:\n" + "\n".join(findings)


# ---- positions, answers, command lines and the language server (issue 20) ------------------------------


@pytest.mark.parametrize("kind,minimum", [("position", 20), ("answer", 10), ("cli", 3)])
def test_hostile_positions_answers_and_command_lines_fail_cleanly(kind, minimum, fuzz_seconds, fuzz_seed):
    from . import kinds

    run_case = getattr(kinds, f"{kind}_case")
    findings: dict[str, str] = {}
    n = 0
    for i in _budget(fuzz_seconds, minimum=minimum):
        n += 1
        failure = run_case(random.Random(f"{fuzz_seed}:{i}"))
        if failure and failure not in findings:
            findings[failure] = f"{failure}: case {fuzz_seed}:{i} (tests/fuzz/kinds.py {kind}_case reproduces it)"
    assert not findings, f"{len(findings)} kinds of failure in {n} {kind} cases:\n" + "\n".join(findings.values())


def test_the_language_server_answers_every_hostile_request(fuzz_seconds, fuzz_seed):
    from . import kinds

    n, failures = kinds.lsp_campaign(max(3, int(fuzz_seconds * 2)), fuzz_seed, seconds=fuzz_seconds)
    assert n >= 3 and not failures, f"{failures} in {n} bursts"
