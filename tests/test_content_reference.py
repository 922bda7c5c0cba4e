"""Tracks, tables, order tokens, rules sets, houses and setups of the bundled content match the reference.

The reference is ../shared/reference/game-content.yaml (sections `orders`, `tracks`, `setups`, `dragons`);
rules.md R4, R5, R8, R13, R28, R31, R34 and R42 say what the numbers mean. Each test compares one item
(an order token, a house, a setup, ...) field by field, so a failure names the item and the field.

How the content carries the reference (see content/core/*.mst and content/setups/*.mst):
- order `description` is the reference's `special`; `sea-only` is `resolvable_in: sea area or port with a
  ship`; `resolves-at consolidate-power` is `timing: consolidate-power step ...`; `raid-gives-power` is
  stated by the texts of the raid (consolidate power: yes) and of the Iron Bank token (no).
- a King's Court stars row is named after its reference key (`base_5_players` -> `base-5-players`).
- a Mother of Dragons setup lists every house in the game (players and vassals) in `houses`; its
  `starting_units` are the player screens of all of them and its `vassal_starting_units` the vassal setup
  cards of the houses that may be vassals (none when there are no vassals).
"""

from __future__ import annotations

from collections import Counter

import pytest
import yaml

from .conftest import NO_REFERENCE, REFERENCE

GAME_CONTENT = REFERENCE / "game-content.yaml"
SKIP_REASON = f"reference file {GAME_CONTENT} not found: {NO_REFERENCE}"

REF: dict | None = (yaml.safe_load(GAME_CONTENT.read_text(encoding="utf-8"))
                    if GAME_CONTENT.is_file() else None)

TRACKS = ["iron-throne", "fiefdoms", "kings-court"]

# The reference's end-of-game tiebreakers (phrases) -> the names the games use (R26.3, FAQ v2.0, D1).
TIEBREAKERS = {
    "most castles and strongholds controlled": "most-castles-and-strongholds",
    "most land areas controlled": "most-land-areas",
    "highest on the supply track": "highest-supply",
    "highest on the Iron Throne track": "highest-iron-throne",
}

# Every field of a compiled order record that the reference decides (all but id, name and source).
ORDER_FIELDS = {"description", "set", "type", "value", "support_value", "defense_value", "star", "copies",
                "sea_only", "resolves_at", "raidable_by", "raid_gives_power", "restrictions"}

# Every field of a compiled setup record.
SETUP_FIELDS = {"id", "name", "source", "game", "board", "players", "houses", "vassals", "power_tokens",
                "kings_court_stars", "westeros_decks", "iron_bank", "dragon_strength_rounds",
                "loyalty_tokens", "neutral_forces", "garrisons", "blocked", "influence", "starting_units",
                "vassal_starting_units", "notes", "starting_power", "starting_loans", "loan_deck",
                "starting_supply", "starting_power_tokens"}  # the last two: per-setup changes a variant may make


def _params(items) -> list:
    """pytest params named by item id; one skipped param when the reference is missing."""
    if REF is None:
        return [pytest.param(None, marks=pytest.mark.skip(reason=SKIP_REASON), id="no-reference")]
    return [pytest.param(item, id=ident) for ident, item in items(REF)]


def _order_tokens(ref: dict):
    o = ref["orders"]
    for key, set_ in (("base_tokens", "house"), ("mod_sea_tokens", "sea"), ("vassal_tokens", "vassal")):
        for tok in o[key]:
            yield tok["id"], (set_, tok)


def _houses(ref: dict):
    yield from ((h, (h, data)) for h, data in ref["tracks"]["houses"].items())


def _base_setups(ref: dict):
    yield from ((s["id"], s) for s in ref["setups"]["base"])


def _mod_setups(ref: dict):
    yield from ((s["id"], s) for s in ref["setups"]["mod"])


def _all_setups(ref: dict):
    yield from _base_setups(ref)
    yield from _mod_setups(ref)


def _dominance_tokens(ref: dict):
    yield from ((d["id"], d) for d in ref["tracks"]["dominance_tokens"])


def _star_rows(ref: dict):
    yield from ((k, (k, v)) for k, v in ref["tracks"]["starred_orders_by_kings_court_position"].items())


# ---- fixtures -----------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def ref() -> dict:
    if REF is None:
        pytest.skip(SKIP_REASON)
    return REF



def _get(bundle: dict, section: str, ident: str) -> dict:
    records = bundle[section]
    assert ident in records, f"no {section} record '{ident}' in the bundled content (has: {sorted(records)})"
    return records[ident]


def _diff(actual: dict, expected: dict, prefix: str = "") -> str:
    """The differing keys, one line each; nested maps (per house, per track) are opened one level."""
    lines = []
    for k in sorted(set(actual) | set(expected)):
        a, e = actual.get(k), expected.get(k)
        if a == e:
            continue
        if isinstance(a, dict) and isinstance(e, dict) and not prefix:
            lines.append(_diff(a, e, prefix=f"{k}."))
        else:
            lines.append(f"  {prefix}{k}: content {a!r} != reference {e!r}")
    return "\n".join(lines)


def _assert_fields(what: str, actual: dict, expected: dict) -> None:
    assert actual == expected, f"{what} differs from the reference:\n{_diff(actual, expected)}"


# ---- order tokens (R13, R14, R34, R42.1) ---------------------------------------------------------


def test_order_token_ids(ref, bundle):
    expected = {ident for ident, _ in _order_tokens(ref)}
    assert set(bundle["orders"]) == expected


def _expected_raid_gives_power(tok: dict, ref: dict) -> str | None:
    if tok["type"] == "consolidate-power":
        raid = next(t for t in ref["orders"]["base_tokens"] if t["id"] == "raid")
        assert "removing a consolidate power order also gives the raider 1 power" in raid["special"]
        return "yes"
    if "raider gains no power" in tok["special"]:
        return "no"
    return None


def _expected_resolves_at(tok: dict) -> str | None:
    timing = tok.get("timing")
    if timing is None:
        return None
    assert timing.startswith("consolidate-power step"), f"unexpected timing {timing!r}"
    return "consolidate-power"


def _expected_sea_only(tok: dict) -> bool:
    where = tok.get("resolvable_in")
    assert where in (None, "sea area or port with a ship"), f"unexpected resolvable_in {where!r}"
    return where is not None


@pytest.mark.parametrize("item", _params(_order_tokens))
def test_order_token(ref, bundle, item):
    set_, tok = item
    known = {"id", "type", "value", "star", "copies", "special", "resolvable_in", "timing", "restrictions",
             "raidable_by", "support_value", "defense_value"}
    assert set(tok) <= known, f"the reference token has fields this test does not map: {set(tok) - known}"
    record = _get(bundle, "orders", tok["id"])
    assert set(record) == ORDER_FIELDS | {"id", "name", "source"}
    expected = {
        "description": tok["special"], "set": set_, "type": tok["type"], "value": tok["value"],
        "support_value": tok.get("support_value"), "defense_value": tok.get("defense_value"),
        "star": tok["star"], "copies": tok["copies"], "sea_only": _expected_sea_only(tok),
        "resolves_at": _expected_resolves_at(tok), "raidable_by": tok.get("raidable_by", []),
        "raid_gives_power": _expected_raid_gives_power(tok, ref), "restrictions": tok.get("restrictions", []),
    }
    _assert_fields(f"order {tok['id']}", {k: record[k] for k in ORDER_FIELDS}, expected)
    assert record["name"], f"order {tok['id']} has no display name"


def test_order_token_counts(ref, bundle):
    o, orders = ref["orders"], bundle["orders"].values()

    def copies(set_, star=None):
        return sum(r["copies"] for r in orders if r["set"] == set_ and (star is None or r["star"] == star))

    houses = len(ref["tracks"]["houses"])
    assert copies("house") == o["base_tokens_per_house"]
    assert copies("house", star=True) == o["special_orders_per_house"]
    assert copies("sea") == o["mod_sea_tokens_per_house"]
    assert copies("sea") * houses == o["mod_sea_tokens_total"]
    assert copies("sea", star=True) == copies("vassal", star=True) == 0, "sea and vassal tokens have no star"
    assert copies("vassal") == o["vassal_tokens_per_set"]
    mod = _get(bundle, "games", "mother-of-dragons")
    assert mod["vassal_order_sets"] == o["vassal_order_sets_total"]
    assert mod["vassal_order_sets"] * copies("vassal") == o["vassal_tokens_total"]
    assert _get(bundle, "orders", o["iron_bank_order"])["type"] == "iron-bank"
    for game in bundle["games"].values():
        assert game["orders_per_house"] == o["base_tokens_per_house"], game["id"]


# ---- tracks, dominance tokens and tables (R5, R8.3, R13.3) ----------------------------------------


def test_influence_tracks(ref, bundle):
    assert sorted(bundle["tracks"]) == sorted(ref["tracks"]["influence_tracks"])
    for game in bundle["games"].values():
        assert game["tracks"] == ref["tracks"]["influence_tracks"], game["id"]


@pytest.mark.parametrize("token", _params(_dominance_tokens))
def test_dominance_token(bundle, token):
    track = _get(bundle, "tracks", token["track"])
    assert track["dominance_token"]["id"] == token["id"]
    assert track["dominance_token"]["text"] == token["text"]
    assert track["dominance_token"]["name"]


def test_supply_limits(ref, bundle):
    table = _get(bundle, "tables", "supply-limits")
    expected = {str(level): sizes for level, sizes in ref["tracks"]["supply_limits"].items()}
    assert table["rows"] == expected
    for game in bundle["games"].values():
        assert game["supply_limits"] == "supply-limits", game["id"]


@pytest.mark.parametrize("row", _params(_star_rows))
def test_kings_court_stars_row(bundle, row):
    key, stars = row
    table = _get(bundle, "tables", "kings-court-stars")
    name = key.replace("_", "-")
    assert name in table["rows"], f"no row '{name}' in the King's Court stars table"
    assert table["rows"][name] == stars


def test_kings_court_stars_table(ref, bundle):
    rows = ref["tracks"]["starred_orders_by_kings_court_position"]
    table = _get(bundle, "tables", "kings-court-stars")
    assert set(table["rows"]) == {k.replace("_", "-") for k in rows}
    for game in bundle["games"].values():
        assert game["kings_court_stars"] == "kings-court-stars", game["id"]


# ---- rules sets (R1, R4, R11, R26, R31) ----------------------------------------------------------


@pytest.mark.parametrize("game_id", ["base", "mother-of-dragons"])
def test_game_constants(ref, bundle, game_id):
    t, w = ref["tracks"], ref["tracks"]["wildling_track"]
    common = ref["setups"]["base_common" if game_id == "base" else "mod_common"]
    game = _get(bundle, "games", game_id)
    expected = {
        "victory_points": t["victory_points_to_win"], "max_rounds": t["max_rounds"],
        "wildling_track": w["positions"], "wildling_start": w["start"],
        "tiebreakers": [TIEBREAKERS[p] for p in t["end_of_game_tiebreakers"]],
    }
    _assert_fields(f"game {game_id}", {k: game[k] for k in expected}, expected)
    assert common["wildling_threat_start"] == game["wildling_start"]


def test_base_game(ref, bundle):
    game = _get(bundle, "games", "base")
    assert game["westeros_decks"] == [d.lower() for d in ref["setups"]["base_common"]["westeros_decks"]]
    assert game["order_sets"] == ["house"]
    assert (game["vassal_order_sets"], game["vassal_supply"], game["loyalty_tokens"]) == (None, None, None)


def test_mother_of_dragons_game(ref, bundle):
    game = _get(bundle, "games", "mother-of-dragons")
    mc = ref["setups"]["mod_common"]
    assert mc["westeros_decks"] == "I, II and III always; IV only with Targaryen"
    assert game["westeros_decks"] == ["i", "ii", "iii", "iv"]
    assert game["order_sets"] == ["house", "sea", "vassal"]
    assert game["vassal_supply"] == mc["vassal_supply_start"]
    assert game["loyalty_tokens"] == ref["tracks"]["targaryen_victory"]["loyalty_tokens_total"]


# ---- houses (R2.1, R30, R36; content/core/houses.mst) --------------------------------------------


def test_house_ids(ref, bundle):
    assert set(bundle["houses"]) == set(ref["tracks"]["houses"])


@pytest.mark.parametrize("item", _params(_houses))
def test_house(bundle, item):
    ident, h = item
    house = _get(bundle, "houses", ident)
    actual = {k: house[k] for k in ("name", "home", "expansion", "starting_supply", "starting_victory_points",
                                    "power_tokens")}
    expected = {"name": h["name"], "home": h["home_area"], "expansion": h["expansion"],
                "starting_supply": h["starting_supply"], "power_tokens": h["power_tokens_total"],
                "starting_victory_points": h["starting_victory_points"]}
    _assert_fields(f"house {ident}", actual, expected)
    # A kind the house has no pieces of may be left out (Targaryen: siege-engine 0 in the reference).
    kinds = set(bundle["unit_kinds"])
    assert set(h["unit_limits"]) <= kinds and set(house["unit_limits"]) <= kinds
    actual_limits = {k: house["unit_limits"].get(k, 0) for k in kinds}
    assert actual_limits == {k: h["unit_limits"].get(k, 0) for k in kinds}, \
        f"house {ident}: unit limits {house['unit_limits']} != reference {h['unit_limits']}"
    assert house["never_vassal"] == (ident == "targaryen"), "only Targaryen is never a vassal (R31.1)"


@pytest.mark.parametrize("item", _params(_houses))
def test_house_starting_power(bundle, item):
    ident, h = item
    for setup in bundle["setups"].values():
        if ident not in setup["houses"]:
            continue
        wanted = h["power_tokens_start_base"] if setup["game"] == "base" else h["power_tokens_start_mod"]
        assert wanted is not None, f"{ident} is in setup {setup['id']}, but the reference gives it no power"
        assert setup["power_tokens"] == wanted, setup["id"]


# ---- setups: base game (R4, R28, C1, C2) ---------------------------------------------------------


def test_setup_ids(ref, bundle):
    assert set(bundle["setups"]) == {ident for ident, _ in _all_setups(ref)}


def _stars_row(setup: dict) -> str:
    return "base-3-to-4-players-with-overlay" if setup["kings_court_overlay"] \
        else f"base-{setup['player_count']}-players"


@pytest.mark.parametrize("ref_setup", _params(_base_setups))
def test_base_setup(ref, bundle, ref_setup):
    s = ref_setup
    common = ref["setups"]["base_common"]
    known = {"id", "player_count", "houses", "kings_court_overlay", "neutral_forces", "blocked_areas",
             "garrisons", "influence_order", "starting_units", "unit_exceptions"}
    assert set(s) <= known, f"the reference setup has fields this test does not map: {set(s) - known}"
    setup = _get(bundle, "setups", s["id"])
    assert set(setup) == SETUP_FIELDS
    expected = {
        "game": "base", "board": "base", "players": s["player_count"], "houses": s["houses"], "vassals": 0,
        "power_tokens": common["power_tokens_per_player"], "kings_court_stars": _stars_row(s),
        "westeros_decks": None, "iron_bank": False, "dragon_strength_rounds": [], "loyalty_tokens": {},
        "neutral_forces": s["neutral_forces"], "garrisons": s["garrisons"], "blocked": s["blocked_areas"],
        "influence": s["influence_order"], "starting_units": s["starting_units"], "vassal_starting_units": {},
        "starting_supply": {}, "starting_power_tokens": {},  # the printed setups: supply from the houses, no tokens
    }
    _assert_fields(f"setup {s['id']}", {k: setup[k] for k in expected}, expected)
    for note in s.get("unit_exceptions", []):
        assert note in setup["notes"], f"setup {s['id']} lacks the note {note!r}"
    by_count = ref["tracks"]["base_influence_order_by_player_count"]
    assert s["influence_order"] == by_count[f"{s['player_count']}p"]


# ---- setups: Mother of Dragons (R31, C3, C4, R38) ------------------------------------------------


@pytest.mark.parametrize("ref_setup", _params(_mod_setups))
def test_mod_setup(ref, bundle, ref_setup):
    s = ref_setup
    mc, t = ref["setups"]["mod_common"], ref["tracks"]
    known = {"id", "player_count", "targaryen_played", "houses_in_game", "player_houses", "vassal_count",
             "vassal_order_sets_used", "vassal_set_distribution_at_setup", "essos_board", "westeros_deck_iv",
             "iron_bank_and_loans", "dragon_strength_tokens", "loyalty_tokens", "neutral_forces"}
    assert set(s) <= known, f"the reference setup has fields this test does not map: {set(s) - known}"
    setup = _get(bundle, "setups", s["id"])
    assert set(setup) == SETUP_FIELDS
    houses = [h for h in mc["houses_available"] if h != "targaryen" or s["targaryen_played"]]
    assert len(houses) == s["houses_in_game"]
    homes = {h: t["houses"][h]["home_area"] for h in houses}
    assert s["vassal_order_sets_used"] == s["vassal_count"], "one vassal order set per vassal (R31.11)"
    may_be_vassal = [h for h in houses if h != "targaryen"]  # Targaryen is never a vassal (R31.1)
    expected = {
        "game": "mother-of-dragons", "board": "mod-essos" if s["essos_board"] else "mod-westeros",
        "players": s["player_count"], "houses": houses, "vassals": s["vassal_count"],
        "power_tokens": mc["power_tokens_per_player"], "kings_court_stars": "mod-8-slot-track",
        "westeros_decks": ["i", "ii", "iii", "iv"] if s["westeros_deck_iv"] else ["i", "ii", "iii"],
        "iron_bank": s["iron_bank_and_loans"], "dragon_strength_rounds": s["dragon_strength_tokens"],
        "loyalty_tokens": s["loyalty_tokens"], "neutral_forces": s["neutral_forces"],
        "garrisons": {homes[h]: mc["garrisons"]["strengths"][homes[h]] for h in houses},
        "blocked": mc["blocked_areas"],
        "influence": {track: [h for h in order if h in houses]
                      for track, order in t["mod_influence_order"].items()},
        "starting_units": {h: ref["setups"]["mod_player_starting_units"][h] for h in houses},
        "vassal_starting_units": ({h: ref["setups"]["mod_vassal_starting_units"][h] for h in may_be_vassal}
                                  if s["vassal_count"] else {}),
        "starting_supply": {}, "starting_power_tokens": {},  # the printed setups: supply from the houses, no tokens
    }
    _assert_fields(f"setup {s['id']}", {k: setup[k] for k in expected}, expected)
    assert f"Player houses: {s['player_houses']}." in setup["notes"]
    if s["vassal_count"]:
        assert f"Vassal order sets at setup: {s['vassal_set_distribution_at_setup']}." in setup["notes"]


@pytest.mark.parametrize("ref_setup", _params(_mod_setups))
def test_mod_setup_targaryen(ref, bundle, ref_setup):
    """Targaryen's components come exactly with Targaryen (R30.2, R31.3-R31.14, R38)."""
    s, mc, dragons = ref_setup, ref["setups"]["mod_common"], ref["dragons"]
    setup = _get(bundle, "setups", s["id"])
    played = "targaryen" in setup["houses"]
    assert played == s["targaryen_played"]
    assert played == s["essos_board"] == s["westeros_deck_iv"] == s["iron_bank_and_loans"]
    if played:
        assert setup["players"] >= mc["targaryen_min_players"]
        rounds = setup["dragon_strength_rounds"]
        assert rounds == mc["dragon_strength_token_rounds"] == dragons["strength_token_rounds"]
        assert setup["loyalty_tokens"] == mc["loyalty_tokens"]
        assert setup["neutral_forces"] == mc["neutral_forces"]
        on_board = [e for e in setup["starting_units"]["targaryen"] if "dragon" in e["units"]]
        assert on_board == dragons["starting_positions"]
        assert sum(e["units"]["dragon"] for e in on_board) == dragons["count"]
    else:
        assert setup["neutral_forces"] == {"kings-landing": mc["neutral_forces"]["kings-landing"]}
        assert not setup["iron_bank"] and not setup["dragon_strength_rounds"] and not setup["loyalty_tokens"]


# ---- setups: consistency with the houses and the boards ------------------------------------------


@pytest.mark.parametrize("ref_setup", _params(_all_setups))
def test_setup_units_within_limits(bundle, ref_setup):
    setup = _get(bundle, "setups", ref_setup["id"])
    for field in ("starting_units", "vassal_starting_units"):
        for house, entries in setup[field].items():
            assert house in setup["houses"], f"{field}: {house} is not in setup {setup['id']}"
            limits = _get(bundle, "houses", house)["unit_limits"]
            total = Counter()
            for entry in entries:
                total.update(entry["units"])
            for kind, n in total.items():
                limit = limits.get(kind, 0)
                assert n <= limit, f"{setup['id']} {field}: {house} starts with {n} {kind}, over its {limit}"


@pytest.mark.parametrize("ref_setup", _params(_all_setups))
def test_setup_areas_on_board(bundle, ref_setup):
    setup = _get(bundle, "setups", ref_setup["id"])
    areas = _get(bundle, "boards", setup["board"])["areas"]
    blocked = set(setup["blocked"])
    for field in ("starting_units", "vassal_starting_units"):
        for house, entries in setup[field].items():
            for entry in entries:
                area = entry["area"]
                assert area in areas, f"{setup['id']}: {house} starts in {area}, not on {setup['board']}"
                assert area not in blocked, f"{setup['id']}: {house} starts in the blocked area {area}"
                kind = areas[area]["kind"]
                for unit in entry["units"]:
                    domain = _get(bundle, "unit_kinds", unit)["domain"]
                    fits = kind in ("sea", "port") if domain == "sea" else kind == "land"
                    assert fits, f"{setup['id']}: {house}'s {unit} cannot stand in the {kind} area {area}"
    for field in ("neutral_forces", "garrisons", "loyalty_tokens"):
        for area in setup[field]:
            assert area in areas and areas[area]["kind"] == "land", f"{setup['id']} {field}: {area}"
    for area in blocked:
        assert area in areas, f"{setup['id']}: blocked area {area} is not on board {setup['board']}"


@pytest.mark.parametrize("ref_setup", _params(_all_setups))
def test_setup_garrisons_on_homes(bundle, ref_setup):
    setup = _get(bundle, "setups", ref_setup["id"])
    areas = _get(bundle, "boards", setup["board"])["areas"]
    homes = {_get(bundle, "houses", h)["home"] for h in setup["houses"]}
    assert set(setup["garrisons"]) == homes, "every house in the game garrisons its home area (R4.10, R31.13)"
    for area, strength in setup["garrisons"].items():
        assert areas[area]["garrison"] == strength, f"{setup['id']}: garrison of {area} vs the board"


@pytest.mark.parametrize("ref_setup", _params(_all_setups))
def test_setup_influence_lists_its_houses(bundle, ref_setup):
    setup = _get(bundle, "setups", ref_setup["id"])
    game = _get(bundle, "games", setup["game"])
    assert list(setup["influence"]) == game["tracks"] == TRACKS
    for track, order in setup["influence"].items():
        assert sorted(order) == sorted(setup["houses"]) and len(set(order)) == len(order), \
            f"{setup['id']}: the {track} track lists {order}, not exactly the houses {setup['houses']}"
    stars = _get(bundle, "tables", game["kings_court_stars"])["rows"]
    assert setup["kings_court_stars"] in stars
    assert len(stars[setup["kings_court_stars"]]) >= len(setup["houses"])
    assert setup["players"] + setup["vassals"] == len(setup["houses"])
    assert set(setup["westeros_decks"] or []) <= set(game["westeros_decks"])
