"""Conformance vectors: language-neutral JSON cases generated from the scenario suite.

Each vector gives a starting position (the full game state), the decisions in order, and what must
follow: every event and the resulting position. Another engine that loads the same bundle and
reproduces every vector executes the bundle as maester does. Randomness is part of the state: the
generator is SplitMix64 over `state.rng` (see docs/conformance.md), so shuffles are reproducible.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

from .mod import ModOptions, new_game
from .rules import Rules
from .scenario import Scenario, run_scenario
from .state import GameState

VECTOR_FORMAT = "maester-conformance-vector"
BUNDLE_FILE = "bundle.json"  # shipped with the vectors; index.json and the vector files are the rest
VECTOR_VERSION = 1


def bundle_digest(bundle: dict) -> str:
    return hashlib.sha256(json.dumps(bundle, sort_keys=True, separators=(",", ":")).encode()).hexdigest()


def vector_from_scenario(rules: Rules, path: Path, root: Path) -> dict | None:
    """Run a scenario and record it as a vector (None if the scenario does not pass)."""
    sc = Scenario.load(path)
    if sc.variant or sc.packs:
        return None  # it runs with other content than the bundle shipped with the vectors
    initial = sc.build_state(rules).to_json()
    result = run_scenario(rules, sc)
    if not result.ok or result.error is not None:  # a refused step is not a replayable run
        return None
    game = result.game
    return {
        "format": VECTOR_FORMAT,
        "version": VECTOR_VERSION,
        "name": sc.name,
        "scenario": path.relative_to(root).as_posix(),
        "rules": sc.rules,
        "bundle_format": rules.bundle["format_version"],
        "setup": sc.setup,
        "seed": sc.seed,
        "options": {"tides_of_battle": sc.tides, "stop_after": sc.stop_after, "player_houses": sc.players},
        "gifts": sc.gifts,
        "initial_state": initial,
        "decisions": list(game.answers),
        "expected": {
            "events": game.events,
            "final_state": game.state.to_json(),
            "final_state_hash": game.state.hash(),
            "pending_decision": _pending(game),
        },
    }


def replay_vector(rules: Rules, vector: dict) -> list[str]:
    """Run a vector through this interpreter; the list of differences (empty when it conforms)."""
    opts = vector["options"]
    state = GameState.from_json(json.loads(json.dumps(vector["initial_state"])))
    game = new_game(rules, vector["setup"], seed=vector["seed"], state=state, start=False,
                    options=ModOptions(tides_of_battle=opts.get("tides_of_battle", False),
                                       stop_after=opts.get("stop_after"),
                                       player_houses=opts.get("player_houses")))
    for gift in vector.get("gifts") or []:  # power gifts made before the run (R42.4)
        game.gift_power(gift["from"], gift["to"], int(gift["amount"]))
    game.start()
    for answer in vector["decisions"]:
        if game.decision is None:
            return ["the game asked fewer decisions than the vector has"]
        game.answer(answer)
    problems = []
    want = vector["expected"]
    if _pending(game) != want.get("pending_decision"):
        problems.append(f"pending decision {_pending(game)} instead of {want.get('pending_decision')}")
    for mine, theirs in zip(game.events, want["events"], strict=False):
        if mine != theirs:
            problems.append(f"event {theirs.get('n')}: expected {theirs.get('text')!r}, got {mine.get('text')!r}")
            break
    if len(game.events) != len(want["events"]):
        problems.append(f"{len(game.events)} events instead of {len(want['events'])}")
    if game.state.to_json() != want["final_state"]:
        problems.append(f"final state {game.state.hash()} differs from {want['final_state_hash']}")
    return problems


def _pending(game) -> dict | None:
    """The decision the run stopped at (a scenario may end before the game does), or None."""
    d = game.decision
    return None if d is None else {"number": d.number, "house": d.house, "kind": d.kind, "options": d.options}


def write_vectors(rules: Rules, scenarios_root: Path, out_dir: Path) -> tuple[int, list[str]]:
    """Write one vector file per passing scenario; returns (count, scenarios skipped)."""
    out_dir.mkdir(parents=True, exist_ok=True)
    for old in out_dir.glob("*.json"):
        old.unlink()
    # the bundle the vectors are for, so another engine needs nothing else
    (out_dir / BUNDLE_FILE).write_text(json.dumps(rules.bundle, separators=(",", ":"), sort_keys=True) + "\n",
                                      encoding="utf-8")
    count, skipped = 0, []
    index = []
    for path in sorted(scenarios_root.rglob("*.yaml")):
        vector = vector_from_scenario(rules, path, scenarios_root)
        if vector is None:
            skipped.append(str(path))
            continue
        name = vector["scenario"].removesuffix(".yaml").replace("/", "--") + ".json"
        (out_dir / name).write_text(json.dumps(vector, separators=(",", ":"), sort_keys=True) + "\n",
                                    encoding="utf-8")
        index.append({"file": name, "name": vector["name"], "rules": vector["rules"]})
        count += 1
    (out_dir / "index.json").write_text(json.dumps({
        "format": VECTOR_FORMAT + "-index", "version": VECTOR_VERSION,
        "bundle_format": rules.bundle["format_version"], "bundle_sha256": bundle_digest(rules.bundle),
        "vectors": index}, indent=1) + "\n", encoding="utf-8")
    return count, skipped
