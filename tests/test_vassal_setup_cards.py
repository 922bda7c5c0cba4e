""""Players use the vassal setup cards": one switch of a setup (`players-use-vassal-starts`) gives the player
houses the units of their vassal setup card instead of their own screen's (Mother of Dragons option)."""

from __future__ import annotations

from maester.dsl.compile import compile_paths, default_content_dir
from maester.interpreter.core.rules import Rules, apply_variant
from maester.interpreter.mod import ModOptions, new_game

from .pack_text import compile_pack_text

PACK = '''setup vassal-cards-3p "Vassal setup cards, 3 players" from mod-3p {
  players-use-vassal-starts
}
variant vassal-cards "Players use the vassal setup cards" {
  game mother-of-dragons
  setups [vassal-cards-3p]
}
'''
# C4, Stark's vassal setup card in mod-3p (content/setups/mother-of-dragons.mst)
STARK_VASSAL_CARD = {"winterfell": ["footman", "footman"], "white-harbor": ["knight"],
                     "the-shivering-sea": ["ship"], "moat-cailin": ["knight"], "karhold": ["footman"],
                     "castle-black": ["footman"]}


def _bundle(tmp_path, text: str = PACK) -> dict:
    (tmp_path / "pack").mkdir(exist_ok=True)
    (tmp_path / "pack" / "x.mst").write_text(text, encoding="utf-8")
    return compile_paths([default_content_dir(), tmp_path / "pack"], cache=False)


def _units(game, house: str) -> dict[str, list[str]]:
    return {a: sorted(k for k, _ in army["units"]) for a, army in game.state.units.items() if army["house"] == house}


def test_a_player_house_starts_with_its_vassal_setup_card(tmp_path):
    bundle = _bundle(tmp_path)
    setup, plain = bundle["setups"]["vassal-cards-3p"], bundle["setups"]["mod-3p"]
    assert setup["starting_units"]["stark"] == plain["vassal_starting_units"]["stark"]
    assert setup["vassal_starting_units"] == plain["vassal_starting_units"]
    assert "players_use_vassal_starts" not in setup  # the bundle holds the result only
    game = new_game(Rules(apply_variant(bundle, "vassal-cards")), "vassal-cards-3p", seed=3,
                    options=ModOptions(player_houses=["stark", "lannister", "greyjoy"]))
    assert _units(game, "stark") == STARK_VASSAL_CARD
    # Lannister plays too: its card's 3 ships in the Golden Sound, not its screen's one
    assert _units(game, "lannister")["the-golden-sound"] == ["ship", "ship", "ship"]


def test_without_the_switch_players_use_their_screens(tmp_path):
    bundle = _bundle(tmp_path, PACK.replace("  players-use-vassal-starts\n", "  note \"plain\"\n"))
    game = new_game(Rules(apply_variant(bundle, "vassal-cards")), "vassal-cards-3p", seed=3,
                    options=ModOptions(player_houses=["stark", "lannister", "greyjoy"]))
    assert _units(game, "stark") == {"winterfell": ["footman", "knight"], "white-harbor": ["footman"],
                                     "the-shivering-sea": ["ship"]}


def test_the_switch_takes_no_value(tmp_path):
    diags = compile_pack_text(tmp_path, PACK.replace("players-use-vassal-starts", "players-use-vassal-starts 2"))
    assert [e.span.line for e in diags.errors] == [2]
