"""A fuzzing campaign from the command line: as many cases as asked, with counts, saving any finding.

    .venv/bin/python -m tests.fuzz.campaign content --cases 100000 --seed 1
    .venv/bin/python -m tests.fuzz.campaign bundles --cases 10000 --valid 2000 --seed 1 [--save]
    .venv/bin/python -m tests.fuzz.campaign positions|answers|cli|lsp --cases 10000 --seed 1

Content cases alternate mutations of the real files and generated text; bundle cases are one to three
mutations of the compiled bundled content (some aimed at the ids the engine computes in play), played
when they pass `validate_all`; a crash, a hang or a game stopped by an error is a finding. Findings are
minimized; with --save each becomes a regression input under tests/fuzz/regressions/. Positions, answers,
command lines and language-server messages use the oracles of tests/fuzz/kinds.py; a finding prints the
case (seed:number) that reproduces it.
"""

from __future__ import annotations

import argparse
import hashlib
import random
import sys
import time
from collections import Counter

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

SETUPS = ["base-3p", "base-4p", "base-6p", "mod-3p", "mod-5p-without-targaryen", "mod-8p"]


def content_case(rng: random.Random) -> tuple[str, bool]:
    """A text and whether to compile it with the core world."""
    if rng.random() < 0.3:
        return content_gen.generate(rng), rng.random() < 0.5
    src = rng.choice(real_content())
    return content_gen.mutate(src.text, rng), rng.random() < 0.3


def run_content(cases: int, seed: int, save: bool, seconds: float | None = None) -> Counter:
    counts: Counter = Counter()
    found: dict[str, str] = {}
    start = time.monotonic()
    for i in range(cases):
        if seconds is not None and time.monotonic() - start > seconds:
            break
        rng = random.Random(f"{seed}:{i}")
        text, with_world = content_case(rng)
        counts["cases"] += 1
        if counts["cases"] % 5000 == 0:
            print(f"{dict(counts)} after {time.monotonic() - start:.0f} s", flush=True)
        failure = content_failure(text, with_world)
        if failure is None:
            continue
        counts[failure] += 1
        if failure not in found:
            small = minimize_text(text, lambda t, f=failure, w=with_world: content_failure(t, w) == f)
            found[failure] = small
            print(f"FOUND {failure} (case {seed}:{i}, minimized to {len(small)} chars): {small[:200]!r}",
                  flush=True)
            if save:
                name = hashlib.sha256(small.encode("utf-8", "surrogatepass")).hexdigest()[:12]
                save_regression("content", name, small if not with_world else "# with-world\n" + small)
    return counts


def run_bundles(cases: int, seed: int, save: bool, seconds: float | None = None, valid: int | None = None) -> Counter:
    from maester.dsl import compile_paths

    bundle = compile_paths()
    mutator = BundleMutator(bundle)
    counts: Counter = Counter()
    found: set[str] = set()
    start = time.monotonic()
    for i in range(cases):
        if seconds is not None and time.monotonic() - start > seconds or valid is not None and counts["valid"] >= valid:
            break
        rng = random.Random(f"{seed}:{i}")
        case = mutator.case(rng, SETUPS)
        outcome = bundle_outcome(bundle, case)
        counts["cases"] += 1
        counts["valid" if outcome.valid else "refused at load"] += 1
        if outcome.refused_in_game:  # also a failure: the load check let through what stopped the game
            counts["stopped mid-game"] += 1
            if counts["stopped mid-game"] <= 10:
                print(f"STOPPED MID-GAME (case {seed}:{i}): {outcome.message} {case.to_json()}"[:1500], flush=True)
        if outcome.failure:
            counts[outcome.failure] += 1
            if outcome.failure not in found:
                found.add(outcome.failure)
                small = minimize_bundle_case(bundle, case, outcome.failure)
                print(f"FOUND {outcome.failure} (case {seed}:{i}): {small.to_json()}", flush=True)
                if save:
                    name = hashlib.sha256(repr(small.to_json()).encode()).hexdigest()[:12]
                    save_regression("bundles", name, {**small.to_json(), "failure": outcome.failure})
        if counts["cases"] % 250 == 0:
            print(f"{dict(counts)} after {time.monotonic() - start:.0f} s", flush=True)
    return counts


def run_kind(what: str, cases: int, seed: int, seconds: float | None = None) -> Counter:
    """Positions, answers or command lines: one case at a time, counted by outcome."""
    from . import kinds

    run_case = {"positions": kinds.position_case, "answers": kinds.answer_case, "cli": kinds.cli_case}[what]
    counts: Counter = Counter()
    start = time.monotonic()
    progress = max(1, min(1000, cases // 20))
    for i in range(cases):
        if seconds is not None and time.monotonic() - start > seconds:
            break
        failure = run_case(random.Random(f"{seed}:{i}"))
        counts["cases"] += 1
        if failure:
            counts[failure] += 1
            if counts[failure] == 1:
                print(f"FOUND {failure} (case {seed}:{i})", flush=True)
        if counts["cases"] % progress == 0:
            print(f"{dict(counts)} after {time.monotonic() - start:.0f} s", flush=True)
    return counts


def run_lsp(cases: int, seed: int, seconds: float | None = None) -> Counter:
    from . import kinds

    n, failures = kinds.lsp_campaign(cases, seed, seconds)
    return Counter({"cases": n, **failures})


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("what", choices=["content", "bundles", "positions", "answers", "cli", "lsp"])
    parser.add_argument("--cases", type=int, default=1000)
    parser.add_argument("--seconds", type=float, default=None, help="stop after this long")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--save", action="store_true", help="write findings to tests/fuzz/regressions/")
    parser.add_argument("--valid", type=int, default=None,
                        help="bundles: stop once this many mutated bundles passed validation and were played")
    args = parser.parse_args(argv)
    start = time.monotonic()
    if args.what == "bundles":
        counts = run_bundles(args.cases, args.seed, args.save, args.seconds, args.valid)
    elif args.what == "content":
        counts = run_content(args.cases, args.seed, args.save, args.seconds)
    elif args.what == "lsp":
        counts = run_lsp(args.cases, args.seed, args.seconds)
    else:
        counts = run_kind(args.what, args.cases, args.seed, args.seconds)
    print(f"DONE {args.what}: {dict(counts)} in {time.monotonic() - start:.0f} s", flush=True)
    failures = sum(n for k, n in counts.items() if k not in ("cases", "valid", "refused at load",
                                                                  "stopped mid-game"))  # counted in its failure
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
