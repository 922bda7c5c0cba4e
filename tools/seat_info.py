"""What a seat at the table is told, in words: the question (naming the card or rule that asks, with area
names), each legal answer, the text of every card at stake, the combat under way, and what happened since the
house's last decision. Shared by the terminal seat (tools/human.py) and the browser seat (tools/serve.py).

Only what the house may know: other houses' face-down orders, bids and house cards stay hidden until revealed
(the events carry a `secret` only for the house it names), as in env/observe.py.
"""

from __future__ import annotations

import re

from maester.interpreter.core.decisions import Decision
from maester.interpreter.procedures.game import Game

CARD_SECTIONS = ("house_cards", "westeros_cards", "wildling_cards", "loans", "tides_cards")
# the events that are headlines in a digest (the rest is detail a player can ask for)
DIGEST_TYPES = {"round", "phase", "westeros-card", "wildling-card", "wildlings", "wildlings-win", "wildlings-lose",
                "bids", "track", "reveal-orders", "march", "combat", "reveal", "combat-result", "retreat", "raid",
                "consolidate", "muster", "support", "supply", "victory", "destroy", "advance", "choice",
                "look", "look-hand", "look-orders"}  # a look: only its house reads it, with what it saw
REVEAL_EVENT = "reveal"  # the house cards of a combat turned face up (R20.1)
_ID = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)*")


def name_of(game: Game, ident: str) -> str:
    """The English name of an id of the bundle (area, card, house, order, unit), or the id itself."""
    rules = game.rules
    if ident in game.board.graph:
        return game.board.area(ident).name
    if ident in rules.unit_kinds:
        return str(rules.unit_kinds[ident].get("name") or ident)
    for section in ("orders", *CARD_SECTIONS, "houses", "tracks"):
        rec = rules.bundle.get(section, {}).get(ident)
        if rec:
            return str(rec.get("name") or ident)
    return ident


def with_names(game: Game, text: str) -> str:
    """A text with the area and card ids it mentions replaced by their names (houses stay as they are)."""
    def swap(m: re.Match) -> str:
        word = m.group(0)
        if "-" not in word and word not in game.board.graph:
            return word  # plain words ("bid", "done") and houses read well already
        return name_of(game, word)
    return _ID.sub(swap, text)


def asker(game: Game, d: Decision) -> str:
    """What asks: the card named in the decision's context, else the rule."""
    card = d.info.get("card")
    if isinstance(card, str) and card:
        return f"{name_of(game, card)} ({d.rule})" if d.rule else name_of(game, card)
    return f"rule {d.rule}" if d.rule else ""


def question(game: Game, d: Decision) -> str:
    """The prompt in words: names for ids, and what asks it."""
    who = asker(game, d)
    return with_names(game, d.prompt) + (f" — asked by {who}" if who else "")


def option_areas(game: Game, option) -> list[str]:
    """The areas an answer names (to pick it on the map); a unit `AREA#INDEX` (a `choose` answer) names its area."""
    if not isinstance(option, str):
        return []
    parts = (p.rpartition("#")[0] or p for p in option.split(":"))
    return [p for p in parts if p in game.board.graph]


def describe_answer(game: Game, d: Decision, answer) -> str:
    """One legal answer said in words (e.g. `footman:kingswood` -> move a Footman to Kingswood)."""
    if isinstance(answer, int) and not isinstance(answer, bool):
        return {"influence-bid": f"bid {answer} power", "wildling-bid": f"bid {answer} power",
                "replace-ships": f"replace {answer} ship(s)"}.get(d.kind, str(answer))
    text = str(answer)
    parts = text.split(":")
    n = [name_of(game, p) for p in parts]
    if d.kind == "march" and len(parts) == 2:
        return f"move a {n[0]} to {n[1]}"
    if d.kind in ("muster", "place-unit") and len(parts) == 2:
        return f"{'muster' if d.kind == 'muster' else 'place'} a {n[0]} in {n[1]}"
    if d.kind == "muster" and parts[0] == "upgrade" and len(parts) == 4:
        return f"upgrade a {n[1]} to a {n[2]} in {n[3]}"
    if d.kind in ("reconcile", "destroy-unit", "interest-loss") and len(parts) == 2:
        return f"destroy a {n[1]} in {n[0]}"
    if d.kind == "vassal-order" and len(parts) == 2:
        return f"{n[1]} in {n[0]}"
    if d.kind == "messenger-raven" and parts[0] == "replace" and len(parts) == 3:
        return f"replace your order in {n[1]} by {n[2]}"
    if d.kind == "choose-one" and isinstance(d.info.get("texts"), dict) and text in d.info["texts"]:
        return f"({text}) {d.info['texts'][text]}"
    if d.kind == "house-card" and text in game.rules.bundle["house_cards"]:
        card = game.rules.bundle["house_cards"][text]
        return f"{card['name']} (strength {card['strength']}, swords {card['swords']}, forts {card['fortifications']})"
    if text in game.rules.bundle.get("orders", {}):
        return order_words(game, text)
    return " ".join(n)


def order_words(game: Game, order_id: str) -> str:
    """An order token as its face reads: its name, bonus and star (every special order is labelled)."""
    rec = game.rules.bundle["orders"][order_id]
    bits = [str(rec.get("name") or order_id)]  # the name carries the bonus ("March +1")
    if rec.get("star"):
        bits.append("— special order ★")
    return " ".join(bits)


_ENGLISH: dict[int, tuple[dict, object]] = {}


def _english(bundle: dict):
    """One card-text renderer per bundle (kept with its bundle, so an id is never reused for another)."""
    from maester.dsl.english import English

    found = _ENGLISH.get(id(bundle))
    if found is None or found[0] is not bundle:
        found = _ENGLISH[id(bundle)] = (bundle, English(bundle))
    return found[1]


def card_text(game: Game, card_id: str) -> dict | None:
    """A card's name, numbers and English text (generated from its effect: dsl/english.py)."""
    bundle = game.rules.bundle
    for section in CARD_SECTIONS:
        rec = bundle.get(section, {}).get(card_id)
        if rec:
            out = {"id": card_id, "name": rec.get("name") or card_id, "section": section,
                   "text": _english(bundle).card(section, rec)}
            for key in ("strength", "swords", "fortifications"):
                if key in rec:
                    out[key] = rec[key]
            return out
    return None


def cards_at_stake(game: Game, d: Decision) -> list[dict]:
    """Every card a decision is about: the options of a house-card choice, or the card that asks."""
    ids = [o for o in d.options if isinstance(o, str) and o in game.rules.bundle["house_cards"]] \
        if d.kind == "house-card" else []
    card = d.info.get("card")
    if isinstance(card, str) and card not in ids:
        ids.insert(0, card)
    return [c for c in (card_text(game, i) for i in ids) if c]


def _find_combat(step) -> dict | None:
    if isinstance(step, dict):
        if isinstance(step.get("combat"), dict):
            return step["combat"]
        for v in step.values():
            found = _find_combat(v)
            if found:
                return found
    elif isinstance(step, list):
        for v in step:
            found = _find_combat(v)
            if found:
                return found
    return None


def combat_panel(game: Game, house: str) -> dict | None:
    """The combat under way as `house` may see it: where, who, the armies, supports, strengths, and the house
    cards (another house's only once revealed) with their Tides of Battle cards."""
    c = _find_combat(game.state.step)
    if not c or not c.get("area"):
        return None
    start = max((i for i, e in enumerate(game.events) if e["type"] == "combat"), default=None)
    since = game.events[start:] if start is not None else []
    revealed = any(e["type"] == REVEAL_EVENT for e in since)
    strengths = next((e.get("strengths") for e in reversed(since) if e["type"] == "initial-strength"), None)
    final = c.get("final") or {}
    sides = {}
    for role in ("attacker", "defender"):
        h = c.get(role)
        if not h:
            continue
        card = (c.get("cards") or {}).get(h)
        shown = card if (revealed or h == house or game.actor(h) == house) else None
        army = c.get("attacking") if role == "attacker" else \
            (game.state.units.get(c["area"]) or {}).get("units", [])
        sides[role] = {"house": h, "units": [u[0] for u in army or []],
                       "card": card_text(game, shown) if shown else None, "card_hidden": bool(card and not shown),
                       "strength": (strengths or {}).get(h), "final": final.get(h),
                       "tides": (c.get("tides") or {}).get(h) if revealed else None}
    support = {str(k): v for k, v in (c.get("support") or {}).items()}
    return {"area": c["area"], "area_name": name_of(game, c["area"]), "origin": c.get("origin"),
            "stage": c.get("stage"), "sides": sides, "support": support, "winner": c.get("winner")}


def combat_lines(panel: dict) -> list[str]:
    """The combat panel as lines of text (the terminal seat)."""
    lines = [f"combat in {panel['area_name']} ({panel.get('stage') or ''})"]
    for role, side in panel["sides"].items():
        card = side["card"]["name"] if side["card"] else ("a card, face down" if side["card_hidden"] else "no card yet")
        bits = [f"{role} {side['house']}: {', '.join(side['units']) or 'no units'}"]
        if side["strength"] is not None:
            bits.append(f"strength {side['strength']}")
        if side["final"] is not None:
            bits.append(f"final {side['final']}")
        bits.append(card)
        if side.get("tides"):
            bits.append(f"tides {side['tides']}")
        lines.append("  " + "; ".join(bits))
    if panel["support"]:
        lines.append("  supports: " + ", ".join(f"{k} -> {v}" for k, v in panel["support"].items()))
    return lines


def visible_events(game: Game, house: str, start: int) -> list[dict]:
    """The events from `start` on that `house` may read (an event with a secret: only the house it names)."""
    out = []
    for e in game.events[start:]:
        if "secret" in e:
            owner = e.get("house")
            if owner != house and (owner is None or game.actor(owner) != house):
                continue
        out.append(e)
    return out


def _seen(game: Game, event: dict) -> str:
    """What a look showed its house (the event's secret, which `visible_events` gives that house only)."""
    secret = event.get("secret") if event["type"].startswith("look") else None
    if not secret:
        return ""
    if "orders" in secret:
        return ": " + ", ".join(f"{name_of(game, a)} {name_of(game, o)}" for a, o in secret["orders"].items())
    return ": " + ", ".join(name_of(game, c) for c in secret.get("cards", []))


def digest(game: Game, house: str, start: int, limit: int = 40) -> list[str]:
    """What happened since `start` (the events at the house's last decision), headlines only, in names."""
    lines = [f"{e.get('rule', '')} {with_names(game, e.get('text', ''))}".strip() + _seen(game, e)
             for e in visible_events(game, house, start) if e["type"] in DIGEST_TYPES]
    if len(lines) > limit:
        lines = [f"... {len(lines) - limit} earlier lines", *lines[-limit:]]
    return lines
