"""A search agent: determinized flat Monte Carlo over what the deciding house may know.

At a decision worth searching (orders, marches, house cards, bids, support, ...), the agent samples
*determinizations*: copies of the game (`Game.clone`) in which everything the house cannot see is
redrawn consistently with what it can:

- the opponents' answers it has not seen yet (face-down orders, sealed bids, a house card chosen first)
  are replaced by random legal answers, by rerunning the current phase step from its checkpoint;
- the unseen order of every deck (Westeros, wildlings, Tides of Battle, loans) is reshuffled (the top
  wildling card stays where the house looked at it), and the engine's random state is redrawn, so future
  draws are unknown too.

Each candidate answer is played in several determinizations and the game is rolled out to its end by
heuristic agents; the candidate with the best mean score (1 for a win, plus a small share for castles)
is chosen. Decisions with one sensible answer, or of kinds not worth the time, go to the heuristic agent.
The agent is deterministic for a seed: its own generator draws the determinizations.
"""

from __future__ import annotations

from maester.interpreter.core.decisions import Decision, IllegalDecision
from maester.interpreter.core.position import Checkpoint
from maester.interpreter.core.rng import Rng, seed_state
from maester.interpreter.frontends.agents import HeuristicAgent, RandomAgent
from maester.interpreter.mod.state import DragonsState

from .observe import known_wildling_top

SEARCHED = ("place-order", "march", "house-card", "influence-bid", "wildling-bid", "support", "raid",
            "leave-power", "muster", "consolidate", "messenger-raven", "retreat")
SECRET_KINDS = ("place-order", "vassal-order", "influence-bid", "wildling-bid", "house-card")
REVEALS = {"place-order": "reveal-orders", "vassal-order": "reveal-orders", "influence-bid": "bids",
           "wildling-bid": "bids", "house-card": "reveal"}


class _Holder:
    def __init__(self, seed: int):
        self.rng = seed_state(seed)


def _rerun(game, upto_answers: list, on_decision=None):
    """A new game at the game's last checkpoint, rerun with `upto_answers` from there. `on_decision(i, d, game)`
    may return a replacement answer for the i-th answer (None: the recorded one)."""
    cps = _since_phase_start(game.checkpoints)
    if not cps or game.actions:
        return None  # nothing to rerun from (or gifts in the history): the caller falls back to a clone
    cp: Checkpoint = cps[-1]
    g = type(game)(game.rules, game.state.setup, game.state.seed, game.options, state=cp.game_state(), start=False)
    g.resume_at(cps, game.answers[:cp.answers], [])
    g.start()
    for i in range(cp.answers, len(upto_answers)):
        d = g.decision
        if d is None:
            return None
        value = on_decision(i, d, g) if on_decision else None
        value = upto_answers[i] if value is None else value
        if not d.is_legal(value):
            return None
        g.answer(value)
    return g


def _since_phase_start(checkpoints: list[Checkpoint]) -> list[Checkpoint]:
    """The checkpoints up to the current phase's start (or an earlier one). Checkpoints are phase starts; a state
    later in the phase holds the secret choices made since — other houses' face-down orders, the bids and a
    card chosen for the combat in its frames — which a determinization must be free to redraw, so it reruns
    from the phase's start."""
    for k in range(len(checkpoints) - 1, -1, -1):
        if not checkpoints[k].at:
            return checkpoints[:k + 1]
    return []


def _unseen_answers(game, house: str) -> set[int]:
    """Indices of answers since the last checkpoint that `house` has not seen (others' secret choices whose
    reveal has not happened yet)."""
    seen: list[tuple[int, str, str, int]] = []  # (answer index, decider, kind, events before it)

    def note(i, d, g):
        seen.append((i, d.house, d.kind, len(g.events)))
        return None

    g = _rerun(game, game.answers, note)
    if g is None:
        return set()
    out = set()
    for i, decider, kind, at in seen:
        if decider == house or kind not in SECRET_KINDS:
            continue
        if not any(e["type"] == REVEALS[kind] for e in g.events[at:]):
            out.add(i)
    return out


def determinize(game, house: str, rng: Rng):
    """A copy of `game` where what `house` cannot know is redrawn (see the module docstring)."""
    hidden = _unseen_answers(game, house)
    g = None
    if hidden:
        g = _rerun(game, game.answers, lambda i, d, _g: d.options[rng.below(len(d.options))] if i in hidden else None)
    if g is None:
        g = game.clone()
    else:
        g.events = list(game.events)  # the rerun's own events start at the checkpoint: keep the whole story
    st = g.state
    top = known_wildling_top(game, house)
    for deck in st.decks.values():
        rng.shuffle(deck)
    if top is not None and st.wildling_deck and st.wildling_deck[0] == top:
        rest = st.wildling_deck[1:]
        rng.shuffle(rest)
        st.wildling_deck[1:] = rest
    else:
        rng.shuffle(st.wildling_deck)
    rng.shuffle(st.tides_deck)
    rng.shuffle(DragonsState.of(st).loan_deck)
    st.rng = seed_state(rng.below(1 << 62))
    return g


class SearchAgent:
    """Determinized flat Monte Carlo (see the module docstring). `samples`: determinizations per candidate;
    `candidates`: at most this many answers are searched (the heuristic's choice always among them)."""

    def __init__(self, seed: int = 0, samples: int = 3, candidates: int = 4):
        self._holder = _Holder(seed)
        self._rng = Rng(self._holder)
        self.samples, self.candidates = samples, candidates
        self.heuristic = HeuristicAgent(seed)
        self.random = RandomAgent(seed + 1)

    def act(self, game, d: Decision):
        if d.kind not in SEARCHED or len(d.options) < 2:
            return self.heuristic.act(game, d)
        options = self._candidates(game, d)
        if len(options) < 2:
            return options[0]
        # common random numbers: every candidate is judged in the same sampled worlds (far less noise)
        worlds = [self._rng.below(1 << 62) for _ in range(self.samples)]
        best, best_score = options[0], float("-inf")
        for option in options:
            score = sum(self._playout(game, d, option, Rng(_Holder(w))) for w in worlds) / self.samples
            if score > best_score:
                best, best_score = option, score
        return best

    def _candidates(self, game, d: Decision) -> list:
        first = self.heuristic.act(game, d)
        if d.kind in ("influence-bid", "wildling-bid"):
            top = max(d.options)
            wanted = [0, 1, 2, top // 4, top // 2, top]
            pool = [o for o in dict.fromkeys(wanted) if o in d.options]
        else:
            pool = list(d.options)
        others = [o for o in pool if o != first]
        while len(others) > self.candidates - 1:
            others.pop(self._rng.below(len(others)))
        return [first, *others]

    def _playout(self, game, d: Decision, option, rng: Rng) -> float:
        g = determinize(game, d.house, rng)
        if g.decision is None or g.decision.house != d.house or not g.decision.is_legal(option):
            g = game.clone()  # the redrawn past changed what is asked: judge on the known position
        try:
            g.answer(option)
            rollout = {h: HeuristicAgent(rng.below(1 << 30)) for h in g.state.houses}
            g.play(rollout)
        except IllegalDecision:
            return 0.0
        me = d.house
        points = g.victory_table()
        total = sum(points.values()) or 1
        return (1.0 if g.state.winner == me else 0.0) + 0.2 * points.get(me, 0) / total
