"""`isearch`: an information-set search agent on a fixed budget (determinized Monte Carlo, heuristic rollouts).

At a decision worth searching it judges the heuristic's answer and up to `candidates - 1` others. Each candidate
is played in the same `samples` *determinizations* (common random numbers): copies of the game where what the
house cannot see is redrawn (`maester.env.search.determinize`: others' unrevealed orders, bids and house card,
the order of every deck, the engine's future draws). A rollout plays the copy on with heuristic agents for all
houses, not to the end of the game but to a *horizon*: the start of the next round's Planning Phase (about one
round: every order, combat and Westeros card the answer touches has played out), then scores the position:

    value(h) = castles + 0.25 × units + 0.1 × supply + 0.03 × power      (a win scores 100)
    score    = value(me) − max over the others of value(other)

The answer with the best mean score is played. The budget is a number of rollouts, never a clock, so a game is
a seed plus decisions (the agent's own generator draws the worlds). Measured cost and strength: docs/agents.md.
"""

from __future__ import annotations

from maester.interpreter.core.decisions import Decision, IllegalDecision
from maester.interpreter.core.rng import Rng, seed_state
from maester.interpreter.frontends.agents import HeuristicAgent

from .search import SEARCHED, determinize

WIN = 100.0
WEIGHTS = {"castles": 1.0, "units": 0.25, "supply": 0.1, "power": 0.03}
MAX_ROLLOUT = 400  # decisions: a safety bound on one rollout (a round of base-6p has about 90)


class _Holder:
    def __init__(self, seed: int):
        self.rng = seed_state(seed)


def value(game, house: str) -> float:
    """How well `house` stands (the weights above); a won game is worth `WIN`, a lost one 0 castles' worth."""
    st = game.state
    if st.winner is not None:
        return WIN if st.winner == house else 0.0
    hs = st.houses[house]
    return (WEIGHTS["castles"] * game.victory_points(house) + WEIGHTS["units"] * st.unit_count(house)
            + WEIGHTS["supply"] * hs.supply + WEIGHTS["power"] * hs.power)


def score(game, house: str, players: list[str]) -> float:
    mine = value(game, house)
    return mine - max(value(game, h) for h in players if h != house)


class InfoSetSearchAgent:
    """Determinized search over the house's information set with short heuristic rollouts (module docstring)."""

    def __init__(self, seed: int = 0, samples: int = 3, candidates: int = 4):
        self._holder = _Holder(seed)
        self._rng = Rng(self._holder)
        self.samples, self.candidates = samples, candidates
        self.heuristic = HeuristicAgent(seed)

    def act(self, game, d: Decision):
        if d.kind not in SEARCHED or len(d.options) < 2:
            return self.heuristic.act(game, d)
        options = self._candidates(game, d)
        if len(options) < 2:
            return options[0]
        from .position import player_houses

        players = player_houses(game)
        worlds = [self._rng.below(1 << 62) for _ in range(self.samples)]
        best, best_score = options[0], float("-inf")
        for option in options:
            total = sum(self._rollout(game, d, option, Rng(_Holder(w)), players) for w in worlds)
            if total > best_score:  # ties keep the earlier candidate: the heuristic's answer comes first
                best, best_score = option, total
        return best

    def _candidates(self, game, d: Decision) -> list:
        first = self.heuristic.act(game, d)
        if d.kind in ("influence-bid", "wildling-bid"):
            top = max(d.options)
            pool = [o for o in dict.fromkeys([0, 1, top // 4, top // 2, top]) if o in d.options]
        else:
            pool = list(d.options)
        others = [o for o in pool if o != first]
        while len(others) > self.candidates - 1:
            others.pop(self._rng.below(len(others)))
        return [first, *others]

    def _rollout(self, game, d: Decision, option, rng: Rng, players: list[str]) -> float:
        g = determinize(game, d.house, rng)
        if g.decision is None or g.decision.house != d.house or not g.decision.is_legal(option):
            g = game.clone()  # the redrawn past changed what is asked: judge on the known position
        start = g.state.round
        try:
            g.answer(option)
            crew = HeuristicAgent(rng.below(1 << 30))  # one greedy agent answers for every house
            for _ in range(MAX_ROLLOUT):
                nd = g.decision
                if nd is None or (g.state.round > start and g.state.phase == "planning"):
                    break
                g.answer(crew.act(g, nd))
        except IllegalDecision:
            return float("-inf")
        return score(g, d.house, players)
