"""Victory as content (interpreter/procedures/victory.py): thresholds per house, points from effects, when the
check happens, the ranking, and up to 1000 rounds."""

from __future__ import annotations

from pathlib import Path

from maester.dsl import compile_paths
from maester.dsl.compile import default_content_dir
from maester.interpreter.core.rules import Rules, apply_variant
from maester.interpreter.frontends.agents import agents_for
from maester.interpreter.mod import ModOptions, new_game
from maester.interpreter.procedures import victory

from .conftest import REPO

ALL8 = ["stark", "lannister", "greyjoy", "baratheon", "tyrell", "martell", "arryn", "targaryen"]


def _rules(tmp_path: Path, text: str, variant: str) -> Rules:
    (tmp_path / "pack").mkdir(exist_ok=True)
    (tmp_path / "pack" / "x.mst").write_text(text, encoding="utf-8")
    return Rules(apply_variant(compile_paths([default_content_dir(), tmp_path / "pack"], cache=False), variant))


def test_six_castles_with_a_separate_targaryen_threshold():
    pack = REPO / "examples" / "packs" / "six-castles"
    rules = Rules.default("six-castles", [default_content_dir(), pack])
    game = new_game(rules, "mod-8p", seed=1, options=ModOptions(player_houses=ALL8))
    assert victory.threshold(game, "stark") == 6 and victory.threshold(game, "targaryen") == 7


POINTS = """
game-ability tally "Tally" {
  when round-end { for h in player-houses() { gain-victory-points(h, 1) } }
}
variant tally "Tally" {
  game base
  patch game base {
    game-abilities [tally]
    victory-count points
    victory-points 2
    victory-check end-of-round
    tiebreakers [most-victory-points, most-power, highest-iron-throne]
  }
}
"""


def test_points_checked_at_the_end_of_a_round_ties_go_to_the_ranking(tmp_path):
    rules = _rules(tmp_path, POINTS, "tally")
    game = new_game(rules, "base-4p", seed=2)
    game.play(agents_for(game.state.houses, "random", 2))
    win = next(e for e in game.events if e["type"] == "victory")
    assert win["round"] == 2 and win["rule"] == "R26.1" and "reaches 2 victory points" in win["text"]
    points = [e for e in game.events if e["type"] == "victory-points"]
    assert len(points) == 8 and all(e["amount"] == 1 for e in points)  # 4 houses, 2 rounds
    # every house reached 2 at once: the ranking (most power, then the Iron Throne) decides
    assert game.state.winner == min(game.state.houses, key=game.ranking_key)
    assert all(game.victory_points(h) == 2 for h in game.state.houses)


def test_end_of_game_check_plays_every_round(tmp_path):
    text = """
variant late "Late" {
  game base
  patch game base { victory-points 1  victory-check end-of-game  max-rounds 1000 }
}
"""
    rules = _rules(tmp_path, text, "late")
    assert rules.game("base")["max_rounds"] == 1000
    game = new_game(rules, "base-3p", seed=1, options=ModOptions(rounds=3))
    game.play(agents_for(game.state.houses, "random", 1))
    assert game.state.round == 3 and [e["rule"] for e in game.events if e["type"] == "victory"] == ["R26.3"]
