"""What a house may see is content: `look-at-deck` / `look-at-wildling-cards` show cards to one house as a secret
event (like the Messenger Raven's look), hidden from the others in every information-set view."""

from __future__ import annotations

from maester.dsl.compile import default_content_dir
from maester.env.observe import view
from maester.interpreter.core.rules import Rules
from maester.interpreter.frontends.agents import agents_for
from maester.interpreter.mod import ModOptions, new_game

from .conftest import REPO

PACK = REPO / "examples" / "packs" / "westeros-look-ahead"


def _game():
    rules = Rules.default("westeros-look-ahead", [default_content_dir(), PACK])
    game = new_game(rules, "base-4p", seed=6, options=ModOptions(rounds=3))
    game.play(agents_for(game.state.houses, "random", 6))
    return game


def test_the_raven_holder_sees_the_next_rounds_westeros_cards():
    game = _game()
    looks = [e for e in game.events if e["type"] == "look" and e["round"] == 1]
    assert [e["deck"] for e in looks] == ["i", "ii", "iii"]
    drawn = [e for e in game.events if e["type"] == "westeros-card" and e["round"] == 2]
    # what it saw is what the next Westeros Phase draws first from each deck
    assert [e["secret"]["cards"][0] for e in looks] == [next(d["card"] for d in drawn if d["deck"] == e["deck"])
                                                         for e in looks]
    assert all(e["card"] == "raven-foresight" and "top 1 card(s)" in e["text"] for e in looks)
    assert not any(c in looks[0]["text"] for c in looks[0]["secret"]["cards"])


def test_only_the_house_that_looked_sees_the_cards():
    game = _game()
    looks = [e for e in game.events if e["type"] == "look"]
    holder = looks[-1]["house"]
    other = next(h for h in game.state.houses if h != holder and not any(e["house"] == h for e in looks))
    mine = [s for s in view(game, holder)["secrets"] if s["type"] == "look"]
    theirs = [s for s in view(game, other)["secrets"] if s["type"] == "look"]
    assert mine and mine[-1]["cards"] == looks[-1]["secret"]["cards"]
    assert not theirs


BIRDS = REPO / "examples" / "packs" / "little-birds"


def _birds():
    rules = Rules.default("little-birds", [default_content_dir(), BIRDS])
    game = new_game(rules, "base-3p", seed=4, options=ModOptions(rounds=3))
    game.play(agents_for(game.state.houses, "random", 4))
    return game


def test_the_raven_holder_sees_the_face_down_orders_the_reveal_then_shows():
    game = _birds()
    looks = [e for e in game.events if e["type"] == "look-orders"]
    assert [e["round"] for e in looks] == [1, 2, 3]
    for look in looks:
        reveal = next(e for e in game.events[look["n"]:] if e["type"] == "reveal-orders")
        assert reveal["n"] > look["n"]  # seen before the reveal
        target = look["target"]
        assert look["house"] != target
        # exactly the target's orders, as the reveal shows them next
        assert {a: f"{target}:{o}" for a, o in look["secret"]["orders"].items()} == \
            {a: o for a, o in reveal["orders"].items() if o.startswith(target + ":")}
        assert not any(o in look["text"] for o in look["secret"]["orders"].values())


def test_the_iron_throne_holder_sees_the_raven_holders_hand():
    rules = Rules.default("little-birds", [default_content_dir(), BIRDS])
    game = new_game(rules, "base-3p", seed=4, options=ModOptions(rounds=1))
    agents = agents_for(game.state.houses, "random", 4)
    while not any(e["type"] == "look-hand" for e in game.events):
        d = game.decision
        game.answer(agents[d.house].act(game, d))
    look = next(e for e in game.events if e["type"] == "look-hand")
    assert (look["house"], look["target"]) == ("baratheon", "lannister")  # Iron Throne and Raven holders of base-3p
    assert look["secret"]["cards"] == sorted(game.state.houses["lannister"].hand)
    assert len(look["secret"]["cards"]) == 7


def test_only_the_looking_house_sees_the_orders_and_the_hand():
    game = _birds()
    for etype in ("look-orders", "look-hand"):
        looks = [e for e in game.events if e["type"] == etype]
        assert looks, etype
        looker = looks[-1]["house"]
        for house in game.state.houses:
            seen = [s for s in view(game, house)["secrets"] if s["type"] == etype]
            if house == looker:
                assert seen and seen[-1] == dict(looks[-1]["secret"], type=etype, n=looks[-1]["n"])
            elif not any(e["house"] == house for e in looks):
                assert not seen, (etype, house)


def test_the_human_seat_reads_what_its_house_saw_and_the_others_do_not():
    from maester.tools.seat_info import digest, visible_events

    game = _birds()
    look = next(e for e in game.events if e["type"] == "look-hand")
    mine = [line for line in digest(game, look["house"], 0, limit=10_000) if "looks at the house cards" in line]
    assert mine and all(any(game.rules.bundle["house_cards"][c]["name"] in line for c in look["secret"]["cards"])
                        for line in mine[:1])
    for other in game.state.houses:  # the look is the looking house's alone (the target too does not read it)
        assert (look in visible_events(game, other, 0)) == (other == look["house"])


def test_a_look_at_the_orders_in_some_areas_shows_those_only(tmp_path):
    from maester.dsl import compile_paths
    from maester.interpreter.core.rules import apply_variant

    (tmp_path / "pack").mkdir()
    (tmp_path / "pack" / "x.mst").write_text(
        'game-ability scouts "Scouts" {\n  when orders-placed {\n'
        '    look-at-orders(holder(iron-throne), in: [lannisport, winterfell, dragonstone])\n  }\n}\n'
        'variant scouts "Scouts" {\n  game base\n  patch game base { game-abilities [scouts] }\n}\n', encoding="utf-8")
    rules = Rules(apply_variant(compile_paths([default_content_dir(), tmp_path / "pack"], cache=False), "scouts"))
    game = new_game(rules, "base-3p", seed=2, options=ModOptions(rounds=1))
    agents = agents_for(game.state.houses, "random", 2)
    while not any(e["type"] == "reveal-orders" for e in game.events):
        d = game.decision
        game.answer(agents[d.house].act(game, d))
    look = next(e for e in game.events if e["type"] == "look-orders")
    reveal = next(e for e in game.events if e["type"] == "reveal-orders")
    assert look["house"] == "baratheon" and "target" not in look  # base-3p: Baratheon holds the Iron Throne
    # the other houses' orders in those areas (Baratheon's own Dragonstone left out), as the reveal shows them
    assert {a: f"{o}" for a, o in look["secret"]["orders"].items()} == \
        {a: o.split(":")[1] for a, o in reveal["orders"].items() if a in ("lannisport", "winterfell")}
    assert set(look["secret"]["orders"]) == {"lannisport", "winterfell"}
