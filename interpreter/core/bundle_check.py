"""Load-time checks of a bundle beyond its JSON Schema: every cross-reference, and every effect's types.

The schema says each field has the right shape; this says the fields agree with each other (a border
names areas of its board, a setup's houses exist and fill its influence tracks, a game's tables have
rows, an effect only uses variables bound where it runs and gives each operand the type it needs).
A bundle that passes both can be played: the engine never meets a dangling id. Every problem is
reported with the JSON pointer of the offending value.

The compiler guarantees all of this for content it compiled; this module is for bundles from anywhere
(`maester validate`, `Rules.from_file`, a bundle edited by hand or by a fuzzer).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from functools import cache

from maester.dsl import passed_checks
from maester.dsl.diagnostics import Diagnostics, Span
from maester.dsl.kinds import KINDS
from maester.dsl.moments import MOMENTS
from maester.dsl.reads import Tracker, changes, own, whole
from maester.dsl.registry import CONTEXTS, ENUMS, PRIMITIVES, TRIGGERS
from maester.dsl.registry import types_compatible as _compatible
from maester.dsl.validate import json_pointer

# Which bundle section an effect-language id type names (the rest are enumerations, checked by the schema).
_ID_SECTIONS = {"house": "houses", "track": "tracks", "unit-kind": "unit_kinds", "card": "house_cards",
                "order": "orders", "card-set": "card_sets"}
_TRACK_ROLES = ("turn_order_track", "blade_track", "raven_track")  # game fields naming one of its tracks
_WILDLING_SLOT = "wildling"  # the game's deck slot the wildling cards are drawn from (the others: Westeros)
_RANDOM_LOAN = "random"  # a starting loan that is the top of the loan deck, not a named one
MAX_PROBLEMS = 50


class _Report:
    def __init__(self, diags: Diagnostics, label: str, bundle: dict, variant: str | None = None):
        self.diags, self.label, self.bundle, self.count = diags, label, bundle, 0
        self.variant = variant  # checking the bundle as this variant plays it: its records are patches
        self.seen: set[tuple[str, str]] = set()

    def __call__(self, path: Iterable, message: str, hint: str | None = None) -> None:
        path = list(path)
        key = (json_pointer(path), message)
        if key in self.seen:  # a record checked twice (two kinds share its section) is reported once
            return
        self.seen.add(key)
        self.count += 1
        if self.count > MAX_PROBLEMS:
            return
        path = list(path)
        if self.variant is not None and len(path) > 1:
            patches = self.bundle["variants"][self.variant].get("patches") or {}
            if path[1] in (patches.get(path[0]) or {}):  # the bad value is in the variant's own record
                path = ["variants", self.variant, "patches", *path]
        pointer = json_pointer(path)
        self.diags.error("bundle-reference", f"{self.label} at {pointer}: {message}",
                         _source(self.bundle, path) or Span(self.label, 0, 0), hint)


def _source(bundle: dict, path: list) -> Span | None:
    from maester.dsl.validate import _source_of

    return _source_of(bundle, path)


def check_bundle(bundle: dict, diags: Diagnostics, label: str = "bundle", variants: bool = False) -> int:
    """Report every dangling reference and ill-typed effect of a schema-valid bundle; with `variants`, also
    as each of its variants plays it (a variant's patched records in place), when the bundle itself is clean.

    A variant is checked for what it changes, not as a whole bundle again: the bundle's check records which
    records each of its checks read, and a variant re-runs only the checks that read a record it changes
    (so a pack of many variants checks in time linear in what they change). Returns how many checks ran."""
    if passed_checks.passed(bundle, variants):  # this very bundle passed these checks before (with the same code)
        return 0
    errors = len(diags.errors)
    ran = _check(bundle, diags, label, variants)
    if len(diags.errors) == errors:
        passed_checks.remember(bundle, variants)
    return ran


def _check(bundle: dict, diags: Diagnostics, label: str, variants: bool) -> int:
    report = _Report(diags, label, bundle)
    checker = _Checker(bundle, report)
    checker.run()
    if report.count > MAX_PROBLEMS:
        diags.error("bundle-reference", f"{label}: {report.count - MAX_PROBLEMS} more problems not shown",
                    Span(label, 0, 0))
    ran = len(checker.tracker.reads)
    if not variants or report.count or bundle.get("applied_variant") is not None:
        return ran
    for vid in sorted(bundle.get("variants") or {}):
        played = _Report(diags, f"{label} (as variant '{vid}' plays it)", bundle, vid)
        changed = changes(bundle, bundle["variants"][vid].get("patches"))
        if not changed:
            continue
        view = _as_variant(bundle, vid)
        again = None
        if "boards" in {c[0] for c in changed}:  # areas are read everywhere: check it all
            again = _Checker(view, played)
        elif only := checker.dirty(changed):  # nothing it changes is read by a check: nothing to check again
            again = _Checker(view, played, only=only)
        if again is not None:
            again.run()
            ran += len(again.tracker.reads)
        if played.count:
            break  # one variant's problems at a time: the others usually repeat them
    return ran


def _as_variant(bundle: dict, vid: str) -> dict:
    """The bundle as a variant plays it (its full patched records in place; a shallow copy, like
    `rules.apply_variant` without the deep copy: the checker only reads)."""
    out = dict(bundle)
    for section, records in (bundle["variants"][vid].get("patches") or {}).items():
        out[section] = {**(bundle.get(section) or {}), **records}
    out["applied_variant"] = vid
    return out


@cache
def _vocabulary_fields() -> list[tuple]:
    """Each top-level kind with its fields of a declared vocabulary and their words (computed once)."""
    out = []
    for kind in KINDS.values():
        if not kind.top_level or not kind.collection:
            continue
        fields = [(k.name.replace("-", "_"), k.values[0]) for k in kind.keys.values()
                  if len(k.values) == 1 and k.values[0].split(":")[0] in ("enum", "list")]
        fields = [(f, set(t.rsplit(":", 1)[1].split("|"))) for f, t in fields
                  if t.startswith(("enum:", "list:enum:")) and t != "enum:yes|no"]  # yes/no: booleans
        out.append((kind, fields))
    return out


class _Checker:
    def __init__(self, bundle: dict, report: _Report, only: dict[tuple[str, str], set[str]] | None = None):
        self.b, self.report = bundle, report
        self.all_areas: set[str] = set()
        for board in bundle["boards"].values():
            self.all_areas.update(board["areas"])
        self.only = only  # the checks to run (a variant's), else every one, noting what each reads
        self.tracker = Tracker()  # a check is (method, section, id): what it read (dsl/reads.py)

    def ids(self, section: str) -> Mapping:
        return self.tracker.section(section, self.b.get(section) or {})

    def each(self, check: str, section: str):
        """The records of a section one check goes through, one at a time (those of `only`, when given), with
        what the check reads for each noted."""
        records = self.b.get(section) or {}
        ids = records if self.only is None else sorted(self.only.get((check, section), set()) & records.keys())
        for rid in ids:
            self.tracker.unit((check, section, rid), own(section, rid))
            yield rid, records[rid]
        self.tracker.done()

    def dirty(self, changed: set[tuple]) -> dict[tuple[str, str], set[str]]:
        """The checks a change of these records can change, as (check, section) -> record ids: those that read
        one of them, or went through one of their sections, and the checks of records the change adds."""
        units = self.tracker.dirty(changed)
        if not hasattr(self, "_checks"):
            self._checks = {(check, section) for check, section, _ in self.tracker.reads}
        units |= {(check, c[0], c[1]) for check, section in self._checks for c in changed
                  if len(c) == 2 and c[0] == section}
        out: dict[tuple[str, str], set[str]] = {}
        for check, section, rid in units:
            out.setdefault((check, section), set()).add(rid)
        return out

    def ref(self, path: list, value, section: str, what: str, within: Iterable[str] | None = None,
            on: str = "") -> bool:
        pool = within if within is not None else self.ids(section)
        if value not in pool:
            self.report(path, f"unknown {what} '{value}'" + (f" (not on board '{on}')" if on else ""))
            return False
        return True

    def run(self) -> None:
        self.vocabularies()
        self.boards()
        self.houses()
        self.tables()
        self.games()
        self.setups()
        self.cards()
        self.effects()

    # ---- declared vocabularies
    def vocabularies(self) -> None:
        """A record's field of a declared vocabulary (`enum:a|b`, `list:enum:a|b`) holds its words only: the
        engine looks each word up (a tiebreaker it does not know stopped the end of a game)."""
        for kind, fields in _vocabulary_fields():
            if self.only is not None and ("vocabularies", kind.collection) not in self.only:
                continue
            for rid, record in self.each("vocabularies", kind.collection):
                if not isinstance(record, dict):
                    continue
                for fld, words in fields:
                    value = record.get(fld)
                    items = value if isinstance(value, list) else [] if value is None else [value]
                    for i, word in enumerate(items):
                        if word not in words:
                            at = [kind.collection, rid, fld] + ([i] if isinstance(value, list) else [])
                            self.report(at, f"'{word}' is not one of {', '.join(sorted(words))}")

    # ---- boards
    def boards(self) -> None:
        for bid, board in self.each("boards", "boards"):
            areas = board["areas"]
            base = ["boards", bid]
            if board["extends"] is not None:
                self.ref(base + ["extends"], board["extends"], "boards", "board")
            for i, ov in enumerate(board["overlays"]):
                self.ref(base + ["overlays", i], ov, "overlays", "overlay")
            if not areas:
                self.report(base + ["areas"], "a board needs areas")
            for aid, area in areas.items():
                where = base + ["areas", aid]
                if area["id"] != aid:
                    self.report(where + ["id"], f"the area is filed under '{aid}' but its id is '{area['id']}'")
                if area["home"] is not None:
                    self.ref(where + ["home"], area["home"], "houses", "house")
                if area["kind"] == "port":
                    for fld, kind in (("port_of", "land"), ("port_sea", "sea")):
                        other = area[fld]
                        if other is None or other not in areas:
                            self.report(where + [fld], f"a port needs a {kind} area of its board, not {other!r}")
                        elif areas[other]["kind"] != kind:
                            self.report(where + [fld], f"'{other}' is a {areas[other]['kind']} area, not {kind}")
            for fld in ("borders", "links"):
                for i, pair in enumerate(board[fld]):
                    for j, aid in enumerate(pair):
                        self.ref(base + [fld, i, j], aid, "", "area", areas, bid)
                    if len(set(pair)) != len(pair):
                        self.report(base + [fld, i], f"an area cannot border itself ('{pair[0]}')")

    # ---- houses, tables
    def houses(self) -> None:
        for hid, house in self.each("houses", "houses"):
            base = ["houses", hid]
            self.ref(base + ["home"], house["home"], "", "area", self.all_areas)
            for kind in house["unit_limits"]:
                self.ref(base + ["unit_limits", kind], kind, "unit_kinds", "unit kind")

    def tables(self) -> None:
        for tid, table in self.each("tables", "tables"):
            for key, row in table["rows"].items():
                if not row:
                    self.report(["tables", tid, "rows", key], "a table row needs at least one value")

    # ---- games
    def games(self) -> None:
        for gid, game in self.each("games", "games"):
            base = ["games", gid]
            supply = game["supply_limits"]
            if self.ref(base + ["supply_limits"], supply, "tables", "table"):
                rows = self.ids("tables")[supply]["rows"]
                levels = [k for k in rows if k.isdigit()]
                if not rows:
                    self.report(["tables", supply, "rows"], "the supply limits table is empty")
                elif len(levels) != len(rows) or sorted(int(k) for k in levels) != list(range(len(levels))):
                    self.report(["tables", supply, "rows"], "supply limit rows are the levels 0, 1, 2, ... "
                                f"without gaps; got {', '.join(rows)}")
                else:
                    self.supply_levels(base, game, len(levels) - 1)
            stars = game["kings_court_stars"]
            if self.ref(base + ["kings_court_stars"], stars, "tables", "table") and \
                    not self.ids("tables")[stars]["rows"]:
                self.report(["tables", stars, "rows"], "the King's Court stars table is empty")
            if not game["tracks"]:
                self.report(base + ["tracks"], "a game needs its influence tracks")
            for i, track in enumerate(game["tracks"]):
                self.ref(base + ["tracks", i], track, "tracks", "track")
            if len(set(game["tracks"])) != len(game["tracks"]):
                self.report(base + ["tracks"], "a track is listed twice")
            left_out = sorted(set(self.ids("tracks")) - set(game["tracks"]))
            if game["tracks"] and left_out:  # cards and rules name every track and ask who holds its token
                self.report(base + ["tracks"], f"the game leaves out the track{'s' if len(left_out) > 1 else ''} "
                            f"{', '.join(left_out)}: every declared track is played")
            track = game["wildling_track"]
            if not track:
                self.report(base + ["wildling_track"], "the wildling track needs its spaces")
            elif game["wildling_start"] not in track:
                self.report(base + ["wildling_start"], f"{game['wildling_start']} is not a space of the "
                            f"wildling track {track}")
            elif track != sorted(set(track)):
                self.report(base + ["wildling_track"], "the wildling track's spaces rise, each once")
            for i, cset in enumerate(game["house_card_sets"]):
                self.ref(base + ["house_card_sets", i], cset, "card_sets", "card set")
            if game.get("vassal_card_set") is not None:
                self.ref(base + ["vassal_card_set"], game["vassal_card_set"], "card_sets", "card set")
            if game.get("loan_discount_area") is not None:
                self.ref(base + ["loan_discount_area"], game["loan_discount_area"], "", "area", self.all_areas)
            if not game["tiebreakers"]:  # after the last round the winner is the first by them
                self.report(base + ["tiebreakers"], "a game needs its end-of-game tiebreakers (R26.3)")
            for fld in _TRACK_ROLES:  # the engine reads the turn order and the tokens' holders off these
                if game.get(fld) is not None and game[fld] not in game["tracks"]:
                    self.report(base + [fld], f"'{game[fld]}' is not one of the game's tracks "
                                f"({', '.join(game['tracks']) or 'none'})")
            self.game_decks(base, game)

    def supply_levels(self, path: list, game: dict, top: int) -> None:
        """The supply levels a game starts houses on are rows of its supply table: the engine reads a house's
        army sizes off the row of its level."""
        reported = self.__dict__.setdefault("_supply_reported", set())
        for hid, house in self.ids("houses").items():
            if house["starting_supply"] > top and hid not in reported:
                reported.add(hid)
                self.report(["houses", hid, "starting_supply"], f"starting supply {house['starting_supply']} is "
                            f"beyond the supply table '{game['supply_limits']}' of game '{game['id']}' (0-{top})")
        if (game.get("vassal_supply") or 0) > top:
            self.report(path + ["vassal_supply"], f"vassal supply {game['vassal_supply']} is beyond the supply "
                        f"table '{game['supply_limits']}' (0-{top})")

    def game_decks(self, path: list, game: dict) -> None:
        """The decks a game draws: each slot names a deck of the bundle, and a deck holds cards of its kind
        (the wildling slot wildling cards, the others Westeros cards)."""
        slots = game.get("decks") or {}
        for slot, deck in slots.items():
            if not self.ref(path + ["decks", slot], deck, "decks", "deck"):
                continue
            section, what = (("wildling_cards", "wildling card") if slot == _WILDLING_SLOT else
                             ("westeros_cards", "Westeros card"))
            reported = self.__dict__.setdefault("_deck_cards_reported", set())
            if sum(self.ids("decks")[deck]["cards"].values()) <= 0 and (deck, None) not in reported:
                reported.add((deck, None))  # a game draws from it: an empty deck has no card to reveal
                self.report(["decks", deck, "cards"], f"deck '{deck}' has no cards, and it is drawn as a game's "
                            f"'{slot}' deck")
            for cid in self.ids("decks")[deck]["cards"]:
                if cid not in self.ids(section) and (deck, cid) not in reported:  # once, for all games
                    reported.add((deck, cid))
                    self.report(["decks", deck, "cards", cid], f"'{cid}' is not a {what}, and deck '{deck}' is "
                                f"drawn as a game's '{slot}' deck")
        if _WILDLING_SLOT not in slots:
            self.report(path + ["decks"], "the game has no wildling deck (a deck slot 'wildling')")
        for i, slot in enumerate(game["westeros_decks"]):
            if slot not in slots:
                self.report(path + ["westeros_decks", i], f"no deck for the Westeros slot '{slot}' in the "
                            "game's decks")

    # ---- setups
    def setups(self) -> None:
        for sid, setup in self.each("setups", "setups"):
            base = ["setups", sid]
            game_ok = self.ref(base + ["game"], setup["game"], "games", "game")
            board_ok = self.ref(base + ["board"], setup["board"], "boards", "board")
            areas = self.ids("boards")[setup["board"]]["areas"] if board_ok else {}
            houses = setup["houses"]
            if not houses:
                self.report(base + ["houses"], "a setup needs houses")
            for i, house in enumerate(houses):
                self.ref(base + ["houses", i], house, "houses", "house")
            if len(set(houses)) != len(houses):
                self.report(base + ["houses"], "a house is listed twice")
            if setup["players"] > len(houses) or setup["players"] < 1:
                self.report(base + ["players"], f"{setup['players']} players, but the setup has "
                            f"{len(houses)} houses")
            if game_ok:
                tracks = self.ids("games")[setup["game"]]["tracks"]
                for track in tracks:
                    order = setup["influence"].get(track)
                    if order is None:
                        self.report(base + ["influence"], f"no order of the houses on the '{track}' track")
                    elif sorted(order) != sorted(houses):
                        self.report(base + ["influence", track], "the track must hold each house of the setup "
                                    f"once: {', '.join(sorted(houses))}")
                for track in setup["influence"]:
                    if track not in tracks:
                        self.report(base + ["influence", track], f"'{track}' is not a track of the game")
                self.decks(base, setup, self.ids("games")[setup["game"]])
                stars = self.ids("games")[setup["game"]]["kings_court_stars"]
                row = setup.get("kings_court_stars")
                table = self.ids("tables").get(stars)
                if table is not None and (row is None or row not in table["rows"]):
                    self.report(base + ["kings_court_stars"], f"no row {row!r} in the table '{stars}'")
            if not board_ok:
                continue
            self.homes(base, setup, areas)
            for fld in ("neutral_forces", "garrisons", "loyalty_tokens"):
                for aid in setup.get(fld) or {}:
                    self.ref(base + [fld, aid], aid, "", "area", areas, setup["board"])
            for i, aid in enumerate(setup.get("blocked") or []):
                self.ref(base + ["blocked", i], aid, "", "area", areas, setup["board"])
            for fld in ("starting_units", "vassal_starting_units"):
                for house, starts in (setup.get(fld) or {}).items():
                    if house not in houses:
                        self.report(base + [fld, house], f"'{house}' is not a house of this setup")
                    for i, start in enumerate(starts):
                        self.ref(base + [fld, house, i, "area"], start["area"], "",
                                 "area", areas, setup["board"])
                        for kind in start["units"]:
                            self.ref(base + [fld, house, i, "units", kind], kind, "unit_kinds", "unit kind")
                    if house in self.ids("houses") and game_ok:
                        self.starting_position(base + [fld, house], house, starts, setup["game"],
                                               vassal=fld == "vassal_starting_units",
                                               supply=(setup.get("starting_supply") or {}).get(house))
            self.starting_areas(base, setup, areas)

    def homes(self, path: list, setup: dict, areas: dict) -> None:
        """Each house of the setup has its home area on the setup's board, a land area: the engine and the
        cards (`home-area`) compute it from the house record, for any house of the game (R4.10, R35.13)."""
        reported = self.__dict__.setdefault("_homes_reported", set())
        for house in setup["houses"]:
            record = self.ids("houses").get(house)
            if record is None or house in reported:
                continue  # reported as an unknown house, or for an earlier setup
            home = areas.get(record["home"])
            if home is None or home["kind"] != "land":
                reported.add(house)
            if home is None:
                self.report(["houses", house, "home"], f"{house}'s home area '{record['home']}' is not on board "
                            f"'{setup['board']}' of setup '{setup['id']}'")
            elif home["kind"] != "land":
                self.report(["houses", house, "home"], f"{house}'s home area '{record['home']}' is a "
                            f"{home['kind']} area, not land")

    def starting_areas(self, path: list, setup: dict, areas: dict) -> None:
        """Units stand where they can (land units on land, ships at sea or in ports; R1.8, R24), and
        never two houses in one area, nor on a blocked area or a neutral force."""
        owner: dict[str, str] = {}
        closed = set(setup.get("blocked") or []) | set(setup.get("neutral_forces") or {})
        for fld in ("starting_units", "vassal_starting_units"):
            for house, starts in (setup.get(fld) or {}).items():
                for i, start in enumerate(starts):
                    area = areas.get(start["area"])
                    if area is None:
                        continue  # reported as an unknown area
                    where = path + [fld, house, i]
                    for kind in start["units"]:
                        domain = (self.ids("unit_kinds").get(kind) or {}).get("domain")
                        ok = area["kind"] in (("sea", "port") if domain == "sea" else ("land",))
                        if domain and not ok:
                            self.report(where + ["units", kind], f"a {kind} cannot stand in '{area['id']}' "
                                        f"(a {area['kind']} area)")
                    if area["id"] in closed:
                        self.report(where + ["area"], f"'{area['id']}' is blocked or holds a neutral force")
                    first = owner.setdefault(area["id"], house)
                    if first != house:
                        self.report(where + ["area"], f"{house} and {first} both start in '{area['id']}'")

    def decks(self, path: list, setup: dict, game: dict) -> None:
        """Everything a game of this setup draws from exists: house cards for each house, the Westeros
        decks, wildling cards, order tokens, and the Iron Bank's loans and slots."""
        sets = set(game["house_card_sets"])
        cards, card_sets = self.ids("house_cards"), self.ids("card_sets")
        members = {cid for s in sets for cid in (card_sets.get(s) or {}).get("cards", [])}  # each set lists its cards
        holders = {cards[c]["house"] for c in members if c in cards}
        for i, house in enumerate(setup["houses"]):
            if house in self.ids("houses") and house not in holders:
                self.report(path + ["houses", i], f"'{house}' has no house cards in the sets "
                            f"{', '.join(sorted(sets)) or '(none)'} of game '{setup['game']}'")
        if setup.get("vassals") and game.get("vassal_card_set") is None:
            self.report(path + ["vassals"], f"a setup with vassals, but game '{setup['game']}' has no vassal "
                        "card set")
        decks = {c["deck"] for c in self.ids("westeros_cards").values()}
        for deck in setup.get("westeros_decks") or game["westeros_decks"]:
            if deck not in decks:
                self.report(path + ["westeros_decks"], f"Westeros deck {deck} has no cards")
        for i, slot in enumerate(setup.get("westeros_decks") or []):
            if slot not in game["westeros_decks"]:  # the game's list is the drawing order (R6.2.2)
                self.report(path + ["westeros_decks", i], f"'{slot}' is not one of the Westeros decks of game "
                            f"'{setup['game']}' ({', '.join(game['westeros_decks']) or 'none'})")
        for i, loan in enumerate(setup.get("loan_deck") or []):
            self.ref(path + ["loan_deck", i], loan, "loans", "loan")
        for house, loans in (setup.get("starting_loans") or {}).items():
            for i, loan in enumerate(loans):
                if loan != _RANDOM_LOAN:
                    self.ref(path + ["starting_loans", house, i], loan, "loans", "loan")
        if not self.ids("wildling_cards"):
            self.report(["wildling_cards"], "a game needs wildling cards")
        order_sets = {o["set"] for o in self.ids("orders").values()}
        for order_set in game.get("order_sets") or []:
            if order_set not in order_sets:
                self.report(["games", setup["game"], "order_sets"], f"no order token of the set '{order_set}'")
        self.areas_in_play(path, setup, game)
        if setup.get("iron_bank"):
            if not game.get("loan_costs"):
                self.report(["games", setup["game"], "loan_costs"], "a setup with the Iron Bank needs the "
                            "costs of the bank's slots")
            if not self.ids("loans"):
                self.report(path + ["iron_bank"], "a setup with the Iron Bank, but the bundle has no loans")
            elif not setup.get("loan_deck"):  # the bank reveals the deck's top loan at setup (R31.14)
                self.report(path + ["loan_deck"], "a setup with the Iron Bank needs loans in its loan deck")

    def areas_in_play(self, path: list, setup: dict, game: dict) -> None:
        """Every area an effect of the setup's cards names is on the setup's board (a card for the Essos
        board in a game without it has nothing to refer to)."""
        board = self.ids("boards").get(setup["board"])
        if board is None:
            return
        sets = set(game["house_card_sets"]) | ({game["vassal_card_set"]} if game.get("vassal_card_set") else set())
        decks = set(setup.get("westeros_decks") or game["westeros_decks"])
        # the cards of the sets and decks in play: by their own set/deck field and by the lists that deal them
        dealt = {c for s in sets for c in (self.ids("card_sets").get(s) or {}).get("cards", [])}
        drawn = {c for slot in decks | {_WILDLING_SLOT}
                 for c in (self.ids("decks").get((game.get("decks") or {}).get(slot)) or {}).get("cards", {})}
        records = [(["house_cards", k], c) for k, c in self.ids("house_cards").items()
                   if c["set"] in sets or k in dealt]
        records += [(["westeros_cards", k], c) for k, c in self.ids("westeros_cards").items()
                    if c["deck"] in decks or k in drawn]
        records += [(["wildling_cards", k], c) for k, c in self.ids("wildling_cards").items()]
        if setup.get("iron_bank"):
            records += [(["loans", k], c) for k, c in self.ids("loans").items()]
        houses = set(setup["houses"])
        for where, record in records:
            for area in sorted(self._named_areas(where[0], where[1], record)):
                if area not in board["areas"]:
                    self.report(path + ["board"], f"{'/'.join(where)} names the area '{area}', which is not on "
                                f"board '{setup['board']}'")
            if where[0] == "house_cards" and record.get("house") not in houses | {None}:
                continue  # the card of a house not in this game is never dealt
            reported = self.__dict__.setdefault("_houses_reported", set())
            outside = [(at, h) for at, h in self._named_houses(where, record) if h not in houses]
            if outside and tuple(where) not in reported:  # a house not in the game has no state to read
                reported.add(tuple(where))  # once per card (the first place), for the first setup playing it
                at, house = outside[0]
                more = f" (and {len(outside) - 1} more places in the card)" if len(outside) > 1 else ""
                self.report(at, f"names the house '{house}', which is not in setup '{setup['id']}'{more}: a card "
                            "in play names only houses of its game")

    def _named_houses(self, where: list, record: dict) -> list[tuple[list, str]]:
        """(path, house id) of every house a record's effects name by its id."""
        record = whole(record)  # read whole (noted even when the answer is cached)
        cache = self.__dict__.setdefault("_houses_cache", {})
        key = tuple(where)
        if key not in cache:
            found: list[tuple[list, str]] = []
            stack: list = [(list(where), record)]
            while stack:
                at, node = stack.pop()
                if isinstance(node, dict):
                    if node.get("type") == "house" and isinstance(node.get("id"), str):
                        found.append((at, node["id"]))
                    stack.extend((at + [k], v) for k, v in node.items())
                elif isinstance(node, list):
                    stack.extend((at + [i], v) for i, v in enumerate(node))
            cache[key] = sorted(found, key=lambda f: json_pointer(f[0]))
        return cache[key]

    def _named_areas(self, section: str, ident: str, record: dict) -> set[str]:
        record = whole(record)
        cache = self.__dict__.setdefault("_areas_cache", {})
        key = (section, ident)
        if key not in cache:
            found: set[str] = set()
            stack: list = [record]
            while stack:
                node = stack.pop()
                if isinstance(node, dict):
                    if node.get("type") == "area" and isinstance(node.get("id"), str):
                        found.add(node["id"])
                    house = (node.get("args") or {}).get("house") if node.get("query") == "home-area" else None
                    if isinstance(house, dict) and house.get("id") in self.ids("houses"):
                        found.add(self.ids("houses")[house["id"]]["home"])  # a named house's home
                    if section == "westeros_cards" and node is record:
                        found.update(a for a in node.get("banner") or [] if isinstance(a, str))
                    stack.extend(node.values())
                elif isinstance(node, list):
                    stack.extend(node)
            cache[key] = found
        return cache[key]

    def starting_position(self, path: list, house: str, starts: list, game_id: str, vassal: bool,
                          supply: int | None = None) -> None:
        """A setup is a legal position: within the house's unit limits (R1.8) and supply limits (R8.3).
        The engine relies on it: a march out of an army far over its limits has no legal end to search for."""
        from .control import fits_supply

        totals: dict[str, int] = {}
        per_area: dict[str, int] = {}
        for start in starts:
            for kind, n in start["units"].items():
                totals[kind] = totals.get(kind, 0) + n
                per_area[start["area"]] = per_area.get(start["area"], 0) + n
        limits = self.ids("houses")[house]["unit_limits"]
        for kind, n in sorted(totals.items()):
            if kind in limits and n > limits[kind]:
                self.report(path, f"{house} starts with {n} {kind} units; its limit is {limits[kind]}")
        game = self.ids("games")[game_id]
        rows = self.ids("tables").get(game["supply_limits"], {}).get("rows", {})
        levels = sorted(int(k) for k in rows if k.isdigit())
        if not levels:
            return  # reported with the table
        own = self.ids("houses")[house]["starting_supply"] if supply is None else supply  # the setup's, if it says
        level = (game.get("vassal_supply") or 4) if vassal else own
        row = rows[str(min(max(level, levels[0]), levels[-1]))]
        if not fits_supply(list(per_area.values()), row):
            sizes = sorted((n for n in per_area.values() if n > 1), reverse=True)
            self.report(path, f"{house}'s starting armies {sizes} do not fit its supply limits {row} "
                        f"(supply {level})")

    # ---- cards and their sets
    def cards(self) -> None:
        for cid, card in self.each("cards", "house_cards"):
            base = ["house_cards", cid]
            self.ref(base + ["set"], card["set"], "card_sets", "card set")
            if card.get("house") is not None:
                self.ref(base + ["house"], card["house"], "houses", "house")
        for sid, cset in self.each("cards", "card_sets"):  # a hand is dealt from these lists
            for i, cid in enumerate(cset["cards"]):
                self.ref(["card_sets", sid, "cards", i], cid, "house_cards", "house card")
        for wid, card in self.each("cards", "westeros_cards"):
            for i, area in enumerate(card.get("banner") or []):
                self.ref(["westeros_cards", wid, "banner", i], area, "", "area", self.all_areas)
        for vid, variant in self.each("cards", "variants"):
            self.ref(["variants", vid, "game"], variant["game"], "games", "game")
            for i, gid in enumerate(variant.get("games") or []):
                self.ref(["variants", vid, "games", i], gid, "games", "game")
            played_games = variant.get("games") or [variant["game"]]
            for i, cset in enumerate(variant.get("house_card_sets") or []):
                self.ref(["variants", vid, "house_card_sets", i], cset, "card_sets", "card set")
            for standard, played in (variant.get("setups") or {}).items():
                where = ["variants", vid, "setups", standard]
                setups = {**self.ids("setups"), **(variant.get("patches") or {}).get("setups", {})}
                if self.ref(where, played, "", "setup", setups) and setups[played]["game"] not in played_games:
                    self.report(where, f"setup '{played}' plays the rules set '{setups[played]['game']}', but the "
                                f"variant is for '{', '.join(played_games)}'")

    # ---- effects
    def effects(self) -> None:
        for kind in KINDS.values():
            if not kind.top_level or not kind.collection:
                continue
            blocks = [(k.name.replace("-", "_"), k.block.split(":", 1)[1]) for k in kind.keys.values()
                      if k.block and k.block.startswith("effect:")]
            for rid, record in self.each("effects", kind.collection):
                if not isinstance(record, dict):
                    continue
                for fld, context in blocks:
                    if isinstance(record.get(fld), list):
                        self.block([kind.collection, rid, fld], record[fld], dict(CONTEXTS[context].variables))
                if kind.effect_context and isinstance(record.get("abilities"), list):
                    for i, ability in enumerate(record["abilities"]):
                        path = [kind.collection, rid, "abilities", i]
                        scope = dict(CONTEXTS[kind.effect_context].variables)
                        if kind.effect_context == "game":  # a game ability: its moment binds its names
                            moment = MOMENTS.get(ability.get("trigger"))
                            if moment is None:
                                self.report(path + ["trigger"], f"unknown moment {ability.get('trigger')!r} for "
                                            "a game ability")
                                continue
                            scope.update(moment.bindings)
                        else:
                            trigger = TRIGGERS.get(ability.get("trigger"))
                            if trigger is None or trigger.context != kind.effect_context:
                                self.report(path + ["trigger"], f"unknown trigger {ability.get('trigger')!r} for "
                                            f"a {kind.effect_context} ability")
                                continue
                        if "if" in ability:
                            self.expect(path + ["if"], ability["if"], "bool", scope)
                        self.block(path + ["body"], ability["body"], scope)

    def block(self, path: list, block: list, scope: dict[str, str]) -> None:
        scope = dict(scope)  # `let` stays inside its block
        for i, st in enumerate(block):
            self.statement(path + [i], st, scope)

    def statement(self, path: list, st: dict, scope: dict[str, str]) -> None:
        if "do" in st:
            prim = PRIMITIVES.get(st["do"])
            if prim is None or prim.kind != "effect":
                self.report(path + ["do"], f"unknown effect primitive '{st['do']}'")
                return
            self.args(path, st.get("args", {}), prim, scope)
            for i, opt in enumerate(st.get("options") or []):
                if "if" in opt:
                    self.expect(path + ["options", i, "if"], opt["if"], "bool", scope)
                self.block(path + ["options", i, "body"], opt["body"], scope)
            if prim.block == "options" and not st.get("options"):
                self.report(path, f"'{prim.name}' needs at least one option")
        elif "if" in st:
            self.expect(path + ["if"], st["if"], "bool", scope)
            self.block(path + ["then"], st["then"], scope)
            if "else" in st:
                self.block(path + ["else"], st["else"], scope)
        elif "for" in st or "choose" in st:
            key, source = ("for", "in") if "for" in st else ("choose", "from")
            t = self.expect(path + [source], st[source], "list:any", scope)
            elem = t[5:] if t and t.startswith("list:") else "any"
            if "by" in st:
                self.expect(path + ["by"], st["by"], "house", scope)
            if "count" in st:
                self.expect(path + ["count"], st["count"], "int", scope)
            self.block(path + ["body"], st["body"], {**scope, st[key]: elem})
        elif "may" in st:
            self.expect(path + ["may"], st["may"], "house", scope)
            if "pay" in st:
                self.expect(path + ["pay"], st["pay"], "int", scope)
            if "condition" in st:
                self.expect(path + ["condition"], st["condition"], "bool", scope)
            self.block(path + ["body"], st["body"], scope)
            if "else" in st:
                self.block(path + ["else"], st["else"], scope)
        elif "let" in st:
            scope[st["let"]] = self.infer(path + ["value"], st["value"], scope) or "any"
        else:
            self.report(path, "not a statement of the effect language")

    def args(self, path: list, args: dict, prim, scope: dict[str, str]) -> None:
        for name, value in args.items():
            param = prim.param(name)
            if param is None:
                self.report(path + ["args", name], f"'{prim.name}' has no parameter '{name}'")
                continue
            self.expect(path + ["args", name], value, param.type, scope)
        for param in prim.params:
            if param.required and param.name not in args:
                self.report(path + ["args"], f"'{prim.name}' needs '{param.name}'")

    def expect(self, path: list, x, expected: str, scope: dict[str, str]) -> str | None:
        got = self.infer(path, x, scope, expected)
        if got is not None and not _compatible(got, expected):
            self.report(path, f"expects {_phrase(expected)}, got {_phrase(got)}")
        return got

    def infer(self, path: list, x, scope: dict[str, str], expected: str | None = None) -> str | None:
        """The effect-language type of an expression; None after a reported problem."""
        if isinstance(x, bool):
            return "bool"
        if isinstance(x, int):
            return "int"
        if not isinstance(x, dict):
            self.report(path, "not an expression")
            return None
        if "var" in x:
            if x["var"] not in scope:
                shown = ", ".join(sorted(scope)) or "none"
                self.report(path, f"the variable '{x['var']}' is not bound here", f"bound here: {shown}")
                return None
            return scope[x["var"]]
        if "text" in x:
            return "text"
        if "id" in x:
            return self.ident(path, x)
        if "list" in x:
            elem = expected[5:] if expected and expected.startswith("list:") else None
            types = {self.expect(path + ["list", i], item, elem, scope) if elem else
                     self.infer(path + ["list", i], item, scope) for i, item in enumerate(x["list"])}
            types.discard(None)
            return f"list:{types.pop()}" if len(types) == 1 else f"list:{elem or 'any'}"
        if "query" in x:
            prim = PRIMITIVES.get(x["query"])
            if prim is None or prim.kind != "query":
                self.report(path + ["query"], f"unknown query '{x['query']}'")
                return None
            self.args(path, x.get("args", {}), prim, scope)
            return prim.returns
        op, args = x.get("op"), x.get("args", [])
        want = {"and": "bool", "or": "bool", "not": "bool", "neg": "int", "<": "int", "<=": "int", ">": "int",
                ">=": "int", "-": "int", "*": "int"}
        arity = 1 if op in ("not", "neg") else 2
        if len(args) != arity:
            self.report(path + ["args"], f"'{op}' takes {arity} operand{'s' if arity > 1 else ''}")
            return None
        if op in ("==", "!="):
            left = self.infer(path + ["args", 0], args[0], scope)
            self.expect(path + ["args", 1], args[1], left or "any", scope)
            return "bool"
        if op == "+":
            left = self.infer(path + ["args", 0], args[0], scope, expected)
            if left and left.startswith("list:"):
                self.expect(path + ["args", 1], args[1], left, scope)
                return left
            if left is not None and not _compatible(left, "int"):
                self.report(path + ["args", 0], f"'+' needs numbers or lists, got {_phrase(left)}")
            self.expect(path + ["args", 1], args[1], "int", scope)
            return "int"
        for i, arg in enumerate(args):
            self.expect(path + ["args", i], arg, want[op], scope)
        return "int" if op in ("neg", "-", "*") else "bool"

    def ident(self, path: list, x: dict) -> str | None:
        t, value = x.get("type"), x["id"]
        if t == "area":
            pool: Iterable[str] = self.all_areas
        elif t in _ID_SECTIONS:
            pool = self.ids(_ID_SECTIONS[t])
        elif t in ENUMS:
            pool = ENUMS[t]
        elif t == "dominance-token":
            pool = [tr["dominance_token"]["id"] for tr in self.ids("tracks").values()]
        else:
            return t  # order types and decks: enumerations the schema already checks
        if value not in pool:
            self.report(path, f"unknown {t} '{value}'")
            return None
        return t


def _phrase(t: str) -> str:
    if t.startswith("list:"):
        return f"a list of {t[5:]}"
    return {"int": "a number", "bool": "a condition", "text": "a text"}.get(t, f"a {t}")
