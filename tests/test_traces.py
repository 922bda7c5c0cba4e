"""Traces point at their source: every event a card statement produces names the card (`card`) and the
DSL statement (`source`, file:line:col), and every event's `rule` is a rule id of docs/rules.md alone.

Which events come from card statements is found independently of the engine's own bookkeeping: every
primitive handler is wrapped for the test and records the events emitted while it runs for a card.
"""

from __future__ import annotations

import inspect
import re
from pathlib import Path

import pytest

from maester.dsl.compile import default_content_dir
from maester.interpreter import effects
from maester.interpreter.core.rules import Rules
from maester.interpreter.effects import evaluator
from maester.interpreter.frontends.agents import agents_for
from maester.interpreter.frontends.scenario import Scenario, explain_lines, run_scenario
from maester.interpreter.mod import new_game

REPO = Path(__file__).resolve().parents[1]
RULE_ID = re.compile(r"R\d+(?:\.\d+)*")
SOURCE = re.compile(r"(?P<file>content/.+\.mst):(?P<line>\d+):(?P<col>\d+)")
GAMES = [("base-4p", 3), ("base-6p", 1), ("mod-8p", 2), ("mod-5p-without-targaryen", 4)]
SCENARIOS = ["base/cards/tyrion-lannister.yaml", "base/cards/doran-martell.yaml", "mod/cards/robert-arryn.yaml",
             "mod/bank/loans/customs-officer.yaml", "base/westeros/wildling-crow-killers-wildlings-win.yaml",
             "mod/vassals/cards/beric-dondarrion.yaml"]


@pytest.fixture(scope="module")
def rules() -> Rules:
    return Rules.default()


@pytest.fixture(scope="module")
def rule_ids() -> set[str]:
    text = (REPO / "docs" / "rules.md").read_text(encoding="utf-8")
    return set(re.findall(r"\*\*(R\d+(?:\.\d+)*)\*\*", text)) | set(re.findall(r"^## (R\d+) ", text, re.M))


@pytest.fixture
def card_events(monkeypatch):
    """Wrap every handler: the event numbers emitted while a handler runs for a card, with that card."""
    seen: dict[int, dict[int, str]] = {}  # id(game) -> event number -> card of the running handler

    def mark(g, start, card):
        for n in range(start, len(g.events)):
            seen.setdefault(id(g), {}).setdefault(n, card)

    def wrap(handler):
        # a wrapper of the same nature as the handler: the interpreter runs plain handlers without generators
        def run(g, sc, a, st):
            start = len(g.events)
            out = handler(g, sc, a, st)
            if sc.card is not None:
                mark(g, start, sc.card)
            return out

        def steps(g, sc, a, st):
            gen, answer = handler(g, sc, a, st), None
            while True:
                start = len(g.events)
                try:
                    d = gen.send(answer)
                except StopIteration as stop:
                    if sc.card is not None:
                        mark(g, start, sc.card)
                    return stop.value
                if sc.card is not None:
                    mark(g, start, sc.card)
                answer = yield d
        return steps if inspect.isgeneratorfunction(handler) else run

    for name, handler in list(effects.HANDLERS.items()):
        monkeypatch.setitem(effects.HANDLERS, name, wrap(handler))
    evaluator._CACHE.clear()  # compiled closures hold the handlers: compile again with the wrapped ones
    evaluator._PURE.clear()
    yield seen
    evaluator._CACHE.clear()
    evaluator._PURE.clear()


def _check_source(bundle: dict, event: dict) -> str | None:
    """The source names a line inside the card's own definition, at a statement."""
    card, source = event.get("card"), event.get("source")
    rec = next((bundle[s][card] for s in ("house_cards", "westeros_cards", "wildling_cards", "loans")
                if card in bundle[s]), None)
    if rec is None:
        return f"card {card!r} is not a card id"
    m = SOURCE.fullmatch(source or "")
    if m is None:
        return f"source {source!r} is not file:line:col"
    file, start = rec["source"].rsplit(":", 2)[0], int(rec["source"].rsplit(":", 2)[1])
    if m["file"] != file:
        return f"source {source} is not in {file}, where {card} is defined"
    lines = (default_content_dir().parent / file).read_text(encoding="utf-8").splitlines()
    line, col = int(m["line"]), int(m["col"])
    nxt = next((i for i in range(start, len(lines)) if re.match(r"[a-z-]+-card |loan |house-card ", lines[i])),
               len(lines))
    if not start <= line <= nxt:
        return f"source {source} is outside {card}'s definition (lines {start}-{nxt})"
    word = re.match(r"[a-z-]+", lines[line - 1][col - 1:])
    if word is None:
        return f"source {source} does not point at a statement"
    return None


def _problems(bundle, events, produced, rule_ids) -> list[str]:
    out = []
    for e in events:
        where = f"#{e['n']} {e['type']} {e['text']!r}"
        if not RULE_ID.fullmatch(e["rule"]) or e["rule"] not in rule_ids:
            out.append(f"{where}: rule {e['rule']!r} is not a rule id of docs/rules.md")
        if e["n"] in produced and ("card" not in e or "source" not in e):
            out.append(f"{where}: produced by {produced[e['n']]} but carries no card/source")
        if "source" in e and (bad := _check_source(bundle, e)):
            out.append(f"{where}: {bad}")
    return out


@pytest.mark.parametrize("setup,seed", GAMES)
def test_game_events_of_card_origin_carry_card_and_source(rules, bundle, rule_ids, card_events, setup, seed):
    g = new_game(rules, setup, seed=seed)
    g.play(agents_for(g.state.houses, "heuristic", seed=seed))
    produced = card_events.get(id(g), {})
    assert len(produced) > 20, "the game ran too few card statements to say anything"
    problems = _problems(bundle, g.events, produced, rule_ids)
    assert not problems, "\n".join(problems[:30])


@pytest.mark.parametrize("name", SCENARIOS)
def test_scenario_events_of_card_origin_carry_card_and_source(rules, bundle, rule_ids, card_events, name):
    result = run_scenario(rules, Scenario.load(REPO / "tests" / "scenarios" / name))
    produced = card_events.get(id(result.game), {})
    assert produced, "no card statement ran"
    problems = _problems(bundle, result.game.events, produced, rule_ids)
    assert not problems, "\n".join(problems)


def test_a_cancel_names_the_cancelling_card_its_statement_and_the_cancelled_card(rules):
    """Tyrion Lannister sends Eddard Stark back: the event is Tyrion's, at his return-played-card line."""
    result = run_scenario(rules, Scenario.load(REPO / "tests" / "scenarios" / "base/cards/tyrion-lannister.yaml"))
    cancel = next(e for e in result.game.events if e["type"] == "cancel")
    src = result.game.rules.bundle["house_cards"]["tyrion-lannister"]["source"]
    file, first = src.rsplit(":", 2)[0], int(src.rsplit(":", 2)[1])
    lines = (default_content_dir().parent / file).read_text(encoding="utf-8").splitlines()
    line = next(i + 1 for i in range(first - 1, len(lines)) if "return-played-card(" in lines[i])
    col = lines[line - 1].index("return-played-card(") + 1
    assert cancel["card"] == "tyrion-lannister"
    assert cancel["source"] == f"{file}:{line}:{col}"
    assert cancel["subject"] == "eddard-stark"
    assert cancel["rule"] == "R20.2.1"
    shown = next(x for x in explain_lines(result) if "is cancelled" in x)
    assert f"tyrion-lannister @ {file}:{line}:{col}" in shown


def test_a_paid_cost_points_at_the_may_statement(rules):
    """Aeron Damphair: the 2 power paid cite the `may ... pay 2` line, the discard its own statement."""
    result = run_scenario(rules, Scenario.load(REPO / "tests" / "scenarios" / "base/cards/aeron-damphair.yaml"))
    file = "content/cards/base/greyjoy.mst"
    lines = (default_content_dir().parent / file).read_text(encoding="utf-8").splitlines()
    first = next(i for i, x in enumerate(lines) if 'house-card aeron-damphair "' in x)
    may = next(i + 1 for i in range(first, len(lines)) if lines[i].lstrip().startswith("may ") and "pay 2" in lines[i])
    col = lines[may - 1].index("may ") + 1
    cost = next(e for e in result.game.events if e["type"] == "power" and "cost" in e["text"])
    assert (cost["card"], cost["source"], cost["rule"]) == ("aeron-damphair", f"{file}:{may}:{col}", "R20.2.2")
    discard = next(e for e in result.game.events if e["type"] == "cards" and "discards its revealed" in e["text"])
    assert discard["source"] == f"{file}:{may + 1}:{col + 2}"
    asked = next(s.decision for s in result.steps if s.decision is not None and s.decision.kind == "may")
    assert (asked.info["card"], asked.info["source"]) == ("aeron-damphair", f"{file}:{may}:{col}")
    assert any(f"⟨aeron-damphair @ {file}:{may}:{col}⟩" in x and "decision" in x for x in explain_lines(result))


def test_loan_events_cite_the_loan_rule_and_the_loan(rules):
    """Customs Officer: the power gained cites R41 (not "R41 customs-officer") and names the loan."""
    result = run_scenario(rules, Scenario.load(REPO / "tests" / "scenarios" / "mod/bank/loans/customs-officer.yaml"))
    power = [e for e in result.game.events if e["type"] == "power" and e.get("card") == "customs-officer"]
    assert power and all(e["rule"] == "R41" and e["source"].startswith("content/cards/loans.mst:") for e in power)


def test_every_scenario_event_cites_a_plain_rule_id_and_card_events_a_real_source(rules, bundle, rule_ids):
    """All scenarios: no rule packs a card name, and every `source` lies in its card's own definition."""
    problems = []
    for path in sorted((REPO / "tests" / "scenarios").rglob("*.yaml")):
        sc = Scenario.load(path)
        if sc.packs:  # its cards come from a pack outside content/ (the source check reads content files)
            continue
        result = run_scenario(rules, sc)
        problems += [f"{path.name}: {p}" for p in _problems(bundle, result.game.events, {}, rule_ids)]
    assert not problems, "\n".join(problems[:30])


def test_a_card_removed_at_the_clean_up_cites_the_statement_that_removed_it(rules):
    """Robert Arryn removes itself after combat: the R43 event at the clean up points at that statement."""
    result = run_scenario(rules, Scenario.load(REPO / "tests" / "scenarios" / "mod/cards/robert-arryn.yaml"))
    events = result.game.events
    later = next(e for e in events if e["rule"] == "R43" and e["card"] == "robert-arryn")
    set_up = next(e for e in events if "will be removed" in e["text"])
    assert later["source"] == set_up["source"]
    assert later["n"] > set_up["n"]


def test_a_loss_prevented_by_a_standing_card_cites_that_card_and_statement():
    """The `protected` events come from combat, caused by a card's standing protection: they cite it."""
    import json

    from .conftest import REPO

    vector = json.loads((REPO / "conformance" / "asos--eddard-stark-asos.json").read_text(encoding="utf-8"))
    events = [e for e in vector["expected"]["events"] if e["type"] == "protected"]
    assert events and all(e["card"] == "eddard-stark-asos" and e["source"].startswith("content/cards/asos/stark.mst:")
                          for e in events)
