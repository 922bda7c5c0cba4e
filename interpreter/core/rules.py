"""`Rules`: a loaded bundle, indexed for the engine. Everything numeric the engine uses comes from here.

The engine never names a card, loan or area: it asks the bundle ("which cards does this house hold",
"what does this table say for supply 3") and runs card effects by primitive name.
"""

from __future__ import annotations

import json
from functools import cached_property
from pathlib import Path

from maester.dsl.diagnostics import BundleError, Diagnostics, MaesterError, Span, hint_for
from maester.dsl.json_input import loads as strict_json

from .board import Board


class Rules:
    def __init__(self, bundle: dict, check: bool = True, label: str = "bundle"):
        """`check`: verify every cross-reference and effect first (a few ms), so that no dangling id or
        ill-typed effect of a hand-made bundle can crash a game later; the schema is `from_file`'s job."""
        if check:
            from .bundle_check import check_bundle

            diags = Diagnostics()
            check_bundle(bundle, diags, label)
            if diags.errors:
                raise BundleError(diags)
        self.bundle = bundle
        self._boards: dict[str, Board] = {}
        # the records looked up at every step, bound once (a bundle's sections are never replaced); a missing
        # one is reported by `_get` when asked for
        sections = bundle if isinstance(bundle, dict) else {}
        self._orders = sections.get("orders", {})
        self._house_cards = sections.get("house_cards", {})
        self._houses = sections.get("houses", {})
        self._westeros_cards = sections.get("westeros_cards", {})

    # ---- loading
    @classmethod
    def from_file(cls, path: str | Path, validate: bool = True) -> Rules:
        """A bundle file, checked against the schemas and then for cross-references (`validate`)."""
        from maester.dsl.effect_tree import upgrade_bundle

        diags = Diagnostics()
        data = read_bundle(Path(path), diags)
        if isinstance(data, dict):
            data = upgrade_bundle(data)  # 1.0: effects get their tags
        if validate:
            validate_all(data, diags, str(path))
            if diags.errors:
                raise BundleError(diags)
        return cls(data, check=False, label=str(path))

    @classmethod
    def default(cls, variant: str | None = None, paths: list | None = None) -> Rules:
        """The bundled content (or `paths`), compiled and validated now, optionally with a variant applied.

        The load checks run once per content, variant and code: a bundle from the compiled-bundle cache that
        passed them before (here or in `maester check`) is played without being checked, or hashed, again
        (dsl/passed_checks.py)."""
        from maester.dsl import passed_checks
        from maester.dsl.sources import load_compiled

        bundle, key = load_compiled(paths)
        applied = apply_variant(bundle, variant)
        if passed_checks.passed_compiled(key, variant):
            return cls(applied, check=False)
        rules = cls(applied)  # checked: a problem is a BundleError here, before any game
        passed_checks.remember_compiled(key, variant)
        return rules

    # ---- lookups with a readable error
    def _get(self, section: str, ident: str, what: str) -> dict:
        try:
            return self.bundle[section][ident]  # the hot path (orders, cards, houses are asked often)
        except KeyError:
            records = self.bundle.get(section, {})
            diags = Diagnostics()
            diags.error(f"unknown-{what}", f"unknown {what} '{ident}'", None,
                        hint_for(ident, records, show_all=20))
            raise BundleError(diags) from None

    def setup(self, setup_id: str) -> dict:
        return self._get("setups", setup_id, "setup")

    def game(self, game_id: str) -> dict:
        return self._get("games", game_id, "game")

    def house(self, house_id: str) -> dict:
        try:
            return self._houses[house_id]
        except KeyError:
            return self._get("houses", house_id, "house")

    def order(self, order_id: str) -> dict:
        try:
            return self._orders[order_id]
        except KeyError:
            return self._get("orders", order_id, "order")

    def card(self, card_id: str) -> dict:
        try:
            return self._house_cards[card_id]
        except KeyError:
            return self._get("house_cards", card_id, "house card")

    def westeros_card(self, card_id: str) -> dict:
        try:
            return self._westeros_cards[card_id]
        except KeyError:
            return self._get("westeros_cards", card_id, "Westeros card")

    def wildling_card(self, card_id: str) -> dict:
        return self._get("wildling_cards", card_id, "wildling card")

    def table(self, table_id: str) -> dict:
        return self._get("tables", table_id, "table")

    def board(self, board_id: str) -> Board:
        if board_id not in self._boards:
            self._boards[board_id] = Board.from_bundle(self.bundle, board_id)
        return self._boards[board_id]

    # ---- derived indexes
    @cached_property
    def unit_kinds(self) -> dict[str, dict]:
        return self.bundle["unit_kinds"]

    @cached_property
    def tracks(self) -> dict[str, dict]:
        return self.bundle["tracks"]

    @cached_property
    def dominance_tokens(self) -> dict[str, str]:
        """dominance token id -> its track id."""
        return {t["dominance_token"]["id"]: tid for tid, t in self.tracks.items()}

    def cards_of(self, house: str, sets: list[str]) -> list[str]:
        """The house card ids a house plays with, given the card sets in use (each set lists its cards)."""
        cache = self.__dict__.setdefault("_cards_of", {})  # (the bundle never changes: read once per house and sets)
        key = (house, *sets)
        found = cache.get(key)
        if found is None:
            cards, sets_rec = self.bundle["house_cards"], self.bundle["card_sets"]
            found = cache[key] = tuple(sorted({cid for s in sets for cid in sets_rec[s]["cards"]
                                               if cards[cid]["house"] == house}))
        return list(found)

    def westeros_deck(self, slot: str, game: dict) -> list[str]:
        """Every card of the rules set's Westeros deck in a slot, one entry per copy, in a stable order."""
        return self._deck(game["decks"][slot])

    def wildling_deck(self, game: dict) -> list[str]:
        return self._deck(game["decks"]["wildling"])

    def _deck(self, deck_id: str) -> list[str]:
        cards = self._get("decks", deck_id, "deck")["cards"]
        return [cid for cid, n in sorted(cards.items()) for _ in range(n)]

    def orders_of_set(self, order_set: str) -> list[str]:
        """Every token of an order set, one entry per copy (a fresh list: callers may change it)."""
        cache = self.__dict__.setdefault("_order_sets", {})
        if order_set not in cache:
            cache[order_set] = self._orders_of_set(order_set)
        return list(cache[order_set])

    def _orders_of_set(self, order_set: str) -> list[str]:
        out = []
        for oid, o in sorted(self.bundle["orders"].items()):
            if o["set"] == order_set:
                out.extend([oid] * o["copies"])
        return out

    def supply_limits(self, game_id: str, level: int) -> list[int]:
        cache = self.__dict__.setdefault("_supply_limits", {})
        key = (game_id, level)
        if key not in cache:
            table = self.table(self.game(game_id)["supply_limits"])
            cache[key] = tuple(table["rows"][str(level)])
        return list(cache[key])

    def max_supply(self, game_id: str) -> int:
        table = self.table(self.game(game_id)["supply_limits"])
        return max(int(k) for k in table["rows"])

    def stars(self, game_id: str, row: str) -> list[int]:
        table = self.table(self.game(game_id)["kings_court_stars"])
        return list(table["rows"][row])


def read_bundle(path: Path, diags: Diagnostics) -> object:
    """A bundle file's JSON; a missing, unreadable or non-JSON file is one located error."""
    label = str(path)
    try:
        return strict_json(path.read_text(encoding="utf-8"), label)  # within the limits; 4.0 stays a float
    except MaesterError as e:
        diags.extend(e.diagnostics)
    except FileNotFoundError:
        diags.error("no-such-file", f"{label}: no such file", Span(label, 0, 0))
    except UnicodeDecodeError as e:
        diags.error("not-utf8", f"{label} is not UTF-8 text ({e.reason} at byte {e.start})", Span(label, 0, 0))
    except json.JSONDecodeError as e:
        diags.error("not-json", f"{label} is not JSON: {e.msg}", Span(label, e.lineno, e.colno))
    except (OSError, RecursionError) as e:  # a folder, no permission; JSON nested beyond Python's stack
        why = e.strerror if isinstance(e, OSError) else "nested too deeply"
        diags.error("unreadable", f"{label} cannot be read: {why}", Span(label, 0, 0))
    raise BundleError(diags)


def validate_all(bundle: object, diags: Diagnostics, label: str = "bundle") -> None:
    """The schema first; when it holds, the cross-references and effect types (bundle_check)."""
    from maester.dsl.limits import json_depth_problem
    from maester.dsl.validate import validate_bundle

    from .bundle_check import check_bundle

    problem = json_depth_problem(bundle)
    if problem:
        diags.error("too-deep", f"{label}: {problem}", Span(label, 0, 0), "no bundle compiled from content nests "
                    "this deep")
        return
    validate_bundle(bundle, diags, label)
    if not diags.errors:
        check_bundle(bundle, diags, label, variants=True)  # every variant the bundle plays, too


def variant_games(variant: dict) -> list[str]:
    """The rules sets a variant is played with: its `games` (a rule option of several rules sets), else its `game`."""
    return list(variant.get("games") or [variant["game"]])


def apply_variant(bundle: dict, variant: str | None) -> dict:
    """The bundle with a variant's fields written over its rules set (a content switch, no code)."""
    if not variant:
        return bundle
    variants = bundle.get("variants", {})
    if variant not in variants:
        diags = Diagnostics()
        diags.error("unknown-variant", f"unknown variant '{variant}'", None, hint_for(variant, variants, show_all=20)
                    or "this bundle declares no variants")
        raise BundleError(diags)
    v = variants[variant]
    out = json.loads(json.dumps(bundle))
    for section, records in v.get("patches", {}).items():  # full records: the compiler resolved every patch
        out[section].update(json.loads(json.dumps(records)))
    out["applied_variant"] = variant
    return out
