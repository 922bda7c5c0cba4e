"""The strict restart check: at a decision, a new game given only the state (and the run's counts) asks the
same decision, leaves the state as it was and, with the same answers, goes on identically.

Used by tests/test_cursor.py; `python -m tests.restarts [games]` prints, per decision kind, how many
decisions of random games restart from the state alone (for the engineer making a procedure restartable).
"""

from __future__ import annotations

import collections
import json
import sys
from dataclasses import dataclass, field, replace

from maester.interpreter.core.rules import Rules
from maester.interpreter.core.state import GameState
from maester.interpreter.frontends.agents import RandomAgent
from maester.interpreter.mod import ModOptions, new_game
from maester.interpreter.procedures.game import Game

# (setup, seed, tides of battle): base and MoD, 3 to 8 players
GAMES = [("base-3p", 1, False), ("base-4p", 2, True), ("base-6p", 3, False), ("mod-6p-with-targaryen", 4, True),
         ("mod-7p-without-targaryen", 5, False), ("mod-8p", 6, True), ("base-5p", 7, True), ("mod-4p-with-targaryen", 8, False)]


@dataclass
class Report:
    checked: collections.Counter = field(default_factory=collections.Counter)
    failed: collections.Counter = field(default_factory=collections.Counter)
    first: dict = field(default_factory=dict)  # kind -> the first failure, in words

    def add(self, other: Report) -> None:
        self.checked.update(other.checked)
        self.failed.update(other.failed)
        for k, v in other.first.items():
            self.first.setdefault(k, v)

    def text(self) -> str:
        lines = [f"{'decision kind':28} {'checked':>8} {'failed':>8}"]
        for kind, n in self.checked.most_common():
            lines.append(f"{kind:28} {n:8} {self.failed[kind]:8}")
        lines.append(f"{'all':28} {sum(self.checked.values()):8} {sum(self.failed.values()):8}")
        lines += [f"  {kind}: {why}" for kind, why in sorted(self.first.items())]
        return "\n".join(lines)


def restart_here(rules: Rules, game: Game) -> Game:
    """A new game from a JSON copy of the state alone (and the run's counts)."""
    state = GameState.from_json(json.loads(json.dumps(game.state.to_json())))
    return type(game).restarted(rules, state, replace(game.options), json.loads(json.dumps(game.run_counts())))


def replayed(game: Game) -> Game:
    """The same position reached the long way: the history rerun from the latest checkpoint (a reference for a
    restart that does not itself restart from the current state)."""
    return game._rebuilt(len(game.answers), game.actions)


def differs(reference: Game, again: Game, agents: dict, ahead: int) -> str | None:
    """How `again` differs from `reference` over the next `ahead` answers, chosen by `agents` (None: not at all);
    both are played on."""
    start = len(reference.events)
    for step in range(ahead + 1):
        d, e = reference.decision, again.decision
        if (d is None) != (e is None):
            return f"after {step} answers: {'no decision' if e is None else e.kind} where the game asks " \
                   f"{'nothing' if d is None else d.kind}"
        if d is not None and d.to_json() != e.to_json():
            return f"after {step} answers: asks {e.to_json()} instead of {d.to_json()}"
        if again.state.hash() != reference.state.hash():
            return f"after {step} answers: the state differs"
        if again.events != reference.events[start:]:
            return f"after {step} answers: other events"
        if d is None:
            return None
        answer = agents[d.house].act(reference, d)
        reference.answer(answer)
        again.answer(answer)
    return None


def _why(rules: Rules, game: Game, record: list[tuple[dict, str, int]], events: list[dict], answers: list,
         i: int, ahead: int) -> str | None:
    """How a restart from `game`'s state at decision `i` differs from the recorded game over the next `ahead`
    answers (None: not at all). `record[k]` is (decision, state hash, events emitted before it) at decision k."""
    again = restart_here(rules, game)
    base = record[i][2]
    for k in range(i, min(i + ahead, len(record) - 1) + 1):
        step = k - i
        d, want, emitted = record[k]
        got = again.decision.to_json() if again.decision is not None else None
        if got != d:
            return f"after {step} answers: asks {got} instead of {d}"
        if again.state.hash() != want:
            return f"after {step} answers: the state differs"
        if again.events != events[base:emitted]:
            mine, theirs = again.events[-1:], events[base:emitted][-1:]
            return f"after {step} answers: other events ({mine} for {theirs})"
        if d is None:
            return None
        again.answer(answers[k])
    return None


def check_game(rules: Rules, setup: str, seed: int, tides: bool, rounds: int = 4, ahead: int = 2,
               every: int = 1) -> Report:
    """Play a random game and record it; then replay it and, at every `every`-th decision, check that a game
    restarted from the state alone goes on exactly as the recorded game did."""
    report = Report()

    def fresh() -> Game:
        return new_game(rules, setup, seed=seed, options=ModOptions(tides_of_battle=tides, rounds=rounds))

    game = fresh()
    agents = {h: RandomAgent(seed * 31 + i) for i, h in enumerate(game.state.houses)}
    record: list[tuple[dict | None, str, int]] = []
    while game.decision is not None:
        record.append((game.decision.to_json(), game.state.hash(), game.event_count))
        game.answer(agents[game.decision.house].act(game, game.decision))
    record.append((None, game.state.hash(), game.event_count))
    events, answers = game.events, game.answers

    replay = fresh()
    for i, answer in enumerate(answers):
        if i % every == 0:
            kind = record[i][0]["kind"]
            report.checked[kind] += 1
            try:
                why = _why(rules, replay, record, events, answers, i, ahead)
            except Exception as e:  # noqa: BLE001 - a restart that breaks is a finding, reported by kind
                why = f"{type(e).__name__}: {e}"
            if why is not None:
                report.failed[kind] += 1
                report.first.setdefault(kind, f"{setup} seed {seed} decision {i}: {why}")
        replay.answer(answer)
    return report


def main(argv: list[str]) -> int:
    games = int(argv[0]) if argv else len(GAMES)
    rules = Rules.default()
    total = Report()
    for setup, seed, tides in GAMES[:games]:
        total.add(check_game(rules, setup, seed, tides))
    print(total.text())
    return 0 if not total.failed else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
