"""A clone is an independent game at the same decision (issue 23): answered the same as its original it emits the same
events and reaches the same states; answered otherwise, neither changes the other, down to the nested data (the
combat in progress, the frames, the Mother of Dragons module's state). The same for a position resumed from a
document (`check="trusted"`): it shares nothing with the document."""

from __future__ import annotations

import copy
import json

import pytest

from maester.interpreter.core import snapshot
from maester.interpreter.core.rules import Rules
from maester.interpreter.core.state import GameState, HouseState
from maester.interpreter.frontends.agents import RandomAgent
from maester.interpreter.mod import new_game
from maester.interpreter.procedures.game import Game

STEPS = 6  # answers given to a clone and its original after the copy


@pytest.fixture(scope="module")
def rules():
    return Rules.default()


def _containers(state: GameState) -> dict[int, object]:
    """Every list, dict and record reachable from the state, by id (a clone must share none of them)."""
    found: dict[int, object] = {}
    stack: list[object] = [state]
    while stack:
        node = stack.pop()
        if id(node) in found:
            continue
        if isinstance(node, GameState | HouseState):
            found[id(node)] = node
            stack.append(vars(node))
        elif isinstance(node, dict):
            found[id(node)] = node
            stack.extend(node.values())
        elif isinstance(node, list | tuple):
            found[id(node)] = node
            stack.extend(node)
    return found


def _own(clone: GameState, original: GameState) -> set[int]:
    """The lists, dicts and records a clone's state shares with its original's, but for the units' `[kind, routed]`
    lists, which a clone shares (never changed in place: state.py): an independent clone shares nothing else."""
    units = {id(u) for army in original.units.values() for u in army["units"]}
    return (_containers(clone).keys() & _containers(original).keys()) - units


def _interesting(game: Game) -> bool:
    """A position with nested data in play: a combat, frames three deep, or the module's bank and loans."""
    st = game.state
    return "combat" in st.step or len(st.frames) >= 3


def _positions(rules, setup: str, seed: int, limit: int, every: int = 40):
    """(game, agents) at sampled decisions of a random game: every `every` decisions and wherever nested data is in
    play (each kind of frame stack once); the caller goes on playing the game it is given."""
    game = new_game(rules, setup, seed=seed)
    agents = {h: RandomAgent(seed + i) for i, h in enumerate(game.state.houses)}
    seen: set[tuple] = set()
    while game.decision is not None and game.decision_count < limit:
        stack = (tuple(game.state.step), tuple(f["at"] for f in game.state.frames))
        if game.decision_count % every == 0 or (_interesting(game) and stack not in seen):
            seen.add(stack)
            yield game, agents
        if game.decision is not None:
            game.answer(agents[game.decision.house].act(game, game.decision))


@pytest.mark.parametrize("setup, seed, limit", [("mod-8p", 3, 420), ("base-6p", 2, 240)])
def test_a_clone_and_its_original_go_on_alike_and_apart(rules, setup, seed, limit):
    nested = 0
    for game, agents in _positions(rules, setup, seed, limit):
        nested += _interesting(game)
        at = game.state.to_json()
        asked = game.decision.to_json()
        twin, other = game.clone(), game.clone()
        assert twin.state.to_json() == at and twin.decision.to_json() == asked
        assert twin.events == game.events and twin.answers == game.answers
        shared = _own(twin.state, game.state)
        assert not shared, f"a clone shares {len(shared)} lists or dicts with its original"
        assert twin.events is not game.events and twin.answers is not game.answers
        assert twin.checkpoints is not game.checkpoints and twin.state.frames is not game.state.frames

        # answered otherwise, a clone changes nothing in its original (nor in another clone)
        stranger = {h: RandomAgent(1000 + i) for i, h in enumerate(other.state.houses)}
        for _ in range(STEPS):
            if other.decision is None:
                break
            other.answer(stranger[other.decision.house].act(other, other.decision))
        assert game.state.to_json() == at and game.decision.to_json() == asked
        assert twin.state.to_json() == at
        apart = other.state.to_json()

        # answered the same, the clone and its original emit the same events and reach the same states
        base = len(game.events)
        for _ in range(STEPS):
            if game.decision is None:
                break
            answer = agents[game.decision.house].act(game, game.decision)
            game.answer(answer)
            twin.answer(answer)
            assert twin.state.hash() == game.state.hash()
            assert (twin.decision and twin.decision.to_json()) == (game.decision and game.decision.to_json())
        assert twin.events[base:] == game.events[base:] and twin.event_count == game.event_count
        assert other.state.to_json() == apart  # and the original going on changed nothing in the other clone
    assert nested >= 2, "the positions include no combat or deep frames: the test lost its point"


def test_a_clone_taken_before_its_original_moves_on_stays_at_the_clone(rules):
    """A clone comes to life when first used (Game.clone): whatever happens to its original before then (answers, a
    direct edit of its state, another clone), the clone wakes at the position it was taken at, with its own copy
    of the decision; a clone of a clone that has not woken is the same position too."""
    game = new_game(rules, "mod-8p", seed=7)
    agents = {h: RandomAgent(7 + i) for i, h in enumerate(game.state.houses)}
    for _ in range(150):
        game.answer(agents[game.decision.house].act(game, game.decision))
    at, asked, events = game.state.to_json(), game.decision.to_json(), list(game.events)
    twin = game.clone()
    grandchild = twin.clone()  # from the sleeping clone
    twin.decision.info["marked"] = True  # the clone's decision is its own...
    assert "marked" not in game.decision.info
    for _ in range(5):
        game.answer(agents[game.decision.house].act(game, game.decision))
    house = next(iter(game.state.houses))
    game.state.houses[house].power += 3  # ...and so is its state, edited directly in the original
    assert twin.decision.info.pop("marked") and twin.decision.to_json() == asked
    for copy_ in (twin, grandchild):
        assert copy_.state.to_json() == at and copy_.events == events and copy_.decision.to_json() == asked
        assert copy_.event_count == len(events) and copy_.answers == game.answers[:len(copy_.answers)]
    assert not _own(twin.state, grandchild.state)
    # woken, it plays on as the original did from there
    replay = new_game(rules, "mod-8p", seed=7)
    for answer in game.answers[:len(twin.answers)]:
        replay.answer(answer)
    for answer in game.answers[len(twin.answers):]:
        twin.answer(answer)
        replay.answer(answer)
    assert twin.state.hash() == replay.state.hash() and twin.events == replay.events


def _scribble(state: GameState) -> None:
    """Change every list, dict and record of the state in place (what any writer of the rules does to it, at the
    level of the data): a key added to each dict, an item to each list, a field of each record set; each unit's
    `[kind, routed]` list replaced by a changed one (the rules never change it in place: state.py)."""
    units = {id(u) for army in state.units.values() for u in army["units"]}
    for army in state.units.values():
        army["units"][:] = [[kind, not routed] for kind, routed in army["units"]]
    for node in list(_containers(state).values()):
        if id(node) in units:
            continue
        if isinstance(node, GameState | HouseState):
            vars(node)["round" if isinstance(node, GameState) else "power"] = 99
        elif isinstance(node, dict):
            node["scribbled"] = True
        else:
            node.append("scribbled")


def test_a_clone_asleep_or_awake_and_its_original_change_each_other_nowhere(rules):
    """A clone keeps part of its state as bytes until it is used (snapshot.Deferred: the free-form parts), the rest
    copied at once but for the units' `[kind, routed]` lists, shared: every container of the original changed in
    place after the clone (its units replaced), before it wakes, changes nothing in it nor in a clone of it; every
    container of a woken clone changed in place changes nothing in the original nor in the other clone, asleep or
    awake."""
    for game, _agents in _positions(rules, "mod-8p", 3, 420, every=1000):
        if not _interesting(game) or not game.state.orders:
            continue
        at = game.state.to_json()
        twin = game.clone()
        grandchild, sibling = twin.clone(), game.clone()  # a clone of a sleeping clone shares its bytes
        _scribble(game.state)  # the original, changed while its clones sleep
        assert game.state.to_json() != at
        for copy_ in (twin, grandchild, sibling):
            assert copy_.state.to_json() == at
        _scribble(twin.state)  # a woken clone, changed: the others (woken or not) and the original keep theirs
        changed = game.state.to_json()
        late = sibling.clone()
        for copy_ in (grandchild, sibling, late):
            assert copy_.state.to_json() == at
        assert game.state.to_json() == changed
        return
    raise AssertionError("no position with a combat or deep frames and orders: the test lost its point")


@pytest.mark.parametrize("setup, seed", [("mod-8p", 2), ("base-6p", 0)])
def test_the_rules_never_change_a_unit_in_place(rules, setup, seed):
    """A clone shares the units' `[kind, routed]` lists with its original (snapshot.Deferred): every writer of the
    rules puts a new list in place of a unit it changes (an upgrade at mustering, a card replacing a unit, the
    routed units rallied at the end of the Action Phase). Played on, a game changes nothing in the clones taken at
    its last decisions; the games include each kind of change."""
    game = new_game(rules, setup, seed=seed)
    agents = {h: RandomAgent(seed + i) for i, h in enumerate(game.state.houses)}
    recent: list[tuple[Game, dict]] = []
    rallied = 0
    while game.decision is not None:
        twin = game.clone()
        recent = [*recent[-7:], (twin, twin.state.to_json())]  # awake: its state read, sharing the units
        routed = any(u[1] for army in game.state.units.values() for u in army["units"])
        phase = game.state.phase
        game.answer(agents[game.decision.house].act(game, game.decision))
        rallied += routed and phase == "action" and game.state.phase != "action"
        for copy_, at in recent:
            assert copy_.state.to_json() == at, f"a unit changed in place at decision {game.decision_count}"
    texts = [e.get("text", "") for e in game.events]
    assert rallied and any("upgrades a" in t for t in texts) and any(e["type"] == "replace" for e in game.events), \
        "the game lost its point: no rally, upgrade or unit replaced"


def test_a_clone_undoes_and_saves_on_its_own(rules):
    for game, _agents in _positions(rules, "mod-8p", 5, 200, every=60):
        twin = game.clone()
        before = game.state.to_json()
        twin.answer(twin.decision.options[-1])
        twin.undo()
        assert twin.state.to_json() == before and game.state.to_json() == before
        assert Game.from_state(rules, json.loads(json.dumps(twin.to_state()))).state.to_json() == before


def test_a_trusted_resume_shares_nothing_with_its_document(rules):
    for game, _agents in _positions(rules, "mod-8p", 3, 420, every=1000):
        if not _interesting(game):
            continue
        doc = json.loads(json.dumps(game.to_state()))
        kept = copy.deepcopy(doc)
        resumed = Game.from_state(rules, doc, check="trusted")
        shared = {id(c) for c in _containers(resumed.state).values()} & {id(c) for c in _all(doc)}
        assert not shared, "a resumed game shares lists or dicts with the document it was read from"
        state = resumed.state.to_json()
        for part in (doc["state"], *(c["state"] for c in doc["checkpoints"])):  # the caller's document changes...
            for army in part["units"].values():
                army["units"].clear()
            part["step"].clear()
            part["frames"].clear()
            part["modules"].clear()
            for house in part["houses"].values():
                house["hand"].clear()
        assert resumed.state.to_json() == state  # ...the game does not
        resumed.answer(resumed.decision.options[0])
        resumed.undo()  # its checkpoints are its own too
        assert resumed.state.to_json() == state == kept["state"]


def _all(data) -> list:
    found, stack = [], [data]
    while stack:
        node = stack.pop()
        if isinstance(node, dict):
            found.append(node)
            stack.extend(node.values())
        elif isinstance(node, list):
            found.append(node)
            stack.extend(node)
    return found


def test_a_state_document_out_of_order_is_read_as_meant(rules):
    game = new_game(rules, "base-6p", seed=1)
    data = game.state.to_json()
    shuffled = dict(reversed(list(data.items())))  # the same fields in another order: read by GameState.from_json
    assert not snapshot.is_state_data(shuffled) and snapshot.is_state_data(data)
    assert snapshot.copy_json(shuffled).to_json() == data == snapshot.copy_json(data).to_json()
    partial = {k: v for k, v in data.items() if k != "winner"}  # a field left out takes its default
    assert snapshot.copy_json(partial).winner is None
    assert snapshot.loads(snapshot.dumps_json(shuffled)).to_json() == data


@pytest.mark.slow
def test_the_copy_is_exact_and_shares_nothing_at_every_decision_of_every_setup(rules):
    """The shaped copy (snapshot.copy) against the state itself, at every decision of a game of each setup (Tides of
    Battle on in every other one): equal, and no list or dict in common."""
    from maester.interpreter.mod import ModOptions

    for i, setup in enumerate(sorted(rules.bundle["setups"])):
        game = new_game(rules, setup, seed=40 + i, options=ModOptions(tides_of_battle=i % 2 == 1))
        agents = {h: RandomAgent(i + k) for k, h in enumerate(game.state.houses)}
        while game.decision is not None:
            twin = snapshot.copy(game.state)
            assert twin.to_json() == game.state.to_json(), f"{setup}: the copy differs at {game.decision_count}"
            assert not _containers(twin).keys() & _containers(game.state).keys(), f"{setup}: shared at " \
                f"{game.decision_count}"
            game.answer(agents[game.decision.house].act(game, game.decision))


def test_a_trusted_resume_checks_the_envelope_and_the_restart_not_the_schema(rules):
    """`check="trusted"` (a document this process made) skips the replay and the schema walk, not the envelope nor
    the restart check; a file from outside (`check="replay"`, the default) still gets every check (issue 20)."""
    from maester.interpreter.core.position import PositionError

    game = new_game(rules, "base-6p", seed=4)
    agents = {h: RandomAgent(4 + i) for i, h in enumerate(game.state.houses)}
    for _ in range(30):
        game.answer(agents[game.decision.house].act(game, game.decision))
    doc = json.loads(json.dumps(game.to_state()))
    assert Game.from_state(rules, doc, check="trusted").state.hash() == game.state.hash()
    for edit, message in [
        (lambda d: d.pop("history"), "has no 'history'"),  # the envelope
        (lambda d: d.update(version=99), "position version 99"),
        (lambda d: d["decision"].update(house="nobody"), "pending decision differs"),  # the restart check
        (lambda d: d["state"].update(setup="base-4p"), "another setup or seed"),
    ]:
        bad = copy.deepcopy(doc)
        edit(bad)
        with pytest.raises(PositionError, match=message):
            Game.from_state(rules, bad, check="trusted")
    floated = copy.deepcopy(doc)
    floated["state"]["houses"]["stark"]["power"] = float(doc["state"]["houses"]["stark"]["power"])
    with pytest.raises(PositionError, match="is not of type 'integer'"):
        Game.from_state(rules, floated)  # the default: the schema, integers strict
