"""Illegal answers: every kind of decision rejects a wrong answer with a clear error and changes nothing."""

from __future__ import annotations

import json

import pytest

from maester.interpreter.core.decisions import IllegalDecision
from maester.interpreter.frontends.agents import agents_for
from maester.interpreter.procedures.game import Game


@pytest.fixture(scope="module")
def rules():
    from maester.interpreter.core.rules import Rules

    return Rules.default()


def _illegal_answers(decision):
    """Answers that are never legal for this decision."""
    opts = decision.options
    out = ["certainly-not-an-option", None, ["a", "list"], {"a": 1}]
    if all(isinstance(o, int) for o in opts):
        out += [max(opts) + 1, -1]
    if all(isinstance(o, str) for o in opts):
        out += [opts[0].upper() + "!", opts[0] + " "]
    return out


def test_every_decision_kind_rejects_illegal_answers_and_changes_nothing(rules):
    kinds_seen: set[str] = set()
    for seed, setup in ((1, "base-6p"), (2, "base-3p"), (3, "base-4p")):
        game = Game(rules, setup, seed=seed)
        agents = agents_for(game.state.houses, "random", seed)
        while game.decision is not None:
            d = game.decision
            if d.kind not in kinds_seen:
                kinds_seen.add(d.kind)
                before = json.dumps(game.state.to_json(), sort_keys=True)
                events, answers = len(game.events), len(game.answers)
                for bad in _illegal_answers(d):
                    with pytest.raises(IllegalDecision) as info:
                        game.answer(bad)
                    message = str(info.value)
                    assert f"decision #{d.number} ({d.kind}, {d.house})" in message
                    assert "legal answers:" in message
                    assert json.dumps(game.state.to_json(), sort_keys=True) == before, f"{d.kind}: state changed"
                    assert (len(game.events), len(game.answers)) == (events, answers)
                    assert game.decision is d
            game.answer(agents[d.house].act(game, d))
    expected = {"place-order", "march", "house-card", "influence-bid", "wildling-bid", "muster",
                "messenger-raven", "retreat", "resolve-march", "raid"}
    assert expected <= kinds_seen, f"not exercised: {sorted(expected - kinds_seen)}"


def test_answering_a_finished_game_is_an_error(rules):
    game = Game(rules, "base-3p", seed=4)
    game.play(agents_for(game.state.houses, "random", 4))
    assert game.over and game.decision is None
    with pytest.raises(IllegalDecision, match="no decision is pending: the game is over"):
        game.answer("anything")


def test_decisions_name_who_what_and_the_rule(rules):
    game = Game(rules, "base-6p", seed=9)
    d = game.decision
    assert d.house in game.state.houses and d.kind == "place-order" and d.rule.startswith("R13")
    assert d.options and all(isinstance(o, str) for o in d.options)
    assert json.loads(json.dumps(d.to_json()))["options"] == d.options


def test_answers_are_checked_by_type_as_well_as_value(rules):
    """`3.0` is not `3` and `True` is not `1`: equal in Python, different JSON values (and a float
    used to crash the game a few decisions later, a boolean to change it silently)."""
    game = Game(rules, "base-3p", seed=4)
    agents = agents_for(game.state.houses, "random", 4)
    checked = 0
    while game.decision is not None and game.decision.number < 300:
        d = game.decision
        before = json.dumps(game.state.to_json(), sort_keys=True)
        for option in d.options:
            if isinstance(option, bool):
                wrong = [int(option)]
            elif isinstance(option, int):
                wrong = [float(option)] + ([option == 1] if option in (0, 1) else [])
            else:
                continue
            for answer in wrong:
                with pytest.raises(IllegalDecision, match="wrong type"):
                    game.answer(answer)
                checked += 1
            break
        assert json.dumps(game.state.to_json(), sort_keys=True) == before
        game.answer(agents[d.house].act(game, d))
    assert checked >= 10
