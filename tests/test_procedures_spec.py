"""docs/procedures.md, the game's procedure, is generated from the step catalogue (interpreter/core/steps.py and
the `step(...)` declarations of the procedure modules), and the catalogue is a grammar of every game's trace.

- the catalogue names only declared steps, event types (with rules they may cite) and decision kinds, and every
  step is reachable from the game;
- docs/procedures.md is exactly what `maester docs --write` makes from it;
- random games of every setup (with and without Tides of Battle) produce traces the grammar accepts: every event
  and decision comes from a declared step, in the declared order (one seed each by default; `--runslow`: more);
- the grammar is not vacuous: a trace with two items swapped, or an item no step declares, is refused.
"""

from __future__ import annotations

import pytest

import maester.interpreter.mod  # noqa: F401  (every procedure module: every step is declared)
from maester.interpreter.core import steps
from maester.interpreter.core.rules import Rules
from maester.interpreter.frontends.agents import RandomAgent
from maester.interpreter.mod import new_game
from maester.interpreter.procedures.game import Options

from .conftest import REPO


@pytest.fixture(scope="module")
def rules() -> Rules:
    return Rules.default()


@pytest.fixture(scope="module")
def grammar() -> steps.Grammar:
    return steps.Grammar()


def trace_of(rules: Rules, setup: str, seed: int, tides: bool) -> list[tuple[str, dict]]:
    """A random game's events and decisions, in the order they happened."""
    g = new_game(rules, setup, seed=seed, options=Options(tides_of_battle=tides))
    agent, trace, seen = RandomAgent(seed), [], 0
    while g.decision is not None:
        trace.extend(("event", e) for e in g.events[seen:])
        seen = len(g.events)
        trace.append(("decision", g.decision.to_json()))
        g.answer(agent.act(g, g.decision))
    trace.extend(("event", e) for e in g.events[seen:])
    return trace


def test_the_catalogue_is_consistent():
    assert steps.problems() == []
    assert {"game", "combat.clean-up", "combat.window.after-combat", "mod.choose-commanders"} <= set(steps.STEPS)


def test_procedures_doc_is_generated_and_fresh():
    doc = REPO / "docs" / "procedures.md"
    assert doc.read_text(encoding="utf-8") == steps.markdown(), "docs/procedures.md is stale: maester docs --write"


def _setups(rules: Rules) -> list[str]:
    return sorted(rules.bundle["setups"])


def _check(rules, grammar, setup, seed, tides) -> list[str]:
    problems = grammar.problems(trace_of(rules, setup, seed, tides))
    return [f"{setup} seed {seed}{' tides' if tides else ''}: {p}" for p in problems]


def test_random_games_of_every_setup_follow_the_declared_procedure(rules, grammar):
    bad = []
    for setup in _setups(rules):
        bad += _check(rules, grammar, setup, 0, setup.startswith("base"))
    assert not bad, "\n".join(bad[:5])


@pytest.mark.slow
def test_many_random_games_follow_the_declared_procedure(rules, grammar):
    bad = []
    for setup in _setups(rules):
        for seed in range(1, 13):
            bad += _check(rules, grammar, setup, seed, seed % 2 == 0)
    assert not bad, "\n".join(bad[:5])


def test_the_grammar_refuses_what_the_procedure_does_not_do(rules, grammar):
    trace = trace_of(rules, "base-3p", 0, False)
    assert grammar.problems(trace) == []
    # the clean up of the Action Phase before the phase has begun
    first_action = next(i for i, (k, d) in enumerate(trace) if k == "event" and d["type"] == "phase"
                        and d["rule"] == "R15")
    clean = next(i for i, (k, d) in enumerate(trace) if k == "event" and d["type"] == "clean-up")
    swapped = list(trace)
    swapped[first_action], swapped[clean] = swapped[clean], swapped[first_action]
    assert "comes from no declared step" in grammar.problems(swapped)[0]
    # an event citing a rule its step does not cite
    wrong = list(trace)
    k, d = wrong[first_action]
    wrong[first_action] = (k, {**d, "rule": "R13"})
    assert grammar.problems(wrong)
    # a game cut short does not end where the procedure ends
    assert "ends where" in grammar.problems(trace[:-3])[0]


def test_the_combat_opens_the_registry_windows_in_their_order():
    """docs/effects.md lists the windows (registry COMBAT_WINDOWS); the combat's declared steps open them in that
    order (after-combat inside the Combat Clean Up)."""
    from maester.dsl.registry import COMBAT_WINDOWS

    opened = [p.step.removeprefix("combat.window.") for p in steps.parts("combat")
              if isinstance(p, steps.Run) and p.step.startswith("combat.window.")]
    opened += [p.step.removeprefix("combat.window.") for p in steps.parts("combat.clean-up")
               if isinstance(p, steps.Run) and p.step.startswith("combat.window.")]
    assert opened == list(COMBAT_WINDOWS)


def test_a_step_id_names_a_moment_of_the_game():
    assert steps.moment("combat.clean-up").title == "Combat Clean Up"
    with pytest.raises(KeyError, match="did you mean combat.clean-up"):
        steps.moment("combat.cleanup")


def test_every_conformance_vector_follows_the_declared_procedure():
    """The vectors (every card, every rule scenario) run from a phase's start: their decisions and events, in
    order, are a prefix of a trace the declarations allow from that phase."""
    import json

    bad = []
    grammars: dict[str, steps.Grammar] = {}
    for path in sorted((REPO / "conformance").glob("*.json")):
        v = json.loads(path.read_text())
        if "initial_state" not in v:
            continue
        phase = v["initial_state"]["phase"]
        grammar = grammars.setdefault(phase, steps.Grammar.from_phase(phase))
        events, trace, seen = v["expected"]["events"], [], 0
        for d in v["decisions"] + ([v["expected"]["pending_decision"]] if v["expected"]["pending_decision"] else []):
            trace += [("event", e) for e in events[seen:d["events_before"]]]
            seen = d["events_before"]
            trace.append(("decision", d))
        trace += [("event", e) for e in events[seen:]]
        bad += [f"{path.name}: {p}" for p in grammar.problems(trace, complete=False)]
    assert not bad, "\n".join(bad[:5])
