"""Conformance vectors: language-neutral JSON cases generated from the scenario suite.

Each vector gives a starting position (the full game state), every decision in order — the question
asked (its number, decider, kind, rule and legal answers) and the answer given — and what must follow:
every event and the resulting position. The vector itself declares which fields are compared (`compare`):
English (`text` of events, `prompt` of decisions) and agent context (`info`) never are. Another engine that
loads the same bundle and reproduces every vector, decision by decision, executes the bundle as maester
does. Randomness is part of the state: the generator is SplitMix64 over `state.rng` (docs/conformance.md).

The schema of a vector is schemas/vector.schema.json (`formats.problems("vector", doc)`).
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from pathlib import Path

from maester.dsl.diagnostics import Diagnostics, MaesterError, Span
from maester.dsl.files import make_folder, write_files
from maester.dsl.json_input import loads as strict_json

from ..core.decisions import Decision, IllegalDecision
from ..core.rules import Rules
from ..core.state import GameState
from ..core.vector_format import COMPARE, INDEX_FORMAT, VECTOR_FORMAT, VECTOR_VERSION
from ..mod import ModOptions, new_game
from .scenario import Scenario, run_scenario

BUNDLE_FILE = "bundle.json"  # shipped with the vectors; index.json and the vector files are the rest
INDEX_FILE = "index.json"


def bundle_digest(bundle: dict) -> str:
    return hashlib.sha256(_canonical(bundle).encode()).hexdigest()


def _canonical(value) -> str:
    """JSON with sorted keys, no spaces and non-ASCII escaped (as the state hash has it): equal text means equal
    values, types included (1 is not 1.0 or true)."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"))


def decision_record(d: Decision, events_before: int) -> dict:
    """The question as a vector records it (the answer is added by the caller)."""
    return {"number": d.number, "house": d.house, "kind": d.kind, "rule": d.rule, "options": list(d.options),
            "events_before": events_before, "info": d.info}


# ---- writing ---------------------------------------------------------------------------------------------------


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
    decisions, events = [], 0
    for step in result.steps:  # the trace interleaves events and answered decisions in the order they happened
        if step.event is not None:
            events += 1
        elif step.decision is not None:
            decisions.append({**decision_record(step.decision, events), "answer": step.answer})
    if [d["answer"] for d in decisions] != list(game.answers):  # the trace is the run: a mismatch is a bug here
        raise AssertionError(f"{path}: the scenario trace does not hold every answer")
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
        "compare": COMPARE,
        "decisions": decisions,
        "expected": {
            "events": game.events,
            "final_state": game.state.to_json(),
            "final_state_hash": game.state.hash(),
            "pending_decision": _pending(game),
        },
    }


def _pending(game) -> dict | None:
    """The decision the run stopped at (a scenario may end before the game does), or None."""
    d = game.decision
    return None if d is None else decision_record(d, len(game.events))


def write_vectors(rules: Rules, scenarios_root: Path, out_dir: Path) -> tuple[int, list[str]]:
    """Write one vector file per passing scenario; returns (count, scenarios skipped)."""
    scenarios = sorted(scenarios_root.rglob("*.yaml"))
    if not scenarios:  # checked before anything is removed: nothing is half-written
        raise _nothing(scenarios_root, "no scenario (*.yaml) to make vectors from",
                       "give the scenario folder with --scenarios (the suite's is tests/scenarios)")
    # every vector is made before anything is written; then all files are written or none (dsl/files.py), and
    # only then are the vectors of scenarios that no longer exist removed
    files = {out_dir / BUNDLE_FILE: _canonical(rules.bundle) + "\n"}  # the bundle: another engine needs no more
    count, skipped = 0, []
    index = []
    for path in scenarios:
        vector = vector_from_scenario(rules, path, scenarios_root)
        if vector is None:
            skipped.append(str(path))
            continue
        name = vector["scenario"].removesuffix(".yaml").replace("/", "--") + ".json"
        files[out_dir / name] = _canonical(vector) + "\n"
        index.append({"file": name, "name": vector["name"], "rules": vector["rules"]})
        count += 1
    files[out_dir / INDEX_FILE] = json.dumps({
        "format": INDEX_FORMAT, "version": VECTOR_VERSION,
        "bundle_format": rules.bundle["format_version"], "bundle_sha256": bundle_digest(rules.bundle),
        "vectors": index}, indent=1) + "\n"
    make_folder(out_dir)
    write_files(files)
    for old in out_dir.glob("*.json"):
        if old not in files:
            old.unlink()
    return count, skipped


# ---- checking --------------------------------------------------------------------------------------------------


def replay_vector(rules: Rules, vector: dict) -> list[str]:
    """Run a vector through this interpreter, decision by decision; the differences (empty when it conforms).

    The first difference stops the run (what follows it would only repeat it), so the list names where the
    engines part: an event, a question (a field of the decision) or the final position."""
    wrong = _format_problem(vector)  # another format or version has other fields: say so, not KeyError
    if wrong:
        return wrong
    compare = vector["compare"]
    fields, unordered = compare["decision_fields"], set(compare.get("unordered_fields") or ())
    excluded = set(compare["event_fields_excluded"])
    opts = vector["options"]
    state = GameState.from_json(json.loads(json.dumps(vector["initial_state"])))
    game = new_game(rules, vector["setup"], seed=vector["seed"], state=state, start=False,
                    options=ModOptions(tides_of_battle=opts.get("tides_of_battle", False),
                                       stop_after=opts.get("stop_after"),
                                       player_houses=opts.get("player_houses")))
    for gift in vector.get("gifts") or []:  # power gifts made before the run (R42.4)
        game.gift_power(gift["from"], gift["to"], int(gift["amount"]))
    game.start()
    want = vector["expected"]
    for i, rec in enumerate(vector["decisions"]):
        where = f"decision {i} ({rec['kind']} for {rec['house']})"
        problem = _events_differ(game.events, want["events"], rec["events_before"], excluded, f"before {where}")
        if problem is None:
            d = game.decision
            problem = (f"{where}: the game asks nothing (it {'is over' if game.over else 'stopped'})"
                       if d is None else _question_differs(decision_record(d, len(game.events)), rec, fields,
                                                           unordered, where))
        if problem is None:
            try:
                game.answer(rec["answer"])
            except IllegalDecision as e:
                problem = f"{where}: the answer {rec['answer']!r} is refused — {e.diagnostics.items[0].message}"
        if problem is not None:
            return [problem]
    problems = []
    problem = _events_differ(game.events, want["events"], len(want["events"]), excluded, "at the end")
    if problem is not None:
        problems.append(problem)
    mine, theirs = _pending(game), want.get("pending_decision")
    if (mine is None) != (theirs is None):
        problems.append(f"pending decision {_brief(mine)} instead of {_brief(theirs)}")
    elif mine is not None:
        problem = _question_differs(mine, theirs, fields, unordered, "the pending decision")
        if problem is not None:
            problems.append(problem)
    if compare.get("final_state", True) and not _same(game.state.to_json(), want["final_state"]):
        diff = _first_difference(game.state.to_json(), want["final_state"])
        problems.append(f"final state {game.state.hash()} differs from {want['final_state_hash']} at {diff}")
    return problems


def _same(a, b, unordered: bool = False) -> bool:
    if unordered and isinstance(a, list) and isinstance(b, list):
        return sorted(map(_canonical, a)) == sorted(map(_canonical, b))
    return _canonical(a) == _canonical(b)


def _events_differ(mine: list[dict], theirs: list[dict], upto: int, excluded: set, when: str) -> str | None:
    """The first event up to `upto` that differs in a compared field, or a different count of events."""
    for a, b in zip(mine[:upto], theirs[:upto], strict=False):
        keys = sorted((set(a) | set(b)) - excluded)
        bad = [k for k in keys if k not in a or k not in b or not _same(a[k], b[k])]
        if bad:
            got = ", ".join(f"{k}={a.get(k, '(absent)')!r}" for k in bad)
            exp = ", ".join(f"{k}={b.get(k, '(absent)')!r}" for k in bad)
            return f"event {b.get('n')} ({b.get('type')}: {b.get('text')!r}): {got} instead of {exp}"
    if len(mine) != upto:
        return f"{len(mine)} events {when} instead of {upto}"
    return None


def _question_differs(mine: dict, theirs: dict, fields: list[str], unordered: set, where: str) -> str | None:
    for f in fields:
        if not _same(mine.get(f), theirs.get(f), f in unordered):
            if f == "options" and isinstance(mine.get(f), list) and isinstance(theirs.get(f), list):
                extra = [o for o in mine[f] if not any(_same(o, t) for t in theirs[f])]
                missing = [o for o in theirs[f] if not any(_same(o, m) for m in mine[f])]
                return f"{where}: legal answers differ: offers {extra[:6]} too, lacks {missing[:6]}"
            return f"{where}: {f} {mine.get(f)!r} instead of {theirs.get(f)!r}"
    return None


def _brief(rec: dict | None) -> str:
    return "none" if rec is None else f"#{rec['number']} ({rec['kind']} for {rec['house']})"


def _first_difference(a, b, path: str = "") -> str:
    """The JSON pointer of the first place two JSON values differ."""
    if isinstance(a, dict) and isinstance(b, dict):
        for k in sorted(set(a) | set(b)):
            if k not in a or k not in b or not _same(a[k], b[k]):
                return _first_difference(a.get(k), b.get(k), f"{path}/{k}") if k in a and k in b else f"{path}/{k}"
    if isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        for i, (x, y) in enumerate(zip(a, b, strict=True)):
            if not _same(x, y):
                return _first_difference(x, y, f"{path}/{i}")
    return path or "/"


@dataclass
class Report:
    """The outcome of checking a folder of vectors: which conform and, for the others, why not."""

    directory: Path
    checked: list[str] = field(default_factory=list)  # vector file names, in order
    failures: dict[str, list[str]] = field(default_factory=dict)  # file name -> its problems

    @property
    def ok(self) -> bool:
        return not self.failures

    @property
    def conforming(self) -> int:
        return len(self.checked) - len(self.failures)


def vector_files(directory: Path) -> list[Path]:
    return sorted(p for p in directory.glob("*.json") if p.name not in (INDEX_FILE, BUNDLE_FILE))


def check_directory(directory: Path, rules: Rules | None = None) -> Report:
    """Check every vector of a folder: each must follow schemas/vector.schema.json and replay exactly.

    The vectors are played with the bundle shipped beside them (`bundle.json`) unless `rules` is given.
    Raises MaesterError when there is nothing to check (no folder, no vector in it, an index naming other
    files, an unreadable bundle): a check that checks nothing must not pass."""
    from ..core import formats  # jsonschema is only needed to check, not to play

    if not directory.is_dir():
        raise _nothing(directory, "no such folder of conformance vectors",
                       "give the folder holding bundle.json, index.json and the vectors (the repository's is "
                       "conformance/); `maester conformance --write DIR` makes them")
    files = vector_files(directory)
    if not files:
        raise _nothing(directory, "no conformance vector (*.json besides index.json and bundle.json) to check",
                       "`maester conformance --write DIR` generates them from tests/scenarios")
    index_path, index = directory / INDEX_FILE, None
    if index_path.exists():  # the index lists the vectors: a file missing or extra means a partial folder
        index = _read_json(index_path)
        wrong = _index_problems(index)
        if wrong:
            raise _nothing(index_path, f"not an index of conformance vectors version {VECTOR_VERSION}: {wrong[0]}",
                           "regenerate the folder with `maester conformance --write DIR`")
        listed = {v["file"] for v in index["vectors"]}
        found = {p.name for p in files}
        if listed != found:
            missing, extra = sorted(listed - found), sorted(found - listed)
            raise _nothing(index_path, f"the index and the folder disagree: listed but missing {missing[:5]}, "
                                       f"present but not listed {extra[:5]}",
                           "regenerate the folder with `maester conformance --write DIR`")
    if rules is None:
        bundle_path = directory / BUNDLE_FILE
        if not bundle_path.exists():
            raise _nothing(bundle_path, "the bundle the vectors are for is missing",
                           "vectors are only meaningful with their bundle: regenerate with --write")
        rules = Rules.from_file(bundle_path)  # validated: a bad bundle is reported as such, not as a replay
        try:  # the file as written (loading reads an older bundle as it was meant, which may change it)
            shipped = json.loads(bundle_path.read_text(encoding="utf-8"))
        except ValueError:
            shipped = rules.bundle
        if index is not None and index.get("bundle_sha256") != bundle_digest(shipped):
            raise _nothing(bundle_path, "this is not the bundle the vectors were made for (its SHA-256 differs "
                                        "from the index's `bundle_sha256`)",
                           "the vectors and their bundle are made together: regenerate with `maester conformance "
                           "--write DIR`")
    report = Report(directory)
    for path in files:
        report.checked.append(path.name)
        try:
            vector = strict_json(path.read_text(encoding="utf-8"), str(path))
        except (OSError, UnicodeDecodeError, json.JSONDecodeError) as e:
            report.failures[path.name] = [f"not readable as JSON: {e}"]
            continue
        except MaesterError as e:  # beyond a limit of data files (dsl/limits.py)
            report.failures[path.name] = [e.diagnostics.items[0].message]
            continue
        # a vector of another format or version is refused before its schema and any replay
        problems = _format_problem(vector) or formats.problems("vector", vector, limit=5)
        if not problems:
            problems = replay_vector(rules, vector)
        if problems:
            report.failures[path.name] = problems
    return report


def _index_problems(index) -> list[str]:
    """Violations of the index's schema (`$defs/index` of the vector schema), each 'JSON-pointer: message'."""
    from jsonschema import Draft202012Validator

    from ..core import formats

    schema = formats.validator("vector").schema["$defs"]["index"]
    errors = sorted(Draft202012Validator(schema).iter_errors(index), key=lambda e: list(map(str, e.absolute_path)))
    return [f"/{'/'.join(map(str, e.absolute_path))}: {e.message[:200]}" for e in errors]


def _format_problem(vector) -> list[str]:
    if not isinstance(vector, dict) or vector.get("format") != VECTOR_FORMAT:
        return [f"not a conformance vector (its `format` is not {VECTOR_FORMAT!r})"]
    if vector.get("version") != VECTOR_VERSION:
        return [f"vector format version {vector.get('version')!r}; this checker reads version {VECTOR_VERSION} "
                f"(regenerate with `maester conformance --write DIR`)"]
    return []


def _read_json(path: Path):
    try:
        return strict_json(path.read_text(encoding="utf-8"), str(path))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as e:
        raise _nothing(path, f"cannot read it as JSON: {e}", "regenerate with `maester conformance --write DIR`") \
            from None


def _nothing(where: Path, message: str, hint: str) -> MaesterError:
    diags = Diagnostics()
    diags.error("conformance", message, Span(str(where), 0, 0), hint)
    return MaesterError(diags)
