"""Agents: who answers decisions. One small interface — `act(game, decision) -> answer`.

- `RandomAgent`: uniformly random among the legal answers (its own seeded generator).
- `HeuristicAgent`: simple, greedy preferences (attack when stronger, bid modestly, keep power).
- `ScriptedAgent`: answers from a list (for tests and scenarios); falls back to another agent or fails.
- `SeatedAgents`: agents by seat (players), each answering for the house its seat has (drawn or the setup's).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from typing import Protocol

from ..core.decisions import Decision
from ..core.rng import Rng, seed_state
from ..effects.pregame import seats


class Agent(Protocol):
    def act(self, game, decision: Decision): ...


class _Holder:
    def __init__(self, seed: int):
        self.rng = seed_state(seed)


class RandomAgent:
    """Uniformly random legal answers."""

    def __init__(self, seed: int = 0):
        self._holder = _Holder(seed)
        self._rng = Rng(self._holder)

    def act(self, game, decision: Decision):
        return decision.options[self._rng.below(len(decision.options))]


class HeuristicAgent:
    """Greedy and cheap: prefers marching into castles, playing strong cards, bidding a little."""

    def __init__(self, seed: int = 0):
        self._random = RandomAgent(seed)

    def act(self, game, d: Decision):
        opts = d.options
        kind = d.kind
        if kind in ("influence-bid", "wildling-bid"):
            power = max(opts)
            return min(power, max(0, power // 3))
        if kind == "place-order":
            prefs = ["march-plus-one", "march", "consolidate-power", "support", "defense-plus-one", "raid",
                     "march-minus-one"]
            for p in prefs:
                if p in opts:
                    return p
        if kind == "march":
            castle_moves = [o for o in opts if o != "done" and game.board.area(o.split(":")[1]).has_castle]
            if castle_moves:
                return castle_moves[0]
            moves = [o for o in opts if o != "done"]
            if moves and self._random.act(game, d) != "done":
                return moves[0]
            return "done"
        if kind == "house-card":
            return max(opts, key=lambda c: game.rules.card(c)["strength"])
        if kind in ("blade", "may", "leave-power"):
            return "yes" if "yes" in opts else opts[0]
        if kind == "support":
            return "none"
        if kind == "muster":
            real = [o for o in opts if o != "done"]
            return real[0] if real else "done"
        return self._random.act(game, d)


class ScriptError(Exception):
    """A scripted answer did not fit the decision it was meant for."""


class ScriptedAgent:
    """Answers in order from a script; `fallback` answers once the script is used up."""

    def __init__(self, answers: Iterable, fallback: Agent | None = None):
        self.answers = list(answers)
        self.fallback = fallback

    def act(self, game, decision: Decision):
        if self.answers:
            return self.answers.pop(0)
        if self.fallback is not None:
            return self.fallback.act(game, decision)
        raise ScriptError(f"the script has no answer left for decision #{decision.number} ({decision.kind}: "
                          f"{decision.prompt})")


def agents_for(houses: Iterable[str], kind: str = "random", seed: int = 0) -> dict[str, Agent]:
    make = {"random": RandomAgent, "heuristic": HeuristicAgent}[kind]
    return {h: make(seed * 1009 + i) for i, h in enumerate(sorted(houses))}


class SeatedAgents(Mapping):
    """Agents by seat, looked up by house: the agent of seat N (1 first) answers for the house seat N has now —
    the house `assign-houses` drew for it, or else the Nth player house of the setup (effects/pregame.py `seats`).
    Read at each decision, so a draw made after the first decision seats the players from then on. A house that
    is in no seat (a vassal asked directly) has its agent in `others`."""

    def __init__(self, game, by_seat: dict[int, Agent], others: dict[str, Agent] | None = None):
        self.game, self.by_seat, self.others = game, dict(by_seat), dict(others or {})

    def seat_of(self, house: str) -> int | None:
        order = seats(self.game)
        return order.index(house) + 1 if house in order else None

    def __getitem__(self, house: str) -> Agent:
        seat = self.seat_of(house)
        if seat is not None and seat in self.by_seat:
            return self.by_seat[seat]
        return self.others[house]

    def __iter__(self) -> Iterator[str]:
        return iter(sorted({*(h for h in seats(self.game)), *self.others}))

    def __len__(self) -> int:
        return sum(1 for _ in self)
