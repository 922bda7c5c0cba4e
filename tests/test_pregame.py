"""Steps before the game (interpreter/effects/pregame.py): a house card draft, seats drawn at random, an
influence draft, run by a `when game-start` ability; full games of the two packs, restarts from the state
alone, what the views show, and located errors in the content."""

from __future__ import annotations

import pytest

from maester.dsl.compile import default_content_dir
from maester.env.observe import view
from maester.interpreter.core.rules import Rules
from maester.interpreter.frontends.agents import agents_for
from maester.interpreter.mod import ModOptions, new_game

from .conftest import REPO
from .pack_text import compile_pack_text as _diags
from .restarts import check_game

PACKS = REPO / "examples" / "packs"
BASE_6P = ["stark", "lannister", "greyjoy", "baratheon", "tyrell", "martell"]


def _rules(pack: str) -> Rules:
    return Rules.default(pack, [default_content_dir(), PACKS / pack])


@pytest.fixture(scope="module")
def draft() -> Rules:
    return _rules("draft-house-cards")


@pytest.fixture(scope="module")
def start() -> Rules:
    return _rules("random-start-positions")


def test_a_drafted_game_plays_to_its_end_with_the_drafted_hands(draft):
    game = new_game(draft, "base-6p", seed=7)
    order = list(game.turn_order)
    game.play(agents_for(game.state.houses, "random", 7))
    assert game.over and game.state.winner in game.state.houses
    pool = next(e for e in game.events if e["type"] == "draft-pool")["pool"]
    assert len(pool) == 42 and len(set(pool)) == 42  # the 7 base cards of each of the 6 houses
    picks = [e for e in game.events if e["type"] == "draft-pick"]
    assert len(picks) == 42 and sorted(e["pick"] for e in picks) == sorted(pool)
    snake = order + order[::-1]  # the declared order, reversed every other turn
    assert [e["house"] for e in picks] == snake * 3 + order
    drafted = {h: sorted(e["pick"] for e in picks if e["house"] == h) for h in order}
    for h, hs in game.state.houses.items():  # every card a house ever played or held came from its own picks
        assert sorted(hs.hand + hs.discards + hs.removed) == drafted[h]
    cards = draft.bundle["house_cards"]  # the houses play cards printed for other houses
    assert any(cards[c]["house"] != h for h, held in drafted.items() for c in held)


def test_seats_are_drawn_with_the_seed_and_the_tracks_follow_the_picks(start):
    seats = []
    for seed in (1, 1, 2):
        game = new_game(start, "base-6p", seed=seed, options=ModOptions(rounds=1))
        game.play(agents_for(game.state.houses, "random", seed))
        assert game.over
        seats.append(game.state.modules["pregame"]["seats"])
        assert sorted(seats[-1]) == sorted(BASE_6P)
        picks = [e for e in game.events if e["type"] == "influence-pick"]
        assert len(picks) == 18
        for track in game.state.tracks:  # each track is set, before round 1, as its picks placed the houses
            placed = sorted((e["position"], e["house"]) for e in picks if e["track"] == track)
            set_to = [e for e in game.events if e["type"] == "track" and e["track"] == track and e["rule"] == "R4"]
            assert len(set_to) == 1 and set_to[0]["order"] == [h for _, h in placed]
            assert set_to[0]["n"] < next(e["n"] for e in game.events if e["type"] == "orders-revealed" or
                                         e.get("rule") == "R13.4")
    assert seats[0] == seats[1]  # a game is a seed plus decisions
    assert seats[0] != seats[2]


def test_the_draft_is_public_in_every_view(draft):
    game = new_game(draft, "base-4p", seed=3)
    agents = agents_for(game.state.houses, "random", 3)
    for _ in range(5):  # five picks made
        game.answer(agents[game.decision.house].act(game, game.decision))
    assert game.decision.kind == "draft-house-card"
    views = {h: view(game, h)["pregame"]["draft"] for h in game.state.houses}
    first = next(iter(views.values()))
    assert all(v == first for v in views.values())
    assert sum(len(p) for p in first["picks"].values()) == 5 and len(first["pool"]) == 28 - 5
    assert first["pool"] == sorted(game.decision.options)


@pytest.mark.parametrize(("pack", "kind"), [("draft-house-cards", "draft-house-card"),
                                            ("random-start-positions", "influence-position")])
def test_pregame_decisions_restart_from_the_state_alone(pack, kind):
    report = check_game(_rules(pack), "base-4p", 5, False, rounds=1, ahead=2, every=3)
    assert report.checked[kind]
    assert not sum(report.failed.values()), report.text()




@pytest.mark.parametrize(("body", "code"), [
    ("draft-house-cards(base, true)", "wrong-type"),
    ("draft-influence(stark)", "wrong-type"),
    ("draft-house-cards(no-such-set, 7)", "unknown-card-set"),
    ("assign-houses()", "wrong-window"),  # a step before the game, asked at the end of a round
])
def test_a_wrong_argument_is_a_located_error(tmp_path, body, code):
    moment = "round-end" if code == "wrong-window" else "game-start"
    diags = _diags(tmp_path, f'game-ability g "G" {{\n  when {moment} {{\n    {body}\n  }}\n}}\n')
    found = [d for d in diags if d.code == code]
    assert found, [f"{d.code}: {d.message}" for d in diags]
    assert found[0].span.line == 3


def test_a_foreign_card_in_hand_is_refused_without_a_draft(draft, bundle, tmp_path):
    """A scenario may give Stark a Lannister card only under a rules set that drafts house cards."""
    from maester.interpreter.frontends.scenario import Scenario, ScenarioError, run_scenario

    path = PACKS / "draft-house-cards" / "scenarios" / "foreign-card.yaml"
    assert run_scenario(draft, Scenario.load(path)).ok
    # the same position without the pack and variant it names (a scenario plays what it names)
    plain = tmp_path / "foreign-card.yaml"
    plain.write_text("".join(line for line in path.read_text(encoding="utf-8").splitlines(keepends=True)
                             if not line.startswith(("pack:", "variant:"))), encoding="utf-8")
    with pytest.raises(ScenarioError, match="is a lannister card, not one of stark's"):
        run_scenario(Rules(bundle), Scenario.load(plain))
