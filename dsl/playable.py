"""What cannot run does not compile: checks of the compiled content against what the engine can play.

Each rules set is checked as played on its own and as every variant plays it (the variant's patched
records in place), so a patch cannot make a setup or a deck unplayable unnoticed. Errors are located
at the placement, setup, rules set or variant that causes them.
"""

from __future__ import annotations

from collections import Counter

from .diagnostics import Diagnostics, Span
from .english_grammar import article
from .reads import Tracker, changes

# The setup parts only the Mother of Dragons rules module plays (interpreter/mod), with their words for errors.
# The module plays every rules set with vassal order sets (`plays_mother_of_dragons`); under another rules set
# these parts would be silently ignored, so declaring one there does not compile.
MOD_SETUP_PARTS = {"iron_bank": "the Iron Bank", "loyalty_tokens": "loyalty tokens",
                   "dragon_strength_rounds": "dragon strength rounds", "vassals": "vassals"}


def plays_mother_of_dragons(game: dict) -> bool:
    """Does the Mother of Dragons rules module play this rules set (`ModGame.plays`)?"""
    return "vassal" in (game.get("order_sets") or [])


def _span(where: str | None) -> Span | None:
    return Span.parse(where)


def _view(bundle: dict, variant: dict | None) -> dict:
    """The bundle as a variant plays it: its patched records in place (a shallow copy)."""
    if variant is None:
        return bundle
    out = dict(bundle)
    for section, records in variant.get("patches", {}).items():
        out[section] = {**bundle.get(section, {}), **records}
    return out


class _Checker:
    def __init__(self, bundle: dict, diags: Diagnostics):
        self.bundle = bundle
        self.diags = diags
        self.seen: set[str] = set()

    def error(self, code: str, msg: str, where: str | None, hint: str | None = None) -> None:
        if msg in self.seen:
            return
        self.seen.add(msg)
        self.diags.error(code, msg, _span(where), hint)

    def run(self) -> None:
        """The bundle unit by unit (each rules set, setup and its dealing) noting what each reads, then each
        variant for what it changes: only the units that read a record it changes are checked again (dsl/reads.py),
        so a mistake the variants share is reported once, and many variants check in linear time."""
        tracker = Tracker()
        view = tracker.view(self.bundle)
        for gid in self.bundle["games"]:
            tracker.unit(("game", gid))
            self.game(view, view["games"][gid], "", None)
        for sid in self.bundle["setups"]:
            tracker.unit(("setup", sid))
            setup = view["setups"][sid]
            game = view["games"].get(setup.get("game"))
            if game is not None:
                self.setup(view, setup, game, "")
                tracker.unit(("dealing", sid))
                self.dealing(view, view["setups"][sid], view["games"][setup["game"]], "", None)
        tracker.done()
        for vid, variant in sorted(self.bundle.get("variants", {}).items()):
            changed = changes(self.bundle, variant.get("patches"))
            dirty = tracker.dirty(changed)
            label = f" (in variant '{vid}')"
            view = _view(self.bundle, variant)
            played_games = variant.get("games") or [variant.get("game")]  # a rule option of several rules sets
            for gid in played_games:
                game = view["games"].get(gid)
                if game is not None and (("game", game["id"]) in dirty or ("game", game["id"]) not in tracker.reads):
                    self.game(view, game, label, variant)
            for sid in variant.get("setups", {}).values():
                setup = view["setups"].get(sid)
                if setup is None:
                    continue
                game = view["games"].get(setup.get("game"))
                if game is None:
                    continue
                if setup.get("game") not in played_games:
                    self.error("variant-setup-game", f"variant '{variant['id']}' plays setup '{setup['id']}' of the "
                               f"rules set '{setup['game']}', but the variant is for '{', '.join(played_games)}'",
                               variant.get("source"), "list setups of its own rules set")
                    continue
                if ("setup", sid) in dirty or ("setup", sid) not in tracker.reads:
                    self.setup(view, setup, game, label)
                if ("dealing", sid) in dirty or ("dealing", sid) not in tracker.reads:
                    self.dealing(view, setup, game, label, variant)

    # -- a rules set
    def game(self, view: dict, game: dict, label: str, variant: dict | None) -> None:
        where = (variant or {}).get("source") or game.get("source")
        gid = game["id"]
        track = game.get("wildling_track") or []
        steps = {b - a for a, b in zip(track, track[1:], strict=False)}
        if len(track) < 2 or len(steps) != 1 or min(steps) <= 0:
            self.error("wildling-track-shape", f"game '{gid}'{label}: wildling-track {track} cannot be played",
                       where, "give at least two positions, rising by the same step: [0, 2, 4, 6, 8, 10, 12]")
        elif game.get("wildling_start") not in track:
            self.error("wildling-start", f"game '{gid}'{label}: wildling-start {game.get('wildling_start')} is not "
                       f"a position of the wildling track {track}", where)
        table = view["tables"].get(game.get("supply_limits"))
        if table is not None:
            rows = table["rows"]
            levels = sorted(int(k) for k in rows if k.isdigit())
            if (not levels or levels != list(range(levels[0], levels[-1] + 1)) or len(levels) != len(rows)
                    or any(not rows[str(level)] for level in levels)):
                self.error("supply-table-shape", f"game '{gid}'{label}: supply table '{table['id']}' needs one row of "
                           "army sizes for each supply level 0, 1, 2, ...", table.get("source"))
        for key in ("victory_points", "max_rounds"):
            if not game.get(key):
                self.error("game-number", f"game '{gid}'{label}: {key.replace('_', '-')} {game.get(key)} cannot be "
                           "played", where, "it must be 1 or more")
        if "vassal" in (game.get("order_sets") or []):  # Mother of Dragons: what the vassal rules read
            for key in ("vassal_card_set", "vassal_hand_size", "vassal_supply", "vassal_orders_per_vassal",
                        "loyalty_tokens"):
                if game.get(key) is None:
                    self.error("vassal-rules", f"game '{gid}'{label} plays vassal orders but has no "
                               f"{key.replace('_', '-')}", where)
            vdeck = view["card_sets"].get(game.get("vassal_card_set") or "")
            if vdeck is not None and len(vdeck["cards"]) < (game.get("vassal_hand_size") or 0):
                self.error("vassal-deck-size", f"game '{gid}'{label}: the vassal deck has {len(vdeck['cards'])} cards, "
                           f"fewer than the {game['vassal_hand_size']} drawn for a combat", where)
        tokens = sum(o["copies"] for o in view["orders"].values() if o["set"] == "house")
        if game.get("orders_per_house") is not None and tokens != game["orders_per_house"]:
            self.error("order-count", f"game '{gid}'{label}: each house has {tokens} house order tokens, but "
                       f"orders-per-house is {game['orders_per_house']}", where,
                       "change the tokens' copies and orders-per-house together")
        tracks = game.get("tracks") or []
        missing = sorted(set(view["tracks"]) - set(tracks))
        if missing:  # cards and rules ask for the holder of every dominance token
            self.error("track-missing", f"game '{gid}'{label}: the tracks {tracks} leave out {', '.join(missing)}",
                       where, "every declared influence track is played (its dominance token is used)")
        max_supply = max((int(k) for k in (table or {}).get("rows", {}) if k.isdigit()), default=0)
        for hid, house in sorted(view["houses"].items()):
            if house["starting_supply"] > max_supply:
                self.error("supply-over-table", f"house '{hid}'{label}: starting-supply {house['starting_supply']} "
                           f"is beyond the supply table (0-{max_supply})", house.get("source"))
        if (game.get("vassal_supply") or 0) > max_supply:
            self.error("supply-over-table", f"game '{gid}'{label}: vassal-supply {game['vassal_supply']} is beyond "
                       f"the supply table (0-{max_supply})", where)
        for role in ("turn_order_track", "blade_track", "raven_track"):
            if game.get(role) not in tracks:
                self.error("track-role", f"game '{gid}'{label}: its {role.replace('_', ' ')} '{game.get(role)}' is "
                           f"not one of its tracks {tracks}", where, "name one of the tracks in 'tracks'")
        for slot in [*(game.get("westeros_decks") or []), "wildling"]:
            deck = view.get("decks", {}).get((game.get("decks") or {}).get(slot))
            if deck is None:
                self.error("no-deck", f"game '{gid}'{label}: no deck for the slot '{slot}'", where,
                           "declare one: deck ID \"Name\" { westeros i }   (or: wildling)")
            elif sum(deck["cards"].values()) == 0:
                self.error("empty-deck", f"deck '{deck['id']}'{label} has no cards", deck.get("source"))
            else:
                section = "wildling_cards" if slot == "wildling" else "westeros_cards"
                for cid in deck["cards"]:
                    if cid not in view[section]:
                        self.error("deck-card-kind", f"deck '{deck['id']}'{label}: '{cid}' is not a "
                                   f"{'wildling' if slot == 'wildling' else 'Westeros'} card", deck.get("source"))

    # -- a setup
    def setup(self, view: dict, s: dict, game: dict, label: str) -> None:
        sid, where = s["id"], s.get("source")
        board = view["boards"].get(s["board"])
        if board is None:
            return
        areas = board["areas"]
        houses = s.get("houses") or []
        if s["players"] + (s.get("vassals") or 0) != len(houses):
            self.error("setup-players", f"setup '{sid}'{label}: {s['players']} players and {s.get('vassals') or 0} "
                       f"vassals, but {len(houses)} houses", where, "players + vassals must be the number of houses")
        if not plays_mother_of_dragons(game):
            for key, what in MOD_SETUP_PARTS.items():
                if s.get(key):
                    self.error("part-not-played", f"setup '{sid}'{label} declares {what}, but its rules set "
                               f"'{game['id']}' does not play this part: only a Mother of Dragons rules set (one with "
                               "vassal order sets) does, and they would be ignored", where,
                               f"play the setup under a Mother of Dragons rules set (game mother-of-dragons), or "
                               f"leave {what} out")
        if s.get("iron_bank") and not game.get("loan_costs"):
            self.error("bank-without-costs", f"setup '{sid}'{label} plays the Iron Bank, but its rules set has no "
                       "loan-costs", where, "add: loan-costs [1, 4, 7]")
        if s.get("iron_bank") and not view.get("loans"):
            self.error("bank-without-loans", f"setup '{sid}'{label} plays the Iron Bank, but no loan is declared",
                       where)
        for track in game.get("tracks") or []:
            order = s["influence"].get(track)
            if order is None or set(houses) - set(order):
                missing = sorted(set(houses) - set(order or []))
                self.error("influence-shape", f"setup '{sid}'{label}: the track '{track}' does not place "
                           f"{', '.join(missing)}", where, f"add: influence {track} [{', '.join(houses)}]")
        stars = view["tables"].get(game.get("kings_court_stars"))
        if s.get("kings_court_stars") and stars is not None and s["kings_court_stars"] not in stars["rows"]:
            self.error("stars-row", f"setup '{sid}'{label}: the stars table has no row '{s['kings_court_stars']}'",
                       where, "rows: " + ", ".join(stars["rows"]))
        for r in s.get("dragon_strength_rounds") or []:
            if not 1 <= r <= game["max_rounds"]:
                self.error("dragon-round", f"setup '{sid}'{label}: dragon strength round {r} is not a round of the "
                           f"game (1-{game['max_rounds']})", where)
        for h, n in (s.get("starting_power") or {}).items():
            pool = view["houses"][h]["power_tokens"]
            if n > pool:
                self.error("power-over-pool", f"setup '{sid}'{label}: {h} starts with {n} power but owns {pool} "
                           "power tokens", where, f"raise its pool: patch house {h} {{ power-tokens {n} }}")
        for h, loans in (s.get("starting_loans") or {}).items():
            if not s.get("iron_bank"):
                self.error("loan-without-bank", f"setup '{sid}'{label}: {h} starts with a loan, but the Iron Bank "
                           "is not in this setup", where, "add 'iron-bank' to the setup, or play setups with it")
            for loan in loans:
                if loan != "random" and loan not in (s.get("loan_deck") or []):
                    self.error("loan-not-in-deck", f"setup '{sid}'{label}: {h}'s starting loan '{loan}' is not in "
                               "the loan deck", where, "its loan deck: " + ", ".join(s.get("loan_deck") or []))
            if len(loans) > len(s.get("loan_deck") or []) - 1:
                self.error("loans-over-deck", f"setup '{sid}'{label}: {h} starts with {len(loans)} loans, more than "
                           "the loan deck holds beside the one revealed at setup", where)
        placed = [("garrison", a) for a in s.get("garrisons") or {}] + \
            [("neutral force", a) for a in s.get("neutral_forces") or {}] + \
            [("loyalty token", a) for a in s.get("loyalty_tokens") or {}] + [("blocked area", a) for a in
                                                                             s.get("blocked") or []]
        for what, area in placed:
            if area not in areas:
                self.error("setup-area", f"setup '{sid}'{label}: {what} in '{area}', not an area of board "
                           f"'{s['board']}'", where)
            elif what != "blocked area" and areas[area]["kind"] != "land":
                self.error("setup-area", f"setup '{sid}'{label}: {what} in '{area}', "
                           f"{article(areas[area]['kind'])} area",
                           where, f"{article(what)} stands in a land area")
        capacity = game.get("port_capacity", 0)
        for role in ("starting_units", "vassal_starting_units"):
            for h, placements in (s.get(role) or {}).items():
                totals: Counter = Counter()
                for p in placements:
                    at = p.get("at") or where
                    area = areas.get(p["area"])
                    if area is None:
                        self.error("start-area", f"setup '{sid}'{label}: {h} starts in '{p['area']}', not an area "
                                   f"of board '{s['board']}'", at)
                        continue
                    if p["area"] in (s.get("blocked") or []):
                        self.error("start-blocked", f"setup '{sid}'{label}: {h} starts in the blocked area "
                                   f"'{p['area']}'", at)
                    for kind, n in p["units"].items():
                        totals[kind] += n
                        domain = view["unit_kinds"][kind]["domain"]
                        ok = area["kind"] == "land" if domain == "land" else area["kind"] in ("sea", "port")
                        if n and not ok:
                            self.error("unit-area", f"setup '{sid}'{label}: {h}'s {kind} cannot stand in "
                                       f"{p['area']} ({article(area['kind'])} area; {article(kind)} is "
                                       f"{article(domain)} unit)", at,
                                       "land units stand in land areas; ships in seas and ports")
                    ships = sum(n for k, n in p["units"].items() if view["unit_kinds"][k]["domain"] == "sea")
                    if area["kind"] == "port" and ships > capacity:
                        self.error("port-capacity", f"setup '{sid}'{label}: {_count(ships, 'ship')} in the port "
                                   f"{p['area']}, which holds {capacity}", at, "put the others in the sea next to it")
                limits = view["houses"][h]["unit_limits"]
                for kind, n in sorted(totals.items()):
                    if n > limits.get(kind, 0):
                        first = next((p.get("at") for p in placements if p["units"].get(kind)), where)
                        self.error("unit-limit", f"setup '{sid}'{label}: {h} starts with {_count(n, kind)}"
                                   f"{' as a vassal' if role != 'starting_units' else ''}, "
                                   f"but owns {limits.get(kind, 0)}", first,
                                   f"raise its pieces: patch house {h} {{ unit-limit {kind} {n} }}")

    # -- the cards each house is dealt
    def dealing(self, view: dict, s: dict, game: dict, label: str, variant: dict | None) -> None:
        sets = game.get("house_card_sets") or []
        cards = view["house_cards"]
        want = game.get("house_cards_per_house")
        for sid_ in sets:
            if sid_ not in view["card_sets"]:
                return
        for h in s.get("houses") or []:
            dealt = sorted({c for st in sets for c in view["card_sets"][st]["cards"]
                            if c in cards and cards[c]["house"] == h})
            if not dealt or (want is not None and len(dealt) != want):
                where = (variant or {}).get("source") or game.get("source")
                extra = "" if not dealt else ": " + ", ".join(dealt)
                self.error("deck-size", f"{h} is dealt {len(dealt)} house cards from {sets} in setup "
                           f"'{s['id']}'{label}, not {want if want is not None else 'at least 1'}{extra}", where,
                           "a card derived with `from` names its own `set`; a derived set removes or replaces "
                           "the card it changes (remove card ID / replace card OLD NEW)")


def _count(n: int, kind: str) -> str:
    if n == 1:
        return f"1 {kind}"
    return f"{n} {kind[:-3] + 'men' if kind.endswith('man') else kind + 's'}"


def check_playable(bundle: dict, diags: Diagnostics) -> None:
    _Checker(bundle, diags).run()


def strip_spans(bundle: dict) -> None:
    """Placement spans serve the checks above only: the bundle format has none."""
    setups = [bundle.get("setups", {})] + [v.get("patches", {}).get("setups", {})
                                           for v in bundle.get("variants", {}).values()]
    for section in setups:
        for s in section.values():
            for role in ("starting_units", "vassal_starting_units"):
                for placements in s.get(role, {}).values():
                    for p in placements:
                        p.pop("at", None)
