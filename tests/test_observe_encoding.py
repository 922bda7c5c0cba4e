"""The observation encoder (env/observe.py) writes a Python float array for speed: it must give exactly the
vector of the plain numpy version it replaced (kept here as the reference), at every step of random games."""

from __future__ import annotations

import numpy as np
import pytest

from maester.env import maester_v0, maester_v1
from maester.env.observe import DECISION_KINDS, HIDDEN, PHASES, lean_view, view
from maester.interpreter.core.state import board_written


def reference_encode(self, v: dict) -> np.ndarray:
    out = np.zeros(self.size, dtype=np.float32)
    H, K, O = len(self.houses), len(self.kinds), len(self.orders)  # noqa: N806, E741
    aw, hi = self.area_width, self._h
    base = np.arange(len(self.areas)) * aw
    out[base + H] = 1.0  # no unit owner unless set below
    out[base + (H + 1) + K + 1 + O + 1] = 1.0  # no order
    out[base + (H + 1) + K + 1 + (O + 2) + H] = 1.0  # no power token
    for area, army in v["units"].items():
        o = self._a[area] * aw
        out[o + H] = 0.0
        out[o + hi[army["house"]]] = 1.0
        for kind, routed in army["units"]:
            out[o + H + 1 + self._k[kind]] += 1.0
            if routed:
                out[o + H + 1 + K] += 1.0
    for area, order in v["orders"].items():
        o = self._a[area] * aw + (H + 1) + K + 1
        out[o + O + 1] = 0.0
        out[o + (O if order["order"] == HIDDEN else self._o[order["order"]])] = 1.0
    for area, owner in v["power_tokens"].items():
        o = self._a[area] * aw + (H + 1) + K + 1 + (O + 2)
        out[o + H] = 0.0
        out[o + hi[owner]] = 1.0
    tail = (H + 1) + K + 1 + (O + 2) + (H + 1)
    for area, n in v["garrisons"].items():
        out[self._a[area] * aw + tail] = n
    for area, n in v["neutral_forces"].items():
        out[self._a[area] * aw + tail + 1] = n
    for area, n in v["loyalty"].items():
        out[self._a[area] * aw + tail + 2] = n
    for area in v["blocked"]:
        out[self._a[area] * aw + tail + 3] = 1.0
    start = self.sections["areas"]
    hw, nc = self.house_width, len(self.cards)
    for h, hs in v["houses"].items():
        if h not in hi:
            continue
        o = start + hi[h] * hw
        out[o:o + 4] = (hs["power"], hs["supply"], hs["last_bid"], hs["victory_points"])
        for j, t in enumerate(self.tracks):
            order = v["tracks"].get(t, [])
            out[o + 4 + j] = order.index(h) + 1 if h in order else 0
        o += 4 + len(self.tracks)
        out[o:o + 3] = (1.0 if hs["vassal"] else 0.0, 1.0 if h == v["house"] else 0.0, hs["hand_size"])
        o += 3
        if hs["hand"] != HIDDEN:
            for c in hs["hand"]:
                out[o + self._c[c]] = 1.0
        for c in hs["discards"]:
            out[o + nc + self._c[c]] = 1.0
    o = start + self.sections["houses"]
    out[o] = v["round"]
    out[o + 1 + PHASES.index(v["phase"])] = 1.0
    o += 1 + len(PHASES)
    out[o:o + 3] = (v["wildling_threat"], 1.0 if v["blade_used"] else 0.0, 1.0 if v["raven_used"] else 0.0)
    o += 3
    for j, deck in enumerate(self.decks):
        out[o + j] = v["deck_sizes"].get(deck, 0)
    o += len(self.decks)
    out[o] = v["wildling_deck_size"]
    o += 1
    top = v["wildling_top"]
    out[o + (self._w[top] if top is not None else len(self.wildlings))] = 1.0
    o += len(self.wildlings) + 1
    d = v["decision"]
    if d is not None and d["house"] == v["house"]:
        out[o + self._kind.get(d["kind"], len(DECISION_KINDS) - 1)] = 1.0
        out[o + len(DECISION_KINDS)] = 1.0
    return out


@pytest.mark.parametrize("setup", ["base-3p", "mod-8p"])
def test_the_fast_encoder_gives_the_reference_vector(setup):
    env = maester_v0.env(setup=setup)
    enc = env.encoder
    steps = 0
    for seed in (1, 2):
        env.reset(seed=seed)
        rng = np.random.default_rng(seed)
        while not env.game.over and steps < 150 * seed:
            for house in (env.agent_selection, env.possible_agents[steps % len(env.possible_agents)]):
                for v in (lean_view(env.game, house), view(env.game, house)):
                    fast = enc.encode(v)
                    assert fast.dtype == np.float32 and fast.shape == (enc.size,)
                    assert np.array_equal(fast, reference_encode(enc, v))
            mask = env.action_mask(env.agent_selection)
            env.step(int(rng.choice(np.flatnonzero(mask))))
            steps += 1
    assert steps >= 300


def _agrees(env, house) -> np.ndarray:
    """The environment's observation (kept up to date by env/incremental.py) is exactly the from-scratch encoding,
    and its first three sections are the reference's."""
    enc = env.encoder
    obs = env.observe(house)["observation"]
    v = lean_view(env.game, house)
    assert obs.dtype == np.float32 and obs.shape == (enc.size,)
    assert np.array_equal(obs, enc.encode(v)), f"{house} at decision {env.game.decision_count}"
    board = sum(enc.sections[s] for s in ("areas", "houses", "global"))
    assert np.array_equal(obs[:board], reference_encode(enc, v)[:board])
    return obs


def _edit_by_hand(env, n: int):
    """Change the state the ways env/incremental.py finds apart (one key added or removed, a value changed in place,
    several keys at once) and return what puts it back: an order placed (the last key of `orders`), another order
    changed in place and one taken away, a unit routed or rallied (a new list, as the rules do) and another moved in
    its army's list, a card taken from a hand, a house's
    supply, a track's order."""
    st, enc = env.game.state, env.encoder
    orders, saved_orders = st.orders, {a: dict(o) for a, o in st.orders.items()}
    armies = [a for a in st.units if a not in orders]
    if armies:  # an order placed by hand where an army stands without one
        area = armies[n % len(armies)]
        orders[area] = {"house": st.units[area]["house"], "order": enc.orders[n % len(enc.orders)]}
    if len(orders) > 2:
        first = next(iter(orders))
        orders[first]["order"] = enc.orders[(enc.orders.index(orders[first]["order"]) + 1) % len(enc.orders)]
        del orders[list(orders)[1]]
    army_area = next(iter(st.units), None)
    army = st.units[army_area] if army_area else None
    unit = army["units"][0] if army else None
    if army:  # a new list, as the rules do (env/incremental.py shares the units' lists with its copies)
        army["units"][0] = [unit[0], not unit[1]]
    if army and len(army["units"]) > 1:  # a unit taken away and put back at the end of the army's list
        army["units"].append(army["units"].pop(0))
    if army:  # logged, as the engine's writers do (an army's changes are found from the log: state.board_written)
        board_written(army_area)
    hs = st.houses[env.agents[n % len(env.agents)]]
    hand, supply = list(hs.hand), hs.supply
    if hs.hand:
        hs.hand.pop()
    other = st.houses[env.agents[(n + 1) % len(env.agents)]]
    other.supply = (other.supply + 1) % 7  # a house's first slots alone (when it is not `hs`)
    track = st.tracks[next(iter(st.tracks))]
    track.reverse()  # every house's position on a track

    def undo():
        orders.clear()
        orders.update(saved_orders)
        if army:
            army["units"].insert(0, army["units"].pop())
            army["units"][0] = unit
            board_written(army_area)
        hs.hand[:] = hand
        other.supply = (other.supply - 1) % 7
        hs.supply = supply
        track.reverse()
    return undo


def test_sync_finds_every_changed_key():
    """`_sync` (env/incremental.py) against the keys that truly differ, through random additions, removals, and
    changes in place, one or many at a time; the copy equals the dict afterwards and `old` keeps what it held."""
    import random

    from maester.env.incremental import _copy, _sync

    rng = random.Random(3)
    now = {f"a{i}": {"house": "h", "units": [["footman", False]]} for i in range(20)}
    then = _copy(now)
    for _ in range(2000):
        for _ in range(rng.choice((1, 1, 1, 2, 3))):
            op, keys = rng.random(), list(now)
            if op < 0.3 or not keys:
                now[f"a{rng.randrange(40)}"] = {"house": rng.choice("hk"), "units": [["knight", rng.random() < 0.5]]}
            elif op < 0.55:
                del now[rng.choice(keys)]
            elif op < 0.8:
                now[rng.choice(keys)]["units"][0][1] ^= True  # in place
            else:
                k = rng.choice(keys)
                now[k] = now.pop(k)  # the same value, moved to the end: nothing changed
        before = _copy(then)
        expected = {k for k in now.keys() | before.keys() if now.get(k) != before.get(k)}
        old: dict = {}
        changed = _sync(now, then, _copy, old)
        assert set(changed) == expected and len(changed) == len(expected)
        assert then == now and old == {k: before.get(k) for k in expected}


@pytest.mark.parametrize("setup", ["base-6p", "mod-8p"])
def test_the_incremental_observation_is_the_from_scratch_encoding_at_every_step(setup):
    """Every step of random games, the house asked and another one (every house now and then), through a clone
    played on and put back, an undo, edits of the state by hand (then undone) and a reset in the middle of a game."""
    env = maester_v1.env(setup=setup, tides_of_battle=True)
    steps = 0
    for seed in (1, 2, 3):
        env.reset(seed=seed)
        rng = np.random.default_rng(seed)
        kept = None
        while not env.game.over and steps < 400 * seed:
            houses = env.agents if steps % 40 == 0 else [env.agent_selection, env.agents[steps % len(env.agents)]]
            before = {h: _agrees(env, h) for h in houses}
            frozen = {h: v.copy() for h, v in before.items()}
            if steps % 97 == 10:
                kept = env.game.clone()  # a search keeps a copy, plays on, then puts it back
            if steps % 97 == 20 and kept is not None:
                env.game, kept = kept, None
                env._select()
                _agrees(env, env.agent_selection)
            if steps % 151 == 30 and env.game.answers:
                env.game.undo()
                env._select()
                _agrees(env, env.agent_selection)
            if steps % 173 == 40:  # an edit by hand: a garrison and a house's power
                area = env.encoder.areas[steps % len(env.encoder.areas)]
                env.game.state.garrisons[area] = 3
                env.game.state.houses[env.agents[0]].power += 1
                for h in env.agents:
                    _agrees(env, h)
            if steps % 61 == 7:  # edits in place, seen and undone: orders, a unit, a hand (see _edit_by_hand)
                undo = _edit_by_hand(env, steps)
                for h in env.agents:
                    _agrees(env, h)
                undo()
                for h in houses:
                    _agrees(env, h)
            mask = env.action_mask(env.agent_selection)
            env.step(int(rng.choice(np.flatnonzero(mask))))
            steps += 1
            for h, v in before.items():  # an observation returned earlier never changes afterwards
                assert np.array_equal(v, frozen[h])
        if seed == 2:  # a reset in the middle of a game: the next one starts from scratch
            env.reset(seed=7)
            for h in env.agents:
                _agrees(env, h)
    assert steps >= 1000


def test_the_incremental_observation_of_maester_v0_is_its_encoding():
    env = maester_v0.env(setup="mod-4p-with-targaryen")
    env.reset(seed=5)
    rng = np.random.default_rng(5)
    for _ in range(300):
        if env.game.over:
            break
        for h in env.agents:
            _agrees(env, h)
        env.step(int(rng.choice(np.flatnonzero(env.action_mask(env.agent_selection)))))


def test_a_secret_answer_does_not_show_in_the_next_houses_incremental_observation():
    """Two branches of a game that differ by a face-down order or a house card: the next house's observation, kept
    up to date since the shared start, is the same in both (and the house who answered sees its answer)."""
    from maester.env.incremental import Observations

    env = maester_v1.env(setup="base-3p")
    found = set()
    for seed in range(1, 40):
        env.reset(seed=seed)
        rng = np.random.default_rng(seed)
        while not env.game.over and len(found) < 2:
            d = env.game.decision
            if d.kind in ("place-order", "house-card") and d.kind not in found and len(d.options) > 1:
                a, b = env.game.clone(), env.game.clone()
                seen_a, seen_b = Observations(env.encoder), Observations(env.encoder)
                for h in env.agents:  # both follow the game from here, then see only what changed
                    seen_a.observe(a, h)
                    seen_b.observe(b, h)
                a.answer(d.options[0])
                b.answer(d.options[-1])
                if a.decision and b.decision and a.decision.house == b.decision.house != d.house:
                    nxt = a.decision.house
                    assert np.array_equal(seen_a.observe(a, nxt), seen_b.observe(b, nxt))
                    assert not np.array_equal(seen_a.observe(a, d.house), seen_b.observe(b, d.house))
                    found.add(d.kind)
            env.step(int(rng.choice(np.flatnonzero(env.action_mask(env.agent_selection)))))
        if len(found) == 2:
            return
    pytest.fail(f"only {found} found")


def test_a_copied_or_pickled_environment_observes_alike():
    import copy
    import pickle

    env = maester_v1.env(setup="base-3p")
    env.reset(seed=4)
    for _ in range(30):
        env.last()
        env.step(int(np.flatnonzero(env.action_mask(env.agent_selection))[0]))
    for other in (copy.deepcopy(env), pickle.loads(pickle.dumps(env))):
        for h in env.agents:
            assert np.array_equal(_agrees(other, h), env.observe(h)["observation"])


def test_the_single_agent_wrapper_observes_the_from_scratch_encoding():
    from maester.env.wrappers import SingleAgentEnv

    env = SingleAgentEnv("base-3p", opponents="random", rounds=2)
    obs, _ = env.reset(seed=3)
    rng = np.random.default_rng(3)
    for _ in range(60):
        assert np.array_equal(obs, env.encoder.encode(lean_view(env.game, env.house)))
        obs, _, done, _, _ = env.step(int(rng.choice(np.flatnonzero(env.action_masks()))))
        if done:
            break
