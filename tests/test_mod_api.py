"""Mother of Dragons actions outside the decision flow: gifting power (R42.4) and leaving (R42.5)."""

from __future__ import annotations

import pytest

from maester.interpreter.core.decisions import IllegalDecision
from maester.interpreter.mod import ModGame, ModOptions, new_game


@pytest.fixture(scope="module")
def rules():
    from maester.interpreter.core.rules import Rules

    return Rules.default()


def test_mod_setups_make_a_mod_game(rules):
    assert isinstance(new_game(rules, "mod-8p", seed=1), ModGame)
    assert not isinstance(new_game(rules, "base-6p", seed=1), ModGame)


def test_gift_power_between_players_only(rules):
    g = new_game(rules, "mod-4p-with-targaryen", seed=2,
                 options=ModOptions(player_houses=["targaryen", "stark", "lannister", "baratheon"]))
    before = (g.state.houses["stark"].power, g.state.houses["lannister"].power)
    g.gift_power("stark", "lannister", 3)
    assert (g.state.houses["stark"].power, g.state.houses["lannister"].power) == (before[0] - 3, before[1] + 3)
    snapshot = g.state.canonical()
    for giver, to, n, why in (("stark", "arryn", 1, "vassals"), ("stark", "lannister", 99, "available power"),
                              ("stark", "stark", 1, "two different houses")):
        with pytest.raises(IllegalDecision, match=why):
            g.gift_power(giver, to, n)
    assert g.state.canonical() == snapshot


def test_leaving_is_for_players_other_than_a_never_vassal_house(rules):
    g = new_game(rules, "mod-4p-with-targaryen", seed=3,
                 options=ModOptions(player_houses=["targaryen", "stark", "lannister", "baratheon"]))
    before, events, decision = g.state.canonical(), len(g.events), g.decision.to_json()
    with pytest.raises(IllegalDecision) as refused:  # "a player other than Targaryen" (R42.5)
        g.leave("targaryen")
    (item,) = refused.value.diagnostics.items  # one error, naming the action and the rule
    assert (item.code, item.message) == ("illegal-action", "leave refused: targaryen never leaves the game: only a "
                                         "player other than targaryen may leave, since its house can never be a "
                                         "vassal (R42.5, R36.1)")
    assert (g.state.canonical(), len(g.events), g.decision.to_json(), g.actions) == (before, events, decision, [])
    with pytest.raises(IllegalDecision, match="not a player house"):
        g.leave("arryn")
    g.leave("stark")
    assert g.mod_state.leaving == ["stark"]


def test_player_houses_must_fit_the_setup(rules):
    """R31.1, R36.1: Targaryen cannot be chosen with 3 players, a setup with Targaryen needs it, one house each."""
    from maester.dsl.diagnostics import MaesterError

    for setup, chosen in (("mod-3p", ["stark", "lannister", "targaryen"]),
                          ("mod-3p", ["stark", "lannister", "greyjoy", "arryn"]),
                          ("mod-4p-with-targaryen", ["stark", "lannister", "greyjoy", "arryn"]),
                          ("mod-4p-without-targaryen", ["stark", "lannister", "greyjoy", "targaryen"])):
        with pytest.raises(MaesterError, match="player houses"):
            new_game(rules, setup, seed=1, options=ModOptions(player_houses=chosen))
    g = new_game(rules, "mod-3p", seed=1, options=ModOptions(player_houses=["stark", "lannister", "greyjoy"]))
    assert "targaryen" not in g.state.houses and g.mod_state.vassals == ["arryn", "baratheon", "martell", "tyrell"]


def test_gifts_in_a_combat_only_while_support_is_called(rules):
    """R42.4.2: during a combat, power may be gifted only in the Call for Support step."""
    g = new_game(rules, "mod-4p-with-targaryen", seed=2,
                 options=ModOptions(player_houses=["targaryen", "stark", "lannister", "baratheon"]))
    g.embattled = "riverrun"  # a combat is being resolved
    g.decision = None
    with pytest.raises(IllegalDecision, match="Call for Support"):
        g.gift_power("stark", "lannister", 1)

    class Asked:
        kind = "support"

    g.decision = Asked()
    g.gift_power("stark", "lannister", 1)
    g.embattled, g.decision = None, None
    g.gift_power("stark", "lannister", 1)


def test_a_scenario_cannot_make_targaryen_leave(rules, tmp_path):
    """The scenario's `position.leaving` follows R42.5 as `leave` does: a located error, nothing runs."""
    from maester.interpreter.frontends.scenario import Scenario, ScenarioError, run_scenario

    path = tmp_path / "leave.yaml"
    path.write_text("name: Targaryen leaves\nsetup: mod-4p-with-targaryen\n"
                    "players: [targaryen, stark, lannister, baratheon]\n"
                    "position:\n  leaving: [stark, targaryen]\nstop-after: westeros\n"
                    "expect:\n  state: {houses.stark.power: 5}\n", encoding="utf-8")
    with pytest.raises(ScenarioError) as e:
        run_scenario(rules, Scenario.load(path))
    (item,) = e.value.diagnostics.items
    assert (item.span.line, item.span.column) == (5, 20)
    assert item.message.startswith("targaryen never leaves the game")


def test_the_last_player_cannot_leave_the_game(rules):
    """Found by a hostile campaign: in a game without Targaryen every player could leave; at the next Westeros
    card asking a track's holder the game stopped with an internal error (no house may hold dominance)."""
    game = new_game(rules, "mod-4p-without-targaryen", seed=4)
    players = [h for h in game.state.houses if not game.is_vassal(h)]
    for house in players[:-1]:
        game.leave(house)
    before = game.to_state()
    with pytest.raises(IllegalDecision, match="is the last player of the game and cannot leave it"):
        game.leave(players[-1])
    assert game.to_state() == before
