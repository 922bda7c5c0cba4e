"""Game abilities at the moments of the procedure (dsl/moments.py, interpreter/procedures/moments.py): each
moment is fired with its bindings, the abilities may ask decisions and restart from the state alone, a patch can
add an ability to cards without restating theirs, and the checker locates a wrong moment or name."""

from __future__ import annotations

from pathlib import Path

import pytest

from maester.dsl import compile_paths
from maester.dsl.compile import default_content_dir
from maester.dsl.english import English
from maester.dsl.moments import MOMENTS
from maester.interpreter.core.rules import Rules, apply_variant
from maester.interpreter.frontends.agents import agents_for
from maester.interpreter.mod import ModOptions, new_game

from .pack_text import compile_pack_text as _diags
from .restarts import check_game

# one ability per moment, each gaining 1 power for a house the moment names (or the Iron Throne holder)
EVERY_MOMENT = """
game-ability watch "Every moment" {
  when round-start { gain-power(holder(iron-throne), 1) }
  when round-end { gain-power(holder(iron-throne), 1) }
  when phase-start if phase == "action" { gain-power(holder(iron-throne), 1) }
  when phase-end if phase == "planning" { gain-power(holder(iron-throne), 1) }
  when order-resolved if order-type == "march" { gain-power(house, 1) }
  when unit-destroyed { gain-power(house, count) }
  when units-routed { gain-power(house, 1) }
  when hand-refreshed { gain-power(house, 1) }
  when westeros-card-revealed { gain-power(holder(iron-throne), 1) }
  when area-control-changed { gain-power(holder(iron-throne), 1) }
  when orders-placed { gain-power(holder(iron-throne), 1) }
}
variant watch "Watch" {
  game base
  patch game base { game-abilities [watch] }
}
"""

# abilities that ask decisions at every kind of moment (for the restart check)
ASKING = """
game-ability asking "Asking" {
  when round-start { may by holder(iron-throne) pay 1 { gain-power(holder(messenger-raven), 1) } }
  when phase-end { choose h in player-houses() by holder(iron-throne) { gain-power(h, 1) } }
  when order-resolved { may { gain-power(house, 1) } }
  when unit-destroyed { may { gain-power(house, count) } }
  when units-routed { may { gain-power(house, 1) } }
  when westeros-card-revealed { choose h in player-houses() by holder(iron-throne) { gain-power(h, 1) } }
  when area-control-changed { may by holder(iron-throne) { gain-power(holder(iron-throne), 1) } }
  when round-end { may by holder(iron-throne) { gain-power(holder(iron-throne), 1) } }
  when orders-placed { may by holder(messenger-raven) { gain-power(holder(messenger-raven), 1) } }
}
variant asking "Asking" {
  game base
  patch game base { game-abilities [asking] }
}
"""


def _rules(tmp_path: Path, text: str, variant: str) -> Rules:
    (tmp_path / "pack").mkdir(exist_ok=True)
    (tmp_path / "pack" / "x.mst").write_text(text, encoding="utf-8")
    return Rules(apply_variant(compile_paths([default_content_dir(), tmp_path / "pack"], cache=False), variant))




def test_every_moment_is_fired_with_its_bindings(tmp_path):
    rules = _rules(tmp_path, EVERY_MOMENT, "watch")
    game = new_game(rules, "base-4p", seed=3, options=ModOptions(rounds=4))
    game.play(agents_for(game.state.houses, "random", 3))
    ours = [e for e in game.events if e.get("card") == "watch" and e["type"] == "power"]
    rules_cited = {e["rule"] for e in ours}
    # every moment's rule id is cited by the power its ability gave (a moment that never fired cites none)
    for name in ("round-start", "round-end", "phase-start", "order-resolved", "unit-destroyed", "units-routed",
                 "westeros-card-revealed", "area-control-changed", "orders-placed"):
        assert MOMENTS[name].rule in rules_cited, name
    rounds = game.state.round
    starts = [e for e in ours if e["rule"] == "R6.2.1"]
    assert len(starts) == 2 * rounds  # round-start and round-end, once per round
    destroyed = sum(1 for e in game.events if e["type"] == "destroy" and e.get("house"))
    assert destroyed and sum(1 for e in ours if e["rule"] == "R2.4") <= destroyed
    # a destroy event's moment resolves after the order, before the next order is chosen
    first = next(i for i, e in enumerate(game.events) if e["type"] == "destroy" and e.get("house"))
    paid = next(i for i, e in enumerate(game.events) if e.get("card") == "watch" and e["rule"] == "R2.4")
    assert first < paid and not any(e["type"] == "order-removed" and e["rule"] == "R15.2"
                                     for e in game.events[first:paid])


def test_a_game_without_game_abilities_keeps_no_moment_state(bundle):
    game = new_game(Rules(bundle), "base-3p", seed=1, options=ModOptions(rounds=2))
    game.play(agents_for(game.state.houses, "random", 1))
    assert "moments" not in game.state.modules


def test_abilities_that_ask_restart_from_the_state_alone(tmp_path):
    rules = _rules(tmp_path, ASKING, "asking")
    report = check_game(rules, "base-4p", 4, False, rounds=3, ahead=2, every=2)
    assert report.checked["may"] and report.checked["choose"]
    assert not sum(report.failed.values()), report.text()


def test_the_card_text_names_the_moment(tmp_path):
    rules = _rules(tmp_path, EVERY_MOMENT, "watch")
    text = English(rules.bundle).card("game_abilities", rules.bundle["game_abilities"]["watch"])
    assert text.startswith("Every moment (game ability). At the start of each round:")
    assert "Whenever units are destroyed:" in text


def test_a_patch_adds_an_ability_to_cards_without_restating_theirs(tmp_path):
    text = """
variant brave "Brave" {
  game base
  patch house-card [eddard-stark, tywin-lannister] {
    add-abilities
    when after-combat { gain-power(you, 1) }
  }
}
"""
    rules = _rules(tmp_path, text, "brave")
    eddard = rules.bundle["house_cards"]["eddard-stark"]
    hound = rules.bundle["house_cards"]["tywin-lannister"]
    assert [a["trigger"] for a in hound["abilities"]][-1] == "after-combat"
    assert len(hound["abilities"]) == 2  # Tywin keeps its own ability, the new one follows
    assert [a["trigger"] for a in eddard["abilities"]] == ["after-combat"]


@pytest.mark.parametrize(("body", "code", "words"), [
    ("when unit-destroid { gain-power(house, 1) }", "unknown-moment", "unknown moment 'unit-destroid'"),
    ("when round-start { gain-power(house, 1) }", "unknown-house", "unknown house 'house'"),
    ("when order-resolved { add-strength(house, 1) }", "wrong-window", "add-strength"),
])
def test_a_wrong_moment_or_name_is_a_located_error(tmp_path, body, code, words):
    diags = _diags(tmp_path, f'game-ability bad "Bad" {{\n  {body}\n}}\n')
    found = [d for d in diags if d.code == code]
    assert found, [f"{d.code}: {d.message}" for d in diags]
    assert words in found[0].message and found[0].span.line == 2
