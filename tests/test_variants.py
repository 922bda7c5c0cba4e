"""Variants are content only: Targaryen deck A or B is a switch in the content, not in the engine."""

from __future__ import annotations

import json

from typer.testing import CliRunner

from maester.interpreter.core.rules import Rules, apply_variant
from maester.interpreter.frontends.agents import agents_for
from maester.interpreter.mod import new_game
from maester.interpreter.procedures.game import Game
from maester.tools.cli import app


def _targaryen_hand(rules: Rules) -> list[str]:
    game = new_game(rules, "mod-8p", seed=3)
    return sorted(game.state.houses["targaryen"].hand)


def test_deck_a_by_default_and_deck_b_with_the_variant(bundle):
    a = _targaryen_hand(Rules(bundle))
    b = _targaryen_hand(Rules(apply_variant(bundle, "targaryen-b")))
    assert {bundle["house_cards"][c]["set"] for c in a} == {"mod-targaryen-a"}
    assert {bundle["house_cards"][c]["set"] for c in b} == {"mod-targaryen-b"}
    assert len(a) == len(b) == 7


def test_both_bundles_build_validate_and_play(tmp_path):
    runner = CliRunner()
    for variant in (None, "targaryen-b"):
        out = tmp_path / f"bundle-{variant}.json"
        args = ["compile", "-o", str(out)] + (["--variant", variant] if variant else [])
        assert runner.invoke(app, args).exit_code == 0
        assert runner.invoke(app, ["validate", str(out)]).exit_code == 0
        rules = Rules.from_file(out)
        assert rules.bundle.get("applied_variant") == variant
        game = new_game(rules, "mod-8p", seed=11)
        game.play(agents_for(game.state.houses, "random", 11))
        assert game.over and game.state.winner in game.state.houses
        played = {e["cards"][h] for e in game.events if e["type"] == "reveal" and "cards" in e
                  for h in e["cards"] if h == "targaryen" and e["cards"][h]}
        sets = {rules.bundle["house_cards"][c]["set"] for c in played}
        assert sets <= {"mod-targaryen-b" if variant else "mod-targaryen-a"}


def test_play_with_a_variant_logs_it_and_replays(tmp_path):
    runner = CliRunner()
    log = tmp_path / "g.json"
    r = runner.invoke(app, ["play", "--variant", "targaryen-b", "-s", "4", "-a", "random", "-q", "--log", str(log)])
    assert r.exit_code == 0, r.output
    assert json.loads(log.read_text())["variant"] == "targaryen-b"
    assert runner.invoke(app, ["replay", str(log)]).exit_code == 0


def test_unknown_variant_is_a_clear_error():
    r = CliRunner().invoke(app, ["play", "--variant", "targaryen-c"])
    assert r.exit_code == 1 and "unknown variant 'targaryen-c'" in r.output and "targaryen-b" in r.output


def test_alternate_house_card_set_deals_adwd_ffc_arryn_and_targaryen_b(bundle):
    """R42.6: the alternate set replaces the base decks by A Dance with Dragons, Arryn by A Feast for Crows and
    Targaryen A by B; `adwd-base` gives the base game the A Dance with Dragons decks."""
    game = new_game(Rules(apply_variant(bundle, "alternate")), "mod-8p", seed=5)
    sets = {h: {bundle["house_cards"][c]["set"] for c in hs.hand} for h, hs in game.state.houses.items()
            if not game.is_vassal(h)}
    expected = {"arryn": {"ffc-arryn"}, "targaryen": {"mod-targaryen-b"}}
    assert sets and all(s == expected.get(h, {"adwd"}) for h, s in sets.items()), sets
    base = Game(Rules(apply_variant(bundle, "adwd-base")), "base-6p", seed=5)
    assert {bundle["house_cards"][c]["set"] for hs in base.state.houses.values() for c in hs.hand} == {"adwd"}
    assert all(len(hs.hand) == 7 for hs in base.state.houses.values())


def test_a_variant_for_another_rules_set_is_refused():
    # `--variant` alone is enough: the variant's rules set decides (issue 9); asking for another one is refused
    # in one line that gives the command that works
    r = CliRunner().invoke(app, ["play", "--variant", "asos", "--base"])
    assert r.exit_code == 1
    assert r.output.splitlines()[0] == ("error: variant 'asos' is for the rules set 'mother-of-dragons', not 'base': "
                                        "run maester play --variant asos [variant-mismatch]")
    r = CliRunner().invoke(app, ["play", "--variant", "asos-base", "--quiet", "-a", "random"])
    assert r.exit_code == 0, r.output
