"""Bundles that pass the JSON Schema but used to crash the engine are refused at load, with JSON pointers.

Each case is one of the 20 crashes of issue 14 (a border to an unknown area, an unbound variable, a
wrong-typed operand, empty tables, tracks and wildling tracks, unknown setup houses, incomplete influence
tracks, a power pool of 10^9). Every refusal names the JSON pointer of the bad value and points at the
content line the record came from.
"""

from __future__ import annotations

import copy
import json

import pytest
from typer.testing import CliRunner

from maester.dsl.diagnostics import BundleError, Diagnostics
from maester.interpreter.core.bundle_check import check_bundle
from maester.interpreter.core.rules import Rules, validate_all
from maester.tools.cli import app


def _loan(b):
    return b["loans"]["customs-officer"]["effect"][0]["args"]


CASES = {
    "border to an unknown area": (lambda b: b["boards"]["base"]["borders"].append(["winterfell", "nowhere"]),
                                  "/boards/base/borders/", "unknown area 'nowhere' (not on board 'base')"),
    "unbound variable": (lambda b: _loan(b).__setitem__("house", {"node": "var", "var": "nobody"}),
                         "/loans/customs-officer/effect/0/args/house", "the variable 'nobody' is not bound here"),
    "wrong-typed operand": (lambda b: _loan(b).__setitem__("amount", {"node": "op", "op": "+", "args": [True, 1]}),
                            "/loans/customs-officer/effect/0/args/amount/args/0",
                            "'+' needs numbers or lists, got a condition"),
    "wrong-typed argument": (lambda b: _loan(b).__setitem__("house", {"node": "id", "id": "winterfell", "type": "area"}),
                             "/loans/customs-officer/effect/0/args/house", "expects a house, got a area"),
    "empty supply table": (lambda b: b["tables"]["supply-limits"].__setitem__("rows", {}),
                           "/tables/supply-limits/rows", "the supply limits table is empty"),
    "empty stars table": (lambda b: b["tables"]["kings-court-stars"].__setitem__("rows", {}),
                          "/tables/kings-court-stars/rows", "the King's Court stars table is empty"),
    "empty track list": (lambda b: b["games"]["base"].__setitem__("tracks", []),
                         "/games/base/tracks", "a game needs its influence tracks"),
    "setup naming an unknown house": (lambda b: b["setups"]["base-3p"]["houses"].__setitem__(0, "nobody"),
                                      "/setups/base-3p/houses/0", "unknown house 'nobody'"),
    "empty wildling track": (lambda b: b["games"]["base"].__setitem__("wildling_track", []),
                             "/games/base/wildling_track", "the wildling track needs its spaces"),
    "influence track missing a house": (lambda b: b["setups"]["base-3p"]["influence"]["iron-throne"].pop(),
                                        "/setups/base-3p/influence/iron-throne",
                                        "the track must hold each house of the setup once"),
    "unknown setup area": (lambda b: b["setups"]["base-3p"]["garrisons"].__setitem__("atlantis", 2),
                           "/setups/base-3p/garrisons/atlantis", "unknown area 'atlantis'"),
    "unknown card set": (lambda b: b["games"]["base"]["house_card_sets"].append("nope"),
                         "/games/base/house_card_sets/1", "unknown card set 'nope'"),
    # found by the bundle fuzzer: a hang (the march search) and two crashes
    "a starting army far over its limits": (
        lambda b: b["setups"]["base-6p"]["starting_units"]["tyrell"][0]["units"].__setitem__("knight", 100),
        "/setups/base-6p/starting_units/tyrell", "tyrell starts with 100 knight units; its limit is 5"),
    "a footman at sea": (lambda b: b["setups"]["base-3p"]["starting_units"]["stark"][0].__setitem__(
        "area", "bay-of-ice"), "/setups/base-3p/starting_units/stark/0/units/footman",
        "a footman cannot stand in 'bay-of-ice' (a sea area)"),
    "two houses in one area": (lambda b: b["setups"]["base-3p"]["starting_units"]["lannister"][0].__setitem__(
        "area", "winterfell"), "/setups/base-3p/starting_units/lannister/0/area",
        "lannister and stark both start in 'winterfell'"),
    "an Essos card on a board without Essos": (
        lambda b: b["setups"]["mod-5p-without-targaryen"].__setitem__("westeros_decks", []),
        "/setups/mod-5p-without-targaryen/board",
        "westeros_cards/fire-made-flesh names the area 'pentos', which is not on board 'mod-westeros'"),
    "the Iron Bank without slot costs": (lambda b: b["games"]["mother-of-dragons"].__setitem__("loan_costs", []),
                                         "/games/mother-of-dragons/loan_costs",
                                         "a setup with the Iron Bank needs the costs of the bank's slots"),
    # ids the engine computes from bundle data in play (they once stopped or crashed a game mid-play)
    "a home area off the setup's board (home-area, vassal musters, loyalty)": (
        lambda b: b["houses"]["arryn"].__setitem__("home", "braavos"), "/houses/arryn/home",
        "arryn's home area 'braavos' is not on board 'mod-westeros' of setup 'mod-3p'"),
    "a home area at sea": (lambda b: b["houses"]["stark"].__setitem__("home", "the-shivering-sea"),
                           "/houses/stark/home", "stark's home area 'the-shivering-sea' is a sea area, not land"),
    "a turn order track the game does not play": (
        lambda b: b["games"]["base"].__setitem__("turn_order_track", "nope"), "/games/base/turn_order_track",
        "'nope' is not one of the game's tracks (iron-throne, fiefdoms, kings-court)"),
    "a raven track the game does not play": (
        lambda b: b["games"]["base"].__setitem__("raven_track", "nope"), "/games/base/raven_track",
        "'nope' is not one of the game's tracks"),
    "a game leaving out a declared track (cards ask who holds its token)": (
        lambda b: _drop_track(b, "base", "fiefdoms"), "/games/base/tracks",
        "the game leaves out the track fiefdoms: every declared track is played"),
    "a deck slot naming no deck": (lambda b: b["games"]["base"]["decks"].__setitem__("i", "nope"),
                                   "/games/base/decks/i", "unknown deck 'nope'"),
    "a deck holding a card that is no Westeros card": (
        lambda b: b["decks"]["westeros-i"]["cards"].__setitem__("crow-killers", 2), "/decks/westeros-i/cards/crow-killers",
        "'crow-killers' is not a Westeros card, and deck 'westeros-i' is drawn as a game's 'i' deck"),
    "a base deck holding an Essos card": (
        lambda b: b["decks"]["westeros-i"]["cards"].__setitem__("fire-made-flesh", 1), "/setups/base-3p/board",
        "westeros_cards/fire-made-flesh names the area 'pentos', which is not on board 'base'"),
    "a card set listing an unknown card": (lambda b: b["card_sets"]["base"]["cards"].append("nope"),
                                           "/card_sets/base/cards/", "unknown house card 'nope'"),
    "a loan deck naming an unknown loan": (lambda b: b["setups"]["mod-8p"]["loan_deck"].__setitem__(0, "nope"),
                                           "/setups/mod-8p/loan_deck/0", "unknown loan 'nope'"),
    "a starting loan naming an unknown loan": (
        lambda b: b["setups"]["mod-8p"].__setitem__("starting_loans", {"stark": ["random", "nope"]}),
        "/setups/mod-8p/starting_loans/stark/1", "unknown loan 'nope'"),
    "a card in play naming a house not in the game": (
        lambda b: b["house_cards"]["tyrion-lannister"]["abilities"][0]["body"][0]["body"][1]["args"].__setitem__(
            "house", {"node": "id", "id": "arryn", "type": "house"}),
        "/house_cards/tyrion-lannister/abilities/0/body/0/body/1/args/house",
        "names the house 'arryn', which is not in setup 'base-3p'"),
    "a starting supply beyond the supply table": (lambda b: b["houses"]["stark"].__setitem__("starting_supply", 7),
                                                  "/houses/stark/starting_supply",
                                                  "starting supply 7 is beyond the supply table 'supply-limits'"),
    "a vassal supply beyond the supply table": (
        lambda b: b["games"]["mother-of-dragons"].__setitem__("vassal_supply", 12),
        "/games/mother-of-dragons/vassal_supply", "vassal supply 12 is beyond the supply table 'supply-limits' (0-6)"),
    "a tiebreaker the engine does not know": (
        lambda b: b["games"]["mother-of-dragons"]["tiebreakers"].__setitem__(0, "baratheon"),
        "/games/mother-of-dragons/tiebreakers/0", "'baratheon' is not one of highest-iron-throne, highest-supply, "
        "most-castles-and-strongholds, most-land-areas"),
    "an empty Westeros deck": (lambda b: b["decks"]["westeros-i"].__setitem__("cards", {}), "/decks/westeros-i/cards",
                               "deck 'westeros-i' has no cards, and it is drawn as a game's 'i' deck"),
    "a setup drawing a deck its game does not order": (
        lambda b: b["games"]["mother-of-dragons"]["westeros_decks"].remove("iv"),
        "/setups/mod-4p-with-targaryen/westeros_decks/3",
        "'iv' is not one of the Westeros decks of game 'mother-of-dragons' (i, ii, iii)"),
    "the Iron Bank with an empty loan deck": (lambda b: b["setups"]["mod-3p"].__setitem__("iron_bank", True),
                                              "/setups/mod-3p/loan_deck",
                                              "a setup with the Iron Bank needs loans in its loan deck"),
    "no tiebreakers": (lambda b: b["games"]["base"].__setitem__("tiebreakers", []), "/games/base/tiebreakers",
                       "a game needs its end-of-game tiebreakers (R26.3)"),
    "a variant playing a setup of another rules set": (
        lambda b: b["variants"]["asos-base"]["setups"].__setitem__("base-3p", "mod-3p"),
        "/variants/asos-base/setups/base-3p",
        "setup 'mod-3p' plays the rules set 'mother-of-dragons', but the variant is for 'base'"),
}


def _drop_track(b: dict, game: str, track: str) -> None:
    b["games"][game]["tracks"].remove(track)
    for setup in b["setups"].values():
        if setup["game"] == game:
            del setup["influence"][track]


@pytest.mark.parametrize("name", CASES)
def test_a_dangling_reference_is_refused_at_load(bundle, name):
    change, pointer, message = CASES[name]
    broken = copy.deepcopy(bundle)
    change(broken)
    diags = Diagnostics()
    check_bundle(broken, diags)
    found = [e for e in diags.errors if f"at {pointer}" in e.message and message in e.message]
    assert found, diags.format()
    assert found[0].code == "bundle-reference"
    assert found[0].span.file.startswith("content/") and found[0].span.line > 0  # the record's content line
    with pytest.raises(BundleError):
        Rules(broken)


def test_all_of_them_pass_the_schema_and_are_reported_together(bundle):
    """What the schema alone cannot see (one full validation: it takes seconds)."""
    broken = copy.deepcopy(bundle)
    # two cases hide others: the same argument changed twice; no tracks, so no influence order to check
    # (the cases of computed ids are left out: the Essos card's setup also reports its cards' houses, and
    # together they pass the cap of 50 problems a report shows)
    names = list(CASES)[:list(CASES).index("the Iron Bank without slot costs") + 1]
    cases = [CASES[name] for name in names if name not in ("wrong-typed argument", "empty track list",
                                                           "a footman at sea", "two houses in one area")]
    for change, _, _ in cases:
        change(broken)
    diags = Diagnostics()
    validate_all(broken, diags)
    assert {e.code for e in diags.errors} == {"bundle-reference"}
    text = diags.format()
    for _, pointer, message in cases:
        assert pointer in text and message in text, (pointer, message)


def test_nesting_too_deep_for_the_validator_is_one_error(bundle):
    broken = copy.deepcopy(bundle)
    expr = 1
    for _ in range(300):
        expr = {"node": "op", "op": "+", "args": [expr, 1]}
    _loan(broken)["amount"] = expr
    diags = Diagnostics()
    validate_all(broken, diags)
    (e,) = diags.errors
    assert e.code == "too-deep" and "nests deeper than" in e.message


def test_the_bundled_content_has_no_dangling_reference(bundle):
    diags = Diagnostics()
    check_bundle(bundle, diags)
    assert not diags.errors, diags.format()


def test_maester_validate_bounds_the_power_pool(bundle, tmp_path):
    """A power pool of 10^9 once exhausted memory building bids; the schema bounds it (one full check)."""
    broken = copy.deepcopy(bundle)
    broken["setups"]["base-3p"]["power_tokens"] = 10**9
    path = tmp_path / "b.json"
    path.write_text(json.dumps(broken))
    r = CliRunner().invoke(app, ["validate", str(path)])
    assert r.exit_code == 1
    out = r.output + (r.stderr if r.stderr_bytes else "")
    assert "/setups/base-3p/power_tokens: 1000000000 is greater than the maximum of 100" in out
    assert "content/setups/base.mst:10:1" in out and "Traceback" not in out


def test_check_refuses_what_play_would_refuse_also_as_a_variant_plays_it(bundle):
    """`maester check` and `compile` run the load-time checks on the bundle and on each variant's bundle."""
    from maester.dsl.diagnostics import Diagnostics
    from maester.tools.cli import _check_playable

    broken = copy.deepcopy(bundle)
    card = next(c for c in broken["house_cards"].values() if c["set"] == "asos" and c["abilities"])
    card["abilities"][0]["body"] = [{"node": "call", "do": "gain-power",
                                     "args": {"house": {"node": "var", "var": "nobody"}, "amount": 1}}]
    diags = Diagnostics()
    _check_playable(broken, diags)
    text = diags.format()
    # found once: the same mistake met again as the variants that deal the card play it is not repeated
    assert text.count("the variable 'nobody' is not bound here") == 1
    clean = Diagnostics()
    _check_playable(bundle, clean)
    assert not clean.errors


@pytest.mark.parametrize("field, value, pointer, message", [
    ("turn_order_track", "nope", "/variants/asos-base/patches/games/base/turn_order_track",
     "'nope' is not one of the game's tracks"),
    ("house_card_sets", ["nope"], "/variants/asos-base/patches/games/base/house_card_sets/0", "unknown card set 'nope'"),
])
def test_validate_checks_the_bundle_as_each_variant_plays_it(bundle, field, value, pointer, message):
    """A variant's patched record with a dangling id: `validate` (validate_all) refuses it, pointing into the
    variant's patches, not only `play --variant` when it loads the variant."""
    broken = copy.deepcopy(bundle)
    broken["variants"]["asos-base"]["patches"]["games"]["base"][field] = value
    clean = Diagnostics()
    check_bundle(broken, clean)  # the bundle as the base rules play it is fine
    assert not clean.errors
    diags = Diagnostics()
    check_bundle(broken, diags, variants=True)
    found = [e for e in diags.errors if f"(as variant 'asos-base' plays it) at {pointer}: {message}" in e.message]
    assert len(found) == 1, diags.format()
    assert found[0].span.file == "content/core/games.mst" and found[0].span.line > 0
