"""A played house card is not in the hand (issue 19): from the moment a house chooses it, the card is held apart,
in the combat (`step.combat.cards`); a vassal's hand is the cards it did not play (R35.2) and none from Combat
Clean Up on (R35.4). A position saved by the previous state format (3), with the card still in the hand, is read
as it was meant."""

from __future__ import annotations

import copy
import random

import pytest

from maester.interpreter.core.rules import Rules
from maester.interpreter.mod import ModGame, new_game


@pytest.fixture(scope="module")
def rules():
    return Rules.default()


def _inside_a_combat(game, played_by_vassal: bool = False, limit: int = 4000):
    """Play random answers until a decision inside a combat after a card was chosen (by a vassal if asked)."""
    rng = random.Random(5)
    for _ in range(limit):
        d = game.decision
        if d is None:
            return None
        combat = game.state.step.get("combat") or {}
        played = {h: c for h, c in (combat.get("cards") or {}).items() if c}
        if played and (not played_by_vassal or any(game.is_vassal(h) for h in played)):
            return played
        game.answer(rng.choice(d.options))
    return None


@pytest.mark.parametrize("setup,seed", [("base-3p", 1), ("base-6p", 2)])
def test_the_played_card_is_out_of_the_hand_from_the_moment_it_is_chosen(rules, setup, seed):
    game = new_game(rules, setup, seed=seed)
    played = _inside_a_combat(game)
    assert played, "no combat reached"
    for house, card in played.items():
        assert card not in game.state.houses[house].hand  # held apart: the state says it is in the combat
        assert card not in game.state.houses[house].discards


def test_a_vassal_hand_is_the_two_cards_it_did_not_play(rules):
    game = new_game(rules, "mod-4p-without-targaryen", seed=3)
    assert isinstance(game, ModGame)
    played = _inside_a_combat(game, played_by_vassal=True)
    assert played, "no vassal combat reached"
    for house, card in played.items():
        if game.is_vassal(house):
            hand = game.state.houses[house].hand
            assert len(hand) == game.game_rec["vassal_hand_size"] - 1 and card not in hand


def test_a_version_3_position_inside_a_combat_is_read_as_meant(rules):
    game = new_game(rules, "base-4p", seed=4)
    played = _inside_a_combat(game)
    assert played
    doc = game.to_state()
    old = copy.deepcopy(doc)
    old["version"] = 3  # as format 3 wrote it: the played cards still in the hands, in the state and checkpoints
    for state in [old["state"]] + [cp["state"] for cp in old["checkpoints"]]:
        for house, card in ((state["step"].get("combat") or {}).get("cards") or {}).items():
            if card:
                state["houses"][house]["hand"].append(card)
    resumed = type(game).from_state(rules, old)
    assert resumed.state.to_json() == doc["state"]
    assert resumed.decision.to_json() == doc["decision"]
