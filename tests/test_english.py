"""Card text is generated from the compiled effects; every amount, condition and choice shows in it."""

from __future__ import annotations

import pytest

from maester.dsl.english import English, plural

SECTIONS = ("house_cards", "westeros_cards", "wildling_cards", "loans")


def _walk(node, found):
    """Numbers, ids, choices and conditions of a compiled effect."""
    if isinstance(node, bool):
        return
    if isinstance(node, int):
        found["numbers"].add(node)
        return
    if isinstance(node, list):
        for item in node:
            _walk(item, found)
        return
    if not isinstance(node, dict):
        return
    if node.get("op") in _SAID_IN_WORDS and isinstance(node["args"][0], dict) \
            and node["args"][0].get("query") in _SAID_IN_WORDS[node["op"]]:
        # "there is at least one ...", "is not in the first position": the number is said in words
        _walk(node["args"][0], found)
        return
    if "for" in node and "list" in node["in"] and all(isinstance(i, int) for i in node["in"]["list"]):
        _walk(node["body"], found)  # "twice: ...": a loop over numbers says how many times
        return
    if node.get("op") == "*" and 2 in node["args"]:
        _walk([a for a in node["args"] if a != 2], found)  # "twice ..."
        return
    if "id" in node and "type" in node and node["type"] != "role":  # roles are said as a phrase
        found["ids"].add(node["id"])
    if "choose" in node:
        found["choices"] += 1
    if "may" in node:
        found["mays"] += 1
    if "if" in node or "condition" in node:
        found["conditions"] += 1
    for key, value in node.items():
        if key not in ("at", "source"):
            _walk(value, found)


# comparisons whose number the text says in words (their condition is checked in test_card_text.py)
_SAID_IN_WORDS = {">": {"count", "available-units", "position"}, ">=": {"count"}, "==": {"count", "position"}}


def _cards(bundle):
    return [(s, cid) for s in SECTIONS for cid in sorted(bundle[s])]


def test_every_card_renders_without_gaps(bundle):
    english = English(bundle)
    for section, cid in _cards(bundle):
        text = english.card(section, bundle[section][cid])
        assert "<" not in text, f"{cid}: {text}"
        assert bundle[section][cid]["name"] in text


@pytest.mark.parametrize("section", SECTIONS)
def test_renderings_mention_every_amount_condition_and_choice(bundle, section):
    english = English(bundle)
    problems = []
    for cid in sorted(bundle[section]):
        rec = bundle[section][cid]
        effect = rec.get("abilities") or [rec.get(k) for k in ("effect", "lowest_bidder", "everyone_else",
                                                                "night_watch_victory") if rec.get(k) is not None]
        found = {"numbers": set(), "ids": set(), "choices": 0, "mays": 0, "conditions": 0}
        _walk(effect, found)
        text = english.card(section, rec)
        low = text.lower()
        for n in found["numbers"]:
            if str(abs(n)) not in text:  # "moves down 2 spaces" says -2
                problems.append(f"{cid}: the amount {n} is missing")
        for ident in found["ids"]:
            name = english.names.get(ident, ident.replace("-", " "))
            if name.lower() not in low and plural(name).lower() not in low:
                problems.append(f"{cid}: '{name}' is missing")
        if found["choices"] and "choose" not in low:
            problems.append(f"{cid}: a choice is not said")
        if found["mays"] and "may" not in low:
            problems.append(f"{cid}: an optional step is not said")
        if found["conditions"] and not any(w in low for w in ("if ", "only if", "while", "when")):
            problems.append(f"{cid}: a condition is not said")
    assert not problems, "\n".join(problems[:40])
