"""The Westeros cards, wildling cards and loans of the bundled content against the reference data.

Reads ../shared/reference/game-content.yaml (sections westeros_cards, wildling_cards, loans) and checks
that every card exists with the reference's deck, copies, wildling icon and banner areas; that every deck
holds ten cards; that every wildling card has its three blocks; that the loans place the units, give the
power and put the improvements the reference lists; and that the deck III planning restrictions forbid
exactly the reference's order tokens (base tokens plus the Mother of Dragons tokens).

Card ids are the reference ids as they are: the cards printed in both deck I and deck II carry the deck in
their reference id (last-days-of-summer-i / -ii, winter-is-coming-i / -ii), so no mapping is needed.
"""

from __future__ import annotations

from collections import Counter

import pytest

from .conftest import NO_REFERENCE
from .conftest import REFERENCE as REFERENCE_DIR

yaml = pytest.importorskip("yaml")

REFERENCE = REFERENCE_DIR / "game-content.yaml"
if not REFERENCE.exists():
    pytest.skip(f"reference file {REFERENCE} not found: {NO_REFERENCE}", allow_module_level=True)

DATA = yaml.safe_load(REFERENCE.read_text(encoding="utf-8"))
WESTEROS = {c["id"]: c for c in DATA["westeros_cards"]}
WILDLINGS = {c["id"]: c for c in DATA["wildling_cards"]}
LOANS = {c["id"]: c for c in DATA["loans"]}
DECKS = ("i", "ii", "iii", "iv")
WILDLING_BLOCKS = ("lowest_bidder", "everyone_else", "night_watch_victory")
# decided_by of the reference → the dominance token whose holder decides
DECIDERS = {"iron-throne-holder": "iron-throne", "messenger-raven-holder": "messenger-raven",
            "valyrian-steel-blade-holder": "valyrian-steel-blade"}


# ---- walking compiled effects -------------------------------------------------------------------


def _calls(block: list, name: str):
    """Every call of the effect `name` anywhere in a compiled block."""
    for st in block:
        if st.get("do") == name:
            yield st
        for key in ("then", "else", "body"):
            if isinstance(st.get(key), list):
                yield from _calls(st[key], name)
        for opt in st.get("options", []):
            yield from _calls(opt["body"], name)


def _int(value, what: str) -> int:
    assert isinstance(value, int) and not isinstance(value, bool), f"{what} is not a fixed number: {value!r}"
    return value


def _max(counters: list[Counter]) -> Counter:
    out: Counter = Counter()
    for c in counters:
        for k, v in c.items():
            out[k] = max(out[k], v)
    return out


def _totals(block: list) -> Counter:
    """What a compiled block does at most, by kind: units placed per unit kind, power gained, improvements
    and degradations put, supply track steps. Alternatives (if/else, options, may/else) count as their largest
    branch; a `choose ... count N` or a `for` over a literal list multiplies its body."""
    total: Counter = Counter()
    for st in block:
        if "choose" in st:
            n = _int(st["count"], "a choose count") if "count" in st else 1
            for k, v in _totals(st["body"]).items():
                total[k] += n * v
        elif "for" in st:
            items = st["in"]
            n = len(items["list"]) if isinstance(items, dict) and "list" in items else 1
            for k, v in _totals(st["body"]).items():
                total[k] += n * v
        elif "if" in st and "then" in st:
            total.update(_max([_totals(st["then"]), _totals(st.get("else", []))]))
        elif "may" in st:
            total.update(_max([_totals(st["body"]), _totals(st.get("else", []))]))
        elif "do" in st:
            args = st["args"]
            match st["do"]:
                case "place-units":
                    kind = args["kind"]["id"]
                    total[("units", kind)] += _int(args.get("count", 1), "a place-units count")
                case "move-supply":
                    total[("supply",)] += _int(args["steps"], "a move-supply step")
                case "gain-power":
                    total[("power",)] += _int(args["amount"], "a gain-power amount")
                case "improve":
                    total[("improvements",)] += 1
                case "degrade":
                    total[("degradations",)] += 1
                case "choose-one":
                    total.update(_max([_totals(opt["body"]) for opt in st["options"]]))
    return total


def _forbidden(block: list) -> list[str]:
    return [item["id"] for call in _calls(block, "forbid-orders") for item in call["args"]["types"]["list"]]


# ---- Westeros cards -----------------------------------------------------------------------------


def test_westeros_card_ids_are_the_reference_ids(bundle):
    assert set(bundle["westeros_cards"]) == set(WESTEROS)


@pytest.mark.parametrize("card_id", sorted(WESTEROS))
def test_westeros_card_matches_the_reference(bundle, card_id):
    ref = WESTEROS[card_id]
    card = bundle["westeros_cards"].get(card_id)
    assert card is not None, f"westeros card {card_id} is missing"
    assert card["name"] == ref["name"]
    assert card["deck"] == ref["deck"].lower()
    assert card["copies"] == ref["copies"]
    assert card["wildling_icon"] == ref["wildling_icon"]
    assert card["banner"] == (ref.get("loyalty_areas") or [])


@pytest.mark.parametrize("card_id", sorted(c for c in WESTEROS if WESTEROS[c].get("options")))
def test_westeros_choice_has_the_reference_options_and_decider(bundle, card_id):
    ref = WESTEROS[card_id]
    choices = list(_calls(bundle["westeros_cards"][card_id]["effect"], "choose-one"))
    assert len(choices) == 1
    assert [o["option"] for o in choices[0]["options"]] == [o["key"] for o in ref["options"]]
    by = choices[0]["args"]["by"]
    token = {"node": "id", "id": DECIDERS[ref["decided_by"]], "type": "dominance-token"}
    assert by == {"node": "query", "query": "holder", "args": {"token": token}}


@pytest.mark.parametrize("deck", DECKS)
def test_every_westeros_deck_holds_ten_cards(bundle, deck):
    cards = [c for c in bundle["westeros_cards"].values() if c["deck"] == deck]
    assert sum(c["copies"] for c in cards) == 10
    assert sum(c["copies"] for c in WESTEROS.values() if c["deck"].lower() == deck) == 10


@pytest.mark.parametrize("card_id", sorted(c for c in WESTEROS if WESTEROS[c]["deck"] == "III"))
def test_deck_iii_restrictions_forbid_the_reference_orders(bundle, card_id):
    ref = WESTEROS[card_id]
    effect = bundle["westeros_cards"][card_id]["effect"]
    if ref.get("options"):
        choices = list(_calls(effect, "choose-one"))
        options = {o["option"]: o for o in choices[0]["options"]}
        for opt in ref["options"]:
            expected = opt.get("forbids", []) + opt.get("forbids_mod_tokens", [])
            got = _forbidden(options[opt["key"]]["body"])
            assert sorted(got) == sorted(expected), f"option {opt['key']}"
    elif (ref.get("planning_restriction") or {}).get("type") == "forbid":
        r = ref["planning_restriction"]
        assert sorted(_forbidden(effect)) == sorted(r["forbids"] + r.get("forbids_mod_tokens", []))
    else:
        assert _forbidden(effect) == []
    for token in _forbidden(effect):
        assert token in bundle["orders"], f"{token} is not a declared order token"


# ---- wildling cards -----------------------------------------------------------------------------


def test_wildling_card_ids_are_the_reference_ids(bundle):
    assert set(bundle["wildling_cards"]) == set(WILDLINGS)


@pytest.mark.parametrize("card_id", sorted(WILDLINGS))
def test_wildling_card_has_its_three_blocks(bundle, card_id):
    card = bundle["wildling_cards"].get(card_id)
    assert card is not None, f"wildling card {card_id} is missing"
    assert card["name"] == WILDLINGS[card_id]["name"]
    for block in WILDLING_BLOCKS:
        assert isinstance(card.get(block), list), f"{card_id} lacks its {block} block"


# ---- loans --------------------------------------------------------------------------------------


def test_loan_ids_are_the_reference_ids(bundle):
    assert set(bundle["loans"]) == set(LOANS)


@pytest.mark.parametrize("loan_id", sorted(LOANS))
def test_loan_gives_what_the_reference_lists(bundle, loan_id):
    ref = LOANS[loan_id]
    loan = bundle["loans"].get(loan_id)
    assert loan is not None, f"loan {loan_id} is missing"
    assert loan["name"] == ref["name"]
    totals = _totals(loan["effect"])
    placed = {k[1]: v for k, v in totals.items() if k[0] == "units"}
    assert placed == (ref.get("units_placed") or {})
    assert totals[("power",)] == ref.get("power_gained", 0)
    assert totals[("supply",)] == ref.get("supply_track_change", 0)
    assert totals[("improvements",)] == sum(i["count"] for i in ref.get("improvements_placed") or [])
    assert totals[("degradations",)] == sum(i["count"] for i in ref.get("degradations_placed") or [])
