"""An empty list is empty (issue 19): a computed `in:` list that comes out empty limits an effect to nothing,
never to "anywhere"; a left-out list limits nothing; a literal empty list is refused; and bundles compiled
before, which wrote a left-out list as a literal `[]`, are still read as they were meant."""

from __future__ import annotations

import json

from maester.dsl import compile_sources
from maester.dsl.compile import Source
from maester.dsl.effect_tree import walk
from maester.interpreter.core.rules import Rules

from .test_errors import WORLD, one_error, where


def test_a_literal_empty_list_is_a_located_error():
    e = one_error('house-card a "A" {\n  set base house stark strength 4\n  when immediately {\n'
                  '    destroy-units(you, 1, in: [])\n  }\n}\n')
    assert (e.code, where(e)) == ("empty-list", "broken.mst:4:31")
    assert e.message == "'in' of destroy-units is an empty list: it names nothing, so the effect could never act"
    assert e.hint == "leave 'in' out to mean no limit"


def test_a_left_out_list_is_left_out_of_the_bundle():
    bundle = compile_sources([Source("world.mst", WORLD), Source("card.mst", (
        'house-card a "A" {\n  set base house stark strength 4\n  when immediately {\n'
        '    destroy-units(you, 1)\n    muster(you, in: areas(controlled-by: you, with: castle))\n  }\n}\n'))])
    calls = {n["do"]: n for n in walk(bundle["house_cards"]["a"]["abilities"]) if isinstance(n, dict) and "do" in n}
    assert "in" not in calls["destroy-units"]["args"]  # no limit: absent, not []
    assert calls["muster"]["args"]["in"]["node"] == "query"  # computed when the card resolves


def test_an_older_bundle_is_read_as_it_was_meant(tmp_path):
    """Before, a left-out `in` was compiled as the literal `[]` and meant "anywhere": loading drops it."""
    bundle = json.loads(json.dumps(Rules.default().bundle))
    rec = bundle["loans"]["full-host"]
    calls = [n for n in walk(rec["effect"]) if isinstance(n, dict) and n.get("do") == "place-units"]
    assert calls and all("in" not in c["args"] for c in calls)
    for c in calls:
        c["args"]["in"] = {"node": "list", "list": []}  # as the compiler of bundle format 1.1.0 wrote it
    path = tmp_path / "bundle.json"
    path.write_text(json.dumps(bundle), encoding="utf-8")
    loaded = Rules.from_file(path)
    again = [n for n in walk(loaded.bundle["loans"]["full-host"]["effect"]) if isinstance(n, dict)
             and n.get("do") == "place-units"]
    assert all("in" not in c["args"] for c in again)
