"""Seating by drawn houses (issue 22): `assign-houses()` draws the house of each seat from the game's seed, and every
frontend seats players by it — `maester play --agents N=KIND`, `maester serve --human N`, `maester simulate`'s
seats and the PettingZoo env's `seats()` — with the mapping shown and kept in the log and the position."""

from __future__ import annotations

import json

from typer.testing import CliRunner

from maester.dsl.compile import default_content_dir
from maester.env.seats import deal
from maester.interpreter.core.rules import Rules
from maester.interpreter.effects.pregame import seats
from maester.interpreter.frontends.agents import RandomAgent, SeatedAgents
from maester.interpreter.mod import ModOptions, new_game
from maester.tools.cli import app

from .conftest import REPO

PACK = REPO / "examples" / "packs" / "random-start-positions"
VARIANT = "random-start-positions"


def _rules() -> Rules:
    return Rules.default(VARIANT, [default_content_dir(), PACK])


class Recording(RandomAgent):
    """A random agent that remembers for which houses it was asked."""

    def __init__(self, seed: int):
        super().__init__(seed)
        self.houses: set[str] = set()

    def act(self, game, decision):
        self.houses.add(decision.house)
        return super().act(game, decision)


def test_the_agent_of_seat_n_plays_the_house_seat_n_drew():
    game = new_game(_rules(), "base-6p", seed=5, options=ModOptions(rounds=2))
    drawn = next(e for e in game.events if e["type"] == "houses-assigned")["seats"]
    assert seats(game) == drawn == game.state.modules["pregame"]["seats"]
    assert drawn != [h for h in game.setup_rec["houses"]]  # the draw is not the setup's order
    by_seat = {n: Recording(n) for n in range(1, 7)}
    game.play(SeatedAgents(game, by_seat))
    assert game.over
    assert {n: a.houses for n, a in by_seat.items()} == {n: {h} for n, h in enumerate(drawn, 1)}


def test_without_a_draw_seat_n_plays_the_setups_nth_player_house(bundle):
    game = new_game(Rules(bundle), "base-4p", seed=1)
    assert seats(game) == list(bundle["setups"]["base-4p"]["houses"])


def test_play_shows_the_drawn_seats_and_gives_each_seats_agent_its_house(tmp_path):
    log = tmp_path / "game.json"
    r = CliRunner().invoke(app, ["play", "--pack", str(PACK), "--variant", VARIANT, "--seed", "1", "--quiet",
                                 "--json", "--agents", "2=random", "--log", str(log)])
    assert r.exit_code == 0, r.output
    result = json.loads(r.output)["result"]
    data = json.loads(log.read_text())
    drawn = next(e for e in data["events"] if e["type"] == "houses-assigned")["seats"]
    assert result["seats_drawn"] is True
    assert [s["house"] for s in result["seats"]] == drawn == data["final_state"]["modules"]["pregame"]["seats"]
    assert [s["seat"] for s in result["seats"]] == [1, 2, 3, 4, 5, 6]
    assert [s["agent"] for s in result["seats"]] == ["heuristic", "random", "heuristic", "heuristic", "heuristic",
                                                     "heuristic"]
    assert result["agents"][drawn[1]] == "random"
    assert data["agents"] == "2=random"  # the log keeps the seats named: with the drawn seats, the replay is exact
    replay = CliRunner().invoke(app, ["replay", str(log), "--json"])
    assert replay.exit_code == 0, replay.output
    text = CliRunner().invoke(app, ["play", "--pack", str(PACK), "--variant", VARIANT, "--seed", "1", "--quiet",
                                    "--agents", "2=random"]).output
    assert "seats drawn: 1 " + drawn[0] + " (heuristic), 2 " + drawn[1] + " (random)" in text


def test_an_unknown_seat_is_refused():
    r = CliRunner().invoke(app, ["play", "--pack", str(PACK), "--variant", VARIANT, "--seed", "1", "--quiet",
                                 "--agents", "7=random"])
    assert r.exit_code != 0 and "'7' is not a seat of this game" in r.output and "seats 1 to 6" in r.output


def test_serve_gives_seat_n_the_house_it_drew(tmp_path):
    from maester.tools.serve import Hub
    from maester.tools.serve_store import Store

    hub = Hub(Store(tmp_path / "games.sqlite"), [PACK])
    gid, tokens = hub.new("base-6p", ["1", "3"], seed=4, variant=VARIANT)
    drawn = seats(hub.tables[gid].game)
    assert set(tokens) == {drawn[0], drawn[2]}


def test_simulate_deals_its_seats_over_the_drawn_seats():
    drawn = ["tyrell", "stark", "martell", "baratheon", "greyjoy", "lannister"]
    players = sorted(drawn)
    assert deal(players, {}, {0: "search"}, "random", drawn)["tyrell"] == "search"
    assert deal(players, {}, {0: "search"}, "random")["baratheon"] == "search"  # no draw: the sorted houses


def test_the_env_tells_each_agent_its_seat():
    from maester.env import maester_v1

    env = maester_v1.env(setup="base-6p", rules=_rules(), rounds=1)
    env.reset(seed=3)
    drawn = next(e for e in env.game.events if e["type"] == "houses-assigned")["seats"]
    assert env.seats() == drawn
    assert {h: env.infos[h]["seat"] for h in env.agents} == {h: n for n, h in enumerate(drawn, 1)}
