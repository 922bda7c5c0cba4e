"""Card text: the reviewed golden text of every card of every set, and the slips no card text may make.

The golden files (tests/golden/cards/*.yaml, card id -> text, one file per set or deck) hold the text
`maester card` and the docs gallery print. A change of the renderer or of a card shows as a diff here;
after reviewing it, rewrite the files with

    MAESTER_UPDATE_GOLDEN=1 python -m pytest tests/test_card_text.py      (or: --update-golden)

The quality checks read every card's text: no bound name or argument name of the DSL, no doubled word
or phrase, numbers agreeing with their nouns, no words run together, and every condition said.
"""

from __future__ import annotations

import ast
import copy
import difflib
import os
import re
from pathlib import Path

import pytest
import yaml

from maester.dsl.english import English, plural
from maester.dsl.registry import PRIMITIVES, TRIGGERS

REPO = Path(__file__).resolve().parents[1]
GOLDEN = REPO / "tests" / "golden" / "cards"
SECTIONS = ("house_cards", "westeros_cards", "wildling_cards", "loans", "tides_cards")
EFFECT_KEYS = ("abilities", "effect", "lowest_bidder", "everyone_else", "night_watch_victory")

# nouns the texts count: "1 X" must be singular, "2 X" plural
COUNTED = ["extra sword icon", "extra fortification icon", "sword icon", "fortification icon", "icon", "space", "place", "power token", "token", "card",
           "house card", "unit", "area", "house", "copy", "sword", "fortification", "skull", "order token",
           "loyalty token", "number", "bidder", "Footman", "Knight", "Ship", "Siege Engine", "Dragon"]
# arguments named like the word that introduces them in English ("in that area", "from 0 to 4")
PREPOSITIONS = {"in", "from", "to", "by", "among", "near", "with", "controlled-by"}
# a flag argument set in an effect, and the words that must say it
FLAG_WORDS = {("uncontrolled", True): "controlled by no house", ("neutral-force", False): "no neutral force",
              ("neutral-force", True): "a neutral force", ("random", True): "at random",
              ("except-skulls", True): "skulls still destroy", ("reverse", True): "reverse turn order",
              ("same-area", True): "same area", ("ports", True): "ports", ("distinct", True): "different"}


def _groups(bundle: dict) -> dict[str, list[tuple[str, str]]]:
    """Golden file name -> (section, card id) of the cards it holds."""
    out: dict[str, list[tuple[str, str]]] = {}
    for cid, rec in sorted(bundle["house_cards"].items()):
        out.setdefault(f"house-{rec['set']}.yaml", []).append(("house_cards", cid))
    for cid, rec in sorted(bundle["westeros_cards"].items()):
        out.setdefault(f"westeros-{rec['deck']}.yaml", []).append(("westeros_cards", cid))
    for section, name in (("wildling_cards", "wildlings.yaml"), ("loans", "loans.yaml"),
                          ("tides_cards", "tides-of-battle.yaml")):
        out[name] = [(section, cid) for cid in sorted(bundle[section])]
    return out


def _update(request) -> bool:
    return bool(os.environ.get("MAESTER_UPDATE_GOLDEN")) or request.config.getoption("--update-golden")


@pytest.fixture(scope="module")
def english(bundle) -> English:
    return English(bundle)


def _golden_ids(bundle):
    return sorted(_groups(bundle))


def test_golden_files_cover_every_card_and_nothing_else(bundle, request):
    groups = _groups(bundle)
    if _update(request):
        GOLDEN.mkdir(parents=True, exist_ok=True)
        for stale in set(p.name for p in GOLDEN.glob("*.yaml")) - set(groups):
            (GOLDEN / stale).unlink()
    present = sorted(p.name for p in GOLDEN.glob("*.yaml"))
    assert present == sorted(groups), f"golden files {present} != sets {sorted(groups)}"
    assert sum(len(v) for v in groups.values()) == sum(len(bundle[s]) for s in SECTIONS)


@pytest.mark.parametrize("name", ["house-base.yaml", "house-mod-arryn.yaml", "house-mod-targaryen-a.yaml",
                                  "house-mod-targaryen-b.yaml", "house-mod-vassal.yaml", "house-adwd.yaml",
                                  "house-ffc-arryn.yaml", "house-asos.yaml", "westeros-i.yaml", "westeros-ii.yaml",
                                  "westeros-iii.yaml", "westeros-iv.yaml", "wildlings.yaml", "loans.yaml",
                                  "tides-of-battle.yaml"])
def test_card_text_matches_the_reviewed_golden_text(bundle, english, request, name):
    cards = _groups(bundle).get(name)
    assert cards, f"no card belongs in {name}"
    now = {cid: english.card(section, bundle[section][cid]) for section, cid in cards}
    path = GOLDEN / name
    if _update(request):
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(f"# Golden card text ({name[:-5]}): reviewed against the reference; rewrite with "
                        "MAESTER_UPDATE_GOLDEN=1 after review.\n"
                        + yaml.dump(now, Dumper=_Folded, sort_keys=True, allow_unicode=True, width=110),
                        encoding="utf-8")
    golden = yaml.safe_load(path.read_text(encoding="utf-8")) if path.exists() else {}
    problems = []
    for cid in sorted(set(golden) | set(now)):
        if cid not in now:
            problems.append(f"{cid}: in {name} but no longer a card of this set")
        elif cid not in golden:
            problems.append(f"{cid}: new card, not reviewed yet:\n  + {now[cid]}")
        elif golden[cid] != now[cid]:
            diff = difflib.ndiff(_words(golden[cid]), _words(now[cid]))
            problems.append(f"{cid}: text changed (- golden, + now):\n  " + "\n  ".join(
                line for line in diff if line[:1] in "+-"))
    assert not problems, (f"{name}: {len(problems)} card text(s) differ from the golden file; review, then run "
                          "with MAESTER_UPDATE_GOLDEN=1 (or --update-golden)\n" + "\n".join(problems))


class _Folded(yaml.SafeDumper):
    """Card texts as folded blocks (`>-`): read like prose in review, load back as the exact text."""


_Folded.add_representer(str, lambda dumper, text: dumper.represent_scalar(
    "tag:yaml.org,2002:str", text, style=">" if " " in text else None))  # ids stay plain keys


def _words(text: str) -> list[str]:
    """The text cut at clause boundaries: a diff shows the clause that changed."""
    return [p for p in re.split(r"(?<=[;:.,])\s+", text) if p]


# ---- quality -------------------------------------------------------------------------------------

def _all_cards(bundle):
    return [(s, cid, bundle[s][cid]) for s in SECTIONS for cid in sorted(bundle[s])]


def _effect(rec: dict) -> list:
    return [rec[k] for k in EFFECT_KEYS if rec.get(k) is not None]


def _nodes(node):
    if isinstance(node, dict):
        yield node
        for value in node.values():
            yield from _nodes(value)
    elif isinstance(node, list):
        for item in node:
            yield from _nodes(item)


def _renamed(rec: dict) -> dict:
    """The card with every name its effect binds (choose, for, let) renamed to a nonsense word."""
    rec = copy.deepcopy(rec)
    bound = {}
    for node in _nodes(_effect(rec)):
        for key in ("choose", "for", "let"):
            if isinstance(node.get(key), str):
                bound.setdefault(node[key], f"zqx{len(bound)}")
    for node in _nodes(_effect(rec)):
        for key in ("choose", "for", "let"):
            if isinstance(node.get(key), str):
                node[key] = bound[node[key]]
        if isinstance(node.get("var"), str) and node["var"] in bound:
            node["var"] = bound[node["var"]]
    return rec


def test_no_bound_name_shows_in_any_card_text(bundle, english):
    """Renaming every bound name changes no text: the text never spells a DSL variable."""
    problems = []
    for section, cid, rec in _all_cards(bundle):
        text, renamed = english.card(section, rec), english.card(section, _renamed(rec))
        if text != renamed or "zqx" in renamed:
            problems.append(f"{cid}: the text depends on the DSL names it binds:\n  {text}\n  {renamed}")
    assert not problems, "\n".join(problems)


def _param_words(bundle, english, rec):
    """(argument name as words, the argument's value as words) of every call and query of the card."""
    for node in _nodes(_effect(rec)):
        name = node.get("do") or node.get("query")
        prim = PRIMITIVES.get(name) if isinstance(name, str) else None
        if prim is None:
            continue
        for p in prim.params:
            if p.name in node.get("args", {}):
                value = node["args"][p.name]
                said = english.expr(value) if not (isinstance(value, dict) and "var" in value) else ""
                yield p.name, said


def test_no_argument_name_or_raw_flag_shows_in_any_card_text(bundle, english):
    problems = []
    for section, cid, rec in _all_cards(bundle):
        text = english.card(section, rec)
        low = text.lower()
        for word in re.findall(r"\b(yes|true|false)\b", low):
            problems.append(f"{cid}: a raw flag value '{word}': {text}")
        if re.search(r"\bno\s*(?:[.,;)]|$)", low):
            problems.append(f"{cid}: a raw flag value 'no': {text}")
        for param, said in _param_words(bundle, english, rec):
            if "-" in param and param in low:
                problems.append(f"{cid}: the argument name '{param}': {text}")
            if said and param not in PREPOSITIONS and f"{param.replace('-', ' ')} {said}".lower() in low:
                problems.append(f"{cid}: the argument name '{param}' glued to its value '{said}': {text}")
    assert not problems, "\n".join(problems)


DOUBLED = re.compile(r"\b(\w+(?:['’ -]\w+){0,5})[\s,;:—-]+\1\b(?![\w'/-]| \+)", re.I)


def _said_twice(text: str) -> list[str]:
    """A word or phrase said twice in a row ("power power"), or two neighbouring clauses that say the same
    thing ("(a) Every house musters — every house musters")."""
    out = [m.group(0) for m in DOUBLED.finditer(text) if not m.group(1).isdigit()]
    clauses = [c for c in re.split(r"\s+—\s+", text) if c.strip()]
    for a, b in zip(clauses, clauses[1:], strict=False):
        wa, wb = set(re.findall(r"[a-z']+", a.lower())), set(re.findall(r"[a-z']+", b.lower()))
        if len(wa) >= 4 and len(wb) >= 4 and len(wa & wb) >= 0.8 * min(len(wa), len(wb)):
            out.append(f"{a.strip()!r} / {b.strip()!r}")
    return out


def test_no_card_text_says_a_word_or_phrase_twice(bundle, english):
    problems = [f"{cid}: said twice: {x}" for section, cid, rec in _all_cards(bundle)
                for x in _said_twice(english.card(section, rec))]
    assert not problems, "\n".join(problems)


def _disagreements(text: str) -> list[str]:
    """ "1 sword icons", "2 space", "-1 spaces": a count and its noun disagree (names like "Defense +1" aside)."""
    out = []
    longer = sorted(COUNTED + [plural(n) for n in COUNTED], key=len, reverse=True)
    for noun in COUNTED:
        many = plural(noun)
        for m in re.finditer(rf"(?<![\w.+-])-?1 {re.escape(many)}\b", text):
            out.append(m.group(0))
        for m in re.finditer(rf"(?<![\w.+-])-?(?:0|[2-9]|\d\d+) ({re.escape(noun)})\b(?!['’]s)", text):
            rest = text[m.start(1):]
            if not any(rest.startswith(x) and len(x) > len(noun) for x in longer):
                out.append(m.group(0))
    return out


def test_numbers_agree_with_their_nouns(bundle, english):
    problems = [f"{cid}: '{x}'" for section, cid, rec in _all_cards(bundle)
                for x in _disagreements(english.card(section, rec))]
    assert not problems, "\n".join(problems)


GRAMMAR_SLIPS = {
    "'you' with a verb for he/she/it": re.compile(r"\byou (?:is|has|does|gains|gets|loses|wins|chooses|discards|takes|"
                                                   r"moves|musters|reveals|destroys|places|looks|controls|puts|"
                                                   r"returns|picks|shuffles|stands|fights|bids)\b", re.I),
    "'of you' for 'your'": re.compile(r"\bof you\b", re.I),
    "a possessive of nothing": re.compile(r"(?:^|\s)'s\b|\byou's\b", re.I),
    "a phrase where a number belongs": re.compile(r"\b(?:strengths?|card|cards|threat|track|units|tokens|bid)\s+"
                                                   r"(?:power|combat strength|extra\b|available power)", re.I),
}


def test_no_grammar_slips(bundle, english):
    """"Footman units of you", "Let knights be 's Knight units", "the final combat strengths power"."""
    problems = [f"{cid}: {what}: '{m.group(0)}' in: {text}" for section, cid, rec in _all_cards(bundle)
                for text in [english.card(section, rec)] for what, rx in GRAMMAR_SLIPS.items()
                for m in rx.finditer(text)]
    assert not problems, "\n".join(problems)


def _vocabulary(bundle) -> set[str]:
    """Every word a card text may use: the names of the content and the renderer's own words."""
    words: set[str] = set()

    def add(text):
        words.update(w.lower() for w in re.findall(r"[A-Za-z]+", text))

    for section in ("houses", "tracks", "house_cards", "unit_kinds", "orders", "westeros_cards", "loans",
                    "wildling_cards", "tides_cards"):
        for rec in bundle.get(section, {}).values():
            add(rec.get("name") or "")
    for board in bundle["boards"].values():
        for area in board["areas"].values():
            add(area["name"])
    for track in bundle["tracks"].values():
        add(track["dominance_token"]["name"])
    for prim in PRIMITIVES.values():
        add(re.sub(r"\{[^}]*\}", " ", prim.english))
    for trig in TRIGGERS.values():
        add(trig.english)
    for module in ("english.py", "english_grammar.py"):
        source = (REPO / "dsl" / module).read_text(encoding="utf-8")
        for node in ast.walk(ast.parse(source)):
            if isinstance(node, ast.Constant) and isinstance(node.value, str):
                add(re.sub(r"\{[^}]*\}", " ", node.value))
    for rec in bundle["westeros_cards"].values():
        add(rec["deck"])  # "Westeros deck IV"
    add(" ".join("abcdefghij"))  # option labels: (a), (b), ...
    # inflections the renderer builds from those words
    for w in list(words):
        words.update({plural(w), w + "s", w + "es", w[:-1] + "ies" if w.endswith("y") else w})
        words.update({w[:-1] if w.endswith("s") else w, w[:-2] if w.endswith("es") else w})
    return words


def test_no_words_run_together(bundle, english):
    """Every word of every text is a word of the content or of the renderer: "differenth" is neither."""
    vocab = _vocabulary(bundle)
    problems = []
    for section, cid, rec in _all_cards(bundle):
        text = english.card(section, rec)
        unknown = sorted({w for w in re.findall(r"[A-Za-z]+", text) if w.lower() not in vocab})
        if unknown:
            problems.append(f"{cid}: unknown words {unknown}: {text}")
    assert not problems, "\n".join(problems)


def _conditions(rec: dict) -> list:
    """Every condition of the effect: ability, `if`, `may ... if`, option conditions."""
    out = []
    for node in _nodes(_effect(rec)):
        if "trigger" in node and "if" in node or "then" in node and "if" in node or "option" in node and "if" in node:
            out.append(node["if"])
        if "may" in node and "condition" in node:
            out.append(node["condition"])
    return out


def test_every_condition_of_an_effect_is_said(bundle, english):
    problems = []
    for section, cid, rec in _all_cards(bundle):
        text = english.card(section, rec)
        said = {id(node): phrase for node, phrase in english.conditions}
        for cond in _conditions(rec):
            if id(cond) not in said:
                problems.append(f"{cid}: a condition is not said: {cond}")
            elif said[id(cond)] not in text:
                problems.append(f"{cid}: the condition '{said[id(cond)]}' is lost from: {text}")
        for node in _nodes(_effect(rec)):
            for (flag, value), words in FLAG_WORDS.items():
                args = node.get("args") if isinstance(node.get("args"), dict) else {}
                given = args.get(flag) if flag != "distinct" else node.get(flag)
                if given is value and words not in text:
                    problems.append(f"{cid}: '{flag}: {str(value).lower()}' is not said ('{words}'): {text}")
    assert not problems, "\n".join(problems)


# ---- the renderer on effects no bundled card uses yet (a pack may) ----------------------------------

def _say(english, block) -> str:
    english.conditions, english._static = [], False
    return english.block(block)


def test_an_optional_step_with_an_else_says_both_outcomes(english):
    you, opponent = {"node": "var", "var": "you"}, {"node": "var", "var": "opponent"}
    gain = {"node": "call", "do": "gain-power", "args": {"house": you, "amount": 2}, "at": "x:1:1"}
    lose = {"node": "call", "do": "discard-power", "args": {"house": opponent, "amount": 1}, "at": "x:2:1"}
    text = _say(english, [{"node": "may", "may": you, "pay": 1, "body": [gain], "else": [lose]}])
    assert text == ("you may pay 1 power token; if you do, you gain 2 power tokens; if you do not, your opponent "
                    "discards 1 available power token")


def test_counts_and_verbs_agree_with_what_they_count(english):
    swords = [{"node": "call", "do": "add-swords", "args": {"house": {"node": "var", "var": h}, "amount": n},
               "at": "x:1:1"}
              for h, n in (("you", 1), ("opponent", 3))]
    assert _say(english, swords) == ("your card gets 1 extra sword icon; then your opponent's card gets 3 extra "
                                     "sword icons")
    threat = [{"node": "call", "do": "move-wildling-threat", "args": {"steps": -1}, "at": "x:1:1"}]
    assert _say(english, threat) == "the wildling threat token moves down 1 space on the wildling track"


def test_a_choice_of_several_names_each_chosen_item(english):
    areas = {"node": "query", "query": "areas",
             "args": {"kind": {"node": "text", "text": "land"}, "uncontrolled": True}}
    body = [{"node": "call", "do": "place-loyalty", "args": {"area": {"node": "var", "var": "a"}, "count": 2},
             "at": "x:2:1"}]
    text = _say(english, [{"node": "choose", "choose": "a", "from": areas, "by": {"node": "var", "var": "you"},
                           "count": 3, "distinct": True,
                           "body": body, "at": "x:1:1"}])
    assert text == ("you choose 3 different land areas controlled by no house; put 2 loyalty tokens in each chosen "
                    "land area")


def _id(value: str, type_: str) -> dict:
    return {"node": "id", "id": value, "type": type_}


def _var(name: str) -> dict:
    return {"node": "var", "var": name}


_SAMPLE = {"int": 2, "bool": True, "text": {"node": "text", "text": "land"}, "house": _var("opponent"),
           "area": _var("embattled-area"), "track": _id("fiefdoms", "track"),
           "unit-kind": _id("knight", "unit-kind"), "order-type": _id("support", "order-type"),
           "order": _id("support", "order"), "icon": _id("castle", "icon"),
           "deck": _id("i", "deck"), "card": _var("this-card"), "unit": _var("a-unit"),
           "dominance-token": _id("iron-throne", "dominance-token"),
           "improvement": _id("power", "improvement"), "end": _id("first", "end"),
           "role": _id("fighting", "role"), "measure": _id("land-areas", "measure"),
           "card-set": _id("adwd", "card-set"), "any": 2}


@pytest.mark.parametrize("name", sorted(PRIMITIVES))
def test_every_primitive_of_the_registry_reads_as_english(english, name):
    """A phrase for every primitive (or the registry's template): no gap, no brace, no raw flag."""
    prim = PRIMITIVES[name]
    args = {p.name: {"node": "list", "list": [_SAMPLE[p.type[5:]]]} if p.type.startswith("list:") else _SAMPLE[p.type]
            for p in prim.params}
    text = english.call(name, args) if prim.kind == "effect" else english.query(name, args, {})
    assert text and not re.search(r"[<>{}]|\b(?:true|false|yes)\b", text), f"{name}: {text}"
