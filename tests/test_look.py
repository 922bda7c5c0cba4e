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
