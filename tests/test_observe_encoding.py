"""The observation encoder (env/observe.py) writes a Python float array for speed: it must give exactly the
vector of the plain numpy version it replaced (kept here as the reference), at every step of random games."""

from __future__ import annotations

import numpy as np
import pytest

from maester.env import maester_v0
from maester.env.observe import DECISION_KINDS, HIDDEN, PHASES, lean_view, view


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
