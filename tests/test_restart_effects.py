"""An effect part-way through is data: at every decision a card effect asks, a new game given only the state
goes on inside the effect — at the statement in progress, with its bindings, loop item, picks and the
arguments its call began with — and, with the same answers, emits the same events and ends in the same state.

The effects run here are the bundle's own cards (every wildling card's three outcomes, every Westeros card),
each inside a minimal procedure that runs just that effect on a position of a real game, so what is tested is
the effect evaluator's frames (effects.py) and nothing of the phase procedures around it.
"""

from __future__ import annotations

import json

import pytest

from maester.interpreter.core import cursor
from maester.interpreter.core.rules import Rules
from maester.interpreter.core.state import GameState
from maester.interpreter.effects import Scope, run
from maester.interpreter.frontends.agents import RandomAgent
from maester.interpreter.procedures.game import Game, Options


@pytest.fixture(scope="module")
def rules() -> Rules:
    return Rules.default()


class EffectOnly(Game):
    """A game whose whole procedure is one card effect (`effect`, run with the scope `scope()` makes)."""

    effect: list = []
    scope_args: dict = {}

    def _run(self):
        yield from run(self, self.effect, Scope(**json.loads(json.dumps(self.scope_args))))
        self.state.phase = "over"


def _position(rules: Rules) -> GameState:
    """A base 4-player game after its first round's orders: units spread, power and cards in hand."""
    g = Game(rules, "base-4p", seed=3)
    agents = {h: RandomAgent(i) for i, h in enumerate(g.state.houses)}
    while g.state.round < 2 and g.decision is not None:
        g.answer(agents[g.decision.house].act(g, g.decision))
    state = g.state
    state.step, state.frames = {}, []
    return state


def _effects(rules: Rules):
    """(name, effect, scope arguments) of every wildling outcome and Westeros card of the bundle."""
    b = rules.bundle
    game = rules.game(rules.setup("base-4p")["game"])
    houses = ["stark", "lannister", "greyjoy", "baratheon"]
    wildlings = set(rules.wildling_deck(game))
    westeros = {c for slot in game["westeros_decks"] for c in rules.westeros_deck(slot, game)}
    for card, rec in sorted(b["wildling_cards"].items()):
        if card not in wildlings:
            continue
        bids = {h: i for i, h in enumerate(houses)}
        for part, owner, more in (("lowest_bidder", "stark", {"lowest-bidder": "stark"}),
                                  ("everyone_else", "stark", {"lowest-bidder": "stark"}),
                                  ("night_watch_victory", "baratheon", {"highest-bidder": "baratheon"})):
            if rec.get(part):
                vars_ = {"wildling-strength": 8, "everyone-else": [h for h in houses if h != owner], **more}
                yield f"{card}/{part}", rec[part], {"vars": vars_, "owner": owner, "card": card, "rule": "R11.6",
                                                    "extra": {"bids": bids}}
    for card, rec in sorted(b["westeros_cards"].items()):
        if card not in westeros:
            continue
        yield card, rec["effect"], {"card": card, "rule": "R6.2.4"}


def _check(rules: Rules, state: GameState, effect: list, scope_args: dict, seed: int) -> tuple[int, list[str]]:
    cls = type("Effect", (EffectOnly,), {"effect": effect, "scope_args": scope_args})
    game = cls(rules, "base-4p", seed=3, state=GameState.from_json(state.to_json()), options=Options())
    agent = RandomAgent(seed)
    asked, problems = 0, []
    while game.decision is not None and asked < 40:
        asked += 1
        again = cls.restarted(rules, GameState.from_json(json.loads(json.dumps(game.state.to_json()))),
                              Options(), json.loads(json.dumps(game.run_counts())))
        if again.decision is None or again.decision.to_json() != game.decision.to_json():
            problems.append(f"decision {asked}: restarted asks {again.decision and again.decision.to_json()}")
            break
        if again.state.hash() != game.state.hash():
            problems.append(f"decision {asked}: the restart changed the state")
            break
        start = len(game.events)
        answer = agent.act(game, game.decision)
        game.answer(answer)
        again.answer(answer)
        if again.events != game.events[start:] or again.state.hash() != game.state.hash():
            problems.append(f"decision {asked}: after the answer, other events or another state")
            break
    assert not game.state.frames or game.decision is not None, "an effect ended with frames left"
    return asked, problems


def test_every_card_effect_restarts_from_the_state_at_each_of_its_decisions(rules):
    state = _position(rules)
    asked, failures = 0, []
    for name, effect, scope_args in _effects(rules):
        for seed in range(3):
            n, problems = _check(rules, state, effect, scope_args, seed)
            asked += n
            failures += [f"{name} (seed {seed}): {p}" for p in problems]
    assert asked > 100, f"only {asked} decisions asked by the card effects: the test checks too little"
    assert not failures, "\n".join(failures[:20])


def _var(name: str) -> dict:
    return {"node": "var", "var": name}


def _id(value: str, type_: str) -> dict:
    return {"node": "id", "id": value, "type": type_}


# let n = 2; choose t from [fiefdoms, kings-court] by stark { move-on-track(stark, t, last);
# may(stark) { gain-power(stark, n) } }: the body changes the state, then asks
ASKS_INSIDE_A_CHOICE = [
    {"node": "let", "let": "n", "value": 2},
    {"node": "choose", "choose": "t", "by": _id("stark", "house"),
     "from": {"node": "list", "list": [_id("fiefdoms", "track"), _id("kings-court", "track")]},
     "body": [{"node": "call", "do": "move-on-track", "at": "test:1:1",
               "args": {"house": _id("stark", "house"), "track": _var("t"), "to": _id("last", "end")}},
              {"node": "may", "may": _id("stark", "house"), "at": "test:2:1",
               "body": [{"node": "call", "do": "gain-power", "at": "test:3:1",
                         "args": {"house": _id("stark", "house"), "amount": _var("n")}}]}],
     "at": "test:1:0"},
]


def test_a_restart_inside_a_choice_keeps_the_pick_its_binding_and_what_the_body_did(rules):
    """Restarted at a question the body of a `choose` asks after changing the state: the game has the pick in
    the choose's frame and the block's binding in its own, does not move Stark a second time, and with `yes`
    gains the 2 power the binding says."""
    state = _position(rules)
    cls = type("Effect", (EffectOnly,), {"effect": ASKS_INSIDE_A_CHOICE, "scope_args": {"card": None, "rule": "R0"}})
    game = cls(rules, "base-4p", seed=3, state=GameState.from_json(state.to_json()), options=Options())
    assert (game.decision.kind, game.decision.options) == ("choose", ["fiefdoms", "kings-court"])
    game.answer("kings-court")
    assert game.decision.kind == "may"
    assert game.state.tracks["kings-court"][-1] == "stark"
    saved = json.loads(json.dumps(game.state.to_json()))
    frames = {f["at"]: f for f in saved["frames"]}
    outer, body = (f for f in saved["frames"] if f["at"] == "effect.block")
    assert (outer["next"], outer["vars"]) == (1, {"n": 2})  # the choose, after the let
    assert (body["next"], body["vars"]) == (1, {"n": 2, "t": "kings-court"})  # the may, after the move
    assert frames["effect.choose"]["picks"] == ["kings-court"] and frames["effect.choose"]["running"] == 1
    assert frames["effect.may"]["taken"] is None
    again = cls.restarted(rules, GameState.from_json(saved), Options(), game.run_counts())
    assert again.decision.to_json() == game.decision.to_json()
    assert again.state.to_json() == saved and again.events == []
    power = again.state.houses["stark"].power
    again.answer("yes")
    assert again.decision is None and again.state.frames == []
    assert again.state.houses["stark"].power == power + 2
    assert [e["type"] for e in again.events] == ["power"]


def test_effect_frames_are_declared(rules):
    for place in ("effect.block", "effect.call", "effect.if", "effect.for", "effect.choose", "effect.may"):
        assert place in cursor.FRAMES and cursor.FRAMES[place].fields
