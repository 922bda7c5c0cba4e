"""Card text from the rules: an English rendering of compiled effects — never stored text — so what a
card says and what it does cannot drift apart.

The renderer reads like a printed card: names the DSL binds (`choose c in ...`, `for h in ...`,
`let n = ...`) become noun phrases ("that card", "each of the houses ...", the value itself), numbers
agree with their nouns, flags become words ("picked at random", "in reverse turn order"), and every
condition of the effect is said. Primitives the renderer has no phrase for fall back to the registry's
English template, so a new primitive still renders (never as `<primitive:name>`).
"""

from __future__ import annotations

import re
import string
from dataclasses import dataclass

from .effect_tree import kind as node_kind
from .english_grammar import (
    article,
    cap,
    count_noun,
    fix_articles,
    its,
    plural,
    polish,
    possessive,
    pronoun,
    verb,
    verb_only,
)
from .moments import MOMENTS
from .registry import CONTEXTS, PRIMITIVES, TRIGGERS

_EMPTY_LIST = {"node": "list", "list": []}  # an optional list argument left at its default

# the names a context binds, as a card says them (type from the registry's contexts)
_VAR_WORDS = {
    "you": "you", "opponent": "your opponent", "embattled-area": "the embattled area", "this-card": "this card",
    "your-card": "your card", "opponent-card": "your opponent's card", "attacker": "the attacker",
    "defender": "the defender", "march-origin": "the area the attack came from", "buyer": "you",
    "lowest-bidder": "the lowest bidder", "highest-bidder": "the highest bidder",
    "everyone-else": "the other bidders", "wildling-strength": "the wildling strength",
    # the names the moments of game abilities bind (dsl/moments.py)
    "house": "that house", "area": "that area", "count": "the number of units lost", "round": "the round number",
    "phase": "the phase", "order-type": "the kind of order", "card": "the Westeros card", "deck": "its deck",
    "from": "the house that held it", "to": "the house that holds it now",
}
_VAR_NOUNS = {"everyone-else": ("other bidder", "that bidder")}
_CONTEXT_TYPES = {name: t for c in CONTEXTS.values() for name, t in c.variables.items()}
_CONTEXT_TYPES.update({name: t for m in MOMENTS.values() for name, t in m.bindings.items()
                       if name not in _CONTEXT_TYPES})

_COMPARE = {"==": "is", "!=": "is not", "<": "is less than", "<=": "is at most", ">": "is more than",
            ">=": "is at least"}
_TYPE_NOUNS = {"card": "card", "area": "area", "house": "house", "unit": "unit", "track": "track",
               "deck": "Westeros deck", "int": "number", "order": "order token", "unit-kind": "kind of unit",
               "order-type": "kind of order", "icon": "icon", "improvement": "improvement"}
_LETTERS = string.ascii_lowercase


@dataclass(frozen=True)
class Ref:
    """What a bound name stands for in the text: a noun phrase, its type and the noun for one of them."""

    text: str
    type: str
    noun: str = ""
    value: object = None  # the expression of a `let`


class English:
    """Renders compiled effects; `names` maps ids to display names (from the bundle)."""

    def __init__(self, bundle: dict | None = None):
        self.names: dict[str, str] = {}
        if bundle:
            for section in ("houses", "tracks", "house_cards", "unit_kinds", "orders", "westeros_cards", "loans",
                            "wildling_cards"):
                for ident, rec in bundle.get(section, {}).items():
                    if rec.get("name"):
                        self.names[ident] = rec["name"]
            for board in bundle.get("boards", {}).values():
                for ident, area in board["areas"].items():
                    self.names[ident] = area["name"]
            for track in bundle.get("tracks", {}).values():
                token = track["dominance_token"]
                self.names[token["id"]] = token["name"]
        self.conditions: list[tuple[object, str]] = []  # every condition said, with its node (for the tests)
        self._static = False  # rendering a combat-strength ability

    # ---- names and types -----------------------------------------------------------------------
    def name(self, ident: str, type_: str = "") -> str:
        if type_ == "deck":
            return f"Westeros deck {ident.upper()}"
        if type_ == "order-type":
            return ident.replace("-", " ").title()
        return self.names.get(ident, ident.replace("-", " "))

    def type_of(self, x, env: dict) -> str:
        if isinstance(x, bool):
            return "bool"
        if isinstance(x, int):
            return "int"
        if node_kind(x) == "var":
            ref = env.get(x["var"])
            return ref.type if ref else _CONTEXT_TYPES.get(x["var"], "any")
        if node_kind(x) == "id":
            return x.get("type", "any")
        if node_kind(x) == "text":
            return "text"
        if node_kind(x) == "list":
            return "list:" + (self.type_of(x["list"][0], env) if x["list"] else "any")
        if node_kind(x) == "query":
            if x["query"] == "without":
                return self.type_of(x["args"]["items"], env)
            prim = PRIMITIVES.get(x["query"])
            return prim.returns if prim and prim.returns else "any"
        if x["op"] in ("+", "-") and self.type_of(x["args"][0], env).startswith("list:"):
            return self.type_of(x["args"][0], env)
        return "int" if x["op"] in ("+", "-", "*", "neg") else "bool"

    def noun_of(self, x, env: dict) -> str:
        """The noun for one item of a list expression: "Footman", "land area", "card"."""
        if isinstance(x, dict):
            if node_kind(x) == "var":
                if x["var"] in _VAR_NOUNS:
                    return _VAR_NOUNS[x["var"]][0]
                ref = env.get(x["var"])
                if ref and ref.noun:
                    return ref.noun
            if node_kind(x) == "query":
                q, a = x["query"], x["args"]
                if q in ("units", "combat-units"):
                    return self.name(a["kind"]["id"]) if isinstance(a.get("kind"), dict) and "id" in a["kind"] \
                        else "unit"
                if q in ("hand", "discard-pile", "discard-piles", "house-cards"):
                    return "house card"
                if q == "river-areas":
                    return "land area"
                if q in ("weakest", "strongest", "card-with-strength", "cards-with-strength-at-most"):
                    return "card"
                if q in ("areas", "adjacent"):
                    kind = a.get("kind")
                    return f"{kind['text']} area" if isinstance(kind, dict) and "text" in kind else "area"
                if q == "without":
                    return self.noun_of(a["items"], env)
            if node_kind(x) == "op" and x["op"] in ("+", "-"):
                return self.noun_of(x["args"][0], env)
        t = self.type_of(x, env)
        return _TYPE_NOUNS.get(t[5:] if t.startswith("list:") else t, "one")

    # ---- expressions ---------------------------------------------------------------------------
    def expr(self, x, env: dict | None = None) -> str:
        env = env if env is not None else {}
        if isinstance(x, bool):
            return "true" if x else "false"
        if isinstance(x, int):
            return str(x)
        if node_kind(x) == "var":
            ref = env.get(x["var"])
            return ref.text if ref else _VAR_WORDS.get(x["var"], "that one")
        if node_kind(x) == "id":
            return self.name(x["id"], x.get("type", ""))
        if node_kind(x) == "text":
            return x["text"]
        if node_kind(x) == "list":
            return self.either([self.expr(i, env) for i in x["list"]])
        if node_kind(x) == "query":
            return self.query(x["query"], x["args"], env)
        return self.operation(x["op"], x["args"], env)

    @staticmethod
    def either(items: list[str], word: str = "or") -> str:
        if not items:
            return "nothing"
        return items[0] if len(items) == 1 else ", ".join(items[:-1]) + f" {word} " + items[-1]

    def some(self, n: int, items, env: dict, lead: str = "at least ") -> str:
        """"at least one Knight on the board", "at least 2 of your units": n items of a list phrase."""
        noun = self.noun_of(items, env)
        phrase = self.expr(items, env)
        head = f"the {plural(noun)}"
        count = "one" if n == 1 else str(n)
        if phrase.startswith(head):
            return f"{lead}{count} {noun if n == 1 else plural(noun)}{phrase[len(head):]}"
        return f"{lead}{count} of {phrase}"

    def track(self, x, env: dict) -> str:
        """A track as a card says it: "the Fiefdoms track", "that track"."""
        if isinstance(x, dict) and "id" in x:
            return f"the {self.name(x['id'])} track"
        return self.expr(x, env)

    def amount(self, x, noun: str, env: dict, uncountable: bool = False) -> str:
        """An amount of `noun`: 2 power tokens; 1 power token for each of ...; power tokens equal to ..."""
        if isinstance(x, int) and not isinstance(x, bool):
            return f"{x} {noun}" if uncountable else count_noun(x, noun)
        if isinstance(x, dict) and x.get("query") == "count":
            return f"{1 if not uncountable else '+1'} {noun} for each of {self.expr(x['args']['items'], env)}"
        if isinstance(x, dict) and "var" in x and self.type_of(x, env) == "int" and x["var"] in env \
                and env[x["var"]].text == "that number":
            return f"that many {noun if uncountable else plural(noun)}"
        return f"{noun if uncountable else plural(noun)} equal to {self.expr(x, env)}"

    def operation(self, op: str, args: list, env: dict) -> str:
        if op == "not":
            return self.negate(args[0], env)
        if op == "neg":
            return f"minus {self.expr(args[0], env)}"
        if op in ("and", "or"):
            parts = self._chain(op, args, env)
            return self.either(parts, op)
        a, b = args
        if op == "+" and self.type_of(a, env).startswith("list:"):
            merged = self._merge_areas(a, b, env) or self._merge_units(a, b, env)
            return merged or f"{self.expr(a, env)}, as well as {self.expr(b, env)}"
        if op == "-" and self.type_of(a, env).startswith("list:"):
            return f"{self.expr(a, env)} other than {self.expr(b, env)}"
        if op == "*":
            if a == 2 or b == 2:
                return "twice " + self.expr(b if a == 2 else a, env)
            return f"{self.expr(a, env)} times {self.expr(b, env)}"
        if op in ("+", "-"):
            return f"{self.expr(a, env)} {'plus' if op == '+' else 'minus'} {self.expr(b, env)}"
        return self.compare(op, a, b, env)

    def _merge_areas(self, a, b, env: dict) -> str | None:
        """Two area filters that differ in one word say it once: "the sea and port areas adjacent to ..."."""
        a, b = self._resolve(a, env), self._resolve(b, env)
        if not (isinstance(a, dict) and isinstance(b, dict) and a.get("query") == b.get("query")
                and a.get("query") in ("areas", "adjacent")):
            return None
        differ = [k for k in set(a["args"]) | set(b["args"]) if a["args"].get(k) != b["args"].get(k)]
        if differ == ["with"] and a["args"].get("with") and b["args"].get("with"):
            one = self.expr(a, env)
            word = self.expr(a["args"]["with"], env)
            return one.replace(f"with {article(word)}",
                               f"with {article(word)} or {article(self.expr(b['args']['with'], env))}", 1)
        if differ == ["kind"] and a["args"].get("kind") and b["args"].get("kind"):
            one = self.expr(a, env)
            word = self.expr(a["args"]["kind"], env)
            return one.replace(f"the {word} areas", f"the {word} and {self.expr(b['args']['kind'], env)} areas", 1)
        return None

    def _merge_units(self, a, b, env: dict) -> str | None:
        """Units on the board and units of the same house and kind in the combat (an attack is off the board)."""
        a, b = self._resolve(a, env), self._resolve(b, env)
        if not (isinstance(a, dict) and isinstance(b, dict) and a.get("query") == "units"
                and b.get("query") == "combat-units" and a["args"].get("house") == b["args"].get("house")
                and a["args"].get("kind") == b["args"].get("kind") and a["args"].get("in") in (None, _EMPTY_LIST)):
            return None
        role = b["args"].get("role", "fighting")
        role = role["id"] if isinstance(role, dict) else role
        return f"{self._units(a['args'], env)} on the board or {role} in this combat"

    def _resolve(self, x, env: dict):
        """The expression a `let` name stands for (for phrases that look inside it)."""
        while isinstance(x, dict) and "var" in x and x["var"] in env and env[x["var"]].value is not None:
            x = env[x["var"]].value
        return x

    def _chain(self, op: str, args: list, env: dict) -> list[str]:
        """The operands of a chain of `and` (or `or`), flattened; a nested chain of the other kind reads
        "either ... or ..." / "both ... and ..."; icons of one area are said together."""
        flat: list = []
        for arg in args:
            if isinstance(arg, dict) and arg.get("op") == op:
                flat.extend(self._flatten(op, arg))
            else:
                flat.append(arg)
        out: list[str] = []
        i = 0
        while i < len(flat):
            arg = flat[i]
            icons = self._icons(arg)
            if icons is not None:
                same = [icons]
                while i + 1 < len(flat) and (nxt := self._icons(flat[i + 1])) and nxt[:2] == icons[:2]:
                    same.append(nxt)
                    i += 1
                if len(same) > 1:
                    area, negated = self.expr(icons[0], env), icons[1]
                    names = [self.expr(x[2], env) for x in same]
                    out.append(f"{area} has no " + self.either(names, "and no") if negated else
                               f"{area} has " + self.either([article(n) for n in names], op))
                    i += 1
                    continue
            text = self.expr(arg, env)
            if isinstance(arg, dict) and arg.get("op") in ("and", "or") and arg["op"] != op \
                    and len(self._chain(arg["op"], arg["args"], env)) > 1:
                text = ("either " if arg["op"] == "or" else "both ") + text
            out.append(text)
            i += 1
        return out

    def _flatten(self, op: str, x) -> list:
        if isinstance(x, dict) and x.get("op") == op:
            return [y for a in x["args"] for y in self._flatten(op, a)]
        return [x]

    @staticmethod
    def _icons(x) -> tuple | None:
        """(area, negated, icon) of `has-icon(area, icon)` or its negation."""
        negated = isinstance(x, dict) and x.get("op") == "not"
        inner = x["args"][0] if negated else x
        if isinstance(inner, dict) and inner.get("query") == "has-icon":
            return (inner["args"]["area"], negated, inner["args"]["icon"])
        return None

    def compare(self, op: str, a, b, env: dict) -> str:
        qa = a.get("query") if isinstance(a, dict) else None
        # counts: "there is at least one card among ...", "there are at least 2 ..."
        if qa == "count" and isinstance(b, int) and op in (">", ">=", "==") and b <= 1 + (op != ">"):
            items = a["args"]["items"]
            least = b + 1 if op == ">" else b
            noun = self.noun_of(items, env)
            if op == "==" and b == 0:
                return f"there is no {noun} among {self.expr(items, env)}"
            if op != "==":
                return f"there {'is' if least == 1 else 'are'} {self.some(least, items, env)}"
        if qa == "available-units" and isinstance(b, int) and op == ">" and b == 0:
            h = self.expr(a["args"]["house"], env)
            return f"{verb(h, 'has')} at least one {self.expr(a['args']['kind'], env)} off the board"
        if qa == "position" and isinstance(b, dict) and b.get("query") == "position" \
                and a["args"]["track"] == b["args"]["track"] and op in ("<", ">"):
            first, second = (a, b) if op == "<" else (b, a)
            return (f"{verb(self.expr(first['args']['house'], env), 'is')} higher than "
                    f"{self.expr(second['args']['house'], env)} on {self.track(a['args']['track'], env)}")
        if qa == "position" and b == 1 and op in (">", "=="):
            h = self.expr(a["args"]["house"], env)
            where = f"the first position of {self.track(a['args']['track'], env)}"
            return f"{verb(h, 'is')} {'not ' if op == '>' else ''}in {where}"
        if qa == "holder" and op in ("==", "!="):
            h = self.expr(b, env)
            token = self.expr(a["args"]["token"], env)
            return f"{verb(h, 'holds' if op == '==' else 'does')}{' not hold' if op == '!=' else ''} the {token}"
        # the verb agrees with its subject: "you are the defender", "your opponent is at least 2"
        said = _COMPARE[op].removeprefix("is")
        return f"{verb(self.expr(a, env), 'is')}{said} {self.expr(b, env)}"

    def negate(self, x, env: dict) -> str:
        if isinstance(x, dict) and "query" in x:
            q, a = x["query"], x["args"]
            h = self.expr(a["house"], env) if "house" in a else ""
            said = {
                "is-vassal": lambda: f"{verb(h, 'is')} not a vassal",
                "is-supported": lambda: f"{verb(h, 'is')} not supported in this combat",
                "is-winner": lambda: f"{verb(h, 'does')} not win the combat",
                "is-loser": lambda: f"{verb(h, 'does')} not lose the combat",
                "is-attacker": lambda: f"{verb(h, 'is')} not the attacker",
                "is-defender": lambda: f"{verb(h, 'is')} not the defender",
                "has-played-card": lambda: f"{verb(h, 'fights')} without a house card",
                "has-icon": lambda: f"{self.expr(a['area'], env)} has no {self.expr(a['icon'], env)}",
                "controls": lambda: f"{verb(h, 'does')} not control {self.expr(a['area'], env)}",
                "contains": lambda: f"{self.expr(a['item'], env)} is not among {self.expr(a['items'], env)}",
                "is-transported-attack": lambda: "the attack did not come by ship transport",
                "is-in-play": lambda: f"{verb(h, 'is')} not in the game",
            }.get(q)
            if said:
                return said()
        if isinstance(x, dict) and x.get("op") in _COMPARE and x["op"] in ("==", "!=", "<", ">", "<=", ">="):
            flipped = {"==": "!=", "!=": "==", "<": ">=", ">=": "<", ">": "<=", "<=": ">"}[x["op"]]
            return self.compare(flipped, x["args"][0], x["args"][1], env)
        return f"it is not the case that {self.expr(x, env)}"

    def query(self, name: str, a: dict, env: dict) -> str:
        def e(key):
            return self.expr(a[key], env)

        def has(key):
            v = a.get(key)
            return v is not None and v != _EMPTY_LIST and v is not False

        h = e("house") if has("house") else ""
        q = {
            "is-winner": lambda: f"{verb(h, 'wins')} the combat",
            "is-loser": lambda: f"{verb(h, 'loses')} the combat",
            "is-attacker": lambda: f"{verb(h, 'is')} the attacker",
            "is-defender": lambda: f"{verb(h, 'is')} the defender",
            "is-supported": lambda: f"{verb(h, 'is')} supported in this combat",
            "supporters": lambda: f"the houses supporting {h}",
            "combat-margin": lambda: "the difference between the final combat strengths",
            "final-strength": lambda: f"{possessive(h)} final combat strength",
            "combat-units": lambda: self._combat_units(a, env),
            "is-transported-attack": lambda: "the attack came by ship transport",
            "played-card": lambda: f"{possessive(h)} house card",
            "has-played-card": lambda: f"{verb(h, 'fights')} with a house card",
            "retreat-area": lambda: f"the area {possessive(h)} army retreated to",
            "printed-strength": lambda: f"the printed combat strength of {e('card')}",
            "printed-swords": lambda: f"the number of sword icons printed on {e('card')}",
            "printed-fortifications": lambda: f"the number of fortification icons printed on {e('card')}",
            "order-value": lambda: f"the value of the order in {e('area')}",
            "has-order": lambda: (f"{verb(h, 'has')} {article(e('type'))} order in {e('area')}" if h
                                  else f"{e('area')} holds {article(e('type'))} order"),
            "order-areas": lambda: f"the areas holding {possessive(h)} order tokens"
                                   + (f" adjacent to {e('near')}" if has("near") else ""),
            "unused-orders": lambda: (f"{possessive(h)} {e('among')} order tokens that are not on the board"
                                      if has("among") else f"{possessive(h)} order tokens that are not on the board"),
            "hand": lambda: f"the house cards in {possessive(h)} hand",
            "discard-pile": lambda: f"{possessive(h)} discarded house cards",
            "house-cards": lambda: f"{possessive(h)} house cards of the set {e('set')}",
            "discard-piles": lambda: f"the discarded house cards of {e('houses')}",
            "weakest": lambda: f"the lowest-strength cards among {e('cards')}",
            "strongest": lambda: f"the highest-strength cards among {e('cards')}",
            "card-with-strength": lambda: f"the cards among {e('cards')} with a printed combat strength of "
                                          f"{e('strength')}",
            "cards-with-strength-at-most": lambda: f"the cards among {e('cards')} with a printed combat strength "
                                                   f"of at most {e('strength')}",
            "units": lambda: self._units(a, env),
            "area-of": lambda: f"the area {e('unit')} is in",
            "available-units": lambda: f"the number of {possessive(h)} {plural(e('kind'))} off the board",
            "areas": lambda: self._areas(a, env),
            "adjacent": lambda: f"the {e('kind') + ' ' if has('kind') else ''}areas adjacent to {e('area')}",
            "has-icon": lambda: f"{e('area')} has {article(e('icon'))}",
            "has-power-token": lambda: f"{e('area')} holds {possessive(h) if h else 'a'} power token",
            "is-kind": lambda: f"{e('area')} is {article(e('kind'))} area",
            "controls": lambda: f"{verb(h, 'controls')} {e('area')}",
            "home-area": lambda: f"{possessive(h)} home area",
            "loyalty-areas": lambda: "the areas holding loyalty tokens"
                                     + (f" that are next to {article(e('next-to'))} area" if has("next-to") else ""),
            "river-areas": lambda: "the land areas next to a river",
            "position": lambda: f"{possessive(h)} position on {self.track(a['track'], env)}",
            "highest-track": lambda: f"the influence track where {verb(h, 'stands')} highest",
            "power": lambda: f"the number of {possessive(h)} available power tokens",
            "victory-points": lambda: f"{possessive(h)} position on the victory track",
            "bid": lambda: f"the power tokens {h} bid",
            "wildling-threat": lambda: "the current wildling threat",
            "westeros-decks": lambda: "the Westeros decks with undrawn cards left",
            "others": lambda: f"the houses other than {h}",
            "player-houses": lambda: "the player houses (not vassals)",
            "vassals": lambda: "the vassal houses",
            "turn-order": lambda: f"the houses in {'reverse ' if a.get('reverse') else ''}turn order",
            "is-vassal": lambda: f"{verb(h, 'is')} a vassal",
            "commander": lambda: f"{possessive(h)} commander",
            "holder": lambda: f"the holder of the {e('token')}",
            "is-in-play": lambda: f"{verb(h, 'is')} in the game",
            "count": lambda: "the number of " + re.sub(r"^the ", "", e("items")),
            "numbers": lambda: f"the whole numbers from {e('from')} to {e('to')}",
            "contains": lambda: f"{e('item')} is among {e('items')}",
            "without": lambda: self._without(a, env),
            "has-dragon-token-left": lambda: "a dragon strength token is still on the round track",
        }.get(name)
        return q() if q else self.template(name, a, env)

    def _without(self, a: dict, env: dict) -> str:
        items = self._resolve(a["items"], env)
        if isinstance(items, dict) and items.get("query") == "without":
            return f"{self._without(items['args'], env)} and {self._all_of(a['removed'], env)}"
        return f"{self.expr(items, env)} other than {self._all_of(a['removed'], env)}"

    def _all_of(self, x, env: dict) -> str:
        """A list every item of which counts: "the area the attack came from and the embattled area"."""
        if isinstance(x, dict) and "list" in x:
            return self.either([self.expr(i, env) for i in x["list"]], "and")
        return self.expr(x, env)

    def _units(self, a: dict, env: dict) -> str:
        kind = plural(self.expr(a["kind"], env)) if a.get("kind") else "units"
        where = f" in {self.expr(a['in'], env)}" if a.get("in") not in (None, _EMPTY_LIST) else ""
        if a.get("house") is None:
            return f"the {kind}{where or ' on the board'}"
        return f"{possessive(self.expr(a['house'], env))} {kind}{where}"

    def _combat_units(self, a: dict, env: dict) -> str:
        kind = plural(self.expr(a["kind"], env)) if a.get("kind") else "units"
        role = a.get("role", "fighting")
        role = role["id"] if isinstance(role, dict) else role
        owner = possessive(self.expr(a["house"], env)) if a.get("house") is not None else "the"
        if role == "all":
            return f"{owner} {kind} in this combat (fighting or supporting)"
        return f"{owner} {kind} {role} in this combat"

    def _areas(self, a: dict, env: dict) -> str:
        kind = a["kind"]["text"] + " " if isinstance(a.get("kind"), dict) and "text" in a["kind"] else ""
        text = f"the {kind}areas"
        if a.get("with") is not None:
            text += f" with {article(self.expr(a['with'], env))}"
        if a.get("side") is not None:
            text += f" of {self.expr(a['side'], env).title()}"
        quals = []
        if a.get("controlled-by") is not None:
            quals.append(f"controlled by {self.expr(a['controlled-by'], env)}")
        if a.get("uncontrolled"):
            quals.append("controlled by no house")
        if a.get("neutral-force") is True:
            quals.append("holding a neutral force token")
        elif a.get("neutral-force") is False:
            quals.append("holding no neutral force token")
        if a.get("min-units") is not None:
            quals.append(f"holding at least {self.amount(a['min-units'], 'unit', env)}")
        return text + (" " + " and ".join(quals) if quals else "")

    # ---- effects -------------------------------------------------------------------------------
    def call(self, name: str, a: dict, env: dict | None = None) -> str:
        env = env if env is not None else {}

        def e(key):
            return self.expr(a[key], env)

        def has(key):
            v = a.get(key)
            return v is not None and v != _EMPTY_LIST and v is not False

        h = e("house") if has("house") else ""
        by = e("by") if has("by") else h
        say = {
            "gain-power": lambda: f"{verb(h, 'gains')} {self.amount(a['amount'], 'power token', env)}",
            "discard-power": lambda: self._discard_power(a, env),
            "add-strength": lambda: self._strength(h, a["amount"], env),
            "add-swords": lambda: f"{possessive(h)} card gets {self.amount(a['amount'], 'extra sword icon', env)}",
            "add-fortifications": lambda: f"{possessive(h)} card gets "
                                          f"{self.amount(a['amount'], 'extra fortification icon', env)}",
            "set-printed-strength": lambda: self._printed(a, env),
            "set-unit-strength": lambda: f"each of {e('units')} has a combat strength of {e('value')}",
            "set-final-strength": lambda: f"{possessive(h)} final combat strength is {e('value')}",
            "return-played-card": lambda: f"{possessive(h)} revealed house card goes back to {its(h)} hand",
            "discard-played-card": lambda: f"{possessive(h)} revealed house card is discarded",
            "reveal-another-card": lambda: f"{verb(h, 'reveals')} another house card from {its(h)} hand"
                                           + (", picked at random (the cancelled card included)"
                                              if a.get("random") else ""),
            "ignore-text": lambda: f"{e('card')} has no text in this combat",
            "return-discards-to-hand": lambda: f"{verb(h, 'takes')} every card of {its(h)} discard pile back "
                                               f"into {its(h)} hand",
            "take-from-discard": lambda: f"{verb(h, 'takes')} {e('card')} from {its(h)} discard pile back into "
                                         f"{its(h)} hand",
            "discard-from-hand": lambda: f"{verb(h, 'discards')} {e('card')} from {its(h)} hand",
            "keep-played-card": lambda: f"{verb(h, 'returns')} {its(h)} played house card to {its(h)} hand instead "
                                        "of discarding it",
            "remove-from-game": lambda: f"{e('card')} is removed from the game",
            "swap-house-card": lambda: f"{verb(h, 'swaps')} {e('old')} for {e('new')}",
            "destroy-unit": lambda: f"{e('unit')} is destroyed",
            "destroy-units": lambda: self._destroy_units(a, env),
            "replace-unit": lambda: f"{e('unit')} is replaced by {article(e('kind'))}",
            "place-units": lambda: self._place_units(a, env),
            "_place-many": lambda: self._place_units(a, env),
            "prevent-casualties": lambda: f"{verb(h, 'loses')} no units as casualties in this combat"
                                          + (" (Tides of Battle skulls still destroy units)"
                                             if a.get("except-skulls") else ""),
            "prevent-routing": lambda: f"{possessive(h)} units that retreat from this combat are not routed",
            "choose-retreat-area": lambda: f"{verb(by, 'chooses')} where {possessive(h)} units retreat",
            "prevent-advance": lambda: "the attacker's units stay in the area they marched from",
            "force-retreat": lambda: f"{possessive(h)} units retreat from the embattled area although "
                                     f"{verb(pronoun(h), 'has')} won",
            "keep-march-order": lambda: f"{possessive(h)} March order moves with {its(h)} army and may be "
                                        "resolved again",
            "switch-support": lambda: f"{possessive(e('supporter'))} support in this combat goes to {e('to')}",
            "remove-order": lambda: f"the order token in {e('area')} is removed",
            "place-order": lambda: f"{verb(h, 'places')} {self._order_token(a['order'], env)} in {e('area')}, "
                                   "replacing any order there",
            "forbid-orders": lambda: f"no one may place {e('types')} orders during this Planning Phase",
            "move-on-track": lambda: f"{verb(h, 'moves')} to the {e('to')} position of "
                                     f"{self.track(a['track'], env)}",
            "move-down-track": lambda: f"{verb(h, 'moves')} down {self.amount(a['places'], 'place', env)} on "
                                       + self.track(a["track"], env).replace(f"where {verb(h, 'stands')}",
                                                                             f"where {verb(pronoun(h), 'stands')}"),
            "move-up-track": lambda: f"{verb(h, 'moves')} up {self.amount(a['places'], 'place', env)} on "
                                     f"{self.track(a['track'], env)}",
            "take-dominance-token": lambda: f"{verb(h, 'takes')} the dominance token of {self.track(a['track'], env)}",
            "seize-dominance-token": lambda: f"{verb(h, 'takes')} the {e('token')} token without moving on its "
                                             "track",
            "move-supply": lambda: self._steps(verb(h, "moves"), a["steps"], "on the supply track", env)
            + ("" if isinstance(a["steps"], int) and a["steps"] >= 0
               else f", then {verb_only(h, 'reconciles')} {its(h)} armies to the new supply"),
            "adjust-supply": lambda: "every house adjusts its supply and reconciles its armies",
            "draft-house-cards": lambda: f"the houses draft {self.amount(a['hand-size'], 'house card', env)} each, "
                                         f"one at a time, from the cards of the set {e('set')} of every house in "
                                         "play, " + (f"picking in this order: {e('order')}" if has("order")
                                                     else "picking in turn order")
                                         + (", the order reversing after each turn" if a.get("snake") else "")
                                         + "; the pool and every pick are public",
            "assign-houses": lambda: "each player's seat is given a house at random",
            "draft-influence": lambda: "track by track, each house picks a free position on the influence tracks, "
                                       + (f"in this order: {e('order')}" if has("order") else "in turn order"),
            "muster": lambda: f"{verb(h, 'musters')} units in "
                              + (e("in") if has("in") else
                                 f"the castle and stronghold areas {verb(pronoun(h), 'controls')}"),
            "collect-power": lambda: "every house gains 1 power token for each power icon in the land areas it "
                                     "controls" + (", and 1 for each of its ports that holds its ships while no "
                                                   "enemy ship is in the sea area next to it"
                                                   if a.get("ports", True) else ""),
            "bid-on-influence-tracks": lambda: "every house bids on the three influence tracks",
            "wildling-attack": lambda: "the wildlings attack"
                                       + (f" with a strength of {e('strength')}" if has("strength")
                                          else " at the current wildling threat")
                                       + (f" ({e('excluded')} does not take part)" if has("excluded") else ""),
            "advance-wildlings": lambda: f"the wildling threat rises by {self.amount(a['steps'], 'step', env)}",
            "move-wildling-threat": lambda: self._steps("the wildling threat token moves", a["steps"],
                                                        "on the wildling track", env),
            "reshuffle-and-redraw": lambda: "shuffle this deck, then reveal a new card in its place",
            "return-bid": lambda: f"{verb(h, 'takes')} back the power tokens {pronoun(h)} bid",
            "arrange-deck-top": lambda: self._arrange(a, env),
            "look-at-hand": lambda: f"{verb(h, 'looks')} in secret at the house cards in {possessive(e('of'))} hand",
            "look-at-orders": lambda: f"{verb(h, 'looks')} in secret at the orders"
                                      + (f" of {e('of')}" if has("of") else " of the other houses")
                                      + (f" in {e('in')}" if has("in") else "" if has("of") else " on the board"),
            "search-deck": lambda: f"{verb(h, 'looks')} through {e('deck')}, {verb_only(h, 'picks')} a card of "
                                   f"{its(h)} choice, {verb_only(h, 'shuffles')} the other undrawn cards and "
                                   f"{verb_only(h, 'puts')} the picked card face down on top",
            "place-loyalty": lambda: f"put {self.amount(a['count'], 'loyalty token', env)} in {e('area')}",
            "move-loyalty": lambda: f"move a loyalty token from {e('from')} to {e('to')}",
            "improve": lambda: f"put {article(e('improvement'))} improvement in {e('area')}",
            "degrade": lambda: f"degrade the {e('icon')} of {e('area')}",
            "advance-dragon-strength": lambda: "move one dragon strength token into the dragon box now",
            "revive-unit": lambda: f"put one of {possessive(h)} destroyed {plural(e('kind'))} back in {e('in')}",
        }.get(name)
        return say() if say else self.template(name, a, env)

    def _printed(self, a: dict, env: dict) -> str:
        card, value = self.expr(a["card"], env), a["value"]
        if isinstance(value, dict) and value.get("op") in ("+", "-") \
                and value["args"][0] == {"node": "query", "query": "printed-strength", "args": {"card": a["card"]}}:
            change = "reduced" if value["op"] == "-" else "increased"
            return f"the printed combat strength of {card} is {change} by {self.expr(value['args'][1], env)}"
        return f"the printed combat strength of {card} counts as {self.expr(value, env)}"

    def _discard_power(self, a: dict, env: dict) -> str:
        h = self.expr(a["house"], env)
        amount = a["amount"]
        if isinstance(amount, dict) and amount.get("query") == "power" and amount["args"].get("house") == a["house"]:
            return f"{verb(h, 'discards')} all {its(h)} available power tokens"
        return f"{verb(h, 'discards')} {self.amount(amount, 'available power token', env)}"

    def _strength(self, h: str, amount, env: dict) -> str:
        if isinstance(amount, int) and not isinstance(amount, bool):
            return f"{verb(h, 'gets')} {amount:+d} combat strength"
        if isinstance(amount, dict) and amount.get("query") == "count":
            return f"{verb(h, 'gets')} +1 combat strength for each of {self.expr(amount['args']['items'], env)}"
        return f"{verb(h, 'gets')} extra combat strength equal to {self.expr(amount, env)}"

    def _steps(self, subject: str, steps, where: str, env: dict) -> str:
        if isinstance(steps, int) and not isinstance(steps, bool):
            way = "up" if steps >= 0 else "down"
            return f"{subject} {way} {count_noun(abs(steps), 'space')} {where}"
        return f"{subject} {self.amount(steps, 'space', env)} {where}"

    def _destroy_units(self, a: dict, env: dict) -> str:
        h = self.expr(a["house"], env)
        by = self.expr(a["by"], env) if a.get("by") is not None else h
        whose = its(by) if by == h else possessive(h)
        text = f"{verb(by, 'destroys')} {self.amount(a['count'], 'unit', env)}"
        text = re.sub(r"^(.*?)(\d+) units?$", lambda m: f"{m.group(1)}{m.group(2)} of {whose} units", text) \
            if isinstance(a["count"], int) else f"{text} of {whose}"
        if a.get("in") not in (None, _EMPTY_LIST):
            text += f" in {self.expr(a['in'], env)}"
        if a.get("same-area"):
            text += ", all in the same area"
        return text

    def _place_units(self, a: dict, env: dict) -> str:
        h = self.expr(a["house"], env)
        by = self.expr(a["by"], env) if a.get("by") is not None else h
        kind = self.expr(a["kind"], env) if a.get("kind") is not None else "unit"
        if len(a.get("kinds", ())) > 1:  # several placements said as one
            what = self.either([self.amount(n, self.expr(k, env), env) for n, k in a["kinds"]], "and")
            text = f"{verb(by, 'places')} {what}, each"
        else:
            count = a.get("count", 1)
            text = f"{verb(by, 'places')} {self.amount(count, kind, env)}"
            if count != 1 and a.get("in") in (None, _EMPTY_LIST):
                text += ", each"  # each unit may go to another area
        if a.get("kind") is None:
            text += f" of {its(by)} choice"
        if by != h:
            text += f" for {h}"
        if a.get("in") not in (None, _EMPTY_LIST):
            text += f" in {self.expr(a['in'], env)}"
        else:
            text += f" in an area {verb(pronoun(h), 'controls')} or holds units in" if pronoun(h) == "it" \
                else " in an area you control or hold units in"
        return text

    def _order_token(self, x, env: dict) -> str:
        if isinstance(x, dict) and "id" in x:
            return f"an unused {self.name(x['id'])} order token"
        return self.expr(x, env)

    def _arrange(self, a: dict, env: dict) -> str:
        h = self.expr(a["house"], env)
        text = f"{verb(h, 'looks')} at the top {self.amount(a['count'], 'card', env)} of {self.expr(a['deck'], env)}"
        low = a.get("min-bottom", 0)
        if low:
            return text + (f", then {verb_only(h, 'puts')} at least {low} of them on the bottom of that "
                           "deck and the others back on top, in any order")
        return text + f", then {verb_only(h, 'puts')} them back on top or on the bottom, in any order"

    def template(self, name: str, a: dict, env: dict) -> str:
        """The registry's template, for a primitive without a phrase here."""
        prim = PRIMITIVES.get(name)
        if prim is None:
            return f"<primitive:{name}>"
        words = {p.name: self.expr(a[p.name], env) if a.get(p.name) not in (None, _EMPTY_LIST, False) else ""
                 for p in prim.params}
        try:
            return fix_articles(re.sub(r"\s+", " ", prim.english.format_map(_Default(words))).strip())
        except (KeyError, IndexError, ValueError):
            return f"<primitive:{name}>"

    # ---- statements ----------------------------------------------------------------------------
    def block(self, stmts: list, env: dict | None = None, top: bool = False) -> str:
        env = dict(env or {})
        parts = [p for p in (self.statement(s, env) for s in _merged_placements(stmts)) if p]
        if not parts:
            return "nothing happens"
        if top:
            return ". ".join(cap(p) for p in parts)
        # static modifiers (read while strength is counted) all hold at once: no "then" between them
        return "; ".join(parts) if self._static else "; then ".join(parts)

    def condition(self, node, env: dict) -> str:
        text = self.expr(node, env)
        self.conditions.append((node, text))
        return text

    def statement(self, st: dict, env: dict) -> str:
        """One statement; `env` is updated by `let` (its value is said where the name is used)."""
        node = node_kind(st)
        if node == "call":
            text = self.call(st["do"], st["args"], env)
            if "options" in st:
                text = f"{verb(self.expr(st['args']['by'], env), 'chooses')} one: " + self.options(st["options"], env)
            return text
        if node == "if":
            text = f"if {self.condition(st['if'], env)}, {self.block(st['then'], env)}"
            if st.get("else"):
                text += f"; otherwise, {self.block(st['else'], env)}"
            return text
        if node == "for":
            items = st["in"]
            if isinstance(items, dict) and "list" in items and self.type_of(items, env) == "list:int" \
                    and not _uses(st["body"], st["for"]):
                times = len(items["list"])
                return f"{'twice' if times == 2 else f'{times} times'}: {self.block(st['body'], env)}"
            noun = self.noun_of(st["in"], env)
            ref = _VAR_NOUNS.get(st["in"].get("var"), ("", f"that {noun}"))[1] if isinstance(st["in"], dict) \
                else f"that {noun}"
            inner = {**env, st["for"]: Ref(ref, _elem(self.type_of(st["in"], env)), noun)}
            lead = self._for_lead(st["in"], noun, env)
            return f"{lead}: {self.block(st['body'], inner)}"
        if node == "choose":
            return self._choose(st, env)
        if node == "may":
            return self._may(st, env)
        if node == "let":
            value = st["value"]
            env[st["let"]] = Ref(self.expr(value, env), self.type_of(value, env), self.noun_of(value, env),
                                 self._resolve(value, env))
            return ""
        return "<statement>"

    def _for_lead(self, items, noun: str, env: dict) -> str:
        if isinstance(items, dict) and items.get("query") == "turn-order":
            return f"for each house, in {'reverse ' if items['args'].get('reverse') else ''}turn order"
        if isinstance(items, dict) and items.get("var") in _VAR_NOUNS:
            return f"for each {_VAR_NOUNS[items['var']][0]}"
        if isinstance(items, dict) and "list" in items:
            return f"for each of {self._list_of(items, env)}"
        return f"for each of {self.expr(items, env)}"

    def _choose(self, st: dict, env: dict) -> str:
        by = self.expr(st["by"], env)
        items = st["from"]
        noun = self.noun_of(items, env)
        elem = _elem(self.type_of(items, env))
        phrase = self._own(self._list_of(items, env) if "list" in items else self.expr(items, env), by)
        count = st.get("count", 1)
        different = "different " if st.get("distinct") else ""
        if isinstance(items, dict) and items.get("query") == "numbers":
            what = f"a number from {self.expr(items['args']['from'], env)} to {self.expr(items['args']['to'], env)}"
        elif "list" in items and elem == "int":
            what = f"a number: {phrase}"
        elif count == 1:
            what = f"one of {phrase}"
        else:
            head = f"the {plural(noun)}"
            rest = phrase[len(head):] if phrase.startswith(head) else f" among {phrase}"
            if isinstance(count, int):
                what = f"{count} {different}{plural(noun)}{rest}"
            elif self.expr(count, env) == "that number":
                what = f"that many {different}{plural(noun)}{rest}"
            else:
                what = f"{different}{plural(noun)}{rest}, as many as {self.expr(count, env)}"
        ref = "that number" if elem == "int" else f"that {noun}" if count == 1 else f"each chosen {noun}"
        inner = {**env, st["choose"]: Ref(ref, elem, noun)}
        return f"{verb(by, 'chooses')} {what}; {self.block(st['body'], inner)}"

    @staticmethod
    def _own(phrase: str, chooser: str) -> str:
        """The chooser's own things read "its"/"your": "the highest bidder chooses one of its Footmen"."""
        phrase = phrase.replace(f"controlled by {chooser}", f"under {its(chooser)} control")
        if chooser == "you":
            return phrase
        return phrase.replace(possessive(chooser) + " ", "its ")

    def _list_of(self, items: dict, env: dict) -> str:
        """A literal list of choices: "the Iron Throne, Fiefdoms or King's Court track"."""
        types = {self.type_of(i, env) for i in items["list"]}
        if types == {"deck"}:
            return "Westeros deck " + self.either([i["id"].upper() for i in items["list"]])
        if types == {"track"}:
            names = [self.name(i["id"]) for i in items["list"]]
            return f"the {self.either(names)} track" if len(names) == 1 else f"the {self.either(names, 'and')} tracks"
        return self.either([self.expr(i, env) for i in items["list"]])

    def _may(self, st: dict, env: dict) -> str:
        who = self.expr(st["may"], env)
        cond = f" (only if {self.condition(st['condition'], env)})" if "condition" in st else ""
        body = self.block(st["body"], env)
        does = "do" if who == "you" else "does"
        if "pay" in st:
            text = f"{who} may pay {self.amount(st['pay'], 'power token', env)}{cond}; if {who} {does}, {body}"
        else:
            m = re.match(re.escape(who) + r" (\w+)(.*)$", body, re.S)
            steps = [x for x in st["body"] if "let" not in x]
            if m and m.group(1) not in ("is", "are", "may"):
                # "you choose ..." -> "you may choose ...": the step itself is the option
                base = m.group(1) if who == "you" else verb_only("you", m.group(1))
                first, sep, rest = (re.split(r"([;:] )", m.group(2), maxsplit=1) + ["", ""])[:3]
                if len(steps) > 1 and rest.startswith("then ") and "choose" not in st["body"][0]:
                    # the steps after the first one happen only when the option is taken
                    rest = f"if {who} {'do' if who == 'you' else 'does'}, " + rest[len("then "):]
                text = f"{who} may {base}{first}{cond}{sep}{rest}"
            elif len(steps) == 1 and "if" not in steps[0]:
                text = f"{who} may decide{cond} that {body}"
            else:
                text = f"{who} may decide{cond} to do the following: {body}"
        if st.get("else"):
            text += f"; if {who} {does} not, {self.block(st['else'], env)}"
        return text

    def options(self, options: list, env: dict) -> str:
        parts = []
        for i, o in enumerate(options):
            cond = f" (only if {self.condition(o['if'], env)})" if "if" in o else ""
            parts.append(f"({_LETTERS[i]}) {self.block(o['body'], env)}{cond}")
        return self.either(parts, "or").replace(", (", "; (").replace(" or (", "; or (")

    def ability(self, ab: dict) -> str:
        trig = TRIGGERS.get(ab["trigger"]) or MOMENTS.get(ab["trigger"])  # a card's window or a game moment
        head = trig.english if trig else ab["trigger"]
        env: dict = {}
        self._static = ab["trigger"] == "combat-strength"
        body = self.block(ab["body"], env)
        if "if" in ab:
            cond = self.condition(ab["if"], env)
            several = len([s for s in ab["body"] if "let" not in s]) > 1
            return f"{head}, if {cond}: {body}." if several else f"{head}: if {cond}, {body}."
        return f"{head}: {body}."

    # ---- whole cards ---------------------------------------------------------------------------
    def card(self, section: str, rec: dict) -> str:
        self.conditions, self._static = [], False
        return polish(self._card(section, rec))

    def _card(self, section: str, rec: dict) -> str:
        if section == "house_cards":
            icons = []
            if rec["swords"]:
                icons.append(count_noun(rec["swords"], "sword"))
            if rec["fortifications"]:
                icons.append(count_noun(rec["fortifications"], "fortification"))
            owner = "vassal" if rec.get("vassal") else self.names.get(rec["house"], rec["house"])
            head = f"{rec['name']} ({owner}, strength {rec['strength']}{', ' + ', '.join(icons) if icons else ''})"
            body = " ".join(self.ability(a) for a in rec["abilities"]) or "No text."
            return f"{head}. {body}"
        if section == "westeros_cards":
            head = f"{rec['name']} (Westeros deck {rec['deck'].upper()}, {count_noun(rec['copies'], 'copy')}"
            head += f"{', wildling icon' if rec['wildling_icon'] else ''})"
            banner = ""
            if rec.get("banner"):
                banner = ("Put a loyalty token in " + self.either([self.name(a) for a in rec["banner"]]) + ". ")
            return f"{head}. {banner}{self.block(rec['effect'], top=True)}."
        if section == "wildling_cards":
            win = self.block(rec["lowest_bidder"])
            if rec["everyone_else"]:
                win = (win + "; then " if rec["lowest_bidder"] else "") + self.block(rec["everyone_else"])
            return (f"{rec['name']}. If the wildlings win: {win}. "
                    f"If the Night's Watch wins: {self.block(rec['night_watch_victory'])}.")
        if section == "loans":
            return f"{rec['name']} (loan). {self.block(rec['effect'], top=True)}."
        if section == "objectives":
            points = ", ".join(f"{self.names.get(h, h)} {n}" for h, n in rec["points"].items())
            owner = f"special objective of {self.names.get(rec['special'], rec['special'])}" if rec.get("special") \
                else "objective"
            return (f"{rec['name']} ({owner}). Scored when {self.condition(rec['condition'], {})}. "
                    f"Victory points: {points or 'none'}.")
        if section == "game_abilities":
            body = " ".join(self.ability(a) for a in rec["abilities"]) or "No text."
            return f"{rec['name']} (game ability). {body}"
        if section == "tides_cards":
            parts = [f"{rec['strength']:+d} combat strength"]
            for key, noun in (("swords", "sword icon"), ("fortifications", "fortification icon")):
                if rec.get(key):
                    parts.append(f"{count_noun(rec[key], noun)}, counted with your house card's icons")
            if rec.get("skulls"):
                parts.append(f"{count_noun(rec['skulls'], 'skull')}: your opponent destroys "
                             f"{count_noun(rec['skulls'], 'unit')} of its own that took part in the combat, whether "
                             "it won or lost (fortification icons do not cancel skulls)")
            return f"{rec['name']} (Tides of Battle, {count_noun(rec['copies'], 'copy')}). {cap('; '.join(parts))}."
        return rec.get("name", "")


def _merged_placements(stmts: list) -> list:
    """Consecutive placements that differ only in what is placed read as one: "1 Footman, 1 Knight and 1 Ship"."""
    out: list = []
    for st in stmts:
        prev = out[-1] if out else None
        if prev is not None and st.get("do") == "place-units" and prev.get("do") in ("place-units", "_place-many") \
                and isinstance(st["args"].get("kind"), dict) \
                and {k: v for k, v in st["args"].items() if k not in ("kind", "count")} == prev["_same"]:
            prev["do"] = "_place-many"
            prev["args"]["kinds"].append((st["args"].get("count", 1), st["args"]["kind"]))
            continue
        if st.get("do") == "place-units" and isinstance(st["args"].get("kind"), dict):
            st = {**st, "args": {**st["args"], "kinds": [(st["args"].get("count", 1), st["args"]["kind"])]},
                  "_same": {k: v for k, v in st["args"].items() if k not in ("kind", "count")}}
        out.append(st)
    return [({**st, "do": "place-units"} if st.get("do") == "_place-many" and len(st["args"]["kinds"]) == 1 else st)
            for st in out]


def _uses(node, name: str) -> bool:
    if isinstance(node, dict):
        return node.get("var") == name or any(_uses(v, name) for v in node.values())
    if isinstance(node, list):
        return any(_uses(v, name) for v in node)
    return False


def _elem(type_: str) -> str:
    return type_[5:] if type_.startswith("list:") else type_


class _Default(dict):
    def __missing__(self, key):
        return f"<{key}>"
