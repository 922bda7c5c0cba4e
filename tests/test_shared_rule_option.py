"""A rule option shared by several rules sets (issue 22): `game [base, mother-of-dragons]` plays a variant with each
rules set, `patch game every` patches each (and says so in a note), an unknown rules set is a located error, a
patch of a rules set the variant does not play is a warning, and the frontends play the variant with either."""

from __future__ import annotations

import json

from typer.testing import CliRunner

from maester.dsl import compile_paths
from maester.dsl.compile import default_content_dir
from maester.interpreter.core.rules import Rules, apply_variant, variant_games
from maester.interpreter.frontends.agents import agents_for
from maester.interpreter.mod import ModOptions, new_game
from maester.tools.cli import app
from maester.tools.variant_play import scenario_setup, variant_setup

from .conftest import REPO

PACK = REPO / "examples" / "packs" / "tides-everywhere"
TIDES = 'variant tides "Tides" {\n  game [base, mother-of-dragons]\n  patch game every { tides-of-battle yes }\n}\n'


def _check(tmp_path, text: str) -> list[dict]:
    (tmp_path / "pack").mkdir(exist_ok=True)
    (tmp_path / "pack" / "x.mst").write_text(text, encoding="utf-8")
    r = CliRunner().invoke(app, ["check", "--pack", str(tmp_path / "pack"), "--json"])
    return json.loads(r.output)["diagnostics"]


def test_one_variant_patches_each_rules_set_it_lists(tmp_path):
    found = _check(tmp_path, TIDES)
    assert [(d["code"], d["severity"], d["line"]) for d in found] == [("patch-every-game-touched", "note", 3)]
    assert found[0]["message"] == "variant 'tides': patch of every rules set changes 2 rules sets: base, mother-of-dragons"
    bundle = compile_paths([default_content_dir(), tmp_path / "pack"], cache=False)
    v = bundle["variants"]["tides"]
    assert (v["game"], v["games"], variant_games(v)) == ("base", ["base", "mother-of-dragons"],
                                                         ["base", "mother-of-dragons"])
    assert {g: r["tides_of_battle"] for g, r in v["patches"]["games"].items()} == {"base": True,
                                                                                  "mother-of-dragons": True}
    assert {s["game"] for s in (bundle["setups"][sid] for sid in v["setups"].values())} == {"base",
                                                                                            "mother-of-dragons"}
    assert len(v["setups"]) == 14  # every standard setup of both rules sets
    applied = apply_variant(bundle, "tides")
    assert applied["games"]["base"]["tides_of_battle"] and applied["games"]["mother-of-dragons"]["tides_of_battle"]


def test_a_one_rules_set_variant_keeps_its_bundle_record(tmp_path):
    """`game base` compiles as before (no `games`), and `patch game every` patches that rules set only."""
    _check(tmp_path, 'variant solo "Solo" {\n  game base\n  patch game every { max-rounds 8 }\n}\n')
    v = compile_paths([default_content_dir(), tmp_path / "pack"], cache=False)["variants"]["solo"]
    assert v["game"] == "base" and "games" not in v and list(v["patches"]["games"]) == ["base"]


def test_an_unknown_rules_set_is_a_located_error(tmp_path):
    found = _check(tmp_path, 'variant x "X" {\n  game [base, mother-of-dragon]\n  patch game every { max-rounds 8 }\n}\n')
    errors = [d for d in found if d["severity"] == "error"]
    assert [(d["code"], d["line"], d["column"]) for d in errors] == [("unknown-game", 2, 15)]
    assert "x.mst" in errors[0]["file"] and "mother-of-dragons" in (errors[0]["hint"] or "")
    found = _check(tmp_path, 'variant x "X" {\n  game base\n  patch game [base, nope] { max-rounds 8 }\n}\n')
    errors = [d for d in found if d["severity"] == "error"]
    assert [(d["code"], d["line"], d["column"]) for d in errors] == [("unknown-game", 3, 21)]
    found = _check(tmp_path, 'variant x "X" {\n  game [base, base]\n}\n')
    assert [(d["code"], d["line"]) for d in found if d["severity"] == "error"] == [("listed-twice", 2)]


def test_a_patch_of_a_rules_set_not_played_is_a_warning(tmp_path):
    found = _check(tmp_path, 'variant x "X" {\n  game base\n  patch game [base, mother-of-dragons] { max-rounds 8 }\n}\n')
    warned = [d for d in found if d["code"] == "patch-unplayed-game"]
    assert len(warned) == 1 and (warned[0]["line"], warned[0]["column"]) == (3, 21)
    assert warned[0]["message"] == ("variant 'x': patch of rules set 'mother-of-dragons' changes nothing it plays: "
                                    "it plays base")
    assert warned[0]["hint"] == "play it too: game [base, mother-of-dragons]"


def test_play_chooses_the_rules_set_with_base_or_setup():
    bundle = compile_paths([default_content_dir(), PACK])
    assert variant_setup(bundle, "tides-everywhere", 4, True, False, None, []) == "base-4p"
    assert variant_setup(bundle, "tides-everywhere", 4, False, False, None, []) == "mod-4p-without-targaryen"
    assert variant_setup(bundle, "tides-everywhere", None, False, False, None, []) == "mod-8p"
    assert variant_setup(bundle, "tides-everywhere", None, True, False, None, []) == "base-6p"
    assert variant_setup(bundle, "tides-everywhere", None, False, False, "base-3p", []) == "base-3p"
    assert scenario_setup(bundle, "tides-everywhere", "mod-3p", "x.yaml") == "mod-3p"
    for args, setup in ((["--base", "--players", "3"], "base-3p"), (["--players", "3"], "mod-3p")):
        r = CliRunner().invoke(app, ["play", "--pack", str(PACK), "--variant", "tides-everywhere", "--seed", "1",
                                     "--quiet", "--json", "--stop-at", "20", *args])
        assert r.exit_code == 0, r.output
        assert json.loads(r.output)["result"]["setup"] == setup


def test_both_rules_sets_play_with_the_option():
    rules = Rules(apply_variant(compile_paths([default_content_dir(), PACK]), "tides-everywhere"))
    for setup in ("base-4p", "mod-4p-without-targaryen"):
        game = new_game(rules, setup, seed=2, options=ModOptions(rounds=3))
        game.play(agents_for(game.state.houses, "random", 2))
        assert game.state.tides_of_battle and any(e["type"] == "tides" for e in game.events), setup
