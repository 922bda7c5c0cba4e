"""Every decision inside a combat restarts from the state alone (interpreter/procedures/combat.py frames).

A position taken in the middle of a combat step — the defender choosing its card after the attacker, a
Tides of Battle redraw, a casualty, a retreat and its supply losses, an ability in the clean up — is turned
into JSON and continued by `Game.restarted`: the new game asks the same decision with the progress kept in
the frames, and with the same answers goes on exactly as the game it was taken from. The strict check of
tests/restarts.py then runs at every combat decision of the scenarios and of random games.
"""

from __future__ import annotations

import collections
import json
from pathlib import Path

import pytest

from maester.interpreter.core.rules import Rules
from maester.interpreter.frontends.agents import RandomAgent
from maester.interpreter.frontends.scenario import Scenario, run_scenario
from maester.interpreter.mod import ModOptions, new_game
from maester.interpreter.procedures.game import Game

from .restarts import differs, replayed, restart_here

SCENARIOS = Path(__file__).parent / "scenarios"
# the decision kinds the combat procedure asks itself (card abilities ask `choose`, `may`, ... through the
# effect evaluator, and a `house-card` when a card reveals another: those carry the card's `source`)
COMBAT_KINDS = {"support", "house-card", "blade", "tides-redraw", "casualty", "retreat", "retreat-loss"}

# Stark (supply 1: armies of 3 and 2) already has two armies of two; its army in Moat Cailin loses the
# combat, one casualty leaves a Knight and a Footman, and wherever they retreat one of them is lost (R21.3.6)
SUPPLY_LOSS = """
name: "a retreat that costs a unit to supply"
setup: base-6p
position:
  round: 2
  phase: action
  houses:
    stark: {power: 3, supply: 1, hand: [catelyn-stark, eddard-stark]}
    greyjoy: {power: 3, hand: [euron-crows-eye, balon-greyjoy]}
  units:
    moat-cailin: "stark: footman, knight, footman"
    winterfell: "stark: footman x2"
    white-harbor: "stark: footman x2"
    greywater-watch: "greyjoy: knight, footman"
  orders:
    greywater-watch: "greyjoy: march"
stop-after: action
decisions:
  - knight:moat-cailin
  - footman:moat-cailin
  - {house: greyjoy, kind: leave-power, answer: "no"}
  - euron-crows-eye
  - catelyn-stark
  - {house: greyjoy, kind: blade, answer: "no"}
  - {house: stark, kind: casualty, answer: footman}
  - {house: stark, kind: retreat, answer: seagard}
  - {house: stark, kind: retreat-loss, answer: footman}
expect:
  events:
    - {type: destroy, house: stark, kind: footman, rule: R21.3.6}
    - {type: retreat, house: stark, area: seagard, text: "1 routed"}
  state:
    units.seagard: "stark: knight"
"""

# Stark (supply 1) attacks Moat Cailin with a Knight and a Footman from Winterfell, where a Footman stays,
# and loses: back in Winterfell its army of 3 and the 3 Footmen of Castle Black break the limits (R21.3.6)
ATTACKER_SUPPLY_LOSS = """
name: "a losing attacker's army that costs a unit to supply"
setup: base-6p
position:
  round: 2
  phase: action
  houses:
    stark: {power: 3, supply: 1, hand: [catelyn-stark, eddard-stark]}
    greyjoy: {power: 3, hand: [balon-greyjoy, euron-crows-eye]}
  units:
    winterfell: "stark: knight, footman x2"
    castle-black: "stark: footman x3"
    moat-cailin: "greyjoy: knight, footman"
  orders:
    winterfell: "stark: march"
stop-after: action
decisions:
  - knight:moat-cailin
  - footman:moat-cailin
  - done
  - catelyn-stark
  - balon-greyjoy
  - {house: greyjoy, kind: blade, answer: "yes"}
  - {house: stark, kind: retreat-loss, answer: knight}
expect:
  events:
    - {type: destroy, house: stark, kind: knight, rule: R21.3.6}
    - {type: retreat, house: stark, area: winterfell, text: "1 routed"}
"""


@pytest.fixture(scope="module")
def rules() -> Rules:
    return Rules.default()


def _scenario(tmp_path: Path, text: str) -> Scenario:
    path = tmp_path / "scenario.yaml"
    path.write_text(text, encoding="utf-8")
    return Scenario.load(path)


def _stopped_at(rules: Rules, sc: Scenario, kind: str, nth: int = 0) -> dict:
    """Run the scenario; at its `nth` decision of `kind`, restart a game from a JSON copy of the state alone.
    Returns the game (played to the scenario's end: `game`), the restarted one (`again`), the state it was
    given (`state`) and how many answers and events the game had then (`from`, `events`)."""
    found: dict = {}

    def hook(game: Game) -> None:
        answer = game.answer

        def answering(value):
            if game.decision.kind == kind and "again" not in found:
                if found.setdefault("seen", 0) == nth:
                    found["again"] = restart_here(sc.rules_for(rules), game)
                    found["from"] = len(game.answers)
                    found["events"] = len(game.events)
                    found["state"] = json.loads(json.dumps(game.state.to_json()))
                found["seen"] += 1
            answer(value)
        game.answer = answering

    result = run_scenario(rules, sc, on_game=hook)
    assert result.ok and "again" in found, f"the scenario did not reach a {kind} decision"
    found["game"] = result.game
    return found


def _combat_frames(state: dict) -> list[dict]:
    """The frames of the combat's own procedures (those of the march around it are the march's business)."""
    return [f for f in state["frames"] if f["at"].startswith("combat.")]


def _goes_on_alike(at: dict) -> None:
    """With the game's own answers, the restarted game emits the same events and ends in the same state."""
    game, again = at["game"], at["again"]
    for value in game.answers[at["from"] + len(again.answers):]:  # those the test has not given already
        again.answer(value)
    assert again.events == game.events[at["events"]:]
    assert again.state.hash() == game.state.hash()
    assert again.state.frames == []


def test_the_defenders_card_is_asked_with_the_attackers_card_kept_secret(rules, tmp_path):
    at = _stopped_at(rules, _scenario(tmp_path, SUPPLY_LOSS), "house-card", nth=1)
    again, state = at["again"], at["state"]
    assert _combat_frames(state) == [{"at": "combat.house-cards", "next": 1}]
    assert state["step"]["combat"]["stage"] == "house-cards"
    assert state["step"]["combat"]["cards"] == {"greyjoy": "euron-crows-eye"}
    d = again.decision
    assert (d.house, d.kind, d.options) == ("stark", "house-card", ["catelyn-stark", "eddard-stark"])
    assert again.events == []  # the combat and its initial strength are announced already
    again.answer("catelyn-stark")
    assert [(e["type"], e.get("cards")) for e in again.events] == [
        ("reveal", {"greyjoy": "euron-crows-eye", "stark": "catelyn-stark"})]
    assert again.decision.kind == "blade"
    _goes_on_alike(at)


def test_a_casualty_then_a_retreat_and_its_supply_loss_keep_the_units_off_the_board(rules, tmp_path):
    sc = _scenario(tmp_path, SUPPLY_LOSS)
    at = _stopped_at(rules, sc, "casualty")
    assert _combat_frames(at["state"]) == [{"at": "combat.casualties", "count": 1, "done": 0}]
    assert at["again"].decision.options == ["footman", "knight"]
    _goes_on_alike(at)

    at = _stopped_at(rules, _scenario(tmp_path, SUPPLY_LOSS), "retreat")
    state, again = at["state"], at["again"]
    assert _combat_frames(state) == [
        {"at": "combat.retreats", "next": 0},
        {"at": "combat.retreat", "house": "stark", "units": [["knight", False], ["footman", False]], "area": None,
         "keep": 1}]
    assert "moat-cailin" not in state["units"]  # the retreating army is in the frame only
    assert again.decision.options == ["seagard", "the-twins", "white-harbor", "winterfell"]
    _goes_on_alike(at)

    at = _stopped_at(rules, _scenario(tmp_path, SUPPLY_LOSS), "retreat-loss")
    assert _combat_frames(at["state"])[1]["area"] == "seagard"
    assert (at["again"].decision.house, at["again"].decision.options) == ("stark", ["footman", "knight"])
    at["again"].answer("footman")
    assert [(e["type"], e["rule"], e.get("kind") or e.get("area")) for e in at["again"].events[:2]] == [
        ("destroy", "R21.3.6", "footman"), ("retreat", "R21.3.3", "seagard")]
    _goes_on_alike(at)


def test_a_losing_attackers_supply_loss_keeps_its_army_in_the_frame(rules, tmp_path):
    at = _stopped_at(rules, _scenario(tmp_path, ATTACKER_SUPPLY_LOSS), "retreat-loss")
    state, again = at["state"], at["again"]
    assert _combat_frames(state) == [
        {"at": "combat.retreats", "next": 0},
        {"at": "combat.retreat", "house": "stark", "units": [["knight", False], ["footman", False]],
         "area": "winterfell", "keep": 0}]
    assert state["step"]["combat"]["attacking"] == []  # the army left the combat: the frame holds it
    assert (again.decision.house, again.decision.options) == ("stark", ["footman", "knight"])
    _goes_on_alike(at)


def test_the_tides_of_battle_redraw_takes_the_next_card_of_the_same_deck(rules):
    sc = Scenario.load(SCENARIOS / "base" / "coverage" / "tides-blade-redraw-no-supporter-card.yaml")
    at = _stopped_at(rules, sc, "tides-redraw")
    state, again = at["state"], at["again"]
    (frame,) = _combat_frames(state)
    assert frame["at"] == "combat.tides" and len(frame["deck"]) == 22  # 24 cards, one drawn by each side
    assert state["step"]["combat"]["support"] == {"harrenhal": "attacker"}
    assert again.decision.info["secret"] == {"card": state["step"]["combat"]["tides"]["lannister"]}
    again.answer("yes")
    assert again.state.step["combat"]["tides"]["lannister"] == frame["deck"][0]
    assert again.decision.kind == "retreat"  # the blade is spent: no +1 asked
    _goes_on_alike(at)


def test_a_skull_restarts_at_the_side_and_the_skull_it_had_reached(rules):
    at = _stopped_at(rules, Scenario.load(SCENARIOS / "base" / "tides" / "tides-skull.yaml"), "casualty")
    assert _combat_frames(at["state"]) == [{"at": "combat.skulls", "side": 1, "done": 0}]
    assert at["state"]["step"]["combat"]["tides"] == {"lannister": "tob-1-sword", "stark": "tob-skull"}
    d = at["again"].decision
    assert (d.house, d.prompt, d.options, d.rule) == ("lannister", "lannister: lose a unit to a skull",
                                                      ["footman", "knight"], "R29.3.5")
    _goes_on_alike(at)


def test_an_ability_of_the_clean_up_restarts_with_the_march_order_and_the_names_it_began_with(rules):
    sc = Scenario.load(SCENARIOS / "base" / "cards" / "patchface.yaml")
    at = _stopped_at(rules, sc, "may")
    state = at["state"]
    assert _combat_frames(state) == [
        {"at": "combat.clean-up", "march": {"house": "stark", "order": "march"}, "advanced": True},
        {"at": "combat.abilities", "window": "after-combat", "order": ["baratheon", "stark"], "house": 0,
         "card": "patchface", "ability": 0, "ran": True,
         "scope": {"you": "baratheon", "opponent": "stark", "embattled-area": "the-reach", "this-card": "patchface",
                   "your-card": "patchface", "opponent-card": "greatjon-umber", "attacker": "stark",
                   "defender": "baratheon", "march-origin": "blackwater"}}]
    assert "blackwater" not in state["orders"]  # taken off, settled after the abilities (R21.5.2)
    d = at["again"].decision
    assert (d.house, d.kind, d.info["card"]) == ("baratheon", "may", "patchface")
    _goes_on_alike(at)


# ---- the strict check (tests/restarts.py) at every decision the combat procedure asks ---------------------

def _check_here(rules: Rules, game: Game, seed: int, report: collections.Counter, failures: list) -> None:
    d = game.decision
    if "combat" not in game.state.step or d.kind not in COMBAT_KINDS or "source" in d.info:
        return
    report[d.kind] += 1
    agents = {h: RandomAgent(seed * 97 + d.number + i) for i, h in enumerate(game.state.houses)}
    why = differs(replayed(game), restart_here(rules, game), agents, 2)
    if why is not None:
        failures.append(f"{d.kind} #{d.number}: {why}")


def test_every_combat_decision_of_the_scenarios_restarts_from_the_state_alone(rules, tmp_path):
    report: collections.Counter = collections.Counter()
    failures: list = []
    (tmp_path / "supply-loss.yaml").write_text(SUPPLY_LOSS, encoding="utf-8")
    (tmp_path / "attacker-supply-loss.yaml").write_text(ATTACKER_SUPPLY_LOSS, encoding="utf-8")
    for path in [*sorted((SCENARIOS / "base").rglob("*.yaml")), *sorted(tmp_path.glob("*.yaml"))]:
        sc = Scenario.load(path)

        def hook(game: Game, sc=sc, path=path) -> None:
            answer = game.answer

            def answering(value):
                before = len(failures)
                _check_here(sc.rules_for(rules), game, 1, report, failures)
                failures[before:] = [f"{path.name} {f}" for f in failures[before:]]
                answer(value)
            game.answer = answering

        run_scenario(rules, sc, on_game=hook)
    assert failures == []
    assert set(report) == COMBAT_KINDS, f"checked: {dict(report)}"


@pytest.mark.parametrize("setup,seed,tides", [("base-4p", 2, True), ("mod-6p-with-targaryen", 4, True),
                                              ("base-6p", 8, True)])
def test_every_combat_decision_of_a_random_game_restarts_from_the_state_alone(rules, setup, seed, tides):
    game = new_game(rules, setup, seed=seed, options=ModOptions(tides_of_battle=tides, rounds=4))
    agents = {h: RandomAgent(seed * 31 + i) for i, h in enumerate(game.state.houses)}
    report: collections.Counter = collections.Counter()
    failures: list = []
    while game.decision is not None:
        _check_here(rules, game, seed, report, failures)
        game.answer(agents[game.decision.house].act(game, game.decision))
    assert failures == []
    assert report["house-card"] >= 4 and report.total() >= 6
