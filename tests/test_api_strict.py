"""Issue 20.4: the API is as strict as the command line. Calls between decisions (gifts, leaving) are
type-checked, refused after the game is over and while bids are asked, and never break a later save; a bad
answer of any Python type is an IllegalDecision that quotes at most a short prefix of it."""

from __future__ import annotations

import json

import pytest

from maester.interpreter.core.decisions import BIDS_ASKED, MAX_QUOTED_CHARS, IllegalDecision
from maester.interpreter.core.rules import Rules
from maester.interpreter.frontends.agents import agents_for
from maester.interpreter.mod import ModOptions, new_game
from maester.interpreter.procedures.game import Game

PLAYERS = ["targaryen", "stark", "lannister", "baratheon"]


@pytest.fixture(scope="module")
def rules() -> Rules:
    return Rules.default()


def _game(rules: Rules, seed: int = 2):
    return new_game(rules, "mod-4p-with-targaryen", seed=seed, options=ModOptions(player_houses=PLAYERS))


def _bad_values():
    values = [1.5, 2.0, True, "1", None, [1]]
    np = pytest.importorskip("numpy")
    values += [np.int64(1), np.float64(1.0)]
    return values


def test_gift_arguments_are_type_checked(rules):
    g = _game(rules)
    before = g.state.canonical()
    for amount in _bad_values():
        with pytest.raises(IllegalDecision, match="amount must be an integer"):
            g.gift_power("stark", "lannister", amount)
    for house in (1, None, b"stark"):
        with pytest.raises(IllegalDecision, match="giver must be an id"):
            g.gift_power(house, "lannister", 1)
    np = pytest.importorskip("numpy")
    with pytest.raises(IllegalDecision, match="receiver must be an id"):
        g.gift_power("stark", np.str_("lannister"), 1)
    with pytest.raises(IllegalDecision, match="house must be an id"):
        g.leave(np.str_("stark"))
    assert g.state.canonical() == before and g.actions == []


def test_a_save_after_a_gift_resumes(rules):
    g = _game(rules)
    agents = agents_for(g.state.houses, "random", seed=2)
    for _ in range(3):
        g.answer(agents[g.decision.house].act(g, g.decision))
    g.gift_power("stark", "lannister", 1)
    doc = json.loads(json.dumps(g.to_state()))
    again = Game.from_state(rules, doc)
    assert again.state.to_json() == g.state.to_json() and again.actions == g.actions
    assert again.decision.to_json() == g.decision.to_json()


def test_no_gift_while_bids_are_asked(rules):
    """A gift during a bidding would change power already bid (the giver below 0) or a pending bid's answers."""
    g = _game(rules)
    agents = agents_for(g.state.houses, "random", seed=4)
    while g.decision is not None and g.decision.kind not in BIDS_ASKED:
        g.answer(agents[g.decision.house].act(g, g.decision))
    assert g.decision is not None, "no bidding in this game"
    before = g.state.canonical()
    for giver in PLAYERS:
        for receiver in PLAYERS:
            if giver != receiver and g.state.houses[giver].power:
                with pytest.raises(IllegalDecision, match="while bids are asked"):
                    g.gift_power(giver, receiver, 1)
    assert g.state.canonical() == before
    while g.decision is not None:  # the bidding and the rest of the game go on; nobody goes below 0
        g.answer(agents[g.decision.house].act(g, g.decision))
        assert all(h.power >= 0 for h in g.state.houses.values())


def test_nothing_between_decisions_after_the_game(rules):
    g = _game(rules)
    agents = agents_for(g.state.houses, "random", seed=5)
    while g.decision is not None:
        g.answer(agents[g.decision.house].act(g, g.decision))
    assert g.over
    power = g.state.houses["stark"].power
    with pytest.raises(IllegalDecision, match="the game is over"):
        g.gift_power("stark", "lannister", min(1, power) or 1)
    actions = list(g.actions)
    with pytest.raises(IllegalDecision, match="the game is over"):
        g.leave("stark")
    assert g.actions == actions


def test_answers_of_any_python_type_are_illegal_decisions(rules):
    g = _game(rules)
    before = g.state.canonical()
    np = pytest.importorskip("numpy")
    for answer in (np.array([1, 2]), np.array(g.decision.options[:1]), np.int64(0), {"a": 1}, object(), 1.5,
                   float("nan")):
        with pytest.raises(IllegalDecision):
            g.answer(answer)
    assert g.state.canonical() == before


def test_an_error_quotes_a_short_prefix_of_a_bad_answer(rules):
    g = _game(rules)
    for answer in ("x" * 1_000_000, list(range(100_000))):
        with pytest.raises(IllegalDecision) as info:
            g.answer(answer)
        message = info.value.diagnostics.items[0].message
        assert len(message) < MAX_QUOTED_CHARS + 200, len(message)
        assert "characters)" in message
    with pytest.raises(IllegalDecision) as info:
        g.gift_power("stark", "lannister", "9" * 100_000)
    assert len(str(info.value)) < 500
