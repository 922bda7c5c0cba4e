"""The observation holds every public element (issue 25): perturb one element of a real position and the named
feature of another house's observation changes; secrets do not show; the feature names and docs/agents.md agree."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("gymnasium")

from maester.env import features  # noqa: E402
from maester.env.global_state import full_view  # noqa: E402
from maester.env.observe import Encoder, lean_view, view  # noqa: E402
from maester.env.position import make_game, rules_for  # noqa: E402
from maester.interpreter.frontends.agents import HeuristicAgent  # noqa: E402
from maester.interpreter.mod.state import DragonsState  # noqa: E402

SETUP = "mod-4p-with-targaryen"


def _agents(game):
    return {h: HeuristicAgent(i) for i, h in enumerate(sorted(game.state.houses))}


def _play_to(game, stop):
    agents = _agents(game)
    while game.decision is not None and not stop(game):
        game.answer(agents[game.decision.house].act(game, game.decision))
    assert game.decision is not None, "the game ended before the position looked for"
    return game


@pytest.fixture(scope="module")
def combat_game():
    """A Mother of Dragons game (Tides of Battle) stopped at a house card choice inside a combat."""
    game = make_game(rules_for(None), SETUP, 3, tides_of_battle=True)
    return _play_to(game, lambda g: g.decision.kind == "house-card" and "combat" in g.state.step)


@pytest.fixture(scope="module")
def encoder():
    return Encoder(rules_for(None), SETUP)


def _observer(game) -> str:
    """A player house that is neither side of the combat nor deciding now."""
    c = game.state.step.get("combat") or {}
    busy = {c.get("attacker"), c.get("defender"), game.decision.house}
    from maester.env.position import player_houses

    return next(h for h in player_houses(game) if h not in busy and game.actor(h) not in busy)


def _changed(encoder, game, house, mutate) -> set[str]:
    names = [f.name for f in encoder.feature_names()]
    before = encoder.encode(lean_view(game, house))
    g = game.clone()
    mutate(g)
    after = encoder.encode(lean_view(g, house))
    return {names[i] for i in np.flatnonzero(before != after)}


def test_every_feature_has_a_name_and_a_range(encoder):
    names = encoder.feature_names()
    assert len(names) == encoder.size and len({f.name for f in names}) == encoder.size
    assert all(f.low <= f.high for f in names)
    assert list(encoder.sections) == ["areas", "houses", "global", "combat", "context", "dragons", "removed"]


def test_the_combat_in_progress_is_public(combat_game, encoder):
    g = combat_game
    c = g.state.step["combat"]
    who = _observer(g)
    obs = encoder.encode(lean_view(g, who))
    names = {f.name: i for i, f in enumerate(encoder.feature_names())}
    assert obs[names["combat.active"]] == 1 and obs[names[f"combat.area.{c['area']}"]] == 1
    assert obs[names[f"combat.attacker.{c['attacker']}"]] == 1 and obs[names[f"combat.origin.{c['origin']}"]] == 1
    kind = c["attacking"][0][0]
    assert obs[names[f"combat.attacking.{kind}"]] == sum(1 for u in c["attacking"] if u[0] == kind)
    other_area = next(a for a in encoder.areas if a not in (c["area"], c["origin"]))
    other_house = next(h for h in encoder.houses if h not in (c["attacker"], c["defender"]))

    def combat(g2):
        return g2.state.step["combat"]

    cases = {
        "combat.area." + other_area: lambda g2: combat(g2).update(area=other_area),
        "combat.origin." + other_area: lambda g2: combat(g2).update(origin=other_area),
        "combat.attacker." + other_house: lambda g2: combat(g2).update(attacker=other_house),
        "combat.defender." + other_house: lambda g2: combat(g2).update(defender=other_house),
        f"combat.attacking.{kind}": lambda g2: combat(g2)["attacking"].append([kind, False]),
        "combat.attacking.routed": lambda g2: combat(g2)["attacking"].append([kind, True]),
        "combat.march_bonus": lambda g2: combat(g2).update(march_bonus=c["march_bonus"] + 1),
        "combat.support_areas.defender": lambda g2: combat(g2)["support"].update({other_area: "defender"}),
        "combat.stage.blade": lambda g2: combat(g2).update(stage="blade"),
        "combat.final.attacker": lambda g2: combat(g2).update(final={c["attacker"]: 7}),
        "combat.winner.defender": lambda g2: combat(g2).update(winner=c["defender"]),
        "combat.blade.attacker": lambda g2: combat(g2).update(blade_used_by=c["attacker"]),
    }
    for name, mutate in cases.items():
        assert name in _changed(encoder, g, who, mutate), name


def test_support_is_seen_per_house(combat_game, encoder):
    g = combat_game
    who = _observer(g)
    area = next(a for a, o in g.state.orders.items() if o["house"] == who) if any(
        o["house"] == who for o in g.state.orders.values()) else None
    if area is None:
        pytest.skip("the observer has no order on the board at this position")
    changed = _changed(encoder, g, who, lambda g2: g2.state.step["combat"]["support"].update({area: "attacker"}))
    assert f"combat.support.{who}.attacker" in changed


def test_house_cards_show_after_the_reveal_only_and_the_chooser_sees_its_own(combat_game, encoder):
    g = combat_game
    c = g.state.step["combat"]
    who = _observer(g)
    card = sorted(g.state.houses[c["attacker"]].hand)[0]

    def chosen(stage):
        def mutate(g2):
            g2.state.step["combat"]["cards"][c["attacker"]] = card
            g2.state.step["combat"]["stage"] = stage
        return mutate

    assert f"combat.card.attacker.{card}" not in _changed(encoder, g, who, chosen("house-cards"))  # not yet revealed
    assert f"combat.card.attacker.{card}" in _changed(encoder, g, who, chosen("cancel"))  # face up
    assert f"combat.card.attacker.{card}" in _changed(encoder, g, g.actor(c["attacker"]), chosen("house-cards"))
    tide = sorted(g.rules.bundle["tides_cards"])[0]

    def drawn(stage):
        def mutate(g2):
            g2.state.step["combat"]["tides"] = {c["attacker"]: tide}
            g2.state.step["combat"]["stage"] = stage
        return mutate

    assert f"combat.tides.attacker.{tide}" not in _changed(encoder, g, who, drawn("tides"))
    assert f"combat.tides.attacker.{tide}" in _changed(encoder, g, who, drawn("blade"))


def test_the_decision_context_is_the_deciders_alone(combat_game, encoder):
    g = combat_game
    d = g.decision
    who = _observer(g)
    mine = encoder.encode(lean_view(g, d.house))
    names = {f.name: i for i, f in enumerate(encoder.feature_names())}
    assert mine[names[f"context.area.{d.info['area']}"]] == 1 and mine[names["context.options"]] == len(d.options)
    area = next(a for a in encoder.areas if a != d.info["area"] and a in g.state.orders)
    order = g.state.orders[area]["order"]

    def elsewhere(g2):
        g2.decision.info["area"] = area

    changed = _changed(encoder, g, d.house, elsewhere)
    assert {f"context.area.{area}", f"context.order.{order}"} <= changed
    card = sorted(g.rules.bundle["westeros_cards"])[0]
    assert f"context.card.{card}" in _changed(encoder, g, d.house, lambda g2: g2.decision.info.update(card=card))
    assert not _changed(encoder, g, who, elsewhere)  # another house sees nothing of it


def test_every_mother_of_dragons_part_is_public(combat_game, encoder):
    g = combat_game
    who = _observer(g)
    area = encoder.areas[0]
    loan = sorted(g.rules.bundle["loans"])[0]
    vassal = DragonsState.of(g.state).vassals[0]
    player = next(h for h in encoder.houses if h != vassal and h not in DragonsState.of(g.state).vassals)

    def ms(g2):
        return DragonsState.of(g2.state)

    cases = {
        f"dragons.area.{area}.supply": lambda g2: ms(g2).improvements.setdefault(area, []).append("supply"),
        f"dragons.area.{area}.no-castle": lambda g2: ms(g2).improvements.setdefault(area, []).append("no-castle"),
        f"dragons.area.{area}.lost_home": lambda g2: ms(g2).lost_homes.append(area),
        f"dragons.house.{vassal}.commander.{player}": lambda g2: ms(g2).commanders.update({vassal: player}),
        f"dragons.house.{player}.loyalty_points": lambda g2: ms(g2).loyalty_points.update({player: 3}),
        f"dragons.house.{player}.loan.{loan}": lambda g2: ms(g2).loans.setdefault(player, []).append(loan),
        f"dragons.house.{player}.discount": lambda g2: setattr(ms(g2), "discount_holder", player),
        f"dragons.house.{player}.leaving": lambda g2: ms(g2).leaving.append(player),
        f"dragons.bank.0.{loan}": lambda g2: ms(g2).bank.__setitem__(0, loan),
        "dragons.loan_deck_size": lambda g2: ms(g2).loan_deck.pop(),
        "dragons.dragon_strength": lambda g2: setattr(ms(g2), "dragon_strength", ms(g2).dragon_strength + 1),
        "dragons.dragon_tokens": lambda g2: ms(g2).dragon_tokens.pop(),
        f"area.{area}.loyalty": lambda g2: ms(g2).loyalty.update({area: 2}),
    }
    for name, mutate in cases.items():
        assert name in _changed(encoder, g, who, mutate), name


def test_board_houses_and_tracks_are_seen(combat_game, encoder):
    g = combat_game
    who = _observer(g)
    area = next(a for a in encoder.areas if a not in g.state.units and a not in g.state.blocked)
    other = next(h for h in encoder.houses if h != who)
    card = sorted(g.state.houses[other].hand or g.state.houses[other].discards or ["x"])[0]
    cases = {
        f"area.{area}.units.footman": lambda g2: g2.state.add_unit(area, other, "footman"),
        f"area.{area}.power_token.{other}": lambda g2: g2.state.power_tokens.update({area: other}),
        f"area.{area}.garrison": lambda g2: g2.state.garrisons.update({area: 2}),
        f"house.{other}.power": lambda g2: setattr(g2.state.houses[other], "power", g2.state.houses[other].power + 1),
        f"house.{other}.supply": lambda g2: setattr(g2.state.houses[other], "supply", 0),
        f"removed.{other}.{card}": lambda g2: g2.state.houses[other].removed.append(card),
        "wildling_threat": lambda g2: setattr(g2.state, "wildling_threat", g2.state.wildling_threat + 2),
        "seized.valyrian-steel-blade." + other: lambda g2: g2.state.seized_tokens.update(
            {"valyrian-steel-blade": other}),
    }
    for name, mutate in cases.items():
        assert name in _changed(encoder, g, who, mutate), name


def test_the_view_and_the_lean_view_encode_alike_and_the_global_state_shows_the_secrets(combat_game, encoder):
    g = combat_game
    for house in g.state.houses:
        assert np.array_equal(encoder.encode(view(g, house)), encoder.encode(lean_view(g, house)))
    full = encoder.encode(full_view(g))
    names = {f.name: i for i, f in enumerate(encoder.feature_names())}
    for area, o in g.state.orders.items():
        assert full[names[f"area.{area}.order.{o['order']}"]] == 1
    for house, hs in g.state.houses.items():
        assert all(full[names[f"house.{house}.hand.{c}"]] == 1 for c in hs.hand)


def test_docs_list_the_current_features_and_action_counts():
    text = features.DOC.read_text(encoding="utf-8")
    start, end = text.index(features.BEGIN), text.index(features.END) + len(features.END)
    assert text[start:end] == features.doc_text(), "run: python -m maester.env.features --write"


def test_the_combat_steps_are_the_engines():
    from maester.interpreter.procedures.combat import NEUTRAL, STAGE_NAMES

    assert features.STAGES == STAGE_NAMES and features.NEUTRAL == NEUTRAL


def test_maester_v1_passes_the_pettingzoo_api_test_and_keeps_v0_s_layout_first():
    from pettingzoo.test import api_test

    from maester.env import maester_v0, maester_v1

    api_test(maester_v1.env(setup="mod-4p-with-targaryen", rounds=1), num_cycles=150)
    v0, v1 = maester_v0.env(setup="base-3p", rounds=1), maester_v1.env(setup="base-3p", rounds=1)
    v0.reset(seed=4)
    v1.reset(seed=4)
    a = v0.agent_selection
    old, new = v0.observe(a)["observation"], v1.observe(a)["observation"]
    assert new.size > old.size and np.array_equal(new[:old.size], old)


def test_pettingzoo_state_is_the_global_state():
    from maester.env import maester_v1

    env = maester_v1.env(setup="base-3p", rounds=1)
    env.reset(seed=2)
    s = env.state()
    assert s.shape == env.state_space.shape and env.state_space.contains(s)
    assert np.array_equal(s, env.encoder.encode(full_view(env.game)))


def test_the_layout_digest_names_the_layout():
    rules = rules_for(None)
    a, b = Encoder(rules, "base-3p"), Encoder(rules, "base-3p")
    assert a.digest == b.digest and len(a.digest) == 16
    assert Encoder(rules, "base-4p").digest != a.digest  # another house: every feature after the first house moves
    # same size, other meaning: the digest reads names, not only the length
    names = [f.name for f in a.feature_names()]
    assert len(names) == a.size and len(set(names)) == a.size
