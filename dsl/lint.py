"""Lint: warnings about content that compiles but is probably not what the author meant.

- card sets no rules set or variant uses (unreachable), and declared sets with no cards;
- a house's deck in a set that does not have the usual number of cards (a card missing);
- a deck whose strengths differ from every other deck of the content (icons vary between real decks);
- conditions that can never hold (a constant false, `is-winner(x) and is-loser(x)`, ...);
- names bound by `let`, `for` or `choose` and never used.
"""

from __future__ import annotations

from collections import Counter

from .diagnostics import Diagnostics, Span
from .effect_tree import kind, walk

_NEVER_BOTH = {("is-winner", "is-loser"), ("is-attacker", "is-defender")}


def _span(where: str | None) -> Span | None:
    return Span.parse(where)


def lint(bundle: dict, diags: Diagnostics) -> None:
    _card_sets(bundle, diags)
    for section in ("house_cards", "westeros_cards", "wildling_cards", "loans"):
        for cid, rec in bundle.get(section, {}).items():
            blocks = []
            for ab in rec.get("abilities", []):
                if "if" in ab and _never(ab["if"]):
                    diags.warning("never-holds", f"{cid}: the condition of this ability can never hold",
                                  _span(ab.get("at")), "check the condition: it is always false")
                blocks.append((ab["body"], ab.get("at")))
            for key in ("effect", "lowest_bidder", "everyone_else", "night_watch_victory"):
                if isinstance(rec.get(key), list):
                    blocks.append((rec[key], rec.get("source")))
            for block, at in blocks:
                _statements(cid, block, at, diags)


def _card_sets(bundle: dict, diags: Diagnostics) -> None:
    cards = bundle.get("house_cards", {})
    used = set()
    for g in bundle.get("games", {}).values():
        used.update(g.get("house_card_sets") or [])
        if g.get("vassal_card_set"):
            used.add(g["vassal_card_set"])
    for v in bundle.get("variants", {}).values():
        used.update(v.get("house_card_sets") or [])
        if v.get("vassal_card_set"):
            used.add(v["vassal_card_set"])
        for g in v.get("patches", {}).get("games", {}).values():
            used.update(g.get("house_card_sets") or [])
    decks: dict[tuple[str, str], list[dict]] = {}
    for sid, rec in bundle.get("card_sets", {}).items():  # a set lists its cards (derived sets included)
        for cid in rec.get("cards", []):
            c = cards[cid]
            decks.setdefault((sid, c["house"] or "vassal"), []).append(c)
    sizes = Counter(len(d) for d in decks.values())
    usual = sizes.most_common(1)[0][0] if sizes else 7
    strengths = Counter(_shape(d)[0] for d in decks.values())
    for sid, rec in bundle.get("card_sets", {}).items():
        if not rec.get("cards"):
            diags.warning("empty-set", f"card set '{sid}' has no cards", _span(rec.get("source")))
        elif sid not in used:
            diags.warning("unreachable-set", f"card set '{sid}' is used by no rules set or variant",
                          _span(rec.get("source")), "name it in a game's or a variant's house-card-sets")
    for (sid, house), deck in sorted(decks.items()):
        first = _span(min(deck, key=lambda c: c["source"])["source"])
        if len(deck) != usual:
            diags.warning("deck-size", f"{house}'s deck in set '{sid}' has {len(deck)} cards, not {usual}", first,
                          "is a card missing, or one too many?")
        elif strengths[_shape(deck)[0]] == 1 and len(strengths) > 1:
            diags.warning("unusual-deck", f"{house}'s deck in set '{sid}' has strengths unlike any other deck: "
                          f"{_describe(deck)}", first, "compare with the other decks (maester diff)")


def _shape(deck: list[dict]) -> tuple:
    return (tuple(sorted(c["strength"] for c in deck)), sum(c["swords"] for c in deck),
            sum(c["fortifications"] for c in deck))


def _describe(deck: list[dict]) -> str:
    strengths, swords, forts = _shape(deck)
    return f"strengths {list(strengths)}, {swords} swords, {forts} fortifications"


def _never(expr) -> bool:
    """A condition that is false whatever the game: constants, and pairs that exclude each other."""
    if expr is False:
        return True
    if kind(expr) != "op":
        return False
    op, args = expr["op"], expr["args"]
    if op == "and":
        if _never(args[0]) or _never(args[1]):
            return True
        a, b = args
        if all(kind(x) == "query" for x in (a, b)):
            pair = tuple(sorted((a["query"], b["query"])))
            if pair in {tuple(sorted(p)) for p in _NEVER_BOTH} and a["args"] == b["args"]:
                return True
        return False
    if op == "or":
        return _never(args[0]) and _never(args[1])
    if op == "not":
        return args[0] is True
    if op in ("<", "<=", ">", ">=", "==", "!=") and all(isinstance(x, int) and not isinstance(x, bool)
                                                         for x in args):
        a, b = args
        return not {"<": a < b, "<=": a <= b, ">": a > b, ">=": a >= b, "==": a == b, "!=": a != b}[op]
    return False


def _statements(cid: str, block: list, at: str | None, diags: Diagnostics) -> None:
    for st in block:
        where = st.get("at") or at
        node = kind(st)
        if node == "if" and _never(st["if"]):
            diags.warning("never-holds", f"{cid}: this condition can never hold", _span(where))
        for binder in ("let", "for", "choose"):
            repeat = binder == "for" and kind(st.get("in")) == "list" and all(
                isinstance(x, int) for x in st["in"]["list"] or [None])  # `for i in [1, 2]`: do it twice
            if node == binder and not repeat:
                name = st[binder]
                rest = st.get("body", []) if binder != "let" else block[block.index(st) + 1:]
                if not _uses(rest, name):
                    diags.warning("unused-name", f"{cid}: '{name}' is never used", _span(where),
                                  "use it, or drop it")
        for key in ("then", "else", "body"):
            if isinstance(st.get(key), list):
                _statements(cid, st[key], where, diags)
        for opt in st.get("options", []):
            _statements(cid, opt["body"], where, diags)


def _uses(node, name: str) -> bool:
    return any(kind(n) == "var" and n["var"] == name for n in walk(node))
