"""Card text from the rules: an English rendering of compiled effects, built from the registry's
templates — never stored text — so what a card says and what it does cannot drift apart.

A primitive without an English template would render as `<primitive:name>`; the registry test makes
sure that never happens.
"""

from __future__ import annotations

import re

from .registry import PRIMITIVES, TRIGGERS

_VAR_WORDS = {
    "you": "you", "opponent": "your opponent", "embattled-area": "the embattled area", "this-card": "this card",
    "your-card": "your card", "opponent-card": "your opponent's card", "attacker": "the attacker",
    "defender": "the defender", "march-origin": "the area the attack came from", "buyer": "you",
    "lowest-bidder": "the lowest bidder", "highest-bidder": "the highest bidder",
    "everyone-else": "every other bidder", "wildling-strength": "the wildling strength",
}
_OPS = {"==": "is", "!=": "is not", "<": "is less than", "<=": "is at most", ">": "is more than",
        ">=": "is at least", "+": "plus", "-": "minus", "*": "times"}


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

    # ---- expressions
    def expr(self, x) -> str:
        if isinstance(x, bool):
            return "yes" if x else "no"
        if isinstance(x, int):
            return str(x)
        if "var" in x:
            return _VAR_WORDS.get(x["var"], x["var"])
        if "id" in x:
            return self.names.get(x["id"], x["id"].replace("-", " "))
        if "text" in x:
            return f"“{x['text']}”"
        if "list" in x:
            items = [self.expr(i) for i in x["list"]]
            if not items:
                return "nothing"
            return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " or " + items[-1]
        if "query" in x:
            return self.call(x["query"], x["args"])
        op, args = x["op"], x["args"]
        if op == "not":
            return f"not ({self.expr(args[0])})"
        if op == "neg":
            return f"minus {self.expr(args[0])}"
        if op in ("and", "or"):
            return f"{self.expr(args[0])} {op} {self.expr(args[1])}"
        return f"{self.expr(args[0])} {_OPS[op]} {self.expr(args[1])}"

    def call(self, name: str, args: dict) -> str:
        prim = PRIMITIVES.get(name)
        if prim is None:
            return f"<primitive:{name}>"
        words = {}
        for p in prim.params:
            value = args.get(p.name)
            # say every number and word, even defaults; leave out only what is empty or off
            absent = value is None or value == {"list": []} or value is False
            words[p.name] = "" if absent and not p.required else self.expr(value) if value is not None else ""
        if "by" in words and not words["by"]:
            words["by"] = words.get("house", "")  # the house acts for itself unless told otherwise
        text = prim.english
        # an optional part written right after a word ("units{in}") reads " in X" when given
        for p in prim.params:
            glued = re.search(r"\S\{" + re.escape(p.name) + r"\}", text)
            if glued and words[p.name]:
                words[p.name] = f" {p.name.replace('-', ' ')} {words[p.name]}"
        try:
            out = text.format_map(_Default(words))
        except (KeyError, IndexError, ValueError):
            return f"<primitive:{name}>"
        return re.sub(r"\s+", " ", out).strip()

    # ---- statements
    def block(self, stmts: list) -> str:
        parts = [self.statement(s) for s in stmts]
        return "; then ".join(p for p in parts if p) or "nothing happens"

    def statement(self, st: dict) -> str:
        if "do" in st:
            text = self.call(st["do"], st["args"])
            if "options" in st:
                text += ": " + "; ".join(
                    f"({o['option']}) {o['text']}" + (f" [only if {self.expr(o['if'])}]" if "if" in o else "")
                    + f" — {self.block(o['body'])}" for o in st["options"])
            return text
        if "if" in st:
            text = f"if {self.expr(st['if'])}, {self.block(st['then'])}"
            if "else" in st:
                text += f"; otherwise {self.block(st['else'])}"
            return text
        if "for" in st:
            return f"for each {st['for']} among {self.expr(st['in'])}: {self.block(st['body'])}"
        if "choose" in st:
            count = f"{self.expr(st['count'])} " if "count" in st else ""
            distinct = " different" if st.get("distinct") else ""
            return (f"{self.expr(st['by'])} chooses {count}{distinct}{st['choose']} among {self.expr(st['from'])}, "
                    f"then {self.block(st['body'])}").replace("  ", " ")
        if "may" in st:
            who = self.expr(st["may"])
            cond = f" (only if {self.expr(st['condition'])})" if "condition" in st else ""
            if "pay" in st:
                text = f"{who} may pay {self.expr(st['pay'])} power{cond}; if so, {self.block(st['body'])}"
            else:
                text = f"{who} may choose{cond} that {self.block(st['body'])}"
            if "else" in st:
                text += f"; if not, {self.block(st['else'])}"
            return text
        if "let" in st:
            return f"let {st['let']} be {self.expr(st['value'])}"
        return "<statement>"

    def ability(self, ab: dict) -> str:
        trig = TRIGGERS.get(ab["trigger"])
        head = trig.english if trig else ab["trigger"]
        cond = f"if {self.expr(ab['if'])}, " if "if" in ab else ""
        return f"{head}: {cond}{self.block(ab['body'])}."

    # ---- whole cards
    def card(self, section: str, rec: dict) -> str:
        return polish(self._card(section, rec))

    def _card(self, section: str, rec: dict) -> str:
        if section == "house_cards":
            icons = []
            if rec["swords"]:
                icons.append(f"{rec['swords']} sword{'s' if rec['swords'] > 1 else ''}")
            if rec["fortifications"]:
                icons.append(f"{rec['fortifications']} fortification{'s' if rec['fortifications'] > 1 else ''}")
            owner = "vassal" if rec.get("vassal") else self.names.get(rec["house"], rec["house"])
            head = f"{rec['name']} ({owner}, strength {rec['strength']}{', ' + ', '.join(icons) if icons else ''})"
            body = " ".join(self.ability(a) for a in rec["abilities"]) or "No text."
            return f"{head}. {body}"
        if section == "westeros_cards":
            head = f"{rec['name']} (Westeros deck {rec['deck'].upper()}, {rec['copies']} "
            head += f"cop{'ies' if rec['copies'] > 1 else 'y'}{', wildling icon' if rec['wildling_icon'] else ''})"
            banner = ""
            if rec.get("banner"):
                banner = "Put a loyalty token in " + self.expr({"list": [{"id": a} for a in rec["banner"]]}) + ". "
            return f"{head}. {banner}{self._cap(self.block(rec['effect']))}."
        if section == "wildling_cards":
            return (f"{rec['name']}. Wildlings win — lowest bidder: {self.block(rec['lowest_bidder'])}. "
                    f"Everyone else: {self.block(rec['everyone_else'])}. "
                    f"Night's Watch wins — highest bidder: {self.block(rec['night_watch_victory'])}.")
        if section == "loans":
            return f"{rec['name']} (loan). {self._cap(self.block(rec['effect']))}."
        return rec.get("name", "")

    @staticmethod
    def _cap(text: str) -> str:
        return text[:1].upper() + text[1:]


_YOU_VERBS = {"is": "are", "has": "have", "wins": "win", "loses": "lose", "gains": "gain", "gets": "get",
              "chooses": "choose", "discards": "discard", "takes": "take", "moves": "move", "musters": "muster",
              "reveals": "reveal", "destroys": "destroy", "places": "place", "looks": "look", "controls": "control"}


def polish(text: str) -> str:
    """Agreement for "you" and small repetitions the templates produce."""
    text = re.sub(r"\b(you|You) (\w+)\b", lambda m: f"{m.group(1)} {_YOU_VERBS.get(m.group(2), m.group(2))}", text)
    text = re.sub(r"\b(\w[\w' ]*?) may choose that \1 (\w+)", lambda m: f"{m.group(1)} may {_base(m.group(2))}",
                  text)
    text = re.sub(r" of in this combat", " in this combat", text)
    text = text.replace("you's", "your").replace("You's", "Your")
    return re.sub(r"\s+", " ", text)


def _base(verb: str) -> str:
    return _YOU_VERBS.get(verb, verb)


class _Default(dict):
    def __missing__(self, key):
        return f"<{key}>"
