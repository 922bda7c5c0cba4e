"""The Mother of Dragons procedures restart from the state alone (frames of interpreter/core/cursor.py).

Each procedure of the module that asks decisions keeps its progress in a frame (`mod.*`): the commanders'
queue, the vassal orders placed, the bid tokens given, the loan interest settled, the Iron Bank order taken
off the board. A position saved in the middle of one, as JSON, continued on a new game, asks the same
decision with exactly that progress and goes on identically.

The MoD procedures are called by base procedures (planning.py, westeros.py, action.py) through extension
points. `restart_procedure` restarts the MoD procedure itself, called the way its caller calls it, so these
tests check the module's side alone; the last test runs the whole strict check (tests/restarts.py), which
also needs the callers to call the module the same way on a restart.
"""

from __future__ import annotations

import collections
import json
from collections.abc import Generator

import pytest

from maester.interpreter.core.decisions import Decision
from maester.interpreter.core.rules import Rules
from maester.interpreter.core.state import GameState
from maester.interpreter.frontends.agents import RandomAgent
from maester.interpreter.mod import ModOptions, new_game
from maester.interpreter.mod import bank as mod_bank
from maester.interpreter.mod import loyalty as mod_loyalty
from maester.interpreter.mod import vassals as mod_vassals
from maester.interpreter.procedures.game import Game

from .restarts import Report, check_game

MINE = ("choose-vassal", "vassal-order", "give-bid", "buy-loan", "interest-loss")


@pytest.fixture(scope="module")
def rules() -> Rules:
    return Rules.default()


def _game(rules: Rules, setup: str, seed: int, tides: bool, rounds: int = 4) -> tuple[Game, dict]:
    game = new_game(rules, setup, seed=seed, options=ModOptions(tides_of_battle=tides, rounds=rounds))
    return game, {h: RandomAgent(seed * 31 + i) for i, h in enumerate(game.state.houses)}


def _play_to(game: Game, agents: dict, number: int) -> Decision:
    """Play on to the decision of this number (the games are seeded: always the same one)."""
    while game.decision is not None and game.decision.number < number:
        game.answer(agents[game.decision.house].act(game, game.decision))
    assert game.decision is not None and game.decision.number == number
    return game.decision


def _revealed_bids(game: Game, track: str) -> dict[str, int]:
    """The bids influence bidding passes to `adjust_bids`: the last revealed bids, 0 for the others (R35.6)."""
    shown = next(e for e in reversed(game.events) if e["type"] == "bids" and e["rule"] == "R10.2")
    return {**shown["bids"], **{h: 0 for h in game.state.tracks[track] if h not in shown["bids"]}}


def restart_procedure(rules: Rules, game: Game) -> tuple[Game, Generator]:
    """A new game on a JSON copy of the state alone, and the MoD procedure of the pending decision called on
    it the way its caller calls it (the frames before it are its callers')."""
    d = game.decision
    depth = next(i for i, f in enumerate(game.state.frames) if f["at"].startswith("mod."))
    state = GameState.from_json(json.loads(json.dumps(game.state.to_json())))
    g = type(game)(rules, state.setup, seed=state.seed, options=game.options, state=state, start=False)
    g._count, g._event_base, g.frame_depth = d.number, game.event_count, depth
    if "source" in d.info:  # asked inside a card statement (the effect sets its origin while it runs)
        g.origin = (d.info["card"], d.info["source"])
    at = state.frames[depth]["at"]
    if at == mod_vassals.CHOOSE_COMMANDERS:
        proc = g.before_orders()
    elif at == mod_vassals.VASSAL_ORDERS:
        proc = g.after_own_orders()
    elif at == mod_loyalty.GIVE_BIDS:
        proc = g.adjust_bids(d.info["track"], _revealed_bids(game, d.info["track"]))
    elif at == mod_bank.INTEREST:
        proc = g.at_round_start()
    elif at == mod_bank.OTHER_ORDER:
        proc = g.resolve_other_order(d.house, d.info["area"])
    elif at == mod_bank.STARTING_LOANS:
        proc = g.after_setup()
    else:
        raise AssertionError(f"no MoD procedure keeps the frame {at!r}")
    return g, proc


def _differs(rules: Rules, game: Game, answers: list | RandomAgent, twin: Game | None = None) -> str | None:
    """How the restarted procedure differs from `game` (None: it does not): the same decision, the state
    unchanged and no event on the way, then, with the `answers` (a list, or 2 of an agent's), the same events,
    states and decisions for as long as the procedure asks (`twin`, played on: a copy of `game`)."""
    g, proc = restart_procedure(rules, game)
    twin, start = twin or game.clone(), game.event_count
    got = next(proc, None)
    for step in range(len(answers) + 1 if isinstance(answers, list) else 3):
        if got is None:
            return None  # the procedure is done: what follows is its caller's
        if got.to_json() != twin.decision.to_json():
            return f"after {step} answers: asks {got.to_json()} instead of {twin.decision.to_json()}"
        if g.state.hash() != twin.state.hash():
            theirs = twin.state.to_json()
            return f"after {step} answers: the state differs in {[k for k, v in g.state.to_json().items() if v != theirs[k]]}"
        if g.events != twin.events[start - twin._event_base:]:
            return f"after {step} answers: other events {g.events[-1:]}"
        if step == (len(answers) if isinstance(answers, list) else 2):
            return None
        answer = answers[step] if isinstance(answers, list) else answers.act(twin, twin.decision)
        twin.answer(answer)
        if twin.decision is None:
            return None
        try:
            got = proc.send(answer)
        except StopIteration:
            got = None
    return None


def _module_frames(state) -> list[dict]:
    """The module's own frames (the callers' frames around them are the base procedures')."""
    return [f for f in state.frames if f["at"].startswith("mod.")]


# ---- positions in the middle of each procedure, with their progress ---------------------------------

def test_choosing_commanders_restarts_after_a_pass(rules):
    """Baratheon passed its vassal set to Lannister, which now chooses twice (R33.3)."""
    game, agents = _game(rules, "mod-6p-with-targaryen", 4, True)
    d = _play_to(game, agents, 81)
    assert _module_frames(game.state) == [{"at": "mod.choose-commanders", "queue": ["lannister", "lannister"]}]
    assert (d.house, d.kind, d.options) == ("lannister", "choose-vassal", ["pass", "stark", "tyrell"])
    assert game.mod_state.commanders == {}
    again = type(game).restarted(rules, GameState.from_json(json.loads(json.dumps(game.state.to_json()))),
                           game.options, game.run_counts())
    assert again.decision.to_json() == d.to_json()
    assert again.state.hash() == game.state.hash()
    assert _differs(rules, game, ["stark", "pass"]) is None
    game.answer("stark")
    assert _module_frames(game.state) == [{"at": "mod.choose-commanders", "queue": ["lannister"]}]
    assert game.decision.options == ["pass", "tyrell"]
    assert game.mod_state.commanders == {"stark": "lannister"}


def test_vassal_orders_restart_with_the_orders_placed_so_far(rules):
    """Baratheon placed one order for Tyrell: the restart asks the second, without the token used (R34.1)."""
    game, agents = _game(rules, "mod-6p-with-targaryen", 4, True)
    d = _play_to(game, agents, 26)
    assert _module_frames(game.state) == [{"at": "mod.vassal-orders", "next": 0, "placed": 1,
                                  "left": ["defense-plus-three", "raid-support-plus-one", "vassal-march"]}]
    assert (d.house, d.kind, d.info) == ("baratheon", "vassal-order", {"vassal": "tyrell"})
    assert d.options[:4] == ["done", "dornish-marches:defense-plus-three", "dornish-marches:raid-support-plus-one",
                             "dornish-marches:vassal-march"]
    assert [a for a, o in game.state.orders.items() if o["house"] == "tyrell"] == ["redwyne-straights"]
    g, proc = restart_procedure(rules, game)
    assert next(proc).to_json() == d.to_json()
    assert g.events == [] and g.state.hash() == game.state.hash()
    assert _differs(rules, game, [d.options[1], "done"]) is None


def test_bid_gifts_restart_with_the_tokens_given(rules):
    """Targaryen gave one of its 5 bid tokens to Greyjoy: the restart asks about the 4 left (R36.4.2)."""
    game, agents = _game(rules, "mod-8p", 6, True)
    d = _play_to(game, agents, 61)
    assert _module_frames(game.state) == [{"at": "mod.give-bids", "next": 0, "left": 4, "bids": {
        "baratheon": 2, "lannister": 1, "stark": 4, "martell": 0, "greyjoy": 3, "tyrell": 1, "arryn": 5,
        "targaryen": 0}}]
    assert (d.house, d.kind, d.info["track"]) == ("targaryen", "give-bid", "iron-throne")
    assert d.prompt == "targaryen: give one of your 4 bid tokens to?"
    assert d.options == ["keep", "baratheon", "lannister", "stark", "martell", "greyjoy", "tyrell", "arryn"]
    assert _differs(rules, game, ["stark", "keep"]) is None


def test_loan_interest_restarts_without_paying_twice(rules):
    """Three houses have paid their interest; Martell could not pay all of it and loses a unit (R40.6)."""
    game, agents = _game(rules, "mod-8p", 6, True)
    d = _play_to(game, agents, 52)
    assert _module_frames(game.state) == [{"at": "mod.interest", "house": 3, "unpaid": 1}]
    assert game.turn_order[3] == "martell" and game.mod_state.loans["martell"] == ["savvy-steward"]
    assert (d.house, d.kind, d.options) == ("greyjoy", "interest-loss", ["salt-shore:footman", "sea-of-dorne:ship",
                                                                         "sunspear:footman", "sunspear:knight"])
    again = type(game).restarted(rules, GameState.from_json(json.loads(json.dumps(game.state.to_json()))),
                           game.options, game.run_counts())
    assert again.decision.to_json() == d.to_json()
    assert again.state.hash() == game.state.hash()  # no second bank shift, no interest paid twice
    assert _differs(rules, game, ["sunspear:knight", d.options[0]]) is None


def test_an_iron_bank_order_restarts_though_it_is_off_the_board(rules):
    """Martell's Iron Bank order is taken off the board before it asks which loan: its frame keeps it (R40.4)."""
    game, agents = _game(rules, "mod-8p", 6, True)
    d = _play_to(game, agents, 50)
    assert _module_frames(game.state) == [{"at": "mod.other-order", "order": "sea-iron-bank", "loan": None}]
    assert "sea-of-dorne" not in game.state.orders
    assert (d.house, d.kind, d.options, d.info) == ("martell", "buy-loan", ["none", "savvy-steward"],
                                                    {"area": "sea-of-dorne"})
    g, proc = restart_procedure(rules, game)
    assert next(proc).to_json() == d.to_json()
    assert g.events == [] and g.state.hash() == game.state.hash()
    assert _differs(rules, game, ["savvy-steward"]) is None


def test_a_starting_loan_restarts_inside_its_effect(rules):
    """A variant's starting loan is taken during the setup; its effect asks where (R40.4)."""
    from maester.dsl.compile import compile_paths, default_content_dir
    from maester.interpreter.core.rules import apply_variant

    from .test_patches import PACKS

    pack = "dance-with-mother-of-dragons"
    variant = Rules(apply_variant(compile_paths([default_content_dir(), PACKS / pack]), pack))
    game, twin = (new_game(variant, "mod-8p", seed=1, options=ModOptions(rounds=1)) for _ in range(2))
    d = game.decision
    assert game.state.phase == "setup" and game.mod_state.loans == {"lannister": ["pyromancer"]}
    assert _module_frames(game.state) == [{"at": "mod.starting-loans", "next": 0, "loan": "pyromancer"}]
    assert (d.house, d.kind, d.info["card"]) == ("lannister", "choose", "pyromancer")
    assert d.options == ["braavos", "crackclaw-point", "flints-finger", "harrenhal", "moat-cailin", "starfall",
                         "storms-end", "the-reach", "the-vale-of-arryn", "white-harbor", "yronwood"]
    # Game.clone and Game.restarted run the setup again on a state in the setup phase: the twin is a new game
    assert _differs(variant, game, [d.options[0]], twin=twin) is None


# ---- the strict check, over MoD games ----------------------------------------------------------------

GAMES = [("mod-3p", 1, False), ("mod-4p-with-targaryen", 2, True), ("mod-5p-without-targaryen", 3, False),
         ("mod-8p", 6, True)]


def test_every_decision_of_the_module_restarts_its_procedure_from_the_state_alone(rules):
    """At every decision of the module's kinds in these games, the procedure restarted on the state alone asks
    the same decision, changes nothing, and goes on identically for the next 2 answers."""
    checked, failed = collections.Counter(), {}
    for setup, seed, tides in GAMES:
        game, agents = _game(rules, setup, seed, tides, rounds=6)
        while game.decision is not None:
            d = game.decision
            if d.kind in MINE:  # a loan effect asks the effect evaluator's kinds (choose, place-unit): not these
                checked[d.kind] += 1
                if not any(f["at"].startswith("mod.") for f in game.state.frames):
                    why = f"no frame of the module: {game.state.frames}"
                else:
                    why = _differs(rules, game, RandomAgent(seed * 97 + d.number))
                if why is not None:
                    failed.setdefault(d.kind, f"{setup} seed {seed} decision {d.number}: {why}")
            game.answer(agents[d.house].act(game, d))
    assert failed == {}
    assert all(checked[k] > 0 for k in MINE), checked


# the whole strict check (tests/restarts.py) for the module's kinds: its procedures and their callers together


@pytest.fixture(scope="module")
def strict_report(rules) -> Report:
    total = Report()
    for setup, seed, tides in GAMES:
        total.add(check_game(rules, setup, seed, tides, rounds=4))
    return total


@pytest.mark.xdist_group("restart-mod-strict")  # one worker plays strict_report's games (not one per worker)
@pytest.mark.parametrize("kind", MINE)
def test_the_strict_restart_check_passes_for_the_module_kinds(strict_report, kind):
    assert strict_report.checked[kind] > 0
    assert strict_report.failed[kind] == 0, strict_report.first[kind]
