"""Variants as patches of any content: the example packs, the located errors, the diff, `--variant`."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from maester.dsl import compile_paths
from maester.dsl.compile import default_content_dir
from maester.dsl.diagnostics import Diagnostics
from maester.dsl.diff import count, diff_bundles, diff_lines
from maester.interpreter.core.rules import Rules, apply_variant
from maester.interpreter.frontends.agents import agents_for
from maester.interpreter.frontends.scenario import Scenario, run_scenario
from maester.interpreter.mod import ModOptions, new_game
from maester.tools.cli import app

from .conftest import REPO
from .pack_text import compile_pack_text as _compile

PACKS = REPO / "examples" / "packs"
PACK_NAMES = sorted(p.name for p in PACKS.iterdir() if p.is_dir())
ALL8 = ["stark", "lannister", "greyjoy", "baratheon", "tyrell", "martell", "arryn", "targaryen"]


def _rules(pack: str) -> Rules:
    return Rules.default(pack, [default_content_dir(), PACKS / pack])


def test_six_example_packs_are_shipped_outside_the_default_bundle(bundle):
    assert PACK_NAMES == ["a-dance-with-dragons", "a-feast-for-crows", "arryn-19-power", "blood-price", "dance-with-mother-of-dragons", "draft-house-cards", "dragon-war", "feast-for-crows-deck-i",
                          "house-cards-evolve", "little-birds", "random-start-positions",
                          "rebalanced-aeron", "six-castles", "tides-everywhere", "tides-without-skulls", "vassal-setup-cards",
                          "westeros-look-ahead"]
    assert not set(PACK_NAMES) & set(bundle["variants"])


@pytest.mark.parametrize("pack", PACK_NAMES)
def test_pack_scenarios_show_the_rule_taking_effect(pack):
    rules = _rules(pack)
    files = sorted((PACKS / pack / "scenarios").glob("*.yaml"))
    assert files
    for f in files:
        result = run_scenario(rules, Scenario.load(f))
        assert result.ok, f"{f}: {result.error or [c for c in result.checks if not c[0]]}"


def test_arryn_scenario_fails_without_the_variant(bundle, tmp_path):
    """The 19-power scenario proves the patch: with the standard pool of 20, Arryn gains 2, not 1."""
    text = (PACKS / "arryn-19-power" / "scenarios" / "pool.yaml").read_text(encoding="utf-8")
    plain = tmp_path / "pool.yaml"
    plain.write_text("\n".join(line for line in text.splitlines() if not line.startswith(("pack:", "variant:"))),
                     encoding="utf-8")
    result = run_scenario(Rules(bundle), Scenario.load(plain))
    assert not result.ok


def test_pack_scenarios_name_their_pack_and_variant():
    """A scenario plays what it names (issue 19): `maester explain` with no --pack or --variant runs the example
    packs' scenarios with their packs and variants, as `--pack DIR --variant ID` would."""
    files = sorted(str(f) for f in PACKS.glob("*/scenarios/*.yaml"))
    assert {f.split("/")[-3] for f in files} == set(PACK_NAMES)  # every pack has scenarios
    for f in files:
        sc = Scenario.load(f)
        assert sc.variant == f.split("/")[-3] and sc.packs, f
    result = CliRunner().invoke(app, ["explain", "-q", *files])
    assert result.exit_code == 0, result.output
    assert f"{len(files)} passed, 0 failed" in result.output


GAMES = [("dragon-war", "mod-8p"), ("dance-with-mother-of-dragons", "mod-8p"), ("arryn-19-power", "mod-8p"),
         ("rebalanced-aeron", "base-4p"), ("feast-for-crows-deck-i", "base-4p"), ("tides-without-skulls", "base-4p"),
         ("blood-price", "base-4p"), ("six-castles", "mod-8p"),
         ("westeros-look-ahead", "base-4p"), ("a-feast-for-crows", "ffc-4p"),
         ("a-dance-with-dragons", "adwd-6p"), ("house-cards-evolve", "base-4p"),
         ("draft-house-cards", "base-6p"), ("random-start-positions", "base-6p"), ("little-birds", "base-3p"),
         ("vassal-setup-cards", "mod-4p-without-targaryen"), ("tides-everywhere", "base-4p"),
         ("tides-everywhere", "mod-4p-without-targaryen")]


@pytest.mark.parametrize(("pack", "setup"), GAMES)
def test_pack_plays_a_complete_game(pack, setup):
    rules = _rules(pack)
    players = ALL8 if setup == "mod-8p" else None
    game = new_game(rules, setup, seed=2, options=ModOptions(player_houses=players))
    game.play(agents_for(game.state.houses, "random", 2))
    assert game.over and game.state.winner in game.state.houses
    if pack == "dance-with-mother-of-dragons":
        loans = [e for e in game.events if e["type"] == "loan"]
        assert loans[0]["house"] == "lannister" and loans[0]["round"] == 1 and "starting loan" in loans[0]["text"]
        assert game.events.index(loans[0]) < next(i for i, e in enumerate(game.events) if e["type"] == "round")
    if pack == "vassal-setup-cards":  # every house with a vassal setup card started with its units, players too
        rec = rules.setup(setup)
        assert rec["vassal_starting_units"] and all(rec["starting_units"][h] == units for h, units in
                                                    rec["vassal_starting_units"].items())
    if pack == "tides-without-skulls":
        assert any(e["type"] == "tides" for e in game.events)
        assert not any(e.get("rule") == "R29.3.5" for e in game.events)
    if pack == "dragon-war":
        assert game.rules.house("stark")["unit_limits"]["dragon"] == 1
    if pack == "a-dance-with-dragons":  # six rounds, the scenario's own cards
        assert game.state.round == 6 and game.state.houses["stark"].hand[0] in game.rules.bundle["house_cards"]
        assert all(game.rules.bundle["house_cards"][c]["set"] == "adwd" for h in game.state.houses.values()
                   for c in h.hand + h.discards)
    if pack == "house-cards-evolve":  # every deck played through became its A Dance with Dragons deck
        evolved = {e["house"] for e in game.events if e.get("card") == "evolving-decks"}
        refreshed = {e["house"] for e in game.events if e["type"] == "cards" and e["rule"] == "R21.5.4"
                     and "takes back" in e["text"]}
        assert evolved == refreshed and all(game.rules.bundle["house_cards"][c]["set"] == "adwd" for h in evolved
                               for c in game.state.houses[h].hand + game.state.houses[h].discards)
    if pack == "blood-price":  # each house losing units was paid for them once the order or card was done
        lost = sum(1 for e in game.events if e["type"] == "destroy" and e.get("house"))
        paid = [e for e in game.events if e.get("card") == "blood-price"]
        assert lost and len(paid) == lost


def test_dragon_war_changes_every_setup_of_its_rules_set(bundle):
    b = apply_variant(compile_paths([default_content_dir(), PACKS / "dragon-war"]), "dragon-war")
    for sid, s in b["setups"].items():
        if s["game"] != "mother-of-dragons":
            assert s == bundle["setups"][sid]
            continue
        for h, placements in s["starting_units"].items():
            assert sum(p["units"].get("dragon", 0) for p in placements) == (4 if h == "targaryen" else 1), (sid, h)
        assert s["garrisons"]["the-eyrie"] == 6 and s["garrisons"]["winterfell"] == 4


def test_rebalanced_aeron_changes_one_card_and_nothing_else(bundle):
    b = apply_variant(compile_paths([default_content_dir(), PACKS / "rebalanced-aeron"]), "rebalanced-aeron")
    new, old = set(b["card_sets"]["adwd-rebalanced-aeron"]["cards"]), set(bundle["card_sets"]["adwd"]["cards"])
    assert new - old == {"aeron-damphair-rebalanced"} and old - new == {"aeron-damphair-dwd"}
    card, parent = b["house_cards"]["aeron-damphair-rebalanced"], b["house_cards"]["aeron-damphair-dwd"]
    assert card["strength"] == 1 and card["abilities"][0]["body"] == parent["abilities"][0]["body"]
    assert card["derived_from"] == "aeron-damphair-dwd"
    assert b["games"]["base"]["house_card_sets"] == ["adwd-rebalanced-aeron"]


def test_feast_for_crows_swaps_two_cards_of_deck_i(bundle):
    b = compile_paths([default_content_dir(), PACKS / "feast-for-crows-deck-i"])
    new, old = b["decks"]["feast-for-crows-i"]["cards"], bundle["decks"]["westeros-i"]["cards"]
    assert set(old) - set(new) == {"last-days-of-summer-i", "winter-is-coming-i"}
    assert set(new) - set(old) == {"clash-of-kings", "dark-wings-dark-words"}
    assert sum(new.values()) == sum(old.values()) == 10
    played = apply_variant(b, "feast-for-crows-deck-i")["games"]["base"]["decks"]
    assert played["i"] == "feast-for-crows-i" and played["ii"] == "westeros-ii"


# ---- what cannot run does not compile ------------------------------------------------------------------




def _error(diags: Diagnostics, code: str):
    found = [d for d in diags if d.code == code]
    assert found, [f"{d.code}: {d.message}" for d in diags]
    return found[0]


@pytest.mark.parametrize(("text", "code", "line", "words"), [
    ('setup s from base-3p {\n  start stark winterfell { ship 1 }\n}\n', "unit-area", 2,
     "stark's ship cannot stand in winterfell"),
    ('setup s from base-3p {\n  start lannister port-of-lannisport { ship 4 }\n}\n', "port-capacity", 2,
     "4 ships in the port port-of-lannisport, which holds 3"),
    ('setup s from base-3p {\n  start stark winterfell { footman 11 }\n}\n', "unit-limit", 2,
     "stark starts with 12 footmen, but owns 10"),
    ('game g from base {\n  wildling-track [0]\n}\n', "wildling-track-shape", 1, "wildling-track [0] cannot be played"),
    ('setup s from base-3p {\n  remove garrison pyke\n}\n', "patch-nothing-there", 2,
     "'remove garrison pyke': setup 'base-3p' has no 'garrison pyke'"),
    ('setup s from base-9p {\n}\n', "unknown-setup", 1, "derives from an unknown setup 'base-9p'"),
    ('setup s from base-3p {\n  house stark { replace-unit dragon knight }\n}\n', "nothing-to-replace", 2,
     "stark starts with no dragon to replace"),
    ('card-set extra "Extra" {}\nhouse-card x "X" { set extra  house stark  strength 1 }\n'
     'variant v "V" { game base  house-card-sets [base, extra] }\n', "deck-size", 3,
     "stark is dealt 8 house cards"),
    ('variant v "V" {\n  game base\n  patch game base { blade-track orders }\n}\n', "unknown-track", 3, "unknown track"),
    ('variant v "V" {\n  game base\n  patch game base { tracks [iron-throne, fiefdoms]  raven-track fiefdoms }\n}\n',
     "track-missing", 1, "leave out kings-court"),
    ('variant v "V" {\n  game base\n  patch setup base-3p { players 4 }\n}\n', "setup-players", 3,
     "4 players and 0 vassals, but 3 houses"),
    ('variant v "V" {\n  game base\n  patch house stark { starting-supply 9 }\n}\n', "supply-over-table", 3,
     "starting-supply 9 is beyond the supply table (0-6)"),
    ('variant v "V" {\n  game base\n  patch deck westeros-i { remove card supply-i  remove card ghost }\n}\n',
     "patch-nothing-there", 3, "'remove card ghost': deck 'westeros-i' has no 'card ghost'"),
    ('variant v "V" {\n  game base\n  patch hous arryn { power-tokens 19 }\n}\n', "unknown-kind", 3,
     "variant 'v': cannot patch 'hous'"),
    ('setup s from base {\n}\n', "unknown-setup", 1, "derives from an unknown setup 'base'"),
    ('variant v "V" {\n  game base\n  patch setup base-3p { house stark { loan random } }\n}\n',
     "loan-without-bank", 3, "the Iron Bank is not in this setup"),
])
def test_content_the_engine_cannot_run_is_a_located_error(tmp_path, text, code, line, words):
    d = _error(_compile(tmp_path, text), code)
    assert words in d.message
    assert d.span is not None and d.span.file.endswith("x.mst") and d.span.line == line


def test_a_variant_that_changes_nothing_is_a_warning(tmp_path):
    diags = _compile(tmp_path, 'variant v "V" {\n  game base\n  patch house stark { power-tokens 20 }\n}\n')
    assert not diags.errors
    d = _error(diags, "variant-changes-nothing")
    assert d.severity == "warning" and d.span.line == 1


def test_a_patch_keeps_what_it_does_not_change(tmp_path):
    (tmp_path / "p").mkdir()
    (tmp_path / "p" / "x.mst").write_text(
        'setup s "S" from base-3p {\n  power-tokens 6\n  garrison winterfell 3\n  remove garrison dragonstone\n'
        '  house lannister { power 9  add-units riverrun { footman 1 } }\n}\n', encoding="utf-8")
    b = compile_paths([default_content_dir(), tmp_path / "p"], cache=False)
    s, base = b["setups"]["s"], b["setups"]["base-3p"]
    assert s["power_tokens"] == 6 and s["starting_power"] == {"lannister": 9}
    assert s["garrisons"] == {"winterfell": 3, "lannisport": 2}
    assert s["starting_units"]["lannister"][-1] == {"area": "riverrun", "units": {"footman": 1}}
    assert s["influence"] == base["influence"] and s["name"] == "S" and s["derived_from"] == "base-3p"
    game = new_game(Rules(b), "s", seed=1)
    assert game.state.houses["lannister"].power == 9 and game.state.houses["stark"].power == 6


def test_track_roles_come_from_the_rules_set(tmp_path):
    (tmp_path / "p").mkdir()
    (tmp_path / "p" / "x.mst").write_text('variant v "V" {\n  game base\n  patch game base { blade-track kings-court'
                                          '  raven-track fiefdoms }\n}\n', encoding="utf-8")
    rules = Rules(apply_variant(compile_paths([default_content_dir(), tmp_path / "p"], cache=False), "v"))
    game = new_game(rules, "base-3p", seed=1)
    assert (game.turn_track, game.blade_track, game.raven_track) == ("iron-throne", "kings-court", "fiefdoms")


# ---- diff and the command line -----------------------------------------------------------------------


def test_diff_shows_each_changed_field(bundle):
    b = apply_variant(compile_paths([default_content_dir(), PACKS / "dance-with-mother-of-dragons"]),
                      "dance-with-mother-of-dragons")
    sections = diff_bundles(bundle, b)
    fields = sections["setups"]["changed"]["mod-8p"]
    assert fields["starting_power.targaryen"] == {"from": None, "to": 9}
    assert fields["starting_loans.lannister"] == {"from": None, "to": ["random"]}
    assert "mod-3p" not in sections["setups"]["changed"]
    assert "      starting_power.targaryen: null → 9" in diff_lines(sections)


def test_diff_compares_placements_by_area_and_cards_by_their_text(bundle):
    changed = json.loads(json.dumps(bundle))
    stark = changed["setups"]["base-3p"]["starting_units"]["stark"]
    assert stark[0]["area"] == "winterfell"
    stark[0]["units"]["footman"] += 1
    stark.reverse()  # the order of placements is no difference
    changed["house_cards"]["tywin-lannister"]["abilities"][0]["body"] = []
    changed["house_cards"]["tywin-lannister"]["source"] = "elsewhere.mst:1:1"  # where it is written: no difference
    changed["house_cards"]["eddard-stark"]["source"] = "elsewhere.mst:9:9"
    sections = diff_bundles(bundle, changed)
    assert sections["setups"]["changed"] == {"base-3p": {"starting_units.stark[winterfell].units.footman":
                                                         {"from": 1, "to": 2}}}
    tywin = sections["house_cards"]["changed"]["tywin-lannister"]
    assert set(tywin) == {"abilities[0].body", "text"} and "eddard-stark" not in sections["house_cards"]["changed"]
    assert tywin["text"]["to"] == ("Tywin Lannister (Lannister, strength 4). Once the winner is known: if you win "
                                   "the combat, nothing happens.")
    lines = diff_lines(sections)
    assert lines[lines.index("  ~ tywin-lannister") + 1].startswith("      text: Tywin Lannister (Lannister, strength")
    assert not any("abilities[0]" in line for line in lines)  # the text says what the compiled change means
    assert count(sections) == 2 and diff_bundles(bundle, bundle) == {}


def test_variant_is_enough_to_play_it():
    runner = CliRunner()
    pack = str(PACKS / "rebalanced-aeron")
    r = runner.invoke(app, ["play", "--pack", pack, "--variant", "rebalanced-aeron", "--quiet", "-a", "random"])
    assert r.exit_code == 0, r.output
    r = runner.invoke(app, ["play", "--pack", str(PACKS / "dragon-war"), "--variant", "dragon-war", "--base"])
    assert r.exit_code == 1
    first = r.output.strip().splitlines()[0]
    assert first == ("error: variant 'dragon-war' is for the rules set 'mother-of-dragons', not 'base': run "
                     f"maester play --variant dragon-war --pack {PACKS / 'dragon-war'} [variant-mismatch]")


@pytest.mark.parametrize("source", ["card:aeron-damphair-dwd", "setup:mod-8p", "rule:base"])
def test_new_variant_from_scaffolds_a_patch_whose_command_works(tmp_path, monkeypatch, source):
    import shlex

    monkeypatch.chdir(tmp_path)
    runner = CliRunner()
    r = runner.invoke(app, ["new", "variant", "my-patch", "--from", source])
    assert r.exit_code == 0, r.output
    command = r.output.strip().splitlines()[-1].removeprefix("next: ")
    args = shlex.split(command)
    assert args[:2] == ["maester", "play"]
    r = runner.invoke(app, [*args[1:], "--quiet", "-a", "random"])
    assert r.exit_code == 0, r.output


def test_loan_deck_and_a_named_starting_loan(tmp_path):
    (tmp_path / "p").mkdir()
    (tmp_path / "p" / "x.mst").write_text(
        'setup bank-8p "Small bank" from mod-8p {\n  loan-deck [full-host, vanguard-cavalry, siege-engineers]\n'
        '  house stark { loan vanguard-cavalry }\n}\n'
        'variant small-bank "Small bank" {\n  game mother-of-dragons\n  setups [bank-8p]\n}\n', encoding="utf-8")
    b = compile_paths([default_content_dir(), tmp_path / "p"], cache=False)
    assert b["setups"]["bank-8p"]["loan_deck"] == ["full-host", "vanguard-cavalry", "siege-engineers"]
    assert b["variants"]["small-bank"]["setups"] == {"mod-8p": "bank-8p"}
    game = new_game(Rules(apply_variant(b, "small-bank")), "bank-8p", seed=4, options=ModOptions(player_houses=ALL8))
    loan = next(e for e in game.events if e["type"] == "loan")
    assert (loan["house"], loan["loan"]) == ("stark", "vanguard-cavalry")
    held = set(game.mod_state.loan_deck) | {c for c in game.mod_state.bank if c} | {"vanguard-cavalry"}
    assert held == {"full-host", "vanguard-cavalry", "siege-engineers"}


def test_orders_loans_and_the_wildling_deck_are_patched_like_the_rest(tmp_path):
    (tmp_path / "p").mkdir()
    (tmp_path / "p" / "x.mst").write_text(
        'variant v "V" {\n  game base\n  patch order march-plus-one { copies 2 }\n'
        '  patch game base { orders-per-house 16 }\n'
        '  patch deck wildlings { remove card preemptive-raid }\n}\n', encoding="utf-8")
    b = apply_variant(compile_paths([default_content_dir(), tmp_path / "p"], cache=False), "v")
    rules = Rules(b)
    assert rules.orders_of_set("house").count("march-plus-one") == 2
    game = new_game(rules, "base-3p", seed=1)
    assert "preemptive-raid" not in game.state.wildling_deck and len(game.state.wildling_deck) == 8


def test_explain_plays_the_variants_own_setup(tmp_path):
    (tmp_path / "p").mkdir()
    (tmp_path / "p" / "x.mst").write_text(
        'setup rich-3p "Rich" from base-3p {\n  power-tokens 9\n}\n'
        'variant rich "Rich" {\n  game base\n  setups [rich-3p]\n}\n', encoding="utf-8")
    (tmp_path / "s.yaml").write_text("name: rich\nsetup: base-3p\nposition: {phase: planning}\notherwise: stop\n"
                                     "expect:\n  state:\n    houses.stark.power: 9\n", encoding="utf-8")
    r = CliRunner().invoke(app, ["explain", str(tmp_path / "s.yaml"), "--pack", str(tmp_path / "p"),
                                 "--variant", "rich"])
    assert r.exit_code == 0 and "1 passed, 0 failed" in r.output, r.output


def test_a_rules_set_without_wildlings(tmp_path):
    (tmp_path / "p").mkdir()
    (tmp_path / "p" / "x.mst").write_text('variant v "V" {\n  game base\n  patch game base { wildlings no }\n}\n',
                                          encoding="utf-8")
    rules = Rules(apply_variant(compile_paths([default_content_dir(), tmp_path / "p"], cache=False), "v"))
    game = new_game(rules, "base-6p", seed=3)
    game.play(agents_for(game.state.houses, "random", 3))
    assert game.over
    assert not [e for e in game.events if e["type"] in ("wildlings", "wildling-attack")]
    assert game.state.wildling_threat == rules.game("base")["wildling_start"]


def test_a_neutral_force_at_sea_is_refused(tmp_path):
    d = _error(_compile(tmp_path, 'setup s from base-3p {\n  neutral-force bay-of-ice 3\n}\n'), "setup-area")
    assert "neutral force in 'bay-of-ice', a sea area" in d.message and d.span.line == 1


@pytest.mark.parametrize("pack", PACK_NAMES)
def test_pack_plays_every_player_count_it_supports(pack):
    """A complete game of every setup the variant plays (each takes a fraction of a second)."""
    rules = _rules(pack)
    for setup in sorted(set(rules.bundle["variants"][pack]["setups"].values())):
        game = new_game(rules, setup, seed=5)
        game.play(agents_for(game.state.houses, "random", 5))
        assert game.over and game.state.winner, setup


def test_a_player_count_the_variant_does_not_play_is_refused_with_the_command_that_works():
    pack = PACKS / "dance-with-mother-of-dragons"
    r = CliRunner().invoke(app, ["play", "--pack", str(pack), "--variant", "dance-with-mother-of-dragons", "-p", "3"])
    assert r.exit_code == 1
    assert r.output.splitlines()[0] == (
        "error: variant 'dance-with-mother-of-dragons' is not played with 3 players: it plays 4, 5, 6, 7, 8 (run "
        f"maester play --players 8 --variant dance-with-mother-of-dragons --pack {pack}) [variant-players]")


def test_a_variant_bundle_needs_no_patch_logic(tmp_path):
    """`compile --variant` writes plain records: another engine loads the file and plays the variant."""
    out = tmp_path / "dragon-war.json"
    r = CliRunner().invoke(app, ["compile", "--pack", str(PACKS / "dragon-war"), "--variant", "dragon-war",
                                 "-o", str(out)])
    assert r.exit_code == 0, r.output
    assert CliRunner().invoke(app, ["validate", str(out)]).exit_code == 0
    game = new_game(Rules.from_file(out), "mod-8p", seed=1, options=ModOptions(player_houses=ALL8))
    # the Knight became a Dragon; a setup's placement puts its kinds in kind id order (docs/conformance.md)
    assert [u[0] for u in game.state.units["winterfell"]["units"]] == ["dragon", "footman"]
    assert game.state.garrisons["winterfell"] == 4


def test_a_from_cycle_is_one_located_error_without_cascade(tmp_path):
    diags = _compile(tmp_path, 'setup a "A" from b { }\nsetup b "B" from a { }\n')
    assert [(d.code, d.span.line) for d in diags.errors] == [("patch-cycle", 1)]


def test_a_derived_card_missing_its_set_is_reported_in_the_pack(tmp_path):
    """The derived card's entries come from its parent in the bundled content; the mistake is the pack's."""
    from maester.dsl import MaesterError, compile_paths
    from maester.dsl.compile import default_content_dir

    (tmp_path / "cards.mst").write_text('house-card eddard-two "Eddard Two" from eddard-stark {\n  strength 2\n}\n')
    with pytest.raises(MaesterError) as e:
        compile_paths([default_content_dir(), tmp_path])
    (error,) = e.value.diagnostics.errors
    assert error.code == "missing-key" and error.message == "house-card 'eddard-two' needs 'set'"
    assert error.span.file.endswith("cards.mst") and (error.span.line, error.span.column) == (1, 1), error.span
